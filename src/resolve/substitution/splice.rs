//! The topology with each substituted node replaced by its expansion: inner elements added
//! under prefixed names, relationships to and from the substituted node re-pointed through the
//! capability and requirement mappings, groups and policies that named it spread over its
//! expansion.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use super::Plan;
use super::rename::{
    node_values, prefixed, relationship_values, relocate, relocate_interfaces, relocate_node,
    rename_value, renames,
};
use super::values::{attribute_values, read_attributes};
use crate::ir::{
    BoundaryMapping, Dialect, Location, Node, NodeId, PolicyTarget, Relationship, RelationshipId,
    Requirement, Substituted, Topology, Value,
};

/// A problem found while splicing: where, whether it is an error, what, what would be right.
pub(super) struct Problem {
    pub at: Option<Location>,
    /// An error, else a warning.
    pub error: bool,
    pub message: String,
    pub hint: String,
}

impl Problem {
    fn error(at: Option<Location>, message: String, hint: String) -> Self {
        Problem {
            at,
            error: true,
            message,
            hint,
        }
    }

    fn warning(at: Option<Location>, message: String, hint: String) -> Self {
        Problem {
            at,
            error: false,
            message,
            hint,
        }
    }
}

/// The topology with each plan's node replaced by its inner topology (see the module docs).
pub(super) fn splice(
    outer: Topology,
    plans: Vec<Plan>,
    names: &[String],
    problems: &mut Vec<Problem>,
) -> Topology {
    let mut out = Topology {
        nodes: Vec::new(),
        relationships: Vec::new(),
        groups: Vec::new(),
        policies: Vec::new(),
        substituted: Vec::new(),
        ..outer.clone()
    };
    let plan_of: HashMap<usize, usize> =
        plans.iter().enumerate().map(|(p, x)| (x.node, p)).collect();
    // Each inner file's index in the merged file list.
    let files: Vec<Vec<usize>> = plans
        .iter()
        .map(|p| {
            p.inner
                .source
                .files
                .iter()
                .map(|f| match out.source.files.iter().position(|g| g == f) {
                    Some(i) => i,
                    None => {
                        out.source.files.push(f.clone());
                        out.source.files.len() - 1
                    }
                })
                .collect()
        })
        .collect();
    // Nodes: the outer ones in order, each substituted one replaced by its inner nodes.
    let mut new_id: Vec<Option<NodeId>> = vec![None; outer.nodes.len()];
    let mut base = vec![0usize; plans.len()];
    let rel_base_start = outer.relationships.len();
    let mut rel_base = vec![0usize; plans.len()];
    let mut next_rel = rel_base_start;
    for (p, plan) in plans.iter().enumerate() {
        rel_base[p] = next_rel;
        next_rel += plan.inner.relationships.len();
    }
    for (i, node) in outer.nodes.iter().enumerate() {
        let Some(&p) = plan_of.get(&i) else {
            new_id[i] = Some(NodeId::from_index(out.nodes.len()));
            out.nodes.push(node.clone());
            continue;
        };
        let plan = &plans[p];
        base[p] = out.nodes.len();
        let renames = renames(&node.name, &plan.inner);
        for inner in &plan.inner.nodes {
            let mut n = inner.clone();
            n.name = prefixed(&node.name, &n.name);
            for r in &mut n.requirements {
                r.relationship = r
                    .relationship
                    .map(|id| RelationshipId::from_index(id.index() + rel_base[p]));
            }
            node_values(&mut n, &renames);
            relocate_node(&mut n, &files[p]);
            out.nodes.push(n);
        }
        let attributes = attribute_values(&plan.inner);
        out.substituted.push(Substituted {
            name: node.name.clone(),
            type_name: node.type_name.clone(),
            template: names[p].clone(),
            nodes: (base[p]..base[p] + plan.inner.nodes.len())
                .map(NodeId::from_index)
                .collect(),
            attributes: attributes
                .into_iter()
                .map(|(k, mut v)| {
                    rename_value(&mut v, &renames);
                    (k, v)
                })
                .collect(),
            location: node.location,
        });
    }
    let expansion =
        |p: usize| (base[p]..base[p] + plans[p].inner.nodes.len()).map(NodeId::from_index);
    let boundary = |p: usize, section: Section, name: &str| -> Option<&BoundaryMapping> {
        let s = plans[p].inner.substitution.as_ref()?;
        let list = match section {
            Section::Capabilities => &s.capabilities,
            Section::Requirements => &s.requirements,
        };
        list.iter().find(|m| m.name == name)
    };
    // Outer relationships keep their ids; those of a substituted node are re-pointed.
    let mut dropped = HashSet::new();
    let inner_rels = rel_base_start..next_rel;
    let mut fan_out: Vec<(Relationship, Option<Requirement>)> = Vec::new();
    // How many assignments of each (substituted node, requirement) were wired so far.
    let mut assigned: HashMap<(usize, String), usize> = HashMap::new();
    for (r, rel) in outer.relationships.iter().enumerate() {
        let mut rel = rel.clone();
        let outer_source = &outer.nodes[rel.source.index()];
        let outer_target = &outer.nodes[rel.target.index()];
        // Inner requirements a relationship from outside connects: the first is this one,
        // each further one (a TOSCA 2.0 mapping onto a list, §15.5) gets a copy of it.
        let mut sources: Vec<(NodeId, String)> = Vec::new();
        match plan_of.get(&rel.source.index()) {
            None => rel.source = new_id[rel.source.index()].unwrap_or(rel.source),
            Some(&p) => {
                let k = assigned
                    .entry((rel.source.index(), rel.requirement.clone()))
                    .or_insert(0);
                let mapped = assignment_targets(&plans[p].inner, &rel.requirement, *k);
                *k += 1;
                if mapped.is_empty() {
                    // The substituting template fulfils it inside, or has no use for it
                    // (tosca-parser's `system.yaml` hosts `dbsys`, whose template maps no `host`).
                    problems.push(Problem::warning(
                        rel.location,
                        if *k > 1 && !assignment_targets(&plans[p].inner, &rel.requirement, 0).is_empty() {
                            format!(
                                "requirement `{}` of substituted node `{}` connects it to `{}`, but the mappings of `{}` take only {} of its assignments; the relationship is dropped",
                                rel.requirement, outer_source.name, outer_target.name, names[p], *k - 1
                            )
                        } else {
                            format!(
                                "requirement `{}` of substituted node `{}` connects it to `{}`, but `{}` maps no requirement `{}`; the relationship is dropped",
                                rel.requirement, outer_source.name, outer_target.name, names[p], rel.requirement
                            )
                        },
                        format!(
                            "to keep it, add `{}: [ <inner node template>, <requirement> ]` under `substitution_mappings.requirements` of `{}`",
                            rel.requirement, names[p]
                        ),
                    ));
                    dropped.insert(r);
                }
                for m in mapped {
                    let id = NodeId::from_index(base[p] + m.node.index());
                    let inner = &out.nodes[id.index()];
                    let inside = inner.requirements.iter().any(|q| {
                        q.name == m.target
                            && q.relationship
                                .is_some_and(|i| inner_rels.contains(&i.index()))
                    });
                    if inside {
                        problems.push(Problem::error(
                            rel.location,
                            format!(
                                "requirement `{}` of substituted node `{}` is fulfilled here and also inside `{}`, by `{}`'s requirement `{}`",
                                m.name, outer_source.name, names[p], inner.name, m.target
                            ),
                            "fulfil it in one place: drop the assignment here, or leave the inner requirement open (Simple Profile §12.3 Definition of the database stack in a service template)".to_string(),
                        ));
                        dropped.insert(r);
                        continue;
                    }
                    sources.push((id, m.target.clone()));
                }
            }
        }
        match plan_of.get(&rel.target.index()) {
            None => rel.target = new_id[rel.target.index()].unwrap_or(rel.target),
            // Dropped already (its requirement is not mapped): nothing to re-point.
            Some(_) if dropped.contains(&r) => {}
            Some(&p) => {
                let found = match &rel.capability {
                    Some(c) => boundary(p, Section::Capabilities, c),
                    None => plans[p].inner.substitution.as_ref().and_then(|s| {
                        match s.capabilities.as_slice() {
                            [one] => Some(one),
                            _ => None,
                        }
                    }),
                };
                match found {
                    Some(m) => {
                        rel.target = NodeId::from_index(base[p] + m.node.index());
                        rel.capability = Some(m.target.clone());
                    }
                    None => {
                        let (cap, message) = match rel.capability.as_deref() {
                            Some(cap) => (
                                cap,
                                format!(
                                    "`{}` requires capability `{cap}` of substituted node `{}`, but `{}` maps no capability `{cap}`",
                                    outer_source.name, outer_target.name, names[p]
                                ),
                            ),
                            None => (
                                "<capability>",
                                format!(
                                    "`{}` requires substituted node `{}` without naming a capability, and `{}` does not map exactly one",
                                    outer_source.name, outer_target.name, names[p]
                                ),
                            ),
                        };
                        problems.push(Problem::error(
                            rel.location,
                            message,
                            format!(
                                "add `{cap}: [ <inner node template>, <capability> ]` under `substitution_mappings.capabilities` of `{}`",
                                names[p]
                            ),
                        ));
                        dropped.insert(r);
                    }
                }
            }
        }
        if !dropped.contains(&r) {
            let assignment = outer_source
                .requirements
                .iter()
                .find(|q| q.relationship == Some(RelationshipId::from_index(r)));
            for (k, (id, requirement)) in sources.into_iter().enumerate() {
                let mut copy = rel.clone();
                copy.source = id;
                copy.requirement = requirement.clone();
                if k == 0 {
                    rel = copy;
                    attach(
                        &mut out.nodes[id.index()],
                        &requirement,
                        RelationshipId::from_index(r),
                        assignment,
                    );
                } else {
                    copy.name = format!("{}[{k}]", rel.name);
                    fan_out.push((copy, assignment.cloned()));
                }
            }
        }
        out.relationships.push(rel);
    }
    for (p, plan) in plans.iter().enumerate() {
        let prefix = &outer.nodes[plan.node].name;
        let renames = renames(prefix, &plan.inner);
        for rel in &plan.inner.relationships {
            let mut rel = rel.clone();
            rel.name = prefixed(prefix, &rel.name);
            rel.source = NodeId::from_index(base[p] + rel.source.index());
            rel.target = NodeId::from_index(base[p] + rel.target.index());
            relationship_values(&mut rel, &renames);
            rel.location = relocate(rel.location, &files[p]);
            relocate_interfaces(&mut rel.interfaces, &files[p]);
            out.relationships.push(rel);
        }
    }
    for (rel, assignment) in fan_out {
        let id = RelationshipId::from_index(out.relationships.len());
        let requirement = rel.requirement.clone();
        attach(
            &mut out.nodes[rel.source.index()],
            &requirement,
            id,
            assignment.as_ref(),
        );
        out.relationships.push(rel);
    }
    // Groups and policies: a substituted member or target is its whole expansion.
    let spread = |id: NodeId| -> Vec<NodeId> {
        match plan_of.get(&id.index()) {
            Some(&p) => expansion(p).collect(),
            None => new_id[id.index()].into_iter().collect(),
        }
    };
    for g in &outer.groups {
        let mut g = g.clone();
        g.members = g.members.iter().flat_map(|&m| spread(m)).collect();
        out.groups.push(g);
    }
    let mut group_base = vec![0usize; plans.len()];
    for (p, plan) in plans.iter().enumerate() {
        let prefix = &outer.nodes[plan.node].name;
        group_base[p] = out.groups.len();
        for g in &plan.inner.groups {
            let mut g = g.clone();
            g.name = prefixed(prefix, &g.name);
            g.members = g
                .members
                .iter()
                .map(|m| NodeId::from_index(base[p] + m.index()))
                .collect();
            g.location = relocate(g.location, &files[p]);
            out.groups.push(g);
        }
    }
    for policy in &outer.policies {
        let mut policy = policy.clone();
        policy.targets = policy
            .targets
            .iter()
            .flat_map(|t| match t {
                PolicyTarget::Node(id) => spread(*id).into_iter().map(PolicyTarget::Node).collect(),
                PolicyTarget::Group(g) => vec![PolicyTarget::Group(*g)],
            })
            .collect();
        out.policies.push(policy);
    }
    for (p, plan) in plans.iter().enumerate() {
        let prefix = &outer.nodes[plan.node].name;
        for policy in &plan.inner.policies {
            let mut policy = policy.clone();
            policy.name = prefixed(prefix, &policy.name);
            policy.targets = policy
                .targets
                .iter()
                .map(|t| match t {
                    PolicyTarget::Node(id) => {
                        PolicyTarget::Node(NodeId::from_index(base[p] + id.index()))
                    }
                    PolicyTarget::Group(g) => PolicyTarget::Group(crate::ir::GroupId::from_index(
                        group_base[p] + g.index(),
                    )),
                })
                .collect();
            policy.location = relocate(policy.location, &files[p]);
            out.policies.push(policy);
        }
    }
    // Records of expansions inside the inner templates, and of the outer ones before.
    for s in &outer.substituted {
        let mut s = s.clone();
        s.nodes = s.nodes.iter().flat_map(|&m| spread(m)).collect();
        out.substituted.push(s);
    }
    for (p, plan) in plans.iter().enumerate() {
        let prefix = &outer.nodes[plan.node].name;
        for s in &plan.inner.substituted {
            let mut s = s.clone();
            s.name = prefixed(prefix, &s.name);
            s.nodes = s
                .nodes
                .iter()
                .map(|m| NodeId::from_index(base[p] + m.index()))
                .collect();
            s.location = relocate(s.location, &files[p]);
            out.substituted.push(s);
        }
    }
    // The outer boundary, when this topology substitutes for a node type itself.
    if let Some(s) = &mut out.substitution {
        for (section, list) in [
            (Section::Capabilities, &mut s.capabilities),
            (Section::Requirements, &mut s.requirements),
        ] {
            // A mapping onto a substituted node follows that node's own mapping of the same
            // name into its expansion; one its template does not map has nowhere to point.
            list.retain_mut(|m| match plan_of.get(&m.node.index()) {
                None => match new_id[m.node.index()] {
                    Some(id) => {
                        m.node = id;
                        true
                    }
                    None => false,
                },
                Some(&p) => match boundary(p, section, &m.target) {
                    Some(inner) => {
                        m.node = NodeId::from_index(base[p] + inner.node.index());
                        m.target = inner.target.clone();
                        true
                    }
                    None => {
                        let noun = match section {
                            Section::Capabilities => "capability",
                            Section::Requirements => "requirement",
                        };
                        problems.push(Problem::warning(
                            outer.substitution.as_ref().and_then(|s| s.location),
                            format!(
                                "the boundary maps {noun} `{}` onto `{}` of `{}`, which `{}` substitutes without mapping a {noun} `{}`; the mapping is dropped",
                                m.name, m.target, outer.nodes[m.node.index()].name, names[p], m.target
                            ),
                            format!("map `{}` under `substitution_mappings` of `{}`", m.target, names[p]),
                        ));
                        false
                    }
                },
            });
        }
    }
    // `get_attribute: [ <substituted node>, <attribute> ]` elsewhere reads what its attribute
    // mapping gives (Simple Profile §12 Using node template substitution for model composition;
    // TOSCA 2.0 §15.3 Attribute Mapping), where the mapping names a value.
    let mapped: HashMap<String, IndexMap<String, Value>> = out.substituted[..plans.len()]
        .iter()
        .map(|s| (s.name.clone(), s.attributes.clone()))
        .collect();
    if !mapped.is_empty() {
        let nodes = out.nodes.iter_mut().flat_map(Node::call_maps_mut);
        let relationships = out
            .relationships
            .iter_mut()
            .flat_map(Relationship::call_maps_mut);
        for map in nodes.chain(relationships) {
            map.values_mut().for_each(|v| read_attributes(v, &mapped));
        }
        for o in &mut out.outputs {
            read_attributes(&mut o.value, &mapped);
        }
    }
    // A relationship that could not be re-pointed is taken out, with the requirement that
    // used it left open.
    if !dropped.is_empty() {
        drop_relationships(&mut out, &dropped);
    }
    out
}

