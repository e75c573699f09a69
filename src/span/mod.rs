//! Spans and the files they point into: the [`SourceMap`] of every file a run read, each
//! [`Span`] a place in one of them, and how a diagnostic quotes that place ([`Snippet`], and
//! [`Clipped`] for lines too long to show whole).
//!
//! Every stage reports problems at spans, so this comes first, before [`crate::diag`]; the
//! [`crate::source`] stage fills the map (and re-exports its types, by which most code names
//! them).

mod clipped;
mod map;
mod snippet;

pub(crate) use clipped::{Clipped, shows_whole, visible};
pub use map::{FileId, Origin, SourceFile, SourceMap, Span};
pub(crate) use snippet::Snippet;
