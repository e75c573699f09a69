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

use super::shared::Shared;
use super::{GroupId, NodeId, PolicyTarget, RelationshipId, Topology};

/// Puts `topology` in its canonical order, in place (see the module docs).
pub fn canonical(topology: &mut Topology) {
    topology.inputs.sort_by(|a, b| a.name.cmp(&b.name));
    topology.outputs.sort_by(|a, b| a.name.cmp(&b.name));
    order_nodes(topology);
    order_relationships(topology);
    order_groups(topology);
    set_orders(topology);
    for node in &mut topology.nodes {
        node.properties.sort_keys();
        node.attributes.sort_keys();
        node.assigned.sort();
        node.capabilities.sort_keys();
        for capability in node.capabilities.values_mut() {
            if !is_sorted(&capability.properties) || !is_sorted(&capability.attributes) {
                let capability = Shared::make_mut(capability);
                capability.properties.sort_keys();
                capability.attributes.sort_keys();
            }
        }
        order_interfaces(&mut node.interfaces);
        node.artifacts.sort_keys();
    }
    for relationship in &mut topology.relationships {
        relationship.properties.sort_keys();
        relationship.attributes.sort_keys();
        order_interfaces(&mut relationship.interfaces);
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
/// (`create` before `configure` before `start`).
fn order_interfaces(interfaces: &mut super::Interfaces) {
    for interface in interfaces.values_mut() {
        let sorted = is_sorted(&interface.inputs)
            && interface
                .operations
                .values()
                .chain(interface.notifications.values())
                .all(|o| is_sorted(&o.inputs) && is_sorted(&o.outputs));
        if sorted {
            continue; // shared with every node of its type: copied only to change it
        }
        let interface = Shared::make_mut(interface);
        interface.inputs.sort_keys();
        for operation in interface
            .operations
            .values_mut()
            .chain(interface.notifications.values_mut())
        {
            operation.inputs.sort_keys();
            operation.outputs.sort_keys();
        }
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
