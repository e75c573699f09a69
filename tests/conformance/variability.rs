//! Variability4TOSCA conformance: every case of the RC 1.0 suite (`../shared/corpus/vintner/rc-1.0`,
//! 43 suite cases and 6 example-CSAR cases) through `toscana resolve`, as the corpus README
//! judges them: with `error` in `test.yaml`, the first error's message must be exactly that text;
//! otherwise the output, parsed, must equal `expected.yaml` (or `est.yaml`) as data (map order
//! ignored, list order and scalar types significant). All cases must pass.
//!
//! Then every resolved output goes through `toscana check` as plain TOSCA 1.3 (see
//! [`resolved_outputs_pass_check`] for what the corpus's placeholder types allow).

use std::path::{Path, PathBuf};

use super::common::{corpus_root, toscana};
use serde_json::Value as Json;
use toscana::yaml::{Core, Kind, Node};

/// The RC suite has this many cases; fewer means the corpus copy lost some.
const RC_CASES: usize = 49;

struct Case {
    name: String,
    dir: PathBuf,
    template: PathBuf,
}

fn rc_root() -> PathBuf {
    corpus_root().join("vintner/rc-1.0")
}

/// The first of the runner's template names that exists in `dir`.
fn template_in(dir: &Path) -> Option<PathBuf> {
    [
        "vst.yaml",
        "variable-service-template.yaml",
        "service-template.yaml",
        "template.yaml",
    ]
    .iter()
    .map(|n| dir.join(n))
    .find(|p| p.is_file())
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn cases() -> Vec<Case> {
    let root = rc_root();
    let mut cases = Vec::new();
    for group in sorted_dirs(&root) {
        let group_name = group.file_name().unwrap().to_string_lossy().into_owned();
        if group_name == "examples" {
            for csar in sorted_dirs(&group) {
                let template = template_in(&csar).expect("an example CSAR has its template");
                for test in sorted_dirs(&csar.join("tests")) {
                    cases.push(Case {
                        name: test.strip_prefix(&root).unwrap().display().to_string(),
                        dir: test,
                        template: template.clone(),
                    });
                }
            }
            continue;
        }
        for case in sorted_dirs(&group) {
            let template = template_in(&case).expect("a suite case has its template");
            cases.push(Case {
                name: case.strip_prefix(&root).unwrap().display().to_string(),
                dir: case,
                template,
            });
        }
    }
    cases
}

/// A YAML file through toscana's own loader.
fn load(path: &Path) -> Node {
    let text = std::fs::read_to_string(path).unwrap();
    load_text(&path.display().to_string(), &text)
}

fn load_text(name: &str, text: &str) -> Node {
    let mut sources = toscana::source::SourceMap::new();
    let id = sources.add(
        name,
        toscana::source::Origin::Builtin(name.to_string()),
        text.to_string(),
    );
    let mut diags = toscana::diag::Diagnostics::new();
    toscana::yaml::load(
        &sources,
        id,
        &toscana::limits::Limits::default(),
        &mut diags,
    )
    .unwrap_or_else(|| panic!("{name} is YAML: {:?}", diags.finish()))
}

/// YAML data as JSON data: maps compare without order (serde_json keeps insertion order in an
/// IndexMap, whose equality ignores it), lists with order, and `1`, `1.0` and `"1"` all differ.
fn data(node: &Node) -> Json {
    match &node.kind {
        Kind::Scalar(s) => match s.core {
            Core::Null => Json::Null,
            Core::Bool(b) => Json::Bool(b),
            Core::Int(i) => Json::from(i),
            Core::Float(f) => Json::from(f),
            Core::Str => Json::String(s.text.clone()),
        },
        Kind::Seq(items) => Json::Array(items.iter().map(data).collect()),
        Kind::Map(map) => Json::Object(
            map.entries()
                .iter()
                .map(|e| {
                    (
                        e.key.scalar_text().unwrap_or_default().to_string(),
                        data(&e.value),
                    )
                })
                .collect(),
        ),
    }
}

/// `test.yaml`'s `preset` and `resolver` switches as `toscana resolve` flags.
fn flags(test: Option<&Node>) -> Vec<String> {
    let mut args = Vec::new();
    let Some(test) = test.and_then(Node::as_map) else {
        return args;
    };
    if let Some(preset) = test.get("preset").and_then(Node::scalar_text) {
        args.extend(["--preset".to_string(), preset.to_string()]);
    }
    let resolver = test.get("resolver").and_then(Node::as_map);
    for e in resolver.map(|m| m.entries()).unwrap_or_default() {
        if e.value.scalar_text() != Some("true") {
            continue;
        }
        let key = e.key.scalar_text().unwrap();
        let kebab = |s: &str| {
            let mut out = String::new();
            for c in s.chars() {
                if c.is_ascii_uppercase() {
                    out.push('-');
                    out.push(c.to_ascii_lowercase());
                } else {
                    out.push(c);
                }
            }
            out
        };
        let (flag, value) = if let Some(kind) = key.strip_prefix("forcePrune") {
            ("--force-prune", kind.to_ascii_lowercase())
        } else if let Some(kind) = key.strip_prefix("prune") {
            ("--prune", kind.to_ascii_lowercase())
        } else if key == "disableConsistencyChecks" {
            ("--skip-check", "all".to_string())
        } else if let Some(check) = key
            .strip_prefix("disable")
            .and_then(|k| k.strip_suffix("ConsistencyCheck"))
        {
            (
                "--skip-check",
                kebab(check).trim_start_matches('-').to_string(),
            )
        } else {
            panic!("unknown resolver option {key}");
        };
        args.extend([flag.to_string(), value]);
    }
    args
}

/// Runs one case; `Ok(Some(output))` for a passing output case, `Ok(None)` for a passing error
/// case, `Err(why)` for a failure.
fn run(case: &Case) -> Result<Option<String>, String> {
    let test = case.dir.join("test.yaml");
    let test = test.is_file().then(|| load(&test));
    let mut cmd = toscana();
    cmd.arg("resolve")
        .arg(&case.template)
        .args(flags(test.as_ref()))
        .args(["--message-format", "json"]);
    if case.dir.join("inputs.yaml").is_file() {
        cmd.arg("--inputs").arg(case.dir.join("inputs.yaml"));
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let errors: Vec<Json> = stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter(|d| d["severity"] == "error")
        .collect();
    let expected_error = test
        .as_ref()
        .and_then(Node::as_map)
        .and_then(|m| m.get("error"))
        .and_then(Node::scalar_text)
        .map(str::to_string);
    if let Some(expected) = expected_error {
        let first = errors.first().and_then(|d| d["message"].as_str());
        return match first {
            Some(m) if m == expected && !out.status.success() && stdout.is_empty() => Ok(None),
            _ => Err(format!(
                "expected the error `{expected}`, got exit {:?} and {stderr}",
                out.status.code()
            )),
        };
    }
    if !out.status.success() {
        return Err(format!("failed: {stderr}"));
    }
    let expected = ["est.yaml", "expected.yaml"]
        .iter()
        .map(|n| case.dir.join(n))
        .find(|p| p.is_file())
        .ok_or("no expected.yaml")?;
    let got = data(&load_text("output", &stdout));
    let want = data(&load(&expected));
    if got != want {
        return Err(format!(
            "output differs\n--- got\n{}\n--- expected\n{}",
            serde_json::to_string_pretty(&got).unwrap(),
            serde_json::to_string_pretty(&want).unwrap()
        ));
    }
    Ok(Some(stdout))
}

fn corpus_present() -> bool {
    super::common::corpus_present("vintner/rc-1.0", "the Variability4TOSCA RC suite")
}

#[test]
fn every_rc_case_passes() {
    if !corpus_present() {
        return;
    }
    let cases = cases();
    assert_eq!(cases.len(), RC_CASES, "the RC suite has {RC_CASES} cases");
    let mut failures = Vec::new();
    let (mut outputs, mut errors) = (0, 0);
    for case in &cases {
        match run(case) {
            Ok(Some(_)) => outputs += 1,
            Ok(None) => errors += 1,
            Err(why) => failures.push(format!("{}: {why}", case.name)),
        }
    }
    println!(
        "variability rc-1.0: {} of {} pass ({outputs} outputs, {errors} errors)",
        outputs + errors,
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!((outputs, errors), (37, 12));
}

/// Cases whose `expected.yaml` is not valid TOSCA 1.3 itself, with the error `check` rightly
/// reports on it and why.
const INVALID_EXPECTED: &[(&str, &str, &str)] = &[(
    "artifacts/conditional",
    "tosca::missing-keyname",
    "its artifacts have a `type` but no `file`, in expected.yaml too; TOSCA requires `file`",
)];

/// Every resolved output read back by `toscana check` as plain TOSCA 1.3. The corpus uses
/// placeholder types it never defines (`type: node_one`), and the example CSARs' `imports:`
/// (their type libraries) were not copied, so exactly two kinds of error are allowed: an unknown
/// type and an import that is not found. Anything else (a grammar error, a leftover
/// Variability4TOSCA keyname, a wrong shape) fails, and so does any warning about an unknown
/// keyname. The outputs that need no undefined type must check clean.
///
/// [`INVALID_EXPECTED`] lists the cases whose expected output is itself invalid TOSCA 1.3 with the
/// error it has; such an error is allowed in that case only, and an entry that no longer occurs
/// fails the test.
#[test]
fn resolved_outputs_pass_check() {
    if !corpus_present() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("toscana-var-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let (mut clean, mut checked) = (0, 0);
    let mut excused_seen: Vec<String> = Vec::new();
    for case in cases() {
        let Ok(Some(output)) = run(&case) else {
            continue;
        };
        checked += 1;
        let file = dir.join(format!("{}.yaml", case.name.replace('/', "_")));
        std::fs::write(&file, &output).unwrap();
        let out = toscana()
            .args(["check", "--message-format", "json"])
            .arg(&file)
            .output()
            .unwrap();
        let diags: Vec<Json> = String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        let unexpected: Vec<&Json> = diags
            .iter()
            .filter(|d| {
                let code = d["code"].as_str().unwrap_or("");
                let excused = INVALID_EXPECTED
                    .iter()
                    .any(|(c, k, _)| *c == case.name && *k == code);
                if excused {
                    excused_seen.push(case.name.clone());
                    return false;
                }
                (d["severity"] == "error"
                    && code != "tosca::unknown-type"
                    && code != "import::not-found")
                    || code == "tosca::unknown-keyname"
            })
            .collect();
        if !unexpected.is_empty() {
            failures.push(format!("{}: {unexpected:?}", case.name));
        }
        let errors = diags.iter().filter(|d| d["severity"] == "error").count();
        if errors == 0 {
            assert!(
                out.status.success(),
                "{}: check failed without errors",
                case.name
            );
            clean += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{checked} resolved outputs checked, {clean} with no error at all");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (case, code, why) in INVALID_EXPECTED {
        assert!(
            excused_seen.iter().any(|c| c == case),
            "{case} no longer has {code} ({why}): remove it from INVALID_EXPECTED"
        );
    }
    assert_eq!(checked, 37);
    assert!(clean >= 3, "only {clean} outputs check clean");
}
