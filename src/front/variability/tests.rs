//! The operators and functions one by one, with the RC's semantics, and the resolution rules the
//! conformance suite does not reach.

use indexmap::IndexMap;

use super::eval::{Ctx, Evaluator, Value};
use super::graph;
use super::options::Options;
use crate::diag::Diagnostics;
use crate::limits::Limits;
use crate::source::{Origin, SourceMap};
use crate::yaml::Node;

fn parse(text: &str) -> Node {
    let mut sources = SourceMap::new();
    let id = sources.add("t.yaml", Origin::Builtin("t.yaml".into()), text.to_string());
    let mut diags = Diagnostics::new();
    crate::yaml::load(&sources, id, &Limits::default(), &mut diags).expect("test YAML")
}

/// Evaluates `expr` in a template with the node templates `a` (present) and `b` (absent),
/// `a` having the requirements `host` (to `b`) and `db` (to `a`... itself, present), and the
/// variability input `mode` = `dev`. Errors come back as their messages.
fn eval(expr: &str) -> Result<Value, Vec<String>> {
    let text = format!(
        "tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    inputs:
      mode: {{ type: string }}
      unset: {{ type: string }}
    expressions:
      x: {expr}
      loop: {{ get_variability_expression: loop }}
      yes: true
  node_templates:
    a:
      type: t
      requirements:
        - host: b
        - db: a
    b:
      type: t
      conditions: false
  groups:
    g: {{ type: tosca.groups.Root, members: [b] }}
  policies:
    - p: {{ type: tosca.policies.Root, targets: [g] }}
"
    );
    let root = parse(&text);
    let topo = root.as_map().unwrap().get("topology_template").unwrap();
    let mut diags = Diagnostics::new();
    let g = graph::build(&root, topo, &mut diags);
    let options = Options::default();
    let exprs = topo
        .as_map()
        .unwrap()
        .get("variability")
        .unwrap()
        .as_map()
        .unwrap()
        .get("expressions")
        .unwrap()
        .as_map()
        .unwrap();
    let expressions: IndexMap<&str, &Node> = exprs
        .entries()
        .iter()
        .map(|e| (e.key.scalar_text().unwrap(), &e.value))
        .collect();
    let x = expressions["x"];
    let mut inputs = IndexMap::new();
    inputs.insert("mode".to_string(), (Value::Str("dev".into()), x.span));
    let mut ev = Evaluator::new(
        &g,
        &options,
        inputs,
        vec!["mode", "unset"],
        expressions,
        &mut diags,
    );
    let v = ev.eval(x, Ctx::none());
    drop(ev);
    v.map_err(|_| diags.finish().into_iter().map(|d| d.message).collect())
}

fn yes(expr: &str) {
    assert_eq!(eval(expr), Ok(Value::Bool(true)), "{expr}");
}

fn no(expr: &str) {
    assert_eq!(eval(expr), Ok(Value::Bool(false)), "{expr}");
}

fn num(expr: &str, n: f64) {
    assert_eq!(eval(expr), Ok(Value::Num(n)), "{expr}");
}

fn fails(expr: &str, message: &str) {
    match eval(expr) {
        Err(messages) => assert!(
            messages.iter().any(|m| m == message),
            "{expr}: {messages:?}"
        ),
        Ok(v) => panic!("{expr} gave {v:?}, expected the error {message}"),
    }
}

#[test]
fn boolean_operators() {
    yes("{and: []}");
    no("{or: []}");
    yes("{and: [true, true]}");
    no("{and: [true, false]}");
    yes("{or: [false, true]}");
    yes("{not: false}");
    // xor is "exactly one" in the RC, not parity.
    yes("{xor: [true, false, false]}");
    no("{xor: [true, true, true]}");
    no("{xor: []}");
    yes("{implies: [false, false]}");
    no("{implies: [true, false]}");
    // Short-circuit: the failing operand after a decisive one is not evaluated.
    no("{and: [false, {add: [x, 1]}]}");
    fails("{and: [true, 1]}", "Element \"1\" is not a boolean");
    fails("{implies: [true]}", "`implies` takes 2 arguments, found 1");
}

#[test]
fn arithmetic_operators() {
    num("{add: [10, 1, 1, 1, 1, 1]}", 15.0);
    num("{add: []}", 0.0);
    num("{sub: [10, 1, 1, 1, 1, 1]}", 5.0);
    num("{mul: [10, 1, 3, 4]}", 120.0);
    num("{mul: []}", 1.0);
    num("{div: [10, 1, 2, 5]}", 1.0);
    num("{div: [1, 4]}", 0.25);
    num("{mod: [11, 2]}", 1.0);
    num("{mod: [-11, 2]}", -1.0);
    num("{add: [1.5, 1]}", 2.5);
    fails("{div: [1, 0]}", "`div` by zero");
    fails("{mod: [1, 0]}", "`mod` by zero");
    fails("{add: [1, a]}", "Element \"a\" is not a number");
    fails("{mod: [1, 2, 3]}", "`mod` takes 2 arguments, found 3");
}

