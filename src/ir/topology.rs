//! The topology: arenas of nodes and relationships plus everything that refers to them.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;

use super::shared::Shared;
use super::value::Value;
use super::{GroupId, NodeId, RelationshipId};

pub use crate::model::Dialect;

/// A type and its ancestors, most specific first. Shared: every element of a type carries the
/// same list (a node's capabilities, relationships, interfaces), so each element holds a pointer
/// to the list its type chain made once instead of its own copy of every name.
pub type TypeNames = std::sync::Arc<[String]>;

/// A node's or relationship's interfaces by name. Each is shared like a capability (see
/// `Node::capabilities`): the interfaces a type defines are one value for every element of the
/// type until a template assigns to one, or a call in one is evaluated.
pub type Interfaces = IndexMap<String, Shared<Interface>>;

/// Where something was written: an index into [`SourceInfo::files`] and a 1-based line and
/// column. Kept so backends can point their warnings at the template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Location {
    pub file: usize,
    pub line: u32,
    pub column: u32,
}

/// What was read to make this topology.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SourceInfo {
    pub dialect: Dialect,
    /// The `tosca_definitions_version` as written (or the XML namespace).
    pub version: String,
    /// The entry file, as shown to the user.
    pub entry: String,
    /// Every file read (entry, imports, embedded profiles), as shown to the user; a
    /// [`Location::file`] indexes this list.
    pub files: Vec<String>,
    /// The CSAR's `TOSCA.meta` keys when the input was a CSAR, in file order.
    pub csar: Option<IndexMap<String, String>>,
}

/// The one normalized graph every backend reads.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Topology {
    pub source: SourceInfo,
    pub description: Option<String>,
    /// Template metadata (`template_name`, `template_author`, ...), in source order.
    pub metadata: IndexMap<String, Value>,
    /// Topology inputs, in source order, with their values where bound.
    pub inputs: Vec<Input>,
    pub nodes: Vec<Node>,
    pub relationships: Vec<Relationship>,
    pub groups: Vec<Group>,
    pub policies: Vec<Policy>,
    pub workflows: Vec<Workflow>,
    pub outputs: Vec<Output>,
    /// Present when this topology is a substitution for a node type.
    pub substitution: Option<Substitution>,
    /// The node templates that substituting templates replaced (`--substitute`, imported
    /// templates with `substitution_mappings`), each with the nodes that now realize it; left
    /// out of the JSON when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub substituted: Vec<Substituted>,
    /// Where the service template starts, for a diagnostic about the topology as a whole
    /// (nothing to translate); not part of the IR's JSON, which places only its elements.
    #[serde(skip)]
    #[schemars(skip)]
    pub location: Option<Location>,
}

/// A node template replaced by the topology of the service template that substitutes it. Its
/// nodes, relationships, groups and policies are in the topology under `<name>.<inner name>`;
/// the relationships to and from it were re-pointed at the inner nodes its substitution
/// mappings name.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Substituted {
    /// The substituted node template's name: the prefix of its expansion's names.
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    /// The substituting service template, as the file list names it.
    pub template: String,
    /// The nodes that realize it, in the substituting template's order.
    pub nodes: Vec<NodeId>,
    /// Attribute mappings (substituted node's attribute → output value), as data.
    pub attributes: IndexMap<String, Value>,
    pub location: Option<Location>,
}

/// A node template, with everything it inherited from its type already merged in.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Node {
    /// The template name (the XML `id`).
    pub name: String,
    /// The type as named in the template.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The type and its ancestors, most specific first, each fully qualified
    /// (`tosca.nodes.Compute`; TOSCA 2.0 types by their identity: a profile's as
    /// `profile:Name`, e.g. `org.oasis-open.simple:2.0:Compute`, one imported under a namespace
    /// as `namespace:Name`). Backends match rules on this.
    pub types: TypeNames,
    pub description: Option<String>,
    pub metadata: IndexMap<String, Value>,
    /// `select`, `substitute` and other directives, as written.
    pub directives: Vec<String>,
    /// Present when the node is not created but selected by an orchestrator from outside this
    /// topology (an inventory, another deployment): its directives try `select` before
    /// `create` (TOSCA 2.0 §7.2.1 Node Template Directives; the Simple Profile's
    /// `select`/`selectable`). Backends refer to such a node (a data source, an existing object)
    /// rather than create it.
    pub selection: Option<NodeSelection>,
    /// How many representations of this node to create: an integer (1 unless the template
    /// says otherwise), or a [`Value::Call`] when it depends on an unbound input. Kept
    /// symbolic: backends map it natively (replicas, Terraform `count`) or expand it.
    pub count: Value,
    /// In an expanded topology (`toscana ir --expand`), which representation of which node
    /// template this node is; `None` in the topology of templates.
    pub instance: Option<Instance>,
    /// Lower and upper bounds on instances where the dialect gives them (XML
    /// `minInstances`/`maxInstances`, a Scalable capability); `None` for unbounded.
    pub instances: Option<InstanceBounds>,
    /// Every property: the type's defaults with the template's own assignments merged in.
    pub properties: IndexMap<String, Value>,
    /// The names of the properties the template assigns itself, in the order written; the other
    /// entries of `properties` are defaults of its type. Diagrams always show these.
    pub assigned: Vec<String>,
    pub attributes: IndexMap<String, Value>,
    /// The names of the attributes the template assigns itself, in the order written; the
    /// other entries of `attributes` come from its type. Only the backends' not-translated
    /// ledger reads it (a value nobody wrote is never "dropped"), so the IR output leaves it out.
    #[serde(skip)]
    #[schemars(skip)]
    pub assigned_attributes: Vec<String>,
    // Shared: a capability the template leaves as its type defines it is one value for every
    // node of the type; writing to one (an assignment, a value evaluated into it) copies it
    // first ([`Shared::make_mut`]).
    pub capabilities: IndexMap<String, Shared<Capability>>,
    /// Requirement assignments in source order; names may repeat.
    pub requirements: Vec<Requirement>,
    pub interfaces: Interfaces,
    pub artifacts: IndexMap<String, Artifact>,
    pub location: Option<Location>,
}

