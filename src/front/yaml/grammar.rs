//! Which keynames each entity may have, per dialect.
//!
//! These tables are the skeleton's grammar: keys outside them are reported and ignored. The
//! per-version rules (a 1.3 keyname in a 1.0 file is an error) belong to the full Simple Profile
//! and TOSCA 2.0 front ends, which refine these tables.

use crate::ir::Dialect;

pub const TOP_LEVEL_1X: &[&str] = &[
    "tosca_definitions_version",
    "tosca_default_namespace",
    "namespace",
    "metadata",
    "description",
    "imports",
    "dsl_definitions",
    "repositories",
    "artifact_types",
    "data_types",
    "capability_types",
    "interface_types",
    "relationship_types",
    "node_types",
    "group_types",
    "policy_types",
    "topology_template",
];

pub const TOP_LEVEL_2: &[&str] = &[
    "tosca_definitions_version",
    "description",
    "metadata",
    "dsl_definitions",
    "artifact_types",
    "data_types",
    "capability_types",
    "interface_types",
    "relationship_types",
    "node_types",
    "group_types",
    "policy_types",
    "repositories",
    "functions",
    "profile",
    "imports",
    "service_template",
];

pub const TOPOLOGY_1X: &[&str] = &[
    "description",
    "inputs",
    "node_templates",
    "relationship_templates",
    "groups",
    "policies",
    "outputs",
    "substitution_mappings",
    "workflows",
];

pub const TOPOLOGY_2: &[&str] = &[
    "description",
    "metadata",
    "inputs",
    "outputs",
    "node_templates",
    "relationship_templates",
    "groups",
    "policies",
    "workflows",
    "substitution_mappings",
];

pub const NODE_TEMPLATE: &[&str] = &[
    "type",
    "description",
    "metadata",
    "directives",
    "properties",
    "attributes",
    "requirements",
    "capabilities",
    "interfaces",
    "artifacts",
    "node_filter",
    "copy",
    "count",
];

pub const RELATIONSHIP_TEMPLATE: &[&str] = &[
    "type",
    "description",
    "metadata",
    "properties",
    "attributes",
    "interfaces",
    "copy",
];

pub const GROUP: &[&str] = &[
    "type",
    "description",
    "metadata",
    "properties",
    "attributes",
    "members",
    "interfaces",
];

pub const POLICY: &[&str] = &[
    "type",
    "description",
    "metadata",
    "properties",
    "targets",
    "triggers",
];

pub const PARAMETER: &[&str] = &[
    "type",
    "description",
    "value",
    "required",
    "default",
    "status",
    "constraints",
    "validation",
    "key_schema",
    "entry_schema",
    "metadata",
    "mapping",
    "external-schema",
];

pub const IMPORT_1X: &[&str] = &["file", "repository", "namespace_uri", "namespace_prefix"];
pub const IMPORT_2: &[&str] = &[
    "url",
    "profile",
    "repository",
    "namespace",
    "description",
    "metadata",
];

pub fn top_level(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Tosca2 => TOP_LEVEL_2,
        _ => TOP_LEVEL_1X,
    }
}

pub fn topology(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Tosca2 => TOPOLOGY_2,
        _ => TOPOLOGY_1X,
    }
}

pub fn import(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Tosca2 => IMPORT_2,
        _ => IMPORT_1X,
    }
}

/// The keyname that holds the service template in this dialect.
pub fn topology_key(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Tosca2 => "service_template",
        _ => "topology_template",
    }
}
