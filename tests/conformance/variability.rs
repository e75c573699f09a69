//! Variability4TOSCA conformance, through `toscana resolve`, as the corpus README judges a case:
//! with `error` in `test.yaml`, the first error's message must be exactly that text; otherwise
//! the output, parsed, must equal the expected template as data (map order ignored, list order
//! and scalar types significant), after `test.yaml`'s `replace` (on the output) and `merge` (into
//! the expected document).
//!
//! - The release candidate's suite (`../shared/corpus/vintner/rc-1.0`, 43 suite cases and 6
//!   example-CSAR cases): every case must pass.
//! - Vintner's current suite (`../shared/corpus/vintner/head`, 290 of its 405 cases; the rest
//!   are held back): every case runs with its `presets`, `template`, `expected` and `inputs`;
//!   at least [`HEAD_PASS_PERCENT`]% pass, and each case that does not is listed in
//!   `tests/conformance/variability-head.tsv` with the reason (a listed case must still fail,
//!   so the list cannot go stale).
//!
//! Then every resolved output goes through `toscana check` as plain TOSCA 1.3 (see
//! [`resolved_outputs_pass_check`] for what the corpus's placeholder types allow), and the
//! current suite's outputs through a backend too.

use std::path::{Path, PathBuf};

use super::common::{corpus_root, toscana, verdicts};
use serde_json::Value as Json;
use toscana::yaml::{Core, Kind, Node};

/// The RC suite has this many cases; fewer means the corpus copy lost some.
const RC_CASES: usize = 49;

/// One case: what to run and what to expect.
struct Case {
    name: String,
    template: PathBuf,
    /// `--preset`, `--prune`, `--skip-check` and the like.
    flags: Vec<String>,
    inputs: Option<PathBuf>,
    /// The expected template, unless an error is expected.
    expected: Option<PathBuf>,
    error: Option<String>,
    /// `[find, replace]` pairs applied to the output.
    replace: Vec<(String, String)>,
    /// An object deep-merged into the expected document.
    merge: Option<Json>,
}

