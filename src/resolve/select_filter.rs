//! What a translator can decide about the `node_filter` of a `select` node template (TOSCA 2.0
//! §7.2.1 Node Template Directives, §8.6 Node Filter Definition). The orchestrator selects a node
//! of the template's type from its inventory for which the filter holds, with `SELF` that node;
//! toscana has no inventory, so the filter is checked and evaluated once, against a node known only
//! by its type ([`super::calls::Scope::Candidate`], in [`super::calls::Evaluator`]): a path or
//! property the type does not have, an unknown function or a wrong argument count is an error
//! there, as in a requirement's filter (§8.6 Node Filter Definition). This module judges the value
//! that evaluation leaves:
//!
//! - a call (what the candidate's properties and allocations decide) or `true`: fine, and the
//!   IR carries it for the orchestrator;
//! - `false`: no node can ever pass, so selection cannot succeed. An error when the directives
//!   try nothing after `select`; otherwise a warning that the next directive is what happens;
//! - any other value: a node filter is a condition clause, a boolean expression (§8.6 Node Filter
//!   Definition), so a number, string, list or map (a Simple Profile `properties:` filter, say)
//!   selects nothing.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Node, Value, value_text};
use crate::source::Span;

/// Reports a `select` filter that evaluated to `value` and can select nothing (see the module
/// docs). `at` is where the filter is written.
pub fn judge(node: &Node, at: Option<Span>, value: &Value, diags: &mut Diagnostics) {
    let Some(selection) = &node.selection else {
        return;
    };
    let problem = match value {
        Value::Boolean(true) => return,
        _ if value.has_call() => return,
        Value::Boolean(false) => {
            "is false whatever the node, so no node can be selected".to_string()
        }
        other => format!(
            "is {}, not a condition: a node filter is a boolean expression (§8.6 Node Filter Definition)",
            value_text(other)
        ),
    };
    let message = format!(
        "the `node_filter` of `select` node template `{}` {problem}",
        node.name
    );
    let d = if selection.otherwise.is_empty() {
        Diagnostic::error(codes::TOSCA_CONSTRAINT, message).hint(
            "write a condition on the node to select, with SELF that node, e.g. `$greater_or_equal: [ { $get_property: [ SELF, CAPABILITY, host, num_cpus ] }, 2 ]` (§8.6 Node Filter Definition)",
        )
    } else {
        Diagnostic::warning(codes::TOSCA_CONSTRAINT, message).hint(format!(
            "selection will always fail over to `{}`; write a condition on the node to select (§7.2.1 Node Template Directives, §8.6 Node Filter Definition)",
            selection.otherwise.join("`, then `")
        ))
    };
    diags.push(match at {
        Some(span) => d.at(span),
        None => d,
    });
}
