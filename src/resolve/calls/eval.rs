//! The evaluator: one TOSCA 2.0 call at a time, inner calls first, with errors at the span where
//! the call is written.

mod call_index;
mod custom;
mod indexes;
mod inputs;
mod properties;
mod queries;
mod results;
mod walk;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use indexmap::IndexMap;

use super::builtins::{self, BuiltIn, Group, Outcome};
use super::path::{Graph, Scope};
use super::table::{Function, Functions};
use super::unknown;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Call, NodeId, RelationshipId, Topology, Value};
use crate::model::{Model, TypeKind};
use crate::resolve::typing::{Typing, Written};
use crate::source::Span;

pub use call_index::CallIndex;

/// Whether any value of the topology that this pass walks holds a call.
pub fn has_calls(topology: &Topology) -> bool {
    let interfaces = |i: &crate::ir::Interfaces| i.values().any(|i| i.has_call());
    let values = crate::ir::map_has_call;
    topology.nodes.iter().any(|n| {
        n.count.has_call()
            || n.selection
                .as_ref()
                .is_some_and(|s| s.node_filter.is_some())
            || values(&n.properties)
            || values(&n.attributes)
            || n.capabilities.values().any(|c| c.has_call())
            || interfaces(&n.interfaces)
            || n.artifacts.values().any(|a| values(&a.properties))
    }) || topology
        .relationships
        .iter()
        .any(|r| values(&r.properties) || values(&r.attributes) || interfaces(&r.interfaces))
        || topology
            .groups
            .iter()
            .any(|g| values(&g.properties) || values(&g.attributes))
        || topology
            .policies
            .iter()
            .any(|p| values(&p.properties) || values(&p.triggers))
        || topology.outputs.iter().any(|o| o.value.has_call())
        || topology.workflows.iter().any(|w| w.definition.has_call())
}

/// A property whose value `$get_property` may read, evaluated once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Node(NodeId, String),
    Capability(NodeId, String, String),
    Relationship(RelationshipId, String),
}

/// Property or attribute names with their declared types (`None`: a refinement that names
/// none, or a definition without one).
type Declared = IndexMap<String, Option<String>>;

/// What is known of a property `$get_property` may read.
#[derive(Debug, Clone)]
enum Memo {
    Done(Value),
    /// Part of a `$get_property` loop (reported): known only at deployment.
    Looped,
}

/// Where a call and its arguments are written.
struct Site {
    /// The function's name (the key of `{ $name: ... }`), or the call.
    name: Option<Span>,
    /// Each argument, when the call's YAML was found.
    args: Vec<Span>,
}

impl Site {
    fn arg(&self, i: usize) -> Option<Span> {
        self.args.get(i).copied().or(self.name)
    }
}

