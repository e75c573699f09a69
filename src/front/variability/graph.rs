//! The element graph of a variable topology template: every element that can be present or
//! absent (inputs, nodes, relations, properties, artifacts, groups, policies), by position, with
//! its conditions and its links, built once before any condition is evaluated (spec "Resolve
//! Variability"; the RC's loading order). Structural errors are reported here.

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;
use crate::yaml::{Core, Node};

/// The type names that make a group a variability group (the RC matches them by name).
pub const VARIABILITY_GROUP_TYPES: &[&str] = &[
    "variability.groups.Root",
    "variability.groups.ConditionalMembers",
];

/// Relationship types a requirement may name instead of a relationship template.
const NORMATIVE_RELATIONSHIPS: &[&str] = &[
    "Root",
    "DependsOn",
    "HostedOn",
    "ConnectsTo",
    "AttachesTo",
    "RoutesTo",
    "network.LinksTo",
    "network.BindsTo",
];

/// An element, by kind and position in its arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Id {
    Input(usize),
    Node(usize),
    Relation(usize),
    Property(usize),
    Artifact(usize),
    Group(usize),
    Policy(usize),
}

/// One condition of an element: an expression written in the template, or one the resolver
/// installs.
#[derive(Debug, Clone, Copy)]
pub enum Cond<'t> {
    /// Written under `conditions`; `group` when it comes from a variability group.
    Written {
        expr: &'t Node,
        group: Option<usize>,
    },
    /// The pruning condition of the element's kind.
    Prune,
    /// A `default: true` property: used only when no other entry of its name is present.
    Never,
}

pub struct Input<'t> {
    pub name: &'t str,
    pub key: &'t Node,
    pub own: Vec<&'t Node>,
}

pub struct NodeT<'t> {
    pub name: &'t str,
    pub key: &'t Node,
    pub def: &'t Node,
    pub own: Vec<&'t Node>,
    /// Conditions of the variability groups that list this node, with the group.
    pub group_conds: Vec<(&'t Node, usize)>,
    pub relations: Vec<usize>,
    pub incoming: Vec<usize>,
    pub properties: Vec<usize>,
    pub artifacts: Vec<usize>,
}

pub struct Relation<'t> {
    pub source: usize,
    /// Position in the source's `requirements` list.
    pub index: usize,
    pub name: &'t str,
    pub item: &'t Node,
    pub target: Option<usize>,
    pub rtemplate: Option<usize>,
    pub own: Vec<&'t Node>,
    pub group_conds: Vec<(&'t Node, usize)>,
}

pub struct RTemplate<'t> {
    pub name: &'t str,
    pub key: &'t Node,
    pub used_by: Option<usize>,
    pub properties: Vec<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Node(usize),
    RTemplate(usize),
}

pub struct Property<'t> {
    pub owner: Owner,
    pub name: &'t str,
    /// Position in a list-form `properties`; `None` in the map form.
    pub index: Option<usize>,
    pub key: &'t Node,
    pub value: &'t Node,
    pub own: Vec<&'t Node>,
    pub default: bool,
}

pub struct Artifact<'t> {
    pub node: usize,
    pub name: &'t str,
    pub index: Option<usize>,
    pub key: &'t Node,
    pub def: &'t Node,
    pub own: Vec<&'t Node>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    Node(usize),
    Relation(usize),
}

pub struct Group<'t> {
    pub name: &'t str,
    pub key: &'t Node,
    pub variability: bool,
    pub members: Vec<Member>,
    pub own: Vec<&'t Node>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Node(usize),
    Group(usize),
}

pub struct Policy<'t> {
    pub name: &'t str,
    pub key: &'t Node,
    pub targets: Vec<Target>,
    pub own: Vec<&'t Node>,
}

#[derive(Default)]
pub struct Graph<'t> {
    pub inputs: Vec<Input<'t>>,
    pub nodes: Vec<NodeT<'t>>,
    pub node_index: IndexMap<&'t str, usize>,
    pub relations: Vec<Relation<'t>>,
    pub rtemplates: Vec<RTemplate<'t>>,
    pub rtemplate_index: IndexMap<&'t str, usize>,
    pub properties: Vec<Property<'t>>,
    pub artifacts: Vec<Artifact<'t>>,
    pub groups: Vec<Group<'t>>,
    pub group_index: IndexMap<&'t str, usize>,
    pub policies: Vec<Policy<'t>>,
}

/// The `conditions` of an element: one condition, or a list meaning all of them.
pub fn conditions(def: &Node) -> Vec<&Node> {
    match def.as_map().and_then(|m| m.get("conditions")) {
        None => Vec::new(),
        Some(c) => match c.as_seq() {
            Some(list) => list.iter().collect(),
            None => vec![c],
        },
    }
}

