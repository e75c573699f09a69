//! Events to tree. (To be written.)
use super::Node;
use crate::diag::Diagnostics;
use crate::limits::Limits;
use crate::source::{FileId, SourceMap};

/// Loads the single YAML document of `file`. Returns `None` when the file has no usable document;
/// every problem found goes into `diags`.
pub fn load(
    _sources: &SourceMap,
    _file: FileId,
    _limits: &Limits,
    _diags: &mut Diagnostics,
) -> Option<Node> {
    None
}
