//! The model's values read into IR values: `ValueReader` reads a `model::Value` as it reads the
//! YAML the value was built from, calls and what it reports included.

use indexmap::IndexMap;

use super::ValueReader;
use crate::diag::Diagnostics;
use crate::ir::{Dialect, Value};
use crate::limits::Limits;
use crate::resolve::typing::tests::topology;
use crate::source::{Origin, SourceMap};

/// `text` read both ways in `dialect`: from its YAML tree and from the model value built of it,
/// each with the messages it reported; as `metadata` (no calls) or, with `calls`, as a value.
fn both_ways(dialect: Dialect, text: &str) -> ((Value, Vec<String>), (Value, Vec<String>)) {
    read_both_ways(dialect, text, false)
}

fn read_both_ways(
    dialect: Dialect,
    text: &str,
    calls: bool,
) -> ((Value, Vec<String>), (Value, Vec<String>)) {
    let mut sources = SourceMap::new();
    let file = sources.add("t.yaml", Origin::Stdin, text);
    let mut loaded = Diagnostics::new();
    let node = crate::yaml::load(&sources, file, &Limits::default(), &mut loaded).unwrap();
    let reader = ValueReader {
        dialect,
        inputs: None,
        budget: None,
    };
    let read = |f: &dyn Fn(&mut Diagnostics) -> Value| {
        let mut diags = Diagnostics::new();
        let value = f(&mut diags);
        let messages = diags
            .iter()
            .map(|d| format!("{} at {:?}", d.message, d.span))
            .collect();
        (value, messages)
    };
    let value = crate::front::value::into_value(node.clone());
    if calls {
        return (
            read(&|d| reader.value(&node, d)),
            read(&|d| reader.value(&value, d)),
        );
    }
    let from_yaml = read(&|d| reader.metadata(&node, d));
    let from_model = read(&|d| reader.metadata(&value, d));
    (from_yaml, from_model)
}

#[test]
fn a_model_value_reads_as_the_yaml_it_was_built_from() {
    let text = "a: 1\nb: 1.5\nc: ~\nd: true\ne: '$$x'\nf: $concat\ng: [x, '$$y', { h: 2 }]\n? [k, l]\n: list key\n? { $concat: [a, b] }\n: call key\n? { plain: map }\n: map key\n";
    for dialect in [Dialect::SimpleProfile, Dialect::Tosca2] {
        let (from_yaml, from_model) = both_ways(dialect, text);
        assert_eq!(from_yaml, from_model, "{dialect:?}");
        // The three entries whose key is not text are left out, each with a warning.
        let Value::Map(map) = &from_model.0 else {
            panic!("a map");
        };
        assert_eq!(map.len(), 7);
        assert_eq!(from_model.1.len(), 3);
    }
    let (_, (value, messages)) = both_ways(Dialect::Tosca2, text);
    let Value::Map(map) = value else {
        panic!("a map")
    };
    // TOSCA 2.0 undoes the `$$` escape; a `$` in metadata calls nothing (T2-FN-09).
    assert_eq!(map["e"], Value::String("$x".into()));
    assert_eq!(map["f"], Value::String("$concat".into()));
    assert!(
        messages[1].contains("computed by `$concat`"),
        "{messages:?}"
    );
}

#[test]
fn calls_in_a_model_value_read_as_in_the_yaml_it_was_built_from() {
    // Simple Profile: built-ins with their shapes checked, a misspelt one, a key that is no
    // text; `get_input` stays a call, as no inputs are bound here.
    let simple = "a: { concat: [x, { get_attribute: [SELF, ip] }] }\nb: { token: [s, '', -1] }\nc: { get_propery: [SELF, p] }\nd: { get_input: missing }\n? [k]\n: v\n";
    let (from_yaml, from_model) = read_both_ways(Dialect::SimpleProfile, simple, true);
    assert_eq!(from_yaml, from_model);
    assert_eq!(from_model.1.len(), 3, "{:?}", from_model.1);
    let Value::Map(map) = &from_model.0 else {
        panic!("a map");
    };
    assert!(matches!(&map["a"], Value::Call(c) if c.args.len() == 2));
    assert!(matches!(&map["d"], Value::Call(c) if c.args.len() == 1));
    // TOSCA 2.0: a bare call, a call with a suffix, a malformed map, a nameless `$`, an escape.
    let tosca2 = "a: $node_index\nb: { $concat$1: [x, y] }\nc: { $concat: [x], other: 1 }\nd: { $: 1 }\ne: $$text\n? { $concat: [k] }\n: v\n";
    let (from_yaml, from_model) = read_both_ways(Dialect::Tosca2, tosca2, true);
    assert_eq!(from_yaml, from_model);
    assert_eq!(from_model.1.len(), 3, "{:?}", from_model.1);
    let Value::Map(map) = &from_model.0 else {
        panic!("a map");
    };
    assert!(matches!(&map["a"], Value::Call(c) if c.args.is_empty()));
    assert!(matches!(&map["b"], Value::Call(c) if c.args.len() == 2));
    assert_eq!(map["e"], Value::String("$text".into()));
}

#[test]
fn the_templates_description_and_metadata_reach_the_ir() {
    let (read, diags) = topology(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ndescription: the shop\ntemplate_name: shop\nmetadata:\n  owner: ops\ntopology_template:\n  description: its nodes\n  node_templates: {}\n",
    );
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    assert_eq!(read.description.as_deref(), Some("its nodes"));
    let expected: IndexMap<String, Value> = [
        ("owner".to_string(), Value::String("ops".into())),
        ("template_name".to_string(), Value::String("shop".into())),
    ]
    .into_iter()
    .collect();
    assert_eq!(read.metadata, expected);
    // Without a description of its own, the service template has the file's.
    let (read, _) = topology(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ndescription: the shop\ntopology_template:\n  node_templates: {}\n",
    );
    assert_eq!(read.description.as_deref(), Some("the shop"));
}
