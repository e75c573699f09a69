//! TOSCA 2.0 requirement fulfilment (§3.2, §4.2.2, §8.5-8.6, §14; checklist T2-FULFIL,
//! T2-REQCOUNT, T2-ALLOC, T2-NFILTER).
//!
//! Each node template's assignments are read (with the implicit ones of [`super::counts`]) and
//! fulfilled in the order the spec prescribes: every non-optional assignment of every node, in
//! document order, before any optional one (§8.5.2 Requirement Assignment Grammar), so that
//! allocations, which use up capacity, go first to what must be fulfilled. An assignment asks for
//! `count` relationships from each representation of its node, each to a different representation
//! of the target (§14.3.2 One-to-Many Relationships):
//!
//! - `node` naming a node template (or `[template, index]`) connects to it, after checking that
//!   it fits: its type derives from the definition's `node`, it has the capability asked for
//!   (of the definition's capability type), the relationship type's `valid_target_node_types`
//!   and `valid_capability_types` and the capability's `valid_source_node_types` and
//!   `valid_relationship_types` admit it, the node filters hold (they verify a named target too,
//!   §8.6 Node Filter Definition), the allocation fits, and it has enough representations;
//! - otherwise the target is selected among the node templates, by the same checks
//!   ([`super::selection`], the Simple Profile's machinery, with the TOSCA 2.0 checks as its
//!   judge). Which of several fitting templates is chosen is left to the processor (§14.3.2):
//!   toscana takes them in document order, templates this node does not target yet for the
//!   same requirement first, and says so with a `tosca::chosen-target` warning.
//!
//! Where targets come from follows the assignment's `directives` (§8.5.2): `internal` looks in
//! this topology, `external` outside it, in the order given. A translator has nothing outside, so
//! an assignment that tries `external` first stays dangling for the orchestrator. Without
//! directives (the choice is the implementation's) toscana looks inside first and lets the
//! requirement dangle when the topology has no template of the kind asked for; when it has such
//! templates and none fits, the author evidently meant one of them, and it is an error that
//! explains each candidate. An optional assignment that cannot be fulfilled stays dangling;
//! `toscana check` says so.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use indexmap::IndexMap;

use super::allocation::Ledger;
use super::assignments::{self, Assignment, Definition, DefinitionCache};
use super::calls::{CallIndex, Evaluator, Functions, Graph, OpenRelationship, Scope};
use super::counts::{self, known};
use super::nodes::{NodeBuilder, index};
use super::requirements::{
    RelationshipTemplates, Unfulfilled, check_node_type, entry, labels, relationship,
};
use super::selection::{self, Candidates, TypeLists};
use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{NodeId, RelationshipId, Requirement, Topology, TypeNames, Value};
use crate::model::{Named, TopologyTemplate, TypeKind};
use crate::source::{FileId, Span};
use crate::yaml::Node as Yaml;

mod choose;
mod compatible;
mod judge;

use choose::plain_allocation;
use judge::unjudged;

/// One assignment on its way to relationships.
struct Plan<'y, 'm> {
    source: NodeId,
    a: Assignment<'y>,
    label: String,
    def: std::rc::Rc<Definition<'m>>,
    count: Value,
    target_index: Option<Value>,
    /// The templates chosen, each with its share of the count.
    targets: Vec<(NodeId, Value)>,
    /// The share of the count left dangling.
    open: Option<Value>,
    allocation: IndexMap<String, Value>,
}

/// What node filters are evaluated with: the calls subsystem (§10) over the node templates as
/// built, before any relationship exists. A filter is a condition clause whose `SELF` is the
/// relationship that would be established to the candidate (§8.6 Node Filter Definition), so it is
/// evaluated in [`Scope::Open`].
struct Conditions<'c, 'm> {
    graph: Graph<'c>,
    functions: &'c Functions<'m>,
    calls: CallIndex<'m>,
    inputs: &'c IndexMap<String, Option<Value>>,
}

