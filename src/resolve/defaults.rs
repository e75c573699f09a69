//! Defaults judged where they are written: every `default` of a property, attribute or data-type
//! field definition in a type (and, in TOSCA 2.0, a property's fixed `value`) is read against its
//! definition by the same checker that reads an assigned value ([`Typing::value`]): its type,
//! `constraints` or `validation`, and `valid_values`.
//!
//! A default is a value the definition hands to every template that leaves the property unset,
//! so it must be one the definition allows: TOSCA 2.0 types the `default` keyname as "<must
//! match property type>" (§9.4 Property Definition) and says of an attribute's "This value SHALL
//! be type compatible with the type declared by the attribute definition's type keyname"
//! (§9.6 Attribute Definition); the Simple Profile's `default_value` "contains a type-compatible
//! value" (A.5.7 Property definition, A.5.9 Attribute definition). The
//! definition is seen through the type chain, so a subtype that only adds a `default` to an
//! inherited property is read against the inherited `type` and every inherited constraint
//! (a refinement adds to what it inherits, §9.4.2 Refining Property Definitions).
//!
//! Runs over every type read, used or not, once per definition: a template that takes the
//! default later reads it quietly ([`Typing::defaults`]), so each mistake is reported once, here.

use super::types::definitions;
use super::typing::{Typing, definitions_of};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Dialect;
use crate::yaml::Node;

/// The sections of a type that hold value definitions with defaults: a data type's fields are
/// its `properties`.
const SECTIONS: &[&str] = &["properties", "attributes"];

/// Checks the default (and fixed 2.0 `value`) of every definition written in a type.
pub fn check(typing: &mut Typing, diags: &mut Diagnostics) {
    let model = typing.model;
    for ((kind, id), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        // The chain is walked only for a type that writes definitions: a long chain of types
        // that only derive costs nothing here.
        if !SECTIONS.iter().any(|s| map.get(s).is_some()) {
            continue;
        }
        let chain = typing.ancestry.chain(model, *kind, id);
        let defs = definitions(model, *kind, &chain);
        for section in SECTIONS {
            let Some(own) = map.get(section).and_then(Node::as_map) else {
                continue;
            };
            let merged = definitions_of(&defs, section);
            for entry in own.entries() {
                let (Some(name), Some(body)) = (entry.key.scalar_text(), entry.value.as_map())
                else {
                    continue;
                };
                let Some(definition) = merged.get(name) else {
                    continue;
                };
                let fixed = (model.dialect == Dialect::Tosca2 && *section == "properties")
                    .then(|| body.get("value"))
                    .flatten();
                let written = [("default", body.get("default")), ("fixed value", fixed)];
                for (what, value) in written {
                    // `default: null` is read as no default at all, as parsers of the Simple
                    // Profile read it (a YAML null is the absence of a value): real profiles
                    // write it on attributes that have no value until deployment.
                    if let Some(value) = value.filter(|v| !v.is_null()) {
                        let mut found = Diagnostics::new();
                        typing.value(value, definition, name, &mut found);
                        diags.extend(found.iter().cloned().map(|d| of_definition(d, what)));
                    }
                }
            }
        }
    }
}

/// A problem of a value read as a definition's `what` (`default`, `fixed value`): the message
/// says whose value it is, and the hint why the definition's own value must fit it.
fn of_definition(mut d: Diagnostic, what: &str) -> Diagnostic {
    if d.message.starts_with('`') {
        d.message = format!("the {what} of {}", d.message);
    }
    let why = format!(
        "a definition's {what} is a value of the definition, so it must fit its type and constraints (§9.4 Property Definition, §9.6 Attribute Definition; Simple Profile A.5.7 Property definition)"
    );
    d.hint = Some(match d.hint.take() {
        Some(hint) => format!("{hint}; {why}"),
        None => why,
    });
    d
}
