//! The rewrite, construct by construct, on 1.3 trees written for the purpose: what the XML
//! front end writes and what a 1.3 file may say beyond it.

use crate::diag::{Diagnostic, Diagnostics};
use crate::limits::Limits;
use crate::source::{Origin, SourceMap};

fn rewrite_text(yaml: &str) -> (String, Vec<Diagnostic>) {
    let mut sources = SourceMap::new();
    let id = sources.add("t.yaml", Origin::Builtin("t.yaml".into()), yaml);
    let mut diags = Diagnostics::new();
    let tree = crate::yaml::load(&sources, id, &Limits::default(), &mut diags).unwrap();
    assert!(!diags.has_errors());
    let out = super::rewrite(&tree, &[]);
    (crate::yaml::emit::to_yaml(&out.tree).unwrap(), out.lost)
}

/// The part of `text` from the line `from` up to (not including) the next line that is
/// indented no deeper than it.
fn section<'t>(text: &'t str, from: &str) -> &'t str {
    let start = text
        .find(&format!("\n{from}"))
        .unwrap_or_else(|| panic!("no `{from}` in:\n{text}"))
        + 1;
    let indent = from.len() - from.trim_start().len();
    let rest = &text[start..];
    let end = rest
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .find(|&i| {
            let line = &rest[i..];
            !line.is_empty() && line.len() - line.trim_start().len() <= indent
        })
        .unwrap_or(rest.len());
    &rest[..end]
}

const HEAD: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

#[test]
fn constraints_become_validation_clauses() {
    let (out, lost) = rewrite_text(&format!(
        "{HEAD}node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n      code:\n        type: string\n        required: false\n        constraints:\n          - pattern: '[A-Z]+'\n          - min_length: 2\n      port:\n        type: integer\n        constraints:\n          - in_range: [ 1, UNBOUNDED ]\n      mode:\n        type: string\n        constraints:\n          - valid_values: [ a, $b ]\n          - schema: whatever\n"
    ));
    assert_eq!(
        section(&out, "    properties:"),
        "    properties:
      code:
        type: string
        required: false
        validation:
          $and:
          - $matches:
            - $value
            - ^(?:[A-Z]+)$
          - $greater_or_equal:
            - $length:
              - $value
            - 2
      port:
        type: integer
        validation:
          $greater_or_equal:
          - $value
          - 1
      mode:
        type: string
        validation:
          $valid_values:
          - $value
          - - a
            - $$b
"
    );
    let messages: Vec<&str> = lost.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["the constraint `schema` has no counterpart in TOSCA 2.0"]
    );
}

#[test]
fn definitions_take_their_2_0_keynames() {
    let (out, lost) = rewrite_text(&format!(
        "{HEAD}relationship_types:\n  R:\n    derived_from: tosca.relationships.Root\n    valid_target_types: [ C ]\ncapability_types:\n  C:\n    derived_from: tosca.capabilities.Root\n    valid_source_types: [ N ]\nnode_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n      level:\n        type: integer\n        required: false\n        default: 3\n    requirements:\n      - peer: C\n      - other:\n          capability: C\n          relationship: R\n          occurrences: [ 0, 2 ]\n    capabilities:\n      offered:\n        type: C\n        occurrences: [ 1, 1 ]\n    artifacts:\n      image:\n        type: tosca.artifacts.Deployment\n        file: a.img\n        deploy_path: /opt/a.img\n"
    ));
    assert!(
        out.contains("  R:\n    derived_from: tosca.relationships.Root\n    valid_capability_types:\n    - C\n"),
        "{out}"
    );
    assert!(
        out.contains("  C:\n    derived_from: tosca.capabilities.Root\n    valid_source_node_types:\n    - \"N\"\n"),
        "{out}"
    );
    assert_eq!(
        section(&out, "  \"N\":"),
        "  \"N\":
    derived_from: tosca.nodes.Root
    properties:
      level:
        type: integer
        default: 3
    requirements:
    - peer:
        capability: C
    - other:
        capability: C
        relationship: R
        count_range:
        - 0
        - 2
    capabilities:
      offered:
        type: C
    artifacts:
      image:
        type: tosca.artifacts.Deployment
        file: a.img
"
    );
    let messages: Vec<String> = lost.iter().map(|d| d.message.clone()).collect();
    assert_eq!(
        messages,
        [
            "the bounds (occurrences) of capability `offered` of node type `N` has no counterpart in TOSCA 2.0",
            "`deploy_path` of artifact `image` of node type `N` has no counterpart in TOSCA 2.0",
        ]
    );
}

