//! The hosting tree of a topology: what is hosted on what.
//!
//! [`Hosting`] gives each node's host, the bottom of its hosting chain, and the whole stack on a
//! host in deployment order (a host before what it hosts, a requirement's target before the node
//! that requires it, otherwise source order). A hosting cycle, which the resolver reports, is cut
//! at its first node in source order so every chain ends.
//!
//! The resolver asks it (the `HOST` keyword of `get_property` and `get_attribute` walks the
//! chain) and so do the backends (a Compute node and what it hosts become one container or VM;
//! the Graphviz backend draws the tree as nested clusters), so it lives with the IR it reads.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{NodeId, Relationship, RelationshipId, Topology, type_matches};

/// True when `r` hosts its source on its target: a `HostedOn` (or derived) relationship, or a
/// `host` requirement whose relationship type is unknown.
pub fn is_hosting(r: &Relationship) -> bool {
    type_matches(&r.types, "tosca.relationships.HostedOn")
        || (r.types.is_empty() && r.requirement == "host")
}

/// The hosting tree of a topology.
#[derive(Debug, Clone)]
pub struct Hosting {
    /// Per node: its direct host (the first hosting relationship in source order).
    host: Vec<Option<NodeId>>,
    /// Per node: the relationship that hosts it, when `host` is set.
    link: Vec<Option<RelationshipId>>,
    /// Per node: the nodes directly hosted on it, in source order.
    hosted: Vec<Vec<NodeId>>,
    /// Per node: the bottom of its hosting chain.
    root: Vec<NodeId>,
}

impl Hosting {
    /// The hosting tree, in time linear in nodes and relationships.
    pub fn new(topology: &Topology) -> Hosting {
        let n = topology.nodes.len();
        let mut host: Vec<Option<NodeId>> = vec![None; n];
        let mut link: Vec<Option<RelationshipId>> = vec![None; n];
        for (i, r) in topology.relationships.iter().enumerate() {
            let (s, t) = (r.source.0, r.target.0);
            if s < n && t < n && s != t && host[s].is_none() && is_hosting(r) {
                host[s] = Some(r.target);
                link[s] = Some(RelationshipId(i));
            }
        }
        cut_cycles(&mut host);
        for (l, h) in link.iter_mut().zip(&host) {
            if h.is_none() {
                *l = None;
            }
        }
        let mut hosted = vec![Vec::new(); n];
        for (i, h) in host.iter().enumerate() {
            if let Some(h) = h {
                hosted[h.0].push(NodeId(i));
            }
        }
        let root = roots(&host);
        Hosting {
            host,
            link,
            hosted,
            root,
        }
    }

    /// The node `node` is directly hosted on.
    pub fn host(&self, node: NodeId) -> Option<NodeId> {
        self.host.get(node.0).copied().flatten()
    }

    /// The relationship that hosts `node` on [`Hosting::host`].
    pub fn host_link(&self, node: NodeId) -> Option<RelationshipId> {
        self.link.get(node.0).copied().flatten()
    }

    /// The bottom of `node`'s hosting chain: `node` itself when nothing hosts it.
    pub fn root(&self, node: NodeId) -> NodeId {
        self.root.get(node.0).copied().unwrap_or(node)
    }

    /// The nodes directly hosted on `node`, in source order.
    pub fn hosted(&self, node: NodeId) -> &[NodeId] {
        self.hosted.get(node.0).map_or(&[], Vec::as_slice)
    }

    /// `root` and everything hosted on it at any depth, in deployment order: a host before what
    /// it hosts, the target of a requirement before its source (when both are in the stack),
    /// otherwise source order. Dependencies that would form a cycle are ignored for ordering.
    pub fn stack(&self, topology: &Topology, root: NodeId) -> Vec<NodeId> {
        let mut members = vec![root];
        let mut i = 0;
        while i < members.len() {
            members.extend_from_slice(self.hosted(members[i]));
            i += 1;
        }
        // Position of each member in `members`, for the ordering graph below.
        let index: std::collections::HashMap<NodeId, usize> =
            members.iter().enumerate().map(|(i, &m)| (m, i)).collect();
        let mut before: Vec<Vec<usize>> = vec![Vec::new(); members.len()];
        let mut waiting = vec![0usize; members.len()];
        for (i, &m) in members.iter().enumerate() {
            let mut needs: Vec<usize> = self
                .host(m)
                .and_then(|h| index.get(&h).copied())
                .into_iter()
                .collect();
            for req in &topology.nodes[m.0].requirements {
                let target = req.relationship.map(|r| topology.relationships[r.0].target);
                if let Some(&t) = target.as_ref().and_then(|t| index.get(t))
                    && t != i
                    && !needs.contains(&t)
                {
                    needs.push(t);
                }
            }
            waiting[i] = needs.len();
            for t in needs {
                before[t].push(i);
            }
        }
        let mut ready: BinaryHeap<Reverse<NodeId>> = BinaryHeap::new();
        for (i, &m) in members.iter().enumerate() {
            if waiting[i] == 0 {
                ready.push(Reverse(m));
            }
        }
        let mut order = Vec::with_capacity(members.len());
        let mut placed = vec![false; members.len()];
        loop {
            while let Some(Reverse(m)) = ready.pop() {
                let i = index[&m];
                placed[i] = true;
                order.push(m);
                for &next in &before[i] {
                    // A member released from a cycle waits for nothing any more.
                    if waiting[next] > 0 {
                        waiting[next] -= 1;
                        if waiting[next] == 0 {
                            ready.push(Reverse(members[next]));
                        }
                    }
                }
            }
            // A dependency cycle: release its first member in source order and go on.
            match (0..members.len())
                .filter(|&i| !placed[i] && waiting[i] > 0)
                .min_by_key(|&i| members[i])
            {
                Some(i) => {
                    waiting[i] = 0;
                    ready.push(Reverse(members[i]));
                }
                None => break,
            }
        }
        order
    }
}

/// Breaks every hosting cycle at its first node in source order, so chains end.
fn cut_cycles(host: &mut [Option<NodeId>]) {
    // 0 = unvisited, 1 = on the current walk, 2 = done.
    let mut state = vec![0u8; host.len()];
    for start in 0..host.len() {
        let mut walk = Vec::new();
        let mut at = Some(NodeId(start));
        while let Some(n) = at {
            match state[n.0] {
                0 => {
                    state[n.0] = 1;
                    walk.push(n);
                    at = host[n.0];
                }
                1 => {
                    let from = walk.iter().position(|&w| w == n).unwrap_or(0);
                    if let Some(&first) = walk[from..].iter().min() {
                        host[first.0] = None;
                    }
                    break;
                }
                _ => break,
            }
        }
        for n in walk {
            state[n.0] = 2;
        }
    }
}

/// The bottom of each node's chain, each chain walked once.
fn roots(host: &[Option<NodeId>]) -> Vec<NodeId> {
    let mut root: Vec<Option<NodeId>> = vec![None; host.len()];
    for start in 0..host.len() {
        let mut walk = Vec::new();
        let mut at = NodeId(start);
        let bottom = loop {
            if let Some(r) = root[at.0] {
                break r;
            }
            walk.push(at);
            match host[at.0] {
                Some(h) => at = h,
                None => break at,
            }
        };
        for n in walk {
            root[n.0] = Some(bottom);
        }
    }
    root.into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or(NodeId(i)))
        .collect()
}
