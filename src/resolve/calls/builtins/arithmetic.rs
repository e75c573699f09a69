//! §10.2.5 Arithmetic Functions: `$sum`, `$difference`, `$product`, `$quotient`, `$remainder`,
//! `$round`, `$floor` and `$ceil`, over integers, floats and scalars of one unit family.

use super::comparison::looks_scalar;
use super::{Outcome, describe, known, wrong};
use crate::ir::{ScalarUnit, Value};

/// A number or scalar operand of the arithmetic functions.
enum Number<'v> {
    Int(i64),
    Float(f64),
    Scalar(&'v ScalarUnit),
}

fn number<'v>(
    name: &str,
    args: &'v [Value],
    i: usize,
    scalar_ok: bool,
) -> Result<Option<Number<'v>>, Outcome> {
    match known(args, i) {
        Some(Value::Integer(n)) => Ok(Some(Number::Int(*n))),
        Some(Value::Float(f)) => Ok(Some(Number::Float(*f))),
        Some(Value::Scalar(s)) if scalar_ok => Ok(Some(Number::Scalar(s))),
        Some(Value::String(s)) if scalar_ok && looks_scalar(s) => Ok(None),
        Some(other) => Err(wrong(
            i,
            format!(
                "`${name}` takes {}, not {}",
                if scalar_ok {
                    "integers, floats or scalars"
                } else {
                    "integers or floats"
                },
                describe(other)
            ),
        )),
        None => Ok(None),
    }
}

/// `outcome`, unless it is a float or scalar past what a 64-bit float holds (`1e300 * 1e300`),
/// which no output could write: the overflow is an error, as it is for integers.
pub(super) fn finite(name: &str, outcome: Outcome) -> Outcome {
    match &outcome {
        Outcome::Value(Value::Float(f)) if !f.is_finite() => float_overflow(name),
        Outcome::Value(Value::Scalar(s)) if !(s.number.is_finite() && s.canonical.is_finite()) => {
            float_overflow(name)
        }
        _ => outcome,
    }
}

fn float_overflow(name: &str) -> Outcome {
    Outcome::Wrong {
        arg: None,
        message: format!("`${name}` overflows a 64-bit float: its result is not a finite number"),
    }
}

fn overflow(name: &str) -> Outcome {
    Outcome::Wrong {
        arg: None,
        message: format!("`${name}` overflows a 64-bit integer"),
    }
}

/// A scalar of the same type as `like`, `number` in `like`'s written unit.
/// `number` (in `like`'s written unit) as a scalar of `like`'s kind.
pub fn scalar_like(like: &ScalarUnit, number: f64) -> Value {
    let (number, unit, factor) = if like.number != 0.0 {
        (number, like.unit.clone(), like.canonical / like.number)
    } else {
        (number, like.canonical_unit.clone(), 1.0)
    };
    Value::Scalar(Box::new(ScalarUnit {
        text: format!("{} {unit}", number_text(number)),
        number,
        unit,
        canonical: number * factor,
        canonical_unit: like.canonical_unit.clone(),
    }))
}

/// A number as text: whole numbers without a fraction.
fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

pub(super) fn sum(name: &str, args: &[Value]) -> Outcome {
    let mut numbers = Vec::with_capacity(args.len());
    for i in 0..args.len() {
        match number(name, args, i, true) {
            Ok(n) => numbers.push(n),
            Err(e) => return e,
        }
    }
    let scalars = numbers
        .iter()
        .flatten()
        .filter(|n| matches!(n, Number::Scalar(_)))
        .count();
    let known_count = numbers.iter().flatten().count();
    if scalars > 0 && scalars < known_count {
        let i = numbers
            .iter()
            .position(|n| matches!(n, Some(Number::Int(_) | Number::Float(_))))
            .unwrap_or(0);
        return wrong(
            i,
            format!("`${name}` cannot mix scalars with plain numbers"),
        );
    }
    let units: Vec<&str> = numbers
        .iter()
        .flatten()
        .filter_map(|n| match n {
            Number::Scalar(s) => Some(s.canonical_unit.as_str()),
            _ => None,
        })
        .collect();
    if let Some(i) = units.iter().position(|u| *u != units[0]) {
        return wrong(
            i,
            format!(
                "`${name}` cannot mix scalars of different types (in `{}` and `{}`)",
                units[0], units[i]
            ),
        );
    }
    if known_count < numbers.len() {
        return Outcome::Later;
    }
    let numbers: Vec<Number> = numbers.into_iter().flatten().collect();
    let sign = |i: usize| {
        if name == "difference" && i > 0 {
            -1.0
        } else {
            1.0
        }
    };
    match &numbers[..] {
        [Number::Scalar(first), ..] => {
            let factor = if first.number != 0.0 {
                first.canonical / first.number
            } else {
                1.0
            };
            let total: f64 = numbers
                .iter()
                .enumerate()
                .map(|(i, n)| match n {
                    Number::Scalar(s) => sign(i) * s.canonical,
                    _ => 0.0,
                })
                .sum();
            Outcome::Value(scalar_like(first, total / factor))
        }
        _ if numbers.iter().all(|n| matches!(n, Number::Int(_))) => {
            let mut total: i64 = 0;
            for (i, n) in numbers.iter().enumerate() {
                let Number::Int(n) = n else { continue };
                let next = if sign(i) < 0.0 {
                    total.checked_sub(*n)
                } else {
                    total.checked_add(*n)
                };
                match next {
                    Some(t) => total = t,
                    None => return overflow(name),
                }
            }
            Outcome::Value(Value::Integer(total))
        }
        _ => Outcome::Value(Value::Float(
            numbers
                .iter()
                .enumerate()
                .map(|(i, n)| sign(i) * float(n))
                .sum(),
        )),
    }
}

