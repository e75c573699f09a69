//! The calls of relationship templates that no requirement uses (TOSCA 2.0). Such a template
//! makes no relationship, so it is not in the IR and the topology pass never meets its values;
//! it is reported as unused elsewhere. Its calls are still judged where they are written, as
//! every other call is: `SELF` is a relationship known only by the template's type
//! ([`Scope::Open`]), so a property, attribute or path the type does not allow is an error,
//! and so is an unknown function or a wrong argument count. Nothing is kept: the values have no
//! place in the IR.

use std::collections::HashSet;

use super::eval::Evaluator;
use super::path::{OpenRelationship, Scope};
use crate::diag::Diagnostics;
use crate::ir::{Topology, Value};
use crate::model::{Model, Named, TypeKind};
use crate::resolve::typing::Typing;
use crate::yaml::Node as Yaml;

/// One unused template's values (read into IR values) and the scope they are judged in.
pub struct Unused {
    scope: Scope,
    values: Vec<Value>,
}

/// Reads the unused relationship templates of `model`: the scope of each (its type chain) and
/// its values with calls (properties, attributes, interface and operation inputs). Reading
/// reports what is malformed in them.
pub fn read(
    model: &Model,
    typing: &mut Typing<'_, '_>,
    topology: &Topology,
    diags: &mut Diagnostics,
) -> Vec<Unused> {
    let Some(template) = &model.topology else {
        return Vec::new();
    };
    let used: HashSet<&str> = topology
        .relationships
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    let mut out = Vec::new();
    for named in &template.relationship_templates {
        if used.contains(named.name.as_str()) {
            continue;
        }
        let values: Vec<Value> = sections(named)
            .map(|yaml| typing.reader.value(yaml, diags))
            .filter(Value::has_call)
            .collect();
        if values.is_empty() {
            continue;
        }
        let types = named
            .def
            .as_map()
            .and_then(|m| m.get("type"))
            .and_then(|t| Some((t.as_str()?, t.span)))
            // The type is reported where the relationship template is read.
            .map(|(name, at)| {
                typing
                    .ancestry
                    .of_reported_elsewhere(model, TypeKind::Relationship, name, at)
            })
            .unwrap_or_default();
        let scope = Scope::Open(Box::new(OpenRelationship {
            types,
            ..OpenRelationship::default()
        }));
        out.push(Unused { scope, values });
    }
    out
}

/// Judges the calls of the unused templates (see the module docs).
pub fn check(
    unused: &[Unused],
    evaluator: &mut Evaluator<'_, '_, '_, '_>,
    diags: &mut Diagnostics,
) {
    for template in unused {
        for value in &template.values {
            evaluator.evaluate(value, &template.scope, diags);
        }
    }
}

/// The parts of a relationship template that hold values: `properties`, `attributes`, and the
/// `inputs` of its interfaces and of their operations and notifications.
fn sections(named: &Named) -> impl Iterator<Item = &Yaml> {
    let def = named.def.as_map();
    let plain = ["properties", "attributes"]
        .into_iter()
        .filter_map(move |key| def?.get(key));
    let interfaces = def
        .and_then(|m| m.get("interfaces"))
        .and_then(Yaml::as_map)
        .into_iter()
        .flat_map(|m| m.entries())
        .filter_map(|e| e.value.as_map());
    let inputs = interfaces.flat_map(|interface| {
        let own = interface.get("inputs");
        let operations = ["operations", "notifications"]
            .into_iter()
            .filter_map(|key| interface.get(key)?.as_map())
            .flat_map(|ops| ops.entries())
            .filter_map(|op| op.value.as_map()?.get("inputs"));
        own.into_iter().chain(operations)
    });
    plain.chain(inputs)
}
