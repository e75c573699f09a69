//! Property test: valid templates, broken in the ways people and generators break them (a line
//! deleted, duplicated, moved or cut short, a value replaced by one of another kind), are read
//! and resolved without a panic, and every error they cause points into a file. That is `toscana
//! check` ending with exit 0 or 1, never 101, whatever the edit.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use toscana::diag::Diagnostics;
use toscana::pipeline::{ReadOptions, read};
use toscana::source::InputArg;

/// The valid templates that get broken: the examples and the golden inputs that are single
/// files (the corpora are fuzzed separately, see fuzz/).
fn seeds() -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("examples")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.extend(
        std::fs::read_dir("golden")
            .unwrap()
            .map(|e| e.unwrap().path().join("input.yaml"))
            .filter(|p| p.is_file()),
    );
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// Values of other kinds to put where a value was.
const REPLACEMENTS: &[&str] = &[
    "",
    "~",
    "[]",
    "{}",
    "42",
    "-1.5e300",
    "true",
    "[a, [b, {c: d}]]",
    "{ get_input: nope }",
    "{ get_property: [ SELF, a, b, 0 ] }",
    "{ concat: [ 1, { get_attribute: [ HOST, x ] } ] }",
    "*undefined",
    "&anchor value",
    "'",
    "\"",
    "- item",
    "? key",
    "!!binary aGk=",
    "1 GB",
    "tosca.nodes.Root",
    "<<: {}",
];

#[derive(Debug, Clone)]
enum Edit {
    Delete(usize),
    Duplicate(usize),
    Move(usize, usize),
    Truncate(usize, usize),
    Replace(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Move(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Truncate(a, b)),
        (any::<usize>(), 0..REPLACEMENTS.len()).prop_map(|(a, b)| Edit::Replace(a, b)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for edit in edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match *edit {
            Edit::Delete(i) => {
                lines.remove(i % n);
            }
            Edit::Duplicate(i) => {
                let line = lines[i % n].clone();
                lines.insert(i % n, line);
            }
            Edit::Move(a, b) => {
                let line = lines.remove(a % n);
                lines.insert(b % n, line);
            }
            Edit::Truncate(i, at) => {
                let line = &mut lines[i % n];
                let cut = line
                    .char_indices()
                    .map(|(k, _)| k)
                    .nth(at % (line.chars().count() + 1))
                    .unwrap_or(line.len());
                line.truncate(cut);
            }
            Edit::Replace(i, r) => {
                let line = &mut lines[i % n];
                let value = REPLACEMENTS[r];
                *line = match line.find(": ") {
                    Some(k) => format!("{}: {value}", &line[..k]),
                    None => {
                        let indent = line.len() - line.trim_start().len();
                        format!("{}{value}", &line[..indent])
                    }
                };
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Reads `text` as `toscana check` does; panics propagate and fail the property.
fn check(text: &str, dir: &Path) {
    let path = dir.join("mutated.yaml");
    std::fs::write(&path, text).unwrap();
    let mut diags = Diagnostics::with_cap(0);
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    if let Some(topology) = &read.topology {
        serde_json::to_string(topology).expect("the IR always serialises");
    }
    for d in diags.finish() {
        if d.is_error() && d.code != "cli::inputs" {
            assert!(
                d.span.is_some() || d.file.is_some(),
                "error without a place: {d:?}\n--- input ---\n{text}"
            );
        }
    }
}

/// Where proptest keeps the seeds of failing cases (run from the crate root, as `cargo test`
/// does): committed, so that a failure found once is tried by every run after.
const REGRESSIONS: &str = "tests/proptest-regressions/mutations.txt";

#[test]
fn failure_seeds_are_kept_in_the_repository() {
    let text = std::fs::read_to_string(REGRESSIONS).expect("the seed file is committed");
    // Every line is a comment or a seed (`cc <hex>`), as proptest writes them.
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        assert!(
            line.starts_with("cc "),
            "`{line}` in {REGRESSIONS} is not a seed"
        );
    }
}

proptest! {
    // A failing case's seed is written to REGRESSIONS, which is committed: every later run tries
    // the seeds that failed before, first.
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(REGRESSIONS))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn broken_templates_never_panic_and_errors_point_into_a_file(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..5),
    ) {
        let seeds = seeds();
        let text = apply(seeds[seed.index(seeds.len())].as_str(), &edits);
        let dir = tempfile::tempdir().unwrap();
        check(&text, dir.path());
    }
}
