//! A correct template gets no warning: every shipped example, and every golden input, checks
//! with none, so a warning is always something to act on. A golden case whose input gets
//! warnings on purpose lists them in `golden/<case>/warnings` (`code file:line:col` lines, with
//! a comment saying why), and gets exactly those.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod common;

use common::{stderr, toscana};

/// `(code, file:line:col)` of every diagnostic of `toscana check`, file names relative to
/// `base`; panics on an error.
fn check(args: &[&str], base: &str) -> BTreeSet<(String, String)> {
    let out = toscana()
        .arg("check")
        .args(args)
        .args(["--message-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "check {args:?}:\n{}", stderr(&out));
    stderr(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|d| {
            let file = d["file"].as_str().unwrap_or("-");
            let file = file.strip_prefix(base).unwrap_or(file);
            let place = match (d["line"].as_u64(), d["column"].as_u64()) {
                (Some(l), Some(c)) => format!("{file}:{l}:{c}"),
                _ => file.to_string(),
            };
            (d["code"].as_str().unwrap().to_string(), place)
        })
        .collect()
}

/// Each example, as its description says to run it.
#[test]
fn every_example_checks_without_a_warning() {
    let mut examples: Vec<PathBuf> = std::fs::read_dir("examples")
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    examples.sort();
    assert!(examples.len() >= 5, "{examples:?}");
    for example in &examples {
        let path = example.to_str().unwrap();
        // A variable template is checked in each of its variants.
        let runs: Vec<Vec<&str>> = if path.ends_with("variable-shop.yaml") {
            vec![
                vec![path, "--preset", "dev"],
                vec![path, "--preset", "prod"],
            ]
        } else {
            vec![vec![path]]
        };
        for args in runs {
            let found = check(&args, "");
            assert!(found.is_empty(), "check {args:?} warns: {found:?}");
        }
    }
}

/// The arguments a golden case gives every command (`args`): `--set`, `--preset`, `--entry`.
fn case_args(case: &Path) -> Vec<String> {
    std::fs::read_to_string(case.join("args"))
        .map(|t| {
            t.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn expected_warnings(case: &Path) -> BTreeSet<(String, String)> {
    std::fs::read_to_string(case.join("warnings"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (code, place) = l.split_once(' ').expect("`code file:line:col`");
            (code.to_string(), place.trim().to_string())
        })
        .collect()
}

#[test]
fn every_golden_input_checks_with_only_the_warnings_it_lists() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("golden")
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let mut quiet = 0;
    for case in &cases {
        let input = ["input.yaml", "input.csar", "input.zip", "input"]
            .iter()
            .map(|n| case.join(n))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{} has no input", case.display()));
        let mut args = vec![input.to_str().unwrap().to_string()];
        args.extend(case_args(case));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let base = format!("{}/", case.display());
        let found = check(&args, &base);
        let expected = expected_warnings(case);
        assert_eq!(
            found,
            expected,
            "{}: the warnings of `check` are not those golden/{}/warnings lists",
            case.display(),
            case.file_name().unwrap().to_string_lossy()
        );
        quiet += usize::from(expected.is_empty());
    }
    assert!(
        quiet >= 35,
        "only {quiet} golden inputs check without warnings"
    );
}
