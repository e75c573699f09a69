//! Diagnostics: every problem toscana finds, with where it is and what would be right.
//!
//! A [`Diagnostic`] has a stable [`code`](codes), a severity, a message, a primary span, secondary
//! labels and a hint. Stages push into a [`Diagnostics`] sink and keep going, so a run reports
//! every problem at once (up to a configurable cap). Rendering happens once, at the end, either for
//! people (rustc-style snippets through `miette`) or for tools (one JSON object per line).

use std::fmt;
use std::io::{self, Write};

use clap::ValueEnum as _;
use serde::Serialize;

use crate::quirk::{Quirk, Quirks};
use crate::span::{Clipped, Snippet, SourceFile, SourceMap, Span, shows_whole, visible};

/// Stable diagnostic codes. A code never changes meaning; tools may match on it.
///
/// The prefix names the stage that found the problem: `input` (reading files and archives),
/// `yaml`, `tosca` (grammar and meaning), `backend`, `output`.
pub mod codes {
    pub const INPUT_NOT_FOUND: &str = "input::not-found";
    pub const INPUT_UNREADABLE: &str = "input::unreadable";
    pub const INPUT_IS_DIRECTORY: &str = "input::is-directory";
    pub const INPUT_NOT_UTF8: &str = "input::not-utf8";
    pub const INPUT_BINARY: &str = "input::binary";
    pub const INPUT_EMPTY: &str = "input::empty";
    pub const INPUT_TOO_LARGE: &str = "input::too-large";
    pub const INPUT_NO_ENTRY: &str = "input::no-entry";
    pub const INPUT_AMBIGUOUS_ENTRY: &str = "input::ambiguous-entry";
    /// A template names a file outside its root (its folder, its CSAR, or a folder the user
    /// named): `..`, an absolute path, a `file:` URL or a symbolic link that leaves it.
    pub const INPUT_OUTSIDE_ROOT: &str = "input::outside-root";
    pub const CSAR_INVALID: &str = "csar::invalid";
    pub const CSAR_UNSAFE_PATH: &str = "csar::unsafe-path";
    pub const CSAR_LIMIT: &str = "csar::limit";
    pub const CSAR_META: &str = "csar::meta";
    pub const IMPORT_NOT_FOUND: &str = "import::not-found";
    pub const IMPORT_UNMAPPED_URL: &str = "import::unmapped-url";
    pub const IMPORT_CYCLE: &str = "import::cycle";
    pub const IMPORT_LIMIT: &str = "import::limit";
    pub const IMPORT_INVALID: &str = "import::invalid";
    /// A TOSCA 2.0 import of a profile that is neither embedded nor on `--profile-path`.
    pub const IMPORT_UNKNOWN_PROFILE: &str = "import::unknown-profile";
    pub const YAML_SYNTAX: &str = "yaml::syntax";
    pub const YAML_TAB_INDENT: &str = "yaml::tab-indentation";
    pub const YAML_NBSP: &str = "yaml::non-breaking-space";
    pub const YAML_DUPLICATE_KEY: &str = "yaml::duplicate-key";
    pub const YAML_ALIAS_BUDGET: &str = "yaml::alias-budget";
    /// A file with more YAML nodes than `--max-yaml-nodes`.
    pub const YAML_NODE_LIMIT: &str = "yaml::too-many-nodes";
    pub const YAML_DEPTH: &str = "yaml::too-deep";
    pub const YAML_SCALAR_TOO_LONG: &str = "yaml::scalar-too-long";
    pub const YAML_MULTI_DOCUMENT: &str = "yaml::multiple-documents";
    pub const YAML_EMPTY: &str = "yaml::empty-document";
    pub const YAML_MERGE: &str = "yaml::bad-merge";
    pub const YAML_INT_RANGE: &str = "yaml::integer-out-of-range";
    pub const TOSCA_VERSION: &str = "tosca::definitions-version";
    pub const TOSCA_SHAPE: &str = "tosca::wrong-shape";
    pub const TOSCA_UNKNOWN_KEY: &str = "tosca::unknown-keyname";
    /// A keyname from a later Simple Profile version than the file declares, or from TOSCA 2.0.
    pub const TOSCA_KEYNAME_VERSION: &str = "tosca::keyname-not-in-version";
    pub const TOSCA_MISSING_KEY: &str = "tosca::missing-keyname";
    pub const TOSCA_UNKNOWN_TYPE: &str = "tosca::unknown-type";
    pub const TOSCA_UNKNOWN_NAME: &str = "tosca::unknown-name";
    pub const TOSCA_DUPLICATE: &str = "tosca::duplicate-name";
    /// A TOSCA 2.0 name that means two different types in the file it is written in.
    pub const TOSCA_AMBIGUOUS: &str = "tosca::ambiguous-name";
    /// A TOSCA 2.0 `prefix:Name` whose prefix is no namespace of the file it is written in.
    pub const TOSCA_UNKNOWN_NAMESPACE: &str = "tosca::unknown-namespace";
    pub const TOSCA_CYCLE: &str = "tosca::cycle";
    pub const TOSCA_UNSUPPORTED: &str = "tosca::unsupported";
    pub const TOSCA_LIMIT: &str = "tosca::limit";
    pub const TOSCA_UNBOUND_INPUT: &str = "tosca::unbound-input";
    pub const TOSCA_TYPE_MISMATCH: &str = "tosca::type-mismatch";
    pub const TOSCA_CONSTRAINT: &str = "tosca::constraint-violated";
    pub const TOSCA_UNFULFILLED: &str = "tosca::unfulfilled-requirement";
    /// A TOSCA 2.0 substitution that maps a requirement against the rules of §15.5.4: onto a
    /// requirement already fulfilled inside, or more often than the `count_range` allows.
    pub const TOSCA_REQUIREMENT_MAPPING: &str = "tosca::requirement-mapping";
    /// A TOSCA 2.0 requirement that several node templates fulfil, connected to the one toscana
    /// chose (the spec leaves the choice to the processor, §14.3.2 One-to-Many Relationships).
    pub const TOSCA_CHOSEN_TARGET: &str = "tosca::chosen-target";
    pub const TOSCA_MISSING_FILE: &str = "tosca::missing-artifact-file";
    /// A node template that cannot be expanded by a substituting template: none fits where
    /// one must, several fit, a boundary that does not wire up, or a substitution cycle.
    pub const TOSCA_SUBSTITUTION: &str = "tosca::substitution";
    /// A TOSCA 2.0 function call that cannot be right: malformed, the wrong number or kind of
    /// arguments, no signature that fits, used where it means nothing, or failing when it is
    /// evaluated (a division by zero, an index past the end).
    pub const TOSCA_FUNCTION: &str = "tosca::function";
    pub const BACKEND_RULES: &str = "backend::rules";
    pub const BACKEND_TEMPLATE: &str = "backend::template";
    pub const BACKEND_SKIPPED: &str = "backend::skipped";
    pub const BACKEND_NOT_TRANSLATED: &str = "backend::not-translated";
    pub const BACKEND_UNKNOWN: &str = "backend::unknown";
    // Terraform (`toscana explain`): a value left out, a node not created, a number too large
    // (never `inf`), an unused variable, an unmarked secret, an unreadable script, bad HCL.
    pub const TF_UNEXPRESSED: &str = "terraform::unexpressed";
    pub const TF_UNSUPPORTED: &str = "terraform::unsupported";
    pub const TF_OUT_OF_RANGE: &str = "terraform::out-of-range";
    pub const TF_UNUSED_VARIABLE: &str = "terraform::unused-variable";
    pub const TF_UNMARKED_SECRET: &str = "terraform::unmarked-secret";
    pub const TF_ARTIFACT: &str = "terraform::artifact";
    pub const TF_INTERNAL: &str = "terraform::internal";
    pub const OUTPUT_WRITE: &str = "output::write";
    /// A translation that would write nothing at all: the topology has no node templates, or
    /// none of them became anything of the target. It fails rather than leave an empty folder.
    pub const OUTPUT_NOTHING: &str = "output::nothing-to-write";
    /// `toscana convert`: artifact files the converted file cannot name from where it is
    /// written (outside its folder, or inside a zip CSAR); named relative to the input's root.
    pub const OUTPUT_ARTIFACT_PATH: &str = "output::artifact-path";
    /// Another toscana run is writing the same output folder; this one changes nothing.
    pub const OUTPUT_LOCKED: &str = "output::locked";
    /// `-o` and what the command writes do not fit (several files in one file, an image to a tty).
    pub const OUTPUT_DESTINATION: &str = "output::destination";
    /// Graphviz `dot` is missing or failed while converting a diagram to SVG or PNG.
    pub const OUTPUT_GRAPHVIZ: &str = "output::graphviz";
    /// The Kubernetes backend cannot express something (a function, a node, an artifact); it
    /// says what it left out.
    pub const K8S_UNSUPPORTED: &str = "k8s::unsupported";
    /// A template wrote an object that does not survive its Kubernetes type: a bug.
    pub const K8S_INTERNAL: &str = "k8s::internal";
    pub const CLI_INPUTS: &str = "cli::inputs";
    /// Variability4TOSCA: a malformed expression (unknown operator, wrong arguments, null).
    pub const VAR_EXPRESSION: &str = "variability::expression";
    /// Variability4TOSCA: an operand of the wrong type, or a condition that is not a boolean.
    pub const VAR_TYPE: &str = "variability::type";
    /// Variability4TOSCA: an unknown preset, input, expression, element, group or policy.
    pub const VAR_UNKNOWN: &str = "variability::unknown-name";
    /// Variability4TOSCA: a variability input that is declared but has no value.
    pub const VAR_MISSING_INPUT: &str = "variability::missing-input";
    /// Variability4TOSCA: conditions or expressions that depend on themselves.
    pub const VAR_CYCLE: &str = "variability::cycle";
    /// Variability4TOSCA: a template the spec's limitations rule out (a relationship template
    /// used twice or never, an inline relationship, a malformed group member).
    pub const VAR_STRUCTURE: &str = "variability::structure";
    /// Variability4TOSCA: a consistency check failed on the resolved variant.
    pub const VAR_INCONSISTENT: &str = "variability::inconsistent";
    /// Variability4TOSCA: evaluation nests deeper than the resolver allows.
    pub const VAR_LIMIT: &str = "variability::limit";
    /// Variability4TOSCA: variability options given for a template without variability.
    pub const VAR_IGNORED: &str = "variability::ignored";
    /// TOSCA 1.0 XML that is not well-formed (or not namespace-well-formed).
    pub const XML_SYNTAX: &str = "xml::syntax";
    /// TOSCA 1.0 XML against its schema: an unknown element, a missing or bad attribute.
    pub const XML_SCHEMA: &str = "xml::schema";
    /// A QName with an undeclared prefix, or one that names no definition of its kind.
    pub const XML_QNAME: &str = "xml::qname";
    /// A TOSCA 1.0 XML rule beyond the schema: derivation, ids, references, bounds.
    pub const XML_RULE: &str = "xml::rule";
    /// A pre-standard TOSCA 1.0 draft (CSD02, 2012), which has another grammar.
    pub const XML_DRAFT: &str = "xml::draft";
    /// A deviation accepted only because a `--quirk` allows it.
    pub const XML_QUIRK: &str = "xml::quirk";
    /// `toscana convert`: an XML construct with no counterpart in the YAML written.
    pub const XML_NO_COUNTERPART: &str = "xml::no-counterpart";
    pub const TOO_MANY_ERRORS: &str = "diag::too-many-errors";
    /// The diagnostics printed reached `--max-diagnostics-size`; the rest are only counted.
    pub const TOO_MUCH_OUTPUT: &str = "diag::too-much-output";
    /// The resolved topology refers to an element that does not exist (the IR's validator): a
    /// bug, and nothing is written.
    pub const INTERNAL_IR: &str = "internal::inconsistent-ir";
}

