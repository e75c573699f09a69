//! The valid counterparts of the bad-input cases the TOSCA 2.0 meaning-mutation hunt added
//! (`tests/bad_input/hunt4-*`, issue 25): what each new rule must go on accepting. Each file
//! checks with no diagnostic.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn workflow_get_input_names_a_workflow_or_a_service_template_input() {
    // §10.2.1.1 $get_input, §13.2 Imperative Workflows: a workflow may read its own inputs and
    // the service template's; the operation is named as <interface>.<operation>, in the short
    // and the extended notation (§13.2.3.3 Call Operation Activity Definition).
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    operations:
      backup:
        inputs:
          location:
            type: string
          label:
            type: string
      verify: {}
node_types:
  Entity:
    interfaces:
      backup:
        type: Backup
service_template:
  inputs:
    site:
      type: string
  node_templates:
    client:
      type: Entity
  workflows:
    backup:
      inputs:
        destination:
          type: string
      steps:
        backup_client:
          target: client
          activities:
            - call_operation:
                operation: backup.backup
                inputs:
                  location: { $get_input: destination }
                  label: { $concat: [ { $get_input: site }, -backup ] }
            - call_operation: backup.verify
",
    );
}

#[test]
fn simple_profile_workflow_get_input_names_a_workflow_or_a_topology_input() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Server:
    derived_from: tosca.nodes.Root
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        configure:
          inputs:
            port:
              type: integer
              required: false
            retries:
              type: integer
              required: false
topology_template:
  inputs:
    port:
      type: integer
  node_templates:
    web:
      type: Server
  workflows:
    configure_all:
      inputs:
        retries:
          type: integer
      steps:
        configure_web:
          target: web
          activities:
            - call_operation:
                operation: Standard.configure
                inputs:
                  port: { get_input: port }
                  retries: { get_input: retries }
",
    );
}

#[test]
fn get_input_paths_into_unbound_inputs_follow_their_types() {
    // §10.2.1.1 $get_input: nested names dereference a complex input, indexes a list; a data
    // type derived from a primitive, a map's keys and a `$node_index` are left to the value.
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Net:
    properties:
      name:
        type: string
      ports:
        type: list
        entry_schema: integer
      labels:
        type: map
        entry_schema: string
  Short:
    derived_from: string
node_types:
  Worker:
    properties:
      name:
        type: string
      port:
        type: integer
      label:
        type: string
      site:
        type: string
      short:
        type: string
service_template:
  inputs:
    net:
      type: Net
    sites:
      type: list
      entry_schema: string
    short:
      type: Short
  node_templates:
    w:
      type: Worker
      properties:
        name: { $get_input: [ net, name ] }
        port: { $get_input: [ net, ports, 0 ] }
        label: { $get_input: [ net, labels, tier ] }
        site: { $get_input: [ sites, $node_index ] }
        short: { $get_input: short }
",
    );
}

#[test]
fn validation_clauses_comparing_lengths_with_numbers_and_scalars_with_scalars_are_accepted() {
    // §10.2.3.1 $length yields an integer, of a string, list or map; a scalar is compared with
    // scalars written with their unit (§9.1.2.2 scalar), in any operand order.
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  ShortString:
    derived_from: string
    validation: { $less_or_equal: [ { $length: [ $value ] }, 10 ] }
  Length:
    derived_from: scalar
    units:
      m: 1.0
      cm: 0.01
node_types:
  Box:
    properties:
      name:
        type: ShortString
      width:
        type: Length
        validation:
          $and:
            - { $less_than: [ $value, 15 cm ] }
            - { $greater_or_equal: [ 1 cm, 1 cm ] }
            - { $valid_values: [ $value, [ 10 cm, 12 cm ] ] }
      tags:
        type: list
        entry_schema: string
        validation: { $greater_or_equal: [ 1, { $length: [ $value ] } ] }
service_template:
  node_templates:
    box:
      type: Box
      properties:
        name: crate
        width: 12 cm
        tags: [ fragile ]
",
    );
}

#[test]
fn workflow_and_trigger_conditions_that_name_what_exists_are_accepted() {
    // §13.2.1 Workflow Precondition Definition, §13.2.2 step `filter`, §16.5 Trigger Definition:
    // Boolean expressions whose paths from named templates lead to attributes, properties and
    // capabilities their types define; a path from `SELF` is left to the orchestrator, and a
    // workflow's inputs are typed parameter definitions.
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Host:
    properties:
      cpus:
        type: integer
        required: false
interface_types:
  Standard:
    operations:
      create: {}
      start: {}
node_types:
  Compute:
    properties:
      size:
        type: integer
    attributes:
      load:
        type: float
    capabilities:
      host: Host
    interfaces:
      Standard:
        type: Standard
policy_types:
  Scaling:
    targets: [ Compute ]
service_template:
  node_templates:
    server:
      type: Compute
      properties:
        size: 2
  policies:
    - scale:
        type: Scaling
        targets: [ server ]
        triggers:
          overload:
            event: load_high
            condition:
              $and:
                - { $greater_than: [ { $get_attribute: [ server, load ] }, 0.8 ] }
                - { $less_than: [ { $get_property: [ server, size ] }, 10 ] }
            action:
              - call_operation: Standard.start
  workflows:
    deploy:
      inputs:
        retries:
          type: integer
          default: 3
      precondition: { $greater_or_equal: [ { $get_property: [ server, CAPABILITY, host, cpus ] }, 1 ] }
      steps:
        create:
          target: server
          filter:
            - { $equal: [ { $get_attribute: [ SELF, state ] }, initial ] }
          activities:
            - call_operation: Standard.create
",
    );
}

