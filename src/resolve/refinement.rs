//! Refinement may only narrow: a property or attribute definition that a derived type writes
//! again under an inherited name refines the inherited one, and may not
//!
//! - change its `type` to one that is not derived from (or the same as) the inherited type:
//!   "`type`: must be derived from (or the same as) the type in the property definition in the
//!   parent entity type definition" (§9.4 Property Definition, and §9.6 Attribute Definition
//!   for attributes);
//! - turn a required property into an optional one: "`required`: if defined to "false" in the
//!   property definition parent entity type it may be redefined to "true"" and only so;
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
use crate::yaml::Core;

/// Checks one definition a type writes ([`super::written_definitions::each`]) against the one
/// of the same name it inherits, if any.
pub fn check<'m>(typing: &mut Typing<'_, 'm>, written: &Written<'_, 'm>, diags: &mut Diagnostics) {
    let Some(parent) = written.inherited else {
        return;
    };
    let refined = Refined {
        section: written.section,
        name: written.name,
        body: written.body,
        parent,
    };
    refined.check_type(typing, diags);
    if written.section == "properties" {
        refined.check_required(diags);
        if typing.model.dialect == Dialect::Tosca2 {
            refined.check_fixed_value(diags);
        }
    }
}

/// One definition a derived type writes under an inherited name.
struct Refined<'a, 'm> {
    /// `properties` or `attributes`.
    section: &'a str,
    name: &'a str,
    body: &'m crate::yaml::Map,
    /// The inherited definition, through the whole parent chain.
    parent: &'a Definition<'m>,
}

impl Refined<'_, '_> {
    fn noun(&self) -> &'static str {
        if self.section == "attributes" {
            "attribute"
        } else {
            "property"
        }
    }

    /// The refined `type` derives from (or is) the inherited one.
    fn check_type(&self, typing: &mut Typing, diags: &mut Diagnostics) {
        let (Some(own), Some(inherited)) = (self.body.get("type"), self.parent.get("type")) else {
            return;
        };
        let (own_id, inherited_id) = (typing.identity(own), typing.identity(inherited));
        if typing.type_fits(&own_id, &inherited_id) {
            return;
        }
        let written = inherited.scalar_text().unwrap_or_default();
        diags.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "{} `{}` refines its inherited type `{written}` to `{}`, which is not derived from it",
                    self.noun(),
                    self.name,
                    own.scalar_text().unwrap_or_default(),
                ),
            )
            .at_with(own.span, "the refined type")
            .label(inherited.span, "the inherited type")
            .hint(format!(
                "a refinement's `type` must be derived from (or the same as) the parent's (§9.4 Property Definition, refinement rules): write `type: {written}` or a type derived from it, or give the {} another name",
                self.noun()
            )),
        );
    }

    /// A required inherited property stays required.
    fn check_required(&self, diags: &mut Diagnostics) {
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
                "property `{}` is required in its parent type and cannot be refined to `required: false`",
                self.name
            ),
        )
        .at_with(required.span, "weakens the inherited `required`")
        .hint("a refinement may turn `required: false` into `true`, never the other way (§9.4 Property Definition, refinement rules): remove `required: false`, or define a new property");
        if let Some(inherited) = self.parent.get("required") {
            d = d.label(inherited.span, "required here");
        }
        diags.push(d);
    }

    /// A TOSCA 2.0 property whose parent fixed its `value` is not given another.
    fn check_fixed_value(&self, diags: &mut Diagnostics) {
        let (Some(own), Some(fixed)) = (self.body.get("value"), self.parent.get("value")) else {
            return;
        };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!(
                    "property `{}` has a fixed `value` in its parent type, which a derived type cannot set again",
                    self.name
                ),
            )
            .at_with(own.span, "sets the fixed value again")
            .label(fixed.span, "fixed here")
            .hint("once a property definition has a `value`, the property cannot be further refined or assigned (§9.4 Property Definition): remove this `value`, or remove the parent's if the value is meant to vary"),
        );
    }
}
