//! Unit tests of the Terraform backend's Rust: the layout pass, names, expressions, variables.

use std::collections::HashMap;

use indexmap::IndexMap;

use super::expr::{NodeRef, Scope, literal};
use super::fmt::{format, parse_check};
use super::unique_names;
use crate::back::ElementKind;
use crate::back::ignores::Part;
use crate::ir::{Call, Value};

#[test]
fn format_aligns_runs_of_single_line_attributes_like_terraform_fmt() {
    let text = "resource \"a\" \"b\" {\nami = \"x\"\n      instance_type = \"t3\"\ntags = {\nName = \"n\"\nLongerName = \"y\"\n}\nk = 1\n\n\n\nblock {\n\nx = 1\n\n}\n}\n\n";
    assert_eq!(
        format(text),
        "resource \"a\" \"b\" {\n  ami           = \"x\"\n  instance_type = \"t3\"\n  tags = {\n    Name       = \"n\"\n    LongerName = \"y\"\n  }\n  k = 1\n\n  block {\n    x = 1\n  }\n}\n"
    );
}

#[test]
fn format_ignores_brackets_and_equals_inside_strings_and_interpolations() {
    let text = "x {\na = \"{ [ = \"\nbb = \"x${join(\"}\", [\"=\"])}\"\nc = var.x == 1 ? \"${var.y}\" : \"$${literal\"\n}\n";
    assert_eq!(
        format(text),
        "x {\n  a  = \"{ [ = \"\n  bb = \"x${join(\"}\", [\"=\"])}\"\n  c  = var.x == 1 ? \"${var.y}\" : \"$${literal\"\n}\n"
    );
}

#[test]
fn format_breaks_runs_at_comments_and_multi_line_values() {
    let text = "x {\na = 1\n# note\nlong_name = 2\nlist = [\n1,\n]\nb = 3\n}\n";
    assert_eq!(
        format(text),
        "x {\n  a = 1\n  # note\n  long_name = 2\n  list = [\n    1,\n  ]\n  b = 3\n}\n"
    );
}

#[test]
fn parse_check_refuses_what_is_not_hcl() {
    assert!(parse_check("a = 1\n").is_ok());
    let e = parse_check("resource \"a\" {\n  x = \n}\n").unwrap_err();
    assert!(!e.is_empty());
}

#[test]
fn unique_names_are_snake_case_identifiers_without_clashes() {
    let names = unique_names(
        ["Web-Server", "web_server", "9lives", "count", "", "Ärger"],
        &["count"],
    );
    assert_eq!(
        names,
        [
            "web_server",
            "web_server_2",
            "n_9lives",
            "count_value",
            "n_",
            "rger"
        ]
    );
}

fn call(function: &str, args: Vec<Value>) -> Value {
    let function = crate::ir::Function::parse(function, crate::ir::Dialect::SimpleProfile);
    Value::Call(Box::new(Call::new(function, args)))
}

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

#[test]
fn literals_are_hcl_with_interpolation_escaped() {
    let mut map = IndexMap::new();
    map.insert("plain".to_string(), Value::Integer(1));
    map.insert("with space".to_string(), s("${x} %{y}"));
    assert_eq!(
        literal(&Value::Map(Box::new(map))).unwrap(),
        "{ plain = 1, \"with space\" = \"$${x} %%{y}\" }"
    );
    assert_eq!(
        literal(&Value::List(vec![
            Value::Boolean(true),
            Value::Float(1.5),
            Value::Null
        ]))
        .unwrap(),
        "[true, 1.5, null]"
    );
    assert!(literal(&call("get_input", vec![s("x")])).is_err());
}

