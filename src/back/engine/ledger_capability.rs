//! How a backend's Rust reads one capability of a node through the not-translated ledger: key
//! by key, so that a capability property the template wrote and nothing read is warned
//! (`capability property host.disk_size`), however much else of the capability was used.

use indexmap::IndexMap;

use crate::ir::{Capability, Location, Topology, TypeNames, Value};

use super::super::ElementKind;
use super::super::ignores::Part;
use super::Ledger;

/// Capability `name` of node `node`, read through `ledger`: [`CapabilityReader::get`] records
/// the key it returns. Its type and place are free to look at: they are the type's and the
/// template's, not values the template assigned.
#[derive(Clone, Copy)]
pub struct CapabilityReader<'t, 'l> {
    name: &'t str,
    capability: &'t Capability,
    ledger: &'l Ledger,
    node: usize,
}

impl<'t, 'l> CapabilityReader<'t, 'l> {
    /// The capability's name in its node (`host`, `data_endpoint`).
    pub fn name(&self) -> &'t str {
        self.name
    }

    /// Property `key` of the capability, recorded as used.
    pub fn get(&self, key: &str) -> Option<&'t Value> {
        self.ledger.used(
            ElementKind::Node,
            self.node,
            Part::Capability,
            &format!("{}.{key}", self.name),
        );
        self.capability.properties.get(key)
    }

    /// Property `key` of the capability, not recorded: for a caller that looks at a value to
    /// decide whether it uses it, and then reads it with [`CapabilityReader::get`] if so.
    pub fn peek(&self, key: &str) -> Option<&'t Value> {
        self.capability.properties.get(key)
    }

    /// Every property of the capability, all recorded as used: for a caller that writes the
    /// capability out whole.
    pub fn properties(&self) -> &'t IndexMap<String, Value> {
        for key in &self.capability.assigned {
            self.get(key);
        }
        &self.capability.properties
    }

    /// Attribute `key` of the capability. Not recorded: the ledger accounts for the
    /// properties a template assigns a capability, and a capability attribute is the
    /// orchestrator's to set.
    pub fn attribute(&self, key: &str) -> Option<&'t Value> {
        self.capability.attributes.get(key)
    }

    /// The capability type and its ancestors, most specific first.
    pub fn types(&self) -> &'t TypeNames {
        &self.capability.types
    }

    /// Where the capability is written.
    pub fn location(&self) -> Option<Location> {
        self.capability.location
    }
}

impl Ledger {
    /// Capability `name` of node `node`, each property then recorded as it is read (see
    /// [`CapabilityReader`]).
    pub fn capability<'t, 'l>(
        &'l self,
        topology: &'t Topology,
        node: usize,
        name: &str,
    ) -> Option<CapabilityReader<'t, 'l>> {
        let (name, capability) = topology.nodes[node].capabilities.get_key_value(name)?;
        Some(CapabilityReader {
            name,
            capability,
            ledger: self,
            node,
        })
    }

    /// Property `key` of capability `capability` of node `node`, recorded as used.
    pub fn capability_property<'t>(
        &self,
        topology: &'t Topology,
        node: usize,
        capability: &str,
        key: &str,
    ) -> Option<&'t Value> {
        self.capability(topology, node, capability)?.get(key)
    }
}
