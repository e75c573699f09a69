//! The output writer: standard output, one file, or a folder written all-or-nothing.
//!
//! Where the output goes is the command line's `-o` ([`Destination`], the convention in
//! `docs/security.md`, "What toscana writes"): nothing or `-` is standard output; a path ending
//! in `/`, or naming a folder that exists, is a folder; otherwise a command that writes one file
//! writes that file, and one that writes several makes the folder.
//!
//! - One file ([`file`]): a temporary file renamed over it.
//! - A folder ([`folder`]): locked against a second writer ([`lock`]), every file staged and
//!   then committed with a journal ([`journal`]), so that a failed run changes nothing and a
//!   killed one is finished by the next; never through a symbolic link, never outside it.
//!
//! A file whose content did not change is not touched, so its mtime stays and tools like
//! `make` or `kubectl diff` see no change.

// The error is one `Diagnostic`, returned at most once per run; boxing it would only make every
// caller unbox it.
#![allow(clippy::result_large_err)]

mod file;
mod folder;
mod journal;
mod lock;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, codes};

pub use folder::recover;

use super::OutputFile;

/// What [`write_outputs`] did, so the command line can say it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Paths written (new or changed), relative and sorted.
    pub written: Vec<String>,
    /// Paths whose existing file already had exactly this content, left untouched.
    pub unchanged: Vec<String>,
}

/// Where a command's output goes: what its `-o` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (no `-o`, or `-o -`).
    Stdout,
    /// One file at this path.
    File(PathBuf),
    /// A folder, made if missing.
    Folder(PathBuf),
}

/// How many files a command writes, which decides what a plain `-o PATH` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One file (a diagram, the IR, a resolved or converted template, `k8s --single-file`).
    One,
    /// Several files (Kubernetes objects, a Terraform configuration, a backend of one's own).
    Several,
}

impl Destination {
    /// The destination `-o output` names for a command of `shape`: `-` is standard output; a
    /// path ending in `/` or naming an existing folder (a link to one included: the user named
    /// it) is a folder; otherwise one file for [`Shape::One`], a folder for [`Shape::Several`].
    pub fn from_arg(output: Option<&Path>, shape: Shape) -> Destination {
        let Some(path) = output else {
            return Destination::Stdout;
        };
        if path.as_os_str() == "-" {
            return Destination::Stdout;
        }
        if names_folder(path) || shape == Shape::Several {
            Destination::Folder(path.to_path_buf())
        } else {
            Destination::File(path.to_path_buf())
        }
    }

    /// The folder, if the output goes to one.
    pub fn folder(&self) -> Option<&Path> {
        match self {
            Destination::Folder(dir) => Some(dir),
            _ => None,
        }
    }
}

/// Whether `path` is written as a folder: it ends in a separator, or it is one.
pub fn names_folder(path: &Path) -> bool {
    let text = path.as_os_str().to_string_lossy();
    text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) || path.is_dir()
}

/// Writes `files` to `destination`.
///
/// On standard output, files come in path order: one file is printed as is; several are joined
/// with `separator` (the backend's `stdout_separator`, e.g. `---\n` for YAML streams) when there
/// is one, else each is preceded by a `# ==> path <==` line and separated by a blank line (a
/// comment in YAML, HCL and DOT alike). Into one file, there must be exactly one.
///
/// Errors are `output::write` diagnostics naming the path and the OS reason (or
/// `output::locked`, `output::destination`); when one is returned, nothing has changed.
pub fn write_outputs(
    destination: &Destination,
    files: &[OutputFile],
    separator: Option<&str>,
    stdout: &mut dyn Write,
) -> Result<WriteReport, Diagnostic> {
    let mut sorted: Vec<&OutputFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    check_layout(sorted.iter().map(|f| f.path.as_str()))?;
    match destination {
        Destination::Stdout => write_stdout(&sorted, separator, stdout),
        _ => {
            let blobs: Vec<Blob> = sorted
                .iter()
                .map(|f| Blob {
                    path: &f.path,
                    bytes: f.contents.as_bytes(),
                })
                .collect();
            write_blobs(destination, &blobs)
        }
    }
}

