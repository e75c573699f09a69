//! Requirement assignments into relationships.
//!
//! An assignment that names a node template becomes a [`Relationship`]. In the Simple Profile,
//! one that names a node type, or no node, is fulfilled by the one node template that fits
//! ([`super::selection`]); when none or several fit it stays a dangling [`Requirement`] with its
//! selection criteria, reported as an error unless an orchestrator is meant to select (see
//! [`Unfulfilled`]). TOSCA 2.0 requirements without a template name stay dangling. The
//! relationship's type is the assignment's, else the requirement definition's.

use indexmap::IndexMap;

use super::assignments::{self, Assignment, definition};
use super::filters;
use super::nodes::{NodeBuilder, owned_index};
use super::selection;
use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::{FastMap, FastSet};
use crate::ir::{Node, NodeId, RelationshipId, Requirement, Topology};
use crate::model::{Model, Named, TopologyTemplate, TypeKind};
use crate::yaml::Node as Yaml;

mod relationship;
mod unused;
pub(super) use relationship::{admitted_capabilities, relationship, target_capability};

/// The relationship type used when neither the assignment nor a definition read names one: the
/// Simple Profile's root type, which every relationship derives from. TOSCA 2.0 has no implicit
/// root, so there it stays unknown (empty).
fn fallback_relationship(model: &Model) -> String {
    match model.dialect {
        crate::ir::Dialect::Tosca2 => String::new(),
        _ => "tosca.relationships.Root".to_string(),
    }
}

/// A requirement that no node template, or several, fulfil; reported once the substitution
/// boundary is known, since a requirement it exposes is fulfilled outside the template.
pub struct Unfulfilled {
    pub node: NodeId,
    pub requirement: String,
    pub diagnostic: Diagnostic,
}

/// Reports what [`connect`] left unfulfilled, except requirements the substitution boundary
/// exposes.
pub fn report(
    unfulfilled: Vec<Unfulfilled>,
    substitution: Option<&crate::ir::Substitution>,
    diags: &mut Diagnostics,
) {
    for u in unfulfilled {
        let exposed = substitution.is_some_and(|s| {
            s.requirements
                .iter()
                .any(|m| m.node == u.node && m.target == u.requirement)
        });
        if !exposed {
            diags.push(u.diagnostic);
        }
    }
}

pub fn connect<'m>(
    builder: &mut NodeBuilder<'m>,
    template: &TopologyTemplate,
    functions: &super::calls::Functions<'m>,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) -> Vec<Unfulfilled> {
    if builder.model.dialect == crate::ir::Dialect::Tosca2 {
        return super::fulfil::connect(builder, template, functions, topology, diags);
    }
    let mut unfulfilled = Vec::new();
    // Built on the first requirement that selects: most templates name their targets.
    let mut candidates: Option<selection::Candidates> = None;
    let by_name = owned_index(topology);
    let mut templates = RelationshipTemplates::new(template);
    for (i, named) in template.node_templates.iter().enumerate() {
        let def = named.def.as_map();
        if let Some(filter) = def.and_then(|d| d.get("node_filter")) {
            template_filter(builder, &topology.nodes[i], filter, diags);
        }
        let Some(list) = def.and_then(|d| d.get("requirements")) else {
            continue;
        };
        let Some(items) = crate::model::shape::seq(list, "`requirements`", diags) else {
            continue;
        };
        let assignments: Vec<Assignment> = items
            .iter()
            .filter_map(|item| assignments::read(item, builder.model.dialect, diags))
            .collect();
        let labels = labels(&named.name, &assignments);
        // One entry per assignment: reserved at its size, since a node's list grown by
        // doubling held room for four requirements where most nodes have one, for the whole
        // run (docs/performance.md, "Where the rest goes").
        topology.nodes[i]
            .requirements
            .reserve_exact(assignments.len());
        for (a, label) in assignments.iter().zip(labels) {
            let target = a.node.as_ref().and_then(|(n, _)| by_name.get(n).copied());
            // SP-NF-03 (TOSCA 2.0 allows a filter on a named template: it must hold of it).
            if let (Some(_), Some(filter), Some((node, _))) = (target, a.node_filter, &a.node) {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        format!(
                            "requirement `{}` of `{}` has a `node_filter`, but its `node` names the node template `{node}`",
                            a.name, named.name
                        ),
                    )
                    .at(a.node_filter_at.unwrap_or(filter.span))
                    .hint("a node filter selects among templates of a node type: name a node type in `node`, or drop the filter (SP-NF-03)"),
                );
            }
            let selected = match target {
                None => {
                    let candidates =
                        candidates.get_or_insert_with(|| selection::Candidates::new(topology));
                    select(
                        builder,
                        topology,
                        candidates,
                        NodeId::from_index(i),
                        a,
                        diags,
                    )
                }
                Some(_) => None,
            };
            let chosen = match &selected {
                Some(Ok(id)) => Some(*id),
                _ => None,
            };
            let requirement = match target.or(chosen) {
                Some(target) => {
                    let rel = relationship(
                        builder,
                        topology,
                        NodeId::from_index(i),
                        target,
                        a,
                        label,
                        &mut templates,
                        diags,
                    );
                    let at = a.node.as_ref().map_or(a.span, |(_, at)| *at);
                    super::target_types::check(builder, topology, &rel, at, diags);
                    topology.relationships.push(rel);
                    entry(
                        &a.name,
                        Some(RelationshipId::from_index(topology.relationships.len() - 1)),
                        builder.locator.at(a.span),
                    )
                }
                None => {
                    if let Some(Err(diagnostic)) = selected {
                        unfulfilled.push(Unfulfilled {
                            node: NodeId::from_index(i),
                            requirement: a.name.clone(),
                            diagnostic,
                        });
                    }
                    check_node_type(builder, topology, NodeId::from_index(i), a, diags);
                    Requirement {
                        node: a.node.as_ref().map(|(n, _)| n.clone()),
                        capability: a.capability.clone(),
                        node_filter: a.node_filter.map(|f| builder.reader.value(f, diags)),
                        ..entry(&a.name, None, builder.locator.at(a.span))
                    }
                }
            };
            topology.nodes[i].requirements.push(requirement);
        }
    }
    templates.report_unused(builder, diags);
    unfulfilled
}

