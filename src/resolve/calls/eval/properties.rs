//! The properties `$get_property` reads, each evaluated once, in the order the reads need:
//! an evaluation that needs a property not evaluated yet is done again after it, and a loop is
//! an error.

use std::collections::HashSet;

use super::{Evaluator, Key, Memo, Site};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Value;
use crate::model::TypeKind;
use crate::resolve::calls::path::{Entity, Scope};

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

    /// Evaluates property `key` and every property it reads first, without recursion: a chain
    /// of `$get_property` as long as the topology is large must not exhaust the stack. An
    /// evaluation that needs a property not evaluated yet is dropped (its diagnostics too) and
    /// done again once that property is; a property needed while it is being evaluated closes
    /// a loop, which is reported, and then reads as known only at deployment.
    pub(super) fn force(&mut self, key: Key, diags: &mut Diagnostics) {
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
                    self.commit_one(d, diags);
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
    /// when it has none before deployment, or when it is not evaluated yet (the evaluation
    /// underway is then blocked on it, see [`Self::force`]).
    pub(super) fn read_property(
        &mut self,
        entity: &Entity,
        name: &str,
        site: &Site,
    ) -> Option<Value> {
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

    pub(super) fn label(&self, key: &Key) -> String {
        let topology = self.graph.topology;
        match key {
            Key::Node(n, p) => format!("{}.{p}", topology.nodes[n.index()].name),
            Key::Capability(n, c, p) => format!("{}.{c}.{p}", topology.nodes[n.index()].name),
            Key::Relationship(r, p) => format!("{}.{p}", topology.relationships[r.index()].name),
        }
    }
}
