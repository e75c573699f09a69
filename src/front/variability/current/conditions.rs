//! The conditions of every element (§ Check Element Presence): its own, those of the
//! variability groups it belongs to, the condition of a default alternative, the variability
//! input named after it, and, when switched on, its default or pruning condition (§ Default
//! Conditions, § Pruning Elements), type-specific or element-generic.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::Node;

use super::formula::Formula;
use super::model::{Data, Id, Kind, Model};
use super::options::Options;
use super::vars::Vars;

/// One part of a condition: written in the template (evaluated with the element as `SELF`),
/// or made by the resolver.
#[derive(Debug, Clone)]
pub enum Part<'t> {
    Written(&'t Node),
    Made(Formula),
    /// The value of a variability input, which must be a boolean.
    Input(String),
}

/// Where a condition comes from, for `--explain`.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    Own,
    /// The conditions of a variability group the element is a member of.
    Group(Id),
    /// "No other alternative of the same name is present".
    Alternative,
    /// The variability input named after the element's identifier.
    Input(String),
    /// The default condition (`pruning: false`) or pruning condition, with what it checks.
    Default {
        pruning: bool,
        what: String,
    },
}

#[derive(Debug, Clone)]
pub struct Cond<'t> {
    pub parts: Vec<Part<'t>>,
    pub origin: Origin,
}

impl Cond<'_> {
    /// Default and pruning conditions are the resolver's, not the modeller's: they are left
    /// out of the element's manual conditions.
    pub fn generated(&self) -> bool {
        matches!(self.origin, Origin::Default { .. })
    }
}

/// A candidate default condition: what it checks and whether it is about consistency or
/// semantics (§ Element-Generic Default Conditions).
struct Wrapper<'t> {
    parts: Vec<Part<'t>>,
    what: String,
    consistency: bool,
    semantic: bool,
}

/// The option kind of an element kind (`node_pruning`, `type_default_condition`).
fn option_kind(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Import => None,
        k => Some(k.word()),
    }
}

pub struct Enricher<'a, 't> {
    pub model: &'a Model<'t>,
    pub options: &'a Options<'t>,
    pub vars: Vars,
    /// `variability.inputs`, whose names may be element identifiers.
    pub input_names: Vec<&'t str>,
    /// `variability.type_specific_conditions`.
    pub type_specific: Option<&'t Node>,
}

