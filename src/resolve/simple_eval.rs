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
use crate::ir::{Call, Function, NodeId, RelationshipId, Topology, Value};
use crate::ir::{Hosting, Shared};

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
    /// Properties holding a call, evaluated (`None`: not known before deployment, or the same
    /// value would mean something else where it is read).
    known: FastMap<Slot, Option<Value>>,
    /// Properties being evaluated or waiting for the properties they read: reaching one again
    /// is a loop, reported by [`super::functions`].
    visiting: FastSet<Slot>,
    /// Each property evaluated, in the order it was, as written back into the topology.
    settled: Vec<(Slot, Value)>,
}

/// A property whose evaluation waits for the properties it reads: the `get_property` calls
/// in its value, in the order evaluation meets them (arguments first), and how many of them
/// are known to read something evaluated already.
struct Waiting<'t> {
    slot: Slot,
    reads: Vec<&'t Call>,
    next: usize,
}

/// Evaluates every Simple Profile call whose value is known, in place.
///
/// The properties `get_property` reads come first, each evaluated once, after the properties
/// it reads (the calls in a value are data: which property each reads is known before it is
/// evaluated), so every diagnostic is reported once, where the value it is about is evaluated.
/// Then the values nothing reads (attributes, interface inputs, artifacts, outputs, groups and
/// policies), which find every property they read evaluated.
pub fn evaluate(topology: &mut Topology, patterns: &Patterns, diags: &mut Diagnostics) {
    let mut eval = Evaluator {
        patterns,
        names: super::nodes::owned_index(topology),
        hosting: Hosting::new(topology),
        known: FastMap::default(),
        visiting: FastSet::default(),
        settled: Vec::new(),
    };
    for slot in slots_with_calls(topology) {
        eval.settle(slot, topology, diags);
    }
    for (slot, value) in std::mem::take(&mut eval.settled) {
        write_back(topology, slot, value);
    }
    for n in 0..topology.nodes.len() {
        let place = Place::Node(NodeId::from_index(n));
        for_each_value(
            topology,
            |t| values_of(t.nodes[n].call_maps_beside_properties_mut()),
            place,
            &mut eval,
            diags,
        );
    }
    for r in 0..topology.relationships.len() {
        let place = Place::Relationship(RelationshipId::from_index(r));
        for_each_value(
            topology,
            |t| values_of(t.relationships[r].call_maps_beside_properties_mut()),
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

/// Every property `get_property` may read that holds a call, node by node (its properties,
/// then each capability's), then relationship by relationship.
fn slots_with_calls(topology: &Topology) -> Vec<Slot> {
    let with_calls = |map: &IndexMap<String, Value>| -> Vec<String> {
        map.iter()
            .filter(|(_, v)| v.has_call())
            .map(|(k, _)| k.clone())
            .collect()
    };
    let mut slots = Vec::new();
    for (n, node) in topology.nodes.iter().enumerate() {
        let id = NodeId::from_index(n);
        for name in with_calls(&node.properties) {
            slots.push(Slot::Node(id, None, name));
        }
        for (cap, capability) in &node.capabilities {
            for name in with_calls(&capability.properties) {
                slots.push(Slot::Node(id, Some(cap.clone()), name));
            }
        }
    }
    for (r, rel) in topology.relationships.iter().enumerate() {
        let id = RelationshipId::from_index(r);
        for name in with_calls(&rel.properties) {
            slots.push(Slot::Relationship(id, name));
        }
    }
    slots
}

/// Writes the evaluated `value` of `slot` into the topology; a capability stays shared with
/// its type's others unless its value changed.
fn write_back(topology: &mut Topology, slot: Slot, value: Value) {
    match slot {
        Slot::Node(n, None, name) => {
            topology.nodes[n.index()].properties.insert(name, value);
        }
        Slot::Node(n, Some(cap), name) => {
            if let Some(capability) = topology.nodes[n.index()].capabilities.get_mut(&cap)
                && capability.properties.get(&name) != Some(&value)
            {
                Shared::make_mut(capability).properties.insert(name, value);
            }
        }
        Slot::Relationship(r, name) => {
            topology.relationships[r.index()]
                .properties
                .insert(name, value);
        }
    }
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
            let evaluated = eval.value(&value, place, topology, &mut Some(&mut *diags));
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

/// The `get_property` calls in `value`, in the order evaluation meets them: a call's
/// arguments before the call.
fn reads_in<'t>(value: &'t Value, out: &mut Vec<&'t Call>) {
    match value {
        Value::List(items) => items.iter().for_each(|v| reads_in(v, out)),
        Value::Map(map) => map.values().for_each(|v| reads_in(v, out)),
        Value::Call(call) => {
            call.args.iter().for_each(|v| reads_in(v, out));
            if call.function == Function::GetProperty {
                out.push(call);
            }
        }
        _ => {}
    }
}

impl Evaluator<'_> {
    /// Evaluates property `slot`, reporting, once every property it reads is: depth first
    /// without recursion (a chain of `get_property` as long as the topology is large must not
    /// exhaust the stack). A property read while it waits closes a loop: the read stays a
    /// call (the loop is reported by [`super::functions`]).
    fn settle(&mut self, slot: Slot, topology: &Topology, diags: &mut Diagnostics) {
        if !self.waits(&slot, topology) {
            return;
        }
        let mut stack = vec![self.waiting(slot, topology)];
        while let Some(top) = stack.last_mut() {
            let place = top.slot.place();
            let mut next = None;
            while let Some(&call) = top.reads.get(top.next) {
                top.next += 1;
                if let Some(read) = self.read_by(call, place, topology)
                    && self.waits(&read, topology)
                {
                    next = Some(read);
                    break;
                }
            }
            if let Some(read) = next {
                let waiting = self.waiting(read, topology);
                stack.push(waiting);
                continue;
            }
            let Some(done) = stack.pop() else { break };
            let value = match self.raw(&done.slot, topology) {
                Some(raw) => self.value(raw, place, topology, &mut Some(&mut *diags)),
                None => Value::Null,
            };
            self.visiting.remove(&done.slot);
            self.known
                .insert(done.slot.clone(), Some(value.clone()).filter(context_free));
            self.settled.push((done.slot, value));
        }
    }

    /// Whether `slot` holds a call and is neither evaluated nor waiting already.
    fn waits(&self, slot: &Slot, topology: &Topology) -> bool {
        self.raw(slot, topology).is_some_and(Value::has_call)
            && !self.known.contains_key(slot)
            && !self.visiting.contains(slot)
    }

    /// `slot` waiting for what it reads (see [`Self::settle`]).
    fn waiting<'t>(&mut self, slot: Slot, topology: &'t Topology) -> Waiting<'t> {
        let mut reads = Vec::new();
        if let Some(raw) = self.raw(&slot, topology) {
            reads_in(raw, &mut reads);
        }
        self.visiting.insert(slot.clone());
        Waiting {
            slot,
            reads,
            next: 0,
        }
    }

    /// The property a `get_property` call written at `place` reads. Its arguments are mostly
    /// written out; computed ones are evaluated without reporting (they are reported where the
    /// value holding the call is evaluated), after the properties they read themselves (which
    /// come before the call in [`reads_in`]).
    fn read_by(&mut self, call: &Call, place: Place, topology: &Topology) -> Option<Slot> {
        if !call.args.iter().any(Value::has_call) {
            return self
                .slot_of(&call.args, place, topology)
                .map(|(slot, _)| slot);
        }
        let args: Vec<Value> = call
            .args
            .iter()
            .map(|a| self.value(a, place, topology, &mut None))
            .collect();
        self.slot_of(&args, place, topology).map(|(slot, _)| slot)
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
            Function::GetProperty => match self.property(&args, place, topology) {
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
    fn property(&mut self, args: &[Value], place: Place, topology: &Topology) -> Option<Value> {
        let (slot, rest) = self.slot_of(args, place, topology)?;
        self.reached(&slot, &args[rest..], topology)
    }

    /// The property a `get_property` with (evaluated) `args` reads, and where the path inside
    /// its value begins among `args`.
    fn slot_of(&self, args: &[Value], place: Place, topology: &Topology) -> Option<(Slot, usize)> {
        let entity = args.first()?.as_str()?;
        let names: Vec<&str> = args[1..].iter().map_while(Value::as_str).collect();
        let (first, second) = (*names.first()?, names.get(1).copied());
        let nodes: Vec<NodeId> = match (entity, place) {
            ("SELF", Place::Node(n)) => vec![n],
            ("SELF", Place::Relationship(r)) => {
                return Some((Slot::Relationship(r, first.to_string()), 2));
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
                    3,
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
                        3,
                    )
                }
                _ => (Slot::Node(node, None, first.to_string()), 2),
            };
            if self.holds(&slot, topology) {
                return Some((slot, rest));
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

    /// The evaluated value of `slot`, then `path` inside it; `None` unless fully known. A
    /// property with a call is evaluated before whatever reads it (see [`Self::settle`]), so
    /// one not evaluated yet is one that waits: the read closes a loop.
    fn reached(&self, slot: &Slot, path: &[Value], topology: &Topology) -> Option<Value> {
        let raw = self.raw(slot, topology)?;
        let value = if raw.has_call() {
            self.known.get(slot)?.as_ref()?
        } else {
            raw
        };
        nested(value, path).filter(context_free)
    }
}

impl Slot {
    /// Who `SELF` is in the property's value.
    fn place(&self) -> Place {
        match self {
            Slot::Node(n, ..) => Place::Node(*n),
            Slot::Relationship(r, _) => Place::Relationship(*r),
        }
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
