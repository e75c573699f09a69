//! Requirement assignments into relationships.
//!
//! An assignment that names a node template becomes a [`Relationship`]. In the Simple Profile,
//! one that names a node type, or no node, is fulfilled by the one node template that fits
//! ([`super::selection`]); when none or several fit it stays a dangling [`Requirement`] with its
//! selection criteria, reported as an error unless an orchestrator is meant to select (see
//! [`Unfulfilled`]). TOSCA 2.0 requirements without a template name stay dangling. The
//! relationship's type is the assignment's, else the requirement definition's.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use super::filters;
use super::nodes::{NodeBuilder, index};
use super::selection;
use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{
    Capability, Interface, Node, NodeId, Relationship, RelationshipId, Requirement, Topology,
    type_matches,
};
use crate::model::{Model, Named, TopologyTemplate, TypeKind};
use crate::source::{FileId, Span};
use crate::yaml::{Map, Node as Yaml};

/// The relationship type used when neither the assignment nor a definition read names one: the
/// Simple Profile's root type, which every relationship derives from. TOSCA 2.0 has no implicit
/// root, so there it stays unknown (empty).
fn fallback_relationship(model: &Model) -> String {
    match model.dialect {
        crate::ir::Dialect::Tosca2 => String::new(),
        _ => "tosca.relationships.Root".to_string(),
    }
}

/// One assignment as written.
struct Assignment<'y> {
    name: String,
    span: Span,
    node: Option<(String, Span)>,
    capability: Option<String>,
    /// Where the template's `capability:` is written.
    capability_at: Option<Span>,
    relationship: Option<&'y Yaml>,
    node_filter: Option<&'y Yaml>,
    /// Where `node_filter` is written (its key).
    node_filter_at: Option<Span>,
    /// The lower bound of the assignment's own `occurrences`, where it gives one.
    min: Option<u64>,
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