fn float(n: &Number) -> f64 {
    match n {
        Number::Int(i) => *i as f64,
        Number::Float(f) => *f,
        Number::Scalar(s) => s.number,
    }
}

pub(super) fn product(args: &[Value]) -> Outcome {
    let first = match number("product", args, 0, true) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let scalar_first = matches!(first, Some(Number::Scalar(_)))
        || matches!(args.first(), Some(Value::String(s)) if looks_scalar(s));
    if scalar_first && args.len() != 2 {
        return Outcome::Wrong {
            arg: None,
            message: "`$product` of a scalar takes exactly one more argument, an integer or float (§10.2.5.3 $product)".into(),
        };
    }
    let mut rest = Vec::with_capacity(args.len());
    for i in 1..args.len() {
        match number("product", args, i, false) {
            Ok(n) => rest.push(n),
            Err(e) => return e,
        }
    }
    let (Some(first), true) = (first, rest.iter().all(Option::is_some)) else {
        return Outcome::Later;
    };
    let rest: Vec<Number> = rest.into_iter().flatten().collect();
    if let Number::Scalar(s) = first {
        return Outcome::Value(scalar_like(s, s.number * float(&rest[0])));
    }
    let all: Vec<&Number> = std::iter::once(&first).chain(rest.iter()).collect();
    if all.iter().all(|n| matches!(n, Number::Int(_))) {
        let mut total: i64 = 1;
        for n in all {
            let Number::Int(n) = n else { continue };
            match total.checked_mul(*n) {
                Some(t) => total = t,
                None => return overflow("product"),
            }
        }
        return Outcome::Value(Value::Integer(total));
    }
    Outcome::Value(Value::Float(all.iter().map(|n| float(n)).product()))
}

pub(super) fn divide(name: &str, args: &[Value]) -> Outcome {
    let first = match number(name, args, 0, true) {
        Ok(n) => n,
        Err(e) => return e,
    };
    if name == "remainder" && matches!(first, Some(Number::Float(_))) {
        return wrong(
            0,
            "`$remainder` takes an integer or a scalar first, not a float",
        );
    }
    let second = match number(name, args, 1, false) {
        Ok(n) => n,
        Err(e) => return e,
    };
    if name == "remainder" && matches!(second, Some(Number::Float(_))) {
        return wrong(1, "`$remainder` divides by an integer, not a float");
    }
    if matches!(second, Some(Number::Int(0)))
        || matches!(second, Some(Number::Float(f)) if f == 0.0)
    {
        return wrong(1, format!("`${name}` divides by zero"));
    }
    let (Some(a), Some(b)) = (first, second) else {
        return Outcome::Later;
    };
    match (name, a) {
        ("quotient", Number::Scalar(s)) => Outcome::Value(scalar_like(s, s.number / float(&b))),
        ("quotient", a) => Outcome::Value(Value::Float(float(&a) / float(&b))),
        (_, Number::Scalar(s)) => Outcome::Value(scalar_like(s, s.number % float(&b))),
        (_, Number::Int(x)) => match b {
            Number::Int(y) => Outcome::Value(Value::Integer(x.checked_rem(y).unwrap_or(0))),
            _ => Outcome::Later,
        },
        _ => Outcome::Later,
    }
}

pub(super) fn rounding(name: &str, args: &[Value]) -> Outcome {
    let x = match known(args, 0) {
        Some(Value::Float(f)) => *f,
        Some(Value::Integer(i)) => return Outcome::Value(Value::Integer(*i)),
        Some(other) => {
            return wrong(
                0,
                format!("`${name}` takes a float, not {}", describe(other)),
            );
        }
        None => return Outcome::Later,
    };
    let rounded = match name {
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        // Exact halves round down (§10.2.5.6 $round).
        _ if (x - x.floor()) == 0.5 => x.floor(),
        _ => x.round(),
    };
    if !rounded.is_finite() || rounded.abs() >= 9.2e18 {
        return wrong(0, format!("`${name}` of {x} is not a 64-bit integer"));
    }
    Outcome::Value(Value::Integer(rounded as i64))
}
