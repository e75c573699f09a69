//! The order in which translations (every backend) see a topology: one that does not depend on
//! the order the template was written in.
//!
//! TOSCA gives no meaning to the order of the entries of a map: node templates, relationship
//! templates, groups, inputs and outputs are maps keyed by name (Simple Profile 1.0 §A.8
//! Topology Template definition; TOSCA 2.0 §6.9 Service Template Definition), and so are a
//! template's properties, attributes, capabilities, interfaces, operations and artifacts. A
//! translation that followed the written order would give different bytes for the same
//! template written differently (a diagram's rank order, the order of Terraform variables, a
//! container's environment). So before any backend runs, [`canonical`] puts every such map in
//! name order, and the arenas that hold them (nodes, relationships, groups) in an order derived
//! from names alone, re-pointing every handle (which is why this is the IR's, not a backend's:
//! only the IR makes handles). The shuffle test of `tests/golden.rs` checks the result.
//!
//! A capability or interface that the elements of a type share ([`super::Shared`]) is put in
//! order once and handed, in order, to every element that shared it, so that the order does not
//! undo the sharing (a copy for each node was the largest part of what a translation held
//! beyond what `check` holds).
//!
//! A group's members and a policy's targets are written as lists but name a set (TOSCA 2.0
//! §16.2 Group Definition, §16.4 Policy Definition): a member that is a substituted node
//! stands for the nodes of its substituting template, in that template's written order, so
//! they too are put in the order of the nodes.
//!
//! What keeps its order, because the order is the template's meaning: lists (requirement
//! assignments, policies, which are a list in every version, workflow steps, constraints); interfaces and operations, whose order comes from their types
//! and which a backend may follow as the lifecycle's (only their inputs are put in name
//! order); and values (a map-valued property is data the template hands
//! on, as written). Relationships follow their source node and, within it, the order of its
//! requirement assignments, which is a list. Instances of one node template in an expanded
//! topology stay in `$node_index` order.

use indexmap::IndexMap;

use super::shared::ChangedOnce;
use super::{GroupId, Interface, NodeId, PolicyTarget, RelationshipId, Topology};

/// Puts `topology` in its canonical order, in place (see the module docs).
pub fn canonical(topology: &mut Topology) {
    topology.inputs.sort_by(|a, b| a.name.cmp(&b.name));
    topology.outputs.sort_by(|a, b| a.name.cmp(&b.name));
    order_nodes(topology);
    order_relationships(topology);
    order_groups(topology);
    set_orders(topology);
    let mut capabilities = ChangedOnce::default();
    let mut interfaces = ChangedOnce::default();
    for node in &mut topology.nodes {
        node.properties.sort_keys();
        node.attributes.sort_keys();
        node.assigned.sort();
        node.capabilities.sort_keys();
        for capability in node.capabilities.values_mut() {
            if !is_sorted(&capability.properties) || !is_sorted(&capability.attributes) {
                capabilities.change(capability, |capability| {
                    capability.properties.sort_keys();
                    capability.attributes.sort_keys();
                });
            }
        }
        order_interfaces(&mut node.interfaces, &mut interfaces);
        node.artifacts.sort_keys();
    }
    for relationship in &mut topology.relationships {
        relationship.properties.sort_keys();
        relationship.attributes.sort_keys();
        order_interfaces(&mut relationship.interfaces, &mut interfaces);
    }
    for group in &mut topology.groups {
        group.properties.sort_keys();
        group.attributes.sort_keys();
    }
    for policy in &mut topology.policies {
        policy.properties.sort_keys();
    }
}

fn is_sorted<V>(map: &IndexMap<String, V>) -> bool {
    map.keys().is_sorted()
}

/// The inputs of each interface and operation in name order. Interfaces and operations keep
/// the order their types give them, which a backend may follow as the lifecycle's
/// (`create` before `configure` before `start`). An interface shared by every element of its
/// type is put in order once, for all of them (`sorted`).
fn order_interfaces(interfaces: &mut super::Interfaces, sorted: &mut ChangedOnce<Interface>) {
    for interface in interfaces.values_mut() {
        let in_order = is_sorted(&interface.inputs)
            && interface
                .operations
                .values()
                .chain(interface.notifications.values())
                .all(|o| is_sorted(&o.inputs) && is_sorted(&o.outputs));
        if in_order {
            continue; // shared with every node of its type: copied only to change it
        }
        sorted.change(interface, |interface| {
            interface.inputs.sort_keys();
            for operation in interface
                .operations
                .values_mut()
                .chain(interface.notifications.values_mut())
            {
                operation.inputs.sort_keys();
                operation.outputs.sort_keys();
            }
        });
    }
}

/// Rearranges `arena` so that entry `new` is the old entry `order[new]`; where each old entry
/// went (`moved[old] = new`), or `None` when nothing moved.
fn permute<T>(arena: &mut Vec<T>, order: &[usize]) -> Option<Vec<usize>> {
    if order.iter().enumerate().all(|(new, old)| new == *old) {
        return None;
    }
    rearrange(arena, order);
    Some(inverse(order))
}

/// `order[new] = old`, inverted: `moved[old] = new`.
fn inverse(order: &[usize]) -> Vec<usize> {
    let mut moved = vec![0; order.len()];
    for (new, old) in order.iter().enumerate() {
        moved[*old] = new;
    }
    moved
}

/// The elements of `arena` rearranged so that entry `new` is the old entry `order[new]`.
fn rearrange<T>(arena: &mut Vec<T>, order: &[usize]) {
    let mut old: Vec<Option<T>> = std::mem::take(arena).into_iter().map(Some).collect();
    *arena = order
        .iter()
        .map(|i| {
            old[*i]
                .take()
                .expect("a permutation takes each element once")
        })
        .collect();
}