impl<'y> Plan<'y, '_> {
    /// Every node filter that applies, the definition's (of every refinement) and the
    /// assignment's, all of which must hold (§8.4.1 Requirement Refinement, §8.5.2).
    fn filters(&self) -> Vec<&Yaml> {
        self.def
            .filters
            .iter()
            .copied()
            .chain(self.a.node_filter)
            .collect()
    }
}

/// What every decision shares: capacity used so far, and which templates each node already
/// targets for each requirement.
struct State<'m> {
    counts: Vec<Option<u64>>,
    ledger: Ledger,
    used: HashSet<(NodeId, String, NodeId)>,
    candidates: Option<Candidates>,
    /// What [`Decider::relationship_info`] read, by relationship type name and the file it is
    /// read in.
    relationships: HashMap<Option<(String, FileId)>, Rc<RelationshipInfo>>,
    /// Type lists of capabilities, for targets that are named (selection has its own).
    lists: TypeLists,
    /// Whether a definition's (node type, capability, file of the node type's name) names a
    /// capability of the node type.
    symbolic: HashMap<(String, String, FileId), bool>,
    definitions: DefinitionCache<'m>,
    /// Node filters read and checked once for what is wrong whatever the candidate (an
    /// unknown function, a malformed path), by where they are written: the value of each,
    /// and whether it is sound.
    sound_filters: HashMap<Span, (Value, bool)>,
}

pub fn connect<'m>(
    builder: &mut NodeBuilder<'m>,
    template: &TopologyTemplate,
    functions: &Functions<'m>,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) -> Vec<Unfulfilled> {
    let mut definitions = DefinitionCache::default();
    let mut plans: Vec<Plan> = Vec::new();
    for (i, named) in template.node_templates.iter().enumerate() {
        let source = NodeId::from_index(i);
        plans.extend(plans_of(
            builder,
            named,
            source,
            topology,
            &mut definitions,
            diags,
        ));
    }
    let mut state = State {
        counts: topology.nodes.iter().map(|n| known(&n.count)).collect(),
        ledger: Ledger::default(),
        used: HashSet::new(),
        candidates: None,
        relationships: HashMap::new(),
        lists: TypeLists::default(),
        symbolic: HashMap::new(),
        definitions,
        sound_filters: HashMap::new(),
    };
    // Node filters read the node templates as they are now; relationships come later.
    let snapshot = plans
        .iter()
        .any(|p| !p.filters().is_empty())
        .then(|| topology.clone());
    let no_inputs = IndexMap::new();
    let conditions = snapshot.as_ref().map(|snapshot| Conditions {
        graph: Graph::new(builder.model, snapshot),
        functions,
        calls: CallIndex::new(builder.model),
        inputs: builder.reader.inputs.unwrap_or(&no_inputs),
    });
    let by_name: HashMap<String, NodeId> = index(topology)
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let mut templates = RelationshipTemplates::new(template);
    let mut unfulfilled = Vec::new();
    // Non-optional assignments of every node first (§8.5.1 Supported Keynames, §8.5.2).
    let order: Vec<usize> = (0..plans.len())
        .filter(|&p| !plans[p].a.optional)
        .chain((0..plans.len()).filter(|&p| plans[p].a.optional))
        .collect();
    for p in order {
        let mut decider = Decider {
            builder: &mut *builder,
            topology: &*topology,
            template,
            state: &mut state,
            templates: &templates,
            diags: &mut *diags,
            unfulfilled: &mut unfulfilled,
            conditions: conditions.as_ref(),
        };
        let target = plans[p]
            .a
            .node
            .as_ref()
            .and_then(|(n, _)| by_name.get(n).copied());
        decider.decide(&mut plans[p], target);
    }

    for plan in &plans {
        let entries = build(
            builder,
            topology,
            plan,
            &mut templates,
            &state.sound_filters,
            diags,
        );
        topology.nodes[plan.source.index()]
            .requirements
            .extend(entries);
    }
    templates.report_unused(builder, diags);
    unfulfilled
}

