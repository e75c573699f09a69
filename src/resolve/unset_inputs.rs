//! Required interface inputs left unset by a template. A parameter is required unless its
//! definition says `required: false` (§9.8 Parameter Definition: "If this keyname is not
//! present on a parameter definition, then the parameter SHALL be considered required (i.e.,
//! true) by default"), and "If a required parameter has no value defined or assigned, its
//! default value is assigned" (§9.8 Parameter Value Assignment, as csd07 numbers it): a required input with no
//! `value`, no `default` and no assignment has nothing to be given when its operation runs.
//! The Simple Profile writes operation inputs as property definitions (A.5.11 Operation
//! definition, A.5.12 Interface definition), and a required property with no value is an error
//! (A.5.7 Property definition); the same rule holds there.
//!
//! What a node or relationship template's operation is given: the interface definitions of its
//! type chain and the interface type (with its parents) they name, then the template's own
//! interface assignment, interface-level inputs belonging to each operation (§11.1 Interface
//! Type). Decisions where the spec is silent:
//!
//! - only operations that have an implementation are judged: an operation with none is never
//!   run, so nothing is passed to it; an interface-level input is judged when some operation of
//!   the interface has one, and is taken as given when the template assigns it at interface
//!   level or to any operation (the Simple Profile's own WordPress example defines the
//!   database inputs on the interface and passes them to `configure` only);
//! - an operation that an imperative workflow's `call_operation` targets on the template may be
//!   given its inputs there, which [`super::workflow_calls`] checks instead;
//! - a node that is selected or substituted rather than created (it has `directives`) is not
//!   judged: no operation of it is run by this deployment.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::interface_parameters::{definitions_named, merged};
use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, Subject, codes};
use crate::hash::FastMap;
use crate::ir::{Interface, Interfaces, Topology, TypeNames};
use crate::model::{Model, Named, TopologyTemplate, TypeKind};
use crate::source::Span;
use crate::yaml::{Map, Node};

/// The inputs operations are given, both ways: by imperative workflows' `call_operation`
/// ([`super::workflow_calls`]), then by templates (here).
pub fn check(
    model: &Model,
    ancestry: &mut super::types::Ancestry,
    template: &TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) {
    super::workflow_calls::check(model, ancestry, template, topology, diags);
    templates(model, template, topology, diags);
}

/// Checks the interfaces of every node and relationship of `topology`.
fn templates(
    model: &Model,
    template: &TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) {
    // TOSCA 1.0 XML operations take their input parameters from the plan that invokes them
    // (section 2, "A process model can contain tasks ... that refer to operations"), never
    // from the node template.
    if model.incomplete_types || model.dialect == crate::ir::Dialect::Xml {
        return;
    }
    let called = workflow_calls(template);
    let node_templates: HashMap<&str, &Named> = template
        .node_templates
        .iter()
        .map(|n| (n.name.as_str(), n))
        .collect();
    let relationship_templates: HashMap<&str, &Named> = template
        .relationship_templates
        .iter()
        .map(|r| (r.name.as_str(), r))
        .collect();
    let mut unvalued = UnvaluedInputs::default();
    // Each template once (an expanded topology has several nodes of one template).
    let mut seen: HashSet<(TypeKind, &str)> = HashSet::new();
    let nodes = topology
        .nodes
        .iter()
        .filter(|node| node.directives.is_empty())
        .map(|n| (TypeKind::Node, &n.name, &n.types, &n.interfaces));
    let relationships = topology
        .relationships
        .iter()
        .map(|r| (TypeKind::Relationship, &r.name, &r.types, &r.interfaces));
    for (kind, name, types, interfaces) in nodes.chain(relationships) {
        let named = match kind {
            TypeKind::Node => node_templates.get(name.as_str()),
            _ => relationship_templates.get(name.as_str()),
        };
        let Some(named) = named else {
            continue;
        };
        if !seen.insert((kind, name)) {
            continue;
        }
        let judged = Judged {
            model,
            kind,
            types,
            interfaces,
            owner: Subject::new(
                if kind == TypeKind::Node {
                    "node template"
                } else {
                    "relationship template"
                },
                name,
            ),
            at: assigned_at(named),
            called: &called,
            target: if kind == TypeKind::Node { name } else { "" },
        };
        judged.check(&mut unvalued, diags);
    }
}

/// A type chain as a cache key: the address and length of its shared list ([`TypeNames`]).
/// Every list is borrowed from the topology for the whole check, so an address names one list.
type ChainKey = (*const String, usize);

fn chain_key(types: &TypeNames) -> ChainKey {
    (types.as_ptr(), types.len())
}

