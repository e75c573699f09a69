//! YAML 1.2 core schema resolution of plain scalars.
//!
//! Hand-written matchers for the regular expressions of the YAML 1.2.2 core schema (§10.3.2):
//!
//! | type  | accepted text |
//! |-------|---------------|
//! | null  | `~`, `null`, `Null`, `NULL`, empty |
//! | bool  | `true`, `True`, `TRUE`, `false`, `False`, `FALSE` (not `yes`, `on`, `y` …) |
//! | int   | `[-+]?[0-9]+` (decimal, so `017` is 17), `0o[0-7]+`, `0x[0-9a-fA-F]+` |
//! | float | `[-+]?(\.[0-9]+\|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?(\.inf\|\.Inf\|\.INF)`, `\.nan\|\.NaN\|\.NAN` |
//!
//! Everything else, timestamps included, is a string.
use super::Core;

/// What the core schema makes of a plain scalar's text, and whether the text has the form of an
/// integer that does not fit an `i64` (it then stays a string and the loader warns).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Resolved {
    pub core: Core,
    pub int_out_of_range: bool,
}

/// What the core schema makes of a plain scalar.
///
/// Integers that do not fit an `i64` stay strings ([`Core::Str`]); the loader warns about them.
pub fn resolve_plain(text: &str) -> Core {
    resolve(text).core
}