impl<'t> Enricher<'_, 't> {
    /// The conditions of element `id`.
    pub fn conditions(&self, id: Id, diags: &mut Diagnostics) -> Vec<Cond<'t>> {
        let e = self.model.get(id);
        let mut conds: Vec<Cond<'t>> = Vec::new();
        if let Data::Group {
            variability: true, ..
        } = e.data
        {
            // § Group Template: a variability group is always absent.
            return vec![Cond {
                parts: vec![Part::Made(Formula::Const(false))],
                origin: Origin::Own,
            }];
        }
        if e.alternative_written {
            conds.push(Cond {
                parts: vec![Part::Made(Formula::Const(false))],
                origin: Origin::Own,
            });
        } else {
            for w in &e.written {
                conds.push(Cond {
                    parts: vec![Part::Written(w)],
                    origin: Origin::Own,
                });
            }
            for f in &e.made {
                conds.push(Cond {
                    parts: vec![Part::Made(f.clone())],
                    origin: Origin::Own,
                });
            }
        }
        let groups = match &e.data {
            Data::Node(n) => n.groups.clone(),
            Data::Relation(r) => r.groups.clone(),
            _ => Vec::new(),
        };
        for g in groups {
            if let Data::Group {
                variability: true, ..
            } = self.model.get(g).data
            {
                for w in &self.model.get(g).written {
                    conds.push(Cond {
                        parts: vec![Part::Written(w)],
                        origin: Origin::Group(g),
                    });
                }
            }
        }
        if e.default_alternative {
            conds = vec![Cond {
                parts: vec![Part::Made(self.no_other(id))],
                origin: Origin::Alternative,
            }];
        }
        if self.options.enrich_input_condition() {
            let ident = self.model.id(id);
            if self.input_names.contains(&ident.as_str()) {
                conds.push(Cond {
                    parts: vec![Part::Input(ident.clone())],
                    origin: Origin::Input(ident),
                });
            }
        }
        if let Some(c) = self.default_condition(id, conds.is_empty(), diags) {
            conds.insert(0, c);
        }
        conds
    }

    /// "No other element of the same scope is present" (§ default alternatives).
    pub fn no_other(&self, id: Id) -> Formula {
        Formula::not(Formula::or(
            self.scope(id)
                .into_iter()
                .filter(|o| *o != id)
                .map(|o| self.vars.present(o))
                .collect(),
        ))
    }

    /// The elements an element is an alternative among.
    fn scope(&self, id: Id) -> Vec<Id> {
        let m = self.model;
        let e = m.get(id);
        let same_name = |list: &[Id]| -> Vec<Id> {
            list.iter()
                .copied()
                .filter(|o| m.get(*o).name == e.name)
                .collect()
        };
        match e.kind {
            Kind::Input => m.inputs.get(&e.name).cloned().unwrap_or_default(),
            Kind::Output => m.outputs.get(&e.name).cloned().unwrap_or_default(),
            Kind::Relation => same_name(&m.node_data(m.relation_data(id).source).outgoing),
            Kind::Artifact => same_name(&m.node_data(e.container.unwrap_or(id)).artifacts),
            Kind::Property => same_name(&m.get(e.container.unwrap_or(id)).properties),
            Kind::Type => m.get(e.container.unwrap_or(id)).types.clone(),
            Kind::Technology => m.node_data(e.container.unwrap_or(id)).technologies.clone(),
            _ => vec![id],
        }
    }

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
    fn default_condition(
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
        if !(default_enabled && no_conditions) && !pruning_enabled {
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
        let v = &self.vars;
        let mode = e
            .keyname("default_condition_mode")
            .and_then(Node::scalar_text)
            .unwrap_or_else(|| {
                self.options
                    .default_condition_mode(option_kind(e.kind).unwrap_or(""))
            });
        let mut consistency: Vec<(Formula, String)> = Vec::new();
        let mut semantic: Vec<(Formula, String)> = Vec::new();
        let container = || v.present(e.container.unwrap_or(id));
        let allowed: &[&str] = match e.kind {
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
        };
        if !allowed.is_empty() {
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
                let manual_default = word == "default" && self.automatic_default(id);
                match (e.kind, word) {
                    (Kind::Node, w) => {
                        if let Some(f) = self.node_word(id, w) {
                            semantic.push((f, format!("its {w} condition")));
                        }
                    }
                    (Kind::Relation, "source") => consistency.push((
                        v.present(m.relation_data(id).source),
                        "its source is present".into(),
                    )),
                    (Kind::Relation, "target") => consistency.push((
                        v.present(m.relation_data(id).target),
                        "its target is present".into(),
                    )),
                    (Kind::Property | Kind::Artifact | Kind::Technology, "container") => {
                        consistency.push((container(), "its container is present".into()))
                    }
                    (Kind::Property, "consuming") => {
                        if let Data::Property(p) = &e.data
                            && !p.consuming.is_empty()
                        {
                            // An input is read through its manual conditions: its own default
                            // condition (being consumed) would otherwise make the input and
                            // its consumers decide each other.
                            let read = p
                                .consuming
                                .iter()
                                .map(|c| match m.get(*c).kind {
                                    Kind::Input => v.manual(*c),
                                    _ => v.present(*c),
                                })
                                .collect();
                            consistency
                                .push((Formula::and(read), "what it reads is present".into()));
                        }
                    }
                    (Kind::Artifact, "managed") => semantic.push((
                        super::technologies::managed(m, v, id),
                        "a technology manages it".into(),
                    )),
                    (Kind::Output, "produced") => {
                        if let Data::Output { producers } = &e.data {
                            semantic.push((
                                Formula::or(producers.iter().map(|p| v.present(*p)).collect()),
                                "it is produced".into(),
                            ));
                        }
                    }
                    (Kind::Technology, "scenario") => {
                        if let Data::Technology(t) = &e.data
                            && !t.scenario.is_empty()
                        {
                            consistency.push((
                                Formula::and(t.scenario.iter().map(|h| v.present(*h)).collect()),
                                "its deployment scenario is present".into(),
                            ));
                        }
                    }
                    (Kind::Technology, "other") => consistency.push((
                        self.no_other(id),
                        "no other technology of its node is present".into(),
                    )),
                    (_, "default") if manual_default => consistency
                        .push((self.no_other(id), "no other alternative is present".into())),
                    _ => {}
                }
            }
        } else {
            match &e.data {
                Data::Type => consistency.push((container(), "its container is present".into())),
                Data::Input { consumers } => semantic.push((
                    Formula::or(consumers.iter().map(|c| v.present(*c)).collect()),
                    "it is consumed".into(),
                )),
                Data::Policy { targets } => semantic.push((
                    Formula::or(targets.iter().map(|t| self.target_present(*t)).collect()),
                    "it has a present target".into(),
                )),
                Data::Group { members, .. } => semantic.push((
                    Formula::or(members.iter().map(|t| v.present(*t)).collect()),
                    "it has a present member".into(),
                )),
                _ => consistency.push((Formula::Const(true), "nothing".into())),
            }
        }
        let wrap = |items: Vec<(Formula, String)>, consistency: bool| -> Option<Wrapper<'t>> {
            if items.is_empty() {
                return None;
            }
            let what = items
                .iter()
                .map(|(_, w)| w.clone())
                .collect::<Vec<_>>()
                .join(", ");
            Some(Wrapper {
                parts: vec![Part::Made(Formula::and(
                    items.into_iter().map(|(f, _)| f).collect(),
                ))],
                what,
                consistency,
                semantic: !consistency,
            })
        };
        if e.kind == Kind::Node {
            // One semantic wrapper, even when the mode adds nothing (then it holds).
            let what = if semantic.is_empty() {
                format!("its default condition ({mode}) has nothing to check")
            } else {
                semantic
                    .iter()
                    .map(|(_, w)| w.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return vec![Wrapper {
                parts: vec![Part::Made(Formula::and(
                    semantic.into_iter().map(|(f, _)| f).collect(),
                ))],
                what,
                consistency: false,
                semantic: true,
            }];
        }
        wrap(consistency, true)
            .into_iter()
            .chain(wrap(semantic, false))
            .collect()
    }

    /// A policy target's presence: a node's, or any member of a group.
    pub fn target_present(&self, t: Id) -> Formula {
        match &self.model.get(t).data {
            Data::Group { members, .. } => {
                Formula::or(members.iter().map(|m| self.vars.present(*m)).collect())
            }
            _ => self.vars.present(t),
        }
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
