//! The not-translated ledger: which parts of each element a translation used, so that whatever
//! it did not use is said (`backend::not-translated`) instead of silently dropped (issue 26,
//! "nothing silently dropped").
//!
//! Two readers feed it. A backend's Rust reads the IR through the ledger's accessors
//! ([`Ledger::property`], [`Ledger::artifact`], [`Ledger::capability`] key by key, ...), which
//! record the read as they return the value, so what is recorded is what the code really
//! looked at; a read that bypasses them is
//! one the ledger does not see, which errs towards a warning, never towards silence. Templates
//! are read when the backend loads ([`super::reads`]): Tera has no hook on a lookup, and a list
//! of keys declared beside each rule would drift from its template, so the engine works the
//! keys out of the template's own text.
//!
//! [`super::Engine::account`] then compares, per element a rule takes, what it holds with
//! what was used (see [`accountable`]):
//! - a node: the properties, attributes and capability properties its template assigns (a
//!   value its type defaults and nobody wrote is not dropped, whatever the backend does with
//!   it), each requirement a relationship fulfils, its artifacts, and each operation that has
//!   an implementation (`Standard.create`);
//! - a relationship: the properties it assigns and its operations with an implementation;
//! - a policy: its properties and triggers; a group: its properties; an output: itself.
//!
//! What is left, less what the rule's `ignore:` lists with a reason ([`super::super::ignores`]),
//! is one warning per element at its place, for the elements a `skip` rule takes too (with the
//! rule's reason). Elements no rule takes get `backend::skipped`.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use indexmap::IndexMap;

use crate::ir::{Artifact, Interfaces, Topology, Value};

use super::super::ElementKind;
use super::super::ignores::Part;

/// What one element had used: keys one by one, and the parts a backend accounted for as a
/// whole (see [`Ledger::accounted`]).
#[derive(Debug, Default)]
struct Used {
    keys: BTreeSet<(Part, String)>,
    whole: BTreeSet<Part>,
}

/// What a translation used of each element (see the module docs). Recording takes `&self`, so
/// the ledger can be shared by everything that reads the topology during one render.
#[derive(Debug, Default)]
pub struct Ledger {
    used: RefCell<HashMap<(ElementKind, usize), Used>>,
    /// Built on first use by [`Ledger::values_used`].
    values: RefCell<Option<ValueIndex>>,
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// Records that the translation used `key` of `part` of element `index` of `kind`.
    pub fn used(&self, kind: ElementKind, index: usize, part: Part, key: &str) {
        self.used
            .borrow_mut()
            .entry((kind, index))
            .or_default()
            .keys
            .insert((part, key.to_string()));
    }

    /// Records the element as accounted for as a whole: the backend already said, in a warning
    /// of its own, that it translates none of it.
    pub fn accounted(&self, kind: ElementKind, index: usize) {
        self.used
            .borrow_mut()
            .entry((kind, index))
            .or_default()
            .whole
            .extend(Part::ALL);
    }

    /// Whether the translation used `key` of `part` of the element.
    pub fn was_used(&self, kind: ElementKind, index: usize, part: Part, key: &str) -> bool {
        self.used
            .borrow()
            .get(&(kind, index))
            .is_some_and(|u| u.whole.contains(&part) || u.keys.contains(&(part, key.to_string())))
    }

