//! Constraint clauses (`constraints:` of the Simple Profile) checked against typed values.
//!
//! A clause is a single-key map `{operator: operand}`; its operand is read as a value of the
//! constrained type (so `greater_or_equal: 2 GB` compares sizes in bytes and `1.10` stays a
//! version). `pattern` uses Rust `regex` syntax and must match the whole string, as TOSCA 1.3
//! and tosca-parser read it. Values that are functions are judged at deployment, not here.

use std::cmp::Ordering;

use super::patterns::Refused;
use super::typing::Typing;
use crate::diag::{Diagnostic, Diagnostics, Findings, codes};
use crate::ir::Value;
use crate::model::literals::{self, compare_versions};
use crate::model::tree::{Pair, Shape as TreeShape, Tree};
use crate::model::value::Data;

/// The operators of the Simple Profile.
const OPERATORS: &[&str] = &[
    "equal",
    "greater_than",
    "greater_or_equal",
    "less_than",
    "less_or_equal",
    "in_range",
    "valid_values",
    "length",
    "min_length",
    "max_length",
    "pattern",
    "schema",
];

/// Checks `value` (read from `node`, of type `type_name`, named `path`) against one clause.
pub fn check<N: Tree, C: Tree, F: Findings>(
    typing: &mut Typing,
    value: &Value,
    node: &N,
    clause: &C,
    type_name: &str,
    path: &dyn std::fmt::Display,
    diags: &mut F,
) {
    // A clause judged where it is written had its own mistakes reported there: judged again
    // here, they are not.
    let violated = if typing.patterns.was_judged(clause.span()) {
        violated(
            typing,
            value,
            clause,
            type_name,
            &mut None::<&mut Diagnostics>,
        )
    } else {
        violated(typing, value, clause, type_name, diags)
    };
    if let Some((operator, operand)) = violated {
        diags.find(|| {
            Diagnostic::error(
                codes::TOSCA_CONSTRAINT,
                format!(
                    "`{path}` is `{}`, which violates `{operator}: {}`",
                    shown(node),
                    shown(operand)
                ),
            )
            .at(node.span())
            .label(clause.span(), "the constraint")
            .hint("change the value, or the constraint if it is wrong")
        });
    }
}

/// The operator and operand of `clause` when `value` (of type `type_name`) violates it; what is
/// wrong with the clause itself goes to `diags`.
fn violated<'c, C: Tree, F: Findings>(
    typing: &mut Typing,
    value: &Value,
    clause: &'c C,
    type_name: &str,
    diags: &mut F,
) -> Option<(&'c str, &'c C)> {
    let (operator, operand) = parse_found(clause, diags)?;
    let holds = holds_to(typing, value, operator, operand, type_name, diags);
    (holds == Some(false)).then_some((operator, operand))
}

/// A clause's operator and operand; `None` (reported) when it is not a single-key map with a
/// known operator.
pub fn parse<'y, C: Tree>(clause: &'y C, diags: &mut Diagnostics) -> Option<(&'y str, &'y C)> {
    parse_to(clause, Some(diags))
}

/// [`parse`], reporting to `diags` if any (`None` where the clause's owner reports it).
pub fn parse_to<'y, C: Tree>(
    clause: &'y C,
    mut diags: Option<&mut Diagnostics>,
) -> Option<(&'y str, &'y C)> {
    parse_found(clause, &mut diags)
}

/// [`parse`], its findings to `diags`.
fn parse_found<'y, C: Tree, F: Findings>(clause: &'y C, diags: &mut F) -> Option<(&'y str, &'y C)> {
    let Some([entry]) = clause.entries() else {
        diags.find(|| {
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                "a constraint clause must be a single-key map `{operator: operand}`",
            )
            .at(clause.span())
            .hint("e.g. `- in_range: [ 1, 65535 ]`; constraints are a list of such clauses")
        });
        return None;
    };
    let operator = entry.key().scalar_text()?;
    if !OPERATORS.contains(&operator) {
        // Not reported (`None`): the clause's owner reports it.
        diags.find(|| {
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_KEY,
                format!("unknown constraint operator `{operator}`"),
            )
            .at(entry.key().span())
            .did_you_mean(
                operator,
                OPERATORS,
                Some(format!("operators: {}", OPERATORS.join(", "))),
            )
        });
        return None;
    }
    Some((operator, entry.value()))
}

