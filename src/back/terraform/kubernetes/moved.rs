//! Which numbers, booleans and sizes of the Kubernetes objects came from which input, so that
//! `toscana tf --provider kubernetes` writes `var.<name>` there too (issue 27, scope 1): a
//! port that an operation input passes on (`HTTP_PORT`), a replica count, a claim's size.
//!
//! A marker (the way [`super::provenance`] traces strings) cannot stand for a number: the
//! model computes with numbers and parses sizes. So the input is read a third time with each
//! number, boolean and size input *moved* to another value of its type (a number by a
//! distinct offset, a boolean flipped, a size by a distinct offset in its own unit), and the
//! model builds the objects again. A leaf that is the input's value as the model writes it in
//! the first build, and the moved value written the same way in the third, came from that
//! input unchanged: it is written as the variable, converted to what the field takes:
//!
//! - a number or a boolean field: `var.<name>`;
//! - a string that is the number or boolean: `tostring(var.<name>)`; a string that holds the
//!   number between characters other than digits (`http://web:80/`): a string template,
//!   `"http://web:${var.<name>}/"`;
//! - a Kubernetes quantity that is the size (`20 GB` → `20G`): the same conversion in HCL
//!   ([`quantity`]), from the variable, which keeps TOSCA's `20 GB` form.
//!
//! A leaf that matches more than one input (two booleans of the same value) or that the model
//! derived from the value (a memory limit from a size, a port plus one) differs in the third
//! build from the moved value, so it stays the value it had at translation, and the
//! variable's `terraform::unused-variable` warning says so when nothing else uses it.
//!
//! Why the input is read again rather than the model carrying provenance: the Kubernetes
//! model is driven by data (`mapping.yaml` rules, image tables) as much as by code, and a
//! value passes through lookups, defaults and conversions that no Rust type sees; comparing
//! what the same model builds from two bindings needs no change to it and cannot credit an
//! input with a value the model computed.

use std::collections::HashMap;

use serde_json::Value as Json;

use crate::back::filters::hcl_str;
use crate::back::kubernetes::values::size_quantity;
use crate::ir::{ScalarUnit, Topology, Value};

/// The moved inputs of a topology.
pub struct Moves {
    entries: Vec<Move>,
}

struct Move {
    /// The input's name, for the binding.
    input: String,
    /// `var.<name>`.
    variable: String,
    value: Value,
    moved: Value,
}

