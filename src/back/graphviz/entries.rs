//! The entries of the `graph` context, one function per part: nodes (with the legend's
//! families), relationships, groups, policies, inputs and outputs, the substitution boundary.

use std::collections::HashSet;

use serde_json::{Value as Json, json};

use crate::ir::{BoundaryMapping, Node, PolicyTarget, Relationship, Topology, Value};

use super::super::tera_values::{Builder, Part};
use super::super::{Element, ElementKind, Engine};
use super::context::{Drawing, Ids};
use super::{PropertyMode, function_text, short_type, shown_type, value_text};

/// A family of the legend: the rule that named it (its place in the legend) and its `bind`.
pub(super) type Family = (usize, Json);

/// Each node's entry (family from its rule, property rows, count, ports), and the families
/// that occur, each once.
pub(super) fn nodes(
    d: &Drawing<'_>,
    b: &mut Builder,
    backend: &Engine,
    elements: &[Element],
) -> (Vec<Part>, Vec<Family>) {
    let node_elements: Vec<&Element> = elements
        .iter()
        .filter(|e| e.kind == ElementKind::Node)
        .collect();
    let mut families = Vec::new();
    let mut families_seen = HashSet::new();
    let mut nodes = Vec::with_capacity(d.topology.nodes.len());
    for (i, node) in d.topology.nodes.iter().enumerate() {
        let (rule, bind) = node_elements
            .get(i)
            .and_then(|e| backend.bind_for(e))
            .map_or((usize::MAX, &Json::Null), |(r, b)| (r, b));
        let family = bind.get("family").and_then(Json::as_str).unwrap_or("other");
        if bind.get("family").is_some() && families_seen.insert(family.to_string()) {
            families.push((rule, bind.clone()));
        }
        let count = match &node.count {
            Value::Integer(c) if *c == 1 => None,
            Value::Integer(c) => Some(c.to_string()),
            other => Some(value_text(other)),
        };
        let full_type = node.types.first().unwrap_or(&node.type_name);
        let properties = property_rows(d, b, node, bind);
        let (capabilities, requirements) = ports(b, node);
        let entry = [
            ("id", b.str(&d.hosts.node_ids[i])),
            ("family", b.str(family)),
            ("type_short", b.str(short_type(&node.type_name))),
            ("type_full", b.str(full_type)),
            ("properties", b.list(properties)),
            ("count", b.opt_str(count.as_deref())),
            ("host", b.opt_str(d.hosts.host_ids[i].as_deref())),
            ("capabilities", b.list(capabilities)),
            ("requirements", b.list(requirements)),
        ];
        nodes.push(b.map(entry));
    }
    (nodes, families)
}

