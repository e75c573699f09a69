//! How values are read: where `get_input` binds and where it stays a call.

use toscana::diag::Diagnostics;
use toscana::ir::Value;
use toscana::pipeline::{ReadOptions, read};
use toscana::source::InputArg;

mod common;

#[test]
fn a_workflow_get_input_names_the_workflow_input_and_stays_a_call() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wf.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  inputs:\n    size: { type: integer, default: 2 }\n  node_templates:\n    s:\n      type: Compute\n  workflows:\n    scale:\n      inputs:\n        location: { type: string }\n      steps:\n        one:\n          target: s\n          activities:\n            - inline: { get_input: location }\n",
    )
    .unwrap();
    let mut diags = Diagnostics::new();
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    assert!(!diags.has_errors(), "{:?}", diags.finish());
    let workflow = &read.topology.unwrap().workflows[0];
    let Value::Map(definition) = &workflow.definition else {
        panic!("a map")
    };
    let text = serde_json::to_string(&definition["steps"]).unwrap();
    assert!(
        text.contains(r#""function":"get_input""#) && text.contains("location"),
        "{text}"
    );
}

/// A Simple Profile 1.3 template read with `common::read_text`'s options: the topology (which
/// must read without error) and the diagnostics.
fn simple(template: &str) -> (toscana::ir::Topology, Vec<toscana::diag::Diagnostic>) {
    let (read, diags) = common::read_text(template);
    assert!(
        !diags
            .iter()
            .any(|d| d.severity == toscana::diag::Severity::Error),
        "{diags:?}"
    );
    (read.topology.expect("a topology"), diags)
}

fn node<'t>(topology: &'t toscana::ir::Topology, name: &str) -> &'t toscana::ir::Node {
    topology.nodes.iter().find(|n| n.name == name).unwrap()
}

fn configure_input<'t>(topology: &'t toscana::ir::Topology, name: &str, input: &str) -> &'t Value {
    &node(topology, name).interfaces["Standard"].operations["configure"].inputs[input]
}

const STACK: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    db_port: { type: integer }
  node_templates:
    server:
      type: Compute
      capabilities:
        host:
          properties: { num_cpus: 4, mem_size: 4 GB }
    dbms:
      type: DBMS
      properties: { port: 3306 }
      requirements:
        - host: server
    db:
      type: Database
      properties: { name: shop, port: { get_input: db_port } }
      requirements:
        - host: dbms
    app:
      type: WebApplication
      properties: { context_root: /shop }
      requirements:
        - host: web
        - dependency: db
      interfaces:
        Standard:
          configure:
            inputs:
              cpus: { get_property: [ HOST, host, num_cpus ] }
              db_name: { get_property: [ SELF, dependency, name ] }
              db_port: { get_property: [ db, port ] }
              url: { concat: [ "http://", { get_attribute: [ server, public_address ] }, ":", 80 ] }
              root: { concat: [ { get_property: [ SELF, context_root ] }, "/", 2 ] }
              memory: { concat: [ "mem=", { get_property: [ server, host, mem_size ] } ] }
              part: { token: [ { get_property: [ SELF, context_root ] }, "/", 1 ] }
              path: { join: [ [ a, 1, true ], "." ] }
    web:
      type: WebServer
      requirements:
        - host: server
  outputs:
    name:
      value: { get_property: [ db, name ] }
"#;

