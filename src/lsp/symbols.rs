//! The outline of a document (its types, inputs, templates and outputs, under a heading per
//! section) and the workspace's symbols (every definition in the workspace's files, matched
//! by a case-insensitive substring of its name, as most editors filter anyway).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use lsp_types::{DocumentSymbol, SymbolInformation, SymbolKind};

use super::check::Checked;
use super::index::{Section, Target};
use super::lines::Lines;
use super::navigate::location;
use super::workspace::Workspace;
use crate::model::TypeKind;

/// How a definition is shown: its heading in the outline and its symbol kind.
fn heading(target: &Target) -> Option<(&'static str, SymbolKind)> {
    Some(match target {
        Target::Type(kind, _) => (
            kind.section(),
            match kind {
                TypeKind::Data => SymbolKind::STRUCT,
                TypeKind::Interface => SymbolKind::INTERFACE,
                _ => SymbolKind::CLASS,
            },
        ),
        Target::Template(Section::Input, _) => ("inputs", SymbolKind::VARIABLE),
        Target::Template(Section::Node, _) => ("node_templates", SymbolKind::OBJECT),
        Target::Template(Section::Relationship, _) => {
            ("relationship_templates", SymbolKind::OBJECT)
        }
        Target::Template(Section::Group, _) => ("groups", SymbolKind::ARRAY),
        Target::Template(Section::Policy, _) => ("policies", SymbolKind::EVENT),
        Target::Template(Section::Output, _) => ("outputs", SymbolKind::PROPERTY),
        Target::File(_) => return None,
    })
}

/// A definition's name as shown: a TOSCA 1.0 XML type's local name without its `{namespace}`.
fn name(target: &Target) -> &str {
    match target {
        Target::Type(_, name) => name
            .rsplit_once('}')
            .map_or(name.as_str(), |(_, local)| local),
        Target::Template(_, name) => name,
        Target::File(_) => "",
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
pub fn document(workspace: &Workspace, path: &Path) -> Vec<DocumentSymbol> {
    let Some(checked) = workspace.check_of(path) else {
        return Vec::new();
    };
    let Some(file) = checked.file(path) else {
        return Vec::new();
    };
    let lines = Lines::new(&checked.sources.get(file).text);
    let mut sections: BTreeMap<(u32, &str), (SymbolKind, Vec<DocumentSymbol>)> = BTreeMap::new();
    let mut first: BTreeMap<&str, u32> = BTreeMap::new();
    let mut definitions: Vec<(&Target, &crate::source::Span)> = checked
        .index
        .definitions()
        .filter(|(_, span)| span.file == file)
        .collect();
    definitions.sort_by_key(|(_, span)| span.start);
    for (target, span) in definitions {
        let Some((section, kind)) = heading(target) else {
            continue;
        };
        let range = lines.range(span.start as usize, span.end as usize);
        let start = *first.entry(section).or_insert(span.start);
        sections
            .entry((start, section))
            .or_insert_with(|| (kind, Vec::new()))
            .1
            .push(DocumentSymbol {
                name: name(target).to_string(),
                detail: detail(checked, target),
                kind,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: None,
            });
    }
    sections
        .into_iter()
        .map(|((_, section), (_, children))| {
            let range = lsp_types::Range::new(
                children.first().map(|c| c.range.start).unwrap_or_default(),
                children.last().map(|c| c.range.end).unwrap_or_default(),
            );
            DocumentSymbol {
                name: section.to_string(),
                detail: None,
                kind: SymbolKind::NAMESPACE,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: Some(children),
            }
        })
        .collect()
}

/// A template's type, shown beside its name.
fn detail(checked: &Checked, target: &Target) -> Option<String> {
    let Target::Template(_, name) = target else {
        return None;
    };
    let topology = checked.model.as_ref()?.topology.as_ref()?;
    let named = [
        &topology.inputs,
        &topology.node_templates,
        &topology.relationship_templates,
    ]
    .into_iter()
    .flatten()
    .find(|n| &n.name == name);
    let written = match named {
        Some(named) => named.def.as_map()?.get("type")?.scalar_text(),
        None => {
            let mut typed = topology.groups.iter().chain(&topology.policies);
            typed
                .find(|g| &g.name == name)?
                .type_name
                .as_ref()?
                .scalar_text()
        }
    };
    written.map(str::to_string)
}

#[allow(deprecated)] // `SymbolInformation::deprecated` must still be given.
pub fn workspace(workspace: &Workspace, query: &str) -> Vec<SymbolInformation> {
    let query = query.to_lowercase();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for checked in workspace.checks() {
        for (target, span) in checked.index.definitions() {
            let Some((section, kind)) = heading(target) else {
                continue;
            };
            // Embedded profiles are not the workspace's.
            if checked
                .paths
                .get(span.file.0 as usize)
                .cloned()
                .flatten()
                .is_none()
            {
                continue;
            }
            let name = name(target);
            if !name.to_lowercase().contains(&query) {
                continue;
            }
            let place = Workspace::place(checked, *span);
            if !seen.insert((place.file, place.start)) {
                continue;
            }
            if let Some(location) = location(checked, *span) {
                out.push(SymbolInformation {
                    name: name.to_string(),
                    kind,
                    tags: None,
                    deprecated: None,
                    location,
                    container_name: Some(section.to_string()),
                });
            }
        }
    }
    out.sort_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then(a.location.uri.cmp(&b.location.uri))
    });
    out
}
