//! Availability zones a placement policy names for a machine ([`super::super::policies::Zones`]),
//! where each provider takes them:
//!
//! - OpenStack: the server's `availability_zone` (a Nova zone; networks span zones).
//! - AWS, a machine in no network of the template: the instance's `availability_zone` (the
//!   default VPC has a default subnet in every zone); a scaled machine's group launches in the
//!   default VPC's subnets of the policy's zones (an `aws_subnets` data source filtered by
//!   zone).
//! - AWS, a machine whose first port is in a network of the template: an instance is in its
//!   interface's subnet's zone, so the zone is the subnet's `availability_zone`. A subnet is in
//!   one zone: a scaled machine's group there takes the policy's first zone, and machines of one
//!   network that ask for different zones get the first one asked, each with a warning.
//! - Kubernetes: `toscana k8s` reads the zones (node affinity), not this module.

use serde_json::{Value as Json, json};

use super::super::unexpressed;
use super::{Builder, Provider};
use crate::back::ElementKind;
use crate::ir::NodeId;

impl Builder<'_, '_> {
    /// Adds the zone of machine `id` to its context `machine` (see the module's docs).
    pub(super) fn place_in_zone(&mut self, id: NodeId, machine: &mut Json) {
        if self.provider == Provider::Kubernetes {
            return;
        }
        let Some(placed) = &self.policies.zones[id.index()] else {
            return;
        };
        let policy = placed.policy.name.clone();
        let node = self.topology.nodes[id.index()].name.clone();
        let what = format!("a zone of placement policy `{policy}` for machine `{node}`");
        let zones: Vec<String> = placed
            .zones
            .iter()
            .filter_map(|&z| self.value(id, z, &what))
            .collect();
        if zones.is_empty() {
            return;
        }
        let mine = zones[placed.nth % zones.len()].clone();
        machine["zone_policy"] = json!(policy);
        let scaled = !machine["scaling"].is_null();
        let network = self
            .port_ids(id)
            .first()
            .and_then(|&port| self.network_of(port));
        match (self.provider, network) {
            (Provider::Aws, Some(network)) => {
                if scaled && zones.len() > 1 {
                    self.warn(
                        id,
                        format!(
                            "scaled machine `{node}` launches in the subnet of network `{}`, which is in one zone: the first of policy `{policy}`'s zones, not all of them",
                            self.topology.nodes[network.index()].name
                        ),
                        "name one zone, or leave the machine out of the template's networks so its group spans the default VPC's subnets of every zone",
                    );
                }
                let zone = if scaled { zones[0].clone() } else { mine };
                machine["subnet_zone"] = json!({ "network": network.index(), "zone": zone });
            }
            (Provider::Aws, None) if scaled => {
                machine["scaling"]["zones"] = json!(zones);
                machine["scaling"]["subnets"] = json!(format!(
                    "data.aws_subnets.{}_zones.ids",
                    self.names[id.index()]
                ));
            }
            _ => machine["availability_zone"] = json!(mine),
        }
    }

    /// Sets each subnet's zone from the machines in it ([`Self::place_in_zone`]'s
    /// `subnet_zone`): the first machine's, with a warning for each machine that asked for
    /// another.
    pub(super) fn zones_into_subnets(&mut self, nodes: &mut [Json]) {
        for m in 0..nodes.len() {
            let Some(asked) = nodes[m].get("subnet_zone").cloned() else {
                continue;
            };
            let (Some(network), Some(zone)) = (asked["network"].as_u64(), asked["zone"].as_str())
            else {
                continue;
            };
            let subnet = &mut nodes[network as usize];
            match subnet["availability_zone"].as_str() {
                None => subnet["availability_zone"] = json!(zone),
                Some(taken) if taken == zone => {}
                Some(taken) => {
                    let message = format!(
                        "machine `{}` is placed in zone {zone}, but its interface is in the subnet of network `{}`, which another machine's placement put in zone {taken}: it runs there",
                        self.topology.nodes[m].name, self.topology.nodes[network as usize].name
                    );
                    if self.reporting() {
                        let span = self.spans.of(ElementKind::Node, m);
                        self.push(unexpressed(
                            span,
                            message,
                            "put machines placed in different zones in different networks",
                        ));
                    }
                }
            }
        }
    }
}
