//! Snippets of lines that cannot be shown as they are: too long for a terminal (and for miette,
//! whose formatting panics past column 65,535), or holding characters a terminal would obey
//! rather than show (escape sequences, bidirectional overrides, a lone carriage return).
//!
//! [`Clipped`] is a source for miette made of the lines around some spans of one file: each line
//! longer than [`LONG_LINE`] characters is cut to [`KEEP`] characters either side of every
//! span start or end on it (the cut parts shown as `…`), and every control character is shown
//! by its Unicode picture (`␛` for escape) or `�`. Offsets in the file are mapped onto the
//! clipped text with [`Clipped::map`], so the labels point at the same characters.
//!
//! Lines far apart are kept as separate chunks, each read with its own line numbers, so a label
//! on line 2 and one on line 90,000 cost two windows, not the lines between.

use miette::{MietteError, SourceCode, SourceSpan, SpanContents};

use super::SourceFile;

/// Lines longer than this many characters are clipped.
pub(crate) const LONG_LINE: usize = 240;

/// Characters kept before and after each point of interest on a clipped line.
const KEEP: usize = 60;

/// Lines kept before a span's first line and after its last: miette shows one of context and
/// looks a few further to find where its window ends.
const BEFORE: usize = 1;
const AFTER: usize = 4;

/// What replaces the characters cut out of a long line.
const ELLIPSIS: &str = "…";

/// Whether a line (without its line break) can be given to miette as it is.
pub(crate) fn shows_as_is(line: &str) -> bool {
    if plain(line) {
        return line.len() <= LONG_LINE;
    }
    (line.len() <= LONG_LINE || line.chars().count() <= LONG_LINE) && !line.chars().any(hidden)
}

/// Whether `text` is printable ASCII and tabs only: no character of it is [`hidden`], and it
/// has as many characters as bytes. Most lines and messages are, and this byte test is several
/// times cheaper than decoding each character and asking [`hidden`] (a tenth of printing
/// 14,000 warnings went to that).
fn plain(text: &str) -> bool {
    text.bytes()
        .all(|b| (b' '..=b'~').contains(&b) || b == b'\t')
}

/// Whether the lines miette would show around `spans` (file byte ranges) of `file` can be
/// given to it as they are; otherwise they go through [`Clipped`].
pub(crate) fn shows_whole(file: &SourceFile, spans: &[(usize, usize)]) -> bool {
    let text: &str = &file.text;
    let last_line = file.line_index(text.len() as u32);
    spans.iter().all(|&(start, end)| {
        let first = file.line_index(start as u32).saturating_sub(BEFORE);
        let last = (file.line_index(end.max(start) as u32) + AFTER).min(last_line);
        (first..=last).all(|line| {
            let from = file.line_start(line);
            let to = file.line_start_or_end(line + 1);
            shows_as_is(text[from..to].trim_end_matches(['\n', '\r']))
        })
    })
}

/// `text` with every character that must not reach a terminal shown by its picture, line
/// breaks and tabs kept: for messages, which quote names and values from the template.
pub(crate) fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if plain(text) || !text.chars().any(|c| c != '\n' && hidden(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if c != '\n' && hidden(c) {
                picture(c)
            } else {
                c
            }
        })
        .collect::<String>()
        .into()
}

/// Whether a character must not reach a terminal as it is: control characters other than tab,
/// and the bidirectional formatting characters that reorder what is shown ("Trojan Source").
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

/// The visible stand-in for a hidden character: the Control Pictures block for C0 controls and
/// delete, the replacement character for the rest.
fn picture(c: char) -> char {
    match c as u32 {
        n @ 0..=0x1F => char::from_u32(0x2400 + n).unwrap_or('\u{FFFD}'),
        0x7F => '\u{2421}',
        _ => '\u{FFFD}',
    }
}

/// A position kept on a line: where it is in the file and in the clipped text.
#[derive(Debug, Clone, Copy)]
struct Mark {
    file: usize,
    clipped: usize,
    /// The mark starts a cut: file offsets up to the next mark all fall into the ellipsis.
    cut: bool,
}

