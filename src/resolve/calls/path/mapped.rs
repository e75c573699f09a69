//! `ALL` relationships of a requirement that the substitution mappings map (§15.5 Requirement
//! Mapping): when the template substitutes a node, the substituted node's relationships of the
//! requirement are added to the inner node's, so what the template holds so far is not all of
//! them and a path through them is known only once the template is expanded.

use super::{Entity, Walk};
use crate::ir::NodeId;

impl Walk<'_, '_, '_> {
    /// The relationships `ALL` names (`each`, made so far) of requirement `name` of `source`;
    /// not exact when the mappings map that requirement onto `source`.
    pub(super) fn all(
        &mut self,
        each: Vec<Entity>,
        source: Option<NodeId>,
        name: &str,
    ) -> Vec<Entity> {
        let mapped = source.is_some_and(|n| {
            self.graph.topology.substitution.as_ref().is_some_and(|s| {
                s.requirements
                    .iter()
                    .any(|m| m.node == n && m.target == name)
            })
        });
        if mapped {
            self.exact = false;
        }
        each
    }
}
