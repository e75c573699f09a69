//! The interfaces a Simple Profile requirement definition writes in the long form of its
//! `relationship` refine what the relationship type declares: "interface_definitions:
//! represents one or more already declared interfaces in the Relationship Type (as declared on
//! the type keyname) allowing for the declaration of new Property definition for these
//! interfaces or for specific Operation definitions of these interfaces" (A.6.2.2.3 Extended
//! grammar for declaring Property Definitions on the relationship's Interfaces; A.6.2.1.1
//! Additional Keynames for multi-line relationship grammar: "to reference declared (named)
//! interface definitions of the corresponding Relationship Type").
//!
//! So each interface named there is one the relationship type (or a type it derives from)
//! declares, by its name or, as templates may, by its interface type's name; each operation is
//! one that interface declares, in its interface type or the relationship type's definition;
//! and the inputs are property definitions, whose `type` names a data type and whose `default`
//! is a value of it ([`super::value_types`], [`super::parameter_defaults`]). An interface or
//! operation the relationship type does not declare would never run: its inputs would be
//! dropped without a word.
//!
//! Judged only when the relationship type and the interface type are known with their whole
//! chain (an unknown one is reported where it is named). TOSCA 2.0 reads requirement
//! definitions with its own rules.

use super::interface_parameters::{map_entries, of_interface};
use super::interfaces::{RESERVED, declared_in};
use super::types::definitions;
use super::typing::Typing;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{TypeDef, TypeKind};
use crate::yaml::{Entry, Map, Node};

/// The rule's words, for every diagnostic.
const RULE: &str = "A.6.2.2.3 Extended grammar for declaring Property Definitions on the relationship's Interfaces";

/// Checks the relationship interfaces of every requirement definition of every 1.x type.
pub fn check(typing: &mut Typing<'_, '_>, diags: &mut Diagnostics) {
    let model = typing.model;
    if model.dialect == Dialect::Tosca2 || model.incomplete_types {
        return;
    }
    for def in model.types.values() {
        let requirements = def.def.as_map().and_then(|m| m.get("requirements"));
        for requirement in requirement_entries(requirements) {
            let relationship = requirement
                .value
                .as_map()
                .and_then(|r| r.get("relationship"));
            let Some(relationship) = relationship.and_then(Node::as_map) else {
                continue;
            };
            let interfaces = relationship.get("interfaces").and_then(Node::as_map);
            let (Some(type_node), Some(interfaces)) = (relationship.get("type"), interfaces) else {
                continue;
            };
            let Some(chain) = known_chain(typing, TypeKind::Relationship, type_node) else {
                continue;
            };
            let relationship_type = type_node.as_str().unwrap_or_default();
            for entry in interfaces.entries() {
                interface(typing, relationship_type, &chain, entry, diags);
            }
        }
    }
}

/// A type chain's definitions, most specific first, when the name and every parent are known.
fn known_chain<'m>(
    typing: &mut Typing<'_, 'm>,
    kind: TypeKind,
    type_node: &Node,
) -> Option<Vec<&'m TypeDef>> {
    let model = typing.model;
    let name = type_node.as_str()?;
    let id = typing
        .ancestry
        .full_name(model, kind, name, type_node.span.file)?;
    let chain = typing.ancestry.chain(model, kind, &id);
    let defs = definitions(model, kind, &chain);
    (defs.len() == chain.len()).then_some(defs)
}

/// The named definitions of `requirements`: a list of one-entry maps (a map is tolerated).
fn requirement_entries(requirements: Option<&Node>) -> impl Iterator<Item = &Entry> {
    let listed = requirements.and_then(Node::as_seq).unwrap_or_default();
    let single = listed
        .iter()
        .filter_map(Node::as_map)
        .flat_map(Map::entries);
    let mapped = requirements
        .and_then(Node::as_map)
        .map_or(&[][..], Map::entries);
    mapped.iter().chain(single)
}

