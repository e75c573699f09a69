//! Software stacks: what is hosted on what, and in which order a stack's lifecycle scripts run.
//!
//! The Kubernetes and Terraform backends both "lift and shift" a Compute node and the software
//! hosted on it into one unit (a container, a VM's cloud-init), and the Graphviz backend draws
//! the same hosting tree as nested clusters. This module answers the two questions they share:
//!
//! - [`Hosting`]: each node's host, the bottom of its hosting chain, and the whole stack on a
//!   host in deployment order. It lives in [`crate::ir::hosting`], because the resolver asks
//!   it too (`HOST` in `get_property`), and is re-exported here for the backends.
//! - [`lifecycle_steps`]: the `create`, `configure` and `start` operations of the Standard
//!   lifecycle interface of each node in that order, the way TOSCA's declarative deployment
//!   workflow runs them.

use indexmap::IndexMap;

pub use crate::ir::hosting::{Hosting, is_hosting};
use crate::ir::{Implementation, NodeId, Topology, Value};

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
/// operations that have an implementation artifact, in that order.
pub fn lifecycle_steps<'a>(topology: &'a Topology, order: &[NodeId]) -> Vec<LifecycleStep<'a>> {
    let mut steps = Vec::new();
    for &node in order {
        let Some(interface) = topology.nodes[node.0]
            .interfaces
            .iter()
            .find(|(name, i)| is_standard_lifecycle(name, &i.types))
            .map(|(_, i)| i)
        else {
            continue;
        };
        for operation in DEPLOY_OPERATIONS {
            if let Some(op) = interface.operations.get(operation)
                && let Some(implementation) = &op.implementation
                && implementation.primary.is_some()
            {
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

/// The Standard lifecycle interface: by type (`tosca.interfaces.node.lifecycle.Standard`, or the
/// TOSCA 2.0 profile's `Standard`), or by its conventional name when the type is unknown.
fn is_standard_lifecycle(name: &str, types: &[String]) -> bool {
    types.iter().any(|t| {
        t == "tosca.interfaces.node.lifecycle.Standard"
            || t == "Standard"
            // TOSCA 2.0's simple profile names it `Lifecycle.Standard`.
            || t == "Lifecycle.Standard"
            || t.ends_with(":Lifecycle.Standard")
            || t.rsplit_once(':')
                .is_some_and(|(_, short)| short == "Standard")
    }) || (types.is_empty() && name == "Standard")
}

#[cfg(test)]
#[path = "stack_tests.rs"]
mod tests;
