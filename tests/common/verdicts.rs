//! The conformance harness's judgement: what a corpus expects of a file, what toscana did with
//! it, and whether the two agree, as plain data and functions. `tests/conformance.rs` feeds it
//! the corpora; `tests/harness.rs` feeds it doctored inputs (a file rejected for the wrong
//! reason, an added disagreement row, a stale row) and asserts that it fails.
//!
//! The rules:
//! - a valid file agrees when toscana reads it with no error;
//! - an invalid file agrees when toscana's errors include its [`Reason`] (from
//!   `tests/conformance/expected-errors.tsv`, or the XML table): a file rejected for another
//!   reason disagrees, since a reader bug would reject it just as well;
//! - a disagreement is allowed only when a row of `DISAGREEMENTS.md` (the spec says otherwise,
//!   in words the row quotes) or `KNOWN-FAILURES.md` (toscana is wrong, or decided against the
//!   suite without the spec's words; counted against the floors) names the file and still
//!   describes what toscana does; any other disagreement fails the run by itself;
//! - a row whose file now agrees, or that names a file the run does not read, fails the run, so
//!   the tables cannot rot;
//! - floors count real agreement only and must equal today's count (a regression fails, and so
//!   does an improvement that was not recorded); the disagreement rows have a ceiling that may
//!   only go down.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One error toscana reported for a file.
#[derive(Clone, Debug)]
pub struct Found {
    pub code: String,
    /// The file as the diagnostic names it (a path, or `archive.csar!/inner.yaml`).
    pub file: String,
    /// 1-based; 0 when the diagnostic has no line.
    pub line: u32,
    pub message: String,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {}:{}: {}",
            self.code, self.file, self.line, self.message
        )
    }
}

/// What toscana did with a file.
#[derive(Clone, Debug)]
pub enum Observed {
    /// Read with no error.
    Accepted,
    /// Every error reported (none only if reading stopped without one, itself a bug).
    Rejected(Vec<Found>),
}

impl fmt::Display for Observed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Observed::Accepted => write!(f, "accepts it"),
            Observed::Rejected(errors) if errors.is_empty() => {
                write!(f, "rejects it without an error")
            }
            Observed::Rejected(errors) => {
                write!(f, "rejects it with")?;
                for e in errors.iter().take(5) {
                    write!(f, "\n      {e}")?;
                }
                if errors.len() > 5 {
                    write!(f, "\n      ... and {} more", errors.len() - 5)?;
                }
                Ok(())
            }
        }
    }
}

/// The error that must be among toscana's errors for an invalid file to count as rejected for
/// the reason the suite (or the spec) gives: one of `codes`, at `line` when the suite pins it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub codes: Vec<String>,
    /// The line, in the file whose name ends with `file` (the case's own file when `None`).
    pub at: Option<(Option<String>, u32)>,
}

impl Reason {
    /// Parses a code cell (`tosca::wrong-shape`, or alternatives `a|b`) and a line cell (``,
    /// `-`, `12`, or `imported.yaml:12`).
    pub fn parse(codes: &str, line: &str) -> Result<Reason, String> {
        let codes: Vec<String> = codes
            .split('|')
            .map(|c| c.trim().trim_matches('`').to_string())
            .collect();
        if codes.iter().any(|c| !is_code(c)) {
            return Err(format!("`{}` is not a diagnostic code", codes.join("|")));
        }
        let line = line.trim();
        let at = match line {
            "" | "-" => None,
            _ => {
                let (file, number) = match line.rsplit_once(':') {
                    Some((file, number)) => (Some(file.to_string()), number),
                    None => (None, line),
                };
                let number: u32 = number
                    .parse()
                    .map_err(|_| format!("`{line}` is not a line (`12` or `file.yaml:12`)"))?;
                Some((file, number))
            }
        };
        Ok(Reason { codes, at })
    }

    /// Whether one of `errors` is this reason; `entry` is the name of the case's own file.
    pub fn met_by(&self, entry: &str, errors: &[Found]) -> bool {
        errors.iter().any(|e| {
            self.codes.contains(&e.code)
                && self.at.as_ref().is_none_or(|(file, line)| {
                    e.line == *line && e.file.ends_with(file.as_deref().unwrap_or(entry))
                })
        })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.codes.join(" or "))?;
        match &self.at {
            Some((Some(file), line)) => write!(f, " at {file}:{line}"),
            Some((None, line)) => write!(f, " at line {line}"),
            None => Ok(()),
        }
    }
}

/// `stage::name`, the shape of every diagnostic code.
fn is_code(text: &str) -> bool {
    text.split_once("::").is_some_and(|(stage, name)| {
        !stage.is_empty()
            && !name.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == ':' || c == '-')
    })
}

