//! The end of a render: what each element held that the translation did not use, said as one
//! `backend::not-translated` warning per element (see [`super::Ledger`]).

use std::collections::HashSet;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Topology;

use super::super::ignores::Part;
use super::super::rules::Action;
use super::super::{Element, ElementContext};
use super::{Engine, Ledger, ledger, reads};

impl Engine {
    /// Warns (`backend::not-translated`), once per element a rule takes, about what the element
    /// holds that neither the backend's Rust (as `ledger` recorded) nor the rule's template used
    /// and that the rule's `ignore:` does not list; see [`Ledger`] for what an element is
    /// accountable for. `elements` are the ones given to [`Engine::render`].
    ///
    /// An element a `skip` rule takes is accounted for too: the rule's reason says why the
    /// element as a whole is left out, and the warning names what the template wrote that is
    /// therefore gone (a runtime's `host.num_cpus`, an output). An element no rule takes has
    /// its `backend::skipped` warning instead, and a template that reads its element wholesale
    /// is taken to translate all of it.
    pub fn account(
        &self,
        ledger: &Ledger,
        topology: &Topology,
        elements: &[Element],
        diags: &mut Diagnostics,
    ) {
        let requirements = self.translated_requirements(ledger, topology);
        for element in elements {
            let ElementContext::Part { index, .. } = element.context else {
                continue;
            };
            let Some((i, rule)) = self.rule_for(element) else {
                continue;
            };
            // A node only selected from outside the topology is created by no backend, and
            // each says so in a warning of its own.
            if element.types.first().map(String::as_str) == Some(super::super::elements::SELECTED) {
                continue;
            }
            let empty = Default::default();
            let template_reads = match (&rule.action, &self.reads[i]) {
                (Action::Skip(_), _) => &empty,
                (_, reads::Reads::Keys(keys)) => keys,
                (_, reads::Reads::Everything) => continue,
            };
            let left: Vec<(Part, String)> = ledger::accountable(topology, element.kind, index)
                .into_iter()
                .filter(|(part, key)| {
                    let used = match part {
                        Part::Requirement => requirements.contains(&(index, key.as_str())),
                        _ => ledger.was_used(element.kind, index, *part, key),
                    };
                    !used
                        && !template_reads.contains(&(*part, key.clone()))
                        && !rule.ignore.covers(*part, key)
                })
                .collect();
            if left.is_empty() {
                continue;
            }
            let what = if left.iter().all(|(part, _)| *part == Part::Value) {
                "it".to_string()
            } else {
                left.iter()
                    .map(|(part, key)| format!("{part} `{key}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let hint = match &rule.action {
                Action::Skip(reason) => format!(
                    "the {} rule leaves it out as a whole: {reason}; translate it with a rule of your own (--backend-dir), or say why each is left out under the rule's `ignore:`",
                    self.name
                ),
                Action::Render { .. } => "nothing in the output carries them; translate them with a rule of your own (--backend-dir), or say why they are left out under the rule's `ignore:`".to_string(),
            };
            let mut d = Diagnostic::warning(
                codes::BACKEND_NOT_TRANSLATED,
                format!(
                    "{} `{}`: {} does not translate {what}",
                    element.kind, element.name, self.name
                ),
            )
            .hint(hint);
            if let Some(span) = element.span {
                d = d.at(span);
            }
            diags.push(d);
        }
    }

    /// The requirements (node index, requirement name) a relationship of which the translation
    /// turned into something: one the backend's Rust recorded ([`Ledger::relationship`]), or
    /// one with a meaning in the mapping's `relationships:`, which the backend's Rust acts on
    /// (hosting, attachment, connection, binding, link, routing; where it then cannot, for a
    /// target with no workload, it says so in a warning of its own).
    fn translated_requirements<'t>(
        &self,
        ledger: &Ledger,
        topology: &'t Topology,
    ) -> HashSet<(usize, &'t str)> {
        let meanings = self.meanings.of(topology);
        topology
            .relationships
            .iter()
            .enumerate()
            .filter(|(ri, _)| meanings.has_any(*ri) || ledger.relationship_translated(*ri))
            .map(|(_, r)| (r.source.index(), r.requirement.as_str()))
            .collect()
    }
}
