//! TOSCA 1.0 XML in the editor: which elements and attributes may be written where, what each
//! means, for completion and hover.
//!
//! The table (`xml_schema.txt`) follows the TOSCA 1.0 schema (the specification's Appendix
//! "Complete TOSCA Grammar" and its XSD): each element with the attributes and child elements the schema
//! gives it where it is written, and its chapter (§5 Service Templates, §6 Node Types, ...).
//! Names the schema uses in two places with different content (`Requirement` of a node
//! template and of the boundary definitions) have one entry per place.
//!
//! Where the cursor is comes from the text before it, scanned as XML (comments, CDATA,
//! processing instructions and quoted attribute values skipped): the open elements, and
//! whether the cursor is in a tag's name, among its attributes, or in content. A document
//! being typed is rarely well-formed, so this never parses the whole file. Namespace
//! prefixes (`tosca:NodeType`) are ignored: the table is of local names.

use std::collections::HashMap;
use std::sync::OnceLock;

use lsp_types::{CompletionItem, CompletionItemKind, Position};

use super::lines::Lines;

/// One element of the TOSCA 1.0 schema where it may be written.
struct Element {
    name: &'static str,
    /// The open elements it has this content under (the nearest last, `/` between them, as
    /// many as tell it apart); `""`: wherever the table allows it.
    parent: &'static str,
    attributes: Vec<&'static str>,
    children: Vec<&'static str>,
    /// The chapter of TOSCA 1.0 that defines it.
    section: &'static str,
    meaning: &'static str,
}

/// The schema: the elements, the document's root first, and the meaning of each attribute.
struct Schema {
    elements: Vec<Element>,
    attributes: HashMap<&'static str, &'static str>,
}

/// The table of `xml_schema.txt` (its header says how it is written), read once. It is data,
/// kept out of the Rust source so that each element stays one line.
fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let mut schema = Schema {
            elements: Vec::new(),
            attributes: HashMap::new(),
        };
        let rows = include_str!("xml_schema.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
        for row in rows {
            let cells: Vec<&'static str> = row.split(" | ").map(str::trim).collect();
            match cells.as_slice() {
                [name, meaning] if name.starts_with('@') => {
                    schema.attributes.insert(&name[1..], meaning);
                }
                [name, parent, attributes, children, section, meaning] => {
                    schema.elements.push(Element {
                        name,
                        parent,
                        attributes: attributes.split_whitespace().collect(),
                        children: children.split_whitespace().collect(),
                        section,
                        meaning,
                    });
                }
                _ => debug_assert!(false, "xml_schema.txt: a row of neither shape: {row}"),
            }
        }
        schema
    })
}

/// The one-line meaning of an attribute, by name.
fn attribute_meaning(name: &str) -> Option<&'static str> {
    schema().attributes.get(name).copied()
}

/// The element `name` written under the open elements `ancestors` (outermost first): the entry
/// whose place is the longest that ends the ancestors.
fn element(name: &str, ancestors: &[String]) -> Option<&'static Element> {
    let fits = |place: &str| {
        let steps: Vec<&str> = place.split('/').filter(|s| !s.is_empty()).collect();
        steps.len() <= ancestors.len()
            && steps
                .iter()
                .rev()
                .zip(ancestors.iter().rev())
                .all(|(s, a)| s == a)
    };
    let elements = &schema().elements;
    // Reversed, so that among places as long the table's first wins.
    elements
        .iter()
        .rev()
        .filter(|e| e.name == name && fits(e.parent))
        .max_by_key(|e| e.parent.split('/').filter(|s| !s.is_empty()).count())
        .or_else(|| elements.iter().find(|e| e.name == name))
}

/// Where the cursor is.
#[derive(Debug, PartialEq, Eq)]
enum Place {
    /// In a tag's name (`<Node|`), possibly an end tag's; what is typed of it.
    TagName { typed: String, end: bool },
    /// In a start tag, among its attributes; the element, the attributes written, and the
    /// attribute name under the cursor (possibly partly typed).
    Attributes {
        element: String,
        written: Vec<String>,
        typed: String,
    },
    /// In an attribute's value, or in content.
    Other,
}

