//! Golden tests: every `golden/<case>/` pairs an input with the exact expected output of each
//! command it lists, compared byte for byte.
//!
//! A case holds `input.yaml`, `input.csar`, `input.zip` or an `input/` folder, and optionally an
//! `args` file with extra command-line arguments for every command (one per line, e.g. `--set`
//! values) and `args.<command>` files with arguments for one command (`args.dot`: `--legend`). Commands:
//! `ir` (the IR as `ir.json`), `k8s`, `tf`, `dot`, and `convert` (TOSCA 1.0 XML as YAML,
//! `converted.yaml`). A case lists a command by its `expected/<command>/` folder or its
//! `args.<command>` file; a listed command without expected files fails, and so does a folder
//! under `expected/` that names no command.
//!
//! `UPDATE_GOLDEN=1 cargo test` rewrites the expected files and then fails, so that a rewriting
//! run never passes by itself: read every rewritten file in the diff, because a golden is a claim
//! that the output is right, then run again without it. Any other value of `UPDATE_GOLDEN` is
//! refused, and under `CI=true` every value is (see `common::update_policy`).
//!
//! Every golden output also goes through the external checker of its format (Graphviz `dot`,
//! `kubernetes-validate`, `yamllint`, `kubectl kustomize`, `hcl2tojson`, `terraform fmt`), see
//! `checkers`.
//!
//! `TOSCANA_GOLDEN_DIR` reads the cases from another folder; the tests of the tests below run
//! this test again on a doctored copy of a case.

mod checkers;
mod common;
mod not_translated;
mod shuffle;

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

const COMMANDS: &[&str] = &["ir", "k8s", "tf", "dot", "convert"];

/// Where the cases are: `golden/`, or `TOSCANA_GOLDEN_DIR` (a folder also named `golden`, since
/// the cases are run from its parent).
fn golden_root() -> PathBuf {
    std::env::var_os("TOSCANA_GOLDEN_DIR").map_or_else(|| PathBuf::from("golden"), PathBuf::from)
}

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(golden_root())
        .expect("golden/ exists")
        .map(|e| e.expect("readable golden/").path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}

/// The commands a case lists: its `expected/<command>/` folders and `args.<command>` files, in
/// [`COMMANDS`] order. Problems with the listing (an unknown command, a listed command without
/// expected files, a case that lists none) go to `problems`.
fn commands_of(case: &Path, update: bool, problems: &mut Vec<String>) -> Vec<&'static str> {
    let mut listed = std::collections::BTreeSet::new();
    let expected = case.join("expected");
    let mut list = |name: &str, folder: &Path, problems: &mut Vec<String>| match COMMANDS
        .iter()
        .find(|c| **c == name)
    {
        Some(command) => {
            listed.insert(*command);
        }
        None => problems.push(format!(
            "{}: `{name}` is not a command ({})",
            folder.display(),
            COMMANDS.join(", ")
        )),
    };
    let names = |folder: &Path| -> Vec<String> {
        fs::read_dir(folder)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    };
    for name in names(&expected) {
        list(&name, &expected, problems);
    }
    for name in names(case) {
        if let Some(command) = name.strip_prefix("args.") {
            list(command, case, problems);
        }
    }
    if listed.is_empty() {
        problems.push(format!(
            "{} lists no command: add expected/<command>/ (or args.<command> and UPDATE_GOLDEN=1)",
            case.display()
        ));
    }
    let commands: Vec<&'static str> = COMMANDS
        .iter()
        .copied()
        .filter(|c| listed.contains(c))
        .collect();
    if !update {
        for command in &commands {
            let dir = expected.join(command);
            if common::files_under(&dir).is_empty() {
                problems.push(format!(
                    "{} lists `{command}` but has no expected output in {}: write it with UPDATE_GOLDEN=1 and read it",
                    case.display(),
                    dir.display()
                ));
            }
        }
    }
    commands
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

