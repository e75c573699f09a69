//! TOSCA 2.0 validation clauses (§9.11, L4649-4718) and other condition clauses (node filters,
//! §8.6) evaluated against known values.
//!
//! A clause is a boolean expression over `$value` (the value being validated) built from the
//! boolean and comparison functions of §10.2.2 and `$length`. Literal operands compared with
//! `$value` are read as values of the validated type, so `1 Mbits/s` compares as a scalar of
//! that type and `1.10` as a version. What cannot be judged before deployment (another
//! function, such as `$get_property`) leaves the clause unjudged, never wrongly failed; the
//! logic is three-valued, so `$and` with one false operand is false even when another is
//! unknown. A [`Scope`] gives the other functions a meaning where one is known: a node filter
//! reads `$get_property` of the candidate it judges.

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
        subject: Some((value, type_name)),
        scope: None,
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

/// A value a function of a [`Scope`] gives, with its declared type where known (so that a
/// literal compared with it is read as that type: `512 MB` as a scalar).
pub struct Typed {
    pub value: Value,
    pub type_name: Option<String>,
}

/// What a condition clause's functions mean where it is written.
pub trait Scope {
    /// The value of `$function: [args]`, or `None` when it is known only at deployment (or is
    /// not a function of this scope). `args` is empty for a function written as a string
    /// (`$node_index`) or with a null argument.
    fn call(&mut self, typing: &mut Typing, function: &str, args: &[&Yaml]) -> Option<Typed>;
}

/// The result of a condition clause: true, false (with the part that made it false, in
/// words) or unknown until deployment.
pub enum Outcome {
    True,
    False(String),
    Unknown,
}

/// Evaluates a condition clause (a node filter) in `scope`.
pub fn condition(typing: &mut Typing, clause: &Yaml, scope: &mut dyn Scope) -> Outcome {
    let mut eval = Eval {
        typing,
        subject: None,
        scope: Some(scope),
    };
    match eval.eval(clause) {
        Some(Value::Boolean(true)) => Outcome::True,
        Some(Value::Boolean(false)) => Outcome::False(eval.why_false(clause)),
        _ => Outcome::Unknown,
    }
}

struct Eval<'a, 't, 'm> {
    typing: &'a mut Typing<'t, 'm>,
    /// What `$value` is, and its type: the value being validated.
    subject: Option<(&'a Value, &'a str)>,
    scope: Option<&'a mut dyn Scope>,
}

