//! TOSCA 2.0 rules, one focused case each: a small template that breaks exactly one rule must
//! get an error with that rule's code, at the line and column of the offending text, with a
//! message that names the rule; and the same template with the mistake fixed must read
//! cleanly, so each case shows the rule and not some other error.
//!
//! Spec lines are those of `../shared/specs/tosca-2.0-csd07.md`.

mod common;

use common::read_text;
use toscana::diag::Diagnostic;

fn diagnostics(yaml: &str) -> Vec<Diagnostic> {
    read_text(yaml).1
}

fn errors(yaml: &str) -> Vec<Diagnostic> {
    diagnostics(yaml)
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect()
}

/// `bad` gets an error `code` at `line:col` whose message contains `message`; `good` reads
/// with no error.
#[track_caller]
fn rule(bad: &str, good: &str, code: &str, line: u32, col: u32, message: &str) {
    let found = errors(bad);
    assert!(
        found.iter().any(|d| d.code == code
            && d.span.is_some_and(|s| s.line == line && s.col == col)
            && d.message.contains(message)),
        "expected {code} at {line}:{col} containing {message:?}, got {found:#?}"
    );
    let fixed = errors(good);
    assert!(
        fixed.is_empty(),
        "the fixed template has errors: {fixed:#?}"
    );
}

const V: &str = "tosca_definitions_version: tosca_2_0\n";

fn t(body: &str) -> String {
    format!("{V}{body}")
}

#[test]
fn an_unknown_keyname_is_an_error_in_tosca_2() {
    // §6.5 Repository Definitions: a repository has url, description, metadata; 1.3's `credential`
    // is gone.
    rule(
        &t("repositories:\n  repo:\n    url: https://example.com/\n    credential: { user: u }\n"),
        &t("repositories:\n  repo:\n    url: https://example.com/\n"),
        "tosca::unknown-keyname",
        5,
        5,
        "unknown keyname `credential` in repository `repo`",
    );
}

#[test]
fn an_unknown_keyname_is_an_error_in_simple_profile_files_too() {
    let found = diagnostics(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nrepositories:\n  repo:\n    url: https://example.com/\n    colour: red\n",
    );
    let unknown: Vec<_> = found
        .iter()
        .filter(|d| d.code == "tosca::unknown-keyname")
        .collect();
    assert_eq!(unknown.len(), 1, "{found:#?}");
    assert!(unknown[0].is_error(), "{found:#?}");
}

#[test]
fn a_description_is_a_string() {
    // §5.3 Common Keynames: description is a str; 12345 is a YAML integer.
    rule(
        &t("description: 12345\n"),
        &t("description: \"12345\"\n"),
        "tosca::wrong-shape",
        2,
        14,
        "`description` of a TOSCA 2.0 file must be a string",
    );
}

#[test]
fn properties_are_a_map_and_requirements_a_list() {
    // §7.1 Node Type: properties is a map of property definitions, requirements a seq.
    rule(
        &t("node_types:\n  N:\n    properties:\n      - p: { type: string }\n"),
        &t("node_types:\n  N:\n    properties:\n      p: { type: string }\n"),
        "tosca::wrong-shape",
        5,
        7,
        "`properties` of node type `N` must be a map",
    );
    let caps = "capability_types:\n  C: {}\nrelationship_types:\n  R: {}\n";
    rule(
        &t(&format!(
            "{caps}node_types:\n  N:\n    requirements:\n      r: {{ capability: C, relationship: R }}\n"
        )),
        &t(&format!(
            "{caps}node_types:\n  N:\n    requirements:\n      - r: {{ capability: C, relationship: R }}\n"
        )),
        "tosca::wrong-shape",
        9,
        7,
        "`requirements` of node type `N` must be a list of single-entry maps",
    );
}

#[test]
fn a_top_level_section_is_not_empty_but_a_nested_one_only_warns() {
    rule(
        &t("policy_types:\nnode_types:\n  N: {}\n"),
        &t("node_types:\n  N:\n    properties:\n"),
        "tosca::wrong-shape",
        2,
        13,
        "`policy_types` of a TOSCA 2.0 file is empty",
    );
}

