//! Hover: what the name under the cursor is, as the definitions say.
//!
//! - a type: its kind, its derivation chain and its description;
//! - a property, attribute, requirement or capability name: its definition as written in the
//!   type that declares it (nearest along the ancestry), with that type named;
//! - a template, input or output (also as the argument of `get_input`, `get_property`, ...):
//!   what it is, its type and description; an input also its default, which is what
//!   `get_input` evaluates to when no value is given;
//! - a function call, anywhere: what the function is and what the call evaluates to
//!   ([`super::evaluate`]);
//! - an import: the file it reads;
//! - a keyname: its meaning for the file's exact version ([`super::keynames`]); in TOSCA 1.0
//!   XML, an element or attribute name: its meaning ([`super::xml`]).

use std::path::Path;

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

use super::check::Checked;
use super::index::{Member, Section, Target};
use super::lines::Lines;
use crate::model::definitions::{Definition, Entry};
use crate::model::grouping::Grouping;
use crate::model::{Model, Named, TypeKind, Value};
use crate::resolve::Ancestry;
use crate::source::{SourceMap, Span};
use crate::yaml::Node;

/// At most this many lines of a definition are shown.
const MAX_LINES: usize = 30;

pub fn hover(
    workspace: &super::workspace::Workspace,
    path: &Path,
    position: Position,
) -> Option<Hover> {
    let at = workspace.at(path, position)?;
    let checked = at.checked;
    let model = checked.model.as_ref()?;
    let index = &checked.index;
    let call = index.call_at(at.file, at.offset);
    let found = if let Some(occurrence) = index.occurrence_at(at.file, at.offset) {
        describe(checked, model, &occurrence.target).map(|text| (text, occurrence.span))
    } else if let Some(member) = index.member_at(at.file, at.offset) {
        describe_member(&checked.sources, model, member).map(|text| (text, member.span))
    } else if call.is_none() && model.dialect == crate::ir::Dialect::Xml {
        let text = &checked.sources.get(at.file).text;
        super::xml::hover(text, at.offset as usize).map(|(found, start, end)| {
            let span = checked
                .sources
                .get(at.file)
                .span(at.file, start as u32, end as u32);
            (found, span)
        })
    } else if call.is_none() {
        super::keynames::hover(checked, model, at.file, at.offset)
    } else {
        None
    };
    let value = call.map(|c| (super::evaluate::describe(checked, c), c.span));
    let (text, span) = match (found, value) {
        (Some((text, span)), Some((value, _))) => (format!("{text}\n\n---\n\n{value}"), span),
        (Some(found), None) => found,
        (None, Some(value)) => value,
        (None, None) => return None,
    };
    let lines = Lines::new(&checked.sources.get(at.file).text);
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(lines.range(span.start as usize, span.end as usize)),
    })
}

fn describe(checked: &Checked, model: &Model, target: &Target) -> Option<String> {
    match target {
        Target::Type(kind, id) => Some(describe_type(model, *kind, id)),
        Target::Template(section @ (Section::Group | Section::Policy), name) => {
            let grouping = grouping(model, *section, name)?;
            Some(describe_grouping(*section, grouping))
        }
        Target::Template(Section::Output, name) => {
            let topology = model.topology.as_ref()?;
            let output = topology.outputs.iter().find(|o| &o.name == name)?;
            Some(describe_output(output))
        }
        Target::Template(section, name) => {
            let named = template(model, *section, name)?;
            Some(describe_template(&checked.sources, *section, named))
        }
        Target::File(file) => Some(format!("imports `{}`", checked.sources.get(*file).name)),
    }
}

/// The ancestry of a type, most specific first.
pub fn chain(model: &Model, kind: TypeKind, id: &str) -> Vec<String> {
    Ancestry::new(model).chain(model, kind, id).to_vec()
}

fn describe_type(model: &Model, kind: TypeKind, id: &str) -> String {
    let chain = chain(model, kind, id);
    let mut out = format!("**{}** `{id}`", kind.noun());
    if chain.len() > 1 {
        let names: Vec<String> = chain.iter().map(|n| format!("`{n}`")).collect();
        out.push_str(&format!("\n\nderived from: {}", names[1..].join(" → ")));
    }
    if let Some(description) = model
        .types
        .get(&(kind, id.to_string()))
        .and_then(|t| text_of(&t.def, "description"))
    {
        out.push_str(&format!("\n\n{description}"));
    }
    out
}

/// The entry `name` of a section of the service template; none for a group, a policy or an
/// output, which the model keeps typed ([`grouping`], [`describe_output`]).
pub(super) fn template<'m>(model: &'m Model, section: Section, name: &str) -> Option<&'m Named> {
    let topology = model.topology.as_ref()?;
    let entries = match section {
        Section::Input => &topology.inputs,
        Section::Node => &topology.node_templates,
        Section::Relationship => &topology.relationship_templates,
        Section::Group | Section::Policy | Section::Output => return None,
    };
    entries.iter().find(|n| n.name == name)
}

/// The group or policy `name` of the service template.
pub(super) fn grouping<'m>(model: &'m Model, section: Section, name: &str) -> Option<&'m Grouping> {
    let topology = model.topology.as_ref()?;
    let entries = match section {
        Section::Group => &topology.groups,
        Section::Policy => &topology.policies,
        _ => return None,
    };
    entries.iter().find(|g| g.name == name)
}

