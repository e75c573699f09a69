//! Helpers the integration tests share: the command as users run it, and the conformance
//! corpora under `../shared/corpus`. Each test uses some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// `toscana` as built for this test run, without colour.
pub fn toscana() -> Command {
    let mut cmd = Command::cargo_bin("toscana").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

/// A command's standard error as text.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Waits for `child`, whose standard error is piped, and gives its exit code and standard error
/// (drained on a thread, so a chatty child cannot block on a full pipe). A child still running
/// after `bound` is killed and the test fails: it hangs.
pub fn finish_within(
    mut child: std::process::Child,
    bound: std::time::Duration,
) -> (Option<i32>, String) {
    let mut pipe = child.stderr.take().expect("standard error is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut pipe, &mut text).ok();
        text
    });
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > bound {
            child.kill().ok();
            panic!("still running after {bound:?}: it hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    (status.code(), reader.join().unwrap())
}

/// Where the corpora are: beside the repository, read-only.
pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// Whether this run is CI's, where a missing corpus or checker is a failure.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Whether `../shared/corpus/<subdir>` is there. Without it the test skips with a notice that
/// names `what` is skipped, except under CI, where a missing corpus is a failure.
pub fn corpus_present(subdir: &str, what: &str) -> bool {
    if corpus_root().join(subdir).is_dir() {
        return true;
    }
    assert!(!in_ci(), "../shared/corpus is missing under CI=true");
    eprintln!("notice: ../shared/corpus not found; {what} skipped");
    false
}

/// Every `.yaml`, `.yml`, `.csar` and `.zip` file under `dir`, sorted.
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml" | "csar" | "zip")
            ) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// [`read_accepted`] with `--quirk` modes in force.
pub fn read_accepted_with(
    path: &Path,
    quirks: &[toscana::quirk::Quirk],
) -> Option<toscana::pipeline::Read> {
    let mut diags = toscana::diag::Diagnostics::with_cap(1);
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(path.to_path_buf())),
            quirks: toscana::quirk::Quirks::new(quirks),
            ..Default::default()
        },
        &mut diags,
    );
    (read.topology.is_some() && !diags.has_errors()).then_some(read)
}

/// `path` read as `toscana check` reads it, when it reads with no error (the corpus files a
/// translator is expected to handle); `None` otherwise.
pub fn read_accepted(path: &Path) -> Option<toscana::pipeline::Read> {
    read_accepted_with_profiles(path, &[])
}

/// [`read_accepted`] with TOSCA 2.0 profiles found in `profile_paths` (`--profile-path`).
pub fn read_accepted_with_profiles(
    path: &Path,
    profile_paths: &[PathBuf],
) -> Option<toscana::pipeline::Read> {
    read_accepted_in(path, profile_paths, &[])
}

/// [`read_accepted_with_profiles`] with URL prefixes read from local folders (`--map-url`).
pub fn read_accepted_in(
    path: &Path,
    profile_paths: &[PathBuf],
    map_url: &[(String, PathBuf)],
) -> Option<toscana::pipeline::Read> {
    read_accepted_under(None, path, profile_paths, map_url)
}

/// [`read_accepted_in`], with the YAML file at `path` read as the entry of the folder `root`
/// (`toscana check ROOT --entry PATH`) when one is given: the template then reads files anywhere
/// under `root`, as a corpus whose tests import `../custom_types/` needs (a file given alone
/// reads only inside its own folder). Archives are read as given.
pub fn read_accepted_under(
    root: Option<&Path>,
    path: &Path,
    profile_paths: &[PathBuf],
    map_url: &[(String, PathBuf)],
) -> Option<toscana::pipeline::Read> {
    let mut diags = toscana::diag::Diagnostics::with_cap(1);
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            profile_paths: profile_paths.to_vec(),
            map_url: map_url.to_vec(),
            ..options_under(root, path)
        },
        &mut diags,
    );
    (read.topology.is_some() && !diags.has_errors()).then_some(read)
}

/// The input and `--entry` that read `path` inside the folder `root` (see
/// [`read_accepted_under`]).
pub fn options_under(root: Option<&Path>, path: &Path) -> toscana::pipeline::ReadOptions {
    let yaml = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    );
    match root.and_then(|r| Some((r, path.strip_prefix(r).ok()?))) {
        Some((root, entry)) if yaml => toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(root.to_path_buf())),
            entry: Some(entry.to_path_buf()),
            ..Default::default()
        },
        _ => toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(path.to_path_buf())),
            ..Default::default()
        },
    }
}

/// `yaml`, written to a file of its own, read as `toscana check` reads it: what was read, and
/// every diagnostic.
pub fn read_text(yaml: &str) -> (toscana::pipeline::Read, Vec<toscana::diag::Diagnostic>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, yaml).unwrap();
    read_path(&path)
}

/// The file at `path` read as `toscana check` reads it: what was read, and every diagnostic.
pub fn read_path(path: &Path) -> (toscana::pipeline::Read, Vec<toscana::diag::Diagnostic>) {
    let mut diags = toscana::diag::Diagnostics::with_cap(0);
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(path.to_path_buf())),
            ..Default::default()
        },
        &mut diags,
    );
    (read, diags.finish())
}

/// Copies the folder `from` to `to`, recursively (a test's private copy of a case or CSAR).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().filter_map(Result::ok) {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
