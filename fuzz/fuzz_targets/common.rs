//! Shared by the targets that go through the whole read pipeline: the bytes are written to a
//! file (the pipeline reads paths, as the command line does) in a folder of this process, read
//! under low limits (so an input that amplifies is stopped quickly), and every diagnostic is
//! rendered for people and for tools, as `toscana check` prints them.

// Each target uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;

use toscana::diag::{Diagnostics, MessageFormat, emit};
use toscana::limits::Limits;
use toscana::pipeline::{Read, ReadOptions, read};
use toscana::source::InputArg;

/// Small budgets, so an input that grows without bound is stopped quickly by the limits: a
/// limit that stops an input is a finding only if it stops it late.
pub fn fuzz_limits() -> Limits {
    Limits {
        max_alias_expansion: 10_000,
        max_alias_bytes: 1 << 20,
        max_yaml_nodes: 200_000,
        max_csar_bytes: 64 * 1024 * 1024,
        max_substituted_nodes: 1_000,
        max_representations: 10_000,
        max_computed_bytes: 4 << 20,
        max_regex_bytes: 32 << 20,
        max_diagnostic_bytes: 1 << 20,
        ..Limits::default()
    }
}

/// Writes `data` to `name` in this process's scratch folder, reads it like `toscana check`,
/// and renders the diagnostics in both formats.
pub fn read_bytes(name: &str, data: &[u8]) -> (Read, Diagnostics) {
    let dir = std::env::temp_dir().join(format!("toscana-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, data).expect("the scratch file is written");
    let limits = fuzz_limits();
    let mut diags = Diagnostics::with_cap(0);
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            limits: limits.clone(),
            unbound_inputs_are_errors: true,
            report_open_requirements: true,
            ..ReadOptions::default()
        },
        &mut diags,
    );
    let shown = diags.finish();
    for format in [MessageFormat::Human, MessageFormat::Json] {
        let mut out = Vec::new();
        emit(
            &mut out,
            &shown,
            &read.sources,
            format,
            format == MessageFormat::Human,
            limits.max_diagnostic_bytes,
        )
        .expect("writing to memory cannot fail");
        if format == MessageFormat::Json {
            for line in String::from_utf8(out).expect("JSON is UTF-8").lines() {
                serde_json::from_str::<serde_json::Value>(line).expect("each line is JSON");
            }
        }
    }
    (read, diags)
}
