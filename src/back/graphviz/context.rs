//! The `graph` context the templates read (the parts are listed in the [module
//! documentation](super)): first what every part shares, where each node is drawn (its dot ID,
//! its host, the group or workload cluster that took it), then each part in turn.

use std::collections::HashSet;

use crate::ir::{Hosting, Topology, Value};

use super::super::k8s_profile::{Unit, claim_workloads};
use super::super::tera_values::Builder;
use super::super::{Element, Engine};
use super::{DotOptions, entries, layout};

/// Makes IDs unique after `dot_id` drops control characters: a repeated ID gets `~index`.
///
/// IDs are handed out in one fixed order (nodes, groups, workloads, hosts, legend, policies),
/// so which of two clashing names gets the `~index` never depends on anything else.
pub(super) struct Ids(HashSet<String>);

impl Ids {
    pub(super) fn make(&mut self, prefix: &str, name: &str, index: usize) -> String {
        let clean: String = name
            .chars()
            .filter(|c| !c.is_control() || *c == '\n')
            .collect();
        let mut id = format!("{prefix}{clean}");
        if !self.0.insert(id.clone()) {
            id = format!("{prefix}{clean}~{index}");
            self.0.insert(id.clone());
        }
        id
    }
}

/// The hosting tree as the diagram draws it, by node index.
pub(super) struct Hosts {
    /// Each node's dot ID.
    pub node_ids: Vec<String>,
    /// Each node's host (cycles cut); none when hosting is drawn as edges (`--no-nesting`).
    pub host: Vec<Option<usize>>,
    /// The relationship that makes each node's host its host.
    pub host_link: Vec<Option<usize>>,
    /// What each node hosts.
    pub children: Vec<Vec<usize>>,
    /// The cluster ID of each node that hosts others.
    pub host_ids: Vec<Option<String>>,
}

impl Hosts {
    /// Node IDs and the hosting tree; the hosts' cluster IDs come later
    /// ([`Hosts::name_host_clusters`]), after the groups', to keep [`Ids`]' order.
    fn new(topology: &Topology, options: &DotOptions, ids: &mut Ids) -> Hosts {
        let node_ids = topology
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| ids.make("n:", &node.name, i))
            .collect();
        let hosting = options.nesting.then(|| Hosting::new(topology));
        let hosting = hosting.as_ref();
        let host = topology
            .node_ids()
            .map(|id| hosting.and_then(|h| h.host(id)).map(|h| h.index()))
            .collect();
        let host_link = topology
            .node_ids()
            .map(|id| hosting.and_then(|h| h.host_link(id)).map(|r| r.index()))
            .collect();
        let children = topology
            .node_ids()
            .map(|id| {
                hosting.map_or_else(Vec::new, |h| {
                    h.hosted(id).iter().map(|c| c.index()).collect()
                })
            })
            .collect();
        Hosts {
            node_ids,
            host,
            host_link,
            children,
            host_ids: Vec::new(),
        }
    }

    fn name_host_clusters(&mut self, topology: &Topology, ids: &mut Ids) {
        self.host_ids = (0..self.children.len())
            .map(|i| {
                (!self.children[i].is_empty())
                    .then(|| ids.make("cluster_h:", &topology.nodes[i].name, i))
            })
            .collect();
    }
}

/// Which nodes the groups and the Kubernetes-profile workloads draw as one cluster.
pub(super) struct Clusters {
    /// The cluster (an index into `ids`) that took each node.
    pub claimed: Vec<Option<usize>>,
    /// Whether each group of the topology is a cluster; a group that is not is a note.
    pub group_cluster: Vec<bool>,
    /// The dot ID of each group, then of each workload cluster.
    pub ids: Vec<String>,
    /// The nodes each cluster took, in node order.
    pub members: Vec<Vec<usize>>,
    /// Each cluster's first member, for edges that point at the whole cluster.
    pub anchor: Vec<Option<usize>>,
}

