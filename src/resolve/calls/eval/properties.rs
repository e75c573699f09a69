//! The properties `$get_property` reads, each evaluated once, after the properties it reads:
//! the calls in a value are data, so which properties a value reads is known before it is
//! evaluated (a computed argument is evaluated first, once, and given to the evaluation), and
//! a loop is an error.

use std::collections::{HashMap, HashSet};

use super::{Evaluator, Key, Memo};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Call, Value};
use crate::model::TypeKind;
use crate::resolve::calls::path::{Entity, Scope};
use crate::resolve::calls::table::Function;
use crate::resolve::values::nested;
use crate::source::Span;

/// A value waiting for the properties it reads: the calls in it that may read one, in the
/// order evaluation meets them (a call's arguments first), how far the reads are known to be
/// evaluated, and the arguments computed on the way (see [`Evaluator::given`]).
pub(super) struct Waiting<'v> {
    key: Option<Key>,
    scope: Scope,
    reads: Vec<&'v Call>,
    next: usize,
    /// Among the entities the call at `next` reads, the first not known to be evaluated.
    entity: usize,
    args: HashMap<usize, Vec<Value>>,
}

/// What a read finds of a property.
enum Found {
    /// Its value before deployment (which may still hold calls).
    Value(Value),
    /// Nothing: the property is not there, or is part of a loop.
    Nothing,
    /// A property with a call, not evaluated yet.
    Waits(Key),
}

impl<'m, 't> Evaluator<'_, '_, 'm, 't> {
    /// The value of a property `$get_property` may read, its calls evaluated and its result
    /// checked against its declared type; `None` when it holds no call. Evaluated once.
    pub(super) fn property(&mut self, key: Key, diags: &mut Diagnostics) -> Option<Value> {
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
    pub(super) fn raw_property(&self, key: &Key) -> Option<&'t Value> {
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

    /// Evaluates property `key` once every property it reads is, depth first without
    /// recursion: a chain of `$get_property` as long as the topology is large must not exhaust
    /// the stack. A property read while it waits for what it reads closes a loop, which is
    /// reported, and then reads as known only at deployment.
    pub(super) fn force(&mut self, key: Key, diags: &mut Diagnostics) {
        let mut stack = vec![self.waiting_property(key.clone())];
        let mut on_stack: HashSet<Key> = HashSet::from([key]);
        while let Some(top) = stack.last_mut() {
            match self.next_read(top, diags) {
                Some((dep, at)) if on_stack.contains(&dep) => {
                    let keys: Vec<&Key> = stack.iter().filter_map(|w| w.key.as_ref()).collect();
                    let start = keys.iter().position(|k| **k == dep).unwrap_or(0);
                    let mut shown: Vec<String> =
                        keys[start..].iter().map(|k| self.label(k)).collect();
                    shown.push(self.label(&dep));
                    let mut d = Diagnostic::error(
                        codes::TOSCA_CYCLE,
                        format!("$get_property loop: {}", shown.join(" → ")),
                    )
                    .hint("one of these properties must have a value of its own");
                    if let Some(at) = at {
                        d = d.at(at);
                    }
                    self.report(d, diags);
                    let looped: Vec<Key> = keys[start..].iter().map(|k| (*k).clone()).collect();
                    for k in looped {
                        self.memo.insert(k, Memo::Looped);
                    }
                }
                Some((dep, _)) => {
                    on_stack.insert(dep.clone());
                    let waiting = self.waiting_property(dep);
                    stack.push(waiting);
                }
                None => {
                    let Some(done) = stack.pop() else { break };
                    let Some(key) = done.key.clone() else { break };
                    let value = self.given(
                        done,
                        |eval, diags| eval.evaluate_property(&key, diags),
                        diags,
                    );
                    on_stack.remove(&key);
                    self.memo.insert(key, Memo::Done(value));
                }
            }
        }
    }

    /// Property `key` waiting for the properties it reads (none when it is not there: it
    /// then evaluates to null, as [`Self::evaluate_property`] says).
    fn waiting_property(&self, key: Key) -> Waiting<'t> {
        let scope = key_scope(&key);
        match self.raw_property(&key) {
            Some(raw) => self.waiting(Some(key), raw, scope),
            None => self.waiting(Some(key), &Value::Null, scope),
        }
    }

