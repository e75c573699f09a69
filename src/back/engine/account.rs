//! The end of a render: what each element held that the translation did not use, said as one
//! `backend::not-translated` warning per element (see [`super::Ledger`]).

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Topology;

use super::super::ignores::Part;
use super::super::rules::{Action, Rule};
use super::super::{Element, ElementContext, ElementKind};
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
        // One warning per element, except that the relationships one relationship template
        // made (one per requirement that names it) share the template's: it names what any of
        // them left untranslated, since each such value is written once, at the template.
        let mut warnings: Vec<Pending> = Vec::new();
        let mut by_template: HashMap<(usize, u32, u32), usize> = HashMap::new();
        for element in elements {
            let ElementContext::Part { index, .. } = element.context else {
                continue;
            };
            let Some((left, rule)) = self.left_of(ledger, topology, element, index, &requirements)
            else {
                continue;
            };
            let template = match element.kind {
                ElementKind::Relationship => topology.relationships[index]
                    .template_location
                    .map(|l| (l.file, l.line, l.column)),
                _ => None,
            };
            match template.and_then(|t| by_template.get(&t)) {
                Some(&w) => warnings[w].left.extend(left),
                None => {
                    if let Some(t) = template {
                        by_template.insert(t, warnings.len());
                    }
                    let order = ledger::accountable(topology, element.kind, index);
                    warnings.push(Pending {
                        element,
                        rule,
                        order,
                        left: left.into_iter().collect(),
                    });
                }
            }
        }
        for w in warnings {
            let left: Vec<&(Part, String)> =
                w.order.iter().filter(|k| w.left.contains(k)).collect();
            if !left.is_empty() {
                diags.push(self.not_translated(w.element, w.rule, &left));
            }
        }
    }

    /// Warns (`backend::not-translated`), once per element, about what each of `elements` holds
    /// that `ledger` did not record as used: for elements the backend's Rust translates with no
    /// rule (the objects of a Kubernetes profile's nodes), so no template read them and no
    /// `ignore:` applies. A requirement counts as used when the backend recorded its
    /// relationship ([`Ledger::relationship`]); `hint` says what such a translation carries.
    pub fn account_unruled(
        &self,
        ledger: &Ledger,
        topology: &Topology,
        elements: &[Element],
        hint: &str,
        diags: &mut Diagnostics,
    ) {
        let requirements: HashSet<(usize, &str)> = topology
            .relationships
            .iter()
            .enumerate()
            .filter(|(ri, _)| ledger.relationship_translated(*ri))
            .map(|(_, r)| (r.source.index(), r.requirement.as_str()))
            .collect();
        for element in elements {
            let ElementContext::Part { index, .. } = element.context else {
                continue;
            };
            let left: Vec<(Part, String)> = ledger::accountable(topology, element.kind, index)
                .into_iter()
                .filter(|(part, key)| {
                    let made_reference =
                        *part == Part::Requirement && requirements.contains(&(index, key.as_str()));
                    !(made_reference || ledger.was_used(element.kind, index, *part, key))
                })
                .collect();
            if !left.is_empty() {
                let left: Vec<&(Part, String)> = left.iter().collect();
                diags.push(self.not_translated_warning(element, &left, hint.to_string()));
            }
        }
    }

    /// What `element` (entry `index` of its kind) holds that neither `ledger` nor its rule's
    /// template used and its rule's `ignore:` does not list, with the rule; `None` when no rule
    /// takes it, it is only selected, or its template reads it wholesale.
    fn left_of<'e>(
        &'e self,
        ledger: &Ledger,
        topology: &Topology,
        element: &Element,
        index: usize,
        requirements: &HashSet<(usize, &str)>,
    ) -> Option<(Vec<(Part, String)>, &'e Rule)> {
        let (i, rule) = self.rule_for(element)?;
        // A node only selected from outside the topology is created by no backend, and each
        // says so in a warning of its own.
        if element.types.first().map(String::as_str) == Some(super::super::elements::SELECTED) {
            return None;
        }
        let empty = Default::default();
        let template_reads = match (&rule.action, &self.reads[i]) {
            (Action::Skip(_), _) => &empty,
            (_, reads::Reads::Keys(keys)) => keys,
            (_, reads::Reads::Everything) => return None,
        };
        let left = ledger::accountable(topology, element.kind, index)
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
        Some((left, rule))
    }

    /// The `backend::not-translated` warning about `element`, which its `rule` left `left` of.
    fn not_translated(
        &self,
        element: &Element,
        rule: &Rule,
        left: &[&(Part, String)],
    ) -> Diagnostic {
        let hint = match &rule.action {
            Action::Skip(reason) => format!(
                "the {} rule leaves it out as a whole: {reason}; translate it with a rule of your own (--backend-dir), or say why each is left out under the rule's `ignore:`",
                self.name
            ),
            Action::Render { .. } => "nothing in the output carries them; translate them with a rule of your own (--backend-dir), or say why they are left out under the rule's `ignore:`".to_string(),
        };
        self.not_translated_warning(element, left, hint)
    }

    /// The `backend::not-translated` warning that `element` has `left` untranslated, with `hint`.
    fn not_translated_warning(
        &self,
        element: &Element,
        left: &[&(Part, String)],
        hint: String,
    ) -> Diagnostic {
        let what = if left.iter().all(|(part, _)| *part == Part::Value) {
            "it".to_string()
        } else {
            left.iter()
                .map(|(part, key)| format!("{part} `{key}`"))
                .collect::<Vec<_>>()
                .join(", ")
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
        d
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

/// A `backend::not-translated` warning being gathered: the element it is placed at, its rule,
/// what the element is accountable for (in the order the warning lists it) and what of that
/// was left untranslated.
struct Pending<'e> {
    element: &'e Element,
    rule: &'e Rule,
    order: Vec<(Part, String)>,
    left: BTreeSet<(Part, String)>,
}