/// One file of a corpus, judged.
#[derive(Clone, Debug)]
pub struct Case {
    /// The corpus it counts towards (a row of the table and of the floors).
    pub corpus: String,
    /// The corpus-relative path, plus ` (--quirk winery)` for the XML files read leniently:
    /// how the tables name it.
    pub name: String,
    /// The file name toscana's diagnostics give the case's own file (for line-pinned reasons).
    pub entry: String,
    pub valid: bool,
    pub observed: Observed,
}

/// Which table a row is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// `DISAGREEMENTS.md`: the spec's words contradict the suite; the row quotes them.
    Disagreement,
    /// `KNOWN-FAILURES.md`: toscana is wrong, or chose against the suite where the spec is
    /// silent; counted against the floors until it is fixed.
    KnownFailure,
}

impl RowKind {
    pub fn table(self) -> &'static str {
        match self {
            RowKind::Disagreement => "tests/conformance/DISAGREEMENTS.md",
            RowKind::KnownFailure => "tests/conformance/KNOWN-FAILURES.md",
        }
    }
}

/// What a row says toscana does with its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stated {
    Accepts,
    /// Rejects it, with this error among others.
    Rejects(Reason),
}

/// One row of a table.
#[derive(Clone, Debug)]
pub struct Row {
    pub kind: RowKind,
    pub file: String,
    pub toscana: Stated,
    pub why: String,
    /// The row's line in its table, for messages.
    pub line: usize,
}

/// Reads a table's rows: `| `file` | corpus says | toscana says | toscana's error | why |`,
/// where `toscana's error` is `-` for a file toscana accepts and `` `code` `` (optionally
/// followed by `line N` or `line file.yaml:N`) for one it rejects. Errors name the bad rows.
pub fn parse_rows(kind: RowKind, text: &str) -> Result<Vec<Row>, Vec<String>> {
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("| `") else {
            continue;
        };
        let at = format!("{}:{}", kind.table(), i + 1);
        let cells: Vec<&str> = rest.split(" | ").collect();
        let [file, _corpus_says, says, error, why @ ..] = cells.as_slice() else {
            problems.push(format!(
                "{at}: a row has five cells: file, corpus says, toscana says, toscana's error, why"
            ));
            continue;
        };
        let file = file.trim_end_matches('`').to_string();
        let rejects = says.trim().starts_with("error");
        let stated = match (rejects, error.trim()) {
            (false, "-") => Ok(Stated::Accepts),
            (true, "-") | (false, _) => Err(format!(
                "{at}: `toscana says` ({says}) and `toscana's error` ({error}) disagree: an error \
                 names its code, a file that loads has `-`"
            )),
            (true, cell) => {
                let (code, line) = cell.split_once(" line ").unwrap_or((cell, ""));
                Reason::parse(code, line)
                    .map(Stated::Rejects)
                    .map_err(|e| format!("{at}: {e}"))
            }
        };
        match stated {
            Ok(toscana) => rows.push(Row {
                kind,
                file,
                toscana,
                why: why.join(" | ").trim_end_matches('|').trim().to_string(),
                line: i + 1,
            }),
            Err(problem) => problems.push(problem),
        }
    }
    if problems.is_empty() {
        Ok(rows)
    } else {
        Err(problems)
    }
}

/// Each disagreement row must quote the specification: at least one passage in double quotes
/// (straight or curly) of 20 characters or more that appears, word for word, in one of
/// `specs` (whitespace and Markdown emphasis ignored). Returns the rows that do not.
pub fn unquoted_rows(rows: &[Row], specs: &[String]) -> Vec<String> {
    let specs = normalized_specs(specs);
    rows.iter()
        .filter(|r| r.kind == RowKind::Disagreement)
        .filter(|r| !quotes_the_spec(&r.why, &specs))
        .map(|r| {
            format!(
                "{}:{}: `{}` quotes no passage of the specification (a \"...\" of 20 characters or more found word for word in ../shared/specs/)",
                r.kind.table(),
                r.line,
                r.file
            )
        })
        .collect()
}

/// The specifications as [`quotes_the_spec`] compares them.
pub fn normalized_specs(specs: &[String]) -> Vec<String> {
    specs.iter().map(|s| normalized(s)).collect()
}

/// Whether `why` quotes a passage of one of the `specs` ([`normalized_specs`]): a "..." of 20
/// characters or more found there word for word.
pub fn quotes_the_spec(why: &str, specs: &[String]) -> bool {
    quotes(why)
        .iter()
        .any(|q| q.chars().count() >= 20 && specs.iter().any(|s| s.contains(q.as_str())))
}

