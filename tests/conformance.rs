//! Conformance: every corpus under `../shared/corpus/` that has an EXPECTED file is run, each
//! verdict (valid: read with no error; invalid: at least one error) is compared with what the
//! corpus expects, a table of the agreement is printed, and the run fails if any count drops below
//! its floor in `tests/conformance-floors.tsv`. Raise floors as things get better; never lower one
//! to make a run pass.
//!
//! Corpora and how their EXPECTED files are read:
//! - `oasis`: `expected` `valid` / `invalid` (the OASIS TOSCA 2.0 tests and the 1.x profile tests);
//!   `no-test-file` rows say nothing and are skipped.
//! - `tosca-parser`: `asserted` `loads` (valid) / `error` (invalid); `unreferenced` rows (mostly
//!   helper files of other tests) are skipped.
//! - `spec-examples-1.0`: the complete service templates of `spec-examples/simple-1.0/MANIFEST.tsv`
//!   (fixed copies where they exist); valid unless the manifest lists `tosca_issues` or the YAML
//!   does not parse.
//! - `oasis-examples-1.3`: every service template under `oasis/examples/1.3/`, expected valid.
//! - `spec-examples-2.0`: the complete TOSCA 2.0 files of `spec-examples/tosca2/MANIFEST.tsv`
//!   (reconstructions where they exist), invalid where the spec says so or the manifest marks a
//!   spec defect; examples whose section gives their `types.yaml` are read beside a copy of it.
//!
//! The TOSCA 2.0 corpora (`oasis`, `spec-examples-2.0`) are read with a profile catalog made of
//! the profiles each corpus defines itself (see [`profile_catalog`]), as `--profile-path`.
//!
//! - `xml-spec` and `xml-real` (TOSCA 1.0 XML): these corpora have no EXPECTED file, so the
//!   verdicts are ours, one row per file and mode (strict, or `--quirk winery`) with the
//!   checklist rule behind it, in `tests/conformance/xml-expected.tsv`. Every row is asserted.
//!
//! Files where toscana deliberately gives the other verdict, because the specification says so,
//! are listed with the reason in `tests/conformance/DISAGREEMENTS.md`; they must keep
//! disagreeing (a stale row fails the run) and count towards the floors.
//!
//! Locally a missing `../shared/corpus` skips with a notice; under `CI=true` it is a failure.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod common;
/// The Variability4TOSCA RC suite, case by case (its own verdicts: outputs and error texts).
#[path = "conformance/variability.rs"]
mod variability;

use common::{corpus_files, corpus_root, options_under, read_accepted_under, read_accepted_with};

const XML_EXPECTED: &str = "tests/conformance/xml-expected.tsv";

/// One XML expectation: the file, whether `--quirk winery` is on, and the verdict.
struct XmlCase {
    relative: String,
    winery: bool,
    valid: bool,
}

fn xml_cases() -> Vec<XmlCase> {
    let text = std::fs::read_to_string(XML_EXPECTED).expect("the XML expectations exist");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 4, "bad row `{l}` in {XML_EXPECTED}");
            XmlCase {
                relative: f[0].to_string(),
                winery: match f[1] {
                    "winery" => true,
                    "strict" => false,
                    other => panic!("unknown mode `{other}`"),
                },
                valid: match f[2] {
                    "valid" => true,
                    "invalid" => false,
                    other => panic!("unknown verdict `{other}`"),
                },
            }
        })
        .collect()
}

/// A real Winery file whose XSD import names the XSD by its original file name, which the
/// corpus renamed to `rNNN-imports-NAME`: copied with that sibling into a temporary folder
/// under the original names.
fn staged(path: &Path, dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let Some(location) = text
        .split("location=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .filter(|l| l.ends_with(".xsd"))
    else {
        return path.to_path_buf();
    };
    let folder = path.parent().expect("a folder");
    let sibling = std::fs::read_dir(folder)
        .expect("the corpus folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(&format!("-imports-{location}")))
        });
    let Some(sibling) = sibling else {
        return path.to_path_buf();
    };
    let target = dir.join(path.file_name().expect("a name"));
    std::fs::copy(path, &target).expect("copy the document");
    std::fs::copy(sibling, dir.join(location)).expect("copy the XSD");
    target
}

