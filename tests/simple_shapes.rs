//! The shapes the Simple Profile 1.x grammar allows are accepted: the valid counterparts of the
//! `shape-1-x-*` and `definition-1-x-*` bad-input cases. Every short form the spec gives (a
//! capability or requirement definition as its type name, an operation as its implementation,
//! an artifact as its file, a requirement assignment as its node, a relationship as its type,
//! `entry_schema` as a type name), an operation written `[]` (ETSI NFV SOL001's way of leaving
//! it to the orchestrator), and the refinements of an inherited
//! property (without `type`, or in one line) check with no error.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn simple_profile_short_forms_and_typed_keynames_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  shop.capabilities.Search:
    derived_from: tosca.capabilities.Root
    valid_source_types: [ tosca.nodes.SoftwareComponent ]
    properties:
      shards: { type: integer, required: true, default: 1 }
      tags: { type: list, entry_schema: string, required: false }
relationship_types:
  shop.relationships.Uses:
    derived_from: tosca.relationships.ConnectsTo
    valid_target_types: [ tosca.capabilities.Endpoint ]
node_types:
  shop.Catalog:
    derived_from: tosca.nodes.SoftwareComponent
    properties:
      page_size: { type: integer, default: 20 }
    capabilities:
      search: shop.capabilities.Search
    requirements:
      - database: tosca.capabilities.Endpoint.Database
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        create: https://example.com/install.sh
    artifacts:
      installer: https://example.com/install.sh
  shop.BigCatalog:
    derived_from: shop.Catalog
    properties:
      page_size: 50
      component_version:
        default: '1.0'
topology_template:
  node_templates:
    catalog:
      type: shop.BigCatalog
      capabilities:
        search:
          properties: { shards: 2 }
      requirements:
        - host: server
        - database:
            node: db
            relationship: tosca.relationships.ConnectsTo
      interfaces:
        Standard:
          configure: https://example.com/configure.sh
          start: []
    server:
      type: tosca.nodes.Compute
    db:
      type: tosca.nodes.Database
      properties: { name: shop }
      requirements:
        - host: dbms
    dbms:
      type: tosca.nodes.DBMS
      requirements:
        - host: server
",
    );
}
