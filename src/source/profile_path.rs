//! Finding a TOSCA 2.0 profile by name in the folders of `--profile-path`.
//!
//! A profile name is `<reverse domain>[:<version>]` by convention (L1502-1518), and profile
//! collections lay profiles out by name: `io.kubernetes:1.35` in `io/kubernetes/1.35/`,
//! `community.tosca.abstract.platform:0.1` in `community/tosca/abstract/platform/` (the layout of
//! the OASIS community profiles). The file found must declare the profile it is asked for
//! (`profile: <name>`), so a folder that happens to match the path is not taken by mistake.

use std::path::{Path, PathBuf};

/// The profile file for `name` under one of `roots`, the first that declares that name.
pub fn find(roots: &[PathBuf], name: &str) -> Option<PathBuf> {
    let (dotted, version) = match name.rsplit_once(':') {
        Some((d, v)) => (d, Some(v)),
        None => (name, None),
    };
    if dotted.is_empty()
        || dotted
            .split('.')
            .any(|part| part.is_empty() || part == "..")
    {
        return None;
    }
    let relative: PathBuf = dotted.split('.').collect();
    for root in roots {
        let base = root.join(&relative);
        let mut folders = Vec::new();
        if let Some(v) = version.filter(|v| !v.contains(['/', '\\']) && *v != "..") {
            folders.push(base.join(v));
        }
        folders.push(base);
        for folder in folders {
            if let Some(file) = declaring(&folder, name) {
                return Some(file);
            }
        }
    }
    None
}

/// The YAML file of `folder` that declares `profile: name` (`profile.yaml` first).
fn declaring(folder: &Path, name: &str) -> Option<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file() && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
        })
        .collect();
    files.sort_by_key(|p| (p.file_name() != Some("profile.yaml".as_ref()), p.clone()));
    files.into_iter().find(|file| {
        std::fs::read_to_string(file).is_ok_and(|text| {
            text.lines().any(|line| {
                line.strip_prefix("profile:").map(|v| {
                    v.split('#')
                        .next()
                        .unwrap_or("")
                        .trim()
                        .trim_matches(['"', '\''])
                }) == Some(name)
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_found_by_name_with_or_without_a_version_folder() {
        let dir = tempfile::tempdir().unwrap();
        let versioned = dir.path().join("io/kubernetes/1.35");
        std::fs::create_dir_all(&versioned).unwrap();
        std::fs::write(
            versioned.join("profile.yaml"),
            "tosca_definitions_version: tosca_2_0\nprofile: io.kubernetes:1.35\n",
        )
        .unwrap();
        let flat = dir.path().join("org/example/app");
        std::fs::create_dir_all(&flat).unwrap();
        std::fs::write(
            flat.join("profile.yaml"),
            "tosca_definitions_version: tosca_2_0\nprofile: \"org.example.app:0.1\"\n",
        )
        .unwrap();
        let roots = [dir.path().to_path_buf()];
        assert_eq!(
            find(&roots, "io.kubernetes:1.35"),
            Some(versioned.join("profile.yaml"))
        );
        assert_eq!(
            find(&roots, "org.example.app:0.1"),
            Some(flat.join("profile.yaml"))
        );
        // The folder exists, but its file declares another version.
        assert_eq!(find(&roots, "io.kubernetes:1.34"), None);
        assert_eq!(find(&roots, "..:1"), None);
    }
}
