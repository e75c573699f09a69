//! A TOSCA 2.0 `node_filter` is one condition clause: "node_filter: <condition_clause>" (§8.6
//! Node Filter Definition), a boolean expression built from functions. The Simple Profile's
//! lists of property and capability constraints (`properties:` / `capabilities:`) are gone, so
//! such a filter under `tosca_2_0` is an error rather than a map read as a value
//! (T2-NFILTER-01, decided there). Any other literal that is not a boolean is no condition
//! either.
//!
//! Judged where a requirement writes a node filter: a requirement definition of a node type,
//! and a requirement assignment of a node template. A `select` node template's own filter is
//! judged where it is evaluated ([`super::select_filter`]), which says the same.

use super::calls::syntax;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};
use crate::yaml::{Core, Node};

/// Checks every node filter of a TOSCA 2.0 model.
pub fn check(model: &Model, diags: &mut Diagnostics) {
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    let node_types = model
        .types
        .iter()
        .filter(|((kind, _), _)| *kind == TypeKind::Node)
        .map(|(_, def)| &def.def);
    for def in node_types {
        requirements(def, diags);
    }
    for template in model.topology.iter().flat_map(|t| &t.node_templates) {
        requirements(&template.def, diags);
    }
}

/// The filters of the requirements (a list of one-entry maps) a type or template writes.
fn requirements(def: &Node, diags: &mut Diagnostics) {
    let items = def
        .as_map()
        .and_then(|m| m.get("requirements"))
        .and_then(Node::as_seq);
    for item in items.unwrap_or_default() {
        for entry in item.as_map().map_or(&[][..], |m| m.entries()) {
            if let Some(filter) = entry.value.as_map().and_then(|m| m.get("node_filter")) {
                judge(filter, diags);
            }
        }
    }
}

fn judge(filter: &Node, diags: &mut Diagnostics) {
    if syntax::call(filter).is_some()
        || filter.is_null()
        || matches!(filter.as_scalar().map(|s| &s.core), Some(Core::Bool(_)))
    {
        return;
    }
    let simple_profile = filter
        .as_map()
        .is_some_and(|m| m.get("properties").is_some() || m.get("capabilities").is_some());
    let what = if simple_profile {
        "lists `properties` or `capabilities` as a TOSCA 1.3 node filter does"
    } else {
        "is not a condition"
    };
    diags.push(
        Diagnostic::error(
            codes::TOSCA_SHAPE,
            format!("a TOSCA 2.0 `node_filter` is one condition clause; this one {what}"),
        )
        .at_with(filter.span, "not a boolean expression")
        .hint("write the filter as one boolean expression, e.g. `{ $and: [ { $equal: [ { $get_property: [ SELF, CAPABILITY, port ] }, 80 ] } ] }` (§8.6 Node Filter Definition)"),
    );
}
