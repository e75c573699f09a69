//! A service template's group and policy templates, as a front end files them: the Simple
//! Profile's (A.7.5 Group definition, A.7.6 Policy definition; 1.0–1.3 alike, with a
//! policy's `triggers` from 1.1 on and a 1.0 group's `interfaces`) and TOSCA 2.0's (§16.2 Group Definition, §16.4 Policy Definition). Both are a
//! typed, named set of templates: a group's `members` are node templates, a policy's `targets`
//! node templates or groups.
//!
//! What is typed, and why the rest is not yet:
//!
//! - The keynames are read once, by the front end (`front::grouping`): each keyname either
//!   dialect defines for a group or a policy is a field. The grammar (`front::yaml`'s
//!   section tables) has reported a key the dialect does not define, so other keys are not
//!   kept; nor is a keyname of the other entity (a group's `targets`) read by the resolver.
//! - Each section is the [`Value`] it was written as: what is wrong with one (a `type` that is
//!   no string, `members` that are no list of names, a property of the wrong type) is reported
//!   by the resolver, which reads it against the types, where it always was.
//! - `triggers` stays the YAML node it was written as: a trigger's `condition` is read as a
//!   condition clause and its `action` as workflow activities, and those readers (the TOSCA
//!   2.0 clause checks in `resolve::tosca2_types`, `resolve::workflow_calls` and
//!   `resolve::workflow_inlines`) read workflows' activities and definitions' clauses too,
//!   which are YAML still, by keyname (`inline: { workflow, inputs }`), so they cannot read a
//!   `Value` through the keyname-free `model::tree::Tree`. It becomes a typed trigger with
//!   workflows, as `SubstitutionMappings::substitution_filter` waits for the filters.

use crate::source::Span;
use crate::yaml::Node;

use super::value::Value;

/// The keynames of a group or policy template across the dialects, in the order
/// [`Grouping::values`] walks them.
pub const KEYNAMES: &[&str] = &[
    "type",
    "description",
    "metadata",
    "properties",
    "attributes",
    "members",
    "targets",
    "interfaces",
    "triggers",
];

/// One group or policy template.
#[derive(Debug, Clone)]
pub struct Grouping {
    /// The template's name.
    pub name: String,
    /// Where its name is written.
    pub span: Span,
    /// Where its definition (the value under the name) is written.
    pub definition: Span,
    /// The definition is not a map: the grammar has reported it, and nothing of it is read
    /// (no `type` either), so it is not kept.
    pub not_a_map: bool,
    /// `type`, as written (the resolver reports one that is missing or not a name).
    pub type_name: Option<Value>,
    /// `description`, as written.
    pub description: Option<Value>,
    /// `metadata`, as written.
    pub metadata: Option<Value>,
    /// `properties`: property assignments, as written.
    pub properties: Option<Value>,
    /// `attributes` (a TOSCA 2.0 group's): attribute assignments, as written.
    pub attributes: Option<Value>,
    /// A group's `members`: the names of node templates, as written.
    pub members: Option<Value>,
    /// A policy's `targets`: the names of node templates and groups, as written.
    pub targets: Option<Value>,
    /// A Simple Profile 1.0 group's `interfaces`, as written (no reader gives them a meaning;
    /// the language server finds the calls in them).
    pub interfaces: Option<Value>,
    /// A policy's `triggers` (Simple Profile 1.1+, TOSCA 2.0), as written (see the module docs).
    pub triggers: Option<Node>,
}

impl Grouping {
    /// A template named `name` (written at `span`) whose definition is written at `definition`,
    /// with no keyname read yet.
    pub fn new(name: String, span: Span, definition: Span) -> Self {
        Grouping {
            name,
            span,
            definition,
            not_a_map: false,
            type_name: None,
            description: None,
            metadata: None,
            properties: None,
            attributes: None,
            members: None,
            targets: None,
            interfaces: None,
            triggers: None,
        }
    }

    /// The sections written as [`Value`]s (all but `triggers`), with their keynames, in the
    /// order of [`KEYNAMES`]. The language server and the resolver's index of calls walk them.
    pub fn values(&self) -> impl Iterator<Item = (&'static str, &Value)> {
        [
            ("type", &self.type_name),
            ("description", &self.description),
            ("metadata", &self.metadata),
            ("properties", &self.properties),
            ("attributes", &self.attributes),
            ("members", &self.members),
            ("targets", &self.targets),
            ("interfaces", &self.interfaces),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k, v.as_ref()?)))
    }
}
