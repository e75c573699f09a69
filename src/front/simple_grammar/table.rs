//! The tables of the Simple Profile 1.x grammar: each entity's keynames, the version each
//! appeared in, and what its value holds. [`super`] walks a file with them; `front::yaml` checks
//! what it reads against [`keynames`].

use crate::model::Revision;

/// What a keyname's value holds, as far as this walk goes.
#[derive(Clone, Copy)]
pub(super) enum Sub {
    /// A value this module does not look into.
    Leaf,
    /// One entity (or its short form, a scalar).
    One(E),
    /// A map of names to entities.
    Defs(E),
    /// A list of single-entry maps `{ name: entity }` (a map is tolerated too).
    ListDefs(E),
}

/// The entities of a 1.x file this module knows the keynames of.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum E {
    File,
    /// An import in its long form (`{file: ..., repository: ...}`).
    Import,
    DataType,
    ArtifactType,
    CapabilityType,
    InterfaceType,
    RelationshipType,
    NodeType,
    GroupType,
    PolicyType,
    Property,
    Attribute,
    /// An operation or interface input in a type: a property definition if it has a `type`,
    /// else a value.
    Input,
    Schema,
    CapabilityDef,
    RequirementDef,
    RelationshipDef,
    InterfaceDef,
    Operation,
    Implementation,
    ArtifactDef,
    Topology,
    TopologyParameter,
    NodeTemplate,
    RequirementAssignment,
    RelationshipAssignment,
    CapabilityAssignment,
    InterfaceAssignment,
    OperationAssignment,
    RelationshipTemplate,
    Group,
    Policy,
    /// An imperative workflow (1.1 and later).
    Workflow,
    WorkflowStep,
    Substitution,
}

use Revision::{Tosca2, V1_0, V1_1, V1_2, V1_3};

pub(super) type Table = &'static [(&'static str, Revision, Sub)];

/// Keynames every type definition has.
pub(super) const TYPE_COMMON: Table = &[
    ("derived_from", V1_0, Sub::Leaf),
    ("version", V1_0, Sub::Leaf),
    ("description", V1_0, Sub::Leaf),
    ("metadata", V1_0, Sub::Leaf),
];

const PROPERTY: Table = &[
    ("type", V1_0, Sub::Leaf),
    ("description", V1_0, Sub::Leaf),
    ("required", V1_0, Sub::Leaf),
    ("default", V1_0, Sub::Leaf),
    ("status", V1_0, Sub::Leaf),
    ("constraints", V1_0, Sub::Leaf),
    ("entry_schema", V1_0, Sub::One(E::Schema)),
    ("key_schema", V1_3, Sub::One(E::Schema)),
    ("metadata", V1_0, Sub::Leaf),
    ("value", V1_3, Sub::Leaf),
];

const OPERATION: Table = &[
    ("description", V1_0, Sub::Leaf),
    ("implementation", V1_0, Sub::One(E::Implementation)),
    ("inputs", V1_0, Sub::Defs(E::Input)),
    ("outputs", V1_3, Sub::Leaf),
];

const IMPLEMENTATION: Table = &[
    ("primary", V1_0, Sub::Leaf),
    ("dependencies", V1_0, Sub::Leaf),
    ("timeout", V1_3, Sub::Leaf),
    ("operation_host", V1_3, Sub::Leaf),
];

/// The imperative workflow definition, brought by 1.1 (the 1.0 draft has none); 1.3 added its
/// `implementation` and `outputs`.
const WORKFLOW: Table = &[
    ("description", V1_1, Sub::Leaf),
    ("metadata", V1_1, Sub::Leaf),
    ("inputs", V1_1, Sub::Defs(E::Property)),
    ("preconditions", V1_1, Sub::Leaf),
    ("steps", V1_1, Sub::Defs(E::WorkflowStep)),
    ("implementation", V1_3, Sub::Leaf),
    ("outputs", V1_3, Sub::Leaf),
];

/// A workflow's step definition (1.1 and later).
const WORKFLOW_STEP: Table = &[
    ("target", V1_1, Sub::Leaf),
    ("target_relationship", V1_1, Sub::Leaf),
    ("operation_host", V1_1, Sub::Leaf),
    ("filter", V1_1, Sub::Leaf),
    ("activities", V1_1, Sub::Leaf),
    ("on_success", V1_1, Sub::Leaf),
    ("on_failure", V1_1, Sub::Leaf),
];

