//! The tables of the TOSCA 2.0 grammar: each entity's keynames with the shape of their values,
//! the mandatory ones, and the 1.x keynames 2.0 dropped. [`super`] walks a file with them.

/// The directives of a node template (§7.2 Node Template).
pub(super) const NODE_DIRECTIVES: &[&str] = &["create", "select", "substitute"];
/// The directives of a requirement or capability assignment: where targets or sources come
/// from (§8.5.2 Requirement Assignment Grammar, §8.3 Capability Assignment).
pub(super) const SCOPE_DIRECTIVES: &[&str] = &["internal", "external"];

/// What a keyname's value must be.
#[derive(Clone, Copy)]
pub(super) enum K {
    /// Anything: values, expressions, validation clauses, free-form blocks.
    Any,
    /// A YAML string.
    Str,
    /// `metadata`: a map of names to any YAML value (§5.3.1 metadata).
    Meta,
    /// A YAML boolean.
    Bool,
    /// A `version` (§9.1.2.3 version): `major.minor[.fix[.qualifier[-build]]]`.
    Version,
    /// A list of strings (`valid_*_types`, `members`, `targets`, `file_ext`).
    Names,
    /// A list of directives, each one of the values given (T2-FULFIL-09).
    Directives(&'static [&'static str]),
    /// A non-negative integer, or an expression.
    Count,
    /// A range of two non-negative integers, the upper one possibly `UNBOUNDED`.
    Range,
    /// A map (content free: `dsl_definitions`).
    FreeMap,
    /// A map of assignments or mappings whose entries later stages read (operation inputs and
    /// outputs, artifact properties, substitution mappings); empty (null) is an empty map.
    Assignments,
    /// A list whose entries later stages read (a step's `activities`).
    List,
    /// A list or a map: substitution `requirements`, "seq of requirement mappings" in §15.1's
    /// table and a map in the drafts that came before it.
    ListOrMap,
    /// A map of named definitions of one kind.
    Defs(D),
    /// A list of single-entry maps `{ name: definition }` of one kind.
    ListDefs(D),
    /// A schema definition: a type name or a map.
    Schema,
    /// A list of schema definitions (function arguments).
    Schemas,
}

/// Which way a parameter's value goes, seen from the orchestrator (§9.8 Parameter Definition):
/// `value` "May only be defined for outgoing parameters", `mapping` "May only be defined for
/// incoming parameters".
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Flow {
    /// Template inputs, operation and notification outputs.
    In,
    /// Template outputs, operation inputs (an interface's inputs are its operations').
    Out,
    /// A workflow's inputs: incoming for a workflow of steps, outgoing for an external one
    /// (judged by `resolve::workflow_inlines`, which sees the whole workflow).
    Either,
}

/// The kinds of definitions, each with its keyname table.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum D {
    ArtifactType,
    DataType,
    CapabilityType,
    InterfaceType,
    RelationshipType,
    NodeType,
    GroupType,
    PolicyType,
    Repository,
    Function,
    Signature,
    Import,
    /// A property definition in a type that defines it (type mandatory).
    Property,
    /// A property definition that may refine an inherited one (type optional, short form).
    PropertyRefinement,
    Attribute,
    AttributeRefinement,
    Parameter(Flow),
    CapabilityDef,
    /// A capability definition in a derived node type, which may refine an inherited one.
    CapabilityRefinement,
    RequirementDef,
    RelationshipDef,
    InterfaceDef,
    OperationDef,
    Implementation,
    ArtifactDef,
    Trigger,
    ServiceTemplate,
    NodeTemplate,
    RelationshipTemplate,
    Group,
    Policy,
    Workflow,
    Step,
    SubstitutionMappings,
    RequirementAssignment,
    RelationshipAssignment,
    CapabilityAssignment,
    InterfaceAssignment,
    OperationAssignment,
}

/// Keynames every type definition has (§6.4.1 Common Keynames in Type Definitions).
pub(super) const TYPE_COMMON: &[(&str, K)] = &[
    ("derived_from", K::Str),
    ("version", K::Version),
    ("metadata", K::Meta),
    ("description", K::Str),
];

pub(super) const PROPERTY_KEYS: &[(&str, K)] = &[
    ("type", K::Str),
    ("description", K::Str),
    ("metadata", K::Meta),
    ("required", K::Bool),
    ("default", K::Any),
    ("value", K::Any),
    ("validation", K::Any),
    ("key_schema", K::Schema),
    ("entry_schema", K::Schema),
    ("status", K::Str),
];

