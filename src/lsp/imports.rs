//! The "add the missing import" fixes of an unknown type (`tosca::unknown-type`) or namespace
//! (`tosca::unknown-namespace`): import what defines it.
//!
//! - A profile toscana knows: the TOSCA 2.0 simple profile, and the Simple Profile 1.0-1.3
//!   normative types as the compatibility profiles `org.oasis-open.simple:1.x`
//!   ([`crate::profiles::tosca2_profile_defining`], the lookup the diagnostic's hint makes), in a
//!   TOSCA 2.0 file, which gets no types implicitly: `- profile: NAME`, with `namespace: p`
//!   when the name was written `p:Name`. (A 1.x file gets its version's normative types
//!   implicitly, so it never lacks them.)
//! - A file of the workspace that defines a type of that kind and name (as the last check of it
//!   read it): its path relative to the document, `- path` in a Simple Profile file and
//!   `- url: path` in a TOSCA 2.0 file. Only files in the document's folder or below are
//!   offered, since a check may not read above the template's folder; the nearest first.
//!
//! The import is added as the last item of a block `imports:` list at the top of the file
//! (indented as its items are), or as a new `imports:` after `tosca_definitions_version`. A
//! flow list (`imports: [ a.yaml ]`) is not edited.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, TextEdit};

use super::lines::Lines;
use super::workspace::Workspace;
use crate::ir::Dialect;

/// At most this many files are offered for one missing type.
const MAX_FILES: usize = 5;

/// The fixes of one diagnostic: (title, edit) pairs.
pub fn fixes(
    workspace: &Workspace,
    path: &Path,
    lines: &Lines,
    diagnostic: &lsp_types::Diagnostic,
    hint: Option<&str>,
) -> Vec<(String, TextEdit)> {
    let code = match &diagnostic.code {
        Some(lsp_types::NumberOrString::String(code)) => code.as_str(),
        _ => return Vec::new(),
    };
    if code != "tosca::unknown-type" && code != "tosca::unknown-namespace" {
        return Vec::new();
    }
    let Some((noun, written)) = unknown(&diagnostic.message) else {
        return Vec::new();
    };
    let tosca2 = workspace
        .check_of(path)
        .and_then(|c| c.known_model())
        .is_some_and(|m| m.dialect == Dialect::Tosca2);
    let (prefix, name) = match written.split_once(':') {
        Some((prefix, name)) if tosca2 => (Some(prefix), name),
        _ => (None, written),
    };
    let mut out = Vec::new();
    let profile = hint.and_then(hinted_profile).or_else(|| {
        tosca2
            .then(|| {
                let section = section_of(noun)?;
                crate::profiles::tosca2_profile_defining(section, name)
            })
            .flatten()
    });
    if let Some(profile) = profile {
        let mut entry = vec![format!("profile: {profile}")];
        if let Some(prefix) = prefix {
            entry.push(format!("namespace: {prefix}"));
        }
        if let Some(edit) = add_import(lines, &entry) {
            out.push((format!("Import the profile `{profile}`"), edit));
        }
    }
    if prefix.is_none() {
        for file in defining_files(workspace, path, noun, name) {
            let entry = match tosca2 {
                true => format!("url: {file}"),
                false => file.clone(),
            };
            if let Some(edit) = add_import(lines, &[entry]) {
                out.push((format!("Import `{file}`, which defines `{name}`"), edit));
            }
        }
    }
    out
}

/// The kind (`node type`) and the name of "unknown node type `X`" or "unknown namespace `p` in
/// node type `p:X`".
fn unknown(message: &str) -> Option<(&str, &str)> {
    let rest = message.strip_prefix("unknown ")?;
    let rest = match rest.strip_prefix("namespace `") {
        Some(after) => after.split_once("` in ")?.1,
        None => rest,
    };
    let (noun, quoted) = rest.split_once(" `")?;
    Some((noun, quoted.split('`').next()?))
}

/// The section of a file that defines types of this noun (`node type` → `node_types`).
fn section_of(noun: &str) -> Option<&'static str> {
    crate::model::TypeKind::ALL
        .iter()
        .find(|k| k.noun() == noun)
        .map(|k| k.section())
}

/// The profile a hint names as `{ profile: NAME }`.
fn hinted_profile(hint: &str) -> Option<&str> {
    let rest = &hint[hint.find("{ profile: ")? + "{ profile: ".len()..];
    Some(rest[..rest.find(" }")?].trim())
}

/// The workspace files (relative to the document's folder, below it) that define a type of
/// this noun and name, nearest first.
fn defining_files(workspace: &Workspace, document: &Path, noun: &str, name: &str) -> Vec<String> {
    let folder = document.parent().unwrap_or(Path::new("/"));
    let mut found: BTreeSet<(usize, PathBuf)> = BTreeSet::new();
    for checked in workspace.checks() {
        let Some(model) = checked.model.as_ref() else {
            continue;
        };
        for ((kind, id), def) in &model.types {
            if kind.noun() != noun || (def.name != name && id != name) {
                continue;
            }
            let Some(Some(file)) = checked.paths.get(def.span.file.0 as usize) else {
                continue;
            };
            if file == document {
                continue;
            }
            if let Ok(relative) = file.strip_prefix(folder) {
                found.insert((relative.components().count(), relative.to_path_buf()));
            }
        }
    }
    found
        .into_iter()
        .take(MAX_FILES)
        .map(|(_, p)| p.to_string_lossy().replace('\\', "/"))
        .collect()
}

/// The edit that adds an import whose lines are `entry` (`profile: X`, `namespace: p`).
fn add_import(lines: &Lines, entry: &[String]) -> Option<TextEdit> {
    let top = |prefix: &str| (0..lines.count()).find(|&l| lines.line(l).starts_with(prefix));
    let item = |indent: usize| {
        let pad = " ".repeat(indent);
        let mut text = String::new();
        for (i, part) in entry.iter().enumerate() {
            let lead = if i == 0 { "- " } else { "  " };
            text.push_str(&format!("{pad}{lead}{part}\n"));
        }
        text
    };
    let Some(imports) = top("imports:") else {
        let position = Position::new(top("tosca_definitions_version:")? + 1, 0);
        return Some(TextEdit {
            range: Range::new(position, position),
            new_text: format!("imports:\n{}", item(2)),
        });
    };
    let rest = lines.line(imports)["imports:".len()..].trim();
    if !rest.is_empty() && !rest.starts_with('#') {
        return None;
    }
    // The list's lines: below `imports:`, indented or items, up to the next top-level key.
    let mut last = imports;
    let mut indent = None;
    for line in imports + 1..lines.count() {
        let text = lines.line(line);
        let trimmed = text.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let own = text.len() - trimmed.len();
        if own == 0 && !trimmed.starts_with('-') {
            break;
        }
        if trimmed.starts_with('-') {
            indent.get_or_insert(own);
        }
        last = line;
    }
    let position = Position::new(last + 1, 0);
    Some(TextEdit {
        range: Range::new(position, position),
        new_text: item(indent.unwrap_or(2)),
    })
}
