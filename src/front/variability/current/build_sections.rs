//! The sections of a topology template beside its node templates, in the current language:
//! inputs and outputs (§ Topology Template Input, § Topology Template Output), groups
//! (§ Group Template), policies (§ Policy Template) and imports (§ Import Definition), each in
//! its map or list form.

use crate::diag::codes;
use crate::yaml::Node;

use super::build::{Builder, VARIABILITY_GROUP_TYPES, element, entries, error, text};
use super::model::{Data, Id, Kind};

impl<'t> Builder<'t, '_> {
    pub(super) fn inputs(&mut self, node: &'t Node, kind: Kind) {
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

    pub(super) fn groups(&mut self, groups: &'t Node) {
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

    pub(super) fn policies(&mut self, policies: &'t Node) {
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

    pub(super) fn imports(&mut self, imports: &'t Node) {
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
