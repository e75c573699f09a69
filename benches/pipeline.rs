//! Per-stage benchmarks of the read side: YAML loading and the whole read (sources, front end,
//! resolver) on generated templates of growing size. Compare the times across sizes as ratios:
//! 10× the nodes should cost about 10× the time, whatever the machine's noise.
//!
//! `cargo bench --bench pipeline`

use std::fmt::Write;

use toscana::diag::Diagnostics;
use toscana::limits::Limits;
use toscana::pipeline::{ReadOptions, read};
use toscana::source::{InputArg, Origin, SourceMap};

fn main() {
    divan::main();
}

const SIZES: &[usize] = &[100, 1_000, 10_000];

/// A Simple Profile 1.3 template with `stacks` compute + software pairs, each software hosted on
/// its compute and connected to the previous one, with inputs and functions in properties.
fn template(stacks: usize) -> String {
    let mut t = String::from(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n\
         node_types:\n  bench.App:\n    derived_from: tosca.nodes.SoftwareComponent\n    properties:\n      \
         port: { type: integer, default: 8080 }\n      name: { type: string }\n\
         topology_template:\n  inputs:\n    cpus: { type: integer, default: 2 }\n  node_templates:\n",
    );
    for i in 0..stacks {
        let _ = write!(
            t,
            "    server{i}:\n      type: tosca.nodes.Compute\n      capabilities:\n        host:\n          properties:\n            \
             num_cpus: {{ get_input: cpus }}\n            mem_size: 2 GB\n\
             \x20   app{i}:\n      type: bench.App\n      properties:\n        name: {{ concat: [ app-, \"{i}\" ] }}\n      requirements:\n        - host: server{i}\n"
        );
        if i > 0 {
            let _ = writeln!(t, "        - dependency: app{}", i - 1);
        }
    }
    t
}

#[divan::bench(args = SIZES)]
fn yaml_load(bencher: divan::Bencher, stacks: usize) {
    let mut sources = SourceMap::new();
    let file = sources.add("bench.yaml", Origin::Stdin, template(stacks));
    let limits = Limits::default();
    bencher.bench_local(|| {
        let mut diags = Diagnostics::new();
        let node = toscana::yaml::load(&sources, file, &limits, &mut diags);
        assert!(node.is_some() && !diags.has_errors());
        node
    });
}

#[divan::bench(args = SIZES)]
fn read_to_ir(bencher: divan::Bencher, stacks: usize) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("bench.yaml");
    std::fs::write(&path, template(stacks)).expect("writable temporary folder");
    let options = ReadOptions {
        input: Some(InputArg::Path(path)),
        ..ReadOptions::default()
    };
    bencher.bench_local(|| {
        let mut diags = Diagnostics::new();
        let read = read(&options, &mut diags);
        assert!(read.topology.is_some() && !diags.has_errors());
        read
    });
}
