//! The mapping file: its grammar, read strictly from a [`yaml::Node`] tree.
//!
//! A backend author wants every typo caught, so unknown keys, missing keys and values of the
//! wrong shape are errors (`backend::rules`) at their own span. The format is documented for
//! users in `backends/README.md`; keep the two in step.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;
use crate::yaml::{Core, Kind, Map, Node};

use super::ElementKind;
use super::ignores::Ignores;
use super::meanings::Meanings;

/// A parsed mapping file.
#[derive(Debug, Clone)]
pub(crate) struct Mapping {
    /// `backend:`, the name used in messages.
    pub backend: Option<String>,
    pub description: Option<String>,
    /// `stdout_separator:`, how several files are joined on standard output.
    pub stdout_separator: Option<String>,
    pub documents: Vec<Document>,
    pub rules: Vec<Rule>,
    /// `relationships:`, what each relationship means to the backend's Rust.
    pub relationships: Meanings,
}

/// A name with the span it was written at.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    pub text: String,
    pub span: Span,
}

/// A rule: which elements it takes and what it does with them.
#[derive(Debug, Clone)]
pub(crate) struct Rule {
    /// The whole rule, for messages about it.
    pub span: Span,
    pub kind: ElementKind,
    /// `match.type`: the element must have one of these in its ancestry. Empty: any type.
    pub types: Vec<String>,
    pub action: Action,
    /// `bind:`, constants handed to the template.
    pub bind: serde_json::Value,
    /// Where `bind`'s keys were written, for [`super::binds`] to check them.
    pub bind_keys: BindKeys,
    /// `ignore:`, what the backend leaves out of the elements it takes on purpose.
    pub ignore: Ignores,
}

#[derive(Debug, Clone)]
pub(crate) enum Action {
    /// `skip: reason`: the element is deliberately not translated as a whole; the ledger still
    /// names what it held (less the rule's `ignore:`), with this reason.
    Skip(String),
    /// `template:` with `output:` or `section:`.
    Render { template: Located, target: Target },
}

#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// `output:`: a file of its own; the path is itself a template.
    File(Located),
    /// `section:`: the fragment is appended to the named section.
    Section(Located),
}

/// A document: rendered once for the whole topology.
#[derive(Debug, Clone)]
pub(crate) struct Document {
    pub template: Located,
    pub output: Located,
    pub bind: serde_json::Value,
    /// Where `bind`'s keys were written, for [`super::binds`] to check them.
    pub bind_keys: BindKeys,
}

/// The top-level keys of a `bind` map with their spans, and its `role` when that is text.
#[derive(Debug, Clone, Default)]
pub(crate) struct BindKeys {
    pub keys: Vec<Located>,
    /// `bind.role`: its text (`None` when it is not a string) and where it was written.
    pub role: Option<(Option<String>, Span)>,
}

impl BindKeys {
    fn of(map: &Map) -> BindKeys {
        let Some(bind) = map.get("bind").and_then(Node::as_map) else {
            return BindKeys::default();
        };
        BindKeys {
            keys: bind
                .entries()
                .iter()
                .filter_map(|e| {
                    Some(Located {
                        text: e.key.as_str()?.to_string(),
                        span: e.key.span,
                    })
                })
                .collect(),
            role: bind
                .get("role")
                .map(|r| (r.as_str().map(str::to_string), r.span)),
        }
    }
}

const TOP_KEYS: &[&str] = &[
    "backend",
    "description",
    "stdout_separator",
    "documents",
    "rules",
    "relationships",
];
const RULE_KEYS: &[&str] = &[
    "match",
    "description",
    "template",
    "output",
    "section",
    "bind",
    "skip",
    "ignore",
];
const MATCH_KEYS: &[&str] = &["kind", "type"];
const DOCUMENT_KEYS: &[&str] = &["template", "output", "bind", "description"];

