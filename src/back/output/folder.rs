//! Writing several files into one output folder: all of them or none, by one run at a time,
//! never through a link.
//!
//! The steps, each of which a later one relies on:
//!
//! 1. **Lock** the folder ([`super::lock`]): a second writer fails at once and changes nothing.
//! 2. **Recover** what a killed run left ([`super::journal::recover`]), so this run starts from
//!    a folder that is entirely one run's output, and **sweep** the `.toscana-*.tmp` files that
//!    earlier versions of toscana left in the folders this run writes to.
//! 3. **Plan**: every target is checked before anything changes: no folder on its way and no
//!    file at its place is a symbolic link (a link planted in the output folder would take the
//!    write elsewhere), no folder is a file and no file a folder. A file whose content did not
//!    change is left out, so its modification time stays (`make`, `kubectl diff`).
//! 4. **Stage** every changed file in `.toscana-staging/` inside the folder (same file system,
//!    so the renames below cannot fail for space), each closed once written, since a backend
//!    may write more files than a process may hold open.
//! 5. **Commit** by writing the journal ([`super::journal::commit`]): from here on the new
//!    output is what the folder will hold, even if the run is killed.
//! 6. **Apply**: each old file is moved into the staging folder and the new one renamed into
//!    its place. Should a rename fail (a folder made read-only meanwhile), everything done is
//!    undone and the folder is as it was.
//! 7. **Finish**: the journal and the staging folder (with the old files) are removed.
//!
//! Killed before step 5, the folder is the old output plus a staging folder; after it, the new
//! output is partly in place and the journal says what is left: the next run that names the
//! folder finishes it (step 2). Readers that look at the folder while a run is in step 6 see
//! a mix for as long as the renames take, as with any folder that is updated file by file; a
//! swap of whole folders would hide that, but it needs a second folder beside the output (a
//! write outside `-o`), cannot replace `.` or a mount point, and would drop the files of
//! earlier runs that this run does not write.
//!
//! Files of earlier runs that this run does not produce are left alone, like any other file
//! in the folder. The guarantee is against the process dying (killed, out of memory, a crash);
//! files are not flushed to the disk one by one (`fsync`), which would cost a disk write per
//! file, so after a power cut the file system's own guarantees apply.

use std::collections::{HashMap, HashSet};
use std::fs::{self, FileType};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, codes};

use super::journal::{self, Entry, STAGING, remove_entry, target_path};
use super::lock::FolderLock;
use super::{Blob, WriteReport};

/// Writes `files` into `dir` (see the module docs).
pub(super) fn write_folder(dir: &Path, files: &[Blob]) -> Result<WriteReport, Diagnostic> {
    if let Ok(meta) = fs::metadata(dir)
        && !meta.is_dir()
    {
        return Err(Diagnostic::error(
            codes::OUTPUT_WRITE,
            format!(
                "cannot write into `{}`: it is not a directory",
                dir.display()
            ),
        )
        .in_file(dir.display().to_string()));
    }
    let mut made = create_all(dir).map_err(|e| fail(dir, "create the output directory", &e))?;
    let result = locked_write(dir, files, &mut made);
    if result.is_err() {
        for folder in made.iter().rev() {
            let _ = fs::remove_dir(folder);
        }
    }
    result
}

/// Finishes what a killed run left in `dir`, if `dir` is an output folder with anything left
/// (a journal, a staging folder, a lock file no run holds); for a run that names the folder
/// with `-o` but may fail before it writes. A folder that another run is writing right now is
/// left to that run. Returns the files it put in place.
pub fn recover(dir: &Path) -> Result<Vec<String>, Diagnostic> {
    let leftover = [journal::JOURNAL, STAGING, super::lock::LOCK_NAME]
        .iter()
        .any(|name| fs::symlink_metadata(dir.join(name)).is_ok());
    if !leftover {
        return Ok(Vec::new());
    }
    let _lock = match FolderLock::acquire(dir) {
        Ok(lock) => lock,
        Err(d) if d.code == codes::OUTPUT_LOCKED => return Ok(Vec::new()),
        Err(d) => return Err(d),
    };
    journal::recover(dir).map_err(|e| fail(dir, "finish the interrupted write into", &e))
}

fn locked_write(
    dir: &Path,
    files: &[Blob],
    made: &mut Vec<PathBuf>,
) -> Result<WriteReport, Diagnostic> {
    let _lock = FolderLock::acquire(dir)?;
    journal::recover(dir).map_err(|e| fail(dir, "finish the interrupted write into", &e))?;
    let plan = plan(dir, files)?;
    if plan.changed.is_empty() {
        return Ok(plan.report);
    }
    let staging = dir.join(STAGING);
    fs::create_dir(&staging).map_err(|e| fail(&staging, "create", &e))?;
    let result = stage_and_apply(dir, &staging, &plan, made);
    let _ = remove_entry(&staging);
    result.map(|()| plan.report)
}

