//! Node types should derive from `tosca.nodes.Root` and relationship types from
//! `tosca.relationships.Root` (checklist SP-TYPE-08): "all Node Types SHOULD derive directly (as
//! a parent) or indirectly (as an ancestor) of the TOSCA Root Node Type ... However, it is
//! permitted to author Node Types that do not do so" (A.6.8.4 Best Practices, and C.7.1.4
//! Additional Requirements), and "The TOSCA Root Relationship Type (tosca.relationships.Root)
//! SHOULD be used to derive new types" (A.6.9.3 Best Practices). A type of either kind written
//! with no `derived_from` starts a hierarchy of its own: it lacks the root's attributes
//! (`tosca_id`, `state`), its lifecycle interface and, for a node, its `dependency` requirement
//! and `feature` capability, so functions and backends that read them find nothing. Permitted,
//! so a warning. A type that derives from another one is judged through that one.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, canonical};
use crate::model::{Model, TypeKind};

/// Warns of each node and relationship type read that derives from nothing and is not a root.
pub fn check(model: &Model, diags: &mut Diagnostics) {
    if !matches!(model.dialect, Dialect::SimpleProfile | Dialect::Variability) {
        return;
    }
    for ((kind, _), def) in &model.types {
        let root = match kind {
            TypeKind::Node => "tosca.nodes.Root",
            TypeKind::Relationship => "tosca.relationships.Root",
            _ => continue,
        };
        if def.derived_from.is_some() || canonical(*kind, &def.name) == root {
            continue;
        }
        let what = match kind {
            TypeKind::Node => "node type",
            _ => "relationship type",
        };
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_MISSING_KEY,
                format!("{what} `{}` derives from no type", def.name),
            )
            .at_with(def.span, "no `derived_from`")
            .hint(format!("add `derived_from: {root}` (or a type derived from it), so it has the root type's attributes, interfaces and requirements (A.6.8.4 and A.6.9.3 Best Practices)")),
        );
    }
}