/// The double-quoted passages of `text`, normalized.
fn quotes(text: &str) -> Vec<String> {
    let text = text.replace(['“', '”'], "\"");
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(normalized)
        .filter(|q| !q.is_empty())
        .collect()
}

/// `text` without Markdown emphasis, code marks and the HTML markup the TOSCA 2.0 text carries
/// (`<a href>`, `<code>`, `<i>`), with its whitespace runs as single spaces.
fn normalized(text: &str) -> String {
    let markup = regex::Regex::new(r"</?(a|code|i)( [^>]*)?>").expect("a valid pattern");
    markup
        .replace_all(text, "")
        .replace(['*', '`', '\\'], "")
        .replace(['’', '‘'], "'")
        .replace(['“', '”'], "\"")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// One corpus's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub valid: usize,
    pub invalid: usize,
    /// Valid files read with no error.
    pub valid_accepted: usize,
    /// Invalid files rejected with their reason among the errors.
    pub invalid_rejected: usize,
    /// Disagreements the specification's words justify (`DISAGREEMENTS.md`).
    pub documented: usize,
    /// Disagreements that are toscana's to fix or to justify (`KNOWN-FAILURES.md`).
    pub known: usize,
}

/// The outcome of a run: counts per corpus, and everything that fails it.
#[derive(Debug, Default)]
pub struct Judgement {
    pub tallies: BTreeMap<String, Tally>,
    pub failures: Vec<String>,
}

/// Judges every case against its expected reason and the tables' rows.
pub fn judge(cases: &[Case], reasons: &BTreeMap<String, Reason>, rows: &[Row]) -> Judgement {
    let mut out = Judgement::default();
    let mut by_file: BTreeMap<&str, &Row> = BTreeMap::new();
    for row in rows {
        if let Some(other) = by_file.insert(&row.file, row) {
            out.failures.push(format!(
                "`{}` has two rows: {}:{} and {}:{}",
                row.file,
                other.kind.table(),
                other.line,
                row.kind.table(),
                row.line
            ));
        }
    }
    let names: BTreeSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    for row in rows.iter().filter(|r| !names.contains(r.file.as_str())) {
        out.failures.push(format!(
            "{}:{}: `{}` is not a file the conformance run reads",
            row.kind.table(),
            row.line,
            row.file
        ));
    }
    for (name, _) in reasons
        .iter()
        .filter(|(n, _)| !cases.iter().any(|c| !c.valid && c.name == **n))
    {
        out.failures.push(format!(
            "an expected error is recorded for `{name}`, which is not an expected-invalid file of the run"
        ));
    }
    for case in cases {
        let tally = out.tallies.entry(case.corpus.clone()).or_default();
        let reason = reasons.get(&case.name);
        if !case.valid && reason.is_none() {
            out.failures.push(format!(
                "{}: expected invalid, but no expected error is recorded for it: read the file and the spec, and add the code (and line) that must be among toscana's errors",
                case.name
            ));
        }
        let agrees = match (&case.observed, case.valid) {
            (Observed::Accepted, valid) => valid,
            (Observed::Rejected(_), true) => false,
            (Observed::Rejected(errors), false) => {
                reason.is_some_and(|r| r.met_by(&case.entry, errors))
            }
        };
        if case.valid {
            tally.valid += 1;
        } else {
            tally.invalid += 1;
        }
        let row = by_file.get(case.name.as_str());
        if agrees {
            if case.valid {
                tally.valid_accepted += 1;
            } else {
                tally.invalid_rejected += 1;
            }
            if let Some(row) = row {
                out.failures.push(format!(
                    "{}:{}: `{}` agrees with the corpus now; remove the row (and raise the floor)",
                    row.kind.table(),
                    row.line,
                    case.name
                ));
            }
            continue;
        }
        let expected = match (case.valid, reason) {
            (true, _) => "valid".to_string(),
            (false, Some(reason)) => format!("invalid, with {reason}"),
            (false, None) => "invalid".to_string(),
        };
        let Some(row) = row else {
            out.failures.push(format!(
                "{}: undocumented disagreement: expected {expected}; toscana {}",
                case.name, case.observed
            ));
            continue;
        };
        let as_stated = match (&row.toscana, &case.observed) {
            (Stated::Accepts, Observed::Accepted) => true,
            (Stated::Rejects(r), Observed::Rejected(errors)) => r.met_by(&case.entry, errors),
            _ => false,
        };
        if !as_stated {
            let stated = match &row.toscana {
                Stated::Accepts => "accepts it".to_string(),
                Stated::Rejects(r) => format!("rejects it with {r}"),
            };
            out.failures.push(format!(
                "{}:{}: the row says toscana {stated}; it {}",
                row.kind.table(),
                row.line,
                case.observed
            ));
            continue;
        }
        match row.kind {
            RowKind::Disagreement => tally.documented += 1,
            RowKind::KnownFailure => tally.known += 1,
        }
    }
    out
}