#[test]
fn definition_names_are_non_empty_strings() {
    rule(
        &t("relationship_types:\n  1.0: {}\n"),
        &t("relationship_types:\n  \"1.0\": {}\n"),
        "tosca::wrong-shape",
        3,
        3,
        "a relationship type name in `relationship_types` of a TOSCA 2.0 file must be a string",
    );
    rule(
        &t("interface_types:\n  \"\": {}\n"),
        &t("interface_types:\n  I: {}\n"),
        "tosca::wrong-shape",
        3,
        3,
        "an interface type in `interface_types` of a TOSCA 2.0 file has an empty name",
    );
}

#[test]
fn a_service_template_has_node_templates() {
    // §6.9.1 Service Template Grammar: node_templates is mandatory.
    rule(
        &t(
            "node_types:\n  N: {}\nservice_template:\n  inputs:\n    x: { type: string, required: false }\n",
        ),
        &t("node_types:\n  N: {}\nservice_template:\n  node_templates:\n    n: { type: N }\n"),
        "tosca::missing-keyname",
        5,
        3,
        "`service_template` has no `node_templates`",
    );
}

#[test]
fn an_import_names_a_url_or_a_profile() {
    // §6.8.1 Import Definitions.
    let bad = errors(&t("imports:\n  - namespace: x\n"));
    assert!(
        bad.iter().any(|d| d.code == "tosca::missing-keyname"
            && d.message.contains("neither `url` nor `profile`")
            && d.span.is_some_and(|s| s.line == 3 && s.col == 5)),
        "{bad:#?}"
    );
    let bad = errors(&t("imports:\n  - profile: p\n    repository: r\n"));
    assert!(
        bad.iter().any(|d| d.code == "tosca::wrong-shape"
            && d.message
                .contains("by `profile` cannot name a `repository`")),
        "{bad:#?}"
    );
    // The 1.3 keynames are errors that say what 2.0 writes instead (T2-IMPORT-14).
    let bad = errors(&t("imports:\n  - file: x.yaml\n    namespace_prefix: x\n"));
    for (key, instead, line) in [
        ("file", "`url: <file>`", 3),
        ("namespace_prefix", "`namespace: <prefix>`", 4),
    ] {
        assert!(
            bad.iter().any(|d| d.code == "tosca::unknown-keyname"
                && d.message == format!("unknown keyname `{key}` in an import")
                && d.hint.as_deref().is_some_and(|h| h.contains(instead))
                && d.span.is_some_and(|s| s.line == line && s.col == 5)),
            "{key}: {bad:#?}"
        );
    }
}

#[test]
fn count_range_is_a_range_of_integers() {
    let types = "capability_types:\n  C: {}\nrelationship_types:\n  R: {}\n";
    rule(
        &t(&format!(
            "{types}node_types:\n  N:\n    requirements:\n      - r: {{ capability: C, relationship: R, count_range: [1.0, 2.5] }}\n"
        )),
        &t(&format!(
            "{types}node_types:\n  N:\n    requirements:\n      - r: {{ capability: C, relationship: R, count_range: [1, UNBOUNDED] }}\n"
        )),
        "tosca::type-mismatch",
        9,
        59,
        "`count_range` of requirement definition `r` must be a range of two integers",
    );
}

#[test]
fn a_type_version_is_a_version() {
    rule(
        &t("artifact_types:\n  A:\n    version: 1..0.abc\n"),
        &t("artifact_types:\n  A:\n    version: 1.0.2.abc\n"),
        "tosca::type-mismatch",
        4,
        14,
        "`version` of artifact type `A` is not a version",
    );
}

