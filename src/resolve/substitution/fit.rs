//! Which nodes are substituted and which candidate substitutes each: the directives and the
//! Simple Profile's abstract nodes, the candidate's `node_type`, its `substitution_filter` (a
//! Simple Profile node filter, or a TOSCA 2.0 condition clause evaluated on the node) and its
//! constant property mappings.

use indexmap::IndexMap;

use super::Candidate;
use crate::diag::Diagnostics;
use crate::ir::{Dialect, Node, NodeId, Topology, Value};
use crate::model::substitution::SubstitutionMappings;
use crate::model::tree::Tree;
use crate::model::{Model, TypeKind};
use crate::resolve::calls::{CallIndex, Evaluator, Functions, Graph, Scope};

/// What a candidate declares: the node type it substitutes (its full name) and its mappings.
pub(super) struct Boundary<'m> {
    pub(super) node_type: String,
    pub(super) mappings: &'m SubstitutionMappings,
}

pub(super) fn boundary(candidate: &Candidate) -> Option<Boundary<'_>> {
    let mappings = candidate
        .model
        .topology
        .as_ref()?
        .substitution_mappings
        .as_ref()
        .filter(|m| m.not_a_map.is_none())?;
    let written = mappings.node_type.as_ref()?;
    let name = written.scalar_text()?;
    // Read, and an unknown, ambiguous or cyclic type reported, where the candidate is resolved
    // (`substitution_mappings::read`).
    let ancestry = crate::resolve::types::Ancestry::new(&candidate.model).of_reported_elsewhere(
        &candidate.model,
        TypeKind::Node,
        name,
        written.span,
    );
    Some(Boundary {
        node_type: ancestry.first()?.clone(),
        mappings,
    })
}

/// How a node asks to be substituted.
#[derive(Clone, Copy)]
pub(super) struct Marked {
    /// By a directive that asks for a template (so finding none, or a cycle, is reported);
    /// false for an abstract Simple Profile node and a TOSCA 2.0 node with a fallback
    /// directive after `substitute`.
    pub(super) explicit: bool,
    /// Nothing else can realize it: no candidate is an error.
    pub(super) required: bool,
}

pub(super) fn marked(dialect: Dialect, node: &Node) -> Option<Marked> {
    if node.selection.is_some() {
        return None;
    }
    let tosca2 = dialect == Dialect::Tosca2;
    let at = node
        .directives
        .iter()
        .position(|d| d == "substitute" || (!tosca2 && d == "substitutable"));
    match at {
        Some(p) if tosca2 => {
            // With a directive after `substitute` (`create`), the node falls back to it
            // silently when no template fits.
            let required = p + 1 == node.directives.len();
            (!node.directives[..p].iter().any(|d| d == "select")).then_some(Marked {
                explicit: required,
                required,
            })
        }
        None if tosca2 => None,
        Some(_) => Some(Marked {
            explicit: true,
            required: false,
        }),
        None => is_abstract(node).then_some(Marked {
            explicit: false,
            required: false,
        }),
    }
}

/// Simple Profile §11 Describing abstract requirements for nodes and capabilities in a TOSCA
/// template: concrete nodes have a deployment artifact or an implementation of the `create`
/// operation; the others are abstract.
pub(super) fn is_abstract(node: &Node) -> bool {
    node.artifacts.is_empty()
        && !node.interfaces.values().any(|i| {
            i.operations
                .get("create")
                .and_then(|op| op.implementation.as_ref())
                .is_some_and(|im| im.primary.is_some())
        })
}

/// Whether a candidate substitutes `node`, beyond its type.
pub(super) enum Fit {
    Yes,
    /// Only values known at deployment can tell.
    Maybe(String),
    No(String),
}

