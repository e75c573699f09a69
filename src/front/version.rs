//! `tosca_definitions_version`: which dialect and grammar a file is written in.

use crate::ir::Dialect;

/// The versions toscana knows, as written in files, with their dialect.
pub const KNOWN_VERSIONS: &[(&str, Dialect)] = &[
    ("tosca_simple_yaml_1_0", Dialect::SimpleProfile),
    ("tosca_simple_yaml_1_0_0", Dialect::SimpleProfile),
    (
        "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0",
        Dialect::SimpleProfile,
    ),
    (
        "http://docs.oasis-open.org/tosca/simple/1.0",
        Dialect::SimpleProfile,
    ),
    ("tosca_simple_profile_for_nfv_1_0_0", Dialect::SimpleProfile),
    ("tosca_simple_yaml_1_1", Dialect::SimpleProfile),
    ("tosca_simple_yaml_1_2", Dialect::SimpleProfile),
    ("tosca_simple_yaml_1_3", Dialect::SimpleProfile),
    ("tosca_2_0", Dialect::Tosca2),
    ("tosca_variability_1_0", Dialect::Variability),
];

/// The dialect a `tosca_definitions_version` value names.
pub fn dialect_of(version: &str) -> Option<Dialect> {
    KNOWN_VERSIONS
        .iter()
        .find(|(v, _)| *v == version)
        .map(|(_, d)| *d)
}
