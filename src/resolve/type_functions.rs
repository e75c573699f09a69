//! The Simple Profile functions a node, relationship or group type writes in its interface
//! definitions' inputs (A.5.12 Interface definition, A.5.11 Operation definition: "input
//! property definitions ... for operation definitions that are within TOSCA Node or
//! Relationship Type definitions"), judged once for the type whether or not a template uses it.
//! TOSCA 2.0 types are [`super::calls`]' (its `type_inputs`).
//!
//! An input's `default` (or `value`, or a value written in place of a definition) may call a
//! function, and in a type only what the type itself knows is certain:
//!
//! - the call is well formed: its name is a function (a misspelt `get_propery` is an error,
//!   SP-FUNC-11) and its arguments fit the grammar (SP-FUNC-12), as [`ValueReader`] judges a
//!   template's values;
//! - `get_property` and `get_attribute` are `[ <entity>, <req_or_cap>?, <name>, ... ]` (B.4.2,
//!   B.5.1): two arguments at least; `SELF` is any entity of the type, so a name after `SELF`
//!   must be a property (for `get_attribute` a property or an attribute) of the type chain, or
//!   of the capability the type chain defines under the name before it; `SOURCE` and `TARGET`
//!   mean a relationship's ends (B.1 Reserved Function Keywords), so only a relationship type
//!   may name them.
//!
//! What is not judged: a `get_input`'s name (the inputs are those of whichever service template
//! uses the type, B.4.1 get_input); a path through a requirement (what it targets is decided by
//! a template); an entity named by a template's name or `HOST` (decided by a topology); a type
//! chain that is not complete (an unread import may define the name).
//!
//! Each fact is reported once: a template of the type reads the same values with the same reader
//! (`nodes::interfaces`), and what it reported at a place is kept
//! ([`Diagnostics::extend_at_new_places`]).

use super::functions::unknown_property;
use super::interface_parameters::{interfaces_of, of_interface};
use super::nodes::defs_complete;
use super::types::{Ancestry, definitions};
use super::typing::definitions_of;
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeDef, TypeKind, call};
use crate::yaml::Node as Yaml;

/// The kinds of type whose interface definitions hold inputs.
const KINDS: [TypeKind; 3] = [TypeKind::Node, TypeKind::Relationship, TypeKind::Group];

/// Checks the calls of every Simple Profile node, relationship and group type's interface
/// inputs.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect == Dialect::Tosca2 {
        return;
    }
    let reader = ValueReader {
        dialect: model.dialect,
        inputs: None,
        budget: None,
    };
    let mut found = Diagnostics::new();
    for ((kind, id), def) in &model.types {
        if !KINDS.contains(kind) {
            continue;
        }
        let values = inputs(*kind, &def.def);
        if values.is_empty() {
            continue;
        }
        let chain = ancestry.chain(model, *kind, id);
        let defs = definitions(model, *kind, &chain);
        let judge = Judge {
            model,
            kind: *kind,
            id,
            defs: defs_complete(model, &defs).then_some(&defs[..]),
        };
        for value in values {
            reader.value(value, &mut found);
            judge.walk(value, ancestry, &mut found);
        }
    }
    diags.extend_at_new_places(found.finish());
}

/// The value each input of each interface definition of a type gives: a definition's `default`
/// or `value`, or a value written in place of a definition.
fn inputs(kind: TypeKind, def: &Yaml) -> Vec<&Yaml> {
    let Some(map) = def.as_map() else {
        return Vec::new();
    };
    interfaces_of(kind, map)
        .into_iter()
        .flat_map(|interface| of_interface(interface, Dialect::SimpleProfile))
        .filter(|parameters| parameters.section == "inputs")
        .flat_map(|parameters| parameters.map.entries())
        .filter_map(|entry| match entry.value.as_map() {
            Some(m) if m.contains_key("type") => m.get("default").or_else(|| m.get("value")),
            _ => Some(&entry.value),
        })
        .collect()
}

/// One type's judgement of the calls its inputs make.
struct Judge<'m, 'd> {
    model: &'m Model,
    kind: TypeKind,
    id: &'m str,
    /// The type chain, most specific first; `None` when it is not complete.
    defs: Option<&'d [&'m TypeDef]>,
}

impl Judge<'_, '_> {
    /// Judges every `get_property` and `get_attribute` in `value`, wherever it is nested.
    fn walk(&self, value: &Yaml, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
        if let Some(call) = call::call_in(Dialect::SimpleProfile, value)
            && let ("get_property" | "get_attribute", Some(args)) = (call.name, call.args)
        {
            self.query(call.name, args, ancestry, diags);
        }
        let children: Vec<&Yaml> = match (value.as_map(), value.as_seq()) {
            (Some(map), _) => map.entries().iter().map(|e| &e.value).collect(),
            (_, Some(items)) => items.iter().collect(),
            _ => Vec::new(),
        };
        for child in children {
            self.walk(child, ancestry, diags);
        }
    }