    /// `raw`, written where `scope` says, waiting for the properties it reads.
    fn waiting<'v>(&self, key: Option<Key>, raw: &'v Value, scope: Scope) -> Waiting<'v> {
        let mut reads = Vec::new();
        reads_in(raw, &mut reads);
        Waiting {
            key,
            scope,
            reads,
            next: 0,
            entity: 0,
            args: HashMap::new(),
        }
    }

    /// The next property `waiting` reads that holds a call and is not evaluated yet, and
    /// where it is read; `None` once every read finds its value (or finds none). Each read is
    /// judged as [`Self::query`] judges it, with what evaluating it found so far.
    fn next_read(
        &mut self,
        waiting: &mut Waiting<'_>,
        diags: &mut Diagnostics,
    ) -> Option<(Key, Option<Span>)> {
        while let Some(&call) = waiting.reads.get(waiting.next) {
            if let Some(read) = self.read_in(call, waiting, diags) {
                return Some(read);
            }
            waiting.next += 1;
            waiting.entity = 0;
        }
        None
    }

    /// The property the call at `waiting.next` reads and waits for, if any.
    fn read_in(
        &mut self,
        call: &Call,
        waiting: &mut Waiting<'_>,
        diags: &mut Diagnostics,
    ) -> Option<(Key, Option<Span>)> {
        let Some(Function::BuiltIn(b)) = self
            .functions
            .lookup(call.function.name(), call.span.map(|s| s.file))
        else {
            return None;
        };
        if !matches!(b.name, "get_property" | "available_allocation")
            || b.arity(call.args.len()).is_err()
        {
            return None;
        }
        let args = self.arguments(call, waiting, diags);
        let (reached, name) = self.aim(b, &args, &waiting.scope).ok()?;
        if !reached.exact {
            return None;
        }
        if b.name == "available_allocation" {
            let [Entity::Capability(n, c)] = &reached.entities[..] else {
                return None;
            };
            self.available.and_then(|f| f(*n, c, &name))?;
            return match self.find_property(&reached.entities[0], &name) {
                Found::Waits(key) => Some((key, self.site(call).name)),
                _ => None,
            };
        }
        let path = &args[reached.end + 1..];
        while let Some(entity) = reached.entities.get(waiting.entity) {
            match self.find_property(entity, &name) {
                Found::Waits(key) => return Some((key, self.site(call).name)),
                Found::Value(v) if !v.has_call() && nested(&v, path).is_some() => {
                    waiting.entity += 1;
                }
                _ => return None,
            }
        }
        None
    }

    /// The arguments of `call` evaluated: as written when no call is among them, else
    /// evaluated now, reporting, and kept for the evaluation of the value that holds them.
    fn arguments(
        &mut self,
        call: &Call,
        waiting: &mut Waiting<'_>,
        diags: &mut Diagnostics,
    ) -> Vec<Value> {
        if !call.args.iter().any(Value::has_call) {
            return call.args.clone();
        }
        let id = call_id(call);
        if let Some(args) = waiting.args.get(&id) {
            return args.clone();
        }
        let scope = waiting.scope.clone();
        let given = std::mem::take(&mut waiting.args);
        let saved = std::mem::replace(&mut self.given_args, given);
        let args: Vec<Value> = call
            .args
            .iter()
            .map(|a| self.value(a, &scope, diags))
            .collect();
        waiting.args = std::mem::replace(&mut self.given_args, saved);
        waiting.args.insert(id, args.clone());
        args
    }

    /// Runs `evaluate` with the arguments `done` computed while it waited given to the calls
    /// they belong to, so each is evaluated once.
    fn given(
        &mut self,
        done: Waiting<'_>,
        evaluate: impl FnOnce(&mut Self, &mut Diagnostics) -> Value,
        diags: &mut Diagnostics,
    ) -> Value {
        let saved = std::mem::replace(&mut self.given_args, done.args);
        let value = evaluate(self, diags);
        self.given_args = saved;
        value
    }

    /// One evaluation of a property, once what it reads is evaluated (see [`Self::force`]).
    pub(super) fn evaluate_property(&mut self, key: &Key, diags: &mut Diagnostics) -> Value {
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
    pub(super) fn settle(
        &mut self,
        raw: &Value,
        scope: &Scope,
        expected: Option<String>,
        diags: &mut Diagnostics,
    ) -> Value {
        if !raw.has_call() {
            return raw.clone();
        }
        let mut waiting = self.waiting(None, raw, scope.clone());
        while let Some((dep, _)) = self.next_read(&mut waiting, diags) {
            self.force(dep, diags);
        }
        self.given(
            waiting,
            |eval, diags| eval.slot(raw, scope, expected, diags),
            diags,
        )
    }

    /// A whole property, attribute or output value, its result checked against `expected`.
    pub(super) fn slot(
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

    /// The value of property `name` of a node, capability or relationship, evaluated; `None`
    /// when it has none before deployment. Whatever reads it waited for it to be evaluated
    /// (see [`Self::force`]), unless it is part of a loop.
    pub(super) fn read_property(&mut self, entity: &Entity, name: &str) -> Option<Value> {
        match self.find_property(entity, name) {
            Found::Value(value) => Some(value),
            Found::Nothing | Found::Waits(_) => None,
        }
    }

    /// What a read of property `name` of `entity` finds.
    fn find_property(&self, entity: &Entity, name: &str) -> Found {
        let key = match entity {
            Entity::Node(n) => Key::Node(*n, name.to_string()),
            Entity::Capability(n, c) => Key::Capability(*n, c.clone(), name.to_string()),
            Entity::Relationship(r) => Key::Relationship(*r, name.to_string()),
            Entity::Open(open) => {
                return match open.properties.get(name).filter(|v| !v.has_call()) {
                    Some(value) => Found::Value(value.clone()),
                    None => Found::Nothing,
                };
            }
            _ => return Found::Nothing,
        };
        let Some(raw) = self.raw_property(&key) else {
            return Found::Nothing;
        };
        if !raw.has_call() {
            return Found::Value(raw.clone());
        }
        match self.memo.get(&key) {
            Some(Memo::Done(value)) => Found::Value(value.clone()),
            Some(Memo::Looped) => Found::Nothing,
            None => Found::Waits(key),
        }
    }

    pub(super) fn label(&self, key: &Key) -> String {
        let topology = self.graph.topology;
        match key {
            Key::Node(n, p) => format!("{}.{p}", topology.nodes[n.index()].name),
            Key::Capability(n, c, p) => format!("{}.{c}.{p}", topology.nodes[n.index()].name),
            Key::Relationship(r, p) => format!("{}.{p}", topology.relationships[r.index()].name),
        }
    }
}

/// What `SELF` is in the value of property `key`.
fn key_scope(key: &Key) -> Scope {
    match key {
        Key::Node(n, _) | Key::Capability(n, ..) => Scope::Node(*n),
        Key::Relationship(r, _) => Scope::Relationship(*r),
    }
}

/// The calls in `value` that may read a property (any function: which one a name means is
/// decided where it is read), in the order evaluation meets them: a call's arguments first.
fn reads_in<'v>(value: &'v Value, out: &mut Vec<&'v Call>) {
    match value {
        Value::List(items) => items.iter().for_each(|v| reads_in(v, out)),
        Value::Map(map) => map.values().for_each(|v| reads_in(v, out)),
        Value::Call(call) => {
            call.args.iter().for_each(|v| reads_in(v, out));
            out.push(call);
        }
        _ => {}
    }
}

/// Which call this is, for as long as the value holding it is evaluated: its address.
pub(super) fn call_id(call: &Call) -> usize {
    call as *const Call as usize
}
