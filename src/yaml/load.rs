//! Events to tree.
//!
//! [`load`] drives granit-parser's event stream and builds [`Node`] trees with an explicit stack
//! (never recursion over the input's depth), applying what TOSCA needs on top of YAML:
//!
//! - the core schema, resolved by us for plain scalars ([`super::resolve_plain`]), and explicit
//!   core tags (`!!str`, `!!int`, `!!float`, `!!bool`, `!!null`) checked against the text;
//! - duplicate keys as errors, all of them reported, compared on the decoded key (see
//!   [`MapBuilder`]);
//! - aliases expanded by cloning the anchored subtree, under [`Limits::max_alias_expansion`]
//!   nodes and [`Limits::max_alias_bytes`] bytes of scalar text;
//! - at most [`Limits::max_yaml_nodes`] nodes in a file, aliases expanded: a plain list of
//!   numbers costs about forty times its text in memory;
//! - `<<` merge keys;
//! - exactly one document per file;
//! - nesting and scalar-size limits;
//! - precise messages for tabs and non-breaking spaces in indentation, and readable messages
//!   for the scanner's other errors.

use std::collections::HashMap;

use granit_parser::{ErrorKind, Event, Options, Parser, ScalarStyle, ScanError, Tag};

use super::node::{Core, Kind, Map, Node, Scalar, Style};
use super::schema;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::limits::Limits;
use crate::source::{FileId, SourceFile, SourceMap, Span};

const CORE_PREFIX: &str = "tag:yaml.org,2002:";

