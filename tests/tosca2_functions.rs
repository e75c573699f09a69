//! TOSCA 2.0 functions end to end: what a template's calls become in the IR. A value known
//! before deployment is evaluated (through TOSCA paths, `$get_property` chains and the pure
//! built-ins); what is known only at deployment stays a call, in the Simple Profile's
//! `[node, (capability,) name]` form wherever its path leads to one node template.
//!
//! The errors have one focused case each under `tests/bad_input/function2-*`.

mod common;

use toscana::ir::{Topology, Value, value_text};

/// Types shared by the cases: a server with an endpoint (whose port a server may leave unset),
/// and an app that connects to servers.
const TYPES: &str = r#"tosca_definitions_version: tosca_2_0
capability_types:
  Endpoint:
    properties:
      port: { type: integer, required: false }
relationship_types:
  ConnectsTo:
    properties:
      weight: { type: integer, default: 3 }
      target_port: { type: integer, required: false }
      source_name: { type: string, required: false }
node_types:
  Server:
    properties:
      name: { type: string }
      tags: { type: list, entry_schema: string, default: [ a, b ] }
      settings: { type: map, entry_schema: integer, required: false }
    attributes:
      private_address: { type: string }
    capabilities:
      endpoint: { type: Endpoint }
  App:
    properties:
      text: { type: string, required: false }
      number: { type: integer, required: false }
      list: { type: list, entry_schema: integer, required: false }
      names: { type: list, entry_schema: string, required: false }
      flag: { type: boolean, required: false }
      any: { type: map, entry_schema: string, required: false }
      counts: { type: map, entry_schema: integer, required: false }
      position: { type: integer, required: false }
    requirements:
      - server:
          capability: Endpoint
          relationship: ConnectsTo
          node: Server
          count_range: [ 0, UNBOUNDED ]
      - backup:
          capability: Endpoint
          relationship: ConnectsTo
          node: Server
          count_range: [ 0, 1 ]
functions:
  to_string:
    signatures:
      - arguments: [ integer ]
        result: string
"#;

/// The topology of `TYPES` plus `template`, read without errors.
fn topology(template: &str) -> Topology {
    let (read, diags) = common::read_text(&format!("{TYPES}{template}"));
    let errors: Vec<_> = diags.into_iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    read.topology.expect("a topology")
}

fn property<'t>(topology: &'t Topology, node: &str, name: &str) -> &'t Value {
    let node = topology.nodes.iter().find(|n| n.name == node).unwrap();
    &node.properties[name]
}

const SERVERS: &str = r#"service_template:
  node_templates:
    s1:
      type: Server
      properties: { name: one, settings: { threads: 4 } }
      capabilities: { endpoint: { properties: { port: 81 } } }
    s2:
      type: Server
      properties: { name: two }
      capabilities: { endpoint: { properties: { port: 82 } } }
"#;

#[test]
fn paths_follow_requirements_relationships_and_capabilities() {
    let t = topology(&format!(
        r#"{SERVERS}    app:
      type: App
      properties:
        text: {{ $get_property: [ SELF, RELATIONSHIP, server, 1, TARGET, name ] }}
        number: {{ $get_property: [ SELF, RELATIONSHIP, server, CAPABILITY, port ] }}
        list: {{ $get_property: [ SELF, RELATIONSHIP, server, ALL, TARGET, CAPABILITY, endpoint, port ] }}
        counts: {{ $get_property: [ s1, settings ] }}
      requirements:
        - server: s1
        - server:
            node: s2
            relationship:
              properties:
                target_port: {{ $get_property: [ SELF, CAPABILITY, port ] }}
                source_name: {{ $get_property: [ SELF, SOURCE, text ] }}
"#
    ));
    assert_eq!(property(&t, "app", "text"), &Value::string("two"));
    assert_eq!(property(&t, "app", "number"), &Value::Integer(81));
    assert_eq!(value_text(property(&t, "app", "list")), "[81, 82]");
    assert_eq!(value_text(property(&t, "app", "counts")), "{threads: 4}");
    // In a relationship SELF is the relationship; a chain through another property is followed.
    let second = &t.relationships[1];
    assert_eq!(second.properties["target_port"], Value::Integer(82));
    assert_eq!(second.properties["source_name"], Value::string("two"));
    assert_eq!(second.properties["weight"], Value::Integer(3));
}

