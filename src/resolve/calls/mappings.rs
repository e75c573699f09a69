//! Operation and notification output mappings of node templates (§9.10 Parameter Mapping
//! Assignment): `<parameter>: [ <tosca_path>, <attribute>, <nested>... ]` names the attribute an
//! incoming value is stored into. It is the argument list of a `$get_attribute` without the `$`
//! (the checklist's T2-PARAM-09), so it is judged by the same path walk: the path must lead where
//! the types allow and end at an attribute (or property, §9.6 Attribute Definition) the entity
//! defines, with `SELF` the node. What a mapping names is written at deployment, so nothing is
//! evaluated and the IR keeps the mapping as data.

use super::eval::Evaluator;
use super::path::Scope;
use crate::diag::Diagnostics;
use crate::ir::{Call, NodeId, Value};
use crate::model::{Model, TypeKind};
use crate::yaml::{Core, Node as Yaml};

/// Whether `model`'s node templates or node types write any output mapping (so the pass has
/// work).
pub fn any(model: &Model) -> bool {
    let in_templates = model.topology.as_ref().is_some_and(|t| {
        t.node_templates
            .iter()
            .any(|named| mappings(&named.def).next().is_some())
    });
    let in_workflows = model.topology.as_ref().is_some_and(|t| {
        t.workflows
            .iter()
            .any(|w| workflow_outputs(&w.def).next().is_some())
    });
    in_templates
        || in_workflows
        || node_types(model).any(|(_, def)| type_mappings(def).next().is_some())
}

/// The node types of `model`, by name.
fn node_types(model: &Model) -> impl Iterator<Item = (&str, &Yaml)> {
    model
        .types
        .iter()
        .filter(|((kind, _), _)| *kind == TypeKind::Node)
        .map(|((_, id), def)| (id.as_str(), &def.def))
}

/// Checks every output mapping of every node template (node ids are the templates' places).
pub fn check(model: &Model, evaluator: &mut Evaluator<'_, '_, '_, '_>, diags: &mut Diagnostics) {
    let Some(template) = &model.topology else {
        return;
    };
    for (i, named) in template.node_templates.iter().enumerate() {
        let scope = Scope::Node(NodeId::from_index(i));
        for (parameter, list) in mappings(&named.def) {
            judge(evaluator, parameter, list, &scope, diags);
        }
    }
    // A workflow's `outputs` are "attribute mappings that specify workflow output values and
    // their mappings onto attributes of a node or relationship defined in the service" (§13.2
    // Imperative Workflows): a path from a named template must lead to an attribute it has. A
    // path from `SELF` or another keyword is left alone, as nothing says what it is there.
    for workflow in &template.workflows {
        for (parameter, list) in workflow_outputs(&workflow.def) {
            judge(evaluator, parameter, list, &Scope::Template, diags);
        }
    }
    // A node type's operation refinement may map its outputs too, where `SELF` is any node
    // of the type (§11.2.3 Operation Refinement: "It is allowed only in node and relationship
    // type definitions"; §9.8 Parameter Definition, `mapping` and its single-line form).
    for (id, def) in node_types(model) {
        let scope = Scope::Candidate(evaluator.type_chain(TypeKind::Node, id));
        for (parameter, list) in type_mappings(def) {
            judge(evaluator, parameter, list, &scope, diags);
        }
    }
}

/// Judges one mapping as the `$get_attribute` it stands for, in `scope`.
fn judge(
    evaluator: &mut Evaluator<'_, '_, '_, '_>,
    parameter: &str,
    list: &Yaml,
    scope: &Scope,
    diags: &mut Diagnostics,
) {
    let Some(args) = arguments(list) else {
        return;
    };
    let call = Value::Call(Box::new(Call {
        function: crate::ir::Function::GetAttribute,
        args,
        implementation: None,
        span: Some(list.span),
    }));
    let mut found = Diagnostics::new();
    evaluator.evaluate(&call, scope, &mut found);
    diags.extend(found.finish().into_iter().map(|mut d| {
        d.message = d.message.replacen(
            "`$get_attribute`",
            &format!("output mapping `{parameter}`"),
            1,
        );
        d
    }));
}

/// `(parameter, mapping)` for every output of every operation and notification of a node
/// type's interface definitions that maps an attribute: a definition's `mapping`, or the
/// single-line form, the list itself.
fn type_mappings(def: &Yaml) -> impl Iterator<Item = (&str, &Yaml)> {
    outputs(def).filter_map(|output| {
        let list = match output.value.as_map() {
            Some(m) => m.get("mapping")?,
            None => &output.value,
        };
        list.as_seq()?;
        Some((output.key.as_str()?, list))
    })
}

/// `(parameter, mapping)` for every output of a workflow written as a mapping (the list, or a
/// definition's `mapping`) from a named template.
fn workflow_outputs(def: &Yaml) -> impl Iterator<Item = (&str, &Yaml)> {
    let outputs = def.as_map().and_then(|m| m.get("outputs")?.as_map());
    outputs
        .into_iter()
        .flat_map(|m| m.entries())
        .filter_map(|output| {
            let list = match output.value.as_map() {
                Some(m) => m.get("mapping")?,
                None => &output.value,
            };
            let first = list.as_seq()?.first()?.as_str()?;
            if ["SELF", "SOURCE", "TARGET", "HOST"].contains(&first) {
                return None;
            }
            Some((output.key.as_str()?, list))
        })
}

/// `(parameter, mapping)` for every output of every operation and notification of a node
/// template's interfaces that is written as a list (a mapping, not a definition).
fn mappings(def: &Yaml) -> impl Iterator<Item = (&str, &Yaml)> {
    outputs(def)
        .filter(|output| output.value.as_seq().is_some())
        .filter_map(|output| Some((output.key.as_str()?, &output.value)))
}

/// Every output entry of every operation and notification of the interfaces `def` writes.
fn outputs(def: &Yaml) -> impl Iterator<Item = &crate::yaml::Entry> {
    let interfaces = def
        .as_map()
        .and_then(|m| m.get("interfaces"))
        .and_then(Yaml::as_map);
    interfaces
        .into_iter()
        .flat_map(|m| m.entries())
        .filter_map(|interface| interface.value.as_map())
        .flat_map(|interface| {
            ["operations", "notifications"]
                .into_iter()
                .filter_map(|key| interface.get(key)?.as_map())
        })
        .flat_map(|operations| operations.entries())
        .filter_map(|operation| operation.value.as_map()?.get("outputs")?.as_map())
        .flat_map(|outputs| outputs.entries())
}

/// The mapping's entries as a call's arguments: strings and integers only (anything else is
/// the grammar's to report).
fn arguments(list: &Yaml) -> Option<Vec<Value>> {
    list.as_seq()?
        .iter()
        .map(|item| match item.as_scalar()?.core {
            Core::Str => Some(Value::string(item.as_str()?)),
            Core::Int(n) => Some(Value::Integer(n)),
            _ => None,
        })
        .collect()
}
