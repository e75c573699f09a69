//! Every feature on every prefix of a template: a document mid-edit is any text at all, and
//! the server must answer (or say nothing) without panicking.

use lsp_types::Position;

use super::check::Settings;
use super::lines::Lines;
use super::uri::uri_of;
use super::workspace::Workspace;
use super::{completion, hover, navigate, symbols};

const APP: &str = include_str!("../../tests/lsp/workspace/simple/app.yaml");
const TYPES: &str = include_str!("../../tests/lsp/workspace/simple/types.yaml");
const SERVICE: &str = include_str!("../../tests/lsp/workspace/tosca2/service.yaml");
const XML: &str = include_str!("../../tests/lsp/workspace/xml/shop.xml");

#[test]
fn every_prefix_of_a_template_is_answered_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("types.yaml"), TYPES).unwrap();
    for (name, text) in [
        ("app.yaml", APP),
        ("service.yaml", SERVICE),
        ("shop.xml", XML),
    ] {
        let path = root.join(name);
        std::fs::write(&path, text).unwrap();
        let mut workspace = Workspace::new(Settings::default(), vec![root.clone()]);
        workspace
            .documents
            .open(path.clone(), uri_of(&path), String::new());
        let mut cut = 0;
        while cut <= text.len() {
            let prefix = &text[..cut];
            let change = lsp_types::TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: prefix.to_string(),
            };
            workspace.documents.change(&path, vec![change]);
            workspace.touched(&path);
            workspace.work_urgent();
            let _ = workspace.diagnostics(&path);
            let lines = Lines::new(prefix);
            let end = lines.position(prefix.len());
            for position in [Position::new(0, 0), end, Position::new(end.line / 2, 3)] {
                hover::hover(&workspace, &path, position);
                navigate::definition(&workspace, &path, position);
                navigate::references(&workspace, &path, position, true);
                navigate::prepare_rename(&workspace, &path, position);
                let _ = navigate::rename(&workspace, &path, position, "renamed");
                completion::complete(&workspace, &path, position);
            }
            symbols::document(&workspace, &path);
            symbols::workspace(&workspace, "");
            // The next cut, 37 bytes on (moved to a character boundary).
            cut += 37;
            while cut < text.len() && !text.is_char_boundary(cut) {
                cut += 1;
            }
        }
    }
}
