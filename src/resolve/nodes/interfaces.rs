//! A node's interfaces: the ones its type chain defines merged along the chain, then the
//! template's assignments; their operations, parameters and implementations.

use indexmap::IndexMap;

use crate::diag::Diagnostics;
use crate::ir::{Implementation, Interface, Interfaces, Operation, Shared, TypeNames, Value};
use crate::model::{TypeDef, TypeKind};
use crate::resolve::map_values;
use crate::resolve::type_parts::{Chain, ChainRef};
use crate::yaml::{Map, Node as Yaml};

use super::{NodeBuilder, defs_complete};

impl<'a> NodeBuilder<'a> {
    pub fn interfaces(
        &mut self,
        defs: &[&TypeDef],
        assigned: Option<&Yaml>,
        diags: &mut Diagnostics,
    ) -> Interfaces {
        let mut out = self.chain_interfaces(defs, diags);
        self.assigned_interfaces(&mut out, defs, assigned, diags);
        out
    }

    /// [`Self::type_interfaces`], worked out once per type chain when that reports nothing and
    /// names no file (see [`TypeParts::interfaces`]); otherwise for every template, as before,
    /// with what it reports passed on once (`TypeParts::interface_reports`).
    pub(super) fn chain_interfaces(
        &mut self,
        defs: &[&TypeDef],
        diags: &mut Diagnostics,
    ) -> Interfaces {
        if let Some(known) = self.type_parts.interfaces.get(&ChainRef(defs)) {
            return crate::ir::clone_exact(known);
        }
        let files_before = self.files_named.get();
        let mut found = Diagnostics::new();
        let interfaces = self.type_interfaces(defs, &mut found);
        let clean = found.reported() == 0 && self.files_named.get() == files_before;
        for d in found.finish() {
            let key = (d.code, d.span, d.message.clone());
            if self.type_parts.interface_reports.insert(key) {
                diags.push(d);
            }
        }
        if clean {
            self.type_parts
                .interfaces
                .insert(Chain::of(defs), interfaces.clone());
        }
        interfaces
    }

    /// The interfaces a type chain defines, merged along the chain: what [`Self::interfaces`]
    /// starts from before a template's assignments.
    pub fn type_interfaces(&mut self, defs: &[&TypeDef], diags: &mut Diagnostics) -> Interfaces {
        let mut out = Interfaces::new();
        let defined = defs
            .iter()
            .rev()
            .filter_map(|d| d.def.as_map().and_then(|m| m.get("interfaces")));
        for section in defined {
            self.interface_section(&mut out, defs, section, false, diags);
        }
        out
    }

    /// A template's `interfaces` assignments merged into its type's `out`.
    pub fn assigned_interfaces(
        &mut self,
        out: &mut Interfaces,
        defs: &[&TypeDef],
        assigned: Option<&Yaml>,
        diags: &mut Diagnostics,
    ) {
        if let Some(section) = assigned {
            self.interface_section(out, defs, section, true, diags);
        }
    }

    pub(super) fn interface_section(
        &mut self,
        out: &mut Interfaces,
        defs: &[&TypeDef],
        section: &Yaml,
        is_assignment: bool,
        diags: &mut Diagnostics,
    ) {
        let Some(map) = crate::model::shape::map(section, "`interfaces`", diags) else {
            return;
        };
        for entry in map.entries() {
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            let Some(body) = entry.value.as_map() else {
                continue;
            };
            let name = if is_assignment && defs_complete(self.model, defs) {
                match crate::resolve::interfaces::assigned_name(name, &entry.key, out, diags) {
                    Some(name) => {
                        let interface = &out[name.as_str()];
                        crate::resolve::interfaces::check_operations(
                            self.model, interface, body, diags,
                        );
                        name
                    }
                    None => continue,
                }
            } else {
                name.to_string()
            };
            let interface = out.entry(name).or_insert_with(|| {
                Shared::new(Interface {
                    type_name: None,
                    types: TypeNames::default(),
                    inputs: IndexMap::new(),
                    operations: IndexMap::new(),
                    notifications: IndexMap::new(),
                })
            });
            // Copied first when it is the type's, shared with the type's other elements.
            self.interface_body(Shared::make_mut(interface), body, diags);
        }
    }

