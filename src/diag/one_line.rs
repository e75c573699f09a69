//! The snippet of a diagnostic with one label on one line of plain text, drawn here as miette
//! draws it.
//!
//! Most diagnostics of a big template have this shape: a primary span on one line, no other
//! label, lines of printable ASCII around it, a hint that fits on its line. miette lays every
//! snippet out in general (multi-line spans, gutters, tab stops, Unicode widths, styles), about
//! 27,000 instructions a warning: printing the 14,003 warnings of `tosca2tf` at 10,000 nodes
//! took 0.48 G instructions in miette, a tenth of the run. For this shape the layout is a few
//! fixed lines, so [`body`] writes them directly; every other diagnostic, and every coloured
//! one, still goes through miette.
//!
//! The lines are miette 7.6's, byte for byte (its `GraphicalReportHandler` with the unicode
//! theme without colour, one line of context, no wrapping): a header `╭─[file:line:col]`, the
//! line before the span's, the span's line, its underline (`┬` at the middle when the label
//! has a text, then `╰── text` under it), the line after, the closing `╰────` and
//! `  help: hint`. Debug builds draw every such snippet with miette as well and compare the two
//! (`Human::render`), so every test that prints a diagnostic checks this layout.

use std::fmt::Write as _;

use crate::span::{SourceFile, SourceMap, shows_whole};

/// The snippet and help lines miette draws for `d` (its report without the first line, which
/// `render_with` replaces), or `None` when `d` is not of the shape drawn here: one label, the
/// primary, within one line of a file without lone carriage returns; the lines shown printable
/// ASCII with `\n` line ends; the label text on one line; the hint, if any, one that miette does
/// not wrap (`hint_fits`).
pub(super) fn body(d: &super::Diagnostic, sources: &SourceMap, hint_fits: bool) -> Option<String> {
    let span = d.span?;
    if !d.labels.is_empty() || !hint_fits {
        return None;
    }
    let label = d.span_label.as_deref();
    if label.is_some_and(|l| l.contains('\n')) {
        return None;
    }
    let file = sources.get(span.file);
    let start = span.start as usize;
    let end = span.end.max(span.start) as usize;
    // miette's label is never empty (`labeled`): an empty span marks one character.
    let marked_end = start + (end - start).max(1);
    if file.bare_cr || !shows_whole(file, &[(start, end)]) {
        return None;
    }
    let line = file.line_index(span.start);
    let (line_start, line_end) = line_text(file, line)?;
    if marked_end > line_end {
        return None;
    }
    // One line of context either side: the line before, if any, and the line after, if any
    // byte follows this line's break.
    let first = line.saturating_sub(1);
    let after = file.line_start_or_end(line + 1) < file.text.len();
    let last = if after { line + 1 } else { line };
    let mut texts = Vec::with_capacity(3);
    for n in first..=last {
        let (from, to) = line_text(file, n)?;
        texts.push((n, &file.text[from..to]));
    }
    let width = (last + 1).to_string().len();
    let mut out = String::with_capacity(256);
    let _ = writeln!(
        out,
        "{:pad$}╭─[{}:{}:{}]",
        "",
        file.name,
        line + 1,
        start - line_start + 1,
        pad = width + 2
    );
    for (n, text) in texts {
        let _ = writeln!(out, " {:>width$} │ {text}", n + 1);
        if n == line {
            underline(
                &mut out,
                width,
                start - line_start,
                marked_end - line_start,
                label,
            );
        }
    }
    let _ = writeln!(out, "{:pad$}╰────", "", pad = width + 2);
    if let Some(hint) = &d.hint {
        let _ = writeln!(out, "  help: {hint}");
    }
    Some(out)
}

/// The byte range of line `n`'s text, without its `\n`; `None` when that text is not printable
/// ASCII (a tab, which miette expands, a carriage return, which it drops before a `\n`, or any
/// character wider or narrower than one column).
fn line_text(file: &SourceFile, n: usize) -> Option<(usize, usize)> {
    let from = file.line_start(n);
    let mut to = file.line_start_or_end(n + 1);
    if to > from && file.text.as_bytes()[to - 1] == b'\n' {
        to -= 1;
    }
    file.text.as_bytes()[from..to]
        .iter()
        .all(|b| (b' '..=b'~').contains(b))
        .then_some((from, to))
}

/// The underline of columns `start..end` (0-based, `end` past the last) and the label's text
/// below it, as miette's `render_single_line_highlights` draws one label.
fn underline(out: &mut String, width: usize, start: usize, end: usize, label: Option<&str>) {
    let middle = (start + end) / 2;
    let _ = write!(out, " {:width$} · {:start$}", "", "");
    for _ in start..middle {
        out.push('─');
    }
    out.push(if label.is_some() { '┬' } else { '─' });
    for _ in middle + 1..end {
        out.push('─');
    }
    out.push('\n');
    if let Some(text) = label {
        let _ = writeln!(out, " {:width$} · {:middle$}╰── {text}", "", "");
    }
}
