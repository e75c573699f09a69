//! toscana's diagnostics as the editor shows them: each in the file it is about, its range in
//! UTF-16 columns, its labels ("first defined here") as related locations, its code linked to
//! the `toscana explain` page, and its hint in the message and in `data` for code actions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range,
};
use serde::{Deserialize, Serialize};

use super::lines::Lines;
use super::readonly;
use super::uri::uri_of;
use crate::diag::{Diagnostic, Severity};
use crate::source::{SourceMap, Span};

/// What a diagnostic carries for the code actions that fix it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Data {
    pub hint: Option<String>,
}

/// Spreads a check's diagnostics over the files they are in. One with no place in any file
/// (the count of errors past the cap) is put at the start of the entry.
pub fn by_file(
    diags: &[Diagnostic],
    sources: &SourceMap,
    paths: &[Option<PathBuf>],
    entry: &Path,
) -> BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>> {
    let mut lines = LineCache::new(sources);
    let mut out: BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>> = BTreeMap::new();
    for d in diags {
        let (path, range) = match (d.span, &d.file) {
            (Some(span), _) => match paths.get(span.file.0 as usize).cloned().flatten() {
                Some(path) => (path, lines.range(span)),
                None => (entry.to_path_buf(), Range::default()),
            },
            (None, Some(place)) => {
                let known = sources
                    .files()
                    .find(|(_, f)| f.name == place.path)
                    .and_then(|(id, _)| paths.get(id.0 as usize).cloned().flatten());
                let path = known.unwrap_or_else(|| {
                    std::env::current_dir()
                        .unwrap_or_default()
                        .join(&place.path)
                });
                let at = Position::new(
                    place.line.unwrap_or(1).saturating_sub(1),
                    place.column.unwrap_or(1).saturating_sub(1),
                );
                (path, Range::new(at, at))
            }
            (None, None) => (entry.to_path_buf(), Range::default()),
        };
        let related: Vec<DiagnosticRelatedInformation> = d
            .labels
            .iter()
            .filter_map(|label| {
                let path = paths.get(label.span.file.0 as usize).cloned().flatten()?;
                Some(DiagnosticRelatedInformation {
                    location: Location::new(uri_of(&path), lines.range(label.span)),
                    message: label.message.clone(),
                })
            })
            .collect();
        out.entry(path)
            .or_default()
            .push(convert(d, range, related));
    }
    out
}

fn convert(
    d: &Diagnostic,
    range: Range,
    related: Vec<DiagnosticRelatedInformation>,
) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if let Some(label) = &d.span_label {
        message.push_str(&format!(" ({label})"));
    }
    if let Some(hint) = &d.hint {
        message.push_str(&format!("\nhint: {hint}"));
    }
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: readonly::explain_page(d.code).map(|page| CodeDescription {
            href: uri_of(&page),
        }),
        source: Some("toscana".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: serde_json::to_value(Data {
            hint: d.hint.clone(),
        })
        .ok(),
    }
}

/// The line index of each file, built once per check and only for files with diagnostics.
pub struct LineCache<'s> {
    sources: &'s SourceMap,
    lines: BTreeMap<u32, Lines<'s>>,
}

impl<'s> LineCache<'s> {
    pub fn new(sources: &'s SourceMap) -> Self {
        LineCache {
            sources,
            lines: BTreeMap::new(),
        }
    }

    pub fn range(&mut self, span: Span) -> Range {
        let sources = self.sources;
        let lines = self
            .lines
            .entry(span.file.0)
            .or_insert_with(|| Lines::new(&sources.get(span.file).text));
        lines.range(span.start as usize, span.end as usize)
    }
}
