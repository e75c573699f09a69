//! Tests of what a render converts of the IR ([`RenderInput`]): a template that reads only
//! named parts sees the same values as when the whole topology is converted.

use super::*;
use crate::back::{BuiltinBackend, elements, topology_value};
use crate::limits::Limits;

const TEMPLATE: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    port: { type: integer, default: 8080 }
  node_templates:
    web:
      type: tosca.nodes.WebServer
      requirements:
        - host: vm
    vm:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 2 }
  groups:
    both:
      type: tosca.groups.Root
      members: [web, vm]
  outputs:
    address: { value: { get_attribute: [vm, public_address] } }
"#;

/// A backend with one rule per element kind rendering `template_text` into a file of its own.
fn backend(template_text: &str) -> BuiltinBackend {
    let mut mapping = String::from("backend: test\nrules:\n");
    for kind in ["input", "node", "relationship", "group", "output"] {
        mapping.push_str(&format!(
            "  - match: {{ kind: {kind} }}\n    template: t.tera\n    output: \"{kind}-{{{{ element.index }}}}.txt\"\n"
        ));
    }
    BuiltinBackend {
        name: "test",
        mapping: Box::leak(mapping.into_boxed_str()),
        templates: Box::leak(Box::new([(
            "t.tera",
            &*Box::leak(template_text.to_string().into_boxed_str()),
        )])),
    }
}

/// Rendered files as (path, contents).
type Files = Vec<(String, String)>;

/// The files `template_text` renders for [`TEMPLATE`], given the IR (converted as far as the
/// templates read it) and given the whole topology converted beforehand.
fn both_ways(template_text: &str) -> (Files, Files) {
    let (topology, mut sources) = crate::pipeline::read_text(TEMPLATE);
    let mut diags = Diagnostics::new();
    let engine = Engine::load(
        Some(&backend(template_text)),
        None,
        &mut sources,
        &Limits::default(),
        &mut diags,
    )
    .expect("the backend loads");
    let elements = elements(&topology, &sources);
    let files = |files: Vec<OutputFile>| -> Files {
        files.into_iter().map(|f| (f.path, f.contents)).collect()
    };
    let mut diags = Diagnostics::new();
    let named = files(engine.render(&topology, &elements, &mut diags));
    let whole = files(engine.render(topology_value(&topology), &elements, &mut diags));
    assert!(!diags.has_errors(), "{:?}", diags.finish());
    (named, whole)
}

#[test]
fn named_reads_see_what_the_whole_topology_gives() {
    let (named, whole) = both_ways(
        "{{ element.name }} {{ element.index }} {% if kind == 'node' %}\
         {{ element.properties.component_version | default(value='-') }} \
         {{ element.capabilities.host.properties.num_cpus | default(value='-') }}{% endif %} \
         {{ topology.source.entry }} {{ topology.inputs | length }}",
    );
    let vm = named.iter().find(|(path, _)| path == "node-1.txt");
    assert!(
        vm.is_some_and(|(_, text)| text.starts_with("vm 1 - ") && text.contains("\"value\": 2")),
        "{named:?}"
    );
    assert_eq!(named.len(), 6, "{named:?}");
    assert_eq!(named, whole);
}

#[test]
fn a_template_that_reads_an_element_wholesale_sees_all_of_it() {
    let (named, whole) =
        both_ways("{{ element.name }}: {% for k, v in element %}{{ k }} {% endfor %}");
    assert_eq!(named, whole);
    assert!(
        named.iter().any(|(_, text)| text.contains("requirements")),
        "{named:?}"
    );
}

#[test]
fn a_template_that_reads_the_topology_wholesale_sees_all_of_it() {
    let (named, whole) = both_ways("{{ element.name }}: {{ topology.nodes | length }}");
    assert_eq!(named, whole);
    assert!(
        named.iter().all(|(_, text)| text.ends_with(": 2")),
        "{named:?}"
    );
}

#[test]
fn an_element_entry_made_alone_is_its_part_of_the_whole_topology() {
    let (topology, _) = crate::pipeline::read_text(TEMPLATE);
    let whole = topology_value(&topology);
    let lists = [
        ("inputs", topology.inputs.len()),
        ("nodes", topology.nodes.len()),
        ("relationships", topology.relationships.len()),
        ("groups", topology.groups.len()),
        ("outputs", topology.outputs.len()),
    ];
    for (list, len) in lists {
        assert!(len > 0, "{list}");
        for index in 0..len {
            assert_eq!(
                crate::back::elements::own_part(&topology, list, index, true),
                crate::back::elements::part(&whole, list, index),
                "{list}[{index}]"
            );
        }
    }
}
