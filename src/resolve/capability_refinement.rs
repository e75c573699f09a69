//! A TOSCA 2.0 node type that redefines a capability it inherits refines it: "If the `type` is
//! specified, it must be derived from (or the same as) the `type` in the capability definition
//! in the parent node type definition" (§8.2.1 Capability Refinement). A refinement without
//! `type` keeps the parent's; the other keynames are checked against the capability type by
//! [`super::capability_defs`] and the property refinement checks.

use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeDef, TypeKind};
use crate::yaml::Node;

/// Checks the capability refinements of every derived TOSCA 2.0 node type read.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect != Dialect::Tosca2 || model.incomplete_types {
        return;
    }
    for ((kind, id), def) in &model.types {
        if *kind != TypeKind::Node || def.derived_from.is_none() {
            continue;
        }
        let Some(capabilities) = capabilities_of(def) else {
            continue;
        };
        let chain = ancestry.chain(model, TypeKind::Node, id);
        let parents = definitions(model, TypeKind::Node, chain.get(1..).unwrap_or(&[]));
        for entry in capabilities {
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            let Some(own) = type_of(&entry.value) else {
                continue;
            };
            let Some((parent, inherited)) = parents.iter().find_map(|p| {
                let found = capabilities_of(p)?
                    .iter()
                    .find(|e| e.key.scalar_text() == Some(name))?;
                Some((p, type_of(&found.value)?))
            }) else {
                continue;
            };
            let resolve = |ancestry: &mut Ancestry, node: &Node| {
                let written = node.as_str().unwrap_or_default();
                ancestry.full_name(model, TypeKind::Capability, written, node.span.file)
            };
            let (Some(own_id), Some(inherited_id)) =
                (resolve(ancestry, own), resolve(ancestry, inherited))
            else {
                continue;
            };
            if ancestry
                .chain(model, TypeKind::Capability, &own_id)
                .contains(&inherited_id)
            {
                continue;
            }
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!(
                        "node type `{}` refines capability `{name}` to type `{}`, which does not derive from `{}`, its type in node type `{}`",
                        def.name,
                        own.as_str().unwrap_or_default(),
                        inherited.as_str().unwrap_or_default(),
                        parent.name
                    ),
                )
                .at_with(own.span, "not derived from the inherited type")
                .label(inherited.span, "inherited type")
                .hint(format!(
                    "a refined capability's type must be the inherited type or derive from it: name `{}` or a type derived from it, or leave `type` out to keep it (§8.2.1 Capability Refinement)",
                    inherited.as_str().unwrap_or_default()
                )),
            );
        }
    }
}

/// The capability definitions a node type writes itself.
fn capabilities_of(def: &TypeDef) -> Option<&[crate::yaml::Entry]> {
    Some(def.def.as_map()?.get("capabilities")?.as_map()?.entries())
}

/// The capability type a definition names: its `type`, or the whole short form.
fn type_of(definition: &Node) -> Option<&Node> {
    match definition.as_map() {
        Some(body) => body.get("type").filter(|t| t.as_str().is_some()),
        None => definition.as_str().map(|_| definition),
    }
}
