//! The documents the editor has open: their unsaved text, which is what every check reads in
//! place of the file on disk (see [`crate::source::Overlay`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{TextDocumentContentChangeEvent, Uri};

use super::lines::Lines;
use crate::source::Overlay;

/// One open document.
pub struct Document {
    pub uri: Uri,
    pub text: Arc<str>,
}

/// The open documents by path. Documents whose URI names no local file (`untitled:`) are not
/// kept: nothing could be read relative to them.
#[derive(Default)]
pub struct Documents {
    open: BTreeMap<PathBuf, Document>,
}

impl Documents {
    pub fn open(&mut self, path: PathBuf, uri: Uri, text: String) {
        self.open.insert(
            path,
            Document {
                uri,
                text: text.into(),
            },
        );
    }

    /// Applies the editor's changes in order: a change without a range replaces the whole text,
    /// one with a range replaces that range (positions in UTF-16 units, clamped to the text).
    pub fn change(&mut self, path: &Path, changes: Vec<TextDocumentContentChangeEvent>) {
        let Some(document) = self.open.get_mut(path) else {
            return;
        };
        let mut text = document.text.to_string();
        for change in changes {
            match change.range {
                None => text = change.text,
                Some(range) => {
                    let lines = Lines::new(&text);
                    let start = lines.offset(range.start);
                    let end = lines.offset(range.end).max(start);
                    text.replace_range(start..end, &change.text);
                }
            }
        }
        document.text = text.into();
    }

    pub fn close(&mut self, path: &Path) {
        self.open.remove(path);
    }

    pub fn get(&self, path: &Path) -> Option<&Document> {
        self.open.get(path)
    }

    pub fn paths(&self) -> impl Iterator<Item = &PathBuf> {
        self.open.keys()
    }

    /// The unsaved texts, for a check to read instead of the files.
    pub fn overlay(&self) -> Overlay {
        Overlay::new(
            self.open
                .iter()
                .map(|(path, doc)| (path.clone(), doc.text.clone())),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};
    use std::str::FromStr;

    #[test]
    fn ranged_changes_apply_in_order() {
        let mut docs = Documents::default();
        let path = PathBuf::from("/t.yaml");
        docs.open(
            path.clone(),
            Uri::from_str("file:///t.yaml").unwrap(),
            "port: 80\n".into(),
        );
        let edit = |line, from, to, text: &str| TextDocumentContentChangeEvent {
            range: Some(Range::new(
                Position::new(line, from),
                Position::new(line, to),
            )),
            range_length: None,
            text: text.into(),
        };
        docs.change(&path, vec![edit(0, 0, 4, "prot"), edit(0, 6, 8, "8080")]);
        assert_eq!(&*docs.get(&path).unwrap().text, "prot: 8080\n");
    }
}
