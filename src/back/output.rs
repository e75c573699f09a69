//! The output writer: standard output, or a directory written all-or-nothing.
//!
//! Into a directory, every file is first written to a temporary file next to its target; only
//! when all of them were written are they renamed into place, so a failed run (disk full, a path
//! that is a directory, no permission) leaves the old files as they were and no half-written or
//! temporary file behind. A file whose content did not change is not touched, so its mtime stays
//! and tools like `make` or `kubectl diff` see no change.

// The error is one `Diagnostic`, returned at most once per run; boxing it would only make every
// caller unbox it.
#![allow(clippy::result_large_err)]

use std::collections::HashSet;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, codes};

use super::OutputFile;

/// What [`write_outputs`] did, so the command line can say it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Paths written (new or changed), relative and sorted.
    pub written: Vec<String>,
    /// Paths whose existing file already had exactly this content, left untouched.
    pub unchanged: Vec<String>,
}

/// Writes `files` into `dir`, or to `stdout` when `dir` is `None`.
///
/// On standard output, files come in path order: one file is printed as is; several are joined
/// with `separator` (the backend's `stdout_separator`, e.g. `---\n` for YAML streams) when there
/// is one, else each is preceded by a `# ==> path <==` line and separated by a blank line (a
/// comment in YAML, HCL and DOT alike).
///
/// Errors are `output::write` diagnostics naming the path and the OS reason; into a directory,
/// nothing has changed when one is returned (see the module docs for the one exception).
pub fn write_outputs(
    dir: Option<&Path>,
    files: &[OutputFile],
    separator: Option<&str>,
    stdout: &mut dyn Write,
) -> Result<WriteReport, Diagnostic> {
    let mut sorted: Vec<&OutputFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    check_layout(sorted.iter().map(|f| f.path.as_str()))?;
    match dir {
        None => write_stdout(&sorted, separator, stdout),
        Some(dir) => {
            let blobs: Vec<Blob> = sorted
                .iter()
                .map(|f| Blob {
                    path: &f.path,
                    bytes: f.contents.as_bytes(),
                })
                .collect();
            write_dir(dir, &blobs)
        }
    }
}

/// Writes binary files (a PNG diagram) into `dir` like [`write_outputs`], atomically, or their
/// bytes to `stdout` one after the other when `dir` is `None`.
pub fn write_binary(
    dir: Option<&Path>,
    files: &[(String, Vec<u8>)],
    stdout: &mut dyn Write,
) -> Result<(), Diagnostic> {
    check_layout(files.iter().map(|(path, _)| path.as_str()))?;
    match dir {
        None => {
            for (_, bytes) in files {
                stdout.write_all(bytes).map_err(|e| {
                    Diagnostic::error(
                        codes::OUTPUT_WRITE,
                        format!("cannot write to standard output: {e}"),
                    )
                })?;
            }
            stdout.flush().map_err(|e| {
                Diagnostic::error(
                    codes::OUTPUT_WRITE,
                    format!("cannot write to standard output: {e}"),
                )
            })
        }
        Some(dir) => {
            let blobs: Vec<Blob> = files
                .iter()
                .map(|(path, bytes)| Blob { path, bytes })
                .collect();
            write_dir(dir, &blobs).map(|_| ())
        }
    }
}

/// Whether `paths` can all be written before anything is: each a safe relative path
/// ([`check_path`]), no two the same, and none the folder of another (`a` and `a/x.yaml`), which
/// would otherwise fail halfway through committing, after other files were replaced.
fn check_layout<'p>(paths: impl Iterator<Item = &'p str>) -> Result<(), Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    let paths: Vec<&str> = paths.collect();
    for path in &paths {
        check_path(path).map_err(|why| {
            Diagnostic::error(
                codes::OUTPUT_WRITE,
                format!("refusing to write `{path}`: {why}"),
            )
        })?;
        if !seen.insert(*path) {
            return Err(Diagnostic::error(
                codes::OUTPUT_WRITE,
                format!("two outputs have the same path `{path}`"),
            ));
        }
    }
    for path in &paths {
        for (slash, _) in path.match_indices('/') {
            let folder = &path[..slash];
            if seen.contains(folder) {
                return Err(Diagnostic::error(
                    codes::OUTPUT_WRITE,
                    format!("`{folder}` is an output file and also the folder of output `{path}`"),
                ));
            }
        }
    }
    Ok(())
}