/// How bad a problem is. Errors make the run fail (exit 1); warnings never do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// A secondary location with its own message ("first defined here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// One problem found in the input, the command line or the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// Where the problem is; `None` only for problems with no place in any file (a missing file).
    pub span: Option<Span>,
    /// The text shown under the primary span; defaults to nothing.
    pub span_label: Option<String>,
    pub labels: Vec<Label>,
    /// What would be right, or how to fix it.
    pub hint: Option<String>,
    /// For a problem with a whole file that could not be loaded (so has no span): the file, and
    /// the line and column when known (an invalid UTF-8 byte).
    pub file: Option<FilePlace>,
    /// The lenient mode under which this error is only a warning (see [`Diagnostics::push`]).
    pub excused_by: Option<Quirk>,
}

/// A file named by a diagnostic that has no span in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePlace {
    /// The path as shown to the user (`app.csar!/defs/x.yaml` inside an archive).
    pub path: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            span: None,
            span_label: None,
            labels: Vec::new(),
            hint: None,
            file: None,
            excused_by: None,
        }
    }

    /// Marks an error that `--quirk <quirk>` turns into a warning: a deviation from the
    /// specification that real files make and that the quirk documents.
    pub fn excused_by(mut self, quirk: Quirk) -> Self {
        self.excused_by = Some(quirk);
        self
    }

    /// Names the file a span-less problem is about (a file that is missing, too large, not
    /// text). A diagnostic that already has a place keeps it.
    pub fn in_file(self, path: impl Into<String>) -> Self {
        self.in_file_at(path, None)
    }

    /// Like [`Diagnostic::in_file`], with the 1-based line and column of the problem.
    pub fn in_file_at(mut self, path: impl Into<String>, line_col: Option<(u32, u32)>) -> Self {
        self.place_in_file(path.into(), line_col);
        self
    }

    /// [`Diagnostic::in_file_at`] on a diagnostic already made.
    pub fn place_in_file(&mut self, path: String, line_col: Option<(u32, u32)>) {
        if self.span.is_none() && self.file.is_none() {
            self.file = Some(FilePlace {
                path,
                line: line_col.map(|(l, _)| l),
                column: line_col.map(|(_, c)| c),
            });
        }
    }

    /// Sets the primary location.
    pub fn at(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    /// Sets the primary location with a note under it.
    pub fn at_with(mut self, span: Span, note: impl Into<String>) -> Self {
        self.span = Some(span);
        self.span_label = Some(note.into());
        self
    }

    /// Adds a secondary location.
    pub fn label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Hints `did you mean `x`?` when `word` is a likely typo of one of `known`, else
    /// `otherwise` (when given).
    pub fn did_you_mean(self, word: &str, known: &[&str], otherwise: Option<String>) -> Self {
        match (closest(word, known), otherwise) {
            (Some(near), _) => self.hint(format!("did you mean `{near}`?")),
            (None, Some(hint)) => self.hint(hint),
            (None, None) => self,
        }
    }
}

