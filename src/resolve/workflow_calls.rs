//! `call_operation` activities of imperative workflows checked against the operations they
//! call (TOSCA 2.0 §13.2.3.3 Call Operation Activity Definition, §11 Interfaces, Operations,
//! and Notifications; Simple Profile 1.1–1.3, which brought imperative workflows, the workflow
//! activity definition's call operation, whose extended form passes `inputs` in 1.3).
//!
//! The operation must exist on an interface of the step's target node. The inputs the activity
//! passes must be inputs the operation (or its interface) defines; every required input that has
//! no value from its definition, a default, or the node template's interface assignment must be
//! passed; and an input passed as `$get_input` of a workflow input must have the type the
//! operation declares. Inputs defined at interface level belong to each of its operations
//! (§11.1 Interface Type).
//!
//! The Simple Profile writes an operation input as a property definition (A.5.11 Operation
//! definition), required unless it says `required: false` (A.5.7 Property definition), or
//! assigns it a plain value in the type; and writes operations directly under the interface
//! as well as under `operations`. TOSCA 1.0 XML plans pass their own inputs and are not
//! read here.

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, Topology};
use crate::model::{Model, TopologyTemplate, TypeKind};
use crate::yaml::{Map, Node};

use super::interface_parameters::merged;
use super::interfaces::RESERVED;
use super::types::{Ancestry, definitions};
use super::typing::Definition;

/// Checks every `call_operation` of every workflow of a TOSCA 2.0 service template or Simple
/// Profile topology template.
pub fn check(
    model: &Model,
    ancestry: &mut Ancestry,
    template: &TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) {
    if model.dialect == Dialect::Xml || model.incomplete_types {
        return;
    }
    let templates: IndexMap<&str, &Node> = template
        .node_templates
        .iter()
        .map(|n| (n.name.as_str(), &n.def))
        .collect();
    // The first node of each name (names are unique in a valid template).
    let mut nodes: HashMap<&str, &crate::ir::Node> = HashMap::new();
    for n in &topology.nodes {
        nodes.entry(n.name.as_str()).or_insert(n);
    }
    for workflow in &template.workflows {
        let Some(map) = workflow.def.as_map() else {
            continue;
        };
        let workflow_inputs = map.get("inputs").and_then(Node::as_map);
        let Some(steps) = map.get("steps").and_then(Node::as_map) else {
            continue;
        };
        for step in steps.entries() {
            let Some(step) = step.value.as_map() else {
                continue;
            };
            let Some(target) = step.get("target").and_then(Node::as_str) else {
                continue;
            };
            let Some(&node) = nodes.get(target) else {
                continue;
            };
            let Some(activities) = step.get("activities").and_then(Node::as_seq) else {
                continue;
            };
            for activity in activities {
                let Some(call) = activity.as_map().and_then(|m| m.get("call_operation")) else {
                    continue;
                };
                let call_check = CallCheck {
                    model,
                    node_types: &node.types,
                    node_template: templates.get(target).and_then(|n| n.as_map()),
                    workflow_inputs,
                };
                call_check.call(ancestry, call, diags);
            }
        }
    }
}

struct CallCheck<'a> {
    model: &'a Model,
    node_types: &'a [String],
    node_template: Option<&'a Map>,
    workflow_inputs: Option<&'a Map>,
}

