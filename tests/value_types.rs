//! Value definitions name data types: the valid counterparts of the `value-type-*` bad-input
//! cases. Built-in types, scalar-unit types, normative and own data types, as a definition's
//! `type` and as its `entry_schema` and `key_schema`, check with no error in types no template
//! uses.

mod common;

use common::assert_checks_clean as accepted;
use common::toscana;

#[test]
fn simple_profile_definitions_naming_data_types_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  example.Member:
    derived_from: tosca.datatypes.Root
    properties:
      name: { type: string }
node_types:
  example.Cluster:
    derived_from: tosca.nodes.Root
    properties:
      members:
        type: map
        key_schema: string
        entry_schema:
          type: example.Member
      sizes:
        type: list
        entry_schema: scalar-unit.size
      credential:
        type: tosca.datatypes.Credential
        required: false
      window:
        type: range
        required: false
",
    )
    .unwrap();
    let out = toscana().arg("check").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(
        out.status.success() && !stderr.contains("error"),
        "{stderr}"
    );
}

/// The valid counterpart of `data-type-2-0-scalar-properties`: a scalar type narrows its values
/// with `validation`, and a complex type (derived from no built-in type) holds properties,
/// one of them of the scalar type.
#[test]
fn tosca2_scalar_types_without_properties_are_accepted() {
    common::assert_checks_clean(
        "tosca_definitions_version: tosca_2_0
data_types:
  Speed:
    derived_from: scalar
    units:
      m/s: 1
    validation: { $greater_or_equal: [ $value, 0 m/s ] }
  Measured:
    properties:
      speed: { type: Speed }
      precision: { type: integer }
service_template:
  inputs:
    reading:
      type: Measured
      default: { speed: 3 m/s, precision: 2 }
  node_templates: {}
",
    );
}

/// The valid counterparts of `value-type-*-operation-input-schema` and
/// `value-type-2-0-service-input-schema`: interface parameters and service inputs whose schemas
/// name data types.
#[test]
fn parameter_schemas_that_name_data_types_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Host:
    derived_from: tosca.datatypes.Root
    properties:
      name: { type: string }
interface_types:
  Deploy:
    derived_from: tosca.interfaces.Root
    run:
      inputs:
        hosts: { type: list, entry_schema: Host, required: false }
        labels: { type: map, entry_schema: { type: string }, required: false }
",
    );
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Host:
    properties:
      name: { type: string }
node_types:
  App:
    interfaces:
      deploy:
        operations:
          run:
            inputs:
              hosts: { type: list, entry_schema: Host, required: false }
service_template:
  inputs:
    hosts: { type: map, entry_schema: { type: Host }, required: false }
  node_templates:
    app:
      type: App
",
    );
}
