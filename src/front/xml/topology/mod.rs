//! A ServiceTemplate as a Simple Profile `topology_template`: node templates (instance bounds as
//! metadata the resolver reads), relationship templates hung off their source's requirement
//! (`dependency` of tosca.nodes.Root when the source is the node itself), policies, the
//! boundary as `substitution_mappings` and plans as workflows with an opaque model reference.

mod boundary;
mod node;
mod plans;
mod policy;
mod relationship;

use std::collections::HashMap;

use roxmltree::Node as Xn;

use super::X;
use super::build::{self, M};
use super::doc::{self, attr, documentation, kid, kids};
use crate::diag::{Diagnostic, codes};
use crate::yaml::Node;

/// What an id of the service template designates.
#[derive(Clone, Copy)]
enum Target<'a, 'i> {
    Node(Xn<'a, 'i>),
    /// A Requirement or Capability element and the node template holding it.
    Requirement(Xn<'a, 'i>, Xn<'a, 'i>),
    Capability(Xn<'a, 'i>, Xn<'a, 'i>),
    Relationship,
    Plan,
}

pub fn service_template(x: &mut X, di: usize, st: Xn) -> Option<Node> {
    let d = x.docs[di];
    doc::check_element(
        d,
        st,
        &["Tags", "BoundaryDefinitions", "TopologyTemplate", "Plans"],
        &["id", "name", "targetNamespace", "substitutableNodeType"],
        &[],
        x.diags,
    );
    let Some(tt) = kid(st, "TopologyTemplate") else {
        x.diags.push(
            Diagnostic::error(codes::XML_SCHEMA, "this ServiceTemplate has no TopologyTemplate")
                .at(d.el(st))
                .hint("a ServiceTemplate holds exactly one TopologyTemplate with its node and relationship templates"),
        );
        return None;
    };
    doc::check_element(
        d,
        tt,
        &["NodeTemplate", "RelationshipTemplate"],
        &[],
        &[],
        x.diags,
    );
    // Every id of the service template, for SourceElement, TargetElement and the boundary.
    let mut ids: HashMap<&str, Target> = HashMap::new();
    for n in kids(tt, "NodeTemplate") {
        if let Some(id) = attr(n, "id") {
            ids.insert(id, Target::Node(n));
        }
        for r in kid(n, "Requirements")
            .into_iter()
            .flat_map(|r| kids(r, "Requirement"))
        {
            if let Some(id) = attr(r, "id") {
                ids.insert(id, Target::Requirement(r, n));
            }
        }
        for c in kid(n, "Capabilities")
            .into_iter()
            .flat_map(|c| kids(c, "Capability"))
        {
            if let Some(id) = attr(c, "id") {
                ids.insert(id, Target::Capability(c, n));
            }
        }
    }
    for r in kids(tt, "RelationshipTemplate") {
        if let Some(id) = attr(r, "id") {
            ids.insert(id, Target::Relationship);
        }
    }
    for p in kid(st, "Plans").into_iter().flat_map(|p| kids(p, "Plan")) {
        if let Some(id) = attr(p, "id") {
            ids.insert(id, Target::Plan);
        }
    }
    let mut out = M::new(d.el(st));
    if let Some(text) = documentation(st) {
        out.set("description", build::s(text, d.el(st)));
    }
    // Relationship templates first: they add requirement assignments to their sources.
    let mut requirements: HashMap<String, Vec<Node>> = HashMap::new();
    let mut rels = M::new(d.el(tt));
    for r in kids(tt, "RelationshipTemplate") {
        relationship::relationship_template(x, di, r, &ids, &mut rels, &mut requirements);
    }
    let mut nodes = M::new(d.el(tt));
    let mut policies = Vec::new();
    for n in kids(tt, "NodeTemplate") {
        let Some(id) = doc::required(d, n, "id", x.diags) else {
            continue;
        };
        let reqs = requirements.remove(id).unwrap_or_default();
        let body = node::node_template(x, di, n, id, reqs, &mut policies);
        nodes.put(id, d.at(n, "id"), body);
    }
    if nodes.is_empty() && kids(tt, "RelationshipTemplate").next().is_none() {
        x.diags.push(
            Diagnostic::error(codes::XML_SCHEMA, "this TopologyTemplate is empty")
                .at(d.el(tt))
                .hint("a TopologyTemplate holds at least one NodeTemplate or RelationshipTemplate"),
        );
    }
    out.set_nonempty("node_templates", nodes);
    out.set_nonempty("relationship_templates", rels);
    if let Some(bd) = kid(st, "BoundaryDefinitions")
        && let Some(sm) = boundary::boundary(x, di, st, bd, &ids, &mut policies)
    {
        out.set("substitution_mappings", sm);
    }
    if !policies.is_empty() {
        out.set("policies", build::seq(policies, d.el(tt)));
    }
    if let Some(plans) = kid(st, "Plans") {
        let wf = plans::workflows(x, di, plans);
        out.set_nonempty("workflows", wf);
    }
    Some(out.done())
}
