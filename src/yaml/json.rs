//! A plain YAML document straight into JSON, without the span-keeping tree.
//!
//! The Kubernetes backend reads back every document its templates render, only to turn it into
//! JSON for its type check; spans matter only when that check fails. [`plain_json`] builds the
//! JSON value from granit-parser's events directly, for the documents that need none of what
//! [`super::load`] is there for: no anchor, alias, tag or `<<` merge, scalar keys that are all
//! different, one document whose root is a map, within the limits, and no non-breaking space
//! anywhere (the loader reports those in indentation). Anything else, and every syntax error,
//! gives `None`, and the caller reads the text again with [`super::load`], which reports what it
//! finds with spans. Where it answers, the answer is the loader's tree as JSON: the same core
//! schema ([`super::resolve_plain`]), the same empty values and the same keys.

use granit_parser::{Event, Parser, ScalarStyle};
use serde_json::{Map, Value as Json};

use super::Core;
use super::schema;
use crate::limits::Limits;

/// The single document of `text` as JSON, or `None` when it is not plain enough to skip the
/// loader (see the module docs): the caller then loads it with [`super::load`].
pub fn plain_json(text: &str, limits: &Limits) -> Option<Json> {
    if text.contains('\u{a0}') {
        return None;
    }
    // The loader's parser options, so that the same texts parse.
    let options = super::load::parser_options(limits);

    let mut builder = Builder::default();
    let mut documents = 0;
    for item in Parser::new_from_str_with_options(text, options) {
        let (event, span) = item.ok()?;
        match event {
            Event::DocumentStart(..) => {
                if documents > 0 {
                    return None;
                }
                documents += 1;
            }
            Event::StreamEnd => break,
            Event::Scalar(value, style, anchor, tag) => {
                if anchor != 0 || tag.is_some() || value.len() > limits.max_scalar_bytes {
                    return None;
                }
                let start = span.start.byte_offset().unwrap_or(0);
                let end = span.end.byte_offset().unwrap_or(start).max(start);
                builder.scalar(value.into_owned(), style, start == end)?;
            }
            Event::SequenceStart(_, anchor, tag) => {
                if anchor != 0 || tag.is_some() || builder.stack.len() >= limits.max_yaml_depth {
                    return None;
                }
                builder.open(Open::Seq(Vec::new()))?;
            }
            Event::MappingStart(_, anchor, tag) => {
                if anchor != 0 || tag.is_some() || builder.stack.len() >= limits.max_yaml_depth {
                    return None;
                }
                builder.open(Open::Map(Map::new(), None))?;
            }
            Event::SequenceEnd | Event::MappingEnd => builder.close()?,
            Event::Alias(_) | Event::UnresolvedAlias(_) => return None,
            _ => {}
        }
    }
    match builder.root {
        Some(root @ Json::Object(_)) if builder.stack.is_empty() => Some(root),
        _ => None,
    }
}

/// A collection being read: a list, or a map and its pending key.
enum Open {
    Seq(Vec<Json>),
    Map(Map<String, Json>, Option<String>),
}

#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    root: Option<Json>,
}

impl Builder {
    /// A collection starts; `None` when it would be a map key.
    fn open(&mut self, open: Open) -> Option<()> {
        if let Some(Open::Map(_, None)) = self.stack.last() {
            return None;
        }
        self.stack.push(open);
        Some(())
    }

    fn close(&mut self) -> Option<()> {
        let value = match self.stack.pop()? {
            Open::Seq(items) => Json::Array(items),
            Open::Map(map, None) => Json::Object(map),
            Open::Map(_, Some(_)) => return None,
        };
        self.attach(value)
    }

    /// A scalar, resolved as the loader resolves it. `empty_span`: the parser's span is empty,
    /// which with the text `~` is an empty value (`key:`), whose text is empty.
    fn scalar(&mut self, text: String, style: ScalarStyle, empty_span: bool) -> Option<()> {
        let plain = !matches!(
            style,
            ScalarStyle::SingleQuoted
                | ScalarStyle::DoubleQuoted
                | ScalarStyle::Literal
                | ScalarStyle::Folded
        );
        let text = if plain && empty_span && text == "~" {
            String::new()
        } else {
            text
        };
        if let Some(Open::Map(_, key @ None)) = self.stack.last_mut() {
            // A key: the loader reads a plain `<<` as a merge.
            if plain && text == "<<" {
                return None;
            }
            *key = Some(text);
            return Some(());
        }
        let value = if !plain {
            Json::String(text)
        } else {
            match schema::resolve(&text).core {
                Core::Null => Json::Null,
                Core::Bool(b) => Json::Bool(b),
                Core::Int(i) => Json::from(i),
                Core::Float(f) => Json::Number(serde_json::Number::from_f64(f)?),
                Core::Str => Json::String(text),
            }
        };
        self.attach(value)
    }

    /// Adds a finished value to the open collection; `None` on a duplicate key.
    fn attach(&mut self, value: Json) -> Option<()> {
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(value);
                }
            }
            Some(Open::Seq(items)) => items.push(value),
            Some(Open::Map(map, key)) => {
                // A collection as a key was refused when it opened.
                match map.entry(key.take()?) {
                    serde_json::map::Entry::Vacant(slot) => {
                        slot.insert(value);
                    }
                    serde_json::map::Entry::Occupied(_) => return None,
                }
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::source::{Origin, SourceMap};

    /// What the loader's tree gives as JSON, the way the Kubernetes check turns it.
    fn loaded(text: &str) -> Option<Json> {
        let mut sources = SourceMap::new();
        let id = sources.add("t.yaml", Origin::Builtin("t".into()), text);
        let mut diags = Diagnostics::with_cap(0);
        let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags)?;
        if diags.has_errors() {
            return None;
        }
        crate::back::kubernetes::objects::to_json(&root).ok()
    }

    #[test]
    fn plain_documents_read_as_the_loader_reads_them() {
        for text in [
            "a: 1\nb: 017\nc: 0x1f\nd: 1.5\nf: true\ng: yes\nh: ~\ni:\nj: null\n",
            "k: '1'\nl: \"x\\ny\"\nm: |\n  lit\n  eral\nn: >\n  fol\n  ded\n",
            "list:\n- 1\n- [a, {b: c}]\n- {}\n- []\n'quoted key': x\n\"\": empty key\n",
            "big: 99999999999999999999\nneg: -0\nfloat: 1e3\nstamp: 2001-12-14\n",
            "? ~\n: tilde key\n",
            "'<<': quoted merge key is plain\n",
        ] {
            let fast = plain_json(text, &Limits::default());
            assert!(fast.is_some(), "{text}");
            assert_eq!(fast, loaded(text), "{text}");
        }
    }

    #[test]
    fn everything_else_is_left_to_the_loader() {
        for text in [
            "a: &x 1\nb: *x\n",
            "a: *missing\n",
            "a: !!str 1\n",
            "base: &b {x: 1}\nc:\n  <<: *b\n",
            "a: 1\na: 2\n",
            "a: 1\n'a': 2\n",
            "[a]: 1\n",
            "a: 1\n---\nb: 2\n",
            "- a\n",
            "just a string\n",
            "",
            "a: [1\n",
            "a:\n\tb: 1\n",
            "a:\n\u{a0} b: 1\n",
            "a: .nan\n",
            "a: -.inf\n",
        ] {
            assert_eq!(plain_json(text, &Limits::default()), None, "{text:?}");
        }
    }
}
