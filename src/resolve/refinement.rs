//! Refinement may only narrow: a property or attribute definition that a derived type writes
//! again under an inherited name refines the inherited one, and may not
//!
//! - change its `type` to one that is not derived from (or the same as) the inherited type:
//!   "`type`: must be derived from (or the same as) the type in the property definition in the
//!   parent entity type definition" (§9.4 Property Definition, and §9.6 Attribute Definition
//!   for attributes);
//! - turn a required property into an optional one: "`required`: if defined to "false" in the
//!   property definition parent entity type it may be redefined to "true"" and only so;
//! - widen an inherited `in_range` (Simple Profile, [`super::range_refinement`]);
//! - set again a TOSCA 2.0 property's fixed `value`: "once defined, the property cannot be
//!   further refined or assigned" (§9.4 Property Definition). A template assigning it is
//!   reported where templates are read ([`super::typing`]).
//!
//! A template whose type was refined this way would take values its parent type forbids, which
//! is why substitution and `derived_from` checks may rely on a subtype narrowing only. The same
//! rules hold for Simple Profile 1.x types, whose derivation merges definitions by name
//! (SP-TYPE-04): a subtype that redefined `type` or dropped `required` would break every
//! template valid for its parent. Types are judged where they are written, used or not (the
//! walk is [`super::written_definitions`], shared with [`super::defaults`]).

use super::typing::{Definition, Typing};
use super::written_definitions::Written;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
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
            super::range_refinement::check(typing, written.body, parent, whose, diags);
        }
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
    pub fn check_type(&self, typing: &mut Typing, diags: &mut Diagnostics) {
        let (Some(own), Some(inherited)) = (self.body.get("type"), self.parent.get("type")) else {
            return;
        };
        if self.narrows(typing, own, inherited, "type", diags) {
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
