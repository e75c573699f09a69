//! A TOSCA 2.0 interface definition in a node or relationship type names only operations and
//! notifications its interface type declares: "A new operation definition may be declared only
//! inside interface type definitions (this is the only place where new operations can be
//! defined). In interface type, node type, or relationship type definitions ... we may further
//! refine operations already defined in an interface type" (§11.4 Operation Definition; the
//! same words for notifications in §11.6 Notification Definition). A definition that refines an
//! inherited interface without naming its type has the type of the definition it refines,
//! found along the node or relationship type's derivation.
//!
//! Not checked here: the interfaces of a relationship definition inside a requirement
//! definition, which the requirement checks read.
//!
//! Templates assigning operations are checked by [`super::interfaces::check_operations`]; an
//! interface type no name resolves to is reported by the type checks.

use super::interfaces::declared_in;
use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeDef, TypeKind};
use crate::yaml::{Map, Node};

/// Checks the interface definitions of every TOSCA 2.0 node and relationship type read.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect != Dialect::Tosca2 || model.incomplete_types {
        return;
    }
    for ((kind, id), def) in &model.types {
        if !matches!(kind, TypeKind::Node | TypeKind::Relationship) {
            continue;
        }
        let Some(interfaces) = interfaces_of(def) else {
            continue;
        };
        let chain = ancestry.chain(model, *kind, id);
        let own_and_parents = definitions(model, *kind, &chain);
        for entry in interfaces.entries() {
            let (Some(name), Some(body)) = (entry.key.scalar_text(), entry.value.as_map()) else {
                continue;
            };
            let Some(type_node) = own_and_parents
                .iter()
                .filter_map(|d| interfaces_of(d)?.get(name)?.as_map()?.get("type"))
                .find(|t| t.as_str().is_some())
            else {
                continue;
            };
            let type_name = type_node.as_str().unwrap_or_default();
            let Some(type_id) =
                ancestry.full_name(model, TypeKind::Interface, type_name, type_node.span.file)
            else {
                continue;
            };
            if let Some(d) = narrowed(model, ancestry, def, name, &type_id, &own_and_parents) {
                diags.push(d);
            }
            let type_chain = ancestry.chain(model, TypeKind::Interface, &type_id);
            let type_defs = definitions(model, TypeKind::Interface, &type_chain);
            if type_defs.len() < type_chain.len() {
                continue;
            }
            for section in ["operations", "notifications"] {
                let Some(named) = body.get(section).and_then(Node::as_map) else {
                    continue;
                };
                // An operation refines an operation, a notification a notification.
                let known: Vec<&str> = type_defs
                    .iter()
                    .filter_map(|d| d.def.as_map())
                    .flat_map(|d| declared_in(d, section))
                    .collect();
                for op in named.entries() {
                    let Some(op_name) = op.key.scalar_text() else {
                        continue;
                    };
                    if known.contains(&op_name) {
                        continue;
                    }
                    diags.push(undeclared(
                        def, name, type_name, section, op_name, &known, &op.key,
                    ));
                }
            }
        }
    }
}

/// An interface the type redefines with its own `type`: "type: must be derived from (or the same
/// as) the type in the interface definition in the parent entity type definition" (§11.2
/// Interface Definition). `own_id` is the identity of the type the definition names; the
/// parent's is the nearest ancestor's definition of `name` that names one.
fn narrowed(
    model: &Model,
    ancestry: &mut Ancestry,
    def: &TypeDef,
    name: &str,
    own_id: &str,
    own_and_parents: &[&TypeDef],
) -> Option<Diagnostic> {
    let (own, parents) = own_and_parents.split_first()?;
    let own_type = interfaces_of(own)?.get(name)?.as_map()?.get("type")?;
    let (parent, inherited) = parents
        .iter()
        .find_map(|p| {
            let inherited = interfaces_of(p)?.get(name)?.as_map()?.get("type")?;
            Some((p, inherited.as_str()?.to_string(), inherited.span))
        })
        .map(|(p, name, span)| (p, (name, span)))?;
    let inherited_id =
        ancestry.full_name(model, TypeKind::Interface, &inherited.0, inherited.1.file)?;
    if ancestry
        .chain(model, TypeKind::Interface, own_id)
        .contains(&inherited_id)
    {
        return None;
    }
    let written = own_type.as_str().unwrap_or_default();
    Some(
        Diagnostic::error(
            codes::TOSCA_TYPE_MISMATCH,
            format!(
                "{} `{}` refines interface `{name}` to type `{written}`, which does not derive from `{}`, its type in {} `{}`",
                def.kind.noun(),
                def.name,
                inherited.0,
                parent.kind.noun(),
                parent.name
            ),
        )
        .at_with(own_type.span, "not derived from the inherited type")
        .label(inherited.1, "inherited type")
        .hint(format!(
            "a refined interface's type must be the inherited type or derive from it: name `{}` or a type derived from it, or leave `type` out to keep it (§11.2 Interface Definition)",
            inherited.0
        )),
    )
}

/// The `interfaces` map a type defines itself.
fn interfaces_of(def: &TypeDef) -> Option<&Map> {
    def.def.as_map()?.get("interfaces")?.as_map()
}

/// The error for an operation or notification `op_name` its interface type does not declare.
fn undeclared(
    def: &TypeDef,
    interface: &str,
    type_name: &str,
    section: &str,
    op_name: &str,
    known: &[&str],
    at: &Node,
) -> Diagnostic {
    let singular = if section == "operations" {
        "operation"
    } else {
        "notification"
    };
    Diagnostic::error(
        codes::TOSCA_UNKNOWN_NAME,
        format!(
            "interface `{interface}` of {} `{}` defines {singular} `{op_name}`, which its interface type `{type_name}` does not declare",
            def.kind.noun(),
            def.name
        ),
    )
    .at(at.span)
    .did_you_mean(
        op_name,
        known,
        Some(format!(
            "an interface definition only refines what its interface type declares ({}); declare new {section} in an interface type derived from `{type_name}` (§11.4 Operation Definition, §11.6 Notification Definition)",
            if known.is_empty() {
                "none here".to_string()
            } else {
                known.join(", ")
            }
        )),
    )
}
