//! Go to definition, find references and rename: from a name under the cursor to where it is
//! defined and everywhere it is used, across every check of the workspace (a type defined in
//! one file and used by three templates has four places, whichever check found them).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use lsp_types::{Location, Position, Range, TextEdit, WorkspaceEdit};

use super::check::Checked;
use super::index::Target;
use super::lines::Lines;
use super::readonly;
use super::uri::uri_of;
use super::workspace::{Place, Workspace};
use crate::source::{Origin, Span};

/// The location of `span` of `checked`: its file on disk, or the embedded profile it is in as
/// a read-only file.
pub fn location(checked: &Checked, span: Span) -> Option<Location> {
    let file = checked.sources.get(span.file);
    let path = match checked.paths.get(span.file.0 as usize).cloned().flatten() {
        Some(path) => path,
        None => match &file.origin {
            Origin::Builtin(name) => readonly::materialize(name, &file.text)?,
            _ => return None,
        },
    };
    let range = Lines::new(&file.text).range(span.start as usize, span.end as usize);
    Some(Location::new(uri_of(&path), range))
}

/// Where the name at `position` is defined: a type, template, input or imported file, or the
/// definition of a property, attribute, requirement or capability in the type that declares it.
pub fn definition(workspace: &Workspace, path: &Path, position: Position) -> Option<Location> {
    let at = workspace.at(path, position)?;
    let index = &at.checked.index;
    if let Some(occurrence) = index.occurrence_at(at.file, at.offset) {
        return location(at.checked, index.definition(&occurrence.target)?);
    }
    let member = index.member_at(at.file, at.offset)?;
    let model = at.checked.model.as_ref()?;
    let (declared, _) = super::hover::member_definition(model, member)?;
    location(at.checked, declared)
}

/// The place, comparable across checks, where the name at `position` is defined.
fn defined_place(
    workspace: &Workspace,
    path: &Path,
    position: Position,
) -> Option<(Place, Target)> {
    let at = workspace.at(path, position)?;
    let occurrence = at.checked.index.occurrence_at(at.file, at.offset)?;
    let span = at.checked.index.definition(&occurrence.target)?;
    Some((
        Workspace::place(at.checked, span),
        occurrence.target.clone(),
    ))
}

/// Every occurrence, in every check, of the name whose definition is at `place`, each once.
fn occurrences(workspace: &Workspace, place: &Place, with_definition: bool) -> Vec<Location> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for checked in workspace.checks() {
        let index = &checked.index;
        let mut defined: HashMap<&Target, bool> = HashMap::new();
        for occurrence in index.occurrences() {
            if occurrence.definition && !with_definition {
                continue;
            }
            let same = *defined.entry(&occurrence.target).or_insert_with(|| {
                index
                    .definition(&occurrence.target)
                    .is_some_and(|span| Workspace::place(checked, span) == *place)
            });
            if !same {
                continue;
            }
            let here = Workspace::place(checked, occurrence.span);
            if seen.insert((here.file, here.start))
                && let Some(location) = location(checked, occurrence.span)
            {
                out.push(location);
            }
        }
    }
    out
}

pub fn references(
    workspace: &Workspace,
    path: &Path,
    position: Position,
    with_definition: bool,
) -> Vec<Location> {
    match defined_place(workspace, path, position) {
        Some((place, _)) => occurrences(workspace, &place, with_definition),
        None => Vec::new(),
    }
}

/// The range of a name that can be renamed: a template, input, output, group or policy of a
/// service template, or a type defined in the workspace (never in an embedded profile).
pub fn prepare_rename(workspace: &Workspace, path: &Path, position: Position) -> Option<Range> {
    let at = workspace.at(path, position)?;
    let occurrence = at.checked.index.occurrence_at(at.file, at.offset)?;
    renamable(at.checked, &occurrence.target)?;
    let file = at.checked.sources.get(at.file);
    let span = occurrence.span;
    Some(Lines::new(&file.text).range(span.start as usize, span.end as usize))
}

fn renamable(checked: &Checked, target: &Target) -> Option<()> {
    match target {
        Target::Template(..) => Some(()),
        Target::Type(..) => {
            let span = checked.index.definition(target)?;
            checked
                .paths
                .get(span.file.0 as usize)?
                .as_ref()
                .map(|_| ())
        }
        Target::File(_) => None,
    }
}

/// `lsp_types::Uri` caches its parse in a cell, which clippy takes for a mutable key; the
/// protocol's `WorkspaceEdit` is keyed by it all the same, and nothing mutates a key here.
#[allow(clippy::mutable_key_type)]
/// Renames the name at `position` everywhere it occurs. Refused, with the reason, for a name
/// that cannot be renamed, a new name that is not a plain name, or one already taken.
pub fn rename(
    workspace: &Workspace,
    path: &Path,
    position: Position,
    new_name: &str,
) -> Result<Option<WorkspaceEdit>, String> {
    if new_name.is_empty()
        || new_name
            .chars()
            .any(|c| c.is_whitespace() || ":{}[],#&*!|>'\"%@`".contains(c))
    {
        return Err(format!(
            "`{new_name}` is not a plain name: use letters, digits, `_`, `-` and `.`"
        ));
    }
    let Some(at) = workspace.at(path, position) else {
        return Ok(None);
    };
    let Some(occurrence) = at.checked.index.occurrence_at(at.file, at.offset) else {
        return Err("there is no name to rename here".into());
    };
    if renamable(at.checked, &occurrence.target).is_none() {
        return Err("only templates, inputs, outputs, groups, policies and the workspace's own types can be renamed".into());
    }
    let taken = match &occurrence.target {
        Target::Template(section, _) => Target::Template(*section, new_name.to_string()),
        Target::Type(kind, _) => Target::Type(*kind, new_name.to_string()),
        Target::File(_) => return Err("an import is renamed by renaming its file".into()),
    };
    if at.checked.index.definition(&taken).is_some() {
        return Err(format!("`{new_name}` is already defined"));
    }
    let Some((place, _)) = defined_place(workspace, path, position) else {
        return Ok(None);
    };
    let mut changes: HashMap<lsp_types::Uri, Vec<TextEdit>> = HashMap::new();
    for location in occurrences(workspace, &place, true) {
        changes.entry(location.uri).or_default().push(TextEdit {
            range: location.range,
            new_text: new_name.to_string(),
        });
    }
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }))
}