impl Clusters {
    /// A group is a cluster when its members share a parent and none is taken already; the
    /// workloads of a Kubernetes profile are clusters too.
    fn new(topology: &Topology, hosts: &Hosts, ids: &mut Ids) -> (Clusters, Vec<Unit>) {
        let host = &hosts.host;
        let mut claimed: Vec<Option<usize>> = vec![None; topology.nodes.len()];
        let mut group_cluster = Vec::with_capacity(topology.groups.len());
        let mut cluster_ids = Vec::with_capacity(topology.groups.len());
        for (gi, g) in topology.groups.iter().enumerate() {
            let mut members: Vec<usize> = g.members.iter().map(|m| m.index()).collect();
            members.sort_unstable();
            members.dedup();
            let parent = members.first().map(|&m| host[m]);
            let together = !members.is_empty()
                && members
                    .iter()
                    .all(|&m| Some(host[m]) == parent && claimed[m].is_none());
            if together {
                for &m in &members {
                    claimed[m] = Some(gi);
                }
                cluster_ids.push(ids.make("cluster_g:", &g.name, gi));
            } else {
                cluster_ids.push(ids.make("g:", &g.name, gi));
            }
            group_cluster.push(together);
        }
        let mut id = |name: &str, u| ids.make("cluster_w:", name, u);
        let units = claim_workloads(topology, host, &mut claimed, &mut cluster_ids, &mut id);
        // The nodes each cluster took, in node order, found in one pass over the nodes.
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); cluster_ids.len()];
        for (m, claim) in claimed.iter().enumerate() {
            if let Some(list) = claim.and_then(|gi| members.get_mut(gi)) {
                list.push(m);
            }
        }
        let anchor = members.iter().map(|m| m.first().copied()).collect();
        let clusters = Clusters {
            claimed,
            group_cluster,
            ids: cluster_ids,
            members,
            anchor,
        };
        (clusters, units)
    }
}

/// What every part of the context reads.
pub(super) struct Drawing<'a> {
    pub topology: &'a Topology,
    pub options: &'a DotOptions,
    pub hosts: Hosts,
    pub clusters: Clusters,
}

/// The `graph` context (see the module documentation), built as Tera values directly.
pub(super) fn context(
    backend: &Engine,
    topology: &Topology,
    elements: &[Element],
    options: &DotOptions,
) -> tera::Value {
    let mut ids = Ids(HashSet::new());
    let mut hosts = Hosts::new(topology, options, &mut ids);
    let (clusters, units) = Clusters::new(topology, &hosts, &mut ids);
    hosts.name_host_clusters(topology, &mut ids);
    let d = Drawing {
        topology,
        options,
        hosts,
        clusters,
    };
    let layout = layout::layout(&d);

    let mut b = Builder::default();
    let (nodes, families) = entries::nodes(&d, &mut b, backend, elements);
    let legend = entries::legend(&mut b, &mut ids, families);
    let relationships = entries::relationships(&d, &mut b);
    let groups = entries::groups(&d, &mut b);
    let policies = entries::policies(&d, &mut b, &mut ids);
    let inputs = entries::inputs(topology, &mut b);
    let outputs = entries::outputs(topology, &mut b);
    let substitution = entries::substitution(&d, &mut b);
    let stacking = stacking(&d, &mut b);
    let events = layout::events(&mut b, &layout);
    let graph = [
        ("title", b.str(&title(topology))),
        ("workloads", b.serialize(&units)),
        ("stacking", b.list(stacking)),
        ("nodes", b.list(nodes)),
        ("relationships", b.list(relationships)),
        ("groups", b.list(groups)),
        ("policies", b.list(policies)),
        ("inputs", b.list(inputs)),
        ("outputs", b.list(outputs)),
        ("layout", b.list(events)),
        ("legend", b.list(legend)),
        ("substitution", substitution),
    ];
    b.map(graph).into_value()
}

/// The diagram's title: the template's `template_name`, else its file name.
fn title(topology: &Topology) -> String {
    topology
        .metadata
        .get("template_name")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| {
            let entry = topology.source.entry.replace('\\', "/");
            entry.rsplit('/').next().unwrap_or(&entry).to_string()
        })
}

/// Invisible edges from each host to what it hosts, which put the host at the top of its box.
fn stacking(d: &Drawing<'_>, b: &mut Builder) -> Vec<super::super::tera_values::Part> {
    let node_ids = &d.hosts.node_ids;
    let mut stacking = Vec::new();
    for (i, host) in d.hosts.host.iter().enumerate() {
        if let Some(h) = *host {
            let edge = [
                ("host", b.str(&node_ids[h])),
                ("hosted", b.str(&node_ids[i])),
            ];
            stacking.push(b.map(edge));
        }
    }
    stacking
}
