//! The evaluator: one TOSCA 2.0 call at a time, inner calls first, with errors at the span where
//! the call is written.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use indexmap::IndexMap;

use super::builtins::{self, BuiltIn, Group, Outcome};
use super::path::{Entity, Graph, Reached, Scope};
use super::syntax;
use super::table::{Custom, Function, Functions, schema_type};
use super::unknown;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Call, NodeId, RelationshipId, Shared, Topology, Value};
use crate::model::{Model, TypeKind};
use crate::resolve::nodes::defs_complete;
use crate::resolve::types::definitions;
use crate::resolve::typing::{Typing, definitions_of};
use crate::resolve::values::nested;
use crate::source::Span;
use crate::yaml::Node as Yaml;

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

/// The YAML of every call in the files read, by the span the IR call carries.
pub struct CallIndex<'m> {
    by_span: HashMap<Span, &'m Yaml>,
}

impl<'m> CallIndex<'m> {
    pub fn new(model: &'m Model) -> Self {
        let mut index = CallIndex {
            by_span: HashMap::new(),
        };
        for def in model.types.values() {
            index.add(&def.def);
        }
        for named in model.functions.values() {
            index.add(&named.def);
        }
        if let Some(t) = &model.topology {
            let sections = [
                &t.inputs,
                &t.node_templates,
                &t.relationship_templates,
                &t.groups,
                &t.policies,
                &t.outputs,
                &t.workflows,
            ];
            for named in sections.into_iter().flatten() {
                index.add(&named.def);
            }
        }
        index
    }

    fn add(&mut self, node: &'m Yaml) {
        if syntax::call(node).is_some() {
            self.by_span.insert(node.span, node);
        }
        match &node.kind {
            crate::yaml::Kind::Map(m) => {
                for e in m.entries() {
                    self.add(&e.key);
                    self.add(&e.value);
                }
            }
            crate::yaml::Kind::Seq(items) => {
                for item in items {
                    self.add(item);
                }
            }
            crate::yaml::Kind::Scalar(_) => {}
        }
    }