impl Node {
    /// True when the node is only ever selected from outside the topology (its directives
    /// allow nothing after `select`): a translator creates nothing for it.
    pub fn only_selected(&self) -> bool {
        self.selection
            .as_ref()
            .is_some_and(|s| s.otherwise.is_empty())
    }
}

/// How a node with the `select` directive is selected.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct NodeSelection {
    /// The condition the selected node must meet: a TOSCA 2.0 condition clause in which `SELF`
    /// is the candidate node (§8.6 Node Filter Definition), checked against the node's type and
    /// evaluated as far as translation knows (inputs bound, pure functions over known values
    /// computed; what reads the candidate stays a call), or a Simple Profile filter of `properties`
    /// and `capabilities`, as written. `None` selects by the node's type alone.
    pub node_filter: Option<Value>,
    /// The directives tried when nothing is found to select (`substitute`, `create`), in
    /// order; empty when the node must be selected.
    pub otherwise: Vec<String>,
}

/// One representation of a node template in an expanded topology.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Instance {
    /// The node template it was created from.
    pub template: String,
    /// Its `$node_index`: 0 to the template's `count` − 1.
    pub index: u64,
}

/// Bounds on how many instances of a node may exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct InstanceBounds {
    pub min: u64,
    /// `None` means unbounded.
    pub max: Option<u64>,
}

/// A capability of a node, typed, with its property and attribute values.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Capability {
    /// The capability type; `None` when the definition lives in a type toscana could not read.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// The capability type and its ancestors, most specific first.
    pub types: TypeNames,
    pub properties: IndexMap<String, Value>,
    pub attributes: IndexMap<String, Value>,
    /// The names of the properties the node template assigns to this capability itself; the
    /// other entries of `properties` are defaults of its type. For the not-translated ledger
    /// only (see [`Node::assigned_attributes`]).
    #[serde(skip)]
    #[schemars(skip)]
    pub assigned: Vec<String>,
    pub location: Option<Location>,
}

/// One requirement assignment of a node and what fulfils it.
///
/// An assignment whose relationships go to representations of more than one node template (a
/// TOSCA 2.0 `count` spread over several templates that fit) appears once per target template,
/// each entry with its share of the `count`; a share left unfulfilled is one more entry without
/// a relationship.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Requirement {
    pub name: String,
    /// The relationship that fulfils it; `None` while it is dangling (left for an orchestrator
    /// to fulfil, or optional and unfulfilled).
    pub relationship: Option<RelationshipId>,
    /// How many relationships the assignment asks for from each representation of the node
    /// (TOSCA 2.0 `count`, default 1); a [`Value::Call`] when it depends on an unbound input.
    pub count: Value,
    /// TOSCA 2.0 `optional: true`: fulfilled if possible, and the topology is valid without it.
    pub optional: bool,
    /// True for an assignment the template does not write: TOSCA 2.0 creates one, from the
    /// definition, for each requirement whose `count_range` lower bound is above 0 and that the
    /// template does not assign (§8.5.4 Requirement Count).
    pub implicit: bool,
    /// `internal` / `external` (TOSCA 2.0): where targets are looked for, in order.
    pub directives: Vec<String>,
    /// Amounts the relationship allocates from properties of the target capability (TOSCA 2.0
    /// `allocation`), by property name.
    pub allocation: IndexMap<String, Value>,
    /// For a dangling requirement: the node type or template it asks for, as written.
    pub node: Option<String>,
    /// For a dangling requirement: the capability type or name it asks for, as written.
    pub capability: Option<String>,
    /// A node filter carried over as data for whoever fulfils the requirement.
    pub node_filter: Option<Value>,
    pub location: Option<Location>,
}

