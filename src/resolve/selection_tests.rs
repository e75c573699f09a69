//! Requirements fulfilled by selection, read through the whole pipeline.

use crate::ir::Topology;
use crate::resolve::typing::tests::{errors, topology};

/// `app` asks for a Compute host whose `host` capability has 1-4 CPUs; `small` and `big` are
/// Computes, `db` a DBMS hosted on `small`. `{CPUS}` is the number of CPUs of `big`.
const HOSTS: &str = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: tosca.nodes.Compute
            node_filter:
              capabilities:
                - host:
                    properties:
                      - num_cpus: { in_range: [ 1, 4 ] }
                      - mem_size: { greater_or_equal: 2 GB }
    small:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 2, mem_size: 4 GB }
    big:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: {CPUS}, mem_size: 64 GB }
    db:
      type: tosca.nodes.DBMS
      requirements:
        - host: small
"#;

/// The target of `node`'s requirement `requirement`, by name.
fn target<'t>(t: &'t Topology, node: &str, requirement: &str) -> Option<&'t str> {
    let n = t.nodes.iter().find(|n| n.name == node)?;
    let r = n.requirements.iter().find(|r| r.name == requirement)?;
    let rel = &t.relationships[r.relationship?.index()];
    Some(t.nodes[rel.target.index()].name.as_str())
}

#[test]
fn a_filter_picks_one_of_two() {
    let (t, diags) = topology(&HOSTS.replace("{CPUS}", "16"));
    assert_eq!(errors(&diags), Vec::<&str>::new());
    assert_eq!(target(&t, "app", "host"), Some("small"));
    let rel = t
        .relationships
        .iter()
        .find(|r| r.name == "app.host")
        .unwrap();
    assert_eq!(rel.capability.as_deref(), Some("host"));
    assert_eq!(rel.type_name, "tosca.relationships.HostedOn");
}

#[test]
fn two_that_fit_are_an_error_naming_both() {
    let (t, diags) = topology(&HOSTS.replace("{CPUS}", "4"));
    let errors = errors(&diags);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("2 node templates fit requirement `host` of `app`"),
        "{}",
        errors[0]
    );
    assert!(
        errors[0].contains("`small` fits; `big` fits"),
        "{}",
        errors[0]
    );
    assert!(
        errors[0].contains("`db` is a tosca.nodes.DBMS, not a tosca.nodes.Compute"),
        "{}",
        errors[0]
    );
    assert_eq!(target(&t, "app", "host"), None);
}

#[test]
fn none_that_fits_says_why_each_does_not() {
    let (_, diags) = topology(
        &HOSTS
            .replace("{CPUS}", "16")
            .replace("num_cpus: 2,", "num_cpus: 8,"),
    );
    let errors = errors(&diags);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(
            "`small` has `num_cpus: 8` in capability `host`, which is not `in_range: [1, 4]`"
        ),
        "{}",
        errors[0]
    );
    assert!(
        errors[0].contains("`big` has `num_cpus: 16`"),
        "{}",
        errors[0]
    );
}

#[test]
fn optional_or_selected_requirements_may_stay_open() {
    let none = HOSTS
        .replace("{CPUS}", "16")
        .replace("num_cpus: 2,", "num_cpus: 8,");
    let optional = none.replace(
        "            node: tosca.nodes.Compute\n",
        "            node: tosca.nodes.Compute\n            occurrences: [ 0, 1 ]\n",
    );
    let (t, diags) = topology(&optional);
    assert_eq!(errors(&diags), Vec::<&str>::new());
    let app = &t.nodes[0];
    assert_eq!(app.requirements[0].relationship, None);
    assert_eq!(
        app.requirements[0].node.as_deref(),
        Some("tosca.nodes.Compute")
    );
    assert!(app.requirements[0].node_filter.is_some());
    let selected = none.replace(
        "      type: tosca.nodes.SoftwareComponent\n",
        "      type: tosca.nodes.SoftwareComponent\n      directives: [ select ]\n",
    );
    let (_, diags) = topology(&selected);
    assert_eq!(errors(&diags), Vec::<&str>::new());
    // Exposed on the substitution boundary: fulfilled by whoever uses the substitute.
    let exposed = none.replace(
        "  node_templates:\n",
        "  substitution_mappings:\n    node_type: tosca.nodes.SoftwareComponent\n    requirements:\n      host: [ app, host ]\n  node_templates:\n",
    );
    let (t, diags) = topology(&exposed);
    assert_eq!(errors(&diags), Vec::<&str>::new());
    assert!(t.substitution.is_some());
}