    /// Property `name` of node `node`, recorded as used.
    pub fn property<'t>(
        &self,
        topology: &'t Topology,
        node: usize,
        name: &str,
    ) -> Option<&'t Value> {
        self.used(ElementKind::Node, node, Part::Property, name);
        topology.nodes[node].properties.get(name)
    }

    /// Attribute `name` of node `node`, recorded as used.
    pub fn attribute<'t>(
        &self,
        topology: &'t Topology,
        node: usize,
        name: &str,
    ) -> Option<&'t Value> {
        self.used(ElementKind::Node, node, Part::Attribute, name);
        topology.nodes[node].attributes.get(name)
    }

    /// Artifact `name` of node `node`, recorded as used.
    pub fn artifact<'t>(
        &self,
        topology: &'t Topology,
        node: usize,
        name: &str,
    ) -> Option<&'t Artifact> {
        self.used(ElementKind::Node, node, Part::Artifact, name);
        topology.nodes[node].artifacts.get(name)
    }

    /// Records that the translation turned relationship `index` into something (wiring, a
    /// mount, an attachment, a route, a placement), so the requirement it fulfils is used.
    pub fn relationship(&self, index: usize) {
        self.used(
            ElementKind::Relationship,
            index,
            Part::Requirement,
            "translated",
        );
    }

    /// Whether the translation recorded relationship `index` as turned into something.
    pub fn relationship_translated(&self, index: usize) -> bool {
        self.was_used(
            ElementKind::Relationship,
            index,
            Part::Requirement,
            "translated",
        )
    }

    /// Records that output `index` is in the output (a Terraform `output`, say).
    pub fn output(&self, index: usize) {
        self.used(ElementKind::Output, index, Part::Value, "value");
    }

    /// Property `name` of policy `policy`, recorded as used.
    pub fn policy_property<'t>(
        &self,
        topology: &'t Topology,
        policy: usize,
        name: &str,
    ) -> Option<&'t Value> {
        self.used(ElementKind::Policy, policy, Part::Property, name);
        topology.policies[policy].properties.get(name)
    }

    /// Property `name` of group `group`, recorded as used.
    pub fn group_property<'t>(
        &self,
        topology: &'t Topology,
        group: usize,
        name: &str,
    ) -> Option<&'t Value> {
        self.used(ElementKind::Group, group, Part::Property, name);
        topology.groups[group].properties.get(name)
    }
}

/// What an element holds that a translation should account for (see the module docs), in the
/// order a warning lists it.
pub(super) fn accountable(
    topology: &Topology,
    kind: ElementKind,
    index: usize,
) -> Vec<(Part, String)> {
    let mut out = Vec::new();
    match kind {
        ElementKind::Node => {
            if let Some(node) = topology.nodes.get(index) {
                node_accountable(node, &mut out);
            }
        }
        ElementKind::Relationship => {
            if let Some(r) = topology.relationships.get(index) {
                out.extend(r.assigned.iter().map(|k| (Part::Property, k.clone())));
                operations(&r.interfaces, &mut out);
            }
        }
        ElementKind::Policy => {
            let Some(policy) = topology.policies.get(index) else {
                return out;
            };
            out.extend(
                policy
                    .properties
                    .keys()
                    .map(|k| (Part::Property, k.clone())),
            );
            out.extend(policy.triggers.keys().map(|k| (Part::Trigger, k.clone())));
        }
        ElementKind::Group => {
            if let Some(group) = topology.groups.get(index) {
                out.extend(group.properties.keys().map(|k| (Part::Property, k.clone())));
            }
        }
        ElementKind::Output => {
            if topology.outputs.get(index).is_some() {
                out.push((Part::Value, "value".to_string()));
            }
        }
        // An input is bound when translating: its value is wherever the template used it.
        ElementKind::Input => {}
    }
    out
}

/// What a node template wrote: its properties, attributes and capability properties, each
/// requirement a relationship fulfils (once per name, an implicit TOSCA 2.0 one left out: the
/// template did not write it), its artifacts and its operations with an implementation.
fn node_accountable(node: &crate::ir::Node, out: &mut Vec<(Part, String)>) {
    out.extend(node.assigned.iter().map(|k| (Part::Property, k.clone())));
    out.extend(
        node.assigned_attributes
            .iter()
            .map(|k| (Part::Attribute, k.clone())),
    );
    for (name, capability) in &node.capabilities {
        out.extend(
            capability
                .assigned
                .iter()
                .map(|k| (Part::Capability, format!("{name}.{k}"))),
        );
    }
    let mut requirements = BTreeSet::new();
    for r in &node.requirements {
        if r.relationship.is_some() && !r.implicit && requirements.insert(r.name.as_str()) {
            out.push((Part::Requirement, r.name.clone()));
        }
    }
    out.extend(node.artifacts.keys().map(|k| (Part::Artifact, k.clone())));
    operations(&node.interfaces, out);
}