/// An edge from a requirement of one node to a capability of another.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Relationship {
    /// The relationship template's name, or `<source>.<requirement>[<index>]` when the
    /// requirement declared the relationship inline.
    pub name: String,
    pub source: NodeId,
    pub target: NodeId,
    /// The requirement of `source` this relationship fulfils.
    pub requirement: String,
    /// The capability of `target` it connects to, where known.
    pub capability: Option<String>,
    /// How many relationships of this kind each representation of `source` has, each to a
    /// different representation of `target` (TOSCA 2.0 `count` on the assignment, 1 by
    /// default); a [`Value::Call`] when it depends on an unbound input.
    pub count: Value,
    /// The representation of `target` it connects to, when the assignment names one
    /// (`node: [template, index]`): an integer, or an expression over `$node_index` and
    /// `$relationship_index` evaluated per representation.
    pub target_index: Option<Value>,
    /// Amounts allocated from properties of the target capability, by property name (TOSCA
    /// 2.0 `allocation`, §8.5.5 Capability Allocation).
    pub allocation: IndexMap<String, Value>,
    /// In an expanded topology, which template-level relationship this one represents and its
    /// `$relationship_index`; `None` in the topology of templates.
    pub instance: Option<RelationshipInstance>,
    /// The relationship type; empty when nothing read names one (a TOSCA 2.0 requirement whose
    /// definition is in a profile that is not available yet).
    #[serde(rename = "type")]
    pub type_name: String,
    /// The relationship type and its ancestors, most specific first.
    pub types: TypeNames,
    /// True when the type is the one the requirement's definition names (or, with no
    /// definition read, when the assignment names none): what a reader expects, so diagrams
    /// need not label it.
    pub default_type: bool,
    pub properties: IndexMap<String, Value>,
    /// The names of the properties the relationship template (or the inline relationship of
    /// the requirement) assigns itself; the other entries of `properties` are defaults of its
    /// type. For the not-translated ledger only (see [`Node::assigned_attributes`]).
    #[serde(skip)]
    #[schemars(skip)]
    pub assigned: Vec<String>,
    pub attributes: IndexMap<String, Value>,
    pub interfaces: Interfaces,
    pub location: Option<Location>,
    /// Where the relationship template it comes from is written (its name), when a
    /// requirement names one: what the backends say about the template's own content (its
    /// properties, its operations) belongs there, once, however many requirements use it. For
    /// the not-translated ledger only (see [`Node::assigned_attributes`]).
    #[serde(skip)]
    #[schemars(skip)]
    pub template_location: Option<Location>,
}

/// One representation of a relationship in an expanded topology.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RelationshipInstance {
    /// The name of the relationship in the topology of templates.
    pub of: String,
    /// Its `$relationship_index`: its place among the relationships its source representation
    /// has for the same requirement, from 0.
    pub index: u64,
}

/// An interface with its operations and notifications.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Interface {
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    pub types: TypeNames,
    /// Inputs shared by every operation of the interface.
    pub inputs: IndexMap<String, Value>,
    pub operations: IndexMap<String, Operation>,
    pub notifications: IndexMap<String, Operation>,
}

/// An operation (or notification): how it is implemented and what it is given.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Operation {
    pub description: Option<String>,
    // Boxed: most operations of a node are inherited without one (a lifecycle interface has
    // five), and inline it was two thirds of every operation's size.
    pub implementation: Option<Box<Implementation>>,
    pub inputs: IndexMap<String, Value>,
    /// Output mappings (TOSCA 2.0 `outputs`: attribute paths), carried as data; in a node
    /// template their paths are checked as `$get_attribute`'s are.
    pub outputs: IndexMap<String, Value>,
}

/// The artifacts that implement an operation.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Implementation {
    pub primary: Option<Artifact>,
    pub dependencies: Vec<Artifact>,
    /// Timeout in seconds, where given.
    pub timeout: Option<i64>,
    /// Where the operation runs (`SELF`, `HOST`, `SOURCE`, `TARGET`, ...), as written.
    pub operation_host: Option<String>,
}