/// One file to write: its relative path and its bytes.
struct Blob<'a> {
    path: &'a str,
    bytes: &'a [u8],
}

/// Why `path` is not a safe relative output path, if it is not.
///
/// Accepted: `/`-separated, relative, no empty, `.` or `..` component, no backslash or NUL (a
/// backslash is a separator on Windows, so `..\x` would escape there).
pub(crate) fn check_path(path: &str) -> Result<(), String> {
    if path.is_empty() {
        return Err("the path is empty".into());
    }
    if path.starts_with('/') || path.starts_with('\\') || Path::new(path).is_absolute() {
        return Err(
            "the path is absolute; output paths are relative to the output directory".into(),
        );
    }
    if path.contains('\\') {
        return Err("the path contains `\\`; use `/` between folders".into());
    }
    if path.contains('\0') || path.chars().any(char::is_control) {
        return Err("the path contains a control character".into());
    }
    if path.len() > 2 && path.as_bytes()[1] == b':' && path.as_bytes()[0].is_ascii_alphabetic() {
        return Err("the path starts with a drive letter".into());
    }
    for part in path.split('/') {
        match part {
            "" => return Err("the path has an empty folder name (`//` or a trailing `/`)".into()),
            "." | ".." => {
                return Err(format!(
                    "the path contains `{part}`; it must stay inside the output directory"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

fn write_stdout(
    files: &[&OutputFile],
    separator: Option<&str>,
    out: &mut dyn Write,
) -> Result<WriteReport, Diagnostic> {
    let mut text = String::new();
    match files {
        [] => {}
        [one] => text.push_str(&one.contents),
        many => {
            for (i, file) in many.iter().enumerate() {
                match separator {
                    Some(sep) => {
                        if i > 0 {
                            if !text.ends_with('\n') && !sep.starts_with('\n') {
                                text.push('\n');
                            }
                            text.push_str(sep);
                        }
                    }
                    None => {
                        if i > 0 {
                            if !text.ends_with('\n') {
                                text.push('\n');
                            }
                            text.push('\n');
                        }
                        text.push_str(&format!("# ==> {} <==\n", file.path));
                    }
                }
                text.push_str(&file.contents);
            }
        }
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| {
            Diagnostic::error(
                codes::OUTPUT_WRITE,
                format!("cannot write to standard output: {e}"),
            )
        })?;
    Ok(WriteReport {
        written: files.iter().map(|f| f.path.clone()).collect(),
        unchanged: Vec::new(),
    })
}

fn write_error(path: &Path, what: &str, e: &io::Error) -> Diagnostic {
    Diagnostic::error(
        codes::OUTPUT_WRITE,
        format!("cannot {what} `{}`: {e}", path.display()),
    )
    .hint("nothing was changed in the output directory")
    .in_file(path.display().to_string())
}

/// The folders a run writes into: which it created (removed again, deepest first and only if
/// empty, when it fails), which are known to exist, and which held nothing when first seen.
///
/// A file whose folder held nothing cannot have an old version to compare with, so it is staged
/// without looking for one: thousands of new files then cost no `stat` each. Only this run adds
/// anything to such a folder, its temporaries and the folders it creates, which are looked at as
/// before.
#[derive(Default)]
struct Folders {
    /// Created by this run, in creation order.
    created: Vec<PathBuf>,
    /// Known to exist: created, or found when first asked for.
    existing: HashSet<PathBuf>,
    /// Held nothing when first seen (created by this run, or found empty).
    empty: HashSet<PathBuf>,
}

impl Folders {
    /// Creates `dir` and its missing ancestors, remembering which ones were new.
    fn create(&mut self, dir: &Path) -> io::Result<()> {
        if self.existing.contains(dir) {
            return Ok(());
        }
        let mut missing = Vec::new();
        let mut cur = Some(dir);
        while let Some(d) = cur {
            if d.as_os_str().is_empty() || self.existing.contains(d) {
                break;
            }
            if fs::symlink_metadata(d).is_ok() {
                if d == dir && fs::read_dir(d).is_ok_and(|mut entries| entries.next().is_none()) {
                    self.empty.insert(d.to_path_buf());
                }
                self.existing.insert(d.to_path_buf());
                break;
            }
            missing.push(d.to_path_buf());
            cur = d.parent();
        }
        for d in missing.into_iter().rev() {
            match fs::create_dir(&d) {
                Ok(()) => {
                    self.created.push(d.clone());
                    self.empty.insert(d.clone());
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && d.is_dir() => {}
                Err(e) => return Err(e),
            }
            self.existing.insert(d);
        }
        Ok(())
    }

    /// Whether `target` in the folder `parent` (made sure of with [`Self::create`]) is certainly
    /// new: its folder held nothing, and it is not a folder this run created.
    fn certainly_new(&self, parent: &Path, target: &Path) -> bool {
        self.empty.contains(parent) && !self.existing.contains(target)
    }

    fn undo(&mut self) {
        for d in self.created.drain(..).rev() {
            let _ = fs::remove_dir(d);
        }
    }
}

fn write_dir(dir: &Path, files: &[Blob]) -> Result<WriteReport, Diagnostic> {
    let mut folders = Folders::default();
    let result = stage_and_commit(dir, files, &mut folders);
    if result.is_err() {
        folders.undo();
    }
    result
}

fn stage_and_commit(
    dir: &Path,
    files: &[Blob],
    folders: &mut Folders,
) -> Result<WriteReport, Diagnostic> {
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
    folders
        .create(dir)
        .map_err(|e| write_error(dir, "create the output directory", &e))?;
    let mut report = WriteReport::default();
    // Phase 1: every changed file to a temporary next to its target, closed once written (a
    // backend may write thousands of files, more than a process may hold open). Dropping a
    // TempPath deletes its file, so an early return cleans up after itself.
    let mut staged: Vec<(tempfile::TempPath, PathBuf, &str)> = Vec::new();
    for file in files {
        let target = file
            .path
            .split('/')
            .fold(dir.to_path_buf(), |p, part| p.join(part));
        let parent = target.parent().unwrap_or(dir);
        folders
            .create(parent)
            .map_err(|e| write_error(parent, "create the folder", &e))?;
        let old = if folders.certainly_new(parent, &target) {
            None
        } else {
            fs::symlink_metadata(&target).ok()
        };
        match old {
            Some(meta) if meta.is_dir() => {
                return Err(Diagnostic::error(
                    codes::OUTPUT_WRITE,
                    format!(
                        "cannot write `{}`: a directory of that name exists",
                        target.display()
                    ),
                )
                .hint("nothing was changed in the output directory")
                .in_file(target.display().to_string()));
            }
            Some(meta)
                if meta.is_file()
                    && meta.len() == file.bytes.len() as u64
                    && fs::read(&target).is_ok_and(|old| old == file.bytes) =>
            {
                report.unchanged.push(file.path.to_string());
                continue;
            }
            _ => {}
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".toscana-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Like a plain `File::create`: 0666 less the umask, not tempfile's private 0600.
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let mut temp = builder
            .tempfile_in(parent)
            .map_err(|e| write_error(&target, "create a temporary file for", &e))?;
        temp.write_all(file.bytes)
            .and_then(|()| temp.flush())
            .map_err(|e| write_error(&target, "write", &e))?;
        staged.push((temp.into_temp_path(), target, file.path));
    }
    // Phase 2: rename into place. Renaming within one folder does not fail for the reasons
    // phase 1 checks; should it fail anyway, the files renamed so far are named in the error.
    let mut remaining = staged.into_iter();
    for (temp, target, path) in remaining.by_ref() {
        if let Err(e) = temp.persist(&target) {
            let mut d = Diagnostic::error(
                codes::OUTPUT_WRITE,
                format!("cannot replace `{}`: {}", target.display(), e.error),
            );
            d = if report.written.is_empty() {
                d.hint("nothing was changed in the output directory")
            } else {
                d.hint(format!("already replaced: {}", report.written.join(", ")))
            };
            return Err(d);
        }
        report.written.push(path.to_string());
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, contents: &str) -> OutputFile {
        OutputFile {
            path: path.into(),
            contents: contents.into(),
        }
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
            for entry in fs::read_dir(dir).unwrap() {
                let entry = entry.unwrap();
                let rel = entry
                    .path()
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                if entry.file_type().unwrap().is_dir() {
                    out.push(format!("{rel}/"));
                    walk(base, &entry.path(), out);
                } else {
                    out.push(rel);
                }
            }
        }
        walk(dir, dir, &mut out);
        out.sort();
        out
    }

    #[test]
    fn stdout_single_file_is_printed_as_is() {
        let mut out = Vec::new();
        write_outputs(None, &[file("a.yaml", "a: 1\n")], Some("---\n"), &mut out).unwrap();
        assert_eq!(out, b"a: 1\n");
    }

    #[test]
    fn stdout_joins_in_path_order_with_separator_or_headers() {
        let files = [file("b.yaml", "b: 2\n"), file("a.yaml", "a: 1")];
        let mut out = Vec::new();
        write_outputs(None, &files, Some("---\n"), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a: 1\n---\nb: 2\n");
        let mut out = Vec::new();
        write_outputs(None, &files, None, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "# ==> a.yaml <==\na: 1\n\n# ==> b.yaml <==\nb: 2\n"
        );
    }

    #[test]
    fn writes_new_files_and_folders_and_leaves_no_temporaries() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let report = write_outputs(
            Some(&out),
            &[file("k8s/web.yaml", "w\n"), file("graph.dot", "g\n")],
            None,
            &mut io::sink(),
        )
        .unwrap();
        assert_eq!(report.written, ["graph.dot", "k8s/web.yaml"]);
        assert_eq!(listing(&out), ["graph.dot", "k8s/", "k8s/web.yaml"]);
        assert_eq!(fs::read_to_string(out.join("k8s/web.yaml")).unwrap(), "w\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(out.join("graph.dot"))
                .unwrap()
                .permissions()
                .mode();
            assert_ne!(
                mode & 0o044,
                0,
                "readable by others like a normal file: {mode:o}"
            );
        }
    }

    #[test]
    fn an_empty_folder_is_filled_and_a_second_run_changes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let files = [
            file("a.yaml", "a\n"),
            file("k8s/b.yaml", "b\n"),
            file("k8s/deep/c.yaml", "c\n"),
        ];
        let report = write_outputs(Some(tmp.path()), &files, None, &mut io::sink()).unwrap();
        assert_eq!(report.written, ["a.yaml", "k8s/b.yaml", "k8s/deep/c.yaml"]);
        assert_eq!(
            listing(tmp.path()),
            [
                "a.yaml",
                "k8s/",
                "k8s/b.yaml",
                "k8s/deep/",
                "k8s/deep/c.yaml"
            ]
        );
        let report = write_outputs(Some(tmp.path()), &files, None, &mut io::sink()).unwrap();
        assert!(report.written.is_empty(), "{:?}", report.written);
        assert_eq!(report.unchanged.len(), 3);
    }

    #[test]
    fn a_folder_this_run_made_is_not_taken_for_a_new_file() {
        // Unsorted, as `write_binary` takes them: `d/x.png` would make the folder `d` first.
        // Refused before anything is made.
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let err = write_binary(
            Some(&out),
            &[
                ("d/x.png".into(), b"x".to_vec()),
                ("d".into(), b"d".to_vec()),
            ],
            &mut io::sink(),
        )
        .unwrap_err();
        assert!(err.message.contains("also the folder"), "{}", err.message);
        assert!(!out.exists(), "nothing is made");
    }

    #[test]
    fn a_folder_already_there_is_not_taken_for_a_new_file() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        std::fs::create_dir_all(out.join("d")).unwrap();
        let err = write_binary(
            Some(&out),
            &[
                ("c/x.png".into(), b"x".to_vec()),
                ("d".into(), b"d".to_vec()),
            ],
            &mut io::sink(),
        )
        .unwrap_err();
        assert!(
            err.message.contains("a directory of that name exists"),
            "{}",
            err.message
        );
        assert!(
            !out.join("c").exists(),
            "the folders made are removed again"
        );
    }

    #[test]
    fn unchanged_file_is_not_rewritten() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a.txt");
        fs::write(&path, "same\n").unwrap();
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let report = write_outputs(
            Some(tmp.path()),
            &[file("a.txt", "same\n"), file("b.txt", "new\n")],
            None,
            &mut io::sink(),
        )
        .unwrap();
        assert_eq!(report.unchanged, ["a.txt"]);
        assert_eq!(report.written, ["b.txt"]);
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), old);
        // A changed file is replaced.
        let report = write_outputs(
            Some(tmp.path()),
            &[file("a.txt", "changed\n")],
            None,
            &mut io::sink(),
        )
        .unwrap();
        assert_eq!(report.written, ["a.txt"]);
        assert_eq!(fs::read_to_string(&path).unwrap(), "changed\n");
    }

    #[test]
    fn a_failure_changes_nothing_and_leaves_no_temporaries() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path();
        fs::write(out.join("a.yaml"), "old a\n").unwrap();
        // `z.yaml` exists as a directory: the last file cannot be written.
        fs::create_dir(out.join("z.yaml")).unwrap();
        let before = listing(out);
        let err = write_outputs(
            Some(out),
            &[
                file("a.yaml", "new a\n"),
                file("m/new.yaml", "new\n"),
                file("z.yaml", "z\n"),
            ],
            None,
            &mut io::sink(),
        )
        .unwrap_err();
        assert_eq!(err.code, codes::OUTPUT_WRITE);
        assert!(err.message.contains("z.yaml"), "{}", err.message);
        assert_eq!(listing(out), before, "no new file, folder or temporary");
        assert_eq!(fs::read_to_string(out.join("a.yaml")).unwrap(), "old a\n");

        // A parent that is a file: the error names the OS reason; `m/` made for an earlier file
        // is removed again.
        fs::write(out.join("p"), "a file\n").unwrap();
        let before = listing(out);
        let err = write_outputs(
            Some(out),
            &[
                file("a.yaml", "new a\n"),
                file("m/new.yaml", "n\n"),
                file("p/x.yaml", "x\n"),
            ],
            None,
            &mut io::sink(),
        )
        .unwrap_err();
        assert!(err.message.contains("p"), "{}", err.message);
        assert_eq!(listing(out), before);
        assert_eq!(fs::read_to_string(out.join("a.yaml")).unwrap(), "old a\n");
    }

    #[test]
    fn output_directory_that_is_a_file_is_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("f");
        fs::write(&f, "x").unwrap();
        let err = write_outputs(Some(&f), &[file("a", "a")], None, &mut io::sink()).unwrap_err();
        assert_eq!(err.code, codes::OUTPUT_WRITE);
    }

    #[test]
    fn paths_that_escape_are_refused_before_anything_is_written() {
        let tmp = tempfile::tempdir().unwrap();
        for bad in [
            "../x",
            "a/../../x",
            "/etc/passwd",
            "a\\..\\x",
            "",
            "a//b",
            "a/",
            "./a",
            "C:/x",
            "a\0b",
            "a\nb",
        ] {
            let err = write_outputs(
                Some(tmp.path()),
                &[file("ok.txt", "ok"), file(bad, "x")],
                None,
                &mut io::sink(),
            )
            .unwrap_err();
            assert_eq!(err.code, codes::OUTPUT_WRITE, "{bad:?}");
            assert!(listing(tmp.path()).is_empty(), "{bad:?}");
        }
        assert!(check_path("k8s/web-deployment.yaml").is_ok());
        assert!(
            check_path("..hidden").is_ok(),
            "only whole `..` components escape"
        );
    }

    #[test]
    fn a_file_that_is_also_a_folder_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let err = write_outputs(
            Some(&out),
            &[file("a", "1"), file("a-b", "2"), file("a/x.yaml", "3")],
            None,
            &mut io::sink(),
        )
        .unwrap_err();
        assert!(err.message.contains("also the folder"), "{}", err.message);
        assert!(!out.exists(), "nothing is written");
    }

    #[test]
    fn duplicate_paths_are_refused() {
        let err = write_outputs(
            None,
            &[file("a", "1"), file("a", "2")],
            None,
            &mut io::sink(),
        )
        .unwrap_err();
        assert!(err.message.contains("same path"));
    }
}
