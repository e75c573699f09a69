//! Which values of the topology this pass evaluates, and what `SELF` means in each: nodes,
//! their capabilities, interfaces and artifacts, relationships, groups, policies and outputs.

use indexmap::IndexMap;

use super::{Evaluator, Key};
use crate::diag::Diagnostics;
use crate::ir::{NodeId, RelationshipId, Shared, Topology, Value};
use crate::model::TypeKind;
use crate::resolve::calls::path::Scope;

impl<'m, 't> Evaluator<'_, '_, 'm, 't> {
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
    pub(super) fn selection_filter(
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
    pub(super) fn attributes(
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

    pub(super) fn values(
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
    pub(super) fn interfaces(
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
}
