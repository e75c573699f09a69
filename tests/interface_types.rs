//! Operations are implemented where an interface is used, not where its type is declared: the
//! valid counterparts of the `interface-type-*` bad-input cases. An interface type that only
//! declares its operations, used by a node type that implements them, checks with no error.

mod common;

use common::toscana;

fn accepted(text: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, text).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("scripts/backup.sh"), "#!/bin/sh\n").unwrap();
    let out = toscana().arg("check").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(
        out.status.success() && !stderr.contains("error"),
        "{stderr}"
    );
}

#[test]
fn simple_profile_operations_are_implemented_where_the_interface_is_used() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_0
interface_types:
  example.interfaces.Backup:
    derived_from: tosca.interfaces.Root
    run:
      description: takes a backup
node_types:
  example.nodes.Database:
    derived_from: tosca.nodes.Root
    interfaces:
      Backup:
        type: example.interfaces.Backup
        run:
          implementation: scripts/backup.sh
",
    );
}

#[test]
fn tosca2_operations_are_implemented_where_the_interface_is_used() {
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    operations:
      run:
        description: takes a backup
node_types:
  Database:
    interfaces:
      backup:
        type: Backup
        operations:
          run:
            implementation: scripts/backup.sh
",
    );
}

#[test]
fn simple_profile_templates_may_pass_operation_inputs_no_definition_declares() {
    // A.5.11.3 Additional requirements: a template's operation may assign inputs its interface type
    // does not define; that is not an error (the orchestrator passes them on).
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      interfaces:
        Standard:
          create:
            implementation: scripts/backup.sh
            inputs:
              retries: 3
",
    );
}
