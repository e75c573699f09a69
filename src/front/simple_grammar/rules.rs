//! Two rules of Simple Profile 1.x definitions that the keyname walk meets on its way, each a
//! value a keyname may not hold whatever the rest of the file says:
//! - a property, attribute or parameter definition's `status` is one of the four status values
//!   (A.5.7.3 Status values; 1.3 §3.6.10.2 Status values keeps the same four);
//! - a type's requirement definitions have unique names: "Requirement symbolic names SHALL be
//!   unique; it is an error if a requirement name is found to occur more than once" (A.6.2.3
//!   Additional Requirements). Requirements are a list, so YAML's own duplicate-key check does
//!   not catch a name written twice. Template *assignments* may repeat a name (a requirement
//!   fulfilled several times), so only type definitions are checked.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::Node;

/// The status values of A.5.7.3 Status values.
const STATUS_VALUES: [&str; 4] = ["supported", "unsupported", "experimental", "deprecated"];

/// Reports a `status` that is not one of [`STATUS_VALUES`] (case matters, as for every keyname
/// value the profile lists).
pub(super) fn status(value: &Node, owner: &dyn std::fmt::Display, diags: &mut Diagnostics) {
    let text = value.scalar_text();
    if text.is_some_and(|t| STATUS_VALUES.contains(&t)) {
        return;
    }
    let shown = text.map_or_else(|| value.describe().to_string(), |t| format!("`{t}`"));
    diags.push(
        Diagnostic::error(
            codes::TOSCA_TYPE_MISMATCH,
            format!("the `status` of {owner} is {shown}, which is not a status value"),
        )
        .at_with(value.span, "not a status value")
        .hint(format!(
            "write one of {} (A.5.7.3 Status values)",
            STATUS_VALUES.join(", ")
        )),
    );
}

/// Reports each requirement definition of a type whose name an earlier one already has.
pub(super) fn unique_requirement_names(
    requirements: &Node,
    owner: &dyn std::fmt::Display,
    diags: &mut Diagnostics,
) {
    let Some(items) = requirements.as_seq() else {
        return;
    };
    let mut first: HashMap<&str, &Node> = HashMap::new();
    for key in items
        .iter()
        .filter_map(Node::as_map)
        .flat_map(|m| m.entries())
        .map(|e| &e.key)
    {
        let Some(name) = key.scalar_text() else {
            continue;
        };
        match first.get(name) {
            None => {
                first.insert(name, key);
            }
            Some(earlier) => diags.push(
                Diagnostic::error(
                    codes::TOSCA_DUPLICATE,
                    format!("{owner} defines requirement `{name}` twice"),
                )
                .at_with(key.span, "defined again here")
                .label(earlier.span, "first defined here")
                .hint("requirement names are unique within a type (A.6.2.3 Additional Requirements): rename one, or merge the two definitions"),
            ),
        }
    }
}
