//! A type's interface inputs are judged for the type (`resolve::calls::type_inputs` for TOSCA
//! 2.0, `resolve::type_functions` for the Simple Profile), and again through every template of
//! a template of the type: each fact must still be reported once, at its place, whether or not
//! a template uses the type (the bad-input cases `hunt5-*` show each rule; these count the
//! reports), for the Simple Profile with two templates of the type too. Two TOSCA 2.0
//! templates of one type still report a call written in the type once each, as the message
//! names the template: not fixed yet.

mod common;

use common::read_text;
use toscana::diag::Diagnostic;

/// The errors reported at 1-based `line`, by message.
fn errors_at(yaml: &str, line: u32) -> Vec<String> {
    read_text(yaml)
        .1
        .into_iter()
        .filter(Diagnostic::is_error)
        .filter(|d| d.span.is_some_and(|s| s.line == line))
        .map(|d| d.message)
        .collect()
}

const TOSCA2: &str = "tosca_definitions_version: tosca_2_0
interface_types:
  Standard:
    operations:
      configure: {}
node_types:
  Database:
    properties:
      port:
        type: integer
        default: 5432
    interfaces:
      Standard:
        type: Standard
        operations:
          configure:
            inputs:
              db_port: { type: integer, value: { $get_property: [ SELF, prot ] } }
              count: { type: integer, value: { $get_attribute: [ SELF ] } }
";

const SIMPLE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.nodes.Database:
    derived_from: tosca.nodes.Root
    properties:
      port:
        type: integer
        default: 5432
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        configure:
          inputs:
            db_port: { get_property: [ SELF, prot ] }
            peer: { get_property: [ TARGET, port ] }
            typo: { get_propery: [ SELF, port ] }
            size: { token: [ a, b ] }
";

#[test]
fn a_tosca2_type_input_is_judged_once_with_or_without_templates() {
    let used =
        format!("{TOSCA2}service_template:\n  node_templates:\n    a: {{ type: Database }}\n");
    for (yaml, self_is) in [
        (TOSCA2.to_string(), "node type `Database`"),
        (used, "node template `a`"),
    ] {
        let unknown = errors_at(&yaml, 18);
        assert_eq!(unknown.len(), 1, "{unknown:?}");
        assert!(
            unknown[0].contains(self_is) && unknown[0].contains("`prot`"),
            "{unknown:?}"
        );
        let arity = errors_at(&yaml, 19);
        assert_eq!(arity.len(), 1, "{arity:?}");
        assert!(arity[0].contains("takes at least 2 arguments"), "{arity:?}");
    }
}

#[test]
fn a_simple_profile_type_input_is_judged_once_with_or_without_templates() {
    let used = format!(
        "{SIMPLE}topology_template:\n  node_templates:\n    a: {{ type: my.nodes.Database }}\n    b: {{ type: my.nodes.Database }}\n"
    );
    for yaml in [SIMPLE.to_string(), used] {
        let expected = [
            (14, "node type `my.nodes.Database` has no property `prot`"),
            (15, "TARGET means an end of the relationship"),
            (16, "unknown function `get_propery`"),
            (17, "token needs exactly three arguments"),
        ];
        for (line, message) in expected {
            let found = errors_at(&yaml, line);
            assert_eq!(found.len(), 1, "line {line}: {found:?}");
            assert!(found[0].contains(message), "line {line}: {found:?}");
        }
    }
}
