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
//! Runs over every type read, used or not, once per definition (the walk is
//! [`super::written_definitions`], shared with [`super::refinement`]): a template that takes the
//! default later reads it quietly ([`Typing::defaults`]), so each mistake is reported once, here.

use super::typing::Typing;
use super::written_definitions::Written;
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Dialect;

/// Checks the default (and fixed 2.0 `value`) of one definition a type writes, seen through its
/// chain ([`super::written_definitions::each`]).
pub fn check<'m>(typing: &mut Typing<'_, 'm>, written: &Written<'_, 'm>, diags: &mut Diagnostics) {
    let body = written.body;
    let fixed = (typing.model.dialect == Dialect::Tosca2 && written.section == "properties")
        .then(|| body.get("value"))
        .flatten();
    for (what, value) in [("default", body.get("default")), ("fixed value", fixed)] {
        // `default: null` is read as no default at all, as parsers of the Simple Profile read
        // it (a YAML null is the absence of a value): real profiles write it on attributes that
        // have no value until deployment.
        if let Some(value) = value.filter(|v| !v.is_null()) {
            let mut found = Diagnostics::new();
            typing.value(value, written.merged, written.name, &mut found);
            diags.extend(found.iter().cloned().map(|d| of_definition(d, what)));
        }
    }
}

/// A problem of a value read as a definition's `what` (`default`, `fixed value`): the message
/// says whose value it is, and the hint why the definition's own value must fit it.
pub(super) fn of_definition(mut d: Diagnostic, what: &str) -> Diagnostic {
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
