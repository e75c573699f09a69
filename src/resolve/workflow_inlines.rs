//! What a TOSCA 2.0 workflow activity passes to the workflow it inlines, and the name the
//! extended notation of an activity must give (§13.2.3 Activity Definition).
//!
//! - The extended notation of `delegate` and `inline` names the workflow under `workflow`, and
//!   that of `call_operation` the operation under `operation`: each is "Mandatory in the extended
//!   notation" (§13.2.3.1 Delegate Workflow Activity Definition, §13.2.3.3 Call Operation
//!   Activity Definition, §13.2.3.4 Inline Workflow Activity Definition). Without it the
//!   activity names nothing to run.
//! - `inline`'s `inputs` are "the optional map of input parameter assignments for the inlined
//!   workflow" (§13.2.3.4), whose `inputs` are parameter definitions (§13.2 Imperative
//!   Workflows, §9.8 Parameter Definition). So each input passed is one the inlined workflow
//!   defines, its value is a "type-compatible value" (§9.9 Parameter Value Assignment) — a
//!   literal of the definition's type, or a `$get_input` of the inlining workflow's input of
//!   that type — and a required input without a `value` or `default` is passed ("If a required
//!   parameter has no value defined or assigned, its default value is assigned", §9.9): the
//!   rules a `call_operation` follows for the operation's inputs
//!   ([`super::workflow_calls`]), the inlined workflow taking the operation's place.
//!
//! - An internal workflow's inputs are incoming parameters, which should have no `value` (§9.8
//!   Parameter Definition: SHOULD NOT, so a warning).
//! - `set_state` names the node's new state, a `str` (§13.2.3.2 Set State Activity
//!   Definition). Which strings are states is not judged: TOSCA 2.0 lists no node states
//!   (csd07 has no normative list; §13.2.3.2 says only "Value of the node state"), and the
//!   Simple Profile's list (A.3.1 Node States: initial, creating, ... error) is of the states
//!   "recognized" for the orchestrator to set, not a closed set for workflows: OASIS's own 1.3
//!   tutorial (`examples/1.3/tutorial/workflows.yaml`) sets `up` and `down`.
//! - A `delegate` names "the workflow of the node provided by the TOSCA orchestrator"
//!   (§13.2.3.1 Delegate Workflow Activity Definition), not one of the service template's, so
//!   its name is not resolved either.
//!
//! Policy triggers' `action` lists are activities too (§16.5 Trigger Definition); an `inline`
//! there has no workflow inputs of its own to read. Only TOSCA 2.0: the Simple Profile's
//! `inline` names a workflow and passes nothing (1.3 Workflow activity definition). Which
//! workflow an `inline` names, and which operation a `call_operation` calls, are
//! [`super::workflow_calls`]'s.

use super::typing::{Definition, Typing};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Named, TopologyTemplate};
use crate::yaml::{Map, Node};

/// The activity kinds whose extended notation names what it runs, and the keyname it uses.
const NAMED_BY: &[(&str, &str, &str)] = &[
    (
        "delegate",
        "workflow",
        "§13.2.3.1 Delegate Workflow Activity Definition",
    ),
    (
        "call_operation",
        "operation",
        "§13.2.3.3 Call Operation Activity Definition",
    ),
    (
        "inline",
        "workflow",
        "§13.2.3.4 Inline Workflow Activity Definition",
    ),
];

const INLINE_RULE: &str = "§13.2.3.4 Inline Workflow Activity Definition";