/// The name of the relationship each assignment creates when it declares none:
/// `<node>.<requirement>`, with `[<n>]` when the node assigns the name more than once.
pub(super) fn labels(node: &str, assignments: &[Assignment]) -> Vec<String> {
    let mut repeats: FastMap<&str, usize> = FastMap::default();
    for a in assignments {
        *repeats.entry(a.name.as_str()).or_default() += 1;
    }
    let mut seen: FastMap<&str, usize> = FastMap::default();
    assignments
        .iter()
        .map(|a| {
            let occurrence = seen.entry(a.name.as_str()).or_default();
            let label = if repeats[a.name.as_str()] > 1 {
                format!("{node}.{}[{}]", a.name, occurrence)
            } else {
                format!("{node}.{}", a.name)
            };
            *occurrence += 1;
            label
        })
        .collect()
}

/// A requirement entry of the IR with the defaults of a plain assignment (count 1, not
/// optional, nothing allocated).
pub(super) fn entry(
    name: &str,
    relationship: Option<RelationshipId>,
    location: Option<crate::ir::Location>,
) -> Requirement {
    Requirement {
        name: name.to_string(),
        relationship,
        count: crate::ir::Value::Integer(1),
        optional: false,
        implicit: false,
        directives: Vec::new(),
        allocation: IndexMap::new(),
        node: None,
        capability: None,
        node_filter: None,
        location,
    }
}

/// An assignment whose `node` names no node template must name a node type (an orchestrator
/// selects a node of it); anything else is an error that suggests the templates.
pub(super) fn check_node_type(
    builder: &mut NodeBuilder,
    topology: &Topology,
    source: NodeId,
    a: &Assignment,
    diags: &mut Diagnostics,
) {
    let Some((node, span)) = &a.node else {
        return;
    };
    if builder
        .ancestry
        .full_name(builder.model, TypeKind::Node, node, span.file)
        .is_some()
    {
        builder
            .ancestry
            .of(builder.model, TypeKind::Node, node, *span, diags);
        return;
    }
    let templates: Vec<&str> = topology.nodes.iter().map(|n| n.name.as_str()).collect();
    diags.push(
        Diagnostic::error(
            codes::TOSCA_UNKNOWN_NAME,
            format!(
                "requirement `{}` of node template `{}` names `{node}`, which is neither a node template nor a node type",
                a.name, topology.nodes[source.index()].name
            ),
        )
        .at(*span)
        .did_you_mean(
            node,
            &templates,
            Some("name a node template of this topology, or a node type to select a node of".to_string()),
        ),
    );
}

