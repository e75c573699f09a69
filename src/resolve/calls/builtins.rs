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

use std::cmp::Ordering;

use crate::ir::{ScalarUnit, Value};
use crate::limits::{Exceeded, Limit};
use crate::model::literals;
use crate::resolve::constraints::compare;
use crate::resolve::patterns::{Patterns, Refused};

/// When a built-in can be evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Reads the representation graph through a TOSCA path (`$get_property`, ...).
    Query,
    /// `$get_input`: bound where values are read.
    Input,
    /// Means something only in a node or relationship context (`$node_index`, ...).
    Context,
    /// `$value`: only inside a validation clause.
    Validation,
    /// Computed from the arguments alone.
    Pure,
}

/// One built-in function.
#[derive(Debug)]
pub struct BuiltIn {
    pub name: &'static str,
    pub min: usize,
    pub max: Option<usize>,
    pub group: Group,
    /// The arguments as the spec writes them, for messages.
    pub grammar: &'static str,
    /// The section of the specification that defines it, for messages.
    pub section: &'static str,
    /// The TOSCA type of every result, where it is always the same.
    pub result: Option<&'static str>,
}

const fn f(
    name: &'static str,
    min: usize,
    max: Option<usize>,
    group: Group,
    grammar: &'static str,
    section: &'static str,
    result: Option<&'static str>,
) -> BuiltIn {
    BuiltIn {
        name,
        min,
        max,
        group,
        grammar,
        section,
        result,
    }
}

use Group::*;

const BOOL: Option<&str> = Some("boolean");
const ANY: Option<usize> = None;