/// The entries of a map, or of a list of single-entry maps (the list form conditional elements
/// use), each with its position in the list.
pub fn named_items(node: &Node) -> Vec<(&Node, &Node, Option<usize>)> {
    match (node.as_map(), node.as_seq()) {
        (Some(map), _) => map
            .entries()
            .iter()
            .map(|e| (&e.key, &e.value, None))
            .collect(),
        (_, Some(list)) => list
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let map = item.as_map()?;
                let entry = map.entries().first()?;
                (map.len() == 1).then_some((&entry.key, &entry.value, Some(i)))
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn key_text(key: &Node) -> &str {
    key.scalar_text().unwrap_or("")
}

/// Whether a relationship name is a type rather than a template: a normative relationship type
/// (by full name, shorthand or `tosca:` name) or one this file defines.
fn is_relationship_type(name: &str, topology_root: &Node) -> bool {
    let short = name
        .strip_prefix("tosca.relationships.")
        .or_else(|| name.strip_prefix("tosca:"))
        .unwrap_or(name);
    NORMATIVE_RELATIONSHIPS.contains(&short)
        || topology_root
            .as_map()
            .and_then(|m| m.get("relationship_types"))
            .and_then(Node::as_map)
            .is_some_and(|m| m.contains_key(name))
}

fn err(code: &'static str, message: String, span: Span) -> Diagnostic {
    Diagnostic::error(code, message).at(span)
}

/// Builds the graph of the topology template `topo` (of the document `root`).
pub fn build<'t>(root: &'t Node, topo: &'t Node, diags: &mut Diagnostics) -> Graph<'t> {
    let mut g = Graph::default();
    let Some(topo_map) = topo.as_map() else {
        return g;
    };
    if let Some(inputs) = topo_map.get("inputs") {
        for (key, def, _) in named_items(inputs) {
            g.inputs.push(Input {
                name: key_text(key),
                key,
                own: conditions(def),
            });
        }
    }
    let node_templates = topo_map.get("node_templates");
    if let Some(templates) = node_templates.and_then(Node::as_map) {
        for entry in templates.entries() {
            let name = key_text(&entry.key);
            g.node_index.insert(name, g.nodes.len());
            g.nodes.push(NodeT {
                name,
                key: &entry.key,
                def: &entry.value,
                own: conditions(&entry.value),
                group_conds: Vec::new(),
                relations: Vec::new(),
                incoming: Vec::new(),
                properties: Vec::new(),
                artifacts: Vec::new(),
            });
        }
    }
    if let Some(templates) = topo_map
        .get("relationship_templates")
        .and_then(Node::as_map)
    {
        for entry in templates.entries() {
            let name = key_text(&entry.key);
            g.rtemplate_index.insert(name, g.rtemplates.len());
            g.rtemplates.push(RTemplate {
                name,
                key: &entry.key,
                used_by: None,
                properties: Vec::new(),
            });
            let rt = g.rtemplates.len() - 1;
            if let Some(props) = entry.value.as_map().and_then(|m| m.get("properties")) {
                let ids = properties(&mut g, Owner::RTemplate(rt), props);
                g.rtemplates[rt].properties = ids;
            }
        }
    }
    for n in 0..g.nodes.len() {
        let def = g.nodes[n].def;
        let Some(map) = def.as_map() else { continue };
        if let Some(props) = map.get("properties") {
            let ids = properties(&mut g, Owner::Node(n), props);
            g.nodes[n].properties = ids;
        }
        if let Some(reqs) = map.get("requirements").and_then(Node::as_seq) {
            for (index, item) in reqs.iter().enumerate() {
                relation(&mut g, root, n, index, item, diags);
            }
        }
        if let Some(arts) = map.get("artifacts") {
            for (key, def, index) in named_items(arts) {
                let id = g.artifacts.len();
                g.artifacts.push(Artifact {
                    node: n,
                    name: key_text(key),
                    index,
                    key,
                    def,
                    own: conditions(def),
                });
                g.nodes[n].artifacts.push(id);
            }
        }
    }
    for rt in &g.rtemplates {
        if rt.used_by.is_none() {
            diags.push(
                err(
                    codes::VAR_STRUCTURE,
                    format!("Relation \"{}\" is never used", rt.name),
                    rt.key.span,
                )
                .hint("name it in the `relationship` of one requirement assignment, or remove it"),
            );
        }
    }
    for r in 0..g.relations.len() {
        if let Some(t) = g.relations[r].target {
            g.nodes[t].incoming.push(r);
        }
    }
    if let Some(groups) = topo_map.get("groups") {
        for (key, def, _) in named_items(groups) {
            group(&mut g, key, def, diags);
        }
    }
    if let Some(policies) = topo_map.get("policies") {
        for (key, def, _) in named_items(policies) {
            policy(&mut g, key, def, diags);
        }
    }
    g
}

fn properties<'t>(g: &mut Graph<'t>, owner: Owner, props: &'t Node) -> Vec<usize> {
    let mut ids = Vec::new();
    for (key, value, index) in named_items(props) {
        let (value, own, default) = match (index, wrapper(value)) {
            (Some(_), Some(w)) => w,
            _ => (value, Vec::new(), false),
        };
        ids.push(g.properties.len());
        g.properties.push(Property {
            owner,
            name: key_text(key),
            index,
            key,
            value,
            own,
            default,
        });
    }
    ids
}

/// A list-form property value `{value, conditions?, default?}`: a map with a `value` and no
/// other keys than these three. Any other value is the property's value as written.
fn wrapper(value: &Node) -> Option<(&Node, Vec<&Node>, bool)> {
    let map = value.as_map()?;
    let inner = map.get("value")?;
    if !map.entries().iter().all(|e| {
        matches!(
            e.key.scalar_text(),
            Some("value" | "conditions" | "default")
        )
    }) {
        return None;
    }
    let default = matches!(
        map.get("default")
            .and_then(|d| d.as_scalar())
            .map(|s| s.core),
        Some(Core::Bool(true))
    );
    Some((inner, conditions(value), default))
}

fn relation<'t>(
    g: &mut Graph<'t>,
    root: &'t Node,
    source: usize,
    index: usize,
    item: &'t Node,
    diags: &mut Diagnostics,
) {
    let Some((name_key, value)) = item
        .as_map()
        .filter(|m| m.len() == 1)
        .and_then(|m| m.entries().first())
        .map(|e| (&e.key, &e.value))
    else {
        // Not a requirement assignment; the TOSCA front end reports its shape.
        return;
    };
    let name = key_text(name_key);
    let node_name = g.nodes[source].name;
    let (target_node, rel, own) = match value.as_map() {
        Some(map) => (map.get("node"), map.get("relationship"), conditions(value)),
        None => (Some(value), None, Vec::new()),
    };
    let target = target_node
        .and_then(Node::as_str)
        .and_then(|t| g.node_index.get(t).copied());
    let id = g.relations.len();
    let mut rtemplate = None;
    if let Some(rel) = rel {
        match rel.as_str() {
            Some(rt_name) => match g.rtemplate_index.get(rt_name).copied() {
                Some(rt) => {
                    if g.rtemplates[rt].used_by.is_some() {
                        diags.push(
                            err(
                                codes::VAR_STRUCTURE,
                                format!("Relation \"{rt_name}\" is used multiple times"),
                                rel.span,
                            )
                            .hint("Variability4TOSCA binds each relationship template to one requirement assignment; copy the template under a new name"),
                        );
                    } else {
                        g.rtemplates[rt].used_by = Some(id);
                        rtemplate = Some(rt);
                    }
                }
                None if is_relationship_type(rt_name, root) => {}
                None => diags.push(
                    err(
                        codes::VAR_UNKNOWN,
                        format!(
                            "Relationship \"{rt_name}\" of relation \"{name}\" of node \"{node_name}\" does not exist!"
                        ),
                        rel.span,
                    )
                    .hint("name a template of `relationship_templates`"),
                ),
            },
            None if rel.as_map().is_some() => diags.push(
                err(
                    codes::VAR_STRUCTURE,
                    format!("Relation \"{name}\" of node \"{node_name}\" contains a relationship template"),
                    rel.span,
                )
                .hint("define the relationship under `relationship_templates` and name it here"),
            ),
            None => {}
        }
    }
    g.relations.push(Relation {
        source,
        index,
        name,
        item,
        target,
        rtemplate,
        own,
        group_conds: Vec::new(),
    });
    g.nodes[source].relations.push(id);
}

