//! The valid counterparts of the `*-hunt-*` bad-input cases on definitions no template uses:
//! the type names written inside a type's capability, requirement, interface and artifact
//! definitions are checked whether or not a template uses the type
//! (`src/resolve/requirement_defs.rs`), and a relationship template no requirement names is
//! read against its type (`src/resolve/requirements/unused.rs`). Files that name only defined
//! types, and an unused relationship template that fits its type, are accepted.

mod common;

use common::{assert_checks_clean as accepted, stderr, toscana};

#[test]
fn tosca2_types_no_template_uses_that_name_defined_types_are_accepted() {
    // Every kind of name: a capability type (long and short form), valid source node and
    // relationship types, a requirement's node, capability (a symbolic name, with `node`) and
    // relationship, an interface type, an artifact type; a refinement without `type`.
    accepted(
        "tosca_definitions_version: tosca_2_0
artifact_types:
  Image: {}
capability_types:
  Service: {}
interface_types:
  Lifecycle:
    operations:
      create: {}
relationship_types:
  ServedBy:
    interfaces:
      configure:
        type: Lifecycle
node_types:
  Client:
    requirements:
      - service:
          capability: Service
          relationship: ServedBy
          node: Server
      - named:
          capability: service
          node: Server
          relationship: ServedBy
  Server:
    capabilities:
      service:
        type: Service
        valid_source_node_types: [ Client ]
        valid_relationship_types: [ ServedBy ]
      short: Service
    interfaces:
      lifecycle:
        type: Lifecycle
    artifacts:
      disk:
        type: Image
        file: disk.qcow2
  BigServer:
    derived_from: Server
    capabilities:
      service:
        valid_source_node_types: [ Client ]
    interfaces:
      lifecycle:
        operations:
          create: {}
",
    );
}

#[test]
fn simple_profile_types_no_template_uses_that_name_defined_types_are_accepted() {
    // Normative names, long and shorthand, and the long form of `relationship`.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.nodes.Client:
    derived_from: tosca.nodes.Root
    requirements:
      - storage:
          capability: tosca.capabilities.Attachment
          node: tosca.nodes.Storage.BlockStorage
          relationship:
            type: tosca.relationships.AttachesTo
      - host: tosca.capabilities.Compute
    capabilities:
      endpoint:
        type: tosca.capabilities.Endpoint
        valid_source_types: [ tosca.nodes.Compute ]
      short: tosca.capabilities.Node
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
",
    );
}

#[test]
fn tosca2_an_unused_relationship_template_that_fits_its_type_is_only_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_2_0
relationship_types:
  AttachesTo:
    properties:
      location:
        type: string
      read_only:
        type: boolean
        default: false
node_types:
  Storage: {}
service_template:
  node_templates:
    storage:
      type: Storage
  relationship_templates:
    storage-attachment:
      type: AttachesTo
      properties:
        location: /mnt
",
    )
    .unwrap();
    let out = toscana().arg("check").arg(&path).output().unwrap();
    let stderr = stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("valid (1 warning)")
            && stderr.contains("`storage-attachment` is not used by any requirement")
            && !stderr.contains("error["),
        "{stderr}"
    );
}
