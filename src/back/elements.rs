//! From the IR to what rules match: one [`Element`] per input, node, relationship, group, policy
//! and output, and the topology as templates see it.

use serde::Serialize;
use tera::value::{Key, Map};

pub(crate) use crate::ir::spans::SpanFinder;
use crate::ir::{Location, Topology};
use crate::source::SourceMap;

use super::{Element, ElementContext, ElementKind};

/// The whole topology as templates see it under `topology`: the same document as `toscana ir`
/// prints, converted for Tera once, with its repeated parts shared ([`super::shared`]).
/// Element contexts share its parts too (see [`elements`]), so it is the one copy of the IR a
/// render makes.
pub fn topology_value(topology: &Topology) -> tera::Value {
    super::tera_values::to_tera(topology)
}

/// The type a node only ever selected from outside the topology (directive `select`) has first
/// among its element types, so a rule can match it before its real type: the built-in
/// Terraform rules skip it with a reason, and a `--backend-dir` rule can render a data source.
pub const SELECTED: &str = "toscana.Selected";

/// Every element of `topology` in a fixed order: inputs, nodes, relationships, groups, policies,
/// outputs, each in source order (the order of a TOSCA file). Section fragments and warnings
/// follow this order. Spans are looked up in `sources` by the file names the IR records; a
/// relationship that comes from a relationship template is placed at that template, where its
/// content is written, and an inline one at its requirement.
///
/// Each element's context is its part of the topology's value (what [`topology_value`] made of
/// the same topology, given to the render) with its `index` among the elements of its kind
/// added (the node's index in `topology.nodes`, ...), so a template can look itself up in what
/// a backend's Rust computed per element. Only the element's top-level map is new, made when it
/// is rendered; everything under it is shared.
pub fn elements(topology: &Topology, sources: &SourceMap) -> Vec<Element> {
    let spans = SpanFinder::new(&topology.source.files, sources);
    let mut out = Vec::with_capacity(
        topology.inputs.len()
            + topology.nodes.len()
            + topology.relationships.len()
            + topology.groups.len()
            + topology.policies.len()
            + topology.outputs.len(),
    );
    let mut push = |kind,
                    list: &'static str,
                    index: usize,
                    name: &str,
                    types: &[String],
                    location: Option<Location>| {
        out.push(Element {
            kind,
            name: name.to_string(),
            types: types.to_vec(),
            span: location.and_then(|l| spans.span(l)),
            context: ElementContext::Part { list, index },
        });
    };
    for (k, i) in topology.inputs.iter().enumerate() {
        push(ElementKind::Input, "inputs", k, &i.name, &[], i.location);
    }
    for (k, n) in topology.nodes.iter().enumerate() {
        if n.only_selected() {
            let types: Vec<String> = std::iter::once(SELECTED.to_string())
                .chain(n.types.iter().cloned())
                .collect();
            push(ElementKind::Node, "nodes", k, &n.name, &types, n.location);
        } else {
            push(ElementKind::Node, "nodes", k, &n.name, &n.types, n.location);
        }
    }
    for (k, r) in topology.relationships.iter().enumerate() {
        push(
            ElementKind::Relationship,
            "relationships",
            k,
            &r.name,
            &r.types,
            r.template_location.or(r.location),
        );
    }
    for (k, g) in topology.groups.iter().enumerate() {
        push(
            ElementKind::Group,
            "groups",
            k,
            &g.name,
            &g.types,
            g.location,
        );
    }
    for (k, p) in topology.policies.iter().enumerate() {
        push(
            ElementKind::Policy,
            "policies",
            k,
            &p.name,
            &p.types,
            p.location,
        );
    }
    for (k, o) in topology.outputs.iter().enumerate() {
        push(ElementKind::Output, "outputs", k, &o.name, &[], o.location);
    }
    out
}

/// `topology[list][index]` with `index` added to it: an element's context (see
/// [`ElementContext::Part`]).
pub(super) fn part(topology: &tera::Value, list: &'static str, index: usize) -> tera::Value {
    let item = topology
        .as_map()
        .and_then(|m| m.get(&Key::Str(list)))
        .and_then(|v| v.as_array())
        .and_then(|items| items.get(index));
    match item.and_then(|v| v.as_map()) {
        Some(map) => {
            let mut map = map.clone();
            map.insert(Key::Str("index"), tera::Value::from(index));
            tera::Value::from(map)
        }
        None => item.cloned().unwrap_or_else(tera::Value::none),
    }
}

/// The topology as templates see it when none reads it wholesale (see [`super::RenderInput`]):
/// only `source` and `inputs`, the two parts a template may read as a whole without the
/// render taking it to read everything ([`super::engine`]'s reads), each as [`topology_value`]
/// would have them.
pub(super) fn named_parts_value(topology: &Topology) -> tera::Value {
    let mut map = Map::new();
    map.insert(Key::Str("source"), super::to_tera(&topology.source));
    map.insert(Key::Str("inputs"), super::to_tera(&topology.inputs));
    tera::Value::from(map)
}

/// An element's context made from the IR itself, for a render that does not convert the
/// whole topology: with `content`, its entry of `topology[list]` with `index` added, exactly as
/// [`part`] gives it from [`topology_value`]; without (its template reads only `element.name`
/// and `element.index`), only those two, so nothing of the element is converted that no
/// template looks at.
pub(super) fn own_part(
    topology: &Topology,
    list: &'static str,
    index: usize,
    content: bool,
) -> tera::Value {
    fn entry<T: Serialize>(
        items: &[T],
        index: usize,
        name: fn(&T) -> &str,
        content: bool,
    ) -> tera::Value {
        let Some(item) = items.get(index) else {
            return tera::Value::none();
        };
        let mut map = if content {
            match super::to_tera(item).as_map() {
                Some(map) => map.clone(),
                None => return tera::Value::none(),
            }
        } else {
            let mut map = Map::new();
            map.insert(Key::Str("name"), tera::Value::from(name(item)));
            map
        };
        map.insert(Key::Str("index"), tera::Value::from(index));
        tera::Value::from(map)
    }
    match list {
        "inputs" => entry(&topology.inputs, index, |i| &i.name, content),
        "nodes" => entry(&topology.nodes, index, |n| &n.name, content),
        "relationships" => entry(&topology.relationships, index, |r| &r.name, content),
        "groups" => entry(&topology.groups, index, |g| &g.name, content),
        "policies" => entry(&topology.policies, index, |p| &p.name, content),
        "outputs" => entry(&topology.outputs, index, |o| &o.name, content),
        _ => tera::Value::none(),
    }
}