    /// One `get_property` or `get_attribute` call's arguments.
    fn query(&self, function: &str, args: &Yaml, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
        let Some(items) = args.as_seq().filter(|a| a.len() >= 2) else {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "{function} needs a list: [ <SELF, HOST or node template>, <name>, ... ]"
                    ),
                )
                .at(args.span)
                .hint(format!(
                    "e.g. `{function}: [ SELF, port ]` (B.4.2 get_property, B.5.1 get_attribute)"
                )),
            );
            return;
        };
        match items[0].as_str() {
            Some("SELF") => self.self_path(function, &items[1..], ancestry, diags),
            Some(keyword @ ("SOURCE" | "TARGET")) if self.kind != TypeKind::Relationship => {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!(
                            "{function}: {keyword} means an end of the relationship the function is written in, and {} `{}` describes no relationship",
                            self.kind.noun(),
                            self.id
                        ),
                    )
                    .at(items[0].span)
                    .hint("start from SELF (the entity the type describes); SOURCE and TARGET belong in a relationship type or a requirement's relationship (B.1 Reserved Function Keywords)"),
                );
            }
            _ => {}
        }
    }

    /// `[ SELF, <req_or_cap>?, <name>, ... ]`: the name must be one the type chain (or its
    /// capability) defines.
    fn self_path(
        &self,
        function: &str,
        rest: &[Yaml],
        ancestry: &mut Ancestry,
        diags: &mut Diagnostics,
    ) {
        let Some(defs) = self.defs else {
            return;
        };
        let Some(first) = rest[0].as_str() else {
            return;
        };
        let sections: &[&str] = if function == "get_property" {
            &["properties"]
        } else {
            // Every property is also an attribute of the same name.
            &["properties", "attributes"]
        };
        let own = names(defs, sections);
        if own.contains(&first) {
            return;
        }
        if rest.len() >= 2 && self.requirement(defs, first) {
            return;
        }
        let capability = (rest.len() >= 2)
            .then(|| capability_layers(defs, first))
            .filter(|layers| !layers.is_empty());
        let (owner, name, at, known) = match capability {
            Some(layers) => {
                let Some(name) = rest[1].as_str() else {
                    return;
                };
                let Some(known) = self.capability_names(&layers, sections, ancestry) else {
                    return;
                };
                if known.iter().any(|n| n == name) {
                    return;
                }
                let owner = format!("capability `{first}` of {} `{}`", self.kind.noun(), self.id);
                (owner, name, &rest[1], known)
            }
            None => {
                let owner = format!("{} `{}`", self.kind.noun(), self.id);
                let known = own.iter().map(|n| n.to_string()).collect();
                (owner, first, &rest[0], known)
            }
        };
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        diags.push(unknown_property(function, &owner, name, at, known));
    }

    /// Whether the type chain defines a requirement `name` (a list of single-entry maps).
    fn requirement(&self, defs: &[&TypeDef], name: &str) -> bool {
        defs.iter()
            .filter_map(|d| d.def.as_map()?.get("requirements")?.as_seq())
            .flatten()
            .filter_map(Yaml::as_map)
            .any(|m| m.contains_key(name))
    }

    /// The property (and attribute) names of a capability the type chain defines: its type
    /// chain's and its definitions' own; `None` when its type is not known completely.
    fn capability_names(
        &self,
        layers: &[&Yaml],
        sections: &[&str],
        ancestry: &mut Ancestry,
    ) -> Option<Vec<String>> {
        // A definition is its type's name (the short form) or a map with `type`.
        let type_name = layers
            .iter()
            .find_map(|l| l.as_str().or_else(|| l.as_map()?.get("type")?.as_str()))?;
        let chain = ancestry.chain(self.model, TypeKind::Capability, type_name);
        let defs = definitions(self.model, TypeKind::Capability, &chain);
        if chain.is_empty() || !defs_complete(self.model, &defs) {
            return None;
        }
        let mut known: Vec<String> = names(&defs, sections)
            .into_iter()
            .map(str::to_string)
            .collect();
        for layer in layers.iter().filter_map(|l| l.as_map()) {
            for section in sections {
                let own = layer.get(section).and_then(Yaml::as_map);
                known.extend(
                    own.iter()
                        .flat_map(|m| m.entries())
                        .filter_map(|e| e.key.scalar_text())
                        .map(str::to_string),
                );
            }
        }
        Some(known)
    }
}

/// The definitions of capability `name` along a type chain, most specific first.
fn capability_layers<'m>(defs: &[&'m TypeDef], name: &str) -> Vec<&'m Yaml> {
    defs.iter()
        .filter_map(|d| d.def.as_map()?.get("capabilities")?.as_map()?.get(name))
        .collect()
}

/// The names `sections` of a type chain define.
fn names<'m>(defs: &[&'m TypeDef], sections: &[&str]) -> Vec<&'m str> {
    sections
        .iter()
        .flat_map(|section| definitions_of(defs, section).into_keys())
        .collect()
}
