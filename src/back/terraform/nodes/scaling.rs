//! A scaled machine (a scaling policy targets it or its software, see
//! [`super::super::policies`]): on AWS a launch template, an autoscaling group and a target
//! tracking policy instead of an `aws_instance`.
//!
//! Its instances have no one address, so a `get_attribute` of the machine reads the first load
//! balancer in front of it (its `bind.attributes`), or nothing (the value is left out, with the
//! warning of [`super::super::policies::warn_scaled_addresses`]). Its group is in the subnet of
//! its first port's network, or in the default VPC's subnets; the ports themselves are not
//! written, since each instance gets its own interface. Load balancers routing to it register
//! the group's instances in their target groups.

use serde_json::{Value as Json, json};

use crate::ir::{NodeId, Value};

use super::super::expr::NodeRef;
use super::super::policies::Policies;
use super::Builder;

/// The references of scaled machines: the first load balancer in front of one, or its group
/// (`bind.resource` of the scaling rule) with no attributes to read.
pub(super) fn scaled_refs(refs: &mut [NodeRef<'_>], policies: &Policies<'_>, names: &[String]) {
    for (i, scaling) in policies.scaling.iter().enumerate() {
        let Some(scaling) = scaling else {
            continue;
        };
        refs[i] = match scaling.balancers.first() {
            Some(lb) => NodeRef {
                address: refs[lb.index()].address.clone(),
                attributes: refs[lb.index()].attributes,
            },
            None => NodeRef {
                address: scaling
                    .resource
                    .as_ref()
                    .map(|r| format!("{r}.{}", names[i])),
                attributes: None,
            },
        };
    }
}

impl Builder<'_, '_> {
    /// Whether machine `id` is scaled.
    pub(super) fn is_scaled(&self, id: NodeId) -> bool {
        self.policies.scaling[id.index()].is_some()
    }

    /// What the templates write for scaled machine `id`: the group's bounds as HCL (an input's
    /// variable where the policy names one), the CPU target, the warm-up, the target groups and
    /// the subnets. `None` when no scaling policy scales it.
    pub(super) fn scaling(&mut self, id: NodeId, ports: &Json) -> Option<Json> {
        let policies = self.policies;
        let scaling = policies.scaling[id.index()].as_ref()?;
        let node = self.topology.nodes[id.index()].name.clone();
        let bound = |this: &mut Self, value: Option<&Value>, what: &str, default: String| {
            value
                .and_then(|v| this.value(id, v, &format!("the {what} of scaled machine `{node}`")))
                .unwrap_or(default)
        };
        let min = bound(self, scaling.min, "minimum", "1".to_string());
        let max = bound(
            self,
            scaling.max,
            "maximum",
            scaling.default_max.to_string(),
        );
        let desired = bound(self, scaling.desired, "desired count", min.clone());
        let target_groups: Vec<String> = scaling
            .balancers
            .iter()
            .filter(|&&lb| self.registers_in(id, lb))
            .filter_map(|lb| {
                self.bind(*lb)
                    .get("target_group")
                    .and_then(Json::as_str)
                    .map(|t| format!("{t}.{}.arn", self.names[lb.index()]))
            })
            .collect();
        let subnets = match ports
            .as_array()
            .and_then(|p| p.first())
            .and_then(|p| p["network"].as_str())
        {
            Some(network) => format!("[aws_subnet.{network}.id]"),
            None => {
                self.needs
                    .insert("default_network".to_string(), json!(true));
                "data.aws_subnets.default.ids".to_string()
            }
        };
        Some(json!({
            "policy": scaling.policy.name,
            "min": min,
            "max": max,
            "desired": desired,
            "cpu": scaling.cpu,
            "warmup": scaling.warmup,
            "target_groups": target_groups,
            "subnets": subnets,
        }))
    }
}