/// The service template's relationship templates by name, and which ones a requirement uses.
pub(super) struct RelationshipTemplates<'t> {
    by_name: FastMap<&'t str, &'t Named>,
    used: FastSet<&'t str>,
    all: &'t [Named],
}

impl<'t> RelationshipTemplates<'t> {
    pub(super) fn new(template: &'t TopologyTemplate) -> Self {
        RelationshipTemplates {
            by_name: template
                .relationship_templates
                .iter()
                .map(|r| (r.name.as_str(), r))
                .collect(),
            used: FastSet::default(),
            all: &template.relationship_templates,
        }
    }

    pub(super) fn get(&self, name: &str) -> Option<&'t Named> {
        self.by_name.get(name).copied()
    }

    /// A relationship template no requirement names is a warning (it has no effect), and is
    /// read all the same ([`unused`]).
    pub(super) fn report_unused(&self, builder: &mut NodeBuilder, diags: &mut Diagnostics) {
        for r in self.all {
            if !self.used.contains(r.name.as_str()) {
                unused::read(builder, r, diags);
                diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!(
                            "relationship template `{}` is not used by any requirement; ignored",
                            r.name
                        ),
                    )
                    .at(r.span)
                    .hint("name it in a requirement's `relationship`"),
                );
            }
        }
    }
}

/// Fulfils a requirement by selection: `None` when there is nothing to select by (its `node`
/// names neither a template nor a type, reported by the caller; nothing is known of what it
/// asks) or when it may stay open (optional, or its node is itself selected by an
/// orchestrator); else the one template that fits, or the error that lists the candidates.
fn select(
    builder: &mut NodeBuilder,
    topology: &Topology,
    candidates: &selection::Candidates,
    source: NodeId,
    a: &Assignment,
    diags: &mut Diagnostics,
) -> Option<Result<NodeId, Diagnostic>> {
    let model = builder.model;
    let node = &topology.nodes[source.index()];
    // Its shape is checked whatever else is known.
    let filter = a.node_filter.map(|f| filters::read(f, diags));
    let source_defs = definitions(model, TypeKind::Node, &node.types);
    if !super::nodes::defs_complete(model, &source_defs) {
        return None;
    }
    let definition = definition(model, &node.types, &a.name);
    let wanted = wanted(builder, a, &definition)?;
    if wanted.node_types.is_empty()
        && wanted.capability.is_none()
        && wanted.capability_type.is_none()
        && filter.is_none()
    {
        return None;
    }
    if let (Some(f), Some(t)) = (&filter, wanted.node_types.first()) {
        let types = builder.ancestry.chain(model, TypeKind::Node, t);
        let defs = definitions(model, TypeKind::Node, &types);
        if super::nodes::defs_complete(model, &defs) {
            filters::check_against_type(f, &mut builder.typing(), t, &defs, diags);
        }
    }
    let mut judge_filter =
        |typing: &mut super::typing::Typing, id: NodeId, _: Option<&str>| match &filter {
            Some(f) => filters::judge(f, typing, &topology.nodes[id.index()]),
            None => filters::Verdict::Fits,
        };
    let selection = selection::select(
        &mut builder.typing(),
        topology,
        candidates,
        source,
        &a.name,
        &wanted,
        &mut judge_filter,
    );
    match selection {
        selection::Selection::One(id) => Some(Ok(id)),
        selection::Selection::Open {
            fitting,
            lines,
            outside,
        } => {
            let optional = a.min.unwrap_or(definition.min) == 0;
            let asks = wanted.describe(filter.is_some());
            let found = (fitting.len(), lines.join("; "), outside);
            unselected(builder, node, a, optional, &asks, found).map(Err)
        }
    }
}

