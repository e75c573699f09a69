//! Under-indented continuation lines of quoted strings, indented in a copy of the text so the
//! scanner accepts what libyaml, PyYAML and go-yaml accept, with offsets mapped back.

/// How many times one file is re-read with an under-indented quoted-string continuation line
/// fixed.
pub(super) const MAX_QUOTE_FIXES: usize = 32;

/// Spaces inserted into a copy of the text, so that granit-parser accepts what libyaml, PyYAML
/// and go-yaml accept: a multi-line quoted string whose continuation lines are not indented
/// more than its key, as in the TOSCA 2.0 specification's own example
///
/// ```yaml
/// description: "A multiline description
/// using a quoted string"
/// ```
///
/// (strict YAML 1.2 wants the second line indented). The leading spaces of a continuation line
/// are folded away, so the decoded text is the same; spans are mapped back to the original.
#[derive(Default)]
pub(super) struct Patch {
    /// The patched text; `None` while nothing was inserted.
    pub(super) text: Option<String>,
    /// Insertions in original byte offsets, ascending: (offset, number of spaces).
    inserts: Vec<(usize, usize)>,
}

impl Patch {
    /// The original byte offset of a byte offset in the patched text.
    pub(super) fn original(&self, patched: usize) -> usize {
        let mut shift = 0;
        for &(at, count) in &self.inserts {
            let here = at + shift;
            if patched < here {
                break;
            }
            if patched < here + count {
                return at;
            }
            shift += count;
        }
        patched - shift
    }

    /// Indents the line whose content starts at `offset` (original) one column more than the
    /// line before it. Returns false when the line does not look like a quoted continuation.
    pub(super) fn indent_continuation(&mut self, original: &str, offset: usize) -> bool {
        let bytes = original.as_bytes();
        let Some(line_start) = bytes
            .get(..offset)
            .map(|b| b.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1))
        else {
            return false;
        };
        if line_start == 0 || !bytes[line_start..offset].iter().all(|&c| c == b' ') {
            return false;
        }
        let already = self
            .inserts
            .iter()
            .find(|(at, _)| *at == offset)
            .map_or(0, |(_, n)| *n);
        let indent = offset - line_start + already;
        // The indentation of the previous non-blank line, as patched.
        let mut prev_end = line_start - 1;
        let prev_indent = loop {
            let prev_start = bytes[..prev_end]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |p| p + 1);
            let line = &bytes[prev_start..prev_end];
            let spaces = line.iter().take_while(|&&c| c == b' ').count();
            if line[spaces..].iter().any(|c| !c.is_ascii_whitespace()) {
                let patched = self
                    .inserts
                    .iter()
                    .find(|(at, _)| *at == prev_start + spaces)
                    .map_or(0, |(_, n)| *n);
                break spaces + patched;
            }
            if prev_start == 0 {
                return false;
            }
            prev_end = prev_start - 1;
        };
        let need = (prev_indent + 1).saturating_sub(indent).max(1);
        match self.inserts.iter_mut().find(|(at, _)| *at == offset) {
            Some((_, n)) => *n += need,
            None => {
                let pos = self.inserts.partition_point(|(at, _)| *at < offset);
                self.inserts.insert(pos, (offset, need));
            }
        }
        let mut text = String::with_capacity(original.len() + self.inserts.len() * 8);
        let mut from = 0;
        for &(at, count) in &self.inserts {
            text.push_str(&original[from..at]);
            text.extend(std::iter::repeat_n(' ', count));
            from = at;
        }
        text.push_str(&original[from..]);
        self.text = Some(text);
        true
    }
}
