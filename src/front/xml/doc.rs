//! One XML document: parsing with `roxmltree`, spans of elements and attributes, and the
//! small schema checks every element reader shares (known children, required attributes,
//! `yes`/`no` booleans).

use roxmltree::{Document, Node as X, ParsingOptions};

use crate::diag::{Diagnostic, Diagnostics, closest, codes};
use crate::source::{FileId, SourceFile, Span};

pub const TOSCA_NS: &str = "http://docs.oasis-open.org/tosca/ns/2011/12";
pub const XSD_NS: &str = "http://www.w3.org/2001/XMLSchema";
pub const WSDL_NS: &str = "http://schemas.xmlsoap.org/wsdl/";
pub const WINERY_NS: &str = "http://www.opentosca.org/winery/extensions/tosca/2013/02/12";
pub const BASE_TYPES_NS: &str = "http://docs.oasis-open.org/tosca/ns/2011/12/ToscaBaseTypes";

/// A parsed document with what spans need.
pub struct Doc<'a> {
    pub id: FileId,
    pub file: &'a SourceFile,
    pub doc: Document<'a>,
}

/// Parses XML (no DTDs: an entity bomb is refused by the parser). A syntax error becomes one
/// `xml::syntax` diagnostic at its line and column.
pub fn parse<'a>(id: FileId, file: &'a SourceFile, diags: &mut Diagnostics) -> Option<Doc<'a>> {
    match parse_unreported(id, file) {
        Ok(doc) => Some(doc),
        Err(e) => {
            let pos = e.pos();
            let start = byte_at(&file.text, pos.row, pos.col);
            diags.push(
                Diagnostic::error(codes::XML_SYNTAX, format!("not well-formed XML: {e}"))
                    .at(file.span(id, start, start))
                    .hint("TOSCA 1.0 XML must be well-formed XML 1.0 with namespaces; fix the markup at this point"),
            );
            None
        }
    }
}

/// [`parse`] without reporting: for a file the loader has parsed, and reported, already.
pub fn parse_unreported<'a>(id: FileId, file: &'a SourceFile) -> Result<Doc<'a>, roxmltree::Error> {
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: 5_000_000,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(&file.text, options).map(|doc| Doc { id, file, doc })
}

/// The byte offset of a 1-based line and character column.
fn byte_at(text: &str, row: u32, col: u32) -> u32 {
    let mut offset = 0usize;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row as usize {
            let within: usize = line
                .char_indices()
                .nth(col.saturating_sub(1) as usize)
                .map_or(line.trim_end_matches('\n').len(), |(b, _)| b);
            return (offset + within) as u32;
        }
        offset += line.len();
    }
    text.len() as u32
}

impl<'a> Doc<'a> {
    /// The span of an element's start-tag name (`<tosca:NodeTemplate`).
    pub fn el(&self, n: X) -> Span {
        let start = n.range().start;
        let text = &self.file.text[start..];
        let len = text
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_whitespace() || *c == '>' || *c == '/')
            .map_or(text.len(), |(i, _)| i);
        self.file.span(self.id, start as u32, (start + len) as u32)
    }

    /// The span of an attribute's value, or of the element when it has none.
    pub fn at(&self, n: X, name: &str) -> Span {
        match n
            .attributes()
            .find(|a| a.namespace().is_none() && a.name() == name)
        {
            Some(a) => {
                let r = a.range_value();
                self.file.span(self.id, r.start as u32, r.end as u32)
            }
            None => self.el(n),
        }
    }

    /// The span of an element's text content (or the element when it has none).
    pub fn text_span(&self, n: X) -> Span {
        match n.children().find(|c| c.is_text()) {
            Some(t) => {
                let r = t.range();
                self.file.span(self.id, r.start as u32, r.end as u32)
            }
            None => self.el(n),
        }
    }
}

/// Whether `n` is the TOSCA element `name`.
pub fn is(n: X, name: &str) -> bool {
    n.is_element() && n.tag_name().namespace() == Some(TOSCA_NS) && n.tag_name().name() == name
}

/// The TOSCA child elements of `n` named `name`.
pub fn kids<'a, 'i>(n: X<'a, 'i>, name: &'static str) -> impl Iterator<Item = X<'a, 'i>> {
    n.children().filter(move |c| is(*c, name))
}

pub fn kid<'a, 'i>(n: X<'a, 'i>, name: &'static str) -> Option<X<'a, 'i>> {
    kids(n, name).next()
}

/// A no-namespace attribute, whitespace-trimmed (anyURI and QName values collapse).
pub fn attr<'a>(n: X<'a, '_>, name: &str) -> Option<&'a str> {
    n.attributes()
        .find(|a| a.namespace().is_none() && a.name() == name)
        .map(|a| a.value().trim())
}