const FLOORS: &str = "tests/conformance-floors.tsv";
const DISAGREEMENTS: &str = "tests/conformance/DISAGREEMENTS.md";

/// The files of the disagreements table (its first column, `corpus/path` in backticks).
fn documented_disagreements() -> std::collections::BTreeSet<String> {
    let text = std::fs::read_to_string(DISAGREEMENTS).expect("the disagreements table exists");
    text.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(file, _)| file.to_string()))
        .collect()
}

/// One expectation: a file and whether it must be accepted.
struct Case {
    path: PathBuf,
    valid: bool,
    /// Where the file is read from when it had to be staged beside the files it imports.
    staged: Option<PathBuf>,
}

/// Reads an EXPECTED.tsv: the file column, the verdict column, and how verdicts map to valid
/// (`Some(true)`), invalid (`Some(false)`) or not a verdict (`None`).
fn cases(corpus: &str, verdict_column: &str, verdict: fn(&str) -> Option<bool>) -> Vec<Case> {
    let dir = corpus_root().join(corpus);
    let text =
        std::fs::read_to_string(dir.join("EXPECTED.tsv")).expect("the corpus has an EXPECTED.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let column = header
        .iter()
        .position(|h| *h == verdict_column)
        .expect("the verdict column");
    lines
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let valid = verdict(fields.get(column)?)?;
            Some(Case {
                path: dir.join(fields[0]),
                valid,
                staged: None,
            })
        })
        .collect()
}

/// The rows of a corpus `MANIFEST.tsv`, each a map from column name to trimmed value.
fn manifest_rows(dir: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("the manifest exists");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    lines
        .map(|line| {
            header
                .iter()
                .zip(line.split('\t').chain(std::iter::repeat("")))
                .map(|(h, v)| (h.to_string(), v.trim().to_string()))
                .collect()
        })
        .collect()
}

/// One column of a manifest row ("" when the row has no such column).
fn column<'r>(row: &'r BTreeMap<String, String>, name: &str) -> &'r str {
    row.get(name).map_or("", String::as_str)
}

/// The complete service templates among the Simple Profile 1.0 spec's code boxes
/// (`spec-examples/simple-1.0/MANIFEST.tsv`), each read from its fixed copy where there is one.
/// A box is expected valid when it parses as YAML and the manifest lists no `tosca_issues`, the
/// problems a strict processor must report.
fn spec_example_cases() -> Vec<Case> {
    let dir = corpus_root().join("spec-examples/simple-1.0");
    manifest_rows(&dir)
        .iter()
        .filter(|row| column(row, "kind") == "complete-service-template")
        .map(|row| {
            let (path, yaml_ok) = match column(row, "fixed_file") {
                "" => (column(row, "file"), column(row, "parses_as_yaml") == "yes"),
                fixed => (fixed, column(row, "fixed_parses_as_yaml") == "yes"),
            };
            Case {
                path: dir.join(path),
                valid: yaml_ok && column(row, "tosca_issues").is_empty(),
                staged: None,
            }
        })
        .collect()
}

/// The examples of one section of the TOSCA 2.0 spec import `types.yaml`, which the spec gives
/// as another example of that section: the section and the example that is its `types.yaml`.
const TOSCA2_TYPES_FILES: &[(&str, &str)] = &[
    ("8.5.4 Requirement Count", "ex-107.yaml"),
    (
        "15.5.1 Mapping Multiple Requirements with the Same Name",
        "reconstructed/ex-284.yaml",
    ),
    (
        "15.5.2 Mapping a Requirement Multiple Times",
        "reconstructed/ex-290.yaml",
    ),
    (
        "15.5.4 Requirement Mapping Rules",
        "reconstructed/ex-295.yaml",
    ),
];

