//! serde's data model into shared Tera values: the [`ser::Serializer`] of a [`Sharer`], with
//! serde_json's conventions (see the [module documentation](super)).

use serde::Serialize;
use serde::ser::{self, Impossible};
use tera::Value;
use tera::value::Key;

use crate::ir::shared::{SHARED_PART, take_serializing};

use super::sharer::*;

/// Why a value has no Tera form.
#[derive(Debug)]
pub(super) struct Unsupported(pub(super) String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

pub(super) type Result<T> = std::result::Result<T, Unsupported>;

impl<'s> ser::Serializer for &'s mut Sharer {
    type Ok = Built;
    type Error = Unsupported;
    type SerializeSeq = SeqBuilder<'s>;
    type SerializeTuple = SeqBuilder<'s>;
    type SerializeTupleStruct = SeqBuilder<'s>;
    type SerializeTupleVariant = VariantSeqBuilder<'s>;
    type SerializeMap = MapBuilder<'s>;
    type SerializeStruct = MapBuilder<'s>;
    type SerializeStructVariant = VariantMapBuilder<'s>;

    fn serialize_bool(self, v: bool) -> Result<Built> {
        Ok(Built {
            value: Value::from(v),
            hash: mix(BOOL, u64::from(v)),
        })
    }
    fn serialize_i8(self, v: i8) -> Result<Built> {
        Ok(signed(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Built> {
        Ok(signed(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Built> {
        Ok(signed(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Built> {
        Ok(signed(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Built> {
        if let Ok(u) = u64::try_from(v) {
            Ok(unsigned(u))
        } else if let Ok(i) = i64::try_from(v) {
            Ok(signed(i))
        } else {
            Err(Unsupported("an integer beyond 64 bits".into()))
        }
    }
    fn serialize_u8(self, v: u8) -> Result<Built> {
        Ok(unsigned(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Built> {
        Ok(unsigned(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Built> {
        Ok(unsigned(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Built> {
        Ok(unsigned(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Built> {
        u64::try_from(v)
            .map(unsigned)
            .map_err(|_| Unsupported("an integer beyond 64 bits".into()))
    }
    fn serialize_f32(self, v: f32) -> Result<Built> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Built> {
        if !v.is_finite() {
            return Ok(Sharer::none());
        }
        Ok(Built {
            value: Value::from(v),
            hash: mix(FLOAT, v.to_bits()),
        })
    }
    fn serialize_char(self, v: char) -> Result<Built> {
        Ok(self.string(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<Built> {
        Ok(self.string(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Built> {
        let mut hash = mix(LIST, v.len() as u64);
        let items = v
            .iter()
            .map(|&b| {
                let item = unsigned(b.into());
                hash = mix(hash, item.hash);
                item.value
            })
            .collect();
        Ok(self.list(items, hash))
    }
    fn serialize_none(self) -> Result<Built> {
        Ok(Sharer::none())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Built> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Built> {
        Ok(Sharer::none())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Built> {
        Ok(Sharer::none())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Built> {
        Ok(self.string(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Built> {
        if name == SHARED_PART
            && let Some(part) = take_serializing()
        {
            return self.shared_part(part, value);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Built> {
        let inner = value.serialize(&mut *self)?;
        Ok(self.tagged(variant, inner))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder<'s>> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.unwrap_or(0)),
            hash: LIST,
            sharer: self,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder<'s>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqBuilder<'s>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSeqBuilder<'s>> {
        Ok(VariantSeqBuilder {
            variant,
            seq: self.serialize_seq(Some(len))?,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder<'s>> {
        Ok(MapBuilder {
            entries: Vec::with_capacity(len.unwrap_or(0)),
            hash: MAP,
            next_key: None,
            sharer: self,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder<'s>> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantMapBuilder<'s>> {
        Ok(VariantMapBuilder {
            variant,
            map: self.serialize_map(Some(len))?,
        })
    }
}

impl Sharer {
    /// `{variant: inner}`, as serde_json writes a non-unit enum variant.
    fn tagged(&mut self, variant: &'static str, inner: Built) -> Built {
        let hash = mix(mix(mix(MAP, hash_str(variant)), inner.hash), 1);
        self.map(vec![(Key::Str(variant), inner.value)], hash)
    }
}

/// A list being built.
pub(super) struct SeqBuilder<'s> {
    sharer: &'s mut Sharer,
    items: Vec<Value>,
    hash: u64,
}

impl<'s> SeqBuilder<'s> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let item = value.serialize(&mut *self.sharer)?;
        self.hash = mix(self.hash, item.hash);
        self.items.push(item.value);
        Ok(())
    }

    fn finish(self) -> Built {
        let hash = mix(self.hash, self.items.len() as u64);
        self.sharer.list(self.items, hash)
    }
}

impl ser::SerializeSeq for SeqBuilder<'_> {
    type Ok = Built;
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Built> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for SeqBuilder<'_> {
    type Ok = Built;
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Built> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleStruct for SeqBuilder<'_> {
    type Ok = Built;
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Built> {
        Ok(self.finish())
    }
}

/// A tuple variant being built: `{variant: [...]}`.
pub(super) struct VariantSeqBuilder<'s> {
    variant: &'static str,
    seq: SeqBuilder<'s>,
}

impl ser::SerializeTupleVariant for VariantSeqBuilder<'_> {
    type Ok = Built;
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.seq.push(value)
    }
    fn end(self) -> Result<Built> {
        let SeqBuilder {
            sharer,
            items,
            hash,
        } = self.seq;
        let inner = sharer.list(items, mix(hash, 0));
        Ok(sharer.tagged(self.variant, inner))
    }
}

/// A map or struct being built.
pub(super) struct MapBuilder<'s> {
    sharer: &'s mut Sharer,
    entries: Vec<(Key<'static>, Value)>,
    hash: u64,
    /// The key given by `serialize_key`, waiting for its value.
    next_key: Option<(Key<'static>, u64)>,
}

impl MapBuilder<'_> {
    fn entry<T: Serialize + ?Sized>(
        &mut self,
        key: Key<'static>,
        hash: u64,
        value: &T,
    ) -> Result<()> {
        let value = value.serialize(&mut *self.sharer)?;
        self.hash = mix(mix(self.hash, hash), value.hash);
        // A repeated key (no serde derive makes one) keeps its first place and takes the last
        // value when the map is built, as in serde_json; such a map is never shared.
        self.entries.push((key, value.value));
        Ok(())
    }
}

impl<'s> MapBuilder<'s> {
    fn finish(self) -> (Built, &'s mut Sharer) {
        let hash = mix(self.hash, self.entries.len() as u64);
        let built = self.sharer.map(self.entries, hash);
        (built, self.sharer)
    }
}

impl ser::SerializeMap for MapBuilder<'_> {
    type Ok = Built;
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        let mut text = std::mem::take(&mut self.sharer.key_text);
        text.clear();
        key.serialize(KeyText(&mut text))?;
        self.next_key = Some(self.sharer.key(&text));
        self.sharer.key_text = text;
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let (key, hash) = self
            .next_key
            .take()
            .ok_or_else(|| Unsupported("a map value without a key".into()))?;
        self.entry(key, hash, value)
    }
    fn end(self) -> Result<Built> {
        Ok(self.finish().0)
    }
}

impl ser::SerializeStruct for MapBuilder<'_> {
    type Ok = Built;
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.entry(Key::Str(key), hash_str(key), value)
    }
    fn end(self) -> Result<Built> {
        Ok(self.finish().0)
    }
}

/// A struct variant being built: `{variant: {...}}`.
pub(super) struct VariantMapBuilder<'s> {
    variant: &'static str,
    map: MapBuilder<'s>,
}

impl ser::SerializeStructVariant for VariantMapBuilder<'_> {
    type Ok = Built;
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.map.entry(Key::Str(key), hash_str(key), value)
    }
    fn end(self) -> Result<Built> {
        let (inner, sharer) = self.map.finish();
        Ok(sharer.tagged(self.variant, inner))
    }
}

/// A map key as serde_json accepts it: a string, or a number, boolean or character written as
/// text, written into the buffer it holds.
pub(super) struct KeyText<'b>(&'b mut String);

impl KeyText<'_> {
    fn put(self, text: impl std::fmt::Display) -> Result<()> {
        use std::fmt::Write;
        write!(self.0, "{text}").map_err(|_| not_a_key())
    }
}

impl ser::Serializer for KeyText<'_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Impossible<(), Unsupported>;
    type SerializeTuple = Impossible<(), Unsupported>;
    type SerializeTupleStruct = Impossible<(), Unsupported>;
    type SerializeTupleVariant = Impossible<(), Unsupported>;
    type SerializeMap = Impossible<(), Unsupported>;
    type SerializeStruct = Impossible<(), Unsupported>;
    type SerializeStructVariant = Impossible<(), Unsupported>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.put(v)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.put(v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.put(v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.put(v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.put(v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.put(v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.put(v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.put(v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.put(v)
    }
    fn serialize_f32(self, _v: f32) -> Result<()> {
        Err(not_a_key())
    }
    fn serialize_f64(self, _v: f64) -> Result<()> {
        Err(not_a_key())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.put(v)
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.0.push_str(v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(not_a_key())
    }
    fn serialize_none(self) -> Result<()> {
        Err(not_a_key())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<()> {
        Err(not_a_key())
    }
    fn serialize_unit(self) -> Result<()> {
        Err(not_a_key())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Err(not_a_key())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.put(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(not_a_key())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(not_a_key())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(not_a_key())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(not_a_key())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(not_a_key())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(not_a_key())
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(not_a_key())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(not_a_key())
    }
}

fn not_a_key() -> Unsupported {
    Unsupported("a map key that is not a string or a number".into())
}
