//! Anchors and aliases: an alias is a copy of its anchored subtree, charged to the file's alias
//! budget in nodes and bytes.

use super::{Fatal, Loader};
use crate::diag::{Diagnostic, codes};

/// What an alias of a subtree copies: its nodes, and the bytes of its scalars' text (one long
/// scalar referenced by many aliases costs little in nodes and much in memory).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Cost {
    pub(super) nodes: usize,
    pub(super) bytes: u64,
}

impl Cost {
    pub(super) const ONE: Cost = Cost { nodes: 1, bytes: 0 };

    pub(super) fn scalar(text: &str) -> Cost {
        Cost {
            nodes: 1,
            bytes: text.len() as u64,
        }
    }

    pub(super) fn plus(self, other: Cost) -> Cost {
        Cost {
            nodes: self.nodes.saturating_add(other.nodes),
            bytes: self.bytes.saturating_add(other.bytes),
        }
    }
}

impl Loader<'_> {
    pub(super) fn alias(&mut self, id: usize, start: usize, end: usize) -> Result<(), Fatal> {
        let span = self.loc.span(start, end);
        let name = self.text.get(span.range()).unwrap_or("*");
        let Some((node, size)) = self.anchors.get(&id) else {
            self.out.push(
                Diagnostic::error(
                    codes::YAML_SYNTAX,
                    format!("alias `{name}` refers to a collection that contains it"),
                )
                .at_with(span, "recursive alias")
                .hint("a node cannot contain itself; copy the content instead"),
            );
            return Err(Fatal);
        };
        let size = *size;
        let total = self.expanded.plus(size);
        if total.bytes > self.limits.max_alias_bytes {
            self.out.push(
                Diagnostic::error(
                    codes::YAML_ALIAS_BUDGET,
                    format!(
                        "alias `{name}` expands the document past the limit of {} bytes of text copied by aliases",
                        self.limits.max_alias_bytes
                    ),
                )
                .at_with(span, format!("this alias copies {} bytes", size.bytes))
                .hint(format!(
                    "every alias of a long scalar is a copy of it; write it once, or keep it in an artifact file; {}",
                    crate::limits::Limit::AliasBytes.hint()
                )),
            );
            return Err(Fatal);
        }
        if total.nodes > self.limits.max_alias_expansion {
            self.out.push(
                Diagnostic::error(
                    codes::YAML_ALIAS_BUDGET,
                    format!(
                        "alias `{name}` expands the document past the limit of {} nodes created by aliases",
                        self.limits.max_alias_expansion
                    ),
                )
                .at_with(span, format!("this alias adds {} nodes", size.nodes))
                .hint(
                    "aliases that refer to aliases multiply (a \"billion laughs\" document); \
                     write the content out or reduce the nesting of aliases",
                ),
            );
            return Err(Fatal);
        }
        let mut copy = node.clone();
        copy.span = span;
        self.count(size.nodes, start)?;
        self.expanded = total;
        self.attach(copy, size);
        Ok(())
    }
}
