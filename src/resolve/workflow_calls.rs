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
use crate::model::{Model, TopologyTemplate, TypeKind, call};
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
            return self.no_interface(&node_defs, interface, operation_node, diags);
        }
        let interface_type = interface_defs
            .iter()
            .find_map(|m| m.get("type").filter(|t| t.as_str().is_some()));
        let mut layers: Vec<&Map> = interface_defs.clone();
        if let Some(type_node) = interface_type {
            let chain = ancestry.of_reported_elsewhere(
                self.model,
                TypeKind::Interface,
                type_node.as_str().unwrap_or_default(),
                type_node.span,
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
        let defined = defined_inputs(&layers, operation, dialect);
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
            self.given_inputs(given, &defined, &short, (interface, operation), diags);
            self.literal_types(ancestry, given, &defined, diags);
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

    /// The inputs a `call_operation` passes: each one the operation defines (or its type
    /// assigns as a plain value, `short`), and of the type its definition gives.
    fn given_inputs(
        &self,
        given: &Map,
        defined: &IndexMap<&str, Definition<'_>>,
        short: &[&str],
        (interface, operation): (&str, &str),
        diags: &mut Diagnostics,
    ) {
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

    /// The inputs a `call_operation` passes as literals are values of the types their
    /// definitions give: "a type-compatible value" (§9.9 Parameter Value Assignment); a function
    /// is judged when it runs, a `$get_input` by [`Self::input_type`].
    fn literal_types(
        &self,
        ancestry: &mut Ancestry,
        given: &Map,
        defined: &IndexMap<&str, Definition<'_>>,
        diags: &mut Diagnostics,
    ) {
        let reader = super::values::ValueReader {
            dialect: self.model.dialect,
            inputs: None,
            budget: None,
        };
        let patterns = super::patterns::Patterns::default();
        let mut typing = super::typing::Typing {
            model: self.model,
            reader: &reader,
            ancestry,
            patterns: &patterns,
        };
        for entry in given.entries() {
            let Some(definition) = entry.key.as_str().and_then(|name| defined.get(name)) else {
                continue;
            };
            if definition.type_name().is_some() && !reader.is_call(&entry.value) {
                let path = format!("inputs.{}", entry.key.as_str().unwrap_or_default());
                typing.value(&entry.value, definition, &path, diags);
            }
        }
    }

    /// A `call_operation` whose interface the target's type does not have. Nothing is reported
    /// when the target's type is unknown (reported where it is named).
    fn no_interface(
        &self,
        node_defs: &[&crate::model::TypeDef],
        interface: &str,
        operation_node: &Node,
        diags: &mut Diagnostics,
    ) {
        if node_defs.is_empty() {
            return;
        }
        let known: Vec<&str> = node_defs
            .iter()
            .filter_map(|d| d.def.as_map()?.get("interfaces")?.as_map())
            .flat_map(|m| m.entries().iter().filter_map(|e| e.key.as_str()))
            .collect();
        diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_NAME,
                format!("`call_operation` names interface `{interface}`, which its target's node type does not define"),
            )
            .at(operation_node.span)
            .did_you_mean(interface, &known, Some(format!("name an interface of the target node's type as <interface>.<operation>: {} ({})", known.join(", "), rule(self.model.dialect)))),
        );
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
        let Some((input, declared)) = passed_workflow_input(value, self.workflow_inputs) else {
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

/// The workflow input a value passes on as `$get_input: name` (or `[name]`, or a suffixed
/// `$get_input$1`), with the type its
/// definition in `inputs` (the workflow's) declares: what an operation's or an inlined
/// workflow's input is then given.
pub(super) fn passed_workflow_input<'a>(
    value: &'a Node,
    inputs: Option<&'a Map>,
) -> Option<(&'a str, &'a str)> {
    // Any call of `get_input`, `$get_input$1` included (§10.1 Function Syntax).
    let written = call::call(value).filter(|c| c.name == "get_input" && c.args.is_some())?;
    let [argument] = call::arguments(&written)[..] else {
        return None;
    };
    let input = argument.as_str()?;
    let declared = inputs?.get(input)?.as_map()?.get("type")?.as_str()?;
    Some((input, declared))
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

/// Every input `operation` defines: its own, then its interface's (§11.1 Interface Type), each
/// seen through every layer that writes it; by name, for a stable report.
fn defined_inputs<'m>(
    layers: &[&'m Map],
    operation: &str,
    dialect: Dialect,
) -> IndexMap<&'m str, Definition<'m>> {
    let mut found: Vec<(&str, bool, Definition<'_>)> = merged(layers, dialect)
        .into_iter()
        .filter(|((op, section, _), _)| *section == "inputs" && op.is_none_or(|op| op == operation))
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
    defined
}

/// A map written where an input or property is defined that is a value, not a definition (it
/// uses no definition keyname): the Simple Profile lets a type assign an operation input
/// (A.5.11 Operation definition), as in `inputs: { port: { get_property: [SELF, port] } }`,
/// and a capability definition's one-line refinement may give a map value.
pub(super) fn is_value(layer: &Map) -> bool {
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

pub(super) mod steps {
    //! What the steps of an imperative workflow name, and the shape of their activities (TOSCA 2.0
    //! §13.2 Imperative Workflows, §13.2.2 Workflow Step Definition, §13.2.3 Activity Definition;
    //! Simple Profile 1.1–1.3, which brought imperative workflows with the same step and activity
    //! grammar).
    //!
    //! Each name a step writes must resolve in the service template, or the workflow cannot run:
    //! - `target` is "the name of a node template or group in the service";
    //! - `target_relationship` is "the name of a requirement of the node template (in case
    //!   <target_name> refers to a node template)", and "applicable only if the target is a node";
    //! - `on_success` and `on_failure` each hold "the name of another step of the workflow" (a list,
    //!   or the single string the grammar also shows);
    //! - each activity is a one-entry map whose key is `delegate`, `set_state`, `call_operation` or
    //!   `inline` (§13.2.3), and `inline` names "a workflow defined in the service"
    //!   (§13.2.3.4 Inline Workflow Activity Definition).
    //!
    //! TOSCA 2.0 also makes `steps` and `implementation` "mutually exclusive" (§13.2 Imperative
    //! Workflows); the Simple Profile drafts this project reads give no such rule, so it is checked
    //! for 2.0 only. A TOSCA 2.0 policy trigger's `action` is "the list of sequential activities"
    //! (§16.5 Trigger Definition), so its activities are held to the same shape. A `delegate` names a
    //! declarative workflow the orchestrator provides (`deploy`, `undeploy`, ...), which no file
    //! defines, so it is not resolved. `call_operation` is [`crate::resolve::workflow_calls`]'s.

    use std::collections::HashSet;

    use crate::diag::{Diagnostic, Diagnostics, codes};
    use crate::ir::{Dialect, Topology};
    use crate::model::{Model, TopologyTemplate, TypeKind};
    use crate::yaml::{Map, Node};

    /// The activity keynames of §13.2.3 Activity Definition.
    const ACTIVITIES: &[&str] = &["delegate", "set_state", "call_operation", "inline"];

    /// Checks the steps of every workflow, and the activities of every policy trigger, of a TOSCA
    /// 2.0 service template or Simple Profile topology template.
    pub fn check(
        model: &Model,
        template: &TopologyTemplate,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) {
        if model.dialect == Dialect::Xml {
            return;
        }
        let names = Names {
            model,
            topology,
            workflows: template.workflows.iter().map(|w| w.name.as_str()).collect(),
            rule: rule(model.dialect),
        };
        for workflow in &template.workflows {
            let Some(map) = workflow.def.as_map() else {
                continue;
            };
            let steps = map.get("steps");
            if let (Some(steps), Some(implementation)) = (steps, map.get("implementation"))
                && model.dialect == Dialect::Tosca2
            {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        format!("workflow `{}` has both `steps` and `implementation`, which are mutually exclusive", workflow.name),
                    )
                    .at(implementation.span)
                    .label(steps.span, "its steps")
                    .hint("keep either the steps or the external workflow `implementation` (§13.2 Imperative Workflows)"),
                );
            }
            let Some(steps) = steps.and_then(Node::as_map) else {
                continue;
            };
            for step in steps.entries() {
                if let Some(body) = step.value.as_map() {
                    names.step(steps, body, diags);
                }
            }
        }
        // The Simple Profile's triggers come in several shapes (1.0 left policies to a
        // non-normative appendix, and tosca-parser's and Tacker's templates write `action` as a
        // list of names), so only TOSCA 2.0 triggers are held to the activity grammar.
        let triggers_of = template
            .policies
            .iter()
            .filter(|_| model.dialect == Dialect::Tosca2);
        for policy in triggers_of {
            let triggers = policy.triggers.as_ref();
            for trigger in triggers
                .and_then(Node::as_map)
                .map_or(&[][..], Map::entries)
            {
                let action = trigger.value.as_map().and_then(|t| t.get("action"));
                names.activities(action.and_then(Node::as_seq).unwrap_or(&[]), diags);
            }
        }
    }

    /// What the names of a workflow's steps may name.
    struct Names<'a> {
        model: &'a Model,
        topology: &'a Topology,
        workflows: HashSet<&'a str>,
        rule: &'static str,
    }

    impl Names<'_> {
        fn step(&self, steps: &Map, step: &Map, diags: &mut Diagnostics) {
            let target = step.get("target").filter(|t| t.as_str().is_some());
            if let Some(target) = target {
                self.target(target, step.get("target_relationship"), diags);
            }
            for key in ["on_success", "on_failure"] {
                let Some(next) = step.get(key) else {
                    continue;
                };
                let listed = match next.as_seq() {
                    Some(items) => items,
                    None => std::slice::from_ref(next),
                };
                for name in listed {
                    self.next_step(steps, key, name, diags);
                }
            }
            if let Some(activities) = step.get("activities").and_then(Node::as_seq) {
                self.activities(activities, diags);
            }
        }

        /// `target` names a node template or group; `target_relationship` a requirement of that
        /// node.
        fn target(&self, target: &Node, relationship: Option<&Node>, diags: &mut Diagnostics) {
            let name = target.as_str().unwrap_or_default();
            let node = self.topology.nodes.iter().find(|n| n.name == name);
            let group = self.topology.groups.iter().any(|g| g.name == name);
            if node.is_none() && !group {
                let known: Vec<&str> = self
                    .topology
                    .nodes
                    .iter()
                    .map(|n| n.name.as_str())
                    .chain(self.topology.groups.iter().map(|g| g.name.as_str()))
                    .collect();
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!("workflow step targets `{name}`, which is no node template or group of the service template"),
                    )
                    .at(target.span)
                    .did_you_mean(name, &known, Some(format!("name a node template or group ({})", self.rule))),
                );
                return;
            }
            let Some(relationship) = relationship else {
                return;
            };
            let Some(node) = node else {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        format!("workflow step sets `target_relationship`, but its target `{name}` is a group"),
                    )
                    .at(relationship.span)
                    .hint(format!("`target_relationship` names a requirement of a node template target; remove it or target a node ({})", self.rule)),
                );
                return;
            };
            let defs = crate::resolve::types::definitions(self.model, TypeKind::Node, &node.types);
            if defs.is_empty() || self.model.incomplete_types {
                return;
            }
            let requirements: Vec<&str> = defs
                .iter()
                .filter_map(|d| d.def.as_map()?.get("requirements")?.as_seq())
                .flatten()
                .filter_map(|r| r.as_map()?.entries().first()?.key.as_str())
                .collect();
            let wanted = relationship.scalar_text().unwrap_or_default();
            if !requirements.contains(&wanted) {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!("`target_relationship` names `{wanted}`, which is no requirement of `{name}` (a `{}`)", node.type_name),
                    )
                    .at(relationship.span)
                    .did_you_mean(wanted, &requirements, Some(format!("name a requirement of the target node's type: {} ({})", requirements.join(", "), self.rule))),
                );
            }
        }

        /// An `on_success` or `on_failure` entry names another step of the same workflow.
        fn next_step(&self, steps: &Map, key: &str, name: &Node, diags: &mut Diagnostics) {
            let wanted = name.scalar_text();
            if wanted.is_some_and(|w| steps.contains_key(w)) {
                return;
            }
            let known: Vec<&str> = steps
                .entries()
                .iter()
                .filter_map(|e| e.key.as_str())
                .collect();
            let written = wanted.unwrap_or("a value that is not a name");
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!("`{key}` names `{written}`, which is no step of this workflow"),
                )
                .at(name.span)
                .did_you_mean(
                    written,
                    &known,
                    Some(format!(
                        "name a step of the workflow: {} ({})",
                        known.join(", "),
                        self.rule
                    )),
                ),
            );
        }

        /// Each activity is a one-entry map of a known kind; an `inline` names a workflow of the
        /// service template.
        fn activities(&self, activities: &[Node], diags: &mut Diagnostics) {
            for activity in activities {
                let entries = activity.as_map().map_or(&[][..], Map::entries);
                let [entry] = entries else {
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_SHAPE,
                            "an activity must be a map with exactly one entry, its kind",
                        )
                        .at(activity.span)
                        .hint(format!("write one activity per list item: `- delegate: ...`, `- set_state: ...`, `- call_operation: ...` or `- inline: ...` ({})", self.rule)),
                    );
                    continue;
                };
                let kind = entry.key.as_str().unwrap_or_default();
                if !ACTIVITIES.contains(&kind) {
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_UNKNOWN_KEY,
                            format!("`{kind}` is not an activity"),
                        )
                        .at(entry.key.span)
                        .did_you_mean(
                            kind,
                            ACTIVITIES,
                            Some(format!(
                                "an activity is one of: {} ({})",
                                ACTIVITIES.join(", "),
                                self.rule
                            )),
                        ),
                    );
                } else if kind == "inline" {
                    self.inlined(&entry.value, diags);
                } else if kind == "call_operation" {
                    operation_notation(&entry.value, self.rule, diags);
                }
            }
        }

        /// `inline: <workflow>` or `inline: { workflow: <workflow>, inputs }`.
        fn inlined(&self, value: &Node, diags: &mut Diagnostics) {
            let name = match value.as_map() {
                Some(m) => m.get("workflow"),
                None => Some(value),
            };
            let Some(name) = name else {
                return;
            };
            let wanted = name.scalar_text().unwrap_or_default();
            if self.workflows.contains(wanted) {
                return;
            }
            let mut known: Vec<&str> = self.workflows.iter().copied().collect();
            known.sort_unstable();
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!("`inline` names workflow `{wanted}`, which the service template does not define"),
                )
                .at(name.span)
                .did_you_mean(wanted, &known, Some(format!("name a workflow of the service template's `workflows` (§13.2.3.4 Inline Workflow Activity Definition; {})", self.rule))),
            );
        }
    }

    /// `call_operation: <interface>.<operation>` or `call_operation: { operation:
    /// <interface>.<operation>, inputs }`: "The operation name uses the
    /// <interface_name>.<operation_name> notation" (§13.2.3.3 Call Operation Activity Definition),
    /// so a name without both parts names no operation of any interface. Which interface and
    /// operation it names is [`super::check`]'s.
    fn operation_notation(value: &Node, rule: &str, diags: &mut Diagnostics) {
        let name = match value.as_map() {
            Some(m) => m.get("operation"),
            None => Some(value),
        };
        let Some(name) = name.filter(|n| n.as_str().is_some()) else {
            return;
        };
        let text = name.as_str().unwrap_or_default();
        if text
            .split_once('.')
            .is_some_and(|(interface, operation)| !interface.is_empty() && !operation.is_empty())
        {
            return;
        }
        diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_NAME,
                format!("`call_operation` names `{text}`, which is not an operation written as <interface>.<operation>"),
            )
            .at(name.span)
            .hint(format!("name the operation with its interface, such as `Standard.create` (§13.2.3.3 Call Operation Activity Definition: \"The operation name uses the <interface_name>.<operation_name> notation\"; {rule})")),
        );
    }

    /// The section that defines workflow steps, for the dialect.
    fn rule(dialect: Dialect) -> &'static str {
        if dialect == Dialect::Tosca2 {
            "§13.2.2 Workflow Step Definition"
        } else {
            "Simple Profile 1.1-1.3 Workflow step definition"
        }
    }
}