/// Checks the activities of every workflow and policy trigger of a TOSCA 2.0 service template.
pub fn check<'m>(
    typing: &mut Typing<'_, 'm>,
    template: &'m TopologyTemplate,
    diags: &mut Diagnostics,
) {
    if typing.model.dialect != Dialect::Tosca2 {
        return;
    }
    let mut found = Diagnostics::new();
    let mut check = Inlines {
        workflows: &template.workflows,
        found: &mut found,
    };
    for workflow in &template.workflows {
        let Some(map) = workflow.def.as_map() else {
            continue;
        };
        let own_inputs = map.get("inputs").and_then(Node::as_map);
        if !map.contains_key("implementation") {
            internal_inputs(own_inputs, check.found);
        }
        let steps = map.get("steps").and_then(Node::as_map);
        for step in steps.map_or(&[][..], Map::entries) {
            let activities = step.value.as_map().and_then(|s| s.get("activities"));
            for activity in activities.and_then(Node::as_seq).unwrap_or(&[]) {
                check.activity(typing, activity, own_inputs);
            }
        }
    }
    for policy in &template.policies {
        let triggers = policy.triggers.as_ref();
        for trigger in triggers
            .and_then(Node::as_map)
            .map_or(&[][..], Map::entries)
        {
            let action = trigger.value.as_map().and_then(|t| t.get("action"));
            for activity in action.and_then(Node::as_seq).unwrap_or(&[]) {
                check.activity(typing, activity, None);
            }
        }
    }
    // Reading the passed values for the IR reports what is wrong with their calls already.
    diags.extend_unseen(found.iter().cloned());
}

/// The inputs of an internal workflow (one of steps, not an external `implementation`) are
/// incoming parameters, given when it runs: "internal workflow inputs" are listed among them, and
/// `value` "SHOULD NOT be defined in *incoming* parameter definitions" (§9.8 Parameter
/// Definition; a warning, as `front::tosca2`'s direction rule explains). An external workflow's
/// inputs are outgoing, and may.
fn internal_inputs(inputs: Option<&Map>, found: &mut Diagnostics) {
    for entry in inputs.map_or(&[][..], Map::entries) {
        let Some(value) = entry.value.as_map().and_then(|m| m.entry("value")) else {
            continue;
        };
        let name = entry.key.as_str().unwrap_or_default();
        found.push(
            Diagnostic::warning(
                codes::TOSCA_SHAPE,
                format!("input `{name}` of a workflow of steps is an incoming parameter, which should not have a `value`"),
            )
            .at(value.key.span)
            .hint("its value is given when the workflow runs: give a `default` instead (§9.8 Parameter Definition: `value` \"SHOULD NOT be defined in *incoming* parameter definitions\"; internal workflow inputs are incoming)"),
        );
    }
}

struct Inlines<'t, 'm> {
    workflows: &'m [Named],
    found: &'t mut Diagnostics,
}