/// Consecutive lines of the file, clipped, with their own line numbers.
struct Chunk {
    /// 0-based line of the file the chunk starts at.
    first_line: usize,
    /// File offsets of the chunk's first byte and one past its last line's break.
    file_start: usize,
    file_end: usize,
    /// Where the chunk starts in the clipped coordinates (chunks are laid end to end).
    start: usize,
    text: String,
    marks: Vec<Mark>,
}

/// Some lines of one file, clipped and made visible, as a miette source.
pub(crate) struct Clipped<'a> {
    file: &'a SourceFile,
    name: String,
    chunks: Vec<Chunk>,
}

impl<'a> Clipped<'a> {
    /// The lines around `spans` (file byte ranges) of `file`.
    pub(crate) fn new(file: &'a SourceFile, spans: &[(usize, usize)]) -> Self {
        let text: &str = &file.text;
        let last_line = file.line_index(text.len() as u32);
        // Line ranges to show, merged where they touch.
        let mut ranges: Vec<(usize, usize)> = spans
            .iter()
            .map(|&(start, end)| {
                let first = file.line_index(start as u32).saturating_sub(BEFORE);
                let last = file.line_index(end.max(start) as u32) + AFTER;
                (first, last.min(last_line))
            })
            .collect();
        ranges.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (first, last) in ranges {
            match merged.last_mut() {
                Some(prev) if first <= prev.1 + 1 => prev.1 = prev.1.max(last),
                _ => merged.push((first, last)),
            }
        }
        let mut points: Vec<usize> = spans.iter().flat_map(|&(s, e)| [s, e]).collect();
        points.sort_unstable();
        let mut chunks = Vec::with_capacity(merged.len());
        let mut start = 0;
        for (first, last) in merged {
            let chunk = Chunk::new(file, first, last, &points, start);
            // One byte between chunks, so no offset belongs to two.
            start += chunk.text.len() + 1;
            chunks.push(chunk);
        }
        Clipped {
            file,
            name: visible(&file.name).into_owned(),
            chunks,
        }
    }

    /// The file offset of the character at `offset` of the clipped text (of a cut: where the
    /// cut begins).
    fn unmap(&self, chunk: &Chunk, offset: usize) -> usize {
        let local = offset - chunk.start;
        let i = chunk.marks.partition_point(|m| m.clipped <= local);
        i.checked_sub(1)
            .map_or(chunk.file_start, |i| chunk.marks[i].file)
    }

    /// Where the file offset `offset` is in the clipped text. `end` tells the end of a span
    /// from its start: an end inside a cut takes the ellipsis in, a start inside one begins at
    /// it.
    pub(crate) fn map(&self, offset: usize, end: bool) -> usize {
        let Some(chunk) = self
            .chunks
            .iter()
            .find(|c| (c.file_start..=c.file_end).contains(&offset))
        else {
            return 0;
        };
        let i = chunk.marks.partition_point(|m| m.file <= offset);
        let Some(mark) = i.checked_sub(1).map(|i| chunk.marks[i]) else {
            return chunk.start;
        };
        let at = if mark.file == offset || !mark.cut || !end {
            mark.clipped
        } else {
            mark.clipped + ELLIPSIS.len()
        };
        chunk.start + at
    }
}

impl Chunk {
    fn new(file: &SourceFile, first: usize, last: usize, points: &[usize], start: usize) -> Self {
        let text: &str = &file.text;
        let file_start = file.line_start(first);
        let file_end = file.line_start_or_end(last + 1);
        let mut chunk = Chunk {
            first_line: first,
            file_start,
            file_end,
            start,
            text: String::new(),
            marks: Vec::new(),
        };
        for line in first..=last {
            let line_start = file.line_start(line);
            let next = file.line_start_or_end(line + 1);
            let body = text[line_start..next]
                .strip_suffix('\n')
                .map(|b| b.strip_suffix('\r').unwrap_or(b))
                .unwrap_or(&text[line_start..next]);
            let here: Vec<usize> = points
                .iter()
                .filter(|&&p| p >= line_start && p <= line_start + body.len())
                .map(|&p| p - line_start)
                .collect();
            chunk.line(line_start, body, &here);
            // The line break: every offset past the body maps to the end of the line.
            chunk.mark(line_start + body.len(), false);
            if line < last {
                chunk.text.push('\n');
            }
        }
        chunk
    }

