//! One writer per output folder: a lock file inside it that the operating system locks.
//!
//! Two runs writing the same folder at once would each commit their own files and leave a mix,
//! both exiting 0. The writer takes an exclusive lock on `.toscana.lock` in the folder before it
//! looks at anything there; a second writer fails at once with a message that names the first
//! (its process id and command, which the holder writes into the file), rather than
//! waiting: a CI job that runs two translations into one folder has a bug worth seeing. Only the
//! program and its command are written, not the rest of the command line, which may hold secrets
//! (`--set db_password=…`).
//!
//! The lock is the operating system's (`flock` on Unix, `LockFileEx` on Windows), so it ends
//! with the process however it ends: a run killed with SIGKILL leaves the file but no lock, and
//! the next run takes it. There is no stale lock to break by hand. The file is removed when the
//! holder is done, so a finished folder holds only its output; a run that opened the file just
//! before it was removed notices (the path then names another file, or none) and tries again.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, codes};

/// The lock file's name inside the output folder.
pub(super) const LOCK_NAME: &str = ".toscana.lock";

/// How often a run retries when the lock file was replaced under it (see the module docs);
/// each retry means another run finished in between, so a handful is plenty.
const ATTEMPTS: usize = 16;

/// The held lock of one output folder; released (and its file removed) when dropped.
pub(super) struct FolderLock {
    file: File,
    path: PathBuf,
}

impl FolderLock {
    /// Locks `dir` (which exists) for this process, or says who holds it.
    pub(super) fn acquire(dir: &Path) -> Result<FolderLock, Diagnostic> {
        let path = dir.join(LOCK_NAME);
        let failed = |e: io::Error| {
            Diagnostic::error(
                codes::OUTPUT_WRITE,
                format!("cannot lock `{}`: {e}", dir.display()),
            )
            .hint("toscana locks the output folder with a file `.toscana.lock` in it; check that you may write there")
            .in_file(dir.display().to_string())
        };
        for _ in 0..ATTEMPTS {
            let mut file = open_no_follow(&path).map_err(failed)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    return Err(locked(dir, holder.trim()));
                }
                Err(fs::TryLockError::Error(e)) => return Err(failed(e)),
            }
            if !still_named(&file, &path) {
                continue;
            }
            let holder = format!("process {}: {}", std::process::id(), command());
            file.set_len(0)
                .and_then(|()| file.write_all(holder.as_bytes()))
                .and_then(|()| file.flush())
                .map_err(failed)?;
            return Ok(FolderLock { file, path });
        }
        Err(locked(dir, ""))
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still held, so no other run can lock this file and believe it holds
        // the folder; the lock itself ends when `file` is closed right after.
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// The program and its subcommand (`toscana k8s`, `tosca2tf`), as the holder's name.
fn command() -> String {
    let mut args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
    let program = args.next().unwrap_or_default();
    let program = Path::new(&program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or(program);
    match args
        .next()
        .filter(|a| !a.starts_with('-') && program == "toscana")
    {
        Some(sub) => format!("{program} {sub}"),
        None => program,
    }
}

/// Opens (creating if need be) the lock file without following a link planted at its name:
/// a link there is removed, never written through.
fn open_no_follow(path: &Path) -> io::Result<File> {
    for _ in 0..ATTEMPTS {
        match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(file) => return Ok(file),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.is_file() => {
                match OpenOptions::new().read(true).write(true).open(path) {
                    Ok(file) => return Ok(file),
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(meta) if meta.is_dir() => {
                return Err(io::Error::other(format!(
                    "`{}` is a folder, where toscana keeps its lock file",
                    path.display()
                )));
            }
            Ok(_) => fs::remove_file(path)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("the lock file keeps changing"))
}

/// Whether `path` still names the file `file` is open on (it was not removed and recreated by
/// a run that finished meanwhile).
#[cfg(unix)]
fn still_named(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn still_named(_file: &File, path: &Path) -> bool {
    path.is_file()
}

/// The refusal when another run holds the folder.
fn locked(dir: &Path, holder: &str) -> Diagnostic {
    let who = match holder {
        "" => "another toscana run".to_string(),
        holder => format!("another toscana run ({holder})"),
    };
    Diagnostic::error(
        codes::OUTPUT_LOCKED,
        format!("`{}` is being written by {who}", dir.display()),
    )
    .hint("nothing was changed; wait for that run to finish, or write somewhere else with -o")
    .in_file(dir.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_and_told_who_holds_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let first = FolderLock::acquire(dir.path()).unwrap();
        let holder = fs::read_to_string(dir.path().join(LOCK_NAME)).unwrap();
        assert!(holder.starts_with(&format!("process {}: ", std::process::id())));
        // A lock is per open file, so a second open in the same process contends like another
        // process would.
        let Err(second) = FolderLock::acquire(dir.path()) else {
            panic!("two holders");
        };
        assert_eq!(second.code, codes::OUTPUT_LOCKED);
        assert!(second.message.contains(&holder), "{}", second.message);
        drop(first);
        assert!(
            !dir.path().join(LOCK_NAME).exists(),
            "the file goes with the lock"
        );
        let again = FolderLock::acquire(dir.path()).unwrap();
        drop(again);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_lock_name_is_replaced_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep me\n").unwrap();
        let out = dir.path().join("out");
        fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&victim, out.join(LOCK_NAME)).unwrap();
        let lock = FolderLock::acquire(&out).unwrap();
        drop(lock);
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me\n");
    }
}
