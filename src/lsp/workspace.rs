//! The workspace: which files are checked, in what order, and which diagnostics each file shows.
//!
//! Every open document is checked as an entry, as `toscana check FILE` would check it, and so
//! is every TOSCA file found in the workspace folders, in the background, so a file shows the
//! problems of the templates that import it too. A file's diagnostics are those of every check
//! that read it (the same problem found twice is shown once): an edit to a type file re-checks
//! each template that imports it, and the template's problems appear where they are.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use super::check::{Checked, Settings, check};
use super::documents::Documents;
use crate::source::Span;

/// At most this many files are taken from the workspace folders, so a huge folder cannot make
/// the server read without end; open documents are always checked.
const MAX_DISCOVERED: usize = 2000;
/// Folders never searched for templates.
const SKIPPED: &[&str] = &["node_modules", "target", "__pycache__"];

/// The state of the server.
pub struct Workspace {
    settings: Settings,
    pub documents: Documents,
    folders: Vec<PathBuf>,
    checks: BTreeMap<PathBuf, Checked>,
    /// Entries to check before the next request is answered.
    urgent: BTreeSet<PathBuf>,
    /// Entries to check when there is nothing else to do.
    background: BTreeSet<PathBuf>,
    /// The files last published with diagnostics, so one that has none any more is cleared.
    published: BTreeSet<PathBuf>,
}

/// A position in a file, as the check that answers for it read the file.
pub struct At<'w> {
    pub checked: &'w Checked,
    pub file: crate::source::FileId,
    /// The byte offset in the file's text.
    pub offset: u32,
}

/// Where a name is defined, across checks: the file (or embedded profile) and byte offset.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Place {
    pub file: String,
    pub start: u32,
}

impl Workspace {
    pub fn new(settings: Settings, folders: Vec<PathBuf>) -> Self {
        Workspace {
            settings,
            documents: Documents::default(),
            folders,
            checks: BTreeMap::new(),
            urgent: BTreeSet::new(),
            background: BTreeSet::new(),
            published: BTreeSet::new(),
        }
    }

    /// Queues every TOSCA file of the workspace folders for a background check.
    pub fn discover(&mut self) {
        let mut found = Vec::new();
        for folder in self.folders.clone() {
            collect_templates(&folder, 0, &mut found);
        }
        self.background.extend(found);
    }

    /// A document was opened, changed or saved (or a file changed on disk): check it, and every
    /// template that reads it, before the next answer.
    ///
    /// An open document is checked on its own only when it is TOSCA: an editor that starts the
    /// server for every YAML file (a CI workflow, a Helm chart) gets no diagnostics for those,
    /// unless a template imports them.
    pub fn touched(&mut self, path: &Path) {
        if self
            .documents
            .get(path)
            .is_some_and(|d| looks_like_tosca(&d.text))
        {
            self.urgent.insert(path.to_path_buf());
        }
        let readers: Vec<PathBuf> = self
            .checks
            .values()
            .filter(|c| c.files().any(|f| f == path))
            .map(|c| c.entry.clone())
            .collect();
        self.urgent.extend(readers);
    }

    /// A document was closed: the file on disk is what its readers read now; a file outside
    /// the workspace folders is no longer checked on its own.
    /// Returns the files whose diagnostics went with it.
    pub fn closed(&mut self, path: &Path) -> BTreeSet<PathBuf> {
        self.documents.close(path);
        self.touched(path);
        if self.folders.iter().any(|f| path.starts_with(f)) {
            if self.checks.contains_key(path) {
                self.urgent.insert(path.to_path_buf());
            }
            return BTreeSet::new();
        }
        self.urgent.remove(path);
        self.checks
            .remove(path)
            .map(|c| c.diagnostics.into_keys().collect())
            .unwrap_or_default()
    }

    pub fn has_urgent_work(&self) -> bool {
        !self.urgent.is_empty()
    }

    pub fn has_work(&self) -> bool {
        !self.urgent.is_empty() || !self.background.is_empty()
    }

