//! `$node_index` and `$relationship_index` (§10.2.1.6 $node_index, §10.2.1.7
//! $relationship_index): the place of a representation, where it is known before deployment.

use super::{Evaluator, Site};
use crate::diag::Diagnostics;
use crate::ir::Value;
use crate::resolve::calls::builtins::BuiltIn;
use crate::resolve::calls::path::Scope;

impl<'m, 't> Evaluator<'_, '_, 'm, 't> {
    /// `$node_index` and `$relationship_index`: known for a node with one representation, and
    /// for a relationship made once per source representation whose place among its
    /// requirement's relationships is known
    /// ([`template_relationship_index`](crate::resolve::multiplicity::template_relationship_index)).
    pub(super) fn context(
        &mut self,
        b: &BuiltIn,
        scope: &Scope,
        site: &Site,
        diags: &mut Diagnostics,
    ) -> Option<Value> {
        let node = b.name == "node_index";
        let fits = match scope {
            Scope::Node(_) | Scope::Candidate(_) => node,
            Scope::Relationship(_) | Scope::Open(_) => !node,
            Scope::Template => false,
        };
        if !fits {
            let (what, place) = if node {
                (
                    "the index of a node's representation",
                    "a node template (or its type)",
                )
            } else {
                (
                    "the index of a relationship among those of its requirement",
                    "a relationship, a requirement or a relationship type",
                )
            };
            self.error(
                site.name,
                format!("`${}` is {what}, and means nothing here", b.name),
                format!("use it only within {place} ({})", b.section),
                diags,
            );
            return None;
        }
        match scope {
            Scope::Node(n) if self.graph.topology.nodes[n.index()].count == Value::Integer(1) => {
                Some(Value::Integer(0))
            }
            Scope::Relationship(r) => {
                crate::resolve::multiplicity::template_relationship_index(self.graph.topology, *r)
                    .map(|i| Value::Integer(i as i64))
            }
            _ => None,
        }
    }
}