#[test]
fn incoming_relationships_are_reached_from_a_capability() {
    let t = topology(&format!(
        r#"{SERVERS}    a1:
      type: App
      properties:
        number: {{ $get_property: [ s1, CAPABILITY, endpoint, RELATIONSHIP, 1, weight ] }}
        names: {{ $get_property: [ s1, CAPABILITY, endpoint, RELATIONSHIP, ALL, SOURCE, text ] }}
        text: first
      requirements:
        - server: s1
    a2:
      type: App
      properties:
        text: second
      requirements:
        - server:
            node: s1
            relationship:
              properties:
                weight: 7
"#
    ));
    assert_eq!(property(&t, "a1", "number"), &Value::Integer(7));
    assert_eq!(
        value_text(property(&t, "a1", "names")),
        r#"["first", "second"]"#
    );
}

#[test]
fn pure_functions_are_evaluated_once_their_arguments_are_known() {
    let t = topology(&format!(
        r#"{SERVERS}    app:
      type: App
      properties:
        text: {{ $concat: [ "http://", {{ $get_property: [ s1, name ] }}, ":", {{ $join: [ {{ $get_property: [ s1, tags ] }}, "-" ] }} ] }}
        number: {{ $sum: [ 1, {{ $length: [ {{ $get_property: [ s1, tags ] }} ] }}, {{ $round: [ 2.5 ] }} ] }}
        list: {{ $union: [ [ 1, 2 ], [ 2, 3 ] ] }}
        flag: {{ $and: [ {{ $has_suffix: [ abc, bc ] }}, {{ $less_than: [ {{ $get_property: [ s2, CAPABILITY, endpoint, port ] }}, 100 ] }} ] }}
      requirements:
        - server: s1
"#
    ));
    assert_eq!(
        property(&t, "app", "text"),
        &Value::string("http://one:a-b")
    );
    assert_eq!(property(&t, "app", "number"), &Value::Integer(5));
    assert_eq!(value_text(property(&t, "app", "list")), "[1, 2, 3]");
    assert_eq!(property(&t, "app", "flag"), &Value::Boolean(true));
}

/// The list and map tests of §10.2.3 (T2-FN-LST-02/03), `$remainder` of §10.2.5.5 (T2-FN-ARI-04),
/// and a call written `$name$suffix` (§10.1 Function Syntax, T2-FN-03), evaluated before
/// deployment.
#[test]
fn entry_and_key_tests_remainder_and_suffixed_names_are_evaluated() {
    let t = topology(&format!(
        r#"{SERVERS}    app:
      type: App
      properties:
        text: {{ $concat$first: [ a, b ] }}
        number: {{ $remainder: [ 7, 3 ] }}
        flag:
          $and:
            - $has_entry: [ {{ $get_property: [ s1, tags ] }}, a ]
            - $has_entry: [ {{ a: 1, b: 2 }}, 2 ]
            - $not: [ {{ $has_entry: [ [ 1, 2 ], 3 ] }} ]
            - $has_key: [ {{ a: 1 }}, a ]
            - $not: [ {{ $has_key: [ {{ a: 1 }}, b ] }} ]
            - $has_all_entries: [ [ 1, 2, 3 ], [ 1, 3 ] ]
            - $not: [ {{ $has_all_entries: [ [ 1, 2 ], [ 1, 5 ] ] }} ]
            - $has_any_entry: [ [ 1, 2 ], [ 5, 2 ] ]
            - $has_all_keys: [ {{ a: 1, b: 2 }}, [ a, b ] ]
            - $has_any_key: [ {{ a: 1 }}, [ z, a ] ]
            - $not: [ {{ $has_any_key: [ {{ a: 1 }}, [ z ] ] }} ]
      requirements:
        - server: s1
"#
    ));
    assert_eq!(property(&t, "app", "text"), &Value::string("ab"));
    assert_eq!(property(&t, "app", "number"), &Value::Integer(1));
    assert_eq!(property(&t, "app", "flag"), &Value::Boolean(true));
}

