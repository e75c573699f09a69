//! `TOSCA.meta`: the small `Key: value` file that tells a CSAR reader where the service
//! template is.
//!
//! The syntax is the TOSCA 1.0 meta format that both the Simple Profile (1.x) and TOSCA 2.0 use:
//! `Key: value` lines, a line starting with a space continues the previous value, and blank
//! lines separate blocks. Only block 0 has keys with meaning; later blocks (per-file metadata in
//! TOSCA 1.0 XML CSARs) are kept as data.

use indexmap::IndexMap;

use super::{FileId, SourceFile, Span};
use crate::diag::{Diagnostic, codes};

/// What a CSAR's `TOSCA.meta` says, in the order it says it.
///
/// Kept on [`Input`](super::Input) because later stages need it: the front end checks
/// `CSAR-Version` against the dialect (1.1 for the Simple Profile, 2.0 for TOSCA 2.0), and
/// `Other-Definitions` names the substitution candidates of a TOSCA 2.0 CSAR.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CsarMeta {
    /// The meta file in the [`SourceMap`](super::SourceMap), so later stages can point at a key;
    /// `None` when the archive had no `TOSCA.meta` and the entry was found by the root-file rule
    /// (allowed by TOSCA 2.0, not by the Simple Profile, so the front end decides).
    pub meta_file: Option<FileId>,
    /// `TOSCA-Meta-File-Version` (1.x) or `TOSCA-Meta-Version`, as written.
    pub meta_file_version: Option<String>,
    /// `CSAR-Version`, as written (`1.1`, `2.0`).
    pub csar_version: Option<String>,
    /// `Created-By`.
    pub created_by: Option<String>,
    /// `Entry-Definitions`: the archive path of the service template.
    pub entry_definitions: Option<String>,
    /// `Other-Definitions`: archive paths of further definitions (TOSCA 2.0 substitution
    /// candidates), unquoted.
    pub other_definitions: Vec<String>,
    /// Every other key of block 0, in file order.
    pub other: IndexMap<String, String>,
    /// Blocks after block 0, each in file order (per-file metadata, custom keys).
    pub extra_blocks: Vec<IndexMap<String, String>>,
    /// Where each block-0 key's value is in the meta file, keyed by the key as written, so a
    /// later stage can report "CSAR-Version must be 2.0" at the right place.
    pub spans: IndexMap<String, Span>,
}

impl CsarMeta {
    /// Block 0 as one ordered map for the IR: the keys with a meaning first (in their spec
    /// spelling), then every other key in file order.
    pub fn to_map(&self) -> IndexMap<String, String> {
        let mut out = IndexMap::new();
        let known = [
            ("TOSCA-Meta-File-Version", self.meta_file_version.clone()),
            ("CSAR-Version", self.csar_version.clone()),
            ("Created-By", self.created_by.clone()),
            ("Entry-Definitions", self.entry_definitions.clone()),
            (
                "Other-Definitions",
                (!self.other_definitions.is_empty()).then(|| self.other_definitions.join(" ")),
            ),
        ];
        for (key, value) in known {
            if let Some(value) = value {
                out.insert(key.to_string(), value);
            }
        }
        out.extend(self.other.iter().map(|(k, v)| (k.clone(), v.clone())));
        out
    }
}

/// The block-0 keys with a meaning, matched without regard to ASCII case because real CSARs
/// write `Created-by` and `Entry-definitions`.
const META_VERSION_KEYS: [&str; 2] = ["TOSCA-Meta-File-Version", "TOSCA-Meta-Version"];

/// Parses a meta file already added to the source map as `id`. All syntax problems are pushed
/// as `csar::meta` errors at their line and column; `None` when any was found.
/// A `Key: value` entry of TOSCA.meta, with the span of its value (continuation lines
/// included).
type Entry = (String, String, Span);

/// TOSCA.meta's lines as blocks of entries (blocks are separated by blank lines; a line
/// starting with a space continues the value before it). Malformed lines are reported and
/// skipped.
fn read_blocks(file: &SourceFile, id: FileId, errors: &mut Vec<Diagnostic>) -> Vec<Vec<Entry>> {
    let text: &str = &file.text;
    let mut blocks: Vec<Vec<Entry>> = vec![Vec::new()];
    let mut offset = 0usize;
    for raw_line in text.split_inclusive('\n') {
        let start = offset;
        offset += raw_line.len();
        let line = raw_line.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            if blocks.last().is_some_and(|b| !b.is_empty()) {
                blocks.push(Vec::new());
            }
            continue;
        }
        let span_of = |from: usize, len: usize| {
            file.span(id, (start + from) as u32, (start + from + len) as u32)
        };
        if line.starts_with([' ', '\t']) {
            let block = blocks.last_mut().expect("blocks is never empty");
            match block.last_mut() {
                Some((_, value, span)) => {
                    let more = line.trim();
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(more);
                    span.end = (start + line.len()) as u32;
                }
                None => errors.push(
                    Diagnostic::error(
                        codes::CSAR_META,
                        "a continuation line (starting with a space) with no key before it",
                    )
                    .at(span_of(0, line.len()))
                    .hint("start the block with a `Key: value` line, or remove the leading space"),
                ),
            }
            continue;
        }
        let Some(colon) = line.find(':') else {
            errors.push(
                Diagnostic::error(
                    codes::CSAR_META,
                    format!("expected `Key: value` in TOSCA.meta, found `{line}`"),
                )
                .at(span_of(0, line.len()))
                .hint(
                    "each line of TOSCA.meta is `Key: value`, e.g. `Entry-Definitions: main.yaml`",
                ),
            );
            continue;
        };
        let key = line[..colon].trim();
        if key.is_empty() {
            errors.push(
                Diagnostic::error(codes::CSAR_META, "a TOSCA.meta line with no key before `:`")
                    .at(span_of(0, line.len())),
            );
            continue;
        }
        let after = &line[colon + 1..];
        let value = after.trim();
        let value_from = colon + 1 + (after.len() - after.trim_start().len());
        blocks.last_mut().expect("blocks is never empty").push((
            key.to_string(),
            value.to_string(),
            span_of(value_from, value.len()),
        ));
    }
    if blocks.last().is_some_and(|b| b.is_empty()) {
        blocks.pop();
    }
    blocks
}