    fn get(&self, span: Span) -> Option<&'m Yaml> {
        self.by_span.get(&span).copied()
    }
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
    /// The first property an evaluation needed that was not evaluated yet, and where it was
    /// read: the evaluation is then done again once that property is (see [`Self::force`]).
    blocked: Option<(Key, Option<Span>)>,
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
            blocked: None,
            reported: HashSet::new(),
            declared: HashMap::new(),
            available: None,
        }
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

    fn model(&self) -> &'t Model {
        self.graph.model
    }

    /// Every diagnostic goes into the sink of one evaluation attempt (see [`Self::force`]).
    fn report(&mut self, diagnostic: Diagnostic, diags: &mut Diagnostics) {
        diags.push(diagnostic);
    }

    /// Passes on what the attempt that counts found, each diagnostic once: a call in a type's
    /// definition is judged for every template of the type, and reported once.
    fn commit(&mut self, attempt: Diagnostics, diags: &mut Diagnostics) {
        for d in attempt.finish() {
            if self.reported.insert((d.span, d.message.clone())) {
                diags.push(d);
            }
        }
    }

    /// Evaluates every value this pass owns, writing the results into `topology` (whose values
    /// are those of the graph's snapshot).
    pub fn topology(&mut self, topology: &mut Topology, diags: &mut Diagnostics) {
        let snapshot = self.graph.topology;
        for (i, node) in snapshot.nodes.iter().enumerate() {
            let id = NodeId::from_index(i);
            let scope = Scope::Node(id);
            let out = &mut topology.nodes[i];
            for name in node.properties.keys() {
                if let Some(v) = self.property(Key::Node(id, name.clone()), diags) {
                    out.properties.insert(name.clone(), v);
                }
            }
            let owner = (TypeKind::Node, &node.types[..]);
            self.attributes(owner, &node.attributes, &mut out.attributes, &scope, diags);
            if node.count.has_call() {
                out.count = self.settle(&node.count, &scope, None, diags);
            }
            for (cap_name, cap) in &node.capabilities {
                for name in cap.properties.keys() {
                    let key = Key::Capability(id, cap_name.clone(), name.clone());
                    if let Some(v) = self.property(key, diags)
                        && out.capabilities[cap_name].properties.get(name) != Some(&v)
                    {
                        // Only a changed capability stops being shared with its type's others.
                        Shared::make_mut(&mut out.capabilities[cap_name])
                            .properties
                            .insert(name.clone(), v);
                    }
                }
                let owner = (TypeKind::Capability, &cap.types[..]);
                let mut attributes = out.capabilities[cap_name].attributes.clone();
                self.attributes(owner, &cap.attributes, &mut attributes, &scope, diags);
                if attributes != out.capabilities[cap_name].attributes {
                    Shared::make_mut(&mut out.capabilities[cap_name]).attributes = attributes;
                }
            }
            self.interfaces(&node.interfaces, &mut out.interfaces, &scope, diags);
            for (name, artifact) in &node.artifacts {
                let evaluated = self.values(&artifact.properties, &scope, diags);
                out.artifacts[name].properties = evaluated;
            }
            if let Some(filter) = self.selection_filter(i, node, diags)
                && let Some(selection) = &mut topology.nodes[i].selection
            {
                selection.node_filter = Some(filter);
            }
        }
        for (i, rel) in snapshot.relationships.iter().enumerate() {
            let id = RelationshipId::from_index(i);
            let scope = Scope::Relationship(id);
            let out = &mut topology.relationships[i];
            for name in rel.properties.keys() {
                if let Some(v) = self.property(Key::Relationship(id, name.clone()), diags) {
                    out.properties.insert(name.clone(), v);
                }
            }
            let owner = (TypeKind::Relationship, &rel.types[..]);
            self.attributes(owner, &rel.attributes, &mut out.attributes, &scope, diags);
            self.interfaces(&rel.interfaces, &mut out.interfaces, &scope, diags);
        }
        for (i, group) in snapshot.groups.iter().enumerate() {
            topology.groups[i].properties = self.values(&group.properties, &Scope::Template, diags);
            topology.groups[i].attributes = self.values(&group.attributes, &Scope::Template, diags);
        }
        for (i, policy) in snapshot.policies.iter().enumerate() {
            topology.policies[i].properties =
                self.values(&policy.properties, &Scope::Template, diags);
        }
        for policy in &snapshot.policies {
            for trigger in policy.triggers.values() {
                self.judge_names(trigger, diags);
            }
        }
        for workflow in &snapshot.workflows {
            self.judge_names(&workflow.definition, diags);
        }
        for (i, output) in snapshot.outputs.iter().enumerate() {
            if output.value.has_call() {
                // Written in the entry file, and read in its namespaces.
                let expected = output.type_name.as_ref().map(|t| {
                    self.typing
                        .ancestry
                        .full_name(self.model(), TypeKind::Data, t, self.model().entry)
                        .unwrap_or_else(|| t.clone())
                });
                topology.outputs[i].value =
                    self.settle(&output.value, &Scope::Template, expected, diags);
            }
        }
    }

    /// The `node_filter` of a `select` node template, checked and evaluated with `SELF` the node
    /// to be selected: a node outside the topology known by the template's type (§8.6 Node Filter
    /// Definition). What is wrong whatever that node is an error, as in a requirement's filter; a
    /// filter that is no condition, or false for every node, can select nothing (see
    /// [`crate::resolve::select_filter`]). The result, with what only the selection can know
    /// still calls, is what the IR carries for the orchestrator.
    fn selection_filter(
        &mut self,
        i: usize,
        node: &crate::ir::Node,
        diags: &mut Diagnostics,
    ) -> Option<Value> {
        let selection = node.selection.as_ref()?;
        let filter = selection.node_filter.as_ref()?;
        // Node ids are the node templates' places.
        let at = self
            .model()
            .topology
            .as_ref()
            .and_then(|t| t.node_templates.get(i))
            .and_then(|named| named.def.as_map()?.get("node_filter"))
            .map(|f| f.span);
        let scope = Scope::Candidate(node.types.clone());
        // `settle` reports each diagnostic once (see `commit`); `found` only tells whether the
        // filter was wrong.
        let mut found = Diagnostics::new();
        let value = self.settle(filter, &scope, None, &mut found);
        let wrong = found.has_errors();
        diags.extend(found.finish().into_iter().map(|mut d| {
            if d.is_error() {
                let hint = d.hint.take().unwrap_or_default();
                d.hint = Some(format!(
                    "{hint}; in a `select` node template's node_filter `SELF` is the node to be selected, known here by its type `{}` (§8.6 Node Filter Definition)",
                    node.type_name
                ));
            }
            d
        }));
        if !wrong {
            crate::resolve::select_filter::judge(node, at, &value, diags);
        }
        Some(value)
    }

    /// The attributes of a node, capability or relationship (`owner`: its kind and type chain)
    /// that hold calls, evaluated into `out`.
    fn attributes(
        &mut self,
        (kind, types): (TypeKind, &[String]),
        attributes: &IndexMap<String, Value>,
        out: &mut IndexMap<String, Value>,
        scope: &Scope,
        diags: &mut Diagnostics,
    ) {
        for (name, value) in attributes.iter().filter(|(_, v)| v.has_call()) {
            let expected = self.expected(kind, types, "attributes", name);
            let v = self.settle(value, scope, expected, diags);
            out.insert(name.clone(), v);
        }
    }

    fn values(
        &mut self,
        values: &IndexMap<String, Value>,
        scope: &Scope,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        values
            .iter()
            .map(|(k, v)| (k.clone(), self.settle(v, scope, None, diags)))
            .collect()
    }

    /// Each interface's inputs evaluated into `out`; an interface whose values do not change
    /// stays shared with its type's other elements.
    fn interfaces(
        &mut self,
        interfaces: &crate::ir::Interfaces,
        out: &mut crate::ir::Interfaces,
        scope: &Scope,
        diags: &mut Diagnostics,
    ) {
        for (name, interface) in interfaces {
            let mut evaluated = crate::ir::Interface::clone(&out[name]);
            evaluated.inputs = self.values(&interface.inputs, scope, diags);
            for (op, operation) in &interface.operations {
                evaluated.operations[op].inputs = self.values(&operation.inputs, scope, diags);
            }
            for (op, notification) in &interface.notifications {
                evaluated.notifications[op].inputs =
                    self.values(&notification.inputs, scope, diags);
            }
            if evaluated != *out[name] {
                out[name] = Shared::new(evaluated);
            }
        }
    }

    /// The declared type of one property or attribute.
    fn expected(
        &mut self,
        kind: TypeKind,
        types: &[String],
        section: &'static str,
        name: &str,
    ) -> Option<String> {
        self.declared(kind, types, section)
            .get(name)
            .cloned()
            .flatten()
    }

    /// The properties or attributes (`section`) a type chain defines, with the identities of
    /// their types.
    fn declared(
        &mut self,
        kind: TypeKind,
        types: &[String],
        section: &'static str,
    ) -> Rc<Declared> {
        let key = (kind, types.to_vec(), section);
        if let Some(declared) = self.declared.get(&key) {
            return Rc::clone(declared);
        }
        let defs = definitions(self.model(), kind, types);
        let declared: Declared = definitions_of(&defs, section)
            .into_iter()
            .map(|(name, d)| {
                let type_name = d.get("type").map(|t| self.typing.identity(t));
                (name.to_string(), type_name)
            })
            .collect();
        let declared = Rc::new(declared);
        self.declared.insert(key, Rc::clone(&declared));
        declared
    }

    /// The value of a property `$get_property` may read, its calls evaluated and its result
    /// checked against its declared type; `None` when it holds no call. Evaluated once.
    fn property(&mut self, key: Key, diags: &mut Diagnostics) -> Option<Value> {
        self.raw_property(&key).filter(|raw| raw.has_call())?;
        if !matches!(self.memo.get(&key), Some(Memo::Done(_))) {
            self.force(key.clone(), diags);
        }
        match self.memo.get(&key) {
            Some(Memo::Done(value)) => Some(value.clone()),
            _ => None,
        }
    }

    /// A property as the topology holds it, with what evaluating it needs.
    fn raw_property(&self, key: &Key) -> Option<&'t Value> {
        let snapshot = self.graph.topology;
        match key {
            Key::Node(n, name) => snapshot.nodes[n.index()].properties.get(name),
            Key::Capability(n, cap, name) => snapshot.nodes[n.index()]
                .capabilities
                .get(cap)
                .and_then(|c| c.properties.get(name)),
            Key::Relationship(r, name) => snapshot.relationships[r.index()].properties.get(name),
        }
    }

    /// Evaluates property `key` and every property it reads first, without recursion: a chain
    /// of `$get_property` as long as the topology is large must not exhaust the stack. An
    /// evaluation that needs a property not evaluated yet is dropped (its diagnostics too) and
    /// done again once that property is; a property needed while it is being evaluated closes
    /// a loop, which is reported, and then reads as known only at deployment.
    fn force(&mut self, key: Key, diags: &mut Diagnostics) {
        let mut stack = vec![key.clone()];
        let mut on_stack: HashSet<Key> = HashSet::from([key]);
        while let Some(top) = stack.last().cloned() {
            if matches!(self.memo.get(&top), Some(Memo::Done(_))) {
                stack.pop();
                on_stack.remove(&top);
                continue;
            }
            let mut attempt = Diagnostics::with_cap(0);
            self.blocked = None;
            let value = self.evaluate_property(&top, &mut attempt);
            match self.blocked.take() {
                None => {
                    self.commit(attempt, diags);
                    self.memo.insert(top.clone(), Memo::Done(value));
                    stack.pop();
                    on_stack.remove(&top);
                }
                Some((dep, at)) if on_stack.contains(&dep) => {
                    let start = stack.iter().position(|k| *k == dep).unwrap_or(0);
                    let mut shown: Vec<String> =
                        stack[start..].iter().map(|k| self.label(k)).collect();
                    shown.push(self.label(&dep));
                    let mut d = Diagnostic::error(
                        codes::TOSCA_CYCLE,
                        format!("$get_property loop: {}", shown.join(" → ")),
                    )
                    .hint("one of these properties must have a value of its own");
                    if let Some(at) = at {
                        d = d.at(at);
                    }
                    let mut found = Diagnostics::with_cap(0);
                    found.push(d);
                    self.commit(found, diags);
                    for k in &stack[start..] {
                        self.memo.insert(k.clone(), Memo::Looped);
                    }
                }
                Some((dep, _)) => {
                    on_stack.insert(dep.clone());
                    stack.push(dep);
                }
            }
        }
    }

    /// One attempt at evaluating a property (see [`Self::force`]).
    fn evaluate_property(&mut self, key: &Key, diags: &mut Diagnostics) -> Value {
        let snapshot = self.graph.topology;
        let Some(raw) = self.raw_property(key) else {
            return Value::Null;
        };
        let (scope, kind, types, name) = match key {
            Key::Node(n, name) => (
                Scope::Node(*n),
                TypeKind::Node,
                &snapshot.nodes[n.index()].types,
                name,
            ),
            Key::Capability(n, cap, name) => (
                Scope::Node(*n),
                TypeKind::Capability,
                &snapshot.nodes[n.index()].capabilities[cap].types,
                name,
            ),
            Key::Relationship(r, name) => (
                Scope::Relationship(*r),
                TypeKind::Relationship,
                &snapshot.relationships[r.index()].types,
                name,
            ),
        };
        let expected = self.expected(kind, types, "properties", name);
        self.slot(raw, &scope, expected, diags)
    }

    /// A value that is not a property `$get_property` reads (an attribute, an operation
    /// input, an output), evaluated once the properties it reads are (see [`Self::force`]).
    fn settle(
        &mut self,
        raw: &Value,
        scope: &Scope,
        expected: Option<String>,
        diags: &mut Diagnostics,
    ) -> Value {
        if !raw.has_call() {
            return raw.clone();
        }
        loop {
            let mut attempt = Diagnostics::with_cap(0);
            self.blocked = None;
            let value = self.slot(raw, scope, expected.clone(), &mut attempt);
            match self.blocked.take() {
                None => {
                    self.commit(attempt, diags);
                    return value;
                }
                Some((dep, _)) => self.force(dep, diags),
            }
        }
    }

    /// A whole property, attribute or output value, its result checked against `expected`.
    fn slot(
        &mut self,
        raw: &Value,
        scope: &Scope,
        expected: Option<String>,
        diags: &mut Diagnostics,
    ) -> Value {
        let value = self.value(raw, scope, diags);
        if let (Value::Call(call), Some(expected)) = (raw, expected) {
            self.check_result(call, &value, &expected, diags);
        }
        value
    }

    /// Reports a function whose result cannot be a value of the type it is assigned to.
    fn check_result(
        &mut self,
        call: &Call,
        value: &Value,
        expected: &str,
        diags: &mut Diagnostics,
    ) {
        let at = self.site(call).name.or(call.span);
        let problem = match value {
            Value::Call(after) => {
                let Some(result) = self.result_type(after) else {
                    return;
                };
                if self.typing.type_fits(&result, expected) {
                    return;
                }
                format!("`${}` returns a `{result}`", after.function)
            }
            // No value (an unset field an input's type declares): nothing to judge.
            Value::Null => return,
            known => match self.typing.value_fits(known, expected) {
                Ok(()) => return,
                Err(_) => format!(
                    "`${}` gives {} (`{}`)",
                    call.function,
                    builtins::describe(known),
                    crate::ir::value_text(known)
                ),
            },
        };
        let Some(at) = at else { return };
        self.report(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!("{problem}, which is not a value of type `{expected}`"),
            )
            .at(at)
            .hint(format!(
                "assign a function whose result is a `{expected}`, or change the definition's type"
            )),
            diags,
        );
    }

    /// The declared type (its identity) of what a call returns, where the function says.
    fn result_type(&mut self, call: &Call) -> Option<String> {
        let node = match self
            .functions
            .lookup(&call.function, call.span.map(|s| s.file))?
        {
            Function::BuiltIn(b) => return b.result.map(str::to_string),
            Function::Custom(c) => {
                let n = call.args.len();
                c.signatures.iter().find(|s| s.takes(n))?.result_type()?
            }
        };
        Some(self.typing.identity(node))
    }

    fn value(&mut self, value: &Value, scope: &Scope, diags: &mut Diagnostics) -> Value {
        match value {
            Value::Call(call) => self.call(call, scope, diags),
            Value::List(items) if value.has_call() => {
                Value::List(items.iter().map(|i| self.value(i, scope, diags)).collect())
            }
            Value::Map(map) if value.has_call() => Value::Map(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.value(v, scope, diags)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    fn site(&self, call: &Call) -> Site {
        let Some(yaml) = call.span.and_then(|s| self.calls.get(s)) else {
            return Site {
                name: call.span,
                args: Vec::new(),
            };
        };
        let written = syntax::call(yaml);
        Site {
            name: written.as_ref().map(|w| w.name_node.span).or(call.span),
            args: written
                .as_ref()
                .map(|w| syntax::arguments(w).iter().map(|n| n.span).collect())
                .filter(|spans: &Vec<Span>| spans.len() == call.args.len())
                .unwrap_or_default(),
        }
    }

    /// The YAML of each argument, when it was found.
    fn argument_nodes(&self, call: &Call) -> Vec<&'m Yaml> {
        call.span
            .and_then(|s| self.calls.get(s))
            .and_then(|yaml| syntax::call(yaml).map(|w| syntax::arguments(&w)))
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
        let args: Vec<Value> = call
            .args
            .iter()
            .map(|a| self.value(a, scope, diags))
            .collect();
        let keep = |args: Vec<Value>| {
            Value::Call(Call {
                function: call.function.clone(),
                args,
                implementation: None,
                span: call.span,
            })
        };
        match self
            .functions
            .lookup(&call.function, call.span.map(|s| s.file))
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
                        Value::Call(Call {
                            function: call.function.clone(),
                            args: typed,
                            implementation: implementation.map(Box::new),
                            span: call.span,
                        })
                    }
                    None => keep(args),
                }
            }
            Some(Function::BuiltIn(b)) => {
                if !self.arity(b, args.len(), &site, diags) {
                    return keep(args);
                }
                match b.group {
                    Group::Pure => match builtins::apply(b.name, &args, self.typing.patterns) {
                        Outcome::Value(v) => v,
                        Outcome::Later => keep(args),
                        Outcome::Limit { message, limit } => {
                            let mut d =
                                Diagnostic::error(codes::TOSCA_LIMIT, message).hint(limit.hint());
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
                    },
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
    /// they are neither evaluated nor followed here (toscana carries workflows over as data);
    /// each must still name a function that exists, with arguments one of its forms takes.
    fn judge_names(&mut self, value: &Value, diags: &mut Diagnostics) {
        match value {
            Value::Call(call) => {
                let site = self.site(call);
                match self
                    .functions
                    .lookup(&call.function, call.span.map(|s| s.file))
                {
                    None => self.unknown(call, &site, diags),
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
        let d = unknown::report(self.model(), self.functions, &call.function, site.name);
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

    /// `$get_input` whose arguments became known here (`[ name, $node_index ]`); the reader
    /// bound the others and reported undeclared inputs.
    fn input(
        &mut self,
        args: Vec<Value>,
        site: &Site,
        diags: &mut Diagnostics,
    ) -> Result<Value, Vec<Value>> {
        let Some(Value::String(name)) = args.first() else {
            if !args.first().is_some_and(Value::has_call) {
                self.error(
                    site.arg(0),
                    "`$get_input` names an input first".into(),
                    "write `$get_input: <input name>` or `$get_input: [ <input name>, <key or index>, ... ]` (§10.2.1.1 $get_input)".into(),
                    diags,
                );
            }
            return Err(args);
        };
        if !self.selectors(&args, 1, &format!("input `{name}`"), site, diags) {
            return Err(args);
        }
        match self.inputs.get(name) {
            Some(Some(value)) if !args[1..].iter().any(Value::has_call) => {
                if let Some(v) = nested(value, &args[1..]) {
                    return Ok(v);
                }
                match self.missing_in_input(name, value, &args[1..]) {
                    Ok(()) => Ok(Value::Null),
                    Err((i, message)) => {
                        self.error(
                            site.arg(i + 1),
                            message,
                            "select a field its type defines, or an index within the list (§10.2.1.1 $get_input)"
                                .into(),
                            diags,
                        );
                        Err(args)
                    }
                }
            }
            _ => Err(args),
        }
    }

    /// Whether the arguments from `from` on are keys (strings) and indices (non-negative
    /// integers) into `what`, or calls that give them; reports the first that is not.
    fn selectors(
        &mut self,
        args: &[Value],
        from: usize,
        what: &str,
        site: &Site,
        diags: &mut Diagnostics,
    ) -> bool {
        let wrong = args.iter().enumerate().skip(from).find(|(_, step)| {
            !matches!(step, Value::String(_) | Value::Call(_))
                && !matches!(step, Value::Integer(k) if *k >= 0)
        });
        let Some((i, step)) = wrong else {
            return true;
        };
        self.error(
            site.arg(i),
            format!(
                "`{}` cannot select inside {what}",
                crate::ir::value_text(step)
            ),
            "a key is a string and an index a non-negative integer (§10.2.1.1 $get_input)".into(),
            diags,
        );
        false
    }

    /// Why `path` selects nothing inside the known value of input `name`: `Ok` when it names a
    /// field the input's type declares and the value leaves unset (no value, null), else the
    /// step that goes wrong and why.
    fn missing_in_input(
        &self,
        name: &str,
        value: &Value,
        path: &[Value],
    ) -> Result<(), (usize, String)> {
        let mut schema = self
            .graph
            .topology
            .inputs
            .iter()
            .find(|i| i.name == name)
            .and_then(|i| i.schema.as_ref());
        let mut current = value;
        for (i, step) in path.iter().enumerate() {
            let shown = crate::ir::value_text(step);
            match (current, step) {
                (Value::Map(map), Value::String(key)) => match map.get(key) {
                    Some(next) => {
                        current = next;
                        schema = schema.and_then(|s| s.properties.get(key).or(s.entry.as_deref()));
                    }
                    None if schema.is_some_and(|s| s.properties.contains_key(key)) => return Ok(()),
                    None => {
                        let mut known: Vec<&str> = map.keys().map(String::as_str).collect();
                        if let Some(s) = schema {
                            known.extend(s.properties.keys().map(String::as_str));
                        }
                        known.sort_unstable();
                        known.dedup();
                        return Err((
                            i,
                            format!(
                                "input `{name}` has no `{key}` (it has: {})",
                                known.join(", ")
                            ),
                        ));
                    }
                },
                (Value::List(items), Value::Integer(k))
                    if usize::try_from(*k).is_ok_and(|k| k < items.len()) =>
                {
                    current = &items[*k as usize];
                    schema = schema.and_then(|s| s.entry.as_deref());
                }
                (Value::List(items), Value::Integer(k)) => {
                    return Err((
                        i,
                        format!(
                            "input `{name}` holds {} entr{} here, so index {k} is past the end",
                            items.len(),
                            if items.len() == 1 { "y" } else { "ies" }
                        ),
                    ));
                }
                (other, _) => {
                    return Err((
                        i,
                        format!(
                            "`{shown}` cannot select inside input `{name}` here: it is {}",
                            builtins::describe(other)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// `$node_index` and `$relationship_index`: known for a node with one representation, and
    /// for a relationship made once per source representation whose place among its
    /// requirement's relationships is known
    /// ([`template_relationship_index`](crate::resolve::multiplicity::template_relationship_index)).
    fn context(
        &mut self,
        b: &BuiltIn,
        scope: &Scope,
        site: &Site,
        diags: &mut Diagnostics,
    ) -> Option<Value> {
        let node = b.name == "node_index";
        let fits = match scope {
            Scope::Node(_) | Scope::Candidate(_) => node,
            Scope::Relationship(_) | Scope::Open(_) => !node,
            Scope::Template => false,
        };
        if !fits {
            let (what, place) = if node {
                (
                    "the index of a node's representation",
                    "a node template (or its type)",
                )
            } else {
                (
                    "the index of a relationship among those of its requirement",
                    "a relationship, a requirement or a relationship type",
                )
            };
            self.error(
                site.name,
                format!("`${}` is {what}, and means nothing here", b.name),
                format!("use it only within {place} ({})", b.section),
                diags,
            );
            return None;
        }
        match scope {
            Scope::Node(n) if self.graph.topology.nodes[n.index()].count == Value::Integer(1) => {
                Some(Value::Integer(0))
            }
            Scope::Relationship(r) => {
                crate::resolve::multiplicity::template_relationship_index(self.graph.topology, *r)
                    .map(|i| Value::Integer(i as i64))
            }
            _ => None,
        }
    }

    /// Says, once per signature, that a custom function's `implementation` is not run at
    /// translation time: its calls stay in the IR, carrying it (§10.4 Function Definitions); and
    /// what reading the implementation found, now that a call uses it.
    fn not_run(&mut self, custom: &Custom<'m>, signature: usize, diags: &mut Diagnostics) {
        let signature = &custom.signatures[signature];
        let (Some(written), Some(implementation)) =
            (signature.implementation, &signature.implemented_by)
        else {
            return;
        };
        for note in signature.implementation_notes.clone() {
            self.report(note, diags);
        }
        let by = implementation.primary.as_ref().map_or_else(
            || "its implementation".to_string(),
            |a| format!("`{}`", a.file),
        );
        self.report(
            Diagnostic::warning(
                codes::TOSCA_FUNCTION,
                format!(
                    "function `{}{}` is implemented by {by}, which toscana does not run: its calls stay in the IR with the implementation",
                    custom.name,
                    signature.shown()
                ),
            )
            .at(written.span)
            .hint("the orchestrator (or a backend that knows the function) runs it at deployment; a value needed now must not depend on it"),
            diags,
        );
    }

    /// A custom function's arguments against its signatures, the first that fits winning
    /// (§10.4 Function Definitions): its index, and the arguments read as its schemas.
    fn custom(
        &mut self,
        custom: &Custom<'m>,
        call: &Call,
        args: &[Value],
        site: &Site,
        diags: &mut Diagnostics,
    ) -> Option<(usize, Vec<Value>)> {
        let nodes = self.argument_nodes(call);
        let mut problems: Vec<(Option<usize>, String)> = Vec::new();
        for (index, signature) in custom.signatures.iter().enumerate() {
            if !signature.takes(args.len()) {
                problems.push((
                    None,
                    format!("{} takes {}", signature.shown(), count_text(signature)),
                ));
                continue;
            }
            let mut typed = Vec::with_capacity(args.len());
            let mut wrong = None;
            for (i, arg) in args.iter().enumerate() {
                let Some(schema) = signature.schema(i) else {
                    typed.push(arg.clone());
                    continue;
                };
                match self.argument(arg, nodes.get(i).copied(), schema, i) {
                    Ok(v) => typed.push(v),
                    Err(message) => {
                        wrong = Some((Some(i), message));
                        break;
                    }
                }
            }
            match wrong {
                None => return Some((index, typed)),
                Some(problem) => problems.push(problem),
            }
        }
        if custom.signatures.is_empty() {
            return None;
        }
        // Signatures that take this many arguments say best what is wrong with them.
        if problems.iter().any(|(arg, _)| arg.is_some()) {
            problems.retain(|(arg, _)| arg.is_some());
        }
        let n = args.len();
        let (at, message) = match &problems[..] {
            [(Some(i), message)] => (site.arg(*i), format!("`${}`: {message}", call.function)),
            _ => (
                site.name,
                format!(
                    "no signature of `${}` takes {n} argument{}: {}",
                    call.function,
                    if n == 1 { "" } else { "s" },
                    problems
                        .iter()
                        .map(|(_, m)| m.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            ),
        };
        let signatures: Vec<String> = custom.signatures.iter().map(|s| s.shown()).collect();
        self.error(
            at,
            message,
            format!(
                "`{}` is defined with the signature(s) {}",
                custom.name,
                signatures.join(", ")
            ),
            diags,
        );
        None
    }

    /// One argument against one schema: a literal read as the schema says, a computed value
    /// by its kind, a call by its declared result.
    fn argument(
        &mut self,
        arg: &Value,
        node: Option<&'m Yaml>,
        schema: &'m Yaml,
        i: usize,
    ) -> Result<Value, String> {
        let type_name = schema_type(schema).map(|t| self.typing.identity(t));
        let type_name = type_name.as_deref();
        if let Value::Call(inner) = arg {
            return match (self.result_type(inner), type_name) {
                (Some(result), Some(t)) if !self.typing.type_fits(&result, t) => Err(format!(
                    "argument {} is `${}`, which returns a `{result}`, and the signature takes a `{t}`",
                    i + 1,
                    inner.function
                )),
                _ => Ok(arg.clone()),
            };
        }
        if let Some(node) = node.filter(|n| syntax::call(n).is_none()) {
            let mut found = Diagnostics::with_cap(0);
            let path = format!("argument {}", i + 1);
            let value = self.typing.schema_value(node, schema, &path, &mut found);
            return match found.iter().find(|d| d.is_error()) {
                Some(d) => Err(d.message.clone()),
                None => Ok(value),
            };
        }
        match type_name.map(|t| self.typing.value_fits(arg, t)) {
            Some(Err(expected)) => Err(format!(
                "argument {} is {}, and the signature takes {expected}",
                i + 1,
                builtins::describe(arg)
            )),
            _ => Ok(arg.clone()),
        }
    }

    /// `$get_property`, `$get_attribute`, `$get_artifact` and `$available_allocation`.
    fn query(
        &mut self,
        b: &BuiltIn,
        call: &Call,
        args: Vec<Value>,
        site: &Site,
        scope: &Scope,
        diags: &mut Diagnostics,
    ) -> Value {
        let keep = |args: Vec<Value>| {
            Value::Call(Call {
                function: call.function.clone(),
                args,
                implementation: None,
                span: call.span,
            })
        };
        let reached = match self.graph.follow(self.typing.ancestry, scope, &args) {
            Ok(r) => r,
            Err(e) => {
                self.error(
                    site.arg(e.arg),
                    format!("`${}`: {}", b.name, e.message),
                    e.hint,
                    diags,
                );
                return keep(args);
            }
        };
        let end = reached.end;
        let (what, a_what) = match b.name {
            "get_artifact" => ("artifact", "an artifact"),
            "get_attribute" => ("attribute", "an attribute"),
            _ => ("property", "a property"),
        };
        let Some(Value::String(name)) = args.get(end) else {
            let at = if end < args.len() {
                site.arg(end)
            } else {
                site.name
            };
            let found = args.get(end).map_or("nothing".to_string(), |v| {
                format!("`{}`", crate::ir::value_text(v))
            });
            self.error(
                at,
                format!(
                    "`${}` needs the name of {a_what} after its TOSCA path, and finds {found}",
                    b.name
                ),
                format!("write `${}: {}` ({})", b.name, b.grammar, b.section),
                diags,
            );
            return keep(args);
        };
        let name = name.clone();
        let only_name = matches!(b.name, "get_artifact" | "available_allocation");
        if only_name && args.len() > end + 1 {
            self.error(
                site.arg(end + 1),
                format!("`${}` takes nothing after the {what} name", b.name),
                format!("write `${}: {}` ({})", b.name, b.grammar, b.section),
                diags,
            );
            return keep(args);
        }
        if !self.selectors(&args, end + 1, &format!("{what} `{name}`"), site, diags) {
            return keep(args);
        }
        for entity in &reached.entities {
            if let Err((message, hint)) = self.defines(b.name, entity, &name) {
                self.error(
                    site.arg(end),
                    format!("`${}`: {message}", b.name),
                    hint,
                    diags,
                );
                return keep(args);
            }
        }
        if b.name == "get_property" && reached.exact {
            let mut values = Vec::with_capacity(reached.entities.len());
            for entity in &reached.entities {
                match self.read_property(entity, &name, site) {
                    Some(v) if !v.has_call() => match nested(&v, &args[end + 1..]) {
                        Some(v) => values.push(v),
                        None => break,
                    },
                    _ => break,
                }
            }
            if values.len() == reached.entities.len() {
                return if reached.many {
                    Value::List(values)
                } else if let Some(v) = values.pop() {
                    v
                } else {
                    keep(normalized(self.graph, &reached, args))
                };
            }
        }
        if b.name == "available_allocation"
            && reached.exact
            && let [Entity::Capability(n, c)] = &reached.entities[..]
            && let Some(left) = self.available.and_then(|f| f(*n, c, &name))
            && let Some(like) = self.read_property(&reached.entities[0], &name, site)
        {
            return amount_like(&like, left);
        }
        keep(normalized(self.graph, &reached, args))
    }

    /// Whether the entity's type defines the name a query asks for.
    fn defines(
        &mut self,
        function: &str,
        entity: &Entity,
        name: &str,
    ) -> Result<(), (String, String)> {
        let topology = self.graph.topology;
        let (kind, types, owner) = match entity {
            Entity::Node(n) => {
                let node = &topology.nodes[n.index()];
                (
                    TypeKind::Node,
                    node.types.clone(),
                    format!("node template `{}` ({})", node.name, node.type_name),
                )
            }
            Entity::Capability(n, c) => {
                let node = &topology.nodes[n.index()];
                let types = node
                    .capabilities
                    .get(c)
                    .map(|c| c.types.clone())
                    .unwrap_or_default();
                (
                    TypeKind::Capability,
                    types,
                    format!("capability `{c}` of node template `{}`", node.name),
                )
            }
            Entity::Relationship(r) => {
                let rel = &topology.relationships[r.index()];
                (
                    TypeKind::Relationship,
                    rel.types.clone(),
                    format!("relationship `{}` ({})", rel.name, rel.type_name),
                )
            }
            Entity::Open(open) => (
                TypeKind::Relationship,
                open.types.clone(),
                format!(
                    "relationship type `{}`",
                    open.types.first().map_or("?", String::as_str)
                ),
            ),
            Entity::Typed(kind, types) => (
                *kind,
                types.clone(),
                format!(
                    "{} `{}`",
                    kind.noun(),
                    types.first().map_or("?", String::as_str)
                ),
            ),
        };
        match function {
            "get_artifact" => {
                if kind != TypeKind::Node {
                    return Err((
                        format!("the path leads to {owner}, and artifacts belong to nodes"),
                        "end the path at a node (§10.2.1.4 `$get_artifact`)".into(),
                    ));
                }
                if let Entity::Node(n) = entity {
                    let node = &topology.nodes[n.index()];
                    if !node.artifacts.contains_key(name) {
                        let known: Vec<&str> = node.artifacts.keys().map(String::as_str).collect();
                        return Err((
                            format!("{owner} has no artifact `{name}`"),
                            suggestion(name, &known, "artifact"),
                        ));
                    }
                }
                return Ok(());
            }
            "available_allocation" if kind != TypeKind::Capability => {
                return Err((
                    format!("the path leads to {owner}, and allocations are made against capabilities"),
                    "end the path at a capability: `[ SELF, CAPABILITY, <capability> ]` or `[ SELF, CAPABILITY ]` in a relationship (§10.2.1.8 $available_allocation)".into(),
                ));
            }
            _ => {}
        }
        if types.is_empty() {
            return Ok(());
        }
        let model = self.model();
        let defs = definitions(model, kind, &types);
        if !defs_complete(model, &defs) {
            return Ok(());
        }
        let sections: &[&'static str] = if function == "get_attribute" {
            // Every property is also an attribute (§9.6 Attribute Definition).
            &["attributes", "properties"]
        } else {
            &["properties"]
        };
        let mut known: Vec<String> = Vec::new();
        for section in sections {
            let defined = self.declared(kind, &types, section);
            if let Some(type_name) = defined.get(name) {
                if function == "available_allocation" {
                    let type_name = type_name.clone().unwrap_or_default();
                    if !self.typing.allocatable(&type_name) {
                        return Err((
                            format!(
                                "property `{name}` of {owner} is a `{type_name}`, and only integer, float and scalar properties are allocated"
                            ),
                            "name a property of type integer, float or a scalar type (§10.2.1.8 $available_allocation)"
                                .into(),
                        ));
                    }
                }
                return Ok(());
            }
            known.extend(defined.keys().map(|k| k.to_string()));
        }
        known.sort();
        known.dedup();
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        let what = match function {
            "get_attribute" => "attribute or property",
            _ => "property",
        };
        Err((
            format!("{owner} has no {what} `{name}`"),
            suggestion(name, &known, what),
        ))
    }

    /// The value of property `name` of a node, capability or relationship, evaluated; `None`
    /// when it has none before deployment, or when it is not evaluated yet (the evaluation
    /// underway is then blocked on it, see [`Self::force`]).
    fn read_property(&mut self, entity: &Entity, name: &str, site: &Site) -> Option<Value> {
        let key = match entity {
            Entity::Node(n) => Key::Node(*n, name.to_string()),
            Entity::Capability(n, c) => Key::Capability(*n, c.clone(), name.to_string()),
            Entity::Relationship(r) => Key::Relationship(*r, name.to_string()),
            Entity::Open(open) => {
                return open.properties.get(name).filter(|v| !v.has_call()).cloned();
            }
            _ => return None,
        };
        let raw = self.raw_property(&key)?;
        if !raw.has_call() {
            return Some(raw.clone());
        }
        match self.memo.get(&key) {
            Some(Memo::Done(value)) => Some(value.clone()),
            Some(Memo::Looped) => None,
            None => {
                if self.blocked.is_none() {
                    self.blocked = Some((key, site.name));
                }
                None
            }
        }
    }

    fn label(&self, key: &Key) -> String {
        let topology = self.graph.topology;
        match key {
            Key::Node(n, p) => format!("{}.{p}", topology.nodes[n.index()].name),
            Key::Capability(n, c, p) => format!("{}.{c}.{p}", topology.nodes[n.index()].name),
            Key::Relationship(r, p) => format!("{}.{p}", topology.relationships[r.index()].name),
        }
    }
}

/// `amount` as a value of the kind of `like` (the property it is left of): an integer, a float,
/// or a scalar in `like`'s unit, so comparisons read it as they read the property.
fn amount_like(like: &Value, amount: f64) -> Value {
    match like {
        Value::Integer(_) => Value::Integer(amount as i64),
        Value::Scalar(s) => {
            // The amount is in the canonical unit; written back in the property's unit.
            let factor = if s.number == 0.0 {
                1.0
            } else {
                s.canonical / s.number
            };
            builtins::scalar_like(s, amount / factor)
        }
        _ => Value::Float(amount),
    }
}

/// How many arguments a signature takes, in words.
fn count_text(signature: &super::table::Signature) -> String {
    let (required, optional) = (signature.arguments.len(), signature.optional.len());
    match (required + optional, signature.variadic) {
        (0, false) => "no arguments".to_string(),
        (0, true) => "any arguments".to_string(),
        (_, true) => format!("{required} or more arguments"),
        (1, false) => "1 argument".to_string(),
        (_, false) if optional == 0 => format!("{required} arguments"),
        _ => format!("{required} to {} arguments", required + optional),
    }
}

fn suggestion(name: &str, known: &[&str], what: &str) -> String {
    match crate::diag::closest(name, known) {
        Some(c) => format!("did you mean `{c}`?"),
        None if known.is_empty() => format!("it defines no {what}"),
        None => format!("defined: {}", known.join(", ")),
    }
}

/// A query's arguments in the Simple Profile's form when its path leads to one node template
/// (`[node, name, ...]`) or one capability of one (`[node, capability, name, ...]`); as written
/// otherwise.
fn normalized(graph: &Graph, reached: &Reached, args: Vec<Value>) -> Vec<Value> {
    if !reached.exact || reached.many {
        return args;
    }
    let rest = &args[reached.end..];
    let head = match &reached.entities[..] {
        [Entity::Node(n)] => vec![Value::string(&graph.topology.nodes[n.index()].name)],
        [Entity::Capability(n, c)] => vec![
            Value::string(&graph.topology.nodes[n.index()].name),
            Value::string(c),
        ],
        _ => return args,
    };
    head.into_iter().chain(rest.iter().cloned()).collect()
}
