//! Tera values built piece by piece by a backend's Rust, shared as [`super::to_tera`] shares.

use serde::Serialize;
use tera::Value;
use tera::value::Key;

use super::sharer::{BOOL, Built, LIST, MAP, Sharer, hash_str, mix, unsigned};

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
