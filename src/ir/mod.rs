//! The IR: the one normalized topology that every backend reads.
//!
//! Whatever the dialect (Simple Profile 1.x, TOSCA 2.0, TOSCA 1.0 XML, Variability4TOSCA), the
//! front ends and the resolver produce a [`Topology`]: arenas of nodes and relationships that
//! refer to each other by index ([`NodeId`], [`RelationshipId`], [`GroupId`]), values typed as
//! [`Value`], type ancestry as qualified names, and the source location of every element.
//! `toscana ir FILE` prints it as JSON; `docs/ir.schema.json` is its JSON Schema, generated from
//! these types by [`json_schema`] and kept current by a test.

pub mod eval;
mod exact;
mod family;
mod float;
mod function;
mod handles;
pub mod hosting;
pub mod order;
pub(crate) mod shared;
pub(crate) mod spans;
mod topology;
mod validate;
mod value;
mod value_maps;

pub use exact::clone_exact;
pub use family::{TypeKind, canonical, kind_of_uri, type_matches};
pub use float::float_text;
pub use function::Function;
pub use handles::{GroupId, NodeId, RelationshipId};
pub use hosting::{Hosting, is_hosting};
pub use shared::Shared;
pub use topology::*;
pub use validate::{Valid, validate};
pub use value::{Call, ScalarUnit, Value, Version, value_text};
pub use value_maps::map_has_call;

/// The JSON Schema of [`Topology`], pretty-printed with a trailing newline.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(Topology);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema always serialises");
    text.push('\n');
    text
}

/// The topology `yaml` reads to, through the whole pipeline: what the IR's own tests start from.
#[cfg(test)]
pub(crate) fn read_for_test(yaml: &str) -> Topology {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, yaml).unwrap();
    let options = crate::pipeline::ReadOptions {
        input: Some(crate::source::InputArg::Path(path)),
        ..crate::pipeline::ReadOptions::default()
    };
    let mut diags = crate::diag::Diagnostics::new();
    crate::pipeline::read(&options, &mut diags)
        .topology
        .unwrap()
}
