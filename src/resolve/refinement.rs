//! Refinement may only narrow: a property or attribute definition that a derived type writes
//! again under an inherited name refines the inherited one, and may not
//!
//! - change its `type` to one that is not derived from (or the same as) the inherited type:
//!   "`type`: must be derived from (or the same as) the type in the property definition in the
//!   parent entity type definition" (§9.4 Property Definition, and §9.6 Attribute Definition
//!   for attributes);
//! - turn a required property into an optional one: "`required`: if defined to "false" in the
//!   property definition parent entity type it may be redefined to "true"" and only so;
//! - widen an inherited `in_range` (Simple Profile, [`check_in_range`]);
//! - set again a TOSCA 2.0 property's fixed `value`: "once defined, the property cannot be
//!   further refined or assigned" (§9.4 Property Definition). A template assigning it is
//!   reported where templates are read ([`super::typing`]).
//!
//! A definition that refines nothing inherited must be a complete new one, and a capability
//! definition may refine only what its capability type defines ([`new_definitions`]).
//!
//! A template whose type was refined this way would take values its parent type forbids, which
//! is why substitution and `derived_from` checks may rely on a subtype narrowing only. The same
//! rules hold for Simple Profile 1.x types, whose derivation merges definitions by name
//! (SP-TYPE-04): a subtype that redefined `type` or dropped `required` would break every
//! template valid for its parent. Types are judged where they are written, used or not (the
//! walk is [`super::written_definitions`], shared with [`super::defaults`]).

use std::cmp::Ordering;

use super::constraints::{bound_type, compare, shown};
use super::types::{Ancestry, definitions};
use super::typing::{Definition, Typing, definitions_of};
use super::written_definitions::{SECTIONS, Written};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, Value};
use crate::model::{Model, TypeKind};
use crate::yaml::{Core, Map, Node as Yaml};

/// The keynames of a definition that hold schemas (§9.3 Schema Definition).
const SCHEMAS: [&str; 2] = ["key_schema", "entry_schema"];
/// How deep nested schemas are compared; the YAML depth limit bounds them anyway.
const MAX_DEPTH: usize = 32;

/// Checks one definition a type writes ([`super::written_definitions::each`]) against the one
/// of the same name it inherits, if any.
pub fn check<'m>(typing: &mut Typing<'_, 'm>, written: &Written<'_, 'm>, diags: &mut Diagnostics) {
    let Some(parent) = written.inherited else {
        return;
    };
    let refined = Refined {
        noun: if written.section == "attributes" {
            "attribute"
        } else {
            "property"
        },
        rule: "§9.4 Property Definition",
        name: written.name,
        body: written.body,
        parent,
    };
    refined.check_type(typing, diags);
    if written.section == "properties" {
        refined.check_required(diags);
        if typing.model.dialect == Dialect::Tosca2 {
            refined.check_fixed_value(diags);
        } else {
            let whose = (refined.noun, refined.name);
            check_in_range(typing, written.body, parent, whose, diags);
        }
    }
}

/// A TOSCA 2.0 data type derived from another that restates `key_schema` or `entry_schema`
/// refines the inherited schema: "key_schema: the key_schema definition may be refined according
/// to schema refinement rules", and so may `entry_schema` (§9.2 Data Type), whose `type` "must be
/// derived from (or the same as) the type in the schema definition in the parent" (§9.3 Schema
/// Definition).
pub fn data_type_schemas(typing: &mut Typing<'_, '_>, diags: &mut Diagnostics) {
    let model = typing.model;
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    for ((kind, id), def) in &model.types {
        let Some(body) = def.def.as_map() else {
            continue;
        };
        if *kind != TypeKind::Data || !SCHEMAS.iter().any(|k| body.contains_key(k)) {
            continue;
        }
        let chain = typing.ancestry.chain(model, TypeKind::Data, id);
        let parents = definitions(model, TypeKind::Data, chain.get(1..).unwrap_or(&[]));
        let parent = Definition {
            layers: parents.iter().filter_map(|p| p.def.as_map()).collect(),
            ..Definition::default()
        };
        let refined = Refined {
            noun: "data type",
            rule: "§9.2 Data Type",
            name: &def.name,
            body,
            parent: &parent,
        };
        refined.check_type(typing, diags);
    }
}

/// One definition a derived type (or an interface definition) writes under an inherited name.
pub(super) struct Refined<'a, 'm> {
    /// What is refined: `property`, `attribute`, `input`, `output`.
    pub noun: &'static str,
    /// The section whose refinement rules apply, as the hints cite it.
    pub rule: &'static str,
    pub name: &'a str,
    pub body: &'m Map,
    /// The inherited definition, through the whole parent chain.
    pub parent: &'a Definition<'m>,
}

