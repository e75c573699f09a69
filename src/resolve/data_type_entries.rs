//! A TOSCA 2.0 data type derived from `list` or `map` says what its entries are:
//! `entry_schema` is "For data types that derive from the TOSCA list or map data types, the
//! mandatory schema definition for the entries in properties of this data type" (§9.2 Data
//! Type; T2-DATATYPE-06, T2-ERR-09). Its misplaced twin, an `entry_schema` on a type that is
//! no list or map, is [`super::tosca2_types`]'s.
//!
//! The error is reported once, at the type that derives from the built-in collection itself:
//! a type derived from a user list or map type inherits that type's `entry_schema` (the
//! checklist's decision for T2-DATATYPE-06: "a type that derives from a user type which already
//! derives from list or map and has an entry_schema inherits it → not missing"), and one
//! derived from a type that lacks it is fixed by fixing that type.
//!
//! Only data types: a property, attribute or parameter definition of type `list` or `map`
//! without an `entry_schema` is left alone, though §9.4 Property Definition also calls it
//! mandatory. TOSCA 2.0 has no type for entries of any kind, so a free-form map (a Kubernetes
//! object's `spec`) could not be written at all, and the OASIS TOSCA 2.0 suite keeps such
//! definitions among its valid files (`function-definitions/s115.yaml`,
//! `schema-definition/schema-defintion-short.yaml`); a data type has no such excuse, and the
//! suite's `schema-definition-entry-schema-inv.yaml` expects a map type without entries to be
//! rejected. The Simple Profile calls `entry_schema` optional (A.5.7.2 Keynames).

use super::types::Ancestry;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};

/// The built-in collection types, whose derived types need an `entry_schema`.
const COLLECTIONS: [&str; 2] = ["list", "map"];

/// Reports every TOSCA 2.0 data type derived straight from `list` or `map` without an
/// `entry_schema`.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    for ((kind, id), def) in &model.types {
        if *kind != TypeKind::Data {
            continue;
        }
        let Some(map) = def.def.as_map() else {
            continue;
        };
        if map.contains_key("entry_schema") {
            continue;
        }
        let chain = ancestry.chain(model, TypeKind::Data, id);
        // Straight from the built-in type: the ancestry is the type itself, then `list` or
        // `map`, which is no type read from a file.
        let [_, parent] = &chain[..] else {
            continue;
        };
        if !COLLECTIONS.contains(&parent.as_str())
            || model.types.contains_key(&(TypeKind::Data, parent.clone()))
        {
            continue;
        }
        let at = def
            .derived_from
            .as_ref()
            .map_or(def.span, |(_, span)| *span);
        diags.push(
            Diagnostic::error(
                codes::TOSCA_MISSING_KEY,
                format!(
                    "data type `{}` derives from `{parent}` and has no `entry_schema`",
                    def.name
                ),
            )
            .at_with(at, format!("a {parent} of what?"))
            .label(def.span, "the data type")
            .hint(format!(
                "add `entry_schema: <type of the entries>` (for instance `entry_schema: string`): \
                 for a type derived from {parent} it is \"the mandatory schema definition for the \
                 entries in properties of this data type\" (§9.2 Data Type)"
            )),
        );
    }
}