#[test]
fn an_undefined_function_is_left_to_the_orchestrator_with_its_arguments_evaluated() {
    let (read, diags) = common::read_text(&format!(
        r#"{TYPES}{SERVERS}    app:
      type: App
      properties:
        text: {{ $vault_secret: [ {{ $get_property: [ s1, name ] }}, password ] }}
      requirements:
        - server: s1
"#
    ));
    let warnings: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
    assert!(
        diags.iter().all(|d| !d.is_error())
            && warnings
                .iter()
                .any(|m| m.contains("`$vault_secret` is neither built in")),
        "{warnings:#?}"
    );
    let t = read.topology.expect("a topology");
    // The call is kept as written; its arguments are evaluated like any other values.
    assert_eq!(
        value_text(property(&t, "app", "text")),
        "vault_secret(one, password)"
    );
}

#[test]
fn what_deployment_decides_stays_a_call_in_the_simple_profile_form() {
    let t = topology(&format!(
        r#"{SERVERS}    app:
      type: App
      properties:
        text: {{ $get_attribute: [ SELF, RELATIONSHIP, server, TARGET, private_address ] }}
        number: {{ $get_attribute: [ SELF, RELATIONSHIP, server, TARGET, CAPABILITY, endpoint, port ] }}
        any:
          orchestrated: {{ $get_property: [ SELF, RELATIONSHIP, backup, TARGET, name ] }}
          custom: {{ $to_string: [ {{ $get_property: [ s1, CAPABILITY, endpoint, port ] }} ] }}
        position: $node_index
      requirements:
        - server: s1
"#
    ));
    assert_eq!(
        value_text(property(&t, "app", "text")),
        "get_attribute(s1, private_address)"
    );
    assert_eq!(
        value_text(property(&t, "app", "number")),
        "get_attribute(s1, endpoint, port)"
    );
    let Value::Map(any) = property(&t, "app", "any") else {
        panic!("a map")
    };
    // `backup` has no assignment: the orchestrator fulfils it, so the path is kept as written.
    assert_eq!(
        value_text(&any["orchestrated"]),
        "get_property(SELF, RELATIONSHIP, backup, TARGET, name)"
    );
    match &any["orchestrated"] {
        Value::Call(call) => assert!(call.has_unresolved_path()),
        other => panic!("a call, not {other:?}"),
    }
    // A custom function's implementation is opaque: its arguments are evaluated, it is not.
    assert_eq!(value_text(&any["custom"]), "to_string(81)");
    // One representation: its index is 0.
    assert_eq!(property(&t, "app", "position"), &Value::Integer(0));
}

#[test]
fn relationship_index_is_the_place_among_the_requirement_s_relationships() {
    // Its relationships of one requirement are numbered in assignment order (§10.2.1.7
    // $relationship_index, §14.3.6 Many-to-Many Relationships).
    let t = topology(&format!(
        r#"{SERVERS}    app:
      type: App
      requirements:
        - server:
            node: s1
            relationship: {{ properties: {{ weight: $relationship_index }} }}
        - backup:
            node: s2
            relationship: {{ properties: {{ weight: $relationship_index }} }}
        - server:
            node: s2
            relationship: {{ properties: {{ weight: {{ $sum: [ $relationship_index, 10 ] }} }} }}
    many:
      type: App
      requirements:
        - server:
            node: s1
            count: 1
        - server:
            node: s2
            count: {{ $get_input: n }}
        - server:
            node: s1
            relationship: {{ properties: {{ weight: $relationship_index }} }}
  inputs:
    n: {{ type: integer }}
"#
    ));
    let weight = |from: &str, i: usize| {
        let rels: Vec<_> = t
            .relationships
            .iter()
            .filter(|r| t.nodes[r.source.index()].name == from)
            .collect();
        value_text(&rels[i].properties["weight"])
    };
    assert_eq!(weight("app", 0), "0");
    // Another requirement counts from 0 again.
    assert_eq!(weight("app", 1), "0");
    assert_eq!(weight("app", 2), "11");
    // After a relationship whose count only deployment knows, the index is not known.
    assert_eq!(weight("many", 2), "relationship_index()");
}

