//! The valid counterparts of the `workflow-*`, `group-*-member-type-not-admitted`,
//! `policy-*-target-type-not-admitted` and `trigger-2-0-action-missing` bad-input cases: a
//! workflow whose steps name existing nodes, groups, requirements, steps and workflows, whose
//! activities are one-entry maps of the four kinds, and groups and policies whose members and
//! targets are of (or derived from) the types their types list, and TOSCA 2.0 substitution
//! mappings whose names resolve (`substitution-2-0-*`), and Simple Profile requirements that
//! name target templates their relationship types admit (`requirement-1-x-target-not-admitted`).
//! Each file checks with no
//! diagnostic, in TOSCA 2.0 and the Simple Profile 1.3 alike.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn tosca2_workflow_names_that_resolve_are_accepted() {
    // §13.2.2 Workflow Step Definition, §13.2.3 Activity Definition, §16.2 Group Definition,
    // §16.4 Policy Definition, §16.5 Trigger Definition.
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Lifecycle:
    operations:
      start: {}
    notifications:
      overload: {}
capability_types:
  Storage: {}
node_types:
  Server:
    interfaces:
      life:
        type: Lifecycle
    requirements:
      - storage:
          capability: Storage
          count_range: [0, 1]
  BigServer:
    derived_from: Server
  Disk:
    capabilities:
      storage:
        type: Storage
group_types:
  Servers:
    members: [ Server ]
policy_types:
  Placement:
    targets: [ Server, Servers ]
  Anything: {}
service_template:
  node_templates:
    web:
      type: Server
    big:
      type: BigServer
    data:
      type: Disk
  groups:
    servers:
      type: Servers
      members: [ web, big ]
  policies:
    - near:
        type: Placement
        targets: [ big, servers ]
    - scale:
        type: Anything
        targets: [ data ]
        triggers:
          overload:
            event: Lifecycle.overload
            action:
              - call_operation: life.start
  workflows:
    prepare:
      steps:
        mark:
          target: servers
          activities:
            - set_state: preparing
    start_all:
      steps:
        attach:
          target: web
          target_relationship: storage
          activities:
            - set_state: attaching
          on_success: start_web
          on_failure: [ failed ]
        start_web:
          target: web
          activities:
            - inline: prepare
            - inline: { workflow: prepare }
            - call_operation: life.start
            - delegate: deploy
        failed:
          target: big
          activities:
            - set_state: error
",
    );
}

#[test]
fn simple_profile_workflow_names_that_resolve_are_accepted() {
    // Simple Profile 1.3: workflow step and activity definitions, group and policy types'
    // `members` and `targets`.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Server:
    derived_from: tosca.nodes.Root
group_types:
  Servers:
    derived_from: tosca.groups.Root
    members: [ Server ]
policy_types:
  ServerPlacement:
    derived_from: tosca.policies.Placement
    targets: [ Server ]
topology_template:
  node_templates:
    web:
      type: Server
  groups:
    servers:
      type: Servers
      members: [ web ]
  policies:
    - near:
        type: ServerPlacement
        targets: [ web ]
  workflows:
    start_all:
      steps:
        start_web:
          target: web
          activities:
            - call_operation: Standard.start
            - set_state: started
          on_success:
            - started
        started:
          target: servers
          activities:
            - delegate: deploy
",
    );
}

#[test]
fn tosca2_substitution_mappings_that_resolve_are_accepted() {
    // §15.2 Property Mapping, §15.3 Attribute Mapping, §15.6 Interface Mapping: the valid
    // counterpart of the `substitution-2-0-*` cases. Every required input without a default is
    // mapped, each onto a property of its type; an optional input and one with a default need no
    // mapping; a property counts as an attribute.
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Lifecycle:
    operations:
      start: {}
  Managed:
    derived_from: Lifecycle
capability_types:
  Endpoint:
    properties:
      protocol: { type: string, required: false }
node_types:
  Database:
    properties:
      port: { type: integer }
      name: { type: string }
    attributes:
      address: { type: string }
    capabilities:
      endpoint: { type: Endpoint }
    interfaces:
      life: { type: Managed }
  Engine:
    capabilities:
      endpoint: { type: Endpoint }
service_template:
  inputs:
    port: { type: integer }
    db_name: { type: string }
    protocol: { type: string, default: tcp }
    note: { type: string, required: false }
  node_templates:
    engine: { type: Engine }
  outputs:
    address: { type: string, value: 10.0.0.1 }
    db: { type: string, value: { $get_input: db_name } }
  workflows:
    boot:
      steps:
        up:
          target: engine
          activities:
            - set_state: started
  substitution_mappings:
    node_type: Database
    properties:
      port: port
      name: db_name
      [ CAPABILITY, endpoint, protocol ]: protocol
    attributes:
      address: address
      name: db
    capabilities:
      endpoint: [ engine, endpoint ]
    interfaces:
      life:
        start: boot
",
    );
}

