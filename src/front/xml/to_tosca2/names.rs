//! Type names in TOSCA 2.0: `:` separates a namespace prefix from a name (T2-NS-08), so a type
//! name may not contain it, and the XML's names (`{http://example.com/ns}Server`, an interface
//! type `http://example.com/lifecycle`) all do. They are written with `:` percent-encoded as
//! `%3A` (and `%` as `%25`, so the encoding can be undone): `{http%3A//example.com/ns}Server`.
//! The name stays recognisable, unique, and the same in every file converted.
//!
//! Only names the file defines as types are renamed: a template, requirement or capability
//! name is never touched, even where a keyname accepts either (`capability:` of a requirement
//! assignment).

use std::collections::HashSet;

use crate::yaml::{Kind, Map, Node, Scalar};

use super::TypeKind;

/// A type name as TOSCA 2.0 allows it.
pub fn encode(name: &str) -> String {
    name.replace('%', "%25").replace(':', "%3A")
}

/// The type names a file defines, of any kind.
pub struct Names(HashSet<String>);

impl Names {
    pub fn defined_in(root: &Map) -> Self {
        let mut names = HashSet::new();
        for e in root.entries() {
            if e.key.scalar_text().and_then(TypeKind::of_section).is_some() {
                for t in e.value.as_map().map(Map::entries).unwrap_or_default() {
                    if let Some(name) = t.key.scalar_text() {
                        names.insert(name.to_string());
                    }
                }
            }
        }
        Names(names)
    }

    /// Whether the file defines a type of this name.
    pub fn defines(&self, name: &str) -> bool {
        self.0.contains(name)
    }

    /// The name as written in 2.0, when it is a type name of the file.
    pub fn rename_text(&self, text: &str) -> String {
        if self.0.contains(text) {
            encode(text)
        } else {
            text.to_string()
        }
    }

    /// A string scalar that names a type, renamed.
    pub fn rename(&self, node: &Node) -> Node {
        match &node.kind {
            Kind::Scalar(s) if self.0.contains(&*s.text) => Node {
                kind: Kind::Scalar(Scalar {
                    text: encode(&s.text).into(),
                    ..s.clone()
                }),
                ..node.clone()
            },
            _ => node.clone(),
        }
    }

    /// A type name or a list of them, renamed.
    pub fn rename_all(&self, node: &Node) -> Node {
        match &node.kind {
            Kind::Seq(items) => Node {
                kind: Kind::Seq(items.iter().map(|i| self.rename(i)).collect()),
                ..node.clone()
            },
            _ => self.rename(node),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoding_leaves_no_colon_and_can_be_undone() {
        for name in [
            "{http://example.com/ns}Server",
            "http://example.com/lifecycle",
            "{urn:a%3Ab}T",
            "tosca.nodes.Compute",
        ] {
            let encoded = encode(name);
            assert!(!encoded.contains(':'), "{encoded}");
            assert_eq!(encoded.replace("%3A", ":").replace("%25", "%"), name);
        }
        assert_eq!(encode("tosca.nodes.Compute"), "tosca.nodes.Compute");
    }
}