impl Moves {
    /// A move for every input whose value (given, else default) is a number, a boolean or a
    /// size; `vars` names each input's variable. The offsets are distinct, so that two inputs
    /// of the same value move apart.
    pub fn new(topology: &Topology, vars: &HashMap<String, String>) -> Moves {
        let mut entries = Vec::new();
        for input in &topology.inputs {
            let Some(variable) = vars.get(&input.name) else {
                continue;
            };
            let Some(value) = input.value.as_ref().or(input.default.as_ref()) else {
                continue;
            };
            let offset = entries.len() as i64 + 1;
            let Some(moved) = moved(value, offset) else {
                continue;
            };
            entries.push(Move {
                input: input.name.clone(),
                variable: format!("var.{variable}"),
                value: value.clone(),
                moved,
            });
        }
        Moves { entries }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `NAME=VALUE` pairs for the third read: every input at its moved value.
    pub fn bindings(&self) -> Vec<(String, Value)> {
        self.entries
            .iter()
            .map(|e| (e.input.clone(), e.moved.clone()))
            .collect()
    }

    /// The HCL expression of a leaf of the first build (`a`) whose third build is `moved`,
    /// when it came from exactly one moved input.
    pub fn leaf(&self, a: &Json, moved: Option<&Json>) -> Option<String> {
        let moved = moved?;
        if a == moved {
            return None;
        }
        match (a, moved) {
            (Json::String(a), Json::String(m)) => self.string(a, m),
            (Json::Number(_) | Json::Bool(_), Json::Number(_) | Json::Bool(_)) => {
                let e = self.only(|e| same(a, &e.value) && same(moved, &e.moved))?;
                Some(e.variable.clone())
            }
            _ => None,
        }
    }

    /// A string leaf: the whole value (a number, a boolean, a size's quantity), or a number
    /// inside it.
    fn string(&self, a: &str, m: &str) -> Option<String> {
        if let Some(e) = self
            .only(|e| text(&e.value).as_deref() == Some(a) && text(&e.moved).as_deref() == Some(m))
        {
            return Some(format!("tostring({})", e.variable));
        }
        if let Some(e) = self.only(|e| {
            matches!(e.value, Value::Scalar(_))
                && size_quantity(&e.value).as_deref() == Some(a)
                && size_quantity(&e.moved).as_deref() == Some(m)
        }) {
            return Some(quantity(&e.variable));
        }
        let (before, a_mid, m_mid, after) = difference(a, m)?;
        let e = self.only(|e| {
            matches!(e.value, Value::Integer(_) | Value::Float(_))
                && text(&e.value).as_deref() == Some(a_mid)
                && text(&e.moved).as_deref() == Some(m_mid)
        })?;
        let inner = |s: &str| {
            let quoted = hcl_str(s);
            quoted[1..quoted.len() - 1].to_string()
        };
        Some(format!(
            "\"{}${{{}}}{}\"",
            inner(before),
            e.variable,
            inner(after)
        ))
    }

    /// The one entry `matches` takes, none when it takes none or several.
    fn only(&self, matches: impl Fn(&Move) -> bool) -> Option<&Move> {
        let mut found = self.entries.iter().filter(|e| matches(e));
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }
}

/// The value moved by `offset`: a number plus it (minus it where the sum would overflow), a
/// boolean flipped, a size plus it in its own unit. `None` for other values.
fn moved(value: &Value, offset: i64) -> Option<Value> {
    match value {
        Value::Integer(i) => Some(Value::Integer(i.checked_add(offset).unwrap_or(i - offset))),
        Value::Float(f) if f.is_finite() => Some(Value::Float(f + offset as f64)),
        Value::Boolean(b) => Some(Value::Boolean(!b)),
        Value::Scalar(s) if s.canonical_unit == "B" => {
            moved_size(s, offset).map(|s| Value::Scalar(Box::new(s)))
        }
        _ => None,
    }
}

/// The size `offset` more of its own unit (`20 GB` → `21 GB`); `None` for a size of zero,
/// whose unit's factor is unknown.
fn moved_size(size: &ScalarUnit, offset: i64) -> Option<ScalarUnit> {
    if size.number == 0.0 || !size.number.is_finite() {
        return None;
    }
    let factor = size.canonical / size.number;
    let number = size.number + offset as f64;
    let shown = if number.fract() == 0.0 && number.abs() < 1e15 {
        format!("{}", number as i64)
    } else {
        format!("{number}")
    };
    Some(ScalarUnit {
        text: format!("{shown} {}", size.unit),
        number,
        unit: size.unit.clone(),
        canonical: number * factor,
        canonical_unit: size.canonical_unit.clone(),
    })
}

/// Whether a JSON leaf is the value.
fn same(leaf: &Json, value: &Value) -> bool {
    match (leaf, value) {
        (Json::Bool(a), Value::Boolean(b)) => a == b,
        (Json::Number(n), Value::Integer(i)) => n.as_i64() == Some(*i),
        (Json::Number(n), Value::Float(f)) => n.as_f64() == Some(*f),
        _ => false,
    }
}

/// A number's or boolean's text as Terraform writes it in a string template.
fn text(value: &Value) -> Option<String> {
    match value {
        Value::Integer(i) => Some(i.to_string()),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => Some(format!("{}", *f as i64)),
        Value::Float(f) => Some(f.to_string()),
        Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `a` and `m` as a shared beginning, their different middles and a shared end, the middles
/// widened to whole numbers (digits and points), so that `80` and `81` differ in `80`, not
/// `0`.
fn difference<'a>(a: &'a str, m: &'a str) -> Option<(&'a str, &'a str, &'a str, &'a str)> {
    let numeric = |c: char| c.is_ascii_digit() || c == '.';
    let mut start = a
        .char_indices()
        .zip(m.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(m.len()), |((i, _), _)| i);
    let mut end = a
        .chars()
        .rev()
        .zip(m.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum::<usize>();
    // The shared end may not reach into the shared beginning.
    end = end.min(a.len() - start).min(m.len() - start);
    while start > 0 && a[..start].ends_with(numeric) {
        start -= 1;
    }
    while end > 0 && a[a.len() - end..].starts_with(numeric) {
        end -= 1;
    }
    let (a_mid, m_mid) = (&a[start..a.len() - end], &m[start..m.len() - end]);
    let whole = |s: &str| !s.is_empty() && s.chars().all(numeric);
    (whole(a_mid) && whole(m_mid)).then(|| (&a[..start], a_mid, m_mid, &a[a.len() - end..]))
}

/// The HCL that turns a TOSCA size (`20 GB`, `512 MiB`: number, then unit) into the Kubernetes
/// quantity `toscana k8s` writes for it (`20G`, `512Mi`), as
/// [`crate::back::kubernetes::values::size_quantity`] does.
fn quantity(variable: &str) -> String {
    format!(
        "format(\"%s%s\", regex(\"^\\\\s*([0-9.]+)\", {variable})[0], {{ b = \"\", kb = \"k\", kib = \"Ki\", mb = \"M\", mib = \"Mi\", gb = \"G\", gib = \"Gi\", tb = \"T\", tib = \"Ti\" }}[lower(regex(\"([A-Za-z]*)\\\\s*$\", {variable})[0])])"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn moves() -> Moves {
        let size = Value::Scalar(Box::new(ScalarUnit {
            text: "20 GB".into(),
            number: 20.0,
            unit: "GB".into(),
            canonical: 20e9,
            canonical_unit: "B".into(),
        }));
        let entry = |name: &str, value: Value, offset| Move {
            input: name.into(),
            variable: format!("var.{name}"),
            moved: moved(&value, offset).unwrap(),
            value,
        };
        Moves {
            entries: vec![
                entry("http_port", Value::Integer(80), 1),
                entry("replicas", Value::Integer(1), 2),
                entry("debug", Value::Boolean(true), 3),
                entry("data_size", size, 4),
            ],
        }
    }

    #[test]
    fn a_number_passed_on_is_its_variable_whatever_the_field_takes() {
        let m = moves();
        assert_eq!(
            m.leaf(&json!(1), Some(&json!(3))).as_deref(),
            Some("var.replicas")
        );
        assert_eq!(
            m.leaf(&json!("80"), Some(&json!("81"))).as_deref(),
            Some("tostring(var.http_port)")
        );
        assert_eq!(
            m.leaf(
                &json!("http://web:80/${x}"),
                Some(&json!("http://web:81/${x}"))
            )
            .as_deref(),
            Some("\"http://web:${var.http_port}/$${x}\"")
        );
        assert_eq!(
            m.leaf(&json!(true), Some(&json!(false))).as_deref(),
            Some("var.debug")
        );
    }

    #[test]
    fn a_size_passed_on_is_converted_to_a_quantity() {
        let m = moves();
        let expr = m.leaf(&json!("20G"), Some(&json!("24G"))).unwrap();
        assert!(
            expr.starts_with("format(\"%s%s\", regex(") && expr.contains("var.data_size"),
            "{expr}"
        );
    }

    #[test]
    fn a_value_the_model_derived_stays_the_value() {
        let m = moves();
        // A port plus one moves with the input, but is not the input's value.
        assert_eq!(m.leaf(&json!(81), Some(&json!(82))), None);
        // Unmoved: not from an input.
        assert_eq!(m.leaf(&json!(80), Some(&json!(80))), None);
        assert_eq!(m.leaf(&json!("180"), Some(&json!("181"))), None);
    }

    #[test]
    fn middles_are_whole_numbers() {
        assert_eq!(difference("a80b", "a81b"), Some(("a", "80", "81", "b")));
        assert_eq!(difference("80", "100"), Some(("", "80", "100", "")));
        assert_eq!(difference("ab", "ac"), None);
    }
}
