//! TOSCA Path (§10.3 TOSCA Path): the leading arguments of `$get_property`, `$get_attribute`,
//! `$get_artifact` and `$available_allocation`, followed through the resolved topology.
//!
//! ```text
//! <tosca_path>   ::= <node_name>, <idx>, <node_ctx> | SELF, <node_ctx>
//!                  | <relationship_name>, <rel_ctx> | SELF, <rel_ctx>
//! <node_ctx>     ::= RELATIONSHIP, <requirement>, <idx>, <rel_ctx>
//!                  | CAPABILITY, <capability>, RELATIONSHIP, <idx>, <rel_ctx>
//!                  | CAPABILITY, <capability> | ε
//! <rel_ctx>      ::= SOURCE, <node_ctx> | TARGET, <node_ctx>
//!                  | CAPABILITY, RELATIONSHIP, <idx>, <rel_ctx> | CAPABILITY | ε
//! <idx>          ::= <non-negative integer> | ALL | ε
//! ```
//!
//! The path is read greedily: it goes on while the next argument is a keyword that can follow
//! (the BNF's missing comma after `RELATIONSHIP` in `<rel_ctx>` is read as if it were there);
//! what remains is the property, attribute or artifact name and the keys inside it. The
//! keywords are reserved (T2-PATH-03): an integer right after a name is an index, and a
//! template named `SELF` cannot be reached. A missing index is 0; `ALL` gives every index, and
//! several `ALL`s flatten into one list (§10.3 TOSCA Path).
//!
//! Decisions where the spec is unclear:
//! - `CAPABILITY, RELATIONSHIP, <idx>` after a relationship leads to the relationships that
//!   target the same capability as the current one: the same step the node context takes
//!   from a capability (`CAPABILITY, <name>, RELATIONSHIP, <idx>`), which the BNF mirrors
//!   (§10.3 TOSCA Path describes it as "the relationships defined by the same requirement").
//! - `SELF` is the relationship in a relationship's properties and interfaces and in a
//!   requirement's node filter, the node everywhere else in a node template, and nothing in
//!   outputs, groups and policies (§10.3 TOSCA Path, §8.6 Node Filter Definition; T2-PATH-04).
//! - What the topology does not hold (a requirement left to the orchestrator, an index past
//!   the relationships made so far, a relationship template no requirement uses) is still
//!   followed by type, through the requirement's definition, so a name the types do not have
//!   is an error even there; its value is known only at deployment. A node index past a
//!   node's known `count` is an error.

use indexmap::IndexMap;
use std::collections::HashMap;

use crate::ir::{NodeId, RelationshipId, Topology, TypeNames, Value};
use crate::model::{Model, Named, TypeKind};
use crate::resolve::nodes::defs_complete;
use crate::resolve::types::{Ancestry, definitions};
use crate::yaml::Node as Yaml;
use definitions::{capability_names, capability_type, requirement_definition, requirement_names};

mod definitions;
mod mapped;

/// The reserved words of a TOSCA path.
pub const KEYWORDS: &[&str] = &[
    "SELF",
    "SOURCE",
    "TARGET",
    "RELATIONSHIP",
    "CAPABILITY",
    "ALL",
];

/// What `SELF` is where an expression is evaluated.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    /// Outputs, groups, policies: there is no `SELF`.
    Template,
    Node(NodeId),
    Relationship(RelationshipId),
    /// A relationship not in the topology, such as the one a requirement's node filter judges
    /// a candidate for.
    Open(Box<OpenRelationship>),
    /// A node outside the topology known only by its type chain (most specific first): the
    /// node a `select` template's `node_filter` judges, `SELF` there (§8.6 Node Filter Definition).
    Candidate(TypeNames),
}

/// Something a path leads to.
#[derive(Debug, Clone, PartialEq)]
pub enum Entity {
    Node(NodeId),
    /// A capability of a node, by name.
    Capability(NodeId, String),
    Relationship(RelationshipId),
    /// A relationship the topology does not hold.
    Open(Box<OpenRelationship>),
    /// A node or capability known only by its type chain (most specific first; empty when not
    /// even that is known).
    Typed(TypeKind, TypeNames),
}

