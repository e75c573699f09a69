//! Required properties of capabilities, groups and policies: the valid counterparts of the
//! `required-*` and `policy-*` bad-input cases. A required property may get its value from the
//! type's `default`, from a node type's refinement of its capability definition, or from the
//! template's assignment; an optional one may stay unset. Each file checks with no diagnostic.
//! The same holds for the required inputs of interfaces and operations
//! (`interface-*-required-input-unset`) and of the operations imperative workflows call
//! (`workflow-*-call-operation-input-unset`).

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

/// `text` as `t.yaml` beside empty `scripts`, checked with no diagnostic: the operations'
/// implementations exist.
fn accepted_beside_scripts(text: &str, scripts: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    for script in scripts {
        std::fs::write(dir.path().join(script), "#!/bin/sh\n").unwrap();
    }
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, text).unwrap();
    let out = common::toscana().arg("check").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("valid (0 warnings)") && !stderr.contains("error["),
        "{stderr}"
    );
}

/// The valid counterparts of `interface-*-required-input-unset`: a required operation or
/// interface input gets its value from its definition's `default` or `value`, from the
/// template's assignment at interface or operation level, or from the workflow that calls the
/// operation; an optional input and the inputs of an operation with no implementation may stay
/// unset.
#[test]
fn tosca2_required_interface_inputs_from_any_source_are_accepted() {
    accepted_beside_scripts(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Deploy:
    inputs:
      region: { type: string }
    operations:
      run:
        inputs:
          target: { type: string }
          retries: { type: integer, default: 3 }
          mode: { type: string, value: fast }
          note: { type: string, required: false }
      stop:
        inputs:
          force: { type: boolean }
      drain:
        inputs:
          grace: { type: integer }
node_types:
  App:
    interfaces:
      deploy:
        type: Deploy
        operations:
          run:
            implementation: run.sh
          drain:
            implementation: drain.sh
service_template:
  node_templates:
    app:
      type: App
      interfaces:
        deploy:
          inputs:
            region: eu
          operations:
            run:
              inputs:
                target: prod
  workflows:
    maintain:
      steps:
        drain_app:
          target: app
          activities:
            - call_operation:
                operation: deploy.drain
                inputs:
                  grace: 30
",
        &["run.sh", "drain.sh"],
    );
}

#[test]
fn simple_profile_required_interface_inputs_from_any_source_are_accepted() {
    accepted_beside_scripts(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    derived_from: tosca.nodes.Root
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        inputs:
          db_name: { type: string }
          db_port: { type: integer, default: 5432 }
        create:
          implementation: create.sh
        configure:
          inputs:
            level: { type: string }
topology_template:
  node_templates:
    app:
      type: App
      interfaces:
        Standard:
          create:
            inputs:
              db_name: shop
",
        &["create.sh"],
    );
}

/// The valid counterpart of `workflow-1-x-call-operation-input-unset`: an imperative
/// workflow's `call_operation` is given each required input of the operation by the activity's
/// `inputs` (Simple Profile 1.3's extended form), by the node template's interface assignment,
/// by a default, or by a value the node type assigns in place of a definition; an optional
/// input may stay unset; the short form calls an operation whose inputs all have defaults.
#[test]
fn simple_profile_workflow_calls_given_their_inputs_are_accepted() {
    accepted_beside_scripts(
        "tosca_definitions_version: tosca_simple_yaml_1_3
interface_types:
  Backup:
    derived_from: tosca.interfaces.Root
    operations:
      backup:
        inputs:
          location: { type: string }
          retries: { type: integer, required: false }
      restore:
        inputs:
          from: { type: string, default: here }
node_types:
  Entity:
    derived_from: tosca.nodes.Root
    properties:
      port: { type: integer, default: 1 }
    interfaces:
      backup:
        type: Backup
        operations:
          backup:
            inputs:
              name: { type: string }
              port: { get_property: [ SELF, port ] }
            implementation: backup.sh
          restore: restore.sh
topology_template:
  node_templates:
    client:
      type: Entity
      interfaces:
        backup:
          operations:
            backup:
              inputs:
                location: there
  workflows:
    run:
      steps:
        one:
          target: client
          activities:
            - call_operation:
                operation: backup.backup
                inputs:
                  name: nightly
            - call_operation: backup.restore
",
        &["backup.sh", "restore.sh"],
    );
}
