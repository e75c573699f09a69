//! The model's own data value: what a front end hands the resolver wherever a template writes
//! data (a `metadata` map, a property value, a default), with the span of every part.
//!
//! The resolver must not see the syntax a value was written in (YAML for the Simple Profile and
//! TOSCA 2.0, elements and attributes for TOSCA 1.0 XML), only what it means and where it was
//! written. What it needs of YAML, measured by what `src/resolve` asks of `yaml::Node`, and
//! what it does not:
//!
//! - **Span of every value and every key**: each diagnostic points at the text that caused it.
//! - **Scalars keep their text beside what they mean** ([`Scalar::text`], [`Data`]): a
//!   `version` written `1.10` is the text `1.10`, not the float 1.1; a value reported is quoted
//!   as written.
//! - **Plain or not** ([`Value::plain`]): TOSCA 2.0 and the Simple Profile type a quoted `'1.0'`
//!   (a string) and a plain `1.0` (a float) differently, and a YAML 1.1 boolean word (`yes`) is
//!   one only when plain. Which quotes, or a block style, mean nothing to the resolver.
//! - **No tag**: the YAML loader already applies the core-schema tags (`!!str 1` is the string
//!   `1`, and a tag that does not fit its text is reported there), and the resolver gives
//!   other tags no meaning.
//! - **Lists, and maps in source order with spanned keys** ([`ValueMap`]); a key is a value,
//!   because TOSCA 2.0 writes lists as keys (`[CAPABILITY, endpoint, port]`).
//!
//! A value is built by a front end (`front::value`) once, from the tree it read; the resolver
//! reads it and never the tree. Entities the model types (see `docs/architecture.md`, "The
//! typed model") hold their data as [`Value`]s.

use crate::hash::FastMap;
use crate::source::Span;

/// What a scalar means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Data {
    Null,
    Bool(bool),
    Integer(i64),
    Float(f64),
    /// A string; its content is [`Scalar::text`].
    String,
}

/// A scalar: its text (escapes decoded, lines folded) and what it means.
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub text: Box<str>,
    pub data: Data,
}

/// One `key: value` pair of a map.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Value,
    pub value: Value,
}

/// The three shapes of a value.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueKind {
    Scalar(Scalar),
    List(Vec<Value>),
    Map(ValueMap),
}

/// A data value with the span of its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub span: Span,
    /// Whether a scalar was written plain (unquoted, not a block); true for a list or a map.
    pub plain: bool,
    pub kind: ValueKind,
}

/// A map in source order, with an index from key text to entry once it outgrows
/// [`INDEX_FROM`] entries (a scan is cheaper for the handful of keys most maps hold). Lookups
/// compare the key's text, so `a` and `'a'` are one key, as they are to the YAML loader.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValueMap {
    entries: Vec<Entry>,
    /// Boxed, so a small map pays one pointer for it.
    #[allow(clippy::box_collection)]
    index: Option<Box<FastMap<Box<str>, usize>>>,
}

/// Maps with more entries than this get an index.
const INDEX_FROM: usize = 8;

impl ValueMap {
    pub fn new() -> Self {
        Self::default()
    }

    /// A map of `entries` in their order; a later entry whose scalar key repeats an earlier
    /// one's is dropped (the reader of the text reported it), so the first one counts.
    pub fn from_entries(entries: impl IntoIterator<Item = Entry>) -> Self {
        let mut map = ValueMap::new();
        for entry in entries {
            map.insert(entry);
        }
        map.entries.shrink_to_fit();
        map
    }

