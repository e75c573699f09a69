//! Element presence and variability expressions: the operators and intrinsic functions of the
//! RC, evaluated lazily, each element's presence memoised, and cycles among conditions and
//! expressions reported (the reference implementation overflows its stack on them).

use indexmap::IndexMap;

mod operators;

use super::graph::{Cond, Graph, Id, Member, Owner, Target};
use super::options::{Options, Prune};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;
use crate::yaml::{Core, Node};

/// Evaluation may not nest deeper than this (operators, named expressions and presence lookups
/// together); deeper is reported, never a stack overflow.
pub const MAX_DEPTH: usize = 3000;

/// A value of the expression language: JavaScript's, as the RC evaluates it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    List(Vec<Value>),
}

impl Value {
    pub fn from_node(node: &Node) -> Option<Value> {
        if let Some(list) = node.as_seq() {
            return list
                .iter()
                .map(Value::from_node)
                .collect::<Option<_>>()
                .map(Value::List);
        }
        let s = node.as_scalar()?;
        Some(match s.core {
            Core::Null => Value::Null,
            Core::Bool(b) => Value::Bool(b),
            Core::Int(i) => Value::Num(i as f64),
            Core::Float(f) => Value::Num(f),
            Core::Str => Value::Str(s.text.to_string()),
        })
    }

    /// JavaScript's `String(value)`.
    /// About how many bytes the value holds: its text, and a word for each item.
    pub fn weight(&self) -> u64 {
        match self {
            Value::Str(s) => 8 + s.len() as u64,
            Value::List(items) => items
                .iter()
                .fold(8, |sum, v| sum.saturating_add(v.weight())),
            _ => 8,
        }
    }

    pub fn text(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Num(n) if n.is_nan() => "NaN".into(),
            Value::Num(n) if n.is_infinite() => {
                if *n > 0.0 { "Infinity" } else { "-Infinity" }.into()
            }
            Value::Num(n) => format!("{n}"),
            Value::Str(s) => s.clone(),
            Value::List(items) => items.iter().map(Value::text).collect::<Vec<_>>().join(","),
        }
    }

    /// The value as the messages show it: strings in quotes.
    fn show(&self) -> String {
        match self {
            Value::Str(s) => format!("'{s}'"),
            other => other.text(),
        }
    }
}

/// An error has been reported; evaluation of this element stops.
#[derive(Debug, Clone, Copy)]
pub struct Failed;

type R<T> = Result<T, Failed>;

/// Why an element is present or absent, for `--explain`.
#[derive(Debug, Clone)]
pub struct Reason {
    pub text: String,
    pub span: Option<Span>,
}

#[derive(Debug, Clone)]
enum State {
    Evaluating,
    Done(bool, Reason),
    Failed,
}

/// One step of the evaluation, for the chain a cycle message shows.
#[derive(Debug, Clone, PartialEq)]
enum Frame {
    Element(Id),
    Expression(String),
}

pub struct Evaluator<'t, 'd> {
    pub g: &'t Graph<'t>,
    options: &'t Options,
    inputs: IndexMap<String, (Value, Span)>,
    declared: Vec<&'t str>,
    expressions: IndexMap<&'t str, &'t Node>,
    states: IndexMap<Id, State>,
    memo: IndexMap<String, Value>,
    /// Named expressions evaluated at least once.
    evaluated: Vec<bool>,
    stack: Vec<Frame>,
    used_context: bool,
    depth: usize,
    /// Policies by name, `None` for a name two policies share.
    policy_names: IndexMap<&'t str, Option<usize>>,
    /// What the texts `concat` and `join` make and the copies of named expressions spend
    /// ([`crate::limits::Limits::max_computed_bytes`]); `None` in tests of single
    /// expressions.
    budget: Option<&'t crate::limits::Budget>,
    pub diags: &'d mut Diagnostics,
}

/// The relation whose conditions are being evaluated, for `get_source_presence: SELF`.
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    relation: Option<usize>,
}

/// The functions and operators of the release candidate (its § Intrinsic Functions); a template
/// using any other is read in the current language ([`super::language`]).
pub const OPERATORS: &[&str] = &[
    "and",
    "or",
    "not",
    "xor",
    "implies",
    "add",
    "sub",
    "mul",
    "div",
    "mod",
    "get_variability_input",
    "get_variability_expression",
    "get_variability_condition",
    "get_element_presence",
    "get_source_presence",
    "get_target_presence",
    "has_present_targets",
    "has_present_members",
    "concat",
    "join",
    "token",
    "equal",
    "greater_than",
    "greater_or_equal",
    "less_than",
    "less_or_equal",
    "in_range",
    "length",
    "min_length",
    "max_length",
    "valid_values",
];

