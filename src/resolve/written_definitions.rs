//! The one walk over the property and attribute definitions every type writes, used or not,
//! for the checks that judge a definition where it is written: its `default` and fixed `value`
//! ([`super::defaults`]) and how it refines an inherited one ([`super::refinement`]); the
//! constraint clauses written anywhere in a type are judged before them
//! ([`super::written_constraints`]).
//!
//! Each definition is seen twice over through its type chain: merged with everything it
//! inherits (what a template of the type gets), and, when the type derives from another, the
//! inherited definition alone (what it refines). The chain is walked only for a type that
//! writes definitions, so a long chain of types that only derive costs nothing here, and once
//! for all the checks.

use super::types::definitions;
use super::typing::{Definition, Typing, definitions_of};
use crate::diag::Diagnostics;
use crate::model::TypeKind;
use crate::yaml::{Map, Node};

/// The sections of a type that hold value definitions: a data type's fields are its
/// `properties`.
pub const SECTIONS: [&str; 2] = ["properties", "attributes"];

/// One definition a type writes.
pub struct Written<'w, 'm> {
    /// `properties` or `attributes`.
    pub section: &'static str,
    pub name: &'w str,
    /// The definition as this type writes it.
    pub body: &'m Map,
    /// The definition through the whole chain, this type's layer included.
    pub merged: &'w Definition<'m>,
    /// The definition of the same name this type inherits, if it refines one.
    pub inherited: Option<&'w Definition<'m>>,
}

/// Runs the checks of written definitions, [`super::refinement`] and [`super::defaults`], in
/// one walk; each one's findings are reported together, refinements first.
pub fn check(typing: &mut Typing, diags: &mut Diagnostics) {
    // First, so that a default meeting a mistaken clause finds it reported.
    super::written_constraints::check(typing, diags);
    let (mut refined, mut defaulted) = (Diagnostics::new(), Diagnostics::new());
    each(typing, |typing, written| {
        super::refinement::check(typing, written, &mut refined);
        super::defaults::check(typing, written, &mut defaulted);
    });
    diags.extend(refined.iter().cloned());
    diags.extend(defaulted.iter().cloned());
}

/// Calls `visit` with every definition written in every type of the model, in the model's
/// type order and each type's written order.
pub fn each<'m>(
    typing: &mut Typing<'_, 'm>,
    mut visit: impl FnMut(&mut Typing<'_, 'm>, &Written<'_, 'm>),
) {
    let model = typing.model;
    for ((kind, id), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        if *kind == TypeKind::Node {
            capability_refinements(typing, map, &mut visit);
        }
        if !SECTIONS.iter().any(|s| map.get(s).is_some()) {
            continue;
        }
        let chain = typing.ancestry.chain(model, *kind, id);
        let defs = definitions(model, *kind, &chain);
        let parents = def.derived_from.as_ref().and_then(|_| defs.get(1..));
        for section in SECTIONS {
            let Some(own) = map.get(section).and_then(Node::as_map) else {
                continue;
            };
            let merged = definitions_of(&defs, section);
            let inherited = parents.map(|p| definitions_of(p, section));
            for entry in own.entries() {
                let (Some(name), Some(body)) = (entry.key.scalar_text(), entry.value.as_map())
                else {
                    continue;
                };
                let Some(merged) = merged.get(name) else {
                    continue;
                };
                let written = Written {
                    section,
                    name,
                    body,
                    merged,
                    inherited: inherited.as_ref().and_then(|i| i.get(name)),
                };
                visit(typing, &written);
            }
        }
    }
}

/// The property definitions a node type's capability definitions write: each refines the
/// capability type's definition of the same name (§8.2 Capability Definition, A.6.1 Capability
/// definition), so it is judged as a subtype's property is, against that definition. A
/// capability definition that names no `type` (a refinement of an inherited capability) is
/// left to the node type that defines it.
fn capability_refinements<'m>(
    typing: &mut Typing<'_, 'm>,
    node_type: &'m Map,
    visit: &mut impl FnMut(&mut Typing<'_, 'm>, &Written<'_, 'm>),
) {
    let model = typing.model;
    let capabilities = node_type.get("capabilities").and_then(Node::as_map);
    for entry in capabilities.map_or(&[][..], Map::entries) {
        let Some(capability) = entry.value.as_map() else {
            continue;
        };
        let (Some(type_name), Some(own)) = (
            capability.get("type").and_then(Node::scalar_text),
            capability.get("properties").and_then(Node::as_map),
        ) else {
            continue;
        };
        let chain = typing
            .ancestry
            .chain(model, TypeKind::Capability, type_name);
        let inherited = definitions_of(
            &definitions(model, TypeKind::Capability, &chain),
            "properties",
        );
        for entry in own.entries() {
            let (Some(name), Some(body)) = (entry.key.scalar_text(), entry.value.as_map()) else {
                continue;
            };
            let parent = inherited.get(name);
            let mut merged = parent.cloned().unwrap_or_default();
            merged.layers.insert(0, body);
            let written = Written {
                section: "properties",
                name,
                body,
                merged: &merged,
                inherited: parent,
            };
            visit(typing, &written);
        }
    }
}
