//! Unsaved editor buffers that a check reads in place of their files (`toscana lsp`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::imports::normalize_path;
use super::text::{ReadError, read_bounded, read_disk};

/// Unsaved texts by the normalized absolute path of the file they stand in for.
///
/// The overlay changes what a file says, never which files may be read: a path is looked up
/// here only after the loader has admitted it inside its root (see [`super::confine`]), and its
/// text is held to `max_file_bytes` like a file's. A file that exists only in the overlay (a
/// new buffer not yet saved) can be opened as the input.
#[derive(Debug, Clone, Default)]
pub struct Overlay(Arc<BTreeMap<PathBuf, Arc<str>>>);

impl Overlay {
    /// An overlay of `texts`, keyed by absolute paths (normalized here).
    pub fn new(texts: impl IntoIterator<Item = (PathBuf, Arc<str>)>) -> Self {
        Overlay(Arc::new(
            texts
                .into_iter()
                .map(|(path, text)| (normalize_path(&path), text))
                .collect(),
        ))
    }

    /// The bytes of the file at the normalized absolute path `abs`: its unsaved text if there
    /// is one, else the file on disk; at most `limit` bytes either way.
    pub(super) fn read(&self, abs: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
        match self.0.get(abs) {
            Some(unsaved) => read_bounded(unsaved.as_bytes(), limit),
            None => read_disk(abs, limit),
        }
    }

    /// Whether there is an unsaved text for the absolute path `path` (normalized here).
    pub(super) fn has(&self, path: &Path) -> bool {
        self.0.contains_key(&normalize_path(path))
    }
}
