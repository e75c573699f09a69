//! Requirements fulfilled by selection (Simple Profile 1.x): an assignment that names a node
//! *type* (or no node at all, leaving it to the definition) is fulfilled by the one node template
//! of the topology that fits (SP-REQA-09, SP-REQD-05). A template fits when
//!
//! - its type derives from every node type asked for (the assignment's and the definition's);
//! - it has the capability asked for: by name, else by type (the assignment's `capability`,
//!   else the definition's capability type), and that capability is of the definition's
//!   capability type and accepts the source in its `valid_source_types`;
//! - it passes the assignment's `node_filter` ([`super::filters`]).
//!
//! Node templates are indexed once by every type of their ancestry and every capability type
//! they offer, so a requirement looks only at the templates of the type it asks for.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::filters::Verdict;
use super::types::{Ancestry, definitions};
use super::typing::Typing;
use crate::ir::{Capability, Node, NodeId, Shared, Topology, canonical, type_matches};
use crate::model::{Model, TypeDef, TypeKind};
use crate::yaml::Node as Yaml;

/// At most this many templates that do not fit are named in a message.
const SHOWN: usize = 8;

/// Node templates by the canonical names of their types and of their capabilities' types.
pub struct Candidates {
    by_type: HashMap<String, Vec<NodeId>>,
    by_capability: HashMap<String, Vec<NodeId>>,
    count: usize,
    pub lists: TypeLists,
}

/// [`valid_types`] of (node type, capability, keyname), read once per node type: every
/// template of a type has the same capability definitions.
#[derive(Default)]
pub struct TypeLists(RefCell<HashMap<ListKey, Rc<Vec<String>>>>);

/// (node type, capability name, keyname).
type ListKey = (String, String, &'static str);

impl Candidates {
    pub fn new(topology: &Topology) -> Self {
        let mut by_type: HashMap<String, Vec<NodeId>> = HashMap::new();
        let mut by_capability: HashMap<String, Vec<NodeId>> = HashMap::new();
        for (i, node) in topology.nodes.iter().enumerate() {
            for t in node.types.iter() {
                by_type
                    .entry(canonical(TypeKind::Node, t).to_string())
                    .or_default()
                    .push(NodeId::from_index(i));
            }
            let mut offered: Vec<&str> = node
                .capabilities
                .values()
                .flat_map(|c| c.types.iter().map(|t| canonical(TypeKind::Capability, t)))
                .collect();
            offered.sort_unstable();
            offered.dedup();
            for t in offered {
                by_capability
                    .entry(t.to_string())
                    .or_default()
                    .push(NodeId::from_index(i));
            }
        }
        Candidates {
            by_type,
            by_capability,
            count: topology.nodes.len(),
            lists: TypeLists::default(),
        }
    }
}

impl TypeLists {
    /// [`valid_types`], remembered per node type.
    pub(super) fn valid_types(
        &self,
        typing: &mut Typing,
        node: &Node,
        name: &str,
        cap: &Capability,
        keyname: &'static str,
        kind: TypeKind,
    ) -> Rc<Vec<String>> {
        let key = (
            node.types.first().unwrap_or(&node.type_name).clone(),
            name.to_string(),
            keyname,
        );
        if let Some(found) = self.0.borrow().get(&key) {
            return Rc::clone(found);
        }
        let found = Rc::new(valid_types(
            typing.model,
            typing.ancestry,
            node,
            name,
            cap,
            keyname,
            kind,
        ));
        self.0.borrow_mut().insert(key, Rc::clone(&found));
        found
    }
}

/// What a requirement asks of its target.
#[derive(Default)]
pub struct Wanted {
    /// Node types (full names) the target must derive from.
    pub node_types: Vec<String>,
    /// The assignment's `capability`: a capability name, or a capability type (full name when
    /// it is one).
    pub capability: Option<(String, Option<String>)>,
    /// The definition's capability type (full name).
    pub capability_type: Option<String>,
    /// The capability types the relationship's type admits (full names; empty: any).
    pub admitted: Vec<String>,
}

impl Wanted {
    /// In words, for messages: `a tosca.nodes.Compute with a capability `host``.
    pub fn describe(&self, filtered: bool) -> String {
        let mut out = match self.node_types.first() {
            Some(t) => format!("a {t}"),
            None => "a node template".to_string(),
        };
        match (&self.capability, &self.capability_type) {
            (Some((name, None)), _) => out.push_str(&format!(" with a capability `{name}`")),
            (Some((_, Some(t))), _) | (None, Some(t)) => {
                out.push_str(&format!(" with a capability of type {t}"))
            }
            (None, None) => {}
        }
        if filtered {
            out.push_str(" that passes its node_filter");
        }
        out
    }
}

/// The templates that fit, or why none does.
pub enum Selection {
    One(NodeId),
    /// None or several fit: the fitting ones and one line per template judged.
    Open {
        fitting: Vec<NodeId>,
        lines: Vec<String>,
        /// No other template is of the node type (or offers the capability type) asked for:
        /// the requirement describes a node outside the topology.
        outside: bool,
    },
}

/// What else a candidate must pass once its type and capability fit: the requirement's node
/// filter, and in TOSCA 2.0 what the relationship type and the capability admit. Called with
/// the candidate and the name of the capability the requirement would connect to.
pub type Judge<'j, 'm> = dyn FnMut(&mut Typing<'_, 'm>, NodeId, Option<&str>) -> Verdict + 'j;

/// Judges the candidates for requirement `requirement` of `source`.
pub fn select<'m>(
    typing: &mut Typing<'_, 'm>,
    topology: &Topology,
    candidates: &Candidates,
    source: NodeId,
    requirement: &str,
    wanted: &Wanted,
    extra: &mut Judge<'_, 'm>,
) -> Selection {
    let pool: Option<&Vec<NodeId>> = match (wanted.node_types.first(), capability_type(wanted)) {
        (Some(t), _) => Some(
            candidates
                .by_type
                .get(canonical(TypeKind::Node, t))
                .unwrap_or(&EMPTY),
        ),
        (None, Some(t)) => Some(
            candidates
                .by_capability
                .get(canonical(TypeKind::Capability, t))
                .unwrap_or(&EMPTY),
        ),
        (None, None) => None,
    };
    let all: Vec<NodeId>;
    let pool = match pool {
        Some(p) => p,
        None => {
            all = (0..candidates.count).map(NodeId::from_index).collect();
            &all
        }
    };
    let mut fitting = Vec::new();
    let mut lines = Vec::new();
    let outside = pool.iter().all(|&id| id == source);
    for &id in pool {
        if id == source {
            continue;
        }
        let node = &topology.nodes[id.index()];
        match judge(
            typing,
            topology,
            &candidates.lists,
            source,
            id,
            requirement,
            wanted,
            extra,
        ) {
            Verdict::Fits => {
                fitting.push(id);
                lines.push(format!("`{}` fits", node.name));
            }
            Verdict::Maybe(why) => {
                fitting.push(id);
                lines.push(format!("`{}` may fit ({why})", node.name));
            }
            Verdict::Fails(why) => lines.push(format!("`{}` {why}", node.name)),
        }
    }
    if let [one] = fitting[..] {
        return Selection::One(one);
    }
    // Name the templates of other types too, a few of them, so a misspelt type is visible.
    if let Some(t) = wanted.node_types.first() {
        let others = topology
            .nodes
            .iter()
            .enumerate()
            .filter(|(i, n)| NodeId::from_index(*i) != source && !type_matches(&n.types, t));
        let count = others.clone().count();
        for (_, n) in others.take(SHOWN) {
            lines.push(format!("`{}` is a {}, not a {t}", n.name, n.type_name));
        }
        if count > SHOWN {
            lines.push(format!("{} more of other types", count - SHOWN));
        }
    }
    Selection::Open {
        fitting,
        lines,
        outside,
    }
}

