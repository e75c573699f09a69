//! The `SourceMap`: every file read in a run, kept whole so diagnostics can quote it.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

/// Index of a file in the [`SourceMap`]. Stable for the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Default)]
pub struct FileId(pub u32);

/// A region of one source file.
///
/// Byte offsets are what snippet renderers need; line and column (both 1-based, column counted
/// in characters) are what people and editors need, so both are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column of `start`, in characters.
    pub col: u32,
}

impl Span {
    /// The byte range, for slicing the file text.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Where a file came from, for messages and for resolving relative imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A file on disk.
    Path(PathBuf),
    /// An entry of a CSAR: the archive and the entry's path inside it (always `/`-separated).
    Archive { archive: PathBuf, entry: String },
    /// Standard input.
    Stdin,
    /// A profile compiled into the binary.
    Builtin(String),
}

/// One file's text with its line index.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown to users (`dir/file.yaml`, `app.csar!/Definitions/main.yaml`, `<stdin>`).
    pub name: String,
    pub origin: Origin,
    pub text: Arc<str>,
    line_starts: Vec<u32>,
    /// Whether the text has a `\r` not followed by `\n`, which some renderers count as a line
    /// break and the line index does not.
    pub(crate) bare_cr: bool,
}

impl SourceFile {
    /// 1-based line and character column of a byte offset (clamped to the file).
    pub fn line_col(&self, byte: u32) -> (u32, u32) {
        let byte = byte.min(self.text.len() as u32);
        let line_index = self.line_index(byte);
        let line_start = self.line_starts[line_index] as usize;
        let mut end = byte as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text[line_start..end].chars().count() as u32 + 1;
        (line_index as u32 + 1, col)
    }

    /// 0-based index of the line that holds a byte offset (the last line past the end).
    pub(crate) fn line_index(&self, byte: u32) -> usize {
        self.line_starts.partition_point(|&start| start <= byte) - 1
    }

    /// Byte offset where each line starts, the first line's (0) included.
    pub(crate) fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }

    /// Byte offset where a 0-based line starts.
    pub(crate) fn line_start(&self, line_index: usize) -> usize {
        self.line_starts[line_index] as usize
    }

    /// Byte offset where a 0-based line starts, or the end of the text past the last line.
    pub(crate) fn line_start_or_end(&self, line_index: usize) -> usize {
        self.line_starts
            .get(line_index)
            .map_or(self.text.len(), |&start| start as usize)
    }

    /// A span over a byte range, with its line and column computed.
    pub fn span(&self, id: FileId, start: u32, end: u32) -> Span {
        let (line, col) = self.line_col(start);
        Span {
            file: id,
            start,
            end,
            line,
            col,
        }
    }
}

/// All files of a run, addressed by [`FileId`].
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id. The text is kept for the whole run.
    pub fn add(
        &mut self,
        name: impl Into<String>,
        origin: Origin,
        text: impl Into<Arc<str>>,
    ) -> FileId {
        let text: Arc<str> = text.into();
        // memchr finds the line breaks a word (or vector) at a time: this index is the one every
        // stage shares (the YAML loader's spans, IR locations turned back into spans), and a
        // byte-by-byte filter over a 10 MB template was a visible part of reading it.
        let mut line_starts = vec![0u32];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1));
        let bytes = text.as_bytes();
        let bare_cr = text.contains('\r')
            && bytes
                .iter()
                .enumerate()
                .any(|(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile {
            name: name.into(),
            origin,
            text,
            line_starts,
            bare_cr,
        });
        id
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The source text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        &self.get(span.file).text[span.range()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let mut map = SourceMap::new();
        let id = map.add("t.yaml", Origin::Stdin, "a: 1\nhé: x\n");
        let file = map.get(id);
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(5), (2, 1));
        // `x` is byte 10 (é is two bytes) but character column 5.
        assert_eq!(file.line_col(10), (2, 5));
        assert_eq!(map.slice(file.span(id, 5, 8)), "hé");
    }
}
