//! Per-stage benchmarks on generated templates of growing size: the YAML loader, the resolver
//! alone (on a model the front end read once), the whole read side (sources, front end,
//! resolver) and each backend alone (on a topology read once). Compare the times across sizes
//! as ratios: 10× the nodes should cost about 10× the time, whatever the machine's noise. And
//! the embedded profile every run reads, replayed against scanned.
//!
//! `cargo bench --bench pipeline` (one stage: `cargo bench --bench pipeline -- resolve`)

use std::fmt::Write;

use toscana::back::{self, Engine};
use toscana::diag::Diagnostics;
use toscana::ir::Topology;
use toscana::limits::Limits;
use toscana::pipeline::{Read, ReadOptions, read};
use toscana::resolve::{self, Bindings};
use toscana::source::{ArtifactFiles, InputArg, Loader, Origin, SourceMap, SourceOptions};

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

/// What every run of a Simple Profile 1.3 file pays before its own text: the embedded profile
/// read from the events `build.rs` recorded (what a run does), against scanning its text again
/// (what it did before). The ratio is the startup saving.
#[divan::bench(args = ["replay", "scan"])]
fn profile_1_3(bencher: divan::Bencher, how: &str) {
    let files = toscana::profiles::simple_profile("tosca_simple_yaml_1_3").expect("embedded");
    let mut sources = SourceMap::new();
    let ids: Vec<_> = files
        .iter()
        .map(|f| sources.add(f.name, Origin::Builtin(f.name.to_string()), f.text))
        .collect();
    let limits = Limits::default();
    bencher.bench_local(|| {
        let mut diags = Diagnostics::new();
        let trees: Vec<_> = files
            .iter()
            .zip(&ids)
            .map(|(f, &id)| match how {
                "replay" => {
                    toscana::yaml::load_recorded(&sources, id, f.events, &limits, &mut diags)
                }
                _ => toscana::yaml::load(&sources, id, &limits, &mut diags),
            })
            .collect();
        assert!(trees.iter().all(Option::is_some) && diags.is_empty());
        trees
    });
}

/// Options that read the template of `stacks` from a file in a temporary folder (kept alive by
/// the returned guard).
fn read_options(stacks: usize) -> (tempfile::TempDir, ReadOptions) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("bench.yaml");
    std::fs::write(&path, template(stacks)).expect("writable temporary folder");
    let options = ReadOptions {
        input: Some(InputArg::Path(path)),
        ..ReadOptions::default()
    };
    (dir, options)
}

#[divan::bench(args = SIZES)]
fn read_to_ir(bencher: divan::Bencher, stacks: usize) {
    let (_dir, options) = read_options(stacks);
    bencher.bench_local(|| {
        let mut diags = Diagnostics::new();
        let read = read(&options, &mut diags);
        assert!(read.topology.is_some() && !diags.has_errors());
        read
    });
}

#[divan::bench(args = SIZES)]
fn resolve(bencher: divan::Bencher, stacks: usize) {
    let mut loader = Loader::new(SourceOptions::default());
    let limits = Limits::default();
    let mut diags = Diagnostics::new();
    let entry = loader.add_text("bench.yaml", Origin::Stdin, template(stacks));
    let model = toscana::front::read(&mut loader, entry, &limits, &mut diags).expect("a model");
    assert!(!diags.has_errors());
    let sources = loader.into_sources();
    let bindings = Bindings::new();
    let artifacts = ArtifactFiles::nowhere();
    bencher.bench_local(|| {
        // A run's own budget and pattern cache, as each run of `toscana` has.
        let ctx = resolve::Context {
            sources: &sources,
            limits: &limits,
            bindings: &bindings,
            csar: None,
            artifact_root: None,
            unbound_inputs_are_errors: false,
            inputs_stay_calls: false,
            report_open_requirements: false,
            artifact_files: &artifacts,
            patterns: resolve::patterns::Patterns::new(std::sync::Arc::new(
                toscana::limits::Budget::new(&limits),
            )),
        };
        let mut diags = Diagnostics::new();
        let topology = resolve::resolve(&model, &ctx, &mut diags);
        assert!(!diags.has_errors());
        topology
    });
}

/// The template read to its topology once, and a built-in backend loaded, for the backend
/// benchmarks.
fn read_for_backend(stacks: usize, backend: &str) -> (Topology, SourceMap, Engine) {
    let limits = Limits::default();
    let mut diags = Diagnostics::new();
    let (_dir, options) = read_options(stacks);
    let Read {
        topology,
        mut sources,
        ..
    } = read(&options, &mut diags);
    let builtin = back::builtin(backend).expect("a built-in backend");
    let backend = Engine::load(Some(builtin), None, &mut sources, &limits, &mut diags)
        .expect("the backend loads");
    assert!(!diags.has_errors());
    (topology.expect("a topology"), sources, backend)
}

#[divan::bench(args = SIZES)]
fn backend_k8s(bencher: divan::Bencher, stacks: usize) {
    let (topology, sources, backend) = read_for_backend(stacks, "kubernetes");
    let limits = Limits::default();
    let options = back::kubernetes::K8sOptions {
        split: true,
        ..Default::default()
    };
    bencher.bench_local(|| {
        let mut sources = sources.clone();
        let mut diags = Diagnostics::new();
        back::kubernetes::render(
            &backend,
            toscana::ir::validate(&topology).expect("a resolved topology is valid"),
            &mut sources,
            &ArtifactFiles::nowhere(),
            &limits,
            &options,
            &mut diags,
        )
    });
}

#[divan::bench(args = SIZES)]
fn backend_tf(bencher: divan::Bencher, stacks: usize) {
    let provider = back::terraform::Provider::default();
    let (topology, mut sources, backend) = read_for_backend(stacks, provider.backend_name());
    let no_files = |_: &toscana::ir::Artifact| Err("not read in benchmarks".to_string());
    let limits = toscana::limits::Limits::default();
    bencher.bench_local(|| {
        let mut diags = Diagnostics::new();
        back::terraform::render(
            &backend,
            toscana::ir::validate(&topology).expect("a resolved topology is valid"),
            &mut sources,
            provider,
            &no_files,
            None,
            &limits,
            &mut diags,
        )
    });
}

#[divan::bench(args = SIZES)]
fn backend_dot(bencher: divan::Bencher, stacks: usize) {
    let (topology, sources, backend) = read_for_backend(stacks, "graphviz");
    let options = back::graphviz::DotOptions::default();
    bencher.bench_local(|| {
        let mut diags = Diagnostics::new();
        back::graphviz::render(
            &backend,
            toscana::ir::validate(&topology).expect("a resolved topology is valid"),
            &sources,
            &options,
            &mut diags,
        )
    });
}
