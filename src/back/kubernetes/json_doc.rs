//! A rendered document written as JSON, read as JSON.
//!
//! The built-in Kubernetes templates write every object as a JSON document (and the Kubernetes
//! profiles' objects are written as JSON by [`super::profile`]). JSON is YAML 1.2, so the
//! YAML reader would read them too, but reading the rendered text back was most of a
//! `toscana k8s` run: granit-parser takes about 200 instructions a byte, `serde_json` a small
//! fraction of that (docs/performance.md). A document whose first character that is not
//! white space is `{` is therefore tried here first; a `--backend-dir` template that writes
//! YAML is read as before.
//!
//! Where this reader answers, the answer is the one the YAML path ([`crate::yaml::plain_json`],
//! then the loader) gives for the same text, or else it does not answer and leaves the text to
//! that path, which reports what it finds with spans:
//! - a key written twice: YAML refuses it, `serde_json` would keep the last;
//! - an integer past the 64-bit signed range: the loader reads it as a string (with a
//!   warning), `serde_json` as a `u64` or a float; an integral float of 2^63 or more may be
//!   such an integer, and negative zero may be the integer `-0`, so neither is taken;
//! - a string longer, or a nesting deeper, than the loader's [`Limits`] allow.
//!
//! Anything that is not JSON (a YAML flow mapping such as `{a: 1}`, a syntax error, text after
//! the document) is not answered either.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};

use crate::limits::Limits;

/// The JSON object `text` holds, or `None` when it is not one this reader takes (see the
/// module docs): the caller then reads it as YAML.
pub fn read(text: &str, limits: &Limits) -> Option<Json> {
    let text = text.trim_start();
    if !text.starts_with('{') {
        return None;
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = Strict { limits, depth: 0 }.deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    value.is_object().then_some(value)
}

/// Reads one JSON value, refusing what the YAML path would read otherwise (module docs).
#[derive(Clone, Copy)]
struct Strict<'l> {
    limits: &'l Limits,
    /// How many collections enclose the value.
    depth: usize,
}

impl Strict<'_> {
    /// The seed for the values inside a collection read by this one, or an error when the
    /// collection is nested past the loader's depth limit (as `plain_json` counts it: the
    /// collections that enclose it).
    fn inner<E: de::Error>(self) -> Result<Self, E> {
        if self.depth >= self.limits.max_yaml_depth {
            return Err(E::custom("nested deeper than the loader reads"));
        }
        Ok(Strict {
            depth: self.depth + 1,
            ..self
        })
    }
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Json;

    fn deserialize<D: de::Deserializer<'de>>(self, reader: D) -> Result<Json, D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Json, E> {
        Ok(Json::from(i))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Json, E> {
        i64::try_from(u)
            .map(Json::from)
            .map_err(|_| E::custom("an integer past the 64-bit signed range"))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Json, E> {
        // 2^63: at or past it, an integral float may have been written as an integer.
        const PAST_I64: f64 = 9_223_372_036_854_775_808.0;
        if f.fract() == 0.0 && (f.abs() >= PAST_I64 || (f == 0.0 && f.is_sign_negative())) {
            return Err(E::custom("a number the YAML reader may read otherwise"));
        }
        serde_json::Number::from_f64(f)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
        self.visit_string(s.to_owned())
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Json, E> {
        if s.len() > self.limits.max_scalar_bytes {
            return Err(E::custom("a string longer than the loader reads"));
        }
        Ok(Json::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Json, A::Error> {
        let inner = self.inner()?;
        let mut out = Vec::with_capacity(items.size_hint().unwrap_or(0));
        while let Some(item) = items.next_element_seed(inner)? {
            out.push(item);
        }
        Ok(Json::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Json, A::Error> {
        let inner = self.inner()?;
        let mut out = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            if key.len() > self.limits.max_scalar_bytes {
                return Err(de::Error::custom("a key longer than the loader reads"));
            }
            let value = entries.next_value_seed(inner)?;
            match out.entry(key) {
                serde_json::map::Entry::Vacant(slot) => {
                    slot.insert(value);
                }
                serde_json::map::Entry::Occupied(_) => {
                    return Err(de::Error::custom("a key written twice"));
                }
            }
        }
        Ok(Json::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the YAML path reads from the same text (the fast path, which answers for these).
    fn as_yaml(text: &str) -> Option<Json> {
        crate::yaml::plain_json(text, &Limits::default())
    }

    #[test]
    fn json_documents_read_as_the_yaml_path_reads_them() {
        for text in [
            r#"{"a": 1, "b": -2, "c": 1.5, "d": 1e3, "e": true, "f": null, "g": "x\ny"}"#,
            "\n{\"list\": [1, [\"a\", {\"b\": \"c\"}], {}, []], \"\": \"empty key\"}\n",
            r#"{"on": "yes", "n": "80", "esc": "\u00e9\t\"\\", "min": -9223372036854775808}"#,
            r#"{"labels": null, "deep": {"x": {"y": {"z": [0.25, -1.5e-3]}}}}"#,
        ] {
            let fast = read(text, &Limits::default());
            assert!(fast.is_some(), "{text}");
            assert_eq!(fast, as_yaml(text), "{text}");
        }
    }

    #[test]
    fn what_the_yaml_path_reads_otherwise_is_left_to_it() {
        for text in [
            // YAML refuses the key written twice; serde_json would keep the second.
            r#"{"a": 1, "a": 2}"#,
            // Past i64 the loader reads a string; serde_json a u64 or a float.
            r#"{"big": 9223372036854775808}"#,
            r#"{"big": 99999999999999999999}"#,
            r#"{"zero": -0}"#,
            // Not JSON, but YAML: a flow mapping with plain scalars, a list, a block map.
            "{a: 1}",
            "[1, 2]",
            "a: 1\n",
            // Text after the document.
            "{\"a\": 1}\n{\"b\": 2}",
            r#"{"a": 1,}"#,
        ] {
            assert_eq!(read(text, &Limits::default()), None, "{text}");
        }
    }

    #[test]
    fn the_loaders_limits_hold() {
        let limits = Limits {
            max_yaml_depth: 3,
            max_scalar_bytes: 4,
            ..Limits::default()
        };
        assert!(read(r#"{"a": {"b": ["four"]}}"#, &limits).is_some());
        assert_eq!(read(r#"{"a": {"b": {"c": [1]}}}"#, &limits), None);
        assert_eq!(read(r#"{"a": "fives"}"#, &limits), None);
        assert_eq!(read(r#"{"fives": 1}"#, &limits), None);
    }
}
