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
    /// A template sets a property or attribute whose definition says `status: deprecated`.
    pub const TOSCA_DEPRECATED: &str = "tosca::deprecated";
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
/// `word` itself is never proposed: a name the caller did not find, yet among `known` (a
/// function defined in a namespace the call cannot see, say), is no typo, and "did you mean
/// `x`?" for `x` would send the reader round in a circle.
pub fn closest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let near: Vec<(usize, &str)> = known
        .iter()
        .filter(|k| **k != word)
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

    /// Adds the diagnostics of the same code at a place no kept diagnostic of that code names:
    /// a second judgement of a place a first one judged already (a type's call, judged once
    /// for the type and once for each template of it) adds nothing there.
    pub fn extend_at_new_places(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        let seen: std::collections::HashSet<(&str, Option<Span>)> =
            self.items.iter().map(|d| (d.code, d.span)).collect();
        let fresh: Vec<Diagnostic> = diagnostics
            .into_iter()
            .filter(|d| d.span.is_none() || !seen.contains(&(d.code, d.span)))
            .collect();
        self.extend(fresh);
    }

    /// How many diagnostics were pushed, kept or past the cap: compared before and after a
    /// call, whether the call reported anything, without making it report into a sink of its
    /// own.
    pub fn reported(&self) -> usize {
        self.errors + self.warnings
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

mod emit;
mod findings;
mod human;
mod one_line;
mod subject;
pub use findings::{Findings, FirstError};

pub use emit::{MAX_TEXT, MessageFormat, emit, shortened};
pub use human::render_human;
pub use subject::Subject;
