//! The topology with each substituted node replaced by its expansion: inner elements added
//! under prefixed names, relationships to and from the substituted node re-pointed through the
//! capability and requirement mappings, groups and policies that named it spread over its
//! expansion.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use indexmap::IndexMap;

use super::Plan;
use super::rename::{
    node_values, prefixed, relationship_values, relocate, relocate_interfaces, relocate_node,
    rename_value, renames,
};
use super::values::{attribute_values, read_attributes};
use crate::ir::{
    BoundaryMapping, Dialect, GroupId, Location, Node, NodeId, PolicyTarget, Relationship,
    RelationshipId, Requirement, Substituted, Topology, Value,
};

/// A problem found while splicing a substituting template into the topology: where, whether it
/// is an error, what, what would be right. Reported once per place by the substitution.
pub(super) struct SpliceProblem {
    pub at: Option<Location>,
    /// An error, else a warning.
    pub error: bool,
    pub message: String,
    pub hint: String,
}

impl SpliceProblem {
    fn error(at: Option<Location>, message: String, hint: String) -> Self {
        SpliceProblem {
            at,
            error: true,
            message,
            hint,
        }
    }

    fn warning(at: Option<Location>, message: String, hint: String) -> Self {
        SpliceProblem {
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
    problems: &mut Vec<SpliceProblem>,
) -> Topology {
    let mut splicer = Splicer::new(&outer, &plans, names, problems);
    splicer.nodes();
    let fan_out = splicer.outer_relationships();
    splicer.inner_relationships();
    splicer.fanned_out(fan_out);
    splicer.groups();
    splicer.policies();
    splicer.substituted();
    splicer.outer_boundary();
    splicer.mapped_attributes();
    splicer.finish()
}

/// The splice under way: the topology being built and where each part of the old one went.
struct Splicer<'a> {
    outer: &'a Topology,
    plans: &'a [Plan],
    /// The substituting template of each plan, for messages.
    names: &'a [String],
    problems: &'a mut Vec<SpliceProblem>,
    out: Topology,
    /// Outer node index → its plan, for the nodes substituted.
    plan_of: HashMap<usize, usize>,
    /// Each plan's inner file indices → their index in the merged file list.
    files: Vec<Vec<usize>>,
    /// Outer node index → its id in `out`, for the nodes kept.
    new_id: Vec<Option<NodeId>>,
    /// Each plan's first node in `out`.
    base: Vec<usize>,
    /// Each plan's first relationship in `out`.
    rel_base: Vec<usize>,
    /// The ids of the inner relationships in `out`.
    inner_rels: Range<usize>,
    /// Each plan's first group in `out`.
    group_base: Vec<usize>,
    /// Outer relationships that could not be re-pointed.
    dropped: HashSet<usize>,
}

impl<'a> Splicer<'a> {
    fn new(
        outer: &'a Topology,
        plans: &'a [Plan],
        names: &'a [String],
        problems: &'a mut Vec<SpliceProblem>,
    ) -> Self {
        let mut out = Topology {
            nodes: Vec::new(),
            relationships: Vec::new(),
            groups: Vec::new(),
            policies: Vec::new(),
            substituted: Vec::new(),
            ..outer.clone()
        };
        let files = plans
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
        let rel_base_start = outer.relationships.len();
        let mut rel_base = vec![0usize; plans.len()];
        let mut next_rel = rel_base_start;
        for (p, plan) in plans.iter().enumerate() {
            rel_base[p] = next_rel;
            next_rel += plan.inner.relationships.len();
        }
        Splicer {
            outer,
            plans,
            names,
            problems,
            out,
            plan_of: plans.iter().enumerate().map(|(p, x)| (x.node, p)).collect(),
            files,
            new_id: vec![None; outer.nodes.len()],
            base: vec![0usize; plans.len()],
            rel_base,
            inner_rels: rel_base_start..next_rel,
            group_base: vec![0usize; plans.len()],
            dropped: HashSet::new(),
        }
    }