/// Reads a mapping file's root node. Every problem goes into `diags`; `None` when there was an
/// error, so a half-understood backend never renders.
pub(crate) fn parse(root: &Node, diags: &mut Diagnostics) -> Option<Mapping> {
    let before = diags.error_count();
    let mut mapping = Mapping {
        backend: None,
        description: None,
        stdout_separator: None,
        documents: Vec::new(),
        rules: Vec::new(),
        relationships: Meanings::default(),
    };
    let map = expect_map(root, "a mapping file", diags)?;
    check_keys(map, TOP_KEYS, "the mapping file", diags);
    mapping.backend = opt_string(map, "backend", diags).map(|l| l.text);
    mapping.description = opt_string(map, "description", diags).map(|l| l.text);
    if let Some(sep) = map.get("stdout_separator") {
        match sep.as_scalar() {
            Some(s) if s.core == Core::Str => mapping.stdout_separator = Some(s.text.to_string()),
            _ => diags.push(shape(
                sep,
                "`stdout_separator`",
                "a string (such as \"---\\n\")",
            )),
        }
    }
    if let Some(docs) = map.get("documents") {
        for node in expect_seq(docs, "`documents`", diags).unwrap_or_default() {
            if let Some(doc) = parse_document(node, diags) {
                mapping.documents.push(doc);
            }
        }
    }
    if let Some(rules) = map.get("rules") {
        for node in expect_seq(rules, "`rules`", diags).unwrap_or_default() {
            if let Some(rule) = parse_rule(node, diags) {
                mapping.rules.push(rule);
            }
        }
    }
    if let Some(node) = map.get("relationships")
        && let Some(meanings) = Meanings::parse(node, diags)
    {
        mapping.relationships = meanings;
    }
    warn_unreachable(&mapping.rules, diags);
    (diags.error_count() == before).then_some(mapping)
}

fn parse_document(node: &Node, diags: &mut Diagnostics) -> Option<Document> {
    let map = expect_map(node, "a document", diags)?;
    check_keys(map, DOCUMENT_KEYS, "a document", diags);
    let _ = opt_string(map, "description", diags);
    let template = required_string(map, node, "template", "a document", diags);
    let output = required_string(map, node, "output", "a document", diags);
    let bind = bind(map, diags);
    Some(Document {
        template: template?,
        output: output?,
        bind: bind?,
        bind_keys: BindKeys::of(map),
    })
}

fn parse_rule(node: &Node, diags: &mut Diagnostics) -> Option<Rule> {
    let map = expect_map(node, "a rule", diags)?;
    let keys_known = check_keys(map, RULE_KEYS, "a rule", diags);
    let _ = opt_string(map, "description", diags);
    let matcher = match map.get("match") {
        Some(m) => parse_match(m, diags),
        None => {
            diags.push(
                Diagnostic::error(codes::BACKEND_RULES, "this rule has no `match`")
                    .at(node.span)
                    .hint("add `match: { kind: node, type: tosca.nodes.Compute }` (`type` is optional)"),
            );
            None
        }
    };
    let template = opt_string(map, "template", diags);
    let output = opt_string(map, "output", diags);
    let section = opt_string(map, "section", diags);
    let bind = bind(map, diags);
    let skip = match map.get("skip") {
        None => None,
        Some(v) => match v.as_str() {
            Some(reason) if !reason.trim().is_empty() => Some(reason.trim().to_string()),
            _ => {
                diags.push(shape(
                    v,
                    "`skip`",
                    "the reason this element is not translated (a string)",
                ));
                None
            }
        },
    };
    let action = if map.contains_key("skip") {
        for key in ["template", "output", "section", "bind"] {
            if let Some(entry) = map.entry(key) {
                diags.push(
                    Diagnostic::error(
                        codes::BACKEND_RULES,
                        format!(
                            "a rule with `skip` renders nothing, so `{key}` makes no sense here"
                        ),
                    )
                    .at(entry.key.span)
                    .hint("remove `skip` to render, or remove this key"),
                );
            }
        }
        skip.map(Action::Skip)
    } else {
        let Some(template) = template else {
            // A misspelt `template:` is reported as such; saying it is missing too would be noise.
            if keys_known {
                diags.push(
                    Diagnostic::error(codes::BACKEND_RULES, "this rule has neither `template` nor `skip`")
                        .at(node.span)
                        .hint("name the template that renders the element, or say why it is skipped with `skip: reason`"),
                );
            }
            return None;
        };
        let target = match (output, section) {
            (Some(o), None) => Some(Target::File(o)),
            (None, Some(s)) => Some(Target::Section(s)),
            (Some(_), Some(s)) => {
                diags.push(
                    Diagnostic::error(codes::BACKEND_RULES, "a rule has either `output` or `section`, not both")
                        .at(s.span)
                        .hint("`output` gives the element a file of its own; `section` collects it for a document"),
                );
                None
            }
            (None, None) => {
                diags.push(
                    Diagnostic::error(codes::BACKEND_RULES, "this rule says neither where its output goes")
                        .at(template.span)
                        .hint("add `output: FILE` (a file per element) or `section: NAME` (collected for a document)"),
                );
                None
            }
        };
        target.map(|target| Action::Render { template, target })
    };
    let ignore = match map.get("ignore") {
        Some(node) => Ignores::parse(node, diags),
        None => Some(Ignores::default()),
    };
    let (kind, types) = matcher?;
    Some(Rule {
        span: node.span,
        kind,
        types,
        action: action?,
        bind: bind?,
        bind_keys: BindKeys::of(map),
        ignore: ignore?,
    })
}

