//! The incremental re-check is invisible: after every edit of a sequence (the entry, an open
//! imported file, a file changed on disk, a document broken mid-edit, imports reordered), every
//! check the server holds reports exactly what a fresh check of the same texts reports, one
//! that keeps no tree from before (what `toscana check` runs); and the kept trees are used.

use std::path::{Path, PathBuf};

use super::check::{Settings, check};
use super::uri::uri_of;
use super::workspace::Workspace;
use crate::yaml::TreeCache;

/// A Simple Profile 1.3 template importing two type files, one of which imports a third that
/// has a duplicate key (a diagnostic of loading, which a kept tree must report again).
const SIMPLE: &[(&str, &str)] = &[
    (
        "app.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\n\
         imports:\n  - types.yaml\n  - more.yaml\n\
         topology_template:\n  inputs:\n    port: { type: integer, default: 80 }\n\
         \x20 node_templates:\n    server:\n      type: tosca.nodes.Compute\n\
         \x20   shop:\n      type: shop.nodes.WebApp\n\
         \x20     properties: { port: { get_input: port }, admin_email: a@example.com }\n\
         \x20     requirements:\n        - host: server\n\
         \x20   cache:\n      type: shop.nodes.Cache\n      requirements:\n        - host: server\n",
    ),
    (
        "types.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\n\
         imports:\n  - base.yaml\n\
         node_types:\n  shop.nodes.WebApp:\n    derived_from: shop.nodes.Base\n\
         \x20   properties:\n      port: { type: integer }\n      admin_email: { type: string }\n",
    ),
    (
        "base.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\n\
         description: first\ndescription: second\n\
         node_types:\n  shop.nodes.Base:\n    derived_from: tosca.nodes.SoftwareComponent\n",
    ),
    (
        "more.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\n\
         node_types:\n  shop.nodes.Cache:\n    derived_from: tosca.nodes.SoftwareComponent\n\
         \x20   properties:\n      size: { type: integer, default: 1 }\n",
    ),
];

/// A TOSCA 2.0 service importing the Simple Profile by name and a type file by `url`, which
/// imports another.
const TOSCA2: &[(&str, &str)] = &[
    (
        "service.yaml",
        "tosca_definitions_version: tosca_2_0\n\
         imports:\n  - profile: org.oasis-open.simple:2.0\n    namespace: simple\n\
         \x20 - url: types.yaml\n\
         service_template:\n  inputs:\n    size: { type: integer, default: 3 }\n\
         \x20 node_templates:\n    vm:\n      type: simple:Compute\n\
         \x20   app:\n      type: App\n      properties: { size: { $get_input: size } }\n",
    ),
    (
        "types.yaml",
        "tosca_definitions_version: tosca_2_0\n\
         imports:\n  - url: base.yaml\n\
         node_types:\n  App:\n    derived_from: Base\n\
         \x20   properties:\n      size: { type: integer }\n",
    ),
    (
        "base.yaml",
        "tosca_definitions_version: tosca_2_0\n\
         node_types:\n  Base:\n    description: the root of the app's types\n",
    ),
];