static EMPTY: Vec<NodeId> = Vec::new();

fn capability_type(wanted: &Wanted) -> Option<&String> {
    match &wanted.capability {
        Some((_, Some(t))) => Some(t),
        Some((_, None)) => None,
        None => wanted.capability_type.as_ref(),
    }
}

/// Judges one node template as the target of requirement `requirement` of `source`: the
/// checks of [`select`] applied to a template the assignment names.
#[allow(clippy::too_many_arguments)]
pub fn judge<'m>(
    typing: &mut Typing<'_, 'm>,
    topology: &Topology,
    lists: &TypeLists,
    source: NodeId,
    id: NodeId,
    requirement: &str,
    wanted: &Wanted,
    extra: &mut Judge<'_, 'm>,
) -> Verdict {
    let node = &topology.nodes[id.index()];
    for t in &wanted.node_types {
        if !type_matches(&node.types, t) {
            return Verdict::Fails(format!("is a {}, not a {t}", node.type_name));
        }
    }
    let chosen: Option<(&String, &Capability)> = match (&wanted.capability, &wanted.capability_type)
    {
        (Some((name, full)), _) => match node.capabilities.get_key_value(name) {
            Some((name, found)) => Some((name, &**found)),
            None => match full {
                Some(t) => match of_type(node, t, requirement, &wanted.admitted) {
                    Some(found) => Some(found),
                    None => return Verdict::Fails(format!("has no capability of type {t}")),
                },
                None => return Verdict::Fails(format!("has no capability `{name}`")),
            },
        },
        (None, Some(t)) => match of_type(node, t, requirement, &wanted.admitted) {
            Some(found) => Some(found),
            None => return Verdict::Fails(format!("has no capability of type {t}")),
        },
        (None, None) => None,
    };
    if let Some((name, cap)) = &chosen {
        let (name, cap) = (*name, *cap);
        if let Some(t) = &wanted.capability_type
            && !type_matches(&cap.types, t)
        {
            let is = cap.type_name.as_deref().unwrap_or("of an unknown type");
            return Verdict::Fails(format!("its capability `{name}` is a {is}, not a {t}"));
        }
        let keyname = match typing.model.dialect {
            crate::ir::Dialect::Tosca2 => "valid_source_node_types",
            _ => "valid_source_types",
        };
        let sources = lists.valid_types(typing, node, name, cap, keyname, TypeKind::Node);
        let from = &topology.nodes[source.index()];
        if !admits(&sources, &from.types) {
            return Verdict::Fails(format!(
                "its capability `{name}` accepts only sources of type {}",
                sources.join(", ")
            ));
        }
    }
    extra(typing, id, chosen.map(|(n, _)| n.as_str()))
}

