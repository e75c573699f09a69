//! A topology template's `substitution_mappings` read into the IR's [`Substitution`]: the node
//! type it substitutes and the boundary's capabilities, requirements, properties, attributes and
//! interfaces (Simple Profile §12 Using node template substitution for model composition; TOSCA
//! 2.0 §15 Substitution). Whether the boundary fits the node type is [`super::boundary`].

use indexmap::IndexMap;

use super::nodes::{NodeBuilder, index};
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::FastMap;
use crate::ir::{BoundaryMapping, NodeId, Substitution, Topology, Value};
use crate::model::substitution::{BoundaryMappings, KEYNAMES, SubstitutionMappings, Target};
use crate::model::{TopologyTemplate, TypeKind, shape};

/// The substitution boundary of `template` in the IR: `None` when it has no
/// `substitution_mappings`, or they name no `node_type` (reported).
pub fn read(
    builder: &mut NodeBuilder,
    template: &TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) -> Option<Substitution> {
    let mappings = template.substitution_mappings.as_ref()?;
    let what = "`substitution_mappings`";
    if let Some(written) = &mappings.not_a_map {
        diags.push(shape::not_a_map(written, what));
        return None;
    }
    for key in &mappings.unknown_keys {
        diags.extend(shape::key_problem(key, KEYNAMES, what));
    }
    let written = mappings.node_type.as_ref();
    let Some(node_type) = written.and_then(crate::model::Value::scalar_text) else {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_MISSING_KEY,
                "substitution_mappings has no `node_type`",
            )
            .at(mappings.span)
            .hint("add `node_type: <the node type this template substitutes>`"),
        );
        return None;
    };
    let node_type_span = written.map_or(mappings.span, |n| n.span);
    let node_types = builder.ancestry.of(
        builder.model,
        TypeKind::Node,
        node_type,
        node_type_span,
        diags,
    );
    let nodes = index(topology);
    super::boundary::mappings::check(builder, mappings, &node_types, topology, &nodes, diags);
    if builder.model.dialect == crate::ir::Dialect::Tosca2 {
        super::requirement_mapping::check(
            builder.model,
            &mappings.requirements,
            &node_types,
            topology,
            &nodes,
            diags,
        );
    }
    // A TOSCA 2.0 substitution filter is a condition clause (§15.1 Substitution Mapping), judged
    // where a node is substituted (`substitution`); a Simple Profile node filter is checked here.
    if builder.model.dialect != crate::ir::Dialect::Tosca2 {
        super::boundary::check_substitution_filter(mappings, diags);
    }
    super::boundary::check_implicit_inputs(builder.model, mappings, &node_types, template, diags);
    let capabilities = boundary_mappings(builder, mappings, false, &nodes, diags);
    let requirements = boundary_mappings(builder, mappings, true, &nodes, diags);
    let interfaces = interface_mappings(mappings);
    Some(Substitution {
        node_type: node_type.to_string(),
        properties: mapping_values(
            builder.reader,
            mappings.properties.as_ref(),
            "properties",
            diags,
        ),
        attributes: mapping_values(
            builder.reader,
            mappings.attributes.as_ref(),
            "attributes",
            diags,
        ),
        capabilities,
        requirements,
        interfaces,
        location: builder.locator.at(mappings.span),
    })
}

/// The capability (or, when `requirements`, requirement) mappings: each entry's `[node
/// template, inner name]` pairs, a TOSCA 2.0 requirement mapping onto a list or a selectable
/// node template (§15.5 Requirement Mapping) included. The list items of another shape are
/// reported here, where the mappings are read; the later passes skip them.
fn boundary_mappings(
    builder: &mut NodeBuilder,
    mappings: &SubstitutionMappings,
    requirements: bool,
    nodes: &FastMap<&str, NodeId>,
    diags: &mut Diagnostics,
) -> Vec<BoundaryMapping> {
    let (section, noun): (&BoundaryMappings, _) = match requirements {
        true => (&mappings.requirements, "requirement"),
        false => (&mappings.capabilities, "capability"),
    };
    // TOSCA 2.0's grammar reports a section of the wrong shape where it checks the file.
    if let Some(written) = &section.not_a_section
        && builder.model.dialect != crate::ir::Dialect::Tosca2
    {
        let what = match requirements {
            true => "`requirements` of `substitution_mappings`",
            false => "`capabilities` of `substitution_mappings`",
        };
        diags.push(match requirements && !written.is_null() {
            true => shape::wrong_shape(written, what, "a map or a list of single-entry maps"),
            false => shape::not_a_map(written, what),
        });
    }
    for item in &section.malformed {
        diags.push(shape::wrong_shape(
            item,
            "a requirement mapping",
            "a single-entry map `<requirement>: [<node template>, <requirement>]`",
        ));
    }
    let mut mapped = Vec::new();
    for (index, entry) in section.entries.iter().enumerate() {
        let Some(name) = entry.name() else {
            continue;
        };
        let count = entry
            .count()
            .map(|count| builder.reader.value(count, diags));
        let Some(targets) = &entry.targets else {
            let several = requirements && builder.model.dialect == crate::ir::Dialect::Tosca2;
            let several = if several {
                ", a selectable node template, or a list of them"
            } else {
                ""
            };
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("substitution mapping of `{name}` must be `[node template, {noun}]`{several}"),
                )
                .at(entry.at),
            );
            continue;
        };
        for target in targets {
            let (node, inner) = match target {
                Target::Pair(node, inner) => (node, Some(inner)),
                Target::Selectable(node) => (node, None),
            };
            let node_name = node.text.as_str();
            match (nodes.get(node_name), inner) {
                (Some(id), Some(inner)) => mapped.push(BoundaryMapping {
                    name: name.to_string(),
                    node: *id,
                    target: inner.text.clone(),
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
fn interface_mappings(
    mappings: &SubstitutionMappings,
) -> IndexMap<String, IndexMap<String, String>> {
    let interfaces = mappings
        .interfaces
        .as_ref()
        .and_then(crate::model::Value::as_map);
    interfaces
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

/// Property or attribute mappings (`section`, written `key`) by the name they map, a TOSCA 2.0
/// list key (`[CAPABILITY, endpoint, port]`, §15.2-15.3) written as that list's flow text.
fn mapping_values(
    reader: &ValueReader,
    section: Option<&crate::model::Value>,
    key: &str,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    let Some(entries) = section.and_then(crate::model::Value::as_map) else {
        return section
            .map(|n| super::map_values(reader, n, &format!("`{key}`"), diags))
            .unwrap_or_default();
    };
    entries
        .entries()
        .iter()
        .filter_map(|e| {
            let name = match (e.key.scalar_text(), e.key.as_list()) {
                (Some(name), _) => name.to_string(),
                (None, Some(items)) => {
                    let parts: Option<Vec<&str>> =
                        items.iter().map(crate::model::Value::scalar_text).collect();
                    format!("[{}]", parts?.join(", "))
                }
                _ => None?,
            };
            Some((name, reader.value(&e.value, diags)))
        })
        .collect()
}
