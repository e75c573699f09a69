//! The language server finds the calls the checker finds (one detection,
//! [`crate::model::call`]): a TOSCA 2.0 key `$name$suffix` calls `name` (§10.1 Function
//! Syntax), a string `$name` is a call without arguments, a Simple Profile function name
//! without `$` is no call in TOSCA 2.0, and `$$` escapes are undone where a call is evaluated
//! on its own.

use super::check::{Checked, Settings, check};
use super::evaluate;
use super::index::{Section, Target};
use crate::source::Overlay;

const SERVICE: &str = "tosca_definitions_version: tosca_2_0
node_types:
  App:
    properties:
      port: { type: integer }
      label: { type: string }
      escaped: { type: string }
      tags: { type: map, entry_schema: { type: string } }
service_template:
  inputs:
    port: { type: integer, default: 8080 }
    name: { type: string, default: web }
  node_templates:
    app:
      type: App
      properties:
        port: { $get_input$1: port }
        label: { $concat$2: [ shop-, { $get_input$3: name } ] }
        escaped: { $concat: [ { $concat: [ $$dollar ] }, -x ] }
        tags: { get_input: name }
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

/// The function and hover of the call whose text holds byte `at` of the entry file.
fn hover(checked: &Checked, at: u32) -> Option<(String, String)> {
    let file = checked.file(&checked.entry)?;
    let call = checked.index.call_at(file, at)?;
    Some((call.function.clone(), evaluate::describe(checked, call)))
}

#[test]
fn a_suffixed_key_calls_the_function_it_names() {
    let (checked, at) = checked();
    let (function, text) = hover(&checked, at("$get_input$1")).expect("a call");
    assert_eq!(function, "$get_input");
    assert!(text.contains("evaluates to `8080`"), "{text}");
    assert!(text.contains("§10.2"), "the built-in's meaning: {text}");
    // The inner call is read on its own (it is an argument), and still evaluated.
    let (function, text) = hover(&checked, at("$get_input$3")).expect("a call");
    assert_eq!(function, "$get_input");
    assert!(text.contains("evaluates to `\"web\"`"), "{text}");
    let (function, text) = hover(&checked, at("$concat$2")).expect("a call");
    assert_eq!(function, "$concat");
    assert!(text.contains("evaluates to `\"shop-web\"`"), "{text}");
}

#[test]
fn a_suffixed_get_input_names_its_input() {
    let (checked, at) = checked();
    let file = checked.file(&checked.entry).unwrap();
    let argument = at("$get_input$1: port") + "$get_input$1: ".len() as u32;
    let occurrence = checked
        .index
        .occurrence_at(file, argument)
        .expect("the input is a reference");
    assert_eq!(
        occurrence.target,
        Target::Template(Section::Input, "port".into())
    );
}

#[test]
fn a_simple_profile_name_is_no_call_in_tosca_2() {
    let (checked, at) = checked();
    assert_eq!(hover(&checked, at("get_input: name }")), None);
}

#[test]
fn an_escaped_dollar_evaluates_to_its_literal_text() {
    let (checked, at) = checked();
    let (_, text) = hover(&checked, at("$concat: [ $$dollar")).expect("a call");
    assert!(text.contains("evaluates to `\"$dollar\"`"), "{text}");
}

#[test]
fn a_bare_dollar_string_is_a_call_without_arguments() {
    let service = "tosca_definitions_version: tosca_2_0
node_types:
  App:
    properties:
      label: { type: string }
      escaped: { type: string }
service_template:
  node_templates:
    app:
      type: App
      properties:
        label: $replicas
        escaped: $$replicas
";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap().join("service.yaml");
    std::fs::write(&path, service).unwrap();
    let checked = check(&path, Overlay::default(), &Settings::default());
    let at = |text: &str| service.find(text).expect("in the template") as u32;
    let (function, text) = hover(&checked, at("$replicas\n")).expect("a call");
    assert_eq!(function, "$replicas");
    assert!(text.contains("known only at deployment"), "{text}");
    assert_eq!(hover(&checked, at("$$replicas")), None);
}

#[test]
fn a_call_in_a_typed_output_is_found_evaluated_and_names_its_input() {
    let service = "tosca_definitions_version: tosca_2_0
service_template:
  inputs:
    name: { type: string, default: web }
  node_templates: {}
  outputs:
    url:
      type: string
      description: where the shop listens
      value: { $concat: [ http://, { $get_input: name } ] }
      note: { $get_input: name }
";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap().join("service.yaml");
    std::fs::write(&path, service).unwrap();
    let checked = check(&path, Overlay::default(), &Settings::default());
    let at = |text: &str| service.find(text).expect("in the template") as u32;
    let (function, text) = hover(&checked, at("$concat")).expect("a call");
    assert_eq!(function, "$concat");
    assert!(text.contains("evaluates to `\"http://web\"`"), "{text}");
    let file = checked.file(&checked.entry).unwrap();
    let argument = at("$get_input: name") + "$get_input: ".len() as u32;
    let occurrence = checked
        .index
        .occurrence_at(file, argument)
        .expect("a reference");
    assert_eq!(
        occurrence.target,
        Target::Template(Section::Input, "name".into())
    );
    // A keyname no definition has is reported, and the call under it still found.
    let note = at("note: ") + "note: ".len() as u32;
    let (function, _) = hover(&checked, note).expect("a call");
    assert_eq!(function, "$get_input");
    let output = checked
        .index
        .occurrence_at(file, at("url:"))
        .expect("a definition");
    assert_eq!(
        output.target,
        Target::Template(Section::Output, "url".into())
    );
}
