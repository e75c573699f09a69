//! The node templates that could fulfil a requirement, for completing its target: those of the
//! node type it asks for, with a capability of the type (or name) it asks for, that pass its
//! Simple Profile `node_filter` as requirement fulfilment judges it
//! ([`crate::resolve::node_filter_admits`]). The requirement definition (in the node's type)
//! and the assignment being written (its `node`, `capability` and `node_filter`) both narrow.
//!
//! A TOSCA 2.0 `node_filter` (of the requirement definition and of the assignment, §8.6 Node
//! Filter Definition) is a condition clause with `SELF` the relationship that would be made to
//! the candidate: it is evaluated against each candidate ([`super::evaluate::holds`]), with
//! `CAPABILITY` the candidate's capability the requirement would use (the one named in
//! `capability:`, else the first of the type asked for). Only a clause known to be false drops a
//! candidate: what cannot be known before deployment (attributes, a property without a value,
//! the relationship's own properties, functions toscana does not compute) keeps it, and `check`
//! judges the choice.

use super::completion::node_type;
use super::evaluate::{Candidate, holds};
use crate::ir::{Dialect, Topology};
use crate::model::{Model, TypeKind};
use crate::resolve::Ancestry;
use crate::yaml::Node;

/// What the requirement definition `requirement` of node template `node`'s type asks for: the
/// capability type, the node type, and its TOSCA 2.0 node filter.
struct Wants<'m> {
    capability: Option<String>,
    node: Option<String>,
    filter: Option<&'m Node>,
}

fn requirement_wants<'m>(
    model: &'m Model,
    ancestry: &mut Ancestry,
    node: &str,
    requirement: &str,
) -> Wants<'m> {
    let none = Wants {
        capability: None,
        node: None,
        filter: None,
    };
    let Some(id) = node_type(model, ancestry, node) else {
        return none;
    };
    let member = super::index::Member {
        span: Default::default(),
        owner: (TypeKind::Node, id),
        section: "requirements",
        name: requirement.to_string(),
    };
    let Some((_, def)) = super::hover::member_definition(model, &member) else {
        return none;
    };
    let named = |key: &str, kind: TypeKind, ancestry: &mut Ancestry| {
        let written = match def.as_str() {
            Some(_) if key == "capability" => def,
            _ => def.as_map()?.get(key)?,
        };
        ancestry.full_name(model, kind, written.as_str()?, written.span.file)
    };
    Wants {
        capability: named("capability", TypeKind::Capability, ancestry),
        node: named("node", TypeKind::Node, ancestry),
        filter: def.as_map().and_then(|m| m.get("node_filter")),
    }
}

/// The assignment of requirement `requirement` in node template `node` as the last check read
/// it (the first of that name): its `capability` and its `node_filter`.
fn assignment<'m>(model: &'m Model, node: &str, requirement: &str) -> Option<&'m Node> {
    let template = super::hover::template(model, super::index::Section::Node, node)?;
    let requirements = template.def.as_map()?.get("requirements")?.as_seq()?;
    requirements.iter().find_map(|item| {
        let entry = item.as_map()?.entries().first()?;
        (entry.key.as_str() == Some(requirement)).then_some(&entry.value)
    })
}