#[test]
fn simple_profile_calls_known_at_translation_time_are_evaluated_where_they_are_written() {
    let (topology, _) = simple(STACK);
    let input = |name| configure_input(&topology, "app", name);
    // HOST: the first node down the hosting chain (web, then server) with capability `host`.
    assert_eq!(input("cpus"), &Value::Integer(4));
    assert_eq!(input("db_name"), &Value::String("shop".into()));
    assert_eq!(input("root"), &Value::String("/shop/2".into()));
    assert_eq!(input("memory"), &Value::String("mem=4 GB".into()));
    assert_eq!(input("part"), &Value::String("shop".into()));
    assert_eq!(input("path"), &Value::String("a.1.true".into()));
    assert_eq!(
        topology.outputs[0].value,
        Value::String("shop".into()),
        "outputs are evaluated too"
    );
    // An unbound input is the same wherever it is read: the call becomes it.
    let Value::Call(port) = input("db_port") else {
        panic!("a get_input call: {:?}", input("db_port"))
    };
    assert_eq!(port.function, toscana::ir::Function::GetInput);
    // What only deployment knows stays a call, with the known arguments evaluated.
    let Value::Call(url) = input("url") else {
        panic!("a call")
    };
    assert_eq!(url.function, toscana::ir::Function::Concat);
    assert_eq!(url.args[3], Value::Integer(80));
}

#[test]
fn known_calls_in_attribute_assignments_are_evaluated_too() {
    let template = STACK.replace(
        "    web:\n      type: WebServer\n",
        "    web:\n      type: WebServer\n      attributes:\n        tosca_name: { concat: [ web-, { get_property: [ server, host, num_cpus ] } ] }\n        state: { concat: [ { get_attribute: [ SELF, tosca_id ] }, -up ] }\n",
    );
    assert_ne!(template, STACK);
    let (topology, _) = simple(&template);
    let web = node(&topology, "web");
    assert_eq!(web.attributes["tosca_name"], Value::String("web-4".into()));
    let Value::Call(state) = &web.attributes["state"] else {
        panic!(
            "deployment-time values stay calls: {:?}",
            web.attributes["state"]
        )
    };
    assert_eq!(state.function, toscana::ir::Function::Concat);
}

#[test]
fn a_token_index_past_the_last_token_is_an_error_at_the_call() {
    let template = STACK.replace(
        "part: { token: [ { get_property: [ SELF, context_root ] }, \"/\", 1 ] }",
        "part: { token: [ { get_property: [ SELF, context_root ] }, \"/\", 5 ] }",
    );
    let (_, diags) = common::read_text(&template);
    let error = diags
        .iter()
        .find(|d| d.code == toscana::diag::codes::TOSCA_FUNCTION)
        .expect("an error for the token index");
    assert!(
        error.message.contains("index 5 is past the last"),
        "{}",
        error.message
    );
    let span = error.span.expect("at the call");
    assert_eq!((span.line, span.col), (37, 21));
}

#[test]
fn a_tosca_2_0_property_read_through_a_computed_name_is_evaluated_before_its_reader() {
    // `n.a` names the property it reads with a call, and what it reads (`n.b1`) reads `m.x`,
    // written after it: each is evaluated once, after what it reads, whatever the order.
    let template = r#"tosca_definitions_version: tosca_2_0
node_types:
  Box:
    properties:
      which: { type: string }
      a: { type: string }
      b1: { type: string }
      x: { type: string }
service_template:
  node_templates:
    n:
      type: Box
      properties:
        which: b1
        a: { $get_property: [ SELF, { $get_property: [ SELF, which ] } ] }
        b1: { $concat: [ { $get_property: [ m, x ] }, "!" ] }
        x: plain
    m:
      type: Box
      properties:
        which: x
        a: { $concat: [ { $get_property: [ SELF, x ] } ] }
        b1: plain
        x: { $concat: [ "h", "i" ] }
  outputs:
    out: { value: { $get_property: [ n, a ] } }
"#;
    let (read, diags) = common::read_text(template);
    assert!(diags.is_empty(), "{diags:?}");
    let topology = read.topology.expect("a topology");
    let text = |v: &Value| v.as_str().map(str::to_string);
    let n = node(&topology, "n");
    assert_eq!(text(&n.properties["a"]).as_deref(), Some("hi!"));
    assert_eq!(text(&n.properties["b1"]).as_deref(), Some("hi!"));
    assert_eq!(
        text(&node(&topology, "m").properties["a"]).as_deref(),
        Some("hi")
    );
    assert_eq!(text(&topology.outputs[0].value).as_deref(), Some("hi!"));
}