/// [`resolve_plain`], also telling whether an integer was out of range.
pub(crate) fn resolve(text: &str) -> Resolved {
    let core = |core| Resolved {
        core,
        int_out_of_range: false,
    };
    let bytes = text.as_bytes();
    let Some(&first) = bytes.first() else {
        return core(Core::Null);
    };
    // Only these first characters can start a non-string; everything else is settled at once.
    if !(first.is_ascii_digit()
        || matches!(
            first,
            b'-' | b'+' | b'.' | b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F'
        ))
    {
        return core(Core::Str);
    }
    match text {
        "~" | "null" | "Null" | "NULL" => return core(Core::Null),
        "true" | "True" | "TRUE" => return core(Core::Bool(true)),
        "false" | "False" | "FALSE" => return core(Core::Bool(false)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return core(Core::Float(f64::INFINITY));
        }
        "-.inf" | "-.Inf" | "-.INF" => return core(Core::Float(f64::NEG_INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return core(Core::Float(f64::NAN)),
        _ => {}
    }
    if let Some(digits) = text.strip_prefix("0o") {
        return radix_int(digits, 8, |b| (b'0'..=b'7').contains(&b));
    }
    if let Some(digits) = text.strip_prefix("0x") {
        return radix_int(digits, 16, |b| b.is_ascii_hexdigit());
    }
    match number_shape(bytes) {
        Shape::Int => match text.parse::<i64>() {
            Ok(n) => core(Core::Int(n)),
            Err(_) => Resolved {
                core: Core::Str,
                int_out_of_range: true,
            },
        },
        Shape::Float => match text.parse::<f64>() {
            Ok(f) => core(Core::Float(f)),
            // Not reachable for text of this shape, but never panic on input.
            Err(_) => core(Core::Str),
        },
        Shape::Other => core(Core::Str),
    }
}

fn radix_int(digits: &str, radix: u32, valid: impl Fn(u8) -> bool) -> Resolved {
    if digits.is_empty() || !digits.bytes().all(valid) {
        return Resolved {
            core: Core::Str,
            int_out_of_range: false,
        };
    }
    match i64::from_str_radix(digits, radix) {
        Ok(n) => Resolved {
            core: Core::Int(n),
            int_out_of_range: false,
        },
        Err(_) => Resolved {
            core: Core::Str,
            int_out_of_range: true,
        },
    }
}

enum Shape {
    Int,
    Float,
    Other,
}

/// Matches `[-+]?[0-9]+` (int) or `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` (float).
fn number_shape(bytes: &[u8]) -> Shape {
    let mut i = 0;
    if matches!(bytes.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    let int_start = i;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i - int_start;
    if i == bytes.len() {
        return if int_digits > 0 {
            Shape::Int
        } else {
            Shape::Other
        };
    }
    let mut frac_digits = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        frac_digits = i - frac_start;
    }
    // `.5` needs fraction digits; `5.` is fine.
    if int_digits == 0 && frac_digits == 0 {
        return Shape::Other;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return Shape::Other;
        }
    }
    if i == bytes.len() {
        Shape::Float
    } else {
        Shape::Other
    }
}

/// The boolean a YAML 1.1 word spells (`yes`, `y`, `on`, `no`, `n`, `off`, in any case), which
/// the YAML 1.2 core schema reads as a string. The Simple Profile's own files write `required:
/// no`, so its readers take these words as booleans (with a warning where a value is typed).
pub fn yaml11_bool_word(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "yes" | "y" | "on" => Some(true),
        "no" | "n" | "off" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nulls() {
        for t in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(resolve_plain(t), Core::Null, "{t:?}");
        }
        for t in ["nULL", "nil", "None", "~~"] {
            assert_eq!(resolve_plain(t), Core::Str, "{t:?}");
        }
    }

    #[test]
    fn booleans_are_only_true_and_false() {
        for t in ["true", "True", "TRUE"] {
            assert_eq!(resolve_plain(t), Core::Bool(true));
        }
        for t in ["false", "False", "FALSE"] {
            assert_eq!(resolve_plain(t), Core::Bool(false));
        }
        for t in [
            "yes", "no", "on", "off", "y", "n", "Yes", "NO", "tRUE", "On", "Y", "N",
        ] {
            assert_eq!(resolve_plain(t), Core::Str, "{t:?} must stay a string");
        }
    }

    #[test]
    fn integers_decimal_octal_hex() {
        assert_eq!(resolve_plain("0"), Core::Int(0));
        assert_eq!(resolve_plain("017"), Core::Int(17));
        assert_eq!(resolve_plain("-42"), Core::Int(-42));
        assert_eq!(resolve_plain("+7"), Core::Int(7));
        assert_eq!(resolve_plain("0o17"), Core::Int(15));
        assert_eq!(resolve_plain("0x1F"), Core::Int(31));
        assert_eq!(resolve_plain("0xff"), Core::Int(255));
        assert_eq!(resolve_plain("9223372036854775807"), Core::Int(i64::MAX));
        assert_eq!(resolve_plain("-9223372036854775808"), Core::Int(i64::MIN));
        for t in [
            "0o", "0o8", "0x", "0xg", "-0x1", "0b101", "1_000", "1,000", "12a", "+", "-", "0O17",
        ] {
            assert_eq!(resolve_plain(t), Core::Str, "{t:?}");
        }
    }

    #[test]
    fn integers_out_of_range_stay_strings_and_are_flagged() {
        let r = resolve("9223372036854775808");
        assert_eq!(r.core, Core::Str);
        assert!(r.int_out_of_range);
        let r = resolve("0xFFFFFFFFFFFFFFFFFF");
        assert_eq!(r.core, Core::Str);
        assert!(r.int_out_of_range);
        assert!(!resolve("12").int_out_of_range);
        assert!(!resolve("abc").int_out_of_range);
    }

    #[test]
    fn floats() {
        assert_eq!(resolve_plain("1.10"), Core::Float(1.1));
        assert_eq!(resolve_plain("1."), Core::Float(1.0));
        assert_eq!(resolve_plain(".5"), Core::Float(0.5));
        assert_eq!(resolve_plain("-.5"), Core::Float(-0.5));
        assert_eq!(resolve_plain("+1.5e3"), Core::Float(1500.0));
        assert_eq!(resolve_plain("1e3"), Core::Float(1000.0));
        assert_eq!(resolve_plain("2E-2"), Core::Float(0.02));
        assert_eq!(resolve_plain(".inf"), Core::Float(f64::INFINITY));
        assert_eq!(resolve_plain("+.Inf"), Core::Float(f64::INFINITY));
        assert_eq!(resolve_plain("-.INF"), Core::Float(f64::NEG_INFINITY));
        for t in [".nan", ".NaN", ".NAN"] {
            assert!(
                matches!(resolve_plain(t), Core::Float(f) if f.is_nan()),
                "{t}"
            );
        }
        for t in [
            ".",
            "1e",
            "1e+",
            "e5",
            ".e5",
            "1.2.3",
            "-.nan",
            ".infinity",
            "inf",
            "NaN",
            "1.0f",
            "1.5 ",
            " 1.5",
        ] {
            assert_eq!(resolve_plain(t), Core::Str, "{t:?}");
        }
    }

    #[test]
    fn everything_else_is_a_string() {
        for t in [
            "2024-04-14",
            "1.0.0",
            "10 GB",
            "tosca_simple_yaml_1_3",
            "0.5 s",
            "12:30",
            "-",
            "~foo",
        ] {
            assert_eq!(resolve_plain(t), Core::Str, "{t:?}");
        }
    }
}
