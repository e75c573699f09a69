//! §10.2.3 String, List, and Map Functions: `$length`'s byte count of base64 data, `$concat`,
//! `$join` and `$token`.

use super::{Outcome, describe, known, wrong};
use crate::ir::Value;

/// The number of bytes Base64 text stands for.
pub fn base64_len(text: &str) -> usize {
    let chars: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let padding = chars.iter().rev().take_while(|b| **b == b'=').count();
    (chars.len() / 4) * 3 - padding.min(2)
}

pub(super) fn concat(args: &[Value]) -> Outcome {
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

pub(super) fn join(args: &[Value]) -> Outcome {
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

pub(super) fn token(args: &[Value]) -> Outcome {
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
