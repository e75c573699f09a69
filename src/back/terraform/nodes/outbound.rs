//! A route out of a private network of the template for the machines whose scripts need one.
//!
//! A network of the template in which no machine exposes a public endpoint has no route to the
//! internet, yet the lifecycle scripts of the software on its machines install packages and
//! download what they deploy (issue 27, "Infrastructure that works"). Whether a script
//! downloads cannot be read from it with certainty, so every machine with a lifecycle script
//! counts: its network gets a way out that lets nothing in.
//!
//! - AWS: a NAT gateway (`aws_nat_gateway`, with an `aws_eip`) in a public subnet (the
//!   network's load-balancer subnet where it has one, else a subnet of its own from a range
//!   added to the VPC beside the network's range, routed to the network's internet gateway),
//!   and a route table for the machines' subnet whose default route is the NAT gateway.
//! - OpenStack: a router whose gateway is the external network, on the network's subnet
//!   (SNAT), the one a public network gets too.
//!
//! Each such machine waits for that route (`depends_on`), so that its scripts do not run
//! before the way out exists. A network whose machines run no script stays as it is.

use serde_json::{Value as Json, json};

use crate::back::meanings::Meaning;
use crate::back::stack;
use crate::ir::NodeId;

use super::{Builder, Provider};

impl Builder<'_, '_> {
    /// What network `id`'s template writes for its route out (see the module's docs), or
    /// null when it needs none: it is public already (`public`), or none of its machines runs
    /// a script.
    pub(super) fn outbound(&mut self, id: NodeId, public: bool) -> Json {
        if public || !matches!(self.provider, Provider::Aws | Provider::Openstack) {
            return Json::Null;
        }
        let machines = self.scripted_machines_in(id);
        if machines.is_empty() {
            return Json::Null;
        }
        let name = self.names[id.index()].clone();
        let route = match self.provider {
            Provider::Aws => format!("aws_route.{name}_out"),
            _ => format!("openstack_networking_router_interface_v2.{name}"),
        };
        for machine in machines {
            self.depends[machine.index()].push(route.clone());
        }
        if self.provider == Provider::Openstack {
            self.needs
                .insert("external_network".to_string(), json!(true));
            return json!({ "router": true });
        }
        let balancer_subnet = self
            .balanced_networks
            .get(&id)
            .and_then(|l| l["subnets"][0].as_str())
            .map(str::to_string);
        let (subnet, range) = match balancer_subnet {
            Some(subnet) => (subnet, Json::Null),
            None => {
                let cidr = self.range_beside_network(id);
                let range = self.derived_name(format!("{name}_nat"));
                (range.clone(), json!({ "name": range, "cidr": cidr }))
            }
        };
        json!({
            "nat": self.derived_name(format!("{name}_nat_gateway")),
            "subnet": subnet,
            "range": range,
            "routes": self.derived_name(format!("{name}_private")),
        })
    }

    /// The machines whose first port is in network `id` and that run a lifecycle script
    /// (theirs or their software's), each once, in relationship order.
    fn scripted_machines_in(&self, id: NodeId) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::new();
        for (_, machine) in self.primary_ports_in(id) {
            if !out.contains(&machine) && self.runs_scripts(machine) {
                out.push(machine);
            }
        }
        out
    }

    /// The (port, machine) pairs of network `id` whose port is its machine's first (primary)
    /// one, in relationship order.
    pub(super) fn primary_ports_in(&self, id: NodeId) -> Vec<(NodeId, NodeId)> {
        let mut out = Vec::new();
        for &ri in &self.incoming[id.index()] {
            let port = self.topology.relationships[ri].source;
            if !self.meanings.means_at(ri, Meaning::Link) || self.role_of(port) != "port" {
                continue;
            }
            for &bi in &self.outgoing[port.index()] {
                let machine = self.topology.relationships[bi].target;
                if self.meanings.means_at(bi, Meaning::Binding)
                    && self.role_of(machine) == "compute"
                    && self.port_ids(machine).first() == Some(&port)
                {
                    out.push((port, machine));
                }
            }
        }
        out
    }

    fn runs_scripts(&self, machine: NodeId) -> bool {
        let order = self.hosting.stack(self.topology, machine);
        stack::lifecycle_steps(self.topology, &order, self.ledger)
            .iter()
            .any(|s| s.implementation.primary.is_some())
    }
}