/// Why a group member names nothing.
enum MemberError {
    /// Neither a string nor a pair.
    BadFormat,
    /// Names a node or relation that does not exist; the text says which.
    Unknown(String),
}

/// A group member: a node name, or `[node, requirement name or index]`.
fn member(g: &Graph<'_>, m: &Node) -> Result<Member, MemberError> {
    if let Some(name) = m.as_str() {
        return g
            .node_index
            .get(name)
            .map(|n| Member::Node(*n))
            .ok_or_else(|| MemberError::Unknown(format!("Node \"{name}\" not found")));
    }
    let Some([node, req]) = m.as_seq() else {
        return Err(MemberError::BadFormat);
    };
    let Some(node_name) = node.as_str() else {
        return Err(MemberError::BadFormat);
    };
    let n = g
        .node_index
        .get(node_name)
        .copied()
        .ok_or_else(|| MemberError::Unknown(format!("Node \"{node_name}\" not found")))?;
    find_relation(g, n, req)
        .map(Member::Relation)
        .map_err(MemberError::Unknown)
}

/// The relation `[node, req]` names: by requirement name (which must be unique on the node) or
/// by position (a non-negative integer).
pub fn find_relation(g: &Graph<'_>, n: usize, req: &Node) -> Result<usize, String> {
    let node = &g.nodes[n];
    let text = req.scalar_text().unwrap_or("");
    match req.as_scalar().map(|s| s.core) {
        Some(Core::Int(i)) => usize::try_from(i)
            .ok()
            .and_then(|i| node.relations.get(i).copied())
            .ok_or_else(|| format!("Relation \"{}.{i}\" not found", node.name)),
        Some(Core::Str) => relation_by_name(g, n, text),
        _ => Err(format!("Relation \"{}.{text}\" not found", node.name)),
    }
}