/// Writes binary files (a PNG diagram) to `destination` like [`write_outputs`], or their bytes
/// to `stdout` one after the other.
pub fn write_binary(
    destination: &Destination,
    files: &[(String, Vec<u8>)],
    stdout: &mut dyn Write,
) -> Result<(), Diagnostic> {
    check_layout(files.iter().map(|(path, _)| path.as_str()))?;
    match destination {
        Destination::Stdout => {
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
        _ => {
            let blobs: Vec<Blob> = files
                .iter()
                .map(|(path, bytes)| Blob { path, bytes })
                .collect();
            write_blobs(destination, &blobs).map(|_| ())
        }
    }
}

/// Writes `blobs` into a folder or one file.
fn write_blobs(destination: &Destination, blobs: &[Blob]) -> Result<WriteReport, Diagnostic> {
    match (destination, blobs) {
        (Destination::Folder(dir), _) => folder::write_folder(dir, blobs),
        (Destination::File(path), [one]) => {
            let path_shown = one.path.to_string();
            Ok(match file::write_file(path, one.bytes)? {
                true => WriteReport {
                    written: vec![path_shown],
                    unchanged: Vec::new(),
                },
                false => WriteReport {
                    written: Vec::new(),
                    unchanged: vec![path_shown],
                },
            })
        }
        (Destination::File(path), several) => Err(Diagnostic::error(
            codes::OUTPUT_DESTINATION,
            format!(
                "the output is {} files ({}), which the file `{}` cannot hold",
                several.len(),
                several
                    .iter()
                    .take(3)
                    .map(|b| format!("`{}`", b.path))
                    .collect::<Vec<_>>()
                    .join(", ")
                    + if several.len() > 3 { ", ..." } else { "" },
                path.display()
            ),
        )
        .hint("end -o with `/` to write them into a folder")),
        (Destination::Stdout, _) => Ok(WriteReport::default()),
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
/// backslash is a separator on Windows, so `..\x` would escape there), and no name that toscana
/// keeps for its own bookkeeping in the folder (`.toscana…`: the lock, journal and staging).
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
            reserved if reserved.starts_with(".toscana") => {
                return Err(format!(
                    "`{reserved}`: names starting with `.toscana` are toscana's own in an output folder"
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::{fs, io};

    fn in_folder(dir: &Path) -> Destination {
        Destination::Folder(dir.to_path_buf())
    }

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
        write_outputs(
            &Destination::Stdout,
            &[file("a.yaml", "a: 1\n")],
            Some("---\n"),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, b"a: 1\n");
    }

    #[test]
    fn stdout_joins_in_path_order_with_separator_or_headers() {
        let files = [file("b.yaml", "b: 2\n"), file("a.yaml", "a: 1")];
        let mut out = Vec::new();
        write_outputs(&Destination::Stdout, &files, Some("---\n"), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a: 1\n---\nb: 2\n");
        let mut out = Vec::new();
        write_outputs(&Destination::Stdout, &files, None, &mut out).unwrap();
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
            &in_folder(&out),
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
        let report = write_outputs(&in_folder(tmp.path()), &files, None, &mut io::sink()).unwrap();
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
        let report = write_outputs(&in_folder(tmp.path()), &files, None, &mut io::sink()).unwrap();
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
            &in_folder(&out),
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
            &in_folder(&out),
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
            &in_folder(tmp.path()),
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
            &in_folder(tmp.path()),
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
            &in_folder(out),
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
            &in_folder(out),
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
        let err =
            write_outputs(&in_folder(&f), &[file("a", "a")], None, &mut io::sink()).unwrap_err();
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
                &in_folder(tmp.path()),
                &[file("ok.txt", "ok"), file(bad, "x")],
                None,
                &mut io::sink(),
            )
            .unwrap_err();
            assert_eq!(err.code, codes::OUTPUT_WRITE, "{bad:?}");
            assert!(listing(tmp.path()).is_empty(), "{bad:?}");
        }
        for reserved in [".toscana.lock", ".toscana-journal", "a/.toscana-staging/x"] {
            assert!(check_path(reserved).is_err(), "{reserved}");
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
            &in_folder(&out),
            &[file("a", "1"), file("a-b", "2"), file("a/x.yaml", "3")],
            None,
            &mut io::sink(),
        )
        .unwrap_err();
        assert!(err.message.contains("also the folder"), "{}", err.message);
        assert!(!out.exists(), "nothing is written");
    }

    #[test]
    fn o_names_a_file_for_one_a_folder_for_several_or_with_a_slash() {
        let tmp = tempfile::tempdir().unwrap();
        let existing = tmp.path().join("existing");
        fs::create_dir(&existing).unwrap();
        let new = tmp.path().join("new");
        let slash = PathBuf::from(format!("{}/", new.display()));
        let from = |p: Option<&Path>, shape| Destination::from_arg(p, shape);
        assert_eq!(from(None, Shape::One), Destination::Stdout);
        assert_eq!(
            from(Some(Path::new("-")), Shape::Several),
            Destination::Stdout
        );
        assert_eq!(from(Some(&new), Shape::One), Destination::File(new.clone()));
        assert_eq!(
            from(Some(&new), Shape::Several),
            Destination::Folder(new.clone())
        );
        assert_eq!(
            from(Some(&slash), Shape::One),
            Destination::Folder(slash.clone())
        );
        assert_eq!(
            from(Some(&existing), Shape::One),
            Destination::Folder(existing.clone())
        );
    }

    #[test]
    fn several_files_do_not_fit_in_one() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("one.yaml");
        let err = write_outputs(
            &Destination::File(path.clone()),
            &[file("a.yaml", "a"), file("b.txt", "b")],
            None,
            &mut io::sink(),
        )
        .unwrap_err();
        assert_eq!(err.code, codes::OUTPUT_DESTINATION);
        assert!(err.message.contains("`a.yaml`, `b.txt`"), "{}", err.message);
        assert!(!path.exists());
    }

    #[test]
    fn duplicate_paths_are_refused() {
        let err = write_outputs(
            &Destination::Stdout,
            &[file("a", "1"), file("a", "2")],
            None,
            &mut io::sink(),
        )
        .unwrap_err();
        assert!(err.message.contains("same path"));
    }
}
