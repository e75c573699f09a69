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

mod aliases;
mod blanks;
mod locator;
mod maps;
mod patch;
mod scan_errors;
mod tags;

use std::collections::HashMap;

use granit_parser::{ErrorKind, Event, Options, Parser, ScanError, Tag};

use super::node::{Core, Kind, Node, Scalar, Style};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::limits::Limits;
use crate::source::{FileId, SourceFile, SourceMap, Span};
use aliases::Cost;
use blanks::{Blank, prescan, tab_diagnostic};
use locator::{Locator, Mark, to_u32};
use maps::{MapBuilder, add_entry};
use patch::{MAX_QUOTE_FIXES, Patch};
use scan_errors::scan_diagnostic;
use tags::{TagRule, tag_display, tag_text};

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
    let (root, found) = load_apart(sources, file, limits);
    diags.extend(found);
    root
}

/// [`load`] for text toscana ships or writes itself (an embedded profile, a document a backend
/// rendered), where anything the loader finds is toscana's bug, not the input's: the tree when
/// the loader found nothing, or else what it found, for the caller to report as its own bug
/// (see [`placed_by_name`]).
pub fn load_own(
    sources: &SourceMap,
    file: FileId,
    limits: &Limits,
) -> Result<Node, Vec<Diagnostic>> {
    match load_apart(sources, file, limits) {
        (Some(root), found) if found.is_empty() => Ok(root),
        (_, found) => Err(found),
    }
}

/// [`load_own`] from the events `build.rs` recorded ([`load_recorded`]): how an embedded
/// profile is read where no input's diagnostics are at hand.
pub fn load_recorded_own(
    sources: &SourceMap,
    file: FileId,
    events: &[u8],
    limits: &Limits,
) -> Result<Node, Vec<Diagnostic>> {
    match load_recorded_apart(sources, file, events, limits) {
        (Some(root), found) if found.is_empty() => Ok(root),
        (_, found) => Err(found),
    }
}

/// `found`, each placed by the name of its file in `sources` and its line and column rather
/// than by a span: the spans of [`load_own`]'s problems point into a source map the caller
/// keeps to itself, which the run's diagnostics cannot show. Secondary labels, which only spans
/// can place, are left out.
pub fn placed_by_name(sources: &SourceMap, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    found
        .into_iter()
        .map(|mut d| {
            d.labels.clear();
            match d.span.take() {
                Some(span) => d.in_file_at(
                    sources.get(span.file).name.clone(),
                    Some((span.line, span.col)),
                ),
                None => d,
            }
        })
        .collect()
}

/// [`load`]'s tree and what the loader found, given back rather than reported: for a caller
/// that keeps them to report again ([`super::TreeCache`]).
pub fn load_apart(
    sources: &SourceMap,
    file: FileId,
    limits: &Limits,
) -> (Option<Node>, Vec<Diagnostic>) {
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
        return (root, out);
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
    let (root, found) = load_recorded_apart(sources, file, events, limits);
    diags.extend(found);
    root
}

/// [`load_recorded`]'s tree and what the loader found, given back rather than reported.
pub fn load_recorded_apart(
    sources: &SourceMap,
    file: FileId,
    events: &[u8],
    limits: &Limits,
) -> (Option<Node>, Vec<Diagnostic>) {
    let patch = Patch::default();
    let mut loader = Loader::new(sources.get(file), &patch, file, limits);
    let mut fatal = false;
    for (event, start, end) in super::recorded_format::Replay::new(events) {
        if !loader.step(event, start, end, &mut fatal) {
            break;
        }
    }
    let root = loader.finish(fatal);
    (root, std::mem::take(&mut loader.out))
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
    #[allow(clippy::box_collection)] // as [`Node::tag`]
    tag: Option<Box<String>>,
    /// This subtree so far (this node included), for the alias budget.
    size: Cost,
}

/// Why the event loop stopped early.
struct Fatal;
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
                late.push(scan_diagnostic(e.kind(), span));
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
                let builder = MapBuilder::new();
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
            (&collection, TagRule::of(tag.as_deref().map(String::as_str))),
            (_, TagRule::None | TagRule::Other)
                | (Collection::Seq(_), TagRule::Seq)
                | (Collection::Map(_), TagRule::Map)
        );
        if wrong {
            let shown = tag.as_deref().map(|t| tag_display(t)).unwrap_or_default();
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
                let mut map = builder.finish();
                map.shrink_to_fit();
                Kind::Map(map)
            }
        };
        let node = Node {
            span,
            tag: frame.tag,
            style: Style::Plain,
            kind,
        };
        if frame.anchor != 0 {
            self.anchors
                .insert(frame.anchor, (node.clone(), frame.size));
        }
        self.attach(node, frame.size);
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
}

fn null_node(span: Span) -> Node {
    Node {
        span,
        tag: None,
        style: Style::Plain,
        kind: Kind::Scalar(Scalar {
            text: Box::default(),
            core: Core::Null,
        }),
    }
}

/// A document that is only `---` (or only a tag-less empty value) holds nothing for TOSCA.
fn is_empty_document(root: &Node) -> bool {
    root.tag().is_none()
        && root.span.start == root.span.end
        && root.style.is_plain()
        && matches!(&root.kind, Kind::Scalar(s) if s.core == Core::Null)
}

#[cfg(test)]
mod tests;
