//! A template through the Terraform backend for each provider: rules, templates, expressions,
//! the layout pass and the in-process HCL parse, on any topology the resolver accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toscana::back::terraform::{self, Provider};
use toscana::back::{Backend, builtin};
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
    let limits = Limits::default();
    for provider in [Provider::Aws, Provider::Openstack, Provider::Kubernetes] {
        let backend = Backend::load(
            builtin(provider.backend_name()),
            None,
            &mut sources,
            &limits,
            &mut diags,
        )
        .expect("the built-in backend loads");
        let read_artifact = |a: &toscana::ir::Artifact| read.artifacts.read(a.path.as_deref(), a.repository.as_deref(), &limits);
        let _ = terraform::render(
            &backend,
            &topology,
            &sources,
            provider,
            &read_artifact,
            &mut diags,
        );
    }
});
