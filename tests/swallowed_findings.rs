//! Diagnostics that swallowing sinks used to lose (issue 24: "a fact is reported once, where
//! it is read"): each is now reported exactly once, at its place, beside whatever the input
//! already got. The bad-input cases can only show a run's first error; these show the ones
//! found after it. A buffer replayed for every use reported one fact many times: such a fact
//! is now reported once too.

use std::path::Path;

mod common;

use common::{stderr, toscana};

/// The diagnostics of `toscana check FILE --message-format json`.
fn json_check(file: &Path) -> Vec<serde_json::Value> {
    let out = toscana()
        .arg("check")
        .arg(file)
        .args(["--message-format", "json"])
        .output()
        .unwrap();
    stderr(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// How many diagnostics of `code` at `line`:`column` say `message` when `text` is checked.
fn count(text: &str, code: &str, (line, column): (u64, u64), message: &str) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.yaml");
    std::fs::write(&file, text).unwrap();
    let found = json_check(&file);
    found
        .iter()
        .filter(|d| {
            d["code"] == code
                && d["line"] == line
                && d["column"] == column
                && d["message"].as_str().is_some_and(|m| m.contains(message))
        })
        .count()
}

#[test]
fn what_is_wrong_inside_a_value_not_of_its_type_is_reported_with_the_mismatch() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Box:
    derived_from: tosca.nodes.Root
    properties:
      size:
        type: integer
topology_template:
  node_templates:
    b:
      type: Box
      properties:
        size: [ { get_input: nope } ]
";
    let at = (13, 15);
    assert_eq!(
        count(text, "tosca::type-mismatch", at, "must be a single integer"),
        1
    );
    let inside = (13, 17);
    let undefined = "get_input refers to undefined input `nope`";
    assert_eq!(count(text, "tosca::unknown-name", inside, undefined), 1);
}

#[test]
fn a_malformed_call_among_a_validation_clauses_literals_is_reported_once() {
    // The type is used by two templates: the clause is still read, and reported, once.
    let text = "tosca_definitions_version: tosca_2_0
data_types:
  Small:
    derived_from: string
    validation: { $equal: [ $value, { a: 1, $concat: [ x ] } ] }
node_types:
  Box:
    properties:
      size:
        type: Small
service_template:
  node_templates:
    b:
      type: Box
      properties:
        size: abc
    c:
      type: Box
      properties:
        size: def
";
    let malformed = "malformed function: `$concat` is one of 2 keys of this map";
    assert_eq!(count(text, "tosca::function", (5, 45), malformed), 1);
}

#[test]
fn a_property_elements_type_with_an_undeclared_prefix_is_reported_once_where_the_schema_is_read() {
    // Two node types use the XSD element; its local element's type was read into a sink and
    // the property silently became a string.
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bad_input/sinks3-xml-local-element-type-undeclared-prefix/input.tosca");
    let found = json_check(&case);
    let undeclared: Vec<_> = found
        .iter()
        .filter(|d| d["code"] == "xml::qname")
        .map(|d| (d["line"].clone(), d["column"].clone()))
        .collect();
    assert_eq!(undeclared, [(5.into(), 39.into())], "{found:#?}");
}

#[test]
fn a_node_types_capability_problem_is_reported_once_not_once_per_template() {
    // The chain's capabilities are worked out once; their diagnostics were replayed for every
    // template of the type, three times here.
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Box:
    derived_from: tosca.nodes.Root
    capabilities:
      c:
        type: NoSuchCap
topology_template:
  node_templates:
    a:
      type: Box
    b:
      type: Box
    c:
      type: Box
";
    let unknown = "unknown capability type `NoSuchCap`";
    assert_eq!(count(text, "tosca::unknown-type", (7, 15), unknown), 1);
}

