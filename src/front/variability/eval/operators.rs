//! The operators and intrinsic functions of the expression language, one arm each, with the
//! RC's semantics (see `docs/dialects/variability4tosca.md` for where toscana is stricter).

use super::{Ctx, Evaluator, Failed, Frame, MAX_DEPTH, OPERATORS, R, Value};
use crate::diag::{Diagnostic, codes};
use crate::front::variability::graph::{Id, relation_by_name};
use crate::source::Span;
use crate::yaml::{Core, Node};

impl<'t> Evaluator<'t, '_> {
    /// Evaluates an expression.
    pub fn eval(&mut self, expr: &'t Node, ctx: Ctx) -> R<Value> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep(expr.span));
        }
        self.depth += 1;
        let result = self.eval_inner(expr, ctx);
        self.depth -= 1;
        result
    }

    fn eval_inner(&mut self, expr: &'t Node, ctx: Ctx) -> R<Value> {
        if expr.is_null() {
            let d = Diagnostic::error(
                codes::VAR_EXPRESSION,
                "Received condition that is undefined or null",
            )
            .at(expr.span)
            .hint("write a boolean, a value, or a map with one operator such as `{equal: [...]}`");
            self.diags.push(d);
            return Err(Failed);
        }
        if expr.as_scalar().is_some() {
            return Ok(Value::from_node(expr).unwrap_or(Value::Null));
        }
        let Some(map) = expr.as_map() else {
            return Err(self.error(
                codes::VAR_EXPRESSION,
                "a list is not an expression here".into(),
                expr.span,
            ));
        };
        let Some(entry) = map.entries().first().filter(|_| map.len() == 1) else {
            let d = Diagnostic::error(
                codes::VAR_EXPRESSION,
                format!(
                    "an expression is a map with exactly one operator, this one has {}",
                    map.len()
                ),
            )
            .at(expr.span);
            self.diags.push(d);
            return Err(Failed);
        };
        let op = entry.key.scalar_text().unwrap_or("");
        let arg = &entry.value;
        let span = expr.span;
        match op {
            "and" | "or" | "not" | "xor" | "implies" => self.logical(op, arg, ctx),
            "add" | "sub" | "mul" | "div" | "mod" => self.arithmetic(op, arg, ctx),
            "get_variability_input" => {
                let name = self.literal_name(op, arg)?;
                self.input(name, arg.span)
            }
            "get_variability_expression" | "get_variability_condition" => {
                let name = self.literal_name(op, arg)?;
                let v = self.named(name, arg.span, ctx)?;
                if op == "get_variability_condition" {
                    return Ok(Value::Bool(self.boolean(v, arg.span)?));
                }
                Ok(v)
            }
            "get_element_presence" => self.element_presence(arg, ctx).map(Value::Bool),
            "get_source_presence" | "get_target_presence" => {
                self.self_presence(op, arg, ctx).map(Value::Bool)
            }
            "has_present_targets" => {
                let p = self.policy(arg)?;
                self.present_targets(p).map(Value::Bool)
            }
            "has_present_members" => {
                let name = self.literal_name(op, arg)?;
                let Some(gr) = self.g.group_index.get(name).copied() else {
                    return Err(self.error(
                        codes::VAR_UNKNOWN,
                        format!("Group \"{name}\" not found"),
                        arg.span,
                    ));
                };
                self.present_members(gr).map(Value::Bool)
            }
            "concat" | "join" | "token" => self.strings(op, arg, ctx),
            "equal" | "greater_than" | "greater_or_equal" | "less_than" | "less_or_equal"
            | "in_range" | "length" | "min_length" | "max_length" | "valid_values" => {
                self.comparison(op, arg, span, ctx)
            }
            _ => {
                let d = Diagnostic::error(
                    codes::VAR_EXPRESSION,
                    format!("Unknown variability condition \"{op}\""),
                )
                .at_with(
                    entry.key.span,
                    "not an operator or function of Variability4TOSCA",
                );
                self.diags.push(d.did_you_mean(op, OPERATORS, None));
                Err(Failed)
            }
        }
    }

    /// § Boolean operators: `and`, `or`, `not`, `xor`, `implies`.
    fn logical(&mut self, op: &str, arg: &'t Node, ctx: Ctx) -> R<Value> {
        match op {
            "and" | "or" => {
                let is_and = op == "and";
                for item in self.list(op, arg, None)? {
                    let v = self.eval(item, ctx)?;
                    if self.boolean(v, item.span)? != is_and {
                        return Ok(Value::Bool(!is_and));
                    }
                }
                Ok(Value::Bool(is_and))
            }
            "not" => {
                let v = self.eval(arg, ctx)?;
                Ok(Value::Bool(!self.boolean(v, arg.span)?))
            }
            "xor" => {
                let mut trues = 0;
                for item in self.list(op, arg, None)? {
                    let v = self.eval(item, ctx)?;
                    if self.boolean(v, item.span)? {
                        trues += 1;
                    }
                }
                Ok(Value::Bool(trues == 1))
            }
            "implies" => {
                let items = self.list(op, arg, Some(2))?;
                let a = self.eval(&items[0], ctx)?;
                let a = self.boolean(a, items[0].span)?;
                let b = self.eval(&items[1], ctx)?;
                let b = self.boolean(b, items[1].span)?;
                Ok(Value::Bool(!a || b))
            }
            _ => Err(self.error(
                codes::VAR_EXPRESSION,
                format!("Unknown variability condition \"{op}\""),
                arg.span,
            )),
        }
    }

    /// The string functions: `concat`, `join`, `token`.
    fn strings(&mut self, op: &str, arg: &'t Node, ctx: Ctx) -> R<Value> {
        match op {
            "concat" => {
                let mut out = String::new();
                for item in self.list(op, arg, None)? {
                    out.push_str(&self.eval(item, ctx)?.text());
                }
                self.charged("`concat`", Value::Str(out), arg.span)
            }
            "join" => {
                let items = self.list(op, arg, Some(2))?;
                let parts = self.list(op, &items[0], None)?;
                let mut texts = Vec::with_capacity(parts.len());
                for p in parts {
                    texts.push(self.eval(p, ctx)?.text());
                }
                let delimiter = self.eval(&items[1], ctx)?;
                let delimiter = self.string(delimiter, items[1].span)?;
                self.charged("`join`", Value::Str(texts.join(&delimiter)), arg.span)
            }
            "token" => {
                let items = self.list(op, arg, Some(3))?;
                let v = self.eval(&items[0], ctx)?;
                let s = self.string(v, items[0].span)?;
                let d = self.eval(&items[1], ctx)?;
                let d = self.string(d, items[1].span)?;
                let i = self.eval(&items[2], ctx)?;
                let i = self.number(i, items[2].span)?;
                let pieces: Vec<&str> = s.split(d.as_str()).collect();
                if i < 0.0 || i.fract() != 0.0 || i as usize >= pieces.len() {
                    return Err(self.error(
                        codes::VAR_EXPRESSION,
                        format!(
                            "token {i} of '{s}' split at '{d}' does not exist: there are {} tokens",
                            pieces.len()
                        ),
                        items[2].span,
                    ));
                }
                Ok(Value::Str(pieces[i as usize].to_string()))
            }
            _ => Err(self.error(
                codes::VAR_EXPRESSION,
                format!("Unknown variability condition \"{op}\""),
                arg.span,
            )),
        }
    }

    /// Comparisons and constraint operators.
    fn comparison(&mut self, op: &str, arg: &'t Node, span: Span, ctx: Ctx) -> R<Value> {
        match op {
            "equal" => {
                let items = self.list(op, arg, None)?;
                let mut first = None;
                let mut all = true;
                for item in items {
                    let v = self.eval(item, ctx)?;
                    match &first {
                        None => first = Some(v),
                        Some(f) => all &= *f == v,
                    }
                }
                Ok(Value::Bool(all))
            }
            "greater_than" | "greater_or_equal" | "less_than" | "less_or_equal" => {
                let items = self.list(op, arg, Some(2))?;
                let a = self.eval(&items[0], ctx)?;
                let b = self.eval(&items[1], ctx)?;
                let ordering = match (&a, &b) {
                    (Value::Num(x), Value::Num(y)) => x.partial_cmp(y),
                    (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
                    _ => {
                        return Err(self.error(
                            codes::VAR_TYPE,
                            format!(
                                "`{op}` compares two numbers or two strings, not {} and {}",
                                a.show(),
                                b.show()
                            ),
                            span,
                        ));
                    }
                };
                use std::cmp::Ordering::*;
                Ok(Value::Bool(match (op, ordering) {
                    (_, None) => false,
                    ("greater_than", Some(o)) => o == Greater,
                    ("greater_or_equal", Some(o)) => o != Less,
                    ("less_than", Some(o)) => o == Less,
                    (_, Some(o)) => o != Greater,
                }))
            }
            "in_range" => {
                let items = self.list(op, arg, Some(2))?;
                let v = self.eval(&items[0], ctx)?;
                let bounds = self.list(op, &items[1], Some(2))?;
                let lo = Value::from_node(&bounds[0]).unwrap_or(Value::Null);
                let hi = Value::from_node(&bounds[1]).unwrap_or(Value::Null);
                Ok(Value::Bool(match (&v, &lo, &hi) {
                    (Value::Num(v), Value::Num(lo), Value::Num(hi)) => lo <= v && v <= hi,
                    (Value::Str(v), Value::Str(lo), Value::Str(hi)) => lo <= v && v <= hi,
                    _ => {
                        return Err(self.error(
                        codes::VAR_TYPE,
                        format!(
                            "`in_range` needs a value and bounds of one type (numbers or strings), not {}, {} and {}",
                            v.show(),
                            lo.show(),
                            hi.show()
                        ),
                        span,
                    ));
                    }
                }))
            }
            "length" | "min_length" | "max_length" => {
                let items = self.list(op, arg, Some(2))?;
                let s = self.eval(&items[0], ctx)?;
                let s = self.string(s, items[0].span)?;
                let n = self.eval(&items[1], ctx)?;
                let n = self.number(n, items[1].span)?;
                let len = s.chars().count() as f64;
                Ok(Value::Bool(match op {
                    "length" => len == n,
                    "min_length" => len >= n,
                    _ => len <= n,
                }))
            }
            "valid_values" => {
                let items = self.list(op, arg, Some(2))?;
                let v = self.eval(&items[0], ctx)?;
                let mut found = false;
                for w in self.list(op, &items[1], None)? {
                    found |= self.eval(w, ctx)? == v;
                }
                Ok(Value::Bool(found))
            }
            _ => Err(self.error(
                codes::VAR_EXPRESSION,
                format!("Unknown variability condition \"{op}\""),
                arg.span,
            )),
        }
    }

    /// The arguments of an operator that takes a list (of `len` items when given).
    fn list(&mut self, op: &str, arg: &'t Node, len: Option<usize>) -> R<&'t [Node]> {
        match (arg.as_seq(), len) {
            (Some(items), None) => Ok(items),
            (Some(items), Some(n)) if items.len() == n => Ok(items),
            (Some(items), Some(n)) => Err(self.error(
                codes::VAR_EXPRESSION,
                format!("`{op}` takes {n} arguments, found {}", items.len()),
                arg.span,
            )),
            (None, _) => Err(self.error(
                codes::VAR_EXPRESSION,
                format!("`{op}` takes a list of arguments, found {}", arg.describe()),
                arg.span,
            )),
        }
    }

    fn literal_name(&mut self, op: &str, arg: &'t Node) -> R<&'t str> {
        match arg.as_str() {
            Some(name) => Ok(name),
            None => Err(self.error(
                codes::VAR_EXPRESSION,
                format!("`{op}` takes a name, found {}", arg.describe()),
                arg.span,
            )),
        }
    }

    fn arithmetic(&mut self, op: &str, arg: &'t Node, ctx: Ctx) -> R<Value> {
        let items = self.list(op, arg, if op == "mod" { Some(2) } else { None })?;
        let mut numbers = Vec::with_capacity(items.len());
        for item in items {
            let v = self.eval(item, ctx)?;
            numbers.push((self.number(v, item.span)?, item.span));
        }
        let result = match op {
            "add" => numbers.iter().map(|(n, _)| n).sum(),
            "mul" => numbers.iter().map(|(n, _)| n).product(),
            _ => {
                let Some(((first, _), rest)) = numbers.split_first() else {
                    return Err(self.error(
                        codes::VAR_EXPRESSION,
                        format!("`{op}` needs at least one number"),
                        arg.span,
                    ));
                };
                let mut acc = *first;
                for (n, span) in rest {
                    if op != "sub" && *n == 0.0 {
                        return Err(self.error(
                            codes::VAR_EXPRESSION,
                            format!("`{op}` by zero"),
                            *span,
                        ));
                    }
                    match op {
                        "sub" => acc -= n,
                        "div" => acc /= n,
                        _ => acc %= n,
                    }
                }
                acc
            }
        };
        Ok(Value::Num(result))
    }

    fn input(&mut self, name: &str, span: Span) -> R<Value> {
        if let Some((v, _)) = self.inputs.get(name) {
            return Ok(v.clone());
        }
        if self.declared.contains(&name) {
            let d = Diagnostic::error(
                codes::VAR_MISSING_INPUT,
                format!("Did not find variability input \"{name}\""),
            )
            .at(span)
            .hint(format!(
                "give it a value with `--set {name}=VALUE`, an `--inputs` file or a `--preset`"
            ));
            self.diags.push(d);
            return Err(Failed);
        }
        let declared = self.declared.clone();
        let otherwise = if declared.is_empty() {
            "declare it under `variability.inputs`".to_string()
        } else {
            format!("declared variability inputs: {}", declared.join(", "))
        };
        let d = Diagnostic::error(
            codes::VAR_UNKNOWN,
            format!("variability input \"{name}\" is not declared"),
        )
        .at(span);
        self.diags
            .push(d.did_you_mean(name, &declared, Some(otherwise)));
        Err(Failed)
    }

    /// The value of a named expression of `variability.expressions`.
    fn named(&mut self, name: &str, span: Span, ctx: Ctx) -> R<Value> {
        if let Some(v) = self.memo.get(name) {
            let copy = v.clone();
            return self.charged(&format!("expression `{name}`"), copy, span);
        }
        let frame = Frame::Expression(name.to_string());
        if self.stack.contains(&frame) {
            return Err(self.cycle(frame, span));
        }
        let Some((index, _, expr)) = self.expressions.get_full(name) else {
            let known: Vec<&str> = self.expressions.keys().copied().collect();
            let d = Diagnostic::error(
                codes::VAR_UNKNOWN,
                format!("Did not find variability expression \"{name}\""),
            )
            .at(span);
            self.diags.push(d.did_you_mean(name, &known, None));
            return Err(Failed);
        };
        let expr = *expr;
        self.evaluated[index] = true;
        let outer = std::mem::replace(&mut self.used_context, false);
        self.stack.push(frame);
        let result = self.eval(expr, ctx);
        self.stack.pop();
        let used = self.used_context;
        self.used_context = outer || used;
        let v = result?;
        if !used {
            self.memo.insert(name.to_string(), v.clone());
        }
        Ok(v)
    }

    fn element_presence(&mut self, arg: &'t Node, ctx: Ctx) -> R<bool> {
        let g = self.g;
        let (node_arg, req) = match arg.as_seq() {
            Some([node, req]) => (node, Some(req)),
            Some(_) => {
                return Err(self.error(
                    codes::VAR_EXPRESSION,
                    "`get_element_presence` takes a node name or `[node, requirement name or index]`".into(),
                    arg.span,
                ));
            }
            None => (arg, None),
        };
        let node_name = self.eval(node_arg, ctx)?;
        let node_name = self.string(node_name, node_arg.span)?;
        let Some(n) = g.node_index.get(node_name.as_str()).copied() else {
            let known: Vec<&str> = g.node_index.keys().copied().collect();
            let d = Diagnostic::error(
                codes::VAR_UNKNOWN,
                format!("Node \"{node_name}\" not found"),
            )
            .at(node_arg.span);
            self.diags.push(d.did_you_mean(&node_name, &known, None));
            return Err(Failed);
        };
        let Some(req) = req else {
            return self.presence(Id::Node(n), arg.span);
        };
        let r = match self.eval(req, ctx)? {
            Value::Str(name) => relation_by_name(g, n, &name),
            Value::Num(i) if i >= 0.0 && i.fract() == 0.0 => g.nodes[n]
                .relations
                .get(i as usize)
                .copied()
                .ok_or_else(|| format!("Relation \"{}.{i}\" not found", node_name)),
            other => {
                return Err(self.wrong_type(&other, "a requirement name or index", req.span));
            }
        };
        match r {
            Ok(r) => self.presence(Id::Relation(r), arg.span),
            Err(message) => Err(self.error(codes::VAR_UNKNOWN, message, req.span)),
        }
    }

    fn self_presence(&mut self, op: &str, arg: &'t Node, ctx: Ctx) -> R<bool> {
        if arg.as_str() != Some("SELF") {
            return Err(self.error(
                codes::VAR_EXPRESSION,
                format!(
                    "\"SELF\" is the only valid value for \"{op}\" but received \"{}\"",
                    arg.scalar_text().unwrap_or(arg.describe())
                ),
                arg.span,
            ));
        }
        let Some(r) = ctx.relation else {
            return Err(self.error(
                codes::VAR_EXPRESSION,
                format!("\"{op}\" is only valid inside a relation"),
                arg.span,
            ));
        };
        self.used_context = true;
        let rel = &self.g.relations[r];
        let node = if op == "get_source_presence" {
            Some(rel.source)
        } else {
            rel.target
        };
        match node {
            Some(n) => self.presence(Id::Node(n), arg.span),
            // A target that is not a node template of this topology (a type, a node filter).
            None => Ok(false),
        }
    }

    fn policy(&mut self, arg: &'t Node) -> R<usize> {
        let g = self.g;
        if let Some(Core::Int(i)) = arg.as_scalar().map(|s| s.core) {
            return usize::try_from(i)
                .ok()
                .filter(|i| *i < g.policies.len())
                .ok_or_else(|| {
                    self.error(
                        codes::VAR_UNKNOWN,
                        format!("Policy \"{i}\" not found"),
                        arg.span,
                    )
                });
        }
        let name = self.literal_name("has_present_targets", arg)?;
        match self.policy_names.get(name) {
            Some(Some(p)) => Ok(*p),
            Some(None) => Err(self.error(
                codes::VAR_UNKNOWN,
                format!("Policy name \"{name}\" is ambiguous"),
                arg.span,
            )),
            None => Err(self.error(
                codes::VAR_UNKNOWN,
                format!("Policy \"{name}\" not found"),
                arg.span,
            )),
        }
    }
}
