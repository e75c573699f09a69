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
use super::interface_parameters::{interfaces_of, map_entries, of_interface};
use super::typing::{Definition, Typing};
use crate::diag::Diagnostics;
use crate::yaml::Map;

/// Checks the defaults of every parameter definition in every type.
pub fn check(typing: &mut Typing<'_, '_>, diags: &mut Diagnostics) {
    let model = typing.model;
    for ((kind, _), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        for body in interfaces_of(*kind, map) {
            interface(typing, body, diags);
        }
    }
}

/// An interface type's or interface definition's parameters ([`super::interface_parameters`]).
fn interface<'m>(typing: &mut Typing<'_, 'm>, interface: &'m Map, diags: &mut Diagnostics) {
    for parameters in of_interface(interface, typing.model.dialect) {
        for (name, body) in map_entries(parameters.map) {
            parameter(typing, name, body, diags);
        }
    }
}

/// A parameter definition's non-null `default`, when it writes a `type` too.
pub(super) fn parameter<'m>(
    typing: &mut Typing<'_, 'm>,
    name: &str,
    body: &'m Map,
    diags: &mut Diagnostics,
) {
    let (Some(_), Some(default)) = (body.get("type"), body.get("default")) else {
        return;
    };
    if default.is_null() {
        return;
    }
    let mut found = Diagnostics::new();
    typing.value(default, &Definition::single(body), name, &mut found);
    diags.extend(found.iter().cloned().map(|d| of_definition(d, "default")));
}
