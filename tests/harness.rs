//! Tests of the tests: each weakness a test harness could have (a file rejected for the wrong
//! reason counted as agreement, a disagreement row added to hide a regression, a checker batch
//! that fails with no single culprit passing) is injected on purpose into the harness's own
//! logic, with doctored inputs, and the harness must fail.
//!
//! The faults that need a whole test run (`UPDATE_GOLDEN` under `CI=true`, a corpus folder gone
//! under `CI=true`, a missing `dot` or `terraform` under `CI=true`) are injected by the tests
//! themselves, which run one of their own tests again with the fault (see
//! `common::rerun_this_test`): in `golden.rs`, `ir_schema.rs`, `cli.rs` and each corpus test.

use std::collections::BTreeMap;

mod common;

use common::batches::check_in_batches;
use common::verdicts::{
    self, Case, Found, Observed, Reason, Row, RowKind, Stated, Tally, check_floors, judge,
    parse_rows, unquoted_rows,
};

fn error(code: &str, line: u32) -> Found {
    Found {
        code: code.to_string(),
        file: "/corpus/suite/bad.yaml".to_string(),
        line,
        message: "a message".to_string(),
    }
}

fn invalid(observed: Observed) -> Case {
    Case {
        corpus: "suite".to_string(),
        name: "suite/bad.yaml".to_string(),
        entry: "bad.yaml".to_string(),
        valid: false,
        observed,
    }
}

fn valid(observed: Observed) -> Case {
    Case {
        corpus: "suite".to_string(),
        name: "suite/good.yaml".to_string(),
        entry: "good.yaml".to_string(),
        valid: true,
        observed,
    }
}

/// The reason recorded for `suite/bad.yaml`: a type mismatch at line 7.
fn reasons() -> BTreeMap<String, Reason> {
    BTreeMap::from([(
        "suite/bad.yaml".to_string(),
        Reason::parse("tosca::type-mismatch", "7").unwrap(),
    )])
}

fn row(kind: RowKind, file: &str, toscana: Stated) -> Row {
    Row {
        kind,
        file: file.to_string(),
        toscana,
        why: "\"a passage of the specification\"".to_string(),
        line: 1,
    }
}

#[test]
fn an_invalid_file_rejected_for_its_reason_agrees() {
    let case = invalid(Observed::Rejected(vec![
        error("tosca::unknown-keyname", 3),
        error("tosca::type-mismatch", 7),
    ]));
    let judgement = judge(&[case], &reasons(), &[]);
    assert_eq!(judgement.failures, Vec::<String>::new());
    assert_eq!(judgement.tallies["suite"].invalid_rejected, 1);
}

#[test]
fn an_invalid_file_rejected_for_another_reason_is_a_disagreement() {
    // A reader bug that rejects everything with a syntax error must not count as agreement.
    let case = invalid(Observed::Rejected(vec![error("yaml::syntax", 1)]));
    let judgement = judge(&[case], &reasons(), &[]);
    assert_eq!(judgement.tallies["suite"].invalid_rejected, 0);
    assert!(
        judgement.failures[0].contains("undocumented disagreement")
            && judgement.failures[0].contains("tosca::type-mismatch at line 7")
            && judgement.failures[0].contains("yaml::syntax"),
        "{:?}",
        judgement.failures
    );
}

#[test]
fn the_right_code_at_the_wrong_line_is_a_disagreement() {
    let case = invalid(Observed::Rejected(vec![error("tosca::type-mismatch", 8)]));
    let judgement = judge(&[case], &reasons(), &[]);
    assert_eq!(judgement.failures.len(), 1, "{:?}", judgement.failures);
    // In another file, the same line is not the reason either.
    let mut elsewhere = error("tosca::type-mismatch", 7);
    elsewhere.file = "/corpus/suite/imported.yaml".to_string();
    let judgement = judge(
        &[invalid(Observed::Rejected(vec![elsewhere]))],
        &reasons(),
        &[],
    );
    assert_eq!(judgement.failures.len(), 1, "{:?}", judgement.failures);
}