/// What a requirement asks of its target: the node type the assignment names and the
/// definition's, and the capability (by name or type) of each; `None` when the assignment's
/// `node` is no type (nothing is known of what it asks).
fn wanted(
    builder: &mut NodeBuilder,
    a: &Assignment,
    definition: &assignments::Definition,
) -> Option<selection::Wanted> {
    let model = builder.model;
    let mut wanted = selection::Wanted::default();
    if let Some((n, at)) = &a.node {
        wanted.node_types.push(
            builder
                .ancestry
                .full_name(model, TypeKind::Node, n, at.file)?,
        );
    }
    let node_in = definition.node_in();
    if let Some(full) = definition.node.as_ref().and_then(|n| {
        builder
            .ancestry
            .full_name(model, TypeKind::Node, n, node_in)
    }) && !wanted.node_types.contains(&full)
    {
        wanted.node_types.push(full);
    }
    let capability_in = a.capability_at.unwrap_or(a.span).file;
    wanted.capability = a.capability.as_ref().map(|c| {
        let full = builder
            .ancestry
            .full_name(model, TypeKind::Capability, c, capability_in);
        (c.clone(), full)
    });
    let capability_in = definition.capability_in();
    wanted.capability_type = definition.capability.as_ref().and_then(|c| {
        builder
            .ancestry
            .full_name(model, TypeKind::Capability, c, capability_in)
    });
    Some(wanted)
}

/// What is said when selection finds not exactly one template (`found`: how many fit, a line
/// per template judged, and whether the target is outside the topology): `None` when the
/// requirement may stay open without a word, a warning when it may stay open and `check`
/// says so, else the error.
fn unselected(
    builder: &NodeBuilder,
    node: &Node,
    a: &Assignment,
    optional: bool,
    asks: &str,
    (fitting, listed, outside): (usize, String, bool),
) -> Option<Diagnostic> {
    let selected = node.selection.is_some();
    if fitting == 0 && (selected || optional || outside) {
        // Allowed to stay open. `check` says so when the template gives no reason to expect
        // that: a requirement for a node outside the topology, which the orchestrator selects or
        // allocates as for an unassigned one (1.0 draft §11 Describing abstract requirements for
        // nodes and capabilities), or an optional one that no template of its kind fits.
        if selected || (optional && outside) || !builder.ctx.report_open_requirements {
            return None;
        }
        let (message, hint) = if optional {
            (
                format!(
                    "no node template fits the optional requirement `{}` of `{}`, which asks for {asks}, so it stays open: {listed}",
                    a.name, node.name
                ),
                "if one of them was meant, name it with `node: <template>`",
            )
        } else {
            (
                format!(
                    "requirement `{}` of `{}` asks for {asks}, and the topology has none; an orchestrator would have to select or allocate the target",
                    a.name, node.name
                ),
                "add a node template that fits if this topology should hold it; the IR keeps the requirement with its criteria",
            )
        };
        let warning = Diagnostic::warning(codes::TOSCA_UNFULFILLED, message).hint(hint);
        return Some(warning.at(a.span));
    }
    let diagnostic = if fitting == 0 {
        Diagnostic::error(
                codes::TOSCA_UNFULFILLED,
                format!(
                    "no node template fits requirement `{}` of `{}`, which asks for {asks}: {listed}",
                    a.name, node.name
                ),
            )
            .hint(format!(
                "make one fit, or name one with `node: <template>`; if an orchestrator is to select the target, give `{}` the `select` directive, expose the requirement in `substitution_mappings`, or allow none with `occurrences: [0, 1]`",
                node.name
            ))
    } else {
        Diagnostic::error(
            codes::TOSCA_UNFULFILLED,
            format!(
                "{fitting} node templates fit requirement `{}` of `{}`, which asks for {asks}: {listed}",
                a.name,
                node.name
            ),
        )
        .hint(
            "name the one meant with `node: <template>`, or narrow the choice with a `node_filter`",
        )
    };
    Some(diagnostic.at(a.span))
}

/// A `node_filter` on a node template: read for its shape; a warning unless the template has the
/// `select` directive (SP-NF-04: only an orchestrator that selects the node uses it), and with
/// it, checked against the template's type.
fn template_filter(builder: &mut NodeBuilder, node: &Node, filter: &Yaml, diags: &mut Diagnostics) {
    let read = filters::read(filter, diags);
    if node.selection.is_none() {
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_UNKNOWN_KEY,
                format!(
                    "node template `{}` has a `node_filter` but not the `select` directive; nothing here uses the filter",
                    node.name
                ),
            )
            .at(filter.span)
            .hint("add `directives: [ select ]` if an orchestrator is to select this node by the filter; a filter that picks a requirement's target belongs in the requirement"),
        );
        return;
    }
    // It describes the node an orchestrator selects in this one's place: one of this type.
    let defs = definitions(builder.model, TypeKind::Node, &node.types);
    if super::nodes::defs_complete(builder.model, &defs) {
        filters::check_against_type(&read, &mut builder.typing(), &node.type_name, &defs, diags);
    }
}