/// The plural ending of a count's noun in a message: "1 relationship", "2 relationships".
pub fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The known word nearest to a misspelling, if one is close enough to be a likely typo.
/// Several equally near candidates suggest nothing: a guess among them would mislead.
pub fn closest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let near: Vec<(usize, &str)> = known
        .iter()
        .map(|k| (edit_distance(word, k), *k))
        .filter(|&(d, k)| d <= 2.max(k.len() / 4))
        .collect();
    let best = near.iter().map(|(d, _)| *d).min()?;
    match near.iter().filter(|(d, _)| *d == best).collect::<Vec<_>>()[..] {
        [(_, only)] => Some(only),
        _ => None,
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// Default number of errors kept before the rest are only counted.
pub const DEFAULT_ERROR_CAP: usize = 100;

/// Collects diagnostics from every stage of a run.
///
/// Past the error cap, further errors are counted but not kept, so a file with a systematic
/// mistake does not bury the first (usually most useful) messages.
#[derive(Debug)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
    error_cap: usize,
    errors: usize,
    warnings: usize,
    /// The lenient modes in force: an error they excuse is kept as a warning.
    quirks: Quirks,
    /// `--deny-warnings`: every warning is kept as an error.
    deny_warnings: bool,
    /// How many errors are warnings that `deny_warnings` made errors.
    denied: usize,
}

