//! Lifecycle scripts as cloud-init parts: where an artifact is copied, how an operation input
//! becomes an `export` line, and sizes written as text.

use crate::back::filters::hcl_str;
use crate::ir::Value;

use super::expr::number;

/// Bytes in a GiB and a MiB.
pub const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
pub const MIB: f64 = 1024.0 * 1024.0;

/// Where an artifact is copied: `artifacts/` and its path in the template when that is a plain
/// relative path, else `artifacts/<node>/<file name>`.
pub fn artifact_path(file: &str, node: &str) -> String {
    let clean: Vec<&str> = file
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let safe = !clean.is_empty()
        && !file.starts_with('/')
        && !file.contains(':')
        && clean.iter().all(|p| {
            *p != ".."
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        });
    if safe {
        format!("artifacts/{}", clean.join("/"))
    } else {
        let base: String = file
            .rsplit('/')
            .next()
            .unwrap_or("script")
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
            .collect();
        let base = if base.is_empty() || base.starts_with('.') {
            format!("script{base}")
        } else {
            base
        };
        format!("artifacts/{node}/{base}")
    }
}

/// The bytes of a TOSCA `scalar-unit.size` written as text (`4 GB`, `512 MiB`); units are
/// case-insensitive as the specification says.
pub fn size_bytes(text: &str) -> Option<f64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let factor = match unit.trim().to_ascii_lowercase().as_str() {
        "b" => 1.0,
        "kb" => 1e3,
        "kib" => 1024.0,
        "mb" => 1e6,
        "mib" => MIB,
        "gb" => 1e9,
        "gib" => GIB,
        "tb" => 1e12,
        "tib" => GIB * 1024.0,
        _ => return None,
    };
    Some(number * factor).filter(|bytes| bytes.is_finite())
}

/// The bytes of a size that is a whole number of its unit, exactly (a 64-bit integer does not
/// go through `f64`): an integer (bytes), a `scalar-unit.size` or a size written as text whose
/// number is written as digits alone. `None` for anything else, which [`size_bytes`] and the
/// scalar's canonical value read approximately.
pub fn exact_bytes(value: &crate::ir::Value) -> Option<u128> {
    use crate::ir::Value;
    let (text, factor) = match value {
        Value::Integer(i) => return u128::try_from(*i).ok(),
        Value::Scalar(s) if s.number != 0.0 => (s.text.as_str(), s.canonical / s.number),
        Value::String(s) => (s.as_str(), size_bytes(&format!("1 {}", unit_of(s)))?),
        _ => return None,
    };
    let digits = text.trim();
    let digits = &digits[..digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len())];
    let rest = text.trim()[digits.len()..].trim_start();
    if digits.is_empty() || rest.starts_with(['.', 'e', 'E']) || factor.fract() != 0.0 {
        return None;
    }
    digits.parse::<u128>().ok()?.checked_mul(factor as u128)
}

/// The unit of a size written as text (`GB` of `4 GB`).
fn unit_of(text: &str) -> &str {
    let text = text.trim();
    text[text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len())..]
        .trim()
}

pub fn is_shell_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `export NAME='value'` as an HCL string: literals quoted for the shell now, expressions
/// interpolated (and quoted for the shell by Terraform's `replace`).
pub fn export_line(name: &str, value: &Value, expr: &str) -> String {
    let literal = match value {
        Value::String(s) => Some(s.clone()),
        Value::Integer(i) => Some(i.to_string()),
        Value::Boolean(b) => Some(b.to_string()),
        Value::Float(f) => Some(number(*f)),
        Value::Scalar(s) => Some(s.text.clone()),
        Value::Version(v) => Some(v.text.clone()),
        _ => None,
    };
    match literal {
        Some(text) => hcl_str(&format!("export {name}='{}'", text.replace('\'', "'\\''"))),
        None => format!("\"export {name}='${{replace({expr}, \"'\", \"'\\\\''\")}}'\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Value;

    #[test]
    fn whole_sizes_are_read_exactly_and_others_not_at_all() {
        let big = 9_007_199_254_740_993_u128;
        assert_eq!(exact_bytes(&Value::Integer(big as i64)), Some(big));
        assert_eq!(
            exact_bytes(&Value::string("9007199254740993 KiB")),
            Some(big * 1024)
        );
        assert_eq!(exact_bytes(&Value::string("2 GB")), Some(2_000_000_000));
        assert_eq!(exact_bytes(&Value::string("1.5 GB")), None);
        assert_eq!(exact_bytes(&Value::Integer(-1)), None);
        assert_eq!(size_bytes(&format!("{} TB", "9".repeat(400))), None);
    }
}
