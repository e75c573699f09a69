//! Backends: mapping rules plus Tera templates, and the writer that puts their files on disk.
//!
//! A backend is data, not code. Its mapping file (`mapping.yaml`, format in
//! `backends/README.md`) lists ordered rules; each rule matches one kind of topology element
//! (node, relationship, group, policy, input, output), optionally by type ancestry through
//! [`crate::ir::type_matches`], and names the Tera template that renders it, into its own file or
//! into a named section that whole-topology documents collect. Built-in backends are embedded in
//! the binary ([`BuiltinBackend`]); `--backend-dir DIR` prepends rules and replaces templates, or
//! is a whole new backend by itself.
//!
//! The flow is: [`Engine::load`] (mapping and templates, every mistake a diagnostic with its
//! span) → [`Backend::render`] (the backend's own work over the whole topology, then
//! [`Engine::render`]: one rule per [`Element`], then the documents; deterministic) →
//! [`write_outputs`] (stdout, one file, or a folder written all-or-nothing). The CLI finds the
//! [`Backend`] in the [`registry`].

pub mod binds;
pub(crate) mod elements;
mod engine;
pub mod filters;
pub mod graphviz;
pub mod ignores;
pub mod images;
pub mod k8s_profile;
pub mod kubernetes;
pub mod meanings;
mod output;
mod policies;
pub mod registry;
mod rules;
pub mod shebang;
pub mod stack;
pub mod tera_values;
pub mod terraform;

pub use elements::{elements, topology_value};
pub use engine::{CapabilityReader, Engine, Ledger, Reader, RenderInput};
pub use output::{
    Destination, Shape, WriteReport, names_folder, recover, write_binary, write_outputs,
};
pub use registry::{Backend, Inputs};
pub use tera_values::{json_to_tera, to_tera};

use std::fmt;

use crate::source::Span;

/// What kind of topology element an [`Element`] is; a rule's `match.kind` names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElementKind {
    Node,
    Relationship,
    Group,
    Policy,
    Input,
    Output,
}

impl ElementKind {
    /// Every kind, in the order elements are usually listed.
    pub const ALL: [ElementKind; 6] = [
        ElementKind::Input,
        ElementKind::Node,
        ElementKind::Relationship,
        ElementKind::Group,
        ElementKind::Policy,
        ElementKind::Output,
    ];

    /// The name used in mapping files and messages: `node`, `relationship`, ….
    pub fn as_str(self) -> &'static str {
        match self {
            ElementKind::Node => "node",
            ElementKind::Relationship => "relationship",
            ElementKind::Group => "group",
            ElementKind::Policy => "policy",
            ElementKind::Input => "input",
            ElementKind::Output => "output",
        }
    }

    /// The kind of type definition this element's types are, for [`crate::ir::canonical`];
    /// `None` for inputs and outputs, which have no types.
    pub fn type_kind(self) -> Option<crate::ir::TypeKind> {
        use crate::ir::TypeKind;
        match self {
            ElementKind::Node => Some(TypeKind::Node),
            ElementKind::Relationship => Some(TypeKind::Relationship),
            ElementKind::Group => Some(TypeKind::Group),
            ElementKind::Policy => Some(TypeKind::Policy),
            ElementKind::Input | ElementKind::Output => None,
        }
    }

    /// The kind a mapping file names, if it is one.
    pub fn parse(name: &str) -> Option<ElementKind> {
        ElementKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ElementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing a rule can match, built from the IR (see [`elements`]).
///
/// Rules see only this: the kind and types to choose a rule, the name and span for messages, and
/// the context for the template. Keeping it separate from the IR types lets backends be tested
/// with hand-made elements.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub kind: ElementKind,
    /// The template name (`db`), shown in messages.
    pub name: String,
    /// The type and its ancestors, most specific first; empty for inputs and outputs.
    pub types: Vec<String>,
    /// Where the element was written (a relationship: its relationship template, if any), for
    /// the warnings about it as a whole ("no rule; skipped", "does not translate").
    pub span: Option<Span>,
    /// The element's IR as templates see it, under `element`.
    pub context: ElementContext,
}

/// What a template sees as `element`.
#[derive(Debug, Clone, PartialEq)]
pub enum ElementContext {
    /// A value of its own (elements made by hand, as in tests).
    Value(tera::Value),
    /// Entry `index` of `topology[list]` (`nodes`, `relationships`, ...) with `index` added to
    /// it: what [`elements`] gives every element of a topology. It is made when the element is
    /// rendered and dropped after, so a render holds one such map at a time, not one per
    /// element.
    Part { list: &'static str, index: usize },
}

/// A backend compiled into the binary: its mapping file and templates as text.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinBackend {
    /// The backend's name (`k8s`), used in messages ("has no k8s rule").
    pub name: &'static str,
    /// The text of its `mapping.yaml`.
    pub mapping: &'static str,
    /// `(name, text)` of each template; rules refer to templates by this name, and a file of the
    /// same `/`-separated relative path in `--backend-dir` replaces it.
    pub templates: &'static [(&'static str, &'static str)],
}

/// The backends compiled into the binary, each built with `include_str!` from `backends/<name>/`
/// and `templates/<name>/`.
pub const BUILTINS: &[BuiltinBackend] = &[
    GRAPHVIZ,
    KUBERNETES,
    TERRAFORM_AWS,
    TERRAFORM_OPENSTACK,
    TERRAFORM_KUBERNETES,
];

