//! The valid counterparts of the TOSCA 2.0 rules on what a definition may say where it is
//! written: validation clauses that type-check (§9.11 Validation Clause, §9.2 Data Type),
//! fixed inputs and output mappings of types that start from SELF (§11.4 Operation
//! Definition), attributes set by an output mapping or an assignment but not both (§9.7
//! Attribute Assignment), and node filters that are one condition clause (§8.6 Node Filter
//! Definition). The bad-input cases `validation-2-0-*`, `data-type-2-0-validation-ill-typed`,
//! `interface-type-2-0-fixed-input-get-property`, `interface-def-2-0-*-template-name`,
//! `attribute-2-0-mapped-and-assigned` and `node-filter-2-0-simple-profile-shape` show each
//! rule broken; these show what each allows reads without an error.

mod common;

use common::read_text;
use toscana::diag::Diagnostic;

#[track_caller]
fn accepted(yaml: &str) {
    let errors: Vec<Diagnostic> = read_text(yaml)
        .1
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    assert!(errors.is_empty(), "unexpected errors: {errors:#?}");
}

#[test]
fn validation_clauses_that_fit_their_types_are_accepted() {
    accepted(
        r#"tosca_definitions_version: tosca_2_0
data_types:
  Port:
    derived_from: integer
    validation: { $valid_values: [ $value, [ 80, 443 ] ] }
  Ratio:
    derived_from: float
    validation: { $and: [ { $greater_or_equal: [ $value, 0 ] }, { $less_or_equal: [ $value, 1.5 ] } ] }
node_types:
  Server:
    properties:
      name:
        type: string
        validation: { $less_or_equal: [ { $length: [ $value ] }, 10 ] }
      port: { type: Port }
      ratio: { type: Ratio }
      enabled:
        type: boolean
        validation: { $equal: [ $value, true ] }
      note:
        type: string
        validation: true
service_template:
  node_templates:
    web:
      type: Server
      properties: { name: web, port: 443, ratio: 1, enabled: true, note: any }
"#,
    );
}

#[test]
fn fixed_inputs_and_mappings_that_start_from_self_are_accepted() {
    accepted(
        r#"tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    inputs:
      retries: { type: integer, value: 3 }
    operations:
      run:
        inputs:
          mode: { type: string, value: full }
node_types:
  Server:
    properties:
      backup_dir: { type: string }
    attributes:
      last_run: { type: string }
    interfaces:
      backup:
        type: Backup
        operations:
          run:
            inputs:
              target:
                type: string
                value: { $concat: [ { $get_property: [ SELF, backup_dir ] }, /daily ] }
              peer: { type: string, required: false }
            outputs:
              finished: [ SELF, last_run ]
relationship_types:
  BacksUp:
    attributes:
      copied: { type: string }
    interfaces:
      backup:
        type: Backup
        operations:
          run:
            inputs:
              from: { type: string, value: { $get_property: [ SELF, SOURCE, backup_dir ] } }
              to: { type: string, value: { $get_property: [ SELF, TARGET, backup_dir ] } }
            outputs:
              done: { type: string, mapping: [ SELF, copied ] }
service_template:
  node_templates:
    store:
      type: Server
      properties: { backup_dir: /srv/store }
    web:
      type: Server
      properties: { backup_dir: /srv/web }
      interfaces:
        backup:
          operations:
            run:
              inputs:
                peer: { $get_property: [ store, backup_dir ] }
"#,
    );
}

#[test]
fn attributes_set_by_an_output_or_an_assignment_are_accepted() {
    accepted(
        r#"tosca_definitions_version: tosca_2_0
capability_types:
  Endpoint:
    attributes:
      ip: { type: string }
interface_types:
  Standard:
    operations:
      create: {}
node_types:
  Server:
    attributes:
      address: { type: string }
      zone: { type: string }
    capabilities:
      endpoint: { type: Endpoint }
    interfaces:
      lifecycle:
        type: Standard
        operations:
          create:
            outputs:
              ip: [ SELF, address ]
              public: [ SELF, CAPABILITY, endpoint, ip ]
service_template:
  node_templates:
    web:
      type: Server
      attributes:
        zone: eu-1
"#,
    );
}

#[test]
fn a_node_filter_that_is_one_condition_clause_is_accepted() {
    accepted(
        r#"tosca_definitions_version: tosca_2_0
capability_types:
  Storage: {}
relationship_types:
  AttachesTo: {}
node_types:
  Volume:
    properties:
      size: { type: integer }
    capabilities:
      storage: { type: Storage }
  Server:
    requirements:
      - disk:
          capability: Storage
          relationship: AttachesTo
          node_filter: { $greater_or_equal: [ { $get_property: [ SELF, TARGET, size ] }, 1 ] }
service_template:
  node_templates:
    vol:
      type: Volume
      properties: { size: 10 }
    web:
      type: Server
      requirements:
        - disk:
            node_filter:
              $and:
                - $greater_or_equal: [ { $get_property: [ SELF, TARGET, size ] }, 10 ]
                - $less_or_equal: [ { $get_property: [ SELF, TARGET, size ] }, 100 ]
"#,
    );
}

#[test]
fn every_property_is_also_an_attribute_of_the_same_name() {
    // §9.6 Attribute Definition: a property is reflected as an attribute of the same name, so
    // `$get_attribute` reads it (T2-ATTRDEF-03); a name that is neither stays an error.
    let template = |name: &str| {
        format!(
            "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    properties:
      port: {{ type: integer }}
service_template:
  node_templates:
    web:
      type: Server
      properties: {{ port: 80 }}
  outputs:
    port:
      type: integer
      value: {{ $get_attribute: [ web, {name} ] }}
"
        )
    };
    accepted(&template("port"));
    let errors: Vec<Diagnostic> = read_text(&template("address"))
        .1
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    assert!(
        errors.iter().any(|d| d.message.contains("address")),
        "{errors:#?}"
    );
}

#[test]
fn a_node_type_and_a_data_type_may_share_a_name() {
    // Names are unique per kind of type, as each kind has its own keyname section (§6.8.4
    // Namespaces; the checklist's decision T2-NS-05).
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Disk:
    derived_from: string
node_types:
  Disk:
    properties:
      label: { type: Disk }
service_template:
  node_templates:
    d: { type: Disk, properties: { label: root } }
",
    );
}

#[test]
fn nil_versions_and_clauses_that_read_other_properties() {
    // `nil` takes only `null` (T2-LIT-07); versions compare part by part, numerically, so 1.10
    // is after 1.9 and 1.2 before it (T2-LIT-10); a clause that reads another property of SELF
    // is left for deployment, never wrongly failed (T2-VALID-03).
    let template = |nothing: &str, release: &str| {
        format!(
            "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    properties:
      nothing: {{ type: nil }}
      release:
        type: version
        validation: {{ $greater_than: [ $value, 1.9 ] }}
      low: {{ type: integer }}
      high:
        type: integer
        validation: {{ $greater_than: [ $value, {{ $get_property: [ SELF, low ] }} ] }}
service_template:
  node_templates:
    s:
      type: Server
      properties: {{ nothing: {nothing}, release: {release}, low: 1, high: 5 }}
"
        )
    };
    accepted(&template("null", "1.10"));
    let messages: Vec<String> = read_text(&template("3", "1.2"))
        .1
        .into_iter()
        .filter(Diagnostic::is_error)
        .map(|d| d.message)
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`properties.nothing` must be a null (type `nil`)"))
            && messages.iter().any(|m| m.contains(
                "`properties.release` does not pass the validation clause of type `version`"
            )),
        "{messages:#?}"
    );
}
