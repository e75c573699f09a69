//! Golden tests: every `golden/<case>/` pairs an input with the exact expected output of each
//! command that has an `expected/<command>/` folder, compared byte for byte.
//!
//! A case holds `input.yaml`, `input.csar`, `input.zip` or an `input/` folder, and optionally an
//! `args` file with extra command-line arguments for every command (one per line, e.g. `--set`
//! values) and `args.<command>` files with arguments for one command (`args.dot`: `--legend`). Commands:
//! `ir` (the IR as `ir.json`), `k8s`, `tf`, `dot`, and `convert` (TOSCA 1.0 XML as YAML,
//! `converted.yaml`). `UPDATE_GOLDEN=1 cargo test` rewrites the
//! expected files; read every rewritten file in the diff before committing it, because a golden
//! is a claim that the output is right.
//!
//! Every golden output also goes through the external checker of its format (Graphviz `dot`,
//! `kubernetes-validate`, `yamllint`, `hcl2tojson`, `terraform fmt`), see `checkers`.

mod checkers;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

const COMMANDS: &[&str] = &["ir", "k8s", "tf", "dot", "convert"];

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir("golden")
        .expect("golden/ exists")
        .map(|e| e.expect("readable golden/").path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}

fn input_of(case: &Path) -> PathBuf {
    for name in ["input.yaml", "input.csar", "input.zip", "input"] {
        let path = case.join(name);
        if path.exists() {
            return path;
        }
    }
    panic!(
        "{} has no input.yaml, input.csar, input.zip or input/",
        case.display()
    );
}

/// The case's `args` (for every command) followed by its `args.<command>` (for that command
/// only, e.g. `args.dot` with `--legend`).
fn extra_args(case: &Path, command: &str) -> Vec<String> {
    ["args".to_string(), format!("args.{command}")]
        .iter()
        .flat_map(|name| {
            fs::read_to_string(case.join(name))
                .map(|t| {
                    t.lines()
                        .filter(|l| !l.trim().is_empty())
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
        .collect()
}

/// Every file under `dir`, by `/`-separated relative path.
fn files_under(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
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
                out.insert(rel, fs::read(&path).expect("readable file"));
            }
        }
    }
    out
}

fn render(case: &Path, command: &str, out: &Path) {
    // `convert` writes one file, the others a folder.
    let target = match command {
        "convert" => out.join("converted.yaml"),
        _ => out.to_path_buf(),
    };
    let output = Command::cargo_bin("toscana")
        .expect("the toscana binary is built")
        .arg(command)
        .arg(input_of(case))
        .args(extra_args(case, command))
        .arg("-o")
        .arg(target)
        .env("NO_COLOR", "1")
        .output()
        .expect("toscana runs");
    assert!(
        output.status.success(),
        "`toscana {command}` failed on {} ({}):\n{}",
        case.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn golden_outputs_match_byte_for_byte() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    let mut compared = 0;
    for case in cases() {
        for command in COMMANDS {
            let expected_dir = case.join("expected").join(command);
            if !expected_dir.is_dir() {
                continue;
            }
            let scratch = tempfile::tempdir().expect("a temporary folder");
            render(&case, command, scratch.path());
            let actual = files_under(scratch.path());
            if update {
                let _ = fs::remove_dir_all(&expected_dir);
                for (rel, bytes) in &actual {
                    let path = expected_dir.join(rel);
                    fs::create_dir_all(path.parent().expect("has a parent"))
                        .expect("writable golden/");
                    fs::write(&path, bytes).expect("writable golden/");
                }
            }
            let expected = files_under(&expected_dir);
            compared += 1;
            for name in expected
                .keys()
                .chain(actual.keys())
                .collect::<std::collections::BTreeSet<_>>()
            {
                let where_ = format!("{}/expected/{command}/{name}", case.display());
                match (expected.get(name), actual.get(name)) {
                    (Some(e), Some(a)) if e == a => {}
                    (Some(e), Some(a)) => {
                        let (e, a) = (String::from_utf8_lossy(e), String::from_utf8_lossy(a));
                        let diff = similar::TextDiff::from_lines(e.as_ref(), a.as_ref())
                            .unified_diff()
                            .header("expected", "actual")
                            .to_string();
                        failures.push(format!("{where_} differs:\n{diff}"));
                    }
                    (Some(_), None) => failures.push(format!("{where_} was not produced")),
                    (None, _) => {
                        failures.push(format!("{where_} was produced but is not expected"))
                    }
                }
            }
            if let Err(problem) = checkers::check_tree(command, &expected_dir) {
                failures.push(format!("{}/expected/{command}: {problem}", case.display()));
            }
            for (name, bytes) in &expected {
                if let Err(problem) = checkers::check(command, &expected_dir.join(name), bytes) {
                    failures.push(format!(
                        "{}/expected/{command}/{name}: {problem}",
                        case.display()
                    ));
                }
            }
        }
    }
    assert!(
        compared > 0,
        "no golden case has an expected/<command>/ folder"
    );
    assert!(
        failures.is_empty(),
        "{} golden mismatches (UPDATE_GOLDEN=1 rewrites them):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn rendering_twice_gives_identical_bytes() {
    for case in cases() {
        for command in COMMANDS {
            if !case.join("expected").join(command).is_dir() {
                continue;
            }
            let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            render(&case, command, a.path());
            render(&case, command, b.path());
            assert_eq!(
                files_under(a.path()),
                files_under(b.path()),
                "{} {command} is not deterministic",
                case.display()
            );
        }
    }
}

/// Under `CI=true` every external checker must be installed, so a green CI run really checked
/// every golden output (a missing tool would otherwise make those checks vacuous).
#[test]
fn every_checker_is_installed_in_ci() {
    if !checkers::required() {
        eprintln!("notice: not in CI; checker installation not enforced");
        return;
    }
    let missing: Vec<&str> = ["dot", "kubernetes-validate", "yamllint", "hcl2tojson"]
        .into_iter()
        .filter(|t| !checkers::available(t))
        .collect();
    assert!(
        missing.is_empty(),
        "checkers missing under CI=true: {missing:?}; .ci/run must install them"
    );
}
