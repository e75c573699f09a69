//! Reading YAML nodes as the shapes a grammar expects, with a diagnostic when they are not.
//!
//! Each reading has a form (`map_to`, `seq_to`, ...) that takes where its diagnostics go as an
//! `Option`: the diagnostics of the stage that owns the node, or `None` where a grammar has
//! already reported the node's shape when it read it first (a TOSCA 2.0 file, whose grammar
//! `front::tosca2` checks before the model is filled). `None` makes no diagnostic at all.

use std::fmt;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::Named;
use crate::model::tree::Tree;
use crate::quirk::Quirk;
use crate::yaml::{Map, Node};

/// The node as a map. A null (an empty `properties:`) is read as an empty map, with a warning
/// because it usually means the content was forgotten or mis-indented.
pub fn map<'a>(
    node: &'a Node,
    what: impl fmt::Display,
    diags: &mut Diagnostics,
) -> Option<&'a Map> {
    map_to(node, what, Some(diags))
}

/// [`map`], reporting to `diags` if any.
pub fn map_to<'a>(
    node: &'a Node,
    what: impl fmt::Display,
    diags: Option<&mut Diagnostics>,
) -> Option<&'a Map> {
    let Some(diags) = diags else {
        return node.as_map();
    };
    let found = node.as_map();
    if found.is_none() {
        diags.push(not_a_map(node, what));
    }
    found
}

/// What is said of a tree that is no map where `what`, a map, belongs: a null (an empty
/// `properties:`) is read as an empty map, with a warning because it usually means the content
/// was forgotten or mis-indented; anything else is the wrong shape.
pub fn not_a_map<T: Tree>(node: &T, what: impl fmt::Display) -> Diagnostic {
    if node.is_null() {
        return Diagnostic::warning(codes::TOSCA_SHAPE, format!("{what} is empty"))
            .at_with(node.span(), "read as an empty map")
            .hint("remove the keyname, or indent its content under it");
    }
    wrong_shape(node, what, "a map")
}

/// The node as a list; a null is read as empty, with a warning.
pub fn seq<'a, T: Tree>(
    node: &'a T,
    what: impl fmt::Display,
    diags: &mut Diagnostics,
) -> Option<&'a [T]> {
    seq_to(node, what, Some(diags))
}

/// [`seq`], reporting to `diags` if any.
pub fn seq_to<'a, T: Tree>(
    node: &'a T,
    what: impl fmt::Display,
    diags: Option<&mut Diagnostics>,
) -> Option<&'a [T]> {
    let Some(diags) = diags else {
        return node.items();
    };
    if node.is_null() {
        diags.push(
            Diagnostic::warning(codes::TOSCA_SHAPE, format!("{what} is empty"))
                .at_with(node.span(), "read as an empty list")
                .hint("remove the keyname, or indent its content under it"),
        );
        return None;
    }
    let found = node.items();
    if found.is_none() {
        diags.push(wrong_shape(node, what, "a list"));
    }
    found
}

/// The node's text when it is a scalar string (a plain `1.0` or `true` is accepted by its text,
/// since names and descriptions are strings whatever they look like).
pub fn text<T: Tree>(node: &T, what: impl fmt::Display, diags: &mut Diagnostics) -> Option<String> {
    text_to(node, what, Some(diags))
}

/// [`text`], reporting to `diags` if any.
pub fn text_to<T: Tree>(
    node: &T,
    what: impl fmt::Display,
    diags: Option<&mut Diagnostics>,
) -> Option<String> {
    match node.scalar_text() {
        Some(t) if !node.is_null() => Some(t.to_string()),
        _ => {
            if let Some(diags) = diags {
                diags.push(wrong_shape(node, what, "a string"));
            }
            None
        }
    }
}

/// The entries of a map section as named definitions, in source order. Keys must be strings.
pub fn named(node: &Node, what: &str, diags: &mut Diagnostics) -> Vec<Named> {
    named_to(node, what, Some(diags))
}

/// [`named`], reporting to `diags` if any.
pub fn named_to(node: &Node, what: &str, mut diags: Option<&mut Diagnostics>) -> Vec<Named> {
    let Some(map) = map_to(node, what, diags.as_deref_mut()) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(map.len());
    for entry in map.entries() {
        match entry.key.scalar_text() {
            Some(name) => out.push(Named {
                name: name.to_string(),
                span: entry.key.span,
                def: entry.value.clone(),
            }),
            None => {
                if let Some(diags) = diags.as_deref_mut() {
                    diags.push(wrong_shape(
                        &entry.key,
                        format!("a name in {what}"),
                        "a string",
                    ));
                }
            }
        }
    }
    out
}

/// [`named`] for a section the reader owns: the definitions are moved out of it, not copied
/// (a service template's `node_templates` can hold 100,000 of them).
pub fn named_owned(
    node: Node,
    what: impl fmt::Display + Copy,
    diags: &mut Diagnostics,
) -> Vec<Named> {
    named_owned_to(node, what, Some(diags))
}

/// [`named_owned`], reporting to `diags` if any.
pub fn named_owned_to(
    node: Node,
    what: impl fmt::Display + Copy,
    mut diags: Option<&mut Diagnostics>,
) -> Vec<Named> {
    if map_to(&node, what, diags.as_deref_mut()).is_none() {
        return Vec::new();
    }
    let crate::yaml::Kind::Map(entries) = node.kind else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries.into_entries() {
        match entry.key.scalar_text() {
            Some(name) => out.push(Named {
                name: name.to_string(),
                span: entry.key.span,
                def: entry.value,
            }),
            None => {
                if let Some(diags) = diags.as_deref_mut() {
                    diags.push(wrong_shape(
                        &entry.key,
                        format!("a name in {what}"),
                        "a string",
                    ));
                }
            }
        }
    }
    out
}

/// "`x` must be a map, found a list" at the node.
pub fn wrong_shape<T: Tree>(node: &T, what: impl fmt::Display, expected: &str) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_SHAPE,
        format!("{what} must be {expected}, found {}", node.describe()),
    )
    .at_with(node.span(), format!("expected {expected}"))
}

/// Reports every key of `map` that `known` does not list as an unknown keyname: an error, since
/// a misspelt keyname would drop what it holds (a warning under `--quirk unknown-keynames`).
pub fn check_keys(
    map: &Map,
    known: &[&str],
    what: impl fmt::Display + Copy,
    diags: &mut Diagnostics,
) {
    for entry in map.entries() {
        if let Some(problem) = key_problem(&entry.key, known, what) {
            diags.push(problem);
        }
    }
}

/// What [`check_keys`] says of one key: a key that is no string, or one `known` does not list.
pub fn key_problem<T: Tree>(
    key: &T,
    known: &[&str],
    what: impl fmt::Display,
) -> Option<Diagnostic> {
    let Some(text) = key.scalar_text() else {
        return Some(wrong_shape(key, format!("a keyname of {what}"), "a string"));
    };
    (!known.contains(&text)).then(|| {
        Diagnostic::error(
            codes::TOSCA_UNKNOWN_KEY,
            format!("unknown keyname `{text}` in {what}"),
        )
        .excused_by(Quirk::UnknownKeynames)
        .at_with(key.span(), "not a keyname here")
        .did_you_mean(
            text,
            known,
            Some(format!("known keynames here: {}", known.join(", "))),
        )
    })
}