/// The place of byte `at` of `text`, and the open elements around it (innermost last).
fn place(text: &str, at: usize) -> (Place, Vec<String>) {
    let bytes = text.as_bytes();
    let at = at.min(text.len());
    let mut open: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(lt) = memchr::memchr(b'<', &bytes[i..at]).map(|p| i + p) {
        let rest = &text[lt..];
        let skip = |end: &str| rest.find(end).map(|p| lt + p + end.len());
        let after = if rest.starts_with("<!--") {
            skip("-->")
        } else if rest.starts_with("<![CDATA[") {
            skip("]]>")
        } else if rest.starts_with("<?") {
            skip("?>")
        } else if rest.starts_with("<!") {
            skip(">")
        } else {
            None
        };
        if rest.starts_with("<!") || rest.starts_with("<?") {
            match after {
                Some(end) if end <= at => {
                    i = end;
                    continue;
                }
                _ => return (Place::Other, open),
            }
        }
        let end_tag = rest.starts_with("</");
        let name_start = lt + 1 + usize::from(end_tag);
        let name_end = text[name_start..]
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .map_or(text.len(), |p| name_start + p);
        let name = local(&text[name_start..name_end]);
        if at <= name_end {
            // `</` with the cursor between its two characters has typed nothing yet.
            let typed = local(&text[name_start.min(at)..at]).to_string();
            return (
                Place::TagName {
                    typed,
                    end: end_tag,
                },
                open,
            );
        }
        // The tag's end, outside quoted values.
        let mut quote = None;
        let mut close = None;
        for (p, c) in text[name_end..at].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '>') => {
                    close = Some(name_end + p);
                    break;
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            if end_tag || quote.is_some() {
                return (Place::Other, open);
            }
            let inside = &text[name_end..at];
            let written = attribute_names(inside);
            let typed_start = inside
                .rfind(|c: char| c.is_whitespace())
                .map_or(0, |p| p + 1);
            let typed = &inside[typed_start..];
            if typed.contains('=') {
                return (Place::Other, open);
            }
            return (
                Place::Attributes {
                    element: name.to_string(),
                    written,
                    typed: typed.to_string(),
                },
                open,
            );
        };
        if end_tag {
            if let Some(p) = open.iter().rposition(|o| o == name) {
                open.truncate(p);
            }
        } else if !text[..close].ends_with('/') {
            open.push(name.to_string());
        }
        i = close + 1;
    }
    (Place::Other, open)
}

/// A name without its namespace prefix.
fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The names of the attributes written in a tag's text (after its name).
fn attribute_names(inside: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut quote = None;
    let mut word = String::new();
    for c in inside.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '=') => {
                names.push(std::mem::take(&mut word));
            }
            (None, c) if c.is_whitespace() => word.clear(),
            (None, c) => word.push(c),
        }
    }
    names
}

/// The elements or attributes that may be written at `position`.
pub fn complete(text: &str, position: Position) -> Vec<CompletionItem> {
    let at = Lines::new(text).offset(position);
    let (place, open) = place(text, at);
    match place {
        Place::TagName { end: true, .. } => open
            .last()
            .map(|parent| vec![item(parent, CompletionItemKind::CLASS, None)])
            .unwrap_or_default(),
        Place::TagName { .. } => {
            let children: &[&str] = match open.split_last() {
                None => &["Definitions"],
                Some((parent, above)) => element(parent, above).map_or(&[], |e| &e.children),
            };
            children
                .iter()
                .map(|child| {
                    let meaning = element(child, &open).map(|e| e.meaning);
                    item(child, CompletionItemKind::CLASS, meaning)
                })
                .collect()
        }
        Place::Attributes {
            element: name,
            written,
            ..
        } => element(&name, &open)
            .map(|e| e.attributes.as_slice())
            .unwrap_or_default()
            .iter()
            .filter(|a| !written.iter().any(|w| w == *a))
            .map(|a| CompletionItem {
                insert_text: Some(format!("{a}=\"\"")),
                ..item(a, CompletionItemKind::PROPERTY, attribute_meaning(a))
            })
            .collect(),
        Place::Other => Vec::new(),
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: Option<&str>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: detail.map(str::to_string),
        ..Default::default()
    }
}

