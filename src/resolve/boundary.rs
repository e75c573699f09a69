//! Whether a substitution boundary fits the node type it substitutes (checklist SP-SUB-02,
//! SP-SUB-04, SP-SUB-05).
//!
//! - Each capability or requirement the mappings name must be one the node type defines, and the
//!   inner node it is mapped onto must have a capability (a requirement) of the inner name.
//! - Before Simple Profile 1.2, whose `properties` mapping made the link explicit, the node
//!   type's properties are the substituting template's inputs, matched by name (§12 Using node
//!   template substitution for model composition): a property the node type requires without a
//!   default needs an input of its name, and an input that stands for no property needs a default,
//!   "since no values can be assigned through properties in a substitution case".

use std::collections::HashSet;

use super::nodes::defs_complete;
use super::types::definitions;
use super::typing::definitions_of;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, NodeId, Topology};
use crate::model::Revision;
use crate::model::{Model, TopologyTemplate, TypeDef, TypeKind};
use crate::yaml::{Entry, Kind, Map, Node as Yaml};

/// Capability names, or requirement names, that the definitions on a type chain define.
fn defined_names<'m>(defs: &[&'m TypeDef], section: &str) -> Vec<&'m str> {
    match section {
        "capabilities" => super::filters::capability_names(defs),
        _ => super::occurrences::requirement_definitions(defs)
            .into_keys()
            .collect(),
    }
}

/// The mappings of a `capabilities` or `requirements` section (`key`): a map of names to
/// targets, or TOSCA 2.0's list of requirement mappings (§15.5 Requirement Mapping), each a
/// single-entry map. A list item of another shape is reported; this is where the mappings are read
/// (`resolve::extras`), and the later passes over them take [`well_formed_entries`].
pub fn mapping_entries<'y>(
    key: &str,
    section: &'y Yaml,
    diags: &mut Diagnostics,
) -> Vec<&'y Entry> {
    entries(key, section)
        .filter_map(|entry| {
            entry
                .map_err(|item| {
                    diags.push(crate::model::shape::wrong_shape(
                        item,
                        "a requirement mapping",
                        "a single-entry map `<requirement>: [<node template>, <requirement>]`",
                    ))
                })
                .ok()
        })
        .collect()
}

/// [`mapping_entries`] without the items of another shape, which it has reported.
pub fn well_formed_entries<'y>(key: &str, section: &'y Yaml) -> Vec<&'y Entry> {
    entries(key, section).filter_map(Result::ok).collect()
}

/// Each mapping of a section, or the list item that is not one.
fn entries<'y>(
    key: &str,
    section: &'y Yaml,
) -> Box<dyn Iterator<Item = Result<&'y Entry, &'y Yaml>> + 'y> {
    match &section.kind {
        Kind::Map(map) => Box::new(map.entries().iter().map(Ok)),
        Kind::Seq(items) if key == "requirements" => {
            Box::new(
                items
                    .iter()
                    .map(|item| match item.as_map().map(Map::entries) {
                        Some([entry]) => Ok(entry),
                        _ => Err(item),
                    }),
            )
        }
        _ => Box::new(std::iter::empty()),
    }
}

/// The name a capability or requirement mapping is for: its key, or the first item of TOSCA
/// 2.0's `[<requirement>, <count>]` key (§15.5 Requirement Mapping), whose count an orchestrator
/// uses.
pub fn mapped_name(key: &Yaml) -> Option<&str> {
    key.scalar_text().or_else(|| match key.as_seq()? {
        [name, _count] => name.scalar_text(),
        _ => None,
    })
}

/// What one capability or requirement mapping maps onto.
pub enum Target<'y> {
    /// `[node template, capability or requirement]`.
    Pair(&'y Yaml, &'y Yaml),
    /// A selectable node template (a TOSCA 2.0 requirement mapped onto the node itself).
    Selectable(&'y Yaml),
}

/// What one capability or requirement mapping names: `[node, name]`, 1.3's
/// `{ mapping: [node, name] }`, or, when `tosca2_requirement` (a TOSCA 2.0 requirement, §15.5),
/// also a selectable node template's name or a list of pairs and names. `None` for any other
/// shape.
pub fn mapping_targets(value: &Yaml, tosca2_requirement: bool) -> Option<Vec<Target<'_>>> {
    let target = value
        .as_map()
        .and_then(|m| m.get("mapping"))
        .unwrap_or(value);
    fn pair(n: &Yaml) -> Option<Target<'_>> {
        match n.as_seq()? {
            [node, name] if node.scalar_text().is_some() && name.scalar_text().is_some() => {
                Some(Target::Pair(node, name))
            }
            _ => None,
        }
    }
    if let Some(one) = pair(target) {
        return Some(vec![one]);
    }
    if !tosca2_requirement {
        return None;
    }
    fn item(n: &Yaml) -> Option<Target<'_>> {
        match n.scalar_text() {
            Some(_) => Some(Target::Selectable(n)),
            None => pair(n),
        }
    }
    match target.as_seq() {
        Some(items) if !items.is_empty() => items.iter().map(item).collect(),
        Some(_) => None,
        None => item(target).map(|t| vec![t]),
    }
}

