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

use super::allocation::{self, Amount, Ledger};
use super::assignments::{self, Assignment, Definition, DefinitionCache};
use super::calls::{CallIndex, Evaluator, Functions, Graph, OpenRelationship, Scope};
use super::counts::{self, known};
use super::filters::Verdict;
use super::nodes::{NodeBuilder, index};
use super::requirements::{
    RelationshipTemplates, Unfulfilled, check_node_type, entry, labels, relationship,
    target_capability,
};
use super::selection::{self, Candidates, Selection, TypeLists, Wanted};
use super::types::definitions;
use super::typing::Typing;
use crate::diag::{Diagnostic, Diagnostics, codes, plural};
use crate::ir::{NodeId, RelationshipId, Requirement, Topology, TypeNames, Value, type_matches};
use crate::model::{TopologyTemplate, TypeKind};
use crate::source::{FileId, Span};
use crate::yaml::Node as Yaml;

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
    /// Node filters checked once for what is wrong whatever the candidate (an unknown
    /// function, a malformed path), by where they are written: whether they are sound.
    sound_filters: HashMap<Span, bool>,
}

pub fn connect<'m>(
    builder: &mut NodeBuilder<'m>,
    template: &TopologyTemplate,
    functions: &Functions<'m>,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) -> Vec<Unfulfilled> {
    let model = builder.model;
    let mut plans: Vec<Plan> = Vec::new();
    let mut definitions = DefinitionCache::default();
    for (i, named) in template.node_templates.iter().enumerate() {
        let def = named.def.as_map();
        let node = &topology.nodes[i];
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
            continue;
        }
        let mut count_values: Vec<Value> = read
            .iter()
            .map(|a| count_value(builder, a, diags))
            .collect();
        counts::check(
            model,
            &mut definitions,
            node,
            named,
            &mut read,
            &mut count_values,
            diags,
        );
        let labels = labels(&named.name, &read);
        for ((a, count), label) in read.into_iter().zip(count_values).zip(labels) {
            let def = definitions.get(model, &topology.nodes[i], &a.name);
            let target_index = a.target_index.map(|t| builder.reader.value(t, diags));
            plans.push(Plan {
                source: NodeId::from_index(i),
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
        graph: Graph::new(model, snapshot),
        functions,
        calls: CallIndex::new(model),
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
        let entries = build(builder, topology, plan, &mut templates, diags);
        topology.nodes[plan.source.index()]
            .requirements
            .extend(entries);
    }
    templates.report_unused(diags);
    unfulfilled
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
            node_filter: a.node_filter.map(|f| builder.reader.value(f, diags)),
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
            let value = self
                .builder
                .reader
                .value(filter, &mut Diagnostics::with_cap(0));
            let sound = match self.state.sound_filters.get(&filter.span) {
                Some(&sound) => sound,
                None => {
                    let mut typing = self.builder.typing();
                    let mut evaluator = Evaluator::new(
                        &mut typing,
                        &conditions.graph,
                        conditions.functions,
                        &conditions.calls,
                        conditions.inputs,
                    );
                    let mut found = Diagnostics::new();
                    evaluator.evaluate(&value, &scope, &mut found);
                    let sound = !found.has_errors();
                    self.diags.extend(found.finish().into_iter().map(unjudged));
                    self.state.sound_filters.insert(filter.span, sound);
                    sound
                }
            };
            if sound {
                out.push(value);
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
        plan.allocation = plain_allocation(self.builder, plan.a.allocation);
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
        let mut quiet = Diagnostics::with_cap(0);
        let types = match &name {
            Some((n, written)) => {
                self.builder
                    .ancestry
                    .of(model, TypeKind::Relationship, n, *written, &mut quiet)
            }
            None => TypeNames::default(),
        };
        let defs = definitions(model, TypeKind::Relationship, &types);
        let properties = self.builder.merged(
            "the relationship",
            &defs,
            "properties",
            assigned,
            at,
            &mut quiet,
        );
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

    /// The assignment against its definition (T2-REQASSIGN-05): a node type, capability and
    /// relationship type of its own must narrow the definition's, a symbolic capability stays
    /// as it is, and the relationship type must admit this node as its source.
    fn compatible(&mut self, plan: &Plan, relationship: &RelationshipInfo, at: Span) {
        let model = self.builder.model;
        let source = &self.topology.nodes[plan.source.index()];
        let a = &plan.a;
        let full =
            |b: &mut NodeBuilder, kind, n: &str, file| b.ancestry.full_name(model, kind, n, file);
        if let (Some((node, at)), Some(wanted)) = (&a.node, &plan.def.node)
            && !self.topology.nodes.iter().any(|n| &n.name == node)
            && let Some(wanted_full) =
                full(self.builder, TypeKind::Node, wanted, plan.def.node_in())
        {
            let types = self.builder.ancestry.of(
                model,
                TypeKind::Node,
                node,
                *at,
                &mut Diagnostics::with_cap(0),
            );
            if !types.is_empty() && !type_matches(&types, &wanted_full) {
                self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{}` of `{}` asks for a `{node}`, which does not derive from `{wanted}`, the node type its definition requires",
                            a.name, source.name
                        ),
                    )
                    .at(*at)
                    .hint(format!("name `{wanted}` or a type derived from it (§8.5.2 Requirement Assignment Grammar)")),
                );
            }
        }
        let symbolic = self.symbolic_capability(plan);
        if let (Some(cap), Some(at)) = (&a.capability, a.capability_at) {
            let as_type = full(self.builder, TypeKind::Capability, cap, at.file);
            match (&symbolic, &as_type, &plan.def.capability) {
                (Some(name), Some(_), _) if name != cap => self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{}` of `{}` names capability type `{cap}`, but its definition names the capability `{name}`, which an assignment cannot change",
                            a.name, source.name
                        ),
                    )
                    .at(at)
                    .hint(format!("write `capability: {name}`, or leave it out (§8.5.2 Requirement Assignment Grammar)")),
                ),
                (Some(name), None, _) if name != cap => self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{}` of `{}` names capability `{cap}`, but its definition names the capability `{name}`, which an assignment cannot change",
                            a.name, source.name
                        ),
                    )
                    .at(at)
                    .hint(format!("write `capability: {name}`, or leave it out (§8.5.2 Requirement Assignment Grammar)")),
                ),
                (None, Some(cap_full), Some(wanted)) => {
                    if let Some(wanted_full) = full(
                        self.builder,
                        TypeKind::Capability,
                        wanted,
                        plan.def.capability_in(),
                    ) {
                        let types = self.builder.ancestry.of(
                            model,
                            TypeKind::Capability,
                            cap,
                            at,
                            &mut Diagnostics::with_cap(0),
                        );
                        if !types.is_empty()
                            && !type_matches(&types, &wanted_full)
                            && cap_full != &wanted_full
                        {
                            self.diags.push(
                                Diagnostic::error(
                                    codes::TOSCA_TYPE_MISMATCH,
                                    format!(
                                        "requirement `{}` of `{}` asks for capability type `{cap}`, which does not derive from `{wanted}`, the capability type its definition requires",
                                        a.name, source.name
                                    ),
                                )
                                .at(at)
                                .hint(format!("name `{wanted}` or a type derived from it, or a capability of the target by name (§8.5.2 Requirement Assignment Grammar)")),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        if let (Some(declared), Some(first)) = (&plan.def.relationship, relationship.types.first())
            && let Some(declared_full) = full(
                self.builder,
                TypeKind::Relationship,
                declared,
                plan.def.relationship_in(),
            )
            && !type_matches(&relationship.types, &declared_full)
        {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!(
                        "requirement `{}` of `{}` uses relationship type `{first}`, which does not derive from `{declared}`, the relationship type its definition requires",
                        a.name, source.name
                    ),
                )
                .at(at)
                .hint(format!("use `{declared}` or a type derived from it (§8.5.2 Requirement Assignment Grammar)")),
            );
        }
        if !selection::admits(&relationship.valid_sources, &source.types)
            && let Some(first) = relationship.types.first()
        {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!(
                        "requirement `{}` of `{}` creates a `{first}` relationship, whose type admits only sources of type {}; `{}` is a {}",
                        a.name,
                        source.name,
                        relationship.valid_sources.join(", "),
                        source.name,
                        source.type_name
                    ),
                )
                .at(a.span)
                .hint("use a relationship type whose `valid_source_node_types` admit this node (§7.3 Relationship Type)"),
            );
        }
    }

    /// The definition's capability when it is the symbolic name of a capability of its `node`
    /// type rather than a capability type (§8.4 Requirement Definition; T2-REQDEF-02).
    fn symbolic_capability(&mut self, plan: &Plan) -> Option<String> {
        let (cap, node) = (plan.def.capability.as_ref()?, plan.def.node.as_ref()?);
        let key = (node.clone(), cap.clone(), plan.def.node_in());
        if let Some(&known) = self.state.symbolic.get(&key) {
            return known.then(|| cap.clone());
        }
        let symbolic = self.names_capability(plan, node, cap);
        self.state.symbolic.insert(key, symbolic);
        symbolic.then(|| cap.clone())
    }

    /// Whether node type `node` has a capability named `cap`.
    fn names_capability(&mut self, plan: &Plan, node: &str, cap: &str) -> bool {
        let model = self.builder.model;
        let written = plan.def.node_in();
        let Some(full) = self
            .builder
            .ancestry
            .full_name(model, TypeKind::Node, node, written)
        else {
            return false;
        };
        let types = self.builder.ancestry.chain(model, TypeKind::Node, &full);
        let defs = definitions(model, TypeKind::Node, &types);
        super::filters::capability_names(&defs).contains(&cap)
    }

    /// What the assignment asks of its target's type and capability.
    fn wanted(
        &mut self,
        plan: &Plan,
        named_template: bool,
        relationship: &RelationshipInfo,
    ) -> Wanted {
        let model = self.builder.model;
        let mut wanted = Wanted {
            admitted: relationship.valid_capabilities.clone(),
            ..Wanted::default()
        };
        if !named_template
            && let Some((n, at)) = &plan.a.node
            && let Some(full) = self
                .builder
                .ancestry
                .full_name(model, TypeKind::Node, n, at.file)
        {
            wanted.node_types.push(full);
        }
        let node_in = plan.def.node_in();
        if let Some(full) = plan.def.node.as_ref().and_then(|n| {
            self.builder
                .ancestry
                .full_name(model, TypeKind::Node, n, node_in)
        }) && !wanted.node_types.contains(&full)
        {
            wanted.node_types.push(full);
        }
        let symbolic = self.symbolic_capability(plan);
        let written = match &plan.a.capability {
            Some(c) => Some((c.clone(), plan.a.capability_at.unwrap_or(plan.a.span).file)),
            None => symbolic.clone().map(|c| (c, plan.def.capability_in())),
        };
        wanted.capability = written.map(|(c, file)| {
            let full = self
                .builder
                .ancestry
                .full_name(model, TypeKind::Capability, &c, file);
            (c, full)
        });
        if symbolic.is_none() {
            let capability_in = plan.def.capability_in();
            wanted.capability_type = plan.def.capability.as_ref().and_then(|c| {
                self.builder
                    .ancestry
                    .full_name(model, TypeKind::Capability, c, capability_in)
            });
        }
        wanted
    }

    /// An assignment that names its target template: the target is checked, not chosen.
    fn named(&mut self, plan: &mut Plan, target: NodeId, relationship: &RelationshipInfo) {
        let wanted = self.wanted(plan, true, relationship);
        let node = &self.topology.nodes[target.index()];
        let asks_capability = wanted.capability.is_some() || wanted.capability_type.is_some();
        if asks_capability
            && chosen_capability(self.topology, target, &wanted, &plan.a.name).is_none()
            && wanted
                .node_types
                .iter()
                .all(|t| type_matches(&node.types, t))
        {
            // Connected as written: the relationship reports the capability the target lacks,
            // with the type of the same name it has instead, where it has one.
            plan.targets.push((target, plan.count.clone()));
            return;
        }
        let verdict = self.judge(plan, &wanted, relationship, target);
        let name = self.topology.nodes[target.index()].name.clone();
        let why = match verdict {
            Verdict::Fails(why) => Some(format!("`{name}` {why}")),
            _ => self.room(plan, target, plan.target_index.is_none()),
        };
        if let Some(why) = why {
            let source = &self.topology.nodes[plan.source.index()].name;
            self.fail(
                plan,
                format!(
                    "requirement `{}` of `{source}` names `{name}`, which cannot fulfil it: {why}",
                    plan.a.name
                ),
                "name a node template that fits, or change what the requirement asks for",
            );
            return;
        }
        self.take(plan, target, known(&plan.count).unwrap_or(1), relationship);
        plan.targets.push((target, plan.count.clone()));
    }

    /// Whether `target` has the representations a share of `count` needs: different ones for
    /// each relationship (`distinct`), and the one a literal `[template, index]` names.
    fn room(&self, plan: &Plan, target: NodeId, distinct: bool) -> Option<String> {
        let name = &self.topology.nodes[target.index()].name;
        let have = self.state.counts[target.index()]?;
        if let Some(Value::Integer(i)) = plan.target_index
            && (i < 0 || i as u64 >= have)
        {
            return Some(format!(
                "`{name}` has {have} representation{} (indices 0 to {}), so there is none of index {i}",
                plural(have),
                have.saturating_sub(1)
            ));
        }
        let k = known(&plan.count)?;
        (distinct && k > have).then(|| {
            format!(
                "it asks for {k} relationship{}, each to a different representation, and `{name}` has {have}",
                plural(k)
            )
        })
    }

    /// Records the allocations of `share` relationships from every representation of the
    /// source to `target`, and that the source targets it for this requirement.
    fn take(
        &mut self,
        plan: &mut Plan,
        target: NodeId,
        share: u64,
        relationship: &RelationshipInfo,
    ) {
        self.state
            .used
            .insert((plan.source, plan.a.name.clone(), target));
        let Some((cap, amounts)) = self.amounts(plan, target, relationship) else {
            return;
        };
        plan.allocation = amounts
            .iter()
            .map(|a| (a.property.clone(), a.value.clone()))
            .collect();
        let units = self.state.counts[plan.source.index()].unwrap_or(1) * share;
        self.state.ledger.take(target, &cap, &amounts, units);
    }

    /// The allocation read against the capability of `target` the relationship connects to.
    fn amounts(
        &mut self,
        plan: &Plan,
        target: NodeId,
        relationship: &RelationshipInfo,
    ) -> Option<(String, Vec<Amount>)> {
        let allocation = plan.a.allocation?;
        let wanted = self.wanted(plan, true, relationship);
        let cap = chosen_capability(self.topology, target, &wanted, &plan.a.name)?;
        let capability = &self.topology.nodes[target.index()].capabilities[cap.as_str()];
        let amounts = allocation::read(
            &mut self.builder.typing(),
            allocation,
            capability,
            &cap,
            None,
        )
        .ok()?;
        Some((cap, amounts))
    }

    /// The target chosen among the templates.
    fn select(&mut self, plan: &mut Plan, relationship: &RelationshipInfo) {
        let wanted = self.wanted(plan, false, relationship);
        let filters = plan.def.filters.len() + usize::from(plan.a.node_filter.is_some());
        if wanted.node_types.is_empty()
            && wanted.capability.is_none()
            && wanted.capability_type.is_none()
            && filters == 0
        {
            // Nothing says what the target is: the orchestrator's to find.
            plan.open = Some(plan.count.clone());
            return;
        }
        let source_name = self.topology.nodes[plan.source.index()].name.clone();
        let asks = wanted.describe(filters > 0);
        let directives = &plan.a.directives;
        if directives.first().map(String::as_str) == Some("external") {
            plan.open = Some(plan.count.clone());
            if self.builder.ctx.report_open_requirements {
                self.diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_UNFULFILLED,
                        format!(
                            "requirement `{}` of `{source_name}` asks for {asks} from outside this topology first (directive `external`), so it is left to the orchestrator",
                            plan.a.name
                        ),
                    )
                    .at(plan.a.span)
                    .hint("put `internal` first to fulfil it from this topology's node templates"),
                );
            }
            return;
        }
        let filters = self.sound_filters(plan, relationship);
        self.index_candidates();
        let candidates = self.state.candidates.as_ref().expect("indexed above");
        let mut judge = Judge2::new(
            (self.topology, self.template),
            plan,
            relationship,
            self.state,
            &candidates.lists,
            (self.conditions, filters),
        );
        let mut extra = |typing: &mut Typing<'_, 'b>, id: NodeId, cap: Option<&str>| {
            judge.judge(typing, id, cap)
        };
        let selection = selection::select(
            &mut self.builder.typing(),
            self.topology,
            candidates,
            plan.source,
            &plan.a.name,
            &wanted,
            &mut extra,
        );
        let (fitting, lines, outside) = match selection {
            Selection::One(id) => (vec![id], Vec::new(), false),
            Selection::Open {
                fitting,
                lines,
                outside,
            } => (fitting, lines, outside),
        };
        // Templates this node does not target yet for this requirement first, then document
        // order (the order the candidates come in).
        let mut ordered = fitting.clone();
        ordered.sort_by_key(|t| {
            self.state
                .used
                .contains(&(plan.source, plan.a.name.clone(), *t))
        });
        let Some(mut remaining) = known(&plan.count) else {
            // A count known only at deployment: the first template that fits takes it all.
            if let Some(&first) = ordered.first() {
                self.chosen(plan, &ordered[..1], &fitting, &lines);
                self.take(plan, first, 1, relationship);
                plan.targets.push((first, plan.count.clone()));
            } else {
                self.unfulfilled(plan, plan.count.clone(), &asks, &lines, outside);
            }
            return;
        };
        let units = self.state.counts[plan.source.index()].unwrap_or(1).max(1);
        let mut chosen = Vec::new();
        // What limits each template's share, for the message when the count is not reached.
        let mut limits: Vec<String> = Vec::new();
        for t in ordered.iter().copied() {
            if remaining == 0 {
                break;
            }
            let target = &self.topology.nodes[t.index()].name;
            let have = self.state.counts[t.index()].unwrap_or(remaining);
            let mut share = remaining.min(have);
            let mut limit = format!("`{target}` has {have} representation{}", plural(have));
            if let Some((cap, amounts)) = self.amounts(plan, t, relationship) {
                let capability = &self.topology.nodes[t.index()].capabilities[cap.as_str()];
                let count = self.state.counts[t.index()];
                if let Some(fit) = self.state.ledger.fits(capability, t, &cap, &amounts, count)
                    && fit / units < share
                {
                    share = fit / units;
                    limit = format!(
                        "capability `{cap}` of `{target}` has room for {fit} allocation{} of {} in all",
                        plural(fit),
                        amounts
                            .iter()
                            .map(|a| format!(
                                "`{}: {}`",
                                a.property,
                                crate::ir::value_text(&a.value)
                            ))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                }
            }
            limits.push(limit);
            if share == 0 {
                continue;
            }
            self.take(plan, t, share, relationship);
            plan.targets.push((t, Value::Integer(share as i64)));
            chosen.push(t);
            remaining -= share;
        }
        self.chosen(plan, &chosen, &fitting, &lines);
        if remaining > 0 {
            let missing = Value::Integer(remaining as i64);
            if chosen.is_empty() && limits.iter().all(|l| !l.starts_with("capability")) {
                self.unfulfilled(plan, missing, &asks, &lines, outside);
            } else {
                let k = known(&plan.count).unwrap_or(remaining);
                let (each, apiece) = match self.state.counts[plan.source.index()] {
                    Some(n) if n > 1 => (
                        format!("each of the {n} representations of `{source_name}` asks"),
                        " each",
                    ),
                    _ => (format!("`{source_name}` asks"), ""),
                };
                self.fail(
                    plan,
                    format!(
                        "requirement `{}` cannot be fulfilled: {each} for {k} relationship{} to {asks}, each to a different representation, and only {}{apiece} can be made: {}",
                        plan.a.name,
                        plural(k),
                        k - remaining,
                        limits.join("; ")
                    ),
                    "lower its `count`, or give the targets more representations or capacity",
                );
                plan.open = Some(missing);
            }
        }
    }

    /// Says which template was chosen when more fit than were needed.
    fn chosen(&mut self, plan: &Plan, chosen: &[NodeId], fitting: &[NodeId], lines: &[String]) {
        if chosen.is_empty() || fitting.len() <= chosen.len() {
            return;
        }
        let names: Vec<String> = chosen
            .iter()
            .map(|t| format!("`{}`", self.topology.nodes[t.index()].name))
            .collect();
        let source = &self.topology.nodes[plan.source.index()].name;
        self.diags.push(
            Diagnostic::warning(
                codes::TOSCA_CHOSEN_TARGET,
                format!(
                    "requirement `{}` of `{source}` is fulfilled by {}, chosen among {} node templates that fit: {}",
                    plan.a.name,
                    names.join(" and "),
                    fitting.len(),
                    lines.join("; ")
                ),
            )
            .at(plan.a.span)
            .hint("the choice is the processor's (§14.3.2 One-to-Many Relationships): toscana takes the templates this node does not target yet for the requirement first, then document order; name the template meant with `node: <template>`, or narrow the choice with a `node_filter`"),
        );
    }

    /// No template fits: an error when the author evidently meant one of those judged, else
    /// dangling for the orchestrator (with a warning from `check`).
    fn unfulfilled(
        &mut self,
        plan: &mut Plan,
        missing: Value,
        asks: &str,
        lines: &[String],
        outside: bool,
    ) {
        plan.open = Some(missing);
        let source = self.topology.nodes[plan.source.index()].name.clone();
        let external =
            plan.a.directives.is_empty() || plan.a.directives.iter().any(|d| d == "external");
        let listed = lines.join("; ");
        if plan.a.optional || (outside && external) {
            if !self.builder.ctx.report_open_requirements || (plan.a.optional && outside) {
                return;
            }
            let message = if plan.a.optional {
                format!(
                    "no node template fits the optional requirement `{}` of `{source}`, which asks for {asks}, so it stays unfulfilled: {listed}",
                    plan.a.name
                )
            } else {
                format!(
                    "requirement `{}` of `{source}` asks for {asks}, and the topology has none; an orchestrator would have to select or allocate the target",
                    plan.a.name
                )
            };
            self.diags.push(
                Diagnostic::warning(codes::TOSCA_UNFULFILLED, message)
                    .at(plan.a.span)
                    .hint("add a node template that fits if this topology should hold it; the IR keeps the requirement with its criteria"),
            );
            return;
        }
        let message = if outside {
            format!(
                "requirement `{}` of `{source}` asks for {asks} from this topology only (directive `internal`), and the topology has none",
                plan.a.name
            )
        } else {
            format!(
                "no node template fits requirement `{}` of `{source}`, which asks for {asks}: {listed}",
                plan.a.name
            )
        };
        let hint = format!(
            "make one fit, or name one with `node: <template>`; if the target may come from outside the topology, add `directives: [ internal, external ]`, mark the assignment `optional: true`, or expose the requirement in `substitution_mappings`; a node `{source}` with the `select` directive is not fulfilled here"
        );
        self.unfulfilled_error(plan, message, &hint);
    }

    /// A requirement that cannot be fulfilled as written: an error, or a warning (and
    /// dangling) when it is optional.
    fn fail(&mut self, plan: &mut Plan, message: String, hint: &str) {
        if plan.a.optional {
            plan.open = Some(plan.count.clone());
            self.diags.push(
                Diagnostic::warning(
                    codes::TOSCA_UNFULFILLED,
                    format!("{message}; it is optional, so it stays unfulfilled"),
                )
                .at(plan.a.span)
                .hint(hint),
            );
            return;
        }
        self.unfulfilled_error(plan, message, hint);
    }

    /// The error of a requirement nothing fulfils, reported once substitution mappings are
    /// known (a mapped requirement is fulfilled outside).
    fn unfulfilled_error(&mut self, plan: &Plan, message: String, hint: &str) {
        self.unfulfilled.push(Unfulfilled {
            node: plan.source,
            requirement: plan.a.name.clone(),
            diagnostic: Diagnostic::error(codes::TOSCA_UNFULFILLED, message)
                .at(plan.a.span)
                .hint(hint),
        });
    }

    /// Judges one template the assignment names, reporting what its allocation gets wrong.
    fn judge(
        &mut self,
        plan: &Plan,
        wanted: &Wanted,
        relationship: &RelationshipInfo,
        target: NodeId,
    ) -> Verdict {
        if let (Some(allocation), Some(cap)) = (
            plan.a.allocation,
            chosen_capability(self.topology, target, wanted, &plan.a.name),
        ) {
            let capability = &self.topology.nodes[target.index()].capabilities[cap.as_str()];
            if allocation::read(
                &mut self.builder.typing(),
                allocation,
                capability,
                &cap,
                Some(self.diags),
            )
            .is_err()
            {
                return Verdict::Fits;
            }
        }
        let filters = self.sound_filters(plan, relationship);
        let mut judge = Judge2::new(
            (self.topology, self.template),
            plan,
            relationship,
            self.state,
            &self.state.lists,
            (self.conditions, filters),
        );
        let mut extra = |typing: &mut Typing<'_, 'b>, id: NodeId, cap: Option<&str>| {
            judge.judge(typing, id, cap)
        };
        selection::judge(
            &mut self.builder.typing(),
            self.topology,
            &self.state.lists,
            plan.source,
            target,
            &plan.a.name,
            wanted,
            &mut extra,
        )
    }
}

/// The allocation as plain values, for the IR when no target reads it as typed.
fn plain_allocation(builder: &NodeBuilder, allocation: Option<&Yaml>) -> IndexMap<String, Value> {
    match allocation.map(|a| builder.reader.value(a, &mut Diagnostics::with_cap(0))) {
        Some(Value::Map(m)) => m,
        _ => IndexMap::new(),
    }
}

/// The capability of `target` a requirement connects to: the one named, else the one of the
/// type asked for (named like the requirement, else the first).
fn chosen_capability(
    topology: &Topology,
    target: NodeId,
    wanted: &Wanted,
    requirement: &str,
) -> Option<String> {
    let capabilities = &topology.nodes[target.index()].capabilities;
    let asked = match &wanted.capability {
        Some((name, _)) if capabilities.contains_key(name) => name,
        Some((_, full)) => full.as_ref()?,
        None => wanted.capability_type.as_ref()?,
    };
    target_capability(capabilities, asked, requirement, &wanted.admitted)
}

/// The TOSCA 2.0 checks of a candidate beyond its type and capability.
struct Judge2<'a, 'm> {
    topology: &'a Topology,
    template: &'a TopologyTemplate,
    source: NodeId,
    relationship: &'a RelationshipInfo,
    /// The node filters, as values, and what evaluates them.
    conditions: Option<&'a Conditions<'a, 'm>>,
    filters: Vec<Value>,
    allocation: Option<&'a Yaml>,
    counts: &'a [Option<u64>],
    ledger: &'a Ledger,
    lists: &'a TypeLists,
}

impl<'a, 'm> Judge2<'a, 'm> {
    fn new(
        (topology, template): (&'a Topology, &'a TopologyTemplate),
        plan: &'a Plan,
        relationship: &'a RelationshipInfo,
        state: &'a State<'_>,
        lists: &'a TypeLists,
        (conditions, filters): (Option<&'a Conditions<'a, 'm>>, Vec<Value>),
    ) -> Self {
        Judge2 {
            topology,
            template,
            source: plan.source,
            relationship,
            conditions,
            filters,
            allocation: plan.a.allocation,
            counts: &state.counts,
            ledger: &state.ledger,
            lists,
        }
    }

    fn judge(&mut self, typing: &mut Typing<'_, 'm>, id: NodeId, cap: Option<&str>) -> Verdict {
        let node = &self.topology.nodes[id.index()];
        let rel = self.relationship;
        let rel_type = rel.types.first().map_or("", String::as_str);
        if !selection::admits(&rel.valid_targets, &node.types) {
            return Verdict::Fails(format!(
                "is a {}, and relationship type `{rel_type}` admits only targets of type {}",
                node.type_name,
                rel.valid_targets.join(", ")
            ));
        }
        if let Some(cap_name) = cap {
            let capability = &node.capabilities[cap_name];
            if !selection::admits(&rel.valid_capabilities, &capability.types) {
                return Verdict::Fails(format!(
                    "has capability `{cap_name}` of type {}, and relationship type `{rel_type}` admits only capabilities of type {}",
                    capability.type_name.as_deref().unwrap_or("unknown"),
                    rel.valid_capabilities.join(", ")
                ));
            }
            let admitted = self.lists.valid_types(
                typing,
                node,
                cap_name,
                capability,
                "valid_relationship_types",
                TypeKind::Relationship,
            );
            if !admitted.is_empty()
                && !rel.types.is_empty()
                && !admitted.iter().any(|t| type_matches(&rel.types, t))
            {
                return Verdict::Fails(format!(
                    "has capability `{cap_name}`, which admits only relationships of type {}, not `{rel_type}`",
                    admitted.join(", ")
                ));
            }
            if let Some(directives) = self.capability_directives(id, cap_name)
                && !directives.iter().any(|d| d == "internal")
            {
                return Verdict::Fails(format!(
                    "has capability `{cap_name}`, which admits only sources from outside this topology (directives: {})",
                    directives.join(", ")
                ));
            }
            if let Some(allocation) = self.allocation {
                match allocation::read(typing, allocation, capability, cap_name, None) {
                    Err(why) => return Verdict::Fails(why),
                    Ok(amounts) => {
                        let units = self.counts[self.source.index()].unwrap_or(1);
                        if let Some(fit) = self.ledger.fits(
                            capability,
                            id,
                            cap_name,
                            &amounts,
                            self.counts[id.index()],
                        ) && fit < units
                        {
                            let left: Vec<String> = amounts
                                .iter()
                                .filter_map(|a| {
                                    let left = self.ledger.left(
                                        capability,
                                        id,
                                        cap_name,
                                        &a.property,
                                        self.counts[id.index()],
                                    )?;
                                    Some(format!(
                                        "{} of `{}` left, {} asked",
                                        trim(left),
                                        a.property,
                                        trim(a.number * units as f64)
                                    ))
                                })
                                .collect();
                            return Verdict::Fails(format!(
                                "has too little left in capability `{cap_name}` to allocate from: {}",
                                left.join(", ")
                            ));
                        }
                    }
                }
            }
        }
        match self.conditions {
            Some(conditions) if !self.filters.is_empty() => {
                self.judge_filters(conditions, typing, id, cap)
            }
            _ => Verdict::Fits,
        }
    }

    /// Judges the node filters of the candidate `id` (its capability `cap`): each is evaluated
    /// by the calls subsystem with `SELF` the relationship that would be established, and
    /// `$available_allocation` reads what the allocations so far leave of a target with one
    /// representation. A filter that reads what the candidate does not have (a property its
    /// type does not define) fails; one that needs values known only at deployment may hold.
    fn judge_filters(
        &self,
        conditions: &Conditions<'_, 'm>,
        typing: &mut Typing<'_, 'm>,
        id: NodeId,
        cap: Option<&str>,
    ) -> Verdict {
        let (ledger, topology, counts) = (self.ledger, self.topology, self.counts);
        let available = move |n: NodeId, cap: &str, prop: &str| {
            if counts.get(n.index()).copied().flatten() != Some(1) {
                return None;
            }
            ledger.left(
                topology.nodes[n.index()].capabilities.get(cap)?,
                n,
                cap,
                prop,
                counts[n.index()],
            )
        };
        let node = &topology.nodes[id.index()];
        let scope = Scope::Open(Box::new(OpenRelationship {
            source: Some(self.source),
            target: Some(id),
            capability: cap.map(str::to_string),
            types: self.relationship.types.clone(),
            target_types: node.types.clone(),
            capability_types: cap
                .and_then(|c| node.capabilities.get(c))
                .map(|c| c.types.clone())
                .unwrap_or_default(),
            properties: self.relationship.properties.clone(),
        }));
        let mut evaluator = Evaluator::new(
            typing,
            &conditions.graph,
            conditions.functions,
            &conditions.calls,
            conditions.inputs,
        )
        .with_available(&available);
        let mut maybe = None;
        for filter in &self.filters {
            let mut found = Diagnostics::new();
            let value = evaluator.evaluate(filter, &scope, &mut found);
            if let Some(wrong) = found.iter().find(|d| d.is_error()) {
                return Verdict::Fails(format!("fails the node_filter: {}", wrong.message));
            }
            match value {
                Value::Boolean(true) => {}
                Value::Boolean(false) => {
                    let why = why_false(&mut evaluator, filter, &scope);
                    return Verdict::Fails(format!("fails the node_filter: {why}"));
                }
                _ => {
                    let at = match filter {
                        Value::Call(c) => c.span.map(|s| format!(" at line {}", s.line)),
                        _ => None,
                    };
                    maybe = maybe.or(Some(format!(
                        "its node_filter{} depends on values known only at deployment",
                        at.unwrap_or_default()
                    )))
                }
            }
        }
        maybe.map_or(Verdict::Fits, Verdict::Maybe)
    }

    /// The `directives` of a capability assignment in the target's template.
    fn capability_directives(&self, id: NodeId, cap: &str) -> Option<Vec<String>> {
        let list = self.template.node_templates[id.index()]
            .def
            .as_map()?
            .get("capabilities")?
            .as_map()?
            .get(cap)?
            .as_map()?
            .get("directives")?
            .as_seq()?;
        Some(
            list.iter()
                .filter_map(Yaml::as_str)
                .map(str::to_string)
                .collect(),
        )
    }
}

/// A problem of a node filter whatever the candidate stays an error, with the reminder that
/// filters written for the Simple Profile's reading (`SELF` the requiring node) need: in TOSCA
/// 2.0 `SELF` is the relationship to the candidate (§8.6 Node Filter Definition). The filter is
/// then not judged: the candidates are chosen without it, not each failed with a vaguer message.
fn unjudged(mut d: Diagnostic) -> Diagnostic {
    if d.is_error() {
        let hint = d.hint.take().unwrap_or_default();
        d.hint = Some(format!(
            "{hint}; in a requirement's node filter `SELF` is the relationship to the candidate (§8.6 Node Filter Definition). This filter is not judged"
        ));
    }
    d
}

/// Why a condition that evaluates to false is false: the innermost comparison that decided
/// it, with the values compared.
fn why_false(evaluator: &mut Evaluator, clause: &Value, scope: &Scope) -> String {
    let mut quiet = Diagnostics::with_cap(1);
    let Value::Call(call) = clause else {
        return format!("`{}` is false", crate::ir::value_text(clause));
    };
    match call.function.as_str() {
        "and" => {
            for arg in &call.args {
                if evaluator.evaluate(arg, scope, &mut quiet) == Value::Boolean(false) {
                    return why_false(evaluator, arg, scope);
                }
            }
        }
        "or" => {
            let reasons: Vec<String> = call
                .args
                .iter()
                .map(|a| why_false(evaluator, a, scope))
                .collect();
            return format!("none holds: {}", reasons.join("; "));
        }
        "not" => return format!("`$not` of a clause that holds{}", line_of(clause)),
        _ => {}
    }
    let shown: Vec<String> = call
        .args
        .iter()
        .map(|a| crate::ir::value_text(&evaluator.evaluate(a, scope, &mut quiet)))
        .collect();
    format!(
        "`${}` is false for {}{}",
        call.function,
        shown.join(" and "),
        line_of(clause)
    )
}

/// ` (line N)` for a call whose place is known.
fn line_of(value: &Value) -> String {
    match value {
        Value::Call(c) => c
            .span
            .map_or(String::new(), |s| format!(" (line {})", s.line)),
        _ => String::new(),
    }
}

/// A number without a needless `.0`.
fn trim(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
#[path = "fulfil_tests.rs"]
mod tests;