    fn mark(&mut self, file: usize, cut: bool) {
        self.marks.push(Mark {
            file,
            clipped: self.text.len(),
            cut,
        });
    }

    /// Adds one line (`body`, starting at file offset `at`), keeping the characters around
    /// `points` (offsets in the line) when it is long.
    fn line(&mut self, at: usize, body: &str, points: &[usize]) {
        let chars: Vec<(usize, char)> = body.char_indices().collect();
        let windows = if chars.len() <= LONG_LINE {
            vec![(0, chars.len())]
        } else {
            windows(&chars, points)
        };
        let mut shown_to = 0;
        for (from, to) in windows {
            if from > shown_to {
                self.mark(at + chars[shown_to].0, true);
                self.text.push_str(ELLIPSIS);
            }
            for &(offset, c) in &chars[from..to] {
                self.mark(at + offset, false);
                self.text.push(if hidden(c) { picture(c) } else { c });
            }
            shown_to = to;
        }
        if shown_to < chars.len() {
            self.mark(at + chars[shown_to].0, true);
            self.text.push_str(ELLIPSIS);
        }
    }
}

/// The character ranges of a long line to keep: [`KEEP`] either side of each point (the
/// start of the line when there is none), merged where they overlap.
fn windows(chars: &[(usize, char)], points: &[usize]) -> Vec<(usize, usize)> {
    let mut centres: Vec<usize> = points
        .iter()
        .map(|&p| chars.partition_point(|&(offset, _)| offset < p))
        .collect();
    if centres.is_empty() {
        centres.push(KEEP);
    }
    let mut out: Vec<(usize, usize)> = Vec::new();
    for c in centres {
        let (from, to) = (c.saturating_sub(KEEP), (c + KEEP).min(chars.len()));
        match out.last_mut() {
            Some(prev) if from <= prev.1 => prev.1 = prev.1.max(to),
            _ => out.push((from, to)),
        }
    }
    out
}

