//! Requirement assignments into relationships.
//!
//! An assignment that names a node template becomes a [`Relationship`]; one that names a node
//! type or a node filter stays a dangling [`Requirement`] with its selection criteria, for an
//! orchestrator to fulfil. The relationship's type is the assignment's, else the requirement
//! definition's.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use super::nodes::{NodeBuilder, index};
use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{
    Capability, Interface, Node, NodeId, Relationship, RelationshipId, Requirement, Topology,
    type_matches,
};
use crate::model::{Model, Named, TopologyTemplate, TypeKind};
use crate::source::Span;
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
    relationship: Option<&'y Yaml>,
    node_filter: Option<&'y Yaml>,
}

pub fn connect(
    builder: &mut NodeBuilder,
    template: &TopologyTemplate,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) {
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
        let Some(list) = named.def.as_map().and_then(|d| d.get("requirements")) else {
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
            let requirement = match target {
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
                    if let Some((node, span)) = &a.node {
                        // Not a template: it must be a node type the orchestrator selects from.
                        if builder
                            .ancestry
                            .full_name(builder.model, TypeKind::Node, node)
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
        relationship: None,
        node_filter: None,
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
    a.relationship = map.get("relationship");
    a.node_filter = map.get("node_filter");
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
                None => definition
                    .relationship
                    .clone()
                    .unwrap_or_else(|| fallback_relationship(builder.model)),
            }
        }
        (None, _) => definition
            .relationship
            .clone()
            .unwrap_or_else(|| fallback_relationship(builder.model)),
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
                .full_name(builder.model, TypeKind::Relationship, declared)
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
    let wanted = a.capability.clone().or(definition.capability).map(|w| {
        let capabilities = &topology.nodes[target.0].capabilities;
        match builder
            .ancestry
            .full_name(builder.model, TypeKind::Capability, &w)
        {
            Some(full) if !capabilities.contains_key(&w) => full,
            _ => w,
        }
    });
    let capability =
        wanted.and_then(|w| target_capability(&topology.nodes[target.0].capabilities, &w, &a.name));
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

/// What a requirement definition on the source node's type chain says, where one was read.
#[derive(Default)]
struct Definition {
    relationship: Option<String>,
    capability: Option<String>,
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