/// The node templates a requirement of `node` could be fulfilled by, with their types.
/// `topology` is the resolved topology of the check `model` comes from (the node filter judges
/// resolved property values); without one, filters do not narrow.
pub fn fitting(
    model: &Model,
    topology: Option<&Topology>,
    node: &str,
    requirement: &str,
) -> Vec<(String, String)> {
    let mut ancestry = Ancestry::new(model);
    let wants = requirement_wants(model, &mut ancestry, node, requirement);
    let (capability, node_kind) = (wants.capability, wants.node);
    let Some(template) = &model.topology else {
        return Vec::new();
    };
    let assignment = assignment(model, node, requirement).and_then(Node::as_map);
    // `capability:` in the assignment: a capability type, or the name of the target's capability.
    let asked = assignment
        .and_then(|a| a.get("capability"))
        .and_then(|c| c.as_str().map(|name| (name, c.span.file)));
    let asked_type =
        asked.and_then(|(name, file)| ancestry.full_name(model, TypeKind::Capability, name, file));
    let written_filter = assignment.and_then(|a| a.get("node_filter"));
    let tosca2 = model.dialect == Dialect::Tosca2;
    let filter = written_filter.filter(|_| !tosca2);
    let conditions: Vec<&Node> = match tosca2 {
        true => wants.filter.into_iter().chain(written_filter).collect(),
        false => Vec::new(),
    };
    let source = topology.and_then(|t| t.nodes.iter().find(|n| n.name == node));
    let mut out = Vec::new();
    for candidate in &template.node_templates {
        if candidate.name == node {
            continue;
        }
        let Some(type_id) = node_type(model, &mut ancestry, &candidate.name) else {
            continue;
        };
        let lineage = ancestors(&mut ancestry, model, TypeKind::Node, &type_id);
        if node_kind.as_ref().is_some_and(|n| !lineage.contains(n)) {
            continue;
        }
        let capabilities = capabilities(model, &mut ancestry, &lineage);
        let has_type = |wanted: &String, ancestry: &mut Ancestry| {
            capabilities.iter().any(|(_, id)| {
                ancestors(ancestry, model, TypeKind::Capability, id).contains(wanted)
            })
        };
        if capability
            .as_ref()
            .is_some_and(|c| !has_type(c, &mut ancestry))
        {
            continue;
        }
        if let Some((name, _)) = asked {
            let named = capabilities.iter().any(|(n, _)| n == name);
            let typed = asked_type
                .as_ref()
                .is_some_and(|t| has_type(t, &mut ancestry));
            if !named && !typed {
                continue;
            }
        }
        if let (false, Some(source), Some(resolved)) = (conditions.is_empty(), source, topology)
            && let Some(target) = resolved.nodes.iter().find(|n| n.name == candidate.name)
        {
            let wanted = asked_type.as_ref().or(capability.as_ref());
            let named = asked.map(|(name, _)| name);
            let relationship = Candidate {
                source,
                target,
                capability: used(model, &mut ancestry, &capabilities, named, wanted),
            };
            if conditions
                .iter()
                .any(|c| holds(resolved, &relationship, c) == Some(false))
            {
                continue;
            }
        }
        if let (Some(filter), Some(resolved)) = (filter, topology)
            && let Some(target) = resolved.nodes.iter().find(|n| n.name == candidate.name)
            && !crate::resolve::node_filter_admits(model, &mut ancestry, filter, target)
        {
            continue;
        }
        out.push((candidate.name.clone(), type_id));
    }
    out
}

/// The capability of a candidate (of its `capabilities`) that the requirement would use: the
/// one `named` in the assignment's `capability:`, else the first of the `wanted` type.
fn used<'c>(
    model: &Model,
    ancestry: &mut Ancestry,
    capabilities: &'c [(String, String)],
    named: Option<&'c str>,
    wanted: Option<&String>,
) -> Option<&'c str> {
    if let Some(name) = named.filter(|name| capabilities.iter().any(|(n, _)| n == name)) {
        return Some(name);
    }
    let wanted = wanted?;
    capabilities
        .iter()
        .find(|(_, id)| ancestors(ancestry, model, TypeKind::Capability, id).contains(wanted))
        .map(|(n, _)| n.as_str())
}

/// The capabilities the node types of `lineage` declare: (name, capability type identity).
fn capabilities(
    model: &Model,
    ancestry: &mut Ancestry,
    lineage: &[String],
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for t in lineage {
        let Some(def) = model.types.get(&(TypeKind::Node, t.clone())) else {
            continue;
        };
        let declared = def.def.as_map().and_then(|m| m.get("capabilities"));
        for entry in declared
            .and_then(Node::as_map)
            .map(|m| m.entries())
            .unwrap_or_default()
        {
            let written = match entry.value.as_str() {
                Some(_) => Some(&entry.value),
                None => entry.value.as_map().and_then(|m| m.get("type")),
            };
            let id = written.and_then(|w| {
                ancestry.full_name(model, TypeKind::Capability, w.as_str()?, w.span.file)
            });
            if let (Some(name), Some(id)) = (entry.key.as_str(), id) {
                out.push((name.to_string(), id));
            }
        }
    }
    out
}

/// The ancestry of a type, through one [`Ancestry`] for a whole completion (building one
/// indexes every type).
fn ancestors(ancestry: &mut Ancestry, model: &Model, kind: TypeKind, id: &str) -> Vec<String> {
    ancestry.chain(model, kind, id).to_vec()
}

#[cfg(test)]
#[path = "targets_tests.rs"]
mod tests;