#[test]
fn a_non_required_property_has_no_default() {
    // §9.4 Property Definition: default SHALL NOT be defined when the property is not required.
    rule(
        &t(
            "node_types:\n  N:\n    properties:\n      p: { type: string, required: false, default: x }\n",
        ),
        &t("node_types:\n  N:\n    properties:\n      p: { type: string, required: false }\n"),
        "tosca::wrong-shape",
        5,
        43,
        "property definition `p` has a `default` but `required: false`",
    );
}

#[test]
fn a_profile_has_no_service_template() {
    // §6.1 Keynames, §6.7.1 Grammar.
    rule(
        &t(
            "profile: org.example:1.0\nnode_types:\n  N: {}\nservice_template:\n  node_templates:\n    n: { type: N }\n",
        ),
        &t("profile: org.example:1.0\nnode_types:\n  N: {}\n"),
        "tosca::wrong-shape",
        5,
        1,
        "a TOSCA file with a `profile` cannot have a `service_template`",
    );
}

#[test]
fn a_definition_has_its_type() {
    // §9.6 Attribute Definition: an attribute definition's type is mandatory; an empty one is not a
    // string.
    rule(
        &t("node_types:\n  N:\n    attributes:\n      a:\n        type:\n"),
        &t("node_types:\n  N:\n    attributes:\n      a:\n        type: integer\n"),
        "tosca::wrong-shape",
        6,
        13,
        "`type` of attribute definition `a` must be a string, found null",
    );
}

#[test]
fn every_type_a_definition_names_exists() {
    rule(
        &t(
            "data_types:\n  D:\n    properties:\n      l:\n        type: list\n        entry_schema:\n          type: map\n          entry_schema: Nope\n",
        ),
        &t(
            "data_types:\n  D:\n    properties:\n      l:\n        type: list\n        entry_schema:\n          type: map\n          entry_schema: string\n",
        ),
        "tosca::unknown-type",
        9,
        25,
        "unknown data type `Nope`",
    );
    rule(
        &t("capability_types:\n  C:\n    valid_source_node_types: [ Nope ]\n"),
        &t(
            "node_types:\n  Yes: {}\ncapability_types:\n  C:\n    valid_source_node_types: [ Yes ]\n",
        ),
        "tosca::unknown-type",
        4,
        32,
        "unknown node type `Nope`",
    );
}

#[test]
fn only_complex_data_types_have_properties() {
    // §9.2 Data Type.
    rule(
        &t(
            "data_types:\n  Url:\n    derived_from: string\n    properties:\n      host: { type: string }\n",
        ),
        &t("data_types:\n  Url:\n    properties:\n      host: { type: string }\n"),
        "tosca::wrong-shape",
        5,
        5,
        "data type `Url` derives from the built-in type `string` and cannot have properties",
    );
}

