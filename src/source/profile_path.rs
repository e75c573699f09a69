//! Finding a TOSCA 2.0 profile by name in the folders of `--profile-path`.
//!
//! A profile name is `<reverse domain>[:<version>]` by convention (§6.7.1 Grammar of §6.7 Profiles), and profile
//! collections lay profiles out by name: `io.kubernetes:1.35` in `io/kubernetes/1.35/`,
//! `community.tosca.abstract.platform:0.1` in `community/tosca/abstract/platform/` (the layout of
//! the OASIS community profiles). The file found must declare the profile it is asked for
//! (`profile: <name>`), so a folder that happens to match the path is not taken by mistake.
//!
//! A profile name is a name, not a path: one that would reach outside the folder (`/some/dir`,
//! `..`, a `\` or NUL) matches nothing, and a folder or file that a symbolic link takes outside
//! the `--profile-path` folder is not read (see [`super::confine`]).

use std::path::Path;

use super::confine::Root;

/// The profile file for `name` under one of `roots`, the first that declares that name: the
/// index of the root and the file's `/`-separated path inside it.
pub(crate) fn find(roots: &[Root], name: &str) -> Option<(usize, String)> {
    let (dotted, version) = match name.rsplit_once(':') {
        Some((d, v)) => (d, Some(v)),
        None => (name, None),
    };
    let plain = |part: &str| {
        !part.is_empty() && part != "." && part != ".." && !part.contains(['/', '\\', '\0', ':'])
    };
    if !dotted.split('.').all(plain) {
        return None;
    }
    let relative = dotted.split('.').collect::<Vec<_>>().join("/");
    for (i, root) in roots.iter().enumerate() {
        let mut folders = Vec::new();
        if let Some(v) = version.filter(|v| plain(v)) {
            folders.push(format!("{relative}/{v}"));
        }
        folders.push(relative.clone());
        for folder in folders {
            if let Some(file) = declaring(root, &folder, name) {
                return Some((i, format!("{folder}/{file}")));
            }
        }
    }
    None
}

/// The YAML file of `folder` (inside `root`) that declares `profile: name` (`profile.yaml`
/// first).
fn declaring(root: &Root, folder: &str, name: &str) -> Option<String> {
    let dir = root.locate(folder);
    root.admits(&dir).ok()?;
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| {
            let path = dir.join(n);
            matches!(
                Path::new(n).extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            ) && path.is_file()
                && root.admits(&path).is_ok()
        })
        .collect();
    files.sort_by_key(|n| (n != "profile.yaml", n.clone()));
    files.into_iter().find(|file| {
        std::fs::read_to_string(dir.join(file)).is_ok_and(|text| {
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
    use super::super::confine::RootKind;
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
        let roots = [Root::new(dir.path(), Path::new(""), RootKind::ProfilePath)];
        assert_eq!(
            find(&roots, "io.kubernetes:1.35"),
            Some((0, "io/kubernetes/1.35/profile.yaml".to_string()))
        );
        assert_eq!(
            find(&roots, "org.example.app:0.1"),
            Some((0, "org/example/app/profile.yaml".to_string()))
        );
        // The folder exists, but its file declares another version.
        assert_eq!(find(&roots, "io.kubernetes:1.34"), None);
        assert_eq!(find(&roots, "..:1"), None);
    }

    #[test]
    fn a_profile_name_is_never_a_path_out_of_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(
            outside.join("profile.yaml"),
            "tosca_definitions_version: tosca_2_0\nprofile: /x\n",
        )
        .unwrap();
        let catalog = tmp.path().join("catalog");
        std::fs::create_dir_all(&catalog).unwrap();
        let roots = [Root::new(&catalog, Path::new(""), RootKind::ProfilePath)];
        let abs = outside.display().to_string();
        for name in [
            abs.as_str(),
            "/x",
            "a./x",
            "..",
            "a..b",
            "a.b:../..",
            "x\\y",
            "c:.x",
        ] {
            assert_eq!(find(&roots, name), None, "{name}");
        }
        #[cfg(unix)]
        {
            // A folder of the catalog that is a link to a folder outside it.
            std::fs::write(
                outside.join("profile.yaml"),
                "tosca_definitions_version: tosca_2_0\nprofile: org.evil\n",
            )
            .unwrap();
            std::fs::create_dir_all(catalog.join("org")).unwrap();
            std::os::unix::fs::symlink(&outside, catalog.join("org/evil")).unwrap();
            assert_eq!(find(&roots, "org.evil"), None);
        }
    }
}