impl Default for Diagnostics {
    fn default() -> Self {
        Self::with_cap(DEFAULT_ERROR_CAP)
    }
}

impl Diagnostics {
    pub fn new() -> Self {
        Self::default()
    }

    /// A sink that keeps at most `error_cap` errors (0 means no cap).
    pub fn with_cap(error_cap: usize) -> Self {
        Diagnostics {
            items: Vec::new(),
            error_cap,
            errors: 0,
            warnings: 0,
            quirks: Quirks::default(),
            deny_warnings: false,
            denied: 0,
        }
    }

    /// Keeps every warning pushed from now on as an error (`--deny-warnings`), so the run fails
    /// and writes nothing, as rustc's `-D warnings` does.
    pub fn deny_warnings(&mut self) {
        self.deny_warnings = true;
    }

    /// How many of the errors are warnings denied by [`Diagnostics::deny_warnings`].
    pub fn denied_count(&self) -> usize {
        self.denied
    }

    /// Keeps the errors that one of `quirks` excuses as warnings from now on.
    pub fn excuse(&mut self, quirks: &Quirks) {
        self.quirks = quirks.clone();
    }

    pub fn push(&mut self, mut diagnostic: Diagnostic) {
        if diagnostic.is_error()
            && let Some(quirk) = diagnostic.excused_by.filter(|q| self.quirks.has(*q))
        {
            diagnostic.severity = Severity::Warning;
            diagnostic.message.push_str(&format!(
                "; ignored (--quirk {})",
                quirk
                    .to_possible_value()
                    .map_or_else(String::new, |v| v.get_name().to_string())
            ));
        }
        if self.deny_warnings && !diagnostic.is_error() {
            diagnostic.severity = Severity::Error;
            self.denied += 1;
        }
        if diagnostic.is_error() {
            self.errors += 1;
            if self.error_cap != 0 && self.errors > self.error_cap {
                return;
            }
        } else {
            self.warnings += 1;
        }
        self.items.push(diagnostic);
    }

