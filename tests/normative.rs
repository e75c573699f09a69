//! Simple Profile templates get the normative types of their own version implicitly, and may
//! name them by shorthand.

use toscana::diag::{Diagnostic, Diagnostics};
use toscana::ir::Topology;
use toscana::pipeline::{ReadOptions, read};
use toscana::source::InputArg;

fn resolve(text: &str) -> (Option<Topology>, Vec<Diagnostic>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, text).unwrap();
    let mut diags = Diagnostics::new();
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    (read.topology, diags.finish())
}

fn template(version: &str, nodes: &str) -> String {
    format!("tosca_definitions_version: {version}\ntopology_template:\n  node_templates:\n{nodes}")
}

#[test]
fn shorthands_name_normative_types_of_every_kind() {
    let (topology, diags) = resolve(&template(
        "tosca_simple_yaml_1_3",
        "    server:\n      type: Compute\n    web:\n      type: tosca:WebServer\n      requirements:\n        - host:\n            node: server\n            relationship: HostedOn\n            capability: Compute\n    disk:\n      type: BlockStorage\n      properties: { name: data }\n",
    ));
    assert!(diags.is_empty(), "{diags:?}");
    let topology = topology.unwrap();
    let types: Vec<&str> = topology.nodes.iter().map(|n| n.types[0].as_str()).collect();
    assert_eq!(
        types,
        [
            "tosca.nodes.Compute",
            "tosca.nodes.WebServer",
            "tosca.nodes.Storage.BlockStorage"
        ]
    );
    let hosting = &topology.relationships[0];
    assert_eq!(
        hosting.types,
        ["tosca.relationships.HostedOn", "tosca.relationships.Root"]
    );
    assert_eq!(
        hosting.capability.as_deref(),
        Some("host"),
        "the Compute capability type matches the `host` capability"
    );
}

#[test]
fn requirement_definitions_of_normative_types_give_relationship_and_capability() {
    let (topology, diags) = resolve(&template(
        "tosca_simple_yaml_1_3",
        "    server:\n      type: tosca.nodes.Compute\n    app:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - host: server\n",
    ));
    assert!(diags.is_empty(), "{diags:?}");
    let rel = &topology.unwrap().relationships[0];
    assert_eq!(
        (rel.type_name.as_str(), rel.capability.as_deref()),
        ("tosca.relationships.HostedOn", Some("host"))
    );
}

#[test]
fn each_version_has_exactly_its_own_types() {
    // Storage.BlockStorage is the 1.1+ name; 1.0 calls it tosca.nodes.BlockStorage.
    let (_, diags) = resolve(&template(
        "tosca_simple_yaml_1_0",
        "    disk:\n      type: tosca.nodes.Storage.BlockStorage\n",
    ));
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, "tosca::unknown-type");
    let (topology, diags) = resolve(&template(
        "tosca_simple_yaml_1_0",
        "    disk:\n      type: BlockStorage\n      properties: { size: 1 GB }\n",
    ));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        topology.unwrap().nodes[0].types[0],
        "tosca.nodes.BlockStorage"
    );
}

#[test]
fn an_unknown_normative_looking_name_is_an_error_with_a_suggestion() {
    let (_, diags) = resolve(&template(
        "tosca_simple_yaml_1_3",
        "    s:\n      type: tosca.nodes.Compte\n",
    ));
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, "tosca::unknown-type");
    assert_eq!(
        diags[0].hint.as_deref(),
        Some("did you mean `tosca.nodes.Compute`?")
    );
}

#[test]
fn a_file_that_redefines_a_normative_type_is_warned_and_its_definition_used() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  tosca.nodes.Compute:\n    derived_from: tosca.nodes.Root\n    properties:\n      flavor: { type: string, default: small }\ntopology_template:\n  node_templates:\n    s:\n      type: Compute\n";
    let (topology, diags) = resolve(text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        (diags[0].code, diags[0].span.map(|s| s.line)),
        ("tosca::duplicate-name", Some(3))
    );
    let node = &topology.unwrap().nodes[0];
    assert_eq!(node.types, ["tosca.nodes.Compute", "tosca.nodes.Root"]);
    assert!(node.properties.contains_key("flavor"));
}

#[test]
fn data_types_may_derive_from_primitives() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\ndata_types:\n  my.Port:\n    derived_from: integer\n  my.Bad:\n    derived_from: integr\n";
    let (_, diags) = resolve(text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        (diags[0].code, diags[0].span.map(|s| s.line)),
        ("tosca::unknown-type", Some(6))
    );
}

#[test]
fn a_prefixed_name_resolves_through_the_import_that_declared_the_prefix() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("lib.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  Resource:\n    derived_from: tosca.nodes.Root\n",
    )
    .unwrap();
    let main = dir.path().join("main.yaml");
    std::fs::write(
        &main,
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - file: lib.yaml\n    namespace_prefix: lib\nnode_types:\n  my.Service:\n    derived_from: lib:Resource\ntopology_template:\n  node_templates:\n    s:\n      type: my.Service\n    bad:\n      type: other:Resource\n",
    )
    .unwrap();
    let mut diags = Diagnostics::new();
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(main)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    let diags = diags.finish();
    assert_eq!(
        diags.len(),
        1,
        "only the undeclared prefix is an error: {diags:?}"
    );
    assert_eq!(
        (diags[0].code, diags[0].span.map(|s| s.line)),
        ("tosca::unknown-type", Some(13))
    );
    assert_eq!(
        read.topology.unwrap().nodes[0].types,
        ["my.Service", "Resource", "tosca.nodes.Root"]
    );
}

#[test]
fn tosca2_data_types_may_derive_from_scalar() {
    let (_, diags) = resolve(
        "tosca_definitions_version: tosca_2_0\ndata_types:\n  Length:\n    derived_from: scalar\n    units: { m: 1 }\n",
    );
    assert!(diags.is_empty(), "{diags:?}");
}