/// Every built-in function of §10.2, in the spec's order.
pub const BUILT_INS: &[BuiltIn] = &[
    f(
        "get_input",
        1,
        ANY,
        Input,
        "<input name> or [ <input name>, <key or index>, ... ]",
        "§10.2.1.1 $get_input",
        None,
    ),
    f(
        "get_property",
        2,
        ANY,
        Query,
        "[ <tosca_path>, <property name>, <key or index>, ... ]",
        "§10.2.1.1 $get_input",
        None,
    ),
    f(
        "get_attribute",
        2,
        ANY,
        Query,
        "[ <tosca_path>, <attribute name>, <key or index>, ... ]",
        "§10.2.1.2 $get_property",
        None,
    ),
    f(
        "get_artifact",
        2,
        ANY,
        Query,
        "[ <tosca_path>, <artifact name> ]",
        "§10.2.1.4 `$get_artifact`",
        Some("string"),
    ),
    f(
        "value",
        0,
        ANY,
        Validation,
        "$value or [ <key or index>, ... ]",
        "§10.2.1.5 $value",
        None,
    ),
    f(
        "node_index",
        0,
        Some(0),
        Context,
        "$node_index (no arguments)",
        "§10.2.1.6 $node_index",
        Some("integer"),
    ),
    f(
        "relationship_index",
        0,
        Some(0),
        Context,
        "$relationship_index (no arguments)",
        "§10.2.1.7 $relationship_index",
        Some("integer"),
    ),
    f(
        "available_allocation",
        2,
        ANY,
        Query,
        "[ <tosca_path to a capability>, <property name> ]",
        "§10.2.1.8 $available_allocation",
        None,
    ),
    f(
        "and",
        2,
        ANY,
        Pure,
        "[ <boolean>, <boolean>, ... ]",
        "§10.2.2.1.1 $and",
        BOOL,
    ),
    f(
        "or",
        2,
        ANY,
        Pure,
        "[ <boolean>, <boolean>, ... ]",
        "§10.2.2.1.2 $or",
        BOOL,
    ),
    f(
        "not",
        1,
        Some(1),
        Pure,
        "[ <boolean> ]",
        "§10.2.2.1.3 `$not`",
        BOOL,
    ),
    f(
        "xor",
        2,
        Some(2),
        Pure,
        "[ <boolean>, <boolean> ]",
        "§10.2.2.1.4 `$xor`",
        BOOL,
    ),
    f(
        "equal",
        2,
        Some(2),
        Pure,
        "[ <value>, <value of the same type> ]",
        "§10.2.2.2.1 `$equal`",
        BOOL,
    ),
    f(
        "greater_than",
        2,
        Some(2),
        Pure,
        "[ <comparable>, <comparable> ]",
        "§10.2.2.2.2 `$greater_than`",
        BOOL,
    ),
    f(
        "greater_or_equal",
        2,
        Some(2),
        Pure,
        "[ <comparable>, <comparable> ]",
        "§10.2.2.2.3 `$greater_or_equal`",
        BOOL,
    ),
    f(
        "less_than",
        2,
        Some(2),
        Pure,
        "[ <comparable>, <comparable> ]",
        "§10.2.2.2.4 `$less_than`",
        BOOL,
    ),
    f(
        "less_or_equal",
        2,
        Some(2),
        Pure,
        "[ <comparable>, <comparable> ]",
        "§10.2.2.2.5 `$less_or_equal`",
        BOOL,
    ),
    f(
        "valid_values",
        2,
        Some(2),
        Pure,
        "[ <value>, [ <value>, ... ] ]",
        "§10.2.2.2.6 `$valid_values`",
        BOOL,
    ),
    f(
        "matches",
        2,
        Some(2),
        Pure,
        "[ <string>, <regular expression> ]",
        "§10.2.2.2.7 `$matches`",
        BOOL,
    ),
    f(
        "has_suffix",
        2,
        Some(2),
        Pure,
        "[ <string or list>, <string or list> ]",
        "§10.2.2.3.1 `$has_suffix`",
        BOOL,
    ),
    f(
        "has_prefix",
        2,
        Some(2),
        Pure,
        "[ <string or list>, <string or list> ]",
        "§10.2.2.3.2 `$has_prefix`",
        BOOL,
    ),
    f(
        "contains",
        2,
        Some(2),
        Pure,
        "[ <string or list>, <string or list> ]",
        "§10.2.2.3.3 `$contains`",
        BOOL,
    ),
    f(
        "has_entry",
        2,
        Some(2),
        Pure,
        "[ <list or map>, <value> ]",
        "§10.2.2.3.4 `$has_entry`",
        BOOL,
    ),
    f(
        "has_key",
        2,
        Some(2),
        Pure,
        "[ <map>, <key> ]",
        "§10.2.2.3.5 `$has_key`",
        BOOL,
    ),
    f(
        "has_all_entries",
        2,
        Some(2),
        Pure,
        "[ <list or map>, <list> ]",
        "§10.2.2.3.6 `$has_all_entries`",
        BOOL,
    ),
    f(
        "has_all_keys",
        2,
        Some(2),
        Pure,
        "[ <map>, <list> ]",
        "§10.2.2.3.7 `$has_all_keys`",
        BOOL,
    ),
    f(
        "has_any_entry",
        2,
        Some(2),
        Pure,
        "[ <list or map>, <list> ]",
        "§10.2.2.3.8 `$has_any_entry`",
        BOOL,
    ),
    f(
        "has_any_key",
        2,
        Some(2),
        Pure,
        "[ <map>, <list> ]",
        "§10.2.2.3.9 `$has_any_key`",
        BOOL,
    ),
    f(
        "length",
        1,
        Some(1),
        Pure,
        "[ <string, list or map> ]",
        "§10.2.3.1 $length",
        Some("integer"),
    ),
    f(
        "concat",
        1,
        ANY,
        Pure,
        "[ <string or list>, ... ]",
        "§10.2.3.2 $concat",
        None,
    ),
    f(
        "join",
        1,
        Some(2),
        Pure,
        "[ [ <string>, ... ] ] or [ [ <string>, ... ], <delimiter> ]",
        "§10.2.3.3 $join",
        Some("string"),
    ),
    f(
        "token",
        3,
        Some(3),
        Pure,
        "[ <string>, <separator characters>, <index> ]",
        "§10.2.3.4 $token",
        Some("string"),
    ),
    f(
        "union",
        1,
        ANY,
        Pure,
        "[ <list>, ... ]",
        "§10.2.4.1 $union",
        Some("list"),
    ),
    f(
        "intersection",
        1,
        ANY,
        Pure,
        "[ <list>, ... ]",
        "§10.2.4.2 $intersection",
        Some("list"),
    ),
    f(
        "sum",
        1,
        ANY,
        Pure,
        "[ <integer, float or scalar>, ... ]",
        "§10.2.5.1 $sum",
        None,
    ),
    f(
        "difference",
        2,
        Some(2),
        Pure,
        "[ <integer, float or scalar>, <the same kind> ]",
        "§10.2.5.2 $difference",
        None,
    ),
    f(
        "product",
        2,
        ANY,
        Pure,
        "[ <scalar>, <integer or float> ] or [ <integer or float>, ... ]",
        "§10.2.5.3 $product",
        None,
    ),
    f(
        "quotient",
        2,
        Some(2),
        Pure,
        "[ <integer, float or scalar>, <integer or float> ]",
        "§10.2.5.4 $quotient",
        None,
    ),
    f(
        "remainder",
        2,
        Some(2),
        Pure,
        "[ <integer or scalar>, <integer> ]",
        "§10.2.5.5 $remainder",
        None,
    ),
    f(
        "round",
        1,
        Some(1),
        Pure,
        "[ <float> ]",
        "§10.2.5.6 $round",
        Some("integer"),
    ),
    f(
        "floor",
        1,
        Some(1),
        Pure,
        "[ <float> ]",
        "§10.2.5.7 $floor",
        Some("integer"),
    ),
    f(
        "ceil",
        1,
        Some(1),
        Pure,
        "[ <float> ]",
        "§10.2.5.8 $ceil",
        Some("integer"),
    ),
];

/// `$in_range`, read as a built-in only under `--quirk in-range`: csd07 does not define it, yet
/// its examples call it (§8.6 Node Filter Definition, §9.1.1.2 integer), as 1.x's `in_range`.
pub const IN_RANGE: BuiltIn = f(
    "in_range",
    2,
    Some(2),
    Pure,
    "[ <comparable>, [ <lower bound>, <upper bound> ] ]",
    "--quirk in-range; the examples at §8.6 Node Filter Definition and §9.1.1.2 integer call it",
    BOOL,
);

/// The built-in called `name`, if there is one.
pub fn built_in(name: &str) -> Option<&'static BuiltIn> {
    BUILT_INS.iter().find(|b| b.name == name)
}

