//! Default and pruning conditions (§ Default Conditions, § Pruning Elements): the
//! type-specific condition of an element's type (§ Type-Specific Default Conditions) and the
//! element-generic ones its kind and default condition mode select (§ Element-Generic Default
//! Conditions), kept as consistency or semantic parts so the options can switch each on or off.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::Node;

use super::conditions::{Cond, Enricher, Origin, Part};
use super::formula::Formula;
use super::model::{Data, Id, Kind};

/// A candidate default condition: what it checks and whether it is about consistency or
/// semantics (§ Element-Generic Default Conditions).
struct Wrapper<'t> {
    parts: Vec<Part<'t>>,
    what: String,
    consistency: bool,
    semantic: bool,
}

/// The parts of a default condition found so far, by what they are about.
#[derive(Default)]
struct Found {
    consistency: Vec<(Formula, String)>,
    semantic: Vec<(Formula, String)>,
}

fn describe(items: &[(Formula, String)]) -> String {
    items
        .iter()
        .map(|(_, w)| w.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One wrapper for `items`, if any: a consistency or a semantic default condition.
fn wrap<'t>(items: Vec<(Formula, String)>, consistency: bool) -> Option<Wrapper<'t>> {
    if items.is_empty() {
        return None;
    }
    let what = describe(&items);
    Some(Wrapper {
        parts: vec![Part::Made(Formula::and(
            items.into_iter().map(|(f, _)| f).collect(),
        ))],
        what,
        consistency,
        semantic: !consistency,
    })
}

/// The words of the default condition mode of a kind; empty for kinds without modes.
fn mode_words(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Node => &[
            "host",
            "source",
            "incoming",
            "incomingnaive",
            "outgoing",
            "outgoingnaive",
            "artifact",
            "artifactnaive",
        ],
        Kind::Relation => &["source", "target", "default"],
        Kind::Property => &["container", "consuming", "default"],
        Kind::Artifact => &["container", "managed", "default"],
        Kind::Output => &["produced", "default"],
        Kind::Technology => &["container", "other", "scenario", "default"],
        _ => &[],
    }
}

/// The option kind of an element kind (`node_pruning`, `type_default_condition`).
fn option_kind(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Import => None,
        k => Some(k.word()),
    }
}