#[test]
fn a_type_without_any_template_is_left_to_the_orchestrator() {
    let yaml = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: tosca.nodes.Compute
"#;
    let (t, diags) = topology(yaml);
    assert_eq!(errors(&diags), Vec::<&str>::new());
    assert_eq!(t.nodes[0].requirements[0].relationship, None);
}

#[test]
fn a_capability_type_alone_selects_and_capability_names_come_first() {
    let yaml = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.App:
    derived_from: tosca.nodes.SoftwareComponent
    requirements:
      - database: tosca.capabilities.Endpoint
topology_template:
  node_templates:
    app:
      type: my.App
      requirements:
        - database:
            capability: tosca.capabilities.Endpoint.Database
        - host: { node_filter: { capabilities: [ os: { properties: [ type: linux ] } ] } }
    dbms:
      type: tosca.nodes.DBMS
      requirements:
        - host: server
    db:
      type: tosca.nodes.Database
      properties: { name: shop }
      requirements:
        - host: dbms
    server:
      type: tosca.nodes.Compute
      capabilities:
        os:
          properties: { type: linux }
    other:
      type: tosca.nodes.Compute
      capabilities:
        os:
          properties: { type: windows }
"#;
    let (t, diags) = topology(yaml);
    assert_eq!(errors(&diags), Vec::<&str>::new());
    assert_eq!(target(&t, "app", "database"), Some("db"));
    assert_eq!(target(&t, "app", "host"), Some("server"));
}

#[test]
fn node_filter_shapes_are_checked() {
    let yaml = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: tosca.nodes.Compute
            node_filter:
              properties:
                num_cpus: 2
              capabilities:
                - hots:
                    properties:
                      - num_cpus: { equals: 2 }
                - os:
                    properties:
                      - distribution: 12
                      - nope: ubuntu
    c:
      type: tosca.nodes.Compute
"#;
    let (_, diags) = topology(yaml);
    let errors = errors(&diags);
    let has = |text: &str| errors.iter().any(|e| e.contains(text));
    assert!(
        has("`node_filter.properties` must be a list of single-entry maps, found a map"),
        "{errors:?}"
    );
    assert!(has("unknown constraint operator `equals`"), "{errors:?}");
    assert!(
        has(
            "capability `hots`, which is neither a capability of node type `tosca.nodes.Compute` nor a capability type"
        ),
        "{errors:?}"
    );
    assert!(has("found `12` (an integer)"), "{errors:?}");
    assert!(has("the node filter names property `nope`"), "{errors:?}");
}

#[test]
fn filter_forms_bare_values_clause_lists_and_capabilities_that_must_exist() {
    let yaml = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    flavour: { type: string, required: false }
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: tosca.nodes.Compute
            node_filter:
              capabilities:
                - tosca.capabilities.Scalable
                - os:
                    properties:
                      - type: linux
                      - distribution: [ { min_length: 3 }, { valid_values: [ ubuntu, debian ] } ]
    ubuntu:
      type: tosca.nodes.Compute
      capabilities:
        os:
          properties: { type: linux, distribution: ubuntu }
    arch:
      type: tosca.nodes.Compute
      capabilities:
        os:
          properties: { type: linux, distribution: arch }
    unknown:
      type: tosca.nodes.Compute
      capabilities:
        os:
          properties: { type: linux, distribution: { get_input: flavour } }
"#;
    let (_, diags) = topology(yaml);
    let errors = errors(&diags);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("`ubuntu` fits"), "{}", errors[0]);
    assert!(
        errors[0].contains(
            "`arch` has `distribution: arch` in capability `os`, which is not `valid_values: [ubuntu, debian]`"
        ),
        "{}",
        errors[0]
    );
    assert!(
        errors[0].contains(
            "`unknown` may fit (`distribution` in capability `os` is known only at deployment)"
        ),
        "{}",
        errors[0]
    );
}
