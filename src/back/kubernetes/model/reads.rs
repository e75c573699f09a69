//! How the model reads a node's content: through the not-translated ledger
//! ([`crate::back::Ledger`]), so that what it uses is recorded and the rest is reported.

use super::*;
use crate::back::ignores::Part;

impl<'a> Ctx<'a> {
    /// Property `name` of node `i`, recorded in the ledger as translated.
    pub(super) fn property(&self, i: usize, name: &str) -> Option<&'a Value> {
        self.ledger.property(self.topology, i, name)
    }

    /// Capability `name` of node `i`, every property the template wrote to it recorded as
    /// translated (a host's sizes, an endpoint's port, protocol and name).
    pub(super) fn capability(&self, i: usize, name: &str) -> Option<&'a crate::ir::Capability> {
        self.ledger.capability(self.topology, i, name)
    }

    /// Property `name` of relationship `ri`, recorded in the ledger as translated.
    pub(super) fn relationship_property(&self, ri: usize, name: &str) -> Option<&'a Value> {
        self.ledger
            .used(ElementKind::Relationship, ri, Part::Property, name);
        self.topology.relationships[ri].properties.get(name)
    }

    /// Records that the translation used `key` of `part` of node `i`.
    pub(super) fn used(&self, i: usize, part: Part, key: &str) {
        self.ledger.used(ElementKind::Node, i, part, key);
    }
}