const INTERFACE_ASSIGNMENT: Table = &[
    ("type", V1_0, Sub::Leaf),
    ("description", V1_0, Sub::Leaf),
    ("inputs", V1_0, Sub::Leaf),
    ("operations", V1_3, Sub::Defs(E::OperationAssignment)),
    ("notifications", V1_3, Sub::Defs(E::OperationAssignment)),
];

/// What to do with a keyname an entity's table does not list.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Others {
    /// A warning: no version has it.
    Warn,
    /// Nothing here: `front::yaml` reports it as it reads the entity, against this table's
    /// keynames of every version ([`keynames`]), while this walk applies the version rules.
    Reported,
    /// It names an operation (interfaces before 1.3, and 1.3 files in the old shape).
    Operations(E),
}

impl E {
    /// The entity's own keynames (besides [`TYPE_COMMON`] for types), and what others mean.
    pub(super) fn table(self) -> (Table, Others) {
        use Sub::*;
        match self {
            E::File => (
                &[
                    ("tosca_definitions_version", V1_0, Leaf),
                    ("tosca_default_namespace", V1_0, Leaf),
                    ("namespace", V1_0, Leaf),
                    ("metadata", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("imports", V1_0, Leaf),
                    ("dsl_definitions", V1_0, Leaf),
                    ("repositories", V1_0, Leaf),
                    ("artifact_types", V1_0, Defs(E::ArtifactType)),
                    ("data_types", V1_0, Defs(E::DataType)),
                    ("capability_types", V1_0, Defs(E::CapabilityType)),
                    ("interface_types", V1_0, Defs(E::InterfaceType)),
                    ("relationship_types", V1_0, Defs(E::RelationshipType)),
                    ("node_types", V1_0, Defs(E::NodeType)),
                    ("group_types", V1_0, Defs(E::GroupType)),
                    ("policy_types", V1_0, Defs(E::PolicyType)),
                    ("topology_template", V1_0, One(E::Topology)),
                ],
                Others::Reported,
            ),
            E::Import => (
                &[
                    ("file", V1_0, Leaf),
                    ("repository", V1_0, Leaf),
                    ("namespace_uri", V1_0, Leaf),
                    ("namespace_prefix", V1_0, Leaf),
                ],
                Others::Reported,
            ),
            E::DataType => (
                &[
                    ("constraints", V1_0, Leaf),
                    ("properties", V1_0, Defs(E::Property)),
                    ("entry_schema", V1_0, One(E::Schema)),
                    ("key_schema", V1_3, One(E::Schema)),
                ],
                Others::Warn,
            ),
            E::ArtifactType => (
                &[
                    ("mime_type", V1_0, Leaf),
                    ("file_ext", V1_0, Leaf),
                    ("properties", V1_0, Defs(E::Property)),
                ],
                Others::Warn,
            ),
            E::CapabilityType => (
                &[
                    ("properties", V1_0, Defs(E::Property)),
                    ("attributes", V1_0, Defs(E::Attribute)),
                    ("valid_source_types", V1_0, Leaf),
                ],
                Others::Warn,
            ),
            E::InterfaceType => (
                &[
                    ("inputs", V1_0, Defs(E::Input)),
                    ("operations", V1_3, Defs(E::Operation)),
                    ("notifications", V1_3, Defs(E::Operation)),
                ],
                Others::Operations(E::Operation),
            ),
            E::RelationshipType => (
                &[
                    ("properties", V1_0, Defs(E::Property)),
                    ("attributes", V1_0, Defs(E::Attribute)),
                    ("interfaces", V1_0, Defs(E::InterfaceDef)),
                    ("valid_target_types", V1_0, Leaf),
                ],
                Others::Warn,
            ),
            E::NodeType => (
                &[
                    ("properties", V1_0, Defs(E::Property)),
                    ("attributes", V1_0, Defs(E::Attribute)),
                    ("requirements", V1_0, ListDefs(E::RequirementDef)),
                    ("capabilities", V1_0, Defs(E::CapabilityDef)),
                    ("interfaces", V1_0, Defs(E::InterfaceDef)),
                    ("artifacts", V1_0, Defs(E::ArtifactDef)),
                ],
                Others::Warn,
            ),
            E::GroupType => (
                &[
                    ("properties", V1_0, Defs(E::Property)),
                    ("attributes", V1_0, Defs(E::Attribute)),
                    ("members", V1_0, Leaf),
                    ("targets", V1_0, Leaf),
                    ("requirements", V1_0, ListDefs(E::RequirementDef)),
                    ("capabilities", V1_0, Defs(E::CapabilityDef)),
                    ("interfaces", V1_0, Defs(E::InterfaceDef)),
                ],
                Others::Warn,
            ),
            E::PolicyType => (
                &[
                    ("properties", V1_0, Defs(E::Property)),
                    ("targets", V1_0, Leaf),
                    ("triggers", V1_0, Leaf),
                ],
                Others::Warn,
            ),
            E::Property | E::Input => (PROPERTY, Others::Warn),
            E::Attribute => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("default", V1_0, Leaf),
                    ("status", V1_0, Leaf),
                    ("entry_schema", V1_0, One(E::Schema)),
                    ("key_schema", V1_3, One(E::Schema)),
                    ("metadata", V1_0, Leaf),
                ],
                Others::Warn,
            ),
            E::Schema => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("constraints", V1_0, Leaf),
                    ("entry_schema", V1_0, One(E::Schema)),
                    ("key_schema", V1_3, One(E::Schema)),
                ],
                Others::Warn,
            ),
            E::CapabilityDef => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("properties", V1_0, Defs(E::Property)),
                    ("attributes", V1_0, Defs(E::Attribute)),
                    ("valid_source_types", V1_0, Leaf),
                    ("occurrences", V1_0, Leaf),
                ],
                Others::Warn,
            ),
            E::RequirementDef => (
                &[
                    ("capability", V1_0, Leaf),
                    ("node", V1_0, Leaf),
                    ("relationship", V1_0, One(E::RelationshipDef)),
                    ("occurrences", V1_0, Leaf),
                    // Not a keyname, but the normative LoadBalancer writes it (SP-REQD-09).
                    ("description", V1_0, Leaf),
                    // Not allowed here (SP-REQD-08); the resolver says so.
                    ("node_filter", V1_0, Leaf),
                ],
                Others::Warn,
            ),
            E::RelationshipDef => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("properties", V1_0, Leaf),
                    ("interfaces", V1_0, Defs(E::InterfaceDef)),
                ],
                Others::Warn,
            ),
            E::InterfaceDef => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("inputs", V1_0, Defs(E::Input)),
                    ("operations", V1_3, Defs(E::Operation)),
                    ("notifications", V1_3, Defs(E::Operation)),
                ],
                Others::Operations(E::Operation),
            ),
            E::Operation => (OPERATION, Others::Warn),
            E::Implementation => (IMPLEMENTATION, Others::Warn),
            E::ArtifactDef => (
                &[
                    ("type", V1_0, Leaf),
                    ("file", V1_0, Leaf),
                    ("repository", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("deploy_path", V1_0, Leaf),
                    // The 1.0 drafts' name for `file` (SP-ARTD-05).
                    ("implementation", V1_0, Leaf),
                    ("properties", V1_2, Leaf),
                    ("artifact_version", V1_3, Leaf),
                    ("checksum", V1_3, Leaf),
                    ("checksum_algorithm", V1_3, Leaf),
                ],
                Others::Warn,
            ),
            E::Topology => (
                &[
                    ("description", V1_0, Leaf),
                    ("inputs", V1_0, Defs(E::TopologyParameter)),
                    ("node_templates", V1_0, Defs(E::NodeTemplate)),
                    (
                        "relationship_templates",
                        V1_0,
                        Defs(E::RelationshipTemplate),
                    ),
                    ("groups", V1_0, Defs(E::Group)),
                    ("policies", V1_0, ListDefs(E::Policy)),
                    ("outputs", V1_0, Defs(E::TopologyParameter)),
                    ("substitution_mappings", V1_0, One(E::Substitution)),
                    ("workflows", V1_1, Defs(E::Workflow)),
                ],
                Others::Reported,
            ),
            E::TopologyParameter => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("value", V1_0, Leaf),
                    ("required", V1_0, Leaf),
                    ("default", V1_0, Leaf),
                    ("status", V1_0, Leaf),
                    ("constraints", V1_0, Leaf),
                    ("validation", Tosca2, Leaf),
                    ("key_schema", V1_3, Leaf),
                    ("entry_schema", V1_0, Leaf),
                    ("metadata", V1_0, Leaf),
                    ("mapping", V1_0, Leaf),
                    ("external-schema", V1_0, Leaf),
                ],
                Others::Reported,
            ),
            E::NodeTemplate => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("metadata", V1_0, Leaf),
                    ("directives", V1_0, Leaf),
                    ("properties", V1_0, Leaf),
                    ("attributes", V1_0, Leaf),
                    ("requirements", V1_0, ListDefs(E::RequirementAssignment)),
                    ("capabilities", V1_0, Defs(E::CapabilityAssignment)),
                    ("interfaces", V1_0, Defs(E::InterfaceAssignment)),
                    ("artifacts", V1_0, Defs(E::ArtifactDef)),
                    ("node_filter", V1_0, Leaf),
                    ("copy", V1_0, Leaf),
                    ("count", Tosca2, Leaf),
                ],
                Others::Reported,
            ),
            E::RequirementAssignment => (
                &[
                    ("relationship", V1_0, One(E::RelationshipAssignment)),
                    ("count", Tosca2, Leaf),
                    ("directives", Tosca2, Leaf),
                    ("optional", Tosca2, Leaf),
                    ("allocation", Tosca2, Leaf),
                ],
                Others::Reported,
            ),
            E::RelationshipAssignment => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("properties", V1_0, Leaf),
                    ("interfaces", V1_0, Defs(E::InterfaceAssignment)),
                ],
                Others::Warn,
            ),
            E::CapabilityAssignment => (
                &[
                    ("properties", V1_0, Leaf),
                    ("attributes", V1_0, Leaf),
                    ("occurrences", V1_0, Leaf),
                    ("directives", Tosca2, Leaf),
                ],
                Others::Warn,
            ),
            E::InterfaceAssignment => (
                INTERFACE_ASSIGNMENT,
                Others::Operations(E::OperationAssignment),
            ),
            E::OperationAssignment => (OPERATION, Others::Warn),
            E::RelationshipTemplate => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("metadata", V1_0, Leaf),
                    ("properties", V1_0, Leaf),
                    ("attributes", V1_0, Leaf),
                    ("interfaces", V1_0, Defs(E::InterfaceAssignment)),
                    ("copy", V1_0, Leaf),
                ],
                Others::Reported,
            ),
            E::Group => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("metadata", V1_0, Leaf),
                    ("properties", V1_0, Leaf),
                    ("attributes", V1_0, Leaf),
                    ("members", V1_0, Leaf),
                    ("interfaces", V1_0, Defs(E::InterfaceAssignment)),
                ],
                Others::Reported,
            ),
            E::Policy => (
                &[
                    ("type", V1_0, Leaf),
                    ("description", V1_0, Leaf),
                    ("metadata", V1_0, Leaf),
                    ("properties", V1_0, Leaf),
                    ("targets", V1_0, Leaf),
                    ("triggers", V1_0, Leaf),
                ],
                Others::Reported,
            ),
            E::Workflow => (WORKFLOW, Others::Warn),
            E::WorkflowStep => (WORKFLOW_STEP, Others::Warn),
            E::Substitution => (
                &[
                    ("properties", V1_0, Leaf),
                    ("attributes", V1_3, Leaf),
                    ("interfaces", V1_3, Leaf),
                    ("substitution_filter", V1_3, Leaf),
                ],
                Others::Reported,
            ),
        }
    }

    pub(super) fn is_type(self) -> bool {
        matches!(
            self,
            E::DataType
                | E::ArtifactType
                | E::CapabilityType
                | E::InterfaceType
                | E::RelationshipType
                | E::NodeType
                | E::GroupType
                | E::PolicyType
        )
    }

    pub(super) fn noun(self) -> &'static str {
        match self {
            E::File => "a TOSCA file",
            E::Import => "an import",
            E::DataType => "data type",
            E::ArtifactType => "artifact type",
            E::CapabilityType => "capability type",
            E::InterfaceType => "interface type",
            E::RelationshipType => "relationship type",
            E::NodeType => "node type",
            E::GroupType => "group type",
            E::PolicyType => "policy type",
            E::Property => "property definition",
            E::Attribute => "attribute definition",
            E::Input => "input definition",
            E::Schema => "schema definition",
            E::CapabilityDef => "capability definition",
            E::RequirementDef => "requirement definition",
            E::RelationshipDef => "relationship definition",
            E::InterfaceDef => "interface definition",
            E::Operation => "operation definition",
            E::Implementation => "implementation",
            E::ArtifactDef => "artifact definition",
            E::Topology => "`topology_template`",
            E::TopologyParameter => "parameter",
            E::NodeTemplate => "node template",
            E::RequirementAssignment => "requirement assignment",
            E::RelationshipAssignment => "relationship assignment",
            E::CapabilityAssignment => "capability assignment",
            E::InterfaceAssignment => "interface assignment",
            E::OperationAssignment => "operation assignment",
            E::RelationshipTemplate => "relationship template",
            E::Group => "group",
            E::Policy => "policy",
            E::Workflow => "workflow",
            E::WorkflowStep => "workflow step",
            E::Substitution => "`substitution_mappings`",
        }
    }
}

