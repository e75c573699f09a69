//! The Graphviz backend's own Rust: the structure of the diagram, which Tera cannot compute well.
//!
//! The rules in `backends/graphviz/mapping.yaml` say how each element looks (shape and colour per
//! type family, edge styles per relationship type); the templates in `templates/graphviz/` write
//! the dot. What needs a walk over the whole graph is built here and given to every template as
//! `graph`, next to the command-line `options`:
//!
//! - the hosting tree (who is drawn inside whose cluster, down the whole `HostedOn` chain), as a
//!   flat list of `layout` events so templates need no recursion;
//! - which groups can be drawn as clusters (members not split across hosts) and which become
//!   notes;
//! - each node's ID, short type, family (from its rule's `bind`), the property rows to show,
//!   its count badge and ports;
//! - each relationship's endpoints and whether hosting already shows it;
//! - the legend (the families that occur, in rule order), the substitution boundary, and the
//!   text of input and output values.
//!
//! Nodes with a `select` directive (or of an abstract normative type with no implementation) and
//! nodes with a `substitute` directive get a pseudo-type at the head of their ancestry for rule
//! matching, `toscana.graphviz.Abstract` and `toscana.graphviz.Substituted`, so the mapping file
//! styles them like any other family.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::diag::Diagnostics;
use crate::ir::{Hosting, PolicyTarget, Topology, TypeKind, Valid, Value, canonical};
use crate::source::SourceMap;

use super::k8s_profile::claim_workloads as workloads;
use super::shared::{Builder, Part};
use super::{Element, ElementKind, Engine, OutputFile};

/// Pseudo-type of nodes an orchestrator must select (`select` directive, or an abstract
/// normative type with no implementation).
pub const ABSTRACT: &str = "toscana.graphviz.Abstract";
/// Pseudo-type of nodes with a `substitute` directive.
pub const SUBSTITUTED: &str = "toscana.graphviz.Substituted";

/// Longest property value shown, in characters, before it is cut with `…`.
const MAX_VALUE_CHARS: usize = 48;

/// Which properties a node box lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PropertyMode {
    None,
    /// The family's key properties (the rule's `bind.key`) and every property the template sets.
    #[default]
    Key,
    All,
}

/// Graph direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub enum RankDir {
    #[default]
    TB,
    LR,
}

/// The options of `toscana dot`, given to templates as `options`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DotOptions {
    pub properties: PropertyMode,
    pub rankdir: RankDir,
    /// Draw a legend of the type families that occur.
    pub legend: bool,
    /// Draw hosting as containment (`false`: as edges).
    pub nesting: bool,
    /// Show capabilities and requirements as ports.
    pub ports: bool,
    /// Show inputs and outputs in a side panel.
    pub io: bool,
}

impl Default for DotOptions {
    fn default() -> Self {
        DotOptions {
            properties: PropertyMode::Key,
            rankdir: RankDir::TB,
            legend: false,
            nesting: true,
            ports: false,
            io: false,
        }
    }
}

/// Renders `topology` with a loaded Graphviz backend (built-in, or overlaid with
/// `--backend-dir`): the elements with their pseudo-types and indexes, and the `graph` and
/// `options` context.
pub fn render(
    backend: &Engine,
    topology: Valid<'_>,
    sources: &SourceMap,
    options: &DotOptions,
    diags: &mut Diagnostics,
) -> Vec<OutputFile> {
    // Valid: every handle resolves, so what follows indexes the topology unguarded.
    let topology: &Topology = topology.topology();
    let value = super::topology_value(topology);
    let elements = elements(topology, sources);
    let graph = context(backend, topology, &elements, options);
    let extra = vec![
        ("options".to_string(), super::to_tera(options)),
        ("graph".to_string(), graph),
    ];
    backend.render_with(value, &elements, extra, diags)
}

/// The engine's elements (each knows its `index`, with which templates look themselves up in
/// `graph`), nodes with their pseudo-types.
pub fn elements(topology: &Topology, sources: &SourceMap) -> Vec<Element> {
    let mut elements = super::elements(topology, sources);
    let nodes = elements.iter_mut().filter(|e| e.kind == ElementKind::Node);
    for (element, node) in nodes.zip(&topology.nodes) {
        if node.directives.iter().any(|d| d == "substitute") {
            element.types.insert(0, SUBSTITUTED.to_string());
        } else if node.only_selected() || is_abstract(node) {
            element.types.insert(0, ABSTRACT.to_string());
        }
    }
    elements
}

