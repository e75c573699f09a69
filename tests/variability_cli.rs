//! Variable templates on the command line: `toscana resolve` and its output file, `--explain`,
//! how `--set` values split between variability and topology inputs, and spans that still point
//! into the variable template after resolution.

use std::fs;

mod common;

use common::{stderr, toscana};

const VARIABLE: &str = "tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    inputs:
      mode: { type: string }
    presets:
      small: { inputs: { mode: dev } }
  inputs:
    greeting: { type: string }
  node_templates:
    web:
      type: tosca.nodes.WebServer
      conditions: { equal: [{ get_variability_input: mode }, dev] }
      properties:
        - component_version: { value: '1.0', conditions: { equal: [{ get_variability_input: mode }, dev] } }
        - component_version: { value: '2.0', default: true }
      requirements:
        - host: vm
    vm:
      type: tosca.nodes.Compute
    broken:
      type: no.such.Type
      conditions: { equal: [{ get_variability_input: mode }, prod] }
";

fn write_template(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("variable.yaml");
    fs::write(&path, VARIABLE).unwrap();
    path
}

#[test]
fn resolve_writes_the_output_file_atomically_and_keeps_it_on_failure() {
    let dir = tempfile::tempdir().unwrap();
    let template = write_template(dir.path());
    let out_file = dir.path().join("out.yaml");
    let out = toscana()
        .arg("resolve")
        .arg(&template)
        .args(["--preset", "small", "-o"])
        .arg(&out_file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let text = fs::read_to_string(&out_file).unwrap();
    assert!(
        text.starts_with("tosca_definitions_version: tosca_simple_yaml_1_3\n"),
        "{text}"
    );
    assert!(
        text.contains("component_version: \"1.0\""),
        "the string stays a string: {text}"
    );
    assert!(
        !text.contains("broken") && !text.contains("conditions") && !text.contains("variability")
    );
    // Only the temporary file's rename put it there: nothing else is left in the folder.
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    let failed = toscana()
        .arg("resolve")
        .arg(&template)
        .args(["--preset", "large", "-o"])
        .arg(&out_file)
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(1));
    assert!(stderr(&failed).contains("Did not find variability set \"large\""));
    assert_eq!(
        fs::read_to_string(&out_file).unwrap(),
        text,
        "the old file is intact"
    );
}