/// Graphviz diagrams (`toscana dot`); its Rust side is [`graphviz`].
const GRAPHVIZ: BuiltinBackend = BuiltinBackend {
    name: "graphviz",
    mapping: include_str!("../../backends/graphviz/mapping.yaml"),
    templates: &[
        (
            "graph.dot.tera",
            include_str!("../../templates/graphviz/graph.dot.tera"),
        ),
        (
            "node.tera",
            include_str!("../../templates/graphviz/node.tera"),
        ),
        (
            "edge.tera",
            include_str!("../../templates/graphviz/edge.tera"),
        ),
        (
            "group.tera",
            include_str!("../../templates/graphviz/group.tera"),
        ),
        (
            "policy.tera",
            include_str!("../../templates/graphviz/policy.tera"),
        ),
        (
            "input.tera",
            include_str!("../../templates/graphviz/input.tera"),
        ),
        (
            "output.tera",
            include_str!("../../templates/graphviz/output.tera"),
        ),
    ],
};

/// Kubernetes manifests (`toscana k8s`); its Rust side is [`kubernetes`].
const KUBERNETES: BuiltinBackend = BuiltinBackend {
    name: "kubernetes",
    mapping: include_str!("../../backends/kubernetes/mapping.yaml"),
    templates: &[
        (
            "workload.yaml.tera",
            include_str!("../../templates/kubernetes/workload.yaml.tera"),
        ),
        (
            "storage.yaml.tera",
            include_str!("../../templates/kubernetes/storage.yaml.tera"),
        ),
        (
            "loadbalancer.yaml.tera",
            include_str!("../../templates/kubernetes/loadbalancer.yaml.tera"),
        ),
        (
            "networkpolicy.yaml.tera",
            include_str!("../../templates/kubernetes/networkpolicy.yaml.tera"),
        ),
        (
            "hpa.yaml.tera",
            include_str!("../../templates/kubernetes/hpa.yaml.tera"),
        ),
        (
            "nothing.tera",
            include_str!("../../templates/kubernetes/nothing.tera"),
        ),
        (
            "partials/metadata.tera",
            include_str!("../../templates/kubernetes/partials/metadata.tera"),
        ),
    ],
};

/// `include_str!` of `templates/terraform/<name>`, named `<name>`.
macro_rules! tf_templates {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../templates/terraform/", $name)))),*]
    };
}

/// The Terraform templates, shared by the providers' rules (`toscana tf`); their Rust side is
/// [`terraform`].
const TERRAFORM_TEMPLATES: &[(&str, &str)] = tf_templates![
    "none.tera",
    "variable.tera",
    "output.tera",
    "variables.tf.tera",
    "outputs.tf.tera",
    "terraform.tfvars.tera",
    "terraform.tfvars.example.tera",
    "aws/versions.tf.tera",
    "aws/providers.tf.tera",
    "aws/main.tf.tera",
    "aws/compute.tera",
    "aws/block_storage.tera",
    "aws/network.tera",
    "aws/port.tera",
    "aws/object_storage.tera",
    "aws/load_balancer.tera",
    "aws/placement.tera",
    "aws/security_group.tera",
    "openstack/versions.tf.tera",
    "openstack/providers.tf.tera",
    "openstack/main.tf.tera",
    "openstack/compute.tera",
    "openstack/block_storage.tera",
    "openstack/network.tera",
    "openstack/port.tera",
    "openstack/object_storage.tera",
    "openstack/load_balancer.tera",
    "openstack/placement.tera",
    "kubernetes/versions.tf.tera",
    "kubernetes/providers.tf.tera",
];

/// Terraform for AWS (`toscana tf --provider aws`).
const TERRAFORM_AWS: BuiltinBackend = BuiltinBackend {
    name: "terraform-aws",
    mapping: include_str!("../../backends/terraform/aws/mapping.yaml"),
    templates: TERRAFORM_TEMPLATES,
};

/// Terraform for OpenStack (`toscana tf --provider openstack`).
const TERRAFORM_OPENSTACK: BuiltinBackend = BuiltinBackend {
    name: "terraform-openstack",
    mapping: include_str!("../../backends/terraform/openstack/mapping.yaml"),
    templates: TERRAFORM_TEMPLATES,
};

/// Terraform for Kubernetes (`toscana tf --provider kubernetes`).
const TERRAFORM_KUBERNETES: BuiltinBackend = BuiltinBackend {
    name: "terraform-kubernetes",
    mapping: include_str!("../../backends/terraform/kubernetes/mapping.yaml"),
    templates: TERRAFORM_TEMPLATES,
};

/// The built-in backend of this name.
pub fn builtin(name: &str) -> Option<&'static BuiltinBackend> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// One rendered file: where it goes (relative to the output directory, `/`-separated) and what it
/// holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    pub path: String,
    pub contents: String,
}

/// The error that a translation has nothing to write, placed at the start of the service
/// template, since it is about the topology as a whole.
pub(crate) fn nothing_to_write(
    topology: &crate::ir::Topology,
    sources: &crate::source::SourceMap,
    message: impl Into<String>,
) -> crate::diag::Diagnostic {
    let mut error = crate::diag::Diagnostic::error(crate::diag::codes::OUTPUT_NOTHING, message);
    error.span = crate::ir::spans::topology_span(topology, sources);
    error
}
