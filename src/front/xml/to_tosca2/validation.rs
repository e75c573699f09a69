//! 1.3 `constraints` as a 2.0 `validation` clause (T2-DIFF-04): each constraint clause becomes
//! the boolean function over `$value` that says the same (§10.2.2), several are joined with
//! `$and`.

use crate::source::Span;
use crate::yaml::Node;

use super::Rw;
use super::build::{self, M};

/// The clause for a 1.3 `constraints` list on a value of type `type_name`, `None` when nothing
/// in it can be said in 2.0.
pub fn clause(rw: &mut Rw, constraints: &Node, type_name: Option<&str>) -> Option<Node> {
    let items: Vec<&Node> = match constraints.as_seq() {
        Some(items) => items.iter().collect(),
        None => vec![constraints],
    };
    let mut clauses = Vec::new();
    for item in items {
        let Some([entry]) = item.as_map().map(|m| m.entries()) else {
            rw.lose(
                item.span,
                "a constraint that is not a single operator".into(),
            );
            continue;
        };
        let operator = entry.key.scalar_text().unwrap_or_default();
        let made = match (operator, type_name) {
            ("in_range", Some("range")) => range_in_range(rw, &entry.value, item.span),
            _ => one(rw, operator, &entry.value, item.span),
        };
        match made {
            Some(c) => clauses.push(c),
            None => rw.lose(entry.key.span, format!("the constraint `{operator}`")),
        }
    }
    match clauses.len() {
        0 => None,
        1 => clauses.pop(),
        _ => Some(call("$and", clauses, constraints.span)),
    }
}

/// One constraint operator with its operand.
fn one(rw: &mut Rw, operator: &str, operand: &Node, span: Span) -> Option<Node> {
    let value = || build::s("$value", span);
    let length = || call("$length", vec![value()], span);
    let compare = |f: &str, subject: Node, rw: &mut Rw| -> Option<Node> {
        let operand = super::values::value(rw, operand)?;
        Some(call(f, vec![subject, operand], span))
    };
    Some(match operator {
        "equal" | "greater_than" | "greater_or_equal" | "less_than" | "less_or_equal" => {
            compare(&format!("${operator}"), value(), rw)?
        }
        "valid_values" => compare("$valid_values", value(), rw)?,
        "length" => compare("$equal", length(), rw)?,
        "min_length" => compare("$greater_or_equal", length(), rw)?,
        "max_length" => compare("$less_or_equal", length(), rw)?,
        "in_range" => {
            let [low, high] = operand.as_seq()? else {
                return None;
            };
            let low = super::values::value(rw, low)?;
            let mut parts = vec![call("$greater_or_equal", vec![value(), low], span)];
            // 1.3 allows an open upper end (`UNBOUNDED`); 2.0 just leaves it out.
            if high.scalar_text() != Some("UNBOUNDED") {
                let high = super::values::value(rw, high)?;
                parts.push(call("$less_or_equal", vec![value(), high], span));
            }
            match parts.len() {
                1 => parts.pop()?,
                _ => call("$and", parts, span),
            }
        }
        // 1.3 patterns match the whole string; 2.0's `$matches` matches anywhere unless
        // anchored (§10.2.2.2.7 $matches).
        "pattern" => {
            let pattern = operand.scalar_text()?;
            let anchored = build::s(format!("^(?:{pattern})$"), operand.span);
            call("$matches", vec![value(), anchored], span)
        }
        _ => return None,
    })
}

/// `in_range` on a 1.3 `range` holds both of its bounds to the range: the lower one at least
/// the low end, the upper one at most the high end (none for `UNBOUNDED`). A range is a list of
/// two integers in 2.0 ([`super::normative`]), so its upper bound is never `UNBOUNDED` there.
fn range_in_range(rw: &mut Rw, operand: &Node, span: Span) -> Option<Node> {
    let [low, high] = operand.as_seq()? else {
        return None;
    };
    let bound = |i: i64| call("$value", vec![build::int(i, span)], span);
    let mut parts = vec![call(
        "$greater_or_equal",
        vec![bound(0), super::values::value(rw, low)?],
        span,
    )];
    if high.scalar_text() != Some("UNBOUNDED") {
        parts.push(call(
            "$less_or_equal",
            vec![bound(1), super::values::value(rw, high)?],
            span,
        ));
    }
    Some(call("$and", parts, span))
}

/// `{ <function>: [args] }`.
fn call(function: &str, args: Vec<Node>, span: Span) -> Node {
    let mut m = M::new(span);
    m.put(function, span, build::seq(args, span));
    m.done()
}