#[test]
fn get_input_binds_once_its_index_is_known() {
    let t = topology(
        r#"service_template:
  inputs:
    names:
      type: list
      entry_schema: string
      default: [ alpha, beta ]
  node_templates:
    s:
      type: Server
      properties:
        name: { $get_input: [ names, $node_index ] }
"#,
    );
    assert_eq!(property(&t, "s", "name"), &Value::string("alpha"));
}

#[test]
fn escapes_and_metadata_are_text() {
    let t = topology(
        r#"service_template:
  node_templates:
    s:
      type: Server
      metadata:
        note: $not_a_call
      properties:
        name: $$literal
        settings:
          $$key: 1
"#,
    );
    let s = &t.nodes[0];
    assert_eq!(s.metadata["note"], Value::string("$not_a_call"));
    assert_eq!(s.properties["name"], Value::string("$literal"));
    assert_eq!(value_text(&s.properties["settings"]), "{$key: 1}");
}

#[test]
fn a_long_chain_of_get_property_is_followed_without_recursion() {
    // Each server reads the name of the next one, so evaluating the first needs the whole
    // chain: a recursive evaluator would exhaust a thread's stack long before the end.
    const LENGTH: usize = 3000;
    let mut template = String::from("service_template:\n  node_templates:\n");
    for i in 0..LENGTH {
        let name = if i + 1 < LENGTH {
            format!("{{ $get_property: [ s{}, name ] }}", i + 1)
        } else {
            "last".to_string()
        };
        template.push_str(&format!(
            "    s{i}:\n      type: Server\n      properties:\n        name: {name}\n"
        ));
    }
    let t = topology(&template);
    assert!(
        t.nodes
            .iter()
            .all(|n| n.properties["name"] == Value::string("last"))
    );
}

#[test]
fn custom_functions_live_in_the_namespaces_of_their_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("lib.yaml"),
        "tosca_definitions_version: tosca_2_0\nfunctions:\n  to_text:\n    signatures:\n      - arguments: [ integer ]\n        result: string\n",
    )
    .unwrap();
    let main = |call: &str| {
        format!(
            "tosca_definitions_version: tosca_2_0\nimports:\n  - url: lib.yaml\n    namespace: lib\nnode_types:\n  N:\n    properties:\n      text: {{ type: string }}\nservice_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n        text: {{ {call}: [ 80 ] }}\n"
        )
    };
    let read = |text: String| {
        let path = dir.path().join("main.yaml");
        std::fs::write(&path, text).unwrap();
        let (read, diags) = common::read_path(&path);
        (read.topology, diags)
    };
    let (topology, diags) = read(main("$lib:to_text"));
    assert!(!diags.iter().any(|d| d.is_error()), "{diags:#?}");
    assert_eq!(
        value_text(&topology.unwrap().nodes[0].properties["text"]),
        "lib:to_text(80)"
    );
    // Unqualified, the name does not reach into the `lib` namespace (T2-NS-10).
    let (_, diags) = read(main("$to_text"));
    assert!(
        diags
            .iter()
            .any(|d| d.is_error() && d.message == "unknown function `$to_text`"),
        "{diags:#?}"
    );
}

#[test]
fn a_custom_call_carries_the_implementation_of_the_signature_it_fits() {
    // The service template refines `to_string` (only an implementation may change, §10.4 Function
    // Definitions) and adds a second signature with an implementation of its own.
    let template = r#"service_template:
  functions:
    to_string:
      signatures:
        - implementation: scripts/to_string.py
        - arguments: [ float ]
          result: string
          implementation:
            primary: scripts/float.py
            dependencies: [ scripts/lib.py ]
  node_templates:
    app:
      type: App
      properties:
        text: { $to_string: [ 80 ] }
        any:
          f: { $to_string: [ 1.5 ] }
"#;
    let (read, diags) = common::read_text(&format!("{TYPES}{template}"));
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let t = read.topology.expect("a topology");
    let Value::Call(call) = property(&t, "app", "text") else {
        panic!("a call")
    };
    let primary = |c: &toscana::ir::Call| {
        let i = c.implementation.as_ref().expect("an implementation");
        i.primary.as_ref().unwrap().file.clone()
    };
    assert_eq!(primary(call), "scripts/to_string.py");
    let Value::Map(any) = property(&t, "app", "any") else {
        panic!("a map")
    };
    let Value::Call(second) = &any["f"] else {
        panic!("a call")
    };
    assert_eq!(primary(second), "scripts/float.py");
    let implementation = second.implementation.as_ref().unwrap();
    assert_eq!(implementation.dependencies[0].file, "scripts/lib.py");
    // Said once per signature, not once per call.
    let not_run: Vec<_> = diags
        .iter()
        .filter(|d| d.message.contains("which toscana does not run"))
        .collect();
    assert_eq!(not_run.len(), 2, "{not_run:#?}");
    // The IR's JSON names it.
    let json = serde_json::to_string(call).unwrap();
    assert!(json.contains("scripts/to_string.py"), "{json}");
}