/// The plans of node template `named` (node `source`): one per requirement assignment,
/// written or implicit, with its definition, count and label; none for a node that is
/// selected rather than created.
fn plans_of<'y, 'm>(
    builder: &mut NodeBuilder<'m>,
    named: &'y Named,
    source: NodeId,
    topology: &Topology,
    definitions: &mut DefinitionCache<'m>,
    diags: &mut Diagnostics,
) -> Vec<Plan<'y, 'm>> {
    let model = builder.model;
    let def = named.def.as_map();
    let node = &topology.nodes[source.index()];
    if let Some(filter) = def.and_then(|d| d.entry("node_filter"))
        && node.selection.is_none()
    {
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_UNKNOWN_KEY,
                format!(
                    "node template `{}` has a `node_filter` but not the `select` directive; nothing uses the filter",
                    node.name
                ),
            )
            .at(filter.key.span)
            .hint("a node filter on a node template selects the node from outside the topology (§7.2.1 Node Template Directives): add `directives: [ select ]`, or move the filter into the requirement that should choose by it"),
        );
    }
    let list = def.and_then(|d| d.entry("requirements"));
    let items = list
        .and_then(|l| crate::model::shape::seq(&l.value, "`requirements`", diags))
        .unwrap_or(&[]);
    let mut read: Vec<Assignment> = items
        .iter()
        .filter_map(|item| assignments::read(item, model.dialect, diags))
        .collect();
    if let Some(selection) = &node.selection
        && selection.otherwise.is_empty()
    {
        // A selected node is found, not created: its outgoing relationships are its own.
        if let Some(list) = list.filter(|_| !read.is_empty()) {
            diags.push(
                Diagnostic::warning(
                    codes::TOSCA_UNSUPPORTED,
                    format!(
                        "node template `{}` is selected (directive `select`), so its requirements are ignored",
                        node.name
                    ),
                )
                .at(list.key.span)
                .hint("a selected node's outgoing relationships cannot be changed (§7.2.1 Node Template Directives); add `create` after `select` to create the node when none is found"),
            );
        }
        return Vec::new();
    }
    let mut count_values: Vec<Value> = read
        .iter()
        .map(|a| count_value(builder, a, diags))
        .collect();
    counts::check(
        model,
        definitions,
        node,
        named,
        &mut read,
        &mut count_values,
        diags,
    );
    let labels = labels(&named.name, &read);
    let mut plans = Vec::with_capacity(read.len());
    for ((a, count), label) in read.into_iter().zip(count_values).zip(labels) {
        let def = definitions.get(model, node, &a.name);
        let target_index = a.target_index.map(|t| builder.reader.value(t, diags));
        plans.push(Plan {
            source,
            a,
            label,
            def,
            count,
            target_index,
            targets: Vec::new(),
            open: None,
            allocation: IndexMap::new(),
        });
    }
    plans
}

/// An assignment's `count` as a value: an integer, or a call when it depends on an unbound
/// input (the front end reported anything else).
fn count_value(builder: &NodeBuilder, a: &Assignment, diags: &mut Diagnostics) -> Value {
    if let Some(n) = a.implicit_count {
        return Value::Integer(n as i64);
    }
    match a.count.map(|c| builder.reader.value(c, diags)) {
        Some(v @ (Value::Integer(_) | Value::Call(_))) => v,
        _ => Value::Integer(1),
    }
}

/// The requirement entries and relationships of one decided plan.
fn build(
    builder: &mut NodeBuilder,
    topology: &mut Topology,
    plan: &Plan,
    templates: &mut RelationshipTemplates,
    filters_read: &HashMap<Span, (Value, bool)>,
    diags: &mut Diagnostics,
) -> Vec<Requirement> {
    let a = &plan.a;
    let location = builder.locator.at(a.span);
    let base = Requirement {
        count: plan.count.clone(),
        optional: a.optional,
        implicit: a.implicit,
        directives: a.directives.clone(),
        allocation: plan.allocation.clone(),
        ..entry(&a.name, None, location)
    };
    let mut out = Vec::new();
    for (target, share) in &plan.targets {
        let name = match plan.targets.len() {
            1 => plan.label.clone(),
            _ => format!("{}/{}", plan.label, topology.nodes[target.index()].name),
        };
        let mut rel = relationship(
            builder,
            topology,
            plan.source,
            *target,
            a,
            name,
            templates,
            diags,
        );
        rel.count = share.clone();
        rel.target_index = plan.target_index.clone();
        rel.allocation = plan.allocation.clone();
        topology.relationships.push(rel);
        out.push(Requirement {
            relationship: Some(RelationshipId::from_index(topology.relationships.len() - 1)),
            count: share.clone(),
            ..base.clone()
        });
    }
    if let Some(open) = &plan.open {
        out.push(Requirement {
            count: open.clone(),
            node: a.node.as_ref().map(|(n, _)| n.clone()),
            capability: a.capability.clone(),
            // Read (and reported) where the filter was judged, if it was; else read here.
            node_filter: a.node_filter.map(|f| match filters_read.get(&f.span) {
                Some((value, _)) => value.clone(),
                None => builder.reader.value(f, diags),
            }),
            ..base
        });
    }
    out
}