impl Case {
    /// A case of the RC suite: `test.yaml`'s `preset`, `resolver` and `error`, and the files
    /// beside it.
    fn rc(name: String, dir: PathBuf, template: PathBuf) -> Case {
        let test = dir.join("test.yaml");
        let test = test.is_file().then(|| load(&test));
        let map = test.as_ref().and_then(Node::as_map);
        Case {
            name,
            flags: flags(test.as_ref()),
            inputs: Some(dir.join("inputs.yaml")).filter(|p| p.is_file()),
            expected: ["est.yaml", "expected.yaml"]
                .iter()
                .map(|n| dir.join(n))
                .find(|p| p.is_file()),
            error: map
                .and_then(|m| m.get("error"))
                .and_then(Node::scalar_text)
                .map(str::to_string),
            replace: Vec::new(),
            merge: None,
            template,
        }
    }
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
                    let name = test.strip_prefix(&root).unwrap().display().to_string();
                    cases.push(Case::rc(name, test, template.clone()));
                }
            }
            continue;
        }
        for case in sorted_dirs(&group) {
            let template = template_in(&case).expect("a suite case has its template");
            let name = case.strip_prefix(&root).unwrap().display().to_string();
            cases.push(Case::rc(name, case, template));
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
            Core::Str => Json::String(s.text.to_string()),
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
    let mut cmd = toscana();
    cmd.arg("resolve")
        .arg(&case.template)
        .args(&case.flags)
        .args(["--message-format", "json"]);
    if let Some(inputs) = &case.inputs {
        cmd.arg("--inputs").arg(inputs);
    }
    let out = cmd.output().unwrap();
    let mut stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let errors: Vec<Json> = stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter(|d| d["severity"] == "error")
        .collect();
    if let Some(expected) = &case.error {
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
    for (find, replace) in &case.replace {
        stdout = stdout.replace(find, replace);
    }
    let expected = case.expected.as_ref().ok_or("no expected.yaml")?;
    let got = data(&load_text("output", &stdout));
    let mut want = data(&load(expected));
    if let Some(merge) = &case.merge {
        deep_merge(&mut want, merge);
    }
    if got != want {
        return Err(format!(
            "output differs\n--- got\n{}\n--- expected\n{}",
            serde_json::to_string_pretty(&got).unwrap(),
            serde_json::to_string_pretty(&want).unwrap()
        ));
    }
    Ok(Some(stdout))
}

/// `test.yaml`'s `merge`: maps merge key by key, anything else replaces.
fn deep_merge(into: &mut Json, from: &Json) {
    match (into, from) {
        (Json::Object(a), Json::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(slot) => deep_merge(slot, v),
                    None => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
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

/// At least this share of the current suite's runnable cases must pass.
const HEAD_PASS_PERCENT: usize = 98;

/// The reasoned exceptions of the current suite: `case<TAB>kind<TAB>reason`, kind `disagrees`
/// (toscana gives another result on purpose) or `unrunnable` (the case's files are missing).
const HEAD_EXCEPTIONS: &str = "tests/conformance/variability-head.tsv";

fn head_root() -> PathBuf {
    corpus_root().join("vintner/head")
}

/// A string or a list of strings of `test.yaml`.
fn strings(node: Option<&Node>) -> Vec<String> {
    match node {
        Some(n) => match n.as_seq() {
            Some(list) => list
                .iter()
                .filter_map(Node::scalar_text)
                .map(str::to_string)
                .collect(),
            None => n.scalar_text().map(str::to_string).into_iter().collect(),
        },
        None => Vec::new(),
    }
}

/// The current suite's cases, as its runner finds them: every case folder of every group,
/// except folders starting with `.` and those marked `---disabled` (and only those marked
/// `---only`, when there are any). A case's `test.yaml` may name its `template`, `expected`
/// and `inputs` (relative to the case) and its `presets`; `resolver` is the RC's and is gone.
fn head_cases() -> Vec<Case> {
    let root = head_root();
    let mut cases = Vec::new();
    for group in sorted_dirs(&root) {
        for dir in sorted_dirs(&group) {
            let folder = dir.file_name().unwrap().to_string_lossy().into_owned();
            if folder.starts_with('.') || folder.contains("---disabled") {
                continue;
            }
            let name = dir.strip_prefix(&root).unwrap().display().to_string();
            let test = dir.join("test.yaml");
            let test = test.is_file().then(|| load(&test));
            let map = test.as_ref().and_then(Node::as_map);
            let path = |key: &str| {
                map.and_then(|m| m.get(key))
                    .and_then(Node::scalar_text)
                    .map(|p| dir.join(p))
            };
            let flags = strings(map.and_then(|m| m.get("presets").or_else(|| m.get("preset"))))
                .into_iter()
                .flat_map(|p| ["--preset".to_string(), p])
                .collect();
            let replace = map
                .and_then(|m| m.get("replace"))
                .and_then(Node::as_seq)
                .unwrap_or_default()
                .iter()
                .filter_map(|pair| match pair.as_seq() {
                    Some([a, b]) => {
                        Some((a.scalar_text()?.to_string(), b.scalar_text()?.to_string()))
                    }
                    _ => None,
                })
                .collect();
            cases.push(Case {
                template: path("template")
                    .or_else(|| template_in(&dir))
                    .unwrap_or_else(|| dir.join("template.yaml")),
                inputs: path("inputs")
                    .or_else(|| Some(dir.join("inputs.yaml")).filter(|p| p.is_file())),
                expected: path("expected").or_else(|| {
                    ["est.yaml", "expected.yaml"]
                        .iter()
                        .map(|n| dir.join(n))
                        .find(|p| p.is_file())
                }),
                error: map
                    .and_then(|m| m.get("error"))
                    .and_then(Node::scalar_text)
                    .map(str::to_string),
                merge: map.and_then(|m| m.get("merge")).map(data),
                flags,
                replace,
                name: name.clone(),
            });
            if folder.contains("---only") {
                cases.retain(|c| c.name == name || c.name.contains("---only"));
            }
        }
    }
    cases
}

/// Whether every file a case names exists (the held-back cases' files are not in the corpus).
fn runnable(case: &Case) -> bool {
    case.template.is_file()
        && case.inputs.as_ref().is_none_or(|p| p.is_file())
        && (case.error.is_some() || case.expected.as_ref().is_some_and(|p| p.is_file()))
}

/// The listed exceptions: case name to kind. A `disagrees` row must quote the specification
/// (a "..." of 20 characters or more found word for word in ../shared/specs/), as the rows of
/// DISAGREEMENTS.md must.
fn head_exceptions() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(HEAD_EXCEPTIONS).expect("the exceptions list exists");
    let specs = verdicts::normalized_specs(&super::spec_texts());
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(
                f.len() == 3
                    && matches!(f[1], "disagrees" | "unrunnable")
                    && !f[2].trim().is_empty(),
                "bad row `{l}` in {HEAD_EXCEPTIONS}: case, kind (disagrees or unrunnable), reason"
            );
            assert!(
                f[1] != "disagrees" || verdicts::quotes_the_spec(f[2], &specs),
                "{HEAD_EXCEPTIONS}: `{}` quotes no passage of the specification (a \"...\" of 20 characters or more found word for word in ../shared/specs/)",
                f[0]
            );
            (f[0].to_string(), f[1].to_string())
        })
        .collect()
}

#[test]
fn current_suite_passes_but_for_listed_disagreements() {
    if !corpus_present() {
        return;
    }
    let cases = head_cases();
    assert!(
        cases.len() >= 280,
        "the current suite lost cases: {}",
        cases.len()
    );
    let exceptions = head_exceptions();
    let listed = |name: &str, kind: &str| exceptions.iter().any(|(c, k)| c == name && k == kind);
    let mut problems = Vec::new();
    let (mut passed, mut runnable_count) = (0, 0);
    for case in &cases {
        if !runnable(case) {
            if !listed(&case.name, "unrunnable") {
                problems.push(format!(
                    "{}: names a file that is missing, and is not listed",
                    case.name
                ));
            }
            continue;
        }
        if listed(&case.name, "unrunnable") {
            problems.push(format!(
                "{}: listed as unrunnable but runs: remove it",
                case.name
            ));
        }
        runnable_count += 1;
        match (run(case), listed(&case.name, "disagrees")) {
            (Ok(_), false) => passed += 1,
            (Ok(_), true) => problems.push(format!(
                "{}: passes now: remove it from {HEAD_EXCEPTIONS}",
                case.name
            )),
            (Err(_), true) => {}
            (Err(why), false) => problems.push(format!("{}: {why}", case.name)),
        }
    }
    for (name, _) in &exceptions {
        assert!(
            cases.iter().any(|c| &c.name == name),
            "{name} in {HEAD_EXCEPTIONS} is no case of the suite"
        );
    }
    println!("variability head: {passed} of {runnable_count} runnable cases pass");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    assert!(
        passed * 100 >= runnable_count * HEAD_PASS_PERCENT,
        "{passed} of {runnable_count} is below {HEAD_PASS_PERCENT}%"
    );
}

/// The TOSCA type of a property value, for a placeholder property definition.
fn value_type(v: &Json) -> &'static str {
    match v {
        Json::Bool(_) => "boolean",
        Json::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Json::Number(_) => "float",
        Json::Array(_) => "list",
        Json::Object(m)
            if m.len() == 1
                && m.keys()
                    .next()
                    .is_some_and(|k| k.starts_with("get_") || k == "concat") =>
        {
            "string"
        }
        Json::Object(_) => "map",
        _ => "string",
    }
}

