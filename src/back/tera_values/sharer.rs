//! The tables of one conversion and the hashing that recognises equal parts (see the
//! [module documentation](super)).

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use serde::Serialize;
use tera::Value;
use tera::value::Key;

use crate::ir::shared::Serializing;

use super::serializer::Result;

/// Strings up to this many bytes are stored inside a Tera value; longer ones are reference
/// counted, so sharing them saves an allocation each.
pub(super) const INLINE_STRING: usize = 21;

/// A value with the hash of its content.
pub(super) struct Built {
    pub(super) value: Value,
    pub(super) hash: u64,
}

/// The tables of one conversion: what was built so far, by content hash (the first one built
/// with each hash; a later one with the same hash and other content is not shared).
#[derive(Default)]
pub(super) struct Sharer {
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
    pub(super) key_text: String,
}

/// The hasher of [`Sharer::composites`], whose keys are hashes already.
#[derive(Default)]
pub(super) struct Prehashed(u64);

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
pub(super) fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// A hash of a string, eight bytes at a time, the same in every run. Not resistant to crafted
/// collisions, which only cost missed shares here.
pub(super) fn hash_str(text: &str) -> u64 {
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
pub(super) const NONE: u64 = 1;
pub(super) const BOOL: u64 = 2;
pub(super) const UNSIGNED: u64 = 3;
pub(super) const SIGNED: u64 = 4;
pub(super) const FLOAT: u64 = 5;
pub(super) const STRING: u64 = 6;
pub(super) const LIST: u64 = 7;
pub(super) const MAP: u64 = 8;

impl Sharer {
    /// A shared part of the IR, as the serializer meets it (`serialize_newtype_struct`):
    /// converted the first time, the same value again every other time.
    pub(super) fn shared_part<T: Serialize + ?Sized>(
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

    pub(super) fn none() -> Built {
        Built {
            value: Value::none(),
            hash: NONE,
        }
    }

    pub(super) fn string(&mut self, text: &str) -> Built {
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
    pub(super) fn key(&mut self, text: &str) -> (Key<'static>, u64) {
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
    pub(super) fn json(&mut self, value: &serde_json::Value) -> Built {
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
    pub(super) fn list(&mut self, items: Vec<Value>, hash: u64) -> Built {
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
    pub(super) fn map(&mut self, entries: Vec<(Key<'static>, Value)>, hash: u64) -> Built {
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
pub(super) struct Slot(usize, Key<'static>);

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
pub(super) fn identical((a, b): (&Value, &Value)) -> bool {
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

pub(super) fn unsigned(n: u64) -> Built {
    Built {
        value: Value::from(n),
        hash: mix(UNSIGNED, n),
    }
}

/// As serde_json stores integers: non-negative ones unsigned.
pub(super) fn signed(n: i64) -> Built {
    match u64::try_from(n) {
        Ok(u) => unsigned(u),
        Err(_) => Built {
            value: Value::from(n),
            hash: mix(SIGNED, n as u64),
        },
    }
}