/// Evaluates TOSCA 2.0 calls over a resolved topology.
pub struct Evaluator<'e, 'a, 'm, 't> {
    typing: &'e mut Typing<'a, 'm>,
    graph: &'e Graph<'t>,
    functions: &'e Functions<'m>,
    calls: &'e CallIndex<'m>,
    inputs: &'e IndexMap<String, Option<Value>>,
    /// Properties evaluated so far.
    memo: HashMap<Key, Memo>,
    /// The arguments of calls computed while the value holding them waited for the properties
    /// it reads, by call (see [`properties::call_id`]): given to the value's evaluation, so
    /// each is evaluated, and reported on, once.
    given_args: HashMap<usize, Vec<Value>>,
    /// What was reported, so a call in a type's definition is reported once, not once for
    /// every template of the type.
    reported: HashSet<(Option<Span>, String)>,
    /// A type chain's properties or attributes, by name, with their declared types: merged
    /// once per chain, not once per template or call.
    declared: HashMap<(TypeKind, Vec<String>, &'static str), Rc<Declared>>,
    /// What is left of a capability property (node, capability, property) once the
    /// allocations made so far are taken, where whoever evaluates knows it (requirement
    /// fulfilment does): `$available_allocation` then has a value.
    available: Option<&'e Available<'e>>,
    /// The arguments each call was evaluated with, while an evaluation is explained
    /// ([`Self::evaluate_explained`]).
    trace: Option<Trace>,
}

/// The arguments each call of the value explained was last evaluated with, by the call's
/// address. Only those calls are recorded (not those of a property evaluated on the way), and
/// the value is borrowed for the whole evaluation, so no other call can share their address.
type Trace = HashMap<*const Call, Vec<Value>>;

/// The calls of `value`, at any depth, each with no arguments recorded yet.
fn calls_of(value: &Value, trace: &mut Trace) {
    match value {
        Value::Call(call) => {
            trace.insert(std::ptr::from_ref(&**call), Vec::new());
            call.args.iter().for_each(|a| calls_of(a, trace));
        }
        Value::List(items) => items.iter().for_each(|i| calls_of(i, trace)),
        Value::Map(map) => map.values().for_each(|v| calls_of(v, trace)),
        _ => {}
    }
}

/// A value evaluated, with the arguments each of its calls was evaluated with: what explains
/// the value without evaluating any part of it again.
pub struct Explained {
    pub value: Value,
    arguments: Trace,
}

impl Explained {
    /// The arguments `call` (a call of the value explained) was evaluated with.
    pub fn arguments(&self, call: &Call) -> Option<&[Value]> {
        self.arguments
            .get(&std::ptr::from_ref(call))
            .map(Vec::as_slice)
    }
}

/// The amount left of a capability property, `None` where it is known only at deployment.
pub type Available<'e> = dyn Fn(NodeId, &str, &str) -> Option<f64> + 'e;

impl<'e, 'a, 'm, 't> Evaluator<'e, 'a, 'm, 't> {
    pub fn new(
        typing: &'e mut Typing<'a, 'm>,
        graph: &'e Graph<'t>,
        functions: &'e Functions<'m>,
        calls: &'e CallIndex<'m>,
        inputs: &'e IndexMap<String, Option<Value>>,
    ) -> Self {
        Evaluator {
            typing,
            graph,
            functions,
            calls,
            inputs,
            memo: HashMap::new(),
            given_args: HashMap::new(),
            reported: HashSet::new(),
            declared: HashMap::new(),
            available: None,
            trace: None,
        }
    }

    /// The chain of type `id` of `kind`, most specific first: what `SELF` is known by where
    /// it is any node of a type ([`Scope::Candidate`]).
    pub fn type_chain(&mut self, kind: TypeKind, id: &str) -> crate::ir::TypeNames {
        let model = self.model();
        self.typing.ancestry.chain(model, kind, id)
    }

    /// The evaluator with `$available_allocation` answered by `available`.
    pub fn with_available(mut self, available: &'e Available<'e>) -> Self {
        self.available = Some(available);
        self
    }

    /// `value` with every call checked and evaluated where it can be, seen from `scope`: the
    /// entry point for validation expressions such as node filters.
    pub fn evaluate(&mut self, value: &Value, scope: &Scope, diags: &mut Diagnostics) -> Value {
        self.settle(value, scope, None, diags)
    }

    /// [`Self::evaluate`], with the arguments each call of `value` was evaluated with: what a
    /// node filter found false is explained by (`fulfil::judge::why_false`), from the same
    /// evaluation that judged it. An attempt blocked on a property not evaluated yet is made
    /// again whole (see [`Self::force`]), each call's arguments overwriting the blocked
    /// attempt's, so they are the last attempt's: the one whose value and diagnostics count.
    pub fn evaluate_explained(
        &mut self,
        value: &Value,
        scope: &Scope,
        diags: &mut Diagnostics,
    ) -> Explained {
        let mut trace = Trace::new();
        calls_of(value, &mut trace);
        self.trace = Some(trace);
        let value = self.evaluate(value, scope, diags);
        Explained {
            value,
            arguments: self.trace.take().unwrap_or_default(),
        }
    }

    fn model(&self) -> &'t Model {
        self.graph.model
    }

    /// Reports `d` once: a call in a type's definition is judged for every template of the
    /// type, and reported once.
    fn report(&mut self, d: Diagnostic, diags: &mut Diagnostics) {
        if self.reported.insert((d.span, d.message.clone())) {
            diags.push(d);
        }
    }