#[test]
fn functions_become_references_and_string_templates() {
    let topology = empty_topology();
    let vars: HashMap<String, String> = [("port".to_string(), "port".to_string())].into();
    let scope = Scope {
        public_addresses: &[],
        topology: &topology,
        vars: &vars,
        nodes: &[NodeRef::default()],
        hosts: &[None],
        node_ids: &HashMap::new(),
        ledger: &crate::back::Ledger::new(),
    };
    assert_eq!(
        scope
            .expr(&call("get_input", vec![s("port")]), None)
            .unwrap(),
        "var.port"
    );
    assert_eq!(
        scope
            .expr(
                &call(
                    "concat",
                    vec![
                        s("http://\"x\"/"),
                        call("get_input", vec![s("port")]),
                        s("/${y}")
                    ]
                ),
                None
            )
            .unwrap(),
        "\"http://\\\"x\\\"/${var.port}/$${y}\""
    );
    assert_eq!(
        scope
            .expr(
                &call(
                    "join",
                    vec![
                        Value::List(vec![s("a"), call("get_input", vec![s("port")])]),
                        s("-")
                    ]
                ),
                None
            )
            .unwrap(),
        "\"a-${var.port}\""
    );
    assert_eq!(
        scope
            .expr(
                &call(
                    "token",
                    vec![
                        call("get_input", vec![s("port")]),
                        s("."),
                        Value::Integer(1)
                    ]
                ),
                None
            )
            .unwrap(),
        "element(split(\".\", var.port), 1)"
    );
    // Known arguments are computed as the resolver computes them (`ir::eval::apply`).
    assert_eq!(
        scope
            .expr(
                &call("token", vec![s("a.b"), s("."), Value::Integer(1)]),
                None
            )
            .unwrap(),
        "\"b\""
    );
    assert_eq!(
        scope
            .expr(
                &call("concat", vec![call("get_input", vec![s("port")]), s("")]),
                None
            )
            .unwrap(),
        "var.port"
    );
    let e = scope
        .expr(&call("get_operation_output", vec![s("x")]), None)
        .unwrap_err();
    assert!(e.contains("get_operation_output"), "{e}");
    assert!(
        scope
            .expr(&call("get_input", vec![s("nope")]), None)
            .is_err()
    );
}

/// `get_property: [ HOST, ... ]` names the first node down the hosting chain that has the
/// property: here the Compute two hosts down, past a web server that has no `flavor`.
#[test]
fn host_in_get_property_walks_down_to_the_node_that_has_the_property() {
    let topology = topology_of(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.VM:\n    derived_from: tosca.nodes.Compute\n    properties:\n      flavor:\n        type: string\ntopology_template:\n  inputs:\n    flavor:\n      type: string\n  node_templates:\n    vm:\n      type: my.VM\n      properties:\n        flavor: { get_input: flavor }\n    web:\n      type: tosca.nodes.WebServer\n      requirements:\n        - host: vm\n    app:\n      type: tosca.nodes.WebApplication\n      requirements:\n        - host: web\n",
    );
    let ids = super::expr::node_ids(&topology);
    let (vm, web, app) = (ids["vm"], ids["web"], ids["app"]);
    let mut hosts = vec![None; topology.nodes.len()];
    hosts[app.index()] = Some(web);
    hosts[web.index()] = Some(vm);
    let vars: HashMap<String, String> = [("flavor".to_string(), "flavor".to_string())].into();
    let nodes = vec![NodeRef::default(); topology.nodes.len()];
    let scope = Scope {
        public_addresses: &[],
        topology: &topology,
        vars: &vars,
        nodes: &nodes,
        hosts: &hosts,
        node_ids: &ids,
        ledger: &crate::back::Ledger::new(),
    };
    let flavor = call("get_property", vec![s("HOST"), s("flavor")]);
    assert_eq!(scope.expr(&flavor, Some(app)).unwrap(), "var.flavor");
    // What the function reads is translated, and the ledger says so.
    let read = |part, key| {
        scope
            .ledger
            .was_used(ElementKind::Node, vm.index(), part, key)
    };
    assert!(read(Part::Property, "flavor"));
    // A property no node down the chain has is an error, not the first host's nothing.
    let missing = call("get_property", vec![s("HOST"), s("colour")]);
    assert!(scope.expr(&missing, Some(app)).is_err());
}

/// The topology `yaml` reads into (required inputs left without a value stay calls).
fn topology_of(yaml: &str) -> crate::ir::Topology {
    crate::pipeline::read_text(yaml).0
}

/// A topology with nothing in it, read from a minimal template.
fn empty_topology() -> crate::ir::Topology {
    topology_of(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates: {}\n",
    )
}

#[test]
fn sizes_written_as_text_are_read_in_bytes() {
    use super::scripts::size_bytes;
    assert_eq!(size_bytes("4 GB"), Some(4e9));
    assert_eq!(size_bytes("512 MiB"), Some(512.0 * 1024.0 * 1024.0));
    assert_eq!(size_bytes("1.5 gib"), Some(1.5 * 1024.0 * 1024.0 * 1024.0));
    assert_eq!(size_bytes("fast"), None);
    assert_eq!(size_bytes("10 parsecs"), None);
}

