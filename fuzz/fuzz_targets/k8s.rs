//! A template through the Kubernetes backend: rules, templates, the lift-and-shift stacks and the
//! round trip through k8s-openapi, on any topology the resolver accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toscana::back::{Engine, builtin, kubernetes};
use toscana::limits::Limits;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (read, mut diags) = common::read_bytes("t.yaml", data);
    let Some(topology) = read.topology else {
        return;
    };
    if diags.has_errors() {
        return;
    }
    let mut sources = read.sources;
    let backend = Engine::load(
        builtin("kubernetes"),
        None,
        &mut sources,
        &Limits::default(),
        &mut diags,
    )
    .expect("the built-in backend loads");
    for ingress in [false, true] {
        let options = kubernetes::K8sOptions {
            namespace: Some("fuzz".into()),
            ingress,
            split: ingress,
        };
        let _ = kubernetes::render(
            &backend,
            toscana::ir::validate(&topology).expect("a resolved topology is valid"),
            &mut sources,
            &read.artifacts,
            &Limits::default(),
            &options,
            &mut diags,
        );
    }
});