pub(crate) fn parse_meta(file: &SourceFile, id: FileId) -> Result<CsarMeta, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let blocks = read_blocks(file, id, &mut errors);
    let mut meta = CsarMeta {
        meta_file: Some(id),
        ..CsarMeta::default()
    };
    let mut first_span: IndexMap<String, Span> = IndexMap::new();
    let mut blocks = blocks.into_iter();
    for (key, value, span) in blocks.next().unwrap_or_default() {
        let folded = key.to_ascii_lowercase();
        if let Some(earlier) = first_span.get(&folded) {
            errors.push(
                Diagnostic::error(
                    codes::CSAR_META,
                    format!("`{key}` is given twice in block 0 of TOSCA.meta"),
                )
                .at(span)
                .label(*earlier, "first given here")
                .hint("keep one of them"),
            );
            continue;
        }
        first_span.insert(folded.clone(), span);
        meta.spans.insert(key.clone(), span);
        let is = |name: &str| key.eq_ignore_ascii_case(name);
        if META_VERSION_KEYS.iter().any(|k| is(k)) {
            meta.meta_file_version = Some(value);
        } else if is("CSAR-Version") {
            meta.csar_version = Some(value);
        } else if is("Created-By") {
            meta.created_by = Some(value);
        } else if is("Entry-Definitions") {
            meta.entry_definitions = Some(value);
        } else if is("Other-Definitions") {
            match split_quoted(&value) {
                Ok(names) => meta.other_definitions = names,
                Err(why) => errors.push(
                    Diagnostic::error(codes::CSAR_META, format!("bad `{key}` value: {why}"))
                        .at(span)
                        .hint("separate names with spaces and put names that contain spaces in double quotes"),
                ),
            }
        } else {
            meta.other.insert(key, value);
        }
    }
    for block in blocks {
        let mut map = IndexMap::new();
        for (key, value, _) in block {
            map.entry(key).or_insert(value);
        }
        meta.extra_blocks.push(map);
    }
    if errors.is_empty() {
        Ok(meta)
    } else {
        Err(errors)
    }
}

/// Splits `a "b c" d` into `a`, `b c`, `d` (the `Other-Definitions` list syntax).
fn split_quoted(value: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = value.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&first) = chars.peek() else {
            return Ok(out);
        };
        let mut name = String::new();
        if first == '"' {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => name.push(c),
                    None => return Err("a double quote is not closed".into()),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                name.push(c);
                chars.next();
            }
        }
        out.push(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{Origin, SourceMap};

    fn parse(text: &str) -> Result<CsarMeta, Vec<Diagnostic>> {
        let mut map = SourceMap::new();
        let id = map.add("a.csar!/TOSCA-Metadata/TOSCA.meta", Origin::Stdin, text);
        parse_meta(map.get(id), id)
    }

    #[test]
    fn reads_block_0_keys_continuations_and_other_blocks() {
        let meta = parse(
            "TOSCA-Meta-File-Version: 1.0\r\nCSAR-Version: 1.1\nCreated-by: Niraj\n\
             Entry-Definitions: Definitions/\n  main.yaml\n\
             Other-Definitions: a.yaml \"with space.yaml\" b.yaml\nX-Custom: 1\n\n\
             Name: Files/x.img\nContent-Type: image\n",
        )
        .unwrap();
        assert_eq!(meta.meta_file_version.as_deref(), Some("1.0"));
        assert_eq!(meta.csar_version.as_deref(), Some("1.1"));
        assert_eq!(meta.created_by.as_deref(), Some("Niraj"));
        // Continuation lines join with one space, as TOSCA 2.0 says leading spaces collapse.
        assert_eq!(
            meta.entry_definitions.as_deref(),
            Some("Definitions/ main.yaml")
        );
        assert_eq!(
            meta.other_definitions,
            ["a.yaml", "with space.yaml", "b.yaml"]
        );
        assert_eq!(meta.other.get("X-Custom").map(String::as_str), Some("1"));
        assert_eq!(meta.extra_blocks.len(), 1);
        assert_eq!(meta.extra_blocks[0]["Name"], "Files/x.img");
        let span = meta.spans["CSAR-Version"];
        assert_eq!((span.line, span.col), (2, 15));
    }

    #[test]
    fn a_line_without_colon_is_an_error_at_its_line() {
        let errors = parse("TOSCA-Meta-File-Version: 1.0\nCSAR-Version, 1.1\n").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].code, codes::CSAR_META);
        let span = errors[0].span.unwrap();
        assert_eq!((span.line, span.col), (2, 1));
        assert!(errors[0].message.contains("CSAR-Version, 1.1"));
    }

    #[test]
    fn duplicate_keys_and_orphan_continuations_and_open_quotes_are_errors() {
        let errors = parse(" orphan\nCSAR-Version: 1\ncsar-version: 2\nOther-Definitions: \"a\n")
            .unwrap_err();
        let lines: Vec<u32> = errors.iter().map(|d| d.span.unwrap().line).collect();
        assert_eq!(lines, [1, 3, 4]);
        assert!(errors.iter().all(|d| d.code == codes::CSAR_META));
    }
}