    fn value(&mut self, value: &Value, scope: &Scope, diags: &mut Diagnostics) -> Value {
        match value {
            Value::Call(call) => self.call(call, scope, diags),
            Value::List(items) if value.has_call() => {
                Value::List(items.iter().map(|i| self.value(i, scope, diags)).collect())
            }
            Value::Map(map) if value.has_call() => Value::Map(Box::new(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.value(v, scope, diags)))
                    .collect(),
            )),
            other => other.clone(),
        }
    }

    fn site(&self, call: &Call) -> Site {
        let written = call.span.and_then(|s| self.calls.get(s));
        let site = written.and_then(Written::site);
        Site {
            name: site.as_ref().map(|(name, _)| *name).or(call.span),
            args: site
                .map(|(_, args)| args)
                .filter(|spans: &Vec<Span>| spans.len() == call.args.len())
                .unwrap_or_default(),
        }
    }

    /// Each argument as written, when the call was found.
    fn argument_nodes(&self, call: &Call) -> Vec<Written<'m>> {
        call.span
            .and_then(|s| self.calls.get(s))
            .map(Written::arguments)
            .filter(|nodes| nodes.len() == call.args.len())
            .unwrap_or_default()
    }

    /// `value`, a copy a query or `$get_input` made, once the run's budget for computed values
    /// has paid for it; `None` (reported) when it would pass the budget.
    fn charged(
        &mut self,
        function: &str,
        value: Value,
        site: &Site,
        diags: &mut Diagnostics,
    ) -> Option<Value> {
        let weight = value.weight();
        match self.typing.patterns.budget().compute(weight) {
            Ok(()) => Some(value),
            Err(crate::limits::Exceeded(limit)) => {
                let mut d = Diagnostic::error(
                    codes::TOSCA_LIMIT,
                    format!(
                        "`${function}` would copy a value of about {weight} bytes, which with the values computed before passes the limit of {limit} bytes functions may compute in one run"
                    ),
                )
                .hint(crate::limits::Limit::ComputedBytes.hint());
                if let Some(at) = site.name {
                    d = d.at(at);
                }
                self.report(d, diags);
                None
            }
        }
    }

    fn error(&mut self, at: Option<Span>, message: String, hint: String, diags: &mut Diagnostics) {
        let mut d = Diagnostic::error(codes::TOSCA_FUNCTION, message).hint(hint);
        if let Some(at) = at {
            d = d.at(at);
        }
        self.report(d, diags);
    }

    fn call(&mut self, call: &Call, scope: &Scope, diags: &mut Diagnostics) -> Value {
        let site = self.site(call);
        let args: Vec<Value> = match self.given_args.get(&properties::call_id(call)) {
            Some(given) => given.clone(),
            None => call
                .args
                .iter()
                .map(|a| self.value(a, scope, diags))
                .collect(),
        };
        if let Some(recorded) = self
            .trace
            .as_mut()
            .and_then(|t| t.get_mut(&std::ptr::from_ref(call)))
        {
            recorded.clone_from(&args);
        }
        let keep = |args: Vec<Value>| Value::Call(Box::new(call.with_args(args)));
        match self
            .functions
            .lookup(call.function.name(), call.span.map(|s| s.file))
        {
            None => {
                self.unknown(call, &site, diags);
                keep(args)
            }
            Some(Function::Custom(custom)) => {
                match self.custom(custom, call, &args, &site, diags) {
                    Some((signature, typed)) => {
                        let implementation = custom.signatures[signature].implementation();
                        self.not_run(custom, signature, diags);
                        Value::Call(Box::new(Call {
                            // A name read as a built-in that this template defines itself
                            // (`in_range`, see `Functions::lookup`) calls its own function.
                            function: crate::ir::Function::Custom(call.function.name().into()),
                            args: typed,
                            implementation: implementation.map(Box::new),
                            span: call.span,
                        }))
                    }
                    None => keep(args),
                }
            }
            Some(Function::BuiltIn(b)) => {
                if !self.arity(b, args.len(), &site, diags) {
                    return keep(args);
                }
                match b.group {
                    Group::Pure => {
                        match builtins::apply(&call.function, &args, self.typing.patterns) {
                            Outcome::Value(v) => v,
                            Outcome::Later => keep(args),
                            Outcome::Limit { message, limit } => {
                                let mut d = Diagnostic::error(codes::TOSCA_LIMIT, message)
                                    .hint(limit.hint());
                                if let Some(at) = site.name {
                                    d = d.at(at);
                                }
                                self.report(d, diags);
                                keep(args)
                            }
                            Outcome::Wrong { arg, message } => {
                                let at = arg.and_then(|i| site.arg(i)).or(site.name);
                                self.error(
                                    at,
                                    message,
                                    format!("`${}` takes {} ({})", b.name, b.grammar, b.section),
                                    diags,
                                );
                                keep(args)
                            }
                        }
                    }
                    Group::Query => {
                        let reached = self.query(b, call, args.clone(), &site, scope, diags);
                        self.charged(b.name, reached, &site, diags)
                            .unwrap_or_else(|| keep(args))
                    }
                    Group::Input => match self.input(args.clone(), &site, diags) {
                        Ok(value) => self
                            .charged(b.name, value, &site, diags)
                            .unwrap_or_else(|| keep(args)),
                        Err(args) => keep(args),
                    },
                    Group::Context => self
                        .context(b, scope, &site, diags)
                        .unwrap_or_else(|| keep(args)),
                    Group::Validation => {
                        self.error(
                            site.name,
                            "`$value` is the value a validation clause judges, and this is no validation clause".into(),
                            "use `$value` only inside `validation` (and node filters) (§10.2.1.5 $value)".into(),
                            diags,
                        );
                        keep(args)
                    }
                }
            }
        }
    }

    /// Calls in workflows and policy triggers observe a deployment's state when they run, so
    /// they are not evaluated here (toscana carries workflows over as data); each must still
    /// name a function that exists, with arguments one of its forms takes. A query whose path
    /// starts at a named template (`$get_attribute: [ server, ip ]`, §10.3 TOSCA Path) means
    /// the same wherever it is written, so its path is followed as an output's is: the
    /// template, and the property or attribute its type defines, must exist. A path from
    /// `SELF` (or another keyword) is left alone, as nothing says what `SELF` is there.
    fn judge_names(&mut self, value: &Value, diags: &mut Diagnostics) {
        match value {
            Value::Call(call) => {
                let site = self.site(call);
                match self
                    .functions
                    .lookup(call.function.name(), call.span.map(|s| s.file))
                {
                    None => self.unknown(call, &site, diags),
                    Some(Function::BuiltIn(b)) if b.group == Group::Query && anchored(call) => {
                        self.call(call, &Scope::Template, diags);
                    }
                    Some(Function::BuiltIn(b)) => {
                        self.arity(b, call.args.len(), &site, diags);
                    }
                    Some(Function::Custom(custom)) => {
                        self.custom(custom, call, &call.args, &site, diags);
                    }
                }
                for arg in &call.args {
                    self.judge_names(arg, diags);
                }
            }
            Value::List(items) => {
                for item in items {
                    self.judge_names(item, diags);
                }
            }
            Value::Map(entries) => {
                for item in entries.values() {
                    self.judge_names(item, diags);
                }
            }
            _ => {}
        }
    }

    fn unknown(&mut self, call: &Call, site: &Site, diags: &mut Diagnostics) {
        let d = unknown::report(
            self.model(),
            self.functions,
            call.function.name(),
            site.name,
        );
        self.report(d, diags);
    }

    /// Whether a built-in gets as many arguments as it takes; reports it when not.
    fn arity(&mut self, b: &BuiltIn, n: usize, site: &Site, diags: &mut Diagnostics) -> bool {
        match b.arity(n) {
            Ok(()) => true,
            Err((message, hint)) => {
                self.error(site.name, message, hint, diags);
                false
            }
        }
    }
}

/// Whether a query's path starts at a template named by a literal (not a path keyword such as
/// `SELF`) and nothing in it is computed.
fn anchored(call: &Call) -> bool {
    matches!(call.args.first(), Some(Value::String(s)) if !super::path::KEYWORDS.contains(&s.as_str()))
        && !call.args.iter().any(Value::has_call)
}
