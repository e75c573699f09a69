//! The language server's re-check after a one-character edit of a 1,000-node template
//! (issue 30 asks for 50 ms on this machine's class of hardware): `benches/gen.py --units 167`
//! (1,002 node templates), the edit made in the unsaved text (the overlay), then the whole
//! check the server runs on it: the pipeline, the diagnostics converted, the index built.
//!
//! `cargo bench --bench lsp`. A benchmark, not a test: nothing asserts a time.

use std::path::PathBuf;
use std::sync::Arc;

use toscana::lsp::check::{Settings, check};
use toscana::source::Overlay;

fn main() {
    divan::main();
}

/// The generated template and its text, made once.
fn template() -> &'static (tempfile::TempDir, PathBuf, String) {
    static TEMPLATE: std::sync::OnceLock<(tempfile::TempDir, PathBuf, String)> =
        std::sync::OnceLock::new();
    TEMPLATE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/gen.py"))
            .args(["--units", "167", "-o"])
            .arg(dir.path())
            .status()
            .expect("python3 runs benches/gen.py");
        assert!(status.success());
        let entry = dir.path().join("service.yaml").canonicalize().unwrap();
        let text = std::fs::read_to_string(&entry).unwrap();
        (dir, entry, text)
    })
}

#[divan::bench(sample_count = 20)]
fn recheck_after_one_character(bencher: divan::Bencher) {
    let (_, entry, text) = template();
    // The first `A` becomes `B` at every other edit, as a keystroke would.
    let mut upper = false;
    bencher
        .with_inputs(|| {
            upper = !upper;
            let edited = match upper {
                true => text.replacen('A', "B", 1),
                false => text.clone(),
            };
            Overlay::new([(entry.clone(), Arc::<str>::from(edited))])
        })
        .bench_local_values(|overlay| check(entry, overlay, &Settings::default()));
}
