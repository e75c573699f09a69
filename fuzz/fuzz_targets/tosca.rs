//! The TOSCA YAML front end and resolver, from bytes to IR (every dialect the YAML front end
//! reads: Simple Profile 1.x, TOSCA 2.0), and the IR's JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (read, _diags) = common::read_bytes("t.yaml", data);
    if let Some(topology) = read.topology {
        serde_json::to_string(&topology).expect("the IR always serialises");
    }
});
