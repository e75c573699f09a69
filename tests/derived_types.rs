//! What a derived TOSCA 2.0 type may write of the type lists, triggers and capabilities it
//! inherits: the allowed forms, the valid counterparts of the `type-list-2-0-*`,
//! `policy-type-2-0-trigger-changed` and `capability-def-2-0-refined-type-unrelated` bad-input
//! cases.

mod common;

use common::assert_checks_clean;

#[test]
fn tosca2_derived_types_that_narrow_their_lists_are_accepted() {
    // §8.1 Capability Type, §7.3 Relationship Type, §16.1 Group Type, §16.3 Policy Type: each
    // entry is in the parent's list or derives from one of its entries; a parent without the
    // list restricts nothing; the list is inherited through a type that does not repeat it.
    let template = "tosca_definitions_version: tosca_2_0
node_types:
  Server: {}
  WebServer: { derived_from: Server }
  Router: {}
group_types:
  Rack: {}
  SmallRack: { derived_from: Rack }
  Servers:
    members: [Server]
  WebServers:
    derived_from: Servers
    members: [WebServer]
capability_types:
  Storage: {}
  Disk: { derived_from: Storage }
  Endpoint:
    valid_source_node_types: [Server]
  Middle: { derived_from: Endpoint }
  WebEndpoint:
    derived_from: Middle
    valid_source_node_types: [WebServer, Server]
  Open: {}
  OpenChild:
    derived_from: Open
    valid_source_node_types: [Router]
relationship_types:
  AttachesTo:
    valid_capability_types: [Storage]
    valid_target_node_types: [Server]
  AttachesToDisk:
    derived_from: AttachesTo
    valid_capability_types: [Disk]
    valid_target_node_types: [WebServer]
    valid_source_node_types: [Router]
policy_types:
  Placement:
    targets: [Server, Rack]
  RackPlacement:
    derived_from: Placement
    targets: [SmallRack, WebServer]
";
    assert_checks_clean(template);
}

#[test]
fn tosca2_policy_types_add_triggers_and_may_repeat_inherited_ones() {
    // §16.3 Policy Type: "existing trigger definitions may not be changed; new trigger
    // definitions may be added". Repeating one unchanged changes nothing.
    let template = "tosca_definitions_version: tosca_2_0
policy_types:
  Scaling:
    triggers:
      on_load:
        event: high_load
        action:
          - delegate: scale_out
  FastScaling:
    derived_from: Scaling
    triggers:
      on_load:
        event: high_load
        action: [ { delegate: scale_out } ]
      on_idle:
        event: low_load
        action:
          - delegate: scale_in
";
    assert_checks_clean(template);
}

#[test]
fn tosca2_capability_refinements_keep_or_narrow_the_inherited_type() {
    // §8.2.1 Capability Refinement: `type` may be left out, repeated, or name a derived type.
    let template = "tosca_definitions_version: tosca_2_0
capability_types:
  Endpoint: {}
  SecureEndpoint: { derived_from: Endpoint }
node_types:
  Server:
    capabilities:
      web: Endpoint
      admin: { type: Endpoint }
      api: { type: Endpoint }
  SecureServer:
    derived_from: Server
    capabilities:
      web: SecureEndpoint
      admin: { type: Endpoint, description: the same type again }
      api: { description: the type is inherited }
";
    assert_checks_clean(template);
}
