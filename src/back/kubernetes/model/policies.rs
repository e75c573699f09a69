//! Policies: placement as pod affinity, anti-affinity or zones, and scaling as a
//! HorizontalPodAutoscaler.
//!
//! Placement (`tosca.policies.Placement`) keeps its targets together unless the policy says
//! apart, as [`crate::back::policies`] reads it for every backend (`toscana tf` too). The
//! topology key is the policy's `topology_key`, or its `scope` (`host`, `zone`, `region`), else
//! the rule's. Both are preferred, not required, so a cluster with too few nodes still runs the
//! pods.
//!
//! Scaling (`tosca.policies.Scaling`): `min_instances`, `max_instances` as the replica bounds
//! (`default_instances` is the workload's `replicas`); the metric and threshold of a trigger
//! whose condition reads `utilization greater_than N%` (cpu unless the trigger's `metric`
//! names memory), else `target_cpu_utilization`, else the rule's default; `increment` as the
//! pods added or removed per period (`behavior.scaleUp/scaleDown.policies`), `cooldown` as the
//! stabilization window of both directions.

use serde_json::{Value as Json, json};

use crate::diag::{Diagnostics, codes};
use crate::ir::Value;

use super::super::values::{integer, literal_text};
use super::*;
use crate::back::filters::dns_label;
use crate::back::ignores::Part;
use crate::back::policies::{Placement, Trigger, placement_mode, utilization_trigger};
use crate::back::{Element, ElementKind, Engine, Reader};

/// The topology key a placement policy's properties name: `topology_key` as it is, or a
/// `scope` of `host`, `zone` or `region`.
fn topology_key(properties: Reader) -> Option<String> {
    if let Some(key) = properties.get("topology_key").and_then(Value::as_str) {
        return Some(key.to_string());
    }
    let scope = properties.get("scope").and_then(Value::as_str)?;
    Some(
        match scope.to_ascii_lowercase().as_str() {
            "host" | "node" | "server" => "kubernetes.io/hostname",
            "zone" | "availability_zone" => "topology.kubernetes.io/zone",
            "region" => "topology.kubernetes.io/region",
            _ => return None,
        }
        .to_string(),
    )
}

/// A duration in whole seconds: an integer, or a `scalar-unit.time` (`2 m`).
fn seconds(value: &Value) -> Option<i64> {
    match value {
        Value::Scalar(s) => Some(s.canonical.round() as i64),
        other => integer(other),
    }
    .filter(|s| (0..=3600).contains(s))
}

impl<'a> Ctx<'a> {
    /// The properties of policy `pi`, each read recorded in the ledger.
    fn policy_properties(&self, pi: usize) -> Reader<'a, 'a> {
        Reader::new(
            &self.topology.policies[pi].properties,
            self.ledger,
            ElementKind::Policy,
            pi,
            Part::Property,
        )
    }

    /// Placement policies: the targets' pods kept together (pod affinity) or apart (pod
    /// anti-affinity) over a topology key, or kept in the zones the policy names; see
    /// [`placement_mode`] and [`topology_key`].
    pub(super) fn apply_placement(
        &mut self,
        elements: &[Element],
        backend: &Engine,
        diags: &mut Diagnostics,
    ) {
        let policy_elements: Vec<&Element> = elements
            .iter()
            .filter(|e| e.kind == ElementKind::Policy)
            .collect();
        for (pi, p) in self.topology.policies.iter().enumerate() {
            let Some(bind) = policy_elements
                .get(pi)
                .and_then(|e| backend.bind_for(e))
                .map(|(_, b)| b.clone())
            else {
                continue;
            };
            if json_str(&bind, "role") != Some("placement") {
                continue;
            }
            let workloads = self.policy_workloads(p, "placement", diags);
            if workloads.is_empty() {
                continue;
            }
            let zones: Vec<String> = ["zone", "zones", "availability_zone", "availability_zones"]
                .iter()
                .filter_map(|k| self.policy_properties(pi).get(k))
                .flat_map(|v| match v {
                    Value::List(items) => items.iter().filter_map(literal_text).collect(),
                    other => literal_text(other).into_iter().collect::<Vec<_>>(),
                })
                .collect();
            let label = format!("placement.toscana.io/{}", dns_label(&p.name));
            let topology_key = topology_key(self.policy_properties(pi)).unwrap_or_else(|| {
                json_str(&bind, "topology_key")
                    .unwrap_or("kubernetes.io/hostname")
                    .to_string()
            });
            let apart = placement_mode(p, self.policy_properties(pi)) == Placement::Apart;
            let value = if apart { "spread" } else { "together" };
            for w in workloads {
                let plan = &mut self.plans[w];
                if zones.is_empty() {
                    plan.extra_labels.insert(label.clone(), value.to_string());
                    let term = Spread {
                        label: label.clone(),
                        value: value.to_string(),
                        topology_key: topology_key.clone(),
                    };
                    if apart {
                        plan.affinity.spread.push(term);
                    } else {
                        plan.affinity.together.push(term);
                    }
                } else {
                    for z in &zones {
                        if !plan.affinity.zones.contains(z) {
                            plan.affinity.zones.push(z.clone());
                        }
                    }
                }
            }
        }
    }

