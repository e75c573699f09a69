//! A TOSCA 2.0 node template and a relationship template do not share a name. Each section is a
//! YAML map, so names are unique within it; across the two the spec is silent, but a TOSCA
//! Path starts from a template name that may be either kind (§10.3 TOSCA Path: `<tosca_path> ::=
//! <node_symbolic_name>, ... | <relationship_symbolic_name>, ...`; §10.2.1.2 $get_property: "We
//! start from a specific node or relationship identified by its symbolic name"), so two templates of one name
//! make every path that starts there ambiguous. The checklist's decision (T2-NODETPL-07) is an
//! error, reported at the relationship template. Simple Profile 1.x paths name node templates
//! only in most places, and its files are left as they are.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::Model;

/// Reports each relationship template named like a node template.
pub fn check(model: &Model, diags: &mut Diagnostics) {
    let Some(topology) = model.topology.as_ref() else {
        return;
    };
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    let nodes: crate::hash::FastMap<&str, &crate::model::Named> = topology
        .node_templates
        .iter()
        .map(|n| (n.name.as_str(), n))
        .collect();
    for relationship in &topology.relationship_templates {
        let Some(node) = nodes.get(relationship.name.as_str()) else {
            continue;
        };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_DUPLICATE,
                format!(
                    "relationship template `{}` has the name of a node template",
                    relationship.name
                ),
            )
            .at_with(relationship.span, "a relationship template")
            .label(node.span, "the node template")
            .hint("a TOSCA Path starts from the name of a node or relationship template, so one name cannot mean both: rename one of them (§10.3 TOSCA Path)"),
        );
    }
}