/// One step of the sequence.
enum Edit {
    /// The open document's whole new text.
    Type(&'static str, String),
    /// A file changed on disk (not open).
    Save(&'static str, String),
}

#[test]
fn a_simple_profile_workspace_rechecks_as_a_fresh_check_would() {
    let (app, types) = (SIMPLE[0].1, SIMPLE[1].1);
    follow_edits(
        SIMPLE,
        "app.yaml",
        vec![
            Edit::Type("app.yaml", app.replace("default: 80", "default: 81")),
            Edit::Type("app.yaml", app[..app.len() / 2].to_string()),
            Edit::Type(
                "app.yaml",
                app.replace("get_input: port", "get_input: prot"),
            ),
            Edit::Type(
                "types.yaml",
                types.replace("shop.nodes.Base", "shop.nodes.Bsae"),
            ),
            Edit::Type(
                "app.yaml",
                app.replace("- types.yaml\n  - more.yaml", "- more.yaml\n  - types.yaml"),
            ),
            Edit::Save(
                "base.yaml",
                SIMPLE[2].1.replace("description: second\n", ""),
            ),
            Edit::Type("types.yaml", types.to_string()),
            Edit::Type("app.yaml", app.to_string()),
        ],
    );
}

#[test]
fn a_tosca2_workspace_rechecks_as_a_fresh_check_would() {
    let (service, types) = (TOSCA2[0].1, TOSCA2[1].1);
    follow_edits(
        TOSCA2,
        "service.yaml",
        vec![
            Edit::Type("service.yaml", service.replace("default: 3", "default: 4")),
            Edit::Type("service.yaml", service[..service.len() - 9].to_string()),
            Edit::Type("types.yaml", types.replace("type: integer", "type: intgr")),
            Edit::Save("base.yaml", TOSCA2[2].1.replace("Base:", "Bass:")),
            Edit::Type("service.yaml", service.to_string()),
            Edit::Save("base.yaml", TOSCA2[2].1.to_string()),
            Edit::Type("types.yaml", types.to_string()),
        ],
    );
}

/// Opens `entry` in a workspace of `files`, applies `edits` one at a time as the server does
/// (touched, then the urgent checks, then the background ones), and after each compares every
/// check with a fresh one.
fn follow_edits(files: &[(&str, &str)], entry: &str, edits: Vec<Edit>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for (name, text) in files {
        std::fs::write(root.join(name), text).unwrap();
    }
    let settings = Settings::default();
    let trees = settings.trees.clone();
    let mut workspace = Workspace::new(settings, vec![root.clone()]);
    let entry = root.join(entry);
    let text = std::fs::read_to_string(&entry).unwrap();
    workspace
        .documents
        .open(entry.clone(), uri_of(&entry), text);
    workspace.touched(&entry);
    workspace.discover();
    settle(&mut workspace);
    assert_fresh(&workspace, "opening the entry");
    for (step, edit) in edits.into_iter().enumerate() {
        let path = match edit {
            Edit::Type(name, text) => {
                let path = root.join(name);
                if workspace.documents.get(&path).is_none() {
                    let old = std::fs::read_to_string(&path).unwrap();
                    workspace.documents.open(path.clone(), uri_of(&path), old);
                }
                let change = lsp_types::TextDocumentContentChangeEvent {
                    range: None,
                    range_length: None,
                    text,
                };
                workspace.documents.change(&path, vec![change]);
                path
            }
            Edit::Save(name, text) => {
                let path = root.join(name);
                std::fs::write(&path, text).unwrap();
                path
            }
        };
        workspace.touched(&path);
        settle(&mut workspace);
        assert_fresh(&workspace, &format!("edit {step} of {}", path.display()));
    }
    assert!(trees.reused() > 0, "no check re-used a kept tree");
}

/// Runs every pending check, urgent and background.
fn settle(workspace: &mut Workspace) {
    while workspace.has_work() {
        workspace.work();
    }
}

/// Every check the workspace holds reports what a check keeping no tree reports.
fn assert_fresh(workspace: &Workspace, after: &str) {
    let fresh_settings = Settings {
        trees: TreeCache::none(),
        ..Settings::default()
    };
    let mut compared = 0;
    for checked in workspace.checks() {
        let fresh = check(
            &checked.entry,
            workspace.documents.overlay(),
            &fresh_settings,
        );
        assert_eq!(
            by_name(&checked.diagnostics),
            by_name(&fresh.diagnostics),
            "after {after}, the re-check of {} differs from a fresh check",
            checked.entry.display()
        );
        compared += 1;
    }
    assert!(compared > 0, "after {after}, nothing was checked");
}

/// The diagnostics by file name, with their codes and messages: what the comparison shows when
/// it fails.
fn by_name(
    diagnostics: &std::collections::BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>>,
) -> Vec<(String, Vec<lsp_types::Diagnostic>)> {
    diagnostics
        .iter()
        .map(|(path, ds)| (file_name(path), ds.clone()))
        .collect()
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}
