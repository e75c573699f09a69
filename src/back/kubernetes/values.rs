//! Small conversions: TOSCA values to the text Kubernetes wants (environment values, resource
//! quantities), and names (environment variable names, port names).

use heck::ToShoutySnakeCase;

use crate::ir::Value;

/// The text of a literal value for an environment variable or a Secret: strings as they are,
/// numbers and booleans as written, scalars and versions as written, lists and maps as JSON.
/// `None` for null and for a value that holds a function call.
pub fn literal_text(value: &Value) -> Option<String> {
    if value.has_call() {
        return None;
    }
    Some(match value {
        Value::Null => return None,
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => crate::ir::float_text(*f),
        Value::String(s) | Value::Timestamp(s) | Value::Bytes(s) => s.clone(),
        Value::Scalar(s) => s.text.clone(),
        Value::Version(v) => v.text.clone(),
        Value::List(_) | Value::Map(_) => serde_json::to_string(&plain_json(value)).ok()?,
        Value::Call(_) => return None,
    })
}

/// A value as plain JSON (no kind tags), for lists and maps written into one string.
fn plain_json(value: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match value {
        Value::Null | Value::Call(_) => J::Null,
        Value::Boolean(b) => J::Bool(*b),
        Value::Integer(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f)
            .map_or_else(|| J::String(crate::ir::float_text(*f)), J::Number),
        Value::String(s) | Value::Timestamp(s) | Value::Bytes(s) => J::String(s.clone()),
        Value::Scalar(s) => J::String(s.text.clone()),
        Value::Version(v) => J::String(v.text.clone()),
        Value::List(items) => J::Array(items.iter().map(plain_json).collect()),
        Value::Map(map) => J::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), plain_json(v)))
                .collect(),
        ),
    }
}

/// An integer value (also a float with no fraction, or a string of digits).
pub fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Integer(i) => Some(*i),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => Some(*f as i64),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A size (`4 GB`, `512 MiB`, or the same written as a string) as a Kubernetes quantity in the
/// unit it was written in: `4G`, `512Mi`. `None` when it is not a size. A whole number too
/// large for `f64` to hold exactly is written as the template wrote it (`9007199254740993 B`
/// stays exact), an integer as its bytes.
pub fn size_quantity(value: &Value) -> Option<String> {
    let (written, number, unit) = match value {
        Value::Scalar(scalar) => (
            decimal_prefix(&scalar.text),
            scalar.number,
            scalar.unit.clone(),
        ),
        Value::String(s) => {
            let s = s.trim();
            let split = s
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(s.len());
            let number: f64 = s[..split].trim().parse().ok()?;
            (decimal_prefix(s), number, s[split..].trim().to_string())
        }
        Value::Integer(i) if *i > 0 => return Some(i.to_string()),
        _ => return None,
    };
    if !(number.is_finite() && number > 0.0) {
        return None;
    }
    let whole = !written.is_empty() && written.bytes().all(|b| b.is_ascii_digit());
    let shown = if whole && number >= 1e15 {
        written.trim_start_matches('0').to_string()
    } else {
        number_text(number)
    };
    let suffix = match unit.to_ascii_lowercase().as_str() {
        "b" | "" => "",
        "kb" => "k",
        "kib" => "Ki",
        "mb" => "M",
        "mib" => "Mi",
        "gb" => "G",
        "gib" => "Gi",
        "tb" => "T",
        "tib" => "Ti",
        _ => return None,
    };
    Some(format!("{shown}{suffix}"))
}

/// The number a size starts with when it is written as plain decimal digits (`512`, `1.5`);
/// empty otherwise (`1e3 MB`, `.5 GB`).
fn decimal_prefix(text: &str) -> &str {
    let text = text.trim();
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let number = &text[..end];
    let plain = !number.is_empty()
        && number.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && !number.ends_with('.')
        && number.matches('.').count() <= 1;
    let exponent = text[end..].starts_with(['e', 'E'])
        && text[end + 1..].starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+');
    if plain && !exponent { number } else { "" }
}

