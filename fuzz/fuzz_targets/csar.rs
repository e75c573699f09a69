//! The CSAR reader on any bytes given as a `.csar`: zip parsing, entry checks, limits,
//! TOSCA.meta, and the templates inside.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let _ = common::read_bytes("t.csar", data);
});
