//! The embedded profiles' YAML events, recorded when toscana is built.
//!
//! Every run reads the profile of its TOSCA version, and scanning its 40 KB of YAML was two
//! thirds of checking a small template. The events granit-parser gives for a profile never
//! change between runs, so `build.rs` records them once ([`record`]) and a run replays them
//! ([`Replay`]) into the same loader that builds every other tree: the tree, its spans and its
//! scalar resolution come out exactly as if the text had been scanned (a test compares both).
//!
//! This file is compiled twice: into the crate and into `build.rs` (by `#[path]`), so the
//! recording and the replay cannot drift apart. It depends on granit-parser and `std` only.
//!
//! The format is a sequence of events, each a kind byte, its start and end byte offsets in the
//! file, then what the kind carries; numbers are little-endian `u32`, strings a length then UTF-8.

use std::borrow::Cow;

use granit_parser::{Event, Options, Parser, ScalarStyle, StructureStyle, Tag};

const STREAM_START: u8 = 0;
const STREAM_END: u8 = 1;
const DOCUMENT_START: u8 = 2;
const DOCUMENT_END: u8 = 3;
const ALIAS: u8 = 4;
const SCALAR: u8 = 5;
const SEQUENCE_START: u8 = 6;
const SEQUENCE_END: u8 = 7;
const MAPPING_START: u8 = 8;
const MAPPING_END: u8 = 9;

/// The parser options of a recording: those of the loader (`load.rs`), whose nesting limits
/// only guard the parser's own stack (the loader checks the depth limit itself).
pub fn options() -> Options {
    let mut options = Options::default();
    options.emit_unresolved_aliases = true;
    options.set_emit_comments(false);
    options
}

/// The events of `text`, recorded. A profile is our own file, so anything the replay could not
/// reproduce exactly (a syntax error, a `%YAML` directive, an unresolved alias, a tab or
/// non-breaking space the loader would report) is refused with the reason, failing the build.
pub fn record(text: &str) -> Result<Vec<u8>, String> {
    if let Some(at) = text.find(['\t', '\u{a0}']) {
        return Err(format!(
            "byte {at}: a tab or non-breaking space, which the loader's pre-scan may report"
        ));
    }
    let mut out = Vec::with_capacity(text.len());
    for item in Parser::new_from_str_with_options(text, options()) {
        let (event, span) = item.map_err(|e| format!("{e}"))?;
        let start = span.start.byte_offset().unwrap_or(0);
        let end = span.end.byte_offset().unwrap_or(start);
        let at = out.len();
        out.push(0);
        number(&mut out, start);
        number(&mut out, end.max(start));
        out[at] = match event {
            Event::StreamStart => STREAM_START,
            Event::StreamEnd => STREAM_END,
            Event::DocumentStart(explicit, None) => {
                out.push(u8::from(explicit));
                DOCUMENT_START
            }
            Event::DocumentEnd => DOCUMENT_END,
            Event::Alias(id) => {
                number(&mut out, id);
                ALIAS
            }
            Event::Scalar(value, style, anchor, tag) => {
                out.push(scalar_style(style));
                number(&mut out, anchor);
                tag_of(&mut out, tag.as_deref());
                string(&mut out, &value);
                SCALAR
            }
            Event::SequenceStart(style, anchor, tag) => {
                structure(&mut out, style, anchor, tag.as_deref());
                SEQUENCE_START
            }
            Event::SequenceEnd => SEQUENCE_END,
            Event::MappingStart(style, anchor, tag) => {
                structure(&mut out, style, anchor, tag.as_deref());
                MAPPING_START
            }
            Event::MappingEnd => MAPPING_END,
            other => return Err(format!("byte {start}: cannot record {other:?}")),
        };
    }
    Ok(out)
}

fn number(out: &mut Vec<u8>, n: usize) {
    let n = u32::try_from(n).expect("an embedded profile is far smaller than 4 GiB");
    out.extend_from_slice(&n.to_le_bytes());
}

