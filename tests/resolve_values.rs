//! How values are read: where `get_input` binds and where it stays a call.

use toscana::diag::Diagnostics;
use toscana::ir::Value;
use toscana::pipeline::{ReadOptions, read};
use toscana::source::InputArg;

#[test]
fn a_workflow_get_input_names_the_workflow_input_and_stays_a_call() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wf.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  inputs:\n    size: { type: integer, default: 2 }\n  node_templates:\n    s:\n      type: Compute\n  workflows:\n    scale:\n      inputs:\n        location: { type: string }\n      steps:\n        one:\n          target: s\n          activities:\n            - inline: { get_input: location }\n",
    )
    .unwrap();
    let mut diags = Diagnostics::new();
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    assert!(!diags.has_errors(), "{:?}", diags.finish());
    let workflow = &read.topology.unwrap().workflows[0];
    let Value::Map(definition) = &workflow.definition else {
        panic!("a map")
    };
    let text = serde_json::to_string(&definition["steps"]).unwrap();
    assert!(
        text.contains(r#""function":"get_input""#) && text.contains("location"),
        "{text}"
    );
}
