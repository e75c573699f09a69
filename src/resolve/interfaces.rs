//! Whether a template's interface assignment names what its type declares: an interface the
//! node or relationship type defines (SP-IF-04), and operations or notifications that interface
//! defines, in its interface type or in the type's own interface definition (SP-OP-08). A
//! template assigns implementations and inputs; it cannot add an interface or an operation.

use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Interface;
use crate::model::{Model, TypeKind};
use crate::yaml::{Map, Node};

/// Keynames of an interface (type or definition) that are not operations.
pub(super) const RESERVED: &[&str] = &[
    "type",
    "derived_from",
    "version",
    "metadata",
    "description",
    "inputs",
    "operations",
    "notifications",
];

/// The type's interface that an assignment keyed `key` refines: the definition of that name,
/// or the one whose interface type is named so (the 1.0 examples key assignments by
/// `tosca.interfaces.node.lifecycle.Standard`). `None`, with an error, when there is none.
pub fn assigned_name(
    key: &str,
    key_node: &Node,
    defined: &crate::ir::Interfaces,
    diags: &mut Diagnostics,
) -> Option<String> {
    if defined.contains_key(key) {
        return Some(key.to_string());
    }
    if let Some((name, _)) = defined
        .iter()
        .find(|(_, i)| i.type_name.as_deref() == Some(key) || i.types.iter().any(|t| t == key))
    {
        return Some(name.clone());
    }
    let known: Vec<&str> = defined.keys().map(String::as_str).collect();
    diags.push(
        Diagnostic::error(
            codes::TOSCA_UNKNOWN_NAME,
            format!("the template's type defines no interface `{key}`"),
        )
        .at(key_node.span)
        .did_you_mean(
            key,
            &known,
            Some(if known.is_empty() {
                "the type defines no interfaces; define the interface in a derived type".into()
            } else {
                format!("the type defines: {}", known.join(", "))
            }),
        ),
    );
    None
}

/// Reports each operation or notification in an assignment `body` that `interface` (as its
/// type built it) does not define.
pub fn check_operations(model: &Model, interface: &Interface, body: &Map, diags: &mut Diagnostics) {
    let type_defs = definitions(model, TypeKind::Interface, &interface.types);
    if !super::nodes::defs_complete(model, &type_defs) {
        return;
    }
    // An operation is assigned under `operations` (or, in the Simple Profile, directly under the
    // interface), a notification under `notifications`: each names one of its own kind
    // (§11.5 Operation Assignment, §11.7 Notification Assignment).
    let known_as = |section: &'static str| -> Vec<&str> {
        let own = match section {
            "notifications" => &interface.notifications,
            _ => &interface.operations,
        };
        let mut known: Vec<&str> = own.keys().map(String::as_str).collect();
        for def in type_defs.iter().filter_map(|d| d.def.as_map()) {
            known.extend(declared_in(def, section));
        }
        known
    };
    let (operations, notifications) = (known_as("operations"), known_as("notifications"));
    let assigned = body
        .entries()
        .iter()
        .flat_map(|entry| match entry.key.scalar_text() {
            Some(section @ ("operations" | "notifications")) => entry
                .value
                .as_map()
                .map_or(&[][..], |m| m.entries())
                .iter()
                .map(|e| (section, e))
                .collect::<Vec<_>>(),
            Some(key) if RESERVED.contains(&key) => Vec::new(),
            _ => vec![("operations", entry)],
        });
    for (section, entry) in assigned {
        let Some(name) = entry.key.scalar_text() else {
            continue;
        };
        let known = if section == "notifications" {
            &notifications
        } else {
            &operations
        };
        if known.contains(&name) {
            continue;
        }
        let interface_type = interface.type_name.as_deref().unwrap_or("its type");
        let noun = if section == "notifications" {
            "notification"
        } else {
            "operation"
        };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_NAME,
                format!("interface `{interface_type}` has no {noun} `{name}`"),
            )
            .at(entry.key.span)
            .did_you_mean(
                name,
                known,
                Some(format!(
                    "a template can only give implementations and inputs to {section} its type defines: {}",
                    known.join(", ")
                )),
            ),
        );
    }
}

/// The names an interface type or definition declares as `section` (`operations` or
/// `notifications`); the Simple Profile's operations written directly under the interface count
/// as `operations`.
pub(super) fn declared_in<'a>(
    def: &'a Map,
    section: &'static str,
) -> impl Iterator<Item = &'a str> {
    def.entries()
        .iter()
        .flat_map(move |entry| match entry.key.scalar_text() {
            Some(key) if key == section => entry
                .value
                .as_map()
                .map_or_else(Vec::new, |m| m.names().collect()),
            Some(key) if section == "operations" && !RESERVED.contains(&key) => vec![key],
            _ => Vec::new(),
        })
}
