//! Simple Profile constraint clauses judged where they are written, used or not: each clause
//! of a property, attribute or parameter definition that names its `type` (in a type, an
//! `entry_schema` or `key_schema`, an interface's inputs, the topology's or a workflow's
//! inputs) and each of a data type's own `constraints` is read once, with
//! [`constraints::judge`] (a `pattern` excepted, see [`is_pattern`]): a single-key map with a
//! known operator (A.5.2 Constraint clause: a
//! bare `- in_range [ 1, 2 ]` is no clause), whose operand is a value of the constrained type
//! ("Constraints of a property definition SHALL be type-compatible with the type defined for
//! that property", A.5.7.5 Additional Requirements; a data type's constraints "SHALL be
//! type-compatible with the type defined by the derived_from keyname", A.6.5.3 Additional
//! Requirements). Before, a clause was read only when a value met it, so a mistaken clause in
//! a type no template used, or on a property left unset, passed.
//!
//! A definition that refines an inherited one without restating its `type` is left to the
//! values that meet it (its type is the parent's). A value checked later against a clause
//! judged here reports only whether it holds ([`constraints::check`]), so each mistake is said
//! once. TOSCA 2.0 has `validation` instead, judged by [`super::tosca2_types`]; the XML front
//! end writes its clauses from XSD facets, already typed.

use super::constraints;
use super::typing::Typing;
use crate::diag::Diagnostics;
use crate::ir::Dialect;
use crate::model::TypeKind;
use crate::span::Span;
use crate::yaml::Node;

/// Keynames whose values are values, not definitions: nothing under them is judged.
const VALUES: [&str; 5] = ["default", "value", "metadata", "description", "constraints"];

/// Judges every clause written in the model's types and topology.
pub fn check(typing: &mut Typing, diags: &mut Diagnostics) {
    let model = typing.model;
    if !matches!(model.dialect, Dialect::SimpleProfile | Dialect::Variability) {
        return;
    }
    for ((kind, id), def) in &model.types {
        let own = (*kind == TypeKind::Data).then_some(id.as_str());
        walk(typing, &def.def, own, diags);
    }
    if let Some(topology) = &model.topology {
        for named in topology.inputs.iter().chain(&topology.workflows) {
            walk(typing, &named.def, None, diags);
        }
    }
}

/// Judges the clauses of `node` and of the definitions nested in it; `own_type` is the data
/// type whose definition `node` is, for its own `constraints`.
fn walk(typing: &mut Typing, node: &Node, own_type: Option<&str>, diags: &mut Diagnostics) {
    if let Some(items) = node.as_seq() {
        for item in items {
            walk(typing, item, None, diags);
        }
        return;
    }
    let Some(map) = node.as_map() else {
        return;
    };
    if let Some(clauses) = map.get("constraints") {
        let type_name = match map.get("type") {
            Some(type_node) if type_node.scalar_text().is_some() => {
                Some(typing.identity(type_node))
            }
            Some(_) => None,
            None => own_type.map(str::to_string),
        };
        if let Some(type_name) = type_name {
            for clause in clauses.as_seq().unwrap_or(std::slice::from_ref(clauses)) {
                // A clause a front end made up has no place of its own to be known by.
                if clause.span != Span::default()
                    && !is_pattern(clause)
                    && typing.patterns.judge_once(clause.span)
                {
                    constraints::judge(typing, clause, &type_name, diags);
                }
            }
        }
    }
    for entry in map.entries() {
        if entry.key.as_str().is_some_and(|k| !VALUES.contains(&k)) {
            walk(typing, &entry.value, None, diags);
        }
    }
}

/// Whether a clause is a `pattern`, which is left to the values that meet it: the spec leaves
/// its regular expression dialect open (A.5.2.1 Operator keynames; SP-CON-16), so a pattern
/// that toscana's dialect cannot compile (a look-around, as Puccini's Kubernetes profile writes
/// in its `Hostname` type) may be right in its author's, and a profile must stay readable for
/// it. A value that meets such a pattern is reported then, as it cannot be checked.
fn is_pattern(clause: &Node) -> bool {
    clause.as_map().is_some_and(|m| m.contains_key("pattern"))
}
