//! Defaults of parameters: the parameter definitions of interfaces (an interface's `inputs`, an
//! operation's or notification's `inputs` and, in TOSCA 2.0, `outputs`), in interface types and
//! in the interface definitions of node, relationship and group types. (The defaults of
//! property definitions, a node type's capability refinements among them, are
//! [`super::defaults`].)
//!
//! A parameter definition's `default` is a value of the parameter: "The TOSCA parameter
//! definition has all the keynames of a TOSCA property definition" (§9.8 Parameter Definition),
//! whose `default` must match its type (§9.4 Property Definition), and the Simple Profile writes
//! operation inputs as property definitions (A.5.11 Operation definition).
//!
//! A parameter is judged only when it writes both a `type` and a `default`: in a node or
//! relationship type's interface an input may be a plain value (an assignment) or a refinement
//! without a `type`, whose default the interface type's definition governs where it is used.

use super::defaults::of_definition;
use super::interfaces::RESERVED;
use super::typing::{Definition, Typing};
use crate::diag::Diagnostics;
use crate::ir::Dialect;
use crate::model::TypeKind;
use crate::yaml::{Map, Node};

/// Checks the defaults of every parameter definition in every type.
pub fn check(typing: &mut Typing<'_, '_>, diags: &mut Diagnostics) {
    let model = typing.model;
    for ((kind, _), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        match kind {
            TypeKind::Interface => interface(typing, map, diags),
            TypeKind::Node | TypeKind::Relationship | TypeKind::Group => {
                for (_, body) in entries(map.get("interfaces")) {
                    interface(typing, body, diags);
                }
            }
            _ => {}
        }
    }
}

/// The name and map of each entry of a map-valued `section`.
fn entries(section: Option<&Node>) -> impl Iterator<Item = (&str, &Map)> {
    section
        .and_then(Node::as_map)
        .into_iter()
        .flat_map(map_entries)
}

/// The name and map of each entry of `map` whose value is a map.
fn map_entries(map: &Map) -> impl Iterator<Item = (&str, &Map)> {
    map.entries()
        .iter()
        .filter_map(|e| Some((e.key.scalar_text()?, e.value.as_map()?)))
}

/// An interface type's or interface definition's parameters: its own `inputs`, and each
/// operation's and notification's `inputs` and `outputs`.
fn interface<'m>(typing: &mut Typing<'_, 'm>, interface: &'m Map, diags: &mut Diagnostics) {
    parameters(typing, interface.get("inputs"), diags);
    let mut operations: Vec<&Map> = ["operations", "notifications"]
        .into_iter()
        .flat_map(|s| entries(interface.get(s)).map(|(_, op)| op))
        .collect();
    // The Simple Profile also writes operations directly under the interface.
    if typing.model.dialect != Dialect::Tosca2 {
        operations.extend(
            map_entries(interface)
                .filter(|(key, _)| !RESERVED.contains(key))
                .map(|(_, op)| op),
        );
    }
    for operation in operations {
        parameters(typing, operation.get("inputs"), diags);
        parameters(typing, operation.get("outputs"), diags);
    }
}

/// Each parameter definition of `section` that writes a `type` and a non-null `default`.
fn parameters<'m>(typing: &mut Typing<'_, 'm>, section: Option<&'m Node>, diags: &mut Diagnostics) {
    for (name, body) in entries(section) {
        let (Some(_), Some(default)) = (body.get("type"), body.get("default")) else {
            continue;
        };
        if default.is_null() {
            continue;
        }
        let mut found = Diagnostics::new();
        typing.value(default, &Definition::single(body), name, &mut found);
        diags.extend(found.iter().cloned().map(|d| of_definition(d, "default")));
    }
}
