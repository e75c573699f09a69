//! A TOSCA 2.0 validation clause type-checked where it is written, before any value meets it:
//! "the validation clause is a Boolean expression" (§9.11 Validation Clause), so a clause that
//! yields something else, or that compares `$value` with a literal of another type, is a
//! mistake in the definition (T2-VALID-05, T2-ERR-18). A data type's own clause "MUST be
//! type-compatible with the type of the derived_from keyname" (§9.2 Data Type, T2-DATATYPE-07,
//! T2-ERR-09). The spec's own examples that compare a string with a number (`$less_or_equal:
//! [$value, 10]` on a string, T2-GAP-16) are such type errors too.
//!
//! Judged without a value, once per clause, where the type of `$value` is known: a comparison
//! (`$equal`, the orderings, `$valid_values`, `$in_range`) of bare `$value` with a literal of
//! another kind, or of `$length` (of anything: an integer, §10.2.3.1 $length) with a literal
//! that is no number. §10.2.2.2.2 `$greater_than` makes such a comparison false rather than an
//! error; in a validation clause it is false for every value, so the clause rejects them all,
//! which is never what its author meant: it is the ill-typed clause T2-VALID-05 names. The
//! kind is judged for the bases whose literals are written as themselves (string, integer,
//! float, boolean), and a scalar, whose literal is text (a number with its unit), so a bare
//! number, boolean, list or map is never one. A literal of the right kind compared with bare
//! `$value` is then read as a value of the validated type ([`Fit`], the typed reader without
//! its report): `15 GB` for a scalar type whose units are m and cm, `abc` for a version,
//! `next week` for a timestamp, `True` for a TOSCA 2.0 boolean are none, reported here once.
//! Where the clause meets a value ([`super::validation`]) such an operand leaves it unjudged
//! and is not reported again. A refinement that keeps its inherited `type` is judged from the
//! walk over written definitions, which knows that type ([`refined`]). What depends on another
//! function stays unjudged here, never wrongly failed.

use super::calls::builtins::{self, describe};
use super::calls::syntax;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, Value};
use crate::model::TypeKind;
use crate::yaml::{Core, Node};

use super::tosca2_types::BUILT_IN;
use super::typing::Typing;
use super::validation::is_value;
use super::values::ValueReader;
use super::written_definitions::Written;

/// The functions that compare two operands, whose types must agree.
const COMPARISONS: &[&str] = &[
    "equal",
    "greater_than",
    "greater_or_equal",
    "less_than",
    "less_or_equal",
    "valid_values",
    "in_range",
];

/// The functions that never yield a boolean though their signature gives no one result type:
/// `$concat` a string or list, the arithmetic a number or scalar.
const NEVER_BOOLEAN: &[&str] = &[
    "concat",
    "sum",
    "difference",
    "product",
    "quotient",
    "remainder",
];

/// Reads a literal compared with `$value` as a value of the validated type, reporting nothing:
/// `Err` names the type and says what a value of it is
/// ([`super::typing::Typing::operand_fit`]).
pub type Fit<'f> = &'f mut dyn FnMut(&Node) -> Result<(), Misfit>;

/// A literal that is not a value of the validated type: the type's name, and what a value of
/// it is or (starting with a backquote) why the literal is none.
pub struct Misfit {
    pub type_name: String,
    pub expected: String,
}

/// The problems of `clause`, the validation of a value whose type's built-in base is `base`
/// (`None` for a complex type or one not known), its literals compared with `$value` read by
/// `fit` as values of the validated type.
pub fn problems(clause: &Node, base: Option<&str>, fit: Fit) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    boolean(clause, &mut found);
    comparisons(clause, base, fit, &mut found);
    found
}

