//! Helpers the integration tests share: the command as users run it, and the conformance
//! corpora under `../shared/corpus`. Each test uses some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub mod verdicts;

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
    quirks: &[toscana::front::quirk::Quirk],
) -> Option<toscana::pipeline::Read> {
    let mut diags = toscana::diag::Diagnostics::with_cap(1);
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(path.to_path_buf())),
            quirks: toscana::front::quirk::Quirks::new(quirks),
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
    let mut diags = toscana::diag::Diagnostics::with_cap(1);
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(path.to_path_buf())),
            profile_paths: profile_paths.to_vec(),
            map_url: map_url.to_vec(),
            ..Default::default()
        },
        &mut diags,
    );
    (read.topology.is_some() && !diags.has_errors()).then_some(read)
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
