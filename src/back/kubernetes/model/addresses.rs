//! Addresses: which nodes others reach by address, and how a node's own address is written.
//!
//! A node reached by a connection, or whose address a function of another stack asks for,
//! gets a Service even when it declares no port (a headless one, whose DNS name resolves to
//! its pods on every port), so the address its clients need is never dropped. A node's own
//! address, and that of a neighbour in the same lifted stack, is the pod IP, from the downward
//! API: a server that binds to it is reachable, unlike one bound to `localhost`.

use crate::ir::{Function, Value};

use super::super::values::literal_text;
use super::*;
use crate::back::meanings::Meaning;

/// The attributes that name a node's network address.
pub(super) const ADDRESS_ATTRIBUTES: &[&str] = &[
    "ip_address",
    "private_address",
    "public_address",
    "address",
    "hostname",
    "host",
    "private_ip",
    "public_ip",
];

/// The environment variable the downward API fills with the pod's IP, for a node's own address.
pub(super) const POD_IP_ENV: &str = "TOSCANA_POD_IP";

/// What [`Ctx::resolve`] returns for a node's own address, replaced by `$(TOSCANA_POD_IP)` when
/// the value becomes an environment variable (a NUL never occurs in a template's text).
pub(super) const POD_IP_MARK: &str = "\u{0}pod-ip\u{0}";

/// Every node template name that `value` asks the address of (`get_attribute: [name,
/// private_address]`), `SELF` and `HOST` included as written.
fn address_subjects(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Call(call) => {
            let args: Vec<String> = call.args.iter().filter_map(literal_text).collect();
            if matches!(
                call.function,
                Function::GetAttribute | Function::GetProperty
            ) && args.len() >= 2
                && args
                    .last()
                    .is_some_and(|a| ADDRESS_ATTRIBUTES.contains(&a.as_str()))
            {
                out.push(args[0].clone());
            }
            for a in &call.args {
                address_subjects(a, out);
            }
        }
        Value::List(items) => items.iter().for_each(|v| address_subjects(v, out)),
        Value::Map(map) => map.values().for_each(|v| address_subjects(v, out)),
        _ => {}
    }
}

impl Ctx<'_> {
    /// Per node: whether another node reaches it by address, so that its workload needs a
    /// Service (see [`Ctx::addressed`]). A connection (a relationship that means `connection`,
    /// or one to an endpoint capability) reaches its target; a function asking for a node's
    /// address reaches that node, unless the node asking sits in the same hosting chain.
    pub(super) fn addressed_nodes(&self) -> Vec<bool> {
        let mut addressed = vec![false; self.topology.nodes.len()];
        for id in self.topology.relationship_ids() {
            let r = &self.topology[id];
            let to_endpoint = r
                .capability
                .as_deref()
                .and_then(|c| self.node(r.target.index()).capabilities.get(c))
                .is_some_and(|c| is_endpoint(c));
            if self.meanings.means(id, Meaning::Connection) || to_endpoint {
                addressed[r.target.index()] = true;
            }
        }
        // Per node index: the bottom of its hosting chain.
        let roots: Vec<_> = self
            .topology
            .node_ids()
            .map(|id| self.hosting.root(id))
            .collect();
        for id in self.topology.node_ids() {
            let node = &self.topology[id];
            let mut subjects = Vec::new();
            for interface in node.interfaces.values() {
                for op in interface.operations.values() {
                    op.inputs
                        .values()
                        .for_each(|v| address_subjects(v, &mut subjects));
                }
            }
            node.properties
                .values()
                .for_each(|v| address_subjects(v, &mut subjects));
            let root = roots[id.index()];
            for subject in subjects {
                let Some(&t) = self.node_index.get(subject.as_str()) else {
                    continue;
                };
                if roots[t] != root {
                    addressed[t] = true;
                }
            }
        }
        addressed
    }
}
