//! Rust values as Tera values, each distinct part built once and shared.
//!
//! Every backend gives its templates the whole topology (and its own context) as Tera values.
//! The IR repeats itself a great deal: every node of a type carries the same ancestry list,
//! the same capability definitions with the same default properties, the same interfaces;
//! every relationship of a type the same `types`. At 10,000 node templates the IR holds about
//! 540,000 maps of which 110,000 are distinct, 120,000 lists of which 12,000 are distinct, and
//! 200,000 strings longer than Tera keeps inline, of which 20 are distinct. Tera values are
//! reference counted, so [`to_tera`] builds each distinct map, list and long string once and
//! hands out clones of it: the Tera copy of a topology is several times smaller than a plain
//! conversion (`tera::Value::from_serializable`), and it is made without the serde_json document
//! in between that the plain route through `toscana ir`'s JSON needed.
//!
//! What templates see is exactly what that JSON route gave them: serde_json's data model
//! (non-finite floats become `none`, because JSON has no NaN; non-negative integers are
//! unsigned; enums are tagged the way serde's derive says; map keys are strings), in the same
//! order. Sharing is invisible to templates, since values are immutable.
//!
//! How parts are recognised: every value is built bottom-up with a 64-bit hash of its content.
//! A list or map whose hash was seen before is compared with the earlier one entry by entry,
//! children by identity (they were shared already, so equal children are the same allocation)
//! and scalars by value; only an exact match is shared. A hash collision therefore costs a
//! missed share, never a wrong one. The tables live for one conversion.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use serde::Serialize;
use serde::ser::{self, Impossible};
use tera::Value;
use tera::value::Key;

use crate::ir::shared::{SHARED_PART, Serializing, take_serializing};

/// `value` as a Tera value, distinct parts shared (see the module docs); `none` if `value`
/// cannot be expressed in serde_json's data model (a map with keys that are not strings or
/// numbers, an integer beyond 64 bits).
pub fn to_tera<T: Serialize + ?Sized>(value: &T) -> Value {
    let mut sharer = Sharer::default();
    value
        .serialize(&mut sharer)
        .map_or_else(|_| Value::none(), |built| built.value)
}

/// A serde_json document as a Tera value, distinct parts shared: what [`to_tera`] makes of
/// it, without going through serde (backends build their own contexts as JSON).
pub fn json_to_tera(value: &serde_json::Value) -> Value {
    Sharer::default().json(value).value
}

/// Builds a Tera value piece by piece, with the sharing of [`to_tera`]: for the contexts a
/// backend's Rust computes. Built as serde_json first and converted, every part of such a
/// context was allocated twice and every map's keys hashed twice (serde_json's map and Tera's
/// both hash with SipHash); half of `tosca2dot`'s own work was that.
///
/// Each method gives a [`Part`]: the value with the hash of its content, so that lists and maps
/// made of equal parts are shared as [`to_tera`] shares them.
#[derive(Default)]
pub struct Builder {
    sharer: Sharer,
}

/// A value made by a [`Builder`].
pub struct Part(Built);

impl Part {
    /// The Tera value.
    pub fn into_value(self) -> Value {
        self.0.value
    }
}

impl Builder {
    /// `none`, as JSON's `null`.
    pub fn none(&self) -> Part {
        Part(Sharer::none())
    }

    pub fn bool(&self, b: bool) -> Part {
        Part(Built {
            value: Value::from(b),
            hash: mix(BOOL, u64::from(b)),
        })
    }

    /// A non-negative integer (unsigned, as serde_json stores it).
    pub fn unsigned(&self, n: u64) -> Part {
        Part(unsigned(n))
    }

    pub fn str(&mut self, text: &str) -> Part {
        Part(self.sharer.string(text))
    }

    /// The text, or `none`.
    pub fn opt_str(&mut self, text: Option<&str>) -> Part {
        match text {
            Some(t) => self.str(t),
            None => self.none(),
        }
    }

    /// A list of `items`, in order.
    pub fn list(&mut self, items: impl IntoIterator<Item = Part>) -> Part {
        let mut hash = LIST;
        let items: Vec<Value> = items
            .into_iter()
            .map(|item| {
                hash = mix(hash, item.0.hash);
                item.0.value
            })
            .collect();
        let hash = mix(hash, items.len() as u64);
        Part(self.sharer.list(items, hash))
    }

