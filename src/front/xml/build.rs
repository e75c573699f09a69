//! Building the YAML tree the XML is translated into: every node carries the span of the XML
//! element or attribute it came from, so the 1.3 front end and the resolver point into the XML.

use crate::source::Span;
use crate::yaml::{Core, Kind, Map, Node, Scalar, Style};

/// A string scalar.
pub fn s(text: impl Into<String>, span: Span) -> Node {
    scalar(text.into(), Core::Str, span)
}

pub fn int(i: i64, span: Span) -> Node {
    scalar(i.to_string(), Core::Int(i), span)
}

pub fn boolean(b: bool, span: Span) -> Node {
    scalar(b.to_string(), Core::Bool(b), span)
}

pub fn float(f: f64, span: Span) -> Node {
    scalar(f.to_string(), Core::Float(f), span)
}

fn scalar(text: String, core: Core, span: Span) -> Node {
    Node {
        span,
        tag: None,
        style: Style::Plain,
        kind: Kind::Scalar(Scalar {
            text: text.into_boxed_str(),
            core,
        }),
    }
}

pub fn seq(items: Vec<Node>, span: Span) -> Node {
    Node {
        span,
        tag: None,
        style: Style::Plain,
        kind: Kind::Seq(items),
    }
}

/// A map under construction. Keys are unique; a second insertion of a key is refused and
/// reported to the caller, which knows what the duplicate means in XML.
pub struct M {
    span: Span,
    map: Map,
}

impl M {
    pub fn new(span: Span) -> Self {
        M {
            span,
            map: Map::new(),
        }
    }

    /// Adds `key: value`; false when the key was there already (nothing is changed then).
    pub fn put(&mut self, key: &str, key_span: Span, value: Node) -> bool {
        self.map.insert(s(key, key_span), value).is_ok()
    }

    /// Adds `key: value` at the value's own span.
    pub fn set(&mut self, key: &str, value: Node) -> bool {
        let span = value.span;
        self.put(key, span, value)
    }

    /// Adds a map entry only when the sub-map has something in it.
    pub fn set_nonempty(&mut self, key: &str, value: M) {
        if !value.map.is_empty() {
            let span = value.span;
            self.put(key, span, value.done());
        }
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    pub fn done(self) -> Node {
        Node {
            span: self.span,
            tag: None,
            style: Style::Plain,
            kind: Kind::Map(self.map),
        }
    }
}
