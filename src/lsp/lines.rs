//! Positions as the Language Server Protocol counts them: a 0-based line and a column in UTF-16
//! code units (the protocol's default encoding, and the only one every client supports), where
//! toscana counts bytes. `é` is two bytes and one unit, `𝄞` four bytes and two units.

use lsp_types::{Position, Range};

/// The line starts of one text, to turn byte offsets into positions and back in time
/// proportional to one line, not the file.
pub struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        Lines { text, starts }
    }

    /// The position of a byte offset (clamped to the text, and back to a character boundary).
    pub fn position(&self, byte: usize) -> Position {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= byte) - 1;
        let character = self.text[self.starts[line]..byte]
            .chars()
            .map(char::len_utf16)
            .sum::<usize>();
        Position::new(line as u32, character as u32)
    }

    /// The range of a byte range.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of a position: past the end of its line is the line's end (before its
    /// line break), past the last line the end of the text, as the protocol asks.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let line = &self.text[start..end.max(start)];
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.trim_end_matches('\r').len()
    }

    /// The text of a 0-based line, without its line break.
    pub fn line(&self, line: u32) -> &'t str {
        let Some(&start) = self.starts.get(line as usize) else {
            return "";
        };
        let end = self
            .starts
            .get(line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        self.text[start..end.max(start)].trim_end_matches('\r')
    }

    /// How many lines the text has (a text ending in a line break has an empty last line).
    pub fn count(&self) -> u32 {
        self.starts.len() as u32
    }

    /// The byte offset where a 0-based line starts.
    pub fn line_start(&self, line: u32) -> usize {
        self.starts
            .get(line as usize)
            .copied()
            .unwrap_or(self.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units_not_bytes() {
        let text = "a: 1\nhé𝄞: x\n";
        let lines = Lines::new(text);
        // `x` is byte 14: `h` 1 + `é` 2 + `𝄞` 4 + `: ` 2 after the line start at 5.
        assert_eq!(lines.position(14), Position::new(1, 6));
        assert_eq!(lines.offset(Position::new(1, 6)), 14);
        // Inside a character, the position falls back to its start.
        assert_eq!(lines.position(7), Position::new(1, 1));
    }

    #[test]
    fn positions_past_a_line_or_the_text_are_clamped() {
        let lines = Lines::new("ab\r\ncd");
        assert_eq!(lines.offset(Position::new(0, 99)), 2);
        assert_eq!(lines.offset(Position::new(7, 0)), 6);
        assert_eq!(lines.line(0), "ab");
        assert_eq!(lines.line(1), "cd");
    }
}