impl CallCheck<'_> {
    fn call(&self, ancestry: &mut Ancestry, call: &Node, diags: &mut Diagnostics) {
        // Short form `call_operation: iface.op`, long form `{ operation: iface.op, inputs }`.
        let (operation_node, given) = match call.as_map() {
            Some(m) => (m.get("operation"), m.get("inputs").and_then(Node::as_map)),
            None => (Some(call), None),
        };
        let Some(operation_node) = operation_node else {
            return;
        };
        let Some((interface, operation)) = operation_node.as_str().and_then(|t| t.split_once('.'))
        else {
            return;
        };
        // The interface definitions along the node type chain, most specific first, then the
        // interface type chain.
        let node_defs = definitions(self.model, TypeKind::Node, self.node_types);
        let interface_defs = super::interface_parameters::definitions_named(&node_defs, interface);
        if interface_defs.is_empty() {
            return;
        }
        let interface_type = interface_defs
            .iter()
            .find_map(|m| m.get("type").filter(|t| t.as_str().is_some()));
        let mut layers: Vec<&Map> = interface_defs.clone();
        if let Some(type_node) = interface_type {
            let chain = ancestry.of(
                self.model,
                TypeKind::Interface,
                type_node.as_str().unwrap_or_default(),
                type_node.span,
                &mut Diagnostics::with_cap(0),
            );
            layers.extend(
                definitions(self.model, TypeKind::Interface, &chain)
                    .into_iter()
                    .filter_map(|d| d.def.as_map()),
            );
        }
        let dialect = self.model.dialect;
        let operation_known = layers
            .iter()
            .any(|m| of_interface_operations(m, dialect).any(|name| name == operation));
        if !operation_known {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!("`call_operation` names `{interface}.{operation}`, which the interface `{interface}` of its target does not define"),
                )
                .at(operation_node.span)
                .hint(format!("name an operation of the target node's interface as <interface>.<operation> ({})", rule(dialect))),
            );
            return;
        }
        // Every input of the operation: its own, then its interface's (§11.1 Interface Type),
        // each seen through every layer that writes it; by name, for a stable report.
        let mut found: Vec<(&str, bool, Definition<'_>)> = merged(&layers, dialect)
            .into_iter()
            .filter(|((op, section, _), _)| {
                *section == "inputs" && op.is_none_or(|op| op == operation)
            })
            .map(|((op, _, name), definition)| (name, op.is_none(), definition))
            .collect();
        found.sort_by_key(|(name, interface_level, _)| (*name, *interface_level));
        let mut defined: IndexMap<&str, Definition<'_>> = IndexMap::new();
        for (name, _, definition) in found {
            defined
                .entry(name)
                .or_default()
                .layers
                .extend(definition.layers);
        }
        // Inputs written as plain values (a Simple Profile type may assign an input instead of
        // defining it): defined, valued, not typed.
        let short: Vec<&str> = layers
            .iter()
            .flat_map(|m| super::interface_parameters::of_interface(m, dialect))
            .filter(|p| p.section == "inputs" && p.operation.is_none_or(|op| op == operation))
            .flat_map(|p| p.map.entries().iter())
            .filter(|e| e.value.as_map().is_none())
            .filter_map(|e| e.key.as_str())
            .collect();
        let assigned = self.assigned(interface, operation);
        if let Some(given) = given {
            for entry in given.entries() {
                let Some(name) = entry.key.as_str() else {
                    continue;
                };
                match defined.get(name) {
                    None if !short.contains(&name) => {
                        let known: Vec<&str> = defined.keys().copied().collect();
                        diags.push(
                            Diagnostic::error(
                                codes::TOSCA_UNKNOWN_NAME,
                                format!("`call_operation` of `{interface}.{operation}` passes input `{name}`, which the operation does not define"),
                            )
                            .at(entry.key.span)
                            .did_you_mean(name, &known, Some(format!("the operation's inputs are: {}", known.join(", ")))),
                        );
                    }
                    Some(body) => self.input_type(name, body, &entry.value, diags),
                    None => {}
                }
            }
        }
        for (name, definition) in &defined {
            let has_value = ["value", "default", "mapping"]
                .iter()
                .any(|k| definition.get(k).is_some())
                || definition.layers.iter().any(|layer| is_value(layer))
                || assigned.contains(name);
            let passed = given.is_some_and(|g| g.contains_key(name));
            if definition.required() && !has_value && !passed {
                let activity = format!(
                    "call_operation: {{ operation: {interface}.{operation}, inputs: {{ {name}: <value> }} }}"
                );
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("`call_operation` of `{interface}.{operation}` does not pass the required input `{name}`, which has no value or default"),
                    )
                    .at(operation_node.span)
                    .hint(format!("pass it as `{activity}`, assign `{name}` in the node template's interface, or give its definition a default or `required: false` ({})", rule(dialect))),
                );
            }
        }
    }

    /// The input names the node template assigns on this interface or operation.
    fn assigned(&self, interface: &str, operation: &str) -> Vec<&str> {
        let Some(iface) = self
            .node_template
            .and_then(|t| t.get("interfaces")?.as_map()?.get(interface)?.as_map())
        else {
            return Vec::new();
        };
        // TOSCA 2.0 writes operations under `operations`; the Simple Profile also directly
        // under the interface.
        let op_inputs = iface
            .get("operations")
            .and_then(Node::as_map)
            .and_then(|ops| ops.get(operation))
            .or_else(|| {
                (self.model.dialect != Dialect::Tosca2)
                    .then(|| iface.get(operation))
                    .flatten()
            })
            .and_then(|op| op.as_map()?.get("inputs")?.as_map());
        [iface.get("inputs").and_then(Node::as_map), op_inputs]
            .into_iter()
            .flatten()
            .flat_map(|m| m.entries().iter().filter_map(|e| e.key.as_str()))
            .collect()
    }

    /// An input passed as `$get_input` of a workflow input: the two declared types agree.
    fn input_type(
        &self,
        name: &str,
        definition: &Definition<'_>,
        value: &Node,
        diags: &mut Diagnostics,
    ) {
        let Some(expected) = definition.type_name() else {
            return;
        };
        let Some([entry]) = value.as_map().map(Map::entries) else {
            return;
        };
        if entry.key.as_str() != Some("$get_input") {
            return;
        }
        let argument = match entry.value.as_seq() {
            Some([single]) => single,
            Some(_) => return,
            None => &entry.value,
        };
        let Some(input) = argument.as_str() else {
            return;
        };
        let Some(declared) = self
            .workflow_inputs
            .and_then(|m| m.get(input)?.as_map()?.get("type")?.as_str())
        else {
            return;
        };
        // No conversion but integer to float (§9.1.1 Primitive Types); data types are left to the
        // values.
        let compatible = declared == expected || (declared == "integer" && expected == "float");
        let primitive = |t: &str| ["string", "integer", "float", "boolean"].contains(&t);
        if primitive(declared) && primitive(expected) && !compatible {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("input `{name}` of the operation has type `{expected}`, but it is passed the workflow input `{input}`, of type `{declared}`"),
                )
                .at(value.span)
                .hint(format!("pass a value of type `{expected}` (TOSCA 2.0 converts no type but integer to float, §9.1.1 Primitive Types)")),
            );
        }
    }
}

