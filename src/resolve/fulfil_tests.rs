//! TOSCA 2.0 fulfilment and expansion, read through the whole pipeline.

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{Topology, Value};
use crate::resolve::typing::tests::{errors, topology};

/// Types for the cases: a `Client` whose `service` requirement targets a `Server`'s capacity.
const TYPES: &str = r#"
tosca_definitions_version: tosca_2_0
capability_types:
  Service:
    properties:
      slots: { type: integer, required: false }
relationship_types:
  ServedBy: {}
node_types:
  Server:
    properties:
      cpus: { type: integer, required: false }
      zone: { type: string, required: false }
    capabilities:
      service: Service
  Client:
    requirements:
      - service:
          capability: Service
          relationship: ServedBy
          node: Server
"#;

fn read(templates: &str) -> (Topology, Vec<Diagnostic>) {
    topology(&format!(
        "{TYPES}service_template:\n  node_templates:\n{templates}"
    ))
}

/// Each relationship as `source -> target ×count`.
fn edges(t: &Topology) -> Vec<String> {
    t.relationships
        .iter()
        .map(|r| {
            let count = match &r.count {
                Value::Integer(n) => *n,
                _ => -1,
            };
            format!(
                "{} -> {} x{count}",
                t.nodes[r.source.index()].name,
                t.nodes[r.target.index()].name
            )
        })
        .collect()
}

#[test]
fn a_false_conjunct_decides_even_when_another_is_known_only_at_deployment() {
    // An attribute is known only at deployment; `cpus` is known, and too small.
    let (t, diags) = read(
        r#"    s1: { type: Server, properties: { cpus: 2 } }
    c:
      type: Client
      requirements:
        - service:
            node_filter:
              $and:
                - $equal: [ { $get_attribute: [ SELF, TARGET, zone ] }, eu ]
                - $greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 4 ]
"#,
    );
    let errors = errors(&diags);
    assert!(
        errors
            .iter()
            .any(|e| e
                .contains("`s1` fails the node_filter: `$greater_or_equal` is false for 2 and 4")),
        "{errors:?}"
    );
    assert!(edges(&t).is_empty());
}

#[test]
fn an_unknown_filter_leaves_the_candidate_fitting() {
    let (t, diags) = read(
        r#"    s1: { type: Server }
    c:
      type: Client
      requirements:
        - service:
            node_filter:
              $equal: [ { $get_attribute: [ SELF, TARGET, zone ] }, eu ]
"#,
    );
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    assert_eq!(edges(&t), ["c -> s1 x1"]);
}

#[test]
fn a_count_spreads_over_templates_each_to_a_different_representation() {
    let (t, diags) = read(
        r#"    a: { type: Server, count: 2 }
    b: { type: Server }
    c:
      type: Client
      requirements:
        - service:
            node: Server
            count: 3
"#,
    );
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    assert_eq!(edges(&t), ["c -> a x2", "c -> b x1"]);
    let c = t.nodes.iter().find(|n| n.name == "c").unwrap();
    let shares: Vec<&Value> = c.requirements.iter().map(|r| &r.count).collect();
    assert_eq!(shares, [&Value::Integer(2), &Value::Integer(1)]);
}

#[test]
fn non_optional_assignments_take_capacity_before_optional_ones() {
    // `first` comes first in the document but is optional; the one slot goes to `second`.
    let (t, diags) = read(
        r#"    s:
      type: Server
      capabilities:
        service:
          properties: { slots: 1 }
    first:
      type: Client
      requirements:
        - service: { node: s, optional: true, allocation: { slots: 1 } }
    second:
      type: Client
      requirements:
        - service: { node: s, allocation: { slots: 1 } }
"#,
    );
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    assert_eq!(edges(&t), ["second -> s x1"]);
    let warned = diags.iter().any(|d| {
        !d.is_error()
            && d.message
                .contains("it is optional, so it stays unfulfilled")
    });
    assert!(warned, "{diags:?}");
}

#[test]
fn a_lower_bound_without_an_assignment_makes_an_implicit_one() {
    let yaml = TYPES.replace(
        "          node: Server\n",
        "          node: Server\n          count_range: [ 2, 2 ]\n",
    );
    let (t, diags) = topology(&format!(
        "{yaml}service_template:\n  node_templates:\n    a: {{ type: Server }}\n    b: {{ type: Server }}\n    c: {{ type: Client }}\n"
    ));
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    assert_eq!(edges(&t), ["c -> a x1", "c -> b x1"]);
    let c = t.nodes.iter().find(|n| n.name == "c").unwrap();
    assert!(c.requirements.iter().all(|r| r.implicit));
}

