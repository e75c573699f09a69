//! The flat layout: the hosting tree and the clusters as a list of events (open a cluster,
//! place a node, close the last cluster), so templates draw nesting without recursion.

use std::collections::HashSet;

use super::super::tera_values::{Builder, Part};
use super::context::Drawing;

/// One entry of the flat layout: open a cluster, place a node, or close the last cluster.
#[derive(Debug, Clone)]
pub(super) struct Event {
    /// `host` (a node and what it hosts), `group`, `frame` (the substitution boundary), `node`
    /// or `close`.
    event: &'static str,
    /// Spaces to indent the line with.
    indent: String,
    /// The cluster's or node's dot ID (unquoted; templates quote it with `dot_id`).
    id: String,
    /// For `group`: the group's index; for `host` and `node`: the node's index.
    index: usize,
}

impl Event {
    fn close(indent: String) -> Event {
        Event {
            event: "close",
            indent,
            id: String::new(),
            index: 0,
        }
    }
}

/// Nesting deeper than this is not indented further: the diagram of a hosting chain of n nodes
/// would otherwise hold n² spaces (1.6 GB of them for 20,000 nodes).
const MAX_INDENT_DEPTH: usize = 16;

/// The indentation of a line `depth` clusters deep.
fn indent(depth: usize) -> String {
    "  ".repeat(depth.min(MAX_INDENT_DEPTH))
}

/// Work for the layout walk, which uses its own stack so a hosting chain of any length cannot
/// overflow the thread's stack.
enum Work {
    /// A node and its hosted subtree.
    Subtree(usize, usize),
    /// A group cluster with its members' subtrees.
    Group(usize, usize),
    Close(usize),
}

/// Pushes the items of one container (the roots, or a host's children) in order, each cluster
/// at its first member.
fn push_items(claimed: &[Option<usize>], list: &[usize], depth: usize, stack: &mut Vec<Work>) {
    let mut seen_groups = HashSet::new();
    let mut out = Vec::new();
    for &c in list {
        match claimed[c] {
            Some(g) => {
                if seen_groups.insert(g) {
                    out.push(Work::Group(g, depth));
                }
            }
            None => out.push(Work::Subtree(c, depth)),
        }
    }
    stack.extend(out.into_iter().rev());
}

/// The layout, depth first, in node order, inside the substitution frame if there is one.
pub(super) fn layout(d: &Drawing<'_>) -> Vec<Event> {
    let (hosts, clusters) = (&d.hosts, &d.clusters);
    let mut layout: Vec<Event> = Vec::new();
    let frame = d.topology.substitution.is_some();
    let base = usize::from(frame);
    if frame {
        layout.push(Event {
            event: "frame",
            indent: "  ".to_string(),
            id: "cluster_substitution".to_string(),
            index: 0,
        });
    }
    let roots: Vec<usize> = (0..hosts.host.len())
        .filter(|&i| hosts.host[i].is_none())
        .collect();
    let mut stack: Vec<Work> = Vec::new();
    push_items(&clusters.claimed, &roots, base + 1, &mut stack);
    while let Some(work) = stack.pop() {
        match work {
            Work::Subtree(i, depth) => {
                let here = indent(depth);
                let node = |indent| Event {
                    event: "node",
                    indent,
                    id: hosts.node_ids[i].clone(),
                    index: i,
                };
                match &hosts.host_ids[i] {
                    Some(cluster) => {
                        layout.push(Event {
                            event: "host",
                            indent: here,
                            id: cluster.clone(),
                            index: i,
                        });
                        layout.push(node(indent(depth + 1)));
                        stack.push(Work::Close(depth));
                        push_items(&clusters.claimed, &hosts.children[i], depth + 1, &mut stack);
                    }
                    None => layout.push(node(here)),
                }
            }
            Work::Group(g, depth) => {
                layout.push(Event {
                    event: "group",
                    indent: indent(depth),
                    id: clusters.ids[g].clone(),
                    index: g,
                });
                stack.push(Work::Close(depth));
                let members = clusters.members[g].iter().rev();
                stack.extend(members.map(|&m| Work::Subtree(m, depth + 1)));
            }
            Work::Close(depth) => layout.push(Event::close(indent(depth))),
        }
    }
    if frame {
        layout.push(Event::close("  ".to_string()));
    }
    layout
}

/// The layout as the templates read it.
pub(super) fn events(b: &mut Builder, layout: &[Event]) -> Vec<Part> {
    let mut events = Vec::with_capacity(layout.len());
    for e in layout {
        let entry = [
            ("event", b.str(e.event)),
            ("indent", b.str(&e.indent)),
            ("id", b.str(&e.id)),
            ("index", b.unsigned(e.index as u64)),
        ];
        events.push(b.map(entry));
    }
    events
}
