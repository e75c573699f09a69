//! Where bytes come from: files, directories, CSARs, standard input and imports mapped to local
//! files. Never the network.
//!
//! The [`Loader`] is the only part of toscana that opens template files. It reads each location
//! once into the [`SourceMap`], checks that what it read is UTF-8 text of a sane size, checks a
//! CSAR whole before using any of it, and turns every import into a local file or a diagnostic
//! that says how to make it one. Nothing is read outside the template's root ([`confine`]).

// Failures are the cold path here and each becomes exactly one `Diagnostic`; boxing them would
// only add noise.
#![allow(clippy::result_large_err)]

mod artifacts;
mod confine;
mod csar;
mod imports;
mod loader;
mod meta;
mod overlay;
mod profile_path;
mod tar;
mod text;

pub use crate::span::{FileId, Origin, SourceFile, SourceMap, Span};
pub use artifacts::{ArtifactFiles, Missing};
pub use imports::ImportRef;
pub use loader::{Input, InputArg, Loader, ProfileLookup, SourceOptions};
pub use meta::CsarMeta;
pub use overlay::Overlay;

#[cfg(test)]
mod tests;
