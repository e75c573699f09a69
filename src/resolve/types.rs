//! Type ancestry: each type with its parents, most specific first, computed once per type.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, canonical};
use crate::model::{Model, TypeDef, TypeKind};
use crate::source::Span;

/// Memoized ancestries. Every chain is walked once, so the whole catalogue costs time linear in
/// the number of types, whatever order templates ask in.
#[derive(Default)]
pub struct Ancestry {
    cache: HashMap<(TypeKind, String), Vec<String>>,
}

impl Ancestry {
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
        if let Some(found) = self.cache.get(&(kind, name.to_string())) {
            return found.clone();
        }
        if model.types.contains_key(&(kind, name.to_string())) {
            return self.walk(model, kind, name, diags);
        }
        if !is_normative(model, kind, name) {
            unknown_type(model, kind, name, used_at, diags);
        }
        vec![qualified(model, kind, name)]
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
                break vec![qualified(model, kind, &current)];
            };
            chain.push(current.clone());
            match &def.derived_from {
                Some((parent, span)) => {
                    if !model.types.contains_key(&(kind, parent.clone()))
                        && !is_normative(model, kind, parent)
                    {
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
                        } else {
                            unknown_type(model, kind, parent, *span, diags);
                        }
                    }
                    current = parent.clone();
                }
                None => break Vec::new(),
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

/// Names the Simple Profile defines normatively: `tosca.nodes.Compute` and the short forms the
/// spec allows (`Compute`). These are accepted without a definition until the embedded profiles
/// provide one.
fn is_normative(model: &Model, kind: TypeKind, name: &str) -> bool {
    if model.incomplete_types {
        return true;
    }
    match model.dialect {
        Dialect::Tosca2 => false,
        _ => name.starts_with(kind.normative_prefix()) || canonical(name) != name,
    }
}

fn qualified(model: &Model, kind: TypeKind, name: &str) -> String {
    if model.dialect != Dialect::Tosca2 && !model.types.contains_key(&(kind, name.to_string())) {
        canonical(name).to_string()
    } else {
        name.to_string()
    }
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