#[test]
fn an_invalid_file_without_a_recorded_reason_fails() {
    let case = invalid(Observed::Rejected(vec![error("tosca::type-mismatch", 7)]));
    let judgement = judge(&[case], &BTreeMap::new(), &[]);
    assert!(
        judgement
            .failures
            .iter()
            .any(|f| f.contains("no expected error is recorded")),
        "{:?}",
        judgement.failures
    );
}

#[test]
fn a_documented_row_is_held_to_the_reason_it_states() {
    let stated = Stated::Rejects(Reason::parse("tosca::missing-keyname", "").unwrap());
    let rows = [row(RowKind::Disagreement, "suite/good.yaml", stated)];
    // As stated: documented, and not counted as agreement.
    let judgement = judge(
        &[valid(Observed::Rejected(vec![error(
            "tosca::missing-keyname",
            2,
        )]))],
        &BTreeMap::new(),
        &rows,
    );
    assert_eq!(judgement.failures, Vec::<String>::new());
    assert_eq!(judgement.tallies["suite"].documented, 1);
    assert_eq!(judgement.tallies["suite"].valid_accepted, 0);
    // Rejected for another reason than the row states: a failure.
    let judgement = judge(
        &[valid(Observed::Rejected(vec![error("yaml::syntax", 1)]))],
        &BTreeMap::new(),
        &rows,
    );
    assert!(
        judgement.failures[0]
            .contains("the row says toscana rejects it with tosca::missing-keyname"),
        "{:?}",
        judgement.failures
    );
}

#[test]
fn a_row_whose_file_agrees_again_is_stale() {
    let rows = [row(
        RowKind::KnownFailure,
        "suite/good.yaml",
        Stated::Accepts,
    )];
    let judgement = judge(&[valid(Observed::Accepted)], &BTreeMap::new(), &rows);
    assert!(
        judgement.failures[0].contains("agrees with the corpus now"),
        "{:?}",
        judgement.failures
    );
}

#[test]
fn a_row_for_a_file_the_run_does_not_read_fails() {
    let rows = [row(
        RowKind::Disagreement,
        "suite/gone.yaml",
        Stated::Accepts,
    )];
    let judgement = judge(&[valid(Observed::Accepted)], &BTreeMap::new(), &rows);
    assert!(
        judgement.failures[0].contains("not a file the conformance run reads"),
        "{:?}",
        judgement.failures
    );
}

const FLOORS: &str =
    "suite\tvalid_accepted\t10\nsuite\tinvalid_rejected\t5\nDISAGREEMENTS.md\trows\t3\n";

fn tallies(valid_accepted: usize, invalid_rejected: usize) -> BTreeMap<String, Tally> {
    BTreeMap::from([(
        "suite".to_string(),
        Tally {
            valid_accepted,
            invalid_rejected,
            ..Tally::default()
        },
    )])
}

#[test]
fn the_floors_hold_at_todays_counts() {
    assert_eq!(
        check_floors(&tallies(10, 5), 3, FLOORS),
        Vec::<String>::new()
    );
}

#[test]
fn an_added_disagreement_row_breaks_the_ceiling() {
    let problems = check_floors(&tallies(10, 5), 4, FLOORS);
    assert!(
        problems[0].contains("above its ceiling of 3"),
        "{problems:?}"
    );
}

