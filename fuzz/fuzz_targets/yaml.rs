//! The YAML loader on any text: spans, aliases, merges and limits must never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toscana::diag::Diagnostics;
use toscana::limits::Limits;
use toscana::source::{Origin, SourceMap};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut sources = SourceMap::new();
    let file = sources.add("fuzz.yaml", Origin::Stdin, text);
    let mut diags = Diagnostics::with_cap(0);
    let _ = toscana::yaml::load(&sources, file, &fuzz_limits(), &mut diags);
});

/// Small budgets, so an input that grows without bound is stopped quickly by the limits.
fn fuzz_limits() -> Limits {
    Limits {
        max_alias_expansion: 10_000,
        ..Limits::default()
    }
}