/// A TOSCA 2.0 property or attribute definition that refines an inherited one without restating
/// its `type` ([`super::written_definitions`]): its clause's comparisons judged as [`problems`]
/// judges them, against the inherited type, which is not known where [`super::tosca2_types`]
/// reads the definition alone (and judges whether the clause is a boolean expression).
pub fn refined(typing: &mut Typing, written: &Written, diags: &mut Diagnostics) {
    if typing.model.dialect != Dialect::Tosca2 || written.body.get("type").is_some() {
        return;
    }
    let (Some(clause), Some(type_node)) =
        (written.body.get("validation"), written.merged.get("type"))
    else {
        return;
    };
    if type_node.as_str().is_none() {
        return;
    }
    let validated = typing.identity(type_node);
    let built_in = |name: &str| BUILT_IN.contains(&name) || name == "scalar";
    let base = if built_in(&validated) {
        Some(validated.clone())
    } else {
        let chain = typing
            .ancestry
            .chain(typing.model, TypeKind::Data, &validated);
        chain.last().filter(|b| built_in(b)).cloned()
    };
    let mut fit = |operand: &Node| {
        typing
            .operand_fit(operand, &validated)
            .map(|_| ())
            .map_err(|expected| Misfit {
                type_name: validated.clone(),
                expected,
            })
    };
    let mut found = Vec::new();
    comparisons(clause, base.as_deref(), &mut fit, &mut found);
    diags.extend(found);
}

/// Reports `node` when it cannot yield a boolean: a literal that is none, or a built-in whose
/// result is never one; the operands of `$and`, `$or`, `$xor` and `$not` are judged alike.
fn boolean(node: &Node, found: &mut Vec<Diagnostic>) {
    let Some(call) = syntax::call(node) else {
        if !matches!(node.as_scalar().map(|s| &s.core), Some(Core::Bool(_))) {
            found.push(not_boolean(node, "this value is not a boolean"));
        }
        return;
    };
    let Some(b) = builtins::built_in(call.name) else {
        return;
    };
    if matches!(b.name, "and" | "or" | "xor" | "not") {
        for arg in syntax::arguments(&call) {
            boolean(arg, found);
        }
    } else if NEVER_BOOLEAN.contains(&b.name) || b.result.is_some_and(|r| r != "boolean") {
        found.push(not_boolean(
            node,
            &format!("`${}` does not yield a boolean", b.name),
        ));
    }
}

fn not_boolean(node: &Node, label: &str) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_FUNCTION,
        "a validation clause must be a boolean expression",
    )
    .at_with(node.span, label)
    .hint("write a condition, such as `{ $greater_or_equal: [ $value, 0 ] }`, or a function that yields true or false (§9.11 Validation Clause)")
}

/// Judges every comparison in `node` whose subject is known: bare `$value`, on a value of the
/// built-in type `base`, or `$length` of anything, an integer (§10.2.3.1 $length: "the number
/// of characters in a string or elements in a list or map").
fn comparisons(node: &Node, base: Option<&str>, fit: Fit, found: &mut Vec<Diagnostic>) {
    if let Some(call) = syntax::call(node)
        && COMPARISONS.contains(&call.name)
    {
        judge(&call, &syntax::arguments(&call), base, fit, found);
    }
    let children: Vec<&Node> = match (node.as_map(), node.as_seq()) {
        (Some(map), _) => map.entries().iter().map(|e| &e.value).collect(),
        (_, Some(items)) => items.iter().collect(),
        _ => Vec::new(),
    };
    for child in children {
        comparisons(child, base, &mut *fit, found);
    }
}

/// A comparison's subject: bare `$value` or a `$length`.
#[derive(Clone, Copy, Default)]
struct Subject {
    /// The built-in base whose literals are judged by their kind, if it is one.
    kind_of: Option<&'static str>,
    shown: &'static str,
    /// Whether it is bare `$value`, whose operands are read as values of the validated type.
    is_value: bool,
}

/// The type of a comparison's subject and how to name it: `$value` (its `base` judged by
/// kind when it is one whose literals are written as themselves), or a `$length`.
fn subject(node: &Node, base: Option<&str>) -> Option<Subject> {
    if is_value(node) {
        let kind_of = base.and_then(|b| {
            ["string", "integer", "float", "boolean", "scalar"]
                .into_iter()
                .find(|k| *k == b)
        });
        return Some(Subject {
            kind_of,
            shown: "`$value`",
            is_value: true,
        });
    }
    syntax::call(node)
        .filter(|c| c.name == "length")
        .map(|_| Subject {
            kind_of: Some("integer"),
            shown: "`$length`",
            is_value: false,
        })
}

