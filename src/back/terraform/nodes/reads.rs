//! How the builder reads capabilities and relationship properties: through the not-translated
//! ledger ([`crate::back::Ledger`]), so that what it uses is recorded and the rest is reported.

use crate::back::CapabilityReader;
use crate::back::ElementKind;
use crate::back::ignores::Part;
use crate::ir::{NodeId, Value};

use super::Builder;

impl<'a> Builder<'a, '_> {
    /// Capability `name` of node `id`, each property recorded as translated as it is read.
    pub(super) fn capability(&self, id: NodeId, name: &str) -> Option<CapabilityReader<'a, 'a>> {
        self.ledger.capability(self.topology, id.index(), name)
    }

    /// Property `prop` of capability `cap` of node `id`, recorded as translated.
    pub(super) fn capability_property(
        &self,
        id: NodeId,
        cap: &str,
        prop: &str,
    ) -> Option<&'a Value> {
        self.ledger
            .capability_property(self.topology, id.index(), cap, prop)
    }

    /// Property `name` of relationship `ri`, recorded as translated.
    pub(super) fn relationship_property(&self, ri: usize, name: &str) -> Option<&'a Value> {
        self.ledger
            .used(ElementKind::Relationship, ri, Part::Property, name);
        self.topology.relationships[ri].properties.get(name)
    }
}
