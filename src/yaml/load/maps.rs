//! Mappings: duplicate keys (compared on decoded text), non-scalar keys and `<<` merges.

use std::collections::HashMap;

use crate::diag::{Diagnostic, codes};
use crate::source::Span;
use crate::yaml::node::{Core, Kind, Map, Node};

/// A map under construction: the entries so far, the pending key, the sources of `<<` merges.
///
/// Duplicate keys are compared on the decoded text of scalar keys, whatever their style or core
/// type: `a` and `'a'` collide, and so do `1` and `"1"`. TOSCA reads keys as names, so two keys
/// that read as the same name are the same key, even where YAML's own equality (which compares
/// `1` the integer and `"1"` the string as different) would let them pass. Non-scalar keys (flow
/// lists or maps) are compared on a canonical rendering of their structure, built from the same
/// decoded scalar texts and the entries in source order.
pub(super) struct MapBuilder {
    map: Map,
    pub(super) key: Option<Node>,
    /// Maps to merge in, in priority order, and the span of the first `<<` key.
    merges: Vec<Node>,
    merge_key: Option<Span>,
    /// Canonical renderings of non-scalar keys, with the span where each was first written.
    complex_keys: HashMap<String, Span>,
}

impl MapBuilder {
    pub(super) fn new() -> Self {
        MapBuilder {
            map: Map::new(),
            key: None,
            merges: Vec::new(),
            merge_key: None,
            complex_keys: HashMap::new(),
        }
    }

    /// The map, with the entries of its `<<` merges that its own keys do not override.
    pub(super) fn finish(mut self) -> Map {
        for source in std::mem::take(&mut self.merges) {
            let Kind::Map(source) = source.kind else {
                continue;
            };
            for entry in source.into_entries() {
                if let Some(s) = entry.key.as_scalar() {
                    if self.map.contains_key(&s.text) {
                        continue;
                    }
                } else {
                    let canon = canonical(&entry.key);
                    if self.complex_keys.contains_key(&canon) {
                        continue;
                    }
                    self.complex_keys.insert(canon, entry.key.span);
                }
                // Cannot fail: the key is not in the map yet.
                let _ = self.map.insert(entry.key, entry.value);
            }
        }
        self.map
    }
}

fn is_merge_key(key: &Node) -> bool {
    key.style.is_plain()
        && matches!(&key.kind, Kind::Scalar(s) if &*s.text == "<<")
        && key.tag().is_none_or(|t| t == "tag:yaml.org,2002:merge")
}

pub(super) fn add_entry(
    builder: &mut MapBuilder,
    key: Node,
    value: Node,
    out: &mut Vec<Diagnostic>,
) {
    if is_merge_key(&key) {
        if let Some(first) = builder.merge_key {
            out.push(duplicate_key("<<", key.span, first));
            return;
        }
        builder.merge_key = Some(key.span);
        match value.kind {
            Kind::Map(_) => builder.merges.push(value),
            Kind::Seq(items) if items.iter().all(|i| i.as_map().is_some()) => {
                builder.merges.extend(items);
            }
            _ => {
                let found = if value.as_seq().is_some() {
                    "a list with an entry that is not a map"
                } else {
                    value.describe()
                };
                out.push(
                    Diagnostic::error(
                        codes::YAML_MERGE,
                        format!("a `<<` merge needs a map or a list of maps, found {found}"),
                    )
                    .at_with(value.span, "not a map")
                    .label(key.span, "merge key")
                    .hint("merge an alias of a map (`<<: *defaults`) or a list of them (`<<: [*a, *b]`); quote `'<<'` for a plain key"),
                );
            }
        }
        return;
    }
    if key.as_scalar().is_none() {
        let canon = canonical(&key);
        if let Some(&first) = builder.complex_keys.get(&canon) {
            out.push(duplicate_key(&canon, key.span, first));
            return;
        }
        builder.complex_keys.insert(canon, key.span);
    }
    if let Err((key, _)) = builder.map.insert(key, value) {
        let text = key.scalar_text().unwrap_or_default();
        let first = builder
            .map
            .entry(text)
            .map_or(key.span, |entry| entry.key.span);
        out.push(duplicate_key(text, key.span, first));
    }
}

fn duplicate_key(name: &str, again: Span, first: Span) -> Diagnostic {
    Diagnostic::error(
        codes::YAML_DUPLICATE_KEY,
        format!("duplicate key `{}` in this mapping", shorten(name)),
    )
    .at_with(again, "defined again here")
    .label(first, "first defined here")
    .hint("YAML forbids duplicate keys; remove one or rename it")
}

/// A rendering of a key's structure that is equal for equal keys: scalars by decoded text,
/// collections by their entries in order. Iterative, whatever the nesting.
pub(super) fn canonical(node: &Node) -> String {
    enum Step<'n> {
        Node(&'n Node),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut todo = vec![Step::Node(node)];
    while let Some(step) = todo.pop() {
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Node(n) => match &n.kind {
                Kind::Scalar(s) => {
                    if s.core == Core::Null {
                        out.push('~');
                    } else if s
                        .text
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
                        && !s.text.is_empty()
                    {
                        out.push_str(&s.text);
                    } else {
                        out.push_str(&format!("{:?}", s.text));
                    }
                }
                Kind::Seq(items) => {
                    out.push('[');
                    todo.push(Step::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        todo.push(Step::Node(item));
                        if i > 0 {
                            todo.push(Step::Text(", "));
                        }
                    }
                }
                Kind::Map(map) => {
                    out.push('{');
                    todo.push(Step::Text("}"));
                    for (i, entry) in map.entries().iter().enumerate().rev() {
                        todo.push(Step::Node(&entry.value));
                        todo.push(Step::Text(": "));
                        todo.push(Step::Node(&entry.key));
                        if i > 0 {
                            todo.push(Step::Text(", "));
                        }
                    }
                }
            },
        }
    }
    out
}

/// At most 60 characters of a text, for messages.
pub(super) fn shorten(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