#[test]
fn values_escape_a_leading_dollar_and_call_functions_by_their_2_0_names() {
    let (out, lost) = rewrite_text(&format!(
        "{HEAD}topology_template:\n  inputs:\n    home:\n      type: string\n  node_templates:\n    n:\n      type: tosca.nodes.Root\n      properties:\n        path: $HOME/bin\n        joined: {{ concat: [ {{ get_input: home }}, /x ] }}\n        $key: {{ $inner: $$v }}\n        output: {{ get_operation_output: [ SELF, Standard, create, out ] }}\n"
    ));
    assert_eq!(
        section(&out, "      properties:"),
        "      properties:
        path: $$HOME/bin
        joined:
          $concat:
          - $get_input: home
          - /x
        $key:
          $$inner: $$$v
"
    );
    let messages: Vec<&str> = lost.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["the function `get_operation_output` has no counterpart in TOSCA 2.0"]
    );
}

#[test]
fn a_property_mapped_onto_a_node_template_becomes_an_input() {
    let (out, lost) = rewrite_text(&format!(
        "{HEAD}node_types:\n  Outer:\n    derived_from: tosca.nodes.Root\n    properties:\n      size: {{ type: integer, required: false }}\n      colour: {{ type: string, required: false }}\n  Inner:\n    derived_from: tosca.nodes.Root\n    properties:\n      size:\n        type: integer\n        required: false\n      tags:\n        type: list\n        entry_schema: string\n        required: false\ntopology_template:\n  inputs:\n    size:\n      type: string\n      default: x\n  node_templates:\n    inner:\n      type: Inner\n      properties:\n        size: 3\n  substitution_mappings:\n    node_type: Outer\n    properties:\n      size: [ inner, size ]\n      tags: [ inner, tags ]\n      colour: [ size ]\n    requirements:\n      dependency: [ inner, dependency ]\n"
    ));
    assert_eq!(
        section(&out, "service_template:"),
        "service_template:
  inputs:
    size:
      type: string
      default: x
    size_2:
      type: integer
      default: 3
    tags:
      type: list
      entry_schema: string
      required: false
  node_templates:
    inner:
      type: Inner
      properties:
        size:
          $get_input: size_2
        tags:
          $get_input: tags
  substitution_mappings:
    node_type: Outer
    properties:
      size: size_2
      colour: size
    requirements:
    - dependency:
      - inner
      - dependency
"
    );
    // `Outer` defines no `tags`: 2.0 maps only the node type's properties (§15.2), so the
    // mapping is left out and the input alone carries the value.
    let messages: Vec<&str> = lost.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["the mapping of property `tags` onto node type `Outer` has no counterpart in TOSCA 2.0"]
    );
}

#[test]
fn a_requirement_mapped_onto_one_the_topology_connects_is_left_out() {
    let (out, lost) = rewrite_text(&format!(
        "{HEAD}node_types:\n  App:\n    derived_from: tosca.nodes.Root\ntopology_template:\n  node_templates:\n    app:\n      type: App\n      requirements:\n      - dependency: db\n      - dependency: {{ node: cache }}\n      - host: {{ capability: tosca.capabilities.Compute }}\n    db:\n      type: tosca.nodes.Root\n    cache:\n      type: tosca.nodes.Root\n  substitution_mappings:\n    node_type: App\n    requirements:\n      dependency: [ app, dependency ]\n      host: [ app, host ]\n"
    ));
    // `dependency` is connected by both its assignments; `host` is left dangling.
    assert!(
        section(&out, "  substitution_mappings:")
            .ends_with("    requirements:\n    - host:\n      - app\n      - host\n"),
        "{out}"
    );
    let messages: Vec<(&str, Option<&str>)> = lost
        .iter()
        .map(|d| (d.message.as_str(), d.hint.as_deref()))
        .collect();
    assert_eq!(
        messages,
        [(
            "the mapping of requirement `dependency` onto `dependency` of node template `app` has no counterpart in TOSCA 2.0",
            Some(
                "the topology already connects `dependency` of `app` to `db`, and TOSCA 2.0 maps a requirement only onto one the substituting template leaves dangling (§15.5.4 Requirement Mapping Rules); the mapping is left out"
            )
        )]
    );
}