/// The expanded topology of `templates`, or the errors.
fn expanded(templates: &str) -> Result<Topology, Vec<String>> {
    let (t, diags) = read(templates);
    let errors: Vec<String> = errors(&diags).into_iter().map(String::from).collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut diags = Diagnostics::with_cap(0);
    let sources = crate::source::SourceMap::default();
    let limits = crate::limits::Limits::default();
    let out = crate::resolve::expand(&t, &sources, &limits, &mut diags);
    let errors: Vec<String> = errors_of(diags.finish());
    match out {
        Some(t) if errors.is_empty() => Ok(t),
        _ => Err(errors),
    }
}

fn errors_of(diags: Vec<Diagnostic>) -> Vec<String> {
    diags
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| d.message)
        .collect()
}

#[test]
fn equal_counts_pair_up_one_to_one() {
    let t = expanded(
        r#"    s: { type: Server, count: 3 }
    c:
      type: Client
      count: 3
      requirements:
        - service: s
"#,
    )
    .unwrap();
    let names: Vec<String> = edges(&t);
    assert_eq!(
        names,
        ["c[0] -> s[0] x1", "c[1] -> s[1] x1", "c[2] -> s[2] x1"]
    );
    let r = &t.relationships[2];
    assert_eq!(r.name, "c[2].service[0]");
    assert_eq!(r.instance.as_ref().unwrap().of, "c.service");
}

#[test]
fn a_full_mesh_numbers_the_relationships_of_each_representation() {
    let t = expanded(
        r#"    s: { type: Server, count: 2 }
    c:
      type: Client
      count: 2
      requirements:
        - service: { node: s, count: 2 }
"#,
    )
    .unwrap();
    assert_eq!(
        edges(&t),
        [
            "c[0] -> s[0] x1",
            "c[0] -> s[1] x1",
            "c[1] -> s[0] x1",
            "c[1] -> s[1] x1"
        ]
    );
    let indices: Vec<u64> = t
        .relationships
        .iter()
        .map(|r| r.instance.as_ref().unwrap().index)
        .collect();
    assert_eq!(indices, [0, 1, 0, 1]);
}

#[test]
fn capacity_per_representation_holds_when_expanded() {
    // Two slots in all, but one per representation: the second client of each pair moves on.
    let t = expanded(
        r#"    s:
      type: Server
      count: 2
      capabilities:
        service:
          properties: { slots: 1 }
    c:
      type: Client
      count: 2
      requirements:
        - service: { node: s, allocation: { slots: 1 } }
"#,
    )
    .unwrap();
    assert_eq!(edges(&t), ["c[0] -> s[0] x1", "c[1] -> s[1] x1"]);
}

#[test]
fn node_index_values_are_evaluated_per_representation() {
    let yaml = format!(
        "{TYPES}service_template:\n  inputs:\n    zones: {{ type: list, entry_schema: string, default: [ a, b ] }}\n  node_templates:\n    s:\n      type: Server\n      count: 2\n      properties:\n        zone: {{ $get_input: [ zones, $node_index ] }}\n        cpus: {{ $sum: [ $node_index, 1 ] }}\n"
    );
    let (t, diags) = topology(&yaml);
    assert!(errors_of(diags).is_empty());
    let mut diags = Diagnostics::with_cap(0);
    let out = crate::resolve::expand(
        &t,
        &crate::source::SourceMap::default(),
        &crate::limits::Limits::default(),
        &mut diags,
    )
    .unwrap();
    let zones: Vec<&Value> = out.nodes.iter().map(|n| &n.properties["zone"]).collect();
    assert_eq!(zones, [&Value::string("a"), &Value::string("b")]);
    let cpus: Vec<&Value> = out.nodes.iter().map(|n| &n.properties["cpus"]).collect();
    assert_eq!(cpus, [&Value::Integer(1), &Value::Integer(2)]);
}

#[test]
fn available_allocation_counts_what_earlier_relationships_took() {
    let (t, diags) = read(
        r#"    s:
      type: Server
      capabilities:
        service:
          properties: { slots: 2 }
    first:
      type: Client
      requirements:
        - service: { node: s, allocation: { slots: 1 } }
    second:
      type: Client
      requirements:
        - service:
            node_filter:
              $greater_or_equal: [ { $available_allocation: [ SELF, CAPABILITY, slots ] }, 2 ]
"#,
    );
    let errors = errors(&diags);
    assert!(
        errors
            .iter()
            .any(|e| e
                .contains("`s` fails the node_filter: `$greater_or_equal` is false for 1 and 2")),
        "{errors:?}"
    );
    assert_eq!(edges(&t), ["first -> s x1"]);
}

#[test]
fn a_candidate_whose_type_lacks_what_the_filter_reads_fails_it() {
    // `Lamp` offers the capability but defines no `cpus`: the filter cannot hold of it.
    let types = format!(
        "{TYPES}  Lamp:\n    capabilities:\n      service: Service\n  Consumer:\n    requirements:\n      - service: {{ capability: Service, relationship: ServedBy }}\n"
    );
    let read = |templates: &str| {
        topology(&format!(
            "{types}service_template:\n  node_templates:\n{templates}"
        ))
    };
    let consumer = r#"    c:
      type: Consumer
      requirements:
        - service:
            node_filter:
              $greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 4 ]