/// Judges one clause on its own, as written for type `type_name`: a single-key map with a known
/// operator whose operand fits it: a value of the constrained type for the comparisons,
/// `equal` and each of `valid_values` (a list), two ordered bounds for `in_range` (the upper may
/// be `UNBOUNDED`), a non-negative integer for the lengths (A.5.2 Constraint clause; A.5.7.5
/// Additional Requirements: "Constraints of a property definition SHALL be type-compatible
/// with the type defined for that definition"). Each mistake is reported as [`check`] reports
/// it when it meets the clause.
pub fn judge<C: Tree>(typing: &mut Typing, clause: &C, type_name: &str, diags: &mut Diagnostics) {
    let Some((operator, operand)) = parse(clause, diags) else {
        return;
    };
    match operator {
        "in_range" => {
            let Some((low, high)) = in_range_bounds(operand, &mut Some(&mut *diags)) else {
                return;
            };
            let low_value = typing.operand(low, bound_type(type_name), operator, diags);
            if high.scalar_text() == Some("UNBOUNDED") {
                return;
            }
            let high_value = typing.operand(high, bound_type(type_name), operator, diags);
            if compare(&low_value, &high_value) == Some(Ordering::Greater) {
                diags.push(
                    bad_operand(operand, operator, "[min, max] with min not above max")
                        .label(low.span(), "min")
                        .label(high.span(), "max")
                        .hint(format!(
                            "write `in_range: [ {}, {} ]`",
                            shown(high),
                            shown(low)
                        )),
                );
            }
        }
        "valid_values" => match operand.items() {
            Some(items) => {
                for item in items {
                    typing.operand(item, type_name, operator, diags);
                }
            }
            None => diags.push(bad_operand(
                operand,
                operator,
                "a list of the allowed values",
            )),
        },
        // `pattern` is left to the values that meet it (`written_definitions::judge_constraints`).
        "pattern" | "schema" => {}
        // The lengths are judged as a value meets them, whatever the value.
        "length" | "min_length" | "max_length" => {
            holds(
                typing,
                &Value::String(String::new()),
                operator,
                operand,
                type_name,
                diags,
            );
        }
        _ => {
            typing.operand(operand, type_name, operator, diags);
        }
    }
}

/// Whether `value` (of type `type_name`) satisfies `operator: operand`. `None` when that cannot
/// be told now: the value is a function known only at deployment, the two cannot be compared,
/// or the operand is malformed (reported).
pub fn holds<C: Tree>(
    typing: &mut Typing,
    value: &Value,
    operator: &str,
    operand: &C,
    type_name: &str,
    diags: &mut Diagnostics,
) -> Option<bool> {
    holds_to(
        typing,
        value,
        operator,
        operand,
        type_name,
        &mut Some(diags),
    )
}

/// [`holds`], reporting to `diags` if any: `None` where the clause is judged again (against
/// each candidate of a requirement, say) after its owner read it and reported what is wrong
/// with it (each caller names that place).
pub fn holds_to<C: Tree, F: Findings>(
    typing: &mut Typing,
    value: &Value,
    operator: &str,
    operand: &C,
    type_name: &str,
    diags: &mut F,
) -> Option<bool> {
    if matches!(value, Value::Call(_)) {
        return None;
    }
    let ok = match operator {
        "equal" => {
            let want = typing.operand_to(operand, type_name, operator, diags);
            same(value, &want)
        }
        "greater_than" | "greater_or_equal" | "less_than" | "less_or_equal" => {
            let want = typing.operand_to(operand, type_name, operator, diags);
            let order = compare(value, &want)?;
            match operator {
                "greater_than" => order == Ordering::Greater,
                "greater_or_equal" => order != Ordering::Less,
                "less_than" => order == Ordering::Less,
                _ => order != Ordering::Greater,
            }
        }
        "in_range" => {
            let (low, high) = in_range_bounds(operand, diags)?;
            // A range lies within when both its bounds do; its upper bound UNBOUNDED only
            // below an UNBOUNDED limit (the Simple Profile's PortSpec ranges, C.2.5.2).
            let (first, last) = match value {
                Value::List(bounds) if bound_type(type_name) != type_name => match &bounds[..] {
                    [first, last] => (first, last),
                    _ => return None,
                },
                _ => (value, value),
            };
            let low = typing.operand_to(low, bound_type(type_name), operator, diags);
            let above = compare(first, &low).is_none_or(|o| o != Ordering::Less);
            let below = high.scalar_text() == Some("UNBOUNDED") || {
                let high = typing.operand_to(high, bound_type(type_name), operator, diags);
                *last != Value::String("UNBOUNDED".into())
                    && compare(last, &high).is_none_or(|o| o != Ordering::Greater)
            };
            above && below
        }
        "valid_values" => {
            let Some(items) = operand.items() else {
                report(diags, || {
                    bad_operand(operand, operator, "a list of the allowed values")
                });
                return None;
            };
            let allowed: Vec<Value> = items
                .iter()
                .map(|i| typing.operand_to(i, type_name, operator, diags))
                .collect();
            allowed.iter().any(|a| same(value, a))
        }
        "length" | "min_length" | "max_length" => {
            let TreeShape::Scalar(_, Data::Integer(limit @ 0..)) = operand.shape() else {
                report(diags, || {
                    bad_operand(operand, operator, "a non-negative integer")
                });
                return None;
            };
            let limit = limit as usize;
            let len = length(value)?;
            match operator {
                "length" => len == limit,
                "min_length" => len >= limit,
                _ => len <= limit,
            }
        }
        "pattern" => {
            let Some(pattern) = operand.scalar_text() else {
                report(diags, || {
                    bad_operand(operand, operator, "a regular expression string")
                });
                return None;
            };
            let Value::String(text) = value else {
                return None;
            };
            match typing.patterns.whole(pattern) {
                Ok(regex) => regex.is_match(text),
                Err(Refused::Invalid(why)) => {
                    report(diags, || {
                        bad_operand(
                            operand,
                            operator,
                            &format!("a valid regular expression ({why})"),
                        )
                    });
                    return None;
                }
                Err(refused @ Refused::Budget(_)) => {
                    report(diags, || {
                        Diagnostic::error(
                            codes::TOSCA_LIMIT,
                            format!(
                                "`{pattern}` is not compiled, so no value is checked against it: {}",
                                refused.why()
                            ),
                        )
                        .at(operand.span())
                        .hint(refused.hint().unwrap_or_default())
                    });
                    return None;
                }
            }
        }
        // `schema` names an external schema (JSON Schema, XSD) toscana does not fetch.
        _ => return None,
    };
    Some(ok)
}