/// What a run will write: the changed files (with whether an old file is in the way), and the
/// report of written and unchanged paths.
struct Plan<'a> {
    changed: Vec<(&'a Blob<'a>, bool)>,
    report: WriteReport,
}

/// Checks every target (step 3 of the module docs) and leaves out the unchanged files.
fn plan<'a>(dir: &Path, files: &'a [Blob<'a>]) -> Result<Plan<'a>, Diagnostic> {
    let mut folders = Folders::default();
    let mut plan = Plan {
        changed: Vec::new(),
        report: WriteReport::default(),
    };
    for file in files {
        let target = target_path(dir, file.path);
        let (folder, name) = match file.path.rsplit_once('/') {
            Some((folder, name)) => (folder, name),
            None => ("", file.path),
        };
        let listing = folders
            .listing(dir, folder)
            .map_err(|why| refused(&target, &why))?;
        let old = match listing.and_then(|l| l.get(name)) {
            None => None,
            Some(kind) if kind.is_symlink() => {
                return Err(refused(
                    &target,
                    "it is a symbolic link, and toscana never writes through one",
                ));
            }
            Some(kind) if kind.is_dir() => {
                return Err(refused(&target, "a directory of that name exists"));
            }
            Some(_) => {
                Some(same_bytes(&target, file.bytes).map_err(|e| fail(&target, "read", &e))?)
            }
        };
        match old {
            Some(true) => plan.report.unchanged.push(file.path.to_string()),
            old => {
                plan.changed.push((file, old.is_some()));
                plan.report.written.push(file.path.to_string());
            }
        }
    }
    Ok(plan)
}

/// Whether the file at `path` holds exactly `bytes` (its size first, so a large changed file is
/// not read).
fn same_bytes(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    if fs::symlink_metadata(path)?.len() != bytes.len() as u64 {
        return Ok(false);
    }
    Ok(fs::read(path)? == bytes)
}

/// The folders of a plan: each checked once on its way from the output folder, and listed once
/// (its names and their kinds, without a `stat` per file).
#[derive(Default)]
struct Folders {
    /// Folders (relative, `/`-separated) known to be real folders or missing.
    checked: HashSet<String>,
    /// The listing of each existing folder; `None` for one that does not exist yet.
    listings: HashMap<String, Option<HashMap<String, FileType>>>,
}

impl Folders {
    /// The listing of `folder` (relative to `dir`), or `None` when it does not exist yet; why
    /// not when a link or a file is on its way.
    fn listing(
        &mut self,
        dir: &Path,
        folder: &str,
    ) -> Result<Option<&HashMap<String, FileType>>, String> {
        if !self.listings.contains_key(folder) {
            let exists = self.route(dir, folder)?;
            let listing = match exists {
                true => Some(list_and_sweep(&target_path(dir, folder)).map_err(|e| e.to_string())?),
                false => None,
            };
            self.listings.insert(folder.to_string(), listing);
        }
        Ok(self.listings[folder].as_ref())
    }

    /// Whether `folder` exists, after checking every folder from `dir` down to it: each a real
    /// folder or missing (and then so is everything below it).
    fn route(&mut self, dir: &Path, folder: &str) -> Result<bool, String> {
        if folder.is_empty() {
            return Ok(true);
        }
        let mut prefix = String::new();
        for part in folder.split('/') {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(part);
            if self.checked.contains(&prefix) {
                if self.listings.get(&prefix).is_some_and(Option::is_none) {
                    return Ok(false);
                }
                continue;
            }
            let path = target_path(dir, &prefix);
            self.checked.insert(prefix.clone());
            match fs::symlink_metadata(&path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    return Err(format!(
                        "`{}` is a symbolic link, and toscana never writes through one",
                        path.display()
                    ));
                }
                Ok(meta) if !meta.is_dir() => {
                    return Err(format!(
                        "`{}` is a file, where the output needs a folder",
                        path.display()
                    ));
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    self.listings.insert(prefix, None);
                    return Ok(false);
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(true)
    }
}

/// The names in `folder` with their kinds; temporary files that earlier versions of toscana
/// left (`.toscana-*.tmp`) are removed on the way.
fn list_and_sweep(folder: &Path) -> io::Result<HashMap<String, FileType>> {
    let mut names = HashMap::new();
    for entry in fs::read_dir(folder)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(".toscana-") && name.ends_with(".tmp") && !kind.is_dir() {
            let _ = fs::remove_file(entry.path());
            continue;
        }
        names.insert(name, kind);
    }
    Ok(names)
}

/// Steps 4 to 7 of the module docs.
fn stage_and_apply(
    dir: &Path,
    staging: &Path,
    plan: &Plan,
    made: &mut Vec<PathBuf>,
) -> Result<(), Diagnostic> {
    let mut entries = Vec::with_capacity(plan.changed.len());
    for (i, (file, _)) in plan.changed.iter().enumerate() {
        let staged = staging.join(i.to_string());
        let target = target_path(dir, file.path);
        fs::File::create_new(&staged)
            .and_then(|mut f| f.write_all(file.bytes))
            .map_err(|e| fail(&target, "write", &e))?;
        entries.push(Entry {
            staged: i.to_string(),
            target: file.path.to_string(),
        });
    }
    journal::commit(dir, &entries).map_err(|e| fail(dir, "commit the output into", &e))?;
    for (i, (file, replaces)) in plan.changed.iter().enumerate() {
        let target = target_path(dir, file.path);
        if let Err(e) = apply_one(dir, staging, i, &target, *replaces, made) {
            undo(dir, staging, &plan.changed[..=i]);
            let _ = remove_entry(&dir.join(journal::JOURNAL));
            return Err(fail(&target, "replace", &e));
        }
    }
    remove_entry(&dir.join(journal::JOURNAL)).map_err(|e| fail(dir, "finish writing into", &e))
}

/// Puts the staged file `i` at `target`, moving the old file (if `replaces`) into the staging
/// folder first, where [`undo`] finds it.
fn apply_one(
    dir: &Path,
    staging: &Path,
    i: usize,
    target: &Path,
    replaces: bool,
    made: &mut Vec<PathBuf>,
) -> io::Result<()> {
    made.extend(make_parents(dir, target)?);
    if replaces {
        fs::rename(target, staging.join(format!("old-{i}")))?;
    }
    fs::rename(staging.join(i.to_string()), target)
}

/// Takes back what [`apply_one`] did for `changed`, last first: each new file back into the
/// staging folder, each old one back into its place.
fn undo(dir: &Path, staging: &Path, changed: &[(&Blob, bool)]) {
    for (i, (file, _)) in changed.iter().enumerate().rev() {
        let target = target_path(dir, file.path);
        let staged = staging.join(i.to_string());
        if fs::symlink_metadata(&staged).is_err() {
            let _ = fs::rename(&target, &staged);
        }
        let old = staging.join(format!("old-{i}"));
        if fs::symlink_metadata(&old).is_ok() {
            let _ = fs::rename(&old, &target);
        }
    }
}

/// Creates the missing folders between `dir` and the file `target`, refusing a link or a file
/// on the way; returns the folders it made, outermost first.
pub(super) fn make_parents(dir: &Path, target: &Path) -> io::Result<Vec<PathBuf>> {
    let mut made = Vec::new();
    let Some(parent) = target.parent() else {
        return Ok(made);
    };
    let Ok(inside) = parent.strip_prefix(dir) else {
        return Err(io::Error::other("the path leaves the output folder"));
    };
    let mut path = dir.to_path_buf();
    for part in inside.components() {
        path.push(part);
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(io::Error::other(format!(
                    "`{}` is a symbolic link, and toscana never writes through one",
                    path.display()
                )));
            }
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(io::Error::other(format!(
                    "`{}` is a file, where the output needs a folder",
                    path.display()
                )));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir(&path)?;
                made.push(path.clone());
            }
            Err(e) => return Err(e),
        }
    }
    Ok(made)
}