#[test]
fn constraint_operators() {
    yes("{equal: [1, 1, 1]}");
    no("{equal: [1, '1']}");
    yes("{equal: [1, 1.0]}");
    yes("{equal: [{get_variability_input: mode}, dev]}");
    yes("{greater_than: [2, 1]}");
    no("{greater_than: [1, 1]}");
    yes("{greater_or_equal: [1, 1]}");
    yes("{less_than: [a, b]}");
    yes("{less_or_equal: [2, 2]}");
    fails(
        "{less_than: [1, a]}",
        "`less_than` compares two numbers or two strings, not 1 and 'a'",
    );
    yes("{in_range: [2, [1, 2]]}");
    no("{in_range: [3, [1, 2]]}");
    yes("{length: [abc, 3]}");
    yes("{length: ['äöü', 3]}");
    yes("{min_length: [abc, 2]}");
    no("{max_length: [abc, 2]}");
    fails("{length: [3, 3]}", "Element \"3\" is not a string");
    yes("{valid_values: [b, [a, b, {concat: [c]}]]}");
    no("{valid_values: [d, [a, b]]}");
}

#[test]
fn string_functions() {
    assert_eq!(
        eval("{concat: [hello, ' ', world, 1, true]}"),
        Ok(Value::Str("hello world1true".into()))
    );
    assert_eq!(
        eval("{join: [[a, b, 1.5], '-']}"),
        Ok(Value::Str("a-b-1.5".into()))
    );
    assert_eq!(
        eval("{token: ['a:b:c', ':', 1]}"),
        Ok(Value::Str("b".into()))
    );
    fails(
        "{token: ['a:b', ':', 2]}",
        "token 2 of 'a:b' split at ':' does not exist: there are 2 tokens",
    );
}

#[test]
fn inputs_expressions_and_presence() {
    assert_eq!(
        eval("{get_variability_input: mode}"),
        Ok(Value::Str("dev".into()))
    );
    fails(
        "{get_variability_input: unset}",
        "Did not find variability input \"unset\"",
    );
    fails(
        "{get_variability_input: nope}",
        "variability input \"nope\" is not declared",
    );
    yes("{get_variability_condition: yes}");
    fails(
        "{get_variability_expression: nope}",
        "Did not find variability expression \"nope\"",
    );
    fails(
        "{get_variability_expression: loop}",
        "variability cycle: expression `loop` → expression `loop`",
    );
    yes("{get_element_presence: a}");
    no("{get_element_presence: b}");
    // By requirement name and by position; a relation is present on its own conditions.
    yes("{get_element_presence: [a, host]}");
    yes("{get_element_presence: [a, 1]}");
    fails(
        "{get_element_presence: [a, 2]}",
        "Relation \"a.2\" not found",
    );
    fails("{get_element_presence: c}", "Node \"c\" not found");
    // Group g's only member b is absent; policy p targets g.
    no("{has_present_members: g}");
    no("{has_present_targets: p}");
    no("{has_present_targets: 0}");
    fails("{has_present_members: h}", "Group \"h\" not found");
    fails("{has_present_targets: q}", "Policy \"q\" not found");
    fails(
        "{get_source_presence: SELF}",
        "\"get_source_presence\" is only valid inside a relation",
    );
    fails(
        "{get_target_presence: OTHER}",
        "\"SELF\" is the only valid value for \"get_target_presence\" but received \"OTHER\"",
    );
}

#[test]
fn malformed_expressions() {
    fails("~", "Received condition that is undefined or null");
    fails(
        "{equals: [1, 1]}",
        "Unknown variability condition \"equals\"",
    );
    fails(
        "{and: [], or: []}",
        "an expression is a map with exactly one operator, this one has 2",
    );
    fails(
        "{and: true}",
        "`and` takes a list of arguments, found a boolean",
    );
}

#[test]
fn a_mistake_in_an_expression_used_twice_is_reported_once() {
    let root = parse(
        "tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    inputs:
      mode: { type: string }
    expressions:
      is_dev: { equal: [{ get_variability_input: mode }, dev] }
  node_templates:
    a:
      type: t
      conditions: { get_variability_expression: is_dev }
    b:
      type: t
      conditions: { get_variability_expression: is_dev }
",
    );
    let mut diags = Diagnostics::new();
    let resolved = super::resolve(
        &root,
        &Options::default(),
        &Vec::new(),
        &crate::limits::Limits::default(),
        &mut diags,
    );
    assert!(resolved.is_none());
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["Did not find variability input \"mode\""]);
}
