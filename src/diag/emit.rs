//! Printing diagnostics: the human and JSON formats, the size limits on what is printed.

use super::human::Human;
use super::*;

/// How diagnostics are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum MessageFormat {
    /// Snippets with the offending line underlined.
    #[default]
    Human,
    /// One JSON object per line.
    Json,
}

/// Prints diagnostics to `out` in the chosen format. `color` applies to the human format only.
///
/// At most `max_bytes` are printed (`--max-diagnostics-size`): the diagnostic that would pass
/// them is left out with all after it, and one last diagnostic says how many. Each message,
/// hint and label is at most [`MAX_TEXT`] bytes (see [`shortened`]), so one diagnostic that
/// quotes a megabyte value does not fill the output alone.
pub fn emit(
    out: &mut dyn Write,
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    format: MessageFormat,
    color: bool,
    max_bytes: u64,
) -> io::Result<()> {
    let human = Human::new(color);
    let render = |d: &Diagnostic| -> String {
        let d = printable(d, format);
        match format {
            MessageFormat::Json => {
                let mut line = serde_json::to_string(&JsonDiagnostic::new(&d, sources))
                    .expect("a diagnostic always serialises");
                line.push('\n');
                line
            }
            MessageFormat::Human => {
                let mut text = human.render(&d, sources);
                text.push('\n');
                text
            }
        }
    };
    let mut written: u64 = 0;
    for (i, d) in diagnostics.iter().enumerate() {
        let text = render(d);
        if written.saturating_add(text.len() as u64) > max_bytes {
            let left = &diagnostics[i..];
            let errors = left.iter().filter(|d| d.is_error()).count();
            let note = Diagnostic::warning(
                codes::TOO_MUCH_OUTPUT,
                format!(
                    "{} more diagnostic{} not shown ({errors} error{}): the diagnostics printed reached the limit of {max_bytes} bytes",
                    left.len(),
                    plural(left.len() as u64),
                    plural(errors as u64),
                ),
            )
            .hint(crate::limits::Limit::DiagnosticBytes.hint());
            out.write_all(render(&note).as_bytes())?;
            return Ok(());
        }
        out.write_all(text.as_bytes())?;
        written += text.len() as u64;
    }
    Ok(())
}

/// Longest message, hint or label text printed, in bytes.
pub const MAX_TEXT: usize = 4096;

/// `d` as it is printed: every text at most [`MAX_TEXT`] bytes, and, for people, with the
/// characters a terminal would obey (escape sequences, bidirectional overrides) shown by
/// their pictures. JSON escapes control characters itself.
fn printable(d: &Diagnostic, format: MessageFormat) -> std::borrow::Cow<'_, Diagnostic> {
    let human = format == MessageFormat::Human;
    let fix = |text: &str| -> Option<String> {
        let short = shortened(text);
        let shown = if human {
            match visible(&short) {
                std::borrow::Cow::Borrowed(_) => short,
                std::borrow::Cow::Owned(o) => o.into(),
            }
        } else {
            short
        };
        match shown {
            std::borrow::Cow::Borrowed(_) => None,
            std::borrow::Cow::Owned(o) => Some(o),
        }
    };
    let texts = std::iter::once(&d.message)
        .chain(&d.hint)
        .chain(&d.span_label)
        .chain(d.labels.iter().map(|l| &l.message))
        .chain(d.file.iter().map(|f| &f.path));
    if texts.into_iter().all(|t| fix(t).is_none()) {
        return std::borrow::Cow::Borrowed(d);
    }
    let mut d = d.clone();
    let texts = std::iter::once(&mut d.message)
        .chain(&mut d.hint)
        .chain(&mut d.span_label)
        .chain(d.labels.iter_mut().map(|l| &mut l.message))
        .chain(d.file.iter_mut().map(|f| &mut f.path));
    for text in texts {
        if let Some(fixed) = fix(text) {
            *text = fixed;
        }
    }
    std::borrow::Cow::Owned(d)
}

/// `text` cut to at most [`MAX_TEXT`] bytes when it is longer: its start and end kept (at
/// character boundaries), the middle said to be left out.
pub fn shortened(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_TEXT {
        return std::borrow::Cow::Borrowed(text);
    }
    let floor = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let head = floor(MAX_TEXT * 3 / 4);
    let tail = floor(text.len() - MAX_TEXT / 8);
    format!(
        "{}… ({} bytes left out) …{}",
        &text[..head],
        tail - head,
        &text[tail..]
    )
    .into()
}

/// A location as tools read it: file name and 1-based line and column.
#[derive(Debug, Serialize)]
struct JsonLocation<'a> {
    file: &'a str,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

impl<'a> JsonLocation<'a> {
    fn new(span: Span, sources: &'a SourceMap, message: Option<&'a str>) -> Self {
        let file = sources.get(span.file);
        let (end_line, end_column) = file.line_col(span.end);
        JsonLocation {
            file: &file.name,
            line: span.line,
            column: span.col,
            end_line,
            end_column,
            message,
        }
    }
}

#[derive(Debug, Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    severity: Severity,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
    labels: Vec<JsonLocation<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'a str>,
}

impl<'a> JsonDiagnostic<'a> {
    fn new(d: &'a Diagnostic, sources: &'a SourceMap) -> Self {
        let primary = d
            .span
            .map(|s| JsonLocation::new(s, sources, d.span_label.as_deref()));
        let mut labels: Vec<JsonLocation> = primary.into_iter().collect();
        labels.extend(
            d.labels
                .iter()
                .map(|l| JsonLocation::new(l.span, sources, Some(&l.message))),
        );
        let first = labels.first();
        JsonDiagnostic {
            code: d.code,
            severity: d.severity,
            message: &d.message,
            file: first
                .filter(|_| d.span.is_some())
                .map(|l| l.file)
                .or(d.file.as_ref().map(|f| f.path.as_str())),
            line: d
                .span
                .map(|s| s.line)
                .or(d.file.as_ref().and_then(|f| f.line)),
            column: d
                .span
                .map(|s| s.col)
                .or(d.file.as_ref().and_then(|f| f.column)),
            labels,
            hint: d.hint.as_deref(),
        }
    }
}
