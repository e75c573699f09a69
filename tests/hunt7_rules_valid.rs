//! The valid counterparts of the bad-input cases the second TOSCA 2.0 meaning hunt added
//! (`tests/bad_input/hunt7-*`, issue 25): what each new rule must go on accepting. Each file
//! checks with no diagnostic.

mod common;

use common::assert_checks_clean as accepted;

/// A workflow `archive` that `nightly` inlines; `INLINE` is the inline activity.
fn inlining(inline: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    operations:
      backup: {{}}
node_types:
  Entity:
    interfaces:
      backup:
        type: Backup
service_template:
  node_templates:
    client:
      type: Entity
  workflows:
    archive:
      inputs:
        location:
          type: string
        retries:
          type: float
          required: false
        label:
          type: string
          default: nightly
      steps:
        archive_client:
          target: client
          activities:
            - call_operation: backup.backup
    nightly:
      inputs:
        site:
          type: string
        attempts:
          type: integer
      steps:
        nightly_client:
          target: client
          activities:
{inline}"
    )
}

#[test]
fn inline_passes_the_inputs_the_inlined_workflow_defines() {
    // §13.2.3.4 Inline Workflow Activity Definition: the inputs are assignments for the inlined
    // workflow's parameters; a literal, a function, or a workflow input of a type that fits (an
    // integer for a float, §9.1.1 Primitive Types); inputs with a default or `required: false`
    // may be left out.
    for inline in [
        "            - inline:
                workflow: archive
                inputs:
                  location: { $get_input: site }
                  retries: { $get_input: attempts }
",
        "            - inline:
                workflow: archive
                inputs:
                  location: /backups
                  label: { $concat: [ { $get_input: site }, -weekly ] }
                  retries: 3
",
    ] {
        accepted(&inlining(inline));
    }
}

#[test]
fn inline_and_delegate_in_both_notations() {
    // §13.2.3: the short notation names what runs; the extended one under `workflow` or
    // `operation`. A workflow that defines no required inputs is inlined in the short form
    // (one that inlines itself, as the OASIS snippet s122 does, is accepted with a cycle
    // warning: case hunt8-workflow-2-0-inline-cycle).
    let text = inlining(
        "            - inline:
                workflow: archive
                inputs:
                  location: here
            - delegate: deploy
            - delegate:
                workflow: deploy
            - call_operation:
                operation: backup.backup
    quiet:
      steps:
        again:
          target: client
          activities:
            - inline: tidy
    tidy:
      steps:
        tidy_client:
          target: client
          activities:
            - call_operation: backup.backup
",
    );
    accepted(&text);
}

#[test]
fn conditions_in_substitution_filters_and_step_filters() {
    // §15.1 Substitution Mapping: `substitution_filter` is a condition clause, `SELF` the
    // substituted node; §13.2.2: a step's `filter` is a list of condition clauses.
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    operations:
      backup: {}
node_types:
  Database:
    properties:
      size:
        type: integer
  Volume:
    properties:
      size:
        type: integer
    attributes:
      ready:
        type: boolean
    interfaces:
      backup:
        type: Backup
service_template:
  inputs:
    size:
      type: integer
  substitution_mappings:
    node_type: Database
    substitution_filter:
      $and:
        - { $greater_than: [ { $get_property: [ SELF, size ] }, 10 ] }
        - { $less_or_equal: [ { $get_property: [ SELF, size ] }, 1000 ] }
    properties:
      size: size
  node_templates:
    volume:
      type: Volume
      properties:
        size: { $get_input: size }
  workflows:
    archive:
      steps:
        archive_volume:
          target: volume
          filter:
            - { $equal: [ { $get_attribute: [ volume, ready ] }, true ] }
          activities:
            - call_operation: backup.backup
",
    );
}

