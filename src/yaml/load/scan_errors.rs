//! The scanner's errors as diagnostics: a readable message and, where the cause can be told, a
//! hint.

use granit_parser::ErrorKind;

use super::blanks::tab_diagnostic;
use crate::diag::{Diagnostic, codes};
use crate::source::Span;

/// A diagnostic's code, message and hint.
type Explained = (&'static str, String, Option<String>);

/// A readable message and, where the cause can be told, a hint for a scanner error.
pub(super) fn scan_diagnostic(kind: &ErrorKind, span: Span) -> Diagnostic {
    if matches!(
        kind,
        ErrorKind::TabInBlockIndentation
            | ErrorKind::TabInIndentation
            | ErrorKind::TabAtBlockScalarStart
    ) {
        return tab_diagnostic(span);
    }
    let (code, message, hint) = block_structure(kind)
        .or_else(|| flow_collection(kind))
        .or_else(|| scalar_text(kind))
        .unwrap_or_else(|| unexplained(kind));
    let mut d = Diagnostic::error(code, message).at(span);
    if let Some(hint) = hint {
        d = d.hint(hint);
    }
    d
}

/// Errors in the block structure: indentation, keys, list entries, nesting, documents.
fn block_structure(kind: &ErrorKind) -> Option<Explained> {
    let indent_hint = "check the indentation: the keys of one mapping, and the `-` entries of one \
                       list, must start in the same column";
    Some(match kind {
        ErrorKind::RecursionLimitExceeded => (
            codes::YAML_DEPTH,
            "collections nest too deeply here".into(),
            Some("flatten the structure; no TOSCA construct needs this much nesting".into()),
        ),
        ErrorKind::MappingValueNotAllowed => (
            codes::YAML_SYNTAX,
            "a `:` that starts a mapping value is not allowed here".into(),
            Some(
                "this usually means a missing space after `:` on a key, a wrong indentation, or a \
                 plain value containing `: ` that needs quotes"
                    .into(),
            ),
        ),
        ErrorKind::ExpectedBlockMappingKey => (
            codes::YAML_SYNTAX,
            "expected a key of the enclosing mapping here".into(),
            Some(indent_hint.into()),
        ),
        ErrorKind::ExpectedBlockSequenceEntry => (
            codes::YAML_SYNTAX,
            "expected a `-` entry of the enclosing list here".into(),
            Some(indent_hint.into()),
        ),
        ErrorKind::InvalidIndentation | ErrorKind::InvalidBlockScalarIndent => (
            codes::YAML_SYNTAX,
            "invalid indentation".into(),
            Some(indent_hint.into()),
        ),
        ErrorKind::BlockSequenceEntryNotAllowed => (
            codes::YAML_SYNTAX,
            "a `- ` list entry is not allowed here".into(),
            Some(
                "a list under a key starts on the next line; check that this entry is indented \
                 like its siblings"
                    .into(),
            ),
        ),
        ErrorKind::SimpleKeyExpected | ErrorKind::InvalidSimpleKey => (
            codes::YAML_SYNTAX,
            "a key is not followed by `:`".into(),
            Some(
                "a key must be on one line, at most 1024 characters long, and followed by `:`; \
                 check for an unclosed quote or bracket"
                    .into(),
            ),
        ),
        ErrorKind::ExpectedNodeContent => {
            (codes::YAML_SYNTAX, "expected a value here".into(), None)
        }
        ErrorKind::UnknownAnchor => (
            codes::YAML_SYNTAX,
            "unknown alias".into(),
            Some("define the anchor (`&name`) before the alias (`*name`)".into()),
        ),
        ErrorKind::InvalidDocumentEnd => (
            codes::YAML_SYNTAX,
            "unexpected content after the document end marker `...`".into(),
            None,
        ),
        _ => return None,
    })
}

/// Errors in flow collections (`[ … ]`, `{ … }`).
fn flow_collection(kind: &ErrorKind) -> Option<Explained> {
    Some(match kind {
        ErrorKind::UnclosedFlowCollection { open } => (
            codes::YAML_SYNTAX,
            format!("`{open}` is never closed"),
            Some(format!("add the matching `{}`", closing(*open))),
        ),
        ErrorKind::MismatchedFlowCollectionEnd { open, close } => (
            codes::YAML_SYNTAX,
            format!("`{open}` is closed by `{close}`"),
            Some(format!("close `{open}` with `{}`", closing(*open))),
        ),
        ErrorKind::MisplacedFlowCollectionEnd => (
            codes::YAML_SYNTAX,
            "a closing bracket without a matching opening one".into(),
            Some("remove it, or quote the value if the bracket is text".into()),
        ),
        ErrorKind::UnexpectedEofFlowSequence => (
            codes::YAML_SYNTAX,
            "the file ends inside a flow list `[ … ]`".into(),
            Some("add the missing `]`".into()),
        ),
        ErrorKind::UnexpectedEofFlowMapping | ErrorKind::UnexpectedEofImplicitFlowMapping => (
            codes::YAML_SYNTAX,
            "the file ends inside a flow mapping `{ … }`".into(),
            Some("add the missing `}`".into()),
        ),
        ErrorKind::ExpectedFlowSequenceSeparator => (
            codes::YAML_SYNTAX,
            "expected `,` or `]` in this flow list".into(),
            Some("separate the entries with commas and close the list with `]`".into()),
        ),
        ErrorKind::ExpectedFlowMappingSeparator => (
            codes::YAML_SYNTAX,
            "expected `,` or `}` in this flow mapping".into(),
            Some("separate the entries with commas and close the mapping with `}`".into()),
        ),
        ErrorKind::InvalidColonPlacement | ErrorKind::FlowMappingValueAdjacentCollection => (
            codes::YAML_SYNTAX,
            "a `:` is misplaced inside a flow collection".into(),
            Some(
                "check for an unclosed `[` or `{` on an earlier line, or quote a value that \
                 contains `:`"
                    .into(),
            ),
        ),
        _ => return None,
    })
}

/// Errors in the text of a scalar: quotes, escapes, characters, comments.
fn scalar_text(kind: &ErrorKind) -> Option<Explained> {
    Some(match kind {
        ErrorKind::UnclosedQuotedScalar | ErrorKind::InvalidQuotedScalarIndent => (
            codes::YAML_SYNTAX,
            "a quoted string is not closed, or its next line is not indented enough".into(),
            Some(
                "close the quote; a quoted string that continues on the next lines must indent \
                 them more than its key"
                    .into(),
            ),
        ),
        ErrorKind::UnexpectedCharacter { character } => {
            let hint = match character {
                '@' | '`' => {
                    format!("`{character}` cannot start a plain value in YAML; quote the value")
                }
                _ => "quote the value if this character is meant as text".into(),
            };
            (
                codes::YAML_SYNTAX,
                format!("unexpected character `{}`", character.escape_default()),
                Some(hint),
            )
        }
        ErrorKind::UnknownQuotedScalarEscape
        | ErrorKind::InvalidQuotedScalarHexEscape
        | ErrorKind::InvalidUnicodeEscape => (
            codes::YAML_SYNTAX,
            "invalid escape sequence in a double-quoted string".into(),
            Some(
                "write `\\\\` for a backslash, or use single quotes, where a backslash is plain \
                 text"
                    .into(),
            ),
        ),
        ErrorKind::CommentNotSeparated => (
            codes::YAML_SYNTAX,
            "a `#` comment must follow a space".into(),
            Some("put a space before `#`, or quote the value if `#` is text".into()),
        ),
        ErrorKind::CommentInterceptedScalar => (
            codes::YAML_SYNTAX,
            "a comment interrupts a multi-line plain value".into(),
            Some("quote the value, or move the comment".into()),
        ),
        _ => return None,
    })
}

/// Any other scanner error, in the scanner's own words.
fn unexplained(kind: &ErrorKind) -> Explained {
    let detail = kind.to_string();
    let message = if detail.is_empty() {
        format!("invalid YAML ({kind:?})")
    } else {
        format!("invalid YAML: {detail}")
    };
    (codes::YAML_SYNTAX, message, None)
}

fn closing(open: char) -> char {
    match open {
        '[' => ']',
        '{' => '}',
        other => other,
    }
}
