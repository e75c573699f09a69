//! Whether a typed Kubernetes object kept everything its JSON held, without building its JSON.
//!
//! The check of a rendered object serializes the typed object back and compares the two JSON
//! trees ([`super::objects`]). [`survives`] does the comparison while serializing: a
//! [`serde::Serializer`] that walks the original JSON alongside, so no second tree is built for
//! the objects that pass, which is all of them unless a template has a bug.
//!
//! It answers `true` only where the exact comparison finds nothing lost: every key of a JSON map
//! written with an equal value (extra keys are fine, as long as they serialize), lists of the
//! same length with equal items, numbers equal as numbers ([`same_number`]: exactly, so an
//! integer past 2^53 that went through `f64` is a loss), everything else equal. Shapes the
//! Kubernetes types do not use (enum variants with content, byte strings, 128-bit or `f32`
//! numbers, keys that are not strings) answer `false`, and so does any loss: the caller then runs
//! the exact comparison, which finds the path of the loss for the message.

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::{Map, Value as Json};

/// True when serializing `value` gives back everything `original` holds (see the module docs).
pub fn survives<T: Serialize + ?Sized>(original: &Json, value: &T) -> bool {
    value.serialize(Against(original)).is_ok()
}

/// Something lost, or a shape left to the exact comparison. Carries nothing: the exact
/// comparison says what and where.
#[derive(Debug)]
pub struct Lost;

impl fmt::Display for Lost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("lost in the round trip")
    }
}

impl std::error::Error for Lost {}

impl ser::Error for Lost {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Lost
    }
}

fn check(same: bool) -> Result<(), Lost> {
    if same { Ok(()) } else { Err(Lost) }
}

/// A number as serde gives it: an integer of either sign, or a float.
#[derive(Debug, Clone, Copy)]
pub(super) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub(super) fn of(n: &serde_json::Number) -> Num {
        match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => Num::Int(i128::from(i)),
            (None, Some(u), _) => Num::Int(i128::from(u)),
            (None, None, f) => Num::Float(f.unwrap_or(f64::NAN)),
        }
    }
}

/// Whether two numbers are the same number: integers exactly, an integer and a float only when
/// the float is that very integer (a 64-bit integer past 2^53 rounded through `f64` is not).
pub(super) fn same_number(a: Num, b: Num) -> bool {
    let whole = |f: f64| f.fract() == 0.0 && f.abs() < 1.7e38;
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x == y,
        (Num::Float(x), Num::Float(y)) => x == y,
        (Num::Int(i), Num::Float(f)) | (Num::Float(f), Num::Int(i)) => whole(f) && f as i128 == i,
    }
}

/// The number written where the original holds `expected`, compared as [`same_number`] does.
fn number(expected: &Json, value: Num) -> Result<(), Lost> {
    check(matches!(expected, Json::Number(n) if same_number(Num::of(n), value)))
}

/// A value serialized where the original JSON holds `.0`.
struct Against<'a>(&'a Json);

impl<'a> ser::Serializer for Against<'a> {
    type Ok = ();
    type Error = Lost;
    type SerializeSeq = SeqAgainst<'a>;
    type SerializeTuple = SeqAgainst<'a>;
    type SerializeTupleStruct = SeqAgainst<'a>;
    type SerializeTupleVariant = Impossible<(), Lost>;
    type SerializeMap = MapAgainst<'a>;
    type SerializeStruct = MapAgainst<'a>;
    type SerializeStructVariant = Impossible<(), Lost>;