/// A file (script, image, archive) a node or operation needs.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Artifact {
    /// The artifact's name; for an operation's inline implementation, the file as written.
    pub name: String,
    /// The artifact type as written; for an artifact written as a file alone (a short
    /// definition, an implementation naming a file), the identity of the type the file's
    /// extension tells through the artifact types' `file_ext`, or `None` when no type, or
    /// several unrelated ones, list it.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// The artifact type and its ancestors (identities), most specific first.
    pub types: TypeNames,
    /// The file as written in the template.
    pub file: String,
    /// The file resolved against where it was written, relative to the entry file's folder (or
    /// the CSAR root), `/`-separated; `None` when it lives in a repository.
    pub path: Option<String>,
    /// The repository's name and URL when the artifact comes from one.
    pub repository: Option<String>,
    pub repository_url: Option<String>,
    pub deploy_path: Option<String>,
    pub description: Option<String>,
    pub properties: IndexMap<String, Value>,
    pub checksum: Option<String>,
    pub checksum_algorithm: Option<String>,
    pub location: Option<Location>,
}

/// A group of nodes.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Group {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub types: TypeNames,
    pub description: Option<String>,
    pub metadata: IndexMap<String, Value>,
    pub members: Vec<NodeId>,
    pub properties: IndexMap<String, Value>,
    pub attributes: IndexMap<String, Value>,
    pub location: Option<Location>,
}

/// What a policy applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum PolicyTarget {
    Node(NodeId),
    Group(GroupId),
}

/// A policy (placement, scaling, update, or custom).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Policy {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub types: TypeNames,
    pub description: Option<String>,
    pub metadata: IndexMap<String, Value>,
    pub targets: Vec<PolicyTarget>,
    pub properties: IndexMap<String, Value>,
    /// Triggers, carried over as data.
    pub triggers: IndexMap<String, Value>,
    pub location: Option<Location>,
}

/// An imperative workflow, carried over as data: toscana translates topologies, not workflows.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Workflow {
    pub name: String,
    pub description: Option<String>,
    /// Inputs, preconditions, steps and the rest of the definition, as written.
    pub definition: Value,
    /// For a TOSCA 1.0 XML plan: the model's language URI and its reference or file.
    pub plan: Option<PlanModel>,
    pub location: Option<Location>,
}

/// A reference to a BPEL or BPMN model of a TOSCA 1.0 XML plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PlanModel {
    pub language: String,
    pub reference: Option<String>,
}

/// A topology input.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Input {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    pub description: Option<String>,
    pub required: bool,
    pub default: Option<Value>,
    /// The value given on the command line (`--inputs`, `--set`); `None` when unbound.
    pub value: Option<Value>,
    /// Constraints (1.x) as `{operator: argument}` maps, and TOSCA 2.0 `validation`, as data.
    pub constraints: Vec<Value>,
    pub validation: Option<Value>,
    pub metadata: IndexMap<String, Value>,
    /// True for inputs a backend must keep secret (typed or marked as such).
    pub sensitive: bool,
    /// What a list or map holds and the properties of a complex data type, when the type is
    /// not a primitive one; left out of the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<Schema>,
    pub location: Option<Location>,
}

/// The shape of a value beyond its type name, for backends that declare typed variables
/// (Terraform's `list(string)`, `object({...})`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Schema {
    /// The type as written (`list`, `string`, `my.datatypes.Contact`).
    #[serde(rename = "type")]
    pub type_name: String,
    /// A list's or map's `entry_schema`.
    pub entry: Option<Box<Schema>>,
    /// A complex data type's properties along its ancestry, the root type's first.
    pub properties: IndexMap<String, Schema>,
    /// False for a data type property with `required: false` or a default.
    pub required: bool,
}

/// A topology output.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Output {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    pub description: Option<String>,
    pub value: Value,
    pub location: Option<Location>,
}

/// The boundary a substitutable topology exposes as a node type.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Substitution {
    pub node_type: String,
    /// Property name of the substituted node → input name (or a value), as mapped.
    pub properties: IndexMap<String, Value>,
    pub attributes: IndexMap<String, Value>,
    pub capabilities: Vec<BoundaryMapping>,
    pub requirements: Vec<BoundaryMapping>,
    /// Interface operation → workflow name.
    pub interfaces: IndexMap<String, IndexMap<String, String>>,
    pub location: Option<Location>,
}

/// One capability or requirement of the boundary mapped onto an inner node.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct BoundaryMapping {
    /// The name on the substituted node type.
    pub name: String,
    /// The inner node that provides it.
    pub node: NodeId,
    /// The capability or requirement name on that node.
    pub target: String,
    /// TOSCA 2.0 `[requirement, count]` mappings (§15.5 Requirement Mapping): how many of the
    /// substituted node's assignments of the requirement this mapping takes (an integer, or
    /// `UNBOUNDED`); left out where the key is the plain name.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub count: Option<Value>,
    /// Which mapping entry it comes from: the pairs of one entry (`runs-on: [ [a, x], [b, y] ]`)
    /// share one assignment. Not part of the IR's JSON.
    #[serde(skip)]
    #[schemars(skip)]
    pub entry: usize,
}
