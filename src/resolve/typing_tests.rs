//! Typed values in the IR, read through the whole pipeline.

use crate::diag::Diagnostics;
use crate::ir::{Topology, Value};
use crate::pipeline::{ReadOptions, read};
use crate::source::InputArg;

/// The messages of the errors among `diags`.
pub(in crate::resolve) fn errors(diags: &[crate::diag::Diagnostic]) -> Vec<&str> {
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect()
}

/// The topology of `yaml` read through the whole pipeline, with every diagnostic.
pub(in crate::resolve) fn topology(yaml: &str) -> (Topology, Vec<crate::diag::Diagnostic>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, yaml).unwrap();
    let mut diags = Diagnostics::with_cap(0);
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    (read.topology.unwrap(), diags.finish())
}

const TYPED: &str = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  my.Limits:
    derived_from: tosca.datatypes.Root
    properties:
      memory: { type: scalar-unit.size }
      timeout: { type: scalar-unit.time, default: 30 s }
node_types:
  my.App:
    derived_from: tosca.nodes.SoftwareComponent
    properties:
      limits: { type: my.Limits }
      ratio: { type: float }
      flags: { type: map, entry_schema: boolean }
      released: { type: timestamp, required: false }
topology_template:
  node_templates:
    app:
      type: my.App
      properties:
        component_version: 14.10
        limits: { memory: 512 MiB }
        ratio: 2
        flags: { debug: on }
        released: 2024-05-01
      requirements:
        - host: vm
    vm:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { mem_size: 4 GB }
"#;

#[test]
fn values_take_the_form_of_their_type() {
    let (topology, diags) = topology(TYPED);
    let app = &topology.nodes[0].properties;
    let Value::Version(v) = &app["component_version"] else {
        panic!("{:?}", app["component_version"])
    };
    assert_eq!((v.text.as_str(), v.major, v.minor), ("14.10", 14, 10));
    let Value::Map(limits) = &app["limits"] else {
        panic!()
    };
    let Value::Scalar(memory) = &limits["memory"] else {
        panic!("{:?}", limits["memory"])
    };
    assert_eq!(
        (memory.canonical, memory.canonical_unit.as_str()),
        (536_870_912.0, "B")
    );
    let Value::Scalar(timeout) = &limits["timeout"] else {
        panic!("the data type's default fills the field: {limits:?}")
    };
    assert_eq!(timeout.canonical, 30.0);
    assert_eq!(app["ratio"], Value::Float(2.0), "integers widen to float");
    assert_eq!(app["released"], Value::Timestamp("2024-05-01".into()));
    let Value::Map(flags) = &app["flags"] else {
        panic!()
    };
    assert_eq!(flags["debug"], Value::Boolean(true));
    assert!(
        diags
            .iter()
            .any(|d| !d.is_error() && d.message.contains("`on`, a string in YAML 1.2")),
        "a YAML 1.1 boolean is read with a warning: {diags:?}"
    );
    assert!(!diags.iter().any(|d| d.is_error()), "{diags:?}");
    let Value::Scalar(mem) = &topology.nodes[1].capabilities["host"].properties["mem_size"] else {
        panic!()
    };
    assert_eq!(mem.canonical, 4e9);
}

#[test]
fn a_function_is_left_for_deployment_and_not_type_checked() {
    let yaml = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    version: { type: string, default: "not a version" }
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      properties:
        component_version: { get_attribute: [ SELF, tosca_id ] }
      requirements:
        - host: vm
    vm:
      type: tosca.nodes.Compute
"#;
    let (topology, diags) = topology(yaml);
    assert!(!diags.iter().any(|d| d.is_error()), "{diags:?}");
    assert!(matches!(
        topology.nodes[0].properties["component_version"],
        Value::Call(_)
    ));
}

#[test]
fn tosca2_scalar_types_use_their_units_and_prefixes() {
    let yaml = r#"
tosca_definitions_version: tosca_2_0
data_types:
  Length:
    derived_from: scalar
    units: { m: 1.0 }
    prefixes: { "": 1, c: 0.01, k: 1000 }
node_types:
  Box:
    properties:
      width: { type: Length }
      depth: { type: Length }
service_template:
  node_templates:
    box:
      type: Box
      properties:
        width: 12 cm
        depth: 2 km
"#;
    let (topology, diags) = topology(yaml);
    assert!(!diags.iter().any(|d| d.is_error()), "{diags:?}");
    let props = &topology.nodes[0].properties;
    let canonical = |name: &str| match &props[name] {
        Value::Scalar(s) => s.canonical,
        other => panic!("{other:?}"),
    };
    assert!((canonical("width") - 0.12).abs() < 1e-12);
    assert_eq!(canonical("depth"), 2000.0);
}

#[test]
fn get_property_is_evaluated_through_chains_and_nested_paths() {
    let yaml = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.T:
    derived_from: tosca.nodes.Root
    properties:
      settings: { type: map, required: false }
      port: { type: integer, required: false }
      copy: { type: integer, required: false }
      late: { type: string, required: false }
topology_template:
  node_templates:
    a:
      type: my.T
      properties:
        settings: { ports: [ 8080, 8443 ] }
        port: { get_property: [ SELF, settings, ports, 1 ] }
    b:
      type: my.T
      properties:
        copy: { get_property: [ a, port ] }
        late: { get_attribute: [ a, tosca_id ] }
"#;
    let (topology, diags) = topology(yaml);
    assert!(!diags.iter().any(|d| d.is_error()), "{diags:?}");
    assert_eq!(topology.nodes[0].properties["port"], Value::Integer(8443));
    assert_eq!(topology.nodes[1].properties["copy"], Value::Integer(8443));
    assert!(matches!(
        topology.nodes[1].properties["late"],
        Value::Call(_)
    ));
}