/// Checks the `capabilities` and `requirements` sections of `mappings` against the node type
/// (whose ancestry is `node_types`) and the inner nodes they point at.
pub fn check_mapped_names(
    model: &Model,
    mappings: &Map,
    node_types: &[String],
    topology: &Topology,
    nodes: &crate::hash::FastMap<&str, NodeId>,
    diags: &mut Diagnostics,
) {
    let outer_defs = definitions(model, TypeKind::Node, node_types);
    let outer_known = defs_complete(model, &outer_defs);
    let node_type = node_types.first().map_or("", String::as_str);
    for (section, noun) in [
        ("capabilities", "capability"),
        ("requirements", "requirement"),
    ] {
        let Some(entries) = mappings.get(section) else {
            continue;
        };
        let outer = defined_names(&outer_defs, section);
        for entry in well_formed_entries(section, entries) {
            let Some(name) = mapped_name(&entry.key) else {
                continue;
            };
            if outer_known && !outer.contains(&name) {
                let mut known = outer.clone();
                known.sort_unstable();
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!(
                            "substitution maps {noun} `{name}`, which node type `{node_type}` does not define"
                        ),
                    )
                    .at_with(entry.key.span, format!("not a {noun} of `{node_type}`"))
                    .did_you_mean(
                        name,
                        &known,
                        Some(format!("the {section} of `{node_type}`: {}", known.join(", "))),
                    ),
                );
            }
            let several = section == "requirements" && model.dialect == Dialect::Tosca2;
            for target in mapping_targets(&entry.value, several).unwrap_or_default() {
                let Target::Pair(inner_node, inner) = target else {
                    continue;
                };
                let (Some(node_name), Some(inner_name)) =
                    (inner_node.scalar_text(), inner.scalar_text())
                else {
                    continue;
                };
                let Some(&id) = nodes.get(node_name) else {
                    continue; // reported where the mapping is read
                };
                let node = &topology.nodes[id.index()];
                let inner_defs = definitions(model, TypeKind::Node, &node.types);
                if !defs_complete(model, &inner_defs) {
                    continue;
                }
                let found = match section {
                    "capabilities" => node.capabilities.contains_key(inner_name),
                    _ => defined_names(&inner_defs, section).contains(&inner_name),
                };
                if !found {
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_UNKNOWN_NAME,
                            format!(
                                "substitution maps {noun} `{name}` onto `{inner_name}` of node template `{node_name}`, whose type `{}` has no {noun} `{inner_name}`",
                                node.type_name
                            ),
                        )
                        .at_with(inner.span, format!("not a {noun} of `{node_name}`")),
                    );
                }
            }
        }
    }
}

/// The implicit property-to-input matching of Simple Profile 1.0 and 1.1 (§12 Using node template
/// substitution for model composition).
pub fn check_implicit_inputs(
    model: &Model,
    mappings: &Map,
    mappings_span: crate::source::Span,
    node_types: &[String],
    template: &TopologyTemplate,
    diags: &mut Diagnostics,
) {
    let before_1_2 = Revision::of(&model.version).is_some_and(|r| r < Revision::V1_2);
    if !before_1_2 || mappings.contains_key("properties") {
        return;
    }
    let defs = definitions(model, TypeKind::Node, node_types);
    if !defs_complete(model, &defs) {
        return;
    }
    let node_type = node_types.first().map_or("", String::as_str);
    let inputs: HashSet<&str> = template.inputs.iter().map(|i| i.name.as_str()).collect();
    let properties = definitions_of(&defs, "properties");
    for (name, definition) in &properties {
        if definition.required() && definition.get("default").is_none() && !inputs.contains(name) {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!(
                        "this template substitutes `{node_type}`, whose required property `{name}` has no input of the same name"
                    ),
                )
                .at_with(mappings_span, format!("substitutes `{node_type}`"))
                .hint(format!(
                    "add an input `{name}`: in {} a substituting template's inputs stand for the node type's properties (Simple Profile §12.3 Definition of the database stack in a service template)",
                    model.version
                )),
            );
        }
    }
    for input in &template.inputs {
        let has_default = input
            .def
            .as_map()
            .is_some_and(|m| m.contains_key("default"));
        if !properties.contains_key(input.name.as_str()) && !has_default {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!(
                        "input `{}` stands for no property of `{node_type}`, which this template substitutes, and has no default",
                        input.name
                    ),
                )
                .at_with(input.span, "no value can reach it through a substitution")
                .hint("give it a `default` (Simple Profile §12.3 Definition of the database stack in a service template), or add the property to the node type"),
            );
        }
    }
}

/// `substitution_filter` (1.3) is a node filter and is held to the node filter grammar. The
/// form OpenStack tosca-parser reads, with the filter wrapped in a `node_filter:` key, is
/// unwrapped with a warning, so its content is checked rather than ignored.
pub fn check_substitution_filter(mappings: &Map, diags: &mut Diagnostics) {
    let Some(filter) = mappings.get("substitution_filter") else {
        return;
    };
    let wrapped = match filter.as_map().map(Map::entries) {
        Some([only]) if only.key.as_str() == Some("node_filter") => Some(only),
        _ => None,
    };
    let filter = match wrapped {
        Some(entry) => {
            diags.push(
                Diagnostic::warning(
                    codes::TOSCA_SHAPE,
                    "`substitution_filter` is itself a node filter; the `node_filter:` around its content is read as if it were not there",
                )
                .at_with(entry.key.span, "not part of the grammar")
                .hint("write `properties:` and `capabilities:` directly under `substitution_filter`"),
            );
            &entry.value
        }
        None => filter,
    };
    let _ = super::filters::read(filter, diags);
}
