//! Value expressions (§ Variability Expression): variability inputs, named value expressions,
//! and the arithmetic, string, constraint, analytical and date operators, evaluated with the
//! reference resolver's JavaScript semantics (numbers are doubles; `equal` is strict).

use indexmap::IndexMap;

use crate::diag::codes;
use crate::front::variability::eval::Value;
use crate::source::Span;
use crate::yaml::Node;

use super::{dates, stats};

/// Nesting allowed to value expressions and input defaults; deeper is reported.
pub const MAX_DEPTH: usize = 2000;

/// Why an expression could not be evaluated.
#[derive(Debug, Clone)]
pub struct Fail {
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    pub hint: Option<String>,
}

pub type VR<T> = Result<T, Fail>;

pub fn fail(code: &'static str, message: String, span: Span, hint: &str) -> Fail {
    Fail {
        code,
        message,
        span,
        hint: (!hint.is_empty()).then(|| hint.to_string()),
    }
}

/// The operators that compute values (every other operator is a logic expression).
pub const VALUE_OPERATORS: &[&str] = &[
    "add",
    "sub",
    "mul",
    "div",
    "mod",
    "variability_input",
    "value_expression",
    "concat",
    "join",
    "token",
    "equal",
    "greater",
    "greater_or_equal",
    "less",
    "less_or_equal",
    "in_range",
    "valid_values",
    "length",
    "min_length",
    "max_length",
    "sum",
    "count",
    "min",
    "max",
    "median",
    "mean",
    "variance",
    "standard_deviation",
    "linear_regression",
    "polynomial_regression",
    "logarithmic_regression",
    "exponential_regression",
    "weekday",
    "same",
    "before",
    "before_or_same",
    "after",
    "after_or_same",
    "within",
];

/// The seed's names of operators the current text renamed, accepted as the new ones.
pub fn current_name(op: &str) -> &str {
    match op {
        "get_variability_input" => "variability_input",
        "get_variability_expression" => "value_expression",
        "get_variability_condition" => "logic_expression",
        "greater_than" => "greater",
        "less_than" => "less",
        "has_present_targets" => "has_present_target",
        "has_present_members" => "has_present_member",
        "get_source_presence" => "source_presence",
        "get_target_presence" => "target_presence",
        other => other,
    }
}

/// The variability inputs and named expressions values are computed from.
pub struct Values<'t> {
    /// Values assigned by presets and by the caller, by input name.
    pub assigned: IndexMap<String, (Value, Span)>,
    pub definitions: IndexMap<&'t str, &'t Node>,
    pub expressions: IndexMap<&'t str, &'t Node>,
    /// Inputs whose default expression is being evaluated (a cycle among them is an error).
    resolving: Vec<String>,
    depth: usize,
    weekday: Option<String>,
    /// Input names read, for the explanation.
    pub read: Vec<String>,
    /// The values of named value expressions computed so far: an expression is computed once
    /// however often it is named (a chain of expressions each naming the one before twice
    /// would otherwise take time exponential in its length).
    computed: IndexMap<String, Value>,
    /// What `concat` and `join` make and the copies of named expressions spend
    /// ([`crate::limits::Limits::max_computed_bytes`]), as in the release candidate's
    /// evaluator; `None` in tests of single expressions.
    budget: Option<&'t crate::limits::Budget>,
}