/// What the relationship of an assignment is, before it exists: its type's ancestry, its
/// properties, and what the type admits.
struct RelationshipInfo {
    types: TypeNames,
    properties: IndexMap<String, Value>,
    /// `valid_target_node_types`, `valid_capability_types`, `valid_source_node_types` (full
    /// names; empty when the type does not restrict).
    valid_targets: Vec<String>,
    valid_capabilities: Vec<String>,
    valid_sources: Vec<String>,
}

struct Decider<'d, 'b, 'a> {
    builder: &'d mut NodeBuilder<'b>,
    topology: &'d Topology,
    template: &'a TopologyTemplate,
    state: &'d mut State<'b>,
    templates: &'d RelationshipTemplates<'a>,
    diags: &'d mut Diagnostics,
    unfulfilled: &'d mut Vec<Unfulfilled>,
    conditions: Option<&'d Conditions<'d, 'b>>,
}

impl<'b> Decider<'_, 'b, '_> {
    /// The plan's node filters as values, each checked once (in the scope of a relationship
    /// to no particular candidate) for what is wrong whatever the candidate; a filter found
    /// wrong is reported and not judged (see [`unjudged`]).
    fn sound_filters(&mut self, plan: &Plan, relationship: &RelationshipInfo) -> Vec<Value> {
        let Some(conditions) = self.conditions else {
            return Vec::new();
        };
        let scope = Scope::Open(Box::new(OpenRelationship {
            source: Some(plan.source),
            types: relationship.types.clone(),
            ..OpenRelationship::default()
        }));
        let mut out = Vec::new();
        for filter in plan.filters() {
            let sound = match self.state.sound_filters.get(&filter.span) {
                Some(read) => read.clone(),
                None => {
                    // The filter's first reading as a value: what is wrong in it as one is
                    // reported here, once, however many requirements it serves (an open
                    // requirement keeps this value, see [`build`]).
                    let value = self.builder.reader.value(filter, self.diags);
                    let mut found = Diagnostics::new();
                    let mut typing = self.builder.typing();
                    let mut evaluator = Evaluator::new(
                        &mut typing,
                        &conditions.graph,
                        conditions.functions,
                        &conditions.calls,
                        conditions.inputs,
                    );
                    evaluator.evaluate(&value, &scope, &mut found);
                    let sound = !found.has_errors();
                    self.diags.extend(found.finish().into_iter().map(unjudged));
                    self.state
                        .sound_filters
                        .insert(filter.span, (value.clone(), sound));
                    (value, sound)
                }
            };
            if sound.1 {
                out.push(sound.0);
            }
        }
        out
    }

    /// Indexes the node templates for selection, on first use.
    fn index_candidates(&mut self) {
        if self.state.candidates.is_none() {
            self.state.candidates = Some(Candidates::new(self.topology));
        }
    }

