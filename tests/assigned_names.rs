//! Names a template may assign are accepted: the valid counterparts of the
//! `attribute-*-assignment-unknown` and `group-1-x-property-unknown` bad-input cases. A node
//! template may assign its type's attributes and its properties (reflected as attributes,
//! A.5.7.1.1), in short and extended form; a group assigns its type's properties; a policy
//! whose type defines no properties (the normative `tosca.policies.Scaling`) keeps the settings
//! orchestrators read by convention.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn simple_profile_assigned_attributes_and_group_properties_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
group_types:
  shop.groups.Tier:
    derived_from: tosca.groups.Root
    properties:
      tier: { type: string }
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      attributes:
        private_address: 10.0.0.5
        public_address: { description: the address users reach, value: 192.0.2.7 }
    db:
      type: tosca.nodes.Database
      properties: { name: shop }
      attributes:
        name: shop
      requirements:
        - host: dbms
    dbms:
      type: tosca.nodes.DBMS
      requirements:
        - host: server
  groups:
    web:
      type: shop.groups.Tier
      members: [ server ]
      properties: { tier: web }
  policies:
    - scale:
        type: tosca.policies.Scaling
        targets: [ web ]
        properties: { min_instances: 1, max_instances: 3 }
",
    );
}

#[test]
fn tosca2_assigned_attributes_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    properties:
      port: { type: integer, default: 80 }
    attributes:
      address: { type: string }
service_template:
  node_templates:
    server:
      type: Server
      attributes:
        address: 10.0.0.5
        port: 8080
",
    );
}