#[test]
fn simple_profile_get_attribute_reads_a_reflected_property() {
    // A.5.7.1.1 Attribute and Property reflection: every property of a node is also an
    // attribute of the same name, so `get_attribute` of `name` (a property of
    // tosca.nodes.Database, no attribute) resolves (the spec's ex026 reads so).
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
    dbms:
      type: tosca.nodes.DBMS
      requirements: [ { host: server } ]
    db:
      type: tosca.nodes.Database
      properties: { name: orders }
      requirements: [ { host: dbms } ]
  outputs:
    db_name:
      value: { get_attribute: [ db, name ] }
",
    );
}

/// The valid counterparts of the `function-1-x-get-*-unknown` cases: `get_artifact` of an
/// artifact the template has (its own or its type's), `get_operation_output` of an operation
/// the interface type declares (implemented or not) and of a relationship template or
/// `SOURCE`/`TARGET` (not judged), and `get_nodes_of_type` of a node type by its full name and
/// by its shorthand check clean (B.6.1, B.7.1, B.8.1).
#[test]
fn simple_profile_function_targets_that_exist_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("install.sh"), "#!/bin/sh\n").unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  example.App:
    derived_from: tosca.nodes.SoftwareComponent
    artifacts:
      setup:
        type: tosca.artifacts.File
        file: install.sh
topology_template:
  node_templates:
    app:
      type: example.App
      requirements:
        - host: server
      artifacts:
        installer:
          type: tosca.artifacts.File
          file: install.sh
      interfaces:
        Standard:
          create:
            implementation: install.sh
            inputs:
              package: { get_artifact: [ SELF, installer ] }
              setup: { get_artifact: [ SELF, setup ] }
              key: { get_operation_output: [ server, Standard, create, public_key ] }
    server:
      type: tosca.nodes.Compute
  outputs:
    started: { value: { get_operation_output: [ app, Standard, start, pid ] } }
    servers: { value: { get_nodes_of_type: tosca.nodes.Compute } }
    computes: { value: { get_nodes_of_type: Compute } }
",
    )
    .unwrap();
    let out = common::toscana().arg("check").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(
        out.status.success() && !stderr.contains("error"),
        "{stderr}"
    );
}

/// The valid counterpart of `requirement-1-x-target-not-admitted`: requirements naming their
/// target templates, where the relationship type's `valid_target_types` admit the capability
/// connected to (directly and by derivation), and a relationship type with no list of its own,
/// which admits what its parent's does (A.6.9.1 Relationship Type Keynames); the capability's
/// `valid_source_types` admit the source (A.6.1.1 Capability definition Keynames).
#[test]
fn simple_profile_named_targets_both_ends_admit_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
relationship_types:
  ConnectsToDatabase:
    derived_from: tosca.relationships.ConnectsTo
    valid_target_types: [ tosca.capabilities.Endpoint.Database ]
capability_types:
  Queries:
    derived_from: tosca.capabilities.Endpoint.Database
    valid_source_types: [ tosca.nodes.WebApplication ]
node_types:
  Store:
    derived_from: tosca.nodes.Root
    capabilities:
      queries: Queries
  Shop:
    derived_from: tosca.nodes.WebApplication
    requirements:
      - store: { capability: Queries, relationship: ConnectsToDatabase }
      - reports: { capability: tosca.capabilities.Endpoint, relationship: ConnectsToDatabase }
      - any: { capability: tosca.capabilities.Endpoint, relationship: tosca.relationships.ConnectsTo }
topology_template:
  node_templates:
    shop:
      type: Shop
      requirements:
        - host: web
        - store: store
        - reports: database
        - any: web
    store:
      type: Store
    database:
      type: tosca.nodes.Database
      properties: { name: shop }
      requirements:
        - host: dbms
    dbms:
      type: tosca.nodes.DBMS
      requirements:
        - host: server
    web:
      type: tosca.nodes.WebServer
      requirements:
        - host: server
    server:
      type: tosca.nodes.Compute
",
    );
}

/// The valid counterpart of `function-1-x-host-in-output` and
/// `function-1-x-source-outside-relationship`: SOURCE and TARGET in a requirement's
/// relationship, and HOST in a hosted node's own interface, check clean (A.4.1 Reserved
/// Function Keywords).
#[test]
fn simple_profile_function_keywords_where_they_mean_something_are_accepted() {
    common::assert_checks_clean(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: server
            relationship:
              type: tosca.relationships.HostedOn
              interfaces:
                Configure:
                  pre_configure_source:
                    implementation: https://example.com/pre.sh
                    inputs:
                      from: { get_attribute: [ SOURCE, state ] }
                      to: { get_attribute: [ TARGET, private_address ] }
      interfaces:
        Standard:
          configure:
            implementation: https://example.com/configure.sh
            inputs:
              address: { get_attribute: [ HOST, private_address ] }
  outputs:
    address: { value: { get_attribute: [ server, private_address ] } }
",
    );
}