#[test]
fn scalar_types_follow_the_unit_rules() {
    let good = t(
        "data_types:\n  Rate:\n    derived_from: scalar\n    units: { bps: 1 }\n    prefixes: { \"\": 1, k: 1000 }\n",
    );
    // §9.1.2.2 scalar: the scalar keynames belong to scalar types.
    rule(
        &t("data_types:\n  Rate:\n    units: { bps: 1 }\n"),
        &good,
        "tosca::wrong-shape",
        4,
        5,
        "`units` on data type `Rate`, which is not a scalar type",
    );
    // §9.1.2.2 scalar: multipliers are numbers.
    rule(
        &t("data_types:\n  Rate:\n    derived_from: scalar\n    units: { bps: one }\n"),
        &good,
        "tosca::type-mismatch",
        5,
        19,
        "the multiplier of unit `bps` in scalar type `Rate` is not a number",
    );
    // §9.1.2.2 scalar: with prefixes, the bare unit needs the prefix "".
    rule(
        &t(
            "data_types:\n  Rate:\n    derived_from: scalar\n    units: { bps: 1 }\n    prefixes: { k: 1000 }\n",
        ),
        &good,
        "tosca::wrong-shape",
        5,
        5,
        "scalar type `Rate` has no unit with multiplier 1",
    );
    // §9.1.2.2 scalar: several units of multiplier 1 need a canonical_unit.
    rule(
        &t("data_types:\n  Rate:\n    derived_from: scalar\n    units: { bps: 1, b/s: 1 }\n"),
        &t(
            "data_types:\n  Rate:\n    derived_from: scalar\n    units: { bps: 1, b/s: 1 }\n    canonical_unit: bps\n",
        ),
        "tosca::missing-keyname",
        5,
        5,
        "several units with multiplier 1 (bps, b/s) and no `canonical_unit`",
    );
    // The canonical unit is one of the units, with multiplier 1 (§9.1.2.2 scalar).
    rule(
        &t(
            "data_types:\n  Rate:\n    derived_from: scalar\n    units: { bps: 1, kbps: 1000 }\n    canonical_unit: kbps\n",
        ),
        &good,
        "tosca::wrong-shape",
        6,
        21,
        "the `canonical_unit` `kbps` of scalar type `Rate` has the multiplier 1000, not 1",
    );
    rule(
        &t(
            "data_types:\n  Rate:\n    derived_from: scalar\n    units: { bps: 1 }\n    canonical_unit: b/s\n",
        ),
        &good,
        "tosca::unknown-name",
        6,
        21,
        "the `canonical_unit` `b/s` of scalar type `Rate` is not one of its units",
    );
    // §9.1.2.2 scalar: prefixes only over a single unit of multiplier 1.
    rule(
        &t(
            "data_types:\n  Rate:\n    derived_from: scalar\n    units: { bps: 1, Bps: 8 }\n    prefixes: { \"\": 1, k: 1000 }\n",
        ),
        &good,
        "tosca::wrong-shape",
        6,
        5,
        "scalar type `Rate` has `prefixes`, so its `units` must be a single unit with multiplier 1",
    );
    // §9.1.2.2 scalar: a derived scalar type keeps its data_type.
    rule(
        &format!("{good}  Whole:\n    derived_from: Rate\n    data_type: integer\n"),
        &format!("{good}  Whole:\n    derived_from: Rate\n"),
        "tosca::wrong-shape",
        9,
        5,
        "scalar type `Whole` changes the `data_type` it inherits (`float`) to `integer`",
    );
}

#[test]
fn the_abstract_scalar_types_no_value() {
    // §9.1.2.2 scalar.
    rule(
        &t("node_types:\n  N:\n    properties:\n      p: { type: scalar }\n"),
        &t("node_types:\n  N:\n    properties:\n      p: { type: float }\n"),
        "tosca::unknown-type",
        5,
        18,
        "`scalar` is abstract and cannot type a value",
    );
}

#[test]
fn validation_clauses_call_no_misspelt_function() {
    rule(
        &t(
            "data_types:\n  Small:\n    derived_from: integer\n    validation: { $less_or_equl: [ $value, 100 ] }\n",
        ),
        &t(
            "data_types:\n  Small:\n    derived_from: integer\n    validation: { $less_or_equal: [ $value, 100 ] }\n",
        ),
        "tosca::unknown-name",
        5,
        19,
        "unknown function `$less_or_equl`",
    );
}

const BITRATE: &str = "data_types:
  Positive:
    derived_from: integer
    validation: { $greater_or_equal: [ $value, 1 ] }
  Bitrate:
    derived_from: scalar
    data_type: Positive
    units: { bps: 1, kbps: 1000, Mbps: 1000000 }
node_types:
  Link:
    properties:
      speed:
        type: Bitrate
        validation: { $greater_than: [ $value, 1 Mbps ] }
service_template:
  node_templates:
    link:
      type: Link
      properties:
";

