//! A Simple Profile 1.x capability, requirement or interface definition that refines nothing
//! inherited is a new definition, and must name what it is based on:
//!
//! - a capability definition its `type`: "type: yes — The required name of the Capability Type
//!   the capability definition is based upon" (A.6.1.1 Keynames, Capability definition);
//! - a requirement definition its `capability`: "capability: yes — The required reserved keyname
//!   used that can be used to provide the name of a valid Capability Type that can fulfil the
//!   requirement" (A.6.2.1 Keynames, Requirement definition);
//! - an interface definition in a type its `type`: "interface_type_name: represents the required
//!   name of the Interface Type for the interface definition" (A.5.12.2.1 Extended notation for
//!   use in Type definitions).
//!
//! Without it a template's capability has no type to read its properties by, a requirement
//! matches any capability, and an interface's operations belong to no interface type: each
//! would be read as something the template does not say. A definition under a name a parent
//! type already defines refines the inherited one and may leave the keyname out, as
//! [`super::simple_new_definitions`] reads property definitions (checklist SP-TYPE-02: "a
//! derived type does not have to repeat keynames that are required in its parent"). The short
//! forms (`name: CapabilityType`, `- name: CapabilityType`) name it by their value. TOSCA 2.0
//! has these rules in its grammar (`front::tosca2`).

use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeDef};
use crate::yaml::{Entry, Node};

/// One section of a type whose definitions must name what they are based on.
struct Part {
    section: &'static str,
    noun: &'static str,
    /// The noun with its indefinite article.
    a_noun: &'static str,
    keyname: &'static str,
    rule: &'static str,
}

const PARTS: [Part; 3] = [
    Part {
        section: "capabilities",
        noun: "capability",
        a_noun: "a capability",
        keyname: "type",
        rule: "A.6.1.1 Keynames, Capability definition: `type` is required",
    },
    Part {
        section: "requirements",
        noun: "requirement",
        a_noun: "a requirement",
        keyname: "capability",
        rule: "A.6.2.1 Keynames, Requirement definition: `capability` is required",
    },
    Part {
        section: "interfaces",
        noun: "interface",
        a_noun: "an interface",
        keyname: "type",
        rule: "A.5.12.2.1 Extended notation for use in Type definitions: the interface type name is required",
    },
];

/// Reports every new capability, requirement or interface definition of a 1.x type that does
/// not name what it is based on.
pub(super) fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect == Dialect::Tosca2 || model.incomplete_types {
        return;
    }
    for ((kind, id), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        // The common case, every definition naming its base, costs no walk of the type chain.
        let incomplete = PARTS.iter().any(|part| {
            map.get(part.section)
                .is_some_and(|s| named_entries(s).any(|e| lacks(part, &e.value)))
        });
        if !incomplete {
            continue;
        }
        let chain = ancestry.chain(model, *kind, id);
        let defs = definitions(model, *kind, &chain);
        // A chain that stops at a parent no file defines (reported where it is named) hides
        // what that parent defines: nothing is judged new then.
        if defs.last().is_none_or(|top| top.derived_from.is_some()) {
            continue;
        }
        let parents = defs.get(1..).unwrap_or_default();
        for part in &PARTS {
            let Some(own) = map.get(part.section) else {
                continue;
            };
            for entry in named_entries(own) {
                let Some(name) = entry.key.scalar_text() else {
                    continue;
                };
                if lacks(part, &entry.value) && !inherited(parents, part.section, name) {
                    diags.push(missing(part, name, def, entry));
                }
            }
        }
    }
}

/// The named definitions of a section: a map, or (requirements) a list of one-entry maps.
fn named_entries(section: &Node) -> impl Iterator<Item = &Entry> {
    let listed = section.as_seq().unwrap_or_default().iter();
    let single = listed.filter_map(Node::as_map).flat_map(|m| m.entries());
    let mapped = section.as_map().map(|m| m.entries()).unwrap_or_default();
    mapped.iter().chain(single)
}

/// Whether a definition is written as a map of keynames without the one naming its base (a
/// short form names it by its value; an empty definition is reported by the grammar).
fn lacks(part: &Part, body: &Node) -> bool {
    body.as_map().is_some_and(|b| !b.contains_key(part.keyname))
}

/// Whether a parent type defines a definition of this name in this section.
fn inherited(parents: &[&TypeDef], section: &str, name: &str) -> bool {
    parents.iter().any(|parent| {
        parent
            .def
            .as_map()
            .and_then(|m| m.get(section))
            .is_some_and(|s| named_entries(s).any(|e| e.key.scalar_text() == Some(name)))
    })
}

fn missing(part: &Part, name: &str, def: &TypeDef, entry: &Entry) -> Diagnostic {
    let (noun, a_noun, keyname) = (part.noun, part.a_noun, part.keyname);
    Diagnostic::error(
        codes::TOSCA_MISSING_KEY,
        format!("new {noun} definition `{name}` of `{}` has no `{keyname}`", def.name),
    )
    .at_with(entry.key.span, format!("no parent type defines this {noun}"))
    .hint(format!(
        "write the `{keyname}` it is based on ({}); {a_noun} definition without it only refines one of the same name a parent type defines: check the name against the parent's {}",
        part.rule, part.section
    ))
}