    fn serialize_bool(self, v: bool) -> Result<(), Lost> {
        check(self.0.as_bool() == Some(v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Lost> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Lost> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Lost> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Lost> {
        number(self.0, Num::Int(i128::from(v)))
    }
    fn serialize_u8(self, v: u8) -> Result<(), Lost> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Lost> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Lost> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Lost> {
        number(self.0, Num::Int(i128::from(v)))
    }
    fn serialize_f32(self, _: f32) -> Result<(), Lost> {
        Err(Lost)
    }
    fn serialize_f64(self, v: f64) -> Result<(), Lost> {
        // serde_json writes a number that is not finite as null.
        if v.is_finite() {
            number(self.0, Num::Float(v))
        } else {
            check(self.0.is_null())
        }
    }
    fn serialize_char(self, v: char) -> Result<(), Lost> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Lost> {
        check(self.0.as_str() == Some(v))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Lost> {
        Err(Lost)
    }
    fn serialize_none(self) -> Result<(), Lost> {
        check(self.0.is_null())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Lost> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Lost> {
        check(self.0.is_null())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Lost> {
        check(self.0.is_null())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Lost> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Lost> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Lost> {
        Err(Lost)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<SeqAgainst<'a>, Lost> {
        match self.0 {
            Json::Array(items) => Ok(SeqAgainst { items, next: 0 }),
            _ => Err(Lost),
        }
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqAgainst<'a>, Lost> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqAgainst<'a>, Lost> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Lost> {
        Err(Lost)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapAgainst<'a>, Lost> {
        match self.0 {
            Json::Object(map) => Ok(MapAgainst {
                map,
                written: Vec::with_capacity(map.len()),
                key: None,
            }),
            _ => Err(Lost),
        }
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<MapAgainst<'a>, Lost> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Lost> {
        Err(Lost)
    }
}

/// A list serialized against the original list: item by item, and as long.
struct SeqAgainst<'a> {
    items: &'a [Json],
    next: usize,
}

impl SeqAgainst<'_> {
    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Lost> {
        let expected = self.items.get(self.next).ok_or(Lost)?;
        self.next += 1;
        value.serialize(Against(expected))
    }
    fn done(self) -> Result<(), Lost> {
        check(self.next == self.items.len())
    }
}

impl ser::SerializeSeq for SeqAgainst<'_> {
    type Ok = ();
    type Error = Lost;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Lost> {
        self.item(value)
    }
    fn end(self) -> Result<(), Lost> {
        self.done()
    }
}

impl ser::SerializeTuple for SeqAgainst<'_> {
    type Ok = ();
    type Error = Lost;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Lost> {
        self.item(value)
    }
    fn end(self) -> Result<(), Lost> {
        self.done()
    }
}

impl ser::SerializeTupleStruct for SeqAgainst<'_> {
    type Ok = ();
    type Error = Lost;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Lost> {
        self.item(value)
    }
    fn end(self) -> Result<(), Lost> {
        self.done()
    }
}

/// A map or struct serialized against the original map: every key written is compared with the
/// original's value, and at the end every original key must have been written.
struct MapAgainst<'a> {
    map: &'a Map<String, Json>,
    /// The original's keys written so far, by address (a key written twice counts once).
    written: Vec<*const String>,
    key: Option<String>,
}

impl MapAgainst<'_> {
    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Lost> {
        match self.map.get_key_value(key) {
            Some((original, expected)) => {
                self.written.push(original);
                value.serialize(Against(expected))
            }
            // Not in the original: fine, if it serializes at all (the exact comparison would
            // fail on it otherwise).
            None => serde_json::to_value(value).map(drop).map_err(|_| Lost),
        }
    }
    fn done(mut self) -> Result<(), Lost> {
        self.written.sort_unstable();
        self.written.dedup();
        check(self.written.len() == self.map.len())
    }
}

impl ser::SerializeMap for MapAgainst<'_> {
    type Ok = ();
    type Error = Lost;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Lost> {
        self.key = Some(key.serialize(KeyText)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Lost> {
        let key = self.key.take().ok_or(Lost)?;
        self.entry(&key, value)
    }
    fn end(self) -> Result<(), Lost> {
        self.done()
    }
}

impl ser::SerializeStruct for MapAgainst<'_> {
    type Ok = ();
    type Error = Lost;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Lost> {
        self.entry(key, value)
    }
    fn end(self) -> Result<(), Lost> {
        self.done()
    }
}

/// A map key as text: string keys only, the only ones the Kubernetes types have.
struct KeyText;

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = Lost;
    type SerializeSeq = Impossible<String, Lost>;
    type SerializeTuple = Impossible<String, Lost>;
    type SerializeTupleStruct = Impossible<String, Lost>;
    type SerializeTupleVariant = Impossible<String, Lost>;
    type SerializeMap = Impossible<String, Lost>;
    type SerializeStruct = Impossible<String, Lost>;
    type SerializeStructVariant = Impossible<String, Lost>;

    fn serialize_str(self, v: &str) -> Result<String, Lost> {
        Ok(v.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, Lost> {
        value.serialize(self)
    }
    fn serialize_bool(self, _: bool) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_i8(self, _: i8) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_i16(self, _: i16) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_i32(self, _: i32) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_i64(self, _: i64) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_u8(self, _: u8) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_u16(self, _: u16) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_u32(self, _: u32) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_u64(self, _: u64) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_f32(self, _: f32) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_f64(self, _: f64) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_char(self, _: char) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_none(self) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_unit(self) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Lost> {
        Err(Lost)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Lost> {
        Err(Lost)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Lost> {
        Err(Lost)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Lost> {
        Err(Lost)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Lost> {
        Err(Lost)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Lost> {
        Err(Lost)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Lost> {
        Err(Lost)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Lost> {
        Err(Lost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{ConfigMap, Service};
    use serde_json::json;

    fn typed<T: serde::de::DeserializeOwned>(json: &Json) -> T {
        T::deserialize(json).unwrap()
    }

    #[test]
    fn numbers_are_the_same_only_when_they_are_equal_exactly() {
        let big = 9_007_199_254_740_993_i64;
        assert!(same_number(Num::Int(big.into()), Num::Int(big.into())));
        assert!(!same_number(
            Num::Int(big.into()),
            Num::Int((big - 1).into())
        ));
        // The f64 nearest 2^53 + 1 is 2^53: equal as f64, not the same number.
        assert!(!same_number(Num::Int(big.into()), Num::Float(big as f64)));
        assert!(same_number(Num::Int(4), Num::Float(4.0)));
        assert!(!same_number(Num::Int(4), Num::Float(4.5)));
        assert!(same_number(Num::Float(0.25), Num::Float(0.25)));
        let original = json!({ "n": big });
        assert!(!survives(&original, &json!({ "n": big as f64 })));
        assert!(survives(&original, &json!({ "n": big })));
    }

    #[test]
    fn agrees_with_the_exact_comparison() {
        let cases = [
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": "b"}}),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "dta": {"a": "b"}}),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "labels": null}}),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {}}),
        ];
        for json in &cases {
            let value: ConfigMap = typed(json);
            let exact = super::super::objects::first_difference(
                json,
                &serde_json::to_value(&value).unwrap(),
            )
            .is_none();
            assert_eq!(survives(json, &value), exact, "{json}");
        }
        let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
            "spec": {"ports": [{"port": 80, "targetPort": 8080, "protocol": "TCP"}, {"port": 81, "targetPort": "http"}]}});
        let value: Service = typed(&service);
        assert!(survives(&service, &value));
        let mut shorter = service.clone();
        shorter["spec"]["ports"]
            .as_array_mut()
            .unwrap()
            .push(json!({"port": 82}));
        assert!(!survives(&shorter, &value));
    }
}
