//! Records the YAML events of the embedded profiles (src/profiles/) into `OUT_DIR`, so a run
//! replays them instead of scanning the same text again (src/yaml/recorded_format.rs says why
//! and how).

use std::path::Path;

#[path = "src/yaml/recorded_format.rs"]
// Shared with the crate, which replays with it; the build only records.
#[allow(dead_code)]
mod recorded_format;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    // Naming files to watch replaces cargo's default of re-running on any change in the
    // package, so the recording code is named too.
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/yaml/recorded_format.rs");
    for folder in ["simple", "tosca2"] {
        let source = Path::new("src/profiles").join(folder);
        println!("cargo::rerun-if-changed={}", source.display());
        let target = Path::new(&out).join("profile-events").join(folder);
        std::fs::create_dir_all(&target).expect("OUT_DIR is writable");
        let mut files: Vec<_> = std::fs::read_dir(&source)
            .expect("src/profiles holds the profiles")
            .map(|entry| entry.expect("a readable folder").path())
            .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        for path in files {
            println!("cargo::rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path).expect("a profile is UTF-8 text");
            let events = recorded_format::record(&text).unwrap_or_else(|why| {
                panic!("{}: cannot record its YAML events: {why}", path.display())
            });
            let name = path.file_name().expect("a file").to_string_lossy();
            std::fs::write(target.join(format!("{name}.events")), events)
                .expect("OUT_DIR is writable");
        }
    }
}