/// The inner requirements that assignment `k` (0-based, in assignment order) of requirement
/// `name` of the substituted node is wired to. The pairs of one mapping entry take an
/// assignment together; in TOSCA 2.0 an entry takes as many assignments as its `[name, count]`
/// key says (`UNBOUNDED`: all the rest), one without a count takes one (§15.5 Requirement Mapping),
/// and an assignment past them all is not mapped. A Simple Profile mapping (a map: one entry per
/// name) takes every assignment.
pub(super) fn assignment_targets<'t>(
    inner: &'t Topology,
    name: &str,
    k: usize,
) -> Vec<&'t BoundaryMapping> {
    let mut groups: Vec<Vec<&BoundaryMapping>> = Vec::new();
    for m in inner
        .substitution
        .iter()
        .flat_map(|s| &s.requirements)
        .filter(|m| m.name == name)
    {
        match groups.last_mut() {
            Some(g) if g[0].entry == m.entry => g.push(m),
            _ => groups.push(vec![m]),
        }
    }
    if inner.source.dialect != Dialect::Tosca2 {
        return groups.into_iter().flatten().collect();
    }
    let mut start = 0usize;
    for g in groups {
        let take = match &g[0].count {
            None => Some(1),
            Some(Value::Integer(n)) => Some(usize::try_from(*n).unwrap_or(0)),
            Some(_) => None,
        };
        match take {
            Some(n) if k >= start + n => start += n,
            _ => return g,
        }
    }
    Vec::new()
}

