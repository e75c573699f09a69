//! Where an interface writes its parameter definitions: the interface's own `inputs`, and each
//! operation's and notification's `inputs` and `outputs` (§11.1 Interface Type, §11.2 Interface
//! Definition; A.6.4 Interface Type, A.5.12 Interface definition). The Simple Profile also
//! writes operations directly under the interface, as every key that is not one of the
//! interface's own keynames. The one walk [`super::parameter_defaults`] and
//! [`super::parameter_refinement`] share, so both judge the same parameters.

use std::collections::HashMap;

use super::interfaces::RESERVED;
use super::typing::Definition;
use crate::ir::Dialect;
use crate::model::{TypeDef, TypeKind};
use crate::yaml::{Map, Node};

/// The checks of the parameter definitions every type writes: their defaults
/// ([`super::parameter_defaults`]), then how they refine inherited ones
/// ([`super::parameter_refinement`]), then the templates' assignments of fixed ones
/// ([`super::fixed_parameters`]).
pub fn check(typing: &mut super::typing::Typing<'_, '_>, diags: &mut crate::diag::Diagnostics) {
    super::parameter_defaults::check(typing, diags);
    super::parameter_refinement::check(typing, diags);
    super::fixed_parameters::check(typing, diags);
}

/// Where a parameter lives in its interface: the operation (`None` for the interface's own
/// inputs), the section (`inputs`, `outputs`), and its name.
pub type Place<'m> = (Option<&'m str>, &'static str, &'m str);

/// The parameter definitions of `layers` (interface types or definitions, most specific
/// first), each seen through every layer that defines it.
pub fn merged<'m>(layers: &[&'m Map], dialect: Dialect) -> HashMap<Place<'m>, Definition<'m>> {
    let mut out: HashMap<Place<'m>, Definition<'m>> = HashMap::new();
    for layer in layers {
        for parameters in of_interface(layer, dialect) {
            for (name, body) in map_entries(parameters.map) {
                let place = (parameters.operation, parameters.section, name);
                out.entry(place).or_default().layers.push(body);
            }
        }
    }
    out
}

/// One section of parameter definitions an interface writes.
pub struct Parameters<'m> {
    /// The operation or notification the section belongs to; `None` for the interface's own
    /// `inputs`.
    pub operation: Option<&'m str>,
    /// `inputs` or `outputs`.
    pub section: &'static str,
    pub map: &'m Map,
}

/// The interfaces a type writes parameters in: an interface type itself, or the interface
/// definitions of a node, relationship or group type.
pub fn interfaces_of(kind: TypeKind, map: &Map) -> Vec<&Map> {
    match kind {
        TypeKind::Interface => vec![map],
        TypeKind::Node | TypeKind::Relationship | TypeKind::Group => entries(map.get("interfaces"))
            .map(|(_, body)| body)
            .collect(),
        _ => Vec::new(),
    }
}

/// The interface definitions named `name` that the types `defs` write (a type chain, most
/// specific first), in that order.
pub fn definitions_named<'m>(defs: &[&'m TypeDef], name: &str) -> Vec<&'m Map> {
    defs.iter()
        .filter_map(|d| interface_named(d.def.as_map()?, name))
        .collect()
}

/// The interface definition `name` of one type's definition `map`.
pub fn interface_named<'m>(map: &'m Map, name: &str) -> Option<&'m Map> {
    map.get("interfaces")?.as_map()?.get(name)?.as_map()
}

/// Every section of parameter definitions of an interface type or interface definition, in
/// written order.
pub fn of_interface<'m>(interface: &'m Map, dialect: Dialect) -> Vec<Parameters<'m>> {
    let mut out: Vec<Parameters<'m>> = section(interface, "inputs")
        .map(|map| Parameters {
            operation: None,
            section: "inputs",
            map,
        })
        .into_iter()
        .collect();
    let mut operations: Vec<(&str, &Map)> = ["operations", "notifications"]
        .into_iter()
        .flat_map(|s| entries(interface.get(s)))
        .collect();
    if dialect != Dialect::Tosca2 {
        operations.extend(map_entries(interface).filter(|(key, _)| !RESERVED.contains(key)));
    }
    for (name, operation) in operations {
        for key in ["inputs", "outputs"] {
            if let Some(map) = section(operation, key) {
                out.push(Parameters {
                    operation: Some(name),
                    section: key,
                    map,
                });
            }
        }
    }
    out
}

fn section<'m>(map: &'m Map, key: &str) -> Option<&'m Map> {
    map.get(key).and_then(Node::as_map)
}

/// The name and map of each entry of a map-valued `section`.
pub fn entries(section: Option<&Node>) -> impl Iterator<Item = (&str, &Map)> {
    section
        .and_then(Node::as_map)
        .into_iter()
        .flat_map(map_entries)
}

/// The name and map of each entry of `map` whose value is a map.
pub fn map_entries(map: &Map) -> impl Iterator<Item = (&str, &Map)> {
    map.entries()
        .iter()
        .filter_map(|e| Some((e.key.scalar_text()?, e.value.as_map()?)))
}
