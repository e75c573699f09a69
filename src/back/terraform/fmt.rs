//! The layout `terraform fmt` gives a file, applied to what the templates render, and the
//! `hcl-edit` parse that every file passes before it is written.
//!
//! Tera cannot align, so templates write one statement per line with any indentation; this pass
//! then does what `terraform fmt` does to such text:
//!
//! - indentation is two spaces per open `{`, `[` or `(`, recomputed from the brackets (brackets
//!   inside strings and `${...}` interpolations do not count);
//! - the `=` of consecutive single-line attributes at the same level are aligned; a blank line, a
//!   block, a comment or a multi-line attribute ends the run;
//! - trailing spaces go, blank lines never open or close a block, at most one blank line in a
//!   row, and the file ends with exactly one newline.
//!
//! The generated files have no heredocs (multi-line strings are written with `\n`); a heredoc a
//! template of your own writes is kept as it is, as `terraform fmt` keeps it.
//! The golden tests check the result against `terraform fmt -check` itself.

/// Formats rendered HCL.
pub fn format(text: &str) -> String {
    // Each line trimmed, except heredoc bodies and their closing markers, which are verbatim.
    let mut lines: Vec<(&str, bool)> = Vec::new();
    let mut heredoc: Option<&str> = None;
    for raw in text.lines() {
        if let Some(marker) = heredoc {
            if raw.trim() == marker {
                heredoc = None;
            }
            lines.push((raw, true));
            continue;
        }
        let line = raw.trim();
        heredoc = heredoc_marker(line);
        lines.push((line, false));
    }
    // Drop blank lines after an opener, before a closer, and runs of blank lines.
    let mut kept: Vec<(&str, bool)> = Vec::with_capacity(lines.len());
    for (i, &(line, verbatim)) in lines.iter().enumerate() {
        if line.is_empty() && !verbatim {
            let prev = kept.last().copied();
            let next = lines[i + 1..].iter().find(|l| !l.0.is_empty());
            let after_open = prev.is_none_or(|(p, v)| !v && (p.is_empty() || opens(p)));
            let before_close = next.is_none_or(|(n, v)| !v && starts_with_closer(n));
            if after_open || before_close {
                continue;
            }
        }
        kept.push((line, verbatim));
    }
    let mut depth: i64 = 0;
    let mut rows: Vec<Row> = Vec::with_capacity(kept.len());
    for (line, verbatim) in kept {
        if verbatim {
            rows.push(Row {
                indent: 0,
                text: line,
                assign: None,
                verbatim: true,
            });
            continue;
        }
        let scan = scan(line);
        let indent = (depth - scan.leading_closers).max(0) as usize;
        let single = scan.net == 0 && scan.leading_closers == 0 && !line.starts_with('#');
        let assign = if single { scan.assign } else { None };
        rows.push(Row {
            indent,
            text: line,
            assign,
            verbatim: false,
        });
        depth = (depth + scan.net).max(0);
    }
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut i = 0;
    while i < rows.len() {
        // A run of single-line attributes at one level; heredoc bodies belong to their
        // attribute and do not end the run.
        let mut j = i;
        while j < rows.len()
            && (rows[j].verbatim || (rows[j].assign.is_some() && rows[j].indent == rows[i].indent))
        {
            j += 1;
        }
        if j > i && rows[i].assign.is_some() {
            let width = rows[i..j]
                .iter()
                .filter(|r| !r.verbatim)
                .map(|r| r.text[..r.assign.unwrap_or(0)].trim_end().chars().count())
                .max()
                .unwrap_or(0);
            for row in &rows[i..j] {
                if row.verbatim {
                    out.push_str(row.text);
                    out.push('\n');
                    continue;
                }
                let at = row.assign.unwrap_or(0);
                let key = row.text[..at].trim_end();
                let value = row.text[at + 1..].trim_start();
                push_indent(&mut out, row.indent);
                out.push_str(key);
                for _ in key.chars().count()..width {
                    out.push(' ');
                }
                out.push_str(" = ");
                out.push_str(value);
                out.push('\n');
            }
            i = j;
            continue;
        }
        let row = &rows[i];
        if row.verbatim {
            out.push_str(row.text);
        } else if !row.text.is_empty() {
            push_indent(&mut out, row.indent);
            out.push_str(row.text);
        }
        out.push('\n');
        i += 1;
    }
    out
}