/// The complete TOSCA 2.0 files among the spec's examples (`spec-examples/tosca2/MANIFEST.tsv`),
/// each read from its reconstruction where there is one. A file is expected invalid when the
/// spec says so (`stated_validity` `invalid-stated` or `invalid-implied`) or the manifest marks a
/// spec defect; else valid. A file of a section whose `types.yaml` the spec gives is staged in
/// `stage` beside a copy of it (a fragment gets the version line it lacks).
fn tosca2_spec_example_cases(stage: &Path) -> Vec<Case> {
    let dir = corpus_root().join("spec-examples/tosca2");
    let mut out = Vec::new();
    for (i, row) in manifest_rows(&dir).iter().enumerate() {
        if column(row, "kind") != "complete-service-template" {
            continue;
        }
        let relative = match column(row, "reconstructed") {
            "" => column(row, "file"),
            r => r,
        };
        let path = dir.join(relative);
        let valid = !column(row, "stated_validity").starts_with("invalid")
            && !column(row, "notes").contains("DEFECT(spec)");
        let staged = TOSCA2_TYPES_FILES
            .iter()
            .find(|(s, types)| *s == column(row, "section") && !relative.ends_with(types))
            .map(|(_, types)| {
                let folder = stage.join(format!("case-{i}"));
                std::fs::create_dir_all(&folder).expect("a staging folder");
                let types_text =
                    std::fs::read_to_string(dir.join(types)).expect("the types example exists");
                let types_text = if types_text.contains("tosca_definitions_version") {
                    types_text
                } else {
                    format!("tosca_definitions_version: tosca_2_0\n{types_text}")
                };
                std::fs::write(folder.join("types.yaml"), types_text).expect("stage types.yaml");
                let target = folder.join("main.yaml");
                std::fs::copy(&path, &target).expect("stage the example");
                target
            });
        out.push(Case {
            path,
            valid,
            staged,
        });
    }
    out
}

/// The service templates of the OASIS community's 1.3 examples (`oasis/examples/1.3/`): every
/// YAML file with a `topology_template`, expected valid, as published examples. The corpus has no
/// verdicts of its own for them; the files that toscana rejects say why in the disagreements.
fn oasis_example_cases() -> Vec<Case> {
    corpus_files(&corpus_root().join("oasis/examples/1.3"))
        .into_iter()
        .filter(|path| {
            std::fs::read_to_string(path)
                .is_ok_and(|text| text.lines().any(|l| l.starts_with("topology_template:")))
        })
        .map(|path| Case {
            path,
            valid: true,
            staged: None,
        })
        .collect()
}

/// Where a corpus's tests find what its files refer to: TOSCA 2.0 profiles (`--profile-path`),
/// URLs served from local folders (`--map-url`), and the folder a file may read inside of
/// (`toscana check ROOT --entry FILE`; a file given alone reads only inside its own folder).
#[derive(Default)]
struct Environment {
    profile_paths: Vec<PathBuf>,
    map_url: Vec<(String, PathBuf)>,
    root: Option<PathBuf>,
}

/// toscana's verdict: the input reads into a topology with no error in `environment`.
fn accepts(path: &Path, environment: &Environment) -> bool {
    read_accepted_under(
        environment.root.as_deref(),
        path,
        &environment.profile_paths,
        &environment.map_url,
    )
    .is_some()
}

