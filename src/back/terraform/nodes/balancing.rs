//! Where an AWS load balancer is: in the VPC of the machines it routes to.
//!
//! A target group takes instances of its own VPC only, so a load balancer, its target group
//! and its security group are in the VPC of its first target's machine: the VPC of the network
//! its first port links to, or the default VPC for a machine in no network of the template. A
//! target in another VPC could never register: it is left out with a warning that says so (a
//! scaled machine's group there does not name the target group), and the load balancer is
//! never split over two VPCs.
//!
//! An application load balancer is internet-facing and needs subnets in two availability
//! zones with a route to an internet gateway. A network of the template is one subnet that
//! spans its VPC's whole range (`templates/terraform/aws/network.tera`), so a network a load
//! balancer is in gets, once for all its load balancers, a /24 added to its VPC
//! (`aws_vpc_ipv4_cidr_block_association`) split into two public subnets in the region's first
//! two zones, and an internet gateway with a route table. The /24 is taken from
//! 100.64.0.0/10, the shared range AWS accepts beside any primary range, away from the
//! network's own `cidr`; the machines' subnet stays private unless a machine in it is public.

use std::net::Ipv4Addr;

use serde_json::{Value as Json, json};

use crate::back::meanings::Meaning;
use crate::ir::{NodeId, Value};

use super::super::expr::known;
use super::{Builder, Provider};

/// The ranges a load-balanced network's subnets may take, in order: two /24s of 100.64.0.0/10
/// far enough apart that no VPC range (at most a /16) overlaps both.
const RANGES: [&str; 2] = ["100.64.0.0/24", "100.127.255.0/24"];

impl Builder<'_, '_> {
    /// The machines load balancer `lb` routes to (the hosting roots of its applications that
    /// are machines), each once, in relationship order.
    pub(super) fn routed_machines(&self, lb: NodeId) -> Vec<NodeId> {
        let mut machines = Vec::new();
        for &ri in &self.outgoing[lb.index()] {
            if !self.meanings.means_at(ri, Meaning::Routing) {
                continue;
            }
            let root = self.hosting.root(self.topology.relationships[ri].target);
            if self.role_of(root) == "compute" && !machines.contains(&root) {
                machines.push(root);
            }
        }
        machines
    }

    /// The network whose VPC machine `machine` is in (its first port's), `None` for the
    /// default VPC.
    pub(super) fn machine_network(&self, machine: NodeId) -> Option<NodeId> {
        self.port_ids(machine)
            .first()
            .and_then(|&port| self.network_of(port))
    }

    /// On AWS, places each load balancer in the VPC of its first machine
    /// (`balancer_networks`) and names, once per network, the subnets its load balancers share
    /// there (`balanced_networks`). Runs before any node's context is built, so that both the
    /// network's and the load balancers' templates see them.
    pub(super) fn place_balancers(&mut self) {
        if self.provider != Provider::Aws {
            return;
        }
        for lb in self.topology.node_ids() {
            if self.role_of(lb) != "load_balancer" {
                continue;
            }
            let network = self
                .routed_machines(lb)
                .first()
                .and_then(|&m| self.machine_network(m));
            self.balancer_networks[lb.index()] = network;
            let Some(network) = network else {
                continue;
            };
            if self.balanced_networks.contains_key(&network) {
                continue;
            }
            let name = self.names[network.index()].clone();
            let range = self.derived_name(format!("{name}_lb"));
            let subnets = [
                self.derived_name(format!("{name}_lb_1")),
                self.derived_name(format!("{name}_lb_2")),
            ];
            let cidr = self.range_beside_network(network);
            self.balanced_networks.insert(
                network,
                json!({ "range": range, "cidr": cidr, "subnets": subnets }),
            );
        }
    }

