//! An interface type declares operations; it never implements them. "Interface Types MUST NOT
//! include any implementations for defined operations; that is, the implementation keyname is
//! invalid" (Simple Profile A.6.4.4 Additional Requirements), and in TOSCA 2.0 "interface types
//! definitions MUST NOT include any implementations for defined operations or notifications"
//! (§11.1 Interface Type, T2-IFTYPE-03). Implementations belong to the interface definitions of
//! node and relationship types, and to templates.
//!
//! Nor does a TOSCA 2.0 interface type store what an operation returns: "Defining attribute
//! mapping as part of the output parameter definition is not allowed in interface type
//! definitions" (§11.4 Operation Definition; §11.6 Notification Definition for notifications;
//! T2-IFTYPE-04), since the attributes belong to the node or relationship type that uses the
//! interface.
//!
//! Operations are found where each dialect writes them: under `operations` and `notifications`
//! (TOSCA 2.0, Simple Profile 1.3), and in the Simple Profile also directly under the type, as
//! every key that is not one of the interface type's own keynames. A short-form operation (a
//! string) is not judged: in an interface type the Simple Profile reads it as a description.

use super::interfaces::RESERVED;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};
use crate::yaml::{Map, Node};

/// Reports every `implementation` written in an interface type.
pub fn check(model: &Model, diags: &mut Diagnostics) {
    for ((kind, _), def) in &model.types {
        if *kind != TypeKind::Interface {
            continue;
        }
        let Some(map) = def.def.as_map() else {
            continue;
        };
        for section in ["operations", "notifications"] {
            if let Some(operations) = map.get(section).and_then(Node::as_map) {
                implementations(operations.entries().iter().map(|e| &e.value), diags);
                if model.dialect == Dialect::Tosca2 {
                    output_mappings(operations, diags);
                }
            }
        }
        if model.dialect != Dialect::Tosca2 {
            let operations = map.entries().iter().filter(|e| {
                e.key
                    .scalar_text()
                    .is_some_and(|key| !RESERVED.contains(&key))
            });
            implementations(operations.map(|e| &e.value), diags);
        }
    }
}

fn implementations<'a>(operations: impl Iterator<Item = &'a Node>, diags: &mut Diagnostics) {
    for operation in operations.filter_map(Node::as_map) {
        report(operation, diags);
    }
}

fn report(operation: &Map, diags: &mut Diagnostics) {
    let Some(entry) = operation
        .entries()
        .iter()
        .find(|e| e.key.as_str() == Some("implementation"))
    else {
        return;
    };
    diags.push(
        Diagnostic::error(
            codes::TOSCA_SHAPE,
            "an interface type cannot give an operation an `implementation`",
        )
        .at_with(entry.key.span, "not allowed in an interface type")
        .hint("an interface type only declares its operations (Simple Profile A.6.4.4 Additional Requirements; TOSCA 2.0 §11.1 Interface Type): move the `implementation` to the interface of a node or relationship type, or of a template, that uses this interface type"),
    );
}

/// Every output of a TOSCA 2.0 interface type's operation or notification that maps onto an
/// attribute: long form `mapping:` or the short form, a list (§9.8 Parameter Definition).
fn output_mappings(operations: &Map, diags: &mut Diagnostics) {
    let outputs = operations
        .entries()
        .iter()
        .filter_map(|e| e.value.as_map()?.get("outputs")?.as_map());
    for output in outputs.flat_map(Map::entries) {
        let at = match (output.value.as_map(), output.value.as_seq()) {
            (Some(def), _) => def.entry("mapping").map(|e| e.key.span),
            (None, Some(_)) => Some(output.value.span),
            _ => None,
        };
        let Some(at) = at else { continue };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!(
                    "an interface type cannot map output `{}` onto an attribute",
                    output.key.scalar_text().unwrap_or_default()
                ),
            )
            .at_with(at, "an attribute mapping in an interface type")
            .hint("the attribute belongs to the node or relationship type that uses the interface: map the output in that type's interface definition, or in a template (§11.4 Operation Definition, §11.6 Notification Definition)"),
        );
    }
}