fn parse_match(node: &Node, diags: &mut Diagnostics) -> Option<(ElementKind, Vec<String>)> {
    let map = expect_map(node, "`match`", diags)?;
    check_keys(map, MATCH_KEYS, "`match`", diags);
    let kinds = ElementKind::ALL.map(ElementKind::as_str).join(", ");
    let kind = match map.get("kind") {
        None => {
            diags.push(
                Diagnostic::error(codes::BACKEND_RULES, "`match` has no `kind`")
                    .at(node.span)
                    .hint(format!("`kind` is one of: {kinds}")),
            );
            None
        }
        Some(k) => match k.as_str().and_then(ElementKind::parse) {
            Some(kind) => Some(kind),
            None => {
                diags.push(
                    Diagnostic::error(
                        codes::BACKEND_RULES,
                        format!(
                            "`{}` is not an element kind",
                            k.scalar_text().unwrap_or("this")
                        ),
                    )
                    .at(k.span)
                    .hint(format!("`kind` is one of: {kinds}")),
                );
                None
            }
        },
    };
    let mut types = Vec::new();
    let mut ok = true;
    if let Some(t) = map.get("type") {
        let items: Vec<&Node> = match &t.kind {
            Kind::Seq(items) if !items.is_empty() => items.iter().collect(),
            _ => vec![t],
        };
        for item in items {
            match item.as_str() {
                Some(name) if !name.trim().is_empty() => types.push(name.to_string()),
                _ => {
                    diags.push(shape(item, "`type`", "a type name or a list of type names"));
                    ok = false;
                }
            }
        }
    }
    Some((kind?, types)).filter(|_| ok)
}

/// A rule that an earlier rule of the same file always takes first is a mistake worth a warning.
fn warn_unreachable(rules: &[Rule], diags: &mut Diagnostics) {
    for (i, rule) in rules.iter().enumerate() {
        let shadow = rules[..i].iter().find(|earlier| {
            earlier.kind == rule.kind
                && (earlier.types.is_empty()
                    || (!rule.types.is_empty()
                        && rule.types.iter().all(|t| earlier.types.contains(t))))
        });
        if let Some(earlier) = shadow {
            diags.push(
                Diagnostic::warning(codes::BACKEND_RULES, "this rule can never match")
                    .at(rule.span)
                    .label(earlier.span, "an earlier rule already takes every element it would")
                    .hint("rules are tried in order and the first match wins: move the more specific rule up"),
            );
        }
    }
}

fn bind(map: &Map, diags: &mut Diagnostics) -> Option<serde_json::Value> {
    match map.get("bind") {
        None => Some(serde_json::Value::Object(serde_json::Map::new())),
        Some(node) if node.as_map().is_some() => to_json(node, diags),
        Some(node) => {
            diags.push(shape(node, "`bind`", "a map of names to values"));
            None
        }
    }
}