/// A placeholder type: what the templates of the output assign to it.
#[derive(Default)]
struct Placeholder {
    properties: Vec<(String, &'static str)>,
    requirements: Vec<String>,
    interfaces: Vec<(String, Vec<String>)>,
}

impl Placeholder {
    fn record(&mut self, template: &Json) {
        for (name, value) in template["properties"].as_object().into_iter().flatten() {
            if !self.properties.iter().any(|(n, _)| n == name) {
                self.properties.push((name.clone(), value_type(value)));
            }
        }
        for req in template["requirements"].as_array().into_iter().flatten() {
            for name in req.as_object().into_iter().flat_map(|m| m.keys()) {
                if !self.requirements.contains(name) {
                    self.requirements.push(name.clone());
                }
            }
        }
        for (name, def) in template["interfaces"].as_object().into_iter().flatten() {
            let ops: Vec<String> = def["operations"]
                .as_object()
                .into_iter()
                .flat_map(|m| m.keys().cloned())
                .collect();
            self.interfaces.push((name.clone(), ops));
        }
    }

    fn definition(&self, root: &str) -> Json {
        let mut def = serde_json::json!({ "derived_from": root });
        if !self.properties.is_empty() {
            def["properties"] = Json::Object(
                self.properties
                    .iter()
                    .map(|(n, t)| {
                        (
                            n.clone(),
                            serde_json::json!({ "type": t, "required": false }),
                        )
                    })
                    .collect(),
            );
        }
        if !self.requirements.is_empty() {
            def["requirements"] = Json::Array(
                self.requirements
                    .iter()
                    .map(|r| {
                        serde_json::json!({ r.as_str(): {
                            "capability": "tosca.capabilities.Node",
                            "relationship": "tosca.relationships.DependsOn",
                            "occurrences": [0, "UNBOUNDED"],
                        }})
                    })
                    .collect(),
            );
        }
        if !self.interfaces.is_empty() {
            def["interfaces"] = Json::Object(
                self.interfaces
                    .iter()
                    .map(|(name, ops)| {
                        let ops: serde_json::Map<String, Json> =
                            ops.iter().map(|o| (o.clone(), serde_json::json!({}))).collect();
                        (name.clone(), serde_json::json!({ "type": "tosca.interfaces.Root", "operations": ops }))
                    })
                    .collect(),
            );
        }
        def
    }
}

/// The output with each type it uses but does not define (the corpus's placeholders, such as
/// `type: node_one`) defined as a child of its section's root type, with the properties,
/// requirements and interfaces its templates assign, and without imports (the corpus does not
/// ship the files they name); as JSON, which is YAML.
fn with_placeholders(output: &str) -> String {
    let mut doc = data(&load_text("output", output));
    let mut found: Vec<(&'static str, &'static str, String, Placeholder)> = Vec::new();
    {
        let mut add = |section: &'static str, root: &'static str, template: &Json| {
            let Some(name) = template["type"].as_str() else {
                return;
            };
            if name.starts_with("tosca.") || doc[section].get(name).is_some() {
                return;
            }
            let i = match found
                .iter()
                .position(|(s, _, n, _)| *s == section && n == name)
            {
                Some(i) => i,
                None => {
                    found.push((section, root, name.to_string(), Placeholder::default()));
                    found.len() - 1
                }
            };
            found[i].3.record(template);
        };
        let topo = &doc["topology_template"];
        // An input's `type` names a data type (A.8.1.1 inputs: property definitions); the
        // corpus writes placeholders there too (`type: a`, head/inputs/default-alternative).
        for input in values(&topo["inputs"]) {
            if input["type"]
                .as_str()
                .is_some_and(|t| !BUILT_IN_TYPES.contains(&t))
            {
                add("data_types", "tosca.datatypes.Root", input);
            }
        }
        for node in values(&topo["node_templates"]) {
            add("node_types", "tosca.nodes.Root", node);
            for art in values(&node["artifacts"]) {
                add("artifact_types", "tosca.artifacts.Root", art);
            }
        }
        for rt in values(&topo["relationship_templates"]) {
            add("relationship_types", "tosca.relationships.Root", rt);
        }
        for g in values(&topo["groups"]) {
            add("group_types", "tosca.groups.Root", g);
        }
        for p in topo["policies"].as_array().into_iter().flatten() {
            for def in values(p) {
                add("policy_types", "tosca.policies.Root", def);
            }
        }
    }
    for (section, root, name, placeholder) in found {
        let types = doc
            .as_object_mut()
            .unwrap()
            .entry(section)
            .or_insert_with(|| Json::Object(Default::default()));
        types[name.as_str()] = placeholder.definition(root);
    }
    doc.as_object_mut().unwrap().remove("imports");
    serde_json::to_string_pretty(&doc).unwrap()
}

/// The Simple Profile's built-in data type names (the primitive types and its own), which an input's
/// `type` names without a definition.
const BUILT_IN_TYPES: &[&str] = &[
    "string",
    "integer",
    "float",
    "boolean",
    "timestamp",
    "null",
    "list",
    "map",
    "range",
    "version",
    "scalar-unit.size",
    "scalar-unit.time",
    "scalar-unit.frequency",
    "scalar-unit.bitrate",
];

/// The values of a JSON object; none for anything else.
fn values(v: &Json) -> impl Iterator<Item = &Json> {
    v.as_object().into_iter().flat_map(|m| m.values())
}

/// Whether a `check` diagnostic is one the corpus's own expected templates have: artifacts
/// written with a `type` and no `file` (TOSCA requires `file`), as in the release candidate's
/// artifacts/conditional.
fn corpus_defect(d: &Json) -> bool {
    d["code"] == "tosca::missing-keyname"
        && d["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("artifact") && m.ends_with("has no `file`"))
}

/// Every output of the current suite, with its placeholder types defined, checks clean as
/// TOSCA 1.3 (no error, no unknown keyname) and translates (`toscana dot` writes a diagram).
#[test]
fn current_suite_outputs_check_and_translate() {
    if !corpus_present() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("toscana-var-head-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in head_cases().iter().filter(|c| runnable(c)) {
        let Ok(Some(output)) = run(case) else {
            continue;
        };
        checked += 1;
        let file = dir.join(format!("{}.yaml", case.name.replace('/', "_")));
        std::fs::write(&file, with_placeholders(&output)).unwrap();
        let out = toscana()
            .args(["check", "--message-format", "json"])
            .arg(&file)
            .output()
            .unwrap();
        let diags: Vec<Json> = String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter_map(|l| serde_json::from_str::<Json>(l).ok())
            .collect();
        let bad: Vec<&Json> = diags
            .iter()
            .filter(|d| d["severity"] == "error" || d["code"] == "tosca::unknown-keyname")
            .filter(|d| !corpus_defect(d))
            .collect();
        if !bad.is_empty() {
            failures.push(format!("{}: check: {bad:?}", case.name));
            continue;
        }
        if !output.contains("node_templates") || diags.iter().any(corpus_defect) {
            // Nothing to draw (`dot` rightly refuses a topology without node templates), or
            // an expected template that is itself invalid TOSCA.
            continue;
        }
        let diagram = dir.join(format!("{}.dot", case.name.replace('/', "_")));
        let out = toscana()
            .arg("dot")
            .arg(&file)
            .arg("-o")
            .arg(&diagram)
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{}: dot: {}",
                case.name,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{checked} resolved outputs of the current suite checked and drawn");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 230, "only {checked} outputs");
}
