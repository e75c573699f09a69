//! The type lists of Simple Profile 1.x types name types of the kind they list, defined or
//! normative: a capability type's `valid_source_types` (and a node type's capability
//! definition's) name node types ("an optional list of one or more valid names of Node Types",
//! A.6.6.1 Capability Type keynames, A.6.1.1 Capability definition keynames), and a
//! relationship type's `valid_target_types` name capability types ("a list of one or more names
//! of Capability Types that are valid targets", A.6.9.1 Relationship Type keynames). A name that
//! resolves to nothing is reported where it is written, as an unknown `derived_from` is, rather
//! than read as a list that no template can ever meet (SP-ERR-33).
//!
//! TOSCA 2.0's lists are checked by [`super::tosca2_types`]; a model whose types were taken on
//! trust ([`crate::model::Model::incomplete_types`]) is not judged.

use super::types::Ancestry;
use crate::diag::Diagnostics;
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};
use crate::yaml::{Map, Node};

/// Checks the type lists of every type the model read.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if !matches!(model.dialect, Dialect::SimpleProfile | Dialect::Variability)
        || model.incomplete_types
    {
        return;
    }
    for ((kind, _), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        match kind {
            TypeKind::Capability => list(
                model,
                ancestry,
                map,
                "valid_source_types",
                TypeKind::Node,
                diags,
            ),
            TypeKind::Relationship => list(
                model,
                ancestry,
                map,
                "valid_target_types",
                TypeKind::Capability,
                diags,
            ),
            TypeKind::Node => {
                let capabilities = map.get("capabilities").and_then(Node::as_map);
                for entry in capabilities.map_or(&[][..], Map::entries) {
                    if let Some(capability) = entry.value.as_map() {
                        list(
                            model,
                            ancestry,
                            capability,
                            "valid_source_types",
                            TypeKind::Node,
                            diags,
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

/// Resolves each name of `map`'s list `key` as a type of kind `of`, reporting those that are
/// none.
fn list(
    model: &Model,
    ancestry: &mut Ancestry,
    map: &Map,
    key: &str,
    of: TypeKind,
    diags: &mut Diagnostics,
) {
    let Some(items) = map.get(key).and_then(Node::as_seq) else {
        return;
    };
    for item in items {
        if let Some(name) = item.as_str() {
            ancestry.of(model, of, name, item.span, diags);
        }
    }
}