#[test]
fn convert_reports_why_the_xml_does_not_read() {
    // `convert` translated the XML into a sink and read it again only when the translation
    // worked: XML that is not well-formed failed with no error shown.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.xml");
    std::fs::write(
        &file,
        "<Definitions xmlns=\"http://docs.oasis-open.org/tosca/ns/2011/12\" id=\"d\" targetNamespace=\"x\">\n  <NodeType name=\"A\">\n</Definitions>\n",
    )
    .unwrap();
    let out = toscana()
        .arg("convert")
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("out.yaml"))
        .args(["--message-format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let found: Vec<serde_json::Value> = stderr(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let syntax: Vec<_> = found
        .iter()
        .filter(|d| d["code"] == "xml::syntax")
        .map(|d| (d["line"].clone(), d["column"].clone()))
        .collect();
    assert_eq!(syntax, [(3.into(), 1.into())], "{found:#?}");
}

#[test]
fn a_refined_range_widened_by_a_bare_major_version_is_reported() {
    // The refined bound `4` of a version is read as `4.0` with a warning where it is written;
    // the widening check read the bounds into a sink and skipped any range whose reading
    // reported something, so a range widened to `4` passed (SP-TYPE-06).
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Base:
    derived_from: tosca.nodes.Root
    properties:
      release:
        type: version
        constraints:
          - in_range: [ 1.0, 3.0 ]
  Wider:
    derived_from: Base
    properties:
      release:
        type: version
        constraints:
          - in_range: [ 1.0, 4 ]
topology_template:
  node_templates:
    w:
      type: Wider
      properties:
        release: 2.0
";
    let wider =
        "refines the inherited `in_range: [1.0, 3.0]` to `in_range: [1.0, 4]`, which is wider";
    assert_eq!(
        count(text, "tosca::constraint-violated", (16, 23), wider),
        1
    );
    let major = "read as `4.0`";
    assert_eq!(count(text, "tosca::type-mismatch", (16, 30), major), 1);
}

#[test]
fn what_is_wrong_in_a_property_another_reads_first_is_reported_once() {
    // `x.a` reads `y.b` before `y.b` comes up as a value of its own: the Simple Profile
    // evaluator used to evaluate `y.b` once for its reader and once for itself, reporting its
    // `token` error twice. Each property is now evaluated once, after those it reads.
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Box:
    derived_from: tosca.nodes.Root
    properties:
      a: { type: string, required: false }
      b: { type: string, required: false }
topology_template:
  node_templates:
    x:
      type: Box
      properties:
        a: { get_property: [ y, b ] }
    y:
      type: Box
      properties:
        b: { token: [ \"a b\", \" \", 5 ] }
";
    let at = (17, 12);
    assert_eq!(
        count(text, "tosca::function", at, "index 5 is past the last"),
        1
    );
}

/// A template that substitutes two nodes: `inner.yaml`'s `token` call picks its third token
/// from the input `s`, which each node's property `s` gives.
fn substituted_twice(first: &str, second: &str) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let inner = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Db:
    derived_from: tosca.nodes.Root
    properties:
      s:
        type: string
  Store:
    derived_from: tosca.nodes.Root
    properties:
      name:
        type: string
topology_template:
  inputs:
    s:
      type: string
  substitution_mappings:
    node_type: Db
  node_templates:
    store:
      type: Store
      properties:
        name: { token: [ { get_input: s }, \",\", 2 ] }
";
    let main = format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - inner.yaml
topology_template:
  node_templates:
    one:
      type: Db
      directives: [ substitutable ]
      properties:
        s: {first}
    two:
      type: Db
      directives: [ substitutable ]
      properties:
        s: {second}
"
    );
    std::fs::write(dir.path().join("inner.yaml"), inner).unwrap();
    std::fs::write(dir.path().join("main.yaml"), main).unwrap();
    json_check(&dir.path().join("main.yaml"))
}

/// The `tosca::function` errors of `found` at `inner.yaml`'s `token` call.
fn token_errors(found: &[serde_json::Value]) -> Vec<String> {
    found
        .iter()
        .filter(|d| d["code"] == "tosca::function" && d["line"] == 23 && d["column"] == 15)
        .map(|d| d["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn what_only_a_later_substituted_nodes_values_cause_is_reported() {
    // The template is resolved once per node it substitutes, with that node's values: the
    // second node's value has one token, so index 2 is past the last.
    let found = substituted_twice("a,b,c", "a");
    let errors = token_errors(&found);
    assert_eq!(errors.len(), 1, "{found:#?}");
    assert!(errors[0].starts_with("`a` has 1 token(s)"), "{errors:?}");
    // Named with the node whose values cause it.
    let error = found
        .iter()
        .find(|d| d["code"] == "tosca::function")
        .unwrap();
    let text = error.to_string();
    assert!(text.contains("`two`"), "{text}");
}

#[test]
fn what_every_substituted_node_causes_alike_is_reported_once() {
    let found = substituted_twice("a", "a");
    assert_eq!(token_errors(&found).len(), 1, "{found:#?}");
    // Two different values: two facts, each once.
    let found = substituted_twice("x", "a");
    let errors = token_errors(&found);
    assert_eq!(errors.len(), 2, "{found:#?}");
}

#[test]
fn what_is_wrong_in_an_imported_substituting_templates_topology_is_reported_once() {
    // The import reads the file's types; its topology is read only as a substitution
    // candidate, whose problems were read quietly and dropped.
    let dir = tempfile::tempdir().unwrap();
    let inner = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Db:
    derived_from: tosca.nodes.Root
    properties:
      size:
        type: integer
        descripton: the typo the import reports
topology_template:
  substitution_mappings:
    node_type: Db
  node_templates:
    store:
      type: tosca.nodes.Root
      propertees: { a: 1 }
";
    let main = "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - inner.yaml
topology_template:
  node_templates:
    one:
      type: Db
      directives: [ substitutable ]
      properties:
        size: 0
";
    std::fs::write(dir.path().join("inner.yaml"), inner).unwrap();
    std::fs::write(dir.path().join("main.yaml"), main).unwrap();
    let found = json_check(&dir.path().join("main.yaml"));
    let typo = found
        .iter()
        .filter(|d| {
            d["code"] == "tosca::unknown-keyname"
                && d["line"] == 15
                && d["column"] == 7
                && d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("`propertees`"))
        })
        .count();
    assert_eq!(typo, 1, "{found:#?}");
    // What the import reported already (its types) is not reported again.
    let shared = found
        .iter()
        .filter(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("`descripton`"))
        })
        .count();
    assert_eq!(shared, 1, "{found:#?}");
}