/// The meaning of the element or attribute name at byte `at` of `text`, with the name's byte
/// range.
pub fn hover(text: &str, at: usize) -> Option<(String, usize, usize)> {
    let is_name = |c: char| c.is_alphanumeric() || "_-.:".contains(c);
    let at = at.min(text.len());
    let start = text[..at].rfind(|c: char| !is_name(c)).map_or(0, |p| p + 1);
    let end = text[start..]
        .find(|c: char| !is_name(c))
        .map_or(text.len(), |p| start + p);
    if start == end {
        return None;
    }
    let word = local(&text[start..end]);
    let (place, open) = place(text, end);
    let text = match place {
        Place::TagName { end: closing, .. } => {
            let ancestors = match closing {
                true => &open[..open.len().saturating_sub(1)],
                false => &open[..],
            };
            let e = element(word, ancestors)?;
            let mut out = format!(
                "**`<{}>`**: {} (TOSCA 1.0 {})",
                e.name, e.meaning, e.section
            );
            if !e.attributes.is_empty() {
                let names: Vec<String> = e.attributes.iter().map(|a| format!("`{a}`")).collect();
                out.push_str(&format!("\n\nattributes: {}", names.join(", ")));
            }
            if !e.children.is_empty() {
                let names: Vec<String> = e.children.iter().map(|c| format!("`<{c}>`")).collect();
                out.push_str(&format!("\n\nelements: {}", names.join(", ")));
            }
            out
        }
        Place::Attributes { element: name, .. } if text_after_is_equals(text, end) => {
            let e = element(&name, &open)?;
            e.attributes.iter().find(|a| **a == word)?;
            format!(
                "**`{word}`** of `<{}>`: {} (TOSCA 1.0 {})",
                e.name,
                attribute_meaning(word)?,
                e.section
            )
        }
        _ => return None,
    };
    Some((text, start, end))
}

/// Whether an `=` follows byte `end` (spaces aside): the word is an attribute's name.
fn text_after_is_equals(text: &str, end: usize) -> bool {
    text[end..].trim_start().starts_with('=')
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "<Definitions id=\"a\">\n  <!-- <NodeType> -->\n  <ServiceTemplate id=\"s\">\n    <TopologyTemplate>\n      <NodeTemplate id=\"n\" type=\"x\"/>\n      <\n";

    #[test]
    fn the_open_elements_are_read_past_comments_and_empty_elements() {
        let at = DOC.len() - 1;
        let (place, open) = place(DOC, at);
        assert_eq!(open, ["Definitions", "ServiceTemplate", "TopologyTemplate"]);
        assert_eq!(
            place,
            Place::TagName {
                typed: String::new(),
                end: false
            }
        );
    }

    #[test]
    fn a_cursor_inside_the_opening_of_an_end_tag_is_no_panic() {
        let text = "<Definitions>\n</Definitions>";
        assert_eq!(
            place(text, 15).0,
            Place::TagName {
                typed: String::new(),
                end: true
            }
        );
    }

    #[test]
    fn attributes_written_are_not_offered_again() {
        let text = "<Definitions id=\"a\">\n<NodeType name=\"x\" ";
        let labels: Vec<String> = complete(text, Position::new(1, 19))
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(labels, ["targetNamespace", "abstract", "final"]);
    }

    #[test]
    fn a_name_under_two_parents_has_each_ones_content() {
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let boundary = element(
            "Requirement",
            &path(&["BoundaryDefinitions", "Requirements"]),
        );
        assert_eq!(boundary.unwrap().attributes, ["name", "ref"]);
        let node = element("Requirement", &path(&["NodeTemplate", "Requirements"]));
        assert_eq!(node.unwrap().attributes, ["id", "name", "type"]);
        let exposed = path(&["BoundaryDefinitions", "Interfaces", "Interface"]);
        let operation = element("Operation", &exposed).unwrap();
        assert_eq!(
            operation.children,
            ["NodeOperation", "RelationshipOperation", "Plan"]
        );
        let operation = element("Operation", &path(&["NodeType", "Interfaces", "Interface"]));
        assert_eq!(operation.unwrap().children[1], "InputParameters");
    }
}
