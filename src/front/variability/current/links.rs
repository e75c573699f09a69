//! Links between elements that the template states through values rather than structure:
//! group members, the inputs and elements a property value reads (`get_input`,
//! `get_property`, `get_attribute`, Unfurl's `eval`), and the nodes an output reads. The
//! default conditions "consumed" and "produced" (§ Element-Generic Default Conditions) follow
//! them.

use crate::diag::Diagnostics;
use crate::model::Dialect;
use crate::model::call::call_in;
use crate::yaml::{Core, Node};

use super::model::{Data, Id, Kind, Model};

/// A group member: a node name, or `[node, requirement name or index]` (§ Group Template).
pub fn member(model: &Model<'_>, m: &Node) -> Result<Id, String> {
    if let Some(name) = m.as_str() {
        return model
            .nodes
            .get(name)
            .copied()
            .ok_or_else(|| format!("node \"{name}\" not found"));
    }
    let Some([node, req]) = m.as_seq() else {
        return Err("neither a node name nor a [node, requirement] pair".into());
    };
    let node_name = node.scalar_text().unwrap_or_default();
    let n = model
        .nodes
        .get(node_name)
        .copied()
        .ok_or_else(|| format!("node \"{node_name}\" not found"))?;
    relation_of(model, n, req)
}

/// The relation of node `n` a requirement name (unique on the node) or index names.
pub fn relation_of(model: &Model<'_>, n: Id, req: &Node) -> Result<Id, String> {
    let outgoing = &model.node_data(n).outgoing;
    let node = &model.get(n).name;
    match req.as_scalar().map(|s| s.core) {
        Some(Core::Int(i)) => usize::try_from(i)
            .ok()
            .and_then(|i| outgoing.get(i).copied())
            .ok_or_else(|| format!("relation {i} of node \"{node}\" not found")),
        _ => {
            let name = req.scalar_text().unwrap_or_default();
            let found: Vec<Id> = outgoing
                .iter()
                .copied()
                .filter(|r| model.get(*r).name == name)
                .collect();
            match found.as_slice() {
                [one] => Ok(*one),
                [] => Err(format!("relation \"{name}\" of node \"{node}\" not found")),
                _ => Err(format!(
                    "relation \"{name}\" of node \"{node}\" is ambiguous"
                )),
            }
        }
    }
}

/// What a value refers to: `[container, property]` or `[node, relation or artifact, property]`.
fn reference(value: &Node) -> Option<Vec<String>> {
    if let Some(map) = value.as_map().filter(|m| m.len() == 1) {
        let e = &map.entries()[0];
        match e.key.scalar_text()? {
            "get_property" | "get_attribute" => {
                let parts: Vec<String> = e
                    .value
                    .as_seq()?
                    .iter()
                    .map(|p| p.scalar_text().map(str::to_string))
                    .collect::<Option<_>>()?;
                return (parts.len() >= 2).then(|| parts[..parts.len() - 1].to_vec());
            }
            "eval" => {
                let text = e.value.as_str()?;
                let mut parts = text.trim_start_matches("::").split("::");
                let container = parts.next()?.to_string();
                return parts.next().map(|_| vec![container]);
            }
            _ => return None,
        }
    }
    // Unfurl's Jinja filter: "{{ '::node::property' | eval }}".
    let text = value.as_str()?;
    let inner = text.trim().strip_prefix("{{")?.strip_suffix("}}")?.trim();
    let (quoted, filter) = inner.split_once('|')?;
    if filter.trim() != "eval" {
        return None;
    }
    let path = quoted.trim().trim_matches(|c| c == '\'' || c == '"');
    let mut parts = path.trim_start_matches("::").split("::");
    let node = parts.next()?.to_string();
    parts.next().map(|_| vec![node])
}

/// Fills the consumers of inputs, what each property reads, and the producers of outputs.
pub fn consumers(model: &mut Model<'_>, _diags: &mut Diagnostics) {
    let properties: Vec<Id> = model.of(Kind::Property).collect();
    for p in properties {
        let Data::Property(data) = &model.get(p).data else {
            continue;
        };
        let Some(value) = data.value else { continue };
        let mut consuming = Vec::new();
        if let Some(input) = call_in(Dialect::SimpleProfile, value)
            .filter(|c| c.name == "get_input")
            .and_then(|c| c.args)
        {
            if let Some(i) = input_by(model, input) {
                consuming.push(i);
                if let Data::Input { consumers } = &mut model.elements[i].data {
                    consumers.push(p);
                }
            }
        } else if let Some(parts) = reference(value) {
            let container = model.get(p).container;
            consuming.extend(referenced(model, &parts, container));
        }
        if let Data::Property(data) = &mut model.elements[p].data {
            data.consuming = consuming;
        }
    }
    let outputs: Vec<Id> = model.of(Kind::Output).collect();
    for o in outputs {
        let value = model.get(o).def.and_then(|d| d.as_map()?.get("value"));
        let Some(parts) = value.and_then(reference) else {
            continue;
        };
        if parts.len() != 1 {
            continue;
        }
        if let Some(n) = model.nodes.get(parts[0].as_str()).copied()
            && let Data::Output { producers } = &mut model.elements[o].data
        {
            producers.push(n);
        }
    }
}

/// The input a `get_input` names: by name (the first of that name) or by position.
fn input_by(model: &Model<'_>, arg: &Node) -> Option<Id> {
    match arg.as_scalar().map(|s| s.core) {
        Some(Core::Int(i)) => {
            let i = usize::try_from(i).ok()?;
            model.of(Kind::Input).nth(i)
        }
        _ => model
            .inputs
            .get(arg.scalar_text()?)
            .and_then(|l| l.first().copied()),
    }
}

/// The elements a `get_property` path reads: a node, group or policy, or the targets of a
/// node's relations of that name, or a node's artifacts of that name.
fn referenced(model: &Model<'_>, parts: &[String], container: Option<Id>) -> Vec<Id> {
    let owner = |name: &str| -> Option<Id> {
        match name {
            "SELF" => container,
            _ => model
                .nodes
                .get(name)
                .or_else(|| model.groups.get(name))
                .copied()
                .or_else(|| {
                    model
                        .policies
                        .get(name)
                        .and_then(|l| (l.len() == 1).then(|| l[0]))
                }),
        }
    };
    match parts {
        [one] => owner(one).into_iter().collect(),
        [node, inner] => {
            let Some(n) = owner(node).filter(|n| model.get(*n).kind == Kind::Node) else {
                return Vec::new();
            };
            let data = model.node_data(n);
            let targets: Vec<Id> = data
                .outgoing
                .iter()
                .filter(|r| &model.get(**r).name == inner)
                .map(|r| model.relation_data(*r).target)
                .collect();
            if !targets.is_empty() {
                return targets;
            }
            data.artifacts
                .iter()
                .copied()
                .filter(|a| &model.get(*a).name == inner)
                .collect()
        }
        _ => Vec::new(),
    }
}