/// The capability of type `t` a requirement connects to ([`capability_of_type`]).
fn of_type<'n>(
    node: &'n Node,
    t: &str,
    requirement: &str,
    admitted: &[String],
) -> Option<(&'n String, &'n Capability)> {
    let name = capability_of_type(&node.capabilities, t, requirement, admitted)?;
    node.capabilities
        .get_key_value(name)
        .map(|(name, c)| (name, &**c))
}

/// The capability of type `t` a requirement connects to, `None` when the node has none of that
/// type. The relationship's type decides first: among the capabilities of type `t`, one its
/// type admits (`admitted`, its `valid_target_types` or TOSCA 2.0 `valid_capability_types`;
/// empty when it admits any), and when none of them is admitted, a capability of another type
/// that is; then the one named like the requirement, else the first.
pub(super) fn capability_of_type<'c>(
    capabilities: &'c indexmap::IndexMap<String, Shared<Capability>>,
    t: &str,
    requirement: &str,
    admitted: &[String],
) -> Option<&'c String> {
    let pick = |of: &dyn Fn(&Capability) -> bool| -> Option<&'c String> {
        let mut matching = capabilities.iter().filter(|(_, c)| of(c)).map(|(n, _)| n);
        let first = matching.next()?;
        Some(
            std::iter::once(first)
                .chain(matching)
                .find(|n| n.as_str() == requirement)
                .unwrap_or(first),
        )
    };
    let of_type = pick(&|c| type_matches(&c.types, t))?;
    let is_admitted = |c: &Capability| admitted.iter().any(|a| type_matches(&c.types, a));
    if admitted.is_empty() {
        return Some(of_type);
    }
    pick(&|c| type_matches(&c.types, t) && is_admitted(c))
        .or_else(|| pick(&is_admitted))
        .or(Some(of_type))
}

/// A list of types a node's capability admits (`valid_source_types`; TOSCA 2.0
/// `valid_source_node_types`, `valid_relationship_types`): its definition's on the node type
/// chain, else its capability type's, as full names of `kind`.
pub(super) fn valid_types(
    model: &Model,
    ancestry: &mut Ancestry,
    node: &Node,
    name: &str,
    cap: &Capability,
    keyname: &str,
    kind: TypeKind,
) -> Vec<String> {
    let node_defs = definitions(model, TypeKind::Node, &node.types);
    let from_node = node_defs.iter().find_map(|d| {
        d.def
            .as_map()?
            .get("capabilities")?
            .as_map()?
            .get(name)?
            .as_map()?
            .get(keyname)
    });
    let cap_defs = definitions(model, TypeKind::Capability, &cap.types);
    let list = from_node.or_else(|| cap_defs.iter().find_map(|d| d.def.as_map()?.get(keyname)));
    full_names(ancestry, model, list, kind)
}

/// The type names of a list (`valid_*_types`) as identities of `kind`, each read in the file
/// it is written in; a name that is no type stays as written.
pub(super) fn full_names(
    ancestry: &mut Ancestry,
    model: &Model,
    list: Option<&Yaml>,
    kind: TypeKind,
) -> Vec<String> {
    list.and_then(Yaml::as_seq)
        .unwrap_or(&[])
        .iter()
        .filter_map(|t| Some((t.scalar_text()?, t.span.file)))
        .map(|(t, file)| {
            ancestry
                .full_name(model, kind, t, file)
                .unwrap_or_else(|| t.to_string())
        })
        .collect()
}

/// Whether a `valid_*_types` list admits something of `types` (an empty list admits anything).
pub(super) fn admits(list: &[String], types: &[String]) -> bool {
    list.is_empty() || list.iter().any(|t| type_matches(types, t))
}

/// [`full_names`] of the list `key` of the most specific of `defs` that has one.
pub(super) fn listed_types(
    ancestry: &mut Ancestry,
    model: &Model,
    defs: &[&TypeDef],
    key: &str,
    kind: TypeKind,
) -> Vec<String> {
    let list = defs.iter().find_map(|d| d.def.as_map()?.get(key));
    full_names(ancestry, model, list, kind)
}

#[cfg(test)]
#[path = "selection_tests.rs"]
mod tests;
