//! `tests/conformance/coverage.tsv` maps the items of the two conformance checklists to the
//! tests that exercise them. Every ID it lists is an item of
//! `../shared/checklists/tosca2.md` or `../shared/checklists/simple-profile.md`, listed once;
//! every test it names exists (a `tests/bad_input/<case>` folder, or a test function in a file
//! of `tests/`); and every item of both checklists is listed (the ceiling of unlisted items the
//! earlier rounds lowered row by row reached zero).

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{corpus_root, in_ci, skip};

const COVERAGE: &str = "tests/conformance/coverage.tsv";

/// The item IDs of a checklist: every `- **ID**` bullet, and every table row whose first cell
/// is an ID (the error catalogues, `| T2-ERR-01 | … |`, `| SP-ERR-01 | … |`).
fn checklist_ids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.strip_prefix("- **")
                .and_then(|rest| rest.split_once("**").map(|(id, _)| id))
                .or_else(|| {
                    l.strip_prefix('|')
                        .and_then(|rest| rest.split_once('|').map(|(cell, _)| cell.trim()))
                })
        })
        .filter(|id| {
            (id.starts_with("T2-") || id.starts_with("SP-"))
                && id
                    .rsplit('-')
                    .next()
                    .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .map(str::to_string)
        .collect()
}

/// Whether the test a row names exists.
fn test_exists(name: &str) -> bool {
    if let Some(case) = name.strip_prefix("bad_input/") {
        return Path::new("tests/bad_input")
            .join(case)
            .join("case")
            .is_file();
    }
    let Some((file, function)) = name.split_once("::") else {
        return false;
    };
    std::fs::read_to_string(Path::new("tests").join(file))
        .is_ok_and(|text| text.contains(&format!("fn {function}(")))
}

#[test]
fn coverage_rows_name_checklist_items_and_existing_tests() {
    let checklists = corpus_root().join("../checklists");
    let (Ok(tosca2), Ok(simple)) = (
        std::fs::read_to_string(checklists.join("tosca2.md")),
        std::fs::read_to_string(checklists.join("simple-profile.md")),
    ) else {
        skip("the checklist coverage", "../shared/checklists is missing");
        assert!(!in_ci(), "the checklists are missing under CI");
        return;
    };
    let items: BTreeSet<String> = checklist_ids(&tosca2)
        .into_iter()
        .chain(checklist_ids(&simple))
        .collect();
    let text = std::fs::read_to_string(COVERAGE).expect("coverage.tsv is committed");
    let mut problems = Vec::new();
    let mut listed = BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, strength, tests, note] = fields[..] else {
            problems.push(format!("`{line}`: four tab-separated fields"));
            continue;
        };
        if !items.contains(id) {
            problems.push(format!("{id} is not an item of either checklist"));
        }
        if !listed.insert(id.to_string()) {
            problems.push(format!("{id} is listed twice"));
        }
        if strength.is_empty() || note.trim().is_empty() {
            problems.push(format!("{id}: a strength and a note"));
        }
        if tests == "-" {
            continue;
        }
        for test in tests.split(',').map(str::trim) {
            if !test_exists(test) {
                problems.push(format!("{id} names `{test}`, which does not exist"));
            }
        }
    }
    for id in items.iter().filter(|id| !listed.contains(*id)) {
        problems.push(format!(
            "{id} is not listed: add its row (a row was dropped or the checklists grew)"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