    /// Scaling policies: one HorizontalPodAutoscaler per targeted workload.
    pub(super) fn scaling(
        &mut self,
        elements: &[Element],
        backend: &Engine,
        diags: &mut Diagnostics,
    ) -> Vec<Json> {
        let policy_elements: Vec<&Element> = elements
            .iter()
            .filter(|e| e.kind == ElementKind::Policy)
            .collect();
        let mut out = Vec::new();
        let mut scaled: std::collections::HashSet<usize> = Default::default();
        for (pi, p) in self.topology.policies.iter().enumerate() {
            let bind = policy_elements
                .get(pi)
                .and_then(|e| backend.bind_for(e))
                .map(|(_, b)| b.clone())
                .unwrap_or(Json::Null);
            let mut hpas = Vec::new();
            if json_str(&bind, "role") == Some("scaling") {
                let workloads = self.policy_workloads(p, "scaling", diags);
                let properties = self.policy_properties(pi);
                let min = properties
                    .get("min_instances")
                    .and_then(integer)
                    .unwrap_or(1)
                    .max(1);
                let max_default = bind.get("default_max").and_then(Json::as_i64).unwrap_or(10);
                let mut max = properties
                    .get("max_instances")
                    .and_then(integer)
                    .filter(|&m| m > 0)
                    .unwrap_or(max_default);
                if max < min {
                    let d = self.warn(codes::K8S_UNSUPPORTED, p.location, format!("scaling policy `{}` has max_instances below min_instances; max is raised to {min}", p.name), "");
                    diags.push(d);
                    max = min;
                }
                let (resource, utilization) = match utilization_trigger(Reader::new(
                    &p.triggers,
                    self.ledger,
                    ElementKind::Policy,
                    pi,
                    Part::Trigger,
                )) {
                    Some(Trigger::Utilization { resource, percent }) => (resource, percent),
                    Some(Trigger::Unknown(what)) => {
                        let d = self.warn(codes::K8S_UNSUPPORTED, p.location, format!("scaling policy `{}` triggers on {what}, which a HorizontalPodAutoscaler cannot watch; it scales on CPU utilization instead", p.name), "write the trigger's condition as `utilization greater_than N%` of cpu or memory");
                        diags.push(d);
                        ("cpu", None)
                    }
                    None => ("cpu", None),
                };
                let cpu = utilization
                    .or_else(|| properties.get("target_cpu_utilization").and_then(integer))
                    .or_else(|| bind.get("cpu_utilization").and_then(Json::as_i64))
                    .unwrap_or(80);
                let increment = properties
                    .get("increment")
                    .and_then(integer)
                    .filter(|&i| i > 0);
                let cooldown = properties.get("cooldown").and_then(seconds);
                for w in workloads {
                    if !scaled.insert(w) {
                        let d = self.warn(codes::K8S_UNSUPPORTED, p.location, format!("`{}` is already scaled by another policy; policy `{}` is skipped for it", self.plans[w].name, p.name), "");
                        diags.push(d);
                        continue;
                    }
                    self.request_for_utilization(w, resource, &p.name, p.location, diags);
                    let plan = self.plans[w].clone();
                    let name = self.unique_name("hpa", &plan.name);
                    let meta = self.meta_at(
                        p.location,
                        ("toscana.io/policy", &p.name),
                        &name,
                        "autoscaler",
                        plan.part_of.as_deref(),
                        &plan.name,
                    );
                    hpas.push(HpaObj {
                        meta,
                        target_kind: if plan.stateful {
                            "StatefulSet"
                        } else {
                            "Deployment"
                        },
                        target_name: plan.name.clone(),
                        min,
                        max,
                        resource,
                        cpu,
                        increment,
                        cooldown,
                        period: cooldown.filter(|c| (1..=1800).contains(c)).unwrap_or(60),
                    });
                }
            }
            out.push(json!({ "hpas": hpas }));
        }
        out
    }
}

/// What a container scaled on a resource's utilization requests when its host gives no size
/// for that resource (see [`Ctx::request_for_utilization`]).
const UTILIZATION_REQUESTS: &[(&str, &str)] = &[("cpu", "500m"), ("memory", "512Mi")];

impl Ctx<'_> {
    /// A HorizontalPodAutoscaler computes utilization as a share of the containers' request
    /// for the resource, and never scales a workload whose container requests none: such a
    /// workload (its host gives no `num_cpus` or `mem_size`) gets the request of
    /// [`UTILIZATION_REQUESTS`], with a warning that says how to size it.
    fn request_for_utilization(
        &mut self,
        w: usize,
        resource: &str,
        policy: &str,
        location: Option<crate::ir::Location>,
        diags: &mut Diagnostics,
    ) {
        if self.plans[w].requests.contains_key(resource) {
            return;
        }
        let Some(&(_, default)) = UTILIZATION_REQUESTS.iter().find(|(r, _)| *r == resource) else {
            return;
        };
        self.plans[w]
            .requests
            .insert(resource.to_string(), default.to_string());
        let property = if resource == "cpu" {
            "num_cpus"
        } else {
            "mem_size"
        };
        let d = self.warn(
            codes::K8S_UNSUPPORTED,
            location,
            format!(
                "scaling policy `{policy}` scales `{}` on {resource} utilization, a share of the container's {resource} request, and its host gives no size: it requests {resource} `{default}`",
                self.plans[w].name
            ),
            &format!(
                "size the host with `{property}` on its `host` capability to choose the request (and limit)"
            ),
        );
        diags.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_names_the_topology_key() {
        let zone = crate::back::policies::tests::policy(
            &["tosca.policies.Placement"],
            &[("scope", Value::String("zone".into()))],
            None,
        );
        assert_eq!(
            topology_key(Reader::plain(&zone.properties)).as_deref(),
            Some("topology.kubernetes.io/zone")
        );
    }
}
