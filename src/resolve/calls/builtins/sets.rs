//! §10.2.4 Set Functions: `$union` and `$intersection`, keeping the order in which elements first
//! occur.

use super::{Outcome, describe, same, wrong};
use crate::ir::Value;

pub(super) fn sets(union: bool, args: &[Value]) -> Outcome {
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
pub(super) fn plain_sets(
    union: bool,
    lists: &[&Vec<Value>],
    candidates: &[&Value],
) -> Option<Vec<Value>> {
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
