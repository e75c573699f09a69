//! §10.2.2.2 Comparison Functions: `$equal`, the orderings, `$in_range` and `$matches`, with a
//! string read as the other operand's type where it is written as one.

use std::cmp::Ordering;

use super::{Outcome, describe, known, wrong};
use crate::ir::{ScalarUnit, Value};
use crate::limits::Limit;
use crate::model::literals;
use crate::resolve::constraints::compare;
use crate::resolve::patterns::{Patterns, Refused};

/// The two operands as values of one type where a string reads as the other's type (a scalar,
/// version or timestamp written as text); `None` when a string looks like the other's type but
/// cannot be read without its unit table (`512 MiB` against a scalar in GB).
pub(super) fn coerce(a: &Value, b: &Value) -> Option<(Value, Value)> {
    fn read(s: &str, like: &Value) -> Result<Value, ()> {
        match like {
            Value::Scalar(scalar) => scalar_text(s, scalar).ok_or(()),
            Value::Version(_) => literals::version(s)
                .map(|v| Value::Version(Box::new(v)))
                .map_err(|_| ()),
            Value::Timestamp(_) if literals::timestamp(s).is_ok() => {
                Ok(Value::Timestamp(s.to_string()))
            }
            _ => Err(()),
        }
    }
    match (a, b) {
        (
            Value::String(s),
            other @ (Value::Scalar(_) | Value::Version(_) | Value::Timestamp(_)),
        ) => match read(s, other) {
            Ok(v) => Some((v, other.clone())),
            Err(()) if matches!(other, Value::Scalar(_)) && looks_scalar(s) => None,
            Err(()) => Some((a.clone(), b.clone())),
        },
        (Value::Scalar(_) | Value::Version(_) | Value::Timestamp(_), Value::String(_)) => {
            coerce(b, a).map(|(x, y)| (y, x))
        }
        _ => Some((a.clone(), b.clone())),
    }
}

/// `<number> <unit>` text.
pub(super) fn looks_scalar(text: &str) -> bool {
    let mut parts = text.split_whitespace();
    matches!((parts.next(), parts.next(), parts.next()), (Some(n), Some(_), None) if n.parse::<f64>().is_ok())
}

/// A scalar written as text in the unit of `like`, or in its canonical unit.
fn scalar_text(text: &str, like: &ScalarUnit) -> Option<Value> {
    let mut parts = text.split_whitespace();
    let (number, unit) = (parts.next()?.parse::<f64>().ok()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let factor = if unit == like.canonical_unit {
        1.0
    } else if unit == like.unit && like.number != 0.0 {
        like.canonical / like.number
    } else {
        return None;
    };
    Some(Value::Scalar(Box::new(ScalarUnit {
        text: text.to_string(),
        number,
        unit: unit.to_string(),
        canonical: number * factor,
        canonical_unit: like.canonical_unit.clone(),
    })))
}

/// Whether two values are of kinds that can be compared at all.
pub(super) fn same_kind(a: &Value, b: &Value) -> bool {
    let number = |v: &Value| matches!(v, Value::Integer(_) | Value::Float(_));
    (number(a) && number(b)) || std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// Equal values: numbers by value, scalars in canonical units, strings read as the other side's
/// type, collections entry by entry.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => match coerce(a, b) {
            Some((a, b)) => compare(&a, &b).map_or(a == b, Ordering::is_eq),
            None => false,
        },
    }
}

pub(super) fn equal(args: &[Value]) -> Outcome {
    let (Some(a), Some(b)) = (known(args, 0), known(args, 1)) else {
        return Outcome::Later;
    };
    match coerce(a, b) {
        None => Outcome::Later,
        Some((x, y))
            if !same_kind(&x, &y) && !matches!((&x, &y), (Value::Null, _) | (_, Value::Null)) =>
        {
            wrong(
                1,
                format!(
                    "`$equal` compares {} with {}; its arguments must have the same type (§10.2.2.2.1 `$equal`)",
                    describe(a),
                    describe(b)
                ),
            )
        }
        Some(_) => Outcome::Value(Value::Boolean(same(a, b))),
    }
}

/// Kinds the ordering functions take (§10.2.2.2.2 $greater_than).
pub(super) fn comparable(v: &Value) -> bool {
    matches!(
        v,
        Value::Integer(_)
            | Value::Float(_)
            | Value::String(_)
            | Value::Timestamp(_)
            | Value::Version(_)
            | Value::Scalar(_)
    )
}