impl<'t> Values<'t> {
    pub fn new(
        assigned: IndexMap<String, (Value, Span)>,
        definitions: IndexMap<&'t str, &'t Node>,
        expressions: IndexMap<&'t str, &'t Node>,
    ) -> Values<'t> {
        Values {
            assigned,
            definitions,
            expressions,
            resolving: Vec::new(),
            depth: 0,
            weekday: None,
            read: Vec::new(),
            computed: IndexMap::new(),
            budget: None,
        }
    }

    /// The values, with what expressions compute counted against `budget`.
    pub fn with_budget(mut self, budget: &'t crate::limits::Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// `value`, which `what` made or copied, once the budget has paid for it; an error at
    /// `span` when it would pass the limit.
    fn charged(&self, what: &str, value: Value, span: Span) -> VR<Value> {
        let weight = value.weight();
        match self.budget.map(|b| b.compute(weight)) {
            Some(Err(crate::limits::Exceeded(limit))) => Err(Fail {
                code: codes::VAR_LIMIT,
                message: format!(
                    "{what} would make a value of about {weight} bytes, which with the values computed before passes the limit of {limit} bytes expressions may compute"
                ),
                span,
                hint: Some(crate::limits::Limit::ComputedBytes.hint()),
            }),
            _ => Ok(value),
        }
    }

    /// The value of variability input `name`: assigned, else its `default`, else its
    /// `default_expression` (§ Variability Input).
    pub fn input(&mut self, name: &str, span: Span) -> VR<Value> {
        if !self.read.iter().any(|r| r == name) {
            self.read.push(name.to_string());
        }
        let Some(definition) = self.definitions.get(name).copied() else {
            return Err(fail(
                codes::VAR_UNKNOWN,
                format!("Variability input \"{name}\" is not defined"),
                span,
                "declare it under `variability.inputs`",
            ));
        };
        if let Some((v, _)) = self.assigned.get(name) {
            return Ok(v.clone());
        }
        let map = definition.as_map();
        if let Some(default) = map.and_then(|m| m.get("default")) {
            return literal(default);
        }
        let Some(expr) = map.and_then(|m| m.get("default_expression")) else {
            return Err(fail(
                codes::VAR_MISSING_INPUT,
                format!(
                    "Variability input \"{name}\" has no value nor default (expression) assigned"
                ),
                span,
                "give it a value (a preset, --inputs or --set), a `default` or a `default_expression`",
            ));
        };
        if self.resolving.iter().any(|r| r == name) {
            return Err(fail(
                codes::VAR_CYCLE,
                format!("the default expression of variability input \"{name}\" depends on itself"),
                expr.span,
                "break the chain of default expressions",
            ));
        }
        self.resolving.push(name.to_string());
        let value = self.eval(expr);
        self.resolving.pop();
        let value = value?;
        self.assigned
            .insert(name.to_string(), (value.clone(), expr.span));
        Ok(value)
    }

    /// Evaluates a value expression.
    pub fn eval(&mut self, expr: &Node) -> VR<Value> {
        if self.depth >= MAX_DEPTH {
            return Err(fail(
                codes::VAR_LIMIT,
                format!("value expressions nest deeper than {MAX_DEPTH} levels"),
                expr.span,
                "shorten the chain of expressions",
            ));
        }
        self.depth += 1;
        let v = self.eval_inner(expr);
        self.depth -= 1;
        v
    }

    fn eval_inner(&mut self, expr: &Node) -> VR<Value> {
        if expr.as_scalar().is_some() || expr.as_seq().is_some() {
            return literal(expr);
        }
        let (op, arg) = operator(expr)?;
        let span = expr.span;
        type Operators<'t> = fn(&mut Values<'t>, &str, &Node, Span) -> VR<Option<Value>>;
        let kinds: [Operators<'t>; 6] = [
            Self::arithmetic,
            Self::references,
            Self::strings,
            Self::constraints,
            Self::analytical,
            Self::dates,
        ];
        for kind in kinds {
            if let Some(v) = kind(self, op, arg, span)? {
                return Ok(v);
            }
        }
        Err(fail(
            codes::VAR_EXPRESSION,
            format!("Unknown value expression \"{op}\""),
            span,
            "a value expression uses one of the operators of § Intrinsic Functions",
        ))
    }

    /// § Arithmetic Operators.
    fn arithmetic(&mut self, op: &str, arg: &Node, span: Span) -> VR<Option<Value>> {
        let value: VR<Value> = match op {
            "add" => Ok(Value::Num(self.numbers(arg)?.iter().sum())),
            "mul" => Ok(Value::Num(self.numbers(arg)?.iter().product())),
            "sub" | "div" => {
                let ns = self.numbers(arg)?;
                let Some((first, rest)) = ns.split_first() else {
                    return Err(arity(op, "at least one operand", span));
                };
                Ok(Value::Num(rest.iter().fold(*first, |acc, n| {
                    if op == "sub" { acc - n } else { acc / n }
                })))
            }
            "mod" => {
                let ns = self.numbers(arg)?;
                match ns.as_slice() {
                    [a, b] => Ok(Value::Num(a % b)),
                    _ => Err(arity(op, "two operands", span)),
                }
            }
            _ => return Ok(None),
        };
        value.map(Some)
    }

    /// Variability inputs and named value expressions (§ Presence Operators).
    fn references(&mut self, op: &str, arg: &Node, _span: Span) -> VR<Option<Value>> {
        let value: VR<Value> = match op {
            "variability_input" => {
                let name = name_of(op, arg)?;
                self.input(name, arg.span)
            }
            "value_expression" => {
                let name = name_of(op, arg)?;
                let Some(found) = self.expressions.get(name).copied() else {
                    return Err(fail(
                        codes::VAR_UNKNOWN,
                        format!("Did not find value expression \"{name}\""),
                        arg.span,
                        "name an expression of `variability.expressions`",
                    ));
                };
                let what = format!("expression `{name}`");
                if let Some(v) = self.computed.get(name) {
                    return self.charged(&what, v.clone(), arg.span).map(Some);
                }
                let v = self.eval(found)?;
                self.computed.insert(name.to_string(), v.clone());
                Ok(v)
            }
            _ => return Ok(None),
        };
        value.map(Some)
    }

    /// § String Operators.
    fn strings(&mut self, op: &str, arg: &Node, _span: Span) -> VR<Option<Value>> {
        let value: VR<Value> = match op {
            "concat" => {
                let items = self.list(op, arg)?;
                let text = Value::Str(items.iter().map(Value::text).collect());
                self.charged("`concat`", text, arg.span)
            }
            "join" => {
                let parts = tuple(op, arg, 2)?;
                let items = self.list("join", &parts[0])?;
                let sep = self.eval(&parts[1])?.text();
                let text = Value::Str(items.iter().map(Value::text).collect::<Vec<_>>().join(&sep));
                self.charged("`join`", text, arg.span)
            }
            "token" => {
                let parts = tuple(op, arg, 3)?;
                let text = self.string(&parts[0])?;
                let sep = self.eval(&parts[1])?.text();
                let index = self.number(&parts[2])?;
                Ok(text
                    .split(sep.as_str())
                    .nth(index as usize)
                    .map(|s| Value::Str(s.to_string()))
                    .unwrap_or(Value::Null))
            }
            _ => return Ok(None),
        };
        value.map(Some)
    }

    /// § Constraint Operators.
    fn constraints(&mut self, op: &str, arg: &Node, _span: Span) -> VR<Option<Value>> {
        let value: VR<Value> = match op {
            "equal" => {
                let items = self.list(op, arg)?;
                Ok(Value::Bool(items.windows(2).all(|w| w[0] == w[1])))
            }
            "greater" | "greater_or_equal" | "less" | "less_or_equal" => {
                let parts = tuple(op, arg, 2)?;
                let a = self.eval(&parts[0])?;
                let b = self.eval(&parts[1])?;
                let ord = compare(&a, &b);
                Ok(Value::Bool(match (op, ord) {
                    (_, None) => false,
                    ("greater", Some(o)) => o.is_gt(),
                    ("greater_or_equal", Some(o)) => o.is_ge(),
                    ("less", Some(o)) => o.is_lt(),
                    (_, Some(o)) => o.is_le(),
                }))
            }
            "in_range" => {
                let parts = tuple(op, arg, 2)?;
                let v = self.eval(&parts[0])?;
                let bounds = tuple(op, &parts[1], 2)?;
                let low = self.eval(&bounds[0])?;
                let high = self.eval(&bounds[1])?;
                Ok(Value::Bool(
                    compare(&low, &v).is_some_and(|o| o.is_le())
                        && compare(&v, &high).is_some_and(|o| o.is_le()),
                ))
            }
            "valid_values" => {
                let parts = tuple(op, arg, 2)?;
                let v = self.eval(&parts[0])?;
                let valid = self.list(op, &parts[1])?;
                Ok(Value::Bool(valid.contains(&v)))
            }
            "length" | "min_length" | "max_length" => {
                let parts = tuple(op, arg, 2)?;
                let text = self.string(&parts[0])?;
                let n = self.number(&parts[1])?;
                let len = text.encode_utf16().count() as f64;
                Ok(Value::Bool(match op {
                    "length" => len == n,
                    "min_length" => len >= n,
                    _ => len <= n,
                }))
            }
            _ => return Ok(None),
        };
        value.map(Some)
    }

    /// § Analytical Operators.
    fn analytical(&mut self, op: &str, arg: &Node, span: Span) -> VR<Option<Value>> {
        let value: VR<Value> = match op {
            "sum" => Ok(Value::Num(stats::round2(stats::sum(&self.numbers(arg)?)))),
            "count" => Ok(Value::Num(self.numbers(arg)?.len() as f64)),
            "min" | "max" => {
                let ns = self.numbers(arg)?;
                let pick = if op == "min" { f64::min } else { f64::max };
                ns.iter()
                    .copied()
                    .reduce(pick)
                    .map(Value::Num)
                    .ok_or_else(|| {
                        fail(
                            codes::VAR_EXPRESSION,
                            format!("{op} of an empty list does not exist"),
                            span,
                            "give at least one number",
                        )
                    })
            }
            "median" => Ok(Value::Num(stats::median(&self.numbers(arg)?))),
            "mean" => Ok(Value::Num(stats::round2(stats::mean(&self.numbers(arg)?)))),
            "variance" => Ok(Value::Num(stats::round2(stats::variance(
                &self.numbers(arg)?,
            )))),
            "standard_deviation" => Ok(Value::Num(stats::round2(stats::standard_deviation(
                &self.numbers(arg)?,
            )))),
            "linear_regression" | "logarithmic_regression" | "exponential_regression" => {
                let parts = tuple(op, arg, 2)?;
                let points = self.points(op, &parts[0])?;
                let x = self.number(&parts[1])?;
                let f = match op {
                    "linear_regression" => stats::linear,
                    "logarithmic_regression" => stats::logarithmic,
                    _ => stats::exponential,
                };
                Ok(Value::Num(f(&points, x)))
            }
            "polynomial_regression" => {
                let parts = tuple(op, arg, 3)?;
                let points = self.points(op, &parts[0])?;
                let order = self.number(&parts[1])?.max(0.0) as usize;
                let x = self.number(&parts[2])?;
                Ok(Value::Num(stats::polynomial(&points, order.min(16), x)))
            }
            _ => return Ok(None),
        };
        value.map(Some)
    }

    /// § Date Operators.
    fn dates(&mut self, op: &str, arg: &Node, _span: Span) -> VR<Option<Value>> {
        let value: VR<Value> = match op {
            "weekday" => Ok(Value::Str(
                self.weekday.get_or_insert_with(dates::weekday).clone(),
            )),
            "same" | "before" | "before_or_same" | "after" | "after_or_same" => {
                let parts = tuple(op, arg, 2)?;
                let a = self.date(&parts[0])?;
                let b = self.date(&parts[1])?;
                Ok(Value::Bool(match op {
                    "same" => a == b,
                    "before" => a < b,
                    "before_or_same" => a <= b,
                    "after" => a > b,
                    _ => a >= b,
                }))
            }
            "within" => {
                let parts = tuple(op, arg, 2)?;
                let d = self.date(&parts[0])?;
                let bounds = tuple(op, &parts[1], 2)?;
                let low = self.date(&bounds[0])?;
                let high = self.date(&bounds[1])?;
                Ok(Value::Bool(low < d && d < high))
            }
            _ => return Ok(None),
        };
        value.map(Some)
    }

    fn list(&mut self, op: &str, arg: &Node) -> VR<Vec<Value>> {
        let Some(items) = arg.as_seq() else {
            return Err(arity(op, "a list of operands", arg.span));
        };
        items.iter().map(|i| self.eval(i)).collect()
    }

    fn numbers(&mut self, arg: &Node) -> VR<Vec<f64>> {
        let Some(items) = arg.as_seq() else {
            return Err(arity("this operator", "a list of numbers", arg.span));
        };
        items.iter().map(|i| self.number(i)).collect()
    }

    pub fn number(&mut self, node: &Node) -> VR<f64> {
        match self.eval(node)? {
            Value::Num(n) => Ok(n),
            other => Err(not_a(&other, "a number", node.span)),
        }
    }

    fn string(&mut self, node: &Node) -> VR<String> {
        match self.eval(node)? {
            Value::Str(s) => Ok(s),
            other => Err(not_a(&other, "a string", node.span)),
        }
    }

    fn date(&mut self, node: &Node) -> VR<i64> {
        let v = self.eval(node)?;
        dates::millis(&v).ok_or_else(|| {
            fail(
                codes::VAR_TYPE,
                format!("\"{}\" is not a date", v.text()),
                node.span,
                "write an ISO 8601 date such as 2023-01-01T00:00:00Z, or milliseconds since 1970",
            )
        })
    }

    fn points(&mut self, op: &str, node: &Node) -> VR<Vec<(f64, f64)>> {
        let Some(items) = node.as_seq() else {
            return Err(arity(op, "a list of [x, y] points", node.span));
        };
        items
            .iter()
            .map(|p| match p.as_seq() {
                Some([x, y]) => Ok((self.number(x)?, self.number(y)?)),
                _ => Err(arity(op, "[x, y] points", p.span)),
            })
            .collect()
    }
}