/// One interface of a requirement's relationship: its name, operations and parameters.
fn interface<'m>(
    typing: &mut Typing<'_, 'm>,
    relationship_type: &str,
    chain: &[&'m TypeDef],
    entry: &'m Entry,
    diags: &mut Diagnostics,
) {
    let Some(key) = entry.key.scalar_text() else {
        return;
    };
    // The relationship type's interface definitions, most specific first, with their names.
    let declared_here: Vec<(&str, &Map)> = chain
        .iter()
        .filter_map(|d| d.def.as_map()?.get("interfaces")?.as_map())
        .flat_map(map_entries)
        .collect();
    let type_of = |name: &str| {
        declared_here
            .iter()
            .filter(|(n, _)| *n == name)
            .find_map(|(_, body)| body.get("type").filter(|t| t.as_str().is_some()))
    };
    let matched = declared_here
        .iter()
        .map(|(name, _)| *name)
        .find(|name| *name == key || type_of(name).and_then(Node::as_str) == Some(key));
    let Some(name) = matched else {
        let mut known: Vec<&str> = declared_here.iter().map(|(n, _)| *n).collect();
        known.dedup();
        diags.push(unknown_interface(
            relationship_type,
            key,
            &known,
            &entry.key,
        ));
        return;
    };
    let Some(body) = entry.value.as_map() else {
        return;
    };
    let interface_type = type_of(name);
    if let Some(type_defs) =
        interface_type.and_then(|t| known_chain(typing, TypeKind::Interface, t))
    {
        let mut known: Vec<&str> = type_defs
            .iter()
            .filter_map(|d| d.def.as_map())
            .flat_map(declared)
            .collect();
        let own = declared_here.iter().filter(|(n, _)| *n == name);
        known.extend(own.flat_map(|(_, body)| declared(body)));
        for op in operations(body) {
            let Some(op_name) = op.key.scalar_text() else {
                continue;
            };
            if !known.contains(&op_name) {
                diags.push(unknown_operation(
                    relationship_type,
                    key,
                    op_name,
                    &known,
                    &op.key,
                ));
            }
        }
    }
    for parameters in of_interface(body, typing.model.dialect) {
        for (parameter, definition) in map_entries(parameters.map) {
            if definition.get("type").is_none() {
                continue;
            }
            super::value_types::definition(typing.model, typing.ancestry, definition, diags);
            super::parameter_defaults::parameter(typing, parameter, definition, diags);
        }
    }
}

/// The operation and notification definitions of an interface definition: under `operations`
/// and `notifications`, and (the Simple Profile's older shape) every key not a keyname.
/// The operations and notifications an interface type or definition declares: a requirement
/// definition's relationship interface refines either kind under its one name.
fn declared(def: &Map) -> impl Iterator<Item = &str> {
    declared_in(def, "operations").chain(declared_in(def, "notifications"))
}

fn operations(body: &Map) -> impl Iterator<Item = &Entry> {
    body.entries()
        .iter()
        .flat_map(|entry| match entry.key.scalar_text() {
            Some("operations" | "notifications") => {
                entry.value.as_map().map_or(&[][..], Map::entries)
            }
            Some(key) if RESERVED.contains(&key) => &[][..],
            _ => std::slice::from_ref(entry),
        })
}

fn unknown_interface(relationship_type: &str, key: &str, known: &[&str], at: &Node) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_UNKNOWN_NAME,
        format!("relationship type `{relationship_type}` declares no interface `{key}`"),
    )
    .at_with(at.span, "not an interface of the relationship type")
    .did_you_mean(
        key,
        known,
        Some(format!(
            "a requirement's relationship `interfaces` refine interfaces its relationship type declares ({}); declare a new one in a relationship type derived from it ({RULE})",
            if known.is_empty() { "it declares none".to_string() } else { known.join(", ") }
        )),
    )
}

fn unknown_operation(
    relationship_type: &str,
    interface: &str,
    operation: &str,
    known: &[&str],
    at: &Node,
) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_UNKNOWN_NAME,
        format!(
            "interface `{interface}` of relationship type `{relationship_type}` has no operation `{operation}`"
        ),
    )
    .at_with(at.span, "not an operation of the interface")
    .did_you_mean(
        operation,
        known,
        Some(format!(
            "a requirement's relationship interface adds inputs to operations the interface declares: {} ({RULE})",
            known.join(", ")
        )),
    )
}