impl BuiltIn {
    /// What is wrong when a call gives it `n` arguments: the message and a hint.
    pub fn arity(&self, n: usize) -> Result<(), (String, String)> {
        if n >= self.min && self.max.is_none_or(|max| n <= max) {
            return Ok(());
        }
        let plural = |k: usize| if k == 1 { "" } else { "s" };
        let takes = match self.max {
            Some(max) if max == self.min => format!("{max} argument{}", plural(max)),
            Some(max) => format!("{} to {max} arguments", self.min),
            None => format!("at least {} argument{}", self.min, plural(self.min)),
        };
        Err((
            format!("`${}` takes {takes}, and this call gives {n}", self.name),
            format!(
                "write `${}: {}` ({})",
                self.name, self.grammar, self.section
            ),
        ))
    }
}

/// The names of every built-in, for suggestions.
pub fn names() -> Vec<&'static str> {
    BUILT_INS.iter().map(|b| b.name).collect()
}

/// What applying a pure built-in to its arguments gives.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Value(Value),
    /// An argument is known only at deployment (and the known ones are right).
    Later,
    /// An argument (by index) or the call as a whole (`None`) is wrong.
    Wrong {
        arg: Option<usize>,
        message: String,
    },
    /// A limit of the run stops the call (it is kept, unevaluated): what passed it, and which.
    Limit {
        message: String,
        limit: Limit,
    },
}

fn wrong(arg: usize, message: impl Into<String>) -> Outcome {
    Outcome::Wrong {
        arg: Some(arg),
        message: message.into(),
    }
}

/// How a value is named in messages.
pub fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Boolean(_) => "a boolean",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a float",
        Value::String(_) => "a string",
        Value::List(_) => "a list",
        Value::Map(_) => "a map",
        Value::Scalar(_) => "a scalar",
        Value::Version(_) => "a version",
        Value::Timestamp(_) => "a timestamp",
        Value::Bytes(_) => "bytes",
        Value::Call(_) => "a function call",
    }
}

/// The argument if it is known before deployment.
fn known(args: &[Value], i: usize) -> Option<&Value> {
    args.get(i).filter(|v| !v.has_call())
}

