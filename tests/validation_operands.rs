//! The valid counterparts of the `sinks2-validation-2-0-*` bad-input cases: a TOSCA 2.0
//! validation clause's literals compared with `$value` are values of the validated type
//! (§10.2.2.2 Comparison Functions: true "if both arguments are of the same type"), read as
//! that type where the clause is written. Each file checks with no diagnostic.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn versions_scalars_and_timestamps_compared_with_values_of_their_type_are_accepted() {
    // A version written as a YAML float (`1.0`) or with a fix (`2.1.3`), a scalar in any of its
    // type's units, a timestamp as a date; in a property's clause and a data type's own.
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Length:
    derived_from: scalar
    units:
      m: 1.0
      cm: 0.01
  Release:
    derived_from: version
    validation: { $greater_or_equal: [ $value, 1.2 ] }
  Deadline:
    derived_from: timestamp
    validation: { $valid_values: [ $value, [ 2025-01-01, 2025-06-30T12:00:00Z ] ] }
node_types:
  Box:
    properties:
      width:
        type: Length
        validation: { $less_than: [ $value, 15 m ] }
      release:
        type: version
        validation: { $valid_values: [ $value, [ 1.0, 2.1.3 ] ] }
      built:
        type: timestamp
        validation:
          $and:
            - { $greater_or_equal: [ $value, 2024-01-01 ] }
            - { $less_than: [ $value, 2025-01-01 ] }
      own:
        type: Release
      due:
        type: Deadline
      flag:
        type: boolean
        validation: { $equal: [ $value, true ] }
service_template:
  node_templates:
    box:
      type: Box
      properties:
        width: 12 cm
        release: 1.0
        built: 2024-06-01
        own: 1.3
        due: 2025-01-01
        flag: true
",
    );
}

#[test]
fn operands_that_are_calls_or_compared_with_a_part_of_the_value_are_not_read_as_its_type() {
    // A function's result is known at deployment only; `$length` of a value and a key inside
    // it are not the value itself, so their operands are of their own types.
    accepted(
        "tosca_definitions_version: tosca_2_0
node_types:
  Service:
    properties:
      minimum:
        type: version
        required: false
      release:
        type: version
        validation: { $greater_or_equal: [ $value, { $get_property: [ SELF, minimum ] } ] }
      labels:
        type: map
        entry_schema: version
        validation: { $equal: [ { $length: [ $value ] }, 1 ] }
service_template:
  node_templates:
    service:
      type: Service
      properties:
        release: 1.2
        labels: { app: 1.0 }
",
    );
}

#[test]
fn a_refinement_that_keeps_the_inherited_type_compares_with_values_of_that_type() {
    // §9.4 Property Definition: a refinement that does not restate `type` keeps the inherited
    // one, so its clause's operands are read as values of that type.
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Length:
    derived_from: scalar
    units:
      m: 1.0
      cm: 0.01
node_types:
  Box:
    properties:
      width:
        type: Length
      release:
        type: version
        required: false
  BigBox:
    derived_from: Box
    properties:
      width:
        validation: { $less_than: [ $value, 15 m ] }
      release:
        validation: { $greater_than: [ $value, 1.0 ] }
service_template:
  node_templates:
    box:
      type: BigBox
      properties:
        width: 12 cm
        release: 1.2
",
    );
}
