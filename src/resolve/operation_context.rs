//! What a TOSCA 2.0 type's fixed input values and output mappings may reach: only what is
//! meaningful where they are written (§11.4 Operation Definition, "The following additional
//! requirements apply"):
//!
//! - "within the context of an interface type definition functions such as $get_property or
//!   $get_attribute cannot be used" in a fixed input value: there is no node yet whose
//!   properties they could read (T2-IFTYPE-05).
//! - "Within the context of Node or relationship type definitions, these functions may only
//!   reference properties and attributes accessible starting from "SELF" (i.e. accessing a node
//!   by symbolic name is not meaningful)" (T2-OPDEF-03, T2-ERR-31).
//! - An output's attribute mapping "is allowed only in node and relationship type definitions
//!   ... and has to be meaningful in the scope of the context (e.g. "SELF")" (T2-OPDEF-04). That
//!   an interface type maps no output at all is [`super::interface_types`]' rule.
//!
//! In a relationship type, `SOURCE` and `TARGET` are reached from `SELF` (the relationship's own
//! ends, §10.3 TOSCA Path), so they are meaningful there too. Templates may name other
//! templates: they are what a symbolic name means.

use super::calls::syntax;
use super::interface_parameters::{interfaces_of, of_interface};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};
use crate::yaml::{Map, Node};

/// The functions that read a property or attribute through a TOSCA path.
const QUERIES: [&str; 2] = ["get_property", "get_attribute"];

/// Checks the fixed input values and output mappings of every TOSCA 2.0 interface type, and of
/// the interface definitions of every node and relationship type.
pub fn check(model: &Model, diags: &mut Diagnostics) {
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    for ((kind, _), def) in &model.types {
        let starts: &[&str] = match kind {
            TypeKind::Interface => &[],
            TypeKind::Node => &["SELF"],
            TypeKind::Relationship => &["SELF", "SOURCE", "TARGET"],
            _ => continue,
        };
        let Some(map) = def.def.as_map() else {
            continue;
        };
        for interface in interfaces_of(*kind, map) {
            for parameters in of_interface(interface, Dialect::Tosca2) {
                if parameters.section == "inputs" {
                    for entry in parameters.map.entries() {
                        fixed_value(&entry.value, *kind, starts, diags);
                    }
                }
                if parameters.section == "outputs" && *kind != TypeKind::Interface {
                    for (_, path) in mapped_attributes(parameters.map) {
                        if let Some(first) = path.first() {
                            not_from_self(first, *kind, starts, "maps onto", diags);
                        }
                    }
                }
            }
        }
    }
}

/// The fixed `value` of an input definition (or a one-line value that refines one), judged
/// for the queries it makes.
fn fixed_value(input: &Node, kind: TypeKind, starts: &[&str], diags: &mut Diagnostics) {
    let value = match input.as_map() {
        Some(map) if syntax::call(input).is_none() => map.get("value"),
        _ => Some(input),
    };
    if let Some(value) = value {
        queries(value, kind, starts, diags);
    }
}

/// Every `$get_property` or `$get_attribute` in `value`, wherever it is nested.
fn queries(value: &Node, kind: TypeKind, starts: &[&str], diags: &mut Diagnostics) {
    if let Some(call) = syntax::call(value)
        && QUERIES.contains(&call.name)
    {
        if kind == TypeKind::Interface {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_FUNCTION,
                    format!(
                        "an interface type's fixed input value cannot call `${}`",
                        call.name
                    ),
                )
                .at_with(call.name_node.span, "no node or relationship to read here")
                .hint("an interface type knows no node or relationship whose properties or attributes it could read: give the fixed value in the interface definition of a node or relationship type, or in a template (§11.4 Operation Definition)"),
            );
        } else if let Some(first) = syntax::arguments(&call).first() {
            not_from_self(first, kind, starts, "reads", diags);
        }
    }
    let children: Vec<&Node> = match (value.as_map(), value.as_seq()) {
        (Some(map), _) => map.entries().iter().map(|e| &e.value).collect(),
        (_, Some(items)) => items.iter().collect(),
        _ => Vec::new(),
    };
    for child in children {
        queries(child, kind, starts, diags);
    }
}

/// Reports the first element of a TOSCA path written in a type when it does not start from the
/// entity the type describes.
fn not_from_self(
    first: &Node,
    kind: TypeKind,
    starts: &[&str],
    what: &str,
    diags: &mut Diagnostics,
) {
    // A computed first element is judged where it is computed.
    let Some(name) = first.as_str().filter(|_| syntax::call(first).is_none()) else {
        return;
    };
    if starts.contains(&name) {
        return;
    }
    diags.push(
        Diagnostic::error(
            codes::TOSCA_FUNCTION,
            format!(
                "a {} {what} `{name}`, a template's name: only paths from {} are meaningful in a type",
                kind.noun(),
                starts.join(", ")
            ),
        )
        .at_with(first.span, "a symbolic node name in a type")
        .hint(format!(
            "start the path with {} (the entity the type describes); a template may name other templates (§11.4 Operation Definition)",
            starts.join(" or "),
        )),
    );
}

/// The output definitions of an operation that map onto an attribute of the type's entity.
pub fn mapped_attributes(outputs: &Map) -> impl Iterator<Item = (&Node, &[Node])> {
    outputs.entries().iter().filter_map(|e| {
        let path = match (e.value.as_map(), e.value.as_seq()) {
            (Some(map), _) => map.get("mapping")?.as_seq()?,
            (None, Some(items)) => items,
            _ => return None,
        };
        Some((&e.key, path))
    })
}
