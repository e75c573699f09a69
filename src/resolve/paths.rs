//! Artifact files resolved against the file that names them.

use crate::source::{FileId, Origin, SourceMap};

/// The folder artifact paths are relative to: the CSAR root for a CSAR (zipped: the archive's
/// root, `""`; unpacked: the folder that holds `Entry-Definitions`), else the entry file's folder.
pub fn topology_root(
    sources: &SourceMap,
    entry: FileId,
    entry_definitions: Option<&str>,
) -> Option<String> {
    match &sources.get(entry).origin {
        Origin::Archive { .. } => Some(String::new()),
        origin => {
            let entry_folder = normalize(&folder(origin)?);
            let depth = entry_definitions.map_or(0, |e| normalize(e).matches('/').count());
            let mut root = entry_folder.as_str();
            for _ in 0..depth {
                root = root.rsplit_once('/').map_or("", |(parent, _)| parent);
            }
            Some(root.to_string())
        }
    }
}

/// The path of `file`, written in `defined_in`, relative to `root` (see [`topology_root`]),
/// `/`-separated. `None` for URLs (`file:` ones included, however spelled): those are not files
/// of this template.
pub fn artifact_path(
    sources: &SourceMap,
    root: Option<&str>,
    defined_in: FileId,
    file: &str,
) -> Option<String> {
    let is_file_url = file
        .get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file:"));
    if file.contains("://") || is_file_url {
        return None;
    }
    let base = folder(&sources.get(defined_in).origin)?;
    let root = root?;
    let joined = if file.starts_with('/') {
        normalize(file)
    } else {
        normalize(&format!("{base}/{file}"))
    };
    Some(relative_to(&joined, root))
}

/// The `/`-separated folder a file lives in; archive entries live inside the archive's root.
fn folder(origin: &Origin) -> Option<String> {
    let path = match origin {
        Origin::Path(p) => p.to_string_lossy().replace('\\', "/"),
        Origin::Archive { entry, .. } => entry.clone(),
        Origin::Stdin => "./-".to_string(),
        Origin::Builtin(_) => return None,
    };
    Some(match path.rsplit_once('/') {
        Some(("", _)) => "/".to_string(),
        Some((dir, _)) => dir.to_string(),
        None => ".".to_string(),
    })
}

/// Lexical normalisation: `.` dropped, `x/..` folded (leading `..` kept).
fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// `path` relative to the folder `root` (both normalised). An absolute path stays absolute
/// under a relative root: nothing relates the two but the current directory.
fn relative_to(path: &str, root: &str) -> String {
    if root.is_empty() || (path.starts_with('/') && !root.starts_with('/')) {
        return path.to_string();
    }
    let path_parts: Vec<&str> = path.split('/').collect();
    let root_parts: Vec<&str> = root.split('/').collect();
    let common = path_parts
        .iter()
        .zip(&root_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out: Vec<&str> = vec![".."; root_parts.len() - common];
    out.extend(&path_parts[common..]);
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn files_are_relative_to_the_entry_folder() {
        let mut map = SourceMap::new();
        let entry = map.add(
            "t/main.yaml",
            Origin::Path(PathBuf::from("t/main.yaml")),
            "",
        );
        let types = map.add(
            "t/types/a.yaml",
            Origin::Path(PathBuf::from("t/types/../lib/a.yaml")),
            "",
        );
        let root = topology_root(&map, entry, None);
        assert_eq!(root.as_deref(), Some("t"));
        let root = root.as_deref();
        assert_eq!(
            artifact_path(&map, root, entry, "scripts/x.sh").as_deref(),
            Some("scripts/x.sh")
        );
        assert_eq!(
            artifact_path(&map, root, types, "x.sh").as_deref(),
            Some("lib/x.sh")
        );
        assert_eq!(
            artifact_path(&map, root, types, "../../up.sh").as_deref(),
            Some("../up.sh")
        );
        assert_eq!(artifact_path(&map, root, entry, "https://x/y.sh"), None);
        assert_eq!(artifact_path(&map, root, entry, "FILE:/etc/passwd"), None);
    }

    #[test]
    fn climbs_above_the_start_are_kept() {
        assert_eq!(normalize("../../a"), "../../a");
        assert_eq!(normalize("x/../../a"), "../a");
        assert_eq!(normalize("/../a"), "/a");
        // An artifact three folders up from a template one folder deep stays three up.
        let mut map = SourceMap::new();
        let entry = map.add(
            "t/main.yaml",
            Origin::Path(PathBuf::from("t/main.yaml")),
            "",
        );
        let root = topology_root(&map, entry, None);
        assert_eq!(
            artifact_path(&map, root.as_deref(), entry, "../../../up.sh").as_deref(),
            Some("../../../up.sh")
        );
    }

    #[test]
    fn an_unpacked_csar_resolves_against_its_root() {
        let mut map = SourceMap::new();
        let entry = map.add(
            "c/Definitions/s.yaml",
            Origin::Path(PathBuf::from("c/Definitions/s.yaml")),
            "",
        );
        let root = topology_root(&map, entry, Some("Definitions/s.yaml"));
        assert_eq!(root.as_deref(), Some("c"));
        assert_eq!(
            artifact_path(&map, root.as_deref(), entry, "../Scripts/i.sh").as_deref(),
            Some("Scripts/i.sh")
        );
    }

    #[test]
    fn archive_entries_resolve_inside_the_archive() {
        let mut map = SourceMap::new();
        let archive = PathBuf::from("a.csar");
        let entry = map.add(
            "a.csar!/Definitions/main.yaml",
            Origin::Archive {
                archive: archive.clone(),
                entry: "Definitions/main.yaml".into(),
            },
            "",
        );
        let root = topology_root(&map, entry, Some("Definitions/main.yaml"));
        assert_eq!(root.as_deref(), Some(""));
        assert_eq!(
            artifact_path(&map, root.as_deref(), entry, "../Scripts/i.sh").as_deref(),
            Some("Scripts/i.sh")
        );
        assert_eq!(
            artifact_path(&map, root.as_deref(), entry, "i.sh").as_deref(),
            Some("Definitions/i.sh")
        );
    }
}