/// Whether `node` passes the candidate's `substitution_filter` and has the values its constant
/// property mappings ask for, or why not. A Simple Profile property "mapping" onto a value
/// that is no input of the template (`flavour_id: simple`, as ETSI NFV deployment flavours and
/// tosca-parser's tests write) selects the nodes whose property has that value.
pub(super) fn fits(
    judged: &Judged,
    b: &Boundary,
    template: Option<&crate::model::TopologyTemplate>,
) -> Fit {
    let (model, node) = (judged.model, judged.node);
    if model.dialect == Dialect::Tosca2 {
        return match (&b.mappings.substitution_filter, judged.conditions) {
            (Some(filter), Some(conditions)) => conditions.judge(filter, judged.id),
            _ => Fit::Yes,
        };
    }
    let reader = crate::resolve::values::ValueReader {
        dialect: model.dialect,
        inputs: None,
        budget: None,
    };
    let mut maybe = None;
    if model.dialect != Dialect::Tosca2
        && let Some(mappings) = b.mappings.properties.as_ref().and_then(|p| p.as_map())
    {
        let declared =
            |name: &str| template.is_some_and(|t| t.inputs.iter().any(|i| i.name == name));
        for e in mappings.entries() {
            let (Some(property), Some(text)) = (e.key.scalar_text(), e.value.scalar_text()) else {
                continue;
            };
            if declared(text) {
                continue;
            }
            // Read, and what is wrong in it reported, where the candidate is resolved
            // (`substitution_mappings::read`).
            let wanted = reader.plain(&e.value);
            match node.properties.get(property) {
                Some(Value::Call(_)) => {
                    maybe = Some(format!(
                        "`{property}` must be {}",
                        crate::ir::value_text(&wanted)
                    ));
                }
                Some(v) if values_equal(v, &wanted) => {}
                got => {
                    return Fit::No(format!(
                        "it substitutes nodes whose `{property}` is {}, not {}",
                        crate::ir::value_text(&wanted),
                        got.map_or("unset".to_string(), crate::ir::value_text)
                    ));
                }
            }
        }
    }
    if let Some(filter) = &b.mappings.substitution_filter {
        let filter = filter
            .as_map()
            .and_then(|m| m.get("node_filter"))
            .unwrap_or(filter);
        // Read, and its wrong shapes reported, where the candidate is resolved
        // (`boundary::check_substitution_filter`).
        let read = crate::resolve::filters::read_to(filter, &mut None);
        let mut ancestry = crate::resolve::types::Ancestry::new(model);
        let mut typing = crate::resolve::typing::Typing {
            model,
            reader: &reader,
            ancestry: &mut ancestry,
            patterns: judged.patterns,
        };
        match crate::resolve::filters::judge(&read, &mut typing, node) {
            crate::resolve::filters::Verdict::Fails(why) => return Fit::No(why),
            crate::resolve::filters::Verdict::Maybe(why) => maybe = maybe.or(Some(why)),
            crate::resolve::filters::Verdict::Fits => {}
        }
    }
    maybe.map_or(Fit::Yes, Fit::Maybe)
}

/// A node of the topology being expanded, as a candidate judges it.
pub(super) struct Judged<'j> {
    pub(super) model: &'j Model,
    pub(super) node: &'j Node,
    pub(super) id: NodeId,
    pub(super) conditions: Option<&'j Conditions<'j>>,
    /// The run's compiled patterns.
    pub(super) patterns: &'j crate::resolve::patterns::Patterns,
}

/// What TOSCA 2.0 substitution filters are evaluated with: the calls of the topology being
/// expanded (`$get_property: [ SELF, ... ]` reads the substituted node), as node filters are
/// where requirements are fulfilled.
pub(super) struct Conditions<'t> {
    model: &'t Model,
    graph: Graph<'t>,
    functions: Functions<'t>,
    calls: CallIndex<'t>,
    inputs: IndexMap<String, Option<Value>>,
    patterns: crate::resolve::patterns::Patterns,
}

impl<'t> Conditions<'t> {
    pub(super) fn new(
        model: &'t Model,
        topology: &'t Topology,
        patterns: crate::resolve::patterns::Patterns,
    ) -> Self {
        Conditions {
            model,
            patterns,
            graph: Graph::new(model, topology),
            // The template's own resolution reads its functions and reports their problems
            // (`resolve::check_types`).
            functions: Functions::reported_elsewhere(model),
            calls: CallIndex::new(model),
            inputs: topology
                .inputs
                .iter()
                .map(|i| {
                    (
                        i.name.clone(),
                        i.value.clone().or_else(|| i.default.clone()),
                    )
                })
                .collect(),
        }
    }

    /// The filter (a condition clause, or a list of them that must all hold, as in a node
    /// filter) judged on node `id`.
    fn judge<T: Tree>(&self, filter: &T, id: NodeId) -> Fit {
        let reader = crate::resolve::values::ValueReader {
            dialect: Dialect::Tosca2,
            inputs: None,
            budget: None,
        };
        // Read, and what is wrong in it reported, where the candidate is resolved (with its
        // types: `tosca2_types`' `workflows_and_triggers`).
        let clauses = match reader.plain(filter) {
            Value::List(items) => items,
            one => vec![one],
        };
        let mut ancestry = crate::resolve::types::Ancestry::new(self.model);
        let mut typing = crate::resolve::typing::Typing {
            model: self.model,
            reader: &reader,
            ancestry: &mut ancestry,
            patterns: &self.patterns,
        };
        let mut evaluator = Evaluator::new(
            &mut typing,
            &self.graph,
            &self.functions,
            &self.calls,
            &self.inputs,
        );
        let mut maybe = None;
        for clause in &clauses {
            let mut found = Diagnostics::new();
            let value = evaluator.evaluate(clause, &Scope::Node(id), &mut found);
            if let Some(wrong) = found.iter().find(|d| d.is_error()) {
                return Fit::No(format!("its substitution_filter fails: {}", wrong.message));
            }
            match value {
                Value::Boolean(true) => {}
                Value::Boolean(false) => {
                    return Fit::No(format!(
                        "its substitution_filter `{}` is false for this node",
                        crate::ir::value_text(clause)
                    ));
                }
                _ => {
                    maybe = Some(
                        "its substitution_filter depends on values known only at deployment"
                            .to_string(),
                    )
                }
            }
        }
        maybe.map_or(Fit::Yes, Fit::Maybe)
    }
}

/// Equal as values: a property's typed value against a constant read without its type (an
/// integer written where the property is a float, a string where it is a version).
pub(super) fn values_equal(typed: &Value, constant: &Value) -> bool {
    typed == constant || crate::ir::value_text(typed) == crate::ir::value_text(constant)
}
