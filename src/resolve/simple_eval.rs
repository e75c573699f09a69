//! Simple Profile functions whose value is known when the template is read, evaluated wherever
//! they are written in the IR: node and capability properties, relationship properties,
//! interface and operation inputs, artifacts, group and policy properties, and outputs.
//!
//! - `get_property: [entity, <requirement or capability>, property, <key or index>...]` (B.4.2,
//!   §B.4.2 get_property): the entity is `SELF`, a node template's name, `HOST` (the first node
//!   down the hosting chain that has what is asked for), or, in a relationship, `SOURCE` and
//!   `TARGET`. A capability name reads that capability's property; a requirement name reads the
//!   property of what the requirement's relationship targets: the target capability's, else the
//!   target node's. The value it reaches is evaluated in the context of the template that holds it,
//!   and replaces the call when it means the same where the call is written: when it is known,
//!   or an unbound `get_input` (inputs belong to the whole template). A value known only at
//!   deployment in its own place (a `get_attribute` of its own `SELF`) would mean something
//!   else, so the call stays.
//! - `concat`, `join` and `token` (B.3) of known values. The Simple Profile passes strings; as
//!   tosca-parser and Puccini do, `concat` and `join` take the text of an integer, float,
//!   boolean, scalar-unit, version or timestamp too, since YAML files of that era write `80`
//!   for a port and concatenate a `10 GB` size. A `token` index past the last token
//!   is an error at the call.
//!
//! What stays a call: `get_attribute`, `get_operation_output`, `get_artifact` and
//! `get_nodes_of_type` (which asks a running deployment for its instances, B.7.1
//! get_nodes_of_type), an unbound `get_input`, and whatever depends on them. TOSCA 2.0 files are
//! evaluated by [`super::calls`]; references are checked, and `get_property` loops reported, by
//! [`super::functions`].

use indexmap::IndexMap;

use super::calls::builtins::{Outcome, apply};
use super::patterns::Patterns;
use super::values::{computed_too_much, nested};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::{FastMap, FastSet};
use crate::ir::Hosting;
use crate::ir::{Call, Function, NodeId, RelationshipId, Topology, Value};

/// Who `SELF` is where a value is written.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Place {
    Node(NodeId),
    Relationship(RelationshipId),
    /// An output, a group or a policy: no `SELF`.
    Nowhere,
}

/// A property a `get_property` reaches: its owner, and for a node the capability it is in.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Slot {
    Node(NodeId, Option<String>, String),
    Relationship(RelationshipId, String),
}

struct Evaluator<'p> {
    /// Compiles nothing here; holds the run's budget, which every value `get_property` copies
    /// and `concat` and `join` make spends.
    patterns: &'p Patterns,
    names: FastMap<String, NodeId>,
    hosting: Hosting,
    /// Properties already evaluated (`None`: not known before deployment).
    known: FastMap<Slot, Option<Value>>,
    /// Properties being evaluated: reaching one again is a loop, reported elsewhere.
    visiting: FastSet<Slot>,
    /// How many properties deep the evaluation in progress reads (see [`MAX_DEPTH`]).
    depth: usize,
    /// Properties whose evaluation was put off at the depth limit, to be evaluated first.
    deferred: Vec<Slot>,
    /// How many evaluations were put off so far: a value computed while one was is not final.
    deferrals: usize,
}

/// How many properties deep one evaluation reads before it stops and leaves the deepest to be
/// evaluated on its own: a chain of `get_property` is followed by recursion, and a chain of
/// 5,000 properties, each reading the next, overflowed the stack. Evaluated deepest first, with
/// each result kept, a chain of any length costs each of its properties two evaluations.
const MAX_DEPTH: usize = 64;