/// The property rows a node box lists, as `--properties` asks: none, all set ones, or the
/// family's key properties (the rule's `bind.key`) and every property the template sets.
fn property_rows(d: &Drawing<'_>, b: &mut Builder, node: &Node, bind: &Json) -> Vec<Part> {
    let key: Vec<&str> = bind
        .get("key")
        .and_then(Json::as_array)
        .map(|a| a.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let shown = |name: &String, value: &Value| match d.options.properties {
        PropertyMode::None => false,
        PropertyMode::All => !matches!(value, Value::Null),
        PropertyMode::Key => {
            node.assigned.iter().any(|a| a == name)
                || (key.contains(&name.as_str()) && !matches!(value, Value::Null))
        }
    };
    let mut properties = Vec::new();
    for (name, value) in node.properties.iter().filter(|(n, v)| shown(n, v)) {
        let row = [("name", b.str(name)), ("text", b.str(&value_text(value)))];
        properties.push(b.map(row));
    }
    properties
}

/// A node's capabilities and requirements as ports `c<i>` and `r<i>`.
fn ports(b: &mut Builder, node: &Node) -> (Vec<Part>, Vec<Part>) {
    let mut capabilities = Vec::with_capacity(node.capabilities.len());
    for (ci, name) in node.capabilities.keys().enumerate() {
        let port = [("port", b.str(&format!("c{ci}"))), ("name", b.str(name))];
        capabilities.push(b.map(port));
    }
    let mut requirements = Vec::with_capacity(node.requirements.len());
    for (ri, r) in node.requirements.iter().enumerate() {
        let port = [("port", b.str(&format!("r{ri}"))), ("name", b.str(&r.name))];
        requirements.push(b.map(port));
    }
    (capabilities, requirements)
}

/// The legend, in the rules' order whatever order the nodes came in; each entry is its
/// family's `bind` with its ID and the ID of the entry before it (for the invisible edge that
/// keeps the legend in rule order).
pub(super) fn legend(b: &mut Builder, ids: &mut Ids, mut families: Vec<Family>) -> Vec<Part> {
    families.sort_by_key(|(rule, _)| *rule);
    let mut previous: Option<String> = None;
    families
        .into_iter()
        .enumerate()
        .map(|(li, (_, mut bind))| {
            let family = bind.get("family").and_then(Json::as_str).unwrap_or("");
            let id = ids.make("legend:", family, li);
            if let Json::Object(map) = &mut bind {
                map.insert("id".to_string(), json!(id));
                map.insert("previous".to_string(), json!(previous));
            }
            previous = Some(id);
            b.json(&bind)
        })
        .collect()
}

/// Each relationship: endpoints, ports, whether hosting shows it, the type to name, and its
/// TOSCA 2.0 multiplicity (relationships per source representation, the indexed target).
pub(super) fn relationships(d: &Drawing<'_>, b: &mut Builder) -> Vec<Part> {
    let node_ids = &d.hosts.node_ids;
    let mut relationships = Vec::with_capacity(d.topology.relationships.len());
    for (ri, r) in d.topology.relationships.iter().enumerate() {
        let (s, t) = (r.source.index(), r.target.index());
        let nested = d.hosts.host_link[s] == Some(ri);
        let (tailport, headport) = if d.options.ports {
            edge_ports(d.topology, ri, r)
        } else {
            (None, None)
        };
        let count = match &r.count {
            Value::Integer(1) => None,
            other => Some(function_text(other)),
        };
        let index = r.target_index.as_ref().map(function_text);
        let entry = [
            ("tail", b.opt_str(node_ids.get(s).map(String::as_str))),
            ("head", b.opt_str(node_ids.get(t).map(String::as_str))),
            ("tailport", b.opt_str(tailport.as_deref())),
            ("headport", b.opt_str(headport.as_deref())),
            ("nested", b.bool(nested)),
            ("shown_type", b.opt_str(shown_type(r).as_deref())),
            ("type_full", b.str(r.types.first().unwrap_or(&r.type_name))),
            ("requirement", b.str(&r.requirement)),
            ("count", b.opt_str(count.as_deref())),
            ("index", b.opt_str(index.as_deref())),
        ];
        relationships.push(b.map(entry));
    }
    relationships
}

/// The ports an edge leaves and enters by: the source's requirement and the target's
/// capability.
fn edge_ports(
    topology: &Topology,
    ri: usize,
    r: &Relationship,
) -> (Option<String>, Option<String>) {
    let tailport = topology.nodes[r.source.index()]
        .requirements
        .iter()
        .position(|q| q.relationship.map(|x| x.index()) == Some(ri))
        .map(|p| format!("r{p}"));
    let headport = topology.nodes.get(r.target.index()).and_then(|node| {
        r.capability
            .as_ref()
            .and_then(|c| node.capabilities.get_index_of(c))
            .map(|p| format!("c{p}"))
    });
    (tailport, headport)
}

/// Each group: a cluster or a note, its members, and a node inside the cluster for edges that
/// point at the whole group.
pub(super) fn groups(d: &Drawing<'_>, b: &mut Builder) -> Vec<Part> {
    let (node_ids, clusters) = (&d.hosts.node_ids, &d.clusters);
    let mut groups = Vec::with_capacity(d.topology.groups.len());
    for (gi, g) in d.topology.groups.iter().enumerate() {
        let members: Vec<Part> = g
            .members
            .iter()
            .map(|m| b.str(&node_ids[m.index()]))
            .collect();
        let anchor = clusters.anchor[gi].map(|m| node_ids[m].as_str());
        let entry = [
            ("id", b.str(&clusters.ids[gi])),
            ("name", b.str(&g.name)),
            ("cluster", b.bool(clusters.group_cluster[gi])),
            ("type", b.str(&g.type_name)),
            ("type_short", b.str(short_type(&g.type_name))),
            ("members", b.list(members)),
            ("anchor", b.opt_str(anchor)),
        ];
        groups.push(b.map(entry));
    }
    groups
}

/// Each policy and its targets: the node an edge points at, and the cluster it ends at
/// (`lhead`) when the target is a group drawn as a cluster.
pub(super) fn policies(d: &Drawing<'_>, b: &mut Builder, ids: &mut Ids) -> Vec<Part> {
    let (node_ids, clusters) = (&d.hosts.node_ids, &d.clusters);
    let mut policies = Vec::with_capacity(d.topology.policies.len());
    for (pi, p) in d.topology.policies.iter().enumerate() {
        let ends: Vec<(&str, Option<&str>)> = p
            .targets
            .iter()
            .filter_map(|t| match *t {
                PolicyTarget::Node(id) => Some((node_ids[id.index()].as_str(), None)),
                PolicyTarget::Group(g) => {
                    let gi = g.index();
                    if clusters.group_cluster[gi] {
                        let anchor = clusters.anchor[gi]?;
                        Some((node_ids[anchor].as_str(), Some(clusters.ids[gi].as_str())))
                    } else {
                        Some((clusters.ids[gi].as_str(), None))
                    }
                }
            })
            .collect();
        let mut targets = Vec::with_capacity(ends.len());
        for (id, lhead) in ends {
            let target = [("id", b.str(id)), ("lhead", b.opt_str(lhead))];
            targets.push(b.map(target));
        }
        let entry = [
            ("id", b.str(&ids.make("p:", &p.name, pi))),
            ("type", b.str(&p.type_name)),
            ("type_short", b.str(short_type(&p.type_name))),
            ("targets", b.list(targets)),
        ];
        policies.push(b.map(entry));
    }
    policies
}

/// Each input's value (or default) as text, `(sensitive)` for a sensitive one, and its type.
pub(super) fn inputs(topology: &Topology, b: &mut Builder) -> Vec<Part> {
    let mut inputs = Vec::with_capacity(topology.inputs.len());
    for i in &topology.inputs {
        let value = i.value.as_ref().or(i.default.as_ref());
        let text = match value {
            _ if i.sensitive => Some("(sensitive)".to_string()),
            Some(v) => Some(value_text(v)),
            None => None,
        };
        let entry = [
            ("text", b.opt_str(text.as_deref())),
            ("type", b.opt_str(i.type_name.as_deref().map(short_type))),
        ];
        inputs.push(b.map(entry));
    }
    inputs
}

/// Each output's value as text.
pub(super) fn outputs(topology: &Topology, b: &mut Builder) -> Vec<Part> {
    let mut outputs = Vec::with_capacity(topology.outputs.len());
    for o in &topology.outputs {
        let entry = [("text", b.str(&value_text(&o.value)))];
        outputs.push(b.map(entry));
    }
    outputs
}

/// The substitution boundary: the substituted type, the outermost nodes (exposed capabilities
/// are kept above them) and the innermost ones (exposed requirements below them), and each
/// mapped capability and requirement with the node and port it maps to.
pub(super) fn substitution(d: &Drawing<'_>, b: &mut Builder) -> Part {
    let Some(s) = &d.topology.substitution else {
        return b.none();
    };
    let (node_ids, hosts) = (&d.hosts.node_ids, &d.hosts);
    let n = node_ids.len();
    let top: Vec<Part> = (0..n)
        .filter(|&i| hosts.host[i].is_none())
        .map(|i| b.str(&node_ids[i]))
        .collect();
    let bottom: Vec<Part> = (0..n)
        .filter(|&i| hosts.children[i].is_empty())
        .map(|i| b.str(&node_ids[i]))
        .collect();
    let entry = [
        ("type_short", b.str(short_type(&s.node_type))),
        ("type_full", b.str(&s.node_type)),
        ("top", b.list(top)),
        ("bottom", b.list(bottom)),
        ("capabilities", boundary(d, b, &s.capabilities, "c")),
        ("requirements", boundary(d, b, &s.requirements, "r")),
    ];
    b.map(entry)
}

/// The mapped capabilities (`prefix` `c`) or requirements (`r`) of the boundary.
fn boundary(d: &Drawing<'_>, b: &mut Builder, list: &[BoundaryMapping], prefix: &str) -> Part {
    let mut out = Vec::new();
    for (bi, m) in list.iter().enumerate() {
        let node = &d.topology[m.node];
        let port = if !d.options.ports {
            None
        } else if prefix == "c" {
            node.capabilities
                .get_index_of(&m.target)
                .map(|p| format!("c{p}"))
        } else {
            node.requirements
                .iter()
                .position(|q| q.name == m.target)
                .map(|p| format!("r{p}"))
        };
        let entry = [
            ("id", b.str(&format!("sub:{prefix}{bi}"))),
            ("name", b.str(&m.name)),
            ("node", b.str(&d.hosts.node_ids[m.node.index()])),
            ("target", b.str(&m.target)),
            ("port", b.opt_str(port.as_deref())),
        ];
        out.push(b.map(entry));
    }
    b.list(out)
}
