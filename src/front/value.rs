//! YAML trees into the model's data values ([`crate::model::value`]): the one place a front
//! end turns what the YAML loader read into what the resolver reads. The TOSCA 1.0 XML and
//! Variability4TOSCA front ends write YAML trees first, so their values come through here too.

use crate::model::tree::data;
use crate::model::value::{Entry, Scalar, Text, Value, ValueKind, ValueMap};
use crate::yaml::{Kind, Node};

/// The keyname of `names` that `key` writes, if it is one: how a typed entity's reader files
/// a map entry (the grammar has reported keys that are none).
pub fn keyname(key: &Node, names: &[&'static str]) -> Option<&'static str> {
    let text = key.scalar_text()?;
    names.iter().copied().find(|n| *n == text)
}

/// `node` as a model value, its text moved rather than copied: the tree is not kept beside it.
/// Tags are dropped (the loader has applied the core schema's; the resolver reads no other),
/// and a map keeps the first of two entries with one key (the loader reported the second).
pub fn into_value(node: Node) -> Value {
    let plain = node.style.is_plain();
    let kind = match node.kind {
        Kind::Scalar(scalar) => ValueKind::Scalar(Scalar {
            text: scalar.text,
            data: data(scalar.core),
        }),
        Kind::Seq(items) => ValueKind::List(items.into_iter().map(into_value).collect()),
        Kind::Map(map) => ValueKind::Map(ValueMap::from_entries(
            map.into_entries().into_iter().map(|e| Entry {
                key: into_value(e.key),
                value: into_value(e.value),
            }),
        )),
    };
    Value {
        span: node.span,
        plain,
        kind,
    }
}

/// The text of a scalar `node` with its span, for keynames whose value is a string
/// (`description`); `None` for a list or a map, which the grammar reports where it checks the
/// keyname's shape.
pub fn into_text(node: Node) -> Option<Text> {
    let span = node.span;
    match node.kind {
        Kind::Scalar(scalar) => Some(Text {
            text: scalar.text.into(),
            span,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::limits::Limits;
    use crate::model::value::Data;
    use crate::source::{Origin, SourceMap};

    fn read(text: &str) -> Value {
        let mut sources = SourceMap::new();
        let file = sources.add("t.yaml", Origin::Stdin, text);
        let mut diags = Diagnostics::new();
        let node = crate::yaml::load(&sources, file, &Limits::default(), &mut diags)
            .expect("the test's YAML loads");
        into_value(node)
    }

    #[test]
    fn scalars_keep_their_text_their_meaning_and_whether_they_were_quoted() {
        let value = read("a: 1.10\nb: '1.10'\nc: ~\nd: !!str 7\ne: yes\nf: [1, x]\n");
        let map = value.as_map().expect("a map");
        let a = map.get("a").unwrap();
        assert_eq!(a.as_scalar().unwrap().text.as_ref(), "1.10");
        assert_eq!(a.as_scalar().unwrap().data, Data::Float(1.1));
        assert!(a.plain);
        let b = map.get("b").unwrap();
        assert_eq!(b.as_str(), Some("1.10"));
        assert!(!b.plain);
        assert!(map.get("c").unwrap().is_null());
        assert_eq!(map.get("d").unwrap().as_str(), Some("7"));
        // YAML 1.2's core schema: `yes` is a string, still plain for the 1.1 boolean rule.
        assert_eq!(map.get("e").unwrap().as_str(), Some("yes"));
        assert!(map.get("e").unwrap().plain);
        let f = map.get("f").unwrap().as_list().unwrap();
        assert_eq!(f[0].as_scalar().unwrap().data, Data::Integer(1));
        assert_eq!(f[1].as_str(), Some("x"));
    }

    #[test]
    fn every_key_and_value_keeps_its_span() {
        let value = read("outer:\n  inner: v\n");
        let entry = value.as_map().unwrap().entry("outer").unwrap();
        assert_eq!((entry.key.span.line, entry.key.span.col), (1, 1));
        let inner = entry.value.as_map().unwrap().entry("inner").unwrap();
        assert_eq!((inner.key.span.line, inner.key.span.col), (2, 3));
        assert_eq!((inner.value.span.line, inner.value.span.col), (2, 10));
    }

    #[test]
    fn a_list_key_stays_a_value() {
        let value = read("? [CAPABILITY, endpoint, port]\n: [node, port]\n");
        let entry = &value.as_map().unwrap().entries()[0];
        assert_eq!(entry.key.as_list().map(<[Value]>::len), Some(3));
        assert_eq!(entry.value.describe(), "a list");
    }
}