    /// Runs one pending check (urgent ones first); returns the files whose diagnostics may have
    /// changed.
    pub fn work(&mut self) -> BTreeSet<PathBuf> {
        let Some(entry) = self
            .urgent
            .pop_first()
            .or_else(|| self.background.pop_first())
        else {
            return BTreeSet::new();
        };
        self.background.remove(&entry);
        let mut changed: BTreeSet<PathBuf> = self
            .checks
            .get(&entry)
            .map(|c| c.diagnostics.keys().cloned().collect())
            .unwrap_or_default();
        let exists = self.documents.get(&entry).is_some() || entry.is_file();
        if exists {
            let mut checked = check(&entry, self.documents.overlay(), &self.settings);
            if checked.model.is_none()
                && let Some(old) = self.checks.remove(&entry)
            {
                checked.fallback = old.model.or(old.fallback);
            }
            changed.extend(checked.diagnostics.keys().cloned());
            self.checks.insert(entry, checked);
        } else {
            self.checks.remove(&entry);
        }
        changed
    }

    /// Runs every urgent check; returns the files whose diagnostics may have changed.
    pub fn work_urgent(&mut self) -> BTreeSet<PathBuf> {
        let mut changed = BTreeSet::new();
        while self.has_urgent_work() {
            changed.extend(self.work());
        }
        changed
    }

    /// The diagnostics of `path`: those of every check that read it, each problem once.
    pub fn diagnostics(&mut self, path: &Path) -> Vec<lsp_types::Diagnostic> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for checked in self.checks.values() {
            for d in checked.diagnostics.get(path).into_iter().flatten() {
                let key = (
                    d.range.start,
                    d.range.end,
                    d.code.clone(),
                    d.message.clone(),
                );
                if seen.insert(key) {
                    out.push(d.clone());
                }
            }
        }
        if out.is_empty() {
            self.published.remove(path);
        } else {
            self.published.insert(path.to_path_buf());
        }
        out
    }

    /// The check that answers questions about `path`: its own as an entry, else one that read
    /// it.
    pub fn check_of(&self, path: &Path) -> Option<&Checked> {
        self.checks
            .get(path)
            .or_else(|| self.checks.values().find(|c| c.files().any(|f| f == path)))
    }

    /// Where `position` of `path` is in the check that answers for it.
    pub fn at(&self, path: &Path, position: lsp_types::Position) -> Option<At<'_>> {
        let checked = self.check_of(path)?;
        let file = checked.file(path)?;
        let lines = super::lines::Lines::new(&checked.sources.get(file).text);
        Some(At {
            checked,
            file,
            offset: lines.offset(position) as u32,
        })
    }

    pub fn checks(&self) -> impl Iterator<Item = &Checked> {
        self.checks.values()
    }

    /// Where `span` of `checked` is, comparable across checks.
    pub fn place(checked: &Checked, span: Span) -> Place {
        let file = match checked.paths.get(span.file.0 as usize).cloned().flatten() {
            Some(path) => path.display().to_string(),
            None => checked.sources.get(span.file).name.clone(),
        };
        Place {
            file,
            start: span.start,
        }
    }
}

/// The TOSCA files under `folder`: YAML or XML files that declare a definitions version (a
/// look at their first 4 KiB), not in hidden or build folders.
fn collect_templates(folder: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    if depth > 12 || found.len() >= MAX_DISCOVERED {
        return;
    }
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') || SKIPPED.contains(&name) {
            continue;
        }
        // Never through a link: the workspace is what is under its folders.
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            collect_templates(&path, depth + 1, found);
        } else if meta.is_file() && is_template(&path) && found.len() < MAX_DISCOVERED {
            found.push(path);
        }
    }
}

fn is_template(path: &Path) -> bool {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !matches!(extension, "yaml" | "yml" | "tosca" | "xml") {
        return false;
    }
    let mut head = [0u8; 4096];
    let read = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    looks_like_tosca(&String::from_utf8_lossy(&head[..read]))
}

/// Whether a text declares itself TOSCA: a `tosca_definitions_version` (YAML) or the TOSCA
/// 1.0 namespace (XML).
fn looks_like_tosca(text: &str) -> bool {
    text.contains("tosca_definitions_version")
        || text.contains("docs.oasis-open.org/tosca/ns/2011/12")
}