#[test]
fn normative_types_the_file_uses_are_written_in_2_0_form() {
    let (out, lost) = rewrite_text(&format!(
        "{HEAD}node_types:\n  Disk:\n    derived_from: tosca.nodes.Storage.BlockStorage\n"
    ));
    // Through the derivation chain and every type a definition names.
    for name in [
        "tosca.nodes.Storage.BlockStorage:",
        "tosca.nodes.Abstract.Storage:",
        "tosca.nodes.Root:",
        "tosca.capabilities.Attachment:",
        "tosca.relationships.DependsOn:",
        "tosca.interfaces.node.lifecycle.Standard:",
        "scalar-unit.size:",
    ] {
        assert!(out.contains(&format!("\n  {name}\n")), "{name}:\n{out}");
    }
    // ... and nothing it does not use.
    assert!(!out.contains("tosca.nodes.Compute:"), "{out}");
    assert!(!out.contains("occurrences"), "{out}");
    assert_eq!(
        section(&out, "  scalar-unit.size:"),
        "  scalar-unit.size:
    description: TOSCA Simple Profile 1.3's `scalar-unit.size`.
    derived_from: scalar
    data_type: float
    units:
      B: 1
      kB: 1000
      KiB: 1024
      MB: 1000000
      MiB: 1048576
      GB: 1000000000
      GiB: 1073741824
      TB: 1000000000000
      TiB: 1099511627776
    canonical_unit: B
"
    );
    // Their 1.3-only details are not the user's: no warning for them.
    assert!(lost.is_empty(), "{lost:?}");
}

#[test]
fn interface_types_declare_the_operations_their_definitions_name() {
    let (out, _) = rewrite_text(&format!(
        "{HEAD}interface_types:\n  http://example.com/lifecycle:\n    derived_from: tosca.interfaces.Root\nnode_types:\n  N:\n    derived_from: tosca.nodes.Root\n    interfaces:\n      http://example.com/lifecycle:\n        type: http://example.com/lifecycle\n        operations:\n          install:\n            implementation: install_sh\n        notifications:\n          ready: {{}}\n"
    ));
    assert_eq!(
        section(&out, "  http%3A//example.com/lifecycle:"),
        "  http%3A//example.com/lifecycle:
    derived_from: tosca.interfaces.Root
    operations:
      install: {}
    notifications:
      ready: {}
"
    );
    assert!(
        out.contains("    interfaces:\n      \"http://example.com/lifecycle\":\n        type: http%3A//example.com/lifecycle\n"),
        "{out}"
    );
}

#[test]
fn a_range_is_a_list_of_two_integers_with_its_entry_schema() {
    let (out, lost) = rewrite_text(&format!(
        "{HEAD}node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n      ports:\n        type: range\n        constraints:\n          - in_range: [ 1, 65535 ]\n      open:\n        type: range\n        constraints:\n          - in_range: [ 1024, UNBOUNDED ]\n"
    ));
    // §9.2 Data Type: a data type derived from list has a mandatory entry_schema.
    assert_eq!(
        section(&out, "  range:"),
        "  range:
    description: \"TOSCA Simple Profile 1.3's `range`: a lower and an upper bound, as a list of two integers (UNBOUNDED has no 2.0 counterpart).\"
    derived_from: list
    entry_schema: integer
    validation:
      $equal:
      - $length:
        - $value
      - 2
"
    );
    // The upper bound is an integer: compared with the high end, never with `UNBOUNDED`.
    assert_eq!(
        section(&out, "      ports:"),
        "      ports:
        type: range
        validation:
          $and:
          - $greater_or_equal:
            - $value:
              - 0
            - 1
          - $less_or_equal:
            - $value:
              - 1
            - 65535
"
    );
    assert!(section(&out, "      open:").ends_with("- 1024\n"), "{out}");
    assert!(lost.is_empty(), "{lost:?}");
}
