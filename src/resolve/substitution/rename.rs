//! Names and places in an expansion: inner names prefixed with the substituted node's name,
//! inner calls renamed to match, and locations pointed at the merged file list.

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::ir::{Location, Node, Relationship, Shared, Topology, Value};

/// What separates the substituted node's name from an inner name: `db.server`. It reads as
/// a path (`server` inside `db`), as `toscana ir --expand` names relationship representations
/// (`web[1].host[0]`), and the backends already turn node names into identifiers of their own
/// (`db-server` for Kubernetes, `db_server` for Terraform).
pub const SEPARATOR: &str = ".";

pub(super) fn prefixed(prefix: &str, name: &str) -> String {
    format!("{prefix}{SEPARATOR}{name}")
}

/// What an inner value names that changes in the expansion: inner node names (→ prefixed),
/// and the inner inputs, whose `get_input` becomes the value the input got (null if none),
/// since the inner template's inputs are not inputs of the whole topology.
pub(super) struct Renames {
    pub(super) nodes: HashMap<String, String>,
    pub(super) inputs: HashMap<String, Value>,
}

pub(super) fn renames(prefix: &str, inner: &Topology) -> Renames {
    Renames {
        nodes: inner
            .nodes
            .iter()
            .map(|n| (n.name.clone(), prefixed(prefix, &n.name)))
            .collect(),
        inputs: inner
            .inputs
            .iter()
            .map(|i| {
                let value = i.value.as_ref().or(i.default.as_ref());
                (i.name.clone(), value.cloned().unwrap_or(Value::Null))
            })
            .collect(),
    }
}

/// Function calls in `value` that start their path at an inner node, renamed.
pub(super) fn rename_value(value: &mut Value, renames: &Renames) {
    match value {
        Value::List(items) => items.iter_mut().for_each(|v| rename_value(v, renames)),
        Value::Map(map) => map.values_mut().for_each(|v| rename_value(v, renames)),
        Value::Call(call)
            if call.function == crate::ir::Function::GetInput
                && let Some(Value::String(name)) = call.args.first()
                && let Some(given) = renames.inputs.get(name.as_str()) =>
        {
            let mut given = given.clone();
            if let [_, path @ ..] = call.args.as_slice() {
                for step in path {
                    given = match (given, step) {
                        (Value::List(items), Value::Integer(i)) => usize::try_from(*i)
                            .ok()
                            .and_then(|i| items.into_iter().nth(i)),
                        (Value::Map(mut map), Value::String(k)) => map.swap_remove(k.as_str()),
                        _ => None,
                    }
                    .unwrap_or(Value::Null);
                }
            }
            *value = given;
        }
        Value::Call(call) => {
            if (call.function.is_query()
                || call.function == crate::ir::Function::GetOperationOutput)
                && let Some(Value::String(first)) = call.args.first_mut()
                && let Some(new) = renames.nodes.get(first.as_str())
            {
                *first = new.clone();
            }
            call.args.iter_mut().for_each(|v| rename_value(v, renames));
        }
        _ => {}
    }
}

pub(super) fn rename_map(map: &mut IndexMap<String, Value>, renames: &Renames) {
    map.values_mut().for_each(|v| rename_value(v, renames));
}

/// Every value of `node` renamed, and what names a node outside its values: the targets its
/// requirements name and the attribute paths its operation outputs map to.
pub(super) fn node_values(node: &mut Node, renames: &Renames) {
    for map in node.call_maps_mut() {
        rename_map(map, renames);
    }
    rename_operation_outputs(&mut node.interfaces, renames);
    for r in &mut node.requirements {
        if let Some(target) = r
            .node
            .as_mut()
            .and_then(|t| renames.nodes.get(t.as_str()).map(|n| (t, n)))
        {
            *target.0 = target.1.clone();
        }
    }
}

/// Every value of `rel` renamed, and its operation outputs as for a node ([`node_values`]).
pub(super) fn relationship_values(rel: &mut Relationship, renames: &Renames) {
    for map in rel.call_maps_mut() {
        rename_map(map, renames);
    }
    rename_operation_outputs(&mut rel.interfaces, renames);
}

/// The attribute paths operation outputs map to (`[ SELF, attribute ]` or a node's name) are
/// not among a node's values ([`Node::call_maps_mut`]) but name nodes all the same.
fn rename_operation_outputs(interfaces: &mut crate::ir::Interfaces, renames: &Renames) {
    for operation in operations_mut(interfaces) {
        rename_map(&mut operation.outputs, renames);
    }
}

/// Every operation and notification of `interfaces`, to write to. These are an inner template's
/// elements, rewritten as they are spliced in: each interface is unshared, there is no sharing
/// to keep.
fn operations_mut(
    interfaces: &mut crate::ir::Interfaces,
) -> impl Iterator<Item = &mut crate::ir::Operation> {
    interfaces.values_mut().map(Shared::make_mut).flat_map(|i| {
        i.operations
            .values_mut()
            .chain(i.notifications.values_mut())
    })
}

pub(super) fn relocate(location: Option<Location>, files: &[usize]) -> Option<Location> {
    location.map(|l| Location {
        file: files.get(l.file).copied().unwrap_or(l.file),
        ..l
    })
}

/// Every location in `node` pointed at the merged file list.
pub(super) fn relocate_node(node: &mut Node, files: &[usize]) {
    node.location = relocate(node.location, files);
    for c in node.capabilities.values_mut() {
        let relocated = relocate(c.location, files);
        if relocated != c.location {
            Shared::make_mut(c).location = relocated;
        }
    }
    for r in &mut node.requirements {
        r.location = relocate(r.location, files);
    }
    for a in node.artifacts.values_mut() {
        a.location = relocate(a.location, files);
    }
    relocate_interfaces(&mut node.interfaces, files);
}

pub(super) fn relocate_interfaces(interfaces: &mut crate::ir::Interfaces, files: &[usize]) {
    let artifacts = operations_mut(interfaces)
        .filter_map(|op| op.implementation.as_mut())
        .flat_map(|im| im.primary.iter_mut().chain(im.dependencies.iter_mut()));
    for a in artifacts {
        a.location = relocate(a.location, files);
    }
}
