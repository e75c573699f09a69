//! Populates the [`Model`] from a variable topology template in the current language: every
//! collection in its map or list form (§ Element Collections), every short form spelled out
//! (a requirement `host: vm`, an artifact given as a file, a technology given by name), and
//! the structural mistakes reported with the reference resolver's texts, all of them at once.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;
use crate::yaml::{Core, Node};

use super::model::{
    Data, Element, Id, Implied, Kind, Model, NodeData, PropertyData, RelationData,
    RelationshipTemplate, TechnologyData,
};

/// The artifact type of an artifact that names none (§ Artifact Template).
pub const DEFAULT_ARTIFACT_TYPE: &str = "tosca.artifacts.File";

/// The group types whose conditions belong to their members (§ Group Template).
pub const VARIABILITY_GROUP_TYPES: &[&str] = &[
    "variability.groups.Root",
    "variability.groups.ConditionalMembers",
];

/// The entries of a map, or of a list of single-entry maps, each with its position.
pub fn entries(node: &Node) -> Vec<(&Node, &Node, usize)> {
    match (node.as_map(), node.as_seq()) {
        (Some(map), _) => map
            .entries()
            .iter()
            .enumerate()
            .map(|(i, e)| (&e.key, &e.value, i))
            .collect(),
        (_, Some(list)) => list
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let map = item.as_map().filter(|m| m.len() == 1)?;
                let e = map.entries().first()?;
                Some((&e.key, &e.value, i))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `conditions`: one condition, or a list meaning all of them.
pub fn conditions(def: &Node) -> Vec<&Node> {
    match def.as_map().and_then(|m| m.get("conditions")) {
        None => Vec::new(),
        Some(c) => match c.as_seq() {
            Some(list) => list.iter().collect(),
            None => vec![c],
        },
    }
}

fn text(node: &Node) -> String {
    node.scalar_text().unwrap_or_default().to_string()
}

fn error(code: &'static str, message: String, span: Span) -> Diagnostic {
    Diagnostic::error(code, message).at(span)
}

struct Builder<'t, 'd> {
    model: Model<'t>,
    diags: &'d mut Diagnostics,
    relationship_defaults_implied: bool,
}

/// A fresh element of `kind`, its conditions and flags read from `def`.
fn element<'t>(
    kind: Kind,
    name: String,
    index: Option<usize>,
    container: Option<Id>,
    def: Option<&'t Node>,
    span: Span,
    data: Data<'t>,
) -> Element<'t> {
    let map = def.and_then(Node::as_map);
    let alternative = map.and_then(|m| m.get("default_alternative"));
    let default_alternative = alternative.and_then(super::options::bool_of) == Some(true);
    Element {
        kind,
        name,
        index,
        container,
        def: def.filter(|d| d.as_map().is_some()),
        span,
        written: def.map(conditions).unwrap_or_default(),
        made: Vec::new(),
        default_alternative,
        alternative_written: alternative.is_some(),
        implied: Implied::No,
        types: Vec::new(),
        properties: Vec::new(),
        data,
    }
}

/// Builds the model of `topo` (of the document `root`). Structural errors go into `diags`.
pub fn build<'t>(
    root: &'t Node,
    topo: Option<&'t Node>,
    relation_default_implied: bool,
    diags: &mut Diagnostics,
) -> Model<'t> {
    let mut b = Builder {
        model: Model {
            root: Some(root),
            ..Model::default()
        },
        diags,
        relationship_defaults_implied: relation_default_implied,
    };
    let topo_map = topo.and_then(Node::as_map);
    if let Some(rts) = topo_map
        .and_then(|m| m.get("relationship_templates"))
        .and_then(Node::as_map)
    {
        for e in rts.entries() {
            b.model.relationships.insert(
                text(&e.key),
                RelationshipTemplate {
                    key: &e.key,
                    def: &e.value,
                    used_by: None,
                },
            );
        }
    }
    if let Some(inputs) = topo_map.and_then(|m| m.get("inputs")) {
        b.inputs(inputs, Kind::Input);
    }
    if let Some(outputs) = topo_map.and_then(|m| m.get("outputs")) {
        b.inputs(outputs, Kind::Output);
    }
    if let Some(nodes) = topo_map.and_then(|m| m.get("node_templates")) {
        b.nodes(nodes);
    }
    if let Some(groups) = topo_map.and_then(|m| m.get("groups")) {
        b.groups(groups);
    }
    if let Some(policies) = topo_map.and_then(|m| m.get("policies")) {
        b.policies(policies);
    }
    if let Some(imports) = root.as_map().and_then(|m| m.get("imports")) {
        b.imports(imports);
    }
    super::links::consumers(&mut b.model, b.diags);
    b.model
}

