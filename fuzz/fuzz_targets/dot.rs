//! A template through the Graphviz backend: the rules, the templates and the diagram's
//! structure (hosting, groups, escaping) on any topology the resolver accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toscana::back::{Engine, builtin, graphviz};
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
        builtin("graphviz"),
        None,
        &mut sources,
        &Limits::default(),
        &mut diags,
    )
    .expect("the built-in backend loads");
    let _ = graphviz::render(
        &backend,
        toscana::ir::validate(&topology).expect("a resolved topology is valid"),
        &sources,
        &graphviz::DotOptions::default(),
        &mut diags,
    );
});