#[test]
fn a_signature_whose_argument_fails_its_validation_gives_way_to_the_next() {
    // Each signature's argument is judged, its validation clause included, reporting nothing
    // (§10.4 Function Definitions: the first signature that fits is the call's): -4 fails the
    // first signature's clause and fits the second, 4 fits the first.
    // `TYPES` ends in its `functions`, which this one joins.
    let template = r#"  root:
    signatures:
      - arguments:
          - type: integer
            validation: { $greater_or_equal: [ $value, 0 ] }
        result: string
        implementation: scripts/root.py
      - arguments: [ float ]
        result: string
        implementation: scripts/complex_root.py
service_template:
  node_templates:
    app:
      type: App
      properties:
        text: { $root: [ -4 ] }
        any:
          k: { $root: [ 4 ] }
"#;
    let (read, diags) = common::read_text(&format!("{TYPES}{template}"));
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let t = read.topology.expect("a topology");
    let primary = |value: &Value| {
        let Value::Call(call) = value else {
            panic!("a call: {value:?}")
        };
        let i = call.implementation.as_ref().expect("an implementation");
        i.primary.as_ref().unwrap().file.clone()
    };
    assert_eq!(
        primary(property(&t, "app", "text")),
        "scripts/complex_root.py"
    );
    let Value::Map(any) = property(&t, "app", "any") else {
        panic!("a map")
    };
    assert_eq!(primary(&any["k"]), "scripts/root.py");
}

#[test]
fn a_select_filter_is_checked_against_the_type_and_kept_evaluated() {
    let t = topology(
        r#"service_template:
  inputs:
    min_port: { type: integer, default: 8000 }
  node_templates:
    found:
      type: Server
      directives: [ select ]
      node_filter:
        $and:
          - $greater_or_equal:
              - $get_property: [ SELF, CAPABILITY, endpoint, port ]
              - $get_input: min_port
          - $equal: [ { $concat: [ a, b ] }, ab ]
"#,
    );
    // Only selected: its required `name` is not asked for (§7.2.1 Node Template Directives).
    let selection = t.nodes[0].selection.as_ref().expect("selected");
    let filter = selection.node_filter.as_ref().expect("a filter");
    // The input is bound and the pure call computed; the candidate's port is the orchestrator's.
    assert_eq!(
        value_text(filter),
        "and(greater_or_equal(get_property(SELF, CAPABILITY, endpoint, port), 8000), true)"
    );
}

#[test]
fn a_select_filter_false_for_every_node_falls_through_to_the_next_directive() {
    let template = r#"service_template:
  inputs:
    wanted: { type: string, default: linux }
  node_templates:
    found:
      type: Server
      directives: [ select, create ]
      properties: { name: fallback }
      node_filter: { $equal: [ { $get_input: wanted }, windows ] }
"#;
    let (read, diags) = common::read_text(&format!("{TYPES}{template}"));
    assert!(!diags.iter().any(|d| d.is_error()), "{diags:#?}");
    assert!(
        diags.iter().any(|d| !d.is_error()
            && d.message.contains("is false whatever the node")
            && d.hint.as_deref().is_some_and(|h| h.contains("`create`"))),
        "{diags:#?}"
    );
    let t = read.topology.unwrap();
    let filter = t.nodes[0].selection.as_ref().unwrap().node_filter.as_ref();
    assert_eq!(filter, Some(&Value::Boolean(false)));
}