#[test]
fn validation_clauses_are_evaluated_on_known_values() {
    // §9.11 Validation Clause: the property's clause, with a literal of the property's scalar type.
    rule(
        &format!("{V}{BITRATE}        speed: 10 kbps\n"),
        &format!("{V}{BITRATE}        speed: 10 Mbps\n"),
        "tosca::constraint-violated",
        21,
        16,
        "`properties.speed` does not pass",
    );
    // §9.1.2.2 scalar: the number of a scalar is a value of its data_type, with its validation.
    rule(
        &format!("{V}{BITRATE}        speed: -2 Mbps\n"),
        &format!("{V}{BITRATE}        speed: 2 Mbps\n"),
        "tosca::constraint-violated",
        21,
        16,
        "the number of `-2 Mbps`",
    );
    rule(
        &format!("{V}{BITRATE}        speed: 1.5 Mbps\n"),
        &format!("{V}{BITRATE}        speed: 1500 kbps\n"),
        "tosca::type-mismatch",
        21,
        16,
        "the number `1.5` of `1.5 Mbps` must be an integer",
    );
}

#[test]
fn tosca_2_booleans_are_lowercase() {
    let types = "node_types:\n  N:\n    properties:\n      on: { type: boolean }\nservice_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n";
    rule(
        &t(&format!("{types}        on: False\n")),
        &t(&format!("{types}        on: false\n")),
        "tosca::type-mismatch",
        11,
        13,
        "`False` is not a TOSCA 2.0 boolean",
    );
}

const BACKUP: &str = "interface_types:
  Backup:
    operations:
      backup: {}
node_types:
  Entity:
    interfaces:
      backup:
        type: Backup
        inputs:
          location: { type: string }
        operations:
          backup:
            inputs:
              name: { type: string }
service_template:
  node_templates:
    client:
      type: Entity
  workflows:
    run:
      inputs:
        id: { type: integer }
        label: { type: string }
      steps:
        one:
          target: client
          activities:
            - call_operation:
                operation: backup.backup
                inputs:
                  location: here
";

#[test]
fn call_operation_passes_the_inputs_the_operation_defines() {
    // §13.2.3.3 Call Operation Activity Definition with the interface inputs of §11.1 Interface
    // Type: every required input is passed, none that is not defined, each of its declared type.
    let good = format!("{V}{BACKUP}                  name: {{ $get_input: label }}\n");
    rule(
        &format!("{V}{BACKUP}"),
        &good,
        "tosca::missing-keyname",
        31,
        28,
        "does not pass the required input `name`",
    );
    rule(
        &format!("{V}{BACKUP}                  name: x\n                  guid: 187a\n"),
        &good,
        "tosca::unknown-name",
        35,
        19,
        "passes input `guid`, which the operation does not define",
    );
    rule(
        &format!("{V}{BACKUP}                  name: {{ $get_input: id }}\n"),
        &good,
        "tosca::type-mismatch",
        34,
        25,
        "input `name` of the operation has type `string`, but it is passed the workflow input `id`, of type `integer`",
    );
    // A suffix after a second `$` is no part of the function's name (§10.1 Function Syntax).
    rule(
        &format!("{V}{BACKUP}                  name: {{ $get_input$1: id }}\n"),
        &good,
        "tosca::type-mismatch",
        34,
        25,
        "input `name` of the operation has type `string`, but it is passed the workflow input `id`, of type `integer`",
    );
}