impl<'t> Builder<'t, '_> {
    fn inputs(&mut self, node: &'t Node, kind: Kind) {
        for (key, def, index) in entries(node) {
            let name = text(key);
            let data = match kind {
                Kind::Input => Data::Input {
                    consumers: Vec::new(),
                },
                _ => Data::Output {
                    producers: Vec::new(),
                },
            };
            let id = self.model.push(element(
                kind,
                name.clone(),
                Some(index),
                None,
                Some(def),
                key.span,
                data,
            ));
            let by_name = match kind {
                Kind::Input => &mut self.model.inputs,
                _ => &mut self.model.outputs,
            };
            by_name.entry(name).or_default().push(id);
        }
        let groups: Vec<Vec<Id>> = match kind {
            Kind::Input => self.model.inputs.values().cloned().collect(),
            _ => self.model.outputs.values().cloned().collect(),
        };
        for list in groups {
            self.single_default(&list, None);
        }
    }

    /// At most one default alternative among `list` ("... has multiple defaults").
    fn single_default(&mut self, list: &[Id], what: Option<String>) {
        let defaults: Vec<Id> = list
            .iter()
            .copied()
            .filter(|i| self.model.get(*i).default_alternative)
            .collect();
        if defaults.len() > 1 {
            let message = what.unwrap_or_else(|| {
                format!(
                    "{} has multiple defaults",
                    self.model.display_upper(list[0])
                )
            });
            self.diags.push(
                error(
                    codes::VAR_INCONSISTENT,
                    message,
                    self.model.get(defaults[1]).span,
                )
                .label(self.model.get(defaults[0]).span, "the first default")
                .hint("keep `default_alternative: true` on one of them"),
            );
        }
    }

    fn nodes(&mut self, nodes: &'t Node) {
        for (key, def, _) in entries(nodes) {
            let name = text(key);
            if self.model.nodes.contains_key(&name) {
                self.diags.push(error(
                    codes::VAR_STRUCTURE,
                    format!("Node \"{name}\" defined multiple times"),
                    key.span,
                ));
                continue;
            }
            if name == "SELF" || name == "CONTAINER" {
                self.diags.push(
                    error(
                        codes::VAR_STRUCTURE,
                        format!("Node must not be named \"{name}\""),
                        key.span,
                    )
                    .hint(
                        "SELF and CONTAINER are selectors of conditions; rename the node template",
                    ),
                );
                continue;
            }
            let weight = self.weight(def, &name);
            let anchor = def
                .as_map()
                .and_then(|m| m.get("anchor").or_else(|| m.get("persistent")))
                .and_then(super::options::bool_of)
                == Some(true);
            let data = NodeData {
                weight,
                anchor,
                technology_written: def.as_map().is_some_and(|m| m.contains_key("technology")),
                ..NodeData::default()
            };
            let mut e = element(
                Kind::Node,
                name.clone(),
                None,
                None,
                Some(def),
                key.span,
                Data::Node(data),
            );
            if e.flag("implied") == Some(true) {
                e.implied = Implied::Container;
            }
            let id = self.model.push(e);
            self.model.nodes.insert(name, id);
            self.types(id, def, "node");
            self.properties(id, def);
            self.relations(id, def);
            self.artifacts(id, def);
            self.technologies(id, def);
        }
        for (name, rt) in &self.model.relationships {
            if rt.used_by.is_none() {
                self.diags.push(
                    error(
                        codes::VAR_STRUCTURE,
                        format!("Relation \"{name}\" is never used"),
                        rt.key.span,
                    )
                    .hint(
                        "name it in the `relationship` of one requirement assignment, or remove it",
                    ),
                );
            }
        }
        self.targets();
    }

    fn weight(&mut self, def: &Node, name: &str) -> f64 {
        let Some(w) = def.as_map().and_then(|m| m.get("weight")) else {
            return 1.0;
        };
        match w.as_scalar().map(|s| s.core) {
            Some(Core::Bool(b)) => f64::from(u8::from(b)),
            Some(Core::Int(i)) if (0..=1).contains(&i) => i as f64,
            Some(Core::Float(f)) if (0.0..=1.0).contains(&f) => f,
            _ => {
                self.diags.push(
                    error(
                        codes::VAR_STRUCTURE,
                        format!(
                            "Weight \"{}\" of node \"{name}\" is not a number between 0 and 1 or a boolean",
                            w.scalar_text().unwrap_or("?")
                        ),
                        w.span,
                    )
                    .hint("a weight is a number from 0 to 1 (or true for 1, false for 0)"),
                );
                1.0
            }
        }
    }

    /// § Type Assignment: `type` as a name, or a list of conditional type assignments.
    fn types(&mut self, container: Id, def: &'t Node, _kind: &str) {
        let Some(t) = def.as_map().and_then(|m| m.get("type")) else {
            return;
        };
        let mut ids = Vec::new();
        if t.as_seq().is_some() {
            for (key, assignment, index) in entries(t) {
                let e = element(
                    Kind::Type,
                    text(key),
                    Some(index),
                    Some(container),
                    Some(assignment),
                    key.span,
                    Data::Type,
                );
                ids.push(self.model.push(e));
            }
        } else if let Some(name) = t.scalar_text() {
            let e = element(
                Kind::Type,
                name.to_string(),
                Some(0),
                Some(container),
                None,
                t.span,
                Data::Type,
            );
            ids.push(self.model.push(e));
        }
        self.model.elements[container].types = ids.clone();
        let message = format!(
            "{} has multiple default types",
            self.model.display_upper(container)
        );
        self.single_default(&ids, Some(message));
    }

    /// § Property Assignment: a map of values, or a list whose wrapped entries carry
    /// conditions.
    fn properties(&mut self, container: Id, def: &'t Node) {
        let Some(props) = def.as_map().and_then(|m| m.get("properties")) else {
            return;
        };
        let list_form = props.as_seq().is_some();
        let mut ids = Vec::new();
        for (key, value, index) in entries(props) {
            let wrapped = list_form
                && value
                    .as_map()
                    .is_some_and(|m| m.contains_key("value") || m.contains_key("expression"));
            let (data, def) = if wrapped {
                let m = value.as_map();
                (
                    PropertyData {
                        value: m.and_then(|m| m.get("value")),
                        expression: m.and_then(|m| m.get("expression")),
                        consuming: Vec::new(),
                    },
                    Some(value),
                )
            } else {
                (
                    PropertyData {
                        value: Some(value),
                        ..PropertyData::default()
                    },
                    None,
                )
            };
            let e = element(
                Kind::Property,
                text(key),
                Some(index),
                Some(container),
                def,
                key.span,
                Data::Property(data),
            );
            ids.push(self.model.push(e));
        }
        self.model.elements[container].properties = ids.clone();
        let mut by_name: indexmap::IndexMap<String, Vec<Id>> = indexmap::IndexMap::new();
        for id in &ids {
            by_name
                .entry(self.model.get(*id).name.clone())
                .or_default()
                .push(*id);
        }
        for list in by_name.values() {
            self.single_default(list, None);
        }
    }

    fn relations(&mut self, source: Id, def: &'t Node) {
        let Some(reqs) = def.as_map().and_then(|m| m.get("requirements")) else {
            return;
        };
        let Some(list) = reqs.as_seq() else {
            return;
        };
        let node_name = self.model.get(source).name.clone();
        let mut by_name: indexmap::IndexMap<String, Vec<Id>> = indexmap::IndexMap::new();
        for (index, item) in list.iter().enumerate() {
            let Some(entry) = item
                .as_map()
                .filter(|m| m.len() == 1)
                .and_then(|m| m.entries().first())
            else {
                continue;
            };
            let name = text(&entry.key);
            let assignment = &entry.value;
            let relationship = assignment.as_map().and_then(|m| m.get("relationship"));
            if relationship.is_some_and(|r| r.as_map().is_some()) {
                self.diags.push(
                    error(
                        codes::VAR_STRUCTURE,
                        format!("Relation \"{name}\" of \"node \"{node_name}\"\" contains a relationship template which is currently not supported"),
                        entry.key.span,
                    )
                    .hint("define the relationship under `relationship_templates` and name it here"),
                );
            }
            let data = RelationData {
                source,
                target: source,
                relationship: None,
                groups: Vec::new(),
            };
            let mut e = element(
                Kind::Relation,
                name.clone(),
                Some(index),
                Some(source),
                assignment.as_map().map(|_| assignment),
                entry.key.span,
                Data::Relation(data),
            );
            e.implied = match e.keyname("implied") {
                Some(v) => match (super::options::bool_of(v), v.as_str()) {
                    (Some(true), _) | (_, Some("SOURCE" | "CONTAINER")) => Implied::Container,
                    (_, Some("TARGET")) => Implied::Target,
                    _ => Implied::No,
                },
                None if self.relationship_defaults_implied => Implied::Container,
                None => Implied::No,
            };
            let id = self.model.push(e);
            by_name.entry(name.clone()).or_default().push(id);
            if let Data::Node(n) = &mut self.model.elements[source].data {
                n.outgoing.push(id);
            }
            if let Some(rt) = relationship.and_then(Node::as_str) {
                self.relationship(
                    id,
                    rt,
                    relationship.map_or(entry.key.span, |r| r.span),
                    &name,
                    &node_name,
                );
            }
        }
        for list in by_name.values() {
            self.single_default(list, None);
        }
    }

    fn relationship(&mut self, relation: Id, rt: &str, span: Span, name: &str, node: &str) {
        let Some(template) = self.model.relationships.get_mut(rt) else {
            self.diags.push(
                error(
                    codes::VAR_UNKNOWN,
                    format!("Relationship \"{rt}\" of relation \"{name}\" of node \"{node}\" does not exist!"),
                    span,
                )
                .hint("name a template of `relationship_templates`"),
            );
            return;
        };
        if template.used_by.is_some() {
            self.diags.push(
                error(
                    codes::VAR_STRUCTURE,
                    format!("Relation \"{rt}\" is used multiple times"),
                    span,
                )
                .hint("Variability4TOSCA binds each relationship template to one requirement assignment; copy the template under a new name"),
            );
            return;
        }
        template.used_by = Some(relation);
        let def = template.def;
        if let Data::Relation(r) = &mut self.model.elements[relation].data {
            r.relationship = Some(rt.to_string());
        }
        self.types(relation, def, "relation");
        self.properties(relation, def);
    }

    /// Every relation's target, and the targets' incoming relations.
    fn targets(&mut self) {
        let relations: Vec<Id> = self.model.of(Kind::Relation).collect();
        for r in relations {
            let e = self.model.get(r);
            let target = match e.def {
                Some(def) => def.as_map().and_then(|m| m.get("node")),
                None => self.model.get(e.container.unwrap_or(r)).def.and_then(|d| {
                    d.as_map()?
                        .get("requirements")?
                        .as_seq()?
                        .get(e.index.unwrap_or(0))?
                        .as_map()?
                        .entries()
                        .first()
                        .map(|entry| &entry.value)
                }),
            };
            let name = target.and_then(Node::scalar_text).unwrap_or_default();
            match self.model.nodes.get(name).copied() {
                Some(t) => {
                    if let Data::Relation(rd) = &mut self.model.elements[r].data {
                        rd.target = t;
                    }
                    if let Data::Node(n) = &mut self.model.elements[t].data {
                        n.ingoing.push(r);
                    }
                }
                None => {
                    let message = format!(
                        "Target \"{name}\" of {} does not exist",
                        self.model.display(r)
                    );
                    let span = target.map_or(self.model.get(r).span, |t| t.span);
                    self.diags.push(
                        error(codes::VAR_UNKNOWN, message, span)
                            .hint("in a variable template every requirement assignment names the node template it targets"),
                    );
                }
            }
        }
    }

    fn artifacts(&mut self, node: Id, def: &'t Node) {
        let Some(arts) = def.as_map().and_then(|m| m.get("artifacts")) else {
            return;
        };
        let mut by_name: indexmap::IndexMap<String, Vec<Id>> = indexmap::IndexMap::new();
        for (key, value, index) in entries(arts) {
            let name = text(key);
            let e = element(
                Kind::Artifact,
                name.clone(),
                Some(index),
                Some(node),
                Some(value),
                key.span,
                Data::Artifact,
            );
            let id = self.model.push(e);
            if value.as_map().is_some_and(|m| m.contains_key("type")) {
                self.types(id, value, "artifact");
            } else {
                let t = element(
                    Kind::Type,
                    DEFAULT_ARTIFACT_TYPE.to_string(),
                    Some(0),
                    Some(id),
                    None,
                    key.span,
                    Data::Type,
                );
                let t = self.model.push(t);
                self.model.elements[id].types = vec![t];
            }
            if value.as_map().is_some() {
                self.properties(id, value);
            }
            by_name.entry(name).or_default().push(id);
            if let Data::Node(n) = &mut self.model.elements[node].data {
                n.artifacts.push(id);
            }
        }
        for list in by_name.values() {
            self.single_default(list, None);
        }
    }

    /// § Technology Template: `technology` as a name, or a list of conditional assignments.
    fn technologies(&mut self, node: Id, def: &'t Node) {
        let Some(t) = def.as_map().and_then(|m| m.get("technology")) else {
            return;
        };
        let type_name = self
            .model
            .get(node)
            .types
            .first()
            .map(|t| self.model.get(*t).name.clone())
            .unwrap_or_default();
        let items: Vec<(String, Option<&'t Node>, usize, Span)> = match t.scalar_text() {
            Some(name) if t.as_seq().is_none() => vec![(name.to_string(), None, 0, t.span)],
            _ => entries(t)
                .into_iter()
                .map(|(k, v, i)| (text(k), v.as_map().map(|_| v), i, k.span))
                .collect(),
        };
        let mut ids = Vec::new();
        for (name, def, index, span) in items {
            let name = name.to_lowercase();
            let map = def.and_then(Node::as_map);
            let weight = map
                .and_then(|m| m.get("weight"))
                .and_then(|w| number(w))
                .unwrap_or(1.0);
            let assign = map
                .and_then(|m| m.get("assign"))
                .and_then(Node::scalar_text)
                .map(str::to_string)
                .unwrap_or_else(|| {
                    let artifact = map
                        .and_then(|m| m.get("artifact"))
                        .and_then(Node::scalar_text);
                    super::technologies::implementation_name(
                        &type_name,
                        &type_name,
                        &name,
                        artifact,
                        &[],
                    )
                });
            let e = element(
                Kind::Technology,
                name,
                Some(index),
                Some(node),
                def,
                span,
                Data::Technology(TechnologyData {
                    weight,
                    assign,
                    prio: 0.0,
                    scenario: Vec::new(),
                }),
            );
            ids.push(self.model.push(e));
        }
        if let Data::Node(n) = &mut self.model.elements[node].data {
            n.technologies = ids.clone();
        }
        let message = format!(
            "{} has multiple default technologies",
            self.model.display_upper(node)
        );
        self.single_default(&ids, Some(message));
    }

    fn groups(&mut self, groups: &'t Node) {
        for (key, def, _) in entries(groups) {
            let name = text(key);
            if self.model.groups.contains_key(&name) {
                self.diags.push(error(
                    codes::VAR_STRUCTURE,
                    format!("Group \"{name}\" defined multiple times"),
                    key.span,
                ));
                continue;
            }
            let map = def.as_map();
            let type_name = map
                .and_then(|m| m.get("type"))
                .and_then(|t| match t.as_seq() {
                    Some(list) => list
                        .first()
                        .and_then(Node::as_map)
                        .and_then(|m| m.entries().first())
                        .and_then(|e| e.key.scalar_text()),
                    None => t.scalar_text(),
                });
            let variability = type_name.is_some_and(|t| VARIABILITY_GROUP_TYPES.contains(&t));
            let id = self.model.push(element(
                Kind::Group,
                name.clone(),
                None,
                None,
                Some(def),
                key.span,
                Data::Group {
                    members: Vec::new(),
                    variability,
                },
            ));
            self.model.groups.insert(name.clone(), id);
            let mut members = Vec::new();
            for m in map
                .and_then(|m| m.get("members"))
                .and_then(Node::as_seq)
                .unwrap_or_default()
            {
                match super::links::member(&self.model, m) {
                    Ok(member) => members.push(member),
                    Err(why) => self.diags.push(
                        error(
                            codes::VAR_UNKNOWN,
                            format!("Member of group \"{name}\" does not exist: {why}"),
                            m.span,
                        )
                        .hint("a member is a node name or `[node, requirement name or index]`"),
                    ),
                }
            }
            for m in &members {
                match &mut self.model.elements[*m].data {
                    Data::Node(n) => n.groups.push(id),
                    Data::Relation(r) => r.groups.push(id),
                    _ => {}
                }
            }
            if let Data::Group { members: ms, .. } = &mut self.model.elements[id].data {
                *ms = members;
            }
            self.types(id, def, "group");
            self.properties(id, def);
        }
    }

    fn policies(&mut self, policies: &'t Node) {
        for (key, def, index) in entries(policies) {
            let name = text(key);
            let id = self.model.push(element(
                Kind::Policy,
                name.clone(),
                Some(index),
                None,
                Some(def),
                key.span,
                Data::Policy {
                    targets: Vec::new(),
                },
            ));
            self.model
                .policies
                .entry(name.clone())
                .or_default()
                .push(id);
            let mut targets = Vec::new();
            for t in def
                .as_map()
                .and_then(|m| m.get("targets"))
                .and_then(Node::as_seq)
                .unwrap_or_default()
            {
                let target = t.scalar_text().unwrap_or_default();
                match (self.model.nodes.get(target), self.model.groups.get(target)) {
                    (Some(n), _) => targets.push(*n),
                    (None, Some(g)) => targets.push(*g),
                    _ => {
                        let message = format!(
                            "Policy target \"{target}\" of {} does not exist",
                            self.model.display(id)
                        );
                        self.diags.push(
                            error(codes::VAR_UNKNOWN, message, t.span)
                                .hint("a policy target is the name of a node template or a group"),
                        );
                    }
                }
            }
            if let Data::Policy { targets: ts } = &mut self.model.elements[id].data {
                *ts = targets;
            }
            self.types(id, def, "policy");
            self.properties(id, def);
        }
    }

    fn imports(&mut self, imports: &'t Node) {
        for (index, item) in imports.as_seq().unwrap_or_default().iter().enumerate() {
            let name = match (item.scalar_text(), item.as_map()) {
                (Some(file), _) => file.to_string(),
                (_, Some(m)) => m
                    .get("file")
                    .and_then(Node::scalar_text)
                    .unwrap_or_default()
                    .to_string(),
                _ => String::new(),
            };
            self.model.push(element(
                Kind::Import,
                name,
                Some(index),
                None,
                Some(item),
                item.span,
                Data::Import,
            ));
        }
    }
}

pub fn number(node: &Node) -> Option<f64> {
    match node.as_scalar().map(|s| s.core) {
        Some(Core::Int(i)) => Some(i as f64),
        Some(Core::Float(f)) => Some(f),
        _ => None,
    }
}