/// Loads the single YAML document of `file`. Returns `None` when the file has no usable document;
/// every problem found goes into `diags`.
///
/// Fatal problems (a syntax error, a limit exceeded, an alias that cannot be expanded) return
/// `None`, keeping every diagnostic found before them. Other errors (duplicate keys, a second
/// document, a value that does not fit its tag, a non-breaking space in indentation) are reported
/// and the tree is still returned, so later stages can report their own problems too.
///
/// Spans: a scalar's span covers its source text (quotes included; a block scalar's span starts at
/// its content); a collection's span runs from its first character (`[`, `{`, `-` or its first
/// key) to the end of its last entry (or its closing bracket). An empty value (`key:`) is a null
/// scalar with a zero-length span right after the key. The root of an expanded alias has the span
/// of the `*alias` token, its children keep the spans where the anchored node was written.
pub fn load(
    sources: &SourceMap,
    file: FileId,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Option<Node> {
    let source = sources.get(file);
    let text: &str = &source.text;
    let mut patch = Patch::default();
    let mut attempts = 0;
    loop {
        attempts += 1;
        let mut loader = Loader::new(source, &patch, file, limits);
        let root = loader.run();
        let retry_at = loader.retry_at;
        let out = std::mem::take(&mut loader.out);
        drop(loader);
        if let Some(offset) = retry_at
            && attempts <= MAX_QUOTE_FIXES
            && patch.indent_continuation(text, offset)
        {
            continue;
        }
        diags.extend(out);
        return root;
    }
}

/// [`load`] for an embedded profile, from the events `build.rs` recorded from its text
/// ([`super::recorded_format`]): the same tree and spans, without scanning the text again.
pub fn load_recorded(
    sources: &SourceMap,
    file: FileId,
    events: &[u8],
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Option<Node> {
    let patch = Patch::default();
    let mut loader = Loader::new(sources.get(file), &patch, file, limits);
    let mut fatal = false;
    for (event, start, end) in super::recorded_format::Replay::new(events) {
        if !loader.step(event, start, end, &mut fatal) {
            break;
        }
    }
    let root = loader.finish(fatal);
    diags.extend(std::mem::take(&mut loader.out));
    root
}

/// The parser's options for reading with `limits`: unresolved aliases reported by the loader, no
/// comments, and nesting bounded one past the depth limit (the loader reports the limit itself;
/// the parser's bound keeps its own stack from growing past it first).
pub(super) fn parser_options(limits: &Limits) -> Options {
    let depth_guard = limits.max_yaml_depth.saturating_add(1);
    let mut options = Options::default();
    options.emit_unresolved_aliases = true;
    options.flow_nesting_limit = depth_guard;
    options.block_nesting_limit = depth_guard;
    options.set_emit_comments(false);
    options
}

/// How many times one file is re-read with an under-indented quoted-string continuation line
/// fixed.
const MAX_QUOTE_FIXES: usize = 32;

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
struct Patch {
    /// The patched text; `None` while nothing was inserted.
    text: Option<String>,
    /// Insertions in original byte offsets, ascending: (offset, number of spaces).
    inserts: Vec<(usize, usize)>,
}

impl Patch {
    /// The original byte offset of a byte offset in the patched text.
    fn original(&self, patched: usize) -> usize {
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
    fn indent_continuation(&mut self, original: &str, offset: usize) -> bool {
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

/// Computes line and character column of byte offsets exactly as
/// [`crate::source::SourceFile::span`] does, but remembers the last position so that a file with
/// very long lines (a whole template as one line of flow-style YAML) stays linear instead of
/// counting characters from the start of the line for every node.
struct Locator<'a> {
    text: &'a str,
    file: FileId,
    /// The source file's own line index ([`crate::source::SourceFile::line_starts`]).
    line_starts: &'a [u32],
    last_line: usize,
    last_byte: usize,
    last_col: u32,
}

impl<'a> Locator<'a> {
    fn new(source: &'a SourceFile, file: FileId) -> Self {
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
    fn line_col(&mut self, byte: usize) -> (u32, u32) {
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

    fn span(&mut self, start: usize, end: usize) -> Span {
        let start = self.floor_boundary(start);
        let (line, col) = self.line_col(start);
        self.span_from(Mark { start, line, col }, end)
    }

    /// Where `byte` is, to make a span from later with [`Self::span_from`] without looking
    /// its line up again (a collection's span is made when it closes, past its content).
    fn mark(&mut self, byte: usize) -> Mark {
        let start = self.floor_boundary(byte);
        let (line, col) = self.line_col(start);
        Mark { start, line, col }
    }

    /// The span from a [`Mark`] to `end`: what [`Self::span`] gives for the mark's byte.
    fn span_from(&self, mark: Mark, end: usize) -> Span {
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
    fn char_span(&mut self, byte: usize) -> Span {
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
struct Mark {
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

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A map under construction: the entries so far, the pending key, the sources of `<<` merges.
///
/// Duplicate keys are compared on the decoded text of scalar keys, whatever their style or core
/// type: `a` and `'a'` collide, and so do `1` and `"1"`. TOSCA reads keys as names, so two keys
/// that read as the same name are the same key, even where YAML's own equality (which compares
/// `1` the integer and `"1"` the string as different) would let them pass. Non-scalar keys (flow
/// lists or maps) are compared on a canonical rendering of their structure, built from the same
/// decoded scalar texts and the entries in source order.
struct MapBuilder {
    map: Map,
    key: Option<Node>,
    /// Maps to merge in, in priority order, and the span of the first `<<` key.
    merges: Vec<Node>,
    merge_key: Option<Span>,
    /// Canonical renderings of non-scalar keys, with the span where each was first written.
    complex_keys: HashMap<String, Span>,
}

enum Collection {
    Seq(Vec<Node>),
    Map(Box<MapBuilder>),
}

struct Frame {
    collection: Collection,
    /// Where the collection starts, located when it opens: events come in source order then.
    start: Mark,
    /// End of the last child seen, for block collections whose end event lies past trailing
    /// comments and blank lines.
    end: u32,
    anchor: usize,
    tag: Option<String>,
    /// This subtree so far (this node included), for the alias budget.
    size: Cost,
}

/// What an alias of a subtree copies: its nodes, and the bytes of its scalars' text (one long
/// scalar referenced by many aliases costs little in nodes and much in memory).
#[derive(Debug, Clone, Copy, Default)]
struct Cost {
    nodes: usize,
    bytes: u64,
}

impl Cost {
    const ONE: Cost = Cost { nodes: 1, bytes: 0 };

    fn scalar(text: &str) -> Cost {
        Cost {
            nodes: 1,
            bytes: text.len() as u64,
        }
    }

    fn plus(self, other: Cost) -> Cost {
        Cost {
            nodes: self.nodes.saturating_add(other.nodes),
            bytes: self.bytes.saturating_add(other.bytes),
        }
    }
}

/// Why the event loop stopped early.
struct Fatal;

/// How an explicit tag constrains a node.
enum TagRule {
    None,
    /// `!` (non-specific) and `!!str`.
    Str,
    Int,
    Float,
    Bool,
    Null,
    Map,
    Seq,
    /// Any other tag: kept in `Node.tag`, the core type computed as if untagged.
    Other,
}

impl TagRule {
    fn of(tag: Option<&str>) -> Self {
        let Some(tag) = tag else {
            return TagRule::None;
        };
        if tag == "!" {
            return TagRule::Str;
        }
        match tag.strip_prefix(CORE_PREFIX) {
            Some("str") => TagRule::Str,
            Some("int") => TagRule::Int,
            Some("float") => TagRule::Float,
            Some("bool") => TagRule::Bool,
            Some("null") => TagRule::Null,
            Some("map") => TagRule::Map,
            Some("seq") => TagRule::Seq,
            _ => TagRule::Other,
        }
    }
}

/// The tag as it is stored in [`Node::tag`]: `tag:yaml.org,2002:suffix` for `!!suffix`, the
/// verbatim `!custom` for local tags, the full URI for others.
fn tag_text(tag: &Tag) -> String {
    if tag.handle().is_empty() {
        // The non-specific tag `!`.
        return tag.suffix().to_owned();
    }
    tag.to_string()
}

/// `!!int` for the core tags, as written for anything else, for messages.
fn tag_display(tag: &str) -> String {
    match tag.strip_prefix(CORE_PREFIX) {
        Some(suffix) => format!("!!{suffix}"),
        None => tag.to_owned(),
    }
}

struct Loader<'a> {
    text: &'a str,
    patch: &'a Patch,
    /// Set when the scanner rejected an under-indented quoted continuation line that
    /// [`Patch`] may fix: the original offset of the line's content.
    retry_at: Option<usize>,
    limits: &'a Limits,
    loc: Locator<'a>,
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Node, Cost)>,
    /// What aliases have copied so far.
    expanded: Cost,
    /// Nodes made so far, aliases expanded ([`Limits::max_yaml_nodes`]).
    nodes: usize,
    documents: usize,
    root: Option<Node>,
    /// A non-fatal error that still makes the tree unusable (an unknown alias).
    broken: bool,
    out: Vec<Diagnostic>,
}

impl<'a> Loader<'a> {
    fn new(source: &'a SourceFile, patch: &'a Patch, file: FileId, limits: &'a Limits) -> Self {
        Loader {
            text: &source.text,
            patch,
            retry_at: None,
            limits,
            loc: Locator::new(source, file),
            stack: Vec::new(),
            anchors: HashMap::new(),
            expanded: Cost::default(),
            nodes: 0,
            documents: 0,
            root: None,
            broken: false,
            out: Vec::new(),
        }
    }

    fn run(&mut self) -> Option<Node> {
        let whitespace = prescan(self.text);
        let mut early: Vec<(usize, Diagnostic)> = Vec::new();
        for problem in whitespace.iter().filter(|p| p.kind == Blank::Nbsp) {
            let span = self.loc.span(problem.offset, problem.offset + 2);
            early.push((
                problem.offset,
                Diagnostic::error(
                    codes::YAML_NBSP,
                    "non-breaking space (U+00A0) in indentation",
                )
                .at_with(span, "non-breaking space")
                .hint(
                    "YAML does not count a non-breaking space as indentation; \
                         replace it with a plain space",
                ),
            ));
        }

        let options = parser_options(self.limits);
        let mut scan_error: Option<ScanError> = None;
        let mut fatal = false;
        for item in Parser::new_from_str_with_options(
            self.patch.text.as_deref().unwrap_or(self.text),
            options,
        ) {
            match item {
                Ok((event, span)) => {
                    let raw_start = span.start.byte_offset().unwrap_or(0);
                    let raw_end = span.end.byte_offset().unwrap_or(raw_start);
                    let start = self.patch.original(raw_start);
                    let end = self.patch.original(raw_end).max(start);
                    if !self.step(event, start, end, &mut fatal) {
                        break;
                    }
                }
                Err(e) => {
                    scan_error = Some(e);
                    break;
                }
            }
        }

        let mut late = Vec::new();
        if let Some(e) = &scan_error {
            fatal = true;
            let offset = self.patch.original(e.marker().byte_offset().unwrap_or(0));
            if matches!(e.kind(), ErrorKind::InvalidQuotedScalarIndent) {
                self.retry_at = Some(offset);
            }
            let (error_line, _) = self.loc.line_col(offset);
            let mut tab_lines = Vec::new();
            // The scanner stops at the first problem; tabs in indentation on other lines would
            // only show up one run at a time, so report every line the pre-scan found.
            for problem in whitespace.iter().filter(|p| p.kind == Blank::Tab) {
                let span = self.loc.char_span(problem.offset);
                tab_lines.push(span.line);
                early.push((problem.offset, tab_diagnostic(span)));
            }
            let is_tab = matches!(
                e.kind(),
                ErrorKind::TabInBlockIndentation
                    | ErrorKind::TabInIndentation
                    | ErrorKind::TabAtBlockScalarStart
            );
            if !(is_tab && tab_lines.contains(&error_line)) {
                let span = self.loc.char_span(offset);
                late.push(scan_diagnostic(e.kind(), span, self.text, offset));
            }
        }

        early.sort_by_key(|(offset, _)| *offset);
        let mut out: Vec<Diagnostic> = early.into_iter().map(|(_, d)| d).collect();
        out.append(&mut self.out);
        out.append(&mut late);
        self.out = out;

        self.finish(fatal)
    }

    /// The tree read, once the events have run out (or a fatal problem stopped them): none
    /// after a fatal problem or an unknown alias, and an error for a file without a document.
    fn finish(&mut self, fatal: bool) -> Option<Node> {
        if fatal || self.broken {
            return None;
        }
        match self.root.take() {
            Some(root) if !is_empty_document(&root) => Some(root),
            _ => {
                let span = self.loc.span(0, 0);
                self.out.push(
                    Diagnostic::error(codes::YAML_EMPTY, "the file holds no YAML document")
                        .at(span)
                        .hint("a TOSCA file is a YAML mapping starting with `tosca_definitions_version`"),
                );
                None
            }
        }
    }

    /// Handles one event; false when reading stops there, with `fatal` set when it stops on a
    /// fatal problem.
    fn step(&mut self, event: Event<'_>, start: usize, end: usize, fatal: &mut bool) -> bool {
        self.event(event, start, end).unwrap_or_else(|Fatal| {
            *fatal = true;
            false
        })
    }

    /// Handles one event. `Ok(false)` stops reading without a fatal error.
    fn event(&mut self, event: Event<'_>, start: usize, end: usize) -> Result<bool, Fatal> {
        match event {
            Event::DocumentStart(..) => {
                if self.documents > 0 {
                    let span = self.loc.span(start, end);
                    self.out.push(
                        Diagnostic::error(
                            codes::YAML_MULTI_DOCUMENT,
                            "a second YAML document starts here",
                        )
                        .at_with(span, "second document")
                        .hint("a TOSCA file holds one document; split it into files"),
                    );
                    return Ok(false);
                }
                self.documents += 1;
            }
            Event::StreamEnd => return Ok(false),
            Event::Scalar(value, style, anchor, tag) => {
                let span = self.loc.span(start, end);
                if value.len() > self.limits.max_scalar_bytes {
                    self.out.push(
                        Diagnostic::error(
                            codes::YAML_SCALAR_TOO_LONG,
                            format!(
                                "this scalar is {} bytes long, more than the limit of {} bytes",
                                value.len(),
                                self.limits.max_scalar_bytes
                            ),
                        )
                        .at(span)
                        .hint("keep large content in an artifact file and refer to it by name"),
                    );
                    return Err(Fatal);
                }
                self.count(1, start)?;
                let cost = Cost::scalar(&value);
                let tag = tag.as_deref().map(tag_text);
                let node = self.scalar(value.into_owned(), style, tag, span);
                if anchor != 0 {
                    self.anchors.insert(anchor, (node.clone(), cost));
                }
                self.attach(node, cost);
            }
            Event::SequenceStart(_, anchor, tag) => {
                self.open(Collection::Seq(Vec::new()), start, anchor, tag.as_deref())?;
            }
            Event::MappingStart(_, anchor, tag) => {
                let builder = MapBuilder {
                    map: Map::new(),
                    key: None,
                    merges: Vec::new(),
                    merge_key: None,
                    complex_keys: HashMap::new(),
                };
                self.open(
                    Collection::Map(Box::new(builder)),
                    start,
                    anchor,
                    tag.as_deref(),
                )?;
            }
            Event::SequenceEnd | Event::MappingEnd => self.close(start, end),
            Event::Alias(id) => self.alias(id, start, end)?,
            Event::UnresolvedAlias(name) => {
                let span = self.loc.span(start, end);
                self.out.push(
                    Diagnostic::error(codes::YAML_SYNTAX, format!("unknown alias `*{name}`"))
                        .at_with(span, format!("no anchor `&{name}` is defined before this"))
                        .hint(format!(
                            "define the anchor with `&{name}` on a node earlier in this file; \
                             an alias can only refer back to an anchor of the same file"
                        )),
                );
                self.broken = true;
                let placeholder = null_node(span);
                self.attach(placeholder, Cost::ONE);
            }
            _ => {}
        }
        Ok(true)
    }

    fn scalar(
        &mut self,
        text: String,
        style: ScalarStyle,
        tag: Option<String>,
        span: Span,
    ) -> Node {
        let style = match style {
            ScalarStyle::SingleQuoted => Style::SingleQuoted,
            ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
            ScalarStyle::Literal => Style::Literal,
            ScalarStyle::Folded => Style::Folded,
            _ => Style::Plain,
        };
        // An empty value (`key:`) comes as a plain `~` with an empty span.
        let text = if style == Style::Plain && span.start == span.end && text == "~" {
            String::new()
        } else {
            text
        };
        let untagged = |this: &mut Self, text: &str| -> Core {
            if !style.is_plain() {
                return Core::Str;
            }
            let resolved = schema::resolve(text);
            if resolved.int_out_of_range {
                this.out.push(
                    Diagnostic::warning(
                        codes::YAML_INT_RANGE,
                        format!(
                            "integer `{}` does not fit in 64 bits; it is read as a string",
                            shorten(text)
                        ),
                    )
                    .at(span)
                    .hint("quote it if a string is meant"),
                );
            }
            resolved.core
        };
        let core = match TagRule::of(tag.as_deref()) {
            TagRule::None | TagRule::Other => untagged(self, &text),
            TagRule::Str => Core::Str,
            rule @ (TagRule::Int | TagRule::Float | TagRule::Bool | TagRule::Null) => {
                let resolved = schema::resolve(&text).core;
                let (fits, want) = match (&rule, resolved) {
                    (TagRule::Int, Core::Int(_)) => (Some(resolved), "an integer"),
                    (TagRule::Float, Core::Float(_)) => (Some(resolved), "a float"),
                    (TagRule::Float, Core::Int(n)) => (Some(Core::Float(n as f64)), "a float"),
                    (TagRule::Bool, Core::Bool(_)) => (Some(resolved), "a boolean"),
                    (TagRule::Null, Core::Null) => (Some(resolved), "null"),
                    (TagRule::Int, _) => (None, "an integer"),
                    (TagRule::Float, _) => (None, "a float"),
                    (TagRule::Bool, _) => (None, "a boolean (`true` or `false`)"),
                    _ => (None, "null"),
                };
                match fits {
                    Some(core) => core,
                    None => {
                        let shown = tag.as_deref().map(tag_display).unwrap_or_default();
                        self.out.push(
                            Diagnostic::error(
                                codes::YAML_SYNTAX,
                                format!(
                                    "`{}` is not {want}, but it is tagged `{shown}`",
                                    shorten(&text)
                                ),
                            )
                            .at(span)
                            .hint(format!("write {want} here, or remove the `{shown}` tag")),
                        );
                        Core::Str
                    }
                }
            }
            TagRule::Map | TagRule::Seq => {
                let shown = tag.as_deref().map(tag_display).unwrap_or_default();
                self.out.push(
                    Diagnostic::error(
                        codes::YAML_SYNTAX,
                        format!("a scalar cannot be tagged `{shown}`"),
                    )
                    .at(span)
                    .hint(format!("remove the `{shown}` tag")),
                );
                Core::Str
            }
        };
        Node {
            span,
            tag,
            kind: Kind::Scalar(Scalar { text, style, core }),
        }
    }

    fn open(
        &mut self,
        collection: Collection,
        start: usize,
        anchor: usize,
        tag: Option<&Tag>,
    ) -> Result<(), Fatal> {
        if self.stack.len() >= self.limits.max_yaml_depth {
            let span = self.loc.char_span(start);
            self.out.push(
                Diagnostic::error(
                    codes::YAML_DEPTH,
                    format!(
                        "collections nest more than {} levels deep here",
                        self.limits.max_yaml_depth
                    ),
                )
                .at(span)
                .hint("flatten the structure; no TOSCA construct needs this much nesting"),
            );
            return Err(Fatal);
        }
        self.count(1, start)?;
        let tag = tag.map(tag_text);
        let wrong = !matches!(
            (&collection, TagRule::of(tag.as_deref())),
            (_, TagRule::None | TagRule::Other)
                | (Collection::Seq(_), TagRule::Seq)
                | (Collection::Map(_), TagRule::Map)
        );
        if wrong {
            let shown = tag.as_deref().map(tag_display).unwrap_or_default();
            let what = match collection {
                Collection::Seq(_) => "a list",
                Collection::Map(_) => "a map",
            };
            let span = self.loc.char_span(start);
            self.out.push(
                Diagnostic::error(
                    codes::YAML_SYNTAX,
                    format!("{what} cannot be tagged `{shown}`"),
                )
                .at(span)
                .hint(format!("remove the `{shown}` tag")),
            );
        }
        let mark = self.loc.mark(start);
        self.stack.push(Frame {
            collection,
            start: mark,
            end: to_u32(start),
            anchor,
            tag,
            size: Cost::ONE,
        });
        Ok(())
    }

    /// Counts `nodes` more nodes made at `start`; past [`Limits::max_yaml_nodes`], reports the
    /// limit there and stops reading.
    fn count(&mut self, nodes: usize, start: usize) -> Result<(), Fatal> {
        self.nodes = self.nodes.saturating_add(nodes);
        if self.nodes <= self.limits.max_yaml_nodes {
            return Ok(());
        }
        let span = self.loc.char_span(start);
        self.out.push(
            Diagnostic::error(
                codes::YAML_NODE_LIMIT,
                format!(
                    "the file holds more than {} YAML nodes (scalars, lists and maps, aliases expanded)",
                    self.limits.max_yaml_nodes
                ),
            )
            .at_with(span, "the limit is passed here")
            .hint(crate::limits::Limit::YamlNodes.hint()),
        );
        Err(Fatal)
    }

    fn close(&mut self, start: usize, end: usize) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        // A flow collection ends at its closing bracket; a block one at its last entry (its end
        // event sits after any trailing comments and blank lines).
        let closes_with_bracket = self
            .text
            .as_bytes()
            .get(start)
            .is_some_and(|b| matches!(b, b']' | b'}'))
            && end > start;
        let end = if closes_with_bracket {
            to_u32(end)
        } else {
            frame.end
        };
        let span = self.loc.span_from(frame.start, end as usize);
        // Collections are built by pushing; the tree keeps only what they hold.
        let kind = match frame.collection {
            Collection::Seq(mut items) => {
                items.shrink_to_fit();
                Kind::Seq(items)
            }
            Collection::Map(builder) => {
                let mut map = self.finish_map(*builder);
                map.shrink_to_fit();
                Kind::Map(map)
            }
        };
        let node = Node {
            span,
            tag: frame.tag,
            kind,
        };
        if frame.anchor != 0 {
            self.anchors
                .insert(frame.anchor, (node.clone(), frame.size));
        }
        self.attach(node, frame.size);
    }

    fn alias(&mut self, id: usize, start: usize, end: usize) -> Result<(), Fatal> {
        let span = self.loc.span(start, end);
        let name = self.text.get(span.range()).unwrap_or("*");
        let Some((node, size)) = self.anchors.get(&id) else {
            self.out.push(
                Diagnostic::error(
                    codes::YAML_SYNTAX,
                    format!("alias `{name}` refers to a collection that contains it"),
                )
                .at_with(span, "recursive alias")
                .hint("a node cannot contain itself; copy the content instead"),
            );
            return Err(Fatal);
        };
        let size = *size;
        let total = self.expanded.plus(size);
        if total.bytes > self.limits.max_alias_bytes {
            self.out.push(
                Diagnostic::error(
                    codes::YAML_ALIAS_BUDGET,
                    format!(
                        "alias `{name}` expands the document past the limit of {} bytes of text copied by aliases",
                        self.limits.max_alias_bytes
                    ),
                )
                .at_with(span, format!("this alias copies {} bytes", size.bytes))
                .hint(format!(
                    "every alias of a long scalar is a copy of it; write it once, or keep it in an artifact file; {}",
                    crate::limits::Limit::AliasBytes.hint()
                )),
            );
            return Err(Fatal);
        }
        if total.nodes > self.limits.max_alias_expansion {
            self.out.push(
                Diagnostic::error(
                    codes::YAML_ALIAS_BUDGET,
                    format!(
                        "alias `{name}` expands the document past the limit of {} nodes created by aliases",
                        self.limits.max_alias_expansion
                    ),
                )
                .at_with(span, format!("this alias adds {} nodes", size.nodes))
                .hint(
                    "aliases that refer to aliases multiply (a \"billion laughs\" document); \
                     write the content out or reduce the nesting of aliases",
                ),
            );
            return Err(Fatal);
        }
        let mut copy = node.clone();
        copy.span = span;
        self.count(size.nodes, start)?;
        self.expanded = total;
        self.attach(copy, size);
        Ok(())
    }

    fn attach(&mut self, node: Node, size: Cost) {
        let Some(frame) = self.stack.last_mut() else {
            if self.root.is_none() {
                self.root = Some(node);
            }
            return;
        };
        frame.size = frame.size.plus(size);
        frame.end = frame.end.max(node.span.end);
        match &mut frame.collection {
            Collection::Seq(items) => items.push(node),
            Collection::Map(builder) => match builder.key.take() {
                None => builder.key = Some(node),
                Some(key) => add_entry(builder, key, node, &mut self.out),
            },
        }
    }

    fn finish_map(&mut self, mut builder: MapBuilder) -> Map {
        for source in std::mem::take(&mut builder.merges) {
            let Kind::Map(source) = source.kind else {
                continue;
            };
            for entry in source.into_entries() {
                if let Some(s) = entry.key.as_scalar() {
                    if builder.map.contains_key(&s.text) {
                        continue;
                    }
                } else {
                    let canon = canonical(&entry.key);
                    if builder.complex_keys.contains_key(&canon) {
                        continue;
                    }
                    builder.complex_keys.insert(canon, entry.key.span);
                }
                // Cannot fail: the key is not in the map yet.
                let _ = builder.map.insert(entry.key, entry.value);
            }
        }
        builder.map
    }
}

fn null_node(span: Span) -> Node {
    Node {
        span,
        tag: None,
        kind: Kind::Scalar(Scalar {
            text: String::new(),
            style: Style::Plain,
            core: Core::Null,
        }),
    }
}

/// A document that is only `---` (or only a tag-less empty value) holds nothing for TOSCA.
fn is_empty_document(root: &Node) -> bool {
    root.tag.is_none()
        && root.span.start == root.span.end
        && matches!(&root.kind, Kind::Scalar(s) if s.core == Core::Null && s.style.is_plain())
}

fn is_merge_key(key: &Node) -> bool {
    matches!(&key.kind, Kind::Scalar(s) if s.style.is_plain() && s.text == "<<")
        && key
            .tag
            .as_deref()
            .is_none_or(|t| t == "tag:yaml.org,2002:merge")
}

fn add_entry(builder: &mut MapBuilder, key: Node, value: Node, out: &mut Vec<Diagnostic>) {
    if is_merge_key(&key) {
        if let Some(first) = builder.merge_key {
            out.push(duplicate_key("<<", key.span, first));
            return;
        }
        builder.merge_key = Some(key.span);
        match value.kind {
            Kind::Map(_) => builder.merges.push(value),
            Kind::Seq(items) if items.iter().all(|i| i.as_map().is_some()) => {
                builder.merges.extend(items);
            }
            _ => {
                let found = if value.as_seq().is_some() {
                    "a list with an entry that is not a map"
                } else {
                    value.describe()
                };
                out.push(
                    Diagnostic::error(
                        codes::YAML_MERGE,
                        format!("a `<<` merge needs a map or a list of maps, found {found}"),
                    )
                    .at_with(value.span, "not a map")
                    .label(key.span, "merge key")
                    .hint("merge an alias of a map (`<<: *defaults`) or a list of them (`<<: [*a, *b]`); quote `'<<'` for a plain key"),
                );
            }
        }
        return;
    }
    if key.as_scalar().is_none() {
        let canon = canonical(&key);
        if let Some(&first) = builder.complex_keys.get(&canon) {
            out.push(duplicate_key(&canon, key.span, first));
            return;
        }
        builder.complex_keys.insert(canon, key.span);
    }
    if let Err((key, _)) = builder.map.insert(key, value) {
        let text = key.scalar_text().unwrap_or_default();
        let first = builder
            .map
            .entry(text)
            .map_or(key.span, |entry| entry.key.span);
        out.push(duplicate_key(text, key.span, first));
    }
}

fn duplicate_key(name: &str, again: Span, first: Span) -> Diagnostic {
    Diagnostic::error(
        codes::YAML_DUPLICATE_KEY,
        format!("duplicate key `{}` in this mapping", shorten(name)),
    )
    .at_with(again, "defined again here")
    .label(first, "first defined here")
    .hint("YAML forbids duplicate keys; remove one or rename it")
}

/// A rendering of a key's structure that is equal for equal keys: scalars by decoded text,
/// collections by their entries in order. Iterative, whatever the nesting.
fn canonical(node: &Node) -> String {
    enum Step<'n> {
        Node(&'n Node),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut todo = vec![Step::Node(node)];
    while let Some(step) = todo.pop() {
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Node(n) => match &n.kind {
                Kind::Scalar(s) => {
                    if s.core == Core::Null {
                        out.push('~');
                    } else if s
                        .text
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
                        && !s.text.is_empty()
                    {
                        out.push_str(&s.text);
                    } else {
                        out.push_str(&format!("{:?}", s.text));
                    }
                }
                Kind::Seq(items) => {
                    out.push('[');
                    todo.push(Step::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        todo.push(Step::Node(item));
                        if i > 0 {
                            todo.push(Step::Text(", "));
                        }
                    }
                }
                Kind::Map(map) => {
                    out.push('{');
                    todo.push(Step::Text("}"));
                    for (i, entry) in map.entries().iter().enumerate().rev() {
                        todo.push(Step::Node(&entry.value));
                        todo.push(Step::Text(": "));
                        todo.push(Step::Node(&entry.key));
                        if i > 0 {
                            todo.push(Step::Text(", "));
                        }
                    }
                }
            },
        }
    }
    out
}

/// At most 60 characters of a text, for messages.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blank {
    Tab,
    Nbsp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BlankProblem {
    kind: Blank,
    /// Byte offset of the offending character.
    offset: usize,
}

/// Finds tabs and non-breaking spaces in the leading whitespace of lines, one per line, skipping
/// the content lines of block scalars (`|`, `>`), where both are text.
///
/// Tabs are only reported when the scanner failed too: a tab after the indentation proper (in a
/// flow collection, before a continuation line) is valid YAML. A non-breaking space is never
/// whitespace to YAML, so it silently becomes part of a key or value: always reported.
fn prescan(text: &str) -> Vec<BlankProblem> {
    let mut problems = Vec::new();
    // Inside a block scalar: the indentation of the line that started it.
    let mut block_parent: Option<usize> = None;
    let bytes = text.as_bytes();
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = memchr_newline(bytes, line_start);
        let line = &bytes[line_start..line_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let spaces = line.iter().take_while(|&&b| b == b' ').count();
        let mut i = 0;
        let mut tab = None;
        let mut nbsp = None;
        loop {
            match line.get(i) {
                Some(b' ') => i += 1,
                Some(b'\t') => {
                    tab.get_or_insert(line_start + i);
                    i += 1;
                }
                Some(0xC2) if line.get(i + 1) == Some(&0xA0) => {
                    nbsp.get_or_insert(line_start + i);
                    i += 2;
                }
                _ => break,
            }
        }
        let rest = &line[i..];
        let blank = rest.is_empty();
        let in_block = match block_parent {
            Some(parent) => blank || spaces > parent,
            None => false,
        };
        if !in_block {
            block_parent = None;
            if let Some(offset) = nbsp {
                problems.push(BlankProblem {
                    kind: Blank::Nbsp,
                    offset,
                });
            }
            if let Some(offset) = tab
                && !blank
                && rest.first() != Some(&b'#')
            {
                problems.push(BlankProblem {
                    kind: Blank::Tab,
                    offset,
                });
            }
            if starts_block_scalar(rest) {
                block_parent = Some(spaces);
            }
        }
        line_start = line_end + 1;
    }
    problems
}

fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p)
}

/// Whether a line's content ends with a block scalar header (`key: |`, `- >-`, `|2`), comments
/// aside. A heuristic for the pre-scan only: a wrong guess hides a report, never adds one.
fn starts_block_scalar(content: &[u8]) -> bool {
    let mut content = content;
    if let Some(pos) = content.windows(2).position(|w| w == b" #") {
        content = &content[..pos];
    }
    let content = content.trim_ascii_end();
    let header_start = content
        .iter()
        .rposition(|&b| b == b' ' || b == b'\t')
        .map_or(0, |p| p + 1);
    let header = &content[header_start..];
    match header.split_first() {
        Some((b'|' | b'>', modifiers)) => modifiers
            .iter()
            .all(|&b| b == b'-' || b == b'+' || b.is_ascii_digit()),
        _ => false,
    }
}

fn tab_diagnostic(span: Span) -> Diagnostic {
    Diagnostic::error(codes::YAML_TAB_INDENT, "tab character in indentation")
        .at_with(span, "tab")
        .hint("YAML indents with spaces only; replace the tab with spaces")
}

/// A readable message and, where the cause can be told, a hint for a scanner error.
fn scan_diagnostic(kind: &ErrorKind, span: Span, text: &str, offset: usize) -> Diagnostic {
    let indent_hint = "check the indentation: the keys of one mapping, and the `-` entries of one \
                       list, must start in the same column";
    let (code, message, hint): (&str, String, Option<String>) = match kind {
        ErrorKind::TabInBlockIndentation
        | ErrorKind::TabInIndentation
        | ErrorKind::TabAtBlockScalarStart => return tab_diagnostic(span),
        ErrorKind::RecursionLimitExceeded => (
            codes::YAML_DEPTH,
            "collections nest too deeply here".into(),
            Some("flatten the structure; no TOSCA construct needs this much nesting".into()),
        ),
        ErrorKind::MappingValueNotAllowed => (
            codes::YAML_SYNTAX,
            "a `:` that starts a mapping value is not allowed here".into(),
            Some(
                "this usually means a missing space after `:` on a key, a wrong indentation, or a \
                 plain value containing `: ` that needs quotes"
                    .into(),
            ),
        ),
        ErrorKind::ExpectedBlockMappingKey => (
            codes::YAML_SYNTAX,
            "expected a key of the enclosing mapping here".into(),
            Some(indent_hint.into()),
        ),
        ErrorKind::ExpectedBlockSequenceEntry => (
            codes::YAML_SYNTAX,
            "expected a `-` entry of the enclosing list here".into(),
            Some(indent_hint.into()),
        ),
        ErrorKind::InvalidIndentation | ErrorKind::InvalidBlockScalarIndent => (
            codes::YAML_SYNTAX,
            "invalid indentation".into(),
            Some(indent_hint.into()),
        ),
        ErrorKind::BlockSequenceEntryNotAllowed => (
            codes::YAML_SYNTAX,
            "a `- ` list entry is not allowed here".into(),
            Some(
                "a list under a key starts on the next line; check that this entry is indented \
                 like its siblings"
                    .into(),
            ),
        ),
        ErrorKind::UnclosedQuotedScalar | ErrorKind::InvalidQuotedScalarIndent => (
            codes::YAML_SYNTAX,
            "a quoted string is not closed, or its next line is not indented enough".into(),
            Some(
                "close the quote; a quoted string that continues on the next lines must indent \
                 them more than its key"
                    .into(),
            ),
        ),
        ErrorKind::UnclosedFlowCollection { open } => (
            codes::YAML_SYNTAX,
            format!("`{open}` is never closed"),
            Some(format!("add the matching `{}`", closing(*open))),
        ),
        ErrorKind::MismatchedFlowCollectionEnd { open, close } => (
            codes::YAML_SYNTAX,
            format!("`{open}` is closed by `{close}`"),
            Some(format!("close `{open}` with `{}`", closing(*open))),
        ),
        ErrorKind::MisplacedFlowCollectionEnd => (
            codes::YAML_SYNTAX,
            "a closing bracket without a matching opening one".into(),
            Some("remove it, or quote the value if the bracket is text".into()),
        ),
        ErrorKind::UnexpectedEofFlowSequence => (
            codes::YAML_SYNTAX,
            "the file ends inside a flow list `[ … ]`".into(),
            Some("add the missing `]`".into()),
        ),
        ErrorKind::UnexpectedEofFlowMapping | ErrorKind::UnexpectedEofImplicitFlowMapping => (
            codes::YAML_SYNTAX,
            "the file ends inside a flow mapping `{ … }`".into(),
            Some("add the missing `}`".into()),
        ),
        ErrorKind::ExpectedFlowSequenceSeparator => (
            codes::YAML_SYNTAX,
            "expected `,` or `]` in this flow list".into(),
            Some("separate the entries with commas and close the list with `]`".into()),
        ),
        ErrorKind::ExpectedFlowMappingSeparator => (
            codes::YAML_SYNTAX,
            "expected `,` or `}` in this flow mapping".into(),
            Some("separate the entries with commas and close the mapping with `}`".into()),
        ),
        ErrorKind::InvalidColonPlacement | ErrorKind::FlowMappingValueAdjacentCollection => (
            codes::YAML_SYNTAX,
            "a `:` is misplaced inside a flow collection".into(),
            Some(
                "check for an unclosed `[` or `{` on an earlier line, or quote a value that \
                 contains `:`"
                    .into(),
            ),
        ),
        ErrorKind::UnexpectedCharacter { character } => {
            let hint = match character {
                '@' | '`' => {
                    format!("`{character}` cannot start a plain value in YAML; quote the value")
                }
                _ => "quote the value if this character is meant as text".into(),
            };
            (
                codes::YAML_SYNTAX,
                format!("unexpected character `{}`", character.escape_default()),
                Some(hint),
            )
        }
        ErrorKind::UnknownQuotedScalarEscape
        | ErrorKind::InvalidQuotedScalarHexEscape
        | ErrorKind::InvalidUnicodeEscape => (
            codes::YAML_SYNTAX,
            "invalid escape sequence in a double-quoted string".into(),
            Some(
                "write `\\\\` for a backslash, or use single quotes, where a backslash is plain \
                 text"
                    .into(),
            ),
        ),
        ErrorKind::CommentNotSeparated => (
            codes::YAML_SYNTAX,
            "a `#` comment must follow a space".into(),
            Some("put a space before `#`, or quote the value if `#` is text".into()),
        ),
        ErrorKind::CommentInterceptedScalar => (
            codes::YAML_SYNTAX,
            "a comment interrupts a multi-line plain value".into(),
            Some("quote the value, or move the comment".into()),
        ),
        ErrorKind::SimpleKeyExpected | ErrorKind::InvalidSimpleKey => (
            codes::YAML_SYNTAX,
            "a key is not followed by `:`".into(),
            Some(
                "a key must be on one line, at most 1024 characters long, and followed by `:`; \
                 check for an unclosed quote or bracket"
                    .into(),
            ),
        ),
        ErrorKind::ExpectedNodeContent => {
            (codes::YAML_SYNTAX, "expected a value here".into(), None)
        }
        ErrorKind::UnknownAnchor => (
            codes::YAML_SYNTAX,
            "unknown alias".into(),
            Some("define the anchor (`&name`) before the alias (`*name`)".into()),
        ),
        ErrorKind::InvalidDocumentEnd => (
            codes::YAML_SYNTAX,
            "unexpected content after the document end marker `...`".into(),
            None,
        ),
        other => {
            let detail = other.to_string();
            let message = if detail.is_empty() {
                format!("invalid YAML ({other:?})")
            } else {
                format!("invalid YAML: {detail}")
            };
            (codes::YAML_SYNTAX, message, None)
        }
    };
    let _ = (text, offset);
    let mut d = Diagnostic::error(code, message).at(span);
    if let Some(hint) = hint {
        d = d.hint(hint);
    }
    d
}

fn closing(open: char) -> char {
    match open {
        '[' => ']',
        '{' => '}',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Origin;

    fn load_with(text: &str, limits: &Limits) -> (Option<Node>, Vec<Diagnostic>, SourceMap) {
        let mut sources = SourceMap::new();
        let id = sources.add("t.yaml", Origin::Stdin, text);
        let mut diags = Diagnostics::with_cap(0);
        let node = load(&sources, id, limits, &mut diags);
        let out = diags.iter().cloned().collect();
        (node, out, sources)
    }

    fn load_str(text: &str) -> (Option<Node>, Vec<Diagnostic>, SourceMap) {
        load_with(text, &Limits::default())
    }

    fn ok(text: &str) -> Node {
        let (node, diags, _) = load_str(text);
        assert!(diags.is_empty(), "unexpected diagnostics: {diags:#?}");
        node.expect("a document")
    }

    fn codes_of(diags: &[Diagnostic]) -> Vec<&'static str> {
        diags.iter().map(|d| d.code).collect()
    }

    fn get<'n>(node: &'n Node, key: &str) -> &'n Node {
        node.as_map()
            .and_then(|m| m.get(key))
            .unwrap_or_else(|| panic!("no key {key}"))
    }

    fn core(node: &Node) -> Core {
        node.as_scalar().expect("scalar").core
    }

    #[test]
    fn core_schema_applies_to_plain_scalars_only() {
        let root = ok(
            "a: 1.10\nb: yes\nc: 017\nd: '017'\ne: \"true\"\nf: true\ng: ~\nh: |\n  12\ni: 0o17\nj: 2024-04-14\n",
        );
        let a = get(&root, "a").as_scalar().unwrap();
        assert_eq!(a.text, "1.10");
        assert_eq!(a.core, Core::Float(1.1));
        assert_eq!(core(get(&root, "b")), Core::Str);
        assert_eq!(core(get(&root, "c")), Core::Int(17));
        assert_eq!(core(get(&root, "d")), Core::Str);
        assert_eq!(
            get(&root, "d").as_scalar().unwrap().style,
            Style::SingleQuoted
        );
        assert_eq!(core(get(&root, "e")), Core::Str);
        assert_eq!(core(get(&root, "f")), Core::Bool(true));
        assert_eq!(core(get(&root, "g")), Core::Null);
        assert_eq!(get(&root, "h").as_str(), Some("12\n"));
        assert_eq!(core(get(&root, "i")), Core::Int(15));
        assert_eq!(get(&root, "j").as_str(), Some("2024-04-14"));
    }

    #[test]
    fn integer_out_of_range_is_a_string_with_a_warning() {
        let (node, diags, _) = load_str("big: 99999999999999999999\n");
        let node = node.unwrap();
        assert_eq!(get(&node, "big").as_str(), Some("99999999999999999999"));
        assert_eq!(codes_of(&diags), [codes::YAML_INT_RANGE]);
        assert!(!diags[0].is_error());
        assert!(diags[0].message.contains("read as a string"));
        assert_eq!(diags[0].span.unwrap().col, 6);
    }

    #[test]
    fn explicit_core_tags_force_and_check_types() {
        let root =
            ok("a: !!str 12\nb: !!int '12'\nc: !!float 3\nd: !!bool \"false\"\ne: !!null ''\n");
        assert_eq!(get(&root, "a").as_str(), Some("12"));
        assert_eq!(
            get(&root, "a").tag.as_deref(),
            Some("tag:yaml.org,2002:str")
        );
        assert_eq!(core(get(&root, "b")), Core::Int(12));
        assert_eq!(core(get(&root, "c")), Core::Float(3.0));
        assert_eq!(core(get(&root, "d")), Core::Bool(false));
        assert_eq!(core(get(&root, "e")), Core::Null);

        let (_, diags, _) = load_str("a: !!int twelve\nb: !!bool yes\n");
        assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX, codes::YAML_SYNTAX]);
        assert!(
            diags[0].message.contains("`twelve` is not an integer"),
            "{}",
            diags[0].message
        );
        assert!(diags[0].message.contains("!!int"));
        assert!(diags[1].message.contains("`yes` is not a boolean"));
        assert_eq!(diags[1].span.unwrap().line, 2);
    }

    #[test]
    fn other_tags_are_kept() {
        let root = ok(
            "a: !!binary aGk=\nb: !custom 5\nc: !!timestamp 2024-01-01\nd: !map {x: 1}\ne: ! 7\n",
        );
        assert_eq!(
            get(&root, "a").tag.as_deref(),
            Some("tag:yaml.org,2002:binary")
        );
        assert_eq!(get(&root, "a").as_str(), Some("aGk="));
        assert_eq!(get(&root, "b").tag.as_deref(), Some("!custom"));
        assert_eq!(core(get(&root, "b")), Core::Int(5));
        assert_eq!(
            get(&root, "c").tag.as_deref(),
            Some("tag:yaml.org,2002:timestamp")
        );
        assert_eq!(get(&root, "d").tag.as_deref(), Some("!map"));
        assert!(get(&root, "d").as_map().is_some());
        // The non-specific tag `!` makes a string.
        assert_eq!(get(&root, "e").as_str(), Some("7"));
    }

    #[test]
    fn duplicate_keys_compare_decoded_text_and_are_all_reported() {
        let text = "a: 1\n'a': 2\n1: x\n\"1\": y\nb: 3\nb: 4\n";
        let (node, diags, _) = load_str(text);
        let node = node.expect("the tree is still returned");
        assert_eq!(codes_of(&diags), [codes::YAML_DUPLICATE_KEY; 3]);
        let d = &diags[0];
        assert_eq!(d.message, "duplicate key `a` in this mapping");
        let span = d.span.unwrap();
        assert_eq!((span.line, span.col), (2, 1));
        assert_eq!(d.span_label.as_deref(), Some("defined again here"));
        assert_eq!(d.labels.len(), 1);
        assert_eq!(d.labels[0].message, "first defined here");
        assert_eq!((d.labels[0].span.line, d.labels[0].span.col), (1, 1));
        assert!(
            d.hint
                .as_deref()
                .unwrap()
                .contains("YAML forbids duplicate keys")
        );
        assert_eq!(diags[1].message, "duplicate key `1` in this mapping");
        assert_eq!(diags[2].span.unwrap().line, 6);
        // The first definition wins.
        assert_eq!(core(get(&node, "a")), Core::Int(1));
        assert_eq!(core(get(&node, "b")), Core::Int(3));
        assert_eq!(node.as_map().unwrap().len(), 3);
    }

    #[test]
    fn non_scalar_keys_are_kept_and_checked_for_duplicates() {
        let root = ok("? [ service, 2 ]\n: x\n[ a, b ]: y\n");
        let map = root.as_map().unwrap();
        assert_eq!(map.len(), 2);
        let key = &map.entries()[0].key;
        let items = key.as_seq().unwrap();
        assert_eq!(items[0].as_str(), Some("service"));
        assert_eq!(core(&items[1]), Core::Int(2));
        assert_eq!((key.span.line, key.span.col), (1, 3));
        assert_eq!(map.entries()[1].value.as_str(), Some("y"));

        let (_, diags, _) = load_str("[ a, 1 ]: x\n[ 'a', \"1\" ]: y\n{k: v}: 1\n{k: w}: 2\n");
        assert_eq!(codes_of(&diags), [codes::YAML_DUPLICATE_KEY]);
        assert_eq!(diags[0].message, "duplicate key `[a, 1]` in this mapping");
        assert_eq!(diags[0].span.unwrap().line, 2);
        assert_eq!(diags[0].labels[0].span.line, 1);
    }

    #[test]
    fn aliases_expand_with_definition_spans() {
        let text = "base: &b\n  x: 1\n  y: [2, 3]\ncopy: *b\ns: &s hello\nt: *s\n";
        let root = ok(text);
        let copy = get(&root, "copy");
        assert_eq!((copy.span.line, copy.span.col), (4, 7));
        let x = get(copy, "x");
        assert_eq!(core(x), Core::Int(1));
        assert_eq!((x.span.line, x.span.col), (2, 6));
        assert_eq!(get(copy, "y").as_seq().unwrap().len(), 2);
        assert_eq!(get(&root, "t").as_str(), Some("hello"));
    }

    #[test]
    fn unknown_alias_is_a_clear_error() {
        let (node, diags, _) = load_str("a: 1\nb: *nope\nc: *other\n");
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX, codes::YAML_SYNTAX]);
        assert_eq!(diags[0].message, "unknown alias `*nope`");
        let span = diags[0].span.unwrap();
        assert_eq!((span.line, span.col), (2, 4));
        assert!(diags[1].message.contains("*other"));
    }

    #[test]
    fn recursive_alias_is_an_error_not_a_hang() {
        let (node, diags, _) = load_str("a: &a [1, *a]\n");
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX]);
        assert!(diags[0].message.contains("contains it"));
    }

    fn billion_laughs() -> String {
        let mut text = String::from(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
        for pair in names.windows(2) {
            let (prev, name) = (pair[0], pair[1]);
            let refs = vec![format!("*{prev}"); 9].join(",");
            text.push_str(&format!("{name}: &{name} [{refs}]\n"));
        }
        text
    }

    #[test]
    fn billion_laughs_stops_at_the_alias_budget() {
        let (node, diags, _) = load_str(&billion_laughs());
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_ALIAS_BUDGET]);
        let span = diags[0].span.unwrap();
        assert!(span.line >= 2, "reported at an alias: {span:?}");
        assert!(diags[0].message.contains("1000000"));
        // With a small budget it fails at the first alias that passes it.
        let limits = Limits {
            max_alias_expansion: 50,
            ..Limits::default()
        };
        let (node, diags, sources) = load_with(&billion_laughs(), &limits);
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_ALIAS_BUDGET]);
        // `*a` adds 10 nodes; the sixth one passes 50.
        let span = diags[0].span.unwrap();
        assert_eq!(sources.slice(span), "*a");
        assert_eq!(span.line, 2);
    }

    #[test]
    fn merge_keys_merge_and_explicit_keys_win() {
        let text = "\
d1: &d1 {a: 1, b: 1, c: 1}
d2: &d2 {b: 2, d: 2}
one:
  a: own
  <<: *d1
two:
  <<: [*d2, *d1]
  c: own
inline:
  <<: {z: 26}
";
        let root = ok(text);
        let one = get(&root, "one");
        assert_eq!(get(one, "a").as_str(), Some("own"));
        assert_eq!(core(get(one, "b")), Core::Int(1));
        assert!(!one.as_map().unwrap().contains_key("<<"));
        let two = get(&root, "two");
        assert_eq!(
            core(get(two, "b")),
            Core::Int(2),
            "earlier map in the list wins"
        );
        assert_eq!(core(get(two, "a")), Core::Int(1));
        assert_eq!(core(get(two, "d")), Core::Int(2));
        assert_eq!(
            get(two, "c").as_str(),
            Some("own"),
            "explicit key after << wins"
        );
        assert_eq!(two.as_map().unwrap().len(), 4);
        assert_eq!(core(get(get(&root, "inline"), "z")), Core::Int(26));
        // A quoted `<<` is an ordinary key.
        let root = ok("'<<': 1\n");
        assert!(root.as_map().unwrap().contains_key("<<"));
    }

    #[test]
    fn merge_of_a_non_map_is_an_error() {
        let (_, diags, _) = load_str("a:\n  <<: 5\nb:\n  <<: [{x: 1}, 2]\n");
        assert_eq!(codes_of(&diags), [codes::YAML_MERGE, codes::YAML_MERGE]);
        assert!(diags[0].message.contains("found an integer"));
        assert_eq!(diags[0].span.unwrap().line, 2);
        assert!(diags[1].message.contains("list"));
    }

    #[test]
    fn aliases_are_charged_the_bytes_they_copy() {
        let text = format!("a: &a \"{}\"\nb: [*a, *a, *a]\n", "x".repeat(100));
        let limits = |bytes| Limits {
            max_alias_bytes: bytes,
            ..Limits::default()
        };
        let (node, diags, _) = load_with(&text, &limits(300));
        assert!(node.is_some() && diags.is_empty(), "{diags:?}");
        let (node, diags, _) = load_with(&text, &limits(299));
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_ALIAS_BUDGET]);
        assert!(
            diags[0].message.contains("299 bytes"),
            "{}",
            diags[0].message
        );
        assert_eq!(
            diags[0].span.unwrap().col,
            13,
            "at the alias that passes it"
        );
        // A collection's alias copies the text of every scalar in it.
        let text = "a: &a [xx, {yy: zz}]\nb: *a\n";
        assert!(load_with(text, &limits(6)).0.is_some());
        assert!(load_with(text, &limits(5)).0.is_none());
    }

    #[test]
    fn a_file_stops_at_the_node_limit_aliases_counted() {
        let limits = |nodes| Limits {
            max_yaml_nodes: nodes,
            ..Limits::default()
        };
        // The root map, two keys, a list and its three items.
        let text = "a: [1, 2, 3]\nb: x\n";
        assert!(load_with(text, &limits(8)).0.is_some());
        let (node, diags, _) = load_with(text, &limits(7));
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_NODE_LIMIT]);
        assert_eq!(diags[0].span.unwrap().line, 2);
        assert!(
            diags[0]
                .hint
                .as_deref()
                .unwrap()
                .contains("--max-yaml-nodes")
        );
        // An alias adds the nodes it copies.
        let text = "a: &a [1, 2, 3]\nb: *a\n";
        assert!(load_with(text, &limits(11)).0.is_some());
        assert!(load_with(text, &limits(10)).0.is_none());
    }

    #[test]
    fn second_document_is_an_error() {
        let (node, diags, _) = load_str("a: 1\n---\nb: 2\n");
        assert_eq!(codes_of(&diags), [codes::YAML_MULTI_DOCUMENT]);
        let span = diags[0].span.unwrap();
        assert_eq!((span.line, span.col), (2, 1));
        assert_eq!(
            diags[0].hint.as_deref(),
            Some("a TOSCA file holds one document; split it into files")
        );
        // The first document is still returned.
        assert!(node.unwrap().as_map().unwrap().contains_key("a"));
    }

    #[test]
    fn empty_stream_is_an_error() {
        for text in ["", "# only a comment\n\n", "---\n"] {
            let (node, diags, _) = load_str(text);
            assert!(node.is_none(), "{text:?}");
            assert_eq!(codes_of(&diags), [codes::YAML_EMPTY], "{text:?}");
            let span = diags[0].span.unwrap();
            assert_eq!((span.start, span.line, span.col), (0, 1, 1));
        }
    }

    #[test]
    fn nesting_deeper_than_the_limit_is_fatal() {
        let limits = Limits {
            max_yaml_depth: 5,
            ..Limits::default()
        };
        let (node, diags, _) = load_with("a: [[[[1]]]]\n", &limits);
        assert!(node.is_some(), "five levels are fine");
        assert!(diags.is_empty());
        let (node, diags, _) = load_with("a: [[[[[1]]]]]\n", &limits);
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_DEPTH]);
        assert_eq!(diags[0].span.unwrap().col, 8);
        // Deep input with the default limit: an error, no stack overflow.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let (node, diags, _) = load_str(&deep);
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_DEPTH]);
    }

    #[test]
    fn scalar_longer_than_the_limit_is_fatal() {
        let limits = Limits {
            max_scalar_bytes: 8,
            ..Limits::default()
        };
        let (node, diags, _) = load_with("a: 12345678\n", &limits);
        assert!(node.is_some());
        assert!(diags.is_empty());
        let (node, diags, _) = load_with("a: ok\nb: \"123456789\"\n", &limits);
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_SCALAR_TOO_LONG]);
        assert_eq!(diags[0].span.unwrap().line, 2);
    }

    #[test]
    fn tabs_in_indentation_are_reported_on_every_line() {
        let text = "a:\n\tb: 1\nc:\n  d: 2\ne:\n \tf: 3\n";
        let (node, diags, _) = load_str(text);
        assert!(node.is_none());
        assert_eq!(
            codes_of(&diags),
            [codes::YAML_TAB_INDENT, codes::YAML_TAB_INDENT]
        );
        assert_eq!(diags[0].message, "tab character in indentation");
        let s0 = diags[0].span.unwrap();
        assert_eq!((s0.line, s0.col, s0.end - s0.start), (2, 1, 1));
        let s1 = diags[1].span.unwrap();
        assert_eq!((s1.line, s1.col), (6, 2));
        assert_eq!(
            diags[0].hint.as_deref(),
            Some("YAML indents with spaces only; replace the tab with spaces")
        );
    }

    #[test]
    fn tabs_in_block_scalars_and_flow_are_fine() {
        let root = ok("a: |\n  x\n  \tindented with a tab\nb: [1,\n\t2]\nc: 1\t# comment\n");
        assert_eq!(get(&root, "a").as_str(), Some("x\n\tindented with a tab\n"));
        assert_eq!(get(&root, "b").as_seq().unwrap().len(), 2);
    }

    #[test]
    fn nbsp_in_indentation_is_reported_with_the_syntax_error_after() {
        let text = "a:\n\u{a0} b: 1\nc:\n\u{a0}\u{a0}d: 2\n";
        let (_, diags, _) = load_str(text);
        assert_eq!(codes_of(&diags), [codes::YAML_NBSP, codes::YAML_NBSP]);
        assert_eq!(
            diags[0].message,
            "non-breaking space (U+00A0) in indentation"
        );
        let s = diags[0].span.unwrap();
        assert_eq!((s.line, s.col, s.end - s.start), (2, 1, 2));
        assert!(diags[0].hint.as_deref().unwrap().contains("plain space"));
        assert_eq!(diags[1].span.unwrap().line, 4);

        // With a real syntax error later, both are reported, whitespace first.
        let (node, diags, _) = load_str("a:\n\u{a0} b: 1\nc: [1, 2\n");
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_NBSP, codes::YAML_SYNTAX]);
        // Inside a block scalar a non-breaking space is text.
        ok("a: |\n  \u{a0}x\n");
    }

    #[test]
    fn syntax_errors_are_readable_with_hints() {
        let (node, diags, _) = load_str("a: 1\nk: v: w\n");
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX]);
        assert!(diags[0].message.contains("`:`"), "{}", diags[0].message);
        assert!(
            diags[0]
                .hint
                .as_deref()
                .unwrap()
                .contains("missing space after `:`")
        );
        let s = diags[0].span.unwrap();
        assert_eq!((s.line, s.col), (2, 5));

        let (_, diags, _) = load_str("a: [1, 2\nb: 3\n");
        assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX]);
        assert!(diags[0].hint.is_some());

        // Diagnostics found before the scanner error are kept.
        let (node, diags, _) = load_str("a: 1\na: 2\nb: 'open\n");
        assert!(node.is_none());
        assert_eq!(
            codes_of(&diags),
            [codes::YAML_DUPLICATE_KEY, codes::YAML_SYNTAX]
        );
    }

    #[test]
    fn under_indented_quoted_continuations_are_accepted_like_libyaml() {
        let text = "tosca_definitions_version: tosca_2_0\ndescription: \"A multiline description \nusing a quoted string\"\nb:\n  c: 'x\n  y\n z'\nafter: 1\n";
        let (node, diags, sources) = load_str(text);
        assert!(diags.is_empty(), "{diags:#?}");
        let root = node.unwrap();
        let d = get(&root, "description");
        assert_eq!(
            d.as_str(),
            Some("A multiline description using a quoted string")
        );
        assert_eq!(
            sources.slice(d.span),
            "\"A multiline description \nusing a quoted string\""
        );
        let c = get(get(&root, "b"), "c");
        assert_eq!(c.as_str(), Some("x y z"));
        assert_eq!((c.span.line, c.span.col), (5, 6));
        let after = &root.as_map().unwrap().entries()[3].key;
        assert_eq!(sources.slice(after.span), "after");
        assert_eq!((after.span.line, after.span.col), (8, 1));
        // An unclosed quote is still an error, reported once.
        let (node, diags, _) = load_str("a: \"abc\nb: 1\n");
        assert!(node.is_none());
        assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX]);
    }

    #[test]
    fn patch_maps_offsets_back() {
        let mut patch = Patch::default();
        assert!(patch.indent_continuation("a: \"x\ny\"\n", 6));
        assert_eq!(patch.text.as_deref(), Some("a: \"x\n y\"\n"));
        assert_eq!(patch.original(5), 5);
        assert_eq!(
            patch.original(6),
            6,
            "the inserted space maps to the line start"
        );
        assert_eq!(patch.original(7), 6);
        assert_eq!(patch.original(9), 8);
        // Not a continuation: first line, or text before the offset.
        assert!(!Patch::default().indent_continuation("\"x", 0));
        assert!(!Patch::default().indent_continuation("a\nb c", 4));
    }

    #[test]
    fn empty_values_are_null_with_a_zero_length_span() {
        let root = ok("top:\n  key:\n  other: 1\n");
        let key = get(get(&root, "top"), "key");
        let s = key.as_scalar().unwrap();
        assert_eq!(s.core, Core::Null);
        assert_eq!(s.text, "");
        assert_eq!(key.span.start, key.span.end);
        assert_eq!((key.span.line, key.span.col), (2, 6));
    }

    #[test]
    fn spans_point_at_keys_values_and_cover_collections() {
        let text = "name: web\nlist:\n  - x\n  - {k: v}\n# trailing comment\n";
        let (node, diags, sources) = load_str(text);
        assert!(diags.is_empty());
        let root = node.unwrap();
        let map = root.as_map().unwrap();
        let first = &map.entries()[0];
        assert_eq!(sources.slice(first.key.span), "name");
        assert_eq!(sources.slice(first.value.span), "web");
        let list = get(&root, "list");
        assert_eq!(sources.slice(list.span), "- x\n  - {k: v}");
        assert_eq!((list.span.line, list.span.col), (3, 3));
        let flow = &list.as_seq().unwrap()[1];
        assert_eq!(sources.slice(flow.span), "{k: v}");
        assert_eq!(sources.slice(root.span), &text[..text.find("\n#").unwrap()]);
    }

    #[test]
    fn crlf_input_keeps_lines_and_columns() {
        let text = "a: 1\r\nbé:\r\n  c: x\r\n  d:\r\n";
        let (node, diags, sources) = load_str(text);
        assert!(diags.is_empty(), "{diags:?}");
        let root = node.unwrap();
        let b = get(&root, "bé");
        let c = get(b, "c");
        assert_eq!((c.span.line, c.span.col), (3, 6));
        assert_eq!(sources.slice(c.span), "x");
        let key_b = &root.as_map().unwrap().entries()[1].key;
        assert_eq!((key_b.span.line, key_b.span.col), (2, 1));
        let d = get(b, "d");
        assert!(d.is_null());
        assert_eq!((d.span.line, d.span.col), (4, 4));
        // A tab error in CRLF input points at the tab.
        let (_, diags, _) = load_str("a:\r\n\tb: 1\r\n");
        assert_eq!(codes_of(&diags), [codes::YAML_TAB_INDENT]);
        let s = diags[0].span.unwrap();
        assert_eq!((s.line, s.col), (2, 1));
    }

    #[test]
    fn locator_agrees_with_source_file_spans() {
        let text = "a: é\r\n  - [x, yé, z]\n\n\t\u{a0}w: 1\nlast";
        let mut sources = SourceMap::new();
        let id = sources.add("t.yaml", Origin::Stdin, text);
        let file = sources.get(id);
        let mut loc = Locator::new(file, id);
        // In order, out of order, and repeated.
        let mut offsets: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        offsets.extend([7, 3, 0, 20, 20, text.len(), 1]);
        for off in offsets {
            assert_eq!(
                loc.span(off, off),
                file.span(id, off as u32, off as u32),
                "at {off}"
            );
        }
    }

    #[test]
    fn never_panics_on_odd_input() {
        let inputs = [
            "\u{0}",
            "[",
            "]",
            "{",
            "}",
            "- - -",
            "? ",
            ": ",
            "&a",
            "*",
            "!!",
            "%YAML 1.2\n---\n",
            "a: &x\n",
            "'",
            "\"\\",
            "|",
            ">\n  x",
            "key: \"\\uD800\"",
            "---\n...\n---\n",
            "a: !!int",
            "<<: *x",
            "a:\n  <<: []\n",
            "? [a]\n? [a]\n",
            "- !!map 1\n- !!seq {}\n",
        ];
        for text in inputs {
            let _ = load_str(text);
        }
    }

    #[test]
    /// Large documents load whole; how fast is measured in `benches/`, not asserted here.
    fn large_flat_documents_load() {
        let mut text = String::from("node_templates:\n");
        for i in 0..20_000 {
            text.push_str(&format!(
                "  n{i}:\n    type: tosca.nodes.Compute\n    properties: {{ size: {i} }}\n"
            ));
        }
        let root = ok(&text);
        assert_eq!(get(&root, "node_templates").as_map().unwrap().len(), 20_000);
        // One very long line too.
        let line = format!("[{}]", vec!["abc"; 200_000].join(", "));
        let root = ok(&line);
        assert_eq!(root.as_seq().unwrap().len(), 200_000);
    }
}
