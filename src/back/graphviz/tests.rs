//! The Graphviz backend's structure and output: hosting, groups, escaping, and what Graphviz
//! itself says about the dot the engine renders.

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::*;
use crate::back::builtin;
use crate::limits::Limits;
use crate::pipeline::{ReadOptions, read};
use crate::source::InputArg;

/// Reads `yaml` and renders it with the built-in backend; no diagnostics may be errors.
fn render_yaml(yaml: &str, options: &DotOptions) -> String {
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
    let topology = read.topology.expect("a topology");
    assert!(!diags.has_errors(), "{:?}", diags.finish());
    let mut sources = read.sources;
    let backend = Engine::load(
        builtin("graphviz"),
        None,
        &mut sources,
        &Limits::default(),
        &mut diags,
    )
    .expect("the built-in backend loads");
    let files = render(
        &backend,
        crate::ir::validate(&topology).unwrap(),
        &sources,
        options,
        &mut diags,
    );
    assert!(!diags.has_errors(), "{:?}", diags.finish());
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].path, "graph.dot");
    files[0].contents.clone()
}

/// `dot -Tsvg` accepts `text` with nothing on stderr; skipped (with a visible notice) without
/// Graphviz unless `CI=true`.
fn assert_graphviz_accepts(text: &str) {
    let child = Command::new("dot")
        .args(["-Tsvg", "-o", "/dev/null"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return crate::test_skip::skip(
            "the Graphviz check of the dot output",
            "`dot` is not installed",
        );
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "dot: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every combination of the options that change the structure.
fn all_options() -> Vec<DotOptions> {
    let mut out = Vec::new();
    for nesting in [true, false] {
        for ports in [true, false] {
            for properties in [PropertyMode::None, PropertyMode::Key, PropertyMode::All] {
                out.push(DotOptions {
                    properties,
                    rankdir: if ports { RankDir::LR } else { RankDir::TB },
                    legend: ports,
                    nesting,
                    ports,
                    io: nesting,
                });
            }
        }
    }
    out
}

const ADVERSARIAL: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  template_name: "t \" \\ <&> \n é"
node_types:
  my.Odd:
    derived_from: tosca.nodes.Compute
    attributes:
      "<&>": { type: string }
  "my.Boundary <&>":
    derived_from: tosca.nodes.Root
    capabilities:
      "c <&> \"": tosca.capabilities.Node
    requirements:
      - "r \\ ]": { capability: tosca.capabilities.Compute, occurrences: [0, 1] }
topology_template:
  substitution_mappings:
    node_type: "my.Boundary <&>"
    capabilities:
      "c <&> \"": [ "a\"<b>", feature ]
    requirements:
      "r \\ ]": [ "a\"<b>", host ]
  inputs:
    "i\"<&>\\":
      type: string
      default: "\\N \\G \\L \\n <br/> &amp; \u2028 \u0007 ☕"
  node_templates:
    "a\"<b>":
      type: tosca.nodes.SoftwareComponent
      properties:
        component_version: "1.0"
      requirements:
        - host: "x\\y"
    "x\\y":
      type: my.Odd
    "{}|[]:;,=-->":
      type: tosca.nodes.Database
      directives: [ select ]
      properties:
        name: "v\" <x> & \\ \n\r\t é 日本 \\N ]]> </td>"
      requirements:
        - dependency: "a\"<b>"
        - host: "a\"<b>"
  groups:
    "g\"\\":
      type: tosca.groups.Root
      members: [ "a\"<b>", "{}|[]:;,=-->" ]
  policies:
    - "p <>&\"":
        type: tosca.policies.Root
        targets: [ "g\"\\", "x\\y" ]
  outputs:
    "o\\\"":
      value: { concat: [ "\"", { get_attribute: [ "x\\y", "<&>" ] } ] }
"#;

#[test]
fn adversarial_names_and_values_give_dot_that_graphviz_accepts_with_every_option() {
    for options in all_options() {
        let text = render_yaml(ADVERSARIAL, &options);
        // Labels are pure ASCII; IDs keep their UTF-8.
        for line in text.lines() {
            if let Some(label) = line.split(" label=").nth(1) {
                assert!(label.is_ascii(), "non-ASCII label: {line}");
            }
        }
        assert!(!text.contains('\u{7}'));
        assert_graphviz_accepts(&text);
    }
}

#[test]
fn hosting_nests_down_the_whole_chain_and_no_nesting_draws_edges() {
    let yaml = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    app:\n      type: tosca.nodes.WebApplication\n      requirements:\n        - host: web\n    web:\n      type: tosca.nodes.WebServer\n      requirements:\n        - host: vm\n    vm:\n      type: tosca.nodes.Compute\n";
    let nested = render_yaml(yaml, &DotOptions::default());
    let vm = nested
        .find("subgraph \"cluster_h:vm\"")
        .expect("vm cluster");
    let web = nested
        .find("subgraph \"cluster_h:web\"")
        .expect("web cluster");
    assert!(vm < web, "{nested}");
    assert!(!nested.contains("label=<host>"), "{nested}");
    let flat = render_yaml(
        yaml,
        &DotOptions {
            nesting: false,
            ..DotOptions::default()
        },
    );
    assert!(!flat.contains("cluster_h:"), "{flat}");
    assert!(flat.contains("\"n:app\" -> \"n:web\""), "{flat}");
    assert!(flat.contains("\"n:web\" -> \"n:vm\""), "{flat}");
}

#[test]
fn a_long_hosting_chain_and_a_hosting_cycle_neither_overflow_nor_hang() {
    let mut yaml = String::from(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n",
    );
    let n = 3000;
    for i in 0..n {
        yaml.push_str(&format!(
            "    n{i}:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - host: n{}\n",
            (i + 1) % n
        ));
    }
    let text = render_yaml(&yaml, &DotOptions::default());
    // The cycle is broken once: every node but one is inside a host's cluster.
    assert_eq!(text.matches("subgraph \"cluster_h:").count(), n - 1);
    assert_eq!(text.matches("label=<host>").count(), 1);
}

#[test]
fn a_group_split_across_hosts_is_a_note_and_a_group_on_one_host_a_cluster() {
    let yaml = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - host: vm1\n    b:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - host: vm1\n    c:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - host: vm2\n    vm1:\n      type: tosca.nodes.Compute\n    vm2:\n      type: tosca.nodes.Compute\n  groups:\n    together:\n      type: tosca.groups.Root\n      members: [a, b]\n    split:\n      type: tosca.groups.Root\n      members: [b, c]\n";
    let text = render_yaml(yaml, &DotOptions::default());
    assert!(text.contains("subgraph \"cluster_g:together\""), "{text}");
    assert!(!text.contains("cluster_g:split"), "{text}");
    assert!(text.contains("\"g:split\" -> \"n:b\""), "{text}");
    assert!(text.contains("\"g:split\" -> \"n:c\""), "{text}");
    assert_graphviz_accepts(&text);
}

#[test]
fn key_properties_are_the_family_list_and_what_the_template_sets() {
    let yaml = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    db:\n      type: tosca.nodes.DBMS\n      properties:\n        root_password: x\n";
    let key = render_yaml(yaml, &DotOptions::default());
    assert!(key.contains("root_password = x"), "{key}");
    let none = render_yaml(
        yaml,
        &DotOptions {
            properties: PropertyMode::None,
            ..DotOptions::default()
        },
    );
    assert!(!none.contains("root_password"), "{none}");
}

#[test]
fn values_read_as_written() {
    assert_eq!(value_text(&Value::string("a")), "a");
    assert_eq!(
        value_text(&Value::List(vec![Value::Integer(1), Value::string("x")])),
        "[1, \"x\"]"
    );
    let call = Value::Call(Box::new(crate::ir::Call::new(
        crate::ir::Function::GetAttribute,
        vec![Value::string("server"), Value::string("public address")],
    )));
    assert_eq!(
        value_text(&call),
        "get_attribute(server, \"public address\")"
    );
    let long = "x".repeat(100);
    let cut = value_text(&Value::string(long));
    assert_eq!(cut.chars().count(), MAX_VALUE_CHARS);
    assert!(cut.ends_with('…'));
    assert_eq!(short_type("org.oasis-open.simple:2.0:Compute"), "Compute");
    assert_eq!(short_type("tosca.nodes.WebServer"), "WebServer");
    assert_eq!(short_type("Worker"), "Worker");
    assert_eq!(
        short_type("{http://opentosca.org/nodetypes}Ubuntu-VM_18.04-w1"),
        "Ubuntu-VM_18.04-w1"
    );
}