pub fn connect(
    builder: &mut NodeBuilder,
    template: &TopologyTemplate,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) -> Vec<Unfulfilled> {
    let mut unfulfilled = Vec::new();
    let selecting = builder.model.dialect != crate::ir::Dialect::Tosca2;
    // Built on the first requirement that selects: most templates name their targets.
    let mut candidates: Option<selection::Candidates> = None;
    let by_name: HashMap<String, NodeId> = index(topology)
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let relationship_templates: HashMap<&str, &Named> = template
        .relationship_templates
        .iter()
        .map(|r| (r.name.as_str(), r))
        .collect();
    let mut used_templates: HashSet<&str> = HashSet::new();
    for (i, named) in template.node_templates.iter().enumerate() {
        let def = named.def.as_map();
        if selecting && let Some(filter) = def.and_then(|d| d.get("node_filter")) {
            template_filter(builder, &topology.nodes[i], filter, diags);
        }
        let Some(list) = def.and_then(|d| d.get("requirements")) else {
            continue;
        };
        let Some(items) = crate::front::shape::seq(list, "`requirements`", diags) else {
            continue;
        };
        let assignments: Vec<Assignment> = items
            .iter()
            .filter_map(|item| assignment(item, diags))
            .collect();
        let mut repeats: HashMap<&str, usize> = HashMap::new();
        for a in &assignments {
            *repeats.entry(a.name.as_str()).or_default() += 1;
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for a in &assignments {
            let occurrence = seen.entry(a.name.as_str()).or_default();
            let label = if repeats[a.name.as_str()] > 1 {
                format!("{}.{}[{}]", named.name, a.name, occurrence)
            } else {
                format!("{}.{}", named.name, a.name)
            };
            *occurrence += 1;
            let target = a.node.as_ref().and_then(|(n, _)| by_name.get(n).copied());
            // SP-NF-03; TOSCA 2.0 allows a filter on a named template (it must hold of it).
            if let (true, Some(_), Some(filter), Some((node, _))) =
                (selecting, target, a.node_filter, &a.node)
            {
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
            let selected = match (target, selecting) {
                (None, true) => {
                    let candidates =
                        candidates.get_or_insert_with(|| selection::Candidates::new(topology));
                    select(builder, topology, candidates, NodeId(i), a, diags)
                }
                _ => None,
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
                        NodeId(i),
                        target,
                        a,
                        label,
                        &relationship_templates,
                        &mut used_templates,
                        diags,
                    );
                    topology.relationships.push(rel);
                    Requirement {
                        name: a.name.clone(),
                        relationship: Some(RelationshipId(topology.relationships.len() - 1)),
                        node: None,
                        capability: None,
                        node_filter: None,
                        location: builder.locator.at(a.span),
                    }
                }
                None => {
                    if let Some(Err(diagnostic)) = selected {
                        unfulfilled.push(Unfulfilled {
                            node: NodeId(i),
                            requirement: a.name.clone(),
                            diagnostic,
                        });
                    }
                    if let Some((node, span)) = &a.node {
                        // Not a template: it must be a node type the orchestrator selects from.
                        if builder
                            .ancestry
                            .full_name(builder.model, TypeKind::Node, node, span.file)
                            .is_some()
                        {
                            builder
                                .ancestry
                                .of(builder.model, TypeKind::Node, node, *span, diags);
                        } else {
                            let templates: Vec<&str> =
                                topology.nodes.iter().map(|n| n.name.as_str()).collect();
                            diags.push(
                                Diagnostic::error(
                                    codes::TOSCA_UNKNOWN_NAME,
                                    format!(
                                        "requirement `{}` of node template `{}` names `{node}`, which is neither a node template nor a node type",
                                        a.name, topology.nodes[i].name
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
                    }
                    Requirement {
                        name: a.name.clone(),
                        relationship: None,
                        node: a.node.as_ref().map(|(n, _)| n.clone()),
                        capability: a.capability.clone(),
                        node_filter: a.node_filter.map(|f| builder.reader.value(f, diags)),
                        location: builder.locator.at(a.span),
                    }
                }
            };
            topology.nodes[i].requirements.push(requirement);
        }
    }
    for r in &template.relationship_templates {
        if !used_templates.contains(r.name.as_str()) {
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
    unfulfilled
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
    let node = &topology.nodes[source.0];
    // Its shape is checked whatever else is known.
    let filter = a.node_filter.map(|f| filters::read(f, diags));
    let source_defs = definitions(model, TypeKind::Node, &node.types);
    if !super::nodes::defs_complete(model, &source_defs) {
        return None;
    }
    let definition = definition(model, node, &a.name);
    let mut wanted = selection::Wanted::default();
    if let Some((n, at)) = &a.node {
        wanted.node_types.push(
            builder
                .ancestry
                .full_name(model, TypeKind::Node, n, at.file)?,
        );
    }
    let defined_in = definition.file();
    if let Some(full) = definition.node.as_ref().and_then(|n| {
        builder
            .ancestry
            .full_name(model, TypeKind::Node, n, defined_in)
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
    wanted.capability_type = definition.capability.as_ref().and_then(|c| {
        builder
            .ancestry
            .full_name(model, TypeKind::Capability, c, defined_in)
    });
    if wanted.node_types.is_empty()
        && wanted.capability.is_none()
        && wanted.capability_type.is_none()
        && filter.is_none()
    {
        return None;
    }
    if let (Some(f), Some(t)) = (&filter, wanted.node_types.first()) {
        let types = builder.ancestry.chain(model, TypeKind::Node, t, diags);
        let defs = definitions(model, TypeKind::Node, &types);
        if super::nodes::defs_complete(model, &defs) {
            filters::check_against_type(f, &mut builder.typing(), t, &defs, diags);
        }
    }
    let selection = selection::select(
        &mut builder.typing(),
        topology,
        candidates,
        source,
        &a.name,
        &wanted,
        filter.as_ref(),
    );
    let (fitting, lines, outside) = match selection {
        selection::Selection::One(id) => return Some(Ok(id)),
        selection::Selection::Open {
            fitting,
            lines,
            outside,
        } => (fitting, lines, outside),
    };
    let optional = a.min.unwrap_or(definition.min) == 0;
    let selected = node
        .directives
        .iter()
        .any(|d| d == "select" || d == "selectable");
    let asks = wanted.describe(filter.is_some());
    let listed = lines.join("; ");
    if fitting.is_empty() && (selected || optional || outside) {
        // Allowed to stay open. `check` says so when the template gives no reason to expect
        // that: a requirement for a node outside the topology (L610-627: the orchestrator
        // selects or allocates it, as for an unassigned requirement), or an optional one
        // that none of the templates of its kind fits.
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
        return Some(Err(warning.at(a.span)));
    }
    let diagnostic = if fitting.is_empty() {
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
                "{} node templates fit requirement `{}` of `{}`, which asks for {asks}: {listed}",
                fitting.len(),
                a.name,
                node.name
            ),
        )
        .hint(
            "name the one meant with `node: <template>`, or narrow the choice with a `node_filter`",
        )
    };
    Some(Err(diagnostic.at(a.span)))
}

/// A `node_filter` on a node template: read for its shape; a warning unless the template has the
/// `select` directive (SP-NF-04: only an orchestrator that selects the node uses it), and with
/// it, checked against the template's type.
fn template_filter(builder: &mut NodeBuilder, node: &Node, filter: &Yaml, diags: &mut Diagnostics) {
    let read = filters::read(filter, diags);
    let selected = node
        .directives
        .iter()
        .any(|d| d == "select" || d == "selectable");
    if !selected {
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

/// Reads one list item: a single-entry map `name: target` or `name: {node, capability, ...}`.
fn assignment<'y>(item: &'y Yaml, diags: &mut Diagnostics) -> Option<Assignment<'y>> {
    let single = item.as_map().and_then(|m| match m.entries() {
        [entry] => Some(entry),
        _ => None,
    });
    let Some(entry) = single else {
        diags.push(
            Diagnostic::error(codes::TOSCA_SHAPE, match item.as_map() {
                Some(map) => format!("a requirement assignment must be a map with one entry, found {} entries", map.len()),
                None => format!("a requirement assignment must be a map with one entry, found {}", item.describe()),
            })
                .at(item.span)
                .hint("write `- <requirement name>: <node template>` or `- <requirement name>: {node: ..., capability: ...}`; a second key usually means wrong indentation"),
        );
        return None;
    };
    let name = entry.key.scalar_text()?.to_string();
    let mut a = Assignment {
        name,
        span: entry.key.span,
        node: None,
        capability: None,
        capability_at: None,
        relationship: None,
        node_filter: None,
        node_filter_at: None,
        min: None,
    };
    if let Some(target) = entry.value.as_str() {
        a.node = Some((target.to_string(), entry.value.span));
        return Some(a);
    }
    let map: &Map = entry.value.as_map()?;
    crate::front::shape::check_keys(
        map,
        &[
            "node",
            "capability",
            "relationship",
            "node_filter",
            "occurrences",
            "count",
            "description",
            "metadata",
            "directives",
            "optional",
            "allocation",
        ],
        &format!("requirement `{}`", a.name),
        diags,
    );
    a.node = map
        .get("node")
        .and_then(|n| n.scalar_text().map(|t| (t.to_string(), n.span)));
    a.capability = map
        .get("capability")
        .and_then(|c| c.scalar_text())
        .map(str::to_string);
    a.capability_at = map.get("capability").map(|c| c.span);
    a.relationship = map.get("relationship");
    a.node_filter = map.get("node_filter");
    a.node_filter_at = map.entry("node_filter").map(|e| e.key.span);
    a.min = map
        .get("occurrences")
        .and_then(super::occurrences::bounds)
        .map(|b| b.min);
    Some(a)
}

#[allow(clippy::too_many_arguments)]
fn relationship<'t>(
    builder: &mut NodeBuilder,
    topology: &Topology,
    source: NodeId,
    target: NodeId,
    a: &Assignment,
    label: String,
    templates: &HashMap<&'t str, &'t Named>,
    used: &mut HashSet<&'t str>,
    diags: &mut Diagnostics,
) -> Relationship {
    let definition = definition(builder.model, &topology.nodes[source.0], &a.name);
    let mut name = label;
    let mut type_at = a.span;
    let mut assigned: Option<&Map> = None;
    let named = a.relationship.and_then(Yaml::as_str);
    let type_name: String = match (
        a.relationship,
        named.and_then(|t| templates.get_key_value(t)),
    ) {
        // A relationship template: its name, type and values.
        (_, Some((template_name, template))) => {
            used.insert(template_name);
            name = template_name.to_string();
            assigned = template.def.as_map();
            let found = builder.type_of(template, "relationship template", diags);
            type_at = found.as_ref().map_or(template.span, |(_, s)| *s);
            found.map(|(t, _)| t).unwrap_or_default()
        }
        // A relationship type by name.
        (Some(r), None) if named.is_some() => {
            type_at = r.span;
            named.unwrap_or_default().to_string()
        }
        // An inline `{type, properties, interfaces}`, its type possibly left to the definition.
        (Some(r), None) => {
            assigned = r.as_map();
            match assigned.and_then(|m| m.get("type")) {
                Some(t) => {
                    type_at = t.span;
                    t.scalar_text().unwrap_or_default().to_string()
                }
                None => {
                    type_at = definition.at.unwrap_or(type_at);
                    definition
                        .relationship
                        .clone()
                        .unwrap_or_else(|| fallback_relationship(builder.model))
                }
            }
        }
        (None, _) => {
            type_at = definition.at.unwrap_or(type_at);
            definition
                .relationship
                .clone()
                .unwrap_or_else(|| fallback_relationship(builder.model))
        }
    };
    let types = if type_name.is_empty() {
        Vec::new()
    } else {
        builder.ancestry.of(
            builder.model,
            TypeKind::Relationship,
            &type_name,
            type_at,
            diags,
        )
    };
    let default_type = match &definition.relationship {
        Some(declared) => {
            let declared = builder
                .ancestry
                .full_name(
                    builder.model,
                    TypeKind::Relationship,
                    declared,
                    definition.file(),
                )
                .unwrap_or_else(|| declared.clone());
            types.first() == Some(&declared)
        }
        None => a.relationship.is_none(),
    };
    let defs = definitions(builder.model, TypeKind::Relationship, &types);
    let owner = format!(
        "the relationship of requirement `{}` of `{}`",
        a.name, topology.nodes[source.0].name
    );
    let properties = builder.merged(
        &owner,
        &defs,
        "properties",
        assigned.and_then(|m| m.get("properties")),
        a.span,
        diags,
    );
    let attributes = builder.merged(
        &owner,
        &defs,
        "attributes",
        assigned.and_then(|m| m.get("attributes")),
        a.span,
        diags,
    );
    let interfaces: IndexMap<String, Interface> =
        builder.interfaces(&defs, assigned.and_then(|m| m.get("interfaces")), diags);
    // A capability name of the target, or a capability type (perhaps by shorthand).
    let wanted = match &a.capability {
        Some(c) => Some((c.clone(), a.capability_at.unwrap_or(a.span).file)),
        None => definition
            .capability
            .clone()
            .map(|c| (c, definition.file())),
    };
    let wanted = wanted.map(|(w, written_in)| {
        let capabilities = &topology.nodes[target.0].capabilities;
        match builder
            .ancestry
            .full_name(builder.model, TypeKind::Capability, &w, written_in)
        {
            Some(full) if !capabilities.contains_key(&w) => full,
            _ => w,
        }
    });
    let target_node = &topology.nodes[target.0];
    let capability = wanted
        .as_ref()
        .and_then(|w| target_capability(&target_node.capabilities, w, &a.name));
    if let (Some(wanted), None) = (&wanted, &capability) {
        let target_defs = definitions(builder.model, TypeKind::Node, &target_node.types);
        if super::nodes::defs_complete(builder.model, &target_defs) {
            let d = missing_capability(
                &topology.nodes[source.0].name,
                a,
                wanted,
                &target_node.name,
                target_node
                    .capabilities
                    .keys()
                    .map(String::as_str)
                    .collect(),
                builder.model.dialect == crate::ir::Dialect::Tosca2,
            );
            diags.push(match namesake(&target_node.capabilities, wanted) {
                Some((name, other)) => d.hint(format!(
                    "its capability `{name}` is of type `{other}`: a type of the same name from another profile or namespace is another type (L1696-1698)"
                )),
                None => d,
            });
        }
    }
    Relationship {
        name,
        source,
        target,
        requirement: a.name.clone(),
        capability,
        type_name,
        types,
        default_type,
        properties,
        attributes,
        interfaces,
        location: builder.locator.at(a.span),
    }
}

/// A capability of `capabilities` whose type has the local name of the type `wanted` (an
/// identity) without being it: its name and type.
fn namesake<'c>(
    capabilities: &'c IndexMap<String, Capability>,
    wanted: &str,
) -> Option<(&'c str, &'c str)> {
    let local = |id: &str| id.rsplit(':').next().unwrap_or(id).to_string();
    let wanted_local = local(wanted);
    capabilities.iter().find_map(|(name, c)| {
        let t = c.types.first()?;
        (t != wanted && local(t) == wanted_local).then_some((name.as_str(), t.as_str()))
    })
}

/// A requirement whose target has no capability of the wanted name or type.
fn missing_capability(
    source: &str,
    a: &Assignment,
    wanted: &str,
    target: &str,
    capabilities: Vec<&str>,
    tosca2: bool,
) -> Diagnostic {
    // A capability the template names is a plain mistake, and so is one a TOSCA 2.0
    // requirement definition asks for (its `capability` is mandatory, L2937, and ex-045 is
    // invalid for a target without it, L1698). One that only a Simple Profile definition asks
    // for is a warning: real profiles (tosca-parser's NFV samples among them) connect such
    // requirements anyway, and the template gives no other target to choose.
    let from_template = a.capability.is_some();
    let d = if from_template {
        Diagnostic::error(
            codes::TOSCA_UNKNOWN_NAME,
            format!(
                "requirement `{}` of `{source}` asks for capability `{wanted}` of `{target}`, which has none of that name or type",
                a.name
            ),
        )
    } else if tosca2 {
        Diagnostic::error(
            codes::TOSCA_TYPE_MISMATCH,
            format!(
                "requirement `{}` of `{source}` needs a capability of type `{wanted}`, and its target `{target}` has none",
                a.name
            ),
        )
    } else {
        Diagnostic::warning(
            codes::TOSCA_UNKNOWN_NAME,
            format!(
                "requirement `{}` of `{source}` needs a capability of type `{wanted}`, and its target `{target}` has none; connected without one",
                a.name
            ),
        )
    };
    d.at(a
        .capability_at
        .or(a.node.as_ref().map(|(_, s)| *s))
        .unwrap_or(a.span))
        .did_you_mean(
            wanted,
            &capabilities,
            Some(format!(
                "capabilities of `{target}`: {}",
                capabilities.join(", ")
            )),
        )
}

/// What a requirement definition on the source node's type chain says, where one was read.
struct Definition {
    relationship: Option<String>,
    capability: Option<String>,
    node: Option<String>,
    /// The lower bound of its `occurrences` (1 when it gives none, SP-REQD-04).
    min: u64,
    /// Where the definition is written: its type names are read in that file.
    at: Option<Span>,
}

impl Default for Definition {
    fn default() -> Self {
        Definition {
            relationship: None,
            capability: None,
            node: None,
            min: 1,
            at: None,
        }
    }
}

impl Definition {
    /// The file the definition's type names are read in (any, when there is no definition and
    /// so no name to read).
    fn file(&self) -> FileId {
        self.at.map(|s| s.file).unwrap_or_default()
    }
}

fn definition(model: &Model, node: &Node, requirement: &str) -> Definition {
    let defs = definitions(model, TypeKind::Node, &node.types);
    let found = defs.into_iter().find_map(|d| {
        let list = d.def.as_map()?.get("requirements")?.as_seq()?;
        list.iter()
            .filter_map(Yaml::as_map)
            .find_map(|m| m.get(requirement))
    });
    let Some(found) = found else {
        return Definition::default();
    };
    // Short form `name: CapabilityType`, or `{capability, relationship: Type | {type}}`.
    let map = found.as_map();
    let relationship = map
        .and_then(|m| m.get("relationship"))
        .and_then(|r| r.as_str().or_else(|| r.as_map()?.get("type")?.as_str()));
    let capability = found.as_str().or_else(|| map?.get("capability")?.as_str());
    Definition {
        relationship: relationship.map(str::to_string),
        capability: capability.map(str::to_string),
        node: map
            .and_then(|m| m.get("node"))
            .and_then(Yaml::as_str)
            .map(str::to_string),
        min: map
            .and_then(|m| m.get("occurrences"))
            .and_then(super::occurrences::bounds)
            .map_or(1, |b| b.min),
        at: Some(found.span),
    }
}

/// The target's capability a requirement connects to: by name, else the one of the wanted type
/// named like the requirement, else the first of that type.
fn target_capability(
    capabilities: &IndexMap<String, Capability>,
    wanted: &str,
    requirement: &str,
) -> Option<String> {
    if capabilities.contains_key(wanted) {
        return Some(wanted.to_string());
    }
    let matching: Vec<&String> = capabilities
        .iter()
        .filter(|(_, c)| type_matches(&c.types, wanted))
        .map(|(n, _)| n)
        .collect();
    matching
        .iter()
        .find(|n| n.as_str() == requirement)
        .or(matching.first())
        .map(|n| n.to_string())
}
