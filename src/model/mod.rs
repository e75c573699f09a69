//! What a front end hands the resolver: definitions and templates still by name, with spans.
//!
//! The model is dialect-neutral. Each front end checks its dialect's grammar (which keynames
//! exist where) and files what it read here; the resolver gives it meaning. What is typed so
//! far (`docs/architecture.md`, "The typed model": the descriptions, metadata, imports,
//! `substitution_mappings`, the group and policy templates, and the outputs) keeps a span on
//! every part; the rest still keeps its YAML nodes. Either way the resolver can point every
//! error at the text that caused it.

pub mod call;
pub mod definitions;
pub mod grouping;
pub mod literals;
pub mod names;
mod revision;
pub mod shape;
pub mod substitution;
pub mod tree;
pub mod value;

pub use literals::{ScalarUnit, Version};
pub use revision::Revision;
pub use value::{Text, Value};

use indexmap::IndexMap;

use crate::source::{FileId, Span};
use crate::yaml::Node;
use schemars::JsonSchema;
use serde::Serialize;

impl Model {
    /// The repository `name` means where it is written (in file `from`): in TOSCA 2.0 through
    /// that file's namespaces (the first, should two have the name), else by name.
    pub fn repository(&self, name: &str, from: FileId) -> Option<&Repository> {
        if self.dialect == Dialect::Tosca2 {
            let ids = self.namespaces.lookup_repository(name, from);
            return self.repositories.get(ids.first()?);
        }
        self.repositories.get(name)
    }
}

/// The dialect a topology was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// TOSCA Simple Profile in YAML 1.0–1.3 (and the NFV profile string).
    SimpleProfile,
    /// TOSCA 2.0.
    Tosca2,
    /// TOSCA 1.0 XML.
    Xml,
    /// Variability4TOSCA, resolved to a Simple Profile 1.3 template before reading.
    Variability,
}

/// The metadata key that marks a type a front end wrote for a name taken on trust (TOSCA 1.0
/// XML under `--quirk winery`): its definition was never read, so what it lacks is unknown
/// rather than absent, and the resolver does not call the types it spans complete.
pub const TAKEN_ON_TRUST: &str = "xml_taken_on_trust";

/// The built-in functions of the Simple Profile (1.0 Appendix B Functions and its later revisions),
/// recognised as single-key maps wherever a value is read.
pub const FUNCTIONS_1X: &[&str] = &[
    "get_input",
    "get_property",
    "get_attribute",
    "get_operation_output",
    "get_nodes_of_type",
    "get_artifact",
    "concat",
    "join",
    "token",
];

/// The kinds of TOSCA types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeKind {
    Artifact,
    Data,
    Capability,
    Interface,
    Relationship,
    Node,
    Group,
    Policy,
}

impl TypeKind {
    pub const ALL: [TypeKind; 8] = [
        TypeKind::Artifact,
        TypeKind::Data,
        TypeKind::Capability,
        TypeKind::Interface,
        TypeKind::Relationship,
        TypeKind::Node,
        TypeKind::Group,
        TypeKind::Policy,
    ];

    /// The top-level keyname that holds types of this kind (`node_types`).
    pub fn section(self) -> &'static str {
        match self {
            TypeKind::Artifact => "artifact_types",
            TypeKind::Data => "data_types",
            TypeKind::Capability => "capability_types",
            TypeKind::Interface => "interface_types",
            TypeKind::Relationship => "relationship_types",
            TypeKind::Node => "node_types",
            TypeKind::Group => "group_types",
            TypeKind::Policy => "policy_types",
        }
    }

    /// The kind whose types a top-level keyname holds (`node_types` → `Node`).
    pub fn of_section(key: &str) -> Option<TypeKind> {
        TypeKind::ALL.into_iter().find(|k| k.section() == key)
    }

    /// The word used in messages ("node type").
    pub fn noun(self) -> &'static str {
        match self {
            TypeKind::Artifact => "artifact type",
            TypeKind::Data => "data type",
            TypeKind::Capability => "capability type",
            TypeKind::Interface => "interface type",
            TypeKind::Relationship => "relationship type",
            TypeKind::Node => "node type",
            TypeKind::Group => "group type",
            TypeKind::Policy => "policy type",
        }
    }

    /// The prefix of the Simple Profile's normative names of this kind (`tosca.nodes.`).
    pub fn normative_prefix(self) -> &'static str {
        match self {
            TypeKind::Artifact => "tosca.artifacts.",
            TypeKind::Data => "tosca.datatypes.",
            TypeKind::Capability => "tosca.capabilities.",
            TypeKind::Interface => "tosca.interfaces.",
            TypeKind::Relationship => "tosca.relationships.",
            TypeKind::Node => "tosca.nodes.",
            TypeKind::Group => "tosca.groups.",
            TypeKind::Policy => "tosca.policies.",
        }
    }
}

/// One type definition.
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// The name as defined (its identity, the key in [`Model::types`], may be qualified).
    pub name: String,
    pub kind: TypeKind,
    /// The parent type's name and where it was written.
    pub derived_from: Option<(String, Span)>,
    /// The whole definition, as written.
    pub def: Node,
    /// The span of the type's name.
    pub span: Span,
}