impl<'m> Inlines<'_, 'm> {
    /// One activity, `{ <kind>: <name> }` or `{ <kind>: { <name keyname>: <name>, inputs } }`;
    /// `own_inputs` are the input definitions of the workflow it is written in.
    fn activity(&mut self, typing: &mut Typing<'_, 'm>, activity: &'m Node, own: Option<&Map>) {
        let Some([entry]) = activity.as_map().map(Map::entries) else {
            return; // Not one activity: reported by the step checks.
        };
        let kind = entry.key.as_str().unwrap_or_default();
        if kind == "set_state" && entry.value.as_str().is_none() {
            let d = crate::model::shape::wrong_shape(&entry.value, "`set_state`", "a string")
                .hint("name the state the node is set to, as a string (§13.2.3.2 Set State Activity Definition: `set_state` is a `str`)");
            self.found.push(d);
            return;
        }
        let Some(&(_, key, rule)) = NAMED_BY.iter().find(|(k, _, _)| *k == kind) else {
            return;
        };
        let extended = entry.value.as_map();
        let Some(name) = extended.map_or(Some(&entry.value), |m| m.get(key)) else {
            self.found.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!("the extended notation of `{kind}` has no `{key}`, which names what it runs"),
                )
                .at(entry.value.span)
                .hint(format!("add `{key}: <name>` (\"Mandatory in the extended notation\", {rule}), or write the short notation `{kind}: <name>`")),
            );
            return;
        };
        if kind != "inline" {
            return;
        }
        let wanted = name.scalar_text().unwrap_or_default();
        let Some(inlined) = self.workflows.iter().find(|w| w.name == wanted) else {
            return; // An unknown workflow: reported by the step checks.
        };
        let defined = inlined.def.as_map().and_then(|m| m.get("inputs")?.as_map());
        let given = extended.and_then(|m| m.get("inputs")?.as_map());
        self.passed(typing, wanted, defined, given, own);
        self.required(wanted, defined, given, name);
    }

    /// Each input an `inline` passes is one the inlined workflow defines, of its type.
    fn passed(
        &mut self,
        typing: &mut Typing<'_, 'm>,
        workflow: &str,
        defined: Option<&'m Map>,
        given: Option<&'m Map>,
        own: Option<&Map>,
    ) {
        for entry in given.map_or(&[][..], Map::entries) {
            let Some(input) = entry.key.as_str() else {
                continue;
            };
            let Some(definition) = defined.and_then(|d| d.get(input)?.as_map()) else {
                let known: Vec<&str> = defined
                    .map_or(&[][..], Map::entries)
                    .iter()
                    .filter_map(|e| e.key.as_str())
                    .collect();
                let listed = if known.is_empty() {
                    format!("workflow `{workflow}` defines no inputs")
                } else {
                    format!(
                        "the inputs of workflow `{workflow}` are: {}",
                        known.join(", ")
                    )
                };
                self.found.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!("`inline` of `{workflow}` passes input `{input}`, which the workflow does not define"),
                    )
                    .at(entry.key.span)
                    .did_you_mean(input, &known, Some(format!("{listed} ({INLINE_RULE})"))),
                );
                continue;
            };
            if typing.reader.is_call(&entry.value) {
                self.own_input_type(typing, input, definition, &entry.value, own);
            } else {
                let path = format!("inputs.{input}");
                let definition = Definition::single(definition);
                typing.value(&entry.value, &definition, &path, self.found);
            }
        }
    }

    /// An input passed as `$get_input` of the inlining workflow's own input: the two declared
    /// types fit (the same type, one derived from it, or an integer for a float).
    fn own_input_type(
        &mut self,
        typing: &mut Typing<'_, 'm>,
        input: &str,
        definition: &Map,
        value: &Node,
        own: Option<&Map>,
    ) {
        let declared = super::workflow_calls::passed_workflow_input(value, own).map(|(_, t)| t);
        let expected = definition.get("type").and_then(Node::as_str);
        let (Some(declared), Some(expected)) = (declared, expected) else {
            return;
        };
        if typing.type_fits(declared, expected) {
            return;
        }
        self.found.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!("input `{input}` of the inlined workflow has type `{expected}`, but it is passed a workflow input of type `{declared}`"),
            )
            .at(value.span)
            .hint(format!("pass a value of type `{expected}` (§9.9 Parameter Value Assignment: a type-compatible value; {INLINE_RULE})")),
        );
    }

    /// Every required input of the inlined workflow with no `value` or `default` is passed.
    fn required(
        &mut self,
        workflow: &str,
        defined: Option<&Map>,
        given: Option<&Map>,
        name: &Node,
    ) {
        for entry in defined.map_or(&[][..], Map::entries) {
            let (Some(input), Some(body)) = (entry.key.as_str(), entry.value.as_map()) else {
                continue;
            };
            let definition = Definition::single(body);
            let valued = definition.get("value").is_some() || definition.get("default").is_some();
            let passed = given.is_some_and(|g| g.contains_key(input));
            if definition.required() && !valued && !passed {
                self.found.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("`inline` of `{workflow}` does not pass the required input `{input}`, which has no value or default"),
                    )
                    .at(name.span)
                    .hint(format!("pass it as `inline: {{ workflow: {workflow}, inputs: {{ {input}: <value> }} }}`, or give its definition a default or `required: false` (§9.9 Parameter Value Assignment, {INLINE_RULE})")),
                );
            }
        }
    }
}
