//! Tests of the not-translated ledger: what an element is accountable for, what the Rust and
//! the templates record, and the mapping's `ignore:`.

use super::*;
use crate::back::{BuiltinBackend, Ledger, elements, topology_value};
use crate::diag::Severity;
use crate::limits::Limits;
use crate::source::SourceMap;

const TEMPLATE: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Thing:
    derived_from: tosca.nodes.Root
    properties:
      used_by_rust: { type: string, required: false }
      read_by_template: { type: string, required: false }
      ignored: { type: string, required: false }
      dropped: { type: string, required: false }
      defaulted: { type: string, default: nobody wrote me }
topology_template:
  node_templates:
    thing:
      type: my.Thing
      properties:
        used_by_rust: a
        read_by_template: b
        ignored: c
        dropped: d
"#;

fn mapping(template_text: &str, ignore: &str) -> BuiltinBackend {
    let mapping = format!(
        "backend: test\nrules:\n  - match: {{ kind: node }}\n    template: t.tera\n    output: \"{{{{ element.name }}}}.txt\"\n{ignore}"
    );
    BuiltinBackend {
        name: "test",
        mapping: Box::leak(mapping.into_boxed_str()),
        templates: Box::leak(Box::new([(
            "t.tera",
            &*Box::leak(template_text.to_string().into_boxed_str()),
        )])),
    }
}

/// The `backend::not-translated` messages and places of translating [`TEMPLATE`] with a rule
/// whose template is `template_text` and whose `ignore:` is `ignore`, after `record` fed the
/// ledger as a backend's Rust would.
fn warnings(
    template_text: &str,
    ignore: &str,
    record: impl Fn(&Ledger, &crate::ir::Topology),
) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, TEMPLATE).unwrap();
    let mut diags = Diagnostics::new();
    let read = crate::pipeline::read(
        &crate::pipeline::ReadOptions {
            input: Some(crate::source::InputArg::Path(path)),
            ..Default::default()
        },
        &mut diags,
    );
    assert!(!diags.has_errors(), "{:?}", diags.finish());
    let topology = read.topology.expect("the template reads");
    let mut sources: SourceMap = read.sources;
    let backend = mapping(template_text, ignore);
    let engine = Engine::load(
        Some(&backend),
        None,
        &mut sources,
        &Limits::default(),
        &mut diags,
    )
    .expect("the backend loads");
    let elements = elements(&topology, &sources);
    let ledger = Ledger::new();
    record(&ledger, &topology);
    let mut diags = Diagnostics::new();
    engine.render(topology_value(&topology), &elements, &mut diags);
    engine.account(&ledger, &topology, &elements, &mut diags);
    diags
        .iter()
        .filter(|d| d.code == codes::BACKEND_NOT_TRANSLATED)
        .map(|d| {
            assert_eq!(d.severity, Severity::Warning);
            let place = d
                .span
                .map(|s| sources.get(s.file).line_col(s.start))
                .map(|(l, c)| format!("{l}:{c}"));
            format!("{} @ {}", d.message, place.unwrap_or_default())
        })
        .collect()
}

fn rust_reads(ledger: &Ledger, topology: &crate::ir::Topology) {
    assert_eq!(
        ledger
            .property(topology, 0, "used_by_rust")
            .and_then(|v| v.as_str()),
        Some("a")
    );
}

#[test]
fn what_nobody_used_is_one_warning_at_the_node_template() {
    let ignore = "    ignore:\n      properties:\n        ignored: \"the test leaves it out\"\n";
    assert_eq!(
        warnings(
            "{{ element.properties.read_by_template }}",
            ignore,
            rust_reads
        ),
        ["node `thing`: test does not translate property `dropped` @ 13:5"]
    );
}

#[test]
fn without_readers_every_written_property_is_reported_but_not_defaults() {
    assert_eq!(
        warnings("{{ element.name }}", "", |_, _| {}),
        [
            "node `thing`: test does not translate property `used_by_rust`, property `read_by_template`, property `ignored`, property `dropped` @ 13:5"
        ]
    );
}

#[test]
fn a_template_that_reads_its_element_wholesale_translates_everything() {
    let template = "{% for k, v in element.properties %}{{ k }}={{ v }}\n{% endfor %}";
    assert!(warnings(template, "", |_, _| {}).is_empty());
}

#[test]
fn an_operation_input_carrying_a_property_value_counts_as_a_read() {
    // `dropped: d` reaches a script as (part of) an input, the way `get_property` leaves it in
    // the IR: evaluated.
    let warned = warnings("{{ element.name }}", "", |ledger, topology| {
        let input = crate::ir::Value::List(vec![crate::ir::Value::String("d".into())]);
        ledger.values_used(topology, [&input]);
    });
    assert_eq!(
        warned,
        [
            "node `thing`: test does not translate property `used_by_rust`, property `read_by_template`, property `ignored` @ 13:5"
        ]
    );
}

/// Whether `backend` loads, and the messages loading it gave.
fn load_messages(backend: &BuiltinBackend) -> (bool, Vec<String>) {
    let mut diags = Diagnostics::new();
    let engine = Engine::load(
        Some(backend),
        None,
        &mut SourceMap::new(),
        &Limits::default(),
        &mut diags,
    );
    let messages = diags.iter().map(|d| d.message.clone()).collect();
    (engine.is_some(), messages)
}

#[test]
fn ignore_lists_are_checked_when_the_backend_loads() {
    for (ignore, expected) in [
        (
            "    ignore:\n      propertes: { x: why }\n",
            "unknown key `propertes` in `ignore`",
        ),
        (
            "    ignore:\n      properties: { x: \"  \" }\n",
            "the reason for `x` must be",
        ),
        (
            "    ignore:\n      properties: [x]\n",
            "`ignore.properties` must be a map",
        ),
        ("    ignore: left out\n", "`ignore` must be a map"),
    ] {
        let (loaded, messages) = load_messages(&mapping("{{ element.name }}", ignore));
        assert!(!loaded, "{ignore}");
        assert!(
            messages.iter().any(|m| m.contains(expected)),
            "{ignore}: {messages:?}"
        );
    }
}

#[test]
fn an_ignored_name_no_normative_type_of_the_rule_has_is_an_error() {
    let load = |name: &str| {
        let mapping = format!(
            "backend: test\nrules:\n  - match: {{ kind: node, type: tosca.nodes.LoadBalancer }}\n    template: t.tera\n    output: x.txt\n    ignore:\n      properties: {{ {name}: why }}\n"
        );
        let backend = BuiltinBackend {
            name: "test",
            mapping: Box::leak(mapping.into_boxed_str()),
            templates: &[("t.tera", "")],
        };
        load_messages(&backend)
    };
    assert_eq!(load("algorithm"), (true, vec![]));
    let (loaded, messages) = load("algorithim");
    assert!(!loaded);
    assert_eq!(
        messages,
        [
            "no node type this rule takes has a property `algorithim`, so ignoring it silences nothing"
        ]
    );
}
