//! Whether each node template's requirement assignments fit its type's requirement
//! definitions: every assigned name is defined (SP-NTPL-06), and no name is assigned more
//! often than its `occurrences` allow (SP-REQD-04, SP-REQA-08; default `[1, 1]`).
//!
//! Fewer assignments than the lower bound is never an error: in the Simple Profile an
//! unassigned requirement stays open for the orchestrator to fulfil at deployment
//! (A.6.2 Requirement definition: "provide an abstract type ... that a TOSCA orchestrator can use
//! to fulfil the capability at runtime (implicitly)"; SP-REQA-08), so the template is valid.
//! `toscana check` warns only where that is likely a slip: a requirement left unassigned
//! although a node template of the topology has the type its definition names (a web server
//! beside a `Compute` it names as no host). Where nothing in the topology could fulfil it (a
//! `Container.Application`'s `host` runtime, `storage` and `network`, which name a capability
//! only; a database's host where the platform runs it), the orchestrator provides the target,
//! and a warning would be nothing to act on. The translators do not report open requirements:
//! there the backend's platform is the orchestrator (a Kubernetes cluster hosts a container
//! that names no host).
//! A requirement that `substitution_mappings` exposes on the boundary is fulfilled outside
//! and not counted as missing.
//!
//! TOSCA 2.0 counts requirements with `count_range` and its own rules; this is for 1.x.

use indexmap::IndexMap;

use super::type_parts::{Chain, ChainMap, ChainRef};
use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{NodeId, Topology};
use crate::model::{Model, TopologyTemplate, TypeKind};
use crate::yaml::{Core, Kind, Node as Yaml};

/// The bounds of a requirement definition; `None` as the upper bound is `UNBOUNDED`.
#[derive(Clone, Copy)]
pub(super) struct Bounds {
    pub(super) min: u64,
    pub(super) max: Option<u64>,
}

impl Bounds {
    pub(super) const DEFAULT: Bounds = Bounds {
        min: 1,
        max: Some(1),
    };
}

/// What a requirement definition asks for: its bounds and the node type of its target, if it
/// names one.
#[derive(Clone, Copy)]
pub(super) struct Defined<'m> {
    pub(super) bounds: Bounds,
    pub(super) node: Option<&'m str>,
}

/// The other node templates whose type is, or derives from, `node_type` (a full name, or a
/// normative type's shorthand: `Compute` for `tosca.nodes.Compute`).
fn fitting_templates<'t>(topology: &'t Topology, own: NodeId, node_type: &str) -> Vec<&'t str> {
    let shorthand = |t: &str| t.strip_prefix("tosca.nodes.") == Some(node_type);
    topology
        .nodes
        .iter()
        .enumerate()
        .filter(|(j, n)| {
            *j != own.index() && n.types.iter().any(|t| t == node_type || shorthand(t))
        })
        .map(|(_, n)| n.name.as_str())
        .collect()
}

impl Bounds {
    pub(super) fn show(self) -> String {
        match self.max {
            Some(max) => format!("[{}, {max}]", self.min),
            None => format!("[{}, UNBOUNDED]", self.min),
        }
    }
}