impl SourceCode for Clipped<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let chunk = self
            .chunks
            .iter()
            .find(|c| span.offset() >= c.start && span.offset() <= c.start + c.text.len())
            .ok_or(MietteError::OutOfBounds)?;
        if span.offset() + span.len() > chunk.start + chunk.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let local = SourceSpan::new((span.offset() - chunk.start).into(), span.len());
        let inner = <str as SourceCode>::read_span(
            &chunk.text,
            &local,
            context_lines_before,
            context_lines_after,
        )?;
        // miette gives, for a span read without context, the bytes before it on its line (its
        // header's column): those of the file, not of the clipped line.
        let column = if context_lines_before == 0 {
            let at = self.unmap(chunk, span.offset());
            at - self.file.line_start(self.file.line_index(at as u32))
        } else {
            inner.column()
        };
        Ok(super::snippet::shifted(
            self.name.clone(),
            &*inner,
            chunk.start,
            chunk.first_line,
            column,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::{Origin, SourceMap};

    /// Each test reads through its own map, so the clipped view can borrow it.
    fn clipped<'m>(
        map: &'m mut SourceMap,
        text: &str,
        spans: &[(usize, usize)],
    ) -> (Clipped<'m>, Vec<(usize, usize)>) {
        let id = map.add("t.yaml", Origin::Stdin, text);
        let map: &'m SourceMap = map;
        let c = Clipped::new(map.get(id), spans);
        let mapped = spans
            .iter()
            .map(|&(s, e)| (c.map(s, false), c.map(e, true)))
            .collect();
        (c, mapped)
    }

    #[test]
    fn a_short_clean_file_is_kept_as_it_is() {
        let text = "a: 1\nb: 2\nc: 3\n";
        let mut map = SourceMap::new();
        let (c, mapped) = clipped(&mut map, text, &[(5, 9)]);
        assert_eq!(c.chunks.len(), 1);
        assert_eq!(c.chunks[0].text, text);
        assert_eq!(mapped, vec![(5, 9)]);
    }

    #[test]
    fn a_long_line_keeps_a_window_around_the_span() {
        let line = format!("d: {}!{}", "x".repeat(70_000), "y".repeat(10_000));
        let bang = 3 + 70_000;
        let text = format!("a: 1\n{line}\nb: 2\n");
        let mut map = SourceMap::new();
        let (c, mapped) = clipped(&mut map, &text, &[(5 + bang, 6 + bang)]);
        let shown = &c.chunks[0].text;
        assert!(shown.len() < 400, "{}", shown.len());
        let (s, e) = mapped[0];
        assert_eq!(&shown[s..e], "!");
        assert!(shown.contains(&format!("…{}!{}…", "x".repeat(KEEP), "y".repeat(KEEP))));
    }

    #[test]
    fn a_span_across_a_cut_underlines_the_ellipsis() {
        let line = "z".repeat(1_000);
        let mut map = SourceMap::new();
        let (c, mapped) = clipped(&mut map, &line, &[(10, 900)]);
        let shown = &c.chunks[0].text;
        let (s, e) = mapped[0];
        assert_eq!(shown[s..e].matches('…').count(), 1, "{}", &shown[s..e]);
        assert_eq!(shown[s..e].chars().count(), 60 + 1 + 60);
        // An offset inside the cut: a start begins at the ellipsis, an end takes it in.
        let cut = shown.find('…').unwrap();
        assert_eq!(c.map(500, false), cut);
        assert_eq!(c.map(500, true), cut + '…'.len_utf8());
    }

    #[test]
    fn control_characters_are_shown_as_pictures() {
        let text = "a: \"\u{1b}[31mred\u{7}\u{202e}x\"\nb: 1\r2\n";
        let mut map = SourceMap::new();
        let (c, mapped) = clipped(&mut map, text, &[(0, 1), (23, 24)]);
        let shown = &c.chunks[0].text;
        assert!(
            shown.contains("\u{241b}[31mred\u{2407}\u{FFFD}x"),
            "{shown}"
        );
        assert!(shown.contains("b: 1\u{240d}2"), "{shown}");
        assert!(!shown.lines().any(|l| l.chars().any(hidden)), "{shown:?}");
        assert_eq!(mapped[0], (0, 1));
    }

    #[test]
    fn lines_far_apart_are_separate_chunks_with_their_own_numbers() {
        let mut text = String::new();
        for i in 0..1_000 {
            text.push_str(&format!("k{i}: {i}\n"));
        }
        let far = text.find("k900:").unwrap();
        let mut map = SourceMap::new();
        let (c, _) = clipped(&mut map, &text, &[(0, 2), (far, far + 4)]);
        assert_eq!(c.chunks.len(), 2);
        assert_eq!(c.chunks[1].first_line, 899);
        let contents = c
            .read_span(&SourceSpan::new(c.map(far, false).into(), 4), 1, 1)
            .unwrap();
        assert_eq!(contents.line(), 899);
    }

    #[test]
    fn wide_characters_and_tabs_are_counted_as_characters() {
        let line = format!("{}\t{}", "漢".repeat(5_000), "字".repeat(5_000));
        let tab = "漢".repeat(5_000).len();
        let mut map = SourceMap::new();
        let (c, mapped) = clipped(&mut map, &line, &[(tab, tab + 1)]);
        let (s, e) = mapped[0];
        assert_eq!(&c.chunks[0].text[s..e], "\t");
        assert!(c.chunks[0].text.chars().count() < 2 * KEEP + 4);
    }
}
