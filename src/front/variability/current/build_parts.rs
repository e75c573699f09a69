//! The parts of node templates in the current language: properties (§ Property Assignment),
//! requirement assignments and their relationship templates (§ Requirement Assignment,
//! § Relationship Templates), artifacts (§ Artifact Template) and technologies (§ Technology
//! Template), each in its map or list form.

use crate::diag::codes;
use crate::source::Span;
use crate::yaml::Node;

use super::build::{Builder, DEFAULT_ARTIFACT_TYPE, element, entries, error, number, text};
use super::model::{Data, Id, Implied, Kind, PropertyData, RelationData, TechnologyData};

impl<'t> Builder<'t, '_> {
    /// § Property Assignment: a map of values, or a list whose wrapped entries carry
    /// conditions.
    pub(super) fn properties(&mut self, container: Id, def: &'t Node) {
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

    pub(super) fn relations(&mut self, source: Id, def: &'t Node) {
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

    pub(super) fn relationship(
        &mut self,
        relation: Id,
        rt: &str,
        span: Span,
        name: &str,
        node: &str,
    ) {
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
    pub(super) fn targets(&mut self) {
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

    pub(super) fn artifacts(&mut self, node: Id, def: &'t Node) {
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
    pub(super) fn technologies(&mut self, node: Id, def: &'t Node) {
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
                .and_then(number)
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
}
