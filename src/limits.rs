//! Resource limits for hostile input.
//!
//! Every reader consults one `Limits` value so that a single place says how much work a file may
//! cause. Each limit has a default generous enough for real estates of services (the 100,000-node
//! benchmark fits) and small enough that an alias bomb, a zip bomb or an import loop ends with a
//! diagnostic instead of exhausting the machine.

use serde::Serialize;

/// Upper bounds on what one run will read. `Default` gives the documented defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Largest single input file, in bytes.
    pub max_file_bytes: u64,
    /// Deepest nesting of YAML collections.
    pub max_yaml_depth: usize,
    /// Most YAML nodes that alias expansion may produce in one document (billion-laughs guard).
    pub max_alias_expansion: usize,
    /// Longest single scalar, in bytes.
    pub max_scalar_bytes: usize,
    /// Most files read through imports in one run.
    pub max_imports: usize,
    /// Deepest chain of imports.
    pub max_import_depth: usize,
    /// Most entries a CSAR may hold.
    pub max_csar_entries: usize,
    /// Most bytes a CSAR may expand to.
    pub max_csar_bytes: u64,
    /// Largest ratio of uncompressed to compressed size for one CSAR entry.
    pub max_compression_ratio: u64,
    /// Most node templates in one topology.
    pub max_node_templates: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 256 * 1024 * 1024,
            max_yaml_depth: 256,
            max_alias_expansion: 1_000_000,
            max_scalar_bytes: 16 * 1024 * 1024,
            max_imports: 10_000,
            max_import_depth: 64,
            max_csar_entries: 100_000,
            max_csar_bytes: 1024 * 1024 * 1024,
            max_compression_ratio: 200,
            max_node_templates: 1_000_000,
        }
    }
}
