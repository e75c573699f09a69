//! What TOSCA 2.0 interface definitions and assignments may write: a node or relationship
//! type's interface definition refines what its interface type declares (§11.4 Operation
//! Definition, §11.6 Notification Definition), and a template assigns the parameters that are
//! not fixed (§11.5 Operation Assignment). The valid counterparts of the `interface-def-2-0-*`,
//! `parameter-2-0-fixed-input-assigned` and `parameter-2-0-mapped-output-mapped-again`
//! bad-input cases.

mod common;

use common::assert_checks_clean;

#[test]
fn tosca2_interface_definitions_that_refine_declared_operations_are_accepted() {
    // Operations of the interface type and of its parent, a notification, and an inherited
    // interface refined without repeating its type.
    let template = "tosca_definitions_version: tosca_2_0
interface_types:
  Lifecycle:
    operations:
      create: {}
  Managed:
    derived_from: Lifecycle
    operations:
      backup: {}
    notifications:
      started: {}
node_types:
  Base:
    interfaces:
      lifecycle:
        type: Managed
        operations:
          create:
            description: made once
  Server:
    derived_from: Base
    interfaces:
      lifecycle:
        operations:
          backup:
            description: taken nightly
        notifications:
          started: {}
";
    assert_checks_clean(template);
}

#[test]
fn tosca2_templates_assign_the_parameters_that_are_not_fixed() {
    // An input with a default or no value may be assigned, an output without a mapping may be
    // mapped, and parameters the definition does not have are ad-hoc definitions (§11.5
    // Operation Assignment).
    let template = "tosca_definitions_version: tosca_2_0
interface_types:
  Lifecycle:
    inputs:
      region: { type: string, default: eu }
    operations:
      create:
        inputs:
          mode: { type: string, default: safe }
          level: { type: integer }
        outputs:
          address: { type: string }
node_types:
  Server:
    attributes:
      ip: { type: string }
    interfaces:
      lifecycle:
        type: Lifecycle
service_template:
  node_templates:
    server:
      type: Server
      interfaces:
        lifecycle:
          inputs:
            region: us
          operations:
            create:
              inputs:
                mode: fast
                level: 3
                extra: ad-hoc
              outputs:
                address: [ SELF, ip ]
";
    assert_checks_clean(template);
}
