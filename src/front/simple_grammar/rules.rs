//! Rules of Simple Profile 1.x definitions that the keyname walk meets on its way. Two are
//! values a keyname may not hold whatever the rest of the file says:
//! - a property, attribute or parameter definition's `status` is one of the four status values
//!   (A.5.7.3 Status values; 1.3 §3.6.10.2 Status values keeps the same four);
//! - a type's requirement definitions have unique names: "Requirement symbolic names SHALL be
//!   unique; it is an error if a requirement name is found to occur more than once" (A.6.2.3
//!   Additional Requirements). Requirements are a list, so YAML's own duplicate-key check does
//!   not catch a name written twice. Template *assignments* may repeat a name (a requirement
//!   fulfilled several times), so only type definitions are checked.
//!
//! A node template's `directives` have no values in 1.x: "There are currently no directive
//! values defined for this version of the TOSCA Simple Profile" (A.3.2 Directives), and the
//! revision history drops `selectable` and `substitutable` (checklist SP-NTPL-04). Any string is
//! accepted; toscana reads `select`/`selectable`, `substitute`/`substitutable` and `create` as
//! TOSCA 2.0 defines them, and warns of any other directive, which nothing reads.
//!
//! And one is a place a keyname may be written though the grammar does not list it there: the
//! metadata keys `template_name`, `template_author` and `template_version` belong under
//! `metadata` (A.9.1.1 Metadata keynames), but A.9.3.2 template_name, A.9.3.3 template_author
//! and A.9.3.4 template_version still show them as top-level keynames (checklist SP-ST-03).
//! They are read there too, with a warning that says where they belong, and join the file's
//! `metadata` ([`metadata_with_top_level`]; a key also under `metadata` keeps that value).

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::{Map, Node};

/// The metadata keys the spec's examples write at the top level of a file (SP-ST-03).
pub(crate) const TOP_LEVEL_METADATA: [&str; 3] =
    ["template_name", "template_author", "template_version"];

/// Warns of each [`TOP_LEVEL_METADATA`] key written at the top level of the file `root`.
pub(super) fn top_level_metadata(root: &Map, diags: &mut Diagnostics) {
    for entry in root.entries() {
        if let Some(key) = entry
            .key
            .as_str()
            .filter(|k| TOP_LEVEL_METADATA.contains(k))
        {
            top_level_key(&entry.key, key, diags);
        }
    }
}

fn top_level_key(key_node: &Node, key: &str, diags: &mut Diagnostics) {
    diags.push(
        Diagnostic::warning(
            codes::TOSCA_UNKNOWN_KEY,
            format!("`{key}` is a metadata key written at the top level of the file; read as `metadata.{key}`"),
        )
        .at_with(key_node.span, "belongs under `metadata`")
        .hint("move it under `metadata:` (A.9.1.1 Metadata keynames: `template_name`, `template_author` and `template_version` are keys of the file's metadata)"),
    );
}

/// The file's `metadata` with the [`TOP_LEVEL_METADATA`] keys written at its top level added
/// (a key `metadata` also has keeps its value there); `None` when there is neither.
pub(crate) fn metadata_with_top_level(root: &Map) -> Option<Node> {
    let written = root.get("metadata");
    let top: Vec<(&Node, &Node)> = root
        .entries()
        .iter()
        .filter(|e| {
            e.key
                .as_str()
                .is_some_and(|k| TOP_LEVEL_METADATA.contains(&k))
        })
        .map(|e| (&e.key, &e.value))
        .collect();
    if top.is_empty() {
        return written.cloned();
    }
    let mut map = written.and_then(Node::as_map).cloned().unwrap_or_default();
    for (key, value) in top {
        if !key.as_str().is_some_and(|k| map.contains_key(k)) {
            let _ = map.insert(key.clone(), value.clone());
        }
    }
    let span = written.map_or(top_span(root), |w| w.span);
    Some(Node {
        span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: crate::yaml::Kind::Map(map),
    })
}

/// Where the first top-level metadata key is written.
fn top_span(root: &Map) -> crate::source::Span {
    root.entries()
        .iter()
        .find(|e| {
            e.key
                .as_str()
                .is_some_and(|k| TOP_LEVEL_METADATA.contains(&k))
        })
        .map(|e| e.key.span)
        .unwrap_or_default()
}

/// The status values of A.5.7.3 Status values.
const STATUS_VALUES: [&str; 4] = ["supported", "unsupported", "experimental", "deprecated"];

/// Reports a `status` that is not one of [`STATUS_VALUES`] (case matters, as for every keyname
/// value the profile lists).
pub(super) fn status(value: &Node, owner: &dyn std::fmt::Display, diags: &mut Diagnostics) {
    let text = value.scalar_text();
    if text.is_some_and(|t| STATUS_VALUES.contains(&t)) {
        return;
    }
    let shown = text.map_or_else(|| value.describe().to_string(), |t| format!("`{t}`"));
    diags.push(
        Diagnostic::error(
            codes::TOSCA_TYPE_MISMATCH,
            format!("the `status` of {owner} is {shown}, which is not a status value"),
        )
        .at_with(value.span, "not a status value")
        .hint(format!(
            "write one of {} (A.5.7.3 Status values)",
            STATUS_VALUES.join(", ")
        )),
    );
}

/// Reports each requirement definition of a type whose name an earlier one already has.
pub(super) fn unique_requirement_names(
    requirements: &Node,
    owner: &dyn std::fmt::Display,
    diags: &mut Diagnostics,
) {
    let Some(items) = requirements.as_seq() else {
        return;
    };
    let mut first: HashMap<&str, &Node> = HashMap::new();
    for key in items
        .iter()
        .filter_map(Node::as_map)
        .flat_map(|m| m.entries())
        .map(|e| &e.key)
    {
        let Some(name) = key.scalar_text() else {
            continue;
        };
        match first.get(name) {
            None => {
                first.insert(name, key);
            }
            Some(earlier) => diags.push(
                Diagnostic::error(
                    codes::TOSCA_DUPLICATE,
                    format!("{owner} defines requirement `{name}` twice"),
                )
                .at_with(key.span, "defined again here")
                .label(earlier.span, "first defined here")
                .hint("requirement names are unique within a type (A.6.2.3 Additional Requirements): rename one, or merge the two definitions"),
            ),
        }
    }
}

/// The node template directives toscana reads in 1.x (the 1.0 drafts' names and TOSCA 2.0's).
const READ_DIRECTIVES: [&str; 5] = [
    "select",
    "selectable",
    "substitute",
    "substitutable",
    "create",
];

/// Warns of each directive of a node template that no reader acts on.
pub(super) fn directives(value: &Node, owner: &dyn std::fmt::Display, diags: &mut Diagnostics) {
    for item in value.as_seq().unwrap_or_default() {
        let Some(text) = item.scalar_text() else {
            continue;
        };
        if READ_DIRECTIVES.contains(&text) {
            continue;
        }
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_UNKNOWN_NAME,
                format!("directive `{text}` of {owner} has no meaning and is ignored"),
            )
            .at(item.span)
            .hint("\"There are currently no directive values defined\" in the Simple Profile (A.3.2 Directives); toscana reads `select`, `substitute` and `create` (and the 1.0 drafts' `selectable`, `substitutable`): remove it, or write one of those"),
        );
    }
}
