//! The human format: rustc-style snippets through miette, wrapped only when needed.

use super::*;

/// Renders one diagnostic the way rustc does: a `file:line:col` header, then snippets.
pub fn render_human(d: &Diagnostic, sources: &SourceMap, color: bool) -> String {
    Human::new(color).render(d, sources)
}

/// miette's width for text it wraps (its default terminal width, less its margin of 2).
const WRAP_WIDTH: usize = 198;

/// The columns miette puts before a message it wraps: `  ⚠ `, `  × ` or `  ☞ `.
const MESSAGE_INDENT: usize = 4;

/// The columns miette puts before a hint it wraps: `  help: `.
const HINT_INDENT: usize = 8;

/// The human renderer: miette's graphical handler, made once for a whole run, in two forms.
///
/// miette wraps the message, the hint and each related message with `textwrap`, which finds
/// the words of the text by Unicode line-breaking rules: four fifths of the time rendering a
/// warning took. For text on one line that already fits, wrapping changes nothing: textwrap
/// puts the indent and the text unchanged on one line, as miette does when not wrapping. So a
/// diagnostic whose every such text [`fits_unwrapped`] is rendered by a handler that does not
/// wrap, and the output is the same byte for byte.
pub(super) struct Human {
    wrapping: miette::GraphicalReportHandler,
    unwrapped: miette::GraphicalReportHandler,
    color: bool,
}

impl Human {
    pub(super) fn new(color: bool) -> Self {
        let theme = || {
            if color {
                miette::GraphicalTheme::unicode()
            } else {
                miette::GraphicalTheme::unicode_nocolor()
            }
        };
        Human {
            wrapping: miette::GraphicalReportHandler::new_themed(theme()).with_context_lines(1),
            unwrapped: miette::GraphicalReportHandler::new_themed(theme())
                .with_context_lines(1)
                .with_wrap_lines(false),
            color,
        }
    }

    pub(super) fn render(&self, d: &Diagnostic, sources: &SourceMap) -> String {
        let hint_fits = d
            .hint
            .as_deref()
            .is_none_or(|h| fits_unwrapped(h, HINT_INDENT));
        if !self.color
            && let Some(body) = one_line::body(d, sources, hint_fits)
        {
            let mut out = header(d, sources, false);
            out.push_str(&body);
            // The layout drawn directly must be miette's (see `one_line`): checked on every
            // diagnostic a debug build prints, so on every test.
            debug_assert_eq!(out, self.render_by_miette(d, sources), "{d:?}");
            return out;
        }
        self.render_by_miette(d, sources)
    }

    fn render_by_miette(&self, d: &Diagnostic, sources: &SourceMap) -> String {
        let report = MietteView::new(d, sources);
        let handler = if report.fits_unwrapped() {
            &self.unwrapped
        } else {
            &self.wrapping
        };
        render_with(handler, d, &report, sources, self.color)
    }
}

/// True when textwrap would leave `text` as it is: one line of printable ASCII (one column a
/// character, no tabs or escapes), with no space at either end, that fits on a line after an
/// indent of `indent` columns.
fn fits_unwrapped(text: &str, indent: usize) -> bool {
    !text.is_empty()
        && text.len() + indent <= WRAP_WIDTH
        && text.bytes().all(|b| (b' '..=b'~').contains(&b))
        && !text.starts_with(' ')
        && !text.ends_with(' ')
}

/// Renders `d` (seen by miette as `report`) with `handler`.
fn render_with(
    handler: &miette::GraphicalReportHandler,
    d: &Diagnostic,
    report: &MietteView<'_>,
    sources: &SourceMap,
    color: bool,
) -> String {
    let mut out = header(d, sources, color);
    let mut rendered = String::new();
    if handler.render_report(&mut rendered, report).is_err() {
        out.push_str("(could not render the source snippet)\n");
        return out;
    }
    // miette's first line is the severity icon before the (empty) message: the header line
    // above says both.
    let body = rendered.split_once('\n').map_or("", |(_, rest)| rest);
    out.push_str(body);
    out
}

/// The lines before the snippet: `file:line:col: severity[code]: message`, and one line per
/// label.
fn header(d: &Diagnostic, sources: &SourceMap, color: bool) -> String {
    let mut out = String::new();
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    // Coloured as rustc does: bold red errors, bold yellow warnings.
    let (on, off) = match (color, d.severity) {
        (false, _) => ("", ""),
        (true, Severity::Error) => ("\u{1b}[1;31m", "\u{1b}[0m"),
        (true, Severity::Warning) => ("\u{1b}[1;33m", "\u{1b}[0m"),
    };
    let severity = format!("{on}{severity}[{}]{off}", d.code);
    match d.span {
        Some(span) => {
            let file = sources.get(span.file);
            out.push_str(&format!(
                "{}:{}:{}: {severity}: {}\n",
                visible(&file.name),
                span.line,
                span.col,
                d.message
            ));
        }
        None => {
            if let Some(place) = &d.file {
                out.push_str(&place.path);
                for n in [place.line, place.column].into_iter().flatten() {
                    out.push_str(&format!(":{n}"));
                }
                out.push_str(": ");
            }
            out.push_str(&format!("{severity}: {}\n", d.message));
        }
    }
    for label in &d.labels {
        let file = sources.get(label.span.file);
        out.push_str(&format!(
            "  {}:{}:{}: {}\n",
            visible(&file.name),
            label.span.line,
            label.span.col,
            label.message
        ));
    }
    out
}

