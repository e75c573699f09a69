//! TOSCA 2.0 functions (§10 TOSCA Functions): every call checked, evaluated where its value is
//! known before deployment, and kept as an IR [`Call`](crate::ir::Call) where it is not.
//!
//! Values are read into the IR first (`resolve::values` recognises the `$` syntax and binds
//! `$get_input`); once node templates and their relationships are built, [`resolve`] walks every
//! value of the topology with what `SELF` means there ([`Scope`]): the properties, attributes,
//! capabilities, interfaces and artifacts of nodes (`SELF` the node), the properties, attributes
//! and interfaces of relationships (`SELF` the relationship), and groups, policies and outputs
//! (no `SELF`). Each call is judged where it is written (its span travels with the IR call):
//!
//! - the function must exist: a built-in ([`builtins`]) or one defined under `functions`
//!   ([`table`]); what an unknown name means (mostly a warning, since an orchestrator may
//!   supply it) is [`unknown`]'s to say;
//! - a built-in gets the number and kinds of arguments §10.2 gives it; a custom function's
//!   arguments must fit one of its signatures, tried in order, each literal argument read as
//!   the signature's schema (so `1 GB` is a scalar, and a schema's validation applies);
//! - a TOSCA path ([`path`]) must lead somewhere the types allow, and the name after it must be
//!   one the entity's type defines;
//! - a property, attribute or capability value that a function computes must fit its
//!   definition's type (a `$concat` is no integer).
//!
//! Inner calls are evaluated first (§10.1 Function Syntax). `$get_property` of a value known before
//! deployment is replaced by that value (through chains of `$get_property`, a loop is an error),
//! and so is every function whose arguments are then all known (`$concat`, `$sum`, `$node_index` of
//! a node with one representation, ...). The rest stays a call, `$get_property`, `$get_attribute`
//! and `$get_artifact` in the Simple Profile's `[node, (capability,) name, ...]` form wherever the
//! path leads to one node template, so every backend reads them as it reads 1.x ones.
//!
//! Node filters and other validation expressions are evaluated by whoever owns them, through
//! [`Evaluator::evaluate`] with the scope they mean (`Scope::Open` for a requirement's candidate
//! relationship); this pass leaves requirements and input definitions as they were read.
//! Calls in workflows and policy triggers observe a deployment's state when they run: they
//! are kept as written, and only their names and argument counts are judged. A node
//! template's operation output mappings are `$get_attribute` paths without the `$`, judged by
//! the same walk ([`mappings`]); so are the calls of relationship templates no requirement
//! uses, which are not in the IR ([`unused`]). A node or relationship type's interface inputs are
//! judged for the type too, with `SELF` any entity of it ([`type_inputs`]), so a type no template
//! uses is checked.

pub mod builtins;
mod eval;
mod mappings;
pub mod path;
pub mod syntax;
pub mod table;
mod type_inputs;
pub(crate) mod unknown;
mod unused;

use indexmap::IndexMap;

pub use eval::{CallIndex, Evaluator, Explained};
pub use path::{Graph, OpenRelationship, Scope};
pub use table::Functions;

use super::typing::Typing;
use crate::diag::Diagnostics;
use crate::ir::{Dialect, Topology, Value};
use crate::model::Model;

/// Checks and evaluates every TOSCA 2.0 call of `topology` (see the module docs). `inputs` are
/// the inputs' values, for `$get_input` calls whose arguments become known here.
pub fn resolve<'m>(
    model: &'m Model,
    typing: &mut Typing<'_, 'm>,
    functions: &Functions<'m>,
    inputs: &IndexMap<String, Option<Value>>,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) {
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    if let Some(template) = &model.topology {
        let templates = template
            .node_templates
            .iter()
            .chain(&template.relationship_templates);
        for named in templates {
            reserved_name(&named.name, named.span, "template", diags);
        }
    }
    let output_mappings = mappings::any(model);
    let type_inputs = type_inputs::any(model);
    let unused = unused::read(model, typing, topology, diags);
    if !eval::has_calls(topology) && !output_mappings && !type_inputs && unused.is_empty() {
        return;
    }
    let calls = CallIndex::new(model);
    let snapshot = topology.clone();
    let graph = Graph::new(model, &snapshot);
    let mut evaluator = Evaluator::new(typing, &graph, functions, &calls, inputs);
    evaluator.topology(topology, diags);
    if output_mappings {
        mappings::check(model, &mut evaluator, diags);
    }
    unused::check(&unused, &mut evaluator, diags);
    if type_inputs {
        type_inputs::check(model, &mut evaluator, diags);
    }
}

/// A template, requirement or capability named like a TOSCA path keyword could not be told from
/// the keyword in a path (T2-PATH-03), so the name is an error.
pub fn reserved_name(name: &str, at: crate::source::Span, what: &str, diags: &mut Diagnostics) {
    if path::KEYWORDS.contains(&name) {
        diags.push(
            crate::diag::Diagnostic::error(
                crate::diag::codes::TOSCA_SHAPE,
                format!("a {what} cannot be named `{name}`, a keyword of TOSCA paths"),
            )
            .at(at)
            .hint(format!(
                "rename it: a path reads `{name}` as the keyword ({})",
                path::KEYWORDS.join(", ")
            )),
        );
    }
}

#[cfg(test)]
mod tests;