/// The two bounds of an `in_range` operand; `None` (reported) when it is not a list of two.
fn in_range_bounds<'y, C: Tree, F: Findings>(
    operand: &'y C,
    diags: &mut F,
) -> Option<(&'y C, &'y C)> {
    let Some([low, high]) = operand.items() else {
        report(diags, || {
            bad_operand(operand, "in_range", "a list of two values, [min, max]")
        });
        return None;
    };
    Some((low, high))
}

/// Reports the diagnostic `make` makes, if the judgement reports (see [`holds_to`]).
fn report<F: Findings>(diags: &mut F, make: impl FnOnce() -> Diagnostic) {
    diags.find(make);
}

/// The type of an `in_range` bound on a value of `type_name`: the bounds of a `range` are its
/// integers (the value lies within them), those of any other type values of that type.
pub(super) fn bound_type(type_name: &str) -> &str {
    match type_name {
        "range" | "tosca:range" | "tosca.datatypes.range" => "integer",
        other => other,
    }
}

/// The source text of a node, for messages (`[ 1, 65535 ]`, `2 GB`).
pub fn shown<N: Tree>(node: &N) -> String {
    match node.scalar_text() {
        Some(text) => text.to_string(),
        None => match node.items() {
            Some(items) => format!(
                "[{}]",
                items.iter().map(shown).collect::<Vec<_>>().join(", ")
            ),
            None => node.describe().to_string(),
        },
    }
}

fn bad_operand<C: Tree>(operand: &C, operator: &str, expected: &str) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_SHAPE,
        format!("the operand of `{operator}` must be {expected}"),
    )
    .at(operand.span())
}

/// Equal values: numbers by value (2 equals 2.0), scalars in their canonical unit.
fn same(a: &Value, b: &Value) -> bool {
    compare(a, b).map_or(a == b, |o| o == Ordering::Equal)
}

/// The order of two comparable values of one type; `None` when they cannot be ordered.
pub(super) fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => Some(x.cmp(y)),
        (Value::Integer(_) | Value::Float(_), Value::Integer(_) | Value::Float(_)) => {
            number(a)?.partial_cmp(&number(b)?)
        }
        (Value::Scalar(x), Value::Scalar(y)) => x.canonical.partial_cmp(&y.canonical),
        (Value::Version(x), Value::Version(y)) => compare_versions(x, y),
        // Timestamps by the instant they name, in whatever zone they are written.
        (Value::Timestamp(x), Value::Timestamp(y)) => {
            match (literals::instant(x), literals::instant(y)) {
                (Ok(a), Ok(b)) => Some(a.cmp(&b)),
                _ => Some(x.cmp(y)),
            }
        }
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// Length in characters (strings) or entries (lists, maps).
fn length(v: &Value) -> Option<usize> {
    match v {
        Value::String(s) => Some(s.chars().count()),
        Value::List(l) => Some(l.len()),
        Value::Map(m) => Some(m.len()),
        _ => None,
    }
}