/// The operator and argument of an expression map (`{op: arg}`).
pub fn operator(expr: &Node) -> VR<(&str, &Node)> {
    let map = expr.as_map().ok_or_else(|| {
        fail(
            codes::VAR_EXPRESSION,
            format!("{} is not an expression", expr.describe()),
            expr.span,
            "write a value, or a map with one operator such as `{equal: [...]}`",
        )
    })?;
    let Some(entry) = map.entries().first().filter(|_| map.len() == 1) else {
        return Err(fail(
            codes::VAR_EXPRESSION,
            format!(
                "an expression is a map with exactly one operator, this one has {}",
                map.len()
            ),
            expr.span,
            "split it, e.g. into `{and: [...]}`",
        ));
    };
    let op = entry.key.scalar_text().unwrap_or_default();
    Ok((current_name(op), &entry.value))
}

/// A literal (a scalar or a list of literals, unevaluated) as a value.
pub fn literal(node: &Node) -> VR<Value> {
    Value::from_node(node).ok_or_else(|| {
        fail(
            codes::VAR_TYPE,
            format!(
                "{} is not a value of the expression language",
                node.describe()
            ),
            node.span,
            "values are booleans, numbers, strings and lists of these",
        )
    })
}

fn name_of<'n>(op: &str, arg: &'n Node) -> VR<&'n str> {
    arg.as_str().ok_or_else(|| arity(op, "a name", arg.span))
}

