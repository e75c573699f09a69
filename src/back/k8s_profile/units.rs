//! Which objects of a Kubernetes profile belong together, for the diagram: a workload (a
//! controller, or a pod no controller takes) with the pods it controls, the Services that
//! expose them, and what they use alone — the service account they run as, the ConfigMaps,
//! Secrets and claims they attach or name with `$get_property`. Something two workloads use
//! (a shared ConfigMap) belongs to neither, so `toscana dot` draws it between them.
//!
//! The relationships that make a workload's template (`Controls`) and the ones that make a
//! Service select it (`Exposes`) are those of `references` in
//! `backends/kubernetes/profiles.yaml` (entries with `fold`, and those writing `spec.selector`).

use std::collections::HashMap;

use serde::Serialize;

use crate::ir::{Topology, Value};

/// One workload and the nodes drawn with it; templates see its `name` and `kind`.
#[derive(Serialize)]
pub struct Unit {
    /// The workload node's index.
    #[serde(skip)]
    pub head: usize,
    /// The workload node's name.
    pub name: String,
    /// Its kind (`Deployment`).
    pub kind: &'static str,
    /// Every node of the unit, the workload included, in node order.
    #[serde(skip)]
    pub members: Vec<usize>,
}

/// For `toscana dot`: claims the nodes of each workload unit for a cluster of its own, after the
/// groups (`claimed` holds each node's cluster, `clusters` each cluster's ID; a unit is cluster
/// `clusters.len()` when it is added), when no group took any of them and they share a parent
/// (`host`). Gives every unit, in order, for the templates' `graph.workloads`.
pub fn claim_workloads(
    topology: &Topology,
    host: &[Option<usize>],
    claimed: &mut [Option<usize>],
    clusters: &mut Vec<String>,
    id: &mut dyn FnMut(&str, usize) -> String,
) -> Vec<Unit> {
    let first = clusters.len();
    let units = units(topology);
    for (u, unit) in units.iter().enumerate() {
        let parent = host[unit.head];
        if unit
            .members
            .iter()
            .all(|&m| host[m] == parent && claimed[m].is_none())
        {
            for &m in &unit.members {
                claimed[m] = Some(first + u);
            }
        }
        clusters.push(id(&unit.name, u));
    }
    units
}

/// The workload units of `topology`, in the order of their workload nodes. One pass over the
/// nodes, one over the relationships, and one over each unit's property values.
pub fn units(topology: &Topology) -> Vec<Unit> {
    let data = super::data();
    let kinds: Vec<Option<&'static str>> = topology
        .nodes
        .iter()
        .map(|n| {
            n.types
                .iter()
                .any(|t| super::profile_type(t).is_some())
                .then(|| super::kind_of(&n.types).map(|(k, _)| k))
                .flatten()
        })
        .collect();
    let is = |names: &[&str], types: &[String]| {
        types.iter().any(|t| names.contains(&super::local_name(t)))
    };
    let fold: Vec<&str> = data.references.iter().filter_map(|r| r.folds()).collect();
    let expose: Vec<&str> = data.references.iter().filter_map(|r| r.selects()).collect();
    // Pod → its controller; pod → the Services that expose it; node → what it uses.
    let mut controller: HashMap<usize, usize> = HashMap::new();
    let mut exposed_by: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut uses: HashMap<usize, Vec<usize>> = HashMap::new();
    for r in &topology.relationships {
        let (s, t) = (r.source.index(), r.target.index());
        if kinds[s].is_none() || kinds[t].is_none() {
            continue;
        }
        if is(&fold, &r.types) {
            controller.entry(t).or_insert(s);
        } else if is(&expose, &r.types) {
            exposed_by.entry(t).or_default().push(s);
        } else {
            uses.entry(s).or_default().push(t);
        }
    }
    let workload =
        |i: usize| kinds[i].is_some_and(super::runs_pods) && !controller.contains_key(&i);
    let by_name: HashMap<&str, usize> = topology
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), i))
        .collect();
    // Each workload's candidates, and how many workloads name each candidate.
    let mut candidates: Vec<(usize, Vec<usize>, Vec<usize>)> = Vec::new();
    let mut claims: HashMap<usize, usize> = HashMap::new();
    let pods_of = {
        let mut map: HashMap<usize, Vec<usize>> = HashMap::new();
        for (&pod, &c) in &controller {
            map.entry(c).or_default().push(pod);
        }
        map
    };
    // A workload's own: its pods and the Services exposing them, whoever else names them.
    let heads: Vec<usize> = (0..topology.nodes.len()).filter(|&i| workload(i)).collect();
    let mut owned = vec![false; topology.nodes.len()];
    let mut owns: Vec<Vec<usize>> = Vec::with_capacity(heads.len());
    for &head in &heads {
        let mut own: Vec<usize> = vec![head];
        own.extend(pods_of.get(&head).into_iter().flatten().copied());
        let exposing: Vec<usize> = own
            .iter()
            .flat_map(|o| exposed_by.get(o).into_iter().flatten().copied())
            .collect();
        own.extend(exposing);
        for &o in &own {
            owned[o] = true;
        }
        owns.push(own);
    }
    for (&head, own) in heads.iter().zip(owns) {
        let mut shared: Vec<usize> = Vec::new();
        for &o in &own {
            shared.extend(uses.get(&o).into_iter().flatten().copied());
            for v in topology.nodes[o].properties.values() {
                named_nodes(v, &by_name, &mut shared);
            }
        }
        shared.retain(|&m| kinds[m].is_some() && !owned[m]);
        shared.sort_unstable();
        shared.dedup();
        for &m in &shared {
            *claims.entry(m).or_default() += 1;
        }
        candidates.push((head, own, shared));
    }
    candidates
        .into_iter()
        .filter_map(|(head, mut own, shared)| {
            own.extend(shared.into_iter().filter(|m| claims.get(m) == Some(&1)));
            own.sort_unstable();
            own.dedup();
            Some(Unit {
                head,
                name: topology.nodes[head].name.clone(),
                kind: kinds[head]?,
                members: own,
            })
        })
        .collect()
}

/// The nodes a value names as the first argument of `$get_property`.
fn named_nodes(value: &Value, by_name: &HashMap<&str, usize>, out: &mut Vec<usize>) {
    match value {
        Value::Call(c) => {
            if c.function == crate::ir::Function::GetProperty
                && let Some(Value::String(name)) = c.args.first()
                && let Some(&i) = by_name.get(name.as_str())
            {
                out.push(i);
            }
            for a in &c.args {
                named_nodes(a, by_name, out);
            }
        }
        Value::List(items) => items.iter().for_each(|v| named_nodes(v, by_name, out)),
        Value::Map(map) => map.values().for_each(|v| named_nodes(v, by_name, out)),
        _ => {}
    }
}
