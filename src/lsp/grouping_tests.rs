//! The language server reads a service template's groups and policies from their typed model
//! ([`crate::model::grouping`]) as it reads the templates the model keeps as YAML: the calls in
//! their sections are found and evaluated, their `type`, `members` and `targets` are
//! references, the names they assign are members of their type, and a hover names them.

use lsp_types::{HoverContents, Position};

use super::check::{Checked, Settings, check};
use super::index::{Section, Target};
use super::lines::Lines;
use super::uri::uri_of;
use super::workspace::Workspace;
use super::{evaluate, hover};
use crate::model::TypeKind;
use crate::source::Overlay;

const SERVICE: &str = "tosca_definitions_version: tosca_2_0
node_types:
  App: {}
group_types:
  Tier:
    properties:
      size: { type: integer }
    attributes:
      label: { type: string }
policy_types:
  Keep:
    properties:
      owner: { type: string }
service_template:
  inputs:
    size: { type: integer, default: 3 }
    name: { type: string, default: web }
  node_templates:
    app:
      type: App
  groups:
    tier:
      type: Tier
      description: the web tier
      properties:
        size: { $get_input: size }
      attributes:
        label: { $get_input$1: name }
      members: [ app ]
  policies:
    - keep:
        type: Keep
        properties:
          owner: { $get_input$2: name }
        targets: [ tier, app ]
";

/// `SERVICE` checked as the language server checks it, and the byte offset of each text.
fn checked() -> (Checked, impl Fn(&str) -> u32) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap().join("service.yaml");
    std::fs::write(&path, SERVICE).unwrap();
    let checked = check(&path, Overlay::default(), &Settings::default());
    assert!(
        checked.diagnostics.values().all(Vec::is_empty),
        "{:?}",
        checked.diagnostics
    );
    let at = |text: &str| SERVICE.find(text).expect("in the template") as u32;
    (checked, at)
}

/// The hover of the call whose text holds byte `at` of the entry file.
fn call_hover(checked: &Checked, at: u32) -> Option<String> {
    let file = checked.file(&checked.entry)?;
    let call = checked.index.call_at(file, at)?;
    Some(evaluate::describe(checked, call))
}

/// What the name at byte `at` of the entry file refers to.
fn target(checked: &Checked, at: u32) -> Option<Target> {
    let file = checked.file(&checked.entry)?;
    Some(checked.index.occurrence_at(file, at)?.target.clone())
}

#[test]
fn the_calls_of_a_group_and_a_policy_are_found_and_evaluated() {
    let (checked, at) = checked();
    // A property, evaluated in the IR.
    let text = call_hover(&checked, at("$get_input: size")).expect("a call");
    assert!(text.contains("evaluates to `3`"), "{text}");
    // A group's attribute, which the hover evaluates as written (its typed value).
    let text = call_hover(&checked, at("$get_input$1")).expect("a call");
    assert!(text.contains("evaluates to `\"web\"`"), "{text}");
    let text = call_hover(&checked, at("$get_input$2")).expect("a call");
    assert!(text.contains("evaluates to `\"web\"`"), "{text}");
}

#[test]
fn members_and_targets_refer_to_their_templates_and_the_type_to_its_type() {
    let (checked, at) = checked();
    let member = at("members: [ app") + "members: [ ".len() as u32;
    assert_eq!(
        target(&checked, member),
        Some(Target::Template(Section::Node, "app".into()))
    );
    let group = at("targets: [ tier") + "targets: [ ".len() as u32;
    assert_eq!(
        target(&checked, group),
        Some(Target::Template(Section::Group, "tier".into()))
    );
    let node = at("tier, app") + "tier, ".len() as u32;
    assert_eq!(
        target(&checked, node),
        Some(Target::Template(Section::Node, "app".into()))
    );
    let type_name = at("type: Tier") + "type: ".len() as u32;
    assert!(
        matches!(
            target(&checked, type_name),
            Some(Target::Type(TypeKind::Group, _))
        ),
        "{:?}",
        target(&checked, type_name)
    );
    let file = checked.file(&checked.entry).unwrap();
    let size = checked
        .index
        .member_at(file, at("size: { $get_input"))
        .expect("an assigned property is a member of the group type");
    assert_eq!(size.section, "properties");
}

#[test]
fn a_hover_on_a_group_names_its_type_and_description() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let path = root.join("service.yaml");
    std::fs::write(&path, SERVICE).unwrap();
    let mut workspace = Workspace::new(Settings::default(), vec![root]);
    workspace
        .documents
        .open(path.clone(), uri_of(&path), SERVICE.to_string());
    workspace.touched(&path);
    workspace.work_urgent();
    let shown = |text: &str| -> String {
        let offset = SERVICE.find(text).expect("in the template");
        let position: Position = Lines::new(SERVICE).position(offset);
        let hover = hover::hover(&workspace, &path, position).expect("a hover");
        match hover.contents {
            HoverContents::Markup(markup) => markup.value,
            other => panic!("{other:?}"),
        }
    };
    let group = shown("tier:\n");
    assert!(group.starts_with("**group** `tier`: `Tier`"), "{group}");
    assert!(group.contains("the web tier"), "{group}");
    let policy = shown("keep:\n");
    assert!(policy.starts_with("**policy** `keep`: `Keep`"), "{policy}");
}
