//! Byte offsets to lines and columns, in one pass over a file however long its lines.

use crate::source::{FileId, SourceFile, Span};

/// Computes line and character column of byte offsets exactly as
/// [`crate::source::SourceFile::span`] does, but remembers the last position so that a file with
/// very long lines (a whole template as one line of flow-style YAML) stays linear instead of
/// counting characters from the start of the line for every node.
pub(super) struct Locator<'a> {
    text: &'a str,
    file: FileId,
    /// The source file's own line index ([`crate::source::SourceFile::line_starts`]).
    line_starts: &'a [u32],
    last_line: usize,
    last_byte: usize,
    last_col: u32,
}

impl<'a> Locator<'a> {
    pub(super) fn new(source: &'a SourceFile, file: FileId) -> Self {
        Locator {
            text: &source.text,
            file,
            line_starts: source.line_starts(),
            last_line: 0,
            last_byte: 0,
            last_col: 1,
        }
    }

    fn floor_boundary(&self, mut byte: usize) -> usize {
        byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        byte
    }

    /// Line and column of `byte`. Events come in source order, so the line is usually the
    /// current one or a few lines further: those are walked to, and only a step back (or a jump
    /// past many lines) searches the line table.
    pub(super) fn line_col(&mut self, byte: usize) -> (u32, u32) {
        let byte = self.floor_boundary(byte);
        let line_start = self.line_starts[self.last_line] as usize;
        let next_line = |this: &Self| {
            this.line_starts
                .get(this.last_line + 1)
                .map_or(usize::MAX, |&s| s as usize)
        };
        let col = if byte >= line_start && byte < next_line(self) && byte >= self.last_byte {
            self.last_col + count_chars(&self.text[self.last_byte..byte])
        } else {
            let mut steps = 0;
            while byte >= line_start && byte >= next_line(self) && steps < LINE_WALK {
                self.last_line += 1;
                steps += 1;
            }
            if byte < self.line_starts[self.last_line] as usize || byte >= next_line(self) {
                let b = to_u32(byte);
                self.last_line = match self.line_starts.binary_search(&b) {
                    Ok(i) => i,
                    Err(i) => i.saturating_sub(1),
                };
            }
            let start = self.line_starts[self.last_line] as usize;
            1 + count_chars(&self.text[start..byte])
        };
        self.last_byte = byte;
        self.last_col = col;
        (to_u32(self.last_line + 1), col)
    }

    pub(super) fn span(&mut self, start: usize, end: usize) -> Span {
        let start = self.floor_boundary(start);
        let (line, col) = self.line_col(start);
        self.span_from(Mark { start, line, col }, end)
    }

    /// Where `byte` is, to make a span from later with [`Self::span_from`] without looking
    /// its line up again (a collection's span is made when it closes, past its content).
    pub(super) fn mark(&mut self, byte: usize) -> Mark {
        let start = self.floor_boundary(byte);
        let (line, col) = self.line_col(start);
        Mark { start, line, col }
    }

    /// The span from a [`Mark`] to `end`: what [`Self::span`] gives for the mark's byte.
    pub(super) fn span_from(&self, mark: Mark, end: usize) -> Span {
        let end = self.floor_boundary(end.max(mark.start));
        Span {
            file: self.file,
            start: to_u32(mark.start),
            end: to_u32(end),
            line: mark.line,
            col: mark.col,
        }
    }

    /// A span over the one character at `byte` (empty at the end of a line or of the file).
    pub(super) fn char_span(&mut self, byte: usize) -> Span {
        let start = self.floor_boundary(byte);
        let len = self.text[start..]
            .chars()
            .next()
            .filter(|c| *c != '\n' && *c != '\r')
            .map_or(0, char::len_utf8);
        self.span(start, start + len)
    }
}

/// How many lines [`Locator::line_col`] walks forward before it searches instead.
const LINE_WALK: usize = 8;

/// A located byte offset: see [`Locator::mark`].
#[derive(Clone, Copy)]
pub(super) struct Mark {
    start: usize,
    line: u32,
    col: u32,
}

/// Characters in `text`; most YAML is ASCII, where that is its length.
fn count_chars(text: &str) -> u32 {
    if text.is_ascii() {
        to_u32(text.len())
    } else {
        to_u32(text.chars().count())
    }
}

pub(super) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
