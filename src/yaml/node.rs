//! The YAML tree toscana reads: every node keeps its span, tag, style and text.

use crate::hash::FastMap;
use crate::source::Span;

/// How a scalar was written. TOSCA 2.0 types quoted and plain scalars differently (`"0.1"` is a
/// string, `0.1` a float), so the style is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

impl Style {
    /// Plain scalars are the only ones the core schema resolves to non-strings.
    pub fn is_plain(self) -> bool {
        self == Style::Plain
    }
}

/// What the YAML 1.2 core schema makes of a scalar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Core {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string; its content is [`Scalar::text`].
    Str,
}

/// A scalar: its content after YAML decoding and its core-schema value; how it was written is
/// its node's [`Node::style`].
///
/// `text` is the content (escapes decoded, lines folded); the exact source characters are
/// `sources.slice(node.span)`. A `version` typed `1.10` reads `text`, so it stays `1.10`.
/// The text is a `Box<str>` (the loader's strings are exact-sized anyway), a word less than a
/// `String` in every node (see [`Node`] for why that counts).
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub text: Box<str>,
    pub core: Core,
}

/// One `key: value` pair of a mapping. Keys are nodes because TOSCA 2.0 uses lists as keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Node,
    pub value: Node,
}

/// A mapping in source order, with an index from scalar key text to entry, so lookups by name
/// stay constant-time on maps with 100,000 node templates.
///
/// Lookups and duplicate checks compare the decoded key text, so `a` and `'a'` are one key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Map {
    entries: Vec<Entry>,
    /// Scalar key text → entry, built once the map outgrows [`INDEX_FROM`] entries. Most TOSCA
    /// maps hold a handful of keys, where a scan is cheaper than hashing and copying each key.
    /// Boxed, so the many small maps (and every node, whose size is that of its largest kind)
    /// pay one pointer for it (a `HashMap` inline is six words), hence the lint's exception.
    /// Hashed with foldhash ([`crate::hash`]): the map of node templates is indexed by every
    /// template's name and asked for each name the resolver looks up.
    #[allow(clippy::box_collection)]
    index: Option<Box<FastMap<Box<str>, usize>>>,
}

/// Maps with more entries than this get an index.
const INDEX_FROM: usize = 8;

impl Map {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends an entry. Returns the earlier entry with the same scalar key, if any, and does not
    /// add the new one in that case; the loader turns that into a duplicate-key error.
    #[allow(clippy::result_large_err)] // the rejected pair goes straight back to the loader
    pub fn insert(&mut self, key: Node, value: Node) -> Result<(), (Node, Node)> {
        let text = key.as_scalar().map(|s| &*s.text);
        if text.is_some_and(|t| self.position(t).is_some()) {
            return Err((key, value));
        }
        if let (Some(index), Some(text)) = (&mut self.index, text) {
            index.insert(text.into(), self.entries.len());
        }
        self.entries.push(Entry { key, value });
        if self.index.is_none() && self.entries.len() > INDEX_FROM {
            let index = self
                .entries
                .iter()
                .enumerate()
                .filter_map(|(i, e)| e.key.as_scalar().map(|s| (s.text.clone(), i)))
                .collect();
            self.index = Some(Box::new(index));
        }
        Ok(())
    }

    /// Gives back the room the entries were built with beyond what they hold: a loaded file's
    /// tree is kept for the whole run, and most of its maps hold one to three entries.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
        if let Some(index) = &mut self.index {
            index.shrink_to_fit();
        }
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self
                .entries
                .iter()
                .position(|e| e.key.as_scalar().is_some_and(|s| &*s.text == key)),
        }
    }

    /// The entry whose scalar key has this text.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.position(key).map(|i| &self.entries[i])
    }

    /// The value under a scalar key.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Takes the value under a scalar key out of the map, leaving a null in its place (so the
    /// map keeps its entries and their order), for readers that own the tree and would
    /// otherwise copy a large subtree.
    pub fn take(&mut self, key: &str) -> Option<Node> {
        let at = self.position(key)?;
        let entry = &mut self.entries[at];
        let span = entry.value.span;
        Some(std::mem::replace(
            &mut entry.value,
            Node {
                span: crate::source::Span {
                    end: span.start,
                    ..span
                },
                tag: None,
                style: Style::Plain,
                kind: Kind::Scalar(Scalar {
                    text: Box::default(),
                    core: Core::Null,
                }),
            },
        ))
    }

    /// The keys that are scalars, as text, in source order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(|e| e.key.scalar_text())
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries in source order, by value (the loader moves `<<`-merged entries this way).
    pub fn into_entries(self) -> Vec<Entry> {
        self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(Map),
}

