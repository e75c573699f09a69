//! How TOSCA 2.0 reads its YAML (checklist T2-YAML, §9.1 TOSCA Built-In Types): YAML 1.2 core
//! schema scalars, each scalar typed by how it is written (no conversion between primitive
//! types, the one exception an integer for a float), anchors and aliases, and strings kept
//! exactly as written. The bad-input counterparts are `value-2-0-*`.

mod common;

use common::ir_clean as ir;

/// The properties of node template `n` in the IR.
fn properties(ir: &serde_json::Value) -> serde_json::Value {
    let nodes = ir["nodes"].as_array().expect("nodes");
    let n = nodes.iter().find(|n| n["name"] == "n").expect("node n");
    n["properties"].clone()
}

/// YAML 1.2 core schema (T2-YAML-01): `yes`, `on` and `2024-04-14` are strings, `0x1F` and
/// `0o17` integers, `.inf` a float; a quoted `"0.1"` is a string (T2-YAML-04); an integer is
/// taken for a float (T2-LIT-04), the only implicit conversion.
#[test]
fn scalars_are_typed_by_the_yaml_1_2_core_schema() {
    let ir = ir("tosca_definitions_version: tosca_2_0
node_types:
  N:
    properties:
      answer: { type: string }
      switch: { type: string }
      day: { type: string }
      version: { type: string }
      hex: { type: integer }
      octal: { type: integer }
      limit: { type: float }
      ratio: { type: float }
service_template:
  node_templates:
    n:
      type: N
      properties:
        answer: yes
        switch: on
        day: 2024-04-14
        version: \"0.1\"
        hex: 0x1F
        octal: 0o17
        limit: .inf
        ratio: 2
");
    let p = properties(&ir);
    let value = |name: &str| (p[name]["kind"].clone(), p[name]["value"].clone());
    for (name, text) in [
        ("answer", "yes"),
        ("switch", "on"),
        ("day", "2024-04-14"),
        ("version", "0.1"),
    ] {
        assert_eq!(value(name), ("string".into(), text.into()), "{p}");
    }
    assert_eq!(value("hex"), ("integer".into(), 31.into()), "{p}");
    assert_eq!(value("octal"), ("integer".into(), 15.into()), "{p}");
    assert_eq!(value("ratio"), ("float".into(), 2.0.into()), "{p}");
    // `.inf` is a float, accepted for the float property; JSON has no infinity, so the IR
    // writes its YAML text, still of kind `float`.
    assert_eq!(value("limit"), ("float".into(), ".inf".into()), "{p}");
}

/// Anchors in `dsl_definitions` are reused through aliases (T2-YAML-03, §6.3 DSL Definitions),
/// and a string keeps its spaces and line breaks (T2-YAML-06, §9.1.1.1 string).
#[test]
fn aliases_reuse_dsl_definitions_and_strings_are_kept_as_written() {
    let ir = ir("tosca_definitions_version: tosca_2_0
dsl_definitions:
  port_def: &port_def
    type: integer
    default: 8080
node_types:
  N:
    properties:
      port: *port_def
      banner: { type: string }
service_template:
  node_templates:
    n:
      type: N
      properties:
        banner: \"  two spaces, then a line break\\n\"
");
    let p = properties(&ir);
    assert_eq!(p["port"]["value"], 8080, "{p}");
    assert_eq!(
        p["banner"]["value"], "  two spaces, then a line break\n",
        "{p}"
    );
}

/// `metadata` holds any YAML value, not only strings (T2-COMMON-02, §5.3 Common Keynames), and
/// is passed through to the IR as written.
#[test]
fn metadata_values_of_any_yaml_type_are_kept() {
    let ir = ir("tosca_definitions_version: tosca_2_0
node_types:
  N: {}
service_template:
  node_templates:
    n:
      type: N
      metadata:
        owner: team
        replicas: 3
        ratio: 0.5
        enabled: true
        nothing: null
        zones: [ a, b ]
        labels: { tier: web }
");
    let nodes = ir["nodes"].as_array().expect("nodes");
    let metadata = &nodes[0]["metadata"];
    let kinds = [
        ("owner", "string"),
        ("replicas", "integer"),
        ("ratio", "float"),
        ("enabled", "boolean"),
        ("nothing", "null"),
        ("zones", "list"),
        ("labels", "map"),
    ];
    for (key, kind) in kinds {
        assert_eq!(metadata[key]["kind"], kind, "{key}: {metadata}");
    }
    let zones = metadata["zones"]["value"].as_array().map(Vec::len);
    assert_eq!(zones, Some(2), "{metadata}");
    assert_eq!(
        metadata["labels"]["value"]["tier"]["value"], "web",
        "{metadata}"
    );
}