#[test]
fn operations_and_notifications_each_in_their_own_section() {
    // §11.4-§11.7: a type refines, and a template assigns, an operation under `operations` and a
    // notification under `notifications`; the Simple Profile writes operations directly under
    // the interface too.
    accepted(
        "tosca_definitions_version: tosca_2_0
artifact_types:
  Script: {}
interface_types:
  Lifecycle:
    operations:
      start: {}
    notifications:
      started:
        outputs:
          address:
            type: string
node_types:
  Server:
    attributes:
      address:
        type: string
    interfaces:
      lifecycle:
        type: Lifecycle
        notifications:
          started:
            outputs:
              address:
                mapping: [ SELF, address ]
service_template:
  node_templates:
    server:
      type: Server
      artifacts:
        run:
          type: Script
          file: https://example.com/run.sh
      interfaces:
        lifecycle:
          operations:
            start: run
          notifications:
            started: run
",
    );
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
interface_types:
  Lifecycle:
    derived_from: tosca.interfaces.Root
    start:
      description: started directly under the interface
    notifications:
      started: {}
node_types:
  Server:
    derived_from: tosca.nodes.Root
    interfaces:
      lifecycle:
        type: Lifecycle
topology_template:
  node_templates:
    server:
      type: Server
      interfaces:
        lifecycle:
          start: https://example.com/run.sh
          notifications:
            started: https://example.com/watch.sh
",
    );
}

#[test]
fn values_on_outgoing_parameters_and_mappings_on_incoming_ones() {
    // §9.8 Parameter Definition: template outputs and operation inputs (outgoing) carry
    // `value`; template inputs, operation and notification outputs (incoming) carry `mapping`,
    // in full or short form; a template input has a `default`.
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Lifecycle:
    inputs:
      verbose:
        type: boolean
        value: false
    operations:
      create:
        inputs:
          retries:
            type: integer
        outputs:
          id:
            type: string
    notifications:
      moved:
        outputs:
          address:
            type: string
node_types:
  Server:
    properties:
      port:
        type: integer
    attributes:
      id:
        type: string
      address:
        type: string
    interfaces:
      lifecycle:
        type: Lifecycle
        operations:
          create:
            inputs:
              retries:
                value: 3
            outputs:
              id:
                mapping: [ SELF, id ]
        notifications:
          moved:
            outputs:
              address: [ SELF, address ]
service_template:
  inputs:
    port:
      type: integer
      default: 8080
  node_templates:
    server:
      type: Server
      properties:
        port: { $get_input: port }
  outputs:
    server_id:
      type: string
      value: { $get_attribute: [ server, id ] }
",
    );
}

#[test]
fn group_attributes_its_type_defines_or_reflects_and_trigger_action_lists() {
    // §9.7 Attribute Assignment: an attribute the group type defines, or a property reflected
    // as one; §16.5 Trigger Definition: `action` is a list of activities.
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    operations:
      start_backup: {}
node_types:
  Server:
    interfaces:
      backup:
        type: Backup
group_types:
  Redundant:
    members: [ Server ]
    properties:
      leader:
        type: string
        required: false
    attributes:
      healthy:
        type: boolean
policy_types:
  Backups:
    targets: [ Server, Redundant ]
service_template:
  node_templates:
    a:
      type: Server
    b:
      type: Server
  groups:
    pair:
      type: Redundant
      members: [ a, b ]
      attributes:
        healthy: true
        leader: a
  policies:
    - nightly:
        type: Backups
        targets: [ a, pair ]
        triggers:
          power_failure:
            event: power-failure
            action:
              - call_operation: backup.start_backup
",
    );
}

#[test]
fn refinements_that_keep_or_narrow_interface_and_schema_types() {
    // §11.2 Interface Definition: a derived type's interface names the inherited type, one
    // derived from it, or none; §9.3 Schema Definition: a refined schema's type derives from
    // the inherited one, whether the property restates its `type` or not, in a property or in
    // a data type derived from a list type.
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Port:
    derived_from: integer
  Ports:
    derived_from: list
    entry_schema: integer
  WellKnownPorts:
    derived_from: Ports
    entry_schema: Port
interface_types:
  Lifecycle:
    operations:
      create: {}
  TimedLifecycle:
    derived_from: Lifecycle
    operations:
      create:
        description: created within a deadline
node_types:
  Server:
    properties:
      ports:
        type: list
        entry_schema: integer
        required: false
    interfaces:
      lifecycle:
        type: Lifecycle
  WebServer:
    derived_from: Server
    properties:
      ports:
        entry_schema: Port
    interfaces:
      lifecycle:
        type: TimedLifecycle
  AppServer:
    derived_from: WebServer
    interfaces:
      lifecycle:
        operations:
          create:
            description: refined without restating the type
",
    );
}

