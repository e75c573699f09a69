//! The ports a machine must open: the endpoints the template exposes on it (the security
//! groups of AWS and OpenStack). Every capability of type `tosca.capabilities.Endpoint` (or a type derived from it)
//! of the machine or of the software it hosts, at any depth, with a `port` known before
//! deployment, opens that port for its protocol: TCP, or UDP when the endpoint's `protocol` is
//! `udp` (TOSCA's `protocol` names the application protocol, `http`, `ssh`..., carried over
//! TCP). A public endpoint (`tosca.capabilities.Endpoint.Public`, or `network_name: PUBLIC`)
//! is open to everyone, any other one to the machine's own network. Which endpoints there are
//! is decided at translation (from an input's value); the port itself refers to the input.
//!
//! A port a load balancer routes to on the machine ([`super::routed`]) is opened too, marked
//! `balanced`, so that the load balancer reaches it even where no endpoint declares it (an
//! application without a `port`, routed to on the default one): the templates admit the load
//! balancer's addresses there, which on OpenStack are not members of the project's default
//! group. A public endpoint on that port admits them already.

use serde_json::{Value as Json, json};

use crate::ir::{NodeId, Value, type_matches};

use super::super::expr::known;
use super::{Builder, Provider};

impl Builder<'_, '_> {
    /// The endpoints of machine `compute`, one per port, protocol and reach, in template order.
    pub(super) fn endpoints_of(&self, compute: NodeId) -> Vec<Json> {
        let mut members = vec![compute];
        let mut i = 0;
        while i < members.len() {
            members.extend_from_slice(self.hosting.hosted(members[i]));
            i += 1;
        }
        let mut seen: Vec<(i64, &str, bool)> = Vec::new();
        let mut out = Vec::new();
        for member in members {
            let node = &self.topology.nodes[member.index()];
            for (capability_name, capability) in &node.capabilities {
                if !type_matches(&capability.types, "tosca.capabilities.Endpoint") {
                    continue;
                }
                let Some(read) = self.capability(member, capability_name) else {
                    continue;
                };
                let text = |key: &str| match read.get(key).map(|v| known(self.topology, v)) {
                    Some(Value::String(s)) => Some(s.to_lowercase()),
                    _ => None,
                };
                let Some(written) = read.get("port") else {
                    continue;
                };
                let Value::Integer(port) = known(self.topology, written) else {
                    continue;
                };
                if !(1..=65535).contains(port) {
                    continue;
                }
                let protocol = if text("protocol").as_deref() == Some("udp") {
                    "udp"
                } else {
                    "tcp"
                };
                let public = type_matches(&capability.types, "tosca.capabilities.Endpoint.Public")
                    || text("network_name").as_deref() == Some("public");
                if seen.contains(&(*port, protocol, public)) {
                    continue;
                }
                seen.push((*port, protocol, public));
                // What the rule is for, as the AWS console shows it beside the rule.
                let application = text("protocol").unwrap_or_else(|| protocol.to_string());
                out.push(json!({
                    // The templates say to whom it is open.
                    "what": format!("{} {capability_name} ({application})", node.name),
                    "name": format!("{}_{protocol}_{port}{}", self.names[compute.index()], if public { "" } else { "_private" }),
                    // `var.http_port` where the port is an input's, so the rule follows it.
                    "port": self.scope().expr(written, Some(member)).unwrap_or_else(|_| port.to_string()),
                    "protocol": protocol,
                    "public": public,
                    "balanced": false,
                }));
            }
        }
        self.balanced_into(compute, &mut out, &seen);
        out
    }

    /// Marks the private endpoint on each port a load balancer routes to on machine `compute`
    /// `balanced`, adding one where no endpoint declares the port (`seen`: the declared
    /// ones' port, protocol and publicity); load balancers route over TCP (HTTP).
    fn balanced_into(&self, compute: NodeId, out: &mut Vec<Json>, seen: &[(i64, &str, bool)]) {
        // On AWS, in a network of the template, the load balancers' subnets are in a range
        // added to the VPC beside the network's `cidr`, which the private rule admits: a
        // second rule admits that range, so the load balancers reach the machine without
        // the VPC's default group.
        let balancer_range = self
            .machine_network(compute)
            .filter(|_| self.provider == Provider::Aws)
            .and_then(|network| self.balanced_networks.get(&network))
            .and_then(|placed| placed["range"].as_str())
            .map(|range| format!("aws_vpc_ipv4_cidr_block_association.{range}.cidr_block"));
        for routed in &self.routed_ports[compute.index()] {
            if !(1..=65535).contains(&routed.number) || seen.contains(&(routed.number, "tcp", true))
            {
                continue;
            }
            let name = format!(
                "{}_tcp_{}_private",
                self.names[compute.index()],
                routed.number
            );
            if let Some(declared) = out.iter_mut().find(|e| e["name"] == name.as_str()) {
                declared["balanced"] = json!(true);
                declared["balancer_range"] = json!(balancer_range);
                continue;
            }
            let nodes = &self.topology.nodes;
            out.push(json!({
                "what": format!("{} for load balancer {} (http)", nodes[routed.application.index()].name, nodes[routed.balancer.index()].name),
                "name": name,
                "port": routed.text,
                "protocol": "tcp",
                "public": false,
                "balanced": true,
                "balancer_range": balancer_range,
            }));
        }
    }

    /// What a machine's security rules need declared once for the whole configuration. On
    /// OpenStack: the project's default group (the machine stays in it beside its own, and
    /// private endpoints of a machine in no network of the template open to its members), and
    /// for a balanced endpoint of such a machine the project network's subnet, whose range its
    /// rule admits. On AWS, for a machine in no network of the template: the default VPC and its
    /// default group.
    pub(super) fn endpoint_needs(&mut self, endpoints: &[Json], ports: &Json) {
        if endpoints.is_empty() {
            return;
        }
        let in_template_network = ports
            .as_array()
            .and_then(|p| p.first())
            .is_some_and(|first| first["network"].is_string());
        let mut needs = Vec::new();
        match self.provider {
            Provider::Openstack => {
                needs.push("default_security_group");
                if !in_template_network && endpoints.iter().any(|e| e["balanced"] == true) {
                    needs.extend(["default_network", "default_subnet"]);
                }
            }
            Provider::Aws if ports.as_array().is_none_or(Vec::is_empty) => {
                needs.extend(["default_network", "default_security_group"]);
            }
            _ => {}
        }
        for need in needs {
            self.needs.insert(need.to_string(), json!(true));
        }
    }
}