/// [`describe_template`] of a group or policy.
fn describe_grouping(section: Section, grouping: &Grouping) -> String {
    let mut out = format!("**{}** `{}`", section.noun(), grouping.name);
    if let Some(t) = grouping.type_name.as_ref().and_then(Value::scalar_text) {
        out.push_str(&format!(": `{t}`"));
    }
    if let Some(description) = grouping.description.as_ref().and_then(Value::scalar_text) {
        out.push_str(&format!("\n\n{description}"));
    }
    out
}

/// An output: its name, type and description, as [`describe_template`] shows a template's.
fn describe_output(output: &Entry) -> String {
    let mut out = format!("**{}** `{}`", Section::Output.noun(), output.name);
    let def = output.definition();
    if let Some(t) = def.and_then(Definition::type_text) {
        out.push_str(&format!(": `{t}`"));
    }
    if let Some(description) = def.and_then(|d| d.description.as_ref()) {
        out.push_str(&format!("\n\n{}", description.text));
    }
    out
}

fn describe_template(sources: &SourceMap, section: Section, named: &Named) -> String {
    let mut out = format!("**{}** `{}`", section.noun(), named.name);
    if let Some(t) = text_of(&named.def, "type") {
        out.push_str(&format!(": `{t}`"));
    }
    if section == Section::Input {
        for key in ["required", "default", "value"] {
            if let Some(value) = named.def.as_map().and_then(|m| m.get(key)) {
                out.push_str(&format!("\n\n{key}: `{}`", one_line(sources, value)));
            }
        }
        if let Some(constraints) = named.def.as_map().and_then(|m| m.get("constraints")) {
            out.push_str(&format!(
                "\n\nconstraints: `{}`",
                one_line(sources, constraints)
            ));
        }
    }
    if let Some(description) = text_of(&named.def, "description") {
        out.push_str(&format!("\n\n{description}"));
    }
    out
}

/// Where `member` is declared (the span of its name) and by which type: the nearest
/// definition along its owner's ancestry.
pub fn member_definition<'m>(model: &'m Model, member: &Member) -> Option<(Span, &'m Node)> {
    let (kind, owner) = &member.owner;
    for id in chain(model, *kind, owner) {
        let Some(def) = model.types.get(&(*kind, id)) else {
            continue;
        };
        let Some(section) = def.def.as_map().and_then(|m| m.get(member.section)) else {
            continue;
        };
        let found = match (section.as_map(), section.as_seq()) {
            (Some(map), _) => map.entry(&member.name).map(|e| (e.key.span, &e.value)),
            (_, Some(items)) => items.iter().find_map(|item| {
                let entry = item.as_map()?.entries().first()?;
                (entry.key.as_str() == Some(member.name.as_str()))
                    .then_some((entry.key.span, &entry.value))
            }),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

fn describe_member(sources: &SourceMap, model: &Model, member: &Member) -> Option<String> {
    let (key, value) = member_definition(model, member)?;
    let declaring = model
        .types
        .values()
        .find(|t| {
            t.def.span.file == key.file
                && t.def.span.start <= key.start
                && key.end <= t.def.span.end
        })
        .map(|t| t.name.as_str())
        .unwrap_or(member.owner.1.as_str());
    let noun = match member.section {
        "properties" => "property",
        "attributes" => "attribute",
        "requirements" => "requirement",
        _ => "capability",
    };
    let mut out = format!(
        "**{noun}** `{}` of `{declaring}`\n\n```yaml\n{}\n```",
        member.name,
        excerpt(sources, key, value)
    );
    if let Some(description) = text_of(value, "description") {
        out.push_str(&format!("\n\n{description}"));
    }
    Some(out)
}

/// The text of `key: value` as written, from the key's line to the end of the value, dedented
/// to the key and cut at [`MAX_LINES`].
fn excerpt(sources: &SourceMap, key: Span, value: &Node) -> String {
    let file = sources.get(key.file);
    let start = file.text[..key.start as usize]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end = (value.span.end as usize)
        .max(key.end as usize)
        .min(file.text.len());
    let indent = key.start as usize - start;
    let lines: Vec<&str> = file.text[start..end].lines().collect();
    let mut out: Vec<String> = lines
        .iter()
        .take(MAX_LINES)
        .map(|line| {
            let cut = line
                .char_indices()
                .take_while(|(i, c)| *i < indent && c.is_whitespace())
                .count();
            line[cut..].to_string()
        })
        .collect();
    if lines.len() > MAX_LINES {
        out.push("# ...".into());
    }
    out.join("\n")
}

/// The text of a scalar under `key` of a map.
fn text_of<'n>(node: &'n Node, key: &str) -> Option<&'n str> {
    node.as_map()?.get(key)?.scalar_text()
}

/// A value's source text on one line.
fn one_line(sources: &SourceMap, value: &Node) -> String {
    let text = sources.slice(value.span);
    let flat: Vec<&str> = text.split_whitespace().collect();
    let flat = flat.join(" ");
    match flat.chars().count() > 80 {
        true => format!("{}…", flat.chars().take(80).collect::<String>()),
        false => flat,
    }
}