    pub(super) fn interface_body(
        &mut self,
        interface: &mut Interface,
        body: &Map,
        diags: &mut Diagnostics,
    ) {
        if let Some(t) = body.get("type")
            && let Some(name) = t.scalar_text()
        {
            interface.types =
                self.ancestry
                    .of(self.model, TypeKind::Interface, name, t.span, diags);
            interface.type_name = Some(name.to_string());
        }
        if let Some(inputs) = body.get("inputs") {
            interface
                .inputs
                .extend(self.parameter_values(inputs, diags));
        }
        for entry in body.entries() {
            let Some(key) = entry.key.scalar_text() else {
                continue;
            };
            match key {
                "type" | "inputs" | "description" | "derived_from" | "metadata" => {}
                "operations" | "notifications" => {
                    let Some(ops) = entry.value.as_map() else {
                        continue;
                    };
                    for op in ops.entries() {
                        let Some(name) = op.key.scalar_text() else {
                            continue;
                        };
                        let target = if key == "operations" {
                            &mut interface.operations
                        } else {
                            &mut interface.notifications
                        };
                        let merged = self.operation(target.shift_remove(name), &op.value, diags);
                        target.insert(name.to_string(), merged);
                    }
                }
                name => {
                    let merged = self.operation(
                        interface.operations.shift_remove(name),
                        &entry.value,
                        diags,
                    );
                    interface.operations.insert(name.to_string(), merged);
                }
            }
        }
    }

    /// Input definitions (in types) give their default or value; assignments give the value.
    pub(super) fn parameter_values(
        &self,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        let mut out = IndexMap::new();
        let Some(map) = node.as_map() else { return out };
        for entry in map.entries() {
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            let value = match entry.value.as_map() {
                Some(def) if def.contains_key("type") && !self.reader.is_call(&entry.value) => {
                    match def.get("value").or_else(|| def.get("default")) {
                        Some(v) => self.reader.value(v, diags),
                        None => continue,
                    }
                }
                _ => self.reader.value(&entry.value, diags),
            };
            out.insert(name.to_string(), value);
        }
        out
    }

    pub(super) fn operation(
        &mut self,
        inherited: Option<Operation>,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> Operation {
        let mut op = inherited.unwrap_or(Operation {
            description: None,
            implementation: None,
            inputs: IndexMap::new(),
            outputs: IndexMap::new(),
        });
        if let Some(file) = node.as_str() {
            op.implementation = Some(Box::new(self.implementation_from_file(file, node, diags)));
            return op;
        }
        let Some(map) = node.as_map() else { return op };
        if let Some(d) = map.get("description").and_then(|d| d.scalar_text()) {
            op.description = Some(d.to_string());
        }
        if let Some(inputs) = map.get("inputs") {
            op.inputs.extend(self.parameter_values(inputs, diags));
        }
        if let Some(outputs) = map.get("outputs") {
            op.outputs
                .extend(map_values(self.reader, outputs, "`outputs`", diags));
        }
        if let Some(implementation) = map.get("implementation") {
            op.implementation = Some(Box::new(self.implementation(implementation, diags)));
        }
        op
    }

    pub(super) fn implementation_from_file(
        &mut self,
        file: &str,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> Implementation {
        Implementation {
            primary: Some(self.file_artifact(file, file, node, diags)),
            dependencies: Vec::new(),
            timeout: None,
            operation_host: None,
        }
    }

    /// The `implementation` of a custom function's signature (§10.4 Function Definitions): an
    /// operation's implementation with no node around it, so `primary` and `dependencies` name
    /// files or inline artifact definitions, never a node's artifacts.
    pub fn function_implementation(
        &mut self,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> Implementation {
        let artifacts = std::mem::take(&mut self.artifacts);
        let implementation = self.implementation(node, diags);
        self.artifacts = artifacts;
        implementation
    }

    pub(super) fn implementation(
        &mut self,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> Implementation {
        if let Some(file) = node.as_str() {
            return self.implementation_from_file(file, node, diags);
        }
        let mut implementation = Implementation {
            primary: None,
            dependencies: Vec::new(),
            timeout: None,
            operation_host: None,
        };
        let Some(map) = node.as_map() else {
            return implementation;
        };
        if let Some(primary) = map.get("primary") {
            implementation.primary = self.artifact_ref(primary, diags);
        }
        if let Some(deps) = map.get("dependencies").and_then(Yaml::as_seq) {
            implementation.dependencies = deps
                .iter()
                .filter_map(|d| self.artifact_ref(d, diags))
                .collect();
        }
        if let Some(crate::yaml::Core::Int(t)) = map
            .get("timeout")
            .and_then(|t| t.as_scalar())
            .map(|s| s.core)
        {
            implementation.timeout = Some(t);
        }
        implementation.operation_host = map
            .get("operation_host")
            .and_then(|h| h.scalar_text())
            .map(str::to_string);
        implementation
    }
}