fn judge(
    call: &syntax::Written<Node>,
    args: &[&Node],
    base: Option<&str>,
    fit: Fit,
    found: &mut Vec<Diagnostic>,
) {
    let reader = ValueReader {
        dialect: Dialect::Tosca2,
        inputs: None,
        budget: None,
    };
    // The operands the subject is compared with: the other side of an ordering or `$equal`,
    // the listed values of `$valid_values`, the bounds of `$in_range`.
    let (operands, subject): (Vec<&Node>, _) = match (call.name, args) {
        ("valid_values" | "in_range", [first, list]) if subject(first, base).is_some() => (
            list.as_seq()
                .map_or_else(Vec::new, |items| items.iter().collect()),
            subject(first, base).unwrap_or_default(),
        ),
        (_, [a, b]) if subject(a, base).is_some() => {
            (vec![*b], subject(a, base).unwrap_or_default())
        }
        (_, [a, b]) if subject(b, base).is_some() => {
            (vec![*a], subject(b, base).unwrap_or_default())
        }
        _ => return,
    };
    for operand in operands.into_iter().filter(|o| syntax::call(*o).is_none()) {
        // What is wrong in the literal as a value is reported where the clause's arguments are
        // first read, `tosca2_types`' check of its built-in calls.
        let value = reader.plain(operand);
        let Some(kind) = kind(&value) else { continue };
        let Some(base) = subject.kind_of.filter(|&b| kind != kind_of_base(b)) else {
            if subject.is_value
                && let Err(misfit) = fit(operand)
            {
                found.push(not_of_type(call, operand, &misfit));
            }
            continue;
        };
        let shown = subject.shown;
        found.push(
            Diagnostic::error(
                codes::TOSCA_FUNCTION,
                format!(
                    "an ill-typed validation clause: `${}` compares {} ({shown}) with {}",
                    call.name,
                    a(base),
                    describe(&value)
                ),
            )
            .at_with(operand.span, format!("not {}", a(base)))
            .hint(format!(
                "a clause must be type-compatible with the type it validates, so it can hold for some value (§9.11 Validation Clause, §9.2 Data Type): compare {shown} with {}, or compare what a function makes of it (such as `{{ $length: [ $value ] }}`)",
                a(base)
            )),
        );
    }
}

/// `operand`, compared by `call` with `$value`, is not a value of the validated type, so the
/// comparison is false for every value (§10.2.2.2 Comparison Functions: true "if both arguments
/// are of the same type"; `$valid_values` lists "values of the same type as the first
/// argument"): the ill-typed clause of §9.11 Validation Clause.
fn not_of_type(call: &syntax::Written<Node>, operand: &Node, misfit: &Misfit) -> Diagnostic {
    let Misfit {
        type_name,
        expected,
    } = misfit;
    let found = operand.as_scalar().map_or_else(
        || operand.describe().to_string(),
        |s| format!("`{}`", s.text),
    );
    let why = if expected.starts_with('`') {
        expected.to_string()
    } else {
        format!("{found} is not {expected}")
    };
    Diagnostic::error(
        codes::TOSCA_FUNCTION,
        format!(
            "an ill-typed validation clause: `${}` compares `$value`, of type `{type_name}`, with an operand not of that type: {why}",
            call.name
        ),
    )
    .at_with(operand.span, format!("not a `{type_name}`"))
    .hint(format!("an operand compared with `$value` must be a value of the type it validates, or the clause holds for no value (§10.2.2.2 Comparison Functions, §9.11 Validation Clause): write a `{type_name}`"))
}

/// What a literal operand is, for comparing with `$value`: numbers compare with numbers, the
/// rest with their own kind; a null (compared by `$equal` with anything) is not judged.
fn kind(value: &Value) -> Option<&'static str> {
    Some(match value {
        Value::Integer(_) | Value::Float(_) => "number",
        Value::String(_) => "string",
        Value::Boolean(_) => "boolean",
        Value::List(_) => "list",
        Value::Map(_) => "map",
        _ => return None,
    })
}

/// `base` with its article, for messages.
fn a(base: &str) -> String {
    if base == "integer" {
        "an integer".to_string()
    } else {
        format!("a {base}")
    }
}

fn kind_of_base(base: &str) -> &'static str {
    match base {
        "integer" | "float" => "number",
        // A scalar is written as text, its number and unit (§9.1.2.2 scalar: "It SHALL be
        // considered an error if either the scalar or unit portion is missing").
        "string" | "scalar" => "string",
        _ => "boolean",
    }
}
