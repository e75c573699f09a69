//! Required properties of capabilities, groups and policies: the valid counterparts of the
//! `required-*` and `policy-*` bad-input cases. A required property may get its value from the
//! type's `default`, from a node type's refinement of its capability definition, or from the
//! template's assignment; an optional one may stay unset. Each file checks with no diagnostic.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn simple_profile_required_values_from_any_source_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  Queue:
    derived_from: tosca.capabilities.Root
    properties:
      depth: { type: integer }
      limit: { type: integer, default: 10 }
      note: { type: string, required: false }
node_types:
  Broker:
    derived_from: tosca.nodes.Root
    capabilities:
      queue: Queue
  FixedBroker:
    derived_from: Broker
    capabilities:
      queue:
        type: Queue
        properties:
          depth: { type: integer, default: 5 }
policy_types:
  Scaling:
    derived_from: tosca.policies.Scaling
    properties:
      increment: { type: integer }
      cooldown: { type: integer, default: 60 }
group_types:
  Tier:
    derived_from: tosca.groups.Root
    properties:
      name: { type: string }
topology_template:
  node_templates:
    broker:
      type: Broker
      capabilities:
        queue:
          properties:
            depth: 3
    fixed:
      type: FixedBroker
  groups:
    tier:
      type: Tier
      members: [ broker ]
      properties:
        name: brokers
  policies:
    - grow:
        type: Scaling
        targets: [ tier ]
        properties:
          increment: 1
",
    );
}

#[test]
fn tosca2_required_values_from_any_source_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Queue:
    properties:
      depth: { type: integer }
      limit: { type: integer, default: 10 }
      note: { type: string, required: false }
node_types:
  Broker:
    capabilities:
      queue:
        type: Queue
  FixedBroker:
    derived_from: Broker
    capabilities:
      queue:
        type: Queue
        properties:
          depth: { type: integer, default: 5 }
policy_types:
  Scaling:
    properties:
      increment: { type: integer }
      cooldown: { type: integer, default: 60 }
service_template:
  node_templates:
    broker:
      type: Broker
      capabilities:
        queue:
          properties:
            depth: 3
    fixed:
      type: FixedBroker
  policies:
    - grow:
        type: Scaling
        targets: [ broker ]
        properties:
          increment: 1
",
    );
}
