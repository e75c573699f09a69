//! Shared by the targets that go through the whole read pipeline: the bytes are written to a
//! file (the pipeline reads paths, as the command line does) in a folder of this process.

use std::path::PathBuf;

use toscana::diag::Diagnostics;
use toscana::limits::Limits;
use toscana::pipeline::{Read, ReadOptions, read};
use toscana::source::InputArg;

/// Writes `data` to `name` in this process's scratch folder and reads it like `toscana ir`.
pub fn read_bytes(name: &str, data: &[u8]) -> (Read, Diagnostics) {
    let dir = std::env::temp_dir().join(format!("toscana-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, data).expect("the scratch file is written");
    let mut diags = Diagnostics::with_cap(0);
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            limits: Limits {
                max_alias_expansion: 10_000,
                max_csar_bytes: 64 * 1024 * 1024,
                ..Limits::default()
            },
            unbound_inputs_are_errors: true,
            ..ReadOptions::default()
        },
        &mut diags,
    );
    (read, diags)
}
