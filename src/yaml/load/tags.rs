//! Scalars and their tags: the core schema for plain scalars, explicit core tags checked against
//! the text.

use granit_parser::{ScalarStyle, Tag};

use super::Loader;
use super::maps::shorten;
use crate::diag::{Diagnostic, codes};
use crate::source::Span;
use crate::yaml::node::{Core, Kind, Node, Scalar, Style};
use crate::yaml::schema;

const CORE_PREFIX: &str = "tag:yaml.org,2002:";

/// How an explicit tag constrains a node.
pub(super) enum TagRule {
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
    pub(super) fn of(tag: Option<&str>) -> Self {
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
#[allow(clippy::box_collection)] // the form of `Node::tag`, one pointer in every node
pub(super) fn tag_text(tag: &Tag) -> Box<String> {
    if tag.handle().is_empty() {
        // The non-specific tag `!`.
        return Box::new(tag.suffix().to_owned());
    }
    Box::new(tag.to_string())
}

/// `!!int` for the core tags, as written for anything else, for messages.
pub(super) fn tag_display(tag: &str) -> String {
    match tag.strip_prefix(CORE_PREFIX) {
        Some(suffix) => format!("!!{suffix}"),
        None => tag.to_owned(),
    }
}

impl Loader<'_> {
    #[allow(clippy::box_collection)] // the tag as `Node::tag` keeps it
    pub(super) fn scalar(
        &mut self,
        text: String,
        style: ScalarStyle,
        tag: Option<Box<String>>,
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
        let core = match TagRule::of(tag.as_deref().map(String::as_str)) {
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
                        let shown = tag.as_deref().map(|t| tag_display(t)).unwrap_or_default();
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
                let shown = tag.as_deref().map(|t| tag_display(t)).unwrap_or_default();
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
            style,
            kind: Kind::Scalar(Scalar {
                text: text.into_boxed_str(),
                core,
            }),
        }
    }
}
