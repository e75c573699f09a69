//! An interface type declares operations; it never implements them. "Interface Types MUST NOT
//! include any implementations for defined operations; that is, the implementation keyname is
//! invalid" (Simple Profile A.6.4.4 Additional Requirements), and in TOSCA 2.0 "interface types
//! definitions MUST NOT include any implementations for defined operations or notifications"
//! (§11.1 Interface Type, T2-IFTYPE-03). Implementations belong to the interface definitions of
//! node and relationship types, and to templates.
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