    /// A range to add to network `network`'s VPC for public subnets of its own: one of
    /// [`RANGES`] away from the network's `cidr`.
    pub(super) fn range_beside_network(&self, network: NodeId) -> &'static str {
        match self
            .ledger
            .property(self.topology, network.index(), "cidr")
            .map(|v| known(self.topology, v))
        {
            Some(Value::String(c)) => range_beside(Some(c)),
            _ => range_beside(None),
        }
    }

    /// What load balancer `lb`'s template writes for where it is: its VPC, subnets, the VPC's
    /// default group and, in a network of the template, the internet gateway it waits for.
    pub(super) fn balancer_place(&mut self, lb: NodeId) -> Json {
        match self.balancer_networks[lb.index()] {
            Some(network) => {
                let net = &self.names[network.index()];
                let subnets = &self.balanced_networks[&network]["subnets"];
                json!({
                    "vpc": format!("aws_vpc.{net}"),
                    "subnets": format!("[aws_subnet.{}.id, aws_subnet.{}.id]", subnets[0].as_str().unwrap_or(""), subnets[1].as_str().unwrap_or("")),
                    "default_group": format!("aws_vpc.{net}.default_security_group_id"),
                    "gateway": format!("aws_internet_gateway.{net}"),
                })
            }
            None => {
                // The load balancer's own group opens its listener; it stays in the VPC's
                // default group too, which its targets admit and which lets it reach them.
                for need in ["default_network", "default_security_group"] {
                    self.needs.insert(need.to_string(), json!(true));
                }
                json!({
                    "vpc": "data.aws_vpc.default",
                    "subnets": "data.aws_subnets.default.ids",
                    "default_group": "data.aws_security_group.default.id",
                    "gateway": null,
                })
            }
        }
    }

    /// Whether load balancer `lb` can route to machine `machine`: on AWS, only to one in its
    /// own VPC. A warning says why when it cannot.
    pub(super) fn reaches(&mut self, lb: NodeId, machine: NodeId) -> bool {
        if self.provider != Provider::Aws {
            return true;
        }
        let here = self.balancer_networks[lb.index()];
        let there = self.machine_network(machine);
        if here == there {
            return true;
        }
        let vpc = |b: &Self, n: Option<NodeId>| match n {
            Some(n) => format!("the VPC of network `{}`", b.topology.nodes[n.index()].name),
            None => "the default VPC".to_string(),
        };
        let first = self
            .routed_machines(lb)
            .first()
            .map(|&m| self.topology.nodes[m.index()].name.clone())
            .unwrap_or_default();
        let message = format!(
            "load balancer `{}` does not route to machine `{}`: the machine is in {}, the load balancer in {}, where its first machine `{first}` is, and a target group takes instances of its own VPC only",
            self.topology.nodes[lb.index()].name,
            self.topology.nodes[machine.index()].name,
            vpc(self, there),
            vpc(self, here),
        );
        self.warn(
            lb,
            message,
            "put the machines a load balancer routes to in one network (or all in none), so that the load balancer is in their VPC",
        );
        false
    }

    /// Whether scaled machine `machine`'s group registers in load balancer `lb`'s target
    /// group: on AWS, when both are in one VPC (else [`Self::reaches`] warned at `lb`).
    pub(super) fn registers_in(&self, machine: NodeId, lb: NodeId) -> bool {
        self.provider != Provider::Aws
            || self.balancer_networks[lb.index()] == self.machine_network(machine)
    }
}

/// A range of [`RANGES`] that does not overlap `primary`, the network's own range; the first
/// when that range is not known or not IPv4.
fn range_beside(primary: Option<&str>) -> &'static str {
    let taken = primary.and_then(v4_range);
    RANGES
        .into_iter()
        .find(|r| match (taken, v4_range(r)) {
            (Some((first, last)), Some((start, end))) => last < start || end < first,
            _ => true,
        })
        .unwrap_or(RANGES[0])
}

/// The first and last IPv4 address of `cidr` (`a.b.c.d/n`); `None` when it is no such range.
fn v4_range(cidr: &str) -> Option<(u32, u32)> {
    let (address, bits) = cidr.split_once('/')?;
    let address = u32::from(address.trim().parse::<Ipv4Addr>().ok()?);
    let bits: u32 = bits.trim().parse().ok().filter(|b| *b <= 32)?;
    let mask = u32::MAX.checked_shl(32 - bits).unwrap_or(0);
    Some((address & mask, (address & mask) | !mask))
}

#[cfg(test)]
mod tests {
    use super::{range_beside, v4_range};

    #[test]
    fn ranges_are_read_from_cidr_notation() {
        assert_eq!(v4_range("10.0.0.0/16"), Some((0x0a00_0000, 0x0a00_ffff)));
        assert_eq!(v4_range("0.0.0.0/0"), Some((0, u32::MAX)));
        assert_eq!(v4_range("10.0.0.1/32"), Some((0x0a00_0001, 0x0a00_0001)));
        assert_eq!(v4_range("10.0.0.0/33"), None);
        assert_eq!(v4_range("fd00::/8"), None);
    }

    /// The load balancers' subnets never overlap the network's own range.
    #[test]
    fn the_added_range_is_away_from_the_network_s_range() {
        assert_eq!(range_beside(Some("10.0.0.0/16")), "100.64.0.0/24");
        assert_eq!(range_beside(None), "100.64.0.0/24");
        assert_eq!(range_beside(Some("100.64.0.0/16")), "100.127.255.0/24");
        assert_eq!(range_beside(Some("100.127.0.0/16")), "100.64.0.0/24");
    }
}