#[test]
fn explain_says_what_decided_each_element() {
    let dir = tempfile::tempdir().unwrap();
    let template = write_template(dir.path());
    let out = toscana()
        .arg("resolve")
        .arg(&template)
        .args(["--set", "mode=prod", "--skip-check", "all", "--explain"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(
        err.contains("variable.yaml:11:5: node `web`: absent (condition is false, decided at"),
        "{err}"
    );
    assert!(
        err.contains("variable.yaml:13:19"),
        "the condition's place: {err}"
    );
    assert!(err.contains("node `vm`: present (no conditions)"), "{err}");
    assert!(
        err.contains("property `component_version@1` of node `web`: absent (a default"),
        "{err}"
    );
}

#[test]
fn set_values_split_between_variability_and_topology_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let template = write_template(dir.path());
    let out = toscana()
        .arg("ir")
        .arg(&template)
        .args(["--set", "mode=dev", "--set", "greeting=hello"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ir["source"]["dialect"], "variability");
    let names: Vec<&str> = ir["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["web", "vm"]);
    let inputs = ir["inputs"].as_array().unwrap();
    assert_eq!(
        inputs.len(),
        1,
        "`mode` is not a topology input: {inputs:?}"
    );

    let unknown = toscana()
        .arg("ir")
        .arg(&template)
        .args([
            "--set",
            "mode=dev",
            "--set",
            "greeting=hi",
            "--set",
            "nope=1",
        ])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        stderr(&unknown)
            .contains("input `nope` is given a value but the template declares no such input")
    );
}

#[test]
fn errors_after_resolution_point_into_the_variable_template() {
    let dir = tempfile::tempdir().unwrap();
    let template = write_template(dir.path());
    let out = toscana()
        .arg("check")
        .arg(&template)
        .args([
            "--set",
            "mode=prod",
            "--set",
            "greeting=hi",
            "--skip-check",
            "all",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("variable.yaml:22:13: error[tosca::unknown-type]"),
        "the unknown type of `broken`, at its line in the variable template: {err}"
    );
}

#[test]
fn variability_flags_on_a_plain_template_are_a_warning() {
    let out = toscana()
        .args(["check", "examples/hello.yaml", "--preset", "dev"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("warning[variability::ignored]"),
        "{}",
        stderr(&out)
    );
}

/// `toscana resolve -` of `template`.
fn resolve_stdin(template: &str) -> std::process::Output {
    toscana()
        .args(["resolve", "-"])
        .write_stdin(template)
        .output()
        .unwrap()
}

#[test]
fn an_unused_expression_is_a_warning() {
    let template = "tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    expressions:
      never_read: { equal: [1, 1] }
  node_templates:
    a:
      type: tosca.nodes.Compute
";
    let out = resolve_stdin(template);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("<stdin>:5:19: warning[variability::ignored]: variability expression `never_read` is not used by any condition"),
        "{err}"
    );
}

/// A keyname no Variability4TOSCA revision defines is an error: read as nothing, it would
/// silently give another variant.
#[test]
fn an_unknown_keyname_is_an_error() {
    let template = "tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    optoins: { pruning: true }
  node_templates:
    a:
      type: tosca.nodes.Compute
";
    let out = resolve_stdin(template);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("<stdin>:4:5: error[tosca::unknown-keyname]: unknown keyname `optoins`"),
        "{err}"
    );
    assert!(err.contains("did you mean `options`?"), "{err}");
}

/// The current language (`variability.options` and the renamed functions): a template written
/// in it resolves, and `--explain` names, for each element, the conditions that decided it
/// (its own, the default or pruning condition and what that checks) and the presence of the
/// elements they read.
const CURRENT: &str = "tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    inputs:
      mode: { type: string }
    options:
      pruning: true
  node_templates:
    web:
      type: tosca.nodes.WebServer
      conditions: { equal: [{ variability_input: mode }, dev] }
      requirements:
        - host: vm
    vm:
      type: tosca.nodes.Compute
      conditions: { node_presence: web }
";

#[test]
fn the_current_language_resolves_and_explains() {
    let resolve = |mode: &str| {
        toscana()
            .args(["resolve", "-", "--set", mode, "--explain"])
            .write_stdin(CURRENT)
            .output()
            .unwrap()
    };
    let dev = resolve("mode=dev");
    assert!(dev.status.success(), "{}", stderr(&dev));
    let text = String::from_utf8_lossy(&dev.stdout);
    assert!(text.contains("web:") && text.contains("vm:"), "{text}");
    assert!(
        !text.contains("variability") && !text.contains("conditions"),
        "{text}"
    );
    let err = stderr(&dev);
    assert!(
        err.contains("<stdin>:9:5: node \"web\": present (pruning (its default condition (incoming-artifact) has nothing to check) and its condition hold, decided at <stdin>:11:19)"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:14:5: node \"vm\": present (pruning (its incoming condition) and its condition hold; node \"web\" is present, decided at <stdin>:16:19)"),
        "{err}"
    );
    let prod = resolve("mode=prod");
    assert!(prod.status.success(), "{}", stderr(&prod));
    let text = String::from_utf8_lossy(&prod.stdout);
    assert!(!text.contains("web:") && !text.contains("vm:"), "{text}");
    let err = stderr(&prod);
    assert!(
        err.contains("<stdin>:13:11: relation \"host@0\" of node \"web\": absent (pruning (its source is present, its target is present) does not hold; node \"web\" is absent, node \"vm\" is absent)"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:14:5: node \"vm\": absent (pruning (its incoming condition) and its condition do not all hold; node \"web\" is absent, decided at <stdin>:16:19)"),
        "{err}"
    );
}

/// An option § Variability Options does not define is an error, with the nearest option.
#[test]
fn a_misspelt_option_is_an_error() {
    let template = CURRENT.replace("pruning: true", "prunning: true");
    let out = resolve_stdin(&template);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("<stdin>:7:7: error[tosca::unknown-keyname]: unknown option `prunning` in `variability.options`"),
        "{err}"
    );
    assert!(err.contains("did you mean `pruning`?"), "{err}");
}

/// Plugins are TypeScript modules of the reference resolver: toscana says it does not run
/// them rather than resolve as if they were not there.
#[test]
fn plugins_are_a_warning() {
    let template = CURRENT.replace(
        "    options:\n",
        "    plugins: { technology: [./my-plugin] }\n    options:\n",
    );
    let out = toscana()
        .args(["resolve", "-", "--set", "mode=dev"])
        .write_stdin(template)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("<stdin>:6:5: warning[variability::ignored]: `variability.plugins` names technology plugins"),
        "{}",
        stderr(&out)
    );
}