pub fn relation_by_name(g: &Graph<'_>, n: usize, name: &str) -> Result<usize, String> {
    let node = &g.nodes[n];
    let mut found = node
        .relations
        .iter()
        .filter(|r| g.relations[**r].name == name);
    match (found.next(), found.next()) {
        (Some(r), None) => Ok(*r),
        (Some(_), Some(_)) => Err(format!("Relation \"{}.{name}\" is ambiguous", node.name)),
        (None, _) => Err(format!("Relation \"{}.{name}\" not found", node.name)),
    }
}

fn group<'t>(g: &mut Graph<'t>, key: &'t Node, def: &'t Node, diags: &mut Diagnostics) {
    let name = key_text(key);
    let map = def.as_map();
    let variability = map
        .and_then(|m| m.get("type"))
        .and_then(Node::as_str)
        .is_some_and(|t| VARIABILITY_GROUP_TYPES.contains(&t));
    let id = g.groups.len();
    let own = conditions(def);
    let mut members = Vec::new();
    for m in map
        .and_then(|m| m.get("members"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        match member(g, m) {
            Ok(member) => members.push(member),
            Err(MemberError::BadFormat) => diags.push(
                err(
                    codes::VAR_STRUCTURE,
                    format!("Member of group \"{name}\" has bad format"),
                    m.span,
                )
                .hint("a member is a node name or `[node, requirement name or index]`"),
            ),
            Err(MemberError::Unknown(why)) => diags.push(
                err(
                    codes::VAR_UNKNOWN,
                    format!(
                        "Group member \"{}\" of group \"{name}\" does not exist",
                        member_text(m)
                    ),
                    m.span,
                )
                .hint(why),
            ),
        }
    }
    if variability {
        for member in &members {
            let conds = own.iter().map(|c| (*c, id));
            match member {
                Member::Node(n) => g.nodes[*n].group_conds.extend(conds),
                Member::Relation(r) => g.relations[*r].group_conds.extend(conds),
            }
        }
    }
    g.group_index.insert(name, id);
    g.groups.push(Group {
        name,
        key,
        variability,
        members,
        own,
    });
}

fn member_text(m: &Node) -> String {
    match m.as_seq() {
        Some(parts) => parts
            .iter()
            .map(|p| p.scalar_text().unwrap_or("?"))
            .collect::<Vec<_>>()
            .join("."),
        None => m.scalar_text().unwrap_or("?").to_string(),
    }
}

fn policy<'t>(g: &mut Graph<'t>, key: &'t Node, def: &'t Node, diags: &mut Diagnostics) {
    let name = key_text(key);
    let mut targets = Vec::new();
    for t in def
        .as_map()
        .and_then(|m| m.get("targets"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        let text = t.as_str().unwrap_or("");
        if let Some(n) = g.node_index.get(text) {
            targets.push(Target::Node(*n));
        } else if let Some(gr) = g.group_index.get(text) {
            targets.push(Target::Group(*gr));
        } else {
            diags.push(
                err(
                    codes::VAR_UNKNOWN,
                    format!(
                        "Policy target \"{}\" of policy \"{name}\" does not exist",
                        t.scalar_text().unwrap_or("?")
                    ),
                    t.span,
                )
                .hint("a policy target is the name of a node template or a group"),
            );
        }
    }
    g.policies.push(Policy {
        name,
        key,
        targets,
        own: conditions(def),
    });
}
