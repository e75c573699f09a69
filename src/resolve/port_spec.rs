//! The rule of the Simple Profile's `tosca.datatypes.network.PortSpec` that no property
//! definition can express: "A valid PortSpec must have at least one of the following properties:
//! target, target_range, source or source_range" (C.2.5.3 Additional requirements). Checked on
//! every value of PortSpec or a type derived from it, wherever a value is typed (a property, a
//! list or map entry, a data type field, a default), in 1.0–1.3 and in TOSCA 2.0's simple
//! profile, which keeps the type. A field given by a function counts as given; one written as
//! `null` does not. The ports' own ranges are the type's constraints (`PortDef`'s `in_range`,
//! and `in_range` on the two `range` fields, which asks the whole range to lie within).

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Findings, codes};
use crate::ir::{Value, type_matches};
use crate::model::TypeDef;
use crate::source::Span;

const PORT_SPEC: &str = "tosca.datatypes.network.PortSpec";
const PORTS: [&str; 4] = ["target", "target_range", "source", "source_range"];

/// Checks `fields`, the value written at `at` read as a value of the data type whose chain
/// (the type and its ancestors) is `chain`, at `path`.
pub(super) fn check<F: Findings>(
    chain: &[&TypeDef],
    fields: &IndexMap<String, Value>,
    at: Span,
    path: &dyn std::fmt::Display,
    diags: &mut F,
) {
    let names: Vec<String> = chain.iter().map(|d| d.name.clone()).collect();
    if !type_matches(&names, PORT_SPEC) {
        return;
    }
    let given = |key: &str| fields.get(key).is_some_and(|v| *v != Value::Null);
    if PORTS.iter().any(|key| given(key)) {
        return;
    }
    diags.find(|| {
        Diagnostic::error(
            codes::TOSCA_MISSING_KEY,
            format!("`{path}` is a PortSpec with none of `target`, `target_range`, `source` or `source_range`"),
        )
        .at(at)
        .hint("\"A valid PortSpec must have at least one of the following properties: target, target_range, source or source_range\" (C.2.5.3 Additional requirements of tosca.datatypes.network.PortSpec): add `target: <port>` (or a range)")
    });
}
