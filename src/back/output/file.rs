//! Writing one output file (`-o diagram.svg`, `-o resolved.yaml`): a temporary file beside it,
//! renamed over it when complete.
//!
//! A rename replaces the file in one step, so a reader, a second run or a crash sees the old
//! file or the new one, never half of either; two runs writing the same file at once each put a
//! whole file there and the last one stays, so no lock is needed. The rename replaces a link at
//! the path (it does not write through it), and a file whose content did not change is left as
//! it was. A temporary file that a killed run left (`.NAME.toscana-*.tmp`) is removed by the
//! next run that writes NAME.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, codes};

/// Writes `bytes` to the file `path`; returns whether it changed anything.
pub(super) fn write_file(path: &Path, bytes: &[u8]) -> Result<bool, Diagnostic> {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Err(Diagnostic::error(
            codes::OUTPUT_DESTINATION,
            format!("`{}` does not name a file", path.display()),
        )
        .hint("give -o a file name, or a folder ending in `/`"));
    };
    let folder: PathBuf = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let failed = |what: &str, e: &io::Error| {
        Diagnostic::error(
            codes::OUTPUT_WRITE,
            format!("cannot {what} `{}`: {e}", path.display()),
        )
        .hint("the file was not changed")
        .in_file(path.display().to_string())
    };
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            return Err(failed(
                "write",
                &io::Error::other("it is a directory (end -o with `/` to write into it)"),
            ));
        }
        Ok(meta)
            if meta.is_file()
                && meta.len() == bytes.len() as u64
                && fs::read(path).is_ok_and(|old| old == bytes) =>
        {
            return Ok(false);
        }
        _ => {}
    }
    fs::create_dir_all(&folder).map_err(|e| failed("create the folder of", &e))?;
    let prefix = format!(".{name}.toscana-");
    sweep(&folder, &prefix);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Like a plain `File::create`: 0666 less the umask, not tempfile's private 0600.
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder
        .tempfile_in(&folder)
        .map_err(|e| failed("create a temporary file for", &e))?;
    temp.write_all(bytes)
        .and_then(|()| temp.flush())
        .map_err(|e| failed("write", &e))?;
    temp.persist(path)
        .map_err(|e| failed("replace", &e.error))?;
    Ok(true)
}

/// Removes the temporary files named `prefix…` that killed runs left in `folder`.
fn sweep(folder: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(prefix)
            && name.ends_with(".tmp")
            && entry.file_type().is_ok_and(|t| !t.is_dir())
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_left_alone_when_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.yaml");
        assert!(write_file(&path, b"one\n").unwrap());
        assert_eq!(fs::read(&path).unwrap(), b"one\n");
        let before = fs::metadata(&path).unwrap().modified().unwrap();
        assert!(!write_file(&path, b"one\n").unwrap());
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);
        // A killed run's temporary is cleaned up; others' files are not.
        fs::write(dir.path().join("sub/.out.yaml.toscana-x1.tmp"), "half").unwrap();
        fs::write(dir.path().join("sub/.other.toscana-x1.tmp"), "theirs").unwrap();
        assert!(write_file(&path, b"two\n").unwrap());
        let mut left: Vec<String> = fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [".other.toscana-x1.tmp", "out.yaml"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_path_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep\n").unwrap();
        let path = dir.path().join("out.svg");
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        assert!(write_file(&path, b"<svg/>").unwrap());
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep\n");
        assert!(
            !fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_directory_at_the_path_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_file(dir.path(), b"x").unwrap_err();
        assert_eq!(err.code, codes::OUTPUT_WRITE);
    }
}