fn string(out: &mut Vec<u8>, s: &str) {
    number(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// What a sequence or mapping start carries; read back by [`Replay::structure`].
fn structure(out: &mut Vec<u8>, style: StructureStyle, anchor: usize, tag: Option<&Tag>) {
    out.push(u8::from(style == StructureStyle::Flow));
    number(out, anchor);
    tag_of(out, tag);
}

fn tag_of(out: &mut Vec<u8>, tag: Option<&Tag>) {
    match tag {
        None => out.push(0),
        Some(tag) => {
            out.push(1);
            string(out, tag.handle());
            string(out, tag.suffix());
            string(out, tag.original_handle());
        }
    }
}

fn scalar_style(style: ScalarStyle) -> u8 {
    match style {
        ScalarStyle::Plain => 0,
        ScalarStyle::SingleQuoted => 1,
        ScalarStyle::DoubleQuoted => 2,
        ScalarStyle::Literal => 3,
        ScalarStyle::Folded => 4,
    }
}

/// Replays a recording made by [`record`]: the events with their start and end byte offsets,
/// scalars borrowing their text from the recording.
pub struct Replay<'r> {
    bytes: &'r [u8],
}

impl<'r> Replay<'r> {
    pub fn new(bytes: &'r [u8]) -> Self {
        Replay { bytes }
    }

    fn byte(&mut self) -> u8 {
        let (first, rest) = self.bytes.split_first().expect("a complete recording");
        self.bytes = rest;
        *first
    }

    fn number(&mut self) -> usize {
        let (head, rest) = self.bytes.split_at(4);
        self.bytes = rest;
        u32::from_le_bytes(head.try_into().expect("four bytes")) as usize
    }

    fn string(&mut self) -> &'r str {
        let len = self.number();
        let (head, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        std::str::from_utf8(head).expect("recorded from a str")
    }

    fn tag(&mut self) -> Option<Cow<'r, Tag>> {
        (self.byte() == 1).then(|| {
            let (handle, suffix, original) = (self.string(), self.string(), self.string());
            Cow::Owned(Tag::with_original_handle(handle, suffix, original))
        })
    }

    fn structure(&mut self) -> (StructureStyle, usize, Option<Cow<'r, Tag>>) {
        let style = match self.byte() {
            1 => StructureStyle::Flow,
            _ => StructureStyle::Block,
        };
        (style, self.number(), self.tag())
    }
}

impl<'r> Iterator for Replay<'r> {
    type Item = (Event<'r>, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        if self.bytes.is_empty() {
            return None;
        }
        let kind = self.byte();
        let (start, end) = (self.number(), self.number());
        let event = match kind {
            STREAM_START => Event::StreamStart,
            STREAM_END => Event::StreamEnd,
            DOCUMENT_START => Event::DocumentStart(self.byte() == 1, None),
            DOCUMENT_END => Event::DocumentEnd,
            ALIAS => Event::Alias(self.number()),
            SCALAR => {
                let style = match self.byte() {
                    0 => ScalarStyle::Plain,
                    1 => ScalarStyle::SingleQuoted,
                    2 => ScalarStyle::DoubleQuoted,
                    3 => ScalarStyle::Literal,
                    _ => ScalarStyle::Folded,
                };
                let anchor = self.number();
                let tag = self.tag();
                Event::Scalar(Cow::Borrowed(self.string()), style, anchor, tag)
            }
            SEQUENCE_START => {
                let (style, anchor, tag) = self.structure();
                Event::SequenceStart(style, anchor, tag)
            }
            SEQUENCE_END => Event::SequenceEnd,
            MAPPING_START => {
                let (style, anchor, tag) = self.structure();
                Event::MappingStart(style, anchor, tag)
            }
            _ => Event::MappingEnd,
        };
        Some((event, start, end))
    }
}
