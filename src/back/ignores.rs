//! A rule's `ignore:`: the parts of the elements it takes that the backend leaves out on
//! purpose, each with the reason, so the not-translated ledger ([`super::engine::Ledger`]) does
//! not warn about them and the backend's documentation can list them.
//!
//! ```yaml
//! - match: { kind: node, type: tosca.nodes.Storage.BlockStorage }
//!   template: storage.yaml.tera
//!   ignore:
//!     properties:
//!       snapshot_id: "a claim is made empty; restoring a cloud snapshot is the storage class's business"
//!     capabilities:
//!       host.disk_size: "..."     # a capability's property, as `capability.property`
//!     requirements:
//!       dependency: "..."         # a requirement, by its name
//! ```
//!
//! A `skip` rule may have an `ignore:` too: what it lists is left out of the warning the
//! ledger gives about the elements the rule skips.
//!
//! The map is typed: its keys are the [`Part`]s the ledger accounts for, each a map from a key
//! name to a non-empty reason. Anything else is a `backend::rules` error at load, so a typo
//! (`propertes:`, a reason left out) never silently keeps a warning on or off.

use std::collections::BTreeMap;
use std::fmt;

use crate::diag::Diagnostics;
use crate::source::Span;
use crate::yaml::Node;

use super::rules::{check_keys, expect_map, shape};

/// A part of an element the ledger accounts for, by its name in `ignore:` and in warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// A property the node template (or the policy or group) assigns.
    Property,
    /// An attribute.
    Attribute,
    /// An artifact, by its name.
    Artifact,
    /// An operation with an implementation, as `Interface.operation` (`Standard.create`).
    Operation,
    /// A policy's trigger, by its name.
    Trigger,
    /// A property a node template assigns to one of its capabilities, as `capability.property`
    /// (`host.num_cpus`).
    Capability,
    /// A requirement a node template assigns that a relationship fulfils, by its name: used when
    /// the backend turns the relationship into something (see [`super::engine::Ledger`]).
    Requirement,
    /// An output's value: an output is translated as a whole or not at all. Not listed in
    /// `ignore:` (a rule that leaves every output out says why in its `skip:`).
    Value,
}

impl Part {
    /// Every part, in the order a warning lists them.
    pub const ALL: [Part; 8] = [
        Part::Property,
        Part::Attribute,
        Part::Capability,
        Part::Requirement,
        Part::Artifact,
        Part::Operation,
        Part::Trigger,
        Part::Value,
    ];

    /// The parts an `ignore:` may list.
    pub const IGNORABLE: [Part; 7] = [
        Part::Property,
        Part::Attribute,
        Part::Capability,
        Part::Requirement,
        Part::Artifact,
        Part::Operation,
        Part::Trigger,
    ];

    /// The key of `ignore:` that lists parts of this kind (`properties`).
    pub fn plural(self) -> &'static str {
        match self {
            Part::Property => "properties",
            Part::Attribute => "attributes",
            Part::Artifact => "artifacts",
            Part::Operation => "operations",
            Part::Trigger => "triggers",
            Part::Capability => "capabilities",
            Part::Requirement => "requirements",
            Part::Value => "values",
        }
    }

    /// How a warning names one (`property`).
    pub fn singular(self) -> &'static str {
        match self {
            Part::Property => "property",
            Part::Attribute => "attribute",
            Part::Artifact => "artifact",
            Part::Operation => "operation",
            Part::Trigger => "trigger",
            Part::Capability => "capability property",
            Part::Requirement => "requirement",
            Part::Value => "value",
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.singular())
    }
}

/// A rule's `ignore:`: per part, key name → the reason it is not translated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ignores {
    pub keys: BTreeMap<(Part, String), String>,
    /// Where each key name was written, for the check of names at load.
    pub spans: BTreeMap<(Part, String), Span>,
}

impl Ignores {
    /// Whether the rule leaves this key out on purpose.
    pub fn covers(&self, part: Part, key: &str) -> bool {
        self.keys.contains_key(&(part, key.to_string()))
    }

    /// Reads `ignore:`; `None` (with the errors in `diags`) when it is not a map of parts to maps
    /// of key names to reasons.
    pub(crate) fn parse(node: &Node, diags: &mut Diagnostics) -> Option<Ignores> {
        let map = expect_map(node, "`ignore`", diags)?;
        let plurals = Part::IGNORABLE.map(Part::plural);
        let mut ok = check_keys(map, &plurals, "`ignore`", diags);
        let mut ignores = Ignores::default();
        for part in Part::IGNORABLE {
            let Some(keys) = map.get(part.plural()) else {
                continue;
            };
            let what = format!("`ignore.{}`", part.plural());
            let Some(keys) = expect_map(keys, &what, diags) else {
                ok = false;
                continue;
            };
            for entry in keys.entries() {
                let (Some(key), Some(reason)) = (entry.key.as_str(), entry.value.as_str()) else {
                    diags.push(shape(
                        &entry.value,
                        &format!("an entry of {what}"),
                        format!(
                            "a {} name with the reason it is not translated (`name: \"why\"`)",
                            part.singular()
                        ),
                    ));
                    ok = false;
                    continue;
                };
                if reason.trim().is_empty() {
                    diags.push(shape(
                        &entry.value,
                        &format!("the reason for `{key}`"),
                        "a sentence saying why it is not translated",
                    ));
                    ok = false;
                    continue;
                }
                let id = (part, key.to_string());
                ignores.spans.insert(id.clone(), entry.key.span);
                ignores.keys.insert(id, reason.trim().to_string());
            }
        }
        ok.then_some(ignores)
    }
}
