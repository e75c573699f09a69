//! TOSCA 2.0 validation clauses (§9.11, L4649-4718) evaluated against known values.
//!
//! A clause is a boolean expression over `$value` (the value being validated) built from the
//! boolean and comparison functions of §10.2.2 and `$length`. Literal operands compared with
//! `$value` are read as values of the validated type, so `1 Mbits/s` compares as a scalar of
//! that type and `1.10` as a version. What cannot be judged before deployment (another
//! function, such as `$get_property`) leaves the clause unjudged, never wrongly failed.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Value;
use crate::yaml::{Kind, Node as Yaml};

use super::constraints::compare;
use super::typing::Typing;

/// Reports `value` (written at `node`) when `clause` is false for it.
pub fn check(
    typing: &mut Typing,
    value: &Value,
    node: &Yaml,
    clause: &Yaml,
    type_name: &str,
    path: &str,
    diags: &mut Diagnostics,
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
        diags.push(
            Diagnostic::error(
                codes::TOSCA_CONSTRAINT,
                format!("`{path}` does not pass the validation clause of type `{type_name}`"),
            )
            .at_with(node.span, "this value")
            .label(clause.span, "the validation clause it fails")
            .hint("give a value for which the clause is true (L4661)"),
        );
    }
}

struct Eval<'a, 't, 'm> {
    typing: &'a mut Typing<'t, 'm>,
    value: &'a Value,
    type_name: &'a str,
}

impl Eval<'_, '_, '_> {
    /// The value of an expression, or `None` when it cannot be known here.
    fn eval(&mut self, node: &Yaml) -> Option<Value> {
        if node.as_str() == Some("$value") {
            return Some(self.value.clone());
        }
        let map = node.as_map()?;
        let [entry] = map.entries() else { return None };
        let function = entry.key.as_str()?.strip_prefix('$')?;
        let args: Vec<&Yaml> = match &entry.value.kind {
            Kind::Seq(items) => items.iter().collect(),
            _ => vec![&entry.value],
        };
        match function {
            "value" => {
                if args.is_empty() || entry.value.is_null() {
                    Some(self.value.clone())
                } else {
                    None
                }
            }
            "and" | "or" | "xor" => {
                let mut results = Vec::with_capacity(args.len());
                for arg in &args {
                    match self.eval(arg)? {
                        Value::Boolean(b) => results.push(b),
                        _ => return None,
                    }
                }
                Some(Value::Boolean(match function {
                    "and" => results.iter().all(|b| *b),
                    "or" => results.iter().any(|b| *b),
                    _ => results.iter().filter(|b| **b).count() == 1,
                }))
            }
            "not" => match self.eval(args.first()?)? {
                Value::Boolean(b) => Some(Value::Boolean(!b)),
                _ => None,
            },
            "length" => match self.eval(args.first()?)? {
                Value::String(s) => Some(Value::Integer(s.chars().count() as i64)),
                Value::List(l) => Some(Value::Integer(l.len() as i64)),
                Value::Map(m) => Some(Value::Integer(m.len() as i64)),
                _ => None,
            },
            "equal" | "greater_than" | "greater_or_equal" | "less_than" | "less_or_equal" => {
                let [a, b] = args[..] else { return None };
                let (a, b) = self.operands(a, b)?;
                let order = compare(&a, &b);
                Some(Value::Boolean(match function {
                    "equal" => order.map_or(a == b, |o| o.is_eq()),
                    "greater_than" => order?.is_gt(),
                    "greater_or_equal" => order?.is_ge(),
                    "less_than" => order?.is_lt(),
                    _ => order?.is_le(),
                }))
            }
            "valid_values" => {
                let [a, list] = args[..] else { return None };
                let subject = self.eval(a)?;
                let is_value = a.as_str() == Some("$value");
                let items = list.as_seq()?;
                let mut found = false;
                for item in items {
                    let candidate = self.operand(item, is_value)?;
                    if compare(&subject, &candidate).map_or(subject == candidate, |o| o.is_eq()) {
                        found = true;
                    }
                }
                Some(Value::Boolean(found))
            }
            _ => None,
        }
    }

    /// Two operands: expressions evaluated, literals read as the validated type when the other
    /// side is `$value` itself, else as plain values.
    fn operands(&mut self, a: &Yaml, b: &Yaml) -> Option<(Value, Value)> {
        let a_value = a.as_str() == Some("$value");
        let b_value = b.as_str() == Some("$value");
        Some((self.operand(a, b_value)?, self.operand(b, a_value)?))
    }

    fn operand(&mut self, node: &Yaml, as_validated_type: bool) -> Option<Value> {
        if node.as_str() == Some("$value") || self.typing.reader.is_call(node) {
            return self.eval(node);
        }
        let mut ignored = Diagnostics::with_cap(0);
        let value = if as_validated_type {
            self.typing
                .operand(node, self.type_name, "validation", &mut ignored)
        } else {
            self.typing.reader.value(node, &mut ignored)
        };
        (!ignored.has_errors()).then_some(value)
    }
}
