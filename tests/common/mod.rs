//! Helpers the integration tests share: the command as users run it, and the conformance
//! corpora under `../shared/corpus`. Each test uses some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub mod batches;
pub mod objects;
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

/// The IR (`toscana ir`) of a template `text`, written to a scratch file, which must translate
/// with no diagnostic at all.
pub fn ir_clean(text: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, text).unwrap();
    let out = toscana().arg("ir").arg(&path).output().unwrap();
    let stderr = stderr(&out);
    assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Where the corpora are: beside the repository, read-only. `TOSCANA_TEST_CORPUS` points the
/// tests elsewhere; the tests of the tests set it to a folder that does not exist, to check that
/// a missing corpus fails a CI run.
/// `toscana check` of a template `text`, written to a scratch file, which must pass with no
/// diagnostic at all: the valid counterparts of the bad-input cases.
pub fn assert_checks_clean(text: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, text).unwrap();
    let out = toscana().arg("check").arg(&path).output().unwrap();
    let stderr = stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("valid (0 warnings)") && !stderr.contains("error["),
        "{stderr}"
    );
}

pub fn corpus_root() -> PathBuf {
    match std::env::var_os("TOSCANA_TEST_CORPUS") {
        Some(root) => PathBuf::from(root),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    }
}

/// Whether this run is CI's, where a missing corpus or checker is a failure.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Prints `text` on standard error where `cargo test` shows it even for a passing test: the
/// test harness captures what `eprintln!` prints, not what is written to the stream itself.
pub fn notice(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "notice: {text}");
}

/// A test that cannot run here: under CI a failure (a green CI run must have run everything),
/// elsewhere a visible notice naming `what` is skipped and `why`. The caller returns after it.
pub fn skip(what: &str, why: &str) {
    assert!(!in_ci(), "{what} cannot run under CI=true: {why}");
    notice(&format!("SKIPPED {what}: {why}"));
}

/// Whether this run rewrites committed expected files (the goldens, the IR schema), from the
/// value of `UPDATE_GOLDEN` and whether the run is CI's. Only `UPDATE_GOLDEN=1` rewrites, and
/// never under `CI=true`, where expected files are compared, not made; any other value is
/// refused rather than guessed at (`UPDATE_GOLDEN=0` once rewrote everything).
pub fn update_policy(value: Option<&str>, ci: bool) -> Result<bool, String> {
    match (value, ci) {
        (None, _) => Ok(false),
        (Some(value), true) => Err(format!(
            "UPDATE_GOLDEN={value} is refused under CI=true: CI compares the expected files, it never rewrites them"
        )),
        (Some("1"), false) => Ok(true),
        (Some(value), false) => Err(format!(
            "UPDATE_GOLDEN={value}: only UPDATE_GOLDEN=1 rewrites the expected files; unset it to compare them"
        )),
    }
}

/// Where `bytes` name the folder this checkout lives in (the one holding the repository and
/// `../shared`), which a golden must not: CI checks out elsewhere, and an output that embeds
/// the machine's paths differs there (the diagram header once named `/work/shared/...`).
pub fn machine_path_in(bytes: &[u8]) -> Option<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let home = manifest.parent()?.canonicalize().ok()?;
    let home = home.to_str()?;
    let text = String::from_utf8_lossy(bytes);
    let home = format!("{}/", home.trim_end_matches('/'));
    (home.len() > 1 && text.contains(&home)).then_some(home)
}

/// [`update_policy`] for this process; a refused value fails the test that asks.
pub fn update_golden() -> bool {
    let value = std::env::var("UPDATE_GOLDEN").ok();
    update_policy(value.as_deref(), in_ci()).unwrap_or_else(|refused| panic!("{refused}"))
}

/// Whether `../shared/corpus/<subdir>` is there. Without it the test [`skip`]s (a failure under
/// CI) and names `what` is skipped.
pub fn corpus_present(subdir: &str, what: &str) -> bool {
    let dir = corpus_root().join(subdir);
    if dir.is_dir() {
        return true;
    }
    skip(what, &format!("{} is missing", dir.display()));
    false
}

/// Whether `tool` can be started (its answer to `--version` does not matter). Without it the
/// test [`skip`]s (a failure under CI) and names `what` is skipped.
pub fn tool_present(tool: &str, what: &str) -> bool {
    if std::process::Command::new(tool)
        .arg("--version")
        .output()
        .is_ok()
    {
        return true;
    }
    skip(what, &format!("`{tool}` is not installed"));
    false
}

/// Where `tool` is on `PATH`, if it is.
pub fn find_on_path(tool: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(tool))
        .find(|path| path.is_file())
}

/// Runs one test of this very test binary again, alone, with `env` set: how the tests of the
/// tests inject a fault (a missing corpus, a refused `UPDATE_GOLDEN`) into a real test and see
/// it fail. The child's output is returned, its standard output and error joined.
pub fn rerun_this_test(test: &str, env: &[(&str, &std::ffi::OsStr)]) -> (bool, String) {
    let mut command = std::process::Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args([test, "--exact", "--nocapture", "--test-threads", "1"])
        .env_remove("CI")
        .env_remove("UPDATE_GOLDEN")
        .env_remove("TOSCANA_TEST_CORPUS");
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command.output().expect("the test binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(&format!("test {test} ")),
        "the rerun did not run `{test}`:\n{text}"
    );
    (out.status.success(), text)
}