impl Refined<'_, '_> {
    fn noun(&self) -> &'static str {
        self.noun
    }

    /// The refined `type` derives from (or is) the inherited one, and so do the types of its
    /// `entry_schema` and `key_schema`, recursively: "`key_schema`: may be refined
    /// (recursively) according to schema refinement rules", whose `type` "must be derived from
    /// (or the same as) the type in the schema definition in the parent entity type
    /// definition" (§9.3 Schema Definition).
    /// A refinement that keeps the inherited `type` may still refine its schemas.
    pub fn check_type(&self, typing: &mut Typing, diags: &mut Diagnostics) {
        let narrowed = match (self.body.get("type"), self.parent.get("type")) {
            (Some(own), Some(inherited)) => self.narrows(typing, own, inherited, "type", diags),
            _ => true,
        };
        if narrowed {
            for key in SCHEMAS {
                if let (Some(own), Some(inherited)) = (self.body.get(key), self.parent.get(key)) {
                    self.check_schema(typing, own, inherited, key, 0, diags);
                }
            }
        }
    }

    /// One schema against the inherited one: its type, then its own schemas.
    fn check_schema(
        &self,
        typing: &mut Typing,
        own: &Yaml,
        inherited: &Yaml,
        path: &str,
        depth: usize,
        diags: &mut Diagnostics,
    ) {
        let type_of = |schema: &Yaml| match schema.as_map() {
            Some(map) => map.get("type").cloned(),
            None => schema.scalar_text().is_some().then(|| schema.clone()),
        };
        let (Some(own_type), Some(inherited_type)) = (type_of(own), type_of(inherited)) else {
            return;
        };
        if !self.narrows(typing, &own_type, &inherited_type, path, diags) || depth >= MAX_DEPTH {
            return;
        }
        let (Some(own), Some(inherited)) = (own.as_map(), inherited.as_map()) else {
            return;
        };
        for key in SCHEMAS {
            if let (Some(own), Some(inherited)) = (own.get(key), inherited.get(key)) {
                let path = format!("{path}.{key}");
                self.check_schema(typing, own, inherited, &path, depth + 1, diags);
            }
        }
    }

    /// Whether the type node `own`, written at `path` (`type`, `entry_schema`, ...), derives
    /// from (or is) the inherited `inherited`; reported when not.
    fn narrows(
        &self,
        typing: &mut Typing,
        own: &Yaml,
        inherited: &Yaml,
        path: &str,
        diags: &mut Diagnostics,
    ) -> bool {
        let (own_id, inherited_id) = (typing.identity(own), typing.identity(inherited));
        if typing.type_fits(&own_id, &inherited_id) {
            return true;
        }
        let written = inherited.scalar_text().unwrap_or_default();
        let (what, rule) = if path == "type" {
            ("type".to_string(), self.rule)
        } else {
            (format!("`{path}` type"), "§9.3 Schema Definition")
        };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "{} `{}` refines its inherited {what} `{written}` to `{}`, which is not derived from it",
                    self.noun(),
                    self.name,
                    own.scalar_text().unwrap_or_default(),
                ),
            )
            .at_with(own.span, "the refined type")
            .label(inherited.span, "the inherited type")
            .hint(format!(
                "a refinement's {what} must be derived from (or the same as) the parent's ({rule}, refinement rules): write `{written}` or a type derived from it, or give the {} another name",
                self.noun()
            )),
        );
        false
    }

    /// A required inherited property stays required.
    pub fn check_required(&self, diags: &mut Diagnostics) {
        let Some(required) = self.body.get("required") else {
            return;
        };
        let optional = matches!(
            required.as_scalar().map(|s| s.core),
            Some(Core::Bool(false))
        );
        if !optional || !self.parent.required() {
            return;
        }
        let mut d = Diagnostic::error(
            codes::TOSCA_SHAPE,
            format!(
                "{} `{}` is required in its parent type and cannot be refined to `required: false`",
                self.noun,
                self.name
            ),
        )
        .at_with(required.span, "weakens the inherited `required`")
        .hint(format!("a refinement may turn `required: false` into `true`, never the other way ({}, refinement rules): remove `required: false`, or define a new {}", self.rule, self.noun));
        if let Some(inherited) = self.parent.get("required") {
            d = d.label(inherited.span, "required here");
        }
        diags.push(d);
    }

    /// A TOSCA 2.0 property whose parent fixed its `value` is not given another.
    pub fn check_fixed_value(&self, diags: &mut Diagnostics) {
        let (Some(own), Some(fixed)) = (self.body.get("value"), self.parent.get("value")) else {
            return;
        };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!(
                    "{} `{}` has a fixed `value` in its parent type, which a derived type cannot set again",
                    self.noun,
                    self.name
                ),
            )
            .at_with(own.span, "sets the fixed value again")
            .label(fixed.span, "fixed here")
            .hint(format!("once a definition has a `value`, the {} cannot be further refined or assigned ({}): remove this `value`, or remove the parent's if the value is meant to vary", self.noun, self.rule)),
        );
    }
}

