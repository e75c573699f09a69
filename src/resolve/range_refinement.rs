//! A Simple Profile refinement may only narrow an inherited `in_range`: "subclasses or
//! templates of types that declare a property with the in_range constraint MAY only further
//! restrict the range specified by the parent type" (A.5.2.1 Operator keynames, the note under
//! its table; SP-TYPE-06). Constraints of a refinement
//! add to those it inherits, so a wider range would let no value through that the parent's
//! refuses; but the author meant values the parent forbids, and a template written for the
//! subtype would be refused for them, so the widened bound is reported where it is written.
//!
//! Each `in_range` the refined definition writes is compared with each `in_range` of the
//! definitions it inherits, bound by bound, as values of the property's type (so `1 GB` and
//! `1000 MB` compare as sizes); an upper bound of `UNBOUNDED` is above every other.

use std::cmp::Ordering;

use super::constraints::{bound_type, compare, shown};
use super::typing::{Definition, Typing};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Value;
use crate::yaml::{Map, Node as Yaml};

/// One bound of a range: a value, or `UNBOUNDED` above every value.
enum Bound {
    Value(Value),
    Unbounded,
}

/// Reports each bound of an `in_range` that `body` writes which lies outside an inherited
/// `in_range` of `parent`; `noun` and `name` say whose definition it is.
pub fn check(
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
                            shown(wider),
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

/// The two bounds of an `in_range` operand, read quietly (a malformed one is reported where it
/// is written, [`super::written_constraints`]).
fn bounds(typing: &mut Typing, operand: &Yaml, type_name: &str) -> Option<(Bound, Bound)> {
    let [low, high] = operand.as_seq()? else {
        return None;
    };
    let element = bound_type(type_name);
    let mut quiet = Diagnostics::new();
    let mut read = |node: &Yaml| match node.scalar_text() {
        Some("UNBOUNDED") => Bound::Unbounded,
        _ => Bound::Value(typing.operand(node, element, "in_range", &mut quiet)),
    };
    let bounds = (read(low), read(high));
    quiet.is_empty().then_some(bounds)
}

/// Whether bound `a` lies strictly below bound `b`; bounds that cannot be compared are not.
fn below(a: &Bound, b: &Bound) -> bool {
    match (a, b) {
        (Bound::Unbounded, _) => false,
        (Bound::Value(_), Bound::Unbounded) => true,
        (Bound::Value(a), Bound::Value(b)) => compare(a, b) == Some(Ordering::Less),
    }
}
