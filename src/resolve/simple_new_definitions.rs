//! A Simple Profile 1.x property or attribute definition that refines nothing inherited is a
//! new definition, and must be a whole one: a map of keynames with its `type`. "type: yes
//! (required) — The required data type for the property" (A.5.7.2 Keynames, Property
//! definition), and the same for an attribute (A.5.9.2 Keynames, Attribute definition).
//!
//! Two forms are read as refinements of an inherited definition and so need neither
//! (checklist SP-TYPE-02: "a derived type does not have to repeat keynames that are required
//! in its parent"): a definition without `type` under an inherited name, and the one-line
//! `<name>: <value>` that OpenStack tosca-parser's test files write in derived types to change
//! an inherited default (`test_tosca_custom_rel.yaml`). Under a new name, both define a
//! property of no type at all: a template's value could not be checked, nor a default, and the
//! definition would be dropped (the one-line form) or read as a `string` (no `type`) without a
//! word. TOSCA 2.0 has its own rule in `super::refinement::new_definitions`.

use super::types::{Ancestry, definitions};
use super::typing::definitions_of;
use super::written_definitions::SECTIONS;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::Model;

/// Reports every new property or attribute definition of a 1.x type that is not a map with a
/// `type`.
pub(super) fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect == Dialect::Tosca2 || model.incomplete_types {
        return;
    }
    for ((kind, id), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        // The common case, every definition naming its type, costs no walk of the type chain.
        let incomplete = SECTIONS
            .iter()
            .filter_map(|s| map.get(s)?.as_map())
            .any(|m| {
                m.entries().iter().any(|e| {
                    !e.value.is_null() && e.value.as_map().is_none_or(|b| !b.contains_key("type"))
                })
            });
        if !incomplete {
            continue;
        }
        let chain = ancestry.chain(model, *kind, id);
        let defs = definitions(model, *kind, &chain);
        let parents = defs.get(1..).unwrap_or_default();
        for section in SECTIONS {
            let Some(own) = map.get(section).and_then(|n| n.as_map()) else {
                continue;
            };
            let inherited = definitions_of(parents, section);
            for entry in own.entries() {
                let Some(name) = entry.key.scalar_text() else {
                    continue;
                };
                if inherited.contains_key(name) || entry.value.is_null() {
                    continue;
                }
                let noun = if section == "properties" {
                    "property"
                } else {
                    "attribute"
                };
                let problem = match entry.value.as_map() {
                    Some(body) if body.contains_key("type") => continue,
                    Some(_) => "has no `type`",
                    None => "is not a map of keynames",
                };
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("new {noun} `{name}` of `{}` {problem}", def.name),
                    )
                    .at_with(entry.key.span, format!("no parent type defines this {noun}"))
                    .hint(format!("a new {noun} definition is a map with its `type` (A.5.7.2: `type` is required); the one-line `{name}: <value>` and a definition without `type` only refine an inherited {noun}: check the name against the parent's {section}")),
                );
            }
        }
    }
}