#[test]
fn node_type_output_mappings_onto_what_the_type_defines_are_accepted() {
    // §9.8 Parameter Definition: an incoming parameter's `mapping`, or its single-line form,
    // names an attribute (or a property, reflected as one) of the node, its capability's too.
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Endpoint:
    attributes:
      url:
        type: string
interface_types:
  Standard:
    operations:
      create:
        outputs:
          id:
            type: string
          port:
            type: integer
          url:
            type: string
node_types:
  Compute:
    properties:
      port:
        type: integer
        required: false
    attributes:
      server_id:
        type: string
    capabilities:
      endpoint: Endpoint
    interfaces:
      Standard:
        type: Standard
        operations:
          create:
            outputs:
              id: [ SELF, server_id ]
              port: { mapping: [ SELF, port ] }
              url: [ SELF, CAPABILITY, endpoint, url ]
service_template:
  node_templates:
    server:
      type: Compute
",
    );
}

#[test]
fn type_interface_inputs_reading_what_the_type_defines_are_accepted() {
    // §11.4 Operation Definition: a node or relationship type's input values may read what is
    // accessible from SELF: the type chain's properties and attributes, a capability's, a
    // relationship's ends; `$get_input` names the inputs of whichever service template uses
    // the type, which a type does not know. No template uses these types.
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Endpoint:
    properties:
      protocol:
        type: string
        default: tcp
interface_types:
  Standard:
    inputs:
      host:
        type: string
    operations:
      configure:
        inputs:
          port:
            type: integer
  Configure:
    operations:
      pre_configure_source: {}
node_types:
  Base:
    properties:
      port:
        type: integer
        default: 80
  Server:
    derived_from: Base
    attributes:
      address:
        type: string
    capabilities:
      endpoint: Endpoint
    interfaces:
      Standard:
        type: Standard
        inputs:
          host: { $get_attribute: [ SELF, address ] }
        operations:
          configure:
            inputs:
              port:
                type: integer
                value: { $get_property: [ SELF, port ] }
              protocol:
                type: string
                value: { $get_property: [ SELF, CAPABILITY, endpoint, protocol ] }
              site:
                type: string
                value: { $get_input: site }
relationship_types:
  ConnectsTo:
    properties:
      weight:
        type: integer
        default: 1
    interfaces:
      Configure:
        type: Configure
        operations:
          pre_configure_source:
            inputs:
              weight:
                type: integer
                value: { $get_property: [ SELF, weight ] }
              target_port:
                type: integer
                value: { $get_property: [ SELF, TARGET, port ] }
",
    );
}

#[test]
fn simple_profile_type_interface_inputs_reading_what_the_type_defines_are_accepted() {
    // A.5.11 Operation definition, B.4.2 get_property, B.5.1 get_attribute, B.1 Reserved
    // Function Keywords: a type's inputs read the type chain's properties and attributes (the
    // normative Root's `tosca_id` too), a capability's, through a requirement, from HOST; a
    // relationship type's from SOURCE and TARGET; `get_input` names the inputs of whichever
    // service template uses the type. No template uses these types.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  my.capabilities.Endpoint:
    derived_from: tosca.capabilities.Root
    properties:
      protocol:
        type: string
        default: tcp
node_types:
  my.nodes.Base:
    derived_from: tosca.nodes.Root
    properties:
      port:
        type: integer
        default: 80
  my.nodes.Server:
    derived_from: my.nodes.Base
    attributes:
      address:
        type: string
    capabilities:
      endpoint: my.capabilities.Endpoint
      admin:
        type: my.capabilities.Endpoint
        properties:
          realm:
            type: string
            required: false
    requirements:
      - database:
          capability: tosca.capabilities.Endpoint.Database
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        inputs:
          host: { get_attribute: [ SELF, address ] }
          id: { get_attribute: [ SELF, tosca_id ] }
        configure:
          inputs:
            port:
              type: integer
              default: { get_property: [ SELF, port ] }
            protocol: { get_property: [ SELF, endpoint, protocol ] }
            realm: { get_property: [ SELF, admin, realm ] }
            db_name: { get_property: [ SELF, database, name ] }
            host_cpus: { get_property: [ HOST, host, num_cpus ] }
            site: { concat: [ { get_input: site }, /, { get_property: [ SELF, port ] } ] }
relationship_types:
  my.relationships.ConnectsTo:
    derived_from: tosca.relationships.ConnectsTo
    properties:
      weight:
        type: integer
        default: 1
    interfaces:
      Configure:
        type: tosca.interfaces.relationship.Configure
        pre_configure_source:
          inputs:
            weight: { get_property: [ SELF, weight ] }
            target_port: { get_property: [ TARGET, port ] }
            source_ip: { get_attribute: [ SOURCE, private_address ] }
",
    );
}
