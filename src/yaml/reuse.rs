//! Trees kept between checks: the language server re-checks a template on every keystroke, and
//! the files it imports (the embedded profiles, the user's type files) almost never change
//! between two keystrokes. Scanning them again is most of what an import costs, so a check can
//! borrow the tree the previous check built, with the diagnostics loading it reported.
//!
//! A kept tree is re-used only for the same file, byte for byte, at the same place in the
//! check's [`SourceMap`] (a tree's spans name its [`FileId`]) and under the same [`Limits`], so
//! it is exactly the tree loading would build: the file is still read (that is how a change is
//! seen, whether made on disk or in an open buffer), only not parsed again. A file whose text
//! changed is loaded again and replaces what was kept for its place, so the store holds at most
//! one tree per (file id, file name) the checks have seen: about the number of files a
//! workspace's templates import.
//!
//! [`TreeCache::none`] (the default, what `toscana check` and the translators use) keeps
//! nothing and loads every time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::diag::{Diagnostic, Diagnostics};
use crate::limits::Limits;
use crate::source::{FileId, SourceMap};

use super::Node;

/// The trees of files loaded by earlier checks, shared by every clone of the handle.
#[derive(Clone, Default)]
pub struct TreeCache(Option<Arc<Store>>);

#[derive(Default)]
struct Store {
    kept: Mutex<HashMap<(FileId, String), Kept>>,
    /// How many loads a kept tree answered.
    reused: AtomicUsize,
}

impl std::fmt::Debug for TreeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TreeCache")
            .field("keeps", &self.0.is_some())
            .finish()
    }
}

/// One loaded file: what it was loaded from, the tree (`None` when it did not read as YAML)
/// and what loading it reported.
struct Kept {
    text: Arc<str>,
    limits: Limits,
    tree: Option<Arc<Node>>,
    diagnostics: Vec<Diagnostic>,
}

impl TreeCache {
    /// Keeps nothing: every file is loaded when asked for.
    pub fn none() -> Self {
        TreeCache(None)
    }

    /// Keeps every tree loaded through it for the checks that follow.
    pub fn kept() -> Self {
        TreeCache(Some(Arc::default()))
    }

    /// How many times a kept tree was handed out instead of loading the file again.
    pub fn reused(&self) -> usize {
        self.0
            .as_ref()
            .map_or(0, |s| s.reused.load(Ordering::Relaxed))
    }

    /// The tree of `file`: the one kept from an earlier check when the file is unchanged (its
    /// diagnostics reported into `diags` again), else what `load` builds (then kept). `load`
    /// gives the tree and what loading found ([`super::load_apart`]), reported here into
    /// `diags` and kept with the tree; it must depend on nothing but the file's text, its id
    /// and `limits`.
    pub fn tree(
        &self,
        sources: &SourceMap,
        file: FileId,
        limits: &Limits,
        diags: &mut Diagnostics,
        load: impl FnOnce() -> (Option<Node>, Vec<Diagnostic>),
    ) -> Option<Arc<Node>> {
        let Some(store) = &self.0 else {
            let (tree, found) = load();
            diags.extend(found);
            return tree.map(Arc::new);
        };
        let source = sources.get(file);
        let key = (file, source.name.clone());
        // A poisoned lock means a check panicked mid-load; what it kept is still whole (an
        // entry is inserted complete), so the store stays usable.
        let mut kept_trees = store
            .kept
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(kept) = kept_trees.get(&key)
            && kept.limits == *limits
            && (Arc::ptr_eq(&kept.text, &source.text) || *kept.text == *source.text)
        {
            store.reused.fetch_add(1, Ordering::Relaxed);
            diags.extend(kept.diagnostics.iter().cloned());
            return kept.tree.clone();
        }
        let (tree, diagnostics) = load();
        let tree = tree.map(Arc::new);
        diags.extend(diagnostics.iter().cloned());
        kept_trees.insert(
            key,
            Kept {
                text: source.text.clone(),
                limits: limits.clone(),
                tree: tree.clone(),
                diagnostics,
            },
        );
        tree
    }
}