/// Nodes by name; the instances of one template of an expanded topology by `$node_index`.
fn order_nodes(topology: &mut Topology) {
    let mut order: Vec<usize> = (0..topology.nodes.len()).collect();
    order.sort_by(|a, b| {
        let key = |i: usize| {
            let node = &topology.nodes[i];
            match &node.instance {
                Some(instance) => (instance.template.as_str(), instance.index, &node.name),
                None => (node.name.as_str(), 0, &node.name),
            }
        };
        key(*a).cmp(&key(*b))
    });
    let Some(moved) = permute(&mut topology.nodes, &order) else {
        return;
    };
    let mut node = |id: &mut NodeId| *id = NodeId::from_index(moved[id.index()]);
    for relationship in &mut topology.relationships {
        node(&mut relationship.source);
        node(&mut relationship.target);
    }
    for group in &mut topology.groups {
        group.members.iter_mut().for_each(&mut node);
    }
    for policy in &mut topology.policies {
        for target in &mut policy.targets {
            if let PolicyTarget::Node(id) = target {
                node(id);
            }
        }
    }
    for substituted in &mut topology.substituted {
        substituted.nodes.iter_mut().for_each(&mut node);
        substituted.nodes.sort();
    }
    if let Some(substitution) = &mut topology.substitution {
        for mapping in substitution
            .capabilities
            .iter_mut()
            .chain(&mut substitution.requirements)
        {
            node(&mut mapping.node);
        }
    }
}

/// Group members and policy targets in the order of the nodes (and groups) they name.
fn set_orders(topology: &mut Topology) {
    for group in &mut topology.groups {
        group.members.sort();
    }
    for policy in &mut topology.policies {
        policy.targets.sort_by_key(|target| match target {
            PolicyTarget::Group(id) => (0, id.index()),
            PolicyTarget::Node(id) => (1, id.index()),
        });
    }
}

/// Relationships in the order of their source nodes and, within a node, of its requirement
/// assignments; any a requirement does not name, after them by name.
fn order_relationships(topology: &mut Topology) {
    let count = topology.relationships.len();
    let mut placed = vec![false; count];
    let mut order = Vec::with_capacity(count);
    for node in &topology.nodes {
        for requirement in &node.requirements {
            if let Some(id) = requirement.relationship
                && !placed[id.index()]
            {
                placed[id.index()] = true;
                order.push(id.index());
            }
        }
    }
    let mut rest: Vec<usize> = (0..count).filter(|i| !placed[*i]).collect();
    rest.sort_by(|a, b| {
        let name = |i: usize| &topology.relationships[i].name;
        name(*a).cmp(name(*b)).then(a.cmp(b))
    });
    order.extend(rest);
    let Some(moved) = permute(&mut topology.relationships, &order) else {
        return;
    };
    for node in &mut topology.nodes {
        for requirement in &mut node.requirements {
            if let Some(id) = &mut requirement.relationship {
                *id = RelationshipId::from_index(moved[id.index()]);
            }
        }
    }
}

/// Groups by name.
fn order_groups(topology: &mut Topology) {
    let mut order: Vec<usize> = (0..topology.groups.len()).collect();
    order.sort_by(|a, b| topology.groups[*a].name.cmp(&topology.groups[*b].name));
    let Some(moved) = permute(&mut topology.groups, &order) else {
        return;
    };
    for policy in &mut topology.policies {
        for target in &mut policy.targets {
            if let PolicyTarget::Group(id) = target {
                *id = GroupId::from_index(moved[id.index()]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::read_for_test as topology;

    /// A type whose capability and interface define their entries out of name order, and
    /// three nodes of it that assign none of them.
    const SHARING: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  Endpoint:
    derived_from: tosca.capabilities.Root
    properties:
      zone: { type: string, default: z }
      address: { type: string, default: a }
interface_types:
  Life:
    derived_from: tosca.interfaces.Root
    operations:
      deploy: {}
node_types:
  Service:
    derived_from: tosca.nodes.Root
    capabilities:
      endpoint: Endpoint
    interfaces:
      Life:
        type: Life
        inputs: { zone: z, address: a }
        operations:
          deploy: { inputs: { zone: z, address: a } }
topology_template:
  node_templates:
    c: { type: Service }
    b: { type: Service }
    a: { type: Service }
";

    fn same<T>(a: &T, b: &T) -> bool {
        std::ptr::eq(a, b)
    }

    fn endpoint(t: &Topology, node: usize) -> &crate::ir::Capability {
        &t.nodes[node].capabilities["endpoint"]
    }

    fn life(t: &Topology, node: usize) -> &Interface {
        &t.nodes[node].interfaces["Life"]
    }

    #[test]
    fn shared_parts_are_put_in_order_once_and_stay_shared() {
        let mut t = topology(SHARING);
        assert!(
            same(endpoint(&t, 0), endpoint(&t, 2)),
            "resolved, the type's part is shared"
        );
        assert!(same(life(&t, 0), life(&t, 2)));
        canonical(&mut t);
        for i in 0..3 {
            let keys: Vec<_> = endpoint(&t, i).properties.keys().collect();
            assert_eq!(keys, ["address", "zone"]);
            let keys: Vec<_> = life(&t, i).inputs.keys().collect();
            assert_eq!(keys, ["address", "zone"]);
            let keys: Vec<_> = life(&t, i).operations["deploy"].inputs.keys().collect();
            assert_eq!(keys, ["address", "zone"]);
        }
        assert!(same(endpoint(&t, 0), endpoint(&t, 1)) && same(endpoint(&t, 1), endpoint(&t, 2)));
        assert!(same(life(&t, 0), life(&t, 1)) && same(life(&t, 1), life(&t, 2)));
    }
}