pub(super) fn order(name: &str, args: &[Value]) -> Outcome {
    for i in 0..2 {
        if let Some(v) = known(args, i).filter(|v| !comparable(v)) {
            return wrong(
                i,
                format!(
                    "`${name}` compares integers, floats, strings, timestamps, versions or scalars, not {}",
                    describe(v)
                ),
            );
        }
    }
    let (Some(a), Some(b)) = (known(args, 0), known(args, 1)) else {
        return Outcome::Later;
    };
    let Some((a, b)) = coerce(a, b) else {
        return Outcome::Later;
    };
    // Arguments of different types make the comparison false (§10.2.2.2.2 $greater_than).
    let Some(ordering) = compare(&a, &b) else {
        return Outcome::Value(Value::Boolean(false));
    };
    Outcome::Value(Value::Boolean(match name {
        "greater_than" => ordering.is_gt(),
        "greater_or_equal" => ordering.is_ge(),
        "less_than" => ordering.is_lt(),
        _ => ordering.is_le(),
    }))
}

/// `$in_range: [ value, [ lower, upper ] ]`: the bounds must be comparable and in order, and the
/// value lies between them, both included; a value of another kind than the bounds is not in
/// the range, as it is never ordered against them (§10.2.2.2.2 $greater_than).
pub(super) fn in_range(args: &[Value]) -> Outcome {
    let bounds = match known(args, 1) {
        None => None,
        Some(Value::List(items)) if items.len() == 2 => Some(items),
        Some(other) => {
            return wrong(
                1,
                format!(
                    "`$in_range` takes a list of two bounds second, not {}",
                    match other {
                        Value::List(items) => format!("a list of {}", items.len()),
                        other => describe(other).to_string(),
                    }
                ),
            );
        }
    };
    if let Some(v) = known(args, 0).filter(|v| !comparable(v)) {
        return wrong(
            0,
            format!(
                "`$in_range` judges an integer, float, string, timestamp, version or scalar, not {}",
                describe(v)
            ),
        );
    }
    let Some([lower, upper]) = bounds.map(|b| [&b[0], &b[1]]) else {
        return Outcome::Later;
    };
    if let Some(bound) = [lower, upper].into_iter().find(|b| !comparable(b)) {
        return wrong(
            1,
            format!(
                "`$in_range` takes comparable bounds, not {}",
                describe(bound)
            ),
        );
    }
    let ordered = coerce(lower, upper).and_then(|(l, u)| compare(&l, &u));
    match ordered {
        None => {
            return wrong(
                1,
                format!(
                    "the bounds of `$in_range` are {} and {}, which cannot be compared",
                    describe(lower),
                    describe(upper)
                ),
            );
        }
        Some(Ordering::Greater) => {
            return wrong(
                1,
                "the lower bound of `$in_range` is greater than the upper one".to_string(),
            );
        }
        Some(_) => {}
    }
    let Some(value) = known(args, 0) else {
        return Outcome::Later;
    };
    let side = |bound: &Value| coerce(value, bound).map(|(v, b)| compare(&v, &b));
    match (side(lower), side(upper)) {
        (Some(low), Some(high)) => Outcome::Value(Value::Boolean(
            low.is_some_and(Ordering::is_ge) && high.is_some_and(Ordering::is_le),
        )),
        // A string that looks like a scalar in a unit only the type knows.
        _ => Outcome::Later,
    }
}

pub(super) fn matches(args: &[Value], patterns: &Patterns) -> Outcome {
    for i in 0..2 {
        if let Some(v) = known(args, i).filter(|v| !matches!(v, Value::String(_))) {
            return wrong(i, format!("`$matches` takes strings, not {}", describe(v)));
        }
    }
    let regex = match known(args, 1) {
        Some(Value::String(pattern)) => match patterns.get(pattern) {
            Ok(regex) => Some(regex),
            Err(Refused::Invalid(why)) => {
                return wrong(1, format!("`{pattern}` is not a regular expression: {why}"));
            }
            Err(refused @ Refused::Budget(_)) => {
                return Outcome::Limit {
                    message: format!("`{pattern}` is not compiled: {}", refused.why()),
                    limit: Limit::RegexBytes,
                };
            }
        },
        _ => None,
    };
    match (known(args, 0), regex) {
        (Some(Value::String(s)), Some(regex)) => Outcome::Value(Value::Boolean(regex.is_match(s))),
        _ => Outcome::Later,
    }
}
