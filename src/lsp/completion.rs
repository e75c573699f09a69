//! Completion: what may be written at the cursor, from where the text says the cursor is
//! ([`super::context`]) and what the last check knew (the model, kept while the document does
//! not read):
//!
//! - a key: the keynames of that place for the file's dialect (the grammar tables the front end
//!   checks against), or, under a template's `properties`, `attributes`, `capabilities` and
//!   `requirements`, the names its type declares;
//! - `type:` and `derived_from:`: the types of the kind that place takes;
//! - a requirement's target: the node templates that fit ([`super::targets`]);
//! - `get_input`: the inputs; `$` in TOSCA 2.0: the built-in functions, with their arguments;
//! - in TOSCA 1.0 XML, the elements and attributes the schema allows there ([`super::xml`]).

use std::collections::BTreeSet;
use std::path::Path;

use lsp_types::{CompletionItem, CompletionItemKind, Position};

use super::context::{self, Context};
use super::hover::chain;
use super::keynames::Presence;
use super::workspace::Workspace;
use crate::ir::{Dialect, Topology};
use crate::model::{Model, Revision, TypeKind};
use crate::resolve::Ancestry;
use crate::yaml::Node;

pub fn complete(workspace: &Workspace, path: &Path, position: Position) -> Vec<CompletionItem> {
    let text = match workspace.documents.get(path) {
        Some(document) => document.text.clone(),
        None => match workspace.check_of(path) {
            Some(checked) => match checked.file(path) {
                Some(file) => checked.sources.get(file).text.clone(),
                None => return Vec::new(),
            },
            None => return Vec::new(),
        },
    };
    let xml = model_dialect(workspace, path) == Some(Dialect::Xml)
        || crate::front::xml::looks_like_xml(&text);
    if xml {
        return super::xml::complete(&text, position);
    }
    let context = context::at(&text, position);
    let checked = workspace.check_of(path);
    let model = checked.and_then(|c| c.known_model());
    // The resolved topology of the same check as the model (none while the text does not read).
    let topology = checked.and_then(|c| c.topology.as_ref());
    let dialect = model.map_or_else(|| dialect_of_text(&text), |m| m.dialect);
    let mut items = Vec::new();
    let calls = calls(&context, dialect, model);
    if !calls.is_empty() {
        return calls;
    }
    match &context.key {
        Some(key) => values(&context, key, model, topology, &mut items),
        None => keys(&context, dialect, model, &mut items),
    }
    items
}

/// The dialect of the model the last check of `path` read, if any.
fn model_dialect(workspace: &Workspace, path: &Path) -> Option<Dialect> {
    workspace
        .check_of(path)
        .and_then(|c| c.known_model())
        .map(|m| m.dialect)
}

/// The dialect a document declares, when no check read it yet.
fn dialect_of_text(text: &str) -> Dialect {
    match text.contains("tosca_2_0") {
        true => Dialect::Tosca2,
        false => Dialect::SimpleProfile,
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        ..Default::default()
    }
}

/// The service template's keyname in the path (`topology_template`, `service_template`).
fn is_topology(key: &str) -> bool {
    key == "topology_template" || key == "service_template"
}

/// `get_input` arguments and TOSCA 2.0 `$` functions, wherever the cursor's line has them.
fn calls(context: &Context, dialect: Dialect, model: Option<&Model>) -> Vec<CompletionItem> {
    let before = context
        .before
        .trim_end_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '-');
    let before = before.trim_end_matches([' ', '[', '"', '\'']);
    if before.ends_with("get_input:") {
        let inputs = model
            .and_then(|m| m.topology.as_ref())
            .map(|t| t.inputs.as_slice())
            .unwrap_or_default();
        return inputs
            .iter()
            .map(|input| {
                let detail = input
                    .def
                    .as_map()
                    .and_then(|m| m.get("type"))
                    .and_then(Node::scalar_text)
                    .map(|t| format!("input: {t}"));
                item(&input.name, CompletionItemKind::VARIABLE, detail)
            })
            .collect();
    }
    if dialect == Dialect::Tosca2 && context.word.starts_with('$') {
        return crate::resolve::calls::builtins::BUILT_INS
            .iter()
            .map(|f| CompletionItem {
                label: format!("${}", f.name),
                kind: Some(CompletionItemKind::FUNCTION),
                detail: Some(format!("${}: {}", f.name, f.grammar)),
                documentation: Some(lsp_types::Documentation::String(f.section.to_string())),
                ..Default::default()
            })
            .collect();
    }
    Vec::new()
}