#[test]
fn capability_attributes_its_type_defines_or_reflects() {
    // §8.3 Capability Assignment, §9.7 Attribute Assignment: an attribute of the capability type,
    // or a property reflected as an attribute.
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Socket:
    properties:
      port:
        type: integer
    attributes:
      address:
        type: string
node_types:
  Database:
    capabilities:
      socket:
        type: Socket
service_template:
  node_templates:
    db:
      type: Database
      capabilities:
        socket:
          properties:
            port: 5432
          attributes:
            address: 10.0.0.5
            port: 5432
",
    );
}

#[test]
fn artifact_properties_of_their_types() {
    // §12.2 Artifact Definition: property assignments typed by the artifact type's definitions;
    // a type that defines none (the spec's own `sw-image` example assigns `name`, `size`, ...
    // to a profile type that defines none) takes what it is given.
    accepted(
        "tosca_definitions_version: tosca_2_0
artifact_types:
  Image:
    properties:
      disk_format:
        type: string
      min_disk:
        type: integer
        required: false
      container_format:
        type: string
        default: BARE
  Archive: {}
node_types:
  VM:
    artifacts:
      image:
        type: Image
        file: https://example.com/images/vm.qcow2
        properties:
          disk_format: QCOW2
          min_disk: 1
      bundle:
        type: Archive
        file: https://example.com/bundle.zip
        properties:
          name: vSRX
          size: 649 MB
service_template:
  node_templates:
    vm:
      type: VM
",
    );
}

#[test]
fn call_operation_literals_of_the_input_types() {
    // §9.9 Parameter Value Assignment: a literal of the input's type (an integer where a float
    // is defined), or a function, judged when the workflow runs.
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Maintenance:
    operations:
      rotate_logs:
        inputs:
          keep_days:
            type: integer
          ratio:
            type: float
          label:
            type: string
node_types:
  Server:
    properties:
      name:
        type: string
    interfaces:
      maintenance:
        type: Maintenance
service_template:
  node_templates:
    web:
      type: Server
      properties:
        name: web
  workflows:
    housekeeping:
      steps:
        rotate:
          target: web
          activities:
            - call_operation:
                operation: maintenance.rotate_logs
                inputs:
                  keep_days: 7
                  ratio: 1
                  label: { $concat: [ { $get_property: [ web, name ] }, -logs ] }
",
    );
}

#[test]
fn workflow_outputs_map_onto_attributes_of_templates() {
    // §13.2 Imperative Workflows: `outputs` map onto attributes of a node of the service, in
    // the short form or as a definition's `mapping`.
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    operations:
      backup: {}
node_types:
  Database:
    attributes:
      last_backup:
        type: string
    interfaces:
      backup:
        type: Backup
service_template:
  node_templates:
    db:
      type: Database
  workflows:
    nightly:
      outputs:
        archive: [ db, last_backup ]
        again:
          mapping: [ db, last_backup ]
      steps:
        backup_db:
          target: db
          activities:
            - call_operation: backup.backup
",
    );
}

#[test]
fn workflow_inputs_by_direction() {
    // §9.8 Parameter Definition: an internal workflow's inputs are incoming (a `default`, no
    // `value`); an external workflow's are outgoing, and may carry a `value`.
    accepted(
        "tosca_definitions_version: tosca_2_0
artifact_types:
  Bpmn: {}
interface_types:
  Backup:
    operations:
      backup: {}
node_types:
  Database:
    interfaces:
      backup:
        type: Backup
service_template:
  node_templates:
    db:
      type: Database
  workflows:
    nightly:
      inputs:
        retention_days:
          type: integer
          default: 7
      steps:
        backup_db:
          target: db
          activities:
            - call_operation: backup.backup
    weekly:
      inputs:
        retention_days:
          type: integer
          value: 30
      implementation:
        primary:
          type: Bpmn
          file: https://example.com/weekly.bpmn
",
    );
}