/// One bound of a range: a value, or `UNBOUNDED` above every value.
enum Bound {
    Value(Value),
    Unbounded,
}

/// A Simple Profile refinement may only narrow an inherited `in_range`: "subclasses or
/// templates of types that declare a property with the in_range constraint MAY only further
/// restrict the range specified by the parent type" (A.5.2.1 Operator keynames, the note under
/// its table; SP-TYPE-06). Constraints of a refinement
/// add to those it inherits, so a wider range would let no value through that the parent's
/// refuses; but the author meant values the parent forbids, and a template written for the
/// subtype would be refused for them, so the widened bound is reported where it is written.
///
/// Each `in_range` the refined definition writes is compared with each `in_range` of the
/// definitions it inherits, bound by bound, as values of the property's type (so `1 GB` and
/// `1000 MB` compare as sizes); an upper bound of `UNBOUNDED` is above every other.
///
/// Reports each bound of an `in_range` that `body` writes which lies outside an inherited
/// `in_range` of `parent`; `noun` and `name` say whose definition it is.
fn check_in_range(
    typing: &mut Typing,
    body: &Map,
    parent: &Definition,
    (noun, name): (&str, &str),
    diags: &mut Diagnostics,
) {
    let Some(type_node) = body.get("type").or_else(|| parent.get("type")) else {
        return;
    };
    let type_name = typing.identity(type_node);
    let inherited: Vec<&Yaml> = parent.layers.iter().flat_map(|l| in_ranges(l)).collect();
    for own in in_ranges(body) {
        let Some((low, high)) = bounds(typing, own, &type_name) else {
            continue;
        };
        for wider in &inherited {
            let Some((parent_low, parent_high)) = bounds(typing, wider, &type_name) else {
                continue;
            };
            let low_below = below(&low, &parent_low);
            let high_above = below(&parent_high, &high);
            if low_below || high_above {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_CONSTRAINT,
                        format!(
                            "{noun} `{name}` refines the inherited `in_range: {}` to `in_range: {}`, which is wider",
                            shown(*wider),
                            shown(own)
                        ),
                    )
                    .at_with(own.span, "widens the inherited range")
                    .label(wider.span, "the inherited range")
                    .hint("a refinement may only further restrict an inherited in_range (A.5.2.1 Operator keynames): write bounds within the parent's"),
                );
            }
        }
    }
}

/// The operands of the `in_range` clauses a definition writes.
fn in_ranges(definition: &Map) -> Vec<&Yaml> {
    let Some(clauses) = definition.get("constraints") else {
        return Vec::new();
    };
    clauses
        .as_seq()
        .unwrap_or(std::slice::from_ref(clauses))
        .iter()
        .filter_map(|c| c.as_map()?.get("in_range"))
        .collect()
}

/// The two bounds of an `in_range` operand as values of the definition's type, `None` when one
/// is not a value of it. Read without reporting ([`Typing::operand_fit`]): the operand is read
/// where it is written, and a malformed one reported there (`written_definitions::
/// judge_constraints`). A bound that is a call or a collection reads, but compares with
/// nothing, so it decides nothing.
fn bounds(typing: &mut Typing, operand: &Yaml, type_name: &str) -> Option<(Bound, Bound)> {
    let [low, high] = operand.as_seq()? else {
        return None;
    };
    let element = bound_type(type_name);
    let mut read = |node: &Yaml| match node.scalar_text() {
        Some("UNBOUNDED") => Some(Bound::Unbounded),
        _ => typing.operand_fit(node, element).ok().map(Bound::Value),
    };
    Some((read(low)?, read(high)?))
}

/// Whether bound `a` lies strictly below bound `b`; bounds that cannot be compared are not.
fn below(a: &Bound, b: &Bound) -> bool {
    match (a, b) {
        (Bound::Unbounded, _) => false,
        (Bound::Value(_), Bound::Unbounded) => true,
        (Bound::Value(a), Bound::Value(b)) => compare(a, b) == Some(Ordering::Less),
    }
}