/// A relationship known by what its requirement says rather than by the topology.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpenRelationship {
    pub source: Option<NodeId>,
    pub target: Option<NodeId>,
    /// The capability of the target it connects to, by name.
    pub capability: Option<String>,
    /// The relationship type chain.
    pub types: TypeNames,
    /// The type chain of the node it would target.
    pub target_types: TypeNames,
    /// The type chain of the capability it would target.
    pub capability_types: TypeNames,
    /// Its own property values, where known (those its requirement or template assigns).
    pub properties: IndexMap<String, Value>,
}

/// Where a path leads.
#[derive(Debug)]
pub struct Reached {
    pub entities: Vec<Entity>,
    /// `ALL` was used: the result is a list.
    pub many: bool,
    /// Every step was decided before deployment (no index that is a function, none past what
    /// the topology holds): the entities are the ones the path means.
    pub exact: bool,
    /// The index of the first argument after the path.
    pub end: usize,
}

/// A path that cannot lead anywhere: which argument, what is wrong, what would be right.
#[derive(Debug)]
pub struct PathError {
    pub arg: usize,
    pub message: String,
    pub hint: String,
}

fn error(arg: usize, message: impl Into<String>, hint: impl Into<String>) -> PathError {
    PathError {
        arg,
        message: message.into(),
        hint: hint.into(),
    }
}

/// An `<idx>`.
enum Index {
    /// Missing: 0.
    First,
    At(usize),
    All,
    /// A function known only at deployment (`$node_index`).
    Later,
}

/// The topology as paths see it, indexed once.
pub struct Graph<'t> {
    pub topology: &'t Topology,
    pub model: &'t Model,
    nodes: HashMap<&'t str, NodeId>,
    relationships: HashMap<&'t str, Vec<RelationshipId>>,
    /// The relationships that target each capability, in topology order.
    incoming: HashMap<(NodeId, &'t str), Vec<RelationshipId>>,
    templates: HashMap<&'t str, &'t Named>,
}

impl<'t> Graph<'t> {
    pub fn new(model: &'t Model, topology: &'t Topology) -> Self {
        let mut relationships: HashMap<&str, Vec<RelationshipId>> = HashMap::new();
        let mut incoming: HashMap<(NodeId, &str), Vec<RelationshipId>> = HashMap::new();
        for (i, r) in topology.relationships.iter().enumerate() {
            relationships
                .entry(&r.name)
                .or_default()
                .push(RelationshipId::from_index(i));
            if let Some(cap) = &r.capability {
                incoming
                    .entry((r.target, cap.as_str()))
                    .or_default()
                    .push(RelationshipId::from_index(i));
            }
        }
        Graph {
            topology,
            model,
            nodes: topology
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.name.as_str(), NodeId::from_index(i)))
                .collect(),
            relationships,
            incoming,
            templates: model
                .topology
                .iter()
                .flat_map(|t| &t.relationship_templates)
                .map(|r| (r.name.as_str(), r))
                .collect(),
        }
    }

    /// Follows the path at the start of `args` from `scope`.
    pub fn follow(
        &self,
        ancestry: &mut Ancestry,
        scope: &Scope,
        args: &[Value],
    ) -> Result<Reached, PathError> {
        let mut walk = Walk {
            graph: self,
            ancestry,
            args,
            at: 0,
            many: false,
            exact: true,
        };
        let mut current = walk.start(scope)?;
        while let Some(Value::String(token)) = args.get(walk.at) {
            let next = match kind_of(&current) {
                Some(TypeKind::Node) => walk.after_nodes(&current, token)?,
                Some(TypeKind::Relationship) => walk.after_relationships(&current, token)?,
                _ => None,
            };
            match next {
                Some(entities) => current = entities,
                None => break,
            }
        }
        Ok(Reached {
            entities: current,
            many: walk.many,
            exact: walk.exact,
            end: walk.at,
        })
    }

    /// The template names a path may start with, for suggestions.
    fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .nodes
            .keys()
            .chain(self.templates.keys())
            .copied()
            .collect();
        names.sort_unstable();
        names
    }
}

