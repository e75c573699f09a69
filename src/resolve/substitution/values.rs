//! Values across the boundary: the substituted node's properties as the substituting
//! template's inputs (property mappings, and by name in Simple Profile), and the template's
//! outputs as the node's attributes (attribute mappings), which `get_attribute` of the
//! substituted node elsewhere then reads.

use std::collections::HashMap;

use indexmap::IndexMap;

use super::fit::Boundary;
use crate::ir::{Dialect, Node, Topology, Value};
use crate::model::Value as Written;
use crate::source::Span;

/// The inner inputs the node's properties give values to, and the mappings that name an input
/// the template does not declare (name, where).
pub(super) fn input_values(
    dialect: Dialect,
    node: &Node,
    b: &Boundary,
    template: &crate::model::TopologyTemplate,
    missing: &mut Vec<(String, Span)>,
) -> Vec<(String, Value)> {
    let declared = |name: &str| template.inputs.iter().any(|i| i.name == name);
    let mut out = Vec::new();
    let mappings = b.mappings.properties.as_ref().and_then(Written::as_map);
    if dialect != Dialect::Tosca2 {
        // Simple Profile (§12 Using node template substitution for model composition): properties
        // are inputs by name; `properties` mappings (1.2) map others, and win (they are bound
        // later).
        for (name, value) in &node.properties {
            if declared(name) && !matches!(value, Value::Null) {
                out.push((name.clone(), value.clone()));
            }
        }
    }
    let Some(mappings) = mappings else {
        return out;
    };
    for entry in mappings.entries() {
        let target = entry
            .value
            .as_map()
            .and_then(|m| m.get("mapping"))
            .unwrap_or(&entry.value);
        let input = match (target.scalar_text(), target.as_list()) {
            (Some(name), _) => Some(name),
            (None, Some([one])) => one.scalar_text(),
            _ => None,
        };
        let Some(input) = input else { continue };
        if !declared(input) {
            // In Simple Profile a scalar is a value the node must have (see `fits`).
            if dialect == Dialect::Tosca2 || target.scalar_text().is_none() {
                missing.push((input.to_string(), target.span));
            }
            continue;
        }
        let value = match (entry.key.scalar_text(), entry.key.as_list()) {
            (Some(property), _) => node.properties.get(property),
            (None, Some([kind, cap, property])) if kind.scalar_text() == Some("CAPABILITY") => node
                .capabilities
                .get(cap.scalar_text().unwrap_or_default())
                .and_then(|c| c.properties.get(property.scalar_text().unwrap_or_default())),
            // `[RELATIONSHIP, ...]` is known only once the relationships exist.
            _ => None,
        };
        if let Some(value) = value.filter(|v| !matches!(v, Value::Null)) {
            out.push((input.to_string(), value.clone()));
        }
    }
    out
}

/// The substituted node's attributes as the substituting template maps them: its `attributes`
/// mappings (`attr: output`, 1.2's `attr: [ output ]`) with each output's value, else every
/// output by name (Simple Profile §12 Using node template substitution for model composition). A
/// mapping that names no output is kept as written.
pub(super) fn attribute_values(inner: &Topology) -> IndexMap<String, Value> {
    let output = |name: &str| {
        inner
            .outputs
            .iter()
            .find(|o| o.name == name)
            .map(|o| o.value.clone())
    };
    match inner
        .substitution
        .as_ref()
        .map(|s| &s.attributes)
        .filter(|a| !a.is_empty())
    {
        Some(mappings) => mappings
            .iter()
            .map(|(attribute, written)| {
                let named = match written {
                    Value::String(o) => Some(o.as_str()),
                    Value::List(items) => match items.as_slice() {
                        [Value::String(o)] => Some(o.as_str()),
                        _ => None,
                    },
                    _ => None,
                };
                let value = named.and_then(output).unwrap_or_else(|| written.clone());
                (attribute.clone(), value)
            })
            .collect(),
        None => inner
            .outputs
            .iter()
            .map(|o| (o.name.clone(), o.value.clone()))
            .collect(),
    }
}

/// `get_attribute: [ S, attr ]` of a substituted node `S` replaced by the value its attribute
/// mapping gives.
pub(super) fn read_attributes(
    value: &mut Value,
    mapped: &HashMap<String, IndexMap<String, Value>>,
) {
    match value {
        Value::List(items) => items.iter_mut().for_each(|v| read_attributes(v, mapped)),
        Value::Map(map) => map.values_mut().for_each(|v| read_attributes(v, mapped)),
        Value::Call(call) => {
            let found = match (&call.function, call.args.as_slice()) {
                (
                    crate::ir::Function::GetAttribute,
                    [Value::String(node), Value::String(attribute)],
                ) => mapped
                    .get(node.as_str())
                    .and_then(|a| a.get(attribute.as_str()))
                    .cloned(),
                _ => None,
            };
            match found {
                Some(v) => *value = v,
                None => call
                    .args
                    .iter_mut()
                    .for_each(|v| read_attributes(v, mapped)),
            }
        }
        _ => {}
    }
}