/// `report_open`: whether requirements left below their lower bound are reported (a warning).
pub fn check(
    model: &Model,
    template: &TopologyTemplate,
    topology: &Topology,
    report_open: bool,
    diags: &mut Diagnostics,
) {
    // Each type chain's requirement definitions, `None` when the chain cannot be judged: worked
    // out once for all the templates of a type.
    let mut by_chain: ChainMap<Option<IndexMap<&str, Defined>>> = ChainMap::default();
    for (i, named) in template.node_templates.iter().enumerate() {
        let node = &topology.nodes[NodeId::from_index(i).index()];
        let defs = definitions(model, TypeKind::Node, &node.types);
        if !by_chain.contains_key(&ChainRef(&defs)) {
            let defined = (!defs.is_empty() && super::nodes::defs_complete(model, &defs))
                .then(|| requirement_definitions(&defs));
            by_chain.insert(Chain::of(&defs), defined);
        }
        let Some(Some(defined)) = by_chain.get(&ChainRef(&defs)) else {
            continue;
        };
        let assigned = named
            .def
            .as_map()
            .and_then(|d| d.get("requirements"))
            .and_then(Yaml::as_seq)
            .unwrap_or(&[]);
        let mut counts: IndexMap<&str, u64> = IndexMap::new();
        for item in assigned {
            let Some([entry]) = item.as_map().map(|m| m.entries()) else {
                continue; // reported where assignments are read
            };
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            let Some(Defined { bounds, .. }) = defined.get(name) else {
                let known: Vec<&str> = defined.keys().copied().collect();
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!(
                            "node template `{}` assigns requirement `{name}`, which its type `{}` does not define",
                            named.name, node.type_name
                        ),
                    )
                    .at(entry.key.span)
                    .did_you_mean(
                        name,
                        &known,
                        Some(format!("the type defines: {}", known.join(", "))),
                    ),
                );
                continue;
            };
            let count = counts.entry(name).or_default();
            *count += 1;
            if bounds.max.is_some_and(|max| *count == max + 1) {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_CONSTRAINT,
                        format!(
                            "node template `{}` assigns requirement `{name}` {count} times; its definition allows at most {} (occurrences {})",
                            named.name,
                            bounds.max.unwrap_or_default(),
                            bounds.show()
                        ),
                    )
                    .at(entry.key.span)
                    .hint("remove the extra assignment, or derive a type whose requirement allows more occurrences"),
                );
            }
        }
        let exposed = |name: &str| {
            topology.substitution.as_ref().is_some_and(|s| {
                s.requirements
                    .iter()
                    .any(|m| m.node == NodeId::from_index(i) && m.target == name)
            })
        };
        for (name, &Defined { bounds, node }) in defined {
            let count = counts.get(name).copied().unwrap_or(0);
            if !report_open || exposed(name) || count >= bounds.min {
                continue;
            }
            let candidates = node
                .map(|node_type| fitting_templates(topology, NodeId::from_index(i), node_type))
                .unwrap_or_default();
            if count > 0 {
                diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_UNFULFILLED,
                        format!(
                            "node template `{}` assigns requirement `{name}` {count} time(s), fewer than its occurrences {} ask for; an orchestrator would have to find the rest",
                            named.name,
                            bounds.show()
                        ),
                    )
                    .at(named.span)
                    .hint(format!("assign it again: `- {name}: <node template>`")),
                );
            } else if let Some(first) = candidates.first() {
                let listed: Vec<String> = candidates.iter().map(|c| format!("`{c}`")).collect();
                diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_UNFULFILLED,
                        format!(
                            "node template `{}` does not assign requirement `{name}` (occurrences {}), though {} of the topology could fulfil it",
                            named.name,
                            bounds.show(),
                            listed.join(", ")
                        ),
                    )
                    .at(named.span)
                    .hint(format!("assign it: `- {name}: {first}`")),
                );
            }
        }
    }
}

/// Requirement name → bounds, from the most specific definition of each name.
pub(super) fn requirement_definitions<'m>(
    defs: &[&'m crate::model::TypeDef],
) -> IndexMap<&'m str, Defined<'m>> {
    let mut out: IndexMap<&str, Defined<'m>> = IndexMap::new();
    for def in defs {
        let list = def
            .def
            .as_map()
            .and_then(|m| m.get("requirements"))
            .and_then(Yaml::as_seq)
            .unwrap_or(&[]);
        for item in list {
            let Some([entry]) = item.as_map().map(|m| m.entries()) else {
                continue;
            };
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            if out.contains_key(name) {
                continue;
            }
            let map = entry.value.as_map();
            let bounds = map
                .and_then(|m| m.get("occurrences"))
                .and_then(bounds)
                .unwrap_or(Bounds::DEFAULT);
            let node = map.and_then(|m| m.get("node")).and_then(Yaml::scalar_text);
            out.insert(name, Defined { bounds, node });
        }
    }
    out
}

/// `[min, max]` with `UNBOUNDED` as max; `None` when malformed (reported where types are read).
pub(super) fn bounds(node: &Yaml) -> Option<Bounds> {
    let [min, max] = node.as_seq()? else {
        return None;
    };
    let int = |n: &Yaml| match &n.kind {
        Kind::Scalar(s) => match s.core {
            Core::Int(i) => u64::try_from(i).ok(),
            _ => None,
        },
        _ => None,
    };
    let max = match max.scalar_text() {
        Some("UNBOUNDED") => None,
        _ => Some(int(max)?),
    };
    Some(Bounds {
        min: int(min)?,
        max,
    })
}