impl<'t, 'd> Evaluator<'t, 'd> {
    pub fn new(
        g: &'t Graph<'t>,
        options: &'t Options,
        inputs: IndexMap<String, (Value, Span)>,
        declared: Vec<&'t str>,
        expressions: IndexMap<&'t str, &'t Node>,
        diags: &'d mut Diagnostics,
    ) -> Self {
        let mut policy_names: IndexMap<&str, Option<usize>> = IndexMap::new();
        for (i, p) in g.policies.iter().enumerate() {
            policy_names
                .entry(p.name)
                .and_modify(|v| *v = None)
                .or_insert(Some(i));
        }
        let expressions_len = expressions.len();
        Evaluator {
            g,
            options,
            inputs,
            declared,
            expressions,
            states: IndexMap::new(),
            memo: IndexMap::new(),
            evaluated: vec![false; expressions_len],
            stack: Vec::new(),
            used_context: false,
            depth: 0,
            policy_names,
            budget: None,
            diags,
        }
    }

    /// The evaluator, with what it computes counted against `budget`.
    pub fn with_budget(mut self, budget: &'t crate::limits::Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// `value`, which `what` made or copied, once the budget has paid for it; an error at
    /// `span` when it would pass the limit.
    fn charged(&mut self, what: &str, value: Value, span: Span) -> R<Value> {
        let weight = value.weight();
        match self.budget.map(|b| b.compute(weight)) {
            Some(Err(crate::limits::Exceeded(limit))) => {
                let d = Diagnostic::error(
                    codes::VAR_LIMIT,
                    format!(
                        "{what} would make a value of about {weight} bytes, which with the values computed before passes the limit of {limit} bytes expressions may compute"
                    ),
                )
                .at(span)
                .hint(crate::limits::Limit::ComputedBytes.hint());
                self.diags.push(d);
                Err(Failed)
            }
            _ => Ok(value),
        }
    }

    fn error(&mut self, code: &'static str, message: String, span: Span) -> Failed {
        self.diags.push(Diagnostic::error(code, message).at(span));
        Failed
    }

    /// The element's presence, and why; `None` if evaluating it failed.
    pub fn decided(&self, id: Id) -> Option<(bool, &Reason)> {
        match self.states.get(&id) {
            Some(State::Done(present, reason)) => Some((*present, reason)),
            _ => None,
        }
    }

    /// Whether an element is present; evaluated on first use, then memoised.
    pub fn presence(&mut self, id: Id, via: Span) -> R<bool> {
        match self.states.get(&id) {
            Some(State::Done(p, _)) => return Ok(*p),
            Some(State::Failed) => return Err(Failed),
            Some(State::Evaluating) => return Err(self.cycle(Frame::Element(id), via)),
            _ => {}
        }
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep(via));
        }
        self.states.insert(id, State::Evaluating);
        self.stack.push(Frame::Element(id));
        self.depth += 1;
        let result = self.evaluate_element(id);
        self.depth -= 1;
        self.stack.pop();
        match result {
            Ok((present, reason)) => {
                self.states.insert(id, State::Done(present, reason));
                Ok(present)
            }
            Err(f) => {
                self.states.insert(id, State::Failed);
                Err(f)
            }
        }
    }

    /// The named expressions no evaluation has read, with their spans.
    pub fn unused_expressions(&self) -> Vec<(&'t str, Span)> {
        self.expressions
            .iter()
            .zip(&self.evaluated)
            .filter(|(_, used)| !**used)
            .map(|((name, expr), _)| (*name, expr.span))
            .collect()
    }

    fn too_deep(&mut self, span: Span) -> Failed {
        let d = Diagnostic::error(
            codes::VAR_LIMIT,
            format!("variability conditions nest deeper than {MAX_DEPTH} levels"),
        )
        .at(span)
        .hint("conditions that read other elements' presence form a chain this long; shorten it");
        self.diags.push(d);
        Failed
    }

    fn cycle(&mut self, closing: Frame, span: Span) -> Failed {
        let from = self.stack.iter().position(|f| *f == closing).unwrap_or(0);
        let mut chain: Vec<String> = self.stack[from..]
            .iter()
            .map(|f| self.frame_name(f))
            .collect();
        chain.push(self.frame_name(&closing));
        let d = Diagnostic::error(
            codes::VAR_CYCLE,
            format!("variability cycle: {}", chain.join(" → ")),
        )
        .at_with(span, "this closes the cycle")
        .hint("a condition or expression may not depend on itself; break the chain");
        self.diags.push(d);
        Failed
    }

    fn frame_name(&self, f: &Frame) -> String {
        match f {
            Frame::Element(id) => self.describe(*id),
            Frame::Expression(name) => format!("expression `{name}`"),
        }
    }

    /// An element as messages name it: `node `a``, `relation `a.host``, `property `p@1` of node `a``.
    pub fn describe(&self, id: Id) -> String {
        let g = self.g;
        match id {
            Id::Input(i) => format!("input `{}`", g.inputs[i].name),
            Id::Node(n) => format!("node `{}`", g.nodes[n].name),
            Id::Relation(r) => format!(
                "relation `{}` (requirement {})",
                self.relation_name(r),
                g.relations[r].index
            ),
            Id::Property(p) => {
                let prop = &g.properties[p];
                let owner = match prop.owner {
                    Owner::Node(n) => format!("node `{}`", g.nodes[n].name),
                    Owner::RTemplate(rt) => format!("relationship `{}`", g.rtemplates[rt].name),
                };
                format!("property `{}` of {owner}", display(prop.name, prop.index))
            }
            Id::Artifact(a) => {
                let art = &g.artifacts[a];
                format!(
                    "artifact `{}` of node `{}`",
                    display(art.name, art.index),
                    g.nodes[art.node].name
                )
            }
            Id::Group(gr) => format!("group `{}`", g.groups[gr].name),
            Id::Policy(p) => format!("policy `{}`", g.policies[p].name),
        }
    }

    pub fn relation_name(&self, r: usize) -> String {
        let rel = &self.g.relations[r];
        format!("{}.{}", self.g.nodes[rel.source].name, rel.name)
    }

    /// The conditions of an element after variability groups and pruning.
    fn conditions(&self, id: Id) -> Vec<Cond<'t>> {
        let g = self.g;
        let written = |own: &[&'t Node]| -> Vec<Cond<'t>> {
            own.iter()
                .map(|c| Cond::Written {
                    expr: c,
                    group: None,
                })
                .collect()
        };
        let with_groups = |own: &[&'t Node], groups: &[(&'t Node, usize)]| -> Vec<Cond<'t>> {
            let mut all = written(own);
            all.extend(groups.iter().map(|(c, gr)| Cond::Written {
                expr: c,
                group: Some(*gr),
            }));
            all
        };
        let prune = |collected: Vec<Cond<'t>>, option: Prune| match option {
            Prune::Off => collected,
            Prune::Default if !collected.is_empty() => collected,
            _ => vec![Cond::Prune],
        };
        let p = &self.options.pruning;
        match id {
            Id::Input(i) => written(&g.inputs[i].own),
            Id::Node(n) => prune(
                with_groups(&g.nodes[n].own, &g.nodes[n].group_conds),
                p.nodes,
            ),
            Id::Relation(r) => prune(
                with_groups(&g.relations[r].own, &g.relations[r].group_conds),
                p.relations,
            ),
            Id::Property(i) => {
                let prop = &g.properties[i];
                if prop.default {
                    // A fallback is never present by itself, whatever the pruning.
                    vec![Cond::Never]
                } else {
                    prune(written(&prop.own), p.properties)
                }
            }
            Id::Artifact(a) => prune(written(&g.artifacts[a].own), p.artifacts),
            Id::Group(gr) if g.groups[gr].variability => vec![Cond::Never],
            Id::Group(gr) => prune(written(&g.groups[gr].own), p.groups),
            Id::Policy(i) => prune(written(&g.policies[i].own), p.policies),
        }
    }

    fn evaluate_element(&mut self, id: Id) -> R<(bool, Reason)> {
        let conds = self.conditions(id);
        let ctx = Ctx {
            relation: match id {
                Id::Relation(r) => Some(r),
                _ => None,
            },
        };
        let count = conds.len();
        for cond in conds {
            let (holds, reason) = match cond {
                Cond::Never => (
                    false,
                    Reason {
                        text: if matches!(id, Id::Group(_)) {
                            "a variability group, always removed".into()
                        } else {
                            "a default, used only when no other value of its name is present".into()
                        },
                        span: None,
                    },
                ),
                Cond::Prune => {
                    let (holds, what) = self.prune_condition(id)?;
                    (
                        holds,
                        Reason {
                            text: format!("pruning: {what} is {holds}"),
                            span: None,
                        },
                    )
                }
                Cond::Written { expr, group } => {
                    let holds = self.condition(expr, ctx)?;
                    let text = match group {
                        Some(gr) => format!(
                            "condition of variability group `{}` is {holds}",
                            self.g.groups[gr].name
                        ),
                        None => format!("condition is {holds}"),
                    };
                    (
                        holds,
                        Reason {
                            text,
                            span: Some(expr.span),
                        },
                    )
                }
            };
            if !holds {
                return Ok((false, reason));
            }
            if count == 1 {
                return Ok((true, reason));
            }
        }
        Ok((
            true,
            Reason {
                text: if count == 0 {
                    "no conditions".into()
                } else {
                    format!("all {count} conditions hold")
                },
                span: None,
            },
        ))
    }

    /// The pruning condition of an element, and what it says.
    fn prune_condition(&mut self, id: Id) -> R<(bool, String)> {
        let g = self.g;
        match id {
            Id::Node(n) => {
                let incoming = &g.nodes[n].incoming;
                if incoming.is_empty() {
                    return Ok((true, "no incoming relation, so it".into()));
                }
                for r in incoming {
                    if self.presence(Id::Relation(*r), g.relations[*r].item.span)? {
                        return Ok((true, "an incoming relation".into()));
                    }
                }
                Ok((false, "an incoming relation".into()))
            }
            Id::Relation(r) => {
                let source = g.relations[r].source;
                let present = self.presence(Id::Node(source), g.nodes[source].key.span)?;
                Ok((present, "its source node".into()))
            }
            Id::Policy(p) => Ok((self.present_targets(p)?, "a present target".into())),
            Id::Group(gr) => Ok((self.present_members(gr)?, "a present member".into())),
            Id::Artifact(a) => {
                let n = g.artifacts[a].node;
                Ok((
                    self.presence(Id::Node(n), g.nodes[n].key.span)?,
                    "its node".into(),
                ))
            }
            Id::Property(p) => Ok((self.owner_presence(p)?, "its owner".into())),
            Id::Input(_) => Ok((true, "nothing".into())),
        }
    }

    pub fn owner_presence(&mut self, p: usize) -> R<bool> {
        let g = self.g;
        match g.properties[p].owner {
            Owner::Node(n) => self.presence(Id::Node(n), g.nodes[n].key.span),
            Owner::RTemplate(rt) => match g.rtemplates[rt].used_by {
                Some(r) => self.presence(Id::Relation(r), g.relations[r].item.span),
                None => Ok(false),
            },
        }
    }

    fn present_targets(&mut self, p: usize) -> R<bool> {
        let g = self.g;
        for t in &g.policies[p].targets {
            let present = match t {
                Target::Node(n) => self.presence(Id::Node(*n), g.nodes[*n].key.span)?,
                Target::Group(gr) => self.present_members(*gr)?,
            };
            if present {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn present_members(&mut self, gr: usize) -> R<bool> {
        let g = self.g;
        for m in &g.groups[gr].members {
            let present = match m {
                Member::Node(n) => self.presence(Id::Node(*n), g.nodes[*n].key.span)?,
                Member::Relation(r) => {
                    self.presence(Id::Relation(*r), g.relations[*r].item.span)?
                }
            };
            if present {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Evaluates a condition: an expression whose value must be a boolean.
    pub fn condition(&mut self, expr: &'t Node, ctx: Ctx) -> R<bool> {
        let value = self.eval(expr, ctx)?;
        self.boolean(value, expr.span)
    }

    fn boolean(&mut self, v: Value, span: Span) -> R<bool> {
        match v {
            Value::Bool(b) => Ok(b),
            other => Err(self.wrong_type(&other, "a boolean", span)),
        }
    }

    fn number(&mut self, v: Value, span: Span) -> R<f64> {
        match v {
            Value::Num(n) => Ok(n),
            other => Err(self.wrong_type(&other, "a number", span)),
        }
    }

    fn string(&mut self, v: Value, span: Span) -> R<String> {
        match v {
            Value::Str(s) => Ok(s),
            other => Err(self.wrong_type(&other, "a string", span)),
        }
    }

    fn wrong_type(&mut self, v: &Value, expected: &str, span: Span) -> Failed {
        let d = Diagnostic::error(
            codes::VAR_TYPE,
            format!("Element \"{}\" is not {expected}", v.text()),
        )
        .at_with(span, format!("this is {}", kind(v)))
        .hint(format!("this operand must evaluate to {expected}"));
        self.diags.push(d);
        Failed
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Num(_) => "a number",
        Value::Str(_) => "a string",
        Value::List(_) => "a list",
    }
}

/// `name` in the map form, `name@index` in the list form (the RC's display).
pub fn display(name: &str, index: Option<usize>) -> String {
    match index {
        Some(i) => format!("{name}@{i}"),
        None => name.to_string(),
    }
}

impl Ctx {
    pub fn none() -> Self {
        Ctx { relation: None }
    }
}
