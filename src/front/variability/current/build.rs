//! Populates the [`Model`] from a variable topology template in the current language: every
//! collection in its map or list form (§ Element Collections), every short form spelled out
//! (a requirement `host: vm`, an artifact given as a file, a technology given by name), and
//! the structural mistakes reported with the reference resolver's texts, all of them at once.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;
use crate::yaml::{Core, Node};

use super::model::{Data, Element, Id, Implied, Kind, Model, NodeData, RelationshipTemplate};

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

pub use crate::front::variability::graph::conditions;

pub(super) fn text(node: &Node) -> String {
    node.scalar_text().unwrap_or_default().to_string()
}

pub(super) fn error(code: &'static str, message: String, span: Span) -> Diagnostic {
    Diagnostic::error(code, message).at(span)
}

pub(super) struct Builder<'t, 'd> {
    pub(super) model: Model<'t>,
    pub(super) diags: &'d mut Diagnostics,
    pub(super) relationship_defaults_implied: bool,
}

/// A fresh element of `kind`, its conditions and flags read from `def`.
pub(super) fn element<'t>(
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
    /// At most one default alternative among `list` ("... has multiple defaults").
    pub(super) fn single_default(&mut self, list: &[Id], what: Option<String>) {
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
    pub(super) fn types(&mut self, container: Id, def: &'t Node, _kind: &str) {
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
}

pub fn number(node: &Node) -> Option<f64> {
    match node.as_scalar().map(|s| s.core) {
        Some(Core::Int(i)) => Some(i as f64),
        Some(Core::Float(f)) => Some(f),
        _ => None,
    }
}