impl Eval<'_, '_, '_> {
    /// The value of an expression, or `None` when it cannot be known here.
    fn eval(&mut self, node: &Yaml) -> Option<Value> {
        self.typed(node).map(|t| t.value)
    }

    /// The value of an expression with its declared type, where known.
    fn typed(&mut self, node: &Yaml) -> Option<Typed> {
        if node.as_str() == Some("$value") {
            return self.subject.map(|(v, t)| Typed {
                value: v.clone(),
                type_name: Some(t.to_string()),
            });
        }
        let (function, args) = call(node)?;
        if let Some(value) = self.builtin(function, &args) {
            return value.map(|value| Typed {
                value,
                type_name: None,
            });
        }
        let scope = self.scope.as_deref_mut()?;
        scope.call(self.typing, function, &args)
    }

    /// A function this module knows: `Some(result)`, where the result is `None` when unknown;
    /// `None` when it is not one of them.
    fn builtin(&mut self, function: &str, args: &[&Yaml]) -> Option<Option<Value>> {
        Some(match function {
            "value" => {
                if args.is_empty() {
                    self.subject.map(|(v, _)| v.clone())
                } else {
                    None
                }
            }
            "and" | "or" | "xor" => {
                let mut results = Vec::with_capacity(args.len());
                for arg in args {
                    results.push(match self.eval(arg) {
                        Some(Value::Boolean(b)) => Some(b),
                        _ => None,
                    });
                }
                let known = || results.iter().copied().collect::<Option<Vec<bool>>>();
                match function {
                    // Three-valued: one false operand decides `$and`, one true `$or`.
                    "and" if results.contains(&Some(false)) => Some(Value::Boolean(false)),
                    "or" if results.contains(&Some(true)) => Some(Value::Boolean(true)),
                    "and" => known().map(|_| Value::Boolean(true)),
                    "or" => known().map(|_| Value::Boolean(false)),
                    _ => known().map(|r| Value::Boolean(r.iter().filter(|b| **b).count() == 1)),
                }
            }
            "not" => match args.first().and_then(|a| self.eval(a)) {
                Some(Value::Boolean(b)) => Some(Value::Boolean(!b)),
                _ => None,
            },
            "length" => match args.first().and_then(|a| self.eval(a)) {
                Some(Value::String(s)) => Some(Value::Integer(s.chars().count() as i64)),
                Some(Value::List(l)) => Some(Value::Integer(l.len() as i64)),
                Some(Value::Map(m)) => Some(Value::Integer(m.len() as i64)),
                _ => None,
            },
            "equal" | "greater_than" | "greater_or_equal" | "less_than" | "less_or_equal" => {
                let [a, b] = args[..] else { return Some(None) };
                let Some((a, b)) = self.operands(a, b) else {
                    return Some(None);
                };
                let order = compare(&a, &b);
                let result = match function {
                    "equal" => Some(order.map_or(a == b, |o| o.is_eq())),
                    "greater_than" => order.map(|o| o.is_gt()),
                    "greater_or_equal" => order.map(|o| o.is_ge()),
                    "less_than" => order.map(|o| o.is_lt()),
                    _ => order.map(|o| o.is_le()),
                };
                result.map(Value::Boolean)
            }
            "valid_values" => {
                let [a, list] = args[..] else {
                    return Some(None);
                };
                let Some(subject) = self.typed(a) else {
                    return Some(None);
                };
                let Some(items) = list.as_seq() else {
                    return Some(None);
                };
                let mut found = Some(false);
                for item in items {
                    match self.operand(item, subject.type_name.as_deref()) {
                        Some(c) => {
                            let v = &subject.value;
                            if compare(v, &c).map_or(*v == c, |o| o.is_eq()) {
                                found = found.map(|_| true);
                            }
                        }
                        None => found = None,
                    }
                }
                found.map(Value::Boolean)
            }
            _ => return None,
        })
    }

    /// Two operands: expressions evaluated, literals read as the type of the other side where
    /// it has one (`$value`, a property), else as plain values.
    fn operands(&mut self, a: &Yaml, b: &Yaml) -> Option<(Value, Value)> {
        let a_typed = self.expression(a);
        let b_typed = self.expression(b);
        let a_type = a_typed.as_ref().and_then(|t| t.type_name.clone());
        let b_type = b_typed.as_ref().and_then(|t| t.type_name.clone());
        let a = match a_typed {
            Some(t) => t.value,
            None => self.operand(a, b_type.as_deref())?,
        };
        let b = match b_typed {
            Some(t) => t.value,
            None => self.operand(b, a_type.as_deref())?,
        };
        Some((a, b))
    }

    /// An operand that is `$value` or a function, evaluated; `None` for a literal (or a
    /// function whose value is unknown, which [`Self::operand`] then reports as unknown).
    fn expression(&mut self, node: &Yaml) -> Option<Typed> {
        if node.as_str() == Some("$value") || call(node).is_some() {
            return self.typed(node);
        }
        None
    }

    /// A literal operand, read as `type_name` when given; `None` when it is a function with
    /// no known value or does not read as that type.
    fn operand(&mut self, node: &Yaml, type_name: Option<&str>) -> Option<Value> {
        if node.as_str() == Some("$value") || call(node).is_some() {
            return self.eval(node);
        }
        let mut ignored = Diagnostics::with_cap(0);
        let value = match type_name {
            Some(t) => self.typing.operand(node, t, "validation", &mut ignored),
            None => self.typing.reader.value(node, &mut ignored),
        };
        (!ignored.has_errors()).then_some(value)
    }

    /// Why a clause that evaluated to false is false: the innermost comparison that decided
    /// it, with the values compared.
    fn why_false(&mut self, node: &Yaml) -> String {
        let Some((function, args)) = call(node) else {
            return format!("`{}` is false", super::constraints::shown(node));
        };
        match function {
            "and" => {
                for arg in &args {
                    if matches!(self.eval(arg), Some(Value::Boolean(false))) {
                        return self.why_false(arg);
                    }
                }
            }
            "or" => {
                let reasons: Vec<String> = args.iter().map(|a| self.why_false(a)).collect();
                return format!("none holds: {}", reasons.join("; "));
            }
            "not" => {
                return format!("`$not` of a clause that holds (line {})", node.span.line);
            }
            _ => {}
        }
        let shown: Vec<String> = args
            .iter()
            .map(|a| match self.eval(a) {
                Some(v) => crate::ir::value_text(&v),
                None => super::constraints::shown(a),
            })
            .collect();
        format!(
            "`${function}` is false for {} (line {})",
            shown.join(" and "),
            node.span.line
        )
    }
}

/// A function call's name (without `$`) and its arguments: a list's items, a single
/// argument, or none (a null argument, or a function written as a string, L4737).
pub fn call(node: &Yaml) -> Option<(&str, Vec<&Yaml>)> {
    fn function(key: &str) -> Option<&str> {
        key.strip_prefix('$')
            .filter(|s| !s.starts_with('$') && !s.is_empty())
    }
    if let Some(name) = node.as_str().and_then(function) {
        return Some((name, Vec::new()));
    }
    let map = node.as_map()?;
    let [entry] = map.entries() else { return None };
    let name = function(entry.key.as_str()?)?;
    let args = match &entry.value.kind {
        Kind::Seq(items) => items.iter().collect(),
        _ if entry.value.is_null() => Vec::new(),
        _ => vec![&entry.value],
    };
    Some((name, args))
}