    pub fn extend(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        for d in diagnostics {
            self.push(d);
        }
    }

    /// Adds the diagnostics not reported already (the same code, place and message): what a
    /// second reading of shared files finds again, such as the imports a substituting template
    /// shares with the template it substitutes into.
    pub fn extend_unseen(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        let seen: std::collections::HashSet<(&str, Option<Span>, &str)> = self
            .items
            .iter()
            .map(|d| (d.code, d.span, d.message.as_str()))
            .collect();
        let fresh: Vec<Diagnostic> = diagnostics
            .into_iter()
            .filter(|d| !seen.contains(&(d.code, d.span, d.message.as_str())))
            .collect();
        self.extend(fresh);
    }

    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    pub fn error_count(&self) -> usize {
        self.errors
    }

    pub fn warning_count(&self) -> usize {
        self.warnings
    }

    /// The kept diagnostics, in the order they were found.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// How many diagnostics are kept so far, to mark where a stage's own begin.
    pub fn mark(&self) -> usize {
        self.items.len()
    }

    /// Names `path` as the file of every diagnostic kept since `mark` that has no place yet:
    /// what went wrong opening an input is about that input.
    pub fn place_unplaced_since(&mut self, mark: usize, path: &str) {
        for d in self.items.iter_mut().skip(mark) {
            d.place_in_file(path.to_string(), None);
        }
    }

    /// [`Diagnostics::finish`] in source order: by file (in the order the files were read),
    /// then line and column; diagnostics about a whole file after those in it, and those with no
    /// place at all (a summary of what went before, the count past the cap) last. Diagnostics
    /// at one place keep the order they were found in.
    pub fn in_order(&self, sources: &SourceMap) -> Vec<Diagnostic> {
        let mut out = self.finish();
        let files: std::collections::HashMap<&str, usize> = sources
            .files()
            .map(|(id, f)| (f.name.as_str(), id.0 as usize))
            .collect();
        out.sort_by_cached_key(|d| match (d.span, &d.file) {
            (Some(span), _) => (0, span.file.0 as usize, span.line, span.col),
            (None, Some(place)) => (
                1,
                files
                    .get(place.path.as_str())
                    .copied()
                    .unwrap_or(usize::MAX),
                place.line.unwrap_or(0),
                place.column.unwrap_or(0),
            ),
            (None, None) => (2, 0, 0, 0),
        });
        out
    }

    /// The kept diagnostics, plus one saying how many errors were dropped past the cap.
    pub fn finish(&self) -> Vec<Diagnostic> {
        let mut out = self.items.clone();
        if self.error_cap != 0 && self.errors > self.error_cap {
            out.push(
                Diagnostic::error(
                    codes::TOO_MANY_ERRORS,
                    format!("{} more errors not shown", self.errors - self.error_cap),
                )
                .hint("raise the limit with --max-errors N (0 shows all)"),
            );
        }
        out
    }
}

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
struct Human {
    wrapping: miette::GraphicalReportHandler,
    unwrapped: miette::GraphicalReportHandler,
    color: bool,
}

