//! The ports load balancers route to, by machine: what each load balancer's members are
//! (`templates/terraform/*/load_balancer.tera`) and what each machine's security group must
//! admit for them (see [`super::endpoints`]), from one reading so that both agree.
//!
//! A load balancer routes to the first application of each machine it targets, on the port of
//! the capability the relationship targets, else the application's `port` property, else the
//! rule's `bind.default_port` (80). On AWS a machine outside the load balancer's VPC is not
//! routed to ([`Builder::registers_in`]); containers are the container backend's.

use std::collections::HashSet;

use crate::back::meanings::Meaning;
use crate::ir::{NodeId, Value};

use super::super::expr::known;
use super::Builder;

/// A port load balancer `balancer` routes to on a machine.
#[derive(Clone, Debug)]
pub(super) struct RoutedPort {
    /// The port's number, known before deployment.
    pub number: i64,
    /// The port as HCL: the input's variable where it comes from one.
    pub text: String,
    pub balancer: NodeId,
    /// The application the load balancer routes to on the machine.
    pub application: NodeId,
}

impl Builder<'_, '_> {
    /// The port load balancer `lb` routes to through routing relationship `ri`.
    pub(super) fn routed_port(&self, lb: NodeId, ri: usize) -> RoutedPort {
        let r = &self.topology.relationships[ri];
        let app = r.target;
        let integer = |v: &&Value| matches!(known(self.topology, v), Value::Integer(_));
        let written = r
            .capability
            .as_deref()
            .and_then(|c| self.capability_property(app, c, "port"))
            .filter(integer)
            .or_else(|| {
                self.ledger
                    .property(self.topology, app.index(), "port")
                    .filter(integer)
            });
        let found = written.and_then(|w| match known(self.topology, w) {
            Value::Integer(n) => Some((*n, self.port_text(app, w)?)),
            _ => None,
        });
        let (number, text) = match found {
            Some(found) => found,
            None => {
                let default = self
                    .bind(lb)
                    .get("default_port")
                    .and_then(serde_json::Value::as_i64)
                    .unwrap_or(80);
                (default, default.to_string())
            }
        };
        RoutedPort {
            number,
            text,
            balancer: lb,
            application: app,
        }
    }

    /// By machine, the ports load balancers route to on it, in node then relationship order:
    /// each load balancer's first route to each machine it reaches. Read once, before any
    /// node's context is built.
    pub(super) fn route_ports(&mut self) {
        let mut routed: Vec<Vec<RoutedPort>> = vec![Vec::new(); self.topology.nodes.len()];
        for lb in self.topology.node_ids() {
            if self.role_of(lb) != "load_balancer" {
                continue;
            }
            let mut machines: HashSet<NodeId> = HashSet::new();
            for &ri in &self.outgoing[lb.index()] {
                if !self.meanings.means_at(ri, Meaning::Routing) {
                    continue;
                }
                let root = self.hosting.root(self.topology.relationships[ri].target);
                if self.role_of(root) != "compute"
                    || !self.registers_in(root, lb)
                    || !machines.insert(root)
                {
                    continue;
                }
                routed[root.index()].push(self.routed_port(lb, ri));
            }
        }
        self.routed_ports = routed;
    }
}
