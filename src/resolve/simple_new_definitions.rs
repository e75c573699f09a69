//! A Simple Profile 1.x definition in a type that refines nothing inherited is a new
//! definition, and must be a whole one: it must name what it is based on.
//!
//! - a property or attribute definition its `type`: "type: yes (required) — The required data
//!   type for the property" (A.5.7.2 Keynames, Property definition), and the same for an
//!   attribute (A.5.9.2 Keynames, Attribute definition);
//! - a capability definition its `type`: "type: yes — The required name of the Capability Type
//!   the capability definition is based upon" (A.6.1.1 Keynames, Capability definition);
//! - a requirement definition its `capability`: "capability: yes — The required reserved keyname
//!   used that can be used to provide the name of a valid Capability Type that can fulfil the
//!   requirement" (A.6.2.1 Keynames, Requirement definition);
//! - an interface definition in a type its `type`: "interface_type_name: represents the required
//!   name of the Interface Type for the interface definition" (A.5.12.2.1 Extended notation for
//!   use in Type definitions).
//!
//! Without it a property's values could not be checked nor its default (it would be read as a
//! `string`, or dropped, without a word), a template's capability has no type to read its
//! properties by, a requirement matches any capability, and an interface's operations belong
//! to no interface type.
//!
//! A definition under a name a parent type already defines (in any form) refines the inherited
//! one and may leave the keyname out (checklist SP-TYPE-02: "a derived type does not have to
//! repeat keynames that are required in its parent"). The short forms differ by part: a
//! capability's `name: CapabilityType`, a requirement's `- name: CapabilityType` and an
//! interface's `name: InterfaceType` name the base by their value, while a property's
//! one-line `<name>: <value>` (which OpenStack tosca-parser's test files write in derived types
//! to change an inherited default, `test_tosca_custom_rel.yaml`) names no type: it only refines.
//!
//! A chain that stops at a parent no file defines judges nothing new: that parent is reported
//! where it is named, and whatever it would define is unknown, so "no parent type defines this"
//! would be a claim toscana cannot make, and a second error for the one mistake. TOSCA 2.0 has
//! its own rules: its grammar (`front::tosca2`) and `super::refinement::new_definitions`.

use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeDef};
use crate::yaml::{Entry, Node};

/// One section of a type whose new definitions must name what they are based on.
struct Part {
    section: &'static str,
    noun: &'static str,
    /// The noun with its indefinite article.
    a_noun: &'static str,
    keyname: &'static str,
    rule: &'static str,
    form: Form,
}

/// How a part's definitions may be written, and so which of them lack their base.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// A value definition (property, attribute): a map of keynames in a map section; any other
    /// value under a new name lacks its `type`, an empty one (`name:`) too: it would define a
    /// property of no type.
    Value,
    /// A definition whose short form names its base by its value (capability, requirement,
    /// interface); only a map of keynames can lack it. Requirements are a list of one-entry
    /// maps.
    Based,
}

const PARTS: [Part; 5] = [
    Part {
        section: "properties",
        noun: "property",
        a_noun: "a property",
        keyname: "type",
        rule: "A.5.7.2: `type` is required",
        form: Form::Value,
    },
    Part {
        section: "attributes",
        noun: "attribute",
        a_noun: "an attribute",
        keyname: "type",
        rule: "A.5.9.2: `type` is required",
        form: Form::Value,
    },
    Part {
        section: "capabilities",
        noun: "capability",
        a_noun: "a capability",
        keyname: "type",
        rule: "A.6.1.1 Keynames, Capability definition: `type` is required",
        form: Form::Based,
    },
    Part {
        section: "requirements",
        noun: "requirement",
        a_noun: "a requirement",
        keyname: "capability",
        rule: "A.6.2.1 Keynames, Requirement definition: `capability` is required",
        form: Form::Based,
    },
    Part {
        section: "interfaces",
        noun: "interface",
        a_noun: "an interface",
        keyname: "type",
        rule: "A.5.12.2.1 Extended notation for use in Type definitions: the interface type name is required",
        form: Form::Based,
    },
];

/// Reports every new definition of a 1.x type that does not name what it is based on.
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
                .is_some_and(|s| named_entries(part, s).any(|e| lacks(part, &e.value)))
        });
        if !incomplete {
            continue;
        }
        let chain = ancestry.chain(model, *kind, id);
        let defs = definitions(model, *kind, &chain);
        if defs.last().is_none_or(|top| top.derived_from.is_some()) {
            continue;
        }
        let parents = defs.get(1..).unwrap_or_default();
        for part in &PARTS {
            let Some(own) = map.get(part.section) else {
                continue;
            };
            for entry in named_entries(part, own) {
                let Some(name) = entry.key.scalar_text() else {
                    continue;
                };
                if lacks(part, &entry.value) && !inherited(parents, part, name) {
                    diags.push(missing(part, name, def, entry));
                }
            }
        }
    }
}

/// The named definitions of a section: a map, or (definitions that may be listed, requirements)
/// a list of one-entry maps.
fn named_entries<'n>(part: &Part, section: &'n Node) -> impl Iterator<Item = &'n Entry> {
    let listed = match part.form {
        Form::Based => section.as_seq().unwrap_or_default(),
        Form::Value => &[],
    };
    let single = listed
        .iter()
        .filter_map(Node::as_map)
        .flat_map(|m| m.entries());
    let mapped = section.as_map().map(|m| m.entries()).unwrap_or_default();
    mapped.iter().chain(single)
}

/// Whether a definition, read as a new one, does not name its base.
fn lacks(part: &Part, body: &Node) -> bool {
    match part.form {
        Form::Value => body.as_map().is_none_or(|b| !b.contains_key("type")),
        Form::Based => body.as_map().is_some_and(|b| !b.contains_key(part.keyname)),
    }
}

/// Whether a parent type writes a definition of this name in this part's section.
fn inherited(parents: &[&TypeDef], part: &Part, name: &str) -> bool {
    parents.iter().any(|parent| {
        parent
            .def
            .as_map()
            .and_then(|m| m.get(part.section))
            .is_some_and(|s| named_entries(part, s).any(|e| e.key.scalar_text() == Some(name)))
    })
}

fn missing(part: &Part, name: &str, def: &TypeDef, entry: &Entry) -> Diagnostic {
    let (noun, a_noun, keyname, section) = (part.noun, part.a_noun, part.keyname, part.section);
    let label = format!("no parent type defines this {noun}");
    match part.form {
        Form::Value => {
            let problem = if entry.value.as_map().is_some() || entry.value.is_null() {
                "has no `type`"
            } else {
                "is not a map of keynames"
            };
            Diagnostic::error(
                codes::TOSCA_MISSING_KEY,
                format!("new {noun} `{name}` of `{}` {problem}", def.name),
            )
            .at_with(entry.key.span, label)
            .hint(format!("a new {noun} definition is a map with its `type` ({}); the one-line `{name}: <value>` and a definition without `type` only refine an inherited {noun}: check the name against the parent's {section}", part.rule))
        }
        Form::Based => Diagnostic::error(
            codes::TOSCA_MISSING_KEY,
            format!("new {noun} definition `{name}` of `{}` has no `{keyname}`", def.name),
        )
        .at_with(entry.key.span, label)
        .hint(format!(
            "write the `{keyname}` it is based on ({}); {a_noun} definition without it only refines one of the same name a parent type defines: check the name against the parent's {section}",
            part.rule
        )),
    }
}