    /// The outer nodes in order, each substituted one replaced by its inner nodes.
    fn nodes(&mut self) {
        let outer = self.outer;
        for (i, node) in outer.nodes.iter().enumerate() {
            let Some(&p) = self.plan_of.get(&i) else {
                self.new_id[i] = Some(NodeId::from_index(self.out.nodes.len()));
                self.out.nodes.push(node.clone());
                continue;
            };
            let plan = &self.plans[p];
            self.base[p] = self.out.nodes.len();
            let renames = renames(&node.name, &plan.inner);
            for inner in &plan.inner.nodes {
                let mut n = inner.clone();
                n.name = prefixed(&node.name, &n.name);
                for r in &mut n.requirements {
                    r.relationship = r
                        .relationship
                        .map(|id| RelationshipId::from_index(id.index() + self.rel_base[p]));
                }
                node_values(&mut n, &renames);
                relocate_node(&mut n, &self.files[p]);
                self.out.nodes.push(n);
            }
            let attributes = attribute_values(&plan.inner);
            self.out.substituted.push(Substituted {
                name: node.name.clone(),
                type_name: node.type_name.clone(),
                template: self.names[p].clone(),
                nodes: self.expansion(p).collect(),
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
    }

    /// The nodes plan `p`'s node became.
    fn expansion(&self, p: usize) -> impl Iterator<Item = NodeId> + use<> {
        let base = self.base[p];
        (base..base + self.plans[p].inner.nodes.len()).map(NodeId::from_index)
    }

    /// The nodes outer node `id` became: itself, or its whole expansion.
    fn spread(&self, id: NodeId) -> Vec<NodeId> {
        match self.plan_of.get(&id.index()) {
            Some(&p) => self.expansion(p).collect(),
            None => self.new_id[id.index()].into_iter().collect(),
        }
    }

    /// Plan `p`'s inner id `id` in `out`.
    fn inner_node(&self, p: usize, id: NodeId) -> NodeId {
        NodeId::from_index(self.base[p] + id.index())
    }

    /// The outer relationships, keeping their ids, those of a substituted node re-pointed;
    /// returns the copies a mapping onto a list fans out to, added after the inner ones.
    fn outer_relationships(&mut self) -> Vec<(Relationship, Option<Requirement>)> {
        let outer = self.outer;
        let mut fan_out = Vec::new();
        // How many assignments of each (substituted node, requirement) were wired so far.
        let mut assigned: HashMap<(usize, String), usize> = HashMap::new();
        for (r, original) in outer.relationships.iter().enumerate() {
            let mut rel = original.clone();
            let sources = self.repoint_source(r, &mut rel, &mut assigned);
            self.repoint_target(r, original, &mut rel);
            if !self.dropped.contains(&r) {
                let assignment = outer.nodes[original.source.index()]
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
                            &mut self.out.nodes[id.index()],
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
            self.out.relationships.push(rel);
        }
        fan_out
    }

    /// Re-points the source of outer relationship `r`: a kept node's new id; for a substituted
    /// node, the inner requirements the relationship connects (the first is this one, each
    /// further one, a TOSCA 2.0 mapping onto a list (§15.5 Requirement Mapping), gets a copy
    /// of it), returned. One that cannot be re-pointed is dropped, with the problem.
    fn repoint_source(
        &mut self,
        r: usize,
        rel: &mut Relationship,
        assigned: &mut HashMap<(usize, String), usize>,
    ) -> Vec<(NodeId, String)> {
        let Some(&p) = self.plan_of.get(&rel.source.index()) else {
            rel.source = self.new_id[rel.source.index()].unwrap_or(rel.source);
            return Vec::new();
        };
        let outer_source = &self.outer.nodes[rel.source.index()];
        let outer_target = &self.outer.nodes[rel.target.index()];
        let name = &self.names[p];
        let inner = &self.plans[p].inner;
        let k = assigned
            .entry((rel.source.index(), rel.requirement.clone()))
            .or_insert(0);
        let mapped = assignment_targets(inner, &rel.requirement, *k);
        *k += 1;
        if mapped.is_empty() {
            // The substituting template fulfils it inside, or has no use for it
            // (tosca-parser's `system.yaml` hosts `dbsys`, whose template maps no `host`).
            self.problems.push(SpliceProblem::warning(
                rel.location,
                if *k > 1 && !assignment_targets(inner, &rel.requirement, 0).is_empty() {
                    format!(
                        "requirement `{}` of substituted node `{}` connects it to `{}`, but the mappings of `{name}` take only {} of its assignments; the relationship is dropped",
                        rel.requirement, outer_source.name, outer_target.name, *k - 1
                    )
                } else {
                    format!(
                        "requirement `{}` of substituted node `{}` connects it to `{}`, but `{name}` maps no requirement `{}`; the relationship is dropped",
                        rel.requirement, outer_source.name, outer_target.name, rel.requirement
                    )
                },
                format!(
                    "to keep it, add `{}: [ <inner node template>, <requirement> ]` under `substitution_mappings.requirements` of `{name}`",
                    rel.requirement
                ),
            ));
            self.dropped.insert(r);
        }
        let mut sources = Vec::new();
        for m in mapped {
            let id = self.inner_node(p, m.node);
            let inner = &self.out.nodes[id.index()];
            let inside = inner.requirements.iter().any(|q| {
                q.name == m.target
                    && q.relationship
                        .is_some_and(|i| self.inner_rels.contains(&i.index()))
            });
            if inside {
                self.problems.push(SpliceProblem::error(
                    rel.location,
                    format!(
                        "requirement `{}` of substituted node `{}` is fulfilled here and also inside `{name}`, by `{}`'s requirement `{}`",
                        m.name, outer_source.name, inner.name, m.target
                    ),
                    "fulfil it in one place: drop the assignment here, or leave the inner requirement open (Simple Profile §12.3 Definition of the database stack in a service template)".to_string(),
                ));
                self.dropped.insert(r);
                continue;
            }
            sources.push((id, m.target.clone()));
        }
        sources
    }

    /// Re-points the target of outer relationship `r`: a kept node's new id, or through the
    /// capability mapping of a substituted node; one that has none is dropped, with the error.
    fn repoint_target(&mut self, r: usize, original: &Relationship, rel: &mut Relationship) {
        let p = match self.plan_of.get(&rel.target.index()) {
            None => {
                rel.target = self.new_id[rel.target.index()].unwrap_or(rel.target);
                return;
            }
            // Dropped already (its requirement is not mapped): nothing to re-point.
            Some(_) if self.dropped.contains(&r) => return,
            Some(&p) => p,
        };
        let inner = &self.plans[p].inner;
        let found = match &rel.capability {
            Some(c) => boundary(inner, Section::Capabilities, c),
            None => inner
                .substitution
                .as_ref()
                .and_then(|s| match s.capabilities.as_slice() {
                    [one] => Some(one),
                    _ => None,
                }),
        };
        if let Some(m) = found {
            rel.target = self.inner_node(p, m.node);
            rel.capability = Some(m.target.clone());
            return;
        }
        let source = &self.outer.nodes[original.source.index()].name;
        let target = &self.outer.nodes[original.target.index()].name;
        let name = &self.names[p];
        let (cap, message) = match rel.capability.as_deref() {
            Some(cap) => (
                cap,
                format!(
                    "`{source}` requires capability `{cap}` of substituted node `{target}`, but `{name}` maps no capability `{cap}`"
                ),
            ),
            None => (
                "<capability>",
                format!(
                    "`{source}` requires substituted node `{target}` without naming a capability, and `{name}` does not map exactly one"
                ),
            ),
        };
        self.problems.push(SpliceProblem::error(
            rel.location,
            message,
            format!(
                "add `{cap}: [ <inner node template>, <capability> ]` under `substitution_mappings.capabilities` of `{name}`"
            ),
        ));
        self.dropped.insert(r);
    }

    /// The relationships inside each expansion, under prefixed names.
    fn inner_relationships(&mut self) {
        for (p, plan) in self.plans.iter().enumerate() {
            let prefix = &self.outer.nodes[plan.node].name;
            let renames = renames(prefix, &plan.inner);
            for rel in &plan.inner.relationships {
                let mut rel = rel.clone();
                rel.name = prefixed(prefix, &rel.name);
                rel.source = self.inner_node(p, rel.source);
                rel.target = self.inner_node(p, rel.target);
                relationship_values(&mut rel, &renames);
                rel.location = relocate(rel.location, &self.files[p]);
                relocate_interfaces(&mut rel.interfaces, &self.files[p]);
                self.out.relationships.push(rel);
            }
        }
    }

    /// The copies of outer relationships that a mapping onto a list fans out to.
    fn fanned_out(&mut self, fan_out: Vec<(Relationship, Option<Requirement>)>) {
        for (rel, assignment) in fan_out {
            let id = RelationshipId::from_index(self.out.relationships.len());
            let requirement = rel.requirement.clone();
            attach(
                &mut self.out.nodes[rel.source.index()],
                &requirement,
                id,
                assignment.as_ref(),
            );
            self.out.relationships.push(rel);
        }
    }

    /// The outer groups, a substituted member being its whole expansion, then the groups of
    /// each expansion under prefixed names.
    fn groups(&mut self) {
        for g in &self.outer.groups {
            let mut g = g.clone();
            g.members = g.members.iter().flat_map(|&m| self.spread(m)).collect();
            self.out.groups.push(g);
        }
        for (p, plan) in self.plans.iter().enumerate() {
            let prefix = &self.outer.nodes[plan.node].name;
            self.group_base[p] = self.out.groups.len();
            for g in &plan.inner.groups {
                let mut g = g.clone();
                g.name = prefixed(prefix, &g.name);
                g.members = g.members.iter().map(|&m| self.inner_node(p, m)).collect();
                g.location = relocate(g.location, &self.files[p]);
                self.out.groups.push(g);
            }
        }
    }

    /// The outer policies, a substituted target being its whole expansion, then the policies
    /// of each expansion under prefixed names.
    fn policies(&mut self) {
        for policy in &self.outer.policies {
            let mut policy = policy.clone();
            policy.targets = policy
                .targets
                .iter()
                .flat_map(|t| match t {
                    PolicyTarget::Node(id) => self
                        .spread(*id)
                        .into_iter()
                        .map(PolicyTarget::Node)
                        .collect(),
                    PolicyTarget::Group(g) => vec![PolicyTarget::Group(*g)],
                })
                .collect();
            self.out.policies.push(policy);
        }
        for (p, plan) in self.plans.iter().enumerate() {
            let prefix = &self.outer.nodes[plan.node].name;
            for policy in &plan.inner.policies {
                let mut policy = policy.clone();
                policy.name = prefixed(prefix, &policy.name);
                policy.targets = policy
                    .targets
                    .iter()
                    .map(|t| match t {
                        PolicyTarget::Node(id) => PolicyTarget::Node(self.inner_node(p, *id)),
                        PolicyTarget::Group(g) => {
                            PolicyTarget::Group(GroupId::from_index(self.group_base[p] + g.index()))
                        }
                    })
                    .collect();
                policy.location = relocate(policy.location, &self.files[p]);
                self.out.policies.push(policy);
            }
        }
    }

    /// Records of expansions inside the inner templates, and of the outer ones before.
    fn substituted(&mut self) {
        for s in &self.outer.substituted {
            let mut s = s.clone();
            s.nodes = s.nodes.iter().flat_map(|&m| self.spread(m)).collect();
            self.out.substituted.push(s);
        }
        for (p, plan) in self.plans.iter().enumerate() {
            let prefix = &self.outer.nodes[plan.node].name;
            for s in &plan.inner.substituted {
                let mut s = s.clone();
                s.name = prefixed(prefix, &s.name);
                s.nodes = s.nodes.iter().map(|&m| self.inner_node(p, m)).collect();
                s.location = relocate(s.location, &self.files[p]);
                self.out.substituted.push(s);
            }
        }
    }

    /// The outer boundary, when this topology substitutes for a node type itself: a mapping
    /// onto a substituted node follows that node's own mapping of the same name into its
    /// expansion; one its template does not map has nowhere to point, and is dropped.
    fn outer_boundary(&mut self) {
        let Some(mut s) = self.out.substitution.take() else {
            return;
        };
        let at = s.location;
        for (section, list) in [
            (Section::Capabilities, &mut s.capabilities),
            (Section::Requirements, &mut s.requirements),
        ] {
            list.retain_mut(|m| self.follow_boundary(section, m, at));
        }
        self.out.substitution = Some(s);
    }

    /// Points outer boundary mapping `m` into the spliced topology; false when it has nowhere
    /// to point (reported).
    fn follow_boundary(
        &mut self,
        section: Section,
        m: &mut BoundaryMapping,
        at: Option<Location>,
    ) -> bool {
        let Some(&p) = self.plan_of.get(&m.node.index()) else {
            return match self.new_id[m.node.index()] {
                Some(id) => {
                    m.node = id;
                    true
                }
                None => false,
            };
        };
        if let Some(inner) = boundary(&self.plans[p].inner, section, &m.target) {
            m.node = self.inner_node(p, inner.node);
            m.target = inner.target.clone();
            return true;
        }
        let noun = match section {
            Section::Capabilities => "capability",
            Section::Requirements => "requirement",
        };
        let name = &self.names[p];
        self.problems.push(SpliceProblem::warning(
            at,
            format!(
                "the boundary maps {noun} `{}` onto `{}` of `{}`, which `{name}` substitutes without mapping a {noun} `{}`; the mapping is dropped",
                m.name, m.target, self.outer.nodes[m.node.index()].name, m.target
            ),
            format!("map `{}` under `substitution_mappings` of `{name}`", m.target),
        ));
        false
    }

    /// `get_attribute: [ <substituted node>, <attribute> ]` elsewhere reads what its attribute
    /// mapping gives (Simple Profile §12 Using node template substitution for model composition;
    /// TOSCA 2.0 §15.3 Attribute Mapping), where the mapping names a value.
    fn mapped_attributes(&mut self) {
        let out = &mut self.out;
        let mapped: HashMap<String, IndexMap<String, Value>> = out.substituted[..self.plans.len()]
            .iter()
            .map(|s| (s.name.clone(), s.attributes.clone()))
            .collect();
        if mapped.is_empty() {
            return;
        }
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

    /// The spliced topology: a relationship that could not be re-pointed is taken out, with
    /// the requirement that used it left open.
    fn finish(mut self) -> Topology {
        if !self.dropped.is_empty() {
            drop_relationships(&mut self.out, &self.dropped);
        }
        self.out
    }
}

/// Boundary mapping `name` of `section` in the substituting template `inner`.
fn boundary<'t>(inner: &'t Topology, section: Section, name: &str) -> Option<&'t BoundaryMapping> {
    let s = inner.substitution.as_ref()?;
    let list = match section {
        Section::Capabilities => &s.capabilities,
        Section::Requirements => &s.requirements,
    };
    list.iter().find(|m| m.name == name)
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
