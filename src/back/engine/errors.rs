//! Tera's errors as diagnostics: at the template's line and column, or at an output path's
//! place in the mapping file.

use std::collections::HashMap;

use tera::ErrorKind;

use crate::diag::{Diagnostic, codes};
use crate::source::{FileId, SourceFile, Span};

/// A Tera error in an output path: the message, at the path's span in the mapping file.
pub(super) fn path_error(e: &tera::Error, span: Span) -> Diagnostic {
    let message = match e.kind() {
        ErrorKind::SyntaxError(r) | ErrorKind::RenderingError(r) => r.message().to_string(),
        _ => first_line(&e.to_string()),
    };
    Diagnostic::error(
        codes::BACKEND_TEMPLATE,
        format!("in this output path: {message}"),
    )
    .at(span)
}

/// A Tera error as a diagnostic that names the template and line, at the template's span when
/// the template is one of ours.
pub(super) fn tera_error(
    e: &tera::Error,
    files: &HashMap<String, (FileId, SourceFile)>,
) -> Diagnostic {
    let (name, message, location) = match e.kind() {
        ErrorKind::SyntaxError(r) | ErrorKind::RenderingError(r) => {
            let range = r.span().range.clone();
            (
                r.filename().to_string(),
                r.message().to_string(),
                Some(Where::Bytes(range.start, range.end, r.span().start_line)),
            )
        }
        ErrorKind::Msg(text) => match locate(text) {
            Some((name, line, col)) => (name, first_line(text), Some(Where::LineCol(line, col))),
            None => (String::new(), first_line(text), None),
        },
        ErrorKind::TemplateNotFound(name) => (name.clone(), e.to_string(), None),
        _ => (String::new(), e.to_string(), None),
    };
    let mut message = message;
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        message.push_str(&format!(": {c}"));
        cause = c.source();
    }
    let file = files.get(&name);
    let span = file
        .zip(location.as_ref())
        .map(|((id, f), w)| w.span(*id, f));
    let shown = file.map_or(name.as_str(), |(_, f)| f.name.as_str());
    let text = match (span, &location) {
        (Some(s), _) => format!("template `{shown}` line {}: {message}", s.line),
        (None, Some(Where::Bytes(_, _, line)) | Some(Where::LineCol(line, _)))
            if !name.is_empty() =>
        {
            format!("template `{shown}` line {line}: {message}")
        }
        _ if !name.is_empty() => format!("template `{shown}`: {message}"),
        _ => format!("template error: {message}"),
    };
    let mut d = Diagnostic::error(codes::BACKEND_TEMPLATE, text);
    if let Some(span) = span {
        d = d.at(span);
    }
    d
}

/// A place in a template as Tera reports it.
enum Where {
    /// A byte range and its 1-based line.
    Bytes(usize, usize, usize),
    /// 1-based line, 1-based column (characters).
    LineCol(usize, usize),
}

impl Where {
    fn span(&self, id: FileId, file: &SourceFile) -> Span {
        let text = &*file.text;
        let clamp = |mut i: usize| {
            i = i.min(text.len());
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let (start, end) = match *self {
            Where::Bytes(s, e, _) => (clamp(s), clamp(e.max(s))),
            Where::LineCol(line, col) => {
                let line_start = text
                    .split_inclusive('\n')
                    .take(line.saturating_sub(1))
                    .map(str::len)
                    .sum::<usize>();
                let rest = &text[clamp(line_start)..];
                let offset = rest
                    .char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(rest.len(), |(i, _)| i);
                let s = clamp(line_start + offset);
                (s, s)
            }
        };
        file.span(id, start as u32, end.max(start) as u32)
    }
}

/// The first `--> name:line:col` of a Tera report.
fn locate(report: &str) -> Option<(String, usize, usize)> {
    let at = report.find("--> ")?;
    let rest = report[at + 4..].lines().next()?;
    let (head, col) = rest.rsplit_once(':')?;
    let (name, line) = head.rsplit_once(':')?;
    Some((
        name.to_string(),
        line.trim().parse().ok()?,
        col.trim().parse().ok()?,
    ))
}

/// The first line of a Tera report, without its `error: ` prefix.
fn first_line(report: &str) -> String {
    let line = report.lines().next().unwrap_or(report);
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}