    fn decide(&mut self, plan: &mut Plan, target: Option<NodeId>) {
        let model = self.builder.model;
        let source = &self.topology.nodes[plan.source.index()];
        let complete = self.state.definitions.complete(model, source);
        plan.allocation = plain_allocation(self.builder, plan.a.allocation, self.diags);
        let k = known(&plan.count);
        if k == Some(0) {
            return;
        }
        if !complete {
            // Types taken on trust (a profile that was not found): nothing to judge by.
            match target {
                Some(t) => plan.targets.push((t, plan.count.clone())),
                None => plan.open = Some(plan.count.clone()),
            }
            return;
        }
        let (relationship, at) = self.relationship_info(plan);
        self.compatible(plan, &relationship, at);
        match target {
            Some(t) => self.named(plan, t, &relationship),
            None => {
                let names_type = plan.a.node.as_ref().is_none_or(|(n, at)| {
                    self.builder
                        .ancestry
                        .full_name(model, TypeKind::Node, n, at.file)
                        .is_some()
                });
                if !names_type {
                    check_node_type(
                        self.builder,
                        self.topology,
                        plan.source,
                        &plan.a,
                        self.diags,
                    );
                    plan.open = Some(plan.count.clone());
                    return;
                }
                self.select(plan, &relationship);
            }
        }
    }

    /// The relationship type the assignment uses (its own, a relationship template's, or the
    /// definition's), with its properties and `valid_*` lists, and where the type is named.
    /// Read once per type for the assignments that set no properties of their own.
    fn relationship_info(&mut self, plan: &Plan) -> (Rc<RelationshipInfo>, Span) {
        let model = self.builder.model;
        let a = &plan.a;
        let mut assigned: Option<&Yaml> = None;
        // The type's name and where it is written (it is read in that file's namespaces).
        let mut name: Option<(String, Span)> = plan
            .def
            .relationship
            .clone()
            .map(|n| (n, plan.def.relationship_at.unwrap_or(a.span)));
        let mut at = name.as_ref().map_or(a.span, |(_, s)| *s);
        match a.relationship {
            Some(r) if r.as_str().is_some() => {
                let text = r.as_str().unwrap_or_default();
                at = r.span;
                if self
                    .builder
                    .ancestry
                    .full_name(model, TypeKind::Relationship, text, r.span.file)
                    .is_some()
                {
                    name = Some((text.to_string(), r.span));
                } else if let Some(t) = self.templates.get(text) {
                    let def = t.def.as_map();
                    name = def
                        .and_then(|m| m.get("type"))
                        .and_then(|t| Some((t.scalar_text()?.to_string(), t.span)));
                    assigned = def.and_then(|m| m.get("properties"));
                }
            }
            Some(r) => {
                let map = r.as_map();
                if let Some(t) = map.and_then(|m| m.get("type")) {
                    at = t.span;
                    name = t.scalar_text().map(|n| (n.to_string(), t.span));
                }
                assigned = map.and_then(|m| m.get("properties"));
            }
            None => {}
        }
        let key = name.as_ref().map(|(n, s)| (n.clone(), s.file));
        if assigned.is_none()
            && let Some(known) = self.state.relationships.get(&key)
        {
            return (Rc::clone(known), at);
        }
        // The relationship's type and properties are read, and what is wrong with them
        // reported, where the relationship is made (`relationship`, from `build`): this
        // earlier reading, to judge candidates, reports nothing.
        let types = match &name {
            Some((n, written)) => self.builder.ancestry.of_reported_elsewhere(
                model,
                TypeKind::Relationship,
                n,
                *written,
            ),
            None => TypeNames::default(),
        };
        let defs = definitions(model, TypeKind::Relationship, &types);
        let properties = self.builder.merged_values(&defs, "properties", assigned);
        let ancestry = &mut *self.builder.ancestry;
        let info = Rc::new(RelationshipInfo {
            valid_targets: selection::listed_types(
                ancestry,
                model,
                &defs,
                "valid_target_node_types",
                TypeKind::Node,
            ),
            valid_capabilities: selection::listed_types(
                ancestry,
                model,
                &defs,
                "valid_capability_types",
                TypeKind::Capability,
            ),
            valid_sources: selection::listed_types(
                ancestry,
                model,
                &defs,
                "valid_source_node_types",
                TypeKind::Node,
            ),
            types,
            properties,
        });
        if assigned.is_none() {
            self.state.relationships.insert(key, Rc::clone(&info));
        }
        (info, at)
    }
}

#[cfg(test)]
#[path = "fulfil_tests.rs"]
mod tests;
