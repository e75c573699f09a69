//! The valid counterparts of the bad-input cases the Variability4TOSCA hunt added
//! (`tests/bad_input/hunt9-variability-*`, issue 25): what the new rules on element keynames,
//! variability inputs, presets and list forms must go on accepting. Each template checks with no
//! diagnostic.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn each_element_kind_keeps_the_keynames_its_table_gives() {
    // § Node Template: `anchor`, `weight` (a number from 0), `pruning`, `default_condition`,
    // `default_condition_mode`, `implies`; § Requirement Assignment: `conditions`, `pruning`
    // and `implied` with a selector.
    accepted(
        r#"tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    options:
      node_pruning: true
    inputs:
      dev:
        type: boolean
        default: true
  node_templates:
    app:
      type: tosca.nodes.Root
      anchor: true
      weight: 0.5
      pruning: false
      default_condition: false
      default_condition_mode: incoming-host
      implies:
        - [{ node_presence: server }]
      requirements:
        - dependency:
            node: server
            conditions: true
            pruning: false
            implied: TARGET
    server:
      type: tosca.nodes.Compute
      weight: 1
      conditions: { variability_input: dev }
"#,
    );
}

#[test]
fn inputs_and_presets_of_every_primitive_type_and_named_data_types() {
    // § Variability Input: defaults of the input's type (an integer is a float too), `requires`
    // naming a declared input, a normative and an own data type; § Variability Preset: `name`,
    // `description`, an empty `inputs`; § Variability Definition: `constraints` as a list.
    accepted(
        r#"tosca_definitions_version: tosca_variability_1_0
data_types:
  Sizing:
    derived_from: tosca.datatypes.Root
    properties:
      cpus: { type: integer }
topology_template:
  variability:
    inputs:
      monitoring:
        type: boolean
        default: true
        requires: [storage]
      storage:
        type: boolean
        default: true
      replicas:
        type: integer
        default: 2
      ratio:
        type: float
        default: 2
      mode:
        type: string
        default: dev
        description: where it runs
      login:
        type: tosca.datatypes.Credential
      sizing:
        type: Sizing
    presets:
      prod:
        name: Production
        description: Deploy to production
        inputs:
          mode: prod
          replicas: 3
          ratio: 0.5
          monitoring: false
      empty:
        inputs: {}
    constraints:
      - { implies: [{ variability_input: monitoring }, { variability_input: storage }] }
  node_templates:
    agent:
      type: tosca.nodes.Compute
      conditions:
        - { variability_input: monitoring }
        - { greater: [{ variability_input: replicas }, 1] }
        - { equal: [{ variability_input: mode }, dev] }
"#,
    );
}

#[test]
fn list_form_properties_with_one_property_each() {
    // § Node Template: in the list form "each property assignment map must contain only one
    // property", and the same name may come twice with different conditions.
    accepted(
        r#"tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    inputs:
      mode:
        type: string
        default: dev
    presets:
      prod:
        inputs:
          mode: prod
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      properties:
        - component_version:
            value: "1.0"
            conditions: { equal: [{ get_variability_input: mode }, dev] }
        - component_version:
            value: "2.0"
            conditions: { equal: [{ get_variability_input: mode }, prod] }
      requirements:
        - host: server
    server:
      type: tosca.nodes.Compute
"#,
    );
}

#[test]
fn unused_expressions_in_the_expression_language() {
    // § Variability Expression: named expressions no condition reads are read as written, with
    // presence operators on any element, seed names of renamed functions, and value
    // expressions of every arity the operators take.
    accepted(
        r#"tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    inputs:
      replicas:
        type: integer
        default: 2
        default_expression: { add: [1, 1] }
    expressions:
      scaled: { greater: [{ variability_input: replicas }, 1] }
      unused_logic:
        and:
          - { node_presence: app }
          - { not: true }
          - { implies: [{ logic_expression: scaled }, { has_incoming_relation: app }] }
          - { exo: [true, false] }
      unused_value: { mul: [{ value_expression: cost }, { get_variability_input: replicas }] }
      cost: { sub: [10, 1, 1] }
      unused_strings: { concat: [a, { token: [a-b, "-", 1] }] }
      unused_range: { in_range: [{ variability_input: replicas }, [1, 5]] }
  node_templates:
    app:
      type: tosca.nodes.Compute
      conditions: { logic_expression: scaled }
"#,
    );
}

#[test]
fn solver_options_take_their_values() {
    // § Solver Options: `optimization_topology` a boolean, min or max; its mode count or
    // weight; `optimization_technologies_mode` also weight-count.
    accepted(
        r#"tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    options:
      optimization_topology: max
      optimization_topology_mode: count
      optimization_technologies: false
      optimization_technologies_mode: weight-count
  node_templates:
    a:
      type: tosca.nodes.Compute
"#,
    );
}

#[test]
fn property_expressions_of_absent_properties() {
    // § Property Assignment `expression`: a value expression, read whether or not the property
    // is present.
    accepted(
        r#"tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    inputs:
      replicas:
        type: integer
        default: 1
  node_templates:
    web:
      type: tosca.nodes.Root
      properties:
        - label:
            expression: { concat: [v, { variability_input: replicas }] }
            conditions: { greater: [{ variability_input: replicas }, 1] }
"#,
    );
}