/// The keynames of `e` in every 1.x version, in the order of its table: what `front::yaml`
/// checks the entities it reads against (and lists in its message), the version rules being
/// this walk's. Made once per run and entity.
pub(crate) fn keynames(e: E) -> &'static [&'static str] {
    use std::sync::OnceLock;
    const ENTITIES: usize = E::Substitution as usize + 1; // the last variant
    static LISTS: [OnceLock<Vec<&'static str>>; ENTITIES] = [const { OnceLock::new() }; ENTITIES];
    LISTS[e as usize].get_or_init(|| {
        let (table, _) = e.table();
        let common: Table = if e.is_type() { TYPE_COMMON } else { &[] };
        table
            .iter()
            .chain(common)
            .map(|(name, _, _)| *name)
            .chain(read_with_a_warning(e).iter().copied())
            .collect()
    })
}

/// What the key at the end of a path of keys (from the top of a 1.x file) is, by the tables.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Place {
    /// A keyname of this entity.
    Keyname(E),
    /// A name the author chose (a node template's, a property's, an operation's).
    Name,
    /// Inside a value the tables do not look into.
    Unknown,
}

/// The place of a key written under `path` (the keys leading to its map), walking the tables
/// from the file down: for the language server's keyname hover and completion.
pub(crate) fn place(path: &[&str]) -> Place {
    // The entity whose map the walk is in, or `None` right after a map of names.
    let mut at = Some(E::File);
    let mut names_of = E::File;
    for key in path {
        let Some(entity) = at else {
            at = Some(names_of);
            continue;
        };
        let (table, others) = entity.table();
        let common: Table = if entity.is_type() { TYPE_COMMON } else { &[] };
        match table.iter().chain(common).find(|(name, ..)| name == key) {
            Some((_, _, Sub::One(next))) => at = Some(*next),
            Some((_, _, Sub::Defs(next) | Sub::ListDefs(next))) => {
                at = None;
                names_of = *next;
            }
            Some((_, _, Sub::Leaf)) => return Place::Unknown,
            None => match others {
                Others::Operations(operation) => at = Some(operation),
                _ => return Place::Unknown,
            },
        }
    }
    match at {
        Some(entity) => Place::Keyname(entity),
        None => Place::Name,
    }
}

/// The first version whose `e` has the keyname `key`, if any 1.x version (or TOSCA 2.0, for
/// the few keynames the table lists for it) does.
pub(crate) fn since(e: E, key: &str) -> Option<Revision> {
    let (table, _) = e.table();
    let common: Table = if e.is_type() { TYPE_COMMON } else { &[] };
    table
        .iter()
        .chain(common)
        .find(|(name, ..)| *name == key)
        .map(|(_, revision, _)| *revision)
}

/// Keynames the grammar does not list for entity `e` that are read with a warning where the
/// spec's own text writes them: the metadata keys A.9.3.2-4 show at the top level of a file
/// ([`super::rules::top_level_metadata`]), and `alias`, the 1.0 draft's name of a relationship
/// template's `copy` (`front::alias`).
fn read_with_a_warning(e: E) -> &'static [&'static str] {
    match e {
        E::File => &super::rules::TOP_LEVEL_METADATA,
        E::RelationshipTemplate => &["alias"],
        _ => &[],
    }
}