    /// A map of `entries`, in this order (each key once).
    pub fn map(&mut self, entries: impl IntoIterator<Item = (&'static str, Part)>) -> Part {
        let mut hash = MAP;
        let entries: Vec<(Key<'static>, Value)> = entries
            .into_iter()
            .map(|(key, value)| {
                hash = mix(mix(hash, hash_str(key)), value.0.hash);
                (Key::Str(key), value.0.value)
            })
            .collect();
        let hash = mix(hash, entries.len() as u64);
        Part(self.sharer.map(entries, hash))
    }

    /// A serde_json document, as [`json_to_tera`] makes it.
    pub fn json(&mut self, value: &serde_json::Value) -> Part {
        Part(self.sharer.json(value))
    }

    /// Anything serde serializes, as [`to_tera`] makes it (`none` if it cannot be expressed).
    pub fn serialize<T: Serialize + ?Sized>(&mut self, value: &T) -> Part {
        Part(
            value
                .serialize(&mut self.sharer)
                .unwrap_or_else(|_| Sharer::none()),
        )
    }
}

/// Strings up to this many bytes are stored inside a Tera value; longer ones are reference
/// counted, so sharing them saves an allocation each.
const INLINE_STRING: usize = 21;

/// A value with the hash of its content.
struct Built {
    value: Value,
    hash: u64,
}

/// The tables of one conversion: what was built so far, by content hash (the first one built
/// with each hash; a later one with the same hash and other content is not shared).
#[derive(Default)]
struct Sharer {
    /// Strings longer than [`INLINE_STRING`] bytes.
    strings: HashMap<u64, Value, BuildHasherDefault<Prehashed>>,
    /// Map keys that are not struct field names.
    keys: HashMap<u64, Arc<str>, BuildHasherDefault<Prehashed>>,
    /// Lists and maps.
    composites: HashMap<u64, Value, BuildHasherDefault<Prehashed>>,
    /// The IR's shared parts ([`crate::ir::Shared`]) converted so far, by address: a type's
    /// capabilities and interfaces, which most of its nodes share, are converted once, not once
    /// per node. Each entry keeps its part alive, so no other part can take its address.
    shared_parts: HashMap<usize, (Value, u64, Arc<dyn std::any::Any + Send + Sync>)>,
    /// The text of the map key being read, reused from key to key.
    key_text: String,
}

/// The hasher of [`Sharer::composites`], whose keys are hashes already.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0, u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Folds `word` into `hash` (the multiply-rotate step of rustc's FxHasher).
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// A hash of a string, eight bytes at a time, the same in every run. Not resistant to crafted
/// collisions, which only cost missed shares here.
fn hash_str(text: &str) -> u64 {
    let mut chunks = text.as_bytes().chunks_exact(8);
    let mut hash = mix(0, text.len() as u64);
    for chunk in &mut chunks {
        hash = mix(
            hash,
            u64::from_le_bytes(chunk.try_into().expect("eight bytes")),
        );
    }
    let mut last = [0u8; 8];
    let rest = chunks.remainder();
    last[..rest.len()].copy_from_slice(rest);
    // A final multiply spreads the last bytes over the high bits, which tables index by.
    mix(mix(hash, u64::from_le_bytes(last)), 0).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

// Distinct starting points, so that `1`, `"1"`, `[1]` and `{}` differ.
const NONE: u64 = 1;
const BOOL: u64 = 2;
const UNSIGNED: u64 = 3;
const SIGNED: u64 = 4;
const FLOAT: u64 = 5;
const STRING: u64 = 6;
const LIST: u64 = 7;
const MAP: u64 = 8;

impl Sharer {
    /// A shared part of the IR, as the serializer meets it (`serialize_newtype_struct`):
    /// converted the first time, the same value again every other time.
    fn shared_part<T: Serialize + ?Sized>(
        &mut self,
        part: Serializing,
        value: &T,
    ) -> Result<Built> {
        if let Some((value, hash, _)) = self.shared_parts.get(&part.address) {
            return Ok(Built {
                value: value.clone(),
                hash: *hash,
            });
        }
        let built = value.serialize(&mut *self)?;
        self.shared_parts
            .insert(part.address, (built.value.clone(), built.hash, part.keep));
        Ok(built)
    }

    fn none() -> Built {
        Built {
            value: Value::none(),
            hash: NONE,
        }
    }

    fn string(&mut self, text: &str) -> Built {
        let hash = mix(STRING, hash_str(text));
        if text.len() <= INLINE_STRING {
            return Built {
                value: Value::from(text),
                hash,
            };
        }
        let value = match self.strings.get(&hash) {
            Some(v) if v.as_str() == Some(text) => v.clone(),
            _ => {
                let v = Value::from(text);
                self.strings.entry(hash).or_insert_with(|| v.clone());
                v
            }
        };
        Built { value, hash }
    }

    /// The key of this text, and its hash.
    fn key(&mut self, text: &str) -> (Key<'static>, u64) {
        let hash = hash_str(text);
        let key = match self.keys.get(&hash) {
            Some(k) if **k == *text => k.clone(),
            _ => {
                let k: Arc<str> = Arc::from(text);
                self.keys.entry(hash).or_insert_with(|| k.clone());
                k
            }
        };
        (Key::String(key), hash)
    }

    /// A serde_json document, as serde would give it to [`ser::Serializer`] for `&mut Sharer`.
    fn json(&mut self, value: &serde_json::Value) -> Built {
        use serde_json::Value as Json;
        match value {
            Json::Null => Sharer::none(),
            Json::Bool(b) => Built {
                value: Value::from(*b),
                hash: mix(BOOL, u64::from(*b)),
            },
            Json::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => unsigned(u),
                (None, Some(i), _) => signed(i),
                (None, None, Some(f)) => Built {
                    value: Value::from(f),
                    hash: mix(FLOAT, f.to_bits()),
                },
                (None, None, None) => Sharer::none(),
            },
            Json::String(text) => self.string(text),
            Json::Array(items) => {
                let mut hash = LIST;
                let items = items
                    .iter()
                    .map(|item| {
                        let item = self.json(item);
                        hash = mix(hash, item.hash);
                        item.value
                    })
                    .collect::<Vec<_>>();
                let hash = mix(hash, items.len() as u64);
                self.list(items, hash)
            }
            Json::Object(map) => {
                let mut hash = MAP;
                let mut entries = Vec::with_capacity(map.len());
                for (k, v) in map {
                    let (key, key_hash) = self.key(k);
                    let v = self.json(v);
                    hash = mix(mix(hash, key_hash), v.hash);
                    entries.push((key, v.value));
                }
                let hash = mix(hash, entries.len() as u64);
                self.map(entries, hash)
            }
        }
    }

    /// The list of `items`, shared with an identical earlier one.
    fn list(&mut self, items: Vec<Value>, hash: u64) -> Built {
        if let Some(earlier) = self.composites.get(&hash)
            && earlier
                .as_array()
                .is_some_and(|e| e.len() == items.len() && e.iter().zip(&items).all(identical))
        {
            return Built {
                value: earlier.clone(),
                hash,
            };
        }
        let value = Value::from(items);
        self.composites.entry(hash).or_insert_with(|| value.clone());
        Built { value, hash }
    }

    /// The map of `entries` (in this order), shared with an identical earlier one.
    fn map(&mut self, entries: Vec<(Key<'static>, Value)>, hash: u64) -> Built {
        if let Some(earlier) = self.composites.get(&hash)
            && earlier.as_map().is_some_and(|e| {
                e.len() == entries.len()
                    && e.iter()
                        .zip(&entries)
                        .all(|((k1, v1), (k2, v2))| k1 == k2 && identical((v1, v2)))
            })
        {
            return Built {
                value: earlier.clone(),
                hash,
            };
        }
        // Tera's `Value::from` builds its own map (keys hashed with SipHash) from the one it is
        // given, so building a Tera `Map` first hashed every key twice: a fifth of the SipHash
        // in a backend run. A `BTreeMap` keyed by position keeps the order and hashes nothing;
        // Tera's map is the only one keyed by text, so a repeated key still keeps its first
        // place and takes the last value there.
        let value = Value::from(
            entries
                .into_iter()
                .enumerate()
                .map(|(at, (key, value))| (Slot(at, key), value))
                .collect::<BTreeMap<Slot, Value>>(),
        );
        self.composites.entry(hash).or_insert_with(|| value.clone());
        Built { value, hash }
    }
}

/// A key of a map on its way into `Value::from`: ordered and compared by its position alone.
struct Slot(usize, Key<'static>);

impl PartialEq for Slot {
    fn eq(&self, other: &Slot) -> bool {
        self.0 == other.0
    }
}

impl Eq for Slot {}

impl PartialOrd for Slot {
    fn partial_cmp(&self, other: &Slot) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Slot {
    fn cmp(&self, other: &Slot) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl From<Slot> for Key<'static> {
    fn from(slot: Slot) -> Key<'static> {
        slot.1
    }
}

/// True when two values built by one conversion are the same: lists and maps by identity
/// (equal ones were shared), scalars by kind and value.
fn identical((a, b): (&Value, &Value)) -> bool {
    match (a.as_map(), b.as_map()) {
        (Some(x), Some(y)) => return std::ptr::eq(x, y),
        (None, None) => {}
        _ => return false,
    }
    match (a.as_array(), b.as_array()) {
        (Some(x), Some(y)) => return std::ptr::eq(x, y),
        (None, None) => {}
        _ => return false,
    }
    a.kind() == b.kind() && a == b
}

/// Why a value has no Tera form.
#[derive(Debug)]
struct Unsupported(String);

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

type Result<T> = std::result::Result<T, Unsupported>;

fn unsigned(n: u64) -> Built {
    Built {
        value: Value::from(n),
        hash: mix(UNSIGNED, n),
    }
}

/// As serde_json stores integers: non-negative ones unsigned.
fn signed(n: i64) -> Built {
    match u64::try_from(n) {
        Ok(u) => unsigned(u),
        Err(_) => Built {
            value: Value::from(n),
            hash: mix(SIGNED, n as u64),
        },
    }
}

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
struct SeqBuilder<'s> {
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
struct VariantSeqBuilder<'s> {
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
struct MapBuilder<'s> {
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
struct VariantMapBuilder<'s> {
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
struct KeyText<'b>(&'b mut String);

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

#[cfg(test)]
#[path = "shared_tests.rs"]
mod tests;