/// Evaluates every Simple Profile call whose value is known, in place.
pub fn evaluate(topology: &mut Topology, patterns: &Patterns, diags: &mut Diagnostics) {
    let mut eval = Evaluator {
        patterns,
        names: super::nodes::owned_index(topology),
        hosting: Hosting::new(topology),
        known: FastMap::default(),
        visiting: FastSet::default(),
        depth: 0,
        deferred: Vec::new(),
        deferrals: 0,
    };
    // Each slot is evaluated against the topology as it stands, then written back: a value read
    // later is then already evaluated, which is the same value.
    for n in 0..topology.nodes.len() {
        let place = Place::Node(NodeId::from_index(n));
        for_each_value(
            topology,
            |t| values_of(t.nodes[n].call_maps_mut()),
            place,
            &mut eval,
            diags,
        );
    }
    for r in 0..topology.relationships.len() {
        let place = Place::Relationship(RelationshipId::from_index(r));
        for_each_value(
            topology,
            |t| values_of(t.relationships[r].call_maps_mut()),
            place,
            &mut eval,
            diags,
        );
    }
    for_each_value(
        topology,
        |t| {
            let mut out: Vec<&mut Value> = t.outputs.iter_mut().map(|o| &mut o.value).collect();
            for g in &mut t.groups {
                out.extend(g.properties.values_mut());
            }
            for p in &mut t.policies {
                out.extend(p.properties.values_mut());
            }
            out
        },
        Place::Nowhere,
        &mut eval,
        diags,
    );
}

/// Evaluates the values `select` picks out of the topology against the topology as it stands,
/// then writes back those that changed.
fn for_each_value(
    topology: &mut Topology,
    select: impl Fn(&mut Topology) -> Vec<&mut Value>,
    place: Place,
    eval: &mut Evaluator<'_>,
    diags: &mut Diagnostics,
) {
    let pending: Vec<(usize, Value)> = select(topology)
        .into_iter()
        .enumerate()
        .filter(|(_, v)| v.has_call())
        .map(|(i, v)| (i, v.clone()))
        .collect();
    if pending.is_empty() {
        return;
    }
    let updates: Vec<(usize, Value)> = pending
        .into_iter()
        .filter_map(|(i, value)| {
            let evaluated = eval.settled_value(&value, place, topology, diags);
            (evaluated != value).then_some((i, evaluated))
        })
        .collect();
    let mut slots = select(topology);
    for (i, value) in updates {
        *slots[i] = value;
    }
}

/// The values in `maps`, one by one.
fn values_of(maps: Vec<&mut IndexMap<String, Value>>) -> Vec<&mut Value> {
    maps.into_iter().flat_map(|m| m.values_mut()).collect()
}

