//! How the IR writes a float: JSON has numbers for the finite ones only, so an infinity or NaN
//! (YAML's `.inf`, `-.inf`, `.nan`, which TOSCA's `float` takes: A.2.2 TOSCA `float` and
//! §9.1.1.3 float name the YAML 1.2 type) is written as that YAML spelling, still with the
//! kind `float`: `{"kind": "float", "value": ".inf"}`. A reader tells the two apart by the JSON
//! type of `value`.

use schemars::JsonSchema;
use serde::Serializer;

/// The YAML 1.2 spelling of a float: its shortest decimal text when finite, else `.inf`,
/// `-.inf` or `.nan`.
pub fn float_text(f: f64) -> String {
    match non_finite(f) {
        Some(text) => text.to_string(),
        None => f.to_string(),
    }
}

/// The YAML spelling of a float JSON has no number for.
fn non_finite(f: f64) -> Option<&'static str> {
    if f.is_nan() {
        Some(".nan")
    } else if f == f64::INFINITY {
        Some(".inf")
    } else if f == f64::NEG_INFINITY {
        Some("-.inf")
    } else {
        None
    }
}

/// Serialises a float's `value`: a number, or the YAML spelling of a non-finite one.
pub fn serialize<S: Serializer>(f: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    match non_finite(*f) {
        Some(text) => serializer.serialize_str(text),
        None => serializer.serialize_f64(*f),
    }
}

/// A float's `value` as the IR writes it: a number, or the YAML spelling of an infinity or NaN.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // only its schema is used
pub enum FloatJson {
    /// A finite float.
    Number(f64),
    /// An infinity or NaN, in its YAML spelling.
    NonFinite(NonFinite),
}

/// The YAML spellings of the floats JSON has no number for.
#[derive(JsonSchema)]
#[allow(dead_code)] // only its schema is used
pub enum NonFinite {
    #[serde(rename = ".inf")]
    Infinity,
    #[serde(rename = "-.inf")]
    NegativeInfinity,
    #[serde(rename = ".nan")]
    NotANumber,
}

#[cfg(test)]
mod tests {
    use super::float_text;
    use crate::ir::Value;

    #[test]
    fn non_finite_floats_keep_the_kind_float_and_their_yaml_spelling() {
        for (f, text) in [
            (f64::INFINITY, ".inf"),
            (f64::NEG_INFINITY, "-.inf"),
            (f64::NAN, ".nan"),
        ] {
            assert_eq!(float_text(f), text);
            let json = serde_json::to_string(&Value::Float(f)).unwrap();
            assert_eq!(json, format!(r#"{{"kind":"float","value":"{text}"}}"#));
        }
        let json = serde_json::to_string(&Value::Float(1.5)).unwrap();
        assert_eq!(json, r#"{"kind":"float","value":1.5}"#);
    }
}
