//! The YAML loader on any text: spans, aliases, merges and limits must never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toscana::diag::Diagnostics;
use toscana::source::{Origin, SourceMap};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut sources = SourceMap::new();
    let file = sources.add("fuzz.yaml", Origin::Stdin, text);
    let mut diags = Diagnostics::with_cap(0);
    let limits = common::fuzz_limits();
    let _ = toscana::yaml::load(&sources, file, &limits, &mut diags);
    // Every diagnostic rendered, whatever line and column it points at.
    let mut out = Vec::new();
    let shown = diags.finish();
    toscana::diag::emit(
        &mut out,
        &shown,
        &sources,
        toscana::diag::MessageFormat::Human,
        true,
        limits.max_diagnostic_bytes,
    )
    .expect("writing to memory cannot fail");
});
