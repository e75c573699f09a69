//! Is every named variability expression written in the expression language, whether or not a
//! condition reads it? The resolver encodes and evaluates an expression only where it is used,
//! so without this a named expression that no condition reads (yet) could hold an operator
//! that does not exist, name an input or an expression that does not exist, or give `implies`
//! three operands, and the template would still resolve. § Variability Expression: "an
//! expression which consists of operators and functions which are listed below" (§ Intrinsic
//! Functions); this reads only what needs no evaluation: the operators, the shape of their
//! operands, and the names of variability inputs and expressions they read. (Which elements
//! the presence operators name depends on the element being resolved, `SELF` and the like, so
//! it is left to where they are used.) Input default expressions (§ Variability Input
//! `default_expression`) are checked the same way.

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;
use crate::yaml::Node;

use super::model::{Data, Model};
use super::values::{VALUE_OPERATORS, current_name};

/// The logical operators (§ Logical Operators) and `logic_expression`.
const LOGIC_OPERATORS: &[&str] = &[
    "and",
    "or",
    "not",
    "xor",
    "exo",
    "amo",
    "implies",
    "logic_expression",
];

/// The presence operators (§ Presence Operators), as the encoder reads them.
const PRESENCE_OPERATORS: &[&str] = &[
    "artifact_presence",
    "artifact_property_presence",
    "artifact_type_presence",
    "container_presence",
    "group_presence",
    "group_property_presence",
    "group_type_presence",
    "has_artifact",
    "has_artifact_naive",
    "has_incoming_relation",
    "has_incoming_relation_naive",
    "has_outgoing_relation",
    "has_outgoing_relation_naive",
    "has_present_member",
    "has_present_target",
    "has_source",
    "host_presence",
    "import_presence",
    "input_presence",
    "is_consumed",
    "is_managed",
    "is_produced",
    "node_presence",
    "node_property_presence",
    "node_type_presence",
    "output_presence",
    "policy_presence",
    "policy_property_presence",
    "policy_type_presence",
    "relation_presence",
    "relation_property_presence",
    "relation_type_presence",
    "source_presence",
    "target_presence",
    "technology_presence",
];

/// Operators whose operand is a list of exactly two.
const PAIRS: &[&str] = &[
    "implies",
    "mod",
    "greater",
    "greater_or_equal",
    "less",
    "less_or_equal",
    "in_range",
    "valid_values",
    "length",
    "min_length",
    "max_length",
];

/// Operators whose operand is a list of any length.
const LISTS: &[&str] = &[
    "and", "or", "xor", "exo", "amo", "add", "sub", "mul", "div", "concat", "equal",
];

/// What the walk knows: the declared names.
struct Names<'a> {
    inputs: &'a [&'a str],
    expressions: Vec<&'a str>,
}

/// Checks every named expression, every input's `default_expression` and the `expression`s
/// of `properties` (§ Property Assignment), which are computed only for present properties.
pub fn check(
    expressions: &IndexMap<&str, &Node>,
    inputs: &IndexMap<&str, &Node>,
    model: &Model<'_>,
    diags: &mut Diagnostics,
) {
    let properties = model.elements.iter().filter_map(|e| match &e.data {
        Data::Property(p) => p.expression,
        _ => None,
    });
    let declared: Vec<&str> = inputs.keys().copied().collect();
    let names = Names {
        inputs: &declared,
        expressions: expressions.keys().copied().collect(),
    };
    let defaults = inputs
        .values()
        .filter_map(|d| d.as_map()?.get("default_expression"));
    for expr in expressions
        .values()
        .copied()
        .chain(defaults)
        .chain(properties)
    {
        walk(expr, &names, 0, diags);
    }
}

/// Deeper than this, the evaluator's own depth limit reports it where it is used.
const MAX_DEPTH: usize = 256;

fn walk(expr: &Node, names: &Names<'_>, depth: usize, diags: &mut Diagnostics) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(items) = expr.as_seq() {
        for i in items {
            walk(i, names, depth + 1, diags);
        }
        return;
    }
    let Some(map) = expr.as_map() else {
        return;
    };
    let Some(entry) = map.entries().first().filter(|_| map.len() == 1) else {
        diags.push(error(
            format!(
                "an expression is a map with exactly one operator, this one has {}",
                map.len()
            ),
            expr.span,
            "split it, e.g. into `{and: [...]}`",
        ));
        return;
    };
    let written = entry.key.scalar_text().unwrap_or_default();
    let op = current_name(written);
    let arg = &entry.value;
    if PRESENCE_OPERATORS.contains(&op) {
        return;
    }
    if !(VALUE_OPERATORS.contains(&op) || LOGIC_OPERATORS.contains(&op)) {
        let known: Vec<&str> = [LOGIC_OPERATORS, VALUE_OPERATORS, PRESENCE_OPERATORS].concat();
        diags.push(
            error(
                format!("Unknown operator \"{written}\""),
                entry.key.span,
                "an expression uses one of the operators and functions of § Intrinsic Functions",
            )
            .did_you_mean(written, &known, None),
        );
        return;
    }
    match op {
        "variability_input" => reference(arg, "variability input", names.inputs, diags),
        "logic_expression" | "value_expression" => {
            reference(arg, "variability expression", &names.expressions, diags)
        }
        "not" if arg.as_seq().is_some() => diags.push(error(
            "`not` takes one expression, not a list".to_string(),
            arg.span,
            "write `{not: <expression>}`",
        )),
        _ if PAIRS.contains(&op) && arg.as_seq().is_none_or(|l| l.len() != 2) => diags.push(error(
            format!("`{op}` takes a list of two operands"),
            arg.span,
            "see § Intrinsic Functions for the operands of each operator",
        )),
        _ if LISTS.contains(&op) && arg.as_seq().is_none() => diags.push(error(
            format!("`{op}` takes a list of operands"),
            arg.span,
            "see § Intrinsic Functions for the operands of each operator",
        )),
        _ => walk(arg, names, depth + 1, diags),
    }
}

/// A name operand: a string naming one of `known`.
fn reference(arg: &Node, what: &str, known: &[&str], diags: &mut Diagnostics) {
    let Some(name) = arg.as_str() else {
        diags.push(error(
            format!("the name of a {what} must be a string"),
            arg.span,
            "write the name",
        ));
        return;
    };
    if known.contains(&name) {
        return;
    }
    diags.push(
        Diagnostic::error(
            codes::VAR_UNKNOWN,
            format!("{what} \"{name}\" is not declared"),
        )
        .at_with(arg.span, "not declared")
        .did_you_mean(name, known, None),
    );
}

fn error(message: String, span: Span, hint: &str) -> Diagnostic {
    Diagnostic::error(codes::VAR_EXPRESSION, message)
        .at(span)
        .hint(hint)
}