"#;
    let (t, diags) = read(&format!(
        "    lamp: {{ type: Lamp }}\n    big: {{ type: Server, properties: {{ cpus: 8 }} }}\n{consumer}"
    ));
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    assert_eq!(edges(&t), ["c -> big x1"]);
    let (t, diags) = read(&format!("    lamp: {{ type: Lamp }}\n{consumer}"));
    let errors = errors(&diags);
    assert!(
        errors
            .iter()
            .any(|e| e.contains("`lamp` fails the node_filter: `$get_property`: node template `lamp` (Lamp) has no property `cpus`")),
        "{errors:?}"
    );
    assert!(edges(&t).is_empty());
}

#[test]
fn a_filter_reads_the_relationship_s_own_properties_as_self() {
    let types = TYPES.replace(
        "  ServedBy: {}",
        "  ServedBy:\n    properties:\n      tier: { type: string, required: false }",
    );
    let templates = r#"    s1: { type: Server }
    c:
      type: Client
      requirements:
        - service:
            relationship:
              type: ServedBy
              properties: { tier: gold }
            node_filter:
              $equal: [ { $get_property: [ SELF, tier ] }, silver ]
"#;
    let (t, diags) = topology(&format!(
        "{types}service_template:\n  node_templates:\n{templates}"
    ));
    let errors = errors(&diags);
    assert!(
        errors.iter().any(
            |e| e.contains("`s1` fails the node_filter: `$equal` is false for gold and silver")
        ),
        "{errors:?}"
    );
    assert!(edges(&t).is_empty());
}

#[test]
fn a_filter_wrong_whatever_the_candidate_is_one_error_and_not_judged() {
    // `[SELF, service, ...]` reads SELF as the requiring node; in 2.0 it is the relationship.
    let (t, diags) = read(
        r#"    s1: { type: Server }
    c:
      type: Client
      requirements:
        - service:
            node_filter:
              $equal: [ { $get_property: [ SELF, service, slots ] }, 1 ]
"#,
    );
    let errors = errors(&diags);
    assert!(
        errors.len() == 1
            && errors[0].contains("has no property `service`")
            && !errors.iter().any(|e| e.contains("no node template")),
        "{errors:?}"
    );
    // Not judged: the candidate is chosen as though there were no filter.
    assert_eq!(edges(&t), ["c -> s1 x1"]);
}

#[test]
fn relationship_index_reaches_relationship_interfaces_when_expanded() {
    let yaml = r#"
tosca_definitions_version: tosca_2_0
capability_types:
  Service: {}
interface_types:
  Configure:
    operations:
      post_configure_source:
        inputs:
          index: { type: integer }
relationship_types:
  ServedBy:
    interfaces:
      configure: { type: Configure }
node_types:
  Server:
    capabilities:
      service: Service
  Client:
    requirements:
      - service:
          capability: Service
          relationship: ServedBy
          node: Server
service_template:
  node_templates:
    s: { type: Server, count: 2 }
    c:
      type: Client
      requirements:
        - service:
            node: s
            count: 2
            relationship:
              interfaces:
                configure:
                  operations:
                    post_configure_source:
                      inputs:
                        index: $relationship_index
"#;
    let (t, diags) = topology(yaml);
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    // Two relationships per representation: the topology of templates cannot say which.
    let input = |r: &crate::ir::Relationship| {
        r.interfaces["configure"].operations["post_configure_source"].inputs["index"].clone()
    };
    assert!(matches!(input(&t.relationships[0]), Value::Call(_)));
    let mut diags = Diagnostics::with_cap(0);
    let sources = crate::source::SourceMap::default();
    let limits = crate::limits::Limits::default();
    let e = crate::resolve::expand(&t, &sources, &limits, &mut diags).unwrap();
    let indices: Vec<Value> = e.relationships.iter().map(input).collect();
    assert_eq!(indices, [Value::Integer(0), Value::Integer(1)]);
}

#[test]
fn a_target_index_one_value_serves_is_evaluated_in_the_topology_of_templates() {
    let (t, diags) = read(
        r#"    s: { type: Server, count: 2 }
    c:
      type: Client
      requirements:
        - service: [ s, $relationship_index ]
        - service: [ s, { $sum: [ $relationship_index, $node_index ] } ]
    many:
      type: Client
      count: 2
      requirements:
        - service: [ s, $node_index ]
"#,
    );
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    let index = |i: usize| {
        t.relationships[i]
            .target_index
            .as_ref()
            .map(crate::ir::value_text)
    };
    assert_eq!(index(0).as_deref(), Some("0"));
    assert_eq!(index(1).as_deref(), Some("1"));
    // Two representations, two values: left to the pairing.
    assert_eq!(index(2).as_deref(), Some("node_index()"));
}
