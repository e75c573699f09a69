//! The lifecycle scripts of a software stack, in the order they run.
//!
//! The Kubernetes and Terraform backends both "lift and shift" a Compute node and the software
//! hosted on it into one unit (a container, a VM's cloud-init). [`crate::ir::Hosting::stack`]
//! orders the stack; [`lifecycle_steps`] gives the `create`, `configure` and `start` operations
//! of the Standard lifecycle interface of each node in that order, the way TOSCA's declarative
//! deployment workflow runs them.

use indexmap::IndexMap;

use crate::ir::{Implementation, NodeId, Topology, Value};

use super::ElementKind;
use super::engine::Ledger;
use super::ignores::Part;

/// One lifecycle operation to run: which node, which operation, its implementation and inputs.
#[derive(Debug, Clone, Copy)]
pub struct LifecycleStep<'a> {
    pub node: NodeId,
    /// `create`, `configure` or `start`.
    pub operation: &'static str,
    pub implementation: &'a Implementation,
    pub inputs: &'a IndexMap<String, Value>,
}

/// The operations of the Standard lifecycle that deploy a node, in the order they run.
pub const DEPLOY_OPERATIONS: [&str; 3] = ["create", "configure", "start"];

/// For each node of `order`, its Standard-interface `create`, `configure` and `start`
/// operations that have an implementation artifact, in that order. Each is recorded in `ledger`
/// as used, with the properties its inputs carry: a caller runs every step it is given.
pub fn lifecycle_steps<'a>(
    topology: &'a Topology,
    order: &[NodeId],
    ledger: &Ledger,
) -> Vec<LifecycleStep<'a>> {
    let mut steps = Vec::new();
    for &node in order {
        let Some((name, interface)) = topology.nodes[node.index()]
            .interfaces
            .iter()
            .find(|(name, i)| is_standard_lifecycle(name, &i.types))
        else {
            continue;
        };
        for operation in DEPLOY_OPERATIONS {
            if let Some(op) = interface.operations.get(operation)
                && let Some(implementation) = &op.implementation
                && implementation.primary.is_some()
            {
                ledger.used(
                    ElementKind::Node,
                    node.index(),
                    Part::Operation,
                    &format!("{name}.{operation}"),
                );
                ledger.values_used(
                    topology,
                    interface.inputs.values().chain(op.inputs.values()),
                );
                steps.push(LifecycleStep {
                    node,
                    operation,
                    implementation,
                    inputs: &op.inputs,
                });
            }
        }
    }
    steps
}

/// The Standard lifecycle interface: by type (`tosca.interfaces.node.lifecycle.Standard` under
/// any of its names, [`crate::ir::type_matches`]), or by its conventional name when the type is
/// unknown.
fn is_standard_lifecycle(name: &str, types: &[String]) -> bool {
    crate::ir::type_matches(types, "tosca.interfaces.node.lifecycle.Standard")
        || (types.is_empty() && name == "Standard")
}

#[cfg(test)]
#[path = "stack_tests.rs"]
mod tests;
