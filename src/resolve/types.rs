//! Type ancestry: each type with its parents, most specific first, computed once per type.
//!
//! Names resolve per kind: a defined name as it is, else a Simple Profile shorthand of a
//! normative type (`Compute`, `Storage.BlockStorage`, `tosca:Compute` for
//! `tosca.nodes.Compute`). Data types may end their chain at a primitive type (`integer`).

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeDef, TypeKind};
use crate::source::Span;

/// The primitive types a data type may derive from (Simple Profile and TOSCA 2.0).
const PRIMITIVES: &[&str] = &[
    "string",
    "integer",
    "float",
    "boolean",
    "timestamp",
    "null",
    "nil",
    "bytes",
    "version",
    "range",
    "list",
    "map",
    "scalar-unit.size",
    "scalar-unit.time",
    "scalar-unit.frequency",
    "scalar-unit.bitrate",
    "scalar",
];

/// Memoized ancestries. Every chain is walked once, so the whole catalogue costs time linear in
/// the number of types, whatever order templates ask in.
pub struct Ancestry {
    cache: HashMap<(TypeKind, String), Vec<String>>,
    /// Shorthand → full name of the normative types read, per kind; ambiguous ones left out.
    shorthands: HashMap<(TypeKind, String), String>,
}

impl Ancestry {
    /// Indexes the shorthands of the normative (`tosca.`) types the model holds. Only the
    /// Simple Profile has shorthands; TOSCA 2.0 names are what they are.
    ///
    /// The shorthand is the name after the kind's prefix (`Compute`, `Storage.BlockStorage`,
    /// `tosca:Compute`); a trailing part of it (`BlockStorage`, `NetworkInfo`) also works when
    /// no other normative type of that kind has it as its whole shorthand or trailing part.
    pub fn new(model: &Model) -> Self {
        // Form → (priority, full name or None when ambiguous at that priority); 0 is an exact
        // shorthand, 1 a trailing part.
        let mut shorthands: HashMap<(TypeKind, String), (u8, Option<String>)> = HashMap::new();
        if model.dialect != Dialect::Tosca2 {
            for (kind, name) in model.types.keys() {
                let Some(rest) = name.strip_prefix(kind.normative_prefix()) else {
                    continue;
                };
                let mut forms = vec![(0, rest.to_string()), (0, format!("tosca:{rest}"))];
                let mut suffix = rest;
                while let Some((_, shorter)) = suffix.split_once('.') {
                    forms.push((1, shorter.to_string()));
                    forms.push((1, format!("tosca:{shorter}")));
                    suffix = shorter;
                }
                for (priority, form) in forms {
                    let slot = shorthands
                        .entry((*kind, form))
                        .or_insert((priority, Some(name.clone())));
                    if priority < slot.0 {
                        *slot = (priority, Some(name.clone()));
                    } else if priority == slot.0 && slot.1.as_deref() != Some(name.as_str()) {
                        slot.1 = None;
                    }
                }
            }
        }
        let shorthands = shorthands
            .into_iter()
            .filter_map(|(k, (_, v))| v.map(|v| (k, v)))
            .collect();
        Ancestry {
            cache: HashMap::new(),
            shorthands,
        }
    }

    /// The defined name `name` stands for: itself, or the normative type it is a shorthand of.
    pub fn full_name(&self, model: &Model, kind: TypeKind, name: &str) -> Option<String> {
        if model.types.contains_key(&(kind, name.to_string())) {
            return Some(name.to_string());
        }
        if let Some(full) = self.shorthands.get(&(kind, name.to_string())) {
            return Some(full.clone());
        }
        let (prefix, rest) = name.split_once(':')?;
        if model.namespace_prefixes.contains(prefix) {
            return self.full_name(model, kind, rest);
        }
        None
    }

    /// The ancestry of `name` (most specific first), reporting unknown and cyclic types at
    /// `used_at`. An unknown type still gets an ancestry of its own name, so one mistake does
    /// not cascade into a hundred.
    pub fn of(
        &mut self,
        model: &Model,
        kind: TypeKind,
        name: &str,
        used_at: Span,
        diags: &mut Diagnostics,
    ) -> Vec<String> {
        match self.full_name(model, kind, name) {
            Some(full) => self.walk(model, kind, &full, diags),
            None => {
                if !tolerated(model, kind, name) {
                    unknown_type(model, kind, name, used_at, diags);
                }
                vec![name.to_string()]
            }
        }
    }

    /// Walks every type defined in the files read, so a bad derivation is reported even in a
    /// type no template uses. Memoized: linear in the number of types.
    pub fn check_all(&mut self, model: &Model, diags: &mut Diagnostics) {
        for ((kind, name), def) in &model.types {
            self.of(model, *kind, name, def.span, diags);
        }
    }

