//! Defaults are values of their definitions: the valid counterparts of the `default-*` bad-input
//! cases. Defaults that fit their type, constraints, `validation` and `valid_values` (also when
//! a subtype only adds a default to an inherited property, and when the default is `null`, read
//! as no default) check with no diagnostic, and land in the IR of a template that leaves the
//! property unset.

mod common;

use common::ir_clean as ir;

#[test]
fn simple_profile_defaults_that_fit_their_definitions_are_taken() {
    let ir = ir("tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Vnf:
    derived_from: tosca.nodes.Root
    properties:
      provider:
        type: string
        default: Company
        constraints:
          - valid_values: [ Company, Other ]
      size:
        type: integer
        default: 3
        constraints:
          - in_range: [ 1, 4 ]
    attributes:
      public_ip:
        type: string
        default: null
  BigVnf:
    derived_from: Vnf
    properties:
      size:
        default: 4
topology_template:
  node_templates:
    vnf:
      type: BigVnf
");
    let properties = &ir["nodes"][0]["properties"];
    assert_eq!(properties["provider"]["value"], "Company", "{properties}");
    assert_eq!(properties["size"]["value"], 4, "{properties}");
}

#[test]
fn tosca2_defaults_and_fixed_values_that_fit_their_definitions_are_taken() {
    let ir = ir("tosca_definitions_version: tosca_2_0
data_types:
  Endpoint:
    properties:
      port:
        type: integer
        default: 80
        validation: { $less_or_equal: [ $value, 65535 ] }
node_types:
  Server:
    properties:
      cpus:
        type: integer
        default: 1
        validation: { $greater_than: [ $value, 0 ] }
      arch:
        type: string
        value: amd64
        validation: { $valid_values: [ $value, [ arm64, amd64 ] ] }
      endpoint:
        type: Endpoint
        default: { port: 443 }
  BigServer:
    derived_from: Server
    properties:
      cpus:
        default: 8
service_template:
  node_templates:
    server:
      type: BigServer
");
    let properties = &ir["nodes"][0]["properties"];
    assert_eq!(properties["cpus"]["value"], 8, "{properties}");
    assert_eq!(properties["arch"]["value"], "amd64", "{properties}");
}

/// The valid counterparts of `default-*-operation-input`, `default-2-0-interface-input` and
/// `default-*-capability-refinement`: parameter defaults of their type, a plain input value
/// beside them, and a capability refinement's default within the capability type's
/// constraints, which the template's capability then holds.
#[test]
fn parameter_and_capability_refinement_defaults_that_fit_are_taken() {
    let simple = ir("tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  Queue:
    derived_from: tosca.capabilities.Root
    properties:
      depth:
        type: integer
        constraints:
          - less_or_equal: 100
interface_types:
  Deploy:
    derived_from: tosca.interfaces.Root
    inputs:
      mode: { type: string, default: fast }
    run:
      inputs:
        retries: { type: integer, default: 3 }
node_types:
  Broker:
    derived_from: tosca.nodes.Root
    capabilities:
      queue:
        type: Queue
        properties:
          depth:
            type: integer
            default: 50
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        create:
          inputs:
            retries: { type: integer, default: 2 }
            label: plain
topology_template:
  node_templates:
    broker:
      type: Broker
");
    let queue = &simple["nodes"][0]["capabilities"]["queue"]["properties"];
    assert_eq!(queue["depth"]["value"], 50, "{queue}");
    let tosca2 = ir("tosca_definitions_version: tosca_2_0
capability_types:
  Queue:
    properties:
      depth:
        type: integer
        validation: { $less_or_equal: [ $value, 100 ] }
interface_types:
  Deploy:
    inputs:
      mode:
        type: string
        validation: { $valid_values: [ $value, [ fast, safe ] ] }
        default: safe
    operations:
      run:
        inputs:
          retries: { type: integer, default: 3 }
        outputs:
          id: { type: integer, default: 0 }
node_types:
  Broker:
    capabilities:
      queue:
        type: Queue
        properties:
          depth:
            default: 50
service_template:
  node_templates:
    broker:
      type: Broker
");
    let queue = &tosca2["nodes"][0]["capabilities"]["queue"]["properties"];
    assert_eq!(queue["depth"]["value"], 50, "{queue}");
}

/// A one-line refinement `<name>: <value>` gives the property its value, so a required
/// property it sets is set: TOSCA 2.0 reads it as the fixed `value` (§9.4 Property Definition),
/// a 1.x type as its default; in a node type's properties and in its capability definition's.
#[test]
fn one_line_refinements_give_required_properties_their_value() {
    // A Simple Profile node type derives from tosca.nodes.Root (SP-TYPE-08); TOSCA 2.0 has no
    // root type without a profile.
    for (version, topology, root) in [
        (
            "tosca_simple_yaml_1_3",
            "topology_template",
            "derived_from: tosca.nodes.Root",
        ),
        ("tosca_2_0", "service_template", "description: a box"),
    ] {
        let ir = ir(&format!(
            "tosca_definitions_version: {version}
capability_types:
  Sized:
    properties:
      size:
        type: integer
node_types:
  Box:
    {root}
    properties:
      size:
        type: integer
    capabilities:
      room:
        type: Sized
        properties:
          size: 2
  SmallBox:
    derived_from: Box
    properties:
      size: 1
{topology}:
  node_templates:
    box:
      type: SmallBox
"
        ));
        let node = &ir["nodes"][0];
        assert_eq!(node["properties"]["size"]["value"], 1, "{version}: {node}");
        let room = &node["capabilities"]["room"]["properties"]["size"];
        assert_eq!(room["value"], 2, "{version}: {node}");
    }
}