    /// Appends `entry` unless its scalar key is already there; returns whether it was added.
    pub fn insert(&mut self, entry: Entry) -> bool {
        let text = entry.key.scalar_text();
        if text.is_some_and(|t| self.position(t).is_some()) {
            return false;
        }
        if let (Some(index), Some(text)) = (&mut self.index, text) {
            index.insert(text.into(), self.entries.len());
        }
        self.entries.push(entry);
        if self.index.is_none() && self.entries.len() > INDEX_FROM {
            let index = self
                .entries
                .iter()
                .enumerate()
                .filter_map(|(i, e)| e.key.scalar_text().map(|t| (t.into(), i)))
                .collect();
            self.index = Some(Box::new(index));
        }
        true
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self
                .entries
                .iter()
                .position(|e| e.key.scalar_text() == Some(key)),
        }
    }

    /// The entry whose scalar key has this text.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.position(key).map(|i| &self.entries[i])
    }

    /// The value under a scalar key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entry(key).map(|e| &e.value)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// The keys that are scalars, as text, in source order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(|e| e.key.scalar_text())
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Value {
    /// A string made by toscana rather than read, placed at `span`.
    pub fn string(text: &str, span: Span) -> Value {
        Value {
            span,
            plain: true,
            kind: ValueKind::Scalar(Scalar {
                text: text.into(),
                data: Data::String,
            }),
        }
    }

    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.kind {
            ValueKind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&ValueMap> {
        match &self.kind {
            ValueKind::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Value]> {
        match &self.kind {
            ValueKind::List(l) => Some(l),
            _ => None,
        }
    }

    /// The text of a string (however it was written). A plain scalar that means a number, a
    /// boolean or null is no string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::Scalar(s) if s.data == Data::String => Some(&s.text),
            _ => None,
        }
    }

    /// The text of any scalar, whatever it means.
    pub fn scalar_text(&self) -> Option<&str> {
        self.as_scalar().map(|s| &*s.text)
    }

    pub fn is_null(&self) -> bool {
        matches!(&self.kind, ValueKind::Scalar(s) if s.data == Data::Null)
    }

    /// Whether `other` holds the same content wherever each was written: scalars compare by
    /// text and meaning, maps by key, lists in order; spans and quoting are ignored.
    pub fn same_content(&self, other: &Value) -> bool {
        match (&self.kind, &other.kind) {
            (ValueKind::Scalar(x), ValueKind::Scalar(y)) => x.text == y.text && x.data == y.data,
            (ValueKind::List(x), ValueKind::List(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.same_content(q))
            }
            (ValueKind::Map(x), ValueKind::Map(y)) => {
                x.len() == y.len()
                    && x.entries().iter().all(|e| {
                        e.key
                            .scalar_text()
                            .and_then(|k| y.get(k))
                            .is_some_and(|v| e.value.same_content(v))
                    })
            }
            _ => false,
        }
    }

    /// What kind of value this is, for messages ("expected a map, found a list").
    pub fn describe(&self) -> &'static str {
        match &self.kind {
            ValueKind::Scalar(s) => match s.data {
                Data::Null => "null",
                Data::Bool(_) => "a boolean",
                Data::Integer(_) => "an integer",
                Data::Float(_) => "a float",
                Data::String => "a string",
            },
            ValueKind::List(_) => "a list",
            ValueKind::Map(_) => "a map",
        }
    }
}

/// A string the model keeps with the span of its text: a `description`, a name written as a
/// value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub text: String,
    pub span: Span,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> Value {
        Value::string(text, Span::default())
    }

    #[test]
    fn lookups_keep_the_first_of_a_repeated_key_below_and_above_the_index_threshold() {
        let mut map = ValueMap::new();
        for i in 0..20 {
            let key = format!("k{i}");
            assert!(map.insert(Entry {
                key: string(&key),
                value: string("v"),
            }));
            for j in 0..=i {
                assert!(map.contains_key(&format!("k{j}")), "k{j} after {i} inserts");
            }
            let again = Entry {
                key: string(&format!("k{}", i / 2)),
                value: string("again"),
            };
            assert!(!map.insert(again));
        }
        assert_eq!(map.len(), 20);
        assert_eq!(map.get("k13").and_then(Value::scalar_text), Some("v"));
        assert!(!map.contains_key("k20"));
        assert_eq!(map.names().nth(3), Some("k3"));
    }

    #[test]
    fn a_value_is_no_bigger_than_the_yaml_node_it_replaces() {
        assert!(
            size_of::<Value>() <= size_of::<crate::yaml::Node>(),
            "Value is {} bytes",
            size_of::<Value>()
        );
    }
}
