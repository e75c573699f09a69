//! What a derived TOSCA 2.0 type may do with the type lists and triggers it inherits.
//!
//! The `valid_*` lists of capability and relationship types, a group type's `members` and a
//! policy type's `targets` may only narrow: "if the `valid_source_node_types` keyname is defined
//! in the parent type, each element in this list must either be in the parent type list or
//! derived from an element in the parent type list; if the `valid_source_node_types` keyname is
//! not defined in the parent type then no restrictions are applied" (§8.1 Capability Type; the
//! same words in §7.3 Relationship Type, §16.1 Group Type and §16.3 Policy Type). The parent's
//! list is the most specific one along its derivation, as the requirement fulfilment reads it
//! ([`super::selection::listed_types`]).
//!
//! A policy type's inherited triggers stay as they are: "existing trigger definitions may not be
//! changed; new trigger definitions may be added" (§16.3 Policy Type). Writing an inherited
//! trigger again with the same content changes nothing and is accepted; any difference is
//! reported at the trigger's name.
//!
//! Names that resolve to no type are left to the checks that report unknown types.

use super::selection::{admits, full_names, listed_types};
use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeDef, TypeKind};
use crate::yaml::Node;

/// The lists of one kind of type that may only narrow, with the kinds of type each names, and
/// the section that says so.
fn lists(kind: TypeKind) -> (&'static [(&'static str, &'static [TypeKind])], &'static str) {
    use TypeKind::{Capability, Group, Node as NodeType, Relationship};
    match kind {
        Capability => (
            &[
                ("valid_source_node_types", &[NodeType]),
                ("valid_relationship_types", &[Relationship]),
            ],
            "§8.1 Capability Type",
        ),
        Relationship => (
            &[
                ("valid_capability_types", &[Capability]),
                ("valid_target_node_types", &[NodeType]),
                ("valid_source_node_types", &[NodeType]),
            ],
            "§7.3 Relationship Type",
        ),
        Group => (&[("members", &[NodeType])], "§16.1 Group Type"),
        TypeKind::Policy => (&[("targets", &[NodeType, Group])], "§16.3 Policy Type"),
        _ => (&[], ""),
    }
}

/// Checks every derived TOSCA 2.0 type read.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect != Dialect::Tosca2 || model.incomplete_types {
        return;
    }
    for ((kind, id), def) in &model.types {
        if def.derived_from.is_none() {
            continue;
        }
        let chain = ancestry.chain(model, *kind, id);
        let parents = definitions(model, *kind, chain.get(1..).unwrap_or(&[]));
        if parents.is_empty() {
            continue;
        }
        let (keys, section) = lists(*kind);
        for (key, listed) in keys {
            narrows(model, ancestry, def, &parents, key, listed, section, diags);
        }
        if *kind == TypeKind::Policy {
            keeps_triggers(def, &parents, diags);
        }
    }
}

/// Each entry of the list `key` of `def` is, or derives from, an entry of its parent's list.
#[allow(clippy::too_many_arguments)]
fn narrows(
    model: &Model,
    ancestry: &mut Ancestry,
    def: &TypeDef,
    parents: &[&TypeDef],
    key: &str,
    listed: &[TypeKind],
    section: &str,
    diags: &mut Diagnostics,
) {
    let Some(items) = def
        .def
        .as_map()
        .and_then(|m| m.get(key))
        .and_then(Node::as_seq)
    else {
        return;
    };
    let Some(parent_list) = parents.iter().find_map(|d| d.def.as_map()?.get(key)) else {
        return;
    };
    if parent_list.as_seq().is_none_or(<[Node]>::is_empty) {
        return;
    }
    let allowed: Vec<(TypeKind, Vec<String>)> = listed
        .iter()
        .map(|k| (*k, listed_types(ancestry, model, parents, key, *k)))
        .collect();
    for item in items {
        let Some(written) = item.as_str() else {
            continue;
        };
        let mut resolved = false;
        let mut admitted = false;
        for (k, list) in &allowed {
            let Some(item_id) = ancestry.full_name(model, *k, written, item.span.file) else {
                continue;
            };
            resolved = true;
            let item_chain = ancestry.chain(model, *k, &item_id);
            admitted |= admits(list, &item_chain);
        }
        if !resolved || admitted {
            continue;
        }
        let shown = full_names(ancestry, model, Some(parent_list), listed[0]);
        diags.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "{} `{}` lists `{written}` in `{key}`, which its parent type does not admit: the parent's `{key}` are {}",
                    def.kind.noun(),
                    def.name,
                    shown.join(", ")
                ),
            )
            .at_with(item.span, "not in the parent's list")
            .label(parent_list.span, "the parent's list")
            .hint(format!(
                "a derived type may only narrow `{key}`: list types that are, or derive from, one of the parent's ({section})"
            )),
        );
    }
}

/// A policy type redefines no trigger it inherits, unless with the same content.
fn keeps_triggers(def: &TypeDef, parents: &[&TypeDef], diags: &mut Diagnostics) {
    let Some(own) = def
        .def
        .as_map()
        .and_then(|m| m.get("triggers"))
        .and_then(Node::as_map)
    else {
        return;
    };
    for entry in own.entries() {
        let Some(name) = entry.key.scalar_text() else {
            continue;
        };
        let inherited = parents.iter().find_map(|p| {
            let triggers = p.def.as_map()?.get("triggers")?.as_map()?;
            triggers.get(name).map(|v| (p, v))
        });
        let Some((parent, inherited)) = inherited else {
            continue;
        };
        if entry.value.same_content(inherited) {
            continue;
        }
        diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!(
                    "policy type `{}` changes trigger `{name}`, which it inherits from policy type `{}`",
                    def.name, parent.name
                ),
            )
            .at_with(entry.key.span, "changes an inherited trigger")
            .label(inherited.span, "defined here")
            .hint("existing trigger definitions may not be changed in a derived policy type; new ones may be added: give this trigger a new name, or remove it (§16.3 Policy Type)"),
        );
    }
}
