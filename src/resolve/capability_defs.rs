//! TOSCA 2.0 capability definitions in node types narrow what their capability type admits
//! (§8.2 Capability Definition): "if `valid_source_node_types` is defined in the capability
//! type, each element in this list MUST either be in that list or derived from an element in
//! that list", and the same for `valid_relationship_types`; a capability type without the list
//! puts no restriction. Simple Profile 1.x says the same of `valid_source_types`: "Any Node Type
//! (names) provides as values for the valid_source_types keyname SHALL be type-compatible ...
//! with any Node Types defined using the same keyname in the parent Capability Type" (A.6.1.4
//! Additional requirements). The capability type's list is the most specific one along its
//! derivation, as the requirement fulfilment reads it ([`super::selection::listed_types`]).

use super::selection::{admits, listed_types};
use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};

/// The lists a TOSCA 2.0 capability definition may narrow, with the kind of type each names.
const LISTS: &[(&str, TypeKind)] = &[
    ("valid_source_node_types", TypeKind::Node),
    ("valid_relationship_types", TypeKind::Relationship),
];
/// The one list a Simple Profile 1.x capability definition may narrow.
const SIMPLE_LISTS: &[(&str, TypeKind)] = &[("valid_source_types", TypeKind::Node)];

/// Checks the capability definitions of every node type read.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    let (lists, rule) = match model.dialect {
        Dialect::Tosca2 => (LISTS, "§8.2 Capability Definition"),
        Dialect::SimpleProfile | Dialect::Variability => {
            (SIMPLE_LISTS, "A.6.1.4 Additional requirements")
        }
        Dialect::Xml => return,
    };
    if model.incomplete_types {
        return;
    }
    for ((kind, _), def) in &model.types {
        if *kind != TypeKind::Node {
            continue;
        }
        let capabilities = def
            .def
            .as_map()
            .and_then(|m| m.get("capabilities"))
            .and_then(|c| c.as_map());
        for entry in capabilities.map_or(&[][..], |m| m.entries()) {
            let Some(body) = entry.value.as_map() else {
                continue;
            };
            let Some(type_node) = body.get("type").filter(|t| t.as_str().is_some()) else {
                continue;
            };
            let capability = entry.key.scalar_text().unwrap_or_default();
            let type_name = type_node.as_str().unwrap_or_default();
            let Some(id) =
                ancestry.full_name(model, TypeKind::Capability, type_name, type_node.span.file)
            else {
                continue;
            };
            let chain = ancestry.chain(model, TypeKind::Capability, &id);
            let type_defs = definitions(model, TypeKind::Capability, &chain);
            for (key, listed_kind) in lists {
                let allowed = listed_types(ancestry, model, &type_defs, key, *listed_kind);
                if allowed.is_empty() {
                    continue;
                }
                let Some(items) = body.get(key).and_then(|l| l.as_seq()) else {
                    continue;
                };
                for item in items {
                    let Some(written) = item.as_str() else {
                        continue;
                    };
                    let Some(item_id) =
                        ancestry.full_name(model, *listed_kind, written, item.span.file)
                    else {
                        continue;
                    };
                    let item_chain = ancestry.chain(model, *listed_kind, &item_id);
                    if !admits(&allowed, &item_chain) {
                        diags.push(
                            Diagnostic::error(
                                codes::TOSCA_TYPE_MISMATCH,
                                format!(
                                    "capability `{capability}` of node type `{}` lists `{written}` in `{key}`, which its capability type `{type_name}` does not admit: its `{key}` are {}",
                                    def.name,
                                    allowed.join(", ")
                                ),
                            )
                            .at(item.span)
                            .hint(format!("list only types that are, or derive from, one of the capability type's `{key}` ({rule})")),
                        );
                    }
                }
            }
        }
    }
}