/// The TOSCA 2.0 profiles a corpus defines itself (complete files with `profile: NAME` and no
/// service template or file imports), staged under `stage` by name, the layout `--profile-path`
/// reads: the profile catalog of a processor that knows the suite's own profiles (L1496,
/// T2-PROF-05), so that `s21.yaml` finds `org.base:v1` of `s20.yaml`. The first file (in path
/// order) that declares a name is its profile.
fn profile_catalog(dir: &Path, stage: &Path) -> PathBuf {
    let catalog = stage.join("profiles");
    for path in corpus_files(dir) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let top = |key: &str| {
            text.lines().find_map(|l| l.strip_prefix(key)).map(|v| {
                v.split('#')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_matches(['"', '\''])
            })
        };
        let (Some("tosca_2_0"), Some(name)) = (top("tosca_definitions_version:"), top("profile:"))
        else {
            continue;
        };
        let imports_files = text
            .lines()
            .any(|l| l.trim_start().starts_with("- url:") || l.trim_start().starts_with("url:"));
        if name.is_empty() || top("service_template:").is_some() || imports_files {
            continue;
        }
        let (dotted, version) = name.rsplit_once(':').unwrap_or((name, ""));
        let folder = catalog.join(dotted.replace('.', "/")).join(version);
        if folder.join("profile.yaml").exists() {
            continue;
        }
        std::fs::create_dir_all(&folder).expect("a catalog folder");
        std::fs::copy(&path, folder.join("profile.yaml")).expect("stage a profile");
    }
    catalog
}

#[derive(Default)]
struct Tally {
    valid_accepted: usize,
    valid: usize,
    invalid_rejected: usize,
    invalid: usize,
    /// Valid (invalid) files toscana rejects (accepts) for a documented reason.
    valid_documented: usize,
    invalid_documented: usize,
}

impl Tally {
    /// Counts one file: whether it is valid and whether toscana accepted it.
    fn count(&mut self, valid: bool, accepted: bool) {
        if valid {
            self.valid += 1;
            self.valid_accepted += usize::from(accepted);
        } else {
            self.invalid += 1;
            self.invalid_rejected += usize::from(!accepted);
        }
    }
}