/// Adapts a [`Diagnostic`] to `miette`. Labels in other files than the primary become related
/// reports, each with its own snippet. The source text is borrowed, never copied, unless a line
/// around a label cannot be shown as it is (see [`View`]).
struct MietteView<'a> {
    message: String,
    severity: miette::Severity,
    hint: Option<String>,
    source: Option<View<'a>>,
    labels: Vec<miette::LabeledSpan>,
    related: Vec<MietteView<'a>>,
}

/// The source miette reads a snippet from: the file itself, or, where a line around a label is
/// too long for a terminal (miette's formatting panics past column 65,535) or holds control
/// characters a terminal would obey, those lines clipped and made visible, with the labels
/// moved onto the clipped text.
enum View<'a> {
    Whole(Snippet<'a>),
    Clipped(Clipped<'a>),
}

impl<'a> View<'a> {
    /// The view of `file` for labels at `spans`, and the labels' places in it.
    fn new(file: &'a SourceFile, spans: &[Span]) -> (Self, Vec<(usize, usize)>) {
        let ranges: Vec<(usize, usize)> = spans
            .iter()
            .map(|s| (s.start as usize, s.end.max(s.start) as usize))
            .collect();
        if shows_whole(file, &ranges) {
            return (View::Whole(Snippet::new(file)), ranges);
        }
        let clipped = Clipped::new(file, &ranges);
        let mapped = ranges
            .iter()
            .map(|&(start, end)| (clipped.map(start, false), clipped.map(end, true)))
            .collect();
        (View::Clipped(clipped), mapped)
    }
}

impl miette::SourceCode for View<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        match self {
            View::Whole(s) => s.read_span(span, context_lines_before, context_lines_after),
            View::Clipped(c) => c.read_span(span, context_lines_before, context_lines_after),
        }
    }
}

impl<'a> MietteView<'a> {
    fn new(d: &Diagnostic, sources: &'a SourceMap) -> Self {
        let severity = match d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        };
        // The message is the header line's (see `render_with`): miette is given none, so the
        // report says it once.
        let Some(primary) = d.span else {
            return MietteView {
                message: String::new(),
                severity,
                hint: d.hint.clone(),
                source: None,
                labels: Vec::new(),
                related: Vec::new(),
            };
        };
        let mut here = vec![(primary, d.span_label.clone())];
        let mut related = Vec::new();
        for label in &d.labels {
            if label.span.file == primary.file {
                here.push((label.span, Some(label.message.clone())));
            } else {
                let (source, places) = View::new(sources.get(label.span.file), &[label.span]);
                related.push(MietteView {
                    message: label.message.clone(),
                    severity: miette::Severity::Advice,
                    hint: None,
                    source: Some(source),
                    labels: vec![labeled(places[0], Some(label.message.clone()), true)],
                    related: Vec::new(),
                });
            }
        }
        let spans: Vec<Span> = here.iter().map(|(s, _)| *s).collect();
        let (source, places) = View::new(sources.get(primary.file), &spans);
        let labels = here
            .into_iter()
            .zip(places)
            .enumerate()
            .map(|(i, ((_, text), place))| labeled(place, text, i == 0))
            .collect();
        MietteView {
            message: String::new(),
            severity,
            hint: d.hint.clone(),
            source: Some(source),
            labels,
            related,
        }
    }
}

impl MietteView<'_> {
    /// True when every text miette wraps (message and hint, and those of the related reports)
    /// [`fits_unwrapped`].
    fn fits_unwrapped(&self) -> bool {
        (self.message.is_empty() || fits_unwrapped(&self.message, MESSAGE_INDENT))
            && self
                .hint
                .as_deref()
                .is_none_or(|h| fits_unwrapped(h, HINT_INDENT))
            && self.related.iter().all(MietteView::fits_unwrapped)
    }
}

/// A miette label over `(start, end)` of its view's text.
fn labeled(
    (start, end): (usize, usize),
    text: Option<String>,
    primary: bool,
) -> miette::LabeledSpan {
    let len = end.saturating_sub(start).max(1);
    let source_span = miette::SourceSpan::new(start.into(), len);
    if primary {
        miette::LabeledSpan::new_primary_with_span(text, source_span)
    } else {
        miette::LabeledSpan::new_with_span(text, source_span)
    }
}

impl fmt::Debug for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MietteView<'_> {}

impl miette::Diagnostic for MietteView<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.hint
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related.iter().map(|r| r as &dyn miette::Diagnostic),
            ))
        }
    }
}

// The tests cover the whole module (diagnostics, emitting, rendering); they live here so they
// can reach the renderer's internals.
#[cfg(test)]
#[path = "tests.rs"]
mod tests;
