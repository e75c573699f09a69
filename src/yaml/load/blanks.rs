//! Tabs and non-breaking spaces in indentation, found by a pre-scan of the lines so that every
//! line with one is reported, not only the first the scanner stops at.

use crate::diag::{Diagnostic, codes};
use crate::source::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Blank {
    Tab,
    Nbsp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BlankProblem {
    pub(super) kind: Blank,
    /// Byte offset of the offending character.
    pub(super) offset: usize,
}

/// Finds tabs and non-breaking spaces in the leading whitespace of lines, one per line, skipping
/// the content lines of block scalars (`|`, `>`), where both are text.
///
/// Tabs are only reported when the scanner failed too: a tab after the indentation proper (in a
/// flow collection, before a continuation line) is valid YAML. A non-breaking space is never
/// whitespace to YAML, so it silently becomes part of a key or value: always reported.
pub(super) fn prescan(text: &str) -> Vec<BlankProblem> {
    let mut problems = Vec::new();
    // Inside a block scalar: the indentation of the line that started it.
    let mut block_parent: Option<usize> = None;
    let bytes = text.as_bytes();
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = memchr_newline(bytes, line_start);
        let line = &bytes[line_start..line_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let spaces = line.iter().take_while(|&&b| b == b' ').count();
        let mut i = 0;
        let mut tab = None;
        let mut nbsp = None;
        loop {
            match line.get(i) {
                Some(b' ') => i += 1,
                Some(b'\t') => {
                    tab.get_or_insert(line_start + i);
                    i += 1;
                }
                Some(0xC2) if line.get(i + 1) == Some(&0xA0) => {
                    nbsp.get_or_insert(line_start + i);
                    i += 2;
                }
                _ => break,
            }
        }
        let rest = &line[i..];
        let blank = rest.is_empty();
        let in_block = match block_parent {
            Some(parent) => blank || spaces > parent,
            None => false,
        };
        if !in_block {
            block_parent = None;
            if let Some(offset) = nbsp {
                problems.push(BlankProblem {
                    kind: Blank::Nbsp,
                    offset,
                });
            }
            if let Some(offset) = tab
                && !blank
                && rest.first() != Some(&b'#')
            {
                problems.push(BlankProblem {
                    kind: Blank::Tab,
                    offset,
                });
            }
            if starts_block_scalar(rest) {
                block_parent = Some(spaces);
            }
        }
        line_start = line_end + 1;
    }
    problems
}

/// The end of the line starting at `from`: its newline, or the end of the text. `memchr`, since
/// the pre-scan reads every line of every file (a byte-at-a-time search was 2% of `check`).
fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |p| from + p)
}

/// Whether a line's content ends with a block scalar header (`key: |`, `- >-`, `|2`), comments
/// aside. A heuristic for the pre-scan only: a wrong guess hides a report, never adds one.
fn starts_block_scalar(content: &[u8]) -> bool {
    // Most lines hold neither indicator: answered without the search for a comment below.
    if memchr::memchr2(b'|', b'>', content).is_none() {
        return false;
    }
    let mut content = content;
    if let Some(pos) = content.windows(2).position(|w| w == b" #") {
        content = &content[..pos];
    }
    let content = content.trim_ascii_end();
    let header_start = content
        .iter()
        .rposition(|&b| b == b' ' || b == b'\t')
        .map_or(0, |p| p + 1);
    let header = &content[header_start..];
    match header.split_first() {
        Some((b'|' | b'>', modifiers)) => modifiers
            .iter()
            .all(|&b| b == b'-' || b == b'+' || b.is_ascii_digit()),
        _ => false,
    }
}

pub(super) fn tab_diagnostic(span: Span) -> Diagnostic {
    Diagnostic::error(codes::YAML_TAB_INDENT, "tab character in indentation")
        .at_with(span, "tab")
        .hint("YAML indents with spaces only; replace the tab with spaces")
}