/// A YAML node with the span of its source text and its explicit tag, if it had one.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Span,
    /// The tag as written, expanded for the core schema (`tag:yaml.org,2002:str`) and verbatim for
    /// others (`!custom`); read it with [`Node::tag`]. A `Box<String>`, one pointer, rather
    /// than a `Box<str>`, a pointer and a length: tags are rare, and every node pays for the
    /// field (a loaded tree of 100,000 node templates holds about 2.6 million nodes), so the
    /// second allocation of a tagged node buys 8 bytes in every node.
    #[allow(clippy::box_collection)]
    pub tag: Option<Box<String>>,
    /// How a scalar was written; [`Style::Plain`] for a list or a map. Kept here rather than in
    /// [`Scalar`], where it would cost a word of padding in every node: here it fills the
    /// padding after the span rather than a padded word in [`Scalar`].
    pub style: Style,
    pub kind: Kind,
}

impl Node {
    /// A string scalar made by toscana rather than read, placed at `span`.
    pub fn string(text: &str, span: Span) -> Node {
        Node {
            span,
            tag: None,
            style: Style::Plain,
            kind: Kind::Scalar(Scalar {
                text: text.into(),
                core: Core::Str,
            }),
        }
    }

    /// The tag as written (see the field [`Node::tag`]).
    pub fn tag(&self) -> Option<&str> {
        self.tag.as_deref().map(String::as_str)
    }

    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.kind {
            Kind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&Map> {
        match &self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_map_mut(&mut self) -> Option<&mut Map> {
        match &mut self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// The text of a string scalar (any style). Plain scalars that resolve to numbers, booleans or
    /// null are not strings.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar(s) if s.core == Core::Str => Some(&s.text),
            _ => None,
        }
    }

    /// The text of any scalar, whatever the core schema made of it.
    pub fn scalar_text(&self) -> Option<&str> {
        self.as_scalar().map(|s| &*s.text)
    }

    /// Whether `other` holds the same content, wherever each was written: scalars compare by
    /// decoded text and core-schema value, maps by key, sequences in order. Spans, tags and
    /// quoting styles that do not change the value are ignored, so one definition copied into
    /// two files, or one value written at two places, compares equal.
    pub fn same_content(&self, other: &Node) -> bool {
        match (&self.kind, &other.kind) {
            (Kind::Scalar(x), Kind::Scalar(y)) => x.text == y.text && x.core == y.core,
            (Kind::Seq(x), Kind::Seq(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.same_content(q))
            }
            (Kind::Map(x), Kind::Map(y)) => {
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

    pub fn is_null(&self) -> bool {
        matches!(&self.kind, Kind::Scalar(s) if s.core == Core::Null)
    }

    /// What kind of YAML value this is, for messages ("expected a map, found a list").
    pub fn describe(&self) -> &'static str {
        match &self.kind {
            Kind::Scalar(s) => match s.core {
                Core::Null => "null",
                Core::Bool(_) => "a boolean",
                Core::Int(_) => "an integer",
                Core::Float(_) => "a float",
                Core::Str => "a string",
            },
            Kind::Seq(_) => "a list",
            Kind::Map(_) => "a map",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn scalar(text: &str) -> Node {
        Node {
            span: Span::default(),
            tag: None,
            style: Style::Plain,
            kind: Kind::Scalar(Scalar {
                text: text.into(),
                core: Core::Str,
            }),
        }
    }

    #[test]
    fn lookups_and_duplicates_work_below_and_above_the_index_threshold() {
        let mut map = Map::new();
        for i in 0..20 {
            assert!(map.insert(scalar(&format!("k{i}")), scalar("v")).is_ok());
            // Every key so far is found, and a repeat of any of them is rejected.
            for j in 0..=i {
                assert!(map.contains_key(&format!("k{j}")), "k{j} after {i} inserts");
            }
            assert!(
                map.insert(scalar(&format!("k{}", i / 2)), scalar("again"))
                    .is_err()
            );
        }
        assert_eq!(map.len(), 20);
        assert_eq!(map.get("k13").and_then(Node::scalar_text), Some("v"));
        assert!(!map.contains_key("k20"));
        // Taking a value leaves a null in its place.
        let taken = map.take("k13").expect("k13 is there");
        assert_eq!(taken.scalar_text(), Some("v"));
        assert!(map.get("k13").is_some_and(Node::is_null));
        assert_eq!(map.len(), 20);
        assert!(map.take("k20").is_none());
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    /// A loaded tree of 100,000 node templates holds about 2.6 million nodes, so every byte of
    /// [`Node`] is 2.6 MB of `check`'s peak (docs/performance.md). 72 bytes: the [`Kind`] is 40
    /// (a scalar's text and core value, 32, beside the discriminant), the span 20 with the
    /// style in its padding, the tag one pointer.
    #[test]
    fn a_node_stays_small() {
        assert!(
            size_of::<Node>() <= 72,
            "Node is {} bytes",
            size_of::<Node>()
        );
    }
}
