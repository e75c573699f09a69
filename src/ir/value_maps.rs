//! The maps of values a node or relationship holds, for the passes that rewrite the function
//! calls in them: evaluating the calls whose value is known, renaming the nodes of a
//! substituting template, reading a substituted node's mapped attributes. One list for all of
//! them, so a pass cannot miss a place the others reach.

use indexmap::IndexMap;

use super::{Capability, Interface, Interfaces, Node, Relationship, Shared, Value};

impl Node {
    /// Every map of values of the node in which a call may be rewritten: its properties and
    /// attributes, each capability's properties and attributes, each interface's inputs and its
    /// operations' and notifications' inputs, and each artifact's properties. Operation outputs
    /// are not among them: they map results to attributes, they hold no values.
    ///
    /// A capability none of whose values holds a call is left out: every pass rewrites calls
    /// only, and so it stays shared with the other nodes of its type (see
    /// [`Node::capabilities`]); a capability with a call is unshared first.
    pub fn call_maps_mut(&mut self) -> Vec<&mut IndexMap<String, Value>> {
        let mut maps = vec![&mut self.properties, &mut self.attributes];
        for capability in self.capabilities.values_mut() {
            if !capability.has_call() {
                continue;
            }
            let capability = Shared::make_mut(capability);
            maps.push(&mut capability.properties);
            maps.push(&mut capability.attributes);
        }
        interface_maps(&mut self.interfaces, &mut maps);
        for artifact in self.artifacts.values_mut() {
            maps.push(&mut artifact.properties);
        }
        maps
    }

    /// [`Node::call_maps_mut`] without the maps `get_property` reads (the node's properties
    /// and each capability's), for an evaluation that settles those first, in the order their
    /// reads need: its attributes, each capability's attributes, its interfaces' inputs and
    /// its artifacts' properties. A capability without a call in its attributes stays shared.
    pub fn call_maps_beside_properties_mut(&mut self) -> Vec<&mut IndexMap<String, Value>> {
        let mut maps = vec![&mut self.attributes];
        for capability in self.capabilities.values_mut() {
            if map_has_call(&capability.attributes) {
                maps.push(&mut Shared::make_mut(capability).attributes);
            }
        }
        interface_maps(&mut self.interfaces, &mut maps);
        for artifact in self.artifacts.values_mut() {
            maps.push(&mut artifact.properties);
        }
        maps
    }
}

impl Relationship {
    /// Every map of values of the relationship: its properties and attributes, and its
    /// interfaces' inputs as for a node ([`Node::call_maps_mut`]).
    pub fn call_maps_mut(&mut self) -> Vec<&mut IndexMap<String, Value>> {
        let mut maps = vec![&mut self.properties, &mut self.attributes];
        interface_maps(&mut self.interfaces, &mut maps);
        maps
    }

    /// [`Relationship::call_maps_mut`] without its properties, which `get_property` reads (see
    /// [`Node::call_maps_beside_properties_mut`]).
    pub fn call_maps_beside_properties_mut(&mut self) -> Vec<&mut IndexMap<String, Value>> {
        let mut maps = vec![&mut self.attributes];
        interface_maps(&mut self.interfaces, &mut maps);
        maps
    }
}

/// The interfaces' maps of values, as [`Node::call_maps_mut`] gives them: a shared interface
/// without a call in them is left out, one with a call unshared first.
fn interface_maps<'a>(
    interfaces: &'a mut Interfaces,
    maps: &mut Vec<&'a mut IndexMap<String, Value>>,
) {
    for interface in interfaces.values_mut() {
        if !interface.has_call() {
            continue;
        }
        let interface = Shared::make_mut(interface);
        maps.push(&mut interface.inputs);
        for operation in interface
            .operations
            .values_mut()
            .chain(interface.notifications.values_mut())
        {
            maps.push(&mut operation.inputs);
        }
    }
}

/// Whether any value of `map` holds a call.
pub fn map_has_call(map: &IndexMap<String, Value>) -> bool {
    map.values().any(Value::has_call)
}

impl Capability {
    /// Whether any of its properties or attributes holds a call.
    pub fn has_call(&self) -> bool {
        map_has_call(&self.properties) || map_has_call(&self.attributes)
    }
}

impl Interface {
    /// Whether its inputs, or any of its operations' or notifications' inputs, hold a call.
    pub fn has_call(&self) -> bool {
        map_has_call(&self.inputs)
            || self
                .operations
                .values()
                .chain(self.notifications.values())
                .any(|op| map_has_call(&op.inputs))
    }
}
