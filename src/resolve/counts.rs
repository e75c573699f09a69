//! TOSCA 2.0 requirement counts (§8.5.4 Requirement Count): how many relationships a node
//! template's assignments ask for, against the `count_range` of each requirement definition.
//!
//! - The `count`s of all assignments of one requirement name must add up to no more than the
//!   range's upper bound, and those of the non-optional ones to at least its lower bound
//!   (§8.5.4 Requirement Count): a template cannot leave a requirement below its minimum by marking
//!   it optional.
//! - A requirement the template does not assign at all, whose lower bound is above 0, gets an
//!   implicit assignment from its definition, with the lower bound as its count (§8.5.4 Requirement
//!   Count); it is not optional, since it exists to reach the minimum.
//! - An assignment must name a requirement its node type defines.
//!
//! Counts given by an unbound input are known only at deployment and are not added up.

use super::assignments::{Assignment, DefinitionCache};
use super::occurrences::Bounds;
use crate::diag::{Diagnostic, Diagnostics, codes, plural};
use crate::ir::{Node, Value};
use crate::model::{Model, Named};

/// A count as a number: an integer, or `None` when it depends on an unbound input.
pub fn known(count: &Value) -> Option<u64> {
    match count {
        Value::Integer(i) => u64::try_from(*i).ok(),
        _ => None,
    }
}

/// Checks the assignments of one node template and adds its implicit ones. `counts` are the
/// assignments' counts as read (in the order of `assignments`).
pub fn check<'m, 'y>(
    model: &'m Model,
    cache: &mut DefinitionCache<'m>,
    node: &Node,
    named: &'y Named,
    assignments: &mut Vec<Assignment<'y>>,
    counts: &mut Vec<Value>,
    diags: &mut Diagnostics,
) {
    if !cache.complete(model, node) {
        return;
    }
    let names = cache.names(model, node);
    for a in assignments.iter() {
        if !names.contains(&a.name.as_str()) {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!(
                        "node template `{}` assigns requirement `{}`, which its type `{}` does not define",
                        node.name, a.name, node.type_name
                    ),
                )
                .at(a.span)
                .did_you_mean(
                    &a.name,
                    names.as_slice(),
                    Some(if names.is_empty() {
                        format!("`{}` defines no requirements", node.type_name)
                    } else {
                        format!("its requirements are {}", names.join(", "))
                    }),
                ),
            );
        }
    }
    for &name in names.iter() {
        let def = cache.get(model, node, name);
        let bounds = def.bounds.unwrap_or(Bounds { min: 0, max: None });
        let mine: Vec<usize> = (0..assignments.len())
            .filter(|&i| assignments[i].name == name)
            .collect();
        if mine.is_empty() {
            if bounds.min > 0 {
                assignments.push(Assignment::implicit(name, bounds.min, named.span));
                counts.push(Value::Integer(bounds.min as i64));
            }
            continue;
        }
        let sum = |optional: bool| -> Option<u64> {
            mine.iter()
                .filter(|&&i| optional || !assignments[i].optional)
                .map(|&i| known(&counts[i]))
                .sum()
        };
        let (Some(total), Some(required)) = (sum(true), sum(false)) else {
            continue;
        };
        let shown = bounds.show();
        let first = assignments[mine[0]].span;
        let range_note = |d: Diagnostic| match def.bounds_at {
            Some(at) => d.label(at, format!("`count_range: {shown}`")),
            None => d,
        };
        if bounds.max.is_some_and(|max| total > max) {
            let last = assignments[*mine.last().unwrap_or(&mine[0])].span;
            diags.push(range_note(
                Diagnostic::error(
                    codes::TOSCA_UNFULFILLED,
                    format!(
                        "node template `{}` asks for {total} `{name}` relationship{}, more than the `count_range` {shown} of its type allows",
                        node.name,
                        plural(total)
                    ),
                )
                .at_with(last, "the assignment that goes over")
                .label(first, "counted from here")
                .hint("the `count`s of all assignments of a requirement add up, optional ones included (§8.5.4 Requirement Count); remove assignments or lower their `count`"),
            ));
        } else if required < bounds.min {
            diags.push(range_note(
                Diagnostic::error(
                    codes::TOSCA_UNFULFILLED,
                    format!(
                        "node template `{}` asks for {required} non-optional `{name}` relationship{}, fewer than the {} that the `count_range` {shown} of its type requires",
                        node.name,
                        plural(required),
                        bounds.min
                    ),
                )
                .at(first)
                .hint("the `count`s of the non-optional assignments must reach the lower bound (§8.5.4 Requirement Count): add assignments, raise a `count`, or drop `optional: true`"),
            ));
        }
    }
}
