//! The index's walk of a service template's groups and policies, which the model keeps typed
//! ([`crate::model::grouping`]): their `type`, the property and attribute names they assign,
//! the calls in their sections, and the node templates and groups their `members` and
//! `targets` name.

use super::{Borrowed, Owner, Section, Walk};
use crate::model::grouping::Grouping;
use crate::model::{TopologyTemplate, TypeKind};

impl Walk<'_> {
    /// The groups' and policies' types, names, calls, and the members and targets they name.
    pub(super) fn groupings(&mut self, topology: &TopologyTemplate) {
        for grouping in &topology.groups {
            self.owner = Some(Owner::Group(grouping.name.clone()));
            self.grouping_body(TypeKind::Group, grouping);
            if let Some(members) = &grouping.members {
                for member in members.as_list().unwrap_or_default() {
                    self.node_ref(member);
                }
            }
        }
        for grouping in &topology.policies {
            self.owner = Some(Owner::Policy(grouping.name.clone()));
            self.grouping_body(TypeKind::Policy, grouping);
            if let Some(targets) = &grouping.targets {
                for target in targets.as_list().unwrap_or_default() {
                    match target
                        .as_str()
                        .and_then(|n| self.template(Section::Group, n))
                    {
                        Some(group) => self.add(target, group, false),
                        None => self.node_ref(target),
                    }
                }
            }
        }
    }

    /// [`Self::template_body`] of a group or policy, whose sections are typed; the calls in
    /// its `triggers` too, which are still YAML ([`crate::model::grouping`]).
    fn grouping_body(&mut self, kind: TypeKind, grouping: &Grouping) {
        if grouping.not_a_map {
            return;
        }
        let sections = [grouping.properties.as_ref(), grouping.attributes.as_ref()];
        self.template_type(kind, grouping.type_name.as_ref(), sections);
        for (key, value) in grouping.values() {
            self.calls_under(value, &mut Some(vec![Borrowed::Key(key)]));
        }
        if let Some(triggers) = &grouping.triggers {
            self.calls_under(triggers, &mut Some(vec![Borrowed::Key("triggers")]));
        }
    }
}
