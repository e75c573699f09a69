//! TOSCA 2.0 validation clauses (§9.11 Validation Clause) evaluated against known values.
//!
//! A clause is a boolean expression over `$value` (the value being validated, or with
//! arguments a key or index inside it) built from the built-in functions of §10.2, applied by
//! [`builtins::apply`] as everywhere else. Literal operands compared with
//! `$value` are read as values of the validated type, so `1 Mbits/s` compares as a scalar of
//! that type and `1.10` as a version. What cannot be judged before deployment (another
//! function, such as `$get_property`) leaves the clause unjudged, never wrongly failed; so does
//! an operand that is not a value of the validated type, a mistake of the clause reported once
//! where it is written ([`super::validation_clause_types`]), not at every value.

use crate::diag::{Diagnostic, Findings, codes};
use crate::ir::{Dialect, Function, Value};
use crate::model::tree::Tree;

use super::calls::builtins::{self, Group, Outcome};
use super::calls::syntax;
use super::typing::Typing;
use super::values::nested;

/// Reports `value` (written at `node`) when `clause` is false for it.
pub fn check<N: Tree, C: Tree, F: Findings>(
    typing: &mut Typing,
    value: &Value,
    node: &N,
    clause: &C,
    type_name: &str,
    path: &dyn std::fmt::Display,
    diags: &mut F,
) {
    if matches!(value, Value::Call(_)) {
        return;
    }
    let mut eval = Eval {
        typing,
        value,
        type_name,
    };
    if let Some(Value::Boolean(false)) = eval.eval(clause) {
        diags.find(|| {
            Diagnostic::error(
                codes::TOSCA_CONSTRAINT,
                format!("`{path}` does not pass the validation clause of type `{type_name}`"),
            )
            .at_with(node.span(), "this value")
            .label(clause.span(), "the validation clause it fails")
            .hint("give a value for which the clause is true (§9.11 Validation Clause)")
        });
    }
}

struct Eval<'a, 't, 'm> {
    typing: &'a mut Typing<'t, 'm>,
    value: &'a Value,
    type_name: &'a str,
}

impl Eval<'_, '_, '_> {
    /// The value of an expression, or `None` when it cannot be known here.
    fn eval<C: Tree>(&mut self, node: &C) -> Option<Value> {
        let Some(call) = syntax::call(node) else {
            // A literal where a boolean expression or operand is expected.
            return self.operand(node, false);
        };
        let args = syntax::arguments(&call);
        let name = call.name;
        let function = &Function::parse(name, Dialect::Tosca2);
        match function {
            Function::Value => {
                let mut path = Vec::with_capacity(args.len());
                for arg in &args {
                    path.push(self.eval(*arg)?);
                }
                nested(self.value, &path)
            }
            Function::Equal
            | Function::GreaterThan
            | Function::GreaterOrEqual
            | Function::LessThan
            | Function::LessOrEqual => {
                let [a, b] = args[..] else { return None };
                let (a, b) = self.operands(a, b)?;
                outcome(builtins::apply(function, &[a, b], self.typing.patterns))
            }
            Function::ValidValues => {
                let [a, list] = args[..] else { return None };
                let subject = self.eval(a)?;
                let is_value = is_value(a);
                let mut items = Vec::new();
                for item in list.items()? {
                    items.push(self.operand(item, is_value)?);
                }
                outcome(builtins::apply(
                    function,
                    &[subject, Value::List(items)],
                    self.typing.patterns,
                ))
            }
            Function::InRange if self.typing.model.in_range_function => {
                let [a, bounds] = args[..] else { return None };
                let subject = self.eval(a)?;
                let [lower, upper] = bounds.items()? else {
                    return None;
                };
                let (lower, upper) = (
                    self.operand(lower, is_value(a))?,
                    self.operand(upper, is_value(a))?,
                );
                outcome(builtins::apply(
                    function,
                    &[subject, Value::List(vec![lower, upper])],
                    self.typing.patterns,
                ))
            }
            _ if builtins::built_in(name).is_some_and(|b| b.group == Group::Pure) => {
                let mut values = Vec::with_capacity(args.len());
                for arg in &args {
                    values.push(self.eval(*arg)?);
                }
                let b = builtins::built_in(name)?;
                if values.len() < b.min || b.max.is_some_and(|max| values.len() > max) {
                    return None;
                }
                outcome(builtins::apply(function, &values, self.typing.patterns))
            }
            // Queries of the topology and custom functions: judged at deployment.
            _ => None,
        }
    }

    /// Two operands: expressions evaluated, literals read as the validated type when the other
    /// side is `$value` itself, else as plain values.
    fn operands<C: Tree>(&mut self, a: &C, b: &C) -> Option<(Value, Value)> {
        Some((self.operand(a, is_value(b))?, self.operand(b, is_value(a))?))
    }

    fn operand<C: Tree>(&mut self, node: &C, as_validated_type: bool) -> Option<Value> {
        if syntax::call(node).is_some() {
            return self.eval(node);
        }
        // The clause's literals are read, and what is wrong in them reported, where the clause
        // is written (`tosca2_types`, `validation_clause_types`): an operand not of the
        // validated type leaves the clause unjudged here, and nothing is reported again.
        if as_validated_type {
            self.typing.operand_fit(node, self.type_name).ok()
        } else {
            Some(self.typing.reader.plain(node))
        }
    }
}

/// Whether an operand is the validated value itself (`$value`, not a key inside it).
pub(super) fn is_value<C: Tree>(node: &C) -> bool {
    syntax::call(node).is_some_and(|c| c.name == "value" && syntax::arguments(&c).is_empty())
}

/// The value an applied function gives, if it is known and right.
fn outcome(outcome: Outcome) -> Option<Value> {
    match outcome {
        Outcome::Value(v) => Some(v),
        Outcome::Later | Outcome::Wrong { .. } | Outcome::Limit { .. } => None,
    }
}
