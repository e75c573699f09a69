//! TOSCA 2.0 node filters narrowing requirement targets: each clause evaluated against each
//! candidate, and only what is known to be false dropping one.

use super::fitting;
use crate::lsp::check::{Settings, check};
use crate::source::Overlay;

/// Three Computes with 1 CPU and 1 GB, 4 CPUs and 8 GB, and nothing set; a software
/// component `app` whose `host` requirement carries `filter`.
fn template(filter: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_2_0
imports:
  - profile: org.oasis-open.simple:2.0
    namespace: simple
service_template:
  inputs:
    cpus:
      type: integer
      default: 2
    unbound:
      type: integer
  node_templates:
    small:
      type: simple:Compute
      metadata: {{ tier: small }}
      capabilities:
        host:
          properties: {{ num_cpus: 1, mem_size: 1 GB }}
    big:
      type: simple:Compute
      capabilities:
        host:
          properties: {{ num_cpus: 4, mem_size: 8 GB }}
    open:
      type: simple:Compute
    app:
      type: simple:SoftwareComponent
      properties:
        component_version: 1.0.0
      requirements:
        - host:
            node_filter:
{filter}
"
    )
}

/// The targets offered for `app`'s `host` with the node filter `filter` (YAML at 14 spaces).
fn offered(filter: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap().join("service.yaml");
    std::fs::write(&path, template(filter)).unwrap();
    let checked = check(&path, Overlay::default(), &Settings::default());
    let model = checked.model.as_ref().expect("the template reads");
    let mut names: Vec<String> = fitting(model, checked.topology.as_ref(), "app", "host")
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    names.sort();
    names
}

#[test]
fn without_a_filter_every_host_is_offered() {
    assert_eq!(offered("              true"), ["big", "open", "small"]);
}

#[test]
fn a_comparison_on_the_capability_drops_what_fails_and_keeps_what_is_unknown() {
    let filter =
        "              $greater_or_equal: [ { $get_property: [ SELF, CAPABILITY, num_cpus ] }, 2 ]";
    // `open` sets no `num_cpus`: its value is not known, so it stays.
    assert_eq!(offered(filter), ["big", "open"]);
}

#[test]
fn and_is_false_when_one_clause_is_even_if_another_is_unknown() {
    let filter = "              $and:
                - $greater_or_equal: [ { $get_property: [ SELF, CAPABILITY, mem_size ] }, 2 GB ]
                - $less_than: [ { $get_property: [ SELF, CAPABILITY, num_cpus ] }, 8 ]";
    assert_eq!(offered(filter), ["big", "open"]);
    let filter = "              $and:
                - $greater_or_equal: [ { $get_property: [ SELF, CAPABILITY, mem_size ] }, 512 MB ]
                - $less_than: [ { $get_property: [ SELF, CAPABILITY, num_cpus ] }, 2 ]";
    assert_eq!(offered(filter), ["open", "small"]);
}

#[test]
fn or_and_not_combine_clauses() {
    let filter = "              $or:
                - $equal: [ { $get_property: [ SELF, CAPABILITY, num_cpus ] }, 1 ]
                - $greater_than: [ { $get_property: [ SELF, CAPABILITY, mem_size ] }, 4 GB ]";
    assert_eq!(offered(filter), ["big", "open", "small"]);
    let filter = "              $not:
                - $greater_than: [ { $get_property: [ SELF, CAPABILITY, num_cpus ] }, 2 ]";
    assert_eq!(offered(filter), ["open", "small"]);
}

#[test]
fn the_target_and_source_nodes_are_read_through_the_relationship() {
    let filter = "              $greater_than: [ { $get_property: [ SELF, TARGET, CAPABILITY, host, num_cpus ] }, 1 ]";
    assert_eq!(offered(filter), ["big", "open"]);
    // The source is the node with the requirement: the same for every candidate.
    let filter =
        "              $equal: [ { $get_property: [ SELF, SOURCE, component_version ] }, 2.0.0 ]";
    assert_eq!(offered(filter), Vec::<String>::new());
}

#[test]
fn inputs_are_read_and_what_is_known_only_at_deployment_keeps_every_candidate() {
    let filter = "              $greater_or_equal: [ { $get_property: [ SELF, CAPABILITY, num_cpus ] }, { $get_input: cpus } ]";
    assert_eq!(offered(filter), ["big", "open"]);
    for unknown in [
        "{ $get_input: unbound }",
        "{ $get_attribute: [ SELF, CAPABILITY, num_cpus ] }",
        "{ $get_property: [ SELF, weight ] }",
    ] {
        let filter = format!("              $greater_than: [ {unknown}, 100 ]");
        assert_eq!(offered(&filter), ["big", "open", "small"], "{unknown}");
    }
}

#[test]
fn the_requirement_definition_filter_narrows_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap().join("service.yaml");
    let text = template("              true").replace(
        "service_template:",
        "node_types:
  Picky:
    derived_from: simple:SoftwareComponent
    requirements:
      - host:
          capability: simple:Compute
          node_filter:
            $greater_than: [ { $get_property: [ SELF, CAPABILITY, num_cpus ] }, 2 ]
service_template:",
    );
    std::fs::write(
        &path,
        text.replace("type: simple:SoftwareComponent", "type: Picky"),
    )
    .unwrap();
    let checked = check(&path, Overlay::default(), &Settings::default());
    let model = checked.model.as_ref().unwrap();
    let names: Vec<String> = fitting(model, checked.topology.as_ref(), "app", "host")
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(names, ["big", "open"]);
}