/// The joined text of `documentation` children, trimmed; `None` without any.
pub fn documentation(n: X) -> Option<String> {
    let parts: Vec<String> = kids(n, "documentation")
        .map(|d| {
            d.descendants()
                .filter(|t| t.is_text())
                .filter_map(|t| t.text())
                .collect::<String>()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|t| !t.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// Checks what a TOSCA element holds: every TOSCA-namespace child must be one of `allowed`
/// (`documentation` always is), every no-namespace attribute one of `attrs`. Foreign elements
/// and attributes are extensions and pass. Returns false when something was wrong.
pub fn check_element(
    d: &Doc,
    n: X,
    allowed: &[&str],
    attrs: &[&str],
    lenient: &[&str],
    diags: &mut Diagnostics,
) -> bool {
    let mut ok = true;
    for c in n.children().filter(|c| c.is_element()) {
        let name = c.tag_name().name();
        if c.tag_name().namespace() != Some(TOSCA_NS) || name == "documentation" {
            continue;
        }
        if !allowed.contains(&name) {
            ok = false;
            diags.push(unknown_element(d, c, n, allowed));
        }
    }
    check_attributes(d, n, attrs, lenient, diags) && ok
}

/// A list element of the schema (`Requirements`, `DeploymentArtifacts`, `PropertyMappings`, ...):
/// no attributes and, besides `documentation`, only `item` children, which it returns. Without
/// the check, a misspelt or misplaced child would be dropped without a word.
pub fn items<'a, 'i>(
    d: &Doc,
    list: X<'a, 'i>,
    item: &'static str,
    diags: &mut Diagnostics,
) -> impl Iterator<Item = X<'a, 'i>> + use<'a, 'i> {
    check_element(d, list, &[item], &[], &[], diags);
    kids(list, item)
}

/// The attribute half of [`check_element`], for an element whose children are checked as they
/// are read: reports each attribute without a namespace that is neither in `attrs` nor in
/// `lenient`, and says whether there was none.
pub fn check_attributes(
    d: &Doc,
    n: X,
    attrs: &[&str],
    lenient: &[&str],
    diags: &mut Diagnostics,
) -> bool {
    let mut ok = true;
    for a in n.attributes().filter(|a| a.namespace().is_none()) {
        if !attrs.contains(&a.name()) && !lenient.contains(&a.name()) {
            ok = false;
            let r = a.range();
            let parent = n.tag_name().name();
            diags.push(
                Diagnostic::error(
                    codes::XML_SCHEMA,
                    format!("`{parent}` has no attribute `{}`", a.name()),
                )
                .at(d.file.span(d.id, r.start as u32, r.end as u32))
                .did_you_mean(
                    a.name(),
                    attrs,
                    Some(format!("its attributes are: {}", attrs.join(", "))),
                ),
            );
        }
    }
    ok
}

pub fn unknown_element(d: &Doc, c: X, parent: X, allowed: &[&str]) -> Diagnostic {
    let name = c.tag_name().name();
    let p = parent.tag_name().name();
    let d0 = Diagnostic::error(
        codes::XML_SCHEMA,
        format!("`{name}` is not a TOSCA 1.0 element that `{p}` can hold"),
    )
    .at(d.el(c));
    match closest(name, allowed) {
        Some(near) => d0.hint(format!(
            "did you mean `{near}`? (TOSCA element names are case-sensitive)"
        )),
        None if allowed.is_empty() => d0.hint(format!("`{p}` holds no TOSCA elements")),
        None => d0.hint(format!("`{p}` holds: {}", allowed.join(", "))),
    }
}

/// A required attribute, with an error when it is missing or empty.
pub fn required<'a>(d: &Doc, n: X<'a, '_>, name: &str, diags: &mut Diagnostics) -> Option<&'a str> {
    match attr(n, name) {
        Some(v) if !v.is_empty() => Some(v),
        _ => {
            diags.push(
                Diagnostic::error(
                    codes::XML_SCHEMA,
                    format!(
                        "`{}` lacks its required attribute `{name}`",
                        n.tag_name().name()
                    ),
                )
                .at(d.el(n))
                .hint(format!("add `{name}=\"...\"`")),
            );
            None
        }
    }
}

/// An `InputParameter` or `OutputParameter` (the schema's tParameter, X1-IFC-03): no TOSCA
/// children, the attributes `name` and `type` (both `use="required"`, an opaque string) and
/// `required` (yes/no, default yes). Returns its name and type, each when written, and its
/// `required`.
pub fn parameter<'a>(
    d: &Doc,
    p: X<'a, '_>,
    diags: &mut Diagnostics,
) -> (Option<&'a str>, Option<&'a str>, bool) {
    check_element(d, p, &[], &["name", "type", "required"], &[], diags);
    let name = required(d, p, "name", diags);
    let type_name = required(d, p, "type", diags);
    (name, type_name, yes_no(d, p, "required", true, diags))
}

/// A `yes`/`no` attribute (TOSCA's tBoolean), `default` when absent.
pub fn yes_no(d: &Doc, n: X, name: &str, default: bool, diags: &mut Diagnostics) -> bool {
    match attr(n, name) {
        None => default,
        Some("yes") => true,
        Some("no") => false,
        Some(other) => {
            diags.push(
                Diagnostic::error(
                    codes::XML_SCHEMA,
                    format!("`{name}=\"{other}\"` is not a TOSCA boolean"),
                )
                .at(d.at(n, name))
                .hint("TOSCA 1.0 XML writes booleans as `yes` or `no`"),
            );
            default
        }
    }
}

/// The TOSCA boolean attribute `name` of `n` as [`yes_no`] reads it (`default` when absent or
/// not `yes` or `no`), reporting nothing: for a second reading of an attribute of an element
/// that is read, and its attribute reported, where the element is defined (`abstract` and
/// `final` by `type_head` and `implementation`).
pub fn flag(n: X, name: &str, default: bool) -> bool {
    match attr(n, name) {
        Some("yes") => true,
        Some("no") => false,
        _ => default,
    }
}

/// Whether `s` is an XML NCName (what `xs:ID` values and type names must be).
pub fn is_ncname(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}