    fn walk(
        &mut self,
        model: &Model,
        kind: TypeKind,
        start: &str,
        diags: &mut Diagnostics,
    ) -> Vec<String> {
        let mut chain: Vec<String> = Vec::new();
        let mut current = start.to_string();
        let tail: Vec<String> = loop {
            if let Some(known) = self.cache.get(&(kind, current.clone())) {
                break known.clone();
            }
            if let Some(pos) = chain.iter().position(|c| *c == current) {
                report_cycle(model, kind, &chain[pos..], diags);
                break Vec::new();
            }
            let Some(def) = model.types.get(&(kind, current.clone())) else {
                break vec![current];
            };
            chain.push(current.clone());
            let Some((parent, span)) = &def.derived_from else {
                break Vec::new();
            };
            match self.full_name(model, kind, parent) {
                Some(full) => current = full,
                None if kind == TypeKind::Data && PRIMITIVES.contains(&parent.as_str()) => {
                    break vec![parent.clone()];
                }
                None => {
                    if let Some(other) = defined_as_other_kind(model, kind, parent) {
                        diags.push(
                            Diagnostic::error(
                                codes::TOSCA_UNKNOWN_TYPE,
                                format!(
                                    "{} `{}` derives from `{parent}`, which is a {}",
                                    kind.noun(),
                                    def.name,
                                    other.noun()
                                ),
                            )
                            .at(*span)
                            .hint(format!(
                                "a {} derives from another {}",
                                kind.noun(),
                                kind.noun()
                            )),
                        );
                    } else if !tolerated(model, kind, parent) {
                        unknown_type(model, kind, parent, *span, diags);
                    }
                    break vec![parent.clone()];
                }
            }
        };
        // Cache every suffix of the chain: each type on it has the rest as its ancestry.
        let mut ancestry = tail;
        for name in chain.iter().rev() {
            ancestry.insert(0, name.clone());
            self.cache.insert((kind, name.clone()), ancestry.clone());
        }
        ancestry
    }
}

/// The definitions along an ancestry (most specific first), for the types on it that were read.
/// Takes a computed ancestry, so a problem with the type is reported once, where it was computed.
pub fn definitions<'m>(model: &'m Model, kind: TypeKind, ancestry: &[String]) -> Vec<&'m TypeDef> {
    ancestry
        .iter()
        .filter_map(|name| model.types.get(&(kind, name.clone())))
        .collect()
}

/// An unknown name that is not an error: when an import could not be followed (a TOSCA 2.0
/// profile not available yet), the name may well be defined there.
fn tolerated(model: &Model, _kind: TypeKind, _name: &str) -> bool {
    model.incomplete_types
}

fn defined_as_other_kind(model: &Model, kind: TypeKind, name: &str) -> Option<TypeKind> {
    TypeKind::ALL
        .into_iter()
        .find(|k| *k != kind && model.types.contains_key(&(*k, name.to_string())))
}

fn unknown_type(model: &Model, kind: TypeKind, name: &str, at: Span, diags: &mut Diagnostics) {
    let mut d = Diagnostic::error(
        codes::TOSCA_UNKNOWN_TYPE,
        format!("unknown {} `{name}`", kind.noun()),
    )
    .at_with(at, "not defined in any file read");
    if let Some(other) = defined_as_other_kind(model, kind, name) {
        d = d.hint(format!(
            "`{name}` is a {}, not a {}",
            other.noun(),
            kind.noun()
        ));
    } else {
        let known: Vec<&str> = model
            .types
            .keys()
            .filter(|(k, _)| *k == kind)
            .map(|(_, n)| n.as_str())
            .collect();
        d = d.did_you_mean(
            name,
            &known,
            Some(format!(
                "define it under `{}` or import the file that does",
                kind.section()
            )),
        );
    }
    diags.push(d);
}

fn report_cycle(model: &Model, kind: TypeKind, cycle: &[String], diags: &mut Diagnostics) {
    let first = &model.types[&(kind, cycle[0].clone())];
    let mut names: Vec<&str> = cycle.iter().map(String::as_str).collect();
    names.push(&cycle[0]);
    let mut d = Diagnostic::error(
        codes::TOSCA_CYCLE,
        format!("{} derivation cycle: {}", kind.noun(), names.join(" → ")),
    );
    d = d.at_with(
        first.derived_from.as_ref().map_or(first.span, |(_, s)| *s),
        "derives from itself through this chain",
    );
    for name in &cycle[1..] {
        if let Some((_, span)) = &model.types[&(kind, name.clone())].derived_from {
            d = d.label(*span, format!("`{name}` derives from here"));
        }
    }
    diags.push(d.hint("break the chain: one of these types must derive from another parent"));
}