fn map1(key: &str, value: Value) -> Value {
    let mut m = IndexMap::new();
    m.insert(key.to_string(), value);
    Value::Map(Box::new(m))
}

#[test]
fn constraints_become_conditions_with_sentences() {
    use super::vars::constraint;
    let range = map1(
        "in_range",
        Value::List(vec![Value::Integer(1), s("UNBOUNDED")]),
    );
    assert_eq!(
        constraint(&range, "var.n", "n").unwrap(),
        (
            "var.n >= 1".to_string(),
            "The value of n must be at least 1.".to_string()
        )
    );
    let values = map1("valid_values", Value::List(vec![s("a"), s("b")]));
    assert_eq!(
        constraint(&values, "var.x", "x").unwrap().0,
        "contains([\"a\", \"b\"], var.x)"
    );
    let pattern = map1("pattern", s("[a-z]+\\d"));
    assert_eq!(
        constraint(&pattern, "var.x", "x").unwrap().0,
        "can(regex(\"^(?:[a-z]+\\\\d)$\", var.x))"
    );
    let size = map1("greater_than", s("1 GB"));
    assert!(
        constraint(&size, "var.x", "x")
            .unwrap_err()
            .contains("orders only numbers")
    );
    assert!(constraint(&map1("schema", s("x")), "var.x", "x").is_err());
}

#[test]
fn tosca_2_validation_clauses_become_conditions() {
    use super::vars::validation;
    // The IR names TOSCA 2.0's functions without their `$`.
    let call = |name: &str, args: Vec<Value>| {
        let function = crate::ir::Function::parse(name, crate::ir::Dialect::Tosca2);
        Value::Call(Box::new(Call::new(function, args)))
    };
    // `$value` reads as a call without arguments (§10.1 Function Syntax).
    let value = || call("value", Vec::new());
    let clause = call(
        "and",
        vec![
            call(
                "greater_or_equal",
                vec![call("length", vec![value()]), Value::Integer(3)],
            ),
            call("not", vec![call("equal", vec![value(), s("admin")])]),
        ],
    );
    assert_eq!(
        validation(&clause, "var.user").unwrap(),
        "(length(var.user) >= 3 && !(var.user == \"admin\"))"
    );
    assert!(validation(&call("has_entry", vec![value()]), "var.x").is_err());
}

#[test]
fn format_keeps_heredocs_as_written_and_aligns_across_them_like_terraform_fmt() {
    let text = "x {\na = 1\nlong_name = <<EOT\n  keep   this\n    {\nEOT\nb = 2\ncc = <<-EOT\n    indented\n\n    EOT\n}\n";
    assert_eq!(
        format(text),
        "x {\n  a         = 1\n  long_name = <<EOT\n  keep   this\n    {\nEOT\n  b         = 2\n  cc        = <<-EOT\n    indented\n\n    EOT\n}\n"
    );
    assert!(parse_check(&format(text)).is_ok());
    // `<<` in a string opens nothing.
    assert_eq!(
        format("a = \"<<EOT\"\nbb = 1\n"),
        "a  = \"<<EOT\"\nbb = 1\n"
    );
}

/// A `get_property` of a capability's property that the backend resolves itself (its value
/// depends on an input, so the IR keeps the call) records that property in the ledger.
#[test]
fn get_property_of_a_capability_records_its_property() {
    let topology = topology_of(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  inputs:\n    cpus: { type: integer }\n  node_templates:\n    vm:\n      type: tosca.nodes.Compute\n      capabilities:\n        host:\n          properties: { num_cpus: { get_input: cpus }, mem_size: 4 GB }\n",
    );
    let ids = super::expr::node_ids(&topology);
    let vars: HashMap<String, String> = [("cpus".to_string(), "cpus".to_string())].into();
    let scope = Scope {
        public_addresses: &[],
        topology: &topology,
        vars: &vars,
        nodes: &[NodeRef::default()],
        hosts: &[None],
        node_ids: &ids,
        ledger: &crate::back::Ledger::new(),
    };
    let cpus = call("get_property", vec![s("vm"), s("host"), s("num_cpus")]);
    assert_eq!(scope.expr(&cpus, None).unwrap(), "var.cpus");
    let read = |key| {
        scope
            .ledger
            .was_used(ElementKind::Node, 0, Part::Capability, key)
    };
    assert!(read("host.num_cpus"));
    assert!(!read("host.mem_size"));
}
