//! Code actions: the fixes the diagnostics' hints describe, as edits.
//!
//! - "did you mean `x`?": replace the misspelled name with `x` (only when the diagnostic's
//!   range is that one word, and `x` is a likely typo of it);
//! - a required property not set: add `name: ` under the template's `properties`;
//! - a type (or namespace) no file read defines: import the profile or the workspace file
//!   that defines it ([`super::imports`]).
//!
//! The hint is the one the diagnostic carries (in its `data`, see [`super::diagnostics::Data`]),
//! so a fix is offered exactly where `toscana check` would suggest it.

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Position, Range, TextEdit,
    Uri, WorkspaceEdit,
};

use super::diagnostics::Data;
use super::lines::Lines;
use super::workspace::Workspace;
use crate::diag::closest;

pub fn actions(
    workspace: &Workspace,
    path: &Path,
    params: &CodeActionParams,
) -> Vec<CodeActionOrCommand> {
    let Some(document) = workspace.documents.get(path) else {
        return Vec::new();
    };
    let text = &document.text;
    let lines = Lines::new(text);
    let uri = &params.text_document.uri;
    let mut out = Vec::new();
    for diagnostic in &params.context.diagnostics {
        let hint = diagnostic
            .data
            .clone()
            .and_then(|d| serde_json::from_value::<Data>(d).ok())
            .and_then(|d| d.hint);
        let mut fixes: Vec<(String, TextEdit)> = hint
            .as_deref()
            .and_then(|hint| {
                did_you_mean(&lines, text, diagnostic.range, hint)
                    .or_else(|| required_property(&lines, diagnostic.range, hint))
            })
            .into_iter()
            .collect();
        fixes.extend(super::imports::fixes(
            workspace,
            path,
            &lines,
            diagnostic,
            hint.as_deref(),
        ));
        for (title, edit) in fixes {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic.clone()]),
                edit: Some(one_edit(uri, edit)),
                is_preferred: Some(true),
                ..Default::default()
            }));
        }
    }
    out
}

/// (`lsp_types::Uri` as a key: see [`super::navigate::rename`].)
#[allow(clippy::mutable_key_type)]
fn one_edit(uri: &Uri, edit: TextEdit) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
        ..Default::default()
    }
}

/// The text between the first pair of backquotes after `after` in `hint`.
fn quoted<'h>(hint: &'h str, after: &str) -> Option<&'h str> {
    let rest = &hint[hint.find(after)? + after.len()..];
    let start = rest.find('`')? + 1;
    let end = start + rest[start..].find('`')?;
    Some(&rest[start..end])
}

/// Replaces the word of the diagnostic's range that the hint's suggestion is a likely typo of
/// (the range may hold more: `{ get_input: prot }`).
fn did_you_mean(lines: &Lines, text: &str, range: Range, hint: &str) -> Option<(String, TextEdit)> {
    let suggestion = quoted(hint, "did you mean")?;
    let (start, end) = (lines.offset(range.start), lines.offset(range.end));
    let written = text.get(start..end)?;
    let is_name = |c: char| c.is_alphanumeric() || "_-.:$".contains(c);
    let mut words = written
        .match_indices(|c: char| !is_name(c))
        .map(|(i, _)| i)
        .chain([written.len()])
        .scan(0, |from, to| {
            let word = (*from, &written[*from..to]);
            *from = to + 1;
            Some(word)
        })
        .filter(|(_, w)| !w.is_empty() && *w != suggestion && closest(w, &[suggestion]).is_some());
    let (at, word) = words.next()?;
    if words.next().is_some() {
        return None;
    }
    let range = Range::new(
        lines.position(start + at),
        lines.position(start + at + word.len()),
    );
    Some((
        format!("Replace `{word}` with `{suggestion}`"),
        TextEdit {
            range,
            new_text: suggestion.to_string(),
        },
    ))
}

/// The indentation of a line, in spaces.
fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn required_property(lines: &Lines, range: Range, hint: &str) -> Option<(String, TextEdit)> {
    if !hint.starts_with("add `") || !hint.contains("under `properties`") {
        return None;
    }
    let name = quoted(hint, "add")?.split(':').next()?.trim().to_string();
    // The template's block: the lines after its name indented deeper than it.
    let first = range.start.line;
    let own = indentation(lines.line(first));
    let mut line = first + 1;
    let mut child_indent = None;
    let mut properties = None;
    loop {
        let text = lines.line(line);
        if text.trim().is_empty() {
            if lines.line_start(line + 1) == lines.line_start(line) {
                break;
            }
            line += 1;
            continue;
        }
        let indent = indentation(text);
        if indent <= own {
            break;
        }
        child_indent.get_or_insert(indent);
        if Some(indent) == child_indent && text.trim_start().starts_with("properties:") {
            properties = Some((line, indent));
        }
        line += 1;
    }
    let child = child_indent.unwrap_or(own + 2);
    let (at, new_text) = match properties {
        Some((line, indent)) => (
            line + 1,
            format!("{}{name}: \n", " ".repeat(indent + child - own)),
        ),
        None => (
            first + 1,
            format!(
                "{}properties:\n{}{name}: \n",
                " ".repeat(child),
                " ".repeat(child + child - own)
            ),
        ),
    };
    let position = Position::new(at, 0);
    Some((
        format!("Add the required property `{name}`"),
        TextEdit {
            range: Range::new(position, position),
            new_text,
        },
    ))
}