fn tuple<'n>(op: &str, arg: &'n Node, n: usize) -> VR<&'n [Node]> {
    match arg.as_seq() {
        Some(items) if items.len() == n => Ok(items),
        _ => Err(arity(op, &format!("a list of {n} operands"), arg.span)),
    }
}

fn arity(op: &str, expected: &str, span: Span) -> Fail {
    fail(
        codes::VAR_EXPRESSION,
        format!("`{op}` takes {expected}"),
        span,
        "see § Intrinsic Functions for the operands of each operator",
    )
}

fn not_a(v: &Value, expected: &str, span: Span) -> Fail {
    fail(
        codes::VAR_TYPE,
        format!("Element \"{}\" is not {expected}", v.text()),
        span,
        &format!("this operand must evaluate to {expected}"),
    )
}

/// JavaScript's ordering of two values: numbers numerically, strings by code units, anything
/// else after conversion to numbers (`None` when either is not a number then).
fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x.partial_cmp(y),
        (Value::Str(x), Value::Str(y)) => Some(x.encode_utf16().cmp(y.encode_utf16())),
        _ => to_number(a)?.partial_cmp(&to_number(b)?),
    }
}

fn to_number(v: &Value) -> Option<f64> {
    match v {
        Value::Num(n) => Some(*n),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::Null => Some(0.0),
        Value::Str(s) if s.trim().is_empty() => Some(0.0),
        Value::Str(s) => s.trim().parse().ok(),
        Value::List(_) => None,
    }
}
