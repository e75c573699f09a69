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

/// An operation's implementation is overridden, never merged: a template that writes
/// `create: b.sh` replaces the type's `{primary: a.sh, dependencies: [dep.sh]}` whole, and
/// keeps the type's input definitions, whose default still gives `level` its value
/// (A.5.12 Interface definition, A.5.13 Operation definition; SP-TYPE-05, SP-OP-05).
#[test]
fn simple_profile_template_implementations_replace_the_types_whole() {
    let dir = tempfile::tempdir().unwrap();
    for script in ["a.sh", "b.sh", "dep.sh"] {
        std::fs::write(dir.path().join(script), "#!/bin/sh\n").unwrap();
    }
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    derived_from: tosca.nodes.Root
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        create:
          implementation:
            primary: a.sh
            dependencies: [ dep.sh ]
          inputs:
            level: { type: integer, default: 3 }
  BigApp:
    derived_from: App
    interfaces:
      Standard:
        configure: a.sh
topology_template:
  node_templates:
    app:
      type: BigApp
      interfaces:
        Standard:
          create: b.sh
",
    )
    .unwrap();
    let out = toscana().arg("ir").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let operations = &ir["nodes"][0]["interfaces"]["Standard"]["operations"];
    let create = &operations["create"];
    assert_eq!(
        create["implementation"]["primary"]["file"], "b.sh",
        "{create}"
    );
    assert_eq!(
        create["implementation"]["dependencies"],
        serde_json::json!([]),
        "{create}"
    );
    assert_eq!(create["inputs"]["level"]["value"], 3, "{create}");
    let configure = &operations["configure"]["implementation"]["primary"]["file"];
    assert_eq!(configure, "a.sh", "{operations}");
}
