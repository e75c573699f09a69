//! §10.2.2.3 Boolean List, Map and String Functions: `$has_suffix`, `$has_prefix`, `$contains`,
//! and the `$has_…entry`/`$has_…key` families.

use super::{Outcome, describe, known, same, wrong};
use crate::ir::Value;

pub(super) fn affix(name: &str, args: &[Value]) -> Outcome {
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

pub(super) fn entries(name: &str, args: &[Value]) -> Outcome {
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
pub(super) fn key_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Integer(i) => Some(i.to_string()),
        Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

pub(super) fn keys(name: &str, args: &[Value]) -> Outcome {
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
