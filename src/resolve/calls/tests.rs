//! The evaluator as a node filter uses it: a requirement's filter judged in the scope of the
//! relationship it would make to each candidate (`Scope::Open`), where `SELF` is that
//! relationship.

use indexmap::IndexMap;

use super::{CallIndex, Evaluator, Functions, Graph, OpenRelationship, Scope};
use crate::diag::Diagnostics;
use crate::ir::{NodeId, Value};
use crate::limits::Limits;
use crate::resolve::patterns::Patterns;
use crate::resolve::types::Ancestry;
use crate::resolve::typing::Typing;
use crate::resolve::values::ValueReader;
use crate::resolve::{Context, resolve};
use crate::source::{ArtifactFiles, InputArg, Loader, SourceOptions};

const TEMPLATE: &str = r#"tosca_definitions_version: tosca_2_0
capability_types:
  Host:
    properties:
      num_cpus: { type: integer }
node_types:
  Compute:
    capabilities:
      host: { type: Host }
  App:
    requirements:
      - host:
          capability: Host
          node: Compute
          count_range: [ 0, 1 ]
service_template:
  node_templates:
    small:
      type: Compute
      capabilities: { host: { properties: { num_cpus: 2 } } }
    big:
      type: Compute
      capabilities: { host: { properties: { num_cpus: 16 } } }
    app:
      type: App
      requirements:
        - host:
            node_filter:
              $greater_or_equal: [ { $get_property: [ SELF, CAPABILITY, num_cpus ] }, 4 ]
"#;

#[test]
fn a_node_filter_is_judged_against_each_candidate() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, TEMPLATE).unwrap();
    let mut diags = Diagnostics::with_cap(0);
    let limits = Limits::default();
    let mut loader = Loader::new(SourceOptions {
        entry: None,
        map_url: Vec::new(),
        limits: limits.clone(),
        profile_paths: Vec::new(),
        ..SourceOptions::default()
    });
    let input = loader
        .open_input(&InputArg::Path(path), &mut diags)
        .unwrap();
    let model = crate::front::read(&mut loader, input.entry, &limits, &mut diags).unwrap();
    let (sources, _) = loader.into_parts(model.entry, None);
    let ctx = Context {
        sources: &sources,
        limits: &limits,
        bindings: &Default::default(),
        csar: None,
        artifact_root: None,
        unbound_inputs_are_errors: false,
        inputs_stay_calls: false,
        report_open_requirements: false,
        artifact_files: &ArtifactFiles::nowhere(),
        patterns: Patterns::default(),
    };
    let topology = resolve(&model, &ctx, &mut diags);
    assert!(!diags.has_errors(), "{:#?}", diags.finish());

    let reader = ValueReader {
        dialect: model.dialect,
        inputs: None,
        budget: None,
    };
    let mut ancestry = Ancestry::new(&model);
    let patterns = Patterns::default();
    let mut typing = Typing {
        model: &model,
        reader: &reader,
        ancestry: &mut ancestry,
        patterns: &patterns,
    };
    let functions = Functions::new(&model, &mut diags);
    let calls = CallIndex::new(&model);
    let graph = Graph::new(&model, &topology);
    let inputs = IndexMap::new();
    let mut evaluator = Evaluator::new(&mut typing, &graph, &functions, &calls, &inputs);

    // Fulfilment judged the candidates with this evaluator: the big one was chosen.
    let app = &topology.nodes[2];
    let chosen = app.requirements[0].relationship.expect("fulfilled");
    assert_eq!(
        topology.relationships[chosen.index()].target,
        NodeId::from_index(1)
    );
    let written = model.topology.as_ref().unwrap().node_templates[2]
        .def
        .as_map()
        .and_then(|m| m.get("requirements"))
        .and_then(|r| r.as_seq())
        .and_then(|r| r[0].as_map()?.get("host")?.as_map()?.get("node_filter"))
        .expect("a filter");
    let filter = reader.value(written, &mut diags);
    let judge = |evaluator: &mut Evaluator, target: usize, diags: &mut Diagnostics| {
        let scope = Scope::Open(Box::new(OpenRelationship {
            source: Some(NodeId::from_index(2)),
            target: Some(NodeId::from_index(target)),
            capability: Some("host".to_string()),
            ..Default::default()
        }));
        evaluator.evaluate(&filter, &scope, diags)
    };
    assert_eq!(judge(&mut evaluator, 0, &mut diags), Value::Boolean(false));
    assert_eq!(judge(&mut evaluator, 1, &mut diags), Value::Boolean(true));
    assert!(!diags.has_errors(), "{:#?}", diags.finish());
}