#[test]
fn adding_a_row_to_the_committed_disagreements_breaks_the_committed_ceiling() {
    let text = std::fs::read_to_string(RowKind::Disagreement.table()).unwrap();
    let rows = parse_rows(RowKind::Disagreement, &text).expect("the committed table parses");
    let doctored = format!(
        "{text}| `oasis/tests/tosca_2_0/some/new.yaml` | valid | error | `tosca::unknown-type` | \"hides a regression\" |\n"
    );
    let more = parse_rows(RowKind::Disagreement, &doctored).unwrap();
    assert_eq!(more.len(), rows.len() + 1);
    let floors = std::fs::read_to_string("tests/conformance-floors.tsv").unwrap();
    let ceiling = |n: usize| {
        check_floors(&BTreeMap::new(), n, &floors)
            .into_iter()
            .filter(|p| p.starts_with("DISAGREEMENTS.md"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ceiling(rows.len()),
        Vec::<String>::new(),
        "the committed ceiling"
    );
    assert!(ceiling(more.len())[0].contains("above its ceiling"));
}

#[test]
fn a_known_failure_row_that_hides_a_regression_drops_a_floor() {
    // A file that regressed and was listed as a known failure no longer counts: the floor fails.
    let problems = check_floors(&tallies(9, 5), 3, FLOORS);
    assert!(
        problems[0].contains("valid_accepted: 9 is below its floor of 10"),
        "{problems:?}"
    );
}

#[test]
fn progress_must_be_recorded_in_the_floors() {
    let problems = check_floors(&tallies(11, 5), 3, FLOORS);
    assert!(
        problems[0].contains("raise the floor to 11"),
        "{problems:?}"
    );
    let problems = check_floors(&tallies(10, 5), 2, FLOORS);
    assert!(problems[0].contains("lower its ceiling"), "{problems:?}");
}

#[test]
fn a_disagreement_row_must_quote_the_spec_word_for_word() {
    let spec = vec![
        "A property SHALL be considered required by default (i.e., as if the\n*required* keyname \
         is set to true)."
            .to_string(),
    ];
    let quoted = |why: &str| Row {
        why: why.to_string(),
        ..row(RowKind::Disagreement, "suite/good.yaml", Stated::Accepts)
    };
    let rows = [
        quoted("because \"A property SHALL be considered required by default\" (A.5.7)"),
        quoted("because the spec says properties are required (A.5.7)"),
        quoted("because \"A property SHALL be considered optional by default\" (A.5.7)"),
        quoted("because \"required\" (too short to be a quotation)"),
    ];
    let problems = unquoted_rows(&rows, &spec);
    assert_eq!(problems.len(), 3, "{problems:?}");
    // Known failures need no quotation: they are not the spec's word.
    let known = [Row {
        kind: RowKind::KnownFailure,
        ..quoted("toscana's choice")
    }];
    assert!(unquoted_rows(&known, &spec).is_empty());
}

#[test]
fn a_row_must_say_what_toscana_does() {
    let bad = "| `a.yaml` | valid | error | - | why |\n";
    assert!(parse_rows(RowKind::Disagreement, bad).is_err());
    let bad = "| `a.yaml` | invalid | loads | `tosca::wrong-shape` | why |\n";
    assert!(parse_rows(RowKind::Disagreement, bad).is_err());
    let bad = "| `a.yaml` | valid | error | not a code | why |\n";
    assert!(parse_rows(RowKind::Disagreement, bad).is_err());
    let good = "| `a.yaml` | valid | error | `tosca::wrong-shape` line 12 | why |\n";
    let rows = parse_rows(RowKind::Disagreement, good).unwrap();
    assert_eq!(
        rows[0].toscana,
        Stated::Rejects(Reason::parse("tosca::wrong-shape", "12").unwrap())
    );
}

#[test]
fn the_committed_tables_parse() {
    for kind in [RowKind::Disagreement, RowKind::KnownFailure] {
        let text = std::fs::read_to_string(kind.table()).unwrap();
        let rows = parse_rows(kind, &text).unwrap_or_else(|p| panic!("{}", p.join("\n")));
        assert!(!rows.is_empty(), "{} has no rows", kind.table());
    }
    let text = std::fs::read_to_string("tests/conformance/expected-errors.tsv").unwrap();
    let reasons = verdicts::parse_reasons("expected-errors.tsv", &text)
        .unwrap_or_else(|p| panic!("{}", p.join("\n")));
    assert!(reasons.len() > 150);
}

#[test]
fn a_failed_batch_without_a_culprit_fails() {
    // The checker rejects the batch, yet every member passes alone (it chokes on the mix, or
    // fails only sometimes): that must not pass as "no culprit, no failure".
    let failures = check_in_batches(
        &[1, 2, 3],
        10,
        |_| Err("dot: syntax error in the combined graphs".to_string()),
        |_| Ok(()),
    );
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("none of its members fails alone"));
    assert!(failures[0].contains("syntax error in the combined graphs"));
}

#[test]
fn a_failed_batch_names_its_culprits_and_passing_batches_pass() {
    let failures = check_in_batches(
        &[1, 2, 3, 4, 5],
        2,
        |batch| {
            if batch.contains(&3) {
                Err("batch".to_string())
            } else {
                Ok(())
            }
        },
        |n| {
            if *n == 3 {
                Err("3 is bad".to_string())
            } else {
                Ok(())
            }
        },
    );
    assert_eq!(failures, ["3 is bad"]);
    assert!(check_in_batches(&[1, 2, 3], 2, |_| Ok(()), |_: &i32| Err("unused".into())).is_empty());
}

#[test]
fn update_golden_only_rewrites_when_it_is_1_and_never_in_ci() {
    use common::update_policy;
    assert_eq!(update_policy(None, false), Ok(false));
    assert_eq!(update_policy(None, true), Ok(false));
    assert_eq!(update_policy(Some("1"), false), Ok(true));
    for value in ["0", "", "true", "yes"] {
        assert!(update_policy(Some(value), false).is_err(), "{value}");
    }
    for value in ["0", "1", ""] {
        assert!(update_policy(Some(value), true).is_err(), "{value}");
    }
}

#[test]
fn a_skipped_test_fails_under_ci_and_says_so_elsewhere() {
    let demo = ("TOSCANA_SKIP_DEMO", "1".as_ref());
    common::assert_rerun_fails(
        "a_skip",
        &[("CI", "true".as_ref()), demo],
        "when it skips under CI=true",
        "cannot run under CI=true",
    );
    let (passed, text) = common::rerun_this_test("a_skip", &[demo]);
    assert!(passed, "{text}");
    assert!(
        text.contains("notice: SKIPPED a deliberately skipped test"),
        "{text}"
    );
}

/// Skips when `TOSCANA_SKIP_DEMO` is set: the subject of
/// [`a_skipped_test_fails_under_ci_and_says_so_elsewhere`]; does nothing in a normal run.
#[test]
fn a_skip() {
    if std::env::var_os("TOSCANA_SKIP_DEMO").is_some() {
        common::skip("a deliberately skipped test", "the test of the skip itself");
    }
}

/// The corpus output tests need more than "something came out": a count below its floor, or a
/// floor no longer measured, fails; a count above it asks for the floor to be raised.
#[test]
fn an_output_test_below_its_floor_or_not_measuring_one_fails() {
    let floors =
        "dot_corpus\trendered\t500\ntf_corpus\tconfigurations\t1200\ntf_corpus\tclean\t1000\n";
    let check =
        |test, measured: &[(&str, usize)]| common::output_floor_problems(floors, test, measured);
    let (problems, _) = check("dot_corpus", &[("rendered", 1)]);
    assert_eq!(
        problems,
        ["dot_corpus rendered: 1 is below its floor of 500"]
    );
    let (problems, _) = check("tf_corpus", &[("configurations", 1200)]);
    assert_eq!(problems, ["tf_corpus does not measure `clean`"]);
    let (problems, raise) = check("dot_corpus", &[("rendered", 501)]);
    assert!(problems.is_empty());
    assert_eq!(
        raise,
        ["dot_corpus rendered: 501 is above its floor of 500"]
    );
    // The committed floors parse.
    let committed = std::fs::read_to_string("tests/output-floors.tsv").unwrap();
    let (problems, _) =
        common::output_floor_problems(&committed, "dot_corpus", &[("rendered", usize::MAX)]);
    assert!(problems.is_empty(), "{problems:?}");
}