fn render(case: &Path, command: &str, out: &Path) {
    // Run from the folder that holds `golden/`, with the input named `golden/<case>/...`, as the
    // outputs (which name their input) and the `args` files (`--substitute=golden/...`) expect.
    let base = golden_root()
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    render_from(&base, case, command, out);
}

/// [`render`] with the diagnostics as JSON lines, which it returns.
fn render_json(case: &Path, command: &str, out: &Path) -> String {
    let base = golden_root()
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let input = input_of(case);
    let output = Command::cargo_bin("toscana")
        .expect("the toscana binary is built")
        .current_dir(&base)
        .arg(command)
        .arg(input.strip_prefix(&base).unwrap_or(&input))
        .args(extra_args(case, command))
        .arg("-o")
        .arg(out)
        .args(["--message-format", "json"])
        .env("NO_COLOR", "1")
        .output()
        .expect("toscana runs");
    assert!(
        output.status.success(),
        "`toscana {command}` failed on {}",
        case.display()
    );
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// [`render`] run from `base`, the folder that holds the `golden/` folder of `case`.
fn render_from(base: &Path, case: &Path, command: &str, out: &Path) {
    // `convert` writes one file, the others a folder.
    let target = match command {
        "convert" => out.join("converted.yaml"),
        _ => out.to_path_buf(),
    };
    let input = input_of(case);
    let output = Command::cargo_bin("toscana")
        .expect("the toscana binary is built")
        .current_dir(base)
        .arg(command)
        .arg(input.strip_prefix(base).unwrap_or(&input))
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
    let update = common::update_golden();
    let mut failures = Vec::new();
    let mut rewritten = Vec::new();
    let mut compared = 0;
    for case in cases() {
        for command in commands_of(&case, update, &mut failures) {
            let expected_dir = case.join("expected").join(command);
            let scratch = tempfile::tempdir().expect("a temporary folder");
            render(&case, command, scratch.path());
            let actual = common::files_under(scratch.path());
            if update && common::files_under(&expected_dir) != actual {
                let _ = fs::remove_dir_all(&expected_dir);
                for (rel, bytes) in &actual {
                    let path = expected_dir.join(rel);
                    fs::create_dir_all(path.parent().expect("has a parent"))
                        .expect("writable golden/");
                    fs::write(&path, bytes).expect("writable golden/");
                }
                rewritten.push(expected_dir.display().to_string());
            }
            for (name, bytes) in &actual {
                if let Some(home) = common::machine_path_in(bytes) {
                    failures.push(format!(
                        "{}: {command}/{name} names this machine's folder {home}",
                        case.display()
                    ));
                }
            }
            let expected = common::files_under(&expected_dir);
            compared += 1;
            let where_ = format!("{}/expected/{command}", case.display());
            failures.extend(differences(&expected, &actual, &where_, "actual"));
            let cluster = cluster_services(&case);
            if let Err(problem) = checkers::check_tree(command, &expected_dir, &cluster) {
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
    assert!(compared > 0, "no golden case lists a command");
    assert!(
        failures.is_empty(),
        "{} golden problems (UPDATE_GOLDEN=1 rewrites the outputs; read them before committing):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        !update,
        "UPDATE_GOLDEN=1 rewrote {} expected folder(s){}{}\nA rewriting run never passes: read the diff, then run cargo test without UPDATE_GOLDEN.",
        rewritten.len(),
        if rewritten.is_empty() { "" } else { ":\n  " },
        rewritten.join("\n  ")
    );
}

#[test]
fn rendering_twice_gives_identical_bytes() {
    for case in cases() {
        for command in commands_of(&case, false, &mut Vec::new()) {
            let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            render(&case, command, a.path());
            render(&case, command, b.path());
            assert_eq!(
                common::files_under(a.path()),
                common::files_under(b.path()),
                "{} {command} is not deterministic",
                case.display()
            );
        }
    }
}

/// The ledger test (issue 26, scope 7): each case's `backend::not-translated` warnings are
/// exactly those its `not-translated.<command>` file lists (see `not_translated`).
/// `UPDATE_GOLDEN=1` rewrites the files, and fails like the outputs' rewrite.
#[test]
fn every_key_left_out_is_reported() {
    let update = common::update_golden();
    let mut failures = Vec::new();
    let mut rewritten = Vec::new();
    let mut compared = 0;
    for case in cases() {
        for command in commands_of(&case, false, &mut Vec::new()) {
            if !not_translated::COMMANDS.contains(&command) {
                continue;
            }
            let scratch = tempfile::tempdir().expect("a temporary folder");
            let stderr = render_json(&case, command, scratch.path());
            let actual = not_translated::warnings(&stderr);
            let expected = not_translated::expected(&case, command);
            compared += 1;
            if actual == expected {
                continue;
            }
            let file = not_translated::expected_file(&case, command);
            if update {
                if actual.is_empty() {
                    let _ = fs::remove_file(&file);
                } else {
                    fs::write(&file, actual.join("\n") + "\n").expect("writable golden/");
                }
                rewritten.push(file.display().to_string());
                continue;
            }
            failures.push(format!(
                "{}: expected\n  {}\nbut `toscana {command}` reported\n  {}",
                file.display(),
                expected.join("\n  "),
                actual.join("\n  ")
            ));
        }
    }
    assert!(compared > 0, "no case translates with k8s or tf");
    assert!(
        failures.is_empty(),
        "{} cases report other keys as not translated than they expect (UPDATE_GOLDEN=1 rewrites the lists; read each before committing):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        !update || rewritten.is_empty(),
        "UPDATE_GOLDEN=1 rewrote:\n  {}\nA rewriting run never passes: read them, then run without UPDATE_GOLDEN.",
        rewritten.join("\n  ")
    );
}

/// The shuffle test (issue 26, scope 2): every case's templates, with their node templates and
/// the other maps whose order means nothing reversed and then rotated (see `shuffle`), translate
/// to the same bytes with `k8s`, `tf` and `dot`. The outputs cite `file:line`, so the expected
/// files are compared with each cited line moved to where the reordering put it: a source
/// annotation must still name its node's own line.
#[test]
fn reordered_templates_translate_to_the_same_bytes() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for case in cases() {
        let commands: Vec<&str> = commands_of(&case, false, &mut Vec::new())
            .into_iter()
            .filter(|c| matches!(*c, "k8s" | "tf" | "dot"))
            .collect();
        if commands.is_empty() {
            continue;
        }
        for order in [shuffle::Order::Reversed, shuffle::Order::Rotated] {
            let sandbox = tempfile::tempdir().expect("a temporary folder");
            let name = case.file_name().expect("a case folder");
            let copy = sandbox.path().join("golden").join(name);
            common::copy_dir(&case, &copy);
            let moved = shuffle_templates_of(&copy, sandbox.path(), order);
            for command in &commands {
                let out = tempfile::tempdir().expect("a temporary folder");
                render_from(sandbox.path(), &copy, command, out.path());
                let actual = common::files_under(out.path());
                let expected = common::files_under(&case.join("expected").join(command));
                compared += 1;
                let expected: Files = expected
                    .iter()
                    .map(|(file, bytes)| {
                        let text = String::from_utf8_lossy(bytes);
                        (
                            file.clone(),
                            shuffle::cite_moved_lines(&text, &moved).into_bytes(),
                        )
                    })
                    .collect();
                let where_ = format!("{} {command} {order:?}", case.display());
                failures.extend(differences(&expected, &actual, &where_, "reordered input"));
            }
        }
    }
    assert!(compared > 0, "no case translates with k8s, tf or dot");
    assert!(
        failures.is_empty(),
        "{} outputs depend on declaration order:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The Services a case says the cluster has already (`cluster-services`: one name a line, as
/// the output addresses it, then `#` and why), for the wiring check: the nodes its template
/// selects from outside the topology (TOSCA 2.0 directive `select`), which toscana reaches by
/// name and does not create. A line without its reason fails.
fn cluster_services(case: &Path) -> Vec<String> {
    let Ok(text) = fs::read_to_string(case.join("cluster-services")) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (name, why) = l.split_once('#').unwrap_or((l, ""));
            assert!(
                !why.trim().is_empty(),
                "{}/cluster-services: `{l}` says not why the cluster has it",
                case.display()
            );
            name.trim().to_string()
        })
        .collect()
}

/// The files of an output folder by relative path.
type Files = std::collections::BTreeMap<String, Vec<u8>>;

/// How `actual` differs from `expected`, file by file (a unified diff for a changed file), each
/// named `<where_>/<file>`; `label` names the actual side in the diffs.
fn differences(expected: &Files, actual: &Files, where_: &str, label: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let names: std::collections::BTreeSet<&String> = expected.keys().chain(actual.keys()).collect();
    for name in names {
        let at = format!("{where_}/{name}");
        match (expected.get(name), actual.get(name)) {
            (Some(e), Some(a)) if e == a => {}
            (Some(e), Some(a)) => {
                let (e, a) = (String::from_utf8_lossy(e), String::from_utf8_lossy(a));
                let diff = similar::TextDiff::from_lines(e.as_ref(), a.as_ref())
                    .unified_diff()
                    .header("expected", label)
                    .to_string();
                problems.push(format!("{at} differs:\n{diff}"));
            }
            (Some(_), None) => problems.push(format!("{at} was not produced")),
            (None, _) => problems.push(format!("{at} was produced but is not expected")),
        }
    }
    problems
}

/// Reorders every YAML file of the case copy `copy` (not its expected outputs) in place; for
/// each, the name the outputs cite it by (relative to `base`) and where its lines went.
fn shuffle_templates_of(
    copy: &Path,
    base: &Path,
    order: shuffle::Order,
) -> Vec<(String, Vec<usize>)> {
    let mut moved = Vec::new();
    for (rel, bytes) in common::files_under(copy) {
        if rel.starts_with("expected/") || !(rel.ends_with(".yaml") || rel.ends_with(".yml")) {
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let path = copy.join(&rel);
        let shuffled = shuffle::shuffle(&text, order);
        fs::write(&path, &shuffled.text).expect("a writable copy");
        let cited = path
            .strip_prefix(base)
            .expect("under the sandbox")
            .to_string_lossy()
            .replace('\\', "/");
        moved.push((cited, shuffled.line_map));
    }
    moved
}

/// checkov's Kubernetes checks (issue 26 scope 8), in one run over the manifests of every case
/// (each case's `expected/k8s/` copied to a folder named after it): every finding must be
/// accepted by a line of `tests/checkers/checkov-kubernetes-baseline.tsv` with its reason.
/// Whether every line still accepts a finding is judged by `tests/k8s_corpus.rs`, whose one
/// checkov run covers these manifests and every accepted corpus file's (a line may accept a
/// finding only a corpus output has).
#[test]
fn golden_manifests_pass_checkov_or_its_baseline() {
    if !common::tool_present(
        "checkov",
        "checkov's Kubernetes checks of the golden manifests",
    ) {
        return;
    }
    // Not a hidden folder (tempdir's `.tmpXXXX`): checkov's Kubernetes runner skips those.
    let all = tempfile::Builder::new()
        .prefix("golden-k8s-")
        .tempdir()
        .expect("a temporary folder");
    let mut copied = 0;
    for case in cases() {
        let manifests = case.join("expected/k8s");
        if !manifests.is_dir() {
            continue;
        }
        let name = case.file_name().expect("a case folder");
        common::copy_dir(&manifests, &all.path().join(name));
        copied += 1;
    }
    assert!(copied > 0, "no case has Kubernetes manifests");
    let mut findings = checkers::checkov::findings("kubernetes", all.path())
        .unwrap_or_else(|e| panic!("checkov: {e}"));
    // Name each finding's file as golden/<case>/expected/k8s/<file>.
    let prefix = format!("{}/", all.path().display());
    for finding in &mut findings {
        if let Some((case, file)) = finding
            .file
            .strip_prefix(&prefix)
            .and_then(|rel| rel.split_once('/'))
        {
            finding.file = format!("golden/{case}/expected/k8s/{file}");
        }
    }
    let problems = checkers::checkov::unaccepted(&findings, &checkers::checkov::KUBERNETES);
    assert!(
        problems.is_empty(),
        "{} checkov problems in the golden manifests:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The baseline accepts what it lists and nothing else: a finding no line accepts fails, and so
/// does a line that accepts no finding.
#[test]
fn the_checkov_baseline_refuses_new_findings_and_stale_lines() {
    use checkers::checkov::{Baseline, Finding, against_baseline};
    let baseline = Baseline {
        name: "test-baseline.tsv",
        text: "CKV_K8S_8\tDeployment\tprobes come later\nCKV_K8S_21\t*\tno namespace\nCKV_K8S_43\tService.default.web\tgone\n",
    };
    let finding = |check: &str, resource: &str| Finding {
        check_id: check.to_string(),
        check_name: "a check".to_string(),
        resource: resource.to_string(),
        file: "f.yaml".to_string(),
    };
    let problems = against_baseline(
        &[
            finding("CKV_K8S_8", "Deployment.default.web"),
            finding("CKV_K8S_21", "ConfigMap.default.web"),
            finding("CKV_K8S_8", "StatefulSet.default.db"),
        ],
        &baseline,
    );
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("StatefulSet.default.db CKV_K8S_8")
            && problems[0].contains("accept it in tests/checkers/test-baseline.tsv"),
        "{problems:?}"
    );
    assert!(
        problems[1]
            .contains("accepts CKV_K8S_43 on Service.default.web, which no output has any more"),
        "{problems:?}"
    );
}

/// Under `CI=true` every external checker must be installed, so a green CI run really checked
/// every golden output (a missing tool would otherwise make those checks vacuous).
#[test]
fn every_checker_is_installed_in_ci() {
    let missing: Vec<&str> = [
        "dot",
        "kubernetes-validate",
        "yamllint",
        "hcl2tojson",
        "terraform",
        "kubectl",
    ]
    .into_iter()
    .filter(|t| !checkers::available(t))
    .collect();
    if missing.is_empty() {
        return;
    }
    common::skip(
        "the golden outputs' external checks",
        &format!(
            "checkers missing: {missing:?} (.ci/run installs all but terraform, which the CI machine image carries)"
        ),
    );
}

/// A copy of the case `name` in `golden/` of a folder of its own, for `TOSCANA_GOLDEN_DIR`.
fn sandbox(name: &str) -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        fs::create_dir_all(to).expect("a sandbox folder");
        for entry in fs::read_dir(from).expect("a readable case").flatten() {
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy(&entry.path(), &target);
            } else {
                fs::copy(entry.path(), &target).expect("a copied file");
            }
        }
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    copy(
        &Path::new("golden").join(name),
        &dir.path().join("golden").join(name),
    );
    dir
}

/// The case the tests of the tests doctor: small, one command, no external checker but `dot`.
const SANDBOXED: &str = "dot-io";
const GOLDEN_TEST: &str = "golden_outputs_match_byte_for_byte";

/// Runs the golden test again on the cases of the sandbox `dir`, with `env`.
fn rerun(dir: &Path, env: &[(&str, &str)]) -> (bool, String) {
    let golden = dir.join("golden");
    let mut all: Vec<(&str, &std::ffi::OsStr)> = vec![("TOSCANA_GOLDEN_DIR", golden.as_os_str())];
    all.extend(env.iter().map(|(k, v)| (*k, v.as_ref())));
    common::rerun_this_test(GOLDEN_TEST, &all)
}

/// A sandbox whose expected `graph.dot` is doctored: the sandbox, the file, and its right bytes.
fn sandbox_with_a_doctored_graph() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = sandbox(SANDBOXED);
    let graph = dir
        .path()
        .join("golden")
        .join(SANDBOXED)
        .join("expected/dot/graph.dot");
    let right = fs::read(&graph).expect("the case has a graph.dot");
    fs::write(&graph, b"digraph doctored {}\n").expect("a doctored golden");
    (dir, graph, right)
}

#[test]
fn update_golden_is_refused_under_ci_whatever_its_value() {
    for value in ["0", "1", "yes"] {
        let dir = sandbox(SANDBOXED);
        let (passed, text) = rerun(dir.path(), &[("CI", "true"), ("UPDATE_GOLDEN", value)]);
        assert!(
            !passed,
            "UPDATE_GOLDEN={value} passed under CI=true:\n{text}"
        );
        assert!(text.contains("is refused under CI=true"), "{text}");
    }
}

#[test]
fn only_update_golden_1_rewrites() {
    let dir = sandbox(SANDBOXED);
    let (passed, text) = rerun(dir.path(), &[("UPDATE_GOLDEN", "0")]);
    assert!(!passed, "UPDATE_GOLDEN=0 passed:\n{text}");
    assert!(text.contains("only UPDATE_GOLDEN=1 rewrites"), "{text}");
}

#[test]
fn a_rewriting_run_writes_the_outputs_and_fails() {
    let (dir, graph, right) = sandbox_with_a_doctored_graph();
    let (passed, text) = rerun(dir.path(), &[("UPDATE_GOLDEN", "1")]);
    assert!(!passed, "a rewriting run passed:\n{text}");
    assert!(
        text.contains("UPDATE_GOLDEN=1 rewrote 1 expected folder(s)"),
        "{text}"
    );
    assert_eq!(
        fs::read(&graph).unwrap(),
        right,
        "the golden was not rewritten"
    );
}

/// The sandbox itself is sound: the untouched copy of the case passes, so the failures below
/// come from the faults they inject.
#[test]
fn an_untouched_sandboxed_case_passes() {
    let dir = sandbox(SANDBOXED);
    let (passed, text) = rerun(dir.path(), &[]);
    assert!(passed, "the untouched sandboxed case failed:\n{text}");
}

#[test]
fn a_doctored_golden_fails() {
    let (dir, _, _) = sandbox_with_a_doctored_graph();
    let (passed, text) = rerun(dir.path(), &[]);
    assert!(!passed, "a doctored golden passed:\n{text}");
    assert!(text.contains("graph.dot differs"), "{text}");
}

#[test]
fn a_listed_command_without_expected_output_fails() {
    let dir = sandbox(SANDBOXED);
    fs::remove_dir_all(
        dir.path()
            .join("golden")
            .join(SANDBOXED)
            .join("expected/dot"),
    )
    .unwrap();
    let (passed, text) = rerun(dir.path(), &[]);
    assert!(
        !passed,
        "a case without its expected output passed:\n{text}"
    );
    assert!(
        text.contains("lists `dot` but has no expected output"),
        "{text}"
    );
    // An unknown command under expected/ is not silently ignored either.
    let dir = sandbox(SANDBOXED);
    fs::rename(
        dir.path()
            .join("golden")
            .join(SANDBOXED)
            .join("expected/dot"),
        dir.path()
            .join("golden")
            .join(SANDBOXED)
            .join("expected/graphviz"),
    )
    .unwrap();
    let (passed, text) = rerun(dir.path(), &[]);
    assert!(!passed, "an unknown command passed:\n{text}");
    assert!(text.contains("`graphviz` is not a command"), "{text}");
}
