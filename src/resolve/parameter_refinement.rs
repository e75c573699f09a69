//! Refinement of parameters: "A parameter definition within interface types, interface
//! definitions in node and relationship types, uses the following refinement rules when the
//! containing entity type is derived" (§9.8 Parameter Definition): its `type` (and the types of
//! its `entry_schema` and `key_schema`) must be derived from (or be the same as) the inherited
//! one, a required parameter stays required, and once a TOSCA 2.0 parameter has a fixed `value`
//! (or an output its `mapping`) it "cannot be further refined". The rules are those of property
//! refinement ([`super::refinement`]), applied to each interface input and each operation's or
//! notification's input and output ([`super::interface_parameters`]).
//!
//! A parameter refines the definition of the same name (in the same operation and section)
//! that it inherits:
//!
//! - in an interface type, from the interface types it derives from;
//! - in a node, relationship or group type's interface definition, from the same-named
//!   interface definitions of its parent types, then from the interface type (and its
//!   parents) that the definition, or the nearest inherited one, names.
//!
//! The Simple Profile's types are held to the same rules (A.5.12 Interface definition writes
//! operation inputs as property definitions, whose refinement narrows as in SP-TYPE-04). A
//! parameter written as a plain value (an assignment in a Simple Profile interface definition)
//! writes no `type`, `required` or `value` keyname and is not judged here.

use super::interface_parameters::{entries, interface_named, map_entries, merged, of_interface};
use super::refinement::Refined;
use super::types::definitions;
use super::typing::Typing;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};
use crate::yaml::{Map, Node};

/// Checks every parameter definition that refines an inherited one, in every type.
pub fn check(typing: &mut Typing<'_, '_>, diags: &mut Diagnostics) {
    let model = typing.model;
    for ((kind, id), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        match kind {
            TypeKind::Interface if def.derived_from.is_some() => {
                let parents = parent_layers(typing, model, *kind, id, Some);
                refine(typing, map, &parents, diags);
            }
            TypeKind::Node | TypeKind::Relationship | TypeKind::Group => {
                for (name, body) in entries(map.get("interfaces")) {
                    let mut parents =
                        parent_layers(typing, model, *kind, id, |m| interface_named(m, name));
                    let named = std::iter::once(body)
                        .chain(parents.iter().copied())
                        .find_map(|m| m.get("type"));
                    if let Some(interface_type) = named {
                        parents.extend(interface_type_layers(typing, model, interface_type));
                    }
                    refine(typing, body, &parents, diags);
                }
            }
            _ => {}
        }
    }
}

/// What `pick` finds in each type `id` derives from, nearest parent first.
fn parent_layers<'m>(
    typing: &mut Typing<'_, 'm>,
    model: &'m Model,
    kind: TypeKind,
    id: &str,
    pick: impl Fn(&'m Map) -> Option<&'m Map>,
) -> Vec<&'m Map> {
    let chain = typing.ancestry.chain(model, kind, id);
    let defs = definitions(model, kind, &chain);
    defs.iter()
        .skip(1)
        .filter_map(|d| d.def.as_map().and_then(&pick))
        .collect()
}

/// The interface type a definition names, and the types it derives from, nearest first.
pub(super) fn interface_type_layers<'m>(
    typing: &mut Typing<'_, 'm>,
    model: &'m Model,
    type_node: &Node,
) -> Vec<&'m Map> {
    let Some(written) = type_node.scalar_text() else {
        return Vec::new();
    };
    let Some(id) =
        typing
            .ancestry
            .full_name(model, TypeKind::Interface, written, type_node.span.file)
    else {
        return Vec::new();
    };
    let chain = typing.ancestry.chain(model, TypeKind::Interface, &id);
    definitions(model, TypeKind::Interface, &chain)
        .iter()
        .filter_map(|d| d.def.as_map())
        .collect()
}

/// Judges each parameter `own` writes against what `parents` (nearest first) define.
fn refine<'m>(
    typing: &mut Typing<'_, 'm>,
    own: &'m Map,
    parents: &[&'m Map],
    diags: &mut Diagnostics,
) {
    let dialect = typing.model.dialect;
    let inherited = merged(parents, dialect);
    if inherited.is_empty() {
        return;
    }
    for parameters in of_interface(own, dialect) {
        for (name, body) in map_entries(parameters.map) {
            let Some(parent) = inherited.get(&(parameters.operation, parameters.section, name))
            else {
                continue;
            };
            let refined = Refined {
                noun: if parameters.section == "outputs" {
                    "output"
                } else {
                    "input"
                },
                rule: "§9.8 Parameter Definition",
                name,
                body,
                parent,
            };
            refined.check_type(typing, diags);
            refined.check_required(diags);
            if dialect == Dialect::Tosca2 {
                refined.check_fixed_value(diags);
                fixed_mapping(&refined, diags);
            }
        }
    }
}

/// An output whose inherited definition maps it to an attribute is not mapped again: "once
/// defined, the parameter cannot be further refined or mapped" (§9.8 Parameter Definition).
fn fixed_mapping(refined: &Refined<'_, '_>, diags: &mut Diagnostics) {
    let (Some(own), Some(fixed)) = (refined.body.get("mapping"), refined.parent.get("mapping"))
    else {
        return;
    };
    diags.push(
        Diagnostic::error(
            codes::TOSCA_SHAPE,
            format!(
                "{} `{}` is mapped in its parent definition, and a refinement cannot map it again",
                refined.noun, refined.name
            ),
        )
        .at_with(own.span, "maps it again")
        .label(fixed.span, "mapped here")
        .hint("once a parameter definition has a `mapping`, the parameter cannot be further refined or mapped (§9.8 Parameter Definition): remove this `mapping`"),
    );
}
