//! A topology template's `substitution_mappings` read into the IR's [`Substitution`]: the node
//! type it substitutes and the boundary's capabilities, requirements, properties, attributes and
//! interfaces (Simple Profile §12 Using node template substitution for model composition; TOSCA
//! 2.0 §15 Substitution). Whether the boundary fits the node type is [`super::boundary`].

use indexmap::IndexMap;

use super::boundary::Target;
use super::nodes::{NodeBuilder, index};
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::FastMap;
use crate::ir::{BoundaryMapping, NodeId, Substitution, Topology, Value};
use crate::model::{TopologyTemplate, TypeKind};
use crate::yaml::{Map, Node as Yaml};

/// The substitution boundary of `template` in the IR: `None` when it has no
/// `substitution_mappings`, or they name no `node_type` (reported).
pub fn read(
    builder: &mut NodeBuilder,
    template: &TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) -> Option<Substitution> {
    let node = template.substitution_mappings.as_ref()?;
    let map = crate::model::shape::map(node, "`substitution_mappings`", diags)?;
    crate::model::shape::check_keys(
        map,
        &[
            "node_type",
            "substitution_filter",
            "node",
            "properties",
            "attributes",
            "capabilities",
            "requirements",
            "interfaces",
            "description",
            "metadata",
        ],
        "`substitution_mappings`",
        diags,
    );
    let Some(node_type) = map.get("node_type").and_then(Yaml::scalar_text) else {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_MISSING_KEY,
                "substitution_mappings has no `node_type`",
            )
            .at(node.span)
            .hint("add `node_type: <the node type this template substitutes>`"),
        );
        return None;
    };
    let node_type_span = map.get("node_type").map_or(node.span, |n| n.span);
    let node_types = builder.ancestry.of(
        builder.model,
        TypeKind::Node,
        node_type,
        node_type_span,
        diags,
    );
    let nodes = index(topology);
    super::boundary::mappings::check(builder, map, &node_types, topology, &nodes, diags);
    if builder.model.dialect == crate::ir::Dialect::Tosca2 {
        super::requirement_mapping::check(builder.model, map, &node_types, topology, &nodes, diags);
    }
    // A TOSCA 2.0 substitution filter is a condition clause (§15.1 Substitution Mapping), judged
    // where a node is substituted (`substitution`); a Simple Profile node filter is checked here.
    if builder.model.dialect != crate::ir::Dialect::Tosca2 {
        super::boundary::check_substitution_filter(map, diags);
    }
    super::boundary::check_implicit_inputs(
        builder.model,
        map,
        node.span,
        &node_types,
        template,
        diags,
    );
    let capabilities = boundary_mappings(builder, map, "capabilities", &nodes, diags);
    let requirements = boundary_mappings(builder, map, "requirements", &nodes, diags);
    let interfaces = interface_mappings(map);
    Some(Substitution {
        node_type: node_type.to_string(),
        properties: mapping_values(builder.reader, map, "properties", diags),
        attributes: mapping_values(builder.reader, map, "attributes", diags),
        capabilities,
        requirements,
        interfaces,
        location: builder.locator.at(node.span),
    })
}

/// The boundary mappings of section `key` (`capabilities`, `requirements`): each entry's
/// `[node template, inner name]` pairs, a TOSCA 2.0 requirement mapping onto a list or a
/// selectable node template (§15.5 Requirement Mapping) included.
fn boundary_mappings(
    builder: &mut NodeBuilder,
    map: &Map,
    key: &str,
    nodes: &FastMap<&str, NodeId>,
    diags: &mut Diagnostics,
) -> Vec<BoundaryMapping> {
    let Some(section) = map.get(key) else {
        return Vec::new();
    };
    let mut mapped = Vec::new();
    for (index, entry) in super::boundary::mapping_entries(key, section, diags)
        .into_iter()
        .enumerate()
    {
        let Some(name) = super::boundary::mapped_name(&entry.key) else {
            continue;
        };
        let count = match entry.key.as_seq() {
            Some([_, count]) => Some(builder.reader.value(count, diags)),
            _ => None,
        };
        let several = key == "requirements" && builder.model.dialect == crate::ir::Dialect::Tosca2;
        let Some(targets) = super::boundary::mapping_targets(&entry.value, several) else {
            let several = if several {
                ", a selectable node template, or a list of them"
            } else {
                ""
            };
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "substitution mapping of `{name}` must be `[node template, {}]`{several}",
                        &key[..key.len() - 1]
                    ),
                )
                .at(entry.value.span),
            );
            continue;
        };
        for target in targets {
            let (node, inner) = match target {
                Target::Pair(node, inner) => (node, Some(inner)),
                Target::Selectable(node) => (node, None),
            };
            let node_name = node.scalar_text().unwrap_or_default();
            match (nodes.get(node_name), inner) {
                (Some(id), Some(inner)) => mapped.push(BoundaryMapping {
                    name: name.to_string(),
                    node: *id,
                    target: inner.scalar_text().unwrap_or_default().to_string(),
                    count: count.clone(),
                    entry: index,
                }),
                (Some(_), None) => diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_UNSUPPORTED,
                        format!(
                            "requirement `{name}` mapped onto the selectable node template `{node_name}` is not carried into the IR"
                        ),
                    )
                    .at(node.span)
                    .hint("the IR maps a requirement onto a requirement of an inner node; map it as `[node template, requirement]` for backends to see it"),
                ),
                (None, _) => diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!(
                            "substitution mapping names unknown node template `{node_name}`"
                        ),
                    )
                    .at(node.span),
                ),
            }
        }
    }
    mapped
}

/// The boundary's interface mappings: interface name → operation name → the workflow it maps
/// to, as written.
fn interface_mappings(map: &Map) -> IndexMap<String, IndexMap<String, String>> {
    map.get("interfaces")
        .and_then(Yaml::as_map)
        .map(|m| {
            m.entries()
                .iter()
                .filter_map(|e| {
                    let ops = e
                        .value
                        .as_map()?
                        .entries()
                        .iter()
                        .filter_map(|o| {
                            Some((
                                o.key.scalar_text()?.to_string(),
                                o.value.scalar_text()?.to_string(),
                            ))
                        })
                        .collect();
                    Some((e.key.scalar_text()?.to_string(), ops))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Property or attribute mappings by the name they map, a TOSCA 2.0 list key (`[CAPABILITY,
/// endpoint, port]`, §15.2-15.3) written as that list's flow text.
fn mapping_values(
    reader: &ValueReader,
    mappings: &Map,
    key: &str,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    let Some(entries) = mappings.get(key).and_then(Yaml::as_map) else {
        return mappings
            .get(key)
            .map(|n| super::map_values(reader, n, &format!("`{key}`"), diags))
            .unwrap_or_default();
    };
    entries
        .entries()
        .iter()
        .filter_map(|e| {
            let name = match (e.key.scalar_text(), e.key.as_seq()) {
                (Some(name), _) => name.to_string(),
                (None, Some(items)) => {
                    let parts: Option<Vec<&str>> = items.iter().map(Yaml::scalar_text).collect();
                    format!("[{}]", parts?.join(", "))
                }
                _ => None?,
            };
            Some((name, reader.value(&e.value, diags)))
        })
        .collect()
}
