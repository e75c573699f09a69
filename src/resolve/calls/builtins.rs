//! The built-in functions of TOSCA 2.0 (§10.2 TOSCA Built-In Functions): how each is called, and
//! the computation of those whose result follows from their arguments alone.
//!
//! [`apply`] judges the arguments it knows even when others are known only at deployment, so a
//! `$concat` of a string and an integer is an error whatever else it holds; it computes a result
//! only when every argument is known. Decisions where the spec is silent (checklist items
//! T2-FN-CMP-02, T2-FN-STR-03/04, T2-FN-SET-01, T2-FN-ARI-01..05):
//!
//! - an integer compares with and adds to a float (it is promoted); a string compares with a
//!   scalar, version or timestamp when it reads as one, and two values of different kinds are
//!   never ordered (`$greater_than` and friends are then false, §10.2.2.2.2 $greater_than) and
//!   never `$equal` (which is an error, §10.2.2.2.1 $equal);
//! - strings order by Unicode code point; `$matches` uses the Rust `regex` syntax and searches
//!   (anchor with `^…$` to match the whole string, §10.2.2.2.7 $matches);
//! - `$join` and `$concat` take strings, never numbers (there is no implicit conversion);
//! - `$token` splits on each separator character, so two in a row make an empty token, and an
//!   index past the last token is an error;
//! - `$union` and `$intersection` keep the order in which elements first occur;
//! - `$sum`, `$difference` and `$product` of integers stay integers (an overflow is an error),
//!   with a float among them they are floats; scalars add only to scalars of the same unit
//!   family; `$quotient` of numbers is a float, a division by zero an error;
//! - `$round` rounds exact halves down, toward −∞ (3.5 → 3, −3.5 → −4), as §10.2.5.6 $round says;
//!   `$round`, `$floor` and `$ceil` accept integers.

mod arithmetic;
mod comparison;
mod containment;
mod logic;
mod sets;
mod signatures;

use crate::ir::eval::base64_len;
use crate::ir::{Function, Value};
use crate::limits::{Exceeded, Limit};
use crate::resolve::patterns::Patterns;
pub use arithmetic::scalar_like;
use arithmetic::{divide, finite, product, rounding, sum};
pub use comparison::same;
use comparison::{equal, in_range, matches, order};
use containment::{affix, entries, keys};
use logic::logic;
use sets::sets;
pub use signatures::{BUILT_INS, BuiltIn, Group, IN_RANGE, built_in, names};

pub use crate::ir::eval::{Outcome, describe};
use crate::ir::eval::{known, wrong};

/// Applies the pure built-in `function` (one of [`Group::Pure`]) to `args`, whose count is already
/// checked against the table. `patterns` compiles `$matches` expressions, once a run, and holds
/// the run's budget for computed values, which the functions that build a value as large as
/// their arguments together (`$concat`, `$join`, `$union`) spend: a chain of `$concat`s that
/// doubles its value at each step stops at the budget, not at the machine's memory.
pub fn apply(function: &Function, args: &[Value], patterns: &Patterns) -> Outcome {
    use Function as F;
    let name = function.name();
    if matches!(function, F::Concat | F::Join | F::Union) {
        let weight = args
            .iter()
            .fold(0u64, |sum, a| sum.saturating_add(a.weight()));
        if let Err(Exceeded(limit)) = patterns.budget().compute(weight) {
            return Outcome::Limit {
                message: format!(
                    "`${name}` would make a value of about {weight} bytes, which with the values computed before passes the limit of {limit} bytes functions may compute in one run"
                ),
                limit: Limit::ComputedBytes,
            };
        }
    }
    match function {
        F::And | F::Or => logic(*function == F::And, args),
        F::Not => match known(args, 0) {
            Some(Value::Boolean(b)) => Outcome::Value(Value::Boolean(!b)),
            Some(other) => wrong(
                0,
                format!("`$not` takes a boolean, not {}", describe(other)),
            ),
            None => Outcome::Later,
        },
        F::Xor => {
            let mut values = Vec::new();
            for i in 0..args.len() {
                match known(args, i) {
                    Some(Value::Boolean(b)) => values.push(*b),
                    Some(other) => {
                        return wrong(i, format!("`$xor` takes booleans, not {}", describe(other)));
                    }
                    None => {}
                }
            }
            match values[..] {
                [a, b] => Outcome::Value(Value::Boolean(a != b)),
                _ => Outcome::Later,
            }
        }
        F::Equal => equal(args),
        F::GreaterThan | F::GreaterOrEqual | F::LessThan | F::LessOrEqual => order(name, args),
        F::ValidValues => match (known(args, 0), known(args, 1)) {
            (_, Some(list)) if !matches!(list, Value::List(_)) => wrong(
                1,
                format!(
                    "`$valid_values` takes a list of values second, not {}",
                    describe(list)
                ),
            ),
            (Some(v), Some(Value::List(items))) => {
                Outcome::Value(Value::Boolean(items.iter().any(|i| same(v, i))))
            }
            _ => Outcome::Later,
        },
        F::InRange => in_range(args),
        F::Matches => matches(args, patterns),
        F::HasSuffix | F::HasPrefix | F::Contains => affix(name, args),
        F::HasEntry | F::HasAllEntries | F::HasAnyEntry => entries(name, args),
        F::HasKey | F::HasAllKeys | F::HasAnyKey => keys(name, args),
        F::Length => match known(args, 0) {
            Some(Value::String(s)) => Outcome::Value(Value::Integer(s.chars().count() as i64)),
            Some(Value::List(l)) => Outcome::Value(Value::Integer(l.len() as i64)),
            Some(Value::Map(m)) => Outcome::Value(Value::Integer(m.len() as i64)),
            Some(Value::Bytes(b)) => Outcome::Value(Value::Integer(base64_len(b) as i64)),
            Some(other) => wrong(
                0,
                format!(
                    "`$length` takes a string, list or map, not {}",
                    describe(other)
                ),
            ),
            None => Outcome::Later,
        },
        // The string functions every backend shares ([`crate::ir::eval`]).
        F::Concat | F::Join | F::Token => crate::ir::eval::apply(function, args),
        F::Union | F::Intersection => sets(*function == F::Union, args),
        F::Sum | F::Difference => finite(name, sum(name, args)),
        F::Product => finite(name, product(args)),
        F::Quotient | F::Remainder => finite(name, divide(name, args)),
        F::Round | F::Floor | F::Ceil => rounding(name, args),
        _ => Outcome::Later,
    }
}

#[cfg(test)]
mod tests;