#[test]
fn verdicts_agree_with_the_corpora_at_least_as_often_as_the_floors_say() {
    if !common::corpus_present("", "conformance") {
        return;
    }
    let stage = tempfile::tempdir().expect("a staging folder");
    let oasis_profiles = profile_catalog(
        &corpus_root().join("oasis/tests/tosca_2_0"),
        &stage.path().join("oasis"),
    );
    let spec_profiles = profile_catalog(
        &corpus_root().join("spec-examples/tosca2"),
        &stage.path().join("spec"),
    );
    let profiles = |path: PathBuf| Environment {
        profile_paths: vec![path],
        ..Environment::default()
    };
    let corpora: [(&str, Vec<Case>, Environment); 5] = [
        (
            "oasis",
            cases("oasis", "expected", |v| match v {
                "valid" => Some(true),
                "invalid" => Some(false),
                _ => None,
            }),
            profiles(oasis_profiles),
        ),
        (
            "tosca-parser",
            cases("tosca-parser", "asserted", |v| match v {
                "loads" => Some(true),
                "error" => Some(false),
                _ => None,
            }),
            // tosca-parser's tests that import `https://example.com/custom_types/...` serve
            // the files of their own data folder there (the tests that use those URLs list
            // `custom_types/wordpress.yaml` and `compute_with_prop.yaml` too); toscana reads
            // them through `--map-url`, never the network. The data folder is the tests'
            // repository: their files import `../custom_types/` from their own folders.
            Environment {
                map_url: vec![(
                    "https://example.com/".to_string(),
                    corpus_root().join("tosca-parser"),
                )],
                root: Some(corpus_root().join("tosca-parser")),
                ..Environment::default()
            },
        ),
        (
            "spec-examples-1.0",
            spec_example_cases(),
            Environment::default(),
        ),
        (
            "oasis-examples-1.3",
            oasis_example_cases(),
            Environment::default(),
        ),
        (
            "spec-examples-2.0",
            tosca2_spec_example_cases(stage.path()),
            profiles(spec_profiles),
        ),
    ];
    let mut xml_tallies: Vec<(&str, Tally)> = vec![
        ("xml-real", Tally::default()),
        ("xml-spec", Tally::default()),
    ];
    let mut xml_wrong = Vec::new();
    for case in xml_cases() {
        let path = corpus_root().join(&case.relative);
        assert!(
            path.is_file(),
            "{} is listed in {XML_EXPECTED} but missing",
            case.relative
        );
        let path = staged(&path, stage.path());
        let quirks: &[toscana::front::quirk::Quirk] = if case.winery {
            &[toscana::front::quirk::Quirk::Winery]
        } else {
            &[]
        };
        let accepted = read_accepted_with(&path, quirks).is_some();
        let name = if case.relative.starts_with("xml-real/") {
            "xml-real"
        } else {
            "xml-spec"
        };
        let tally = &mut xml_tallies
            .iter_mut()
            .find(|(n, _)| *n == name)
            .expect("a tally")
            .1;
        tally.count(case.valid, accepted);
        if accepted != case.valid {
            xml_wrong.push(format!(
                "{} ({}): expected {}, toscana {}",
                case.relative,
                if case.winery {
                    "--quirk winery"
                } else {
                    "strict"
                },
                if case.valid { "valid" } else { "invalid" },
                if accepted { "accepts it" } else { "rejects it" }
            ));
        }
    }
    let documented = documented_disagreements();
    let mut stale = Vec::new();
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut undocumented = Vec::new();
    for (name, cases, environment) in &corpora {
        let tally = tallies.entry(name).or_default();
        for case in cases {
            let accepted = accepts(case.staged.as_ref().unwrap_or(&case.path), environment);
            let relative = case
                .path
                .strip_prefix(corpus_root())
                .unwrap_or(&case.path)
                .to_string_lossy()
                .replace('\\', "/");
            let agrees = accepted == case.valid;
            if !agrees && !documented.contains(&relative) {
                undocumented.push(format!(
                    "{relative}: expected {}, toscana {}",
                    if case.valid { "valid" } else { "invalid" },
                    if accepted { "accepts it" } else { "rejects it" }
                ));
            }
            if documented.contains(&relative) {
                if agrees {
                    stale.push(relative);
                } else if case.valid {
                    tally.valid_documented += 1;
                } else {
                    tally.invalid_documented += 1;
                }
            }
            tally.count(case.valid, accepted);
        }
    }
    tallies.extend(xml_tallies);
    let mut table = String::from(
        "corpus               files   agreed   disagreed (documented)   valid accepted   invalid rejected   agreement (with documented)\n",
    );
    for (name, t) in &tallies {
        let files = t.valid + t.invalid;
        let agreed = t.valid_accepted + t.invalid_rejected;
        let documented = t.valid_documented + t.invalid_documented;
        let _ = writeln!(
            table,
            "{name:<20} {files:>5}   {agreed:>6}   {:>9} ({documented:>3})         {:>5} / {:<6}   {:>5} / {:<6}   {:>5.1}% ({:>5.1}%)",
            files - agreed,
            t.valid_accepted,
            t.valid,
            t.invalid_rejected,
            t.invalid,
            100.0 * agreed as f64 / files.max(1) as f64,
            100.0 * (agreed + documented) as f64 / files.max(1) as f64,
        );
    }
    eprintln!("{table}");
    if !undocumented.is_empty() {
        eprintln!(
            "disagreements not (yet) explained in {DISAGREEMENTS}:\n  {}",
            undocumented.join("\n  ")
        );
    }
    assert!(
        stale.is_empty(),
        "rows of {DISAGREEMENTS} that toscana now agrees with; remove them:\n{}",
        stale.join("\n")
    );
    assert!(
        xml_wrong.is_empty(),
        "TOSCA 1.0 XML verdicts differ from {XML_EXPECTED}:\n{}",
        xml_wrong.join("\n")
    );
    let floors =
        std::fs::read_to_string(FLOORS).expect("tests/conformance-floors.tsv is committed");
    let mut below = Vec::new();
    for line in floors
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [corpus, measure, floor] = fields[..] else {
            panic!("bad floor line `{line}`")
        };
        let floor: usize = floor.parse().expect("a floor is a count");
        let tally = tallies
            .get(corpus)
            .unwrap_or_else(|| panic!("no corpus `{corpus}`"));
        let value = match measure {
            "valid_accepted" => tally.valid_accepted + tally.valid_documented,
            "invalid_rejected" => tally.invalid_rejected + tally.invalid_documented,
            other => panic!("unknown measure `{other}`"),
        };
        if value < floor {
            below.push(format!("{corpus} {measure}: {value} < floor {floor}"));
        }
    }
    assert!(
        below.is_empty(),
        "conformance dropped below its floors:\n{}\n{table}",
        below.join("\n")
    );
}

