//! Tests of the not-translated ledger: what an element is accountable for, what the Rust and
//! the templates record, and the mapping's `ignore:`.

use super::*;
use crate::back::ignores::Part;
use crate::back::{BuiltinBackend, ElementKind, Ledger, elements};
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
    warnings_of(TEMPLATE, &mapping(template_text, ignore), record)
}

/// The `backend::not-translated` messages and places of translating `tosca` with `backend`.
fn warnings_of(
    tosca: &str,
    backend: &BuiltinBackend,
    record: impl Fn(&Ledger, &crate::ir::Topology),
) -> Vec<String> {
    let (topology, mut sources) = crate::pipeline::read_text(tosca);
    let mut diags = Diagnostics::new();
    let engine = Engine::load(
        Some(backend),
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
    engine.render(&topology, &elements, &mut diags);
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

const STACK: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  relationship_templates:
    mount:
      type: tosca.relationships.AttachesTo
      properties:
        location: /data
  node_templates:
    vm:
      type: tosca.nodes.Compute
      attributes:
        public_address: 10.0.0.1
      capabilities:
        host:
          properties: { num_cpus: 2, mem_size: 4 GB }
      requirements:
        - local_storage: { node: disk, relationship: mount }
    disk:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: data }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: vm
        - dependency: disk
  outputs:
    url:
      value: { get_attribute: [vm, public_address] }
"#;

/// A backend that renders nodes (reading nothing of them) and skips relationships and outputs,
/// with `extra` appended to its mapping.
fn stack_backend(extra: &str) -> BuiltinBackend {
    let mapping = format!(
        "backend: test\nrelationships:\n  hosting: {{ types: [tosca.relationships.HostedOn] }}\nrules:\n  - match: {{ kind: node }}\n    template: t.tera\n    output: \"{{{{ element.name }}}}.txt\"\n  - match: {{ kind: relationship }}\n    skip: \"the test has no relationships\"\n{extra}  - match: {{ kind: output }}\n    skip: \"the test has no outputs\"\n"
    );
    BuiltinBackend {
        name: "test",
        mapping: Box::leak(mapping.into_boxed_str()),
        templates: &[("t.tera", "{{ element.name }}")],
    }
}

#[test]
fn attributes_capabilities_requirements_relationships_and_outputs_are_accounted_for() {
    let warned = warnings_of(STACK, &stack_backend(""), |ledger, topology| {
        // The backend's Rust sizes the machine from its host capability's CPUs alone.
        let host = ledger.capability(topology, 0, "host").unwrap();
        assert_eq!(host.get("num_cpus"), Some(&crate::ir::Value::Integer(2)));
    });
    assert_eq!(
        warned,
        [
            // The hosting relationship has a meaning to the backend; AttachesTo and DependsOn
            // have none. Type defaults (the disk's, the host's `disk_size`) are never named;
            // the capability is accounted for key by key.
            "node `vm`: test does not translate attribute `public_address`, capability property `host.mem_size`, requirement `local_storage` @ 9:5",
            "node `disk`: test does not translate property `name` @ 18:5",
            "node `app`: test does not translate requirement `dependency` @ 21:5",
            // At the relationship template, where `location` is written.
            "relationship `mount`: test does not translate property `location` @ 4:5",
            "output `url`: test does not translate it @ 27:5",
        ]
    );
}

#[test]
fn what_the_backend_turned_into_something_or_a_skip_rule_ignores_is_not_reported() {
    let ignore = "    ignore:\n      properties: { location: \"the test mounts nothing\" }\n";
    let extra = format!("  - match: {{ kind: relationship }}\n    skip: \"first\"\n{ignore}");
    let backend = stack_backend(&extra);
    // The first relationship rule wins: the one without `ignore:`; so put ours first.
    let mapping = backend.mapping.replacen(
        "  - match: { kind: relationship }\n    skip: \"the test has no relationships\"\n",
        "",
        1,
    );
    let backend = BuiltinBackend {
        mapping: Box::leak(mapping.into_boxed_str()),
        ..backend
    };
    let warned = warnings_of(STACK, &backend, |ledger, topology| {
        ledger.used(ElementKind::Node, 0, Part::Attribute, "public_address");
        ledger.property(topology, 1, "name");
        // A caller that writes the capability out whole reads every property of it.
        let host = ledger.capability(topology, 0, "host").unwrap();
        assert!(host.properties().contains_key("mem_size"));
        for (ri, r) in topology.relationships.iter().enumerate() {
            if r.requirement != "host" {
                ledger.relationship(ri);
            }
        }
        ledger.output(0);
    });
    assert!(warned.is_empty(), "{warned:?}");
}

#[test]
fn a_value_equal_to_a_capability_property_counts_as_a_read_of_it() {
    // `get_property: [vm, host, mem_size]` in an operation input, as the IR leaves it.
    let warned = warnings_of(STACK, &stack_backend(""), |ledger, topology| {
        let mem = topology.nodes[0].capabilities["host"].properties["mem_size"].clone();
        ledger.values_used(topology, [&crate::ir::Value::List(vec![mem])]);
    });
    assert_eq!(
        warned[0],
        "node `vm`: test does not translate attribute `public_address`, capability property `host.num_cpus`, requirement `local_storage` @ 9:5"
    );
}

const SHARED_TEMPLATE: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  relationship_templates:
    mount:
      type: tosca.relationships.AttachesTo
      properties: { location: /data, device: /dev/sdb }
  node_templates:
    a:
      type: tosca.nodes.Compute
      requirements:
        - local_storage: { node: disk, relationship: mount }
    b:
      type: tosca.nodes.Compute
      requirements:
        - local_storage: { node: disk, relationship: mount }
        - local_storage:
            node: disk
            relationship: { type: tosca.relationships.AttachesTo, properties: { location: /b } }
    disk:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: data }
"#;

#[test]
fn a_relationship_template_is_one_warning_at_the_template_however_many_use_it() {
    // The backend's Rust reads `device` of the first use only and nothing of the inline one:
    // `location` is left by both uses, `device` by the second, so both are named, once, at
    // the template; the inline relationship's warning stays at its requirement.
    let warned = warnings_of(SHARED_TEMPLATE, &stack_backend(""), |ledger, topology| {
        let first = topology
            .relationships
            .iter()
            .position(|r| r.name == "mount")
            .unwrap();
        ledger.used(ElementKind::Relationship, first, Part::Property, "device");
    });
    let relationships: Vec<&String> = warned
        .iter()
        .filter(|w| w.starts_with("relationship"))
        .collect();
    assert_eq!(
        relationships,
        [
            "relationship `mount`: test does not translate property `location`, property `device` @ 4:5",
            "relationship `b.local_storage[1]`: test does not translate property `location` @ 16:11",
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
