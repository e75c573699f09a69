//! The journal of a folder write: what a run was about to rename, so that a run killed halfway
//! is finished by the next one.
//!
//! A folder write stages every new file in `.toscana-staging/` inside the output folder, then
//! commits by writing `.toscana-journal` (under a temporary name, renamed into place: the rename
//! is the commit), then renames the staged files over their targets, then removes the journal
//! and the staging folder. A run that dies before the commit leaves the folder as it was, plus
//! the staging folder; one that dies after it leaves a journal. The next run that writes into
//! the folder (or merely names it with `-o`) first rolls the journal forward, renaming what is
//! still staged, so the folder holds exactly the new files, then removes what is left: either
//! way it is never a mix of two runs once a toscana run has looked at it.
//!
//! The journal is text, one `name<TAB>path` line per file (the staged file's name and the
//! target's path, `/`-separated, relative to the folder), between a header line and a `commit N`
//! line; a journal without its commit line is not one (it never got its final name, but a
//! damaged one is treated the same) and is rolled back.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The staging folder inside the output folder.
pub(super) const STAGING: &str = ".toscana-staging";
/// The journal inside the output folder.
pub(super) const JOURNAL: &str = ".toscana-journal";
/// The journal while it is written, before the rename that commits it.
const JOURNAL_DRAFT: &str = ".toscana-journal.draft";
const HEADER: &str = "toscana output journal 1";

/// One staged file: its name in the staging folder and the target's relative path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) staged: String,
    pub(super) target: String,
}

/// Writes the journal of `entries` into `dir` and commits it (one rename).
pub(super) fn commit(dir: &Path, entries: &[Entry]) -> io::Result<()> {
    let mut text = format!("{HEADER}\n");
    for e in entries {
        text.push_str(&format!("{}\t{}\n", e.staged, e.target));
    }
    text.push_str(&format!("commit {}\n", entries.len()));
    let draft = dir.join(JOURNAL_DRAFT);
    remove_entry(&draft)?;
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&draft)?;
    file.write_all(text.as_bytes())?;
    drop(file);
    fs::rename(&draft, dir.join(JOURNAL))
}

/// The entries of the committed journal in `dir`, if there is one.
fn read(dir: &Path) -> Option<Vec<Entry>> {
    let path = dir.join(JOURNAL);
    if !fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let text = fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return None;
    }
    let mut entries = Vec::new();
    for line in lines {
        if let Some(count) = line.strip_prefix("commit ") {
            return (count.parse() == Ok(entries.len())).then_some(entries);
        }
        let (staged, target) = line.split_once('\t')?;
        super::check_path(target).ok()?;
        if staged.contains(['/', '\\']) || staged.starts_with('.') {
            return None;
        }
        entries.push(Entry {
            staged: staged.to_string(),
            target: target.to_string(),
        });
    }
    None
}

/// Finishes what a killed run left in `dir` (see the module docs): rolls a committed journal
/// forward, then removes the journal, its draft and the staging folder. Returns the targets it
/// completed.
pub(super) fn recover(dir: &Path) -> io::Result<Vec<String>> {
    let mut completed = Vec::new();
    if let Some(entries) = read(dir) {
        let staging = dir.join(STAGING);
        for e in entries {
            let staged = staging.join(&e.staged);
            if fs::symlink_metadata(&staged).is_err() {
                continue; // renamed before the run died
            }
            let target = target_path(dir, &e.target);
            super::folder::make_parents(dir, &target)?;
            fs::rename(&staged, &target)?;
            completed.push(e.target);
        }
    }
    remove_entry(&dir.join(JOURNAL))?;
    remove_entry(&dir.join(JOURNAL_DRAFT))?;
    remove_entry(&dir.join(STAGING))?;
    Ok(completed)
}

/// The file system path of the relative target `path` in `dir`.
pub(super) fn target_path(dir: &Path, path: &str) -> PathBuf {
    path.split('/').fold(dir.to_path_buf(), |p, c| p.join(c))
}

/// Removes a file, link or folder (with what it holds) if it is there; a link is removed
/// itself, never followed.
pub(super) fn remove_entry(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(staged: &str, target: &str) -> Entry {
        Entry {
            staged: staged.into(),
            target: target.into(),
        }
    }

    #[test]
    fn a_committed_journal_is_rolled_forward_from_where_it_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("a.yaml"), "old a").unwrap();
        fs::write(d.join("b.yaml"), "old b").unwrap();
        fs::create_dir(d.join(STAGING)).unwrap();
        // `a` was renamed already, `b` and `k8s/c` were not.
        fs::write(d.join("a.yaml"), "new a").unwrap();
        fs::write(d.join(STAGING).join("2"), "new b").unwrap();
        fs::write(d.join(STAGING).join("3"), "new c").unwrap();
        commit(
            d,
            &[
                entry("1", "a.yaml"),
                entry("2", "b.yaml"),
                entry("3", "k8s/c.yaml"),
            ],
        )
        .unwrap();
        let done = recover(d).unwrap();
        assert_eq!(done, ["b.yaml", "k8s/c.yaml"]);
        assert_eq!(fs::read_to_string(d.join("a.yaml")).unwrap(), "new a");
        assert_eq!(fs::read_to_string(d.join("b.yaml")).unwrap(), "new b");
        assert_eq!(fs::read_to_string(d.join("k8s/c.yaml")).unwrap(), "new c");
        assert!(!d.join(JOURNAL).exists() && !d.join(STAGING).exists());
    }

    #[test]
    fn a_journal_without_its_commit_line_is_rolled_back() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("a.yaml"), "old a").unwrap();
        fs::create_dir(d.join(STAGING)).unwrap();
        fs::write(d.join(STAGING).join("1"), "new a").unwrap();
        fs::write(d.join(JOURNAL), format!("{HEADER}\n1\ta.yaml\n")).unwrap();
        fs::write(
            d.join(JOURNAL_DRAFT),
            format!("{HEADER}\n1\ta.yaml\ncommit 1\n"),
        )
        .unwrap();
        assert!(recover(d).unwrap().is_empty());
        assert_eq!(fs::read_to_string(d.join("a.yaml")).unwrap(), "old a");
        let left: Vec<_> = fs::read_dir(d).unwrap().collect();
        assert_eq!(left.len(), 1, "only a.yaml is left");
    }

    #[test]
    fn a_journal_naming_a_path_out_of_the_folder_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("out");
        fs::create_dir_all(d.join(STAGING)).unwrap();
        fs::write(d.join(STAGING).join("1"), "x").unwrap();
        fs::write(
            d.join(JOURNAL),
            format!("{HEADER}\n1\t../escape\ncommit 1\n"),
        )
        .unwrap();
        assert!(recover(&d).unwrap().is_empty());
        assert!(!dir.path().join("escape").exists());
    }
}
