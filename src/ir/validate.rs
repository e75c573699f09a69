//! The validator at the boundary between the resolver and the backends.
//!
//! The resolver builds the arenas and the handles between them ([`super::handles`]); every
//! backend, and `toscana ir`, reads them. [`validate`] checks once, after resolution, what a
//! reader would otherwise guard against at each look-up: every handle resolves (a relationship's
//! ends, a requirement's relationship, a group's members, a policy's targets, the substitution
//! boundary's nodes), and a requirement's relationship starts at the node that holds the
//! requirement. A topology that passes is a [`Valid`] one, the only kind a backend is handed.
//!
//! A failure is a bug in toscana, not in the template: the problems are reported as one internal
//! error, so the user can report it, and nothing is written.

use std::ops::Deref;

use super::{PolicyTarget, Topology};

/// A topology [`validate`] found whole: every handle in it resolves. Derefs to the topology.
#[derive(Debug, Clone, Copy)]
pub struct Valid<'t>(&'t Topology);

impl Deref for Valid<'_> {
    type Target = Topology;
    fn deref(&self) -> &Topology {
        self.0
    }
}

impl<'t> Valid<'t> {
    /// The topology, for the lifetime it was borrowed for.
    pub fn topology(self) -> &'t Topology {
        self.0
    }
}

/// Checks every handle of `topology` (see the module documentation); `Err` lists each broken
/// one, in arena order, as a sentence for the internal error.
pub fn validate(topology: &Topology) -> Result<Valid<'_>, Vec<String>> {
    let nodes = topology.nodes.len();
    let relationships = topology.relationships.len();
    let groups = topology.groups.len();
    let mut problems = Vec::new();
    for (i, r) in topology.relationships.iter().enumerate() {
        for (end, id) in [("source", r.source), ("target", r.target)] {
            if id.index() >= nodes {
                problems.push(format!(
                    "relationship {i} (`{}`) has its {end} at node {}, of {nodes}",
                    r.name,
                    id.index()
                ));
            }
        }
    }
    for (i, node) in topology.nodes.iter().enumerate() {
        for requirement in &node.requirements {
            let Some(id) = requirement.relationship else {
                continue;
            };
            match topology.relationships.get(id.index()) {
                None => problems.push(format!(
                    "requirement `{}` of node `{}` names relationship {}, of {relationships}",
                    requirement.name,
                    node.name,
                    id.index()
                )),
                Some(r) if r.source.index() != i => problems.push(format!(
                    "requirement `{}` of node `{}` names relationship `{}`, which starts at node {}",
                    requirement.name,
                    node.name,
                    r.name,
                    r.source.index()
                )),
                Some(_) => {}
            }
        }
    }
    for group in &topology.groups {
        for member in &group.members {
            if member.index() >= nodes {
                problems.push(format!(
                    "group `{}` has node {} as a member, of {nodes}",
                    group.name,
                    member.index()
                ));
            }
        }
    }
    for policy in &topology.policies {
        for target in &policy.targets {
            let (what, index, of) = match *target {
                PolicyTarget::Node(id) => ("node", id.index(), nodes),
                PolicyTarget::Group(id) => ("group", id.index(), groups),
            };
            if index >= of {
                problems.push(format!(
                    "policy `{}` targets {what} {index}, of {of}",
                    policy.name
                ));
            }
        }
    }
    for substituted in &topology.substituted {
        for id in &substituted.nodes {
            if id.index() >= nodes {
                problems.push(format!(
                    "substituted node `{}` is realized by node {}, of {nodes}",
                    substituted.name,
                    id.index()
                ));
            }
        }
    }
    if let Some(boundary) = &topology.substitution {
        for mapping in boundary.capabilities.iter().chain(&boundary.requirements) {
            if mapping.node.index() >= nodes {
                problems.push(format!(
                    "the substitution mapping `{}` names node {}, of {nodes}",
                    mapping.name,
                    mapping.node.index()
                ));
            }
        }
    }
    match problems.is_empty() {
        true => Ok(Valid(topology)),
        false => Err(problems),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::read_for_test as topology;

    const TWO: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements: [ { host: server } ]
    server:
      type: tosca.nodes.Compute
  groups:
    g: { type: tosca.groups.Root, members: [app] }
";

    #[test]
    fn a_resolved_topology_is_valid() {
        let t = topology(TWO);
        let valid = validate(&t).unwrap();
        assert_eq!(valid.relationships.len(), 1);
    }

    #[test]
    fn every_broken_handle_is_named() {
        let mut t = topology(TWO);
        let stray = crate::ir::NodeId::from_index(7);
        t.relationships[0].target = stray;
        t.groups[0].members.push(stray);
        t.nodes[1].requirements = t.nodes[0].requirements.clone();
        let problems = validate(&t).unwrap_err();
        assert_eq!(
            problems,
            [
                "relationship 0 (`app.host`) has its target at node 7, of 2",
                "requirement `host` of node `server` names relationship `app.host`, which starts at node 0",
                "group `g` has node 7 as a member, of 2",
            ]
        );
    }
}