/// A CPU count as a quantity: `2`, `0.5`.
pub fn cpu_quantity(value: &Value) -> Option<String> {
    let n = match value {
        Value::Integer(i) if *i > 0 => return Some(i.to_string()),
        Value::Integer(_) => return None,
        Value::Float(f) => *f,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    (n.is_finite() && n > 0.0).then(|| number_text(n))
}

/// A number without a needless fraction: `2`, `1.5`.
fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// An environment variable name for an operation input: kept as written when it is a valid C
/// identifier (scripts read `$db_password`), else with every other character turned into `_`.
pub fn env_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// An environment variable name in SHOUTY_SNAKE_CASE (properties, `<TARGET>_HOST`).
pub fn shouty(name: &str) -> String {
    env_name(&name.to_shouty_snake_case())
}

/// A container port name: an IANA service name (at most 15 lowercase letters, digits and `-`,
/// with at least one letter, no `-` at either end or twice in a row).
pub fn port_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 15 {
            break;
        }
    }
    let mut out = out.trim_matches('-').to_string();
    if !out.chars().any(|c| c.is_ascii_lowercase()) {
        out = format!("p{out}");
        out.truncate(15);
        out = out.trim_matches('-').to_string();
    }
    out
}

/// A key of a ConfigMap or Secret: letters, digits, `-`, `_` and `.`.
pub fn data_key(name: &str) -> String {
    let out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    if out.is_empty() || out == "." || out == ".." {
        format!("k{out}")
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_keep_every_digit_in_text_and_in_json() {
        for i in [9_007_199_254_740_993, i64::MIN, i64::MAX] {
            assert_eq!(literal_text(&Value::Integer(i)), Some(i.to_string()));
            let list = Value::List(vec![Value::Integer(i), Value::string("0755")]);
            assert_eq!(literal_text(&list), Some(format!("[{i},\"0755\"]")));
        }
        // Strings stay the strings they are, whatever another reader would make of them.
        for s in ["yes", "0755", "1e3", "null", "true", "12:30", "~", ""] {
            assert_eq!(literal_text(&Value::string(s)).as_deref(), Some(s));
        }
    }

    #[test]
    fn sizes_keep_their_unit() {
        assert_eq!(size_quantity(&Value::string("2 GB")).as_deref(), Some("2G"));
        assert_eq!(
            size_quantity(&Value::string("512 MiB")).as_deref(),
            Some("512Mi")
        );
        assert_eq!(
            size_quantity(&Value::string("1.5 GiB")).as_deref(),
            Some("1.5Gi")
        );
        assert_eq!(size_quantity(&Value::string("2 parsecs")), None);
        assert_eq!(size_quantity(&Value::string("-2 GB")), None);
        assert_eq!(
            size_quantity(&Value::string(".5 GB")).as_deref(),
            Some("0.5G")
        );
    }

    #[test]
    fn sixty_four_bit_integers_stay_exact() {
        // 2^53 + 1: through f64 it became ...992.
        let big = 9_007_199_254_740_993_i64;
        assert_eq!(
            size_quantity(&Value::Integer(big)).as_deref(),
            Some("9007199254740993")
        );
        assert_eq!(
            size_quantity(&Value::string("9007199254740993 KiB")).as_deref(),
            Some("9007199254740993Ki")
        );
        assert_eq!(
            cpu_quantity(&Value::Integer(big)).as_deref(),
            Some("9007199254740993")
        );
        assert_eq!(size_quantity(&Value::Integer(0)), None);
        assert_eq!(cpu_quantity(&Value::Integer(-1)), None);
    }

    #[test]
    fn names_are_what_kubernetes_accepts() {
        assert_eq!(env_name("db_password"), "db_password");
        assert_eq!(env_name("db-url"), "db_url");
        assert_eq!(env_name("1st"), "_1st");
        assert_eq!(shouty("my-db"), "MY_DB");
        assert_eq!(port_name("database_endpoint"), "database-endpoi");
        assert_eq!(port_name("8080"), "p8080");
        assert_eq!(port_name("http"), "http");
        assert_eq!(data_key("scripts/install app.sh"), "scripts-install-app.sh");
    }
}