/// A named entry of a template section: the name with its span, and the definition.
#[derive(Debug, Clone)]
pub struct Named {
    pub name: String,
    pub span: Span,
    pub def: Node,
}

/// A repository: where artifacts and imports with `repository:` come from.
#[derive(Debug, Clone)]
pub struct Repository {
    pub url: String,
    /// The span of the repository's name.
    pub span: Span,
    /// The span of its whole definition, to tell one definition read twice from two.
    pub definition: Span,
    /// The 1.x `credential`, a `tosca.datatypes.Credential` value (A.5.6.1 Keynames); TOSCA
    /// 2.0 repository definitions have none.
    pub credential: Option<Node>,
}

/// The service template (1.x `topology_template`, 2.0 `service_template`), sections in source
/// order.
#[derive(Debug, Clone, Default)]
pub struct TopologyTemplate {
    /// Where the service template (the value of `topology_template` / `service_template`)
    /// starts: the place of a diagnostic about the topology as a whole.
    pub span: Span,
    /// The `description`, when it is a scalar (the grammar reports one that is not).
    pub description: Option<Text>,
    pub inputs: Vec<Named>,
    pub node_templates: Vec<Named>,
    pub relationship_templates: Vec<Named>,
    /// The group templates, typed ([`grouping`]); their YAML nodes are not kept.
    pub groups: Vec<grouping::Grouping>,
    /// The policy templates, typed ([`grouping`]); their YAML nodes are not kept.
    pub policies: Vec<grouping::Grouping>,
    /// The outputs, typed ([`definitions`]); their YAML nodes are not kept.
    pub outputs: Vec<definitions::Entry>,
    pub workflows: Vec<Named>,
    /// The `substitution_mappings`, typed ([`substitution`]); the YAML node is not kept. Boxed:
    /// most templates have none, and the typed entity is ten times the size of a YAML node.
    pub substitution_mappings: Option<Box<substitution::SubstitutionMappings>>,
    /// TOSCA 2.0 `functions` written inside the service template: refinements of the
    /// definitions of the same name outside it, or new ones (§10.4 Function Definitions).
    pub functions: Vec<Named>,
}

/// Everything read from the entry file and its imports.
#[derive(Debug, Clone)]
pub struct Model {
    pub dialect: Dialect,
    /// The entry's `tosca_definitions_version`, as written.
    pub version: String,
    pub entry: FileId,
    /// Every file read, entry first, in the order they were read.
    pub files: Vec<FileId>,
    /// The entry's `description`, when it is a scalar (the grammar reports one that is not).
    pub description: Option<Text>,
    /// The entry's `metadata` (in the Simple Profile with the top-level `template_name`,
    /// `template_author` and `template_version` it stands for), as written.
    pub metadata: Option<Value>,
    /// Types of every kind by identity (the name, qualified in TOSCA 2.0 by profile or
    /// namespace, see [`names`]), in the order they were read.
    /// Hashed with foldhash: it is asked for type definitions several times per node template.
    pub types: IndexMap<(TypeKind, String), TypeDef, foldhash::fast::RandomState>,
    /// Repositories by identity (qualified like types in TOSCA 2.0; see [`Model::repository`]).
    pub repositories: IndexMap<String, Repository>,
    /// The entry's service template; imported files' templates are not merged (they describe
    /// other services).
    pub topology: Option<TopologyTemplate>,
    /// True when an import could not be followed (for instance a TOSCA 2.0 profile that is not
    /// available yet), so unknown type names may be defined there.
    pub incomplete_types: bool,
    /// Prefixes under which Simple Profile files were imported (`namespace_prefix`). Simple
    /// Profile files share one namespace, where `prefix:Type` is read as `Type`.
    pub namespace_prefixes: std::collections::BTreeSet<String>,
    /// The namespaces of TOSCA 2.0 files: what a name written in a file means there.
    pub namespaces: names::Namespaces,
    /// The custom function definitions (TOSCA 2.0 `functions`, §6.6 Function Definitions, §10.4
    /// Function Definitions) of every file read, outside any service template, by identity
    /// (qualified like types, see [`names`]); two different definitions of one identity are
    /// reported where they are read.
    pub functions: IndexMap<String, Named>,
    /// Whether `$in_range` is read as a built-in (`--quirk in-range`).
    pub in_range_function: bool,
    /// The longest derivation chain followed ([`crate::limits::Limits::max_type_depth`]), for
    /// every [`crate::resolve::types::Ancestry`] built on this model.
    pub max_type_depth: usize,
    /// Every import followed to a file, in the order followed. The language server links an
    /// import to its file with it, rather than parsing the importing files again.
    pub imports: Vec<Import>,
}

/// An import followed to a file.
#[derive(Debug, Clone)]
pub struct Import {
    /// The file or URL as written, the short form (`- types.yaml`) and the `file` (1.x) or
    /// `url` (2.0) keyname alike; `None` for an import that names neither (a TOSCA 2.0
    /// `profile`).
    pub written: Option<Text>,
    /// The file read.
    pub file: FileId,
}
