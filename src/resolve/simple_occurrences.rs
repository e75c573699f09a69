//! The `occurrences` of a Simple Profile 1.x capability or requirement definition is a range of
//! integers: "occurrences: range of integer — The optional minimum and maximum occurrences for
//! the requirement. Note: the keyword UNBOUNDED is also supported to represent any positive
//! integer" (A.6.2.1 Keynames, Requirement definition; the same keyname in A.6.1.1, Capability
//! definition). A range is `[<lower_bound>, <upper_bound>]`, each "a required integer value",
//! the upper one "greater than lower_bound" (A.2.3.1 Grammar, TOSCA range type).
//!
//! Read for every type, used or not. Without the check a malformed range was read as the default
//! `[1, 1]` and an inverted one allowed no assignment at all, each without a word. The upper
//! bound may equal the lower one: the spec's own implied default is `[1, 1]` (A.6.2.1), so
//! "greater than" cannot be strict here. Bounds count things, so they are not negative. TOSCA
//! 2.0 has `count_range`, checked by its grammar.

use super::occurrences::bounds;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::Model;
use crate::yaml::Node;

/// Reports each malformed or inverted `occurrences` of a capability or requirement definition
/// in a 1.x type.
pub(super) fn check(model: &Model, diags: &mut Diagnostics) {
    if model.dialect == Dialect::Tosca2 {
        return;
    }
    for def in model.types.values() {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        let capabilities = map.get("capabilities").and_then(Node::as_map);
        let capability_bodies = capabilities.map(|m| m.entries()).unwrap_or_default();
        let requirements = map.get("requirements").and_then(Node::as_seq);
        let requirement_bodies = requirements
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_map)
            .flat_map(|m| m.entries());
        for entry in capability_bodies.iter().chain(requirement_bodies) {
            let occurrences = entry.value.as_map().and_then(|b| b.get("occurrences"));
            if let Some(range) = occurrences {
                judge(entry.key.scalar_text().unwrap_or_default(), range, diags);
            }
        }
    }
}

fn judge(name: &str, range: &Node, diags: &mut Diagnostics) {
    let problem = match bounds(range) {
        None => {
            "is not a range `[<lower bound>, <upper bound>]` of non-negative integers (the upper one may be UNBOUNDED)"
        }
        Some(b) if b.max.is_some_and(|max| max < b.min) => {
            "has an upper bound below its lower bound"
        }
        Some(_) => return,
    };
    diags.push(
        Diagnostic::error(
            codes::TOSCA_TYPE_MISMATCH,
            format!("the `occurrences` of `{name}` {problem}"),
        )
        .at(range.span)
        .hint("write `occurrences: [<min>, <max>]` with 0 <= min <= max, or `[<min>, UNBOUNDED]` (A.6.2.1 Keynames; A.2.3.1 Grammar, TOSCA range type)"),
    );
}
