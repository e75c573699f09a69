//! Source snippets for `miette` read through a file's line index.
//!
//! miette's own `SourceCode` for text scans the whole file from its first byte for every
//! snippet, and `NamedSource` wants the text by value, so rendering N diagnostics in a big file
//! cost N copies and N scans of it. [`Snippet`] borrows the [`SourceFile`] and hands miette only
//! the few lines around the span (found with the line index), then shifts the answer back to
//! the file's offsets and line numbers: the same contents, at the cost of the snippet's lines.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use super::SourceFile;

/// Lines read past the context miette asks for, so that its scan of the window stops where its
/// scan of the whole file would (it looks one line past the last context line).
const MARGIN_LINES: usize = 3;

/// A [`SourceFile`] as miette source code, named and marked as YAML.
pub(crate) struct Snippet<'a> {
    file: &'a SourceFile,
}

impl<'a> Snippet<'a> {
    pub(crate) fn new(file: &'a SourceFile) -> Self {
        Snippet { file }
    }
}

impl SourceCode for Snippet<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let text = self.file.text.as_bytes();
        // miette also breaks lines at a lone `\r`, which the line index does not count, and
        // looks one byte before an empty span; such rare files and spans are read whole, as
        // miette would.
        let whole = self.file.bare_cr || span.is_empty();
        let (window_start, first_line) = if whole {
            (0, 0)
        } else {
            let line = self
                .file
                .line_index(span.offset() as u32)
                .saturating_sub(context_lines_before);
            (self.file.line_start(line), line)
        };
        let window_end = if whole {
            text.len()
        } else {
            let last = span.offset() + span.len().saturating_sub(1);
            let line = self.file.line_index(last as u32) + context_lines_after + MARGIN_LINES;
            self.file.line_start_or_end(line)
        };
        if span.offset() < window_start {
            return Err(MietteError::OutOfBounds);
        }
        let local = SourceSpan::new((span.offset() - window_start).into(), span.len());
        let inner = <[u8] as SourceCode>::read_span(
            &text[window_start..window_end],
            &local,
            context_lines_before,
            context_lines_after,
        )?;
        let column = inner.column();
        Ok(shifted(
            self.file.name.clone(),
            &*inner,
            window_start,
            first_line,
            column,
        ))
    }
}

/// What miette read from a window of a file (starting at byte `start` and line `first_line` of
/// the file) as if it had read the whole file: offsets and lines shifted back, the file's name
/// and YAML as its language, and `column` as miette's column of the span.
pub(super) fn shifted<'b>(
    name: String,
    inner: &dyn SpanContents<'b>,
    start: usize,
    first_line: usize,
    column: usize,
) -> Box<dyn SpanContents<'b> + 'b> {
    let contents = MietteSpanContents::new_named(
        name,
        inner.data(),
        SourceSpan::new((inner.span().offset() + start).into(), inner.span().len()),
        inner.line() + first_line,
        column,
        inner.line_count() + first_line,
    )
    .with_language("yaml");
    Box::new(contents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::{Origin, SourceMap};

    /// Data, span, line/column/line count, name and language of a snippet.
    type Fields = (
        Vec<u8>,
        (usize, usize),
        (usize, usize, usize),
        Option<String>,
        Option<String>,
    );

    /// Every field miette reads from a snippet, for comparing two sources.
    fn read(
        source: &dyn SourceCode,
        span: SourceSpan,
        before: usize,
        after: usize,
    ) -> Option<Fields> {
        let c = source.read_span(&span, before, after).ok()?;
        Some((
            c.data().to_vec(),
            (c.span().offset(), c.span().len()),
            (c.line(), c.column(), c.line_count()),
            c.name().map(str::to_string),
            c.language().map(str::to_string),
        ))
    }

    #[test]
    fn reads_what_miette_reads_from_the_whole_text() {
        let texts = [
            "a: 1\nb: 2\nc:\n  d: 3\n  e: [4, 5]\nf: 6\n\ng: 7",
            "a: 1\r\nb: 2\r\nc: 3\r\n\r\nd: 4\r\n",
            "one: line only",
            "x: 1\ry: 2\nz: 3\n",
            "é: ü\nß: 1\n\n\n\nlast: x\n",
        ];
        for text in texts {
            let mut map = SourceMap::new();
            let id = map.add("t.yaml", Origin::Stdin, text);
            let ours = Snippet::new(map.get(id));
            let theirs = miette::NamedSource::new("t.yaml", text.to_string()).with_language("yaml");
            for start in 0..text.len() {
                for len in [0, 1, 2, 5, 12, text.len()] {
                    if start + len > text.len() {
                        continue;
                    }
                    for (before, after) in [(0, 0), (1, 1), (2, 2), (0, 3), (3, 0)] {
                        let span = SourceSpan::new(start.into(), len);
                        assert_eq!(
                            read(&ours, span, before, after),
                            read(&theirs, span, before, after),
                            "{text:?} at {start}+{len}, context {before}/{after}"
                        );
                    }
                }
            }
        }
    }
}