#[test]
fn requirement_mappings_are_a_list_of_single_entry_maps() {
    // §15.5 Requirement Mapping: requirement mappings are a list, so one requirement can be mapped
    // often.
    let template = |mapping: &str| {
        t(&format!(
            "capability_types:\n  Cap: {{}}\nnode_types:\n  Inner:\n    requirements:\n      - uses:\n          capability: Cap\n  Outer:\n    requirements:\n      - needs:\n          capability: Cap\nservice_template:\n  node_templates:\n    inner:\n      type: Inner\n    spare:\n      type: Inner\n  substitution_mappings:\n    node_type: Outer\n    requirements:\n      - {mapping}\n"
        ))
    };
    rule(
        &template("[inner, uses]"),
        &template("needs: [inner, uses]"),
        "tosca::wrong-shape",
        22,
        9,
        "a requirement mapping",
    );
    // One requirement onto several: a list of pairs (the 1.3 map form has no such thing).
    let several = read_text(&template("needs: [[inner, uses], [spare, uses]]"));
    assert!(
        !several.1.iter().any(Diagnostic::is_error),
        "{:#?}",
        several.1
    );
    let topology = several.0.topology.unwrap();
    let mapped: Vec<(&str, &str)> = topology
        .substitution
        .as_ref()
        .unwrap()
        .requirements
        .iter()
        .map(|m| (topology[m.node].name.as_str(), m.target.as_str()))
        .collect();
    assert_eq!(mapped, [("inner", "uses"), ("spare", "uses")]);
    // A selectable node template: valid, but the IR has no place for it, which is said.
    let selectable = read_text(&template("needs: spare"));
    assert!(
        !selectable.1.iter().any(Diagnostic::is_error),
        "{:#?}",
        selectable.1
    );
    assert!(
        selectable.1.iter().any(|d| d.code == "tosca::unsupported"
            && d.message.contains("selectable node template `spare`")
            && d.span.is_some_and(|s| s.line == 22 && s.col == 16)),
        "{:#?}",
        selectable.1
    );
    let topology = read_text(&template("needs: [inner, uses]"))
        .0
        .topology
        .unwrap();
    let mapped = &topology.substitution.as_ref().unwrap().requirements;
    assert_eq!(mapped.len(), 1, "{mapped:?}");
    assert_eq!(
        (mapped[0].name.as_str(), mapped[0].target.as_str()),
        ("needs", "uses")
    );
    assert_eq!(topology[mapped[0].node].name, "inner");
}

/// The node filter of a `select` node template that holds whatever the node (here `true`, a
/// call evaluated at translation time) selects any node of the type: no diagnostic. (A filter
/// that is `false`, or no condition at all, is an error: `select2-filter-not-a-condition`.)
#[test]
fn a_select_filter_that_always_holds_is_fine() {
    let select = |filter: &str| {
        t(&format!(
            "node_types:\n  Compute:\n    properties:\n      os:\n        type: string\nservice_template:\n  node_templates:\n    server:\n      type: Compute\n      directives: [ select ]\n      node_filter: {filter}\n"
        ))
    };
    for filter in ["true", "{ $equal: [ 1, 1 ] }"] {
        let found = diagnostics(&select(filter));
        assert!(
            !found.iter().any(|d| d.code == "tosca::constraint-violated"),
            "{filter}: {found:#?}"
        );
    }
    let never = errors(&select("{ $equal: [ 1, 2 ] }"));
    assert!(
        never
            .iter()
            .any(|d| d.code == "tosca::constraint-violated" && d.message.contains("is false")),
        "{never:#?}"
    );
}

/// A requirement's node filter is checked once for what is wrong whatever the candidate, with
/// `SELF` the relationship (§8.6 Node Filter Definition) and its `SOURCE` the requiring node: a
/// misspelt property of the source is reported there, and the right one reads cleanly.
#[test]
fn a_requirement_filter_reading_a_wrong_property_of_its_source_is_an_error() {
    let template = |property: &str| {
        t(&format!(
            "capability_types:\n  Service: {{}}\nrelationship_types:\n  ServedBy: {{}}\nnode_types:\n  Server:\n    capabilities:\n      service: Service\n  Client:\n    properties:\n      tier:\n        type: string\n    requirements:\n      - service:\n          capability: Service\n          relationship: ServedBy\n          node: Server\nservice_template:\n  node_templates:\n    s: {{ type: Server }}\n    client:\n      type: Client\n      properties: {{ tier: gold }}\n      requirements:\n        - service:\n            node_filter:\n              $equal: [ {{ $get_property: [ SELF, SOURCE, {property} ] }}, gold ]\n"
        ))
    };
    rule(
        &template("teir"),
        &template("tier"),
        "tosca::function",
        28,
        58,
        "node template `client` (Client) has no property `teir`",
    );
}