#[derive(Clone, Copy)]
pub(super) enum Section {
    Capabilities,
    Requirements,
}

/// Connects requirement `name` of an inner node to relationship `id` from outside: its first
/// open requirement of that name, else a new one like the outer `assignment`.
pub(super) fn attach(
    node: &mut Node,
    name: &str,
    id: RelationshipId,
    assignment: Option<&Requirement>,
) {
    match node
        .requirements
        .iter_mut()
        .find(|q| q.name == name && q.relationship.is_none())
    {
        Some(open) => open.relationship = Some(id),
        None => node.requirements.push(Requirement {
            name: name.to_string(),
            relationship: Some(id),
            ..assignment
                .cloned()
                .unwrap_or_else(|| super::super::requirements::entry(name, None, None))
        }),
    }
}

/// Removes the relationships in `dropped` (outer ids), renumbering the rest.
pub(super) fn drop_relationships(out: &mut Topology, dropped: &HashSet<usize>) {
    let mut map = Vec::with_capacity(out.relationships.len());
    let mut kept = 0usize;
    for i in 0..out.relationships.len() {
        if dropped.contains(&i) {
            map.push(None);
        } else {
            map.push(Some(RelationshipId::from_index(kept)));
            kept += 1;
        }
    }
    let mut i = 0usize;
    out.relationships.retain(|_| {
        i += 1;
        !dropped.contains(&(i - 1))
    });
    for node in &mut out.nodes {
        for r in &mut node.requirements {
            r.relationship = r
                .relationship
                .and_then(|id| map.get(id.index()).copied().flatten());
        }
    }
}