/// Keys valid where the cursor is.
fn keys(
    context: &Context,
    dialect: Dialect,
    model: Option<&Model>,
    items: &mut Vec<CompletionItem>,
) {
    let path: Vec<&str> = context.path.iter().map(String::as_str).collect();
    use crate::front::simple_grammar::E as E1;
    use crate::front::tosca2::Entity as E2;
    let tosca2 = dialect == Dialect::Tosca2;
    let pick = |one: E1, two: E2| match tosca2 {
        true => crate::front::tosca2::keynames(Some(two)),
        false => crate::front::simple_grammar::keynames(one).to_vec(),
    };
    let keynames: Vec<&str> = match path.as_slice() {
        [] if tosca2 => crate::front::tosca2::keynames(None),
        [] => crate::front::simple_grammar::keynames(E1::File).to_vec(),
        ["imports"] => pick(E1::Import, E2::Import),
        [t] if is_topology(t) => pick(E1::Topology, E2::ServiceTemplate),
        [t, "node_templates", _] if is_topology(t) => pick(E1::NodeTemplate, E2::NodeTemplate),
        [t, "relationship_templates", _] if is_topology(t) => {
            pick(E1::RelationshipTemplate, E2::RelationshipTemplate)
        }
        [t, "groups", _] if is_topology(t) => pick(E1::Group, E2::Group),
        [t, "policies", _] if is_topology(t) => pick(E1::Policy, E2::Policy),
        [t, section @ ("inputs" | "outputs"), _] if is_topology(t) => {
            let flow = if *section == "inputs" {
                crate::front::tosca2::Flow::In
            } else {
                crate::front::tosca2::Flow::Out
            };
            pick(E1::TopologyParameter, E2::Parameter(flow))
        }
        [
            t,
            "node_templates",
            name,
            section @ ("properties" | "attributes" | "capabilities" | "requirements"),
        ] if is_topology(t) => {
            if let Some(model) = model {
                for (member, declared_by) in members(model, name, section) {
                    items.push(item(
                        &member,
                        CompletionItemKind::FIELD,
                        Some(format!("{section} of {declared_by}")),
                    ));
                }
            }
            return;
        }
        _ => return,
    };
    // Only what the file's exact version has there (`key_schema` is not offered in 1.2).
    let revision = model.map_or(
        match tosca2 {
            true => Revision::Tosca2,
            false => Revision::V1_3,
        },
        super::keynames::revision,
    );
    items.extend(
        keynames
            .iter()
            .filter(|k| {
                !matches!(
                    super::keynames::presence(revision, &path, k),
                    Some(Presence::Later(_))
                )
            })
            .map(|k| item(k, CompletionItemKind::KEYWORD, None)),
    );
}

/// Values valid after `key:`.
fn values(
    context: &Context,
    key: &str,
    model: Option<&Model>,
    topology: Option<&Topology>,
    items: &mut Vec<CompletionItem>,
) {
    let Some(model) = model else { return };
    let path: Vec<&str> = context.path.iter().map(String::as_str).collect();
    let kind = match (key, path.as_slice()) {
        ("type", [.., "node_templates", _]) => Some(TypeKind::Node),
        ("type", [.., "relationship_templates", _]) => Some(TypeKind::Relationship),
        ("type", [.., "groups", _]) => Some(TypeKind::Group),
        ("type", [.., "policies", _]) => Some(TypeKind::Policy),
        ("type", [.., "capabilities", _]) => Some(TypeKind::Capability),
        ("type", [.., "interfaces", _]) => Some(TypeKind::Interface),
        ("type", [.., "artifacts", _]) => Some(TypeKind::Artifact),
        ("type" | "entry_schema" | "key_schema", _) => Some(TypeKind::Data),
        ("derived_from", [section, _]) => TypeKind::of_section(section),
        ("capability", _) => Some(TypeKind::Capability),
        ("relationship", _) => Some(TypeKind::Relationship),
        _ => None,
    };
    if let Some(kind) = kind {
        for (k, id) in model.types.keys() {
            if *k == kind {
                items.push(item(
                    id,
                    CompletionItemKind::CLASS,
                    Some(kind.noun().into()),
                ));
            }
        }
        return;
    }
    // A requirement's target: `- host: <cursor>` or `node: <cursor>` under it.
    let requirement = match path.as_slice() {
        [t, "node_templates", node, "requirements"] if is_topology(t) => Some((*node, key)),
        [t, "node_templates", node, "requirements", requirement]
            if is_topology(t) && key == "node" =>
        {
            Some((*node, *requirement))
        }
        _ => None,
    };
    if let Some((node, requirement)) = requirement {
        for (target, type_name) in super::targets::fitting(model, topology, node, requirement) {
            items.push(item(
                &target,
                CompletionItemKind::REFERENCE,
                Some(format!("node template: {type_name}")),
            ));
        }
    }
}

/// The identity of the type of node template `name`.
pub(super) fn node_type(model: &Model, ancestry: &mut Ancestry, name: &str) -> Option<String> {
    let named = super::hover::template(model, super::index::Section::Node, name)?;
    let written = named.def.as_map()?.get("type")?;
    ancestry.full_name(model, TypeKind::Node, written.as_str()?, written.span.file)
}

/// The names a node template's type declares in `section`, with the type that declares each.
fn members(model: &Model, node: &str, section: &str) -> Vec<(String, String)> {
    let mut ancestry = Ancestry::new(model);
    let Some(id) = node_type(model, &mut ancestry, node) else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for type_id in chain(model, TypeKind::Node, &id) {
        let Some(def) = model.types.get(&(TypeKind::Node, type_id.clone())) else {
            continue;
        };
        let Some(declared) = def.def.as_map().and_then(|m| m.get(section)) else {
            continue;
        };
        let names: Vec<&str> = match (declared.as_map(), declared.as_seq()) {
            (Some(map), _) => map.names().collect(),
            (_, Some(items)) => items
                .iter()
                .filter_map(|i| i.as_map()?.entries().first()?.key.as_str())
                .collect(),
            _ => Vec::new(),
        };
        for name in names {
            if seen.insert(name.to_string()) {
                out.push((name.to_string(), type_id.clone()));
            }
        }
    }
    out
}
