//! What a node type chain defines that a TOSCA path steps through by name: its requirements
//! (with the relationship, node and capability types they name) and its capabilities.

use crate::model::{Model, TypeKind};
use crate::resolve::types::definitions;
use crate::yaml::Node as Yaml;

/// The requirement definitions of a node type chain, most specific first, as (name, body).
pub(super) fn requirement_definitions<'m>(
    model: &'m Model,
    types: &[String],
) -> Vec<(&'m str, &'m Yaml)> {
    definitions(model, TypeKind::Node, types)
        .into_iter()
        .filter_map(|d| d.def.as_map()?.get("requirements")?.as_seq())
        .flatten()
        .filter_map(|item| {
            let [entry] = item.as_map()?.entries() else {
                return None;
            };
            Some((entry.key.as_str()?, &entry.value))
        })
        .collect()
}

pub(super) fn requirement_names<'m>(model: &'m Model, types: &[String]) -> Vec<&'m str> {
    let mut names: Vec<&str> = requirement_definitions(model, types)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Requirement `name` of a node type chain: its relationship type, node type and capability
/// type, where it names them.
#[allow(clippy::type_complexity)]
pub(super) fn requirement_definition<'m>(
    model: &'m Model,
    types: &[String],
    name: &str,
) -> Option<(Option<&'m str>, Option<&'m str>, Option<&'m str>)> {
    let defs: Vec<&Yaml> = requirement_definitions(model, types)
        .into_iter()
        .filter(|(n, _)| *n == name)
        .map(|(_, body)| body)
        .collect();
    if defs.is_empty() {
        return None;
    }
    // A refinement restates only what it narrows: take each keyname from the most specific.
    let get = |key: &str| {
        defs.iter().find_map(|d| {
            let v = d.as_map()?.get(key)?;
            v.as_str().or_else(|| v.as_map()?.get("type")?.as_str())
        })
    };
    let capability = get("capability").or_else(|| defs.iter().find_map(|d| d.as_str()));
    Some((get("relationship"), get("node"), capability))
}

/// The type of capability `name` of a node type chain: `Some(None)` when it is defined without
/// a type this reader can see, `None` when it is not defined.
pub(super) fn capability_type<'m>(
    model: &'m Model,
    types: &[String],
    name: &str,
) -> Option<Option<&'m str>> {
    let mut found = false;
    for def in definitions(model, TypeKind::Node, types) {
        if let Some(cap) = def
            .def
            .as_map()
            .and_then(|m| m.get("capabilities"))
            .and_then(Yaml::as_map)
            .and_then(|m| m.get(name))
        {
            found = true;
            if let Some(t) = cap.as_str().or_else(|| cap.as_map()?.get("type")?.as_str()) {
                return Some(Some(t));
            }
        }
    }
    found.then_some(None)
}

pub(super) fn capability_names<'m>(model: &'m Model, types: &[String]) -> Vec<&'m str> {
    let mut names: Vec<&str> = definitions(model, TypeKind::Node, types)
        .into_iter()
        .filter_map(|d| d.def.as_map()?.get("capabilities")?.as_map())
        .flat_map(|m| m.names())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}