/// The marker of a heredoc this line opens (`<<EOT`, `<<-EOT` at its end), if any.
fn heredoc_marker(line: &str) -> Option<&str> {
    // Most lines have no `<` at all, which a byte search says at once.
    if !line.contains('<') {
        return None;
    }
    let code = line.split('#').next().unwrap_or(line).trim_end();
    let at = code.rfind("<<")?;
    let marker = code[at + 2..].trim_start_matches('-');
    let valid = !marker.is_empty()
        && marker
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && marker
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    // `<<` inside a string is no heredoc.
    let quotes = code[..at].matches('"').count() - code[..at].matches("\\\"").count();
    (valid && quotes.is_multiple_of(2)).then_some(marker)
}

struct Row<'a> {
    indent: usize,
    text: &'a str,
    /// Byte offset of the attribute's `=`, for single-line attributes.
    assign: Option<usize>,
    /// A heredoc body line or closing marker, written as it came.
    verbatim: bool,
}

fn push_indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn opens(line: &str) -> bool {
    let s = scan(line);
    s.net > 0
}

fn starts_with_closer(line: &str) -> bool {
    matches!(line.chars().next(), Some('}' | ']' | ')'))
}

struct Scan {
    /// Openers minus closers outside strings.
    net: i64,
    /// Closers before anything else on the line.
    leading_closers: i64,
    /// The first `=` at bracket level 0 that is an assignment (not `==`, `!=`, `<=`, `>=`, `=>`).
    assign: Option<usize>,
}

/// Brackets and the assignment of one line, skipping strings with their interpolations and
/// comments.
fn scan(line: &str) -> Scan {
    // The strings and `${` interpolations open around the byte being read. They alternate (a
    // string opens in code, an interpolation in a string), so their count says which one is
    // innermost: a string when it is odd, code (top-level or interpolated) when it is even.
    // Counted rather than kept as a stack, which was an allocation for every line.
    let mut open: usize = 0;
    let mut interp_depth: Vec<i64> = Vec::new();
    let mut level: i64 = 0;
    let mut net: i64 = 0;
    let mut leading_closers: i64 = 0;
    let mut leading = true;
    let mut assign = None;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let in_str = open % 2 == 1;
        if in_str {
            match c {
                b'\\' => i += 1,
                b'"' => open -= 1,
                b'$' | b'%' if bytes.get(i + 1) == Some(&b'{') => {
                    if i > 0 && bytes[i - 1] == c {
                        // `$${` is a literal `${`.
                    } else {
                        open += 1;
                        interp_depth.push(0);
                        i += 1;
                    }
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        let top_level = open == 0;
        match c {
            b'#' if top_level => break,
            b'/' if top_level && bytes.get(i + 1) == Some(&b'/') => break,
            b'"' => {
                leading = false;
                open += 1;
            }
            b'{' | b'[' | b'(' => {
                leading = false;
                if top_level {
                    net += 1;
                    level += 1;
                } else if let Some(d) = interp_depth.last_mut() {
                    *d += 1;
                }
            }
            b'}' | b']' | b')' => {
                if !top_level {
                    if let Some(d) = interp_depth.last_mut() {
                        if *d == 0 && c == b'}' {
                            interp_depth.pop();
                            open -= 1;
                        } else {
                            *d -= 1;
                        }
                    }
                } else {
                    net -= 1;
                    level -= 1;
                    if leading {
                        leading_closers += 1;
                    }
                }
            }
            b'=' if top_level && level == 0 && assign.is_none() => {
                leading = false;
                let prev = if i > 0 { bytes[i - 1] } else { b' ' };
                let next = bytes.get(i + 1).copied().unwrap_or(b' ');
                if !matches!(prev, b'=' | b'!' | b'<' | b'>') && !matches!(next, b'=' | b'>') {
                    assign = Some(i);
                }
            }
            b' ' | b'\t' => {}
            _ => leading = false,
        }
        i += 1;
    }
    Scan {
        net,
        leading_closers,
        assign,
    }
}

/// Parses `text` as an HCL body with `hcl-edit`; the error names the line and column.
pub fn parse_check(text: &str) -> Result<hcl_edit::structure::Body, String> {
    text.parse::<hcl_edit::structure::Body>()
        .map_err(|e| e.to_string())
}