// Definitions that may only refine.
//
// TOSCA 2.0 definitions that may only refine, never add: where a definition is written without
// its `type`, or where the spec forbids new names, the name must be one the definition
// inherits.
//
// - A property or attribute a derived type introduces needs its `type`: the single-line form
//   `<prop>: <value>` and a definition without `type` are refinements of an inherited
//   definition (§9.4 Property Definition: `type` is mandatory, and "the short form can be used
//   only during a refinement (i.e. the property has been previously defined)"; §9.6 Attribute
//   Definition). A type with no parent is the front's to judge (every definition there is new).
// - A capability definition's properties and attributes refine those of its capability type:
//   "The referred properties must have been defined in the capability type definition
//   referred to by the type keyname. New properties may not be added." (§8.2 Capability
//   Definition), and the same for attributes.
//
// TOSCA 2.0 only: Simple Profile 1.x capability definitions may add properties (A.6.1
// Capability definition lists them as property definitions).

/// Checks every type of a TOSCA 2.0 model for definitions that add what may only be refined
/// (see the section comment above).
pub(super) fn new_definitions(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect != Dialect::Tosca2 || model.incomplete_types {
        return;
    }
    for ((kind, id), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        if *kind == TypeKind::Node {
            capability_definitions(model, ancestry, map, diags);
        }
        if def.derived_from.is_none() || !SECTIONS.iter().any(|s| map.contains_key(s)) {
            continue;
        }
        let chain = ancestry.chain(model, *kind, id);
        let defs = definitions(model, *kind, &chain);
        let Some(parents) = defs.get(1..) else {
            continue;
        };
        for section in SECTIONS {
            let Some(own) = map.get(section).and_then(Yaml::as_map) else {
                continue;
            };
            let inherited = definitions_of(parents, section);
            for entry in own.entries() {
                let Some(name) = entry.key.as_str() else {
                    continue;
                };
                let typed = entry.value.as_map().is_some_and(|m| m.contains_key("type"));
                if typed || inherited.contains_key(name) {
                    continue;
                }
                let noun = singular(section);
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("new {noun} `{name}` of `{}` has no `type`", def.name),
                    )
                    .at_with(entry.key.span, format!("no parent type defines this {noun}"))
                    .hint(format!("a {noun} that refines nothing inherited is a new definition and needs `type:` (§9.4 Property Definition: the short form `<name>: <value>` and a definition without `type` only refine an inherited one); check the name against the parent's {section}")),
                );
            }
        }
    }
}

/// The property and attribute refinements of a node type's capability definitions name only
/// what the capability type defines (§8.2 Capability Definition).
fn capability_definitions(
    model: &Model,
    ancestry: &mut Ancestry,
    node_type: &Map,
    diags: &mut Diagnostics,
) {
    let capabilities = node_type.get("capabilities").and_then(Yaml::as_map);
    for capability in capabilities.map_or(&[][..], Map::entries) {
        let Some(body) = capability.value.as_map() else {
            continue;
        };
        // A refinement of an inherited capability without `type` takes the inherited type;
        // only a capability definition naming its type is judged here.
        let Some(type_node) = body.get("type") else {
            continue;
        };
        let Some(type_name) = type_node.as_str() else {
            continue;
        };
        let file = type_node.span.file;
        let Some(id) = ancestry.full_name(model, TypeKind::Capability, type_name, file) else {
            continue;
        };
        let chain = ancestry.chain(model, TypeKind::Capability, &id);
        let defs = definitions(model, TypeKind::Capability, &chain);
        for section in SECTIONS {
            let Some(own) = body.get(section).and_then(Yaml::as_map) else {
                continue;
            };
            let defined = definitions_of(&defs, section);
            for entry in own.entries() {
                let Some(name) = entry.key.as_str() else {
                    continue;
                };
                if defined.contains_key(name) {
                    continue;
                }
                let noun = singular(section);
                let cap = capability.key.as_str().unwrap_or_default();
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!("capability definition `{cap}` refines {noun} `{name}`, which its capability type `{type_name}` does not define"),
                    )
                    .at_with(entry.key.span, format!("not a {noun} of `{type_name}`"))
                    .hint(format!("a capability definition only refines the {section} of its capability type; new ones may not be added (§8.2 Capability Definition): define `{name}` in a capability type derived from `{type_name}` and use that type")),
                );
            }
        }
    }
}

fn singular(section: &str) -> &'static str {
    match section {
        "attributes" => "attribute",
        _ => "property",
    }
}