/// Issue #3's promise for the Simple Profile corpora: the IR of every accepted file is resolved.
/// Every requirement is a relationship, or the reader said why not: a
/// `tosca::unfulfilled-requirement` warning that names it, the substitution boundary
/// exposing it, or its node being one an orchestrator selects. And every function whose value is
/// known at translation time is evaluated: no `get_property` (but one that reads through a
/// requirement left to the orchestrator) or `get_input` of a bound input is left, nor a
/// `concat`, `join` or `token` of known values.
#[test]
fn the_ir_of_every_accepted_simple_profile_file_is_resolved() {
    if !common::corpus_present("", "the resolved-IR check") {
        return;
    }
    // Every file of the corpora, whatever its expected verdict: the promise is about what
    // toscana accepts.
    let files: Vec<PathBuf> = corpus_files(&corpus_root().join("tosca-parser"))
        .into_iter()
        .chain(spec_example_cases().into_iter().map(|c| c.path))
        .chain(oasis_example_cases().into_iter().map(|c| c.path))
        .collect();
    let mut read = 0;
    let mut unresolved = Vec::new();
    let tosca_parser = corpus_root().join("tosca-parser");
    for path in &files {
        // As `toscana check` reads it: open requirements reported; a tosca-parser test inside
        // its data folder, whose files import each other across folders.
        let mut diags = toscana::diag::Diagnostics::with_cap(0);
        let result = toscana::pipeline::read(
            &toscana::pipeline::ReadOptions {
                report_open_requirements: true,
                ..options_under(Some(&tosca_parser), path)
            },
            &mut diags,
        );
        let diags = diags.finish();
        let Some(topology) = result.topology else {
            continue;
        };
        if diags
            .iter()
            .any(|d| d.severity == toscana::diag::Severity::Error)
        {
            continue;
        }
        read += 1;
        let shown = path.strip_prefix(corpus_root()).unwrap_or(path).display();
        for problem in unexplained_open_requirements(&topology, &diags)
            .into_iter()
            .chain(unevaluated_calls(&topology, &diags))
        {
            unresolved.push(format!("{shown}: {problem}"));
        }
    }
    eprintln!("{read} accepted Simple Profile corpus files checked for a resolved IR");
    // 107 since unknown keynames are errors: four files with one (three of them invalid by
    // their corpus, one a documented disagreement) are no longer accepted.
    assert!(read >= 107, "only {read} corpus files were accepted");
    assert!(
        unresolved.is_empty(),
        "unresolved IR:\n{}",
        unresolved.join("\n")
    );
}

fn unexplained_open_requirements(
    topology: &toscana::ir::Topology,
    diags: &[toscana::diag::Diagnostic],
) -> Vec<String> {
    let warnings: Vec<&str> = diags
        .iter()
        .filter(|d| d.code == toscana::diag::codes::TOSCA_UNFULFILLED)
        .map(|d| d.message.as_str())
        .collect();
    let mut out = Vec::new();
    for (id, node) in topology.nodes.iter().enumerate() {
        let selected = node
            .directives
            .iter()
            .any(|d| d == "select" || d == "selectable");
        for r in node
            .requirements
            .iter()
            .filter(|r| r.relationship.is_none())
        {
            let exposed = topology.substitution.as_ref().is_some_and(|s| {
                s.requirements
                    .iter()
                    .any(|m| m.node.index() == id && m.target == r.name)
            });
            let (requirement, of) = (format!("`{}`", r.name), format!("`{}`", node.name));
            let said = warnings
                .iter()
                .any(|m| m.contains(&requirement) && m.contains(&of));
            if !(exposed || selected || said) {
                out.push(format!(
                    "requirement `{}` of `{}` is open and nothing says why",
                    r.name, node.name
                ));
            }
        }
    }
    out
}