/// The keynames of an operation or notification assignment (§11.5 Operation Assignment, §11.7
/// Notification Assignment).
const OPERATION_ASSIGNMENT: &[(&str, K)] = &[
    ("implementation", K::Any),
    ("inputs", K::Assignments),
    ("outputs", K::Assignments),
];

/// Whether `key` is a keyname of a TOSCA 2.0 import (its own, or `description` and `metadata`,
/// which every 2.0 definition has).
pub fn is_import_keyname(key: &str) -> bool {
    matches!(key, "description" | "metadata") || D::Import.table().0.iter().any(|(k, _)| *k == key)
}

impl D {
    /// The keynames of this definition besides the common ones, with their shapes, and the
    /// mandatory ones. Sections are those of `tosca-2.0-csd07.md`.
    pub(super) fn table(self) -> (&'static [(&'static str, K)], &'static [&'static str]) {
        use K::*;
        match self {
            // §12.1 Artifact Type
            D::ArtifactType => (
                &[
                    ("mime_type", Str),
                    ("file_ext", Names),
                    ("properties", Defs(D::PropertyRefinement)),
                ],
                &[],
            ),
            // §9.2 Data Type and the scalar keynames of §9.1.2.2 scalar
            D::DataType => (
                &[
                    ("validation", Any),
                    ("properties", Defs(D::PropertyRefinement)),
                    ("key_schema", Schema),
                    ("entry_schema", Schema),
                    ("data_type", Str),
                    ("units", FreeMap),
                    ("canonical_unit", Str),
                    ("prefixes", FreeMap),
                ],
                &[],
            ),
            // §8.1 Capability Type
            D::CapabilityType => (
                &[
                    ("properties", Defs(D::PropertyRefinement)),
                    ("attributes", Defs(D::AttributeRefinement)),
                    ("valid_source_node_types", Names),
                    ("valid_relationship_types", Names),
                ],
                &[],
            ),
            // §11.1 Interface Type
            D::InterfaceType => (
                &[
                    ("inputs", Defs(D::Parameter(Flow::Out))),
                    ("operations", Defs(D::OperationDef)),
                    ("notifications", Defs(D::OperationDef)),
                ],
                &[],
            ),
            // §7.3 Relationship Type
            D::RelationshipType => (
                &[
                    ("properties", Defs(D::PropertyRefinement)),
                    ("attributes", Defs(D::AttributeRefinement)),
                    ("interfaces", Defs(D::InterfaceDef)),
                    ("valid_capability_types", Names),
                    ("valid_target_node_types", Names),
                    ("valid_source_node_types", Names),
                ],
                &[],
            ),
            // §7.1 Node Type
            D::NodeType => (
                &[
                    ("properties", Defs(D::PropertyRefinement)),
                    ("attributes", Defs(D::AttributeRefinement)),
                    ("capabilities", Defs(D::CapabilityRefinement)),
                    ("requirements", ListDefs(D::RequirementDef)),
                    ("interfaces", Defs(D::InterfaceDef)),
                    ("artifacts", Defs(D::ArtifactDef)),
                ],
                &[],
            ),
            // §16.1 Group Type
            D::GroupType => (
                &[
                    ("properties", Defs(D::PropertyRefinement)),
                    ("attributes", Defs(D::AttributeRefinement)),
                    ("members", Names),
                ],
                &[],
            ),
            // §16.3 Policy Type
            D::PolicyType => (
                &[
                    ("properties", Defs(D::PropertyRefinement)),
                    ("targets", Names),
                    ("triggers", Defs(D::Trigger)),
                ],
                &[],
            ),
            // §6.5 Repository Definitions
            D::Repository => (&[("url", Str)], &["url"]),
            // §10.4 Function Definitions
            D::Function => (&[("signatures", Any)], &["signatures"]),
            // §10.4 Function Definitions
            D::Signature => (
                &[
                    ("arguments", Schemas),
                    ("optional_arguments", Schemas),
                    ("variadic", Bool),
                    ("result", Schema),
                    ("implementation", Any),
                ],
                &[],
            ),
            // §6.8.1 Import Definitions
            D::Import => (
                &[
                    ("url", Str),
                    ("profile", Str),
                    ("repository", Str),
                    ("namespace", Str),
                ],
                &[],
            ),
            // §9.4 Property Definition
            D::Property => (PROPERTY_KEYS, &["type"]),
            D::PropertyRefinement => (PROPERTY_KEYS, &[]),
            // §9.6 Attribute Definition
            D::Attribute | D::AttributeRefinement => (
                &[
                    ("type", Str),
                    ("description", Str),
                    ("metadata", Meta),
                    ("default", Any),
                    ("validation", Any),
                    ("key_schema", Schema),
                    ("entry_schema", Schema),
                    ("status", Str),
                ],
                if matches!(self, D::Attribute) {
                    &["type"]
                } else {
                    &[]
                },
            ),
            // §9.8 Parameter Definition: every property keyname plus `mapping`, `type` optional
            D::Parameter(_) => (
                &[
                    ("type", Str),
                    ("description", Str),
                    ("metadata", Meta),
                    ("required", Bool),
                    ("default", Any),
                    ("value", Any),
                    ("mapping", Any),
                    ("validation", Any),
                    ("key_schema", Schema),
                    ("entry_schema", Schema),
                    ("status", Str),
                ],
                &[],
            ),
            // §8.2 Capability Definition
            D::CapabilityDef | D::CapabilityRefinement => (
                &[
                    ("type", Str),
                    ("properties", Defs(D::PropertyRefinement)),
                    ("attributes", Defs(D::AttributeRefinement)),
                    ("valid_source_node_types", Names),
                    ("valid_relationship_types", Names),
                ],
                if matches!(self, D::CapabilityDef) {
                    &["type"]
                } else {
                    &[]
                },
            ),
            // §8.4 Requirement Definition
            D::RequirementDef => (
                &[
                    ("relationship", Any),
                    ("node", Str),
                    ("capability", Str),
                    ("node_filter", Any),
                    ("count_range", Range),
                ],
                &["capability"],
            ),
            // §8.4 Requirement Definition
            D::RelationshipDef => (
                &[
                    ("type", Str),
                    ("properties", Defs(D::PropertyRefinement)),
                    ("attributes", Defs(D::AttributeRefinement)),
                    ("interfaces", Defs(D::InterfaceDef)),
                ],
                &["type"],
            ),
            // §11.2 Interface Definition
            D::InterfaceDef => (
                &[
                    ("type", Str),
                    ("inputs", Defs(D::Parameter(Flow::Out))),
                    ("operations", Defs(D::OperationDef)),
                    ("notifications", Defs(D::OperationDef)),
                ],
                &[],
            ),
            // §11.4 Operation Definition, §11.6 Notification Definition
            D::OperationDef => (
                &[
                    ("implementation", Any),
                    ("inputs", Defs(D::Parameter(Flow::Out))),
                    ("outputs", Defs(D::Parameter(Flow::In))),
                ],
                &[],
            ),
            // §11.8 Operation and Notification Implementations
            D::Implementation => (&[("primary", Any), ("dependencies", Any)], &[]),
            // §12.2 Artifact Definition
            D::ArtifactDef => (
                &[
                    ("type", Str),
                    ("file", Str),
                    ("repository", Str),
                    ("artifact_version", Str),
                    ("checksum", Str),
                    ("checksum_algorithm", Str),
                    ("properties", Assignments),
                ],
                &["type", "file"],
            ),
            // §16.5 Trigger Definition
            D::Trigger => (
                // `action`: "seq of activity definitions"
                &[("event", Str), ("condition", Any), ("action", List)],
                &["event", "action"],
            ),
            // §6.9.1 Service Template Grammar
            D::ServiceTemplate => (
                &[
                    ("inputs", Defs(D::Parameter(Flow::In))),
                    ("outputs", Defs(D::Parameter(Flow::Out))),
                    ("node_templates", Defs(D::NodeTemplate)),
                    ("relationship_templates", Defs(D::RelationshipTemplate)),
                    ("groups", Defs(D::Group)),
                    ("policies", ListDefs(D::Policy)),
                    ("substitution_mappings", Defs(D::SubstitutionMappings)),
                    ("workflows", Defs(D::Workflow)),
                    // Not in the keyname table of §6.9.1, but §10.4 Function Definitions describes
                    // function definitions inside a service template refining outer ones.
                    ("functions", Defs(D::Function)),
                ],
                &["node_templates"],
            ),
            // §7.2 Node Template
            D::NodeTemplate => (
                &[
                    ("type", Str),
                    ("directives", Directives(NODE_DIRECTIVES)),
                    ("properties", Any),
                    ("attributes", Any),
                    ("requirements", ListDefs(D::RequirementAssignment)),
                    ("capabilities", Defs(D::CapabilityAssignment)),
                    ("interfaces", Defs(D::InterfaceAssignment)),
                    ("artifacts", Defs(D::ArtifactDef)),
                    ("count", Count),
                    ("node_filter", Any),
                    ("copy", Str),
                ],
                &[],
            ),
            // §7.4 Relationship Template
            D::RelationshipTemplate => (
                &[
                    ("type", Str),
                    ("properties", Any),
                    ("attributes", Any),
                    ("interfaces", Defs(D::InterfaceAssignment)),
                    ("copy", Str),
                ],
                &[],
            ),
            // §16.2 Group Definition
            D::Group => (
                &[
                    ("type", Str),
                    ("properties", Any),
                    ("attributes", Any),
                    ("members", Names),
                ],
                &["type"],
            ),
            // §16.4 Policy Definition
            D::Policy => (
                &[
                    ("type", Str),
                    ("properties", Any),
                    ("targets", Names),
                    ("triggers", Defs(D::Trigger)),
                ],
                &["type"],
            ),
            // §13.2 Imperative Workflows
            D::Workflow => (
                &[
                    ("inputs", Defs(D::Parameter(Flow::Either))),
                    ("precondition", Any),
                    ("steps", Defs(D::Step)),
                    ("implementation", Any),
                    ("outputs", Any),
                ],
                &[],
            ),
            // §13.2.2 Workflow Step Definition
            D::Step => (
                &[
                    ("target", Str),
                    ("target_relationship", Str),
                    // "seq of validation clauses"
                    ("filter", List),
                    ("activities", List),
                    ("on_success", Any),
                    ("on_failure", Any),
                ],
                &["target", "activities"],
            ),
            // §15.1 Substitution Mapping
            D::SubstitutionMappings => (
                &[
                    ("node_type", Str),
                    ("substitution_filter", Any),
                    ("properties", Assignments),
                    ("attributes", Assignments),
                    ("capabilities", Assignments),
                    ("requirements", ListOrMap),
                    ("interfaces", Assignments),
                ],
                &["node_type"],
            ),
            // §8.5.1 Supported Keynames
            D::RequirementAssignment => (
                &[
                    ("node", Any),
                    ("capability", Str),
                    ("relationship", Any),
                    ("allocation", Any),
                    // The spelling of the spec's §14 examples, read with a warning (T2-ALLOC-04).
                    ("allocations", Any),
                    ("count", Count),
                    ("node_filter", Any),
                    ("directives", Directives(SCOPE_DIRECTIVES)),
                    ("optional", Bool),
                ],
                &[],
            ),
            // §8.5.1 Supported Keynames
            D::RelationshipAssignment => (
                &[
                    ("type", Str),
                    ("properties", Any),
                    ("attributes", Any),
                    ("interfaces", Defs(D::InterfaceAssignment)),
                ],
                &[],
            ),
            // §8.3 Capability Assignment
            D::CapabilityAssignment => (
                &[
                    ("properties", Any),
                    ("attributes", Any),
                    ("directives", Directives(SCOPE_DIRECTIVES)),
                ],
                &[],
            ),
            // §11.3 Interface Assignment
            D::InterfaceAssignment => (
                &[
                    ("inputs", Assignments),
                    ("operations", Defs(D::OperationAssignment)),
                    ("notifications", Defs(D::OperationAssignment)),
                ],
                &[],
            ),
            // §11.5 Operation Assignment, §11.7 Notification Assignment
            D::OperationAssignment => (OPERATION_ASSIGNMENT, &[]),
        }
    }

    /// What the definition is called in messages.
    pub(super) fn noun(self) -> &'static str {
        match self {
            D::ArtifactType => "artifact type",
            D::DataType => "data type",
            D::CapabilityType => "capability type",
            D::InterfaceType => "interface type",
            D::RelationshipType => "relationship type",
            D::NodeType => "node type",
            D::GroupType => "group type",
            D::PolicyType => "policy type",
            D::Repository => "repository",
            D::Function => "function",
            D::Signature => "function signature",
            D::Import => "import",
            D::Property | D::PropertyRefinement => "property definition",
            D::Attribute | D::AttributeRefinement => "attribute definition",
            D::Parameter(_) => "parameter definition",
            D::CapabilityDef | D::CapabilityRefinement => "capability definition",
            D::RequirementDef => "requirement definition",
            D::RelationshipDef => "relationship definition",
            D::InterfaceDef => "interface definition",
            D::OperationDef => "operation definition",
            D::Implementation => "implementation definition",
            D::ArtifactDef => "artifact definition",
            D::Trigger => "trigger definition",
            D::ServiceTemplate => "`service_template`",
            D::NodeTemplate => "node template",
            D::RelationshipTemplate => "relationship template",
            D::Group => "group",
            D::Policy => "policy",
            D::Workflow => "workflow",
            D::Step => "workflow step",
            D::SubstitutionMappings => "`substitution_mappings`",
            D::RequirementAssignment => "requirement assignment",
            D::RelationshipAssignment => "relationship assignment",
            D::CapabilityAssignment => "capability assignment",
            D::InterfaceAssignment => "interface assignment",
            D::OperationAssignment => "operation assignment",
        }
    }

    /// Whether this is a type definition (of any kind), whose keynames include the ones every
    /// type shares ([`TYPE_COMMON`]).
    pub(super) fn is_type(self) -> bool {
        matches!(
            self,
            D::ArtifactType
                | D::DataType
                | D::CapabilityType
                | D::InterfaceType
                | D::RelationshipType
                | D::NodeType
                | D::GroupType
                | D::PolicyType
        )
    }

    /// Whether this definition's names are type or function names, where `:` is reserved.
    pub(super) fn names_are_qualifiable(self) -> bool {
        self.is_type() || self == D::Function
    }
}