/// Asserts that `test`, run again with `env` (the fault, described by `fault`), fails and its
/// output `says` why: how a test of the tests checks that a fault injected into a real test is
/// caught, and caught for its reason.
pub fn assert_rerun_fails(test: &str, env: &[(&str, &std::ffi::OsStr)], fault: &str, says: &str) {
    let (passed, text) = rerun_this_test(test, env);
    assert!(!passed, "`{test}` passed {fault}:\n{text}");
    assert!(
        text.contains(says),
        "`{test}` failed {fault}, but its output does not say `{says}`:\n{text}"
    );
}

/// Asserts that `test`, run under `CI=true` with the corpus folder gone, fails and says the
/// corpus is missing: the fault "delete a corpus folder under CI" injected into a real test.
pub fn assert_fails_in_ci_without_the_corpus(test: &str) {
    let gone = tempfile::tempdir().expect("a temporary folder");
    let missing = gone.path().join("no-corpus");
    let (passed, text) = rerun_this_test(
        test,
        &[
            ("CI", "true".as_ref()),
            ("TOSCANA_TEST_CORPUS", missing.as_os_str()),
        ],
    );
    assert!(
        !passed,
        "`{test}` passed under CI=true without its corpus:\n{text}"
    );
    assert!(
        text.contains("cannot run under CI=true") && text.contains("is missing"),
        "`{test}` failed, but not for the missing corpus:\n{text}"
    );
}

/// The floors of the corpus output tests, `tests/output-floors.tsv`.
const OUTPUT_FLOORS: &str = "tests/output-floors.tsv";

/// Checks what the corpus output test `test` measured against its floors in
/// `tests/output-floors.tsv` (see [`output_floor_problems`]); a measure above its floor gets a
/// visible notice to raise it.
pub fn assert_output_floors(test: &str, measured: &[(&str, usize)]) {
    let text = std::fs::read_to_string(OUTPUT_FLOORS).expect("the output floors are committed");
    let (problems, raise) = output_floor_problems(&text, test, measured);
    for line in raise {
        notice(&format!("{line}; raise it in {OUTPUT_FLOORS}"));
    }
    assert!(
        problems.is_empty(),
        "{}\n(floors in {OUTPUT_FLOORS})",
        problems.join("\n")
    );
}

/// What is wrong with `measured` against the floors of `test` in `floors` (`test`, `measure`,
/// `floor` lines): a measure below its floor, or a floor not measured. Second, the measures
/// above their floors.
pub fn output_floor_problems(
    floors: &str,
    test: &str,
    measured: &[(&str, usize)],
) -> (Vec<String>, Vec<String>) {
    let (rows, mut problems) = floor_rows(floors);
    let mut raise = Vec::new();
    for FloorRow {
        name,
        measure,
        value: floor,
        ..
    } in rows
    {
        if name != test {
            continue;
        }
        match measured.iter().find(|(m, _)| *m == measure) {
            None => problems.push(format!("{test} does not measure `{measure}`")),
            Some((_, value)) if *value < floor => problems.push(format!(
                "{test} {measure}: {value} is below its floor of {floor}"
            )),
            Some((_, value)) if *value > floor => raise.push(format!(
                "{test} {measure}: {value} is above its floor of {floor}"
            )),
            Some(_) => {}
        }
    }
    (problems, raise)
}

/// One line of a floors table (`tests/output-floors.tsv`, `tests/conformance-floors.tsv`): what
/// is measured (a test or a corpus), the measure, and its committed value.
pub struct FloorRow<'a> {
    pub line: &'a str,
    pub name: &'a str,
    pub measure: &'a str,
    pub value: usize,
}

/// The rows of a floors table (tab-separated `name`, `measure`, `value`; `#` comments and blank
/// lines skipped), and a problem for each line that is not one.
pub fn floor_rows(text: &str) -> (Vec<FloorRow<'_>>, Vec<String>) {
    let (mut rows, mut problems) = (Vec::new(), Vec::new());
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [name, measure, value] = fields[..] else {
            problems.push(format!("bad floor line `{line}` (name, measure, value)"));
            continue;
        };
        let Ok(value) = value.parse::<usize>() else {
            problems.push(format!("bad floor line `{line}`: `{value}` is not a count"));
            continue;
        };
        rows.push(FloorRow {
            line,
            name,
            measure,
            value,
        });
    }
    (rows, problems)
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

/// The folder a corpus file is read inside of: the test suite it belongs to, whose tests import
/// each other across its folders (tosca-parser's data folder, the OASIS TOSCA 2.0 tests), as
/// the conformance run reads them; `None` (the file's own folder) for the other corpora.
pub fn corpus_repository(path: &Path) -> Option<PathBuf> {
    ["tosca-parser", "oasis/tests/tosca_2_0"]
        .into_iter()
        .map(|suite| corpus_root().join(suite))
        .find(|suite| path.starts_with(suite))
}

/// A corpus file read with no error inside its suite ([`corpus_repository`]): the files the
/// corpus output tests translate.
pub fn read_accepted_corpus_file(path: &Path) -> Option<toscana::pipeline::Read> {
    read_accepted_under(corpus_repository(path).as_deref(), path, &[], &[])
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

/// Every file under `dir`, by `/`-separated relative path.
pub fn files_under(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .expect("under dir")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&path).expect("readable file"));
            }
        }
    }
    out
}