/// Each operation of `interfaces` that has an implementation, as `Interface.operation`.
fn operations(interfaces: &Interfaces, out: &mut Vec<(Part, String)>) {
    for (name, interface) in interfaces {
        for (op, operation) in &interface.operations {
            if operation.implementation.is_some() {
                out.push((Part::Operation, format!("{name}.{op}")));
            }
        }
    }
}

/// Where each value assigned to a node property or a capability property is, by its JSON
/// text, for [`Ledger::values_used`].
type ValueIndex = HashMap<String, Vec<(usize, Part, String)>>;

impl Ledger {
    /// Records the properties that `inputs` carry: an operation's inputs or an output's value,
    /// which the translation passes on. The IR keeps what a `get_property` evaluated to, not
    /// the call, so an input value (or a part of one, inside a list, a map or a function's
    /// arguments) equal to a value some node template assigns to a property, or to a property
    /// of one of its capabilities, counts as a read of that property. Two properties
    /// that happen to hold the same value both count: this errs towards silence, never towards a
    /// false warning.
    pub fn values_used<'v>(
        &self,
        topology: &Topology,
        inputs: impl IntoIterator<Item = &'v Value>,
    ) {
        let mut index = self.values.borrow_mut();
        let index = index.get_or_insert_with(|| {
            let mut index = ValueIndex::new();
            for (i, node) in topology.nodes.iter().enumerate() {
                for name in &node.assigned {
                    if let Some(value) = node.properties.get(name) {
                        index.entry(value_key(value)).or_default().push((
                            i,
                            Part::Property,
                            name.clone(),
                        ));
                    }
                }
                for (capability, c) in &node.capabilities {
                    for name in &c.assigned {
                        if let Some(value) = c.properties.get(name) {
                            index.entry(value_key(value)).or_default().push((
                                i,
                                Part::Capability,
                                format!("{capability}.{name}"),
                            ));
                        }
                    }
                }
            }
            index
        });
        let mut stack: Vec<&Value> = inputs.into_iter().collect();
        while let Some(value) = stack.pop() {
            for (node, part, name) in index.get(&value_key(value)).into_iter().flatten() {
                self.used(ElementKind::Node, *node, *part, name);
            }
            match value {
                Value::List(items) => stack.extend(items),
                Value::Map(map) => stack.extend(map.values()),
                Value::Call(call) => stack.extend(&call.args),
                _ => {}
            }
        }
    }
}

/// A value's identity for [`ValueIndex`]: its JSON text.
fn value_key(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// One element's map of properties (or triggers) that records each key looked up in a
/// [`Ledger`], for code that takes the map rather than the topology; [`Reader::plain`] reads
/// without recording, for tests.
#[derive(Clone, Copy)]
pub struct Reader<'t, 'l> {
    map: &'t IndexMap<String, Value>,
    record: Option<(&'l Ledger, ElementKind, usize, Part)>,
}

impl<'t, 'l> Reader<'t, 'l> {
    /// Reads `part` (`map`) of element `index` of `kind`, recording in `ledger`.
    pub fn new(
        map: &'t IndexMap<String, Value>,
        ledger: &'l Ledger,
        kind: ElementKind,
        index: usize,
        part: Part,
    ) -> Self {
        Reader {
            map,
            record: Some((ledger, kind, index, part)),
        }
    }

    /// Reads `map` without recording.
    pub fn plain(map: &'t IndexMap<String, Value>) -> Self {
        Reader { map, record: None }
    }

    /// The value of `key`, recorded as used.
    pub fn get(&self, key: &str) -> Option<&'t Value> {
        if let Some((ledger, kind, index, part)) = self.record {
            ledger.used(kind, index, part, key);
        }
        self.map.get(key)
    }

    /// What `pick` makes of the first value it takes, in the map's order; only that entry's
    /// key is recorded as used, since the caller translates that one and none of the others.
    pub fn find_map<T>(&self, mut pick: impl FnMut(&'t Value) -> Option<T>) -> Option<T> {
        self.map.iter().find_map(|(key, value)| {
            let picked = pick(value)?;
            self.get(key);
            Some(picked)
        })
    }
}
