//! The conditions of every element (§ Check Element Presence): its own, those of the
//! variability groups it belongs to, the condition of a default alternative, the variability
//! input named after it, and, when switched on, its default or pruning condition, which
//! [`super::defaults`] builds.

use crate::diag::Diagnostics;
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
    pub(super) fn scope(&self, id: Id) -> Vec<Id> {
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

    /// A policy target's presence: a node's, or any member of a group.
    pub fn target_present(&self, t: Id) -> Formula {
        match &self.model.get(t).data {
            Data::Group { members, .. } => {
                Formula::or(members.iter().map(|m| self.vars.present(*m)).collect())
            }
            _ => self.vars.present(t),
        }
    }
}