/// What kind of thing a step's entities are (all are of one kind).
fn kind_of(entities: &[Entity]) -> Option<TypeKind> {
    entities.first().map(|e| match e {
        Entity::Node(_) | Entity::Typed(TypeKind::Node, _) => TypeKind::Node,
        Entity::Relationship(_) | Entity::Open(_) => TypeKind::Relationship,
        _ => TypeKind::Capability,
    })
}

/// One walk along a path.
struct Walk<'g, 't, 'a> {
    graph: &'g Graph<'t>,
    ancestry: &'a mut Ancestry,
    args: &'a [Value],
    at: usize,
    many: bool,
    exact: bool,
}

impl<'t> Walk<'_, 't, '_> {
    fn model(&self) -> &'t Model {
        self.graph.model
    }

    fn start(&mut self, scope: &Scope) -> Result<Vec<Entity>, PathError> {
        let first = match self.args.first() {
            Some(Value::String(s)) => s.as_str(),
            Some(Value::Call(_)) => {
                return Err(error(
                    0,
                    "a TOSCA path cannot start with a function call",
                    "start it with SELF or the name of a node or relationship template (§10.3 TOSCA Path)",
                ));
            }
            _ => {
                return Err(error(
                    0,
                    "a TOSCA path starts with SELF or the name of a node or relationship template",
                    "e.g. `[ SELF, <property> ]` or `[ <node template>, <property> ]` (§10.3 TOSCA Path)",
                ));
            }
        };
        self.at = 1;
        if first == "SELF" {
            return match scope {
                Scope::Template => Err(error(
                    0,
                    "SELF means the node or relationship the function is written in, and here there is none",
                    "name the node or relationship template instead",
                )),
                Scope::Node(n) => Ok(vec![Entity::Node(*n)]),
                Scope::Relationship(r) => Ok(vec![Entity::Relationship(*r)]),
                Scope::Open(o) => Ok(vec![Entity::Open(o.clone())]),
                Scope::Candidate(types) => {
                    // Any node of the type: what the path reads is known at selection.
                    self.exact = false;
                    Ok(vec![Entity::Typed(TypeKind::Node, types.clone())])
                }
            };
        }
        if let Some(&node) = self.graph.nodes.get(first) {
            let count = match &self.graph.topology.nodes[node.index()].count {
                Value::Integer(c) => usize::try_from(*c).ok(),
                _ => None,
            };
            return Ok(match (self.index()?, count) {
                (Index::At(k), Some(c)) if k >= c => {
                    return Err(error(
                        1,
                        format!(
                            "node template `{first}` has count {c}, so it has no representation {k}"
                        ),
                        format!(
                            "an index of `{first}` is 0 to {}, or ALL",
                            c.saturating_sub(1)
                        ),
                    ));
                }
                (Index::All, Some(c)) => vec![Entity::Node(node); c],
                (Index::All | Index::Later, None) => {
                    self.exact = false;
                    vec![Entity::Node(node)]
                }
                _ => vec![Entity::Node(node)],
            });
        }
        if let Some(template) = self.graph.templates.get(first) {
            return Ok(
                match self.graph.relationships.get(first).map(Vec::as_slice) {
                    Some([one]) => vec![Entity::Relationship(*one)],
                    _ => {
                        // Used by no requirement, or by several: known by its type.
                        self.exact = false;
                        let types = template
                            .def
                            .as_map()
                            .and_then(|m| m.get("type"))
                            .and_then(Yaml::as_str)
                            .map(|t| self.chain(TypeKind::Relationship, t))
                            .unwrap_or_default();
                        vec![Entity::Open(Box::new(OpenRelationship {
                            types,
                            ..Default::default()
                        }))]
                    }
                },
            );
        }
        let hint = match first {
            "SOURCE" | "TARGET" => format!(
                "TOSCA 2.0 starts a path at the relationship: write `[ SELF, {first}, ... ]` (§10.3 TOSCA Path)"
            ),
            "HOST" => "TOSCA 2.0 has no HOST: follow the hosting requirement, e.g. `[ SELF, RELATIONSHIP, host, TARGET, ... ]`".to_string(),
            _ => String::new(),
        };
        let names = self.graph.names();
        let suggestion = crate::diag::closest(first, &names)
            .map(|c| format!("did you mean `{c}`?"))
            .unwrap_or_else(|| {
                "start the path with SELF or the name of a node or relationship template".into()
            });
        Err(error(
            0,
            format!("no node or relationship template is named `{first}`"),
            if hint.is_empty() { suggestion } else { hint },
        ))
    }

    /// An optional `<idx>` at the cursor.
    fn index(&mut self) -> Result<Index, PathError> {
        let index = match self.args.get(self.at) {
            Some(Value::Integer(k)) => match usize::try_from(*k) {
                Ok(k) => Index::At(k),
                Err(_) => {
                    return Err(error(
                        self.at,
                        format!("{k} is not an index: indices count from 0"),
                        "write a non-negative integer, ALL, or nothing (for 0)",
                    ));
                }
            },
            Some(Value::String(s)) if s == "ALL" => {
                self.many = true;
                Index::All
            }
            Some(Value::Call(_)) => {
                self.exact = false;
                Index::Later
            }
            Some(Value::Float(_) | Value::Boolean(_) | Value::Null) => {
                let shown = crate::ir::value_text(&self.args[self.at]);
                return Err(error(
                    self.at,
                    format!("`{shown}` is not an index"),
                    "an index is a non-negative integer or ALL",
                ));
            }
            _ => return Ok(Index::First),
        };
        self.at += 1;
        Ok(index)
    }

    /// After a capability: `RELATIONSHIP, <idx>` to the relationships that target it, if the
    /// path goes on that way.
    fn incoming_index(&mut self) -> Result<Option<Index>, PathError> {
        if self.args.get(self.at).and_then(Value::as_str) != Some("RELATIONSHIP") {
            return Ok(None);
        }
        self.at += 1;
        self.index().map(Some)
    }

    /// The name after a keyword (a requirement or capability).
    fn name(&mut self, after: &str, what: &str) -> Result<(String, usize), PathError> {
        match self.args.get(self.at) {
            Some(Value::String(s)) if !KEYWORDS.contains(&s.as_str()) => {
                self.at += 1;
                Ok((s.clone(), self.at - 1))
            }
            _ => Err(error(
                self.at.min(self.args.len().saturating_sub(1)),
                format!("{after} must be followed by the name of a {what}"),
                format!("write `{after}, <{what} name>`"),
            )),
        }
    }

    /// The ancestry of a type the graph already holds, whose name was reported where it was
    /// read.
    fn chain(&mut self, kind: TypeKind, name: &str) -> TypeNames {
        self.ancestry
            .of_reported_elsewhere(self.graph.model, kind, name, Default::default())
    }

    /// One step from nodes: `RELATIONSHIP` or `CAPABILITY`; `None` when the path ends.
    fn after_nodes(
        &mut self,
        nodes: &[Entity],
        token: &str,
    ) -> Result<Option<Vec<Entity>>, PathError> {
        match token {
            "RELATIONSHIP" => {
                self.at += 1;
                let (requirement, name_at) = self.name("RELATIONSHIP", "requirement")?;
                let index = self.index()?;
                let mut out = Vec::new();
                for node in nodes {
                    out.extend(self.outgoing(node, &requirement, name_at, &index)?);
                }
                Ok(Some(out))
            }
            "CAPABILITY" => {
                self.at += 1;
                let (capability, name_at) = self.name("CAPABILITY", "capability")?;
                let index = self.incoming_index()?;
                let mut out = Vec::new();
                for node in nodes {
                    let cap = self.capability(node, &capability, name_at)?;
                    match &index {
                        Some(index) => out.extend(self.incoming(cap, index)),
                        None => out.push(cap),
                    }
                }
                Ok(Some(out))
            }
            "SOURCE" | "TARGET" => Err(error(
                self.at,
                format!("{token} follows a relationship, and the path is at a node here"),
                "reach a relationship first: `RELATIONSHIP, <requirement>` (§10.3 TOSCA Path)",
            )),
            _ => Ok(None),
        }
    }

    /// One step from relationships: `SOURCE`, `TARGET` or `CAPABILITY`.
    fn after_relationships(
        &mut self,
        relationships: &[Entity],
        token: &str,
    ) -> Result<Option<Vec<Entity>>, PathError> {
        let topology = self.graph.topology;
        match token {
            "SOURCE" | "TARGET" => {
                self.at += 1;
                let source = token == "SOURCE";
                Ok(Some(
                    relationships
                        .iter()
                        .map(|r| match r {
                            Entity::Relationship(id) => {
                                let rel = &topology.relationships[id.index()];
                                Entity::Node(if source { rel.source } else { rel.target })
                            }
                            Entity::Open(open) => match (source, open.source, open.target) {
                                (true, Some(n), _) | (false, _, Some(n)) => Entity::Node(n),
                                (true, None, _) => {
                                    Entity::Typed(TypeKind::Node, TypeNames::default())
                                }
                                (false, _, None) => {
                                    Entity::Typed(TypeKind::Node, open.target_types.clone())
                                }
                            },
                            other => other.clone(),
                        })
                        .collect(),
                ))
            }
            "CAPABILITY" => {
                self.at += 1;
                let index = self.incoming_index()?;
                let mut out = Vec::new();
                for r in relationships {
                    let cap = match r {
                        Entity::Relationship(id) => {
                            let rel = &topology.relationships[id.index()];
                            match &rel.capability {
                                Some(c) => Entity::Capability(rel.target, c.clone()),
                                None => Entity::Typed(TypeKind::Capability, TypeNames::default()),
                            }
                        }
                        Entity::Open(open) => match (open.target, &open.capability) {
                            (Some(t), Some(c)) => Entity::Capability(t, c.clone()),
                            _ => Entity::Typed(TypeKind::Capability, open.capability_types.clone()),
                        },
                        other => other.clone(),
                    };
                    match &index {
                        Some(index) => out.extend(self.incoming(cap, index)),
                        None => out.push(cap),
                    }
                }
                Ok(Some(out))
            }
            "RELATIONSHIP" => Err(error(
                self.at,
                "RELATIONSHIP follows a node, and the path is at a relationship here",
                "go to a node first: `SOURCE` or `TARGET` (§10.3 TOSCA Path)",
            )),
            _ => Ok(None),
        }
    }

    /// The relationships of requirement `name` of a node.
    fn outgoing(
        &mut self,
        node: &Entity,
        name: &str,
        name_at: usize,
        index: &Index,
    ) -> Result<Vec<Entity>, PathError> {
        let (source, types) = match node {
            Entity::Node(n) => (Some(*n), self.graph.topology.nodes[n.index()].types.clone()),
            Entity::Typed(_, types) => (None, types.clone()),
            _ => return Ok(Vec::new()),
        };
        let definition = requirement_definition(self.model(), &types, name);
        let assigned: Vec<&crate::ir::Requirement> = source
            .map(|n| {
                self.graph.topology.nodes[n.index()]
                    .requirements
                    .iter()
                    .filter(|r| r.name == name)
                    .collect()
            })
            .unwrap_or_default();
        if definition.is_none() && assigned.is_empty() {
            let defs = definitions(self.model(), TypeKind::Node, &types);
            if !types.is_empty() && defs_complete(self.model(), &defs) {
                let known = requirement_names(self.model(), &types);
                let owner = describe_node(self.graph, node, &types);
                return Err(error(
                    name_at,
                    format!("{owner} has no requirement `{name}`"),
                    suggest(name, &known, "requirement"),
                ));
            }
        }
        let open = |walk: &mut Self, assigned_node: Option<&str>| {
            let (relationship, node_type, capability_type) = definition.unwrap_or_default();
            let target_type = assigned_node.or(node_type);
            Entity::Open(Box::new(OpenRelationship {
                source,
                target: None,
                capability: None,
                types: relationship
                    .map(|t| walk.chain(TypeKind::Relationship, t))
                    .unwrap_or_default(),
                target_types: target_type
                    .map(|t| walk.chain(TypeKind::Node, t))
                    .unwrap_or_default(),
                capability_types: capability_type
                    .map(|t| walk.chain(TypeKind::Capability, t))
                    .unwrap_or_default(),
                properties: IndexMap::new(),
            }))
        };
        let each: Vec<Entity> = assigned
            .iter()
            .map(|r| match r.relationship {
                Some(id) => Entity::Relationship(id),
                None => {
                    // Dangling, for the orchestrator; a node template it names would be a link.
                    let node_type = r
                        .node
                        .as_deref()
                        .filter(|t| !self.graph.nodes.contains_key(t));
                    open(self, node_type)
                }
            })
            .collect();
        Ok(match index {
            Index::All => self.all(each, source, name),
            Index::First if !each.is_empty() => vec![each[0].clone()],
            Index::At(k) if *k < each.len() => vec![each[*k].clone()],
            _ => {
                // Past what the topology holds (the orchestrator may create more), or not known.
                self.exact = false;
                vec![open(self, None)]
            }
        })
    }

    /// Capability `name` of a node.
    fn capability(
        &mut self,
        node: &Entity,
        name: &str,
        name_at: usize,
    ) -> Result<Entity, PathError> {
        match node {
            Entity::Node(n) => {
                let ir = &self.graph.topology.nodes[n.index()];
                if ir.capabilities.contains_key(name) {
                    return Ok(Entity::Capability(*n, name.to_string()));
                }
                let defs = definitions(self.model(), TypeKind::Node, &ir.types);
                if defs_complete(self.model(), &defs) {
                    let known: Vec<&str> = ir.capabilities.keys().map(String::as_str).collect();
                    return Err(error(
                        name_at,
                        format!(
                            "node template `{}` ({}) has no capability `{name}`",
                            ir.name, ir.type_name
                        ),
                        suggest(name, &known, "capability"),
                    ));
                }
                self.exact = false;
                Ok(Entity::Typed(TypeKind::Capability, TypeNames::default()))
            }
            Entity::Typed(_, types) => {
                let types = types.clone();
                match capability_type(self.model(), &types, name) {
                    Some(Some(t)) => Ok(Entity::Typed(
                        TypeKind::Capability,
                        self.chain(TypeKind::Capability, t),
                    )),
                    Some(None) => Ok(Entity::Typed(TypeKind::Capability, TypeNames::default())),
                    None => {
                        let defs = definitions(self.model(), TypeKind::Node, &types);
                        if !types.is_empty() && defs_complete(self.model(), &defs) {
                            let known = capability_names(self.model(), &types);
                            return Err(error(
                                name_at,
                                format!("node type `{}` has no capability `{name}`", types[0]),
                                suggest(name, &known, "capability"),
                            ));
                        }
                        Ok(Entity::Typed(TypeKind::Capability, TypeNames::default()))
                    }
                }
            }
            other => Ok(other.clone()),
        }
    }

    /// The relationships that target a capability.
    fn incoming(&mut self, capability: Entity, index: &Index) -> Vec<Entity> {
        let Entity::Capability(node, name) = &capability else {
            self.exact = false;
            return vec![Entity::Open(Box::default())];
        };
        let all: Vec<Entity> = self
            .graph
            .incoming
            .get(&(*node, name.as_str()))
            .map(|ids| ids.iter().map(|id| Entity::Relationship(*id)).collect())
            .unwrap_or_default();
        match index {
            Index::All => all,
            Index::First if !all.is_empty() => vec![all[0].clone()],
            Index::At(k) if *k < all.len() => vec![all[*k].clone()],
            _ => {
                self.exact = false;
                vec![Entity::Open(Box::new(OpenRelationship {
                    target: Some(*node),
                    capability: Some(name.clone()),
                    ..Default::default()
                }))]
            }
        }
    }
}

/// "node template `x` (Type)" or "node type `Type`".
fn describe_node(graph: &Graph, node: &Entity, types: &[String]) -> String {
    match node {
        Entity::Node(n) => {
            let ir = &graph.topology.nodes[n.index()];
            format!("node template `{}` ({})", ir.name, ir.type_name)
        }
        _ => format!("node type `{}`", types.first().map_or("?", String::as_str)),
    }
}

fn suggest(name: &str, known: &[&str], what: &str) -> String {
    match crate::diag::closest(name, known) {
        Some(c) => format!("did you mean `{c}`?"),
        None if known.is_empty() => format!("it defines no {what}"),
        None => format!("its {what} names are: {}", known.join(", ")),
    }
}
