//! A service template's `substitution_mappings`, as a front end files them (Simple Profile §12
//! Using node template substitution for model composition; TOSCA 2.0 §6.9.9 Substitution
//! Mappings, §15.1 Substitution Mapping): the node type the template substitutes and the
//! boundary that maps the node's properties, attributes, capabilities, requirements and
//! interfaces onto the template.
//!
//! What is typed, and why the rest is not yet:
//!
//! - The keynames are read once, by the front end: each section is a field, and a key no
//!   dialect's `substitution_mappings` defines is kept in [`SubstitutionMappings::unknown_keys`]
//!   for the resolver to report where it reported it before (in the order it always did).
//! - Capability and requirement mappings are expanded to one shape, [`BoundaryMapping`]: the
//!   map form and TOSCA 2.0's list of single-entry maps (§15.5 Requirement Mapping) alike, 1.3's
//!   `{ mapping: [node, name] }` unwrapped, and the TOSCA 2.0 requirement targets (a pair, a
//!   selectable node template, or a list of them) as [`Target`]s. Items of the wrong shape are
//!   kept for the resolver to report.
//! - Property, attribute and interface mappings are [`Value`]s: what one means depends on the
//!   reader (an input name, a TOSCA 2.0 `[CAPABILITY, ...]` key, a Simple Profile constant that
//!   selects the nodes a template substitutes), so each reader interprets the value it needs.
//! - `substitution_filter` stays the YAML node it was written as: the Simple Profile reads it
//!   as a node filter and TOSCA 2.0 as a condition clause, and both readers
//!   (`resolve::filters`, `resolve::constraints`, the TOSCA 2.0 clause checks) still take YAML;
//!   it becomes a typed filter with them, as `Repository::credential` waits for data types.

use crate::source::Span;
use crate::yaml::Node;

use super::value::{Text, Value};

/// The keynames of `substitution_mappings` across the dialects: the Simple Profile's (`node`
/// being 1.3's alternative to `node_type`), TOSCA 2.0's, and `description` and `metadata`.
pub const KEYNAMES: &[&str] = &[
    "node_type",
    "substitution_filter",
    "node",
    "properties",
    "attributes",
    "capabilities",
    "requirements",
    "interfaces",
    "description",
    "metadata",
];

/// One service template's `substitution_mappings`.
#[derive(Debug, Clone, Default)]
pub struct SubstitutionMappings {
    /// Where the mappings are written (the value of `substitution_mappings`).
    pub span: Span,
    /// The value as written when it is not a map (null included): the resolver reports its
    /// shape and reads nothing else.
    pub not_a_map: Option<Value>,
    /// The keys [`KEYNAMES`] does not list, and keys that are not strings, in source order.
    pub unknown_keys: Vec<Value>,
    /// The `node_type` as written (the resolver reports one that is missing or not a name).
    pub node_type: Option<Value>,
    /// The `substitution_filter`, as written (see the module docs).
    pub substitution_filter: Option<Node>,
    /// The property mappings (`properties`), as written.
    pub properties: Option<Value>,
    /// The attribute mappings (`attributes`), as written.
    pub attributes: Option<Value>,
    /// The capability mappings; empty when none are written.
    pub capabilities: BoundaryMappings,
    /// The requirement mappings; empty when none are written.
    pub requirements: BoundaryMappings,
    /// The interface mappings (`interfaces`: interface → operation → workflow), as written.
    pub interfaces: Option<Value>,
}

/// The mappings of a `capabilities` or `requirements` section. A section that is neither a map
/// nor (for requirements) a list has none.
#[derive(Debug, Clone, Default)]
pub struct BoundaryMappings {
    /// Each mapping, in source order.
    pub entries: Vec<BoundaryMapping>,
    /// The items of a requirements list that are not single-entry maps, in source order.
    pub malformed: Vec<Value>,
    /// The section as written when it is neither a map nor (for requirements) a list.
    pub not_a_section: Option<Value>,
}

/// One capability or requirement mapping.
#[derive(Debug, Clone)]
pub struct BoundaryMapping {
    /// The key as written: a name, or TOSCA 2.0's `[<requirement>, <count>]` (§15.5).
    pub key: Value,
    /// What it maps onto; `None` when the value has none of the forms its section allows.
    pub targets: Option<Vec<Target>>,
    /// The span of the value.
    pub at: Span,
}

/// What one capability or requirement mapping maps onto.
#[derive(Debug, Clone)]
pub enum Target {
    /// `[node template, capability or requirement]`.
    Pair(Text, Text),
    /// A selectable node template (a TOSCA 2.0 requirement mapped onto the node itself).
    Selectable(Text),
}

impl BoundaryMapping {
    /// The name the mapping is for: its key, or the first item of TOSCA 2.0's
    /// `[<requirement>, <count>]` key, whose count an orchestrator uses.
    pub fn name(&self) -> Option<&str> {
        self.key
            .scalar_text()
            .or_else(|| match self.key.as_list()? {
                [name, _count] => name.scalar_text(),
                _ => None,
            })
    }

    /// The count of a `[<requirement>, <count>]` key.
    pub fn count(&self) -> Option<&Value> {
        match self.key.as_list()? {
            [_, count] => Some(count),
            _ => None,
        }
    }
}
