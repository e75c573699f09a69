//! toscana reads TOSCA service templates and translates them into what other tools run:
//! Kubernetes manifests, Terraform HCL and Graphviz diagrams.
//!
//! # The pipeline
//!
//! ```text
//!  inputs ─► source ─► yaml ─► front ─► model ─► resolve ─► ir::Topology ─► back ─► files
//! ```
//!
//! Data flows one way, and each stage owns one question; each module uses only the stages
//! before it (`docs/architecture.md` draws them, `tests/architecture.rs` enforces it):
//!
//! - [`source`]: where bytes come from: files, directories, CSARs, standard input, and imports
//!   mapped to local files (never the network). Every file read lands in a
//!   [`source::SourceMap`], so any diagnostic can quote it.
//! - [`yaml`]: YAML 1.2 into a tree in which every key and value keeps its span, tag, style and
//!   text.
//! - [`front`]: the grammar of each dialect, from trees to the [`model`]: definitions and
//!   templates still by name.
//! - [`resolve`]: meaning: type ancestry, defaults, values and functions, requirements into
//!   relationships, groups, policies, outputs, substitution boundaries, and the expansion of
//!   nodes that another template substitutes (`--substitute`), named `<node>.<inner name>`.
//! - [`ir`]: the one normalized [`ir::Topology`] that every backend reads, documented field by
//!   field; `toscana ir` prints it as JSON.
//! - [`back`]: backends as mapping rules plus Tera templates, and atomic output.
//!
//! Every stage reports problems into one [`diag::Diagnostics`] and keeps going, so a run reports
//! everything at once; [`pipeline::read`] runs the read side in one call.
//!
//! # Example
//!
//! ```
//! use toscana::diag::Diagnostics;
//! use toscana::pipeline::{read, ReadOptions};
//! use toscana::source::InputArg;
//!
//! let options = ReadOptions {
//!     input: Some(InputArg::Path("examples/hello.yaml".into())),
//!     set: vec![("cpus".into(), "4".into())],
//!     ..ReadOptions::default()
//! };
//! let mut diags = Diagnostics::new();
//! let topology = read(&options, &mut diags).topology.expect("the example reads");
//! assert!(!diags.has_errors());
//!
//! // Nodes and relationships refer to each other by handles, which index the topology.
//! let app = topology.nodes.iter().find(|n| n.name == "app").unwrap();
//! let database = &topology[app.requirements[1].relationship.unwrap()];
//! assert_eq!(topology[database.target].name, "db");
//! assert_eq!(database.type_name, "tosca.relationships.ConnectsTo");
//! ```

pub mod back;
pub mod cli;
pub mod diag;
pub mod explain;
pub mod front;
pub(crate) mod hash;
pub mod ir;
pub mod limits;
pub mod lsp;
pub mod model;
pub mod pipeline;
pub mod profiles;
pub mod quirk;
pub mod resolve;
pub mod source;
pub mod span;
#[cfg(test)]
mod test_skip;
pub mod yaml;