/// A multiplicity value with TOSCA 2.0's function names: `$node_index`,
/// `$remainder($node_index, 2)`; anything else as [`value_text`] shows it.
fn function_text(value: &Value) -> String {
    match value {
        Value::Call(c) if c.args.is_empty() => format!("${}", c.function),
        Value::Call(c) => format!(
            "${}({})",
            c.function,
            c.args
                .iter()
                .map(function_text)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => value_text(other),
    }
}

/// An abstract normative type (`Root`, `Abstract.Compute`, `Abstract.Storage`) with no
/// implementation anywhere: nothing an orchestrator could deploy as it is.
fn is_abstract(node: &crate::ir::Node) -> bool {
    let Some(first) = node.types.first() else {
        return false;
    };
    let abstract_type = matches!(
        canonical(TypeKind::Node, first),
        "tosca.nodes.Root" | "tosca.nodes.Abstract.Compute" | "tosca.nodes.Abstract.Storage"
    );
    let implemented = !node.artifacts.is_empty()
        || node
            .interfaces
            .values()
            .any(|i| i.operations.values().any(|o| o.implementation.is_some()));
    abstract_type && !implemented
}

/// The short form of a type name: `tosca.nodes.WebServer` → `WebServer`,
/// `org.oasis-open.simple:2.0:Compute` → `Compute`, and a TOSCA 1.0 XML name
/// `{namespace}Ubuntu-VM_18.04` → `Ubuntu-VM_18.04` (its local name, dots and all).
pub fn short_type(name: &str) -> &str {
    if let Some((_, local)) = name.strip_prefix('{').and_then(|n| n.rsplit_once('}')) {
        return local;
    }
    let name = name.rsplit_once(':').map_or(name, |(_, n)| n);
    name.rsplit_once('.').map_or(name, |(_, n)| n)
}

/// The relationship type to show on an edge: `None` when it is the one the requirement's
/// definition names, which a reader expects.
fn shown_type(r: &crate::ir::Relationship) -> Option<String> {
    let first = r.types.first()?;
    (!r.default_type).then(|| short_type(first).to_string())
}

/// The text of a value as a diagram shows it ([`crate::ir::value_text`]), cut to
/// [`MAX_VALUE_CHARS`] characters.
pub fn value_text(value: &Value) -> String {
    cut(&crate::ir::value_text(value))
}

/// `text` cut to [`MAX_VALUE_CHARS`] characters, with `…` when cut.
fn cut(text: &str) -> String {
    if text.chars().count() <= MAX_VALUE_CHARS {
        return text.to_string();
    }
    let mut out: String = text.chars().take(MAX_VALUE_CHARS - 1).collect();
    out.push('…');
    out
}

/// One entry of the flat layout: open a cluster, place a node, or close the last cluster.
#[derive(Debug, Clone)]
struct Event {
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

/// Makes IDs unique after `dot_id` drops control characters: a repeated ID gets `~index`.
struct Ids(HashSet<String>);

impl Ids {
    fn make(&mut self, prefix: &str, name: &str, index: usize) -> String {
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

/// The `graph` context (see the module documentation), built as Tera values directly.
fn context(
    backend: &Engine,
    topology: &Topology,
    elements: &[Element],
    options: &DotOptions,
) -> tera::Value {
    let n = topology.nodes.len();
    let mut ids = Ids(HashSet::new());
    let node_ids: Vec<String> = topology
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| ids.make("n:", &node.name, i))
        .collect();

    // Hosting: each node's host (cycles cut), drawn as nesting only when asked to.
    let hosting = options.nesting.then(|| Hosting::new(topology));
    let host: Vec<Option<usize>> = topology
        .node_ids()
        .map(|id| hosting.as_ref().and_then(|h| h.host(id)).map(|h| h.index()))
        .collect();
    let host_link: Vec<Option<usize>> = topology
        .node_ids()
        .map(|id| {
            hosting
                .as_ref()
                .and_then(|h| h.host_link(id))
                .map(|r| r.index())
        })
        .collect();
    let children: Vec<Vec<usize>> = topology
        .node_ids()
        .map(|id| {
            hosting.as_ref().map_or_else(Vec::new, |h| {
                h.hosted(id).iter().map(|c| c.index()).collect()
            })
        })
        .collect();

    // Groups: a cluster when its members share a parent and none is taken already; else a note.
    let mut claimed: Vec<Option<usize>> = vec![None; n];
    let mut group_cluster: Vec<bool> = Vec::new();
    let mut group_ids: Vec<String> = Vec::new();
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
            group_ids.push(ids.make("cluster_g:", &g.name, gi));
        } else {
            group_ids.push(ids.make("g:", &g.name, gi));
        }
        group_cluster.push(together);
    }

    let mut id = |name: &str, u| ids.make("cluster_w:", name, u);
    let units = workloads(topology, &host, &mut claimed, &mut group_ids, &mut id);
    // The nodes each cluster group took, in node order, found in one pass over the nodes.
    let mut cluster_members: Vec<Vec<usize>> = vec![Vec::new(); group_ids.len()];
    for (m, claim) in claimed.iter().enumerate() {
        if let Some(members) = claim.and_then(|gi| cluster_members.get_mut(gi)) {
            members.push(m);
        }
    }

    // The layout, depth first, in node order.
    let mut layout: Vec<Event> = Vec::new();
    let mut host_ids: Vec<Option<String>> = vec![None; n];
    for i in 0..n {
        if !children[i].is_empty() {
            host_ids[i] = Some(ids.make("cluster_h:", &topology.nodes[i].name, i));
        }
    }
    let frame = topology.substitution.is_some();
    let base = usize::from(frame);
    if frame {
        layout.push(Event {
            event: "frame",
            indent: "  ".to_string(),
            id: "cluster_substitution".to_string(),
            index: 0,
        });
    }
    // Items of one container (the roots, or a host's children) in order, groups at their first.
    let items = |list: &[usize], depth: usize, stack: &mut Vec<Work>| {
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
    };
    let roots: Vec<usize> = (0..n).filter(|&i| host[i].is_none()).collect();
    let mut stack: Vec<Work> = Vec::new();
    items(&roots, base + 1, &mut stack);
    while let Some(work) = stack.pop() {
        match work {
            Work::Subtree(i, depth) => {
                let here = indent(depth);
                match &host_ids[i] {
                    Some(cluster) => {
                        layout.push(Event {
                            event: "host",
                            indent: here,
                            id: cluster.clone(),
                            index: i,
                        });
                        layout.push(Event {
                            event: "node",
                            indent: indent(depth + 1),
                            id: node_ids[i].clone(),
                            index: i,
                        });
                        stack.push(Work::Close(depth));
                        items(&children[i], depth + 1, &mut stack);
                    }
                    None => layout.push(Event {
                        event: "node",
                        indent: here,
                        id: node_ids[i].clone(),
                        index: i,
                    }),
                }
            }
            Work::Group(g, depth) => {
                layout.push(Event {
                    event: "group",
                    indent: indent(depth),
                    id: group_ids[g].clone(),
                    index: g,
                });
                stack.push(Work::Close(depth));
                stack.extend(
                    cluster_members[g]
                        .iter()
                        .rev()
                        .map(|&m| Work::Subtree(m, depth + 1)),
                );
            }
            Work::Close(depth) => layout.push(Event {
                event: "close",
                indent: indent(depth),
                id: String::new(),
                index: 0,
            }),
        }
    }
    if frame {
        layout.push(Event {
            event: "close",
            indent: "  ".to_string(),
            id: String::new(),
            index: 0,
        });
    }

    // Nodes: family from the rule, property rows, count, ports.
    let node_elements: Vec<&Element> = elements
        .iter()
        .filter(|e| e.kind == ElementKind::Node)
        .collect();
    let mut b = Builder::default();
    let mut legend: Vec<(usize, Json)> = Vec::new();
    let mut families_seen = HashSet::new();
    let mut nodes = Vec::with_capacity(n);
    for (i, node) in topology.nodes.iter().enumerate() {
        let (rule, bind) = node_elements
            .get(i)
            .and_then(|e| backend.bind_for(e))
            .map_or((usize::MAX, &Json::Null), |(r, b)| (r, b));
        let family = bind.get("family").and_then(Json::as_str).unwrap_or("other");
        if bind.get("family").is_some() && families_seen.insert(family.to_string()) {
            legend.push((rule, bind.clone()));
        }
        let key: Vec<&str> = bind
            .get("key")
            .and_then(Json::as_array)
            .map(|a| a.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        let mut properties = Vec::new();
        for (name, value) in
            node.properties
                .iter()
                .filter(|(name, value)| match options.properties {
                    PropertyMode::None => false,
                    PropertyMode::All => !matches!(value, Value::Null),
                    PropertyMode::Key => {
                        node.assigned.iter().any(|a| a == *name)
                            || (key.contains(&name.as_str()) && !matches!(value, Value::Null))
                    }
                })
        {
            let row = [("name", b.str(name)), ("text", b.str(&value_text(value)))];
            properties.push(b.map(row));
        }
        let count = match &node.count {
            Value::Integer(c) if *c == 1 => None,
            Value::Integer(c) => Some(c.to_string()),
            other => Some(value_text(other)),
        };
        let full_type = node.types.first().unwrap_or(&node.type_name);
        let mut capabilities = Vec::with_capacity(node.capabilities.len());
        for (ci, name) in node.capabilities.keys().enumerate() {
            let port = [("port", b.str(&format!("c{ci}"))), ("name", b.str(name))];
            capabilities.push(b.map(port));
        }
        let mut requirements = Vec::with_capacity(node.requirements.len());
        for (ri, r) in node.requirements.iter().enumerate() {
            let port = [("port", b.str(&format!("r{ri}"))), ("name", b.str(&r.name))];
            requirements.push(b.map(port));
        }
        let entry = [
            ("id", b.str(&node_ids[i])),
            ("family", b.str(family)),
            ("type_short", b.str(short_type(&node.type_name))),
            ("type_full", b.str(full_type)),
            ("properties", b.list(properties)),
            ("count", b.opt_str(count.as_deref())),
            ("host", b.opt_str(host_ids[i].as_deref())),
            ("capabilities", b.list(capabilities)),
            ("requirements", b.list(requirements)),
        ];
        nodes.push(b.map(entry));
    }
    // The legend follows the rules' order, whatever order the nodes came in.
    legend.sort_by_key(|(rule, _)| *rule);
    let mut previous: Option<String> = None;
    let legend: Vec<Part> = legend
        .into_iter()
        .enumerate()
        .map(|(li, (_, mut bind))| {
            let family = bind.get("family").and_then(Json::as_str).unwrap_or("");
            let id = ids.make("legend:", family, li);
            if let Json::Object(map) = &mut bind {
                map.insert("id".to_string(), json!(id));
                // The entry before, for the invisible edge that keeps the legend in rule order.
                map.insert("previous".to_string(), json!(previous));
            }
            previous = Some(id);
            b.json(&bind)
        })
        .collect();

    // Relationships: endpoints, ports, whether hosting shows them, the type to name.
    let mut relationships = Vec::with_capacity(topology.relationships.len());
    for (ri, r) in topology.relationships.iter().enumerate() {
        let (s, t) = (r.source.index(), r.target.index());
        let nested = host_link[s] == Some(ri);
        let tailport = options
            .ports
            .then(|| {
                topology.nodes[s]
                    .requirements
                    .iter()
                    .position(|q| q.relationship.map(|x| x.index()) == Some(ri))
                    .map(|p| format!("r{p}"))
            })
            .flatten();
        let headport = options
            .ports
            .then(|| {
                topology.nodes.get(t).and_then(|node| {
                    r.capability
                        .as_ref()
                        .and_then(|c| node.capabilities.get_index_of(c))
                        .map(|p| format!("c{p}"))
                })
            })
            .flatten();
        // TOSCA 2.0 multiplicity: relationships per source representation, the indexed target.
        let count = match &r.count {
            Value::Integer(1) => None,
            other => Some(function_text(other)),
        };
        let entry = [
            ("tail", b.opt_str(node_ids.get(s).map(String::as_str))),
            ("head", b.opt_str(node_ids.get(t).map(String::as_str))),
            ("tailport", b.opt_str(tailport.as_deref())),
            ("headport", b.opt_str(headport.as_deref())),
            ("nested", b.bool(nested)),
            ("shown_type", b.opt_str(shown_type(r).as_deref())),
            ("type_full", b.str(r.types.first().unwrap_or(&r.type_name))),
            ("count", b.opt_str(count.as_deref())),
            (
                "index",
                b.opt_str(r.target_index.as_ref().map(function_text).as_deref()),
            ),
        ];
        relationships.push(b.map(entry));
    }

    // Each cluster's first member node (in node order).
    let anchor: Vec<Option<usize>> = cluster_members.iter().map(|m| m.first().copied()).collect();
    let mut groups = Vec::with_capacity(topology.groups.len());
    for (gi, g) in topology.groups.iter().enumerate() {
        let members: Vec<Part> = g
            .members
            .iter()
            .map(|m| b.str(&node_ids[m.index()]))
            .collect();
        let entry = [
            ("id", b.str(&group_ids[gi])),
            ("cluster", b.bool(group_cluster[gi])),
            ("type_short", b.str(short_type(&g.type_name))),
            ("members", b.list(members)),
            // A node inside the cluster, for edges that point at the whole group.
            (
                "anchor",
                b.opt_str(anchor[gi].map(|m| node_ids[m].as_str())),
            ),
        ];
        groups.push(b.map(entry));
    }

    let mut policies = Vec::with_capacity(topology.policies.len());
    for (pi, p) in topology.policies.iter().enumerate() {
        // Each target: the node an edge points at, and the cluster it ends at (`lhead`).
        let ends: Vec<(&str, Option<&str>)> = p
            .targets
            .iter()
            .filter_map(|t| match *t {
                PolicyTarget::Node(id) => Some((node_ids[id.index()].as_str(), None)),
                PolicyTarget::Group(g) => {
                    let gi = g.index();
                    if group_cluster[gi] {
                        let anchor = anchor[gi]?;
                        Some((node_ids[anchor].as_str(), Some(group_ids[gi].as_str())))
                    } else {
                        Some((group_ids[gi].as_str(), None))
                    }
                }
            })
            .collect();
        let mut targets = Vec::with_capacity(ends.len());
        for (id, lhead) in ends {
            let target = [("id", b.str(id)), ("lhead", b.opt_str(lhead))];
            targets.push(b.map(target));
        }
        let entry = [
            ("id", b.str(&ids.make("p:", &p.name, pi))),
            ("type_short", b.str(short_type(&p.type_name))),
            ("targets", b.list(targets)),
        ];
        policies.push(b.map(entry));
    }

    let mut inputs = Vec::with_capacity(topology.inputs.len());
    for i in &topology.inputs {
        let value = i.value.as_ref().or(i.default.as_ref());
        let text = match value {
            _ if i.sensitive => Some("(sensitive)".to_string()),
            Some(v) => Some(value_text(v)),
            None => None,
        };
        let entry = [
            ("text", b.opt_str(text.as_deref())),
            ("type", b.opt_str(i.type_name.as_deref().map(short_type))),
        ];
        inputs.push(b.map(entry));
    }
    let mut outputs = Vec::with_capacity(topology.outputs.len());
    for o in &topology.outputs {
        let entry = [("text", b.str(&value_text(&o.value)))];
        outputs.push(b.map(entry));
    }

    let substitution = match &topology.substitution {
        None => b.none(),
        Some(s) => {
            let boundary = |b: &mut Builder,
                            list: &[crate::ir::BoundaryMapping],
                            prefix: &str,
                            capability: bool| {
                let mut out = Vec::new();
                for (bi, m) in list.iter().enumerate() {
                    let node = &topology[m.node];
                    let port = if !options.ports {
                        None
                    } else if capability {
                        node.capabilities
                            .get_index_of(&m.target)
                            .map(|p| format!("c{p}"))
                    } else {
                        node.requirements
                            .iter()
                            .position(|q| q.name == m.target)
                            .map(|p| format!("r{p}"))
                    };
                    let entry = [
                        ("id", b.str(&format!("sub:{prefix}{bi}"))),
                        ("name", b.str(&m.name)),
                        ("node", b.str(&node_ids[m.node.index()])),
                        ("target", b.str(&m.target)),
                        ("port", b.opt_str(port.as_deref())),
                    ];
                    out.push(b.map(entry));
                }
                b.list(out)
            };
            // The outermost nodes: exposed capabilities are kept above them.
            let top: Vec<Part> = (0..n)
                .filter(|&i| host[i].is_none())
                .map(|i| b.str(&node_ids[i]))
                .collect();
            // The innermost nodes: exposed requirements are kept below them.
            let bottom: Vec<Part> = (0..n)
                .filter(|&i| children[i].is_empty())
                .map(|i| b.str(&node_ids[i]))
                .collect();
            let entry = [
                ("type_short", b.str(short_type(&s.node_type))),
                ("type_full", b.str(&s.node_type)),
                ("top", b.list(top)),
                ("bottom", b.list(bottom)),
                ("capabilities", boundary(&mut b, &s.capabilities, "c", true)),
                (
                    "requirements",
                    boundary(&mut b, &s.requirements, "r", false),
                ),
            ];
            b.map(entry)
        }
    };

    let title = topology
        .metadata
        .get("template_name")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| {
            let entry = topology.source.entry.replace('\\', "/");
            entry.rsplit('/').next().unwrap_or(&entry).to_string()
        });

    // Invisible edges from each host to what it hosts put the host at the top of its box.
    let mut stacking = Vec::new();
    for i in 0..n {
        if let Some(h) = host[i] {
            let edge = [
                ("host", b.str(&node_ids[h])),
                ("hosted", b.str(&node_ids[i])),
            ];
            stacking.push(b.map(edge));
        }
    }

    let mut events = Vec::with_capacity(layout.len());
    for e in &layout {
        let entry = [
            ("event", b.str(e.event)),
            ("indent", b.str(&e.indent)),
            ("id", b.str(&e.id)),
            ("index", b.unsigned(e.index as u64)),
        ];
        events.push(b.map(entry));
    }

    let graph = [
        ("title", b.str(&title)),
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

#[cfg(test)]
#[path = "graphviz_tests.rs"]
mod tests;

/// Draws dot source with Graphviz's `dot` into `format` (`svg`, `png`). A missing `dot` or a
/// failure of it is an `output::graphviz` error that says what to do.
#[allow(clippy::result_large_err)] // one diagnostic, straight to the command line
pub fn draw(dot: &str, format: &str) -> Result<Vec<u8>, crate::diag::Diagnostic> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};

    use crate::diag::{Diagnostic, codes};
    let child = Command::new("dot")
        .arg(format!("-T{format}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Diagnostic::error(
                codes::OUTPUT_GRAPHVIZ,
                format!("--format {format} needs Graphviz's `dot` program, which is not installed"),
            )
            .hint("install Graphviz (`apt-get install graphviz`, `brew install graphviz`, `choco install graphviz`), or use --format dot and draw the file elsewhere"));
        }
        Err(e) => {
            return Err(Diagnostic::error(
                codes::OUTPUT_GRAPHVIZ,
                format!("cannot run Graphviz's `dot`: {e}"),
            ));
        }
    };
    // Write on another thread so a large diagram cannot deadlock on full pipes.
    let input = child.stdin.take().map(|mut stdin| {
        let text = dot.to_string();
        std::thread::spawn(move || stdin.write_all(text.as_bytes()))
    });
    let output = child.wait_with_output();
    let written = input.map(|t| t.join());
    let output = output.map_err(|e| {
        Diagnostic::error(
            codes::OUTPUT_GRAPHVIZ,
            format!("Graphviz's `dot` failed: {e}"),
        )
    })?;
    if !output.status.success() || !matches!(written, Some(Ok(Ok(())))) {
        return Err(Diagnostic::error(
            codes::OUTPUT_GRAPHVIZ,
            format!(
                "Graphviz's `dot -T{format}` failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        )
        .hint("this is a bug in toscana's Graphviz backend if the diagram came from the built-in templates; --format dot writes the source to look at"));
    }
    Ok(output.stdout)
}
