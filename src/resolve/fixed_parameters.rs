//! A TOSCA 2.0 template does not assign a parameter its definitions have fixed: "once the value
//! keyname is defined, the parameter cannot be further refined or assigned" (§9.8 Parameter
//! Definition), and "Assigning a value to an input parameter that had a fixed value specified
//! during operation definition or refinement is not allowed. Providing an attribute mapping for
//! an output parameter that was mapped during an operation refinement is also not allowed"
//! (§11.5 Operation Assignment). Refinements in derived types are judged by
//! [`super::parameter_refinement`]; this is the other half, what node and relationship
//! templates write in their interface assignments.
//!
//! The definitions a template's interface assignment meets are those of its type's interface
//! definition of that name, along the type's derivation, then of the interface type (and its
//! parents) the nearest of them names ([`super::interface_parameters::merged`]).

use super::interface_parameters::{entries, interface_named, merged};
use super::parameter_refinement::interface_type_layers;
use super::types::definitions;
use super::typing::Typing;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Named, TypeKind};
use crate::yaml::{Entry, Map, Node};

/// Checks the interface assignments of every node and relationship template.
pub fn check(typing: &mut Typing<'_, '_>, diags: &mut Diagnostics) {
    let model = typing.model;
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    let Some(topology) = model.topology.as_ref() else {
        return;
    };
    let templates = [
        (TypeKind::Node, &topology.node_templates),
        (TypeKind::Relationship, &topology.relationship_templates),
    ];
    for (kind, list) in templates {
        for template in list {
            self::template(typing, kind, template, diags);
        }
    }
}

/// One template's interface assignments.
fn template<'m>(
    typing: &mut Typing<'_, 'm>,
    kind: TypeKind,
    template: &'m Named,
    diags: &mut Diagnostics,
) {
    let model = typing.model;
    let Some(body) = template.def.as_map() else {
        return;
    };
    let Some(type_node) = body.get("type").filter(|t| t.as_str().is_some()) else {
        return;
    };
    let written = type_node.as_str().unwrap_or_default();
    let Some(id) = typing
        .ancestry
        .full_name(model, kind, written, type_node.span.file)
    else {
        return;
    };
    let chain = typing.ancestry.chain(model, kind, &id);
    let type_defs = definitions(model, kind, &chain);
    for (name, assignment) in entries(body.get("interfaces")) {
        let mut layers: Vec<&'m Map> = type_defs
            .iter()
            .filter_map(|d| interface_named(d.def.as_map()?, name))
            .collect();
        if let Some(interface_type) = layers.iter().find_map(|m| m.get("type")) {
            layers.extend(interface_type_layers(typing, model, interface_type));
        }
        let definitions = merged(&layers, Dialect::Tosca2);
        let fixed = |operation: Option<&str>, section: &'static str, parameter: &str| {
            let keyname = if section == "inputs" {
                "value"
            } else {
                "mapping"
            };
            definitions
                .get(&(operation, section, parameter))
                .and_then(|d| d.layers.iter().find_map(|l| l.get(keyname)))
        };
        for (operation, section, entry) in assigned(assignment) {
            let Some(parameter) = entry.key.scalar_text() else {
                continue;
            };
            if let Some(fixed_at) = fixed(operation, section, parameter) {
                diags.push(reassigned(
                    template, name, operation, section, parameter, &entry.key, fixed_at,
                ));
            }
        }
    }
}

/// Each parameter an interface assignment writes: its operation or notification (`None` for
/// the interface's own inputs), the section, and the entry.
fn assigned(assignment: &Map) -> Vec<(Option<&str>, &'static str, &Entry)> {
    let mut out: Vec<_> = section(assignment, "inputs")
        .iter()
        .map(|e| (None, "inputs", e))
        .collect();
    for group in ["operations", "notifications"] {
        for (operation, body) in entries(assignment.get(group)) {
            for key in ["inputs", "outputs"] {
                out.extend(section(body, key).iter().map(|e| (Some(operation), key, e)));
            }
        }
    }
    out
}

/// The entries of the map-valued `key` of `map`, none when it is missing or not a map.
fn section<'m>(map: &'m Map, key: &str) -> &'m [Entry] {
    map.get(key)
        .and_then(Node::as_map)
        .map_or(&[], Map::entries)
}

/// The error for a template assigning `parameter`, fixed (or mapped) at `fixed_at`.
fn reassigned(
    template: &Named,
    interface: &str,
    operation: Option<&str>,
    section: &str,
    parameter: &str,
    at: &Node,
    fixed_at: &Node,
) -> Diagnostic {
    let place = match operation {
        Some(op) => format!("`{op}` of interface `{interface}`"),
        None => format!("interface `{interface}`"),
    };
    let (what, done, fixed, rule) = if section == "inputs" {
        (
            "input",
            "has a fixed `value` in its definition",
            "fixed here",
            "a parameter with a `value` cannot be assigned again: remove this assignment, or the definition's `value` if it is meant to vary",
        )
    } else {
        (
            "output",
            "is already mapped in its definition",
            "mapped here",
            "an output with a `mapping` cannot be mapped again: remove this mapping",
        )
    };
    Diagnostic::error(
        codes::TOSCA_SHAPE,
        format!(
            "template `{}` assigns {what} `{parameter}` of {place}, which {done}",
            template.name
        ),
    )
    .at_with(at.span, "assigned here")
    .label(fixed_at.span, fixed)
    .hint(format!(
        "{rule} (§9.8 Parameter Definition, §11.5 Operation Assignment)"
    ))
}