#[test]
fn a_data_type_defines_a_parent_or_properties() {
    // §9.2 Data Type: "A valid datatype definition MUST have either a valid derived_from
    // declaration or at least one valid property definition", and "If a properties keyname is
    // provided, it SHALL contain one or more valid property definitions".
    // A type with neither is a warning (real Kubernetes profiles write opaque types so).
    let warned = diagnostics(&t("data_types:\n  Note:\n    description: a note\n"));
    assert!(
        warned.iter().any(|d| !d.is_error()
            && d.code == "tosca::missing-keyname"
            && d.message
                .contains("has neither `derived_from` nor any property")),
        "{warned:#?}"
    );
    assert!(
        diagnostics(&t(
            "data_types:\n  Note:\n    description: a note\n    derived_from: string\n"
        ))
        .is_empty()
    );
    rule(
        &t("data_types:\n  Note:\n    properties: {}\n"),
        &t("data_types:\n  Note:\n    properties:\n      text: { type: string }\n"),
        "tosca::wrong-shape",
        4,
        5,
        "a `properties` keyname with no property definition",
    );
}

#[test]
fn binary_and_timestamp_yaml_types_are_refused() {
    // §9.1.1 Primitive Types (bytes) and §9.1.2.1 timestamp: "to ensure portability TOSCA
    // implementations shall not accept this YAML type".
    let template = |value: &str| {
        t(&format!(
            "node_types:\n  N:\n    properties:\n      p: {{ type: string }}\nservice_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n        p: {value}\n"
        ))
    };
    rule(
        &template("!!binary aGVsbG8="),
        &template("aGVsbG8="),
        "tosca::type-mismatch",
        11,
        21,
        "the YAML type `!!binary` is not accepted",
    );
    rule(
        &template("!!timestamp 2024-01-01"),
        &template("'2024-01-01'"),
        "tosca::type-mismatch",
        11,
        24,
        "the YAML type `!!timestamp` is not accepted",
    );
}

#[test]
fn a_capability_definition_narrows_its_types_valid_lists() {
    // §8.2 Capability Definition: each element of the definition's `valid_source_node_types`
    // (and `valid_relationship_types`) is in the capability type's list or derives from one.
    let template = |source: &str, relationship: &str| {
        t(&format!(
            "capability_types:\n  Cap:\n    valid_source_node_types: [ A ]\n    valid_relationship_types: [ R ]\nrelationship_types:\n  R: {{}}\n  S: {{}}\n  R2: {{ derived_from: R }}\nnode_types:\n  A: {{}}\n  A2: {{ derived_from: A }}\n  B: {{}}\n  N:\n    capabilities:\n      c:\n        type: Cap\n        valid_source_node_types: [ {source} ]\n        valid_relationship_types: [ {relationship} ]\n"
        ))
    };
    rule(
        &template("B", "R2"),
        &template("A2", "R2"),
        "tosca::type-mismatch",
        18,
        36,
        "lists `B` in `valid_source_node_types`",
    );
    rule(
        &template("A", "S"),
        &template("A", "R"),
        "tosca::type-mismatch",
        19,
        37,
        "lists `S` in `valid_relationship_types`",
    );
}

/// A scalar type whose `units` or `prefixes` is not a map gets one error, the grammar's, at
/// the value (§9.1.2.2 scalar): the unit-table rules, which read maps, do not report it again.
#[test]
fn a_unit_table_that_is_not_a_map_is_reported_once() {
    for (table, col) in [
        ("units: bps", 12),
        ("units: { bps: 1 }\n    prefixes: [k, M]", 15),
    ] {
        let bad = t(&format!(
            "data_types:\n  Bitrate:\n    derived_from: scalar\n    data_type: float\n    {table}\n"
        ));
        let found = errors(&bad);
        assert_eq!(found.len(), 1, "{table}: {found:#?}");
        let span = found[0].span.expect("a span");
        assert!(found[0].message.contains("must be a map"), "{found:#?}");
        assert_eq!(span.col, col, "{found:#?}");
    }
}