/// A YAML node as JSON, for templates: plain scalars by their core-schema value, keys as text.
pub(crate) fn to_json(node: &Node, diags: &mut Diagnostics) -> Option<serde_json::Value> {
    use serde_json::Value as J;
    Some(match &node.kind {
        Kind::Scalar(s) => match s.core {
            Core::Null => J::Null,
            Core::Bool(b) => J::Bool(b),
            Core::Int(i) => J::from(i),
            Core::Float(f) => serde_json::Number::from_f64(f)
                .map_or_else(|| J::String(s.text.to_string()), J::Number),
            Core::Str => J::String(s.text.to_string()),
        },
        Kind::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            let mut ok = true;
            for item in items {
                match to_json(item, diags) {
                    Some(v) => out.push(v),
                    None => ok = false,
                }
            }
            if !ok {
                return None;
            }
            J::Array(out)
        }
        Kind::Map(map) => {
            let mut out = serde_json::Map::new();
            let mut ok = true;
            for entry in map.entries() {
                let Some(key) = entry.key.scalar_text() else {
                    diags.push(shape(&entry.key, "a key in `bind`", "a string"));
                    ok = false;
                    continue;
                };
                match to_json(&entry.value, diags) {
                    Some(v) => {
                        out.insert(key.to_string(), v);
                    }
                    None => ok = false,
                }
            }
            if !ok {
                return None;
            }
            J::Object(out)
        }
    })
}

/// Reports every key of `map` that `allowed` does not list; false if there was one.
pub(super) fn check_keys(map: &Map, allowed: &[&str], what: &str, diags: &mut Diagnostics) -> bool {
    let mut known = true;
    for entry in map.entries() {
        match entry.key.as_str() {
            Some(key) if allowed.contains(&key) => {}
            Some(key) => {
                known = false;
                diags.push(
                    Diagnostic::error(
                        codes::BACKEND_RULES,
                        format!("unknown key `{key}` in {what}"),
                    )
                    .at(entry.key.span)
                    .did_you_mean(
                        key,
                        allowed,
                        Some(format!("expected one of: {}", allowed.join(", "))),
                    ),
                );
            }
            None => {
                known = false;
                diags.push(shape(
                    &entry.key,
                    &format!("a key in {what}"),
                    "one of: ".to_string() + &allowed.join(", "),
                ));
            }
        }
    }
    known
}

fn opt_string(map: &Map, key: &str, diags: &mut Diagnostics) -> Option<Located> {
    let node = map.get(key)?;
    match node.as_str() {
        Some(text) if !text.trim().is_empty() => Some(Located {
            text: text.to_string(),
            span: node.span,
        }),
        _ => {
            diags.push(shape(node, &format!("`{key}`"), "a non-empty string"));
            None
        }
    }
}

fn required_string(
    map: &Map,
    owner: &Node,
    key: &str,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<Located> {
    if !map.contains_key(key) {
        diags.push(
            Diagnostic::error(codes::BACKEND_RULES, format!("{what} has no `{key}`"))
                .at(owner.span),
        );
        return None;
    }
    opt_string(map, key, diags)
}

pub(super) fn expect_map<'a>(
    node: &'a Node,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<&'a Map> {
    let map = node.as_map();
    if map.is_none() {
        diags.push(shape(node, what, "a map"));
    }
    map
}

fn expect_seq<'a>(node: &'a Node, what: &str, diags: &mut Diagnostics) -> Option<&'a [Node]> {
    let seq = node.as_seq();
    if seq.is_none() && !node.is_null() {
        diags.push(shape(node, what, "a list"));
    }
    seq
}

pub(super) fn shape(node: &Node, what: &str, expected: impl Into<String>) -> Diagnostic {
    let expected = expected.into();
    Diagnostic::error(
        codes::BACKEND_RULES,
        format!("{what} must be {expected}, not {}", node.describe()),
    )
    .at(node.span)
}