/// Checks the counts against `tests/conformance-floors.tsv` (`corpus`, `measure`, `value`):
/// `valid_accepted` and `invalid_rejected` floors per corpus, and the `rows` ceiling of
/// `DISAGREEMENTS.md`. Each must equal today's value: below a floor (above the ceiling) is a
/// regression or an escape hatch; above it (below the ceiling) is progress the file must record,
/// so that no later regression can hide in the slack.
pub fn check_floors(
    tallies: &BTreeMap<String, Tally>,
    disagreement_rows: usize,
    floors: &str,
) -> Vec<String> {
    let (rows, mut problems) = super::floor_rows(floors);
    let mut seen = BTreeSet::new();
    for super::FloorRow {
        line,
        name: corpus,
        measure,
        value,
    } in rows
    {
        seen.insert((corpus, measure));
        let today = match (corpus, measure) {
            ("DISAGREEMENTS.md", "rows") => {
                if disagreement_rows > value {
                    problems.push(format!(
                        "DISAGREEMENTS.md has {disagreement_rows} rows, above its ceiling of {value}: a new row would hide a regression; fix toscana, or list the file in KNOWN-FAILURES.md (which counts against the floors)"
                    ));
                } else if disagreement_rows < value {
                    problems.push(format!(
                        "DISAGREEMENTS.md has {disagreement_rows} rows: lower its ceiling in the floors file from {value} to {disagreement_rows}"
                    ));
                }
                continue;
            }
            (_, "valid_accepted" | "invalid_rejected") => {
                let Some(t) = tallies.get(corpus) else {
                    problems.push(format!("floor for `{corpus}`, which the run does not have"));
                    continue;
                };
                if measure == "valid_accepted" {
                    t.valid_accepted
                } else {
                    t.invalid_rejected
                }
            }
            _ => {
                problems.push(format!("unknown measure `{measure}` in `{line}`"));
                continue;
            }
        };
        if today < value {
            problems.push(format!(
                "{corpus} {measure}: {today} is below its floor of {value}"
            ));
        } else if today > value {
            problems.push(format!(
                "{corpus} {measure}: {today} is above its floor of {value}; raise the floor to {today}"
            ));
        }
    }
    for corpus in tallies.keys() {
        for measure in ["valid_accepted", "invalid_rejected"] {
            if !seen.contains(&(corpus.as_str(), measure)) {
                problems.push(format!("no floor for {corpus} {measure}"));
            }
        }
    }
    if !seen.contains(&("DISAGREEMENTS.md", "rows")) {
        problems.push("no ceiling for DISAGREEMENTS.md rows".to_string());
    }
    problems
}

/// The table printed after a run.
pub fn table(tallies: &BTreeMap<String, Tally>) -> String {
    let mut out = String::from(
        "corpus               files   agreed   valid accepted   invalid rejected (with reason)   documented   known failures\n",
    );
    for (name, t) in tallies {
        out.push_str(&format!(
            "{name:<20} {:>5}   {:>6}   {:>5} / {:<6}   {:>5} / {:<6}                   {:>10}   {:>14}\n",
            t.valid + t.invalid,
            t.valid_accepted + t.invalid_rejected,
            t.valid_accepted,
            t.valid,
            t.invalid_rejected,
            t.invalid,
            t.documented,
            t.known,
        ));
    }
    out
}

/// Reads `tests/conformance/expected-errors.tsv`-shaped text: `file`, `code`, `line`, `why`
/// (tab-separated; `#` lines are comments). Every row needs a `why`.
pub fn parse_reasons(source: &str, text: &str) -> Result<BTreeMap<String, Reason>, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let at = format!("{source}:{}", i + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        let [file, code, line, why] = fields[..] else {
            problems.push(format!(
                "{at}: four tab-separated fields: file, code, line, why"
            ));
            continue;
        };
        if why.trim().is_empty() {
            problems.push(format!("{at}: `{file}` says not why"));
        }
        match Reason::parse(code, line) {
            Ok(reason) => {
                if out.insert(file.to_string(), reason).is_some() {
                    problems.push(format!("{at}: `{file}` is listed twice"));
                }
            }
            Err(e) => problems.push(format!("{at}: {e}")),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}