/// Calls left in the IR whose value was known when it was read.
fn unevaluated_calls(
    topology: &toscana::ir::Topology,
    diags: &[toscana::diag::Diagnostic],
) -> Vec<String> {
    let json = serde_json::to_value(topology).expect("the IR serializes");
    let bound: std::collections::HashSet<&str> = topology
        .inputs
        .iter()
        .filter(|i| i.value.is_some())
        .map(|i| i.name.as_str())
        .collect();
    // A property reached through a requirement an orchestrator fulfils (dangling, or not
    // assigned at all) is known only then. `check` warns about an unassigned requirement only
    // where the topology has a template that would fit it, so a call that reads through a
    // requirement of the node it names (not a capability of it) is not judged here: whether its
    // value is known depends on fulfilment, and on B.4.2's reading of such a path (the
    // relationship's property, as Puccini reads it, or the target's, as toscana does).
    // `capabilities[i]`: the capability names of node `i`.
    let capabilities: Vec<std::collections::HashSet<&str>> = topology
        .nodes
        .iter()
        .map(|n| n.capabilities.keys().map(String::as_str).collect())
        .collect();
    let node_index = |name: &str| topology.nodes.iter().position(|n| n.name == name);
    let open: std::collections::HashSet<String> = topology
        .nodes
        .iter()
        .flat_map(|n| &n.requirements)
        .filter(|r| r.relationship.is_none())
        .map(|r| r.name.clone())
        .chain(
            diags
                .iter()
                .filter(|d| d.code == toscana::diag::codes::TOSCA_UNFULFILLED)
                .filter_map(|d| d.message.split("requirement `").nth(1)?.split('`').next())
                .map(str::to_string),
        )
        .collect();
    let mut out = Vec::new();
    // Each node's own calls know which node SELF is; the rest of the IR has none.
    let mut parts: Vec<(Option<usize>, &serde_json::Value)> = json["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, n)| (Some(i), n))
        .collect();
    let mut rest = json.clone();
    rest["nodes"] = serde_json::Value::Null;
    parts.push((None, &rest));
    for (own, part) in parts {
        walk_calls(part, &mut |call| {
            let function = call["function"].as_str().unwrap_or_default();
            let args = call["args"].as_array().cloned().unwrap_or_default();
            let known_args = args.iter().all(|a| !contains_call(a));
            let through_requirement = |name: &str| {
                let from = match args.first().and_then(|a| a["value"].as_str()) {
                    Some("SELF") => own,
                    Some(node) => node_index(node),
                    None => None,
                };
                args.len() >= 3 && from.is_some_and(|i| !capabilities[i].contains(name))
            };
            let unevaluated = match function {
                "get_property" => !args
                    .get(1)
                    .and_then(|a| a["value"].as_str())
                    .is_some_and(|name| open.contains(name) || through_requirement(name)),
                "get_input" => args
                    .first()
                    .and_then(|a| a["value"].as_str())
                    .is_some_and(|name| bound.contains(name)),
                "concat" | "join" | "token" => known_args,
                _ => false,
            };
            if unevaluated {
                out.push(format!("`{function}` left unevaluated: {call}"));
            }
        });
    }
    out
}

fn contains_call(value: &serde_json::Value) -> bool {
    let mut found = false;
    walk_calls(value, &mut |_| found = true);
    found
}

/// Calls `visit` with the `value` of every `{"kind": "call", "value": ...}` inside `json`.
fn walk_calls(json: &serde_json::Value, visit: &mut dyn FnMut(&serde_json::Value)) {
    match json {
        serde_json::Value::Object(map) => {
            if map.get("kind").and_then(|k| k.as_str()) == Some("call")
                && let Some(call) = map.get("value")
            {
                visit(call);
            }
            map.values().for_each(|v| walk_calls(v, visit));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| walk_calls(v, visit)),
        _ => {}
    }
}