/// Creates `dir` and its missing ancestors; returns the ones it made, outermost first.
fn create_all(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let missing: Vec<&Path> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && fs::symlink_metadata(d).is_err())
        .collect();
    let mut made = Vec::new();
    for d in missing.into_iter().rev() {
        match fs::create_dir(d) {
            Ok(()) => made.push(d.to_path_buf()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && d.is_dir() => {}
            Err(e) => return Err(e),
        }
    }
    Ok(made)
}

/// An IO failure on `path`: nothing was changed.
fn fail(path: &Path, what: &str, e: &io::Error) -> Diagnostic {
    Diagnostic::error(
        codes::OUTPUT_WRITE,
        format!("cannot {what} `{}`: {e}", path.display()),
    )
    .hint("nothing was changed in the output directory")
    .in_file(path.display().to_string())
}

/// A target that cannot be written as it is: nothing was changed.
fn refused(target: &Path, why: &str) -> Diagnostic {
    Diagnostic::error(
        codes::OUTPUT_WRITE,
        format!("cannot write `{}`: {why}", target.display()),
    )
    .hint("nothing was changed in the output directory; remove what is in the way")
    .in_file(target.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob<'a>(path: &'a str, bytes: &'a [u8]) -> Blob<'a> {
        Blob { path, bytes }
    }

    /// Every entry under `dir` with its bytes (links as `-> target`), toscana's own included.
    fn snapshot(dir: &Path) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            for entry in fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                let rel = path.strip_prefix(dir).unwrap().display().to_string();
                let meta = fs::symlink_metadata(&path).unwrap();
                if meta.file_type().is_symlink() {
                    out.push((
                        rel,
                        format!("-> {}", fs::read_link(&path).unwrap().display()),
                    ));
                } else if meta.is_dir() {
                    out.push((format!("{rel}/"), String::new()));
                    todo.push(path);
                } else {
                    out.push((rel, fs::read_to_string(&path).unwrap()));
                }
            }
        }
        out.sort();
        out
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_in_the_folder_is_never_written_through() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        fs::write(elsewhere.join("main.tf"), "theirs\n").unwrap();
        let out = tmp.path().join("out");
        fs::create_dir(&out).unwrap();
        symlink(&elsewhere, out.join("artifacts")).unwrap();
        symlink(elsewhere.join("main.tf"), out.join("main.tf")).unwrap();
        let before = snapshot(tmp.path());
        for files in [
            vec![blob("artifacts/web/install.sh", b"echo\n")],
            vec![blob("main.tf", b"ours\n")],
            vec![blob("a.tf", b"a\n"), blob("artifacts/deep/x/y.sh", b"y\n")],
        ] {
            let err = write_folder(&out, &files).unwrap_err();
            assert_eq!(err.code, codes::OUTPUT_WRITE);
            assert!(err.message.contains("symbolic link"), "{}", err.message);
            assert_eq!(snapshot(tmp.path()), before, "nothing changed anywhere");
        }
    }

    #[test]
    fn an_apply_that_fails_halfway_is_taken_back() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::write(dir.join("a"), "old a").unwrap();
        fs::write(dir.join("b"), "old b").unwrap();
        let files = [
            blob("a", b"new a"),
            blob("b", b"new b"),
            blob("c", b"new c"),
        ];
        let plan = plan(dir, &files).unwrap();
        assert_eq!(plan.report.written, ["a", "b", "c"]);
        let staging = dir.join(STAGING);
        fs::create_dir(&staging).unwrap();
        for (i, (file, _)) in plan.changed.iter().enumerate() {
            fs::write(staging.join(i.to_string()), file.bytes).unwrap();
        }
        // `a` done, `b` moved aside but not replaced yet, `c` not begun.
        let mut made = Vec::new();
        apply_one(dir, &staging, 0, &dir.join("a"), true, &mut made).unwrap();
        fs::rename(dir.join("b"), staging.join("old-1")).unwrap();
        undo(dir, &staging, &plan.changed[..=1]);
        remove_entry(&staging).unwrap();
        assert_eq!(
            snapshot(dir),
            [
                ("a".to_string(), "old a".to_string()),
                ("b".to_string(), "old b".to_string())
            ]
        );
    }

    #[test]
    fn a_killed_run_is_finished_by_the_next_and_its_leftovers_swept() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::write(dir.join("a"), "old a").unwrap();
        fs::create_dir(dir.join(STAGING)).unwrap();
        fs::write(dir.join(STAGING).join("0"), "new a").unwrap();
        journal::commit(
            dir,
            &[Entry {
                staged: "0".into(),
                target: "a".into(),
            }],
        )
        .unwrap();
        // What versions before the journal left behind.
        fs::create_dir(dir.join("k8s")).unwrap();
        fs::write(dir.join("k8s/.toscana-Ab12.tmp"), "half").unwrap();
        fs::write(dir.join("k8s/keep.yaml"), "mine").unwrap();
        assert_eq!(recover(dir).unwrap(), ["a"]);
        assert_eq!(fs::read_to_string(dir.join("a")).unwrap(), "new a");
        let report = write_folder(dir, &[blob("k8s/x.yaml", b"x")]).unwrap();
        assert_eq!(report.written, ["k8s/x.yaml"]);
        assert_eq!(
            snapshot(dir),
            [
                ("a".to_string(), "new a".to_string()),
                ("k8s/".to_string(), String::new()),
                ("k8s/keep.yaml".to_string(), "mine".to_string()),
                ("k8s/x.yaml".to_string(), "x".to_string()),
            ]
        );
    }
}
