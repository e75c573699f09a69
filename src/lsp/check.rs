//! One check: what `toscana check FILE` does, run on the editor's unsaved texts, keeping what
//! the editor needs afterwards (the files read, their diagnostics, the model for the index).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::diagnostics;
use super::index::Index;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::Model;
use crate::pipeline::{self, ReadOptions};
use crate::source::{FileId, InputArg, Origin, Overlay, SourceMap};

/// What every check takes besides the file: the flags `toscana lsp` was started with, and the
/// trees of imported files the checks so far loaded (shared by every clone of the settings).
#[derive(Debug, Clone)]
pub struct Settings {
    pub map_url: Vec<(String, PathBuf)>,
    pub profile_paths: Vec<PathBuf>,
    pub quirks: crate::quirk::Quirks,
    /// Each check re-uses the trees of the imports and profiles that did not change since an
    /// earlier one: only the edited file is parsed again (see [`crate::yaml::TreeCache`]).
    pub trees: crate::yaml::TreeCache,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            map_url: Vec::new(),
            profile_paths: Vec::new(),
            quirks: crate::quirk::Quirks::default(),
            trees: crate::yaml::TreeCache::kept(),
        }
    }
}

/// The result of checking one entry file.
pub struct Checked {
    pub entry: PathBuf,
    pub sources: SourceMap,
    /// The path on disk of each file read (by [`FileId`]); `None` for an embedded profile or a
    /// CSAR entry.
    pub paths: Vec<Option<PathBuf>>,
    /// The diagnostics `toscana check` reports, by the file they are in.
    pub diagnostics: BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>>,
    pub model: Option<Model>,
    /// The resolved topology, for what function calls evaluate to.
    pub topology: Option<crate::ir::Topology>,
    pub index: Index,
    /// The model of the last check of this entry that had one, while the text does not read
    /// (a document mid-edit): completion still knows the types and names.
    pub fallback: Option<Model>,
}

impl Checked {
    /// The id of the file at `path` among the files this check read.
    pub fn file(&self, path: &Path) -> Option<FileId> {
        self.paths
            .iter()
            .position(|p| p.as_deref() == Some(path))
            .map(|i| FileId(i as u32))
    }

    /// Every file on disk this check read: the entry and what it imports.
    pub fn files(&self) -> impl Iterator<Item = &PathBuf> {
        self.paths.iter().flatten()
    }

    /// The model, or the last one known while the text does not read.
    pub fn known_model(&self) -> Option<&Model> {
        self.model.as_ref().or(self.fallback.as_ref())
    }
}

/// Checks `entry` (an absolute path) as `toscana check` would, reading the open documents'
/// texts in place of their files. Requirements left to the orchestrator are reported (as
/// `check` does) and unbound inputs are not errors (`check` judges the template, not a
/// deployment of it).
pub fn check(entry: &Path, overlay: Overlay, settings: &Settings) -> Checked {
    let options = ReadOptions {
        input: Some(InputArg::Path(entry.to_path_buf())),
        map_url: settings.map_url.clone(),
        profile_paths: settings.profile_paths.clone(),
        report_open_requirements: true,
        unbound_inputs_are_errors: false,
        quirks: settings.quirks.clone(),
        overlay,
        trees: settings.trees.clone(),
        ..ReadOptions::default()
    };
    let mut diags = Diagnostics::new();
    // A document half typed is any text at all: the pipeline must not panic on it, and if it
    // ever does the editor gets a diagnostic saying so rather than a dead server.
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pipeline::read(&options, &mut diags)
    }));
    let (sources, model, topology) = match read {
        Ok(read) => (read.sources, read.model, read.topology),
        Err(_) => {
            diags.push(Diagnostic::error(
                codes::TOSCA_UNSUPPORTED,
                "internal error: toscana failed while checking this file; this is a bug, please report it with the file",
            ));
            (SourceMap::new(), None, None)
        }
    };
    let paths = paths_of(&sources);
    let index = Index::build(model.as_ref(), &sources);
    let diagnostics = diagnostics::by_file(&diags.finish(), &sources, &paths, entry);
    Checked {
        entry: entry.to_path_buf(),
        sources,
        paths,
        diagnostics,
        model,
        topology,
        index,
        fallback: None,
    }
}

/// The absolute path of each file read from disk.
fn paths_of(sources: &SourceMap) -> Vec<Option<PathBuf>> {
    let cwd = std::env::current_dir().unwrap_or_default();
    sources
        .files()
        .map(|(_, file)| match &file.origin {
            Origin::Path(path) => Some(cwd.join(path)),
            _ => None,
        })
        .collect()
}