/// The operation names an interface type or definition writes: under `operations` (and
/// `notifications` are not called), and in the Simple Profile also as its own keys.
fn of_interface_operations(interface: &Map, dialect: Dialect) -> impl Iterator<Item = &str> {
    let listed = interface
        .get("operations")
        .and_then(Node::as_map)
        .into_iter()
        .flat_map(|ops| ops.entries().iter().filter_map(|e| e.key.as_str()));
    let direct = interface
        .entries()
        .iter()
        .filter(move |_| dialect != Dialect::Tosca2)
        .filter_map(|e| e.key.as_str())
        .filter(|key| !RESERVED.contains(key) && *key != "operations");
    listed.chain(direct)
}

/// A map written where an input is defined that is a value, not a definition: the Simple
/// Profile lets a type assign an operation input (A.5.11 Operation definition), as in
/// `inputs: { port: { get_property: [SELF, port] } }`.
fn is_value(layer: &Map) -> bool {
    const DEFINITION_KEYS: &[&str] = &[
        "type",
        "description",
        "required",
        "default",
        "value",
        "status",
        "constraints",
        "validation",
        "key_schema",
        "entry_schema",
        "metadata",
        "mapping",
        "external-schema",
    ];
    !layer
        .entries()
        .iter()
        .any(|e| e.key.as_str().is_some_and(|k| DEFINITION_KEYS.contains(&k)))
}

/// The section that defines `call_operation`, for the dialect.
fn rule(dialect: Dialect) -> &'static str {
    if dialect == Dialect::Tosca2 {
        "§13.2.3.3 Call Operation Activity Definition"
    } else {
        "Simple Profile 1.3 Workflow activity definition, call_operation: the extended form passes inputs"
    }
}
