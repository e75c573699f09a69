//! Names a template assigns that its type does not define, in the two sections the typed
//! reading of [`super::typing::Typing::assigned`] leaves unchecked:
//!
//! - a node template's `attributes`: "requirement, capability, property, attribute, interface
//!   or operation name not declared by the type" is an error (checklist SP-ERR-36; A.7.3 Node
//!   Template: `attributes` is "an optional list of attribute value assignments", of the
//!   attributes its type declares). A property's name is an attribute's too: every property
//!   is reflected as an attribute of the same name (A.5.7.1.1 Attribute and Property
//!   reflection, SP-PROP-08), so assigning it is allowed. TOSCA 2.0 has the same rule: an
//!   attribute assignment selects "an attribute definition with the same name [...] which is
//!   declared (or reflected from a Property definition) in its declared type" (§9.7 Attribute
//!   Assignment).
//! - a group's or policy's `properties`, when its type chain defines properties: the
//!   assignments are of the properties the type defines (A.7.5 Group definition, A.7.6 Policy
//!   definition). A chain that defines none is left alone: the normative policy types define
//!   no properties (`tosca.policies.Scaling`), and templates give them the settings an
//!   orchestrator reads by convention (`min_instances`), which toscana's Kubernetes mapping
//!   reads too.

use indexmap::IndexMap;

use super::typing::Definition;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;

/// Reports each of the `assigned` names (with where each is written) of `section` that neither
/// `defined` nor `also` has (`also`: the names allowed besides the section's own definitions,
/// the reflected properties).
pub(super) fn check<'n>(
    owner: impl std::fmt::Display,
    section: &str,
    assigned: impl IntoIterator<Item = (&'n str, Span)>,
    defined: &IndexMap<&str, Definition>,
    also: &IndexMap<&str, Definition>,
    diags: &mut Diagnostics,
) {
    let noun = if section == "attributes" {
        "attribute"
    } else {
        "property"
    };
    for (name, at) in assigned {
        if defined.contains_key(name) || also.contains_key(name) {
            continue;
        }
        let known: Vec<&str> = defined.keys().chain(also.keys()).copied().collect();
        let otherwise = if known.is_empty() {
            format!("its type defines no {section}")
        } else {
            format!("{section} defined: {}", known.join(", "))
        };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_NAME,
                format!("{owner} assigns {noun} `{name}`, which its type does not define"),
            )
            .at(at)
            .did_you_mean(name, &known, Some(otherwise)),
        );
    }
}