impl Evaluator<'_> {
    /// `value` evaluated in full: when a chain of properties it reads is deeper than
    /// [`MAX_DEPTH`], the properties put off are evaluated first and `value` again, and only the
    /// diagnostics of that last evaluation are kept (those of the properties themselves come
    /// where each is evaluated as a value of its own).
    fn settled_value(
        &mut self,
        value: &Value,
        place: Place,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) -> Value {
        loop {
            let before = self.deferrals;
            let mut attempt = Diagnostics::with_cap(0);
            self.depth = 0;
            let evaluated = self.value(value, place, topology, &mut Some(&mut attempt));
            if self.deferrals == before {
                diags.extend(attempt.finish());
                return evaluated;
            }
            self.settle_deferred(topology);
        }
    }

    /// Evaluates the properties put off, the most recently put off (the deepest) first; one
    /// that puts off another stays until that one is known, and is evaluated again then.
    fn settle_deferred(&mut self, topology: &Topology) {
        while let Some(slot) = self.deferred.last().cloned() {
            let before = self.deferrals;
            self.depth = 0;
            // Reports nothing: what is wrong in the property is reported where it is evaluated
            // as a value of its own (`settled_value`), once it is known.
            self.reached(slot.clone(), &[], topology, &mut None);
            if (self.deferrals == before || self.known.contains_key(&slot))
                && let Some(i) = self.deferred.iter().rposition(|s| *s == slot)
            {
                self.deferred.remove(i);
            }
        }
    }

    /// `value` with every call inside it that is known evaluated.
    fn value(
        &mut self,
        value: &Value,
        place: Place,
        topology: &Topology,
        diags: &mut Option<&mut Diagnostics>,
    ) -> Value {
        match value {
            Value::List(items) if value.has_call() => Value::List(
                items
                    .iter()
                    .map(|v| self.value(v, place, topology, diags))
                    .collect(),
            ),
            Value::Map(map) if value.has_call() => Value::Map(Box::new(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.value(v, place, topology, diags)))
                    .collect(),
            )),
            Value::Call(call) => self.call(call, place, topology, diags),
            other => other.clone(),
        }
    }

    fn call(
        &mut self,
        call: &Call,
        place: Place,
        topology: &Topology,
        diags: &mut Option<&mut Diagnostics>,
    ) -> Value {
        let args: Vec<Value> = call
            .args
            .iter()
            .map(|a| self.value(a, place, topology, diags))
            .collect();
        let kept = || Value::Call(Box::new(call.with_args(args.clone())));
        match call.function {
            Function::GetProperty => match self.property(&args, place, topology, diags) {
                Some(copy) => match self.patterns.budget().compute(copy.weight()) {
                    Ok(()) => copy,
                    Err(exceeded) => {
                        if let (Some(span), Some(diags)) = (call.span, diags) {
                            diags.push(computed_too_much(
                                "get_property",
                                copy.weight(),
                                exceeded,
                                span,
                            ));
                        }
                        kept()
                    }
                },
                None => kept(),
            },
            Function::Concat | Function::Join | Function::Token => {
                let texts: Vec<Value> = match (&call.function, args.split_first()) {
                    (Function::Concat, _) => args.iter().map(as_text).collect(),
                    (Function::Join, Some((Value::List(items), rest))) => {
                        let items = Value::List(items.iter().map(as_text).collect());
                        std::iter::once(items).chain(rest.iter().cloned()).collect()
                    }
                    _ => args.clone(),
                };
                match apply(&call.function, &texts, self.patterns) {
                    Outcome::Value(v) => v,
                    Outcome::Later => kept(),
                    Outcome::Limit { message, limit } => {
                        if let (Some(span), Some(diags)) = (call.span, diags) {
                            diags.push(
                                Diagnostic::error(codes::TOSCA_LIMIT, message.replace('$', ""))
                                    .at(span)
                                    .hint(limit.hint()),
                            );
                        }
                        kept()
                    }
                    Outcome::Wrong { message, .. } => {
                        if let (Some(span), Some(diags)) = (call.span, diags) {
                            diags.push(
                                Diagnostic::error(codes::TOSCA_FUNCTION, message.replace('$', ""))
                                    .at(span),
                            );
                        }
                        kept()
                    }
                }
            }
            _ => kept(),
        }
    }

    /// The known value a `get_property` with (evaluated) `args` reaches.
    fn property(
        &mut self,
        args: &[Value],
        place: Place,
        topology: &Topology,
        diags: &mut Option<&mut Diagnostics>,
    ) -> Option<Value> {
        let entity = args.first()?.as_str()?;
        let names: Vec<&str> = args[1..].iter().map_while(Value::as_str).collect();
        let (first, second) = (*names.first()?, names.get(1).copied());
        let nodes: Vec<NodeId> = match (entity, place) {
            ("SELF", Place::Node(n)) => vec![n],
            ("SELF", Place::Relationship(r)) => {
                let slot = Slot::Relationship(r, first.to_string());
                return self.reached(slot, &args[2..], topology, diags);
            }
            ("SOURCE", Place::Relationship(r)) => vec![topology.relationships[r.index()].source],
            ("TARGET", Place::Relationship(r)) => vec![topology.relationships[r.index()].target],
            ("HOST", Place::Node(n)) => self.hosts(n),
            ("SELF" | "SOURCE" | "TARGET" | "HOST", _) => return None,
            (name, _) => vec![*self.names.get(name)?],
        };
        // HOST: the first host that has what is asked for.
        for node in nodes {
            let ir = &topology.nodes[node.index()];
            let (slot, rest) = match second {
                Some(name) if ir.capabilities.contains_key(first) => (
                    Slot::Node(node, Some(first.to_string()), name.to_string()),
                    &args[3..],
                ),
                Some(name) if ir.requirements.iter().any(|r| r.name == first) => {
                    let rel = ir
                        .requirements
                        .iter()
                        .filter(|r| r.name == first)
                        .find_map(|r| r.relationship)?;
                    let rel = &topology.relationships[rel.index()];
                    let target = &topology.nodes[rel.target.index()];
                    let in_capability = rel.capability.as_ref().filter(|c| {
                        target
                            .capabilities
                            .get(c.as_str())
                            .is_some_and(|cap| cap.properties.contains_key(name))
                    });
                    (
                        Slot::Node(rel.target, in_capability.cloned(), name.to_string()),
                        &args[3..],
                    )
                }
                _ => (Slot::Node(node, None, first.to_string()), &args[2..]),
            };
            if self.holds(&slot, topology) {
                return self.reached(slot, rest, topology, diags);
            }
        }
        None
    }

    /// The nodes down the hosting chain of `node`, nearest first.
    fn hosts(&self, node: NodeId) -> Vec<NodeId> {
        let mut chain = Vec::new();
        let mut at = self.hosting.host(node);
        while let Some(host) = at.filter(|h| !chain.contains(h)) {
            chain.push(host);
            at = self.hosting.host(host);
        }
        chain
    }

    fn holds(&self, slot: &Slot, topology: &Topology) -> bool {
        self.raw(slot, topology).is_some()
    }

    /// The value of `slot` as the IR holds it.
    fn raw<'t>(&self, slot: &Slot, topology: &'t Topology) -> Option<&'t Value> {
        match slot {
            Slot::Node(n, None, name) => topology.nodes[n.index()].properties.get(name),
            Slot::Node(n, Some(cap), name) => topology.nodes[n.index()]
                .capabilities
                .get(cap)?
                .properties
                .get(name),
            Slot::Relationship(r, name) => topology.relationships[r.index()].properties.get(name),
        }
    }

    /// The evaluated value of `slot`, then `path` inside it; `None` unless fully known.
    fn reached(
        &mut self,
        slot: Slot,
        path: &[Value],
        topology: &Topology,
        diags: &mut Option<&mut Diagnostics>,
    ) -> Option<Value> {
        if let Some(known) = self.known.get(&slot) {
            return known.as_ref().and_then(|v| nested(v, path));
        }
        if self.depth >= MAX_DEPTH {
            if self.deferred.contains(&slot) {
                // Put off already, and read again while it waits: a loop longer than the depth
                // (reported by `functions`).
                return None;
            }
            // Put off, not settled: it is evaluated on its own (and its reader again) later.
            self.deferrals += 1;
            self.deferred.push(slot);
            return None;
        }
        if !self.visiting.insert(slot.clone()) {
            return None; // a loop, reported by `functions`
        }
        let place = match &slot {
            Slot::Node(n, ..) => Place::Node(*n),
            Slot::Relationship(r, _) => Place::Relationship(*r),
        };
        let before = self.deferrals;
        self.depth += 1;
        let value = self
            .raw(&slot, topology)
            .map(|v| self.value(v, place, topology, diags))
            .filter(context_free);
        self.depth -= 1;
        self.visiting.remove(&slot);
        let out = value.as_ref().and_then(|v| nested(v, path));
        if self.deferrals == before {
            self.known.insert(slot, value);
        }
        out.filter(context_free)
    }
}

/// Whether `value` means the same wherever it is written: it is known, or what is left of it
/// is `get_input` of an unbound input (inputs belong to the whole template), which a backend
/// turns into its own variable.
fn context_free(value: &Value) -> bool {
    match value {
        Value::Call(call) => {
            call.function == Function::GetInput && !call.args.iter().any(Value::has_call)
        }
        Value::List(items) => items.iter().all(context_free),
        Value::Map(map) => map.values().all(context_free),
        _ => true,
    }
}

/// A Simple Profile `concat` or `join` argument: the text of a number, boolean, scalar-unit,
/// version or timestamp (a scalar-unit and a version as written: `10 GB`, `1.10`), else the
/// value.
fn as_text(value: &Value) -> Value {
    match value {
        Value::Integer(i) => Value::String(i.to_string()),
        Value::Float(f) => Value::String(f.to_string()),
        Value::Boolean(b) => Value::String(b.to_string()),
        Value::Scalar(s) => Value::String(s.text.clone()),
        Value::Version(v) => Value::String(v.text.clone()),
        Value::Timestamp(t) => Value::String(t.clone()),
        other => other.clone(),
    }
}
