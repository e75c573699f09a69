//! TOSCA 2.0 `call_operation` activities of imperative workflows checked against the
//! operations they call (§13 Workflows; §11 Interfaces, Operations, and Notifications).
//!
//! The operation must exist on an interface of the step's target node. The inputs the activity
//! passes must be inputs the operation (or its interface) defines; every required input that has
//! no value from its definition, a default, or the node template's interface assignment must be
//! passed; and an input passed as `$get_input` of a workflow input must have the type the
//! operation declares. Inputs defined at interface level belong to each of its operations
//! (§11.1 Interface Type).

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, Topology};
use crate::model::{Model, TopologyTemplate, TypeKind};
use crate::yaml::{Map, Node};

use super::types::{Ancestry, definitions};

/// Checks every `call_operation` of every workflow of a TOSCA 2.0 service template.
pub fn check(
    model: &Model,
    ancestry: &mut Ancestry,
    template: &TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) {
    if model.dialect != Dialect::Tosca2 || model.incomplete_types {
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
        let operation_layers: Vec<&Map> = layers
            .iter()
            .filter_map(|m| m.get("operations")?.as_map()?.get(operation)?.as_map())
            .collect();
        let operation_known = layers.iter().any(|m| {
            m.get("operations")
                .and_then(Node::as_map)
                .is_some_and(|ops| ops.contains_key(operation))
        });
        if !operation_known {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!("`call_operation` names `{interface}.{operation}`, which the interface `{interface}` of its target does not define"),
                )
                .at(operation_node.span)
                .hint("name an operation of the target node's interface as <interface>.<operation> (§13.2.3.3 Call Operation Activity Definition)"),
            );
            return;
        }
        // Every input definition: the operation's, then the interface's; first one wins.
        let mut defined: IndexMap<&str, &Map> = IndexMap::new();
        let mut short: Vec<&str> = Vec::new();
        for layer in operation_layers.iter().chain(layers.iter()) {
            for entry in layer
                .get("inputs")
                .and_then(Node::as_map)
                .map_or(&[][..], Map::entries)
            {
                let Some(name) = entry.key.as_str() else {
                    continue;
                };
                match entry.value.as_map() {
                    Some(body) => {
                        defined.entry(name).or_insert(body);
                    }
                    None => short.push(name),
                }
            }
        }
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
        for (name, body) in &defined {
            let required = !matches!(
                body.get("required")
                    .and_then(Node::as_scalar)
                    .map(|s| s.core),
                Some(crate::yaml::Core::Bool(false))
            );
            let has_value = body.contains_key("value")
                || body.contains_key("default")
                || body.contains_key("mapping")
                || assigned.contains(name);
            let passed = given.is_some_and(|g| g.contains_key(name));
            if required && !has_value && !passed {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("`call_operation` of `{interface}.{operation}` does not pass the required input `{name}`"),
                    )
                    .at(operation_node.span)
                    .hint(format!("add `{name}:` under the activity's `inputs`, or give the input a default or a value in its definition")),
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
        let op_inputs = iface
            .get("operations")
            .and_then(Node::as_map)
            .and_then(|ops| ops.get(operation)?.as_map()?.get("inputs")?.as_map());
        [iface.get("inputs").and_then(Node::as_map), op_inputs]
            .into_iter()
            .flatten()
            .flat_map(|m| m.entries().iter().filter_map(|e| e.key.as_str()))
            .collect()
    }

    /// An input passed as `$get_input` of a workflow input: the two declared types agree.
    fn input_type(&self, name: &str, definition: &Map, value: &Node, diags: &mut Diagnostics) {
        let Some(expected) = definition.get("type").and_then(Node::as_str) else {
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
