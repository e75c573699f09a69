//! How the model reads a node's content: through the not-translated ledger
//! ([`crate::back::Ledger`]), so that what it uses is recorded and the rest is reported.

use super::*;
use crate::back::CapabilityReader;
use crate::back::ignores::Part;

impl<'a> Ctx<'a> {
    /// Property `name` of node `i`, recorded in the ledger as translated.
    pub(super) fn property(&self, i: usize, name: &str) -> Option<&'a Value> {
        self.ledger.property(self.topology, i, name)
    }

    /// Capability `name` of node `i`, each property recorded in the ledger as translated as
    /// it is read.
    pub(super) fn capability(&self, i: usize, name: &str) -> Option<CapabilityReader<'a, 'a>> {
        self.ledger.capability(self.topology, i, name)
    }

    /// The capability that sizes node `i` (`host`, else one with a `num_cpus`).
    pub(super) fn sizing_capability(&self, i: usize) -> Option<CapabilityReader<'a, 'a>> {
        let capabilities = &self.topology.nodes[i].capabilities;
        let (name, _) = capabilities.get_key_value("host").or_else(|| {
            capabilities
                .iter()
                .find(|(_, c)| c.properties.contains_key("num_cpus"))
        })?;
        self.capability(i, name)
    }

    /// The `port` of the first endpoint capability of node `i` that has one, recorded as
    /// translated.
    pub(super) fn first_endpoint_port(&self, i: usize) -> Option<i64> {
        let capabilities = &self.topology.nodes[i].capabilities;
        capabilities
            .iter()
            .filter(|(_, c)| is_endpoint(c))
            .find_map(|(name, _)| {
                let port = self.capability(i, name)?.get("port");
                port.and_then(super::super::values::integer)
            })
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