/// The required inputs with no `value`, `default` or `mapping` that an interface's definitions
/// (along a template's type chain, then the interface type's) give, as `(input, operation)`
/// sorted, `None` for an interface-level input. They depend only on the two type chains and
/// the interface's name, so they are merged once per type rather than for every template of
/// it (the merge was most of this check's cost); what each template assigns and runs is judged
/// per template.
#[derive(Default)]
struct UnvaluedInputs<'m, 't> {
    known: FastMap<(TypeKind, ChainKey, &'t str, ChainKey), Unvalued<'m>>,
}

/// `(input, operation)` pairs, sorted; `None` for an interface-level input.
type Unvalued<'m> = Rc<[(&'m str, Option<&'m str>)]>;

impl<'m, 't> UnvaluedInputs<'m, 't> {
    fn of(
        &mut self,
        model: &'m Model,
        kind: TypeKind,
        types: &TypeNames,
        name: &'t str,
        interface: &Interface,
    ) -> Unvalued<'m> {
        let key = (kind, chain_key(types), name, chain_key(&interface.types));
        Rc::clone(self.known.entry(key).or_insert_with(|| {
            let defs = definitions(model, kind, types);
            let mut layers = definitions_named(&defs, name);
            layers.extend(
                definitions(model, TypeKind::Interface, &interface.types)
                    .iter()
                    .filter_map(|d| d.def.as_map()),
            );
            let mut unvalued: Vec<(&'m str, Option<&'m str>)> = merged(&layers, model.dialect)
                .into_iter()
                .filter(|((_, section, _), definition)| {
                    *section == "inputs"
                        && definition.required()
                        && !["value", "default", "mapping"]
                            .iter()
                            .any(|k| definition.get(k).is_some())
                })
                .map(|((operation, _, input), _)| (input, operation))
                .collect();
            unvalued.sort_unstable();
            unvalued.into()
        }))
    }
}

/// Where a template's unset input is reported: its `interfaces` keyname, else its name.
fn assigned_at(named: &Named) -> Span {
    named
        .def
        .as_map()
        .and_then(|m| m.entry("interfaces"))
        .map_or(named.span, |e| e.key.span)
}

/// The `(target, interface.operation)` pairs that imperative workflows call.
fn workflow_calls(template: &TopologyTemplate) -> HashSet<(String, String)> {
    let mut out = HashSet::new();
    for workflow in &template.workflows {
        let steps = workflow
            .def
            .as_map()
            .and_then(|m| m.get("steps"))
            .and_then(Node::as_map);
        for step in steps.map_or(&[][..], Map::entries) {
            let Some(step) = step.value.as_map() else {
                continue;
            };
            let Some(target) = step.get("target").and_then(Node::scalar_text) else {
                continue;
            };
            let activities = step.get("activities").and_then(Node::as_seq);
            for activity in activities.unwrap_or_default() {
                let Some(call) = activity.as_map().and_then(|m| m.get("call_operation")) else {
                    continue;
                };
                let operation = call
                    .as_map()
                    .map_or(Some(call), |m| m.get("operation"))
                    .and_then(Node::scalar_text);
                if let Some(operation) = operation {
                    out.insert((target.to_string(), operation.to_string()));
                }
            }
        }
    }
    out
}

/// One template's interfaces, as resolved, and what its type chain defines.
struct Judged<'a> {
    model: &'a Model,
    kind: TypeKind,
    types: &'a TypeNames,
    interfaces: &'a Interfaces,
    owner: Subject<'a>,
    at: Span,
    called: &'a HashSet<(String, String)>,
    /// The node template's name, as workflow steps target it (empty for a relationship).
    target: &'a str,
}

impl<'a> Judged<'a> {
    fn check(&self, unvalued: &mut UnvaluedInputs<'a, 'a>, diags: &mut Diagnostics) {
        for (name, interface) in self.interfaces {
            let run = |operation: &str| {
                interface
                    .operations
                    .get(operation)
                    .is_some_and(|op| op.implementation.is_some())
                    && !self
                        .called
                        .contains(&(self.target.to_string(), format!("{name}.{operation}")))
            };
            let candidates = unvalued.of(self.model, self.kind, self.types, name, interface);
            for &(input, operation) in candidates.iter() {
                if interface.inputs.contains_key(input) {
                    continue;
                }
                let left = match operation {
                    None => {
                        interface.operations.keys().any(|op| run(op))
                            && !interface
                                .operations
                                .values()
                                .any(|op| op.inputs.contains_key(input))
                    }
                    Some(op) => run(op) && !interface.operations[op].inputs.contains_key(input),
                };
                if left {
                    self.report(name, operation, input, diags);
                }
            }
        }
    }

    fn report(
        &self,
        interface: &str,
        operation: Option<&str>,
        input: &str,
        diags: &mut Diagnostics,
    ) {
        let tosca2 = self.model.dialect == crate::ir::Dialect::Tosca2;
        let operations = if tosca2 { "operations: { " } else { "" };
        let rule = if tosca2 {
            "§9.8 Parameter Definition, Parameter Value Assignment"
        } else {
            "A.5.11 Operation definition: inputs are property definitions, required by default (A.5.7 Property definition)"
        };
        let close = if operations.is_empty() { "" } else { " }" };
        let (whose, place) = match operation {
            Some(op) => (
                format!("operation `{interface}.{op}`"),
                format!(
                    "`interfaces: {{ {interface}: {{ {operations}{op}: {{ inputs: {{ {input}: <value> }} }}{close} }} }}`"
                ),
            ),
            None => (
                format!("interface `{interface}`"),
                format!("`interfaces: {{ {interface}: {{ inputs: {{ {input}: <value> }} }} }}`"),
            ),
        };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_MISSING_KEY,
                format!(
                    "{} leaves the required input `{input}` of its {whose} unset",
                    self.owner
                ),
            )
            .at(self.at)
            .hint(format!(
                "a required input with no `value` or `default` must be assigned ({rule}): assign it with {place}, or give its definition a default or `required: false`"
            )),
        );
    }
}