impl Human {
    fn new(color: bool) -> Self {
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

    fn render(&self, d: &Diagnostic, sources: &SourceMap) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Origin;

    fn sample() -> (SourceMap, Diagnostic) {
        let mut map = SourceMap::new();
        let id = map.add("t.yaml", Origin::Stdin, "a: 1\nb: 2\na: 3\n");
        let file = map.get(id);
        let first = file.span(id, 0, 1);
        let second = file.span(id, 10, 11);
        let d = Diagnostic::error(codes::YAML_DUPLICATE_KEY, "duplicate key `a`")
            .at_with(second, "defined again here")
            .label(first, "first defined here")
            .hint("remove one of them");
        (map, d)
    }

    #[test]
    fn human_rendering_names_file_line_column_of_both_places() {
        let (map, d) = sample();
        let text = render_human(&d, &map, false);
        assert!(
            text.starts_with("t.yaml:3:1: error[yaml::duplicate-key]: duplicate key `a`\n"),
            "{text}"
        );
        assert!(
            text.contains("\n  t.yaml:1:1: first defined here\n"),
            "{text}"
        );
        assert!(text.contains("defined again here"), "{text}");
        assert!(text.contains("remove one of them"), "{text}");
    }

    #[test]
    fn text_that_fits_renders_the_same_without_wrapping() {
        let mut map = SourceMap::new();
        let id = map.add("t.yaml", Origin::Stdin, "a: 1\nb: 2\na: 3\n");
        let other = map.add("u.yaml", Origin::Stdin, "c: 4\n");
        let file = map.get(id);
        let (here, there) = (file.span(id, 10, 11), map.get(other).span(other, 0, 1));
        let words = "get_input of `x.y-z` is left-out: node/`db0`, (see a_b) so-called";
        let mut texts: Vec<String> = (0..12)
            .map(|n| words.repeat(4)[..n * 16 + 1].trim().to_string())
            .collect();
        // At the limits: the longest message and hint that fit, a word as long as a line.
        texts.push("x".repeat(WRAP_WIDTH - MESSAGE_INDENT));
        texts.push(format!(
            "{} {}",
            "a".repeat(100),
            "b".repeat(WRAP_WIDTH - MESSAGE_INDENT - 101)
        ));
        texts.push(format!(
            "{}-{}",
            "a".repeat(100),
            "b".repeat(WRAP_WIDTH - HINT_INDENT - 101)
        ));
        let hints = texts.iter().filter(|t| fits_unwrapped(t, HINT_INDENT));
        let mut compared = 0;
        for color in [false, true] {
            let human = Human::new(color);
            for (text, hint) in texts.iter().zip(hints.clone().cycle().skip(3)) {
                assert!(fits_unwrapped(text, MESSAGE_INDENT), "{text:?}");
                for error in [false, true] {
                    let d = if error {
                        Diagnostic::error(codes::TF_INTERNAL, text.clone())
                    } else {
                        Diagnostic::warning(codes::TF_UNEXPRESSED, text.clone())
                    };
                    let d = d.at(here).label(there, text.clone()).hint(hint.clone());
                    let report = MietteView::new(&d, &map);
                    assert!(report.fits_unwrapped());
                    assert_eq!(
                        render_with(&human.wrapping, &d, &report, &map, color),
                        render_with(&human.unwrapped, &d, &report, &map, color),
                        "{text:?}"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 4 * texts.len());
        // Text that does not fit, or that textwrap would change, is wrapped.
        for text in [
            "x".repeat(WRAP_WIDTH - MESSAGE_INDENT + 1),
            "two\nlines".to_string(),
            "tab\there".to_string(),
            "trailing ".to_string(),
            " leading".to_string(),
            "ünïcode".to_string(),
            String::new(),
        ] {
            assert!(!fits_unwrapped(&text, MESSAGE_INDENT), "{text:?}");
        }
        assert!(!fits_unwrapped(&texts[12], HINT_INDENT));
    }

    #[test]
    fn json_rendering_is_one_object_per_line_with_locations() {
        let (map, d) = sample();
        let mut out = Vec::new();
        emit(
            &mut out,
            &[d.clone(), d],
            &map,
            MessageFormat::Json,
            false,
            u64::MAX,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(v["code"], "yaml::duplicate-key");
        assert_eq!(v["severity"], "error");
        assert_eq!(v["file"], "t.yaml");
        assert_eq!(v["line"], 3);
        assert_eq!(v["column"], 1);
        assert_eq!(v["labels"][1]["line"], 1);
        assert_eq!(v["labels"][1]["message"], "first defined here");
    }

    #[test]
    fn any_column_of_any_line_renders_without_panicking() {
        // miette's formatting panics past column 65,535; the snippet is clipped instead.
        let fillers = ["x", "\t", "漢", "é", "\u{1b}", " "];
        for filler in fillers {
            for len in [0, 239, 240, 241, 70_000, 140_000] {
                let line = format!("k: {}!{}", filler.repeat(len), filler.repeat(len / 2));
                let text = format!("a: 1\n{line}\nb: 2\n{line}\n");
                let mut map = SourceMap::new();
                let id = map.add("t.yaml", Origin::Stdin, text.clone());
                let other = map.add("u.yaml", Origin::Stdin, line.clone());
                let bang = text.find('!').unwrap() as u32;
                let last = text.rfind('!').unwrap() as u32;
                let file = map.get(id);
                let d = Diagnostic::error(codes::YAML_SYNTAX, "here")
                    .at_with(file.span(id, bang, bang + 1), "the bang")
                    .label(
                        file.span(id, 0, last + 1),
                        "from the start to the last bang",
                    )
                    .label(map.get(other).span(other, 3, 4), "in another file");
                for color in [false, true] {
                    let shown = render_human(&d, &map, color);
                    let header = format!("t.yaml:2:{}: ", file.line_col(bang).1);
                    assert!(shown.starts_with(&header), "{filler:?} {len}");
                    assert!(!shown.contains('\u{1b}') || color, "{filler:?} {len}");
                    assert!(
                        shown.lines().all(|l| l.chars().count() < 1_000),
                        "{filler:?} {len}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_texts_are_shortened_and_the_output_stops_at_its_limit() {
        let (map, _) = sample();
        let value = "v".repeat(1 << 20);
        let many: Vec<Diagnostic> = (0..500)
            .map(|i| {
                Diagnostic::error(codes::TOSCA_SHAPE, format!("`{value}` is wrong ({i})"))
                    .hint(value.clone())
            })
            .collect();
        for format in [MessageFormat::Human, MessageFormat::Json] {
            let mut out = Vec::new();
            emit(&mut out, &many, &map, format, false, 1 << 20).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(text.len() < (1 << 20) + 4096, "{}", text.len());
            assert!(text.contains("(0)") && text.contains("bytes left out"));
            assert!(text.contains("diag::too-much-output"), "{format:?}");
            assert!(text.contains("--max-diagnostics-size"), "{format:?}");
            let shown = (0..500)
                .filter(|i| text.contains(&format!("is wrong ({i})")))
                .count();
            assert!(shown > 50 && shown < 500, "{shown}");
            assert!(text.contains(&format!("{} more diagnostics not shown", 500 - shown)));
        }
    }

    #[test]
    fn closest_suggests_only_plausible_typos() {
        let known = ["node_templates", "relationship_templates", "inputs"];
        assert_eq!(closest("node_template", &known), Some("node_templates"));
        assert_eq!(closest("imputs", &known), Some("inputs"));
        assert_eq!(closest("banana", &known), None);
        let versions = ["tosca_simple_yaml_1_2", "tosca_simple_yaml_1_3"];
        assert_eq!(
            closest("tosca_simple_yaml_1_4", &versions),
            None,
            "a tie suggests nothing"
        );
    }

    #[test]
    fn errors_past_the_cap_are_counted_and_summarised() {
        let mut sink = Diagnostics::with_cap(2);
        for i in 0..5 {
            sink.push(Diagnostic::error(codes::TOSCA_SHAPE, format!("e{i}")));
        }
        sink.push(Diagnostic::warning(codes::TOSCA_UNKNOWN_KEY, "w"));
        assert_eq!(sink.error_count(), 5);
        let shown = sink.finish();
        assert_eq!(shown.len(), 4);
        assert_eq!(shown.last().unwrap().message, "3 more errors not shown");
    }
}