/// Applies the pure built-in `name` (one of [`Group::Pure`]) to `args`, whose count is already
/// checked against the table. `patterns` compiles `$matches` expressions, once a run, and holds
/// the run's budget for computed values, which the functions that build a value as large as
/// their arguments together (`$concat`, `$join`, `$union`) spend: a chain of `$concat`s that
/// doubles its value at each step stops at the budget, not at the machine's memory.
pub fn apply(name: &str, args: &[Value], patterns: &Patterns) -> Outcome {
    if matches!(name, "concat" | "join" | "union") {
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
    match name {
        "and" | "or" => logic(name == "and", args),
        "not" => match known(args, 0) {
            Some(Value::Boolean(b)) => Outcome::Value(Value::Boolean(!b)),
            Some(other) => wrong(
                0,
                format!("`$not` takes a boolean, not {}", describe(other)),
            ),
            None => Outcome::Later,
        },
        "xor" => {
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
        "equal" => equal(args),
        "greater_than" | "greater_or_equal" | "less_than" | "less_or_equal" => order(name, args),
        "valid_values" => match (known(args, 0), known(args, 1)) {
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
        "in_range" => in_range(args),
        "matches" => matches(args, patterns),
        "has_suffix" | "has_prefix" | "contains" => affix(name, args),
        "has_entry" | "has_all_entries" | "has_any_entry" => entries(name, args),
        "has_key" | "has_all_keys" | "has_any_key" => keys(name, args),
        "length" => match known(args, 0) {
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
        "concat" => concat(args),
        "join" => join(args),
        "token" => token(args),
        "union" | "intersection" => sets(name == "union", args),
        "sum" | "difference" => finite(name, sum(name, args)),
        "product" => finite(name, product(args)),
        "quotient" | "remainder" => finite(name, divide(name, args)),
        "round" | "floor" | "ceil" => rounding(name, args),
        _ => Outcome::Later,
    }
}

fn logic(all: bool, args: &[Value]) -> Outcome {
    let name = if all { "$and" } else { "$or" };
    let mut later = false;
    let mut decided = false;
    for (i, arg) in args.iter().enumerate() {
        match known(args, i) {
            Some(Value::Boolean(b)) => decided |= *b != all,
            Some(other) => {
                return wrong(
                    i,
                    format!("`{name}` takes booleans, not {}", describe(other)),
                );
            }
            None => later |= arg.has_call(),
        }
    }
    if decided {
        // A false argument decides `$and`, a true one `$or` (§10.2.2.1.1 $and, §10.2.2.1.2 $or).
        Outcome::Value(Value::Boolean(!all))
    } else if later {
        Outcome::Later
    } else {
        Outcome::Value(Value::Boolean(all))
    }
}

/// The two operands as values of one type where a string reads as the other's type (a scalar,
/// version or timestamp written as text); `None` when a string looks like the other's type but
/// cannot be read without its unit table (`512 MiB` against a scalar in GB).
fn coerce(a: &Value, b: &Value) -> Option<(Value, Value)> {
    fn read(s: &str, like: &Value) -> Result<Value, ()> {
        match like {
            Value::Scalar(scalar) => scalar_text(s, scalar).ok_or(()),
            Value::Version(_) => literals::version(s).map(Value::Version).map_err(|_| ()),
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
fn looks_scalar(text: &str) -> bool {
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
    Some(Value::Scalar(ScalarUnit {
        text: text.to_string(),
        number,
        unit: unit.to_string(),
        canonical: number * factor,
        canonical_unit: like.canonical_unit.clone(),
    }))
}

/// Whether two values are of kinds that can be compared at all.
fn same_kind(a: &Value, b: &Value) -> bool {
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

fn equal(args: &[Value]) -> Outcome {
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
fn comparable(v: &Value) -> bool {
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

fn order(name: &str, args: &[Value]) -> Outcome {
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
fn in_range(args: &[Value]) -> Outcome {
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

fn matches(args: &[Value], patterns: &Patterns) -> Outcome {
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

fn affix(name: &str, args: &[Value]) -> Outcome {
    let (a, b) = (known(args, 0), known(args, 1));
    for (i, v) in [a, b].into_iter().enumerate() {
        if let Some(v) = v.filter(|v| !matches!(v, Value::String(_) | Value::List(_))) {
            return wrong(
                i,
                format!(
                    "`${name}` takes two strings or two lists, not {}",
                    describe(v)
                ),
            );
        }
    }
    let result = match (a, b) {
        (Some(Value::String(x)), Some(Value::String(y))) => match name {
            "has_suffix" => x.ends_with(y.as_str()),
            "has_prefix" => x.starts_with(y.as_str()),
            _ => x.contains(y.as_str()),
        },
        (Some(Value::List(x)), Some(Value::List(y))) => {
            let run = |at: usize| x[at..at + y.len()].iter().zip(y).all(|(a, b)| same(a, b));
            y.len() <= x.len()
                && match name {
                    "has_suffix" => run(x.len() - y.len()),
                    "has_prefix" => run(0),
                    _ => (0..=x.len() - y.len()).any(run),
                }
        }
        (Some(x), Some(y)) => {
            return wrong(
                1,
                format!(
                    "`${name}` takes two strings or two lists, not {} and {}",
                    describe(x),
                    describe(y)
                ),
            );
        }
        _ => return Outcome::Later,
    };
    Outcome::Value(Value::Boolean(result))
}

fn entries(name: &str, args: &[Value]) -> Outcome {
    let collection = known(args, 0);
    if let Some(v) = collection.filter(|v| !matches!(v, Value::List(_) | Value::Map(_))) {
        return wrong(
            0,
            format!("`${name}` looks in a list or map, not {}", describe(v)),
        );
    }
    let several = name != "has_entry";
    if several && let Some(v) = known(args, 1).filter(|v| !matches!(v, Value::List(_))) {
        return wrong(
            1,
            format!(
                "`${name}` takes a list of entries second, not {}",
                describe(v)
            ),
        );
    }
    let (Some(collection), Some(wanted)) = (collection, known(args, 1)) else {
        return Outcome::Later;
    };
    let values: Vec<&Value> = match collection {
        Value::List(l) => l.iter().collect(),
        Value::Map(m) => m.values().collect(),
        _ => Vec::new(),
    };
    let has = |w: &Value| values.iter().any(|v| same(v, w));
    Outcome::Value(Value::Boolean(match (name, wanted) {
        ("has_all_entries", Value::List(ws)) => ws.iter().all(has),
        ("has_any_entry", Value::List(ws)) => ws.iter().any(has),
        _ => has(wanted),
    }))
}

/// A map key as text: keys are strings in the IR; a number key names the string of its digits.
fn key_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Integer(i) => Some(i.to_string()),
        Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn keys(name: &str, args: &[Value]) -> Outcome {
    let map = known(args, 0);
    if let Some(v) = map.filter(|v| !matches!(v, Value::Map(_))) {
        return wrong(0, format!("`${name}` looks in a map, not {}", describe(v)));
    }
    let several = name != "has_key";
    if several && let Some(v) = known(args, 1).filter(|v| !matches!(v, Value::List(_))) {
        return wrong(
            1,
            format!("`${name}` takes a list of keys second, not {}", describe(v)),
        );
    }
    let (Some(Value::Map(map)), Some(wanted)) = (map, known(args, 1)) else {
        return Outcome::Later;
    };
    let has = |w: &Value| key_text(w).is_some_and(|k| map.contains_key(&k));
    Outcome::Value(Value::Boolean(match (name, wanted) {
        ("has_all_keys", Value::List(ws)) => ws.iter().all(has),
        ("has_any_key", Value::List(ws)) => ws.iter().any(has),
        _ => has(wanted),
    }))
}

/// The number of bytes Base64 text stands for.
fn base64_len(text: &str) -> usize {
    let chars: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let padding = chars.iter().rev().take_while(|b| **b == b'=').count();
    (chars.len() / 4) * 3 - padding.min(2)
}

fn concat(args: &[Value]) -> Outcome {
    // The first known argument decides whether strings or lists are joined.
    let lists = match args.iter().find(|a| !a.has_call()) {
        Some(Value::List(_)) => true,
        Some(Value::String(_)) | None => false,
        Some(other) => {
            let i = args.iter().position(|a| !a.has_call()).unwrap_or(0);
            return wrong(
                i,
                format!("`$concat` takes strings or lists, not {}", describe(other)),
            );
        }
    };
    let mut text = String::new();
    let mut items = Vec::new();
    let mut later = false;
    for (i, arg) in args.iter().enumerate() {
        match (known(args, i), lists) {
            (Some(Value::String(s)), false) => text.push_str(s),
            (Some(Value::List(l)), true) => items.extend(l.iter().cloned()),
            (Some(other), _) => {
                let all = if lists { "lists" } else { "strings" };
                return wrong(
                    i,
                    format!(
                        "`$concat` joins {all}, and this argument is {} (there is no implicit conversion)",
                        describe(other)
                    ),
                );
            }
            (None, _) => later |= arg.has_call(),
        }
    }
    if later {
        Outcome::Later
    } else if lists {
        Outcome::Value(Value::List(items))
    } else {
        Outcome::Value(Value::String(text))
    }
}

fn join(args: &[Value]) -> Outcome {
    if let Some(d) = known(args, 1).filter(|d| !matches!(d, Value::String(_))) {
        return wrong(
            1,
            format!("`$join`'s delimiter must be a string, not {}", describe(d)),
        );
    }
    let items = match args.first() {
        Some(Value::List(items)) => items,
        Some(v) if v.has_call() => return Outcome::Later,
        Some(other) => {
            return wrong(
                0,
                format!(
                    "`$join` takes a list of strings first, not {}",
                    describe(other)
                ),
            );
        }
        None => return Outcome::Later,
    };
    let mut parts = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(s) => parts.push(s.as_str()),
            v if v.has_call() => return Outcome::Later,
            other => {
                return wrong(
                    0,
                    format!(
                        "`$join` joins strings, and entry {i} of its list is {} (there is no implicit conversion: quote it)",
                        describe(other)
                    ),
                );
            }
        }
    }
    match args.get(1) {
        Some(Value::String(d)) => Outcome::Value(Value::String(parts.join(d))),
        Some(_) => Outcome::Later,
        None => Outcome::Value(Value::String(parts.concat())),
    }
}

fn token(args: &[Value]) -> Outcome {
    if let Some(v) = known(args, 0).filter(|v| !matches!(v, Value::String(_))) {
        return wrong(0, format!("`$token` splits a string, not {}", describe(v)));
    }
    match known(args, 1) {
        Some(Value::String(s)) if s.is_empty() => {
            return wrong(1, "`$token` needs at least one separator character");
        }
        Some(Value::String(_)) | None => {}
        Some(v) => {
            return wrong(
                1,
                format!(
                    "`$token`'s separators are a string of characters, not {}",
                    describe(v)
                ),
            );
        }
    }
    match known(args, 2) {
        Some(Value::Integer(i)) if *i >= 0 => {}
        Some(v) => {
            return wrong(
                2,
                format!(
                    "`$token`'s index is a non-negative integer, not {}",
                    describe_number(v)
                ),
            );
        }
        None => {}
    }
    let (Some(Value::String(s)), Some(Value::String(separators)), Some(Value::Integer(index))) =
        (known(args, 0), known(args, 1), known(args, 2))
    else {
        return Outcome::Later;
    };
    let tokens: Vec<&str> = s.split(|c| separators.contains(c)).collect();
    match tokens.get(*index as usize) {
        Some(t) => Outcome::Value(Value::String(t.to_string())),
        None => wrong(
            2,
            format!(
                "`{s}` has {} token(s) separated by `{separators}`, so index {index} is past the last (0 to {})",
                tokens.len(),
                tokens.len() - 1
            ),
        ),
    }
}

fn describe_number(v: &Value) -> String {
    match v {
        Value::Integer(i) => format!("{i}"),
        other => describe(other).to_string(),
    }
}

fn sets(union: bool, args: &[Value]) -> Outcome {
    let name = if union { "$union" } else { "$intersection" };
    let mut lists = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        match arg {
            Value::List(l) if !arg.has_call() => lists.push(l),
            // A list with an entry known only at deployment is still a list.
            Value::List(_) | Value::Call(_) => {}
            other => return wrong(i, format!("`{name}` takes lists, not {}", describe(other))),
        }
    }
    if lists.len() < args.len() {
        return Outcome::Later;
    }
    let candidates = if union {
        lists.iter().flat_map(|l| l.iter()).collect::<Vec<_>>()
    } else {
        lists[0].iter().collect()
    };
    if let Some(out) = plain_sets(union, &lists, &candidates) {
        return Outcome::Value(Value::List(out));
    }
    let mut out: Vec<Value> = Vec::new();
    for item in candidates {
        if out.iter().any(|o| same(o, item)) {
            continue;
        }
        if union || lists[1..].iter().all(|l| l.iter().any(|x| same(x, item))) {
            out.push(item.clone());
        }
    }
    Outcome::Value(Value::List(out))
}

/// What [`same`] compares a plain value by, when no other value in sight could read it
/// otherwise: numbers by value, strings by text (a string equals only a string, unless a
/// scalar, version or timestamp reads it), booleans, null.
#[derive(PartialEq, Eq, Hash)]
enum PlainKey<'v> {
    Null,
    Bool(bool),
    Number(u64),
    Text(&'v str),
}

fn plain_key(v: &Value) -> Option<PlainKey<'_>> {
    // -0.0 and 0.0 are the same number; NaN is no number equal to itself, so it has no key.
    let number = |f: f64| (!f.is_nan()).then(|| PlainKey::Number((f + 0.0).to_bits()));
    match v {
        Value::Null => Some(PlainKey::Null),
        Value::Boolean(b) => Some(PlainKey::Bool(*b)),
        Value::Integer(i) => number(*i as f64),
        Value::Float(f) => number(*f),
        Value::String(s) => Some(PlainKey::Text(s)),
        _ => None,
    }
}

/// `$union` or `$intersection` of lists whose every entry has a [`plain_key`], in time linear
/// in their length (comparing each entry with every other took the product of the lengths:
/// minutes for two lists of 100,000); `None` for lists that hold anything else.
fn plain_sets(union: bool, lists: &[&Vec<Value>], candidates: &[&Value]) -> Option<Vec<Value>> {
    use std::collections::HashSet;
    let keyed: Vec<Vec<PlainKey>> = lists
        .iter()
        .map(|l| l.iter().map(plain_key).collect::<Option<Vec<_>>>())
        .collect::<Option<_>>()?;
    // An integer past 2^53 and the float it rounds to have one key; `same` tells them apart
    // as `compare` does, so such lists take the general way.
    let exact = lists
        .iter()
        .flat_map(|l| l.iter())
        .all(|v| !matches!(v, Value::Integer(i) if i.unsigned_abs() > 1 << 53));
    if !exact {
        return None;
    }
    let others: Vec<HashSet<&PlainKey>> = keyed[1..].iter().map(|k| k.iter().collect()).collect();
    let mut seen: HashSet<PlainKey> = HashSet::new();
    let mut out = Vec::new();
    for item in candidates {
        let key = plain_key(item)?;
        if seen.contains(&key) {
            continue;
        }
        if union || others.iter().all(|o| o.contains(&key)) {
            out.push((*item).clone());
        }
        seen.insert(key);
    }
    Some(out)
}

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
fn finite(name: &str, outcome: Outcome) -> Outcome {
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
    Value::Scalar(ScalarUnit {
        text: format!("{} {unit}", number_text(number)),
        number,
        unit,
        canonical: number * factor,
        canonical_unit: like.canonical_unit.clone(),
    })
}

/// A number as text: whole numbers without a fraction.
fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

fn sum(name: &str, args: &[Value]) -> Outcome {
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

fn product(args: &[Value]) -> Outcome {
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

fn divide(name: &str, args: &[Value]) -> Outcome {
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

fn rounding(name: &str, args: &[Value]) -> Outcome {
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

/// A map of values keyed by text, for tests.
#[cfg(test)]
fn map(entries: &[(&str, Value)]) -> Value {
    Value::Map(
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<indexmap::IndexMap<_, _>>(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Call;

    fn s(t: &str) -> Value {
        Value::string(t)
    }
    fn i(n: i64) -> Value {
        Value::Integer(n)
    }
    fn b(v: bool) -> Value {
        Value::Boolean(v)
    }
    fn l(items: Vec<Value>) -> Value {
        Value::List(items)
    }
    fn later() -> Value {
        Value::Call(Call::new("get_attribute", vec![s("x"), s("y")]))
    }
    fn value(name: &str, args: Vec<Value>) -> Value {
        match apply(name, &args, &Patterns::default()) {
            Outcome::Value(v) => v,
            other => panic!("{name}: {other:?}"),
        }
    }
    fn wrong_arg(name: &str, args: Vec<Value>) -> Option<usize> {
        match apply(name, &args, &Patterns::default()) {
            Outcome::Wrong { arg, .. } => arg,
            other => panic!("{name} should be wrong: {other:?}"),
        }
    }
    fn gb(n: f64) -> Value {
        Value::Scalar(ScalarUnit {
            text: format!("{n} GB"),
            number: n,
            unit: "GB".into(),
            canonical: n * 1e9,
            canonical_unit: "B".into(),
        })
    }

    #[test]
    fn logic_short_circuits_over_unknown_arguments() {
        assert_eq!(value("and", vec![b(true), b(true)]), b(true));
        assert_eq!(value("and", vec![later(), b(false)]), b(false));
        assert_eq!(
            apply("and", &[later(), b(true)], &Patterns::default()),
            Outcome::Later
        );
        assert_eq!(value("or", vec![later(), b(true)]), b(true));
        assert_eq!(value("xor", vec![b(true), b(false)]), b(true));
        assert_eq!(value("not", vec![b(true)]), b(false));
        assert_eq!(wrong_arg("and", vec![b(true), s("yes")]), Some(1));
    }

    #[test]
    fn comparisons_promote_integers_and_read_strings_as_the_other_side() {
        assert_eq!(
            value("greater_than", vec![i(3), Value::Float(2.5)]),
            b(true)
        );
        assert_eq!(value("less_than", vec![s("a"), s("b")]), b(true));
        assert_eq!(
            value("greater_or_equal", vec![gb(1.0), s("0.5 GB")]),
            b(true)
        );
        assert_eq!(
            value("less_than", vec![gb(1.0), s("2000000000 B")]),
            b(true)
        );
        // A unit only the scalar type knows cannot be read here: left for later.
        assert_eq!(
            apply("less_than", &[gb(1.0), s("3 TB")], &Patterns::default()),
            Outcome::Later
        );
        // Different types are not ordered: false (§10.2.2.2.2 $greater_than).
        assert_eq!(value("greater_than", vec![s("3"), i(2)]), b(false));
        assert_eq!(wrong_arg("greater_than", vec![l(vec![]), i(2)]), Some(0));
        assert_eq!(value("equal", vec![i(2), Value::Float(2.0)]), b(true));
        assert_eq!(wrong_arg("equal", vec![s("2"), i(2)]), Some(1));
        assert_eq!(
            value("valid_values", vec![i(2), l(vec![i(1), i(2)])]),
            b(true)
        );
        // Timestamps by instant: 10:00 at +02:00 is before 09:00 UTC.
        let ts = |t: &str| Value::Timestamp(t.to_string());
        let (early, late) = (ts("2024-01-01T10:00:00+02:00"), ts("2024-01-01T09:00:00Z"));
        assert_eq!(value("less_than", vec![early.clone(), late]), b(true));
        assert_eq!(
            value("equal", vec![early, s("2024-01-01T08:00:00Z")]),
            b(true)
        );
    }

    #[test]
    fn in_range_includes_both_bounds_and_checks_them() {
        let range = |lo: Value, hi: Value| l(vec![lo, hi]);
        assert_eq!(value("in_range", vec![i(0), range(i(0), i(10))]), b(true));
        assert_eq!(value("in_range", vec![i(10), range(i(0), i(10))]), b(true));
        assert_eq!(value("in_range", vec![i(11), range(i(0), i(10))]), b(false));
        assert_eq!(
            value("in_range", vec![Value::Float(2.5), range(i(2), i(3))]),
            b(true)
        );
        assert_eq!(
            value("in_range", vec![gb(2.0), range(s("1 GB"), gb(4.0))]),
            b(true)
        );
        // A value of another kind is never in the range.
        assert_eq!(
            value("in_range", vec![s("5"), range(i(0), i(10))]),
            b(false)
        );
        assert_eq!(
            apply(
                "in_range",
                &[later(), range(i(0), i(10))],
                &Patterns::default()
            ),
            Outcome::Later
        );
        // The bounds are judged even when the value is known only later.
        assert_eq!(
            wrong_arg("in_range", vec![later(), range(i(10), i(0))]),
            Some(1)
        );
        assert_eq!(wrong_arg("in_range", vec![i(1), l(vec![i(0)])]), Some(1));
        assert_eq!(wrong_arg("in_range", vec![i(1), i(0)]), Some(1));
        assert_eq!(
            wrong_arg("in_range", vec![i(1), range(i(0), s("x"))]),
            Some(1)
        );
        assert_eq!(
            wrong_arg("in_range", vec![l(vec![]), range(i(0), i(1))]),
            Some(0)
        );
    }

    #[test]
    fn string_and_list_predicates() {
        assert_eq!(value("matches", vec![s("abc"), s("b")]), b(true));
        assert_eq!(value("matches", vec![s("abc"), s("^b$")]), b(false));
        assert_eq!(wrong_arg("matches", vec![s("abc"), s("(")]), Some(1));
        assert_eq!(value("has_suffix", vec![s("abc"), s("bc")]), b(true));
        assert_eq!(
            value(
                "has_prefix",
                vec![l(vec![i(1), i(2), i(3)]), l(vec![i(1), i(2)])]
            ),
            b(true)
        );
        assert_eq!(
            value(
                "contains",
                vec![l(vec![i(1), i(2), i(3)]), l(vec![i(2), i(3)])]
            ),
            b(true)
        );
        assert_eq!(
            value(
                "contains",
                vec![l(vec![i(1), i(2), i(3)]), l(vec![i(3), i(2)])]
            ),
            b(false)
        );
        assert_eq!(wrong_arg("contains", vec![s("abc"), l(vec![])]), Some(1));
        let m = map(&[("a", i(1)), ("b", i(2))]);
        assert_eq!(value("has_entry", vec![m.clone(), i(2)]), b(true));
        assert_eq!(value("has_key", vec![m.clone(), s("b")]), b(true));
        assert_eq!(
            value("has_all_keys", vec![m.clone(), l(vec![s("a"), s("c")])]),
            b(false)
        );
        assert_eq!(
            value("has_any_key", vec![m.clone(), l(vec![s("a"), s("c")])]),
            b(true)
        );
        assert_eq!(
            value("has_all_entries", vec![m.clone(), l(vec![i(1), i(2)])]),
            b(true)
        );
        assert_eq!(wrong_arg("has_key", vec![l(vec![]), s("a")]), Some(0));
        assert_eq!(value("length", vec![s("zoë")]), i(3));
        assert_eq!(value("length", vec![m]), i(2));
        assert_eq!(value("length", vec![Value::Bytes("aGk=".into())]), i(2));
    }

    #[test]
    fn strings_join_concat_and_token() {
        assert_eq!(
            value("concat", vec![s("http://"), s("h"), s(":80")]),
            s("http://h:80")
        );
        assert_eq!(
            value("concat", vec![l(vec![i(1)]), l(vec![l(vec![i(2)])])]),
            l(vec![i(1), l(vec![i(2)])])
        );
        assert_eq!(
            apply("concat", &[s("a"), later()], &Patterns::default()),
            Outcome::Later
        );
        assert_eq!(
            wrong_arg("concat", vec![s("port "), later(), i(80)]),
            Some(2)
        );
        assert_eq!(
            value("join", vec![l(vec![s("a"), s("b")]), s(",")]),
            s("a,b")
        );
        assert_eq!(value("join", vec![l(vec![s("a"), s("b")])]), s("ab"));
        assert_eq!(
            wrong_arg("join", vec![l(vec![s("prefix"), i(1111)]), s("_")]),
            Some(0)
        );
        assert_eq!(value("token", vec![s("a:b::c"), s(":"), i(2)]), s(""));
        assert_eq!(value("token", vec![s("a:b;c"), s(":;"), i(2)]), s("c"));
        assert_eq!(wrong_arg("token", vec![s("a:b"), s(":"), i(2)]), Some(2));
        assert_eq!(wrong_arg("token", vec![s("a:b"), s(":"), i(-1)]), Some(2));
    }

    #[test]
    fn sets_of_plain_values_agree_with_comparing_each_pair() {
        let values = [
            Value::Null,
            b(true),
            b(false),
            i(1),
            i(-0),
            Value::Float(1.0),
            Value::Float(-0.0),
            Value::Float(0.5),
            Value::Float(f64::NAN),
            s("1"),
            s(""),
            s("true"),
            s("a"),
        ];
        // Every pair of lists of up to three of them, in every order.
        let lists: Vec<Vec<Value>> = (0..values.len() * values.len() * values.len())
            .map(|n| {
                let k = values.len();
                vec![
                    values[n % k].clone(),
                    values[n / k % k].clone(),
                    values[n / k / k % k].clone(),
                ]
            })
            .collect();
        for (x, y) in lists.iter().zip(lists.iter().rev()).step_by(7) {
            for union in [true, false] {
                let lists = [x, y];
                let candidates: Vec<&Value> = if union {
                    x.iter().chain(y.iter()).collect()
                } else {
                    x.iter().collect()
                };
                let nan =
                    |l: &Vec<Value>| l.iter().any(|v| matches!(v, Value::Float(f) if f.is_nan()));
                let Some(fast) = plain_sets(union, &lists, &candidates) else {
                    assert!(nan(x) || nan(y), "{x:?} {y:?}");
                    continue;
                };
                let mut slow: Vec<Value> = Vec::new();
                for item in candidates {
                    if slow.iter().any(|o| same(o, item)) {
                        continue;
                    }
                    if union || y.iter().any(|v| same(v, item)) {
                        slow.push(item.clone());
                    }
                }
                let text = |l: &[Value]| format!("{l:?}");
                assert_eq!(text(&fast), text(&slow), "{x:?} {y:?} union {union}");
            }
        }
    }

    #[test]
    fn sets_keep_first_occurrence_order() {
        assert_eq!(
            value("union", vec![l(vec![i(1), i(7)]), l(vec![i(3), i(1)])]),
            l(vec![i(1), i(7), i(3)])
        );
        assert_eq!(value("union", vec![l(vec![i(1), i(1)])]), l(vec![i(1)]));
        assert_eq!(
            value(
                "intersection",
                vec![l(vec![i(3), i(1), i(3), i(2)]), l(vec![i(2), i(3)])]
            ),
            l(vec![i(3), i(2)])
        );
        assert_eq!(wrong_arg("union", vec![l(vec![]), i(1)]), Some(1));
    }

    #[test]
    fn arithmetic() {
        assert_eq!(value("sum", vec![i(1), i(2), i(3)]), i(6));
        assert_eq!(
            value("sum", vec![i(1), Value::Float(0.5)]),
            Value::Float(1.5)
        );
        assert_eq!(value("difference", vec![i(1), i(3)]), i(-2));
        match value("sum", vec![gb(1.0), gb(2.0)]) {
            Value::Scalar(s) => assert_eq!((s.text.as_str(), s.canonical), ("3 GB", 3e9)),
            other => panic!("{other:?}"),
        }
        assert_eq!(wrong_arg("sum", vec![gb(1.0), i(2)]), Some(1));
        assert!(matches!(
            apply("sum", &[i(i64::MAX), i(1)], &Patterns::default()),
            Outcome::Wrong { arg: None, .. }
        ));
        assert_eq!(value("product", vec![i(2), i(3), i(4)]), i(24));
        assert_eq!(
            value("product", vec![i(2), Value::Float(1.5)]),
            Value::Float(3.0)
        );
        match value("product", vec![gb(2.0), i(3)]) {
            Value::Scalar(s) => assert_eq!(s.text, "6 GB"),
            other => panic!("{other:?}"),
        }
        assert_eq!(value("quotient", vec![i(7), i(2)]), Value::Float(3.5));
        assert_eq!(wrong_arg("quotient", vec![i(7), i(0)]), Some(1));
        assert_eq!(value("remainder", vec![i(7), i(2)]), i(1));
        assert_eq!(
            wrong_arg("remainder", vec![Value::Float(7.0), i(2)]),
            Some(0)
        );
        assert_eq!(value("round", vec![Value::Float(3.5)]), i(3));
        assert_eq!(value("round", vec![Value::Float(3.53)]), i(4));
        assert_eq!(value("round", vec![Value::Float(-3.5)]), i(-4));
        assert_eq!(value("floor", vec![Value::Float(-0.5)]), i(-1));
        assert_eq!(value("ceil", vec![Value::Float(0.2)]), i(1));
        assert_eq!(value("ceil", vec![i(2)]), i(2));
    }
}
