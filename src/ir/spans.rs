//! IR locations back to source spans, so whoever reads a topology (the resolver expanding a
//! substitution, a backend warning about a node) can quote the text an element came from.

use std::collections::HashMap;

use super::Location;
use crate::source::{FileId, SourceMap, Span};

/// Turns IR locations (file index, line, column) back into spans, through each file's own line
/// index ([`crate::source::SourceFile::line_starts`]).
pub(crate) struct SpanFinder<'a> {
    sources: &'a SourceMap,
    /// IR file index → the SourceMap file of that name.
    files: Vec<Option<FileId>>,
}

impl<'a> SpanFinder<'a> {
    /// `files` are the IR's file names ([`crate::ir::SourceInfo::files`]).
    pub(crate) fn new(files: &[String], sources: &'a SourceMap) -> Self {
        let by_name: HashMap<&str, FileId> = sources
            .files()
            .map(|(id, f)| (f.name.as_str(), id))
            .collect();
        let files = files
            .iter()
            .map(|name| by_name.get(name.as_str()).copied())
            .collect();
        SpanFinder { sources, files }
    }

    pub(crate) fn span(&self, location: Location) -> Option<Span> {
        let id = (*self.files.get(location.file)?)?;
        let file = self.sources.get(id);
        let text = &*file.text;
        let line_start = *file
            .line_starts()
            .get((location.line as usize).checked_sub(1)?)? as usize;
        let line = &text[line_start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let start = line_start
            + line
                .char_indices()
                .nth(location.column.saturating_sub(1) as usize)
                .map_or(line.len(), |(i, _)| i);
        // Underline the name written there (up to `:`, a space or the line end).
        let rest = &text[start..line_start + line.len()];
        let len = rest
            .find(|c: char| c == ':' || c.is_whitespace())
            .unwrap_or(rest.len())
            .max(1);
        let end = (start + len).min(text.len());
        Some(file.span(id, start as u32, end as u32))
    }
}

/// Where the topology's service template starts: the place of a diagnostic about the topology
/// as a whole, such as one that nothing of it could be translated.
pub(crate) fn topology_span(topology: &super::Topology, sources: &SourceMap) -> Option<Span> {
    SpanFinder::new(&topology.source.files, sources).span(topology.location?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Origin;

    #[test]
    fn ir_locations_become_spans_over_the_name() {
        let mut sources = SourceMap::new();
        sources.add("other.yaml", Origin::Stdin, "x: 1\n");
        let id = sources.add(
            "t.yaml",
            Origin::Stdin,
            "node_templates:\n  wéb:\n    type: x\n  db: {}\n",
        );
        let finder = SpanFinder::new(&["t.yaml".to_string(), "gone.yaml".to_string()], &sources);
        let at = |file, line, column| Location { file, line, column };
        let web = finder.span(at(0, 2, 3)).unwrap();
        assert_eq!((web.file, web.line, web.col), (id, 2, 3));
        assert_eq!(sources.slice(web), "wéb");
        let db = finder.span(at(0, 4, 3)).unwrap();
        assert_eq!(sources.slice(db), "db");
        // Out of range or unknown: no span rather than a wrong one (or a panic).
        assert_eq!(finder.span(at(1, 1, 1)), None);
        assert_eq!(finder.span(at(7, 1, 1)), None);
        assert_eq!(finder.span(at(0, 99, 1)), None);
        assert_eq!(finder.span(at(0, 0, 1)), None);
        let past_end = finder.span(at(0, 2, 80)).unwrap();
        assert_eq!(past_end.line, 2);
    }
}