impl<'t> Enricher<'_, 't> {
    /// The `default` word of a default condition mode applies to the one element of its scope
    /// that has no conditions while its alternatives have some (and none is declared the
    /// default alternative): it is then the default alternative automatically
    /// (§ Normalizer Options, `automatic_default_alternatives`).
    fn automatic_default(&self, id: Id) -> bool {
        let scope = self.scope(id);
        if scope.len() < 2 {
            return false;
        }
        let m = self.model;
        if scope.iter().any(|o| m.get(*o).default_alternative) {
            return false;
        }
        let unconditioned: Vec<Id> = scope
            .iter()
            .copied()
            .filter(|o| {
                let e = m.get(*o);
                e.written.is_empty() && e.made.is_empty() && !e.alternative_written
            })
            .collect();
        unconditioned == [id]
    }

    fn switch(&self, id: Id, own: &[&str], option: &dyn Fn(&str) -> bool) -> bool {
        let e = self.model.get(id);
        for key in own {
            if let Some(v) = e.flag(key) {
                return v;
            }
        }
        option_kind(e.kind).is_some_and(option)
    }

    /// The default or pruning condition of an element, when its switches ask for one.
    pub(super) fn default_condition(
        &self,
        id: Id,
        no_conditions: bool,
        diags: &mut Diagnostics,
    ) -> Option<Cond<'t>> {
        let e = self.model.get(id);
        let o = self.options;
        let anchor = e.node().is_some_and(|n| n.anchor);
        if e.kind == Kind::Import {
            return None;
        }
        let default_enabled =
            !anchor && self.switch(id, &["default_condition"], &|k| o.default_condition(k));
        let pruning_enabled = !anchor && self.switch(id, &["pruning"], &|k| o.pruning(k));
        if !(pruning_enabled || (default_enabled && no_conditions)) {
            return None;
        }
        let default_consistency = self.switch(
            id,
            &["default_consistency_condition", "default_condition"],
            &|k| o.default_consistency_condition(k),
        );
        let default_semantic = self.switch(
            id,
            &["default_semantic_condition", "default_condition"],
            &|k| o.default_semantic_condition(k),
        );
        let consistency_pruning = self.switch(id, &["consistency_pruning", "pruning"], &|k| {
            o.consistency_pruning(k)
        });
        let semantic_pruning = self.switch(id, &["semantic_pruning", "pruning"], &|k| {
            o.semantic_pruning(k)
        });
        let mut candidates: Vec<Wrapper<'t>> = Vec::new();
        if let Some(w) = self.type_specific(id) {
            candidates.push(w);
        }
        candidates.extend(self.generic(id, diags));
        let selected: Vec<Wrapper<'t>> = candidates
            .into_iter()
            .filter(|w| {
                let as_default = default_enabled
                    && no_conditions
                    && ((w.consistency && default_consistency) || (w.semantic && default_semantic));
                let as_pruning = pruning_enabled
                    && ((w.consistency && consistency_pruning) || (w.semantic && semantic_pruning));
                as_default || as_pruning
            })
            .collect();
        if selected.is_empty() {
            return None;
        }
        let what = selected
            .iter()
            .map(|w| w.what.clone())
            .collect::<Vec<_>>()
            .join(" and ");
        Some(Cond {
            parts: selected.into_iter().flat_map(|w| w.parts).collect(),
            origin: Origin::Default {
                pruning: pruning_enabled,
                what,
            },
        })
    }

    /// § Type-Specific Default Conditions of the element's (single) type.
    fn type_specific(&self, id: Id) -> Option<Wrapper<'t>> {
        let e = self.model.get(id);
        let section = match e.kind {
            Kind::Node => "node_types",
            Kind::Relation => "relationship_types",
            Kind::Artifact => "artifact_types",
            Kind::Group => "group_types",
            Kind::Policy => "policy_types",
            _ => return None,
        };
        let type_name = self.model.type_name(id)?;
        let wrapper = self
            .type_specific?
            .as_map()?
            .get(section)?
            .as_map()?
            .get(type_name)?;
        let map = wrapper.as_map()?;
        let conditions = map.get("conditions")?;
        let parts = match conditions.as_seq() {
            Some(list) => list.iter().map(Part::Written).collect(),
            None => vec![Part::Written(conditions)],
        };
        let flag = |k: &str, d: bool| map.get(k).and_then(super::options::bool_of).unwrap_or(d);
        Some(Wrapper {
            parts,
            what: format!("the type-specific condition of type \"{type_name}\""),
            consistency: flag("consistency", false),
            semantic: flag("semantic", true),
        })
    }

    /// The element-generic default conditions of the element's kind and mode.
    fn generic(&self, id: Id, diags: &mut Diagnostics) -> Vec<Wrapper<'t>> {
        let m = self.model;
        let e = m.get(id);
        let allowed = mode_words(e.kind);
        if allowed.is_empty() {
            return self.fixed(id).into_iter().collect();
        }
        let mode = e
            .keyname("default_condition_mode")
            .and_then(Node::scalar_text)
            .unwrap_or_else(|| {
                self.options
                    .default_condition_mode(option_kind(e.kind).unwrap_or(""))
            });
        let mut found = Found::default();
        for word in mode.split('-') {
            if !allowed.contains(&word) {
                diags.push(
                    Diagnostic::error(
                        codes::VAR_UNKNOWN,
                        format!(
                            "{} has unknown mode \"{mode}\" as default condition",
                            m.display_upper(id)
                        ),
                    )
                    .at(e.span)
                    .hint(format!(
                        "the words of this mode are {}, joined by `-`",
                        allowed.join(", ")
                    )),
                );
                return Vec::new();
            }
            self.word(id, word, &mut found);
        }
        if e.kind == Kind::Node {
            // One semantic wrapper, even when the mode adds nothing (then it holds).
            let what = if found.semantic.is_empty() {
                format!("its default condition ({mode}) has nothing to check")
            } else {
                describe(&found.semantic)
            };
            return vec![Wrapper {
                parts: vec![Part::Made(Formula::and(
                    found.semantic.into_iter().map(|(f, _)| f).collect(),
                ))],
                what,
                consistency: false,
                semantic: true,
            }];
        }
        wrap(found.consistency, true)
            .into_iter()
            .chain(wrap(found.semantic, false))
            .collect()
    }

    /// One word of a default condition mode (§ Element-Generic Default Conditions).
    fn word(&self, id: Id, word: &str, found: &mut Found) {
        let m = self.model;
        let e = m.get(id);
        let v = &self.vars;
        let container = || v.present(e.container.unwrap_or(id));
        match (e.kind, word) {
            (Kind::Node, w) => {
                if let Some(f) = self.node_word(id, w) {
                    found.semantic.push((f, format!("its {w} condition")));
                }
            }
            (Kind::Relation, "source" | "target") => {
                let data = m.relation_data(id);
                let end = if word == "source" {
                    data.source
                } else {
                    data.target
                };
                found
                    .consistency
                    .push((v.present(end), format!("its {word} is present")));
            }
            (Kind::Property | Kind::Artifact | Kind::Technology, "container") => found
                .consistency
                .push((container(), "its container is present".into())),
            (Kind::Property, "consuming") => {
                if let Data::Property(p) = &e.data
                    && !p.consuming.is_empty()
                {
                    // An input is read through its manual conditions: its own default
                    // condition (being consumed) would otherwise make the input and its
                    // consumers decide each other.
                    let read = p
                        .consuming
                        .iter()
                        .map(|c| match m.get(*c).kind {
                            Kind::Input => v.manual(*c),
                            _ => v.present(*c),
                        })
                        .collect();
                    found
                        .consistency
                        .push((Formula::and(read), "what it reads is present".into()));
                }
            }
            (Kind::Artifact, "managed") => found.semantic.push((
                super::technologies::managed(m, v, id),
                "a technology manages it".into(),
            )),
            (Kind::Output, "produced") => {
                if let Data::Output { producers } = &e.data {
                    found.semantic.push((
                        Formula::or(producers.iter().map(|p| v.present(*p)).collect()),
                        "it is produced".into(),
                    ));
                }
            }
            (Kind::Technology, "scenario") => {
                if let Data::Technology(t) = &e.data
                    && !t.scenario.is_empty()
                {
                    found.consistency.push((
                        Formula::and(t.scenario.iter().map(|h| v.present(*h)).collect()),
                        "its deployment scenario is present".into(),
                    ));
                }
            }
            (Kind::Technology, "other") => found.consistency.push((
                self.no_other(id),
                "no other technology of its node is present".into(),
            )),
            (_, "default") if self.automatic_default(id) => found
                .consistency
                .push((self.no_other(id), "no other alternative is present".into())),
            _ => {}
        }
    }

    /// The default condition of kinds without modes.
    fn fixed(&self, id: Id) -> Option<Wrapper<'t>> {
        let v = &self.vars;
        let e = self.model.get(id);
        let (f, what, consistency) = match &e.data {
            Data::Type => (
                v.present(e.container.unwrap_or(id)),
                "its container is present",
                true,
            ),
            Data::Input { consumers } => (
                Formula::or(consumers.iter().map(|c| v.present(*c)).collect()),
                "it is consumed",
                false,
            ),
            Data::Policy { targets } => (
                Formula::or(targets.iter().map(|t| self.target_present(*t)).collect()),
                "it has a present target",
                false,
            ),
            Data::Group { members, .. } => (
                Formula::or(members.iter().map(|t| v.present(*t)).collect()),
                "it has a present member",
                false,
            ),
            _ => (Formula::Const(true), "nothing", true),
        };
        wrap(vec![(f, what.to_string())], consistency)
    }

    /// One word of a node's default condition mode.
    fn node_word(&self, id: Id, word: &str) -> Option<Formula> {
        let m = self.model;
        let v = &self.vars;
        let n = m.node_data(id);
        let none_if_empty = |f: Formula, empty: bool| (!empty).then_some(f);
        match word {
            "host" => {
                let hostings = m.hostings(id);
                none_if_empty(super::encode::host_presence(m, v, id), hostings.is_empty())
            }
            "source" => none_if_empty(
                Formula::or(
                    n.ingoing
                        .iter()
                        .map(|r| v.present(m.relation_data(*r).source))
                        .collect(),
                ),
                n.ingoing.is_empty(),
            ),
            "incoming" => none_if_empty(
                super::encode::has_incoming(m, v, id, false),
                n.ingoing.is_empty(),
            ),
            "incomingnaive" => none_if_empty(
                super::encode::has_incoming(m, v, id, true),
                n.ingoing.is_empty(),
            ),
            "outgoing" => none_if_empty(
                super::encode::has_outgoing(m, v, id, false),
                n.outgoing.is_empty(),
            ),
            "outgoingnaive" => none_if_empty(
                super::encode::has_outgoing(m, v, id, true),
                n.outgoing.is_empty(),
            ),
            "artifact" => none_if_empty(
                Formula::or(n.artifacts.iter().map(|a| v.manual(*a)).collect()),
                n.artifacts.is_empty(),
            ),
            "artifactnaive" => none_if_empty(
                Formula::or(n.artifacts.iter().map(|a| v.present(*a)).collect()),
                n.artifacts.is_empty(),
            ),
            _ => None,
        }
    }
}
