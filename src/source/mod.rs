//! Where bytes come from: files, directories, CSARs, standard input and imports mapped to local
//! files. Never the network.

mod map;

pub use map::{FileId, Origin, SourceFile, SourceMap, Span};