/// Keynames of TOSCA 1.3 that 2.0 replaced, with what replaced them. Files written for 2.0
/// drafts (the OASIS community's simple profile among them) still carry them; they are
/// ignored with a warning that says what to write instead, rather than rejected like a typo.
pub(super) const LEGACY: &[(&str, &str)] = &[
    (
        "constraints",
        "a `validation` clause, such as `validation: { $greater_or_equal: [ $value, 1 ] }` (§9.11 Validation Clause)",
    ),
    (
        "occurrences",
        "`count_range` on a requirement definition (§8.4 Requirement Definition); capabilities have no occurrences",
    ),
    (
        "valid_target_types",
        "`valid_capability_types` or `valid_target_node_types` (§7.3 Relationship Type)",
    ),
    (
        "valid_source_types",
        "`valid_source_node_types` (§8.1 Capability Type)",
    ),
];

/// Import keynames of TOSCA 1.3 that 2.0 renamed or dropped (T2-IMPORT-14): still errors in a
/// 2.0 import (it would not be read as meant), with what to write instead.
pub(super) const RENAMED_IMPORT_KEYS: &[(&str, &str)] = &[
    ("file", "`url: <file>` (§6.8.1 Import Definitions)"),
    (
        "namespace_prefix",
        "`namespace: <prefix>` (§6.8.1 Import Definitions)",
    ),
    (
        "namespace_uri",
        "nothing: a 2.0 namespace is only its prefix, `namespace: <prefix>` (§6.8.1 Import Definitions)",
    ),
];

/// The top-level keynames of a TOSCA 2.0 file (§6.1 Keynames), with their shapes.
pub(super) const TOP_LEVEL: &[(&str, K)] = &[
    ("tosca_definitions_version", K::Str),
    ("description", K::Str),
    ("metadata", K::Meta),
    ("dsl_definitions", K::FreeMap),
    ("artifact_types", K::Defs(D::ArtifactType)),
    ("data_types", K::Defs(D::DataType)),
    ("capability_types", K::Defs(D::CapabilityType)),
    ("interface_types", K::Defs(D::InterfaceType)),
    ("relationship_types", K::Defs(D::RelationshipType)),
    ("node_types", K::Defs(D::NodeType)),
    ("group_types", K::Defs(D::GroupType)),
    ("policy_types", K::Defs(D::PolicyType)),
    ("repositories", K::Defs(D::Repository)),
    ("functions", K::Defs(D::Function)),
    ("profile", K::Str),
    ("imports", K::Any),
    // Checked by `check_file`, and only in the entry file.
    ("service_template", K::Any),
];
