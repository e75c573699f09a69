//! Node templates with their types merged in: properties, attributes, capabilities, interfaces
//! and artifacts.

use std::borrow::Cow;

use indexmap::IndexMap;

use super::patterns::Patterns;
use super::type_parts::{Chain, ChainRef, Replayed, TypeParts};
use super::types::{Ancestry, definitions};
use super::typing::{DefinitionsCache, Typing};
use super::values::ValueReader;
use super::{Context, Locator, map_values, metadata_values, paths};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::FastMap;
use crate::ir::{
    Artifact, Capability, Implementation, InstanceBounds, Interface, Interfaces, Node, NodeId,
    NodeSelection, Operation, Shared, Topology, TypeNames, Value, type_matches,
};
use crate::model::{Model, Named, TopologyTemplate, TypeDef, TypeKind};
use crate::source::{FileId, Span};
use crate::yaml::{Kind, Map, Node as Yaml};

/// Shared state of the node-level passes.
pub struct NodeBuilder<'a> {
    pub model: &'a Model,
    pub ctx: &'a Context<'a>,
    pub reader: &'a ValueReader<'a>,
    pub locator: &'a Locator,
    pub ancestry: &'a mut Ancestry,
    /// The folder artifact paths are relative to (`None` for input read from stdin-less
    /// builtins).
    pub root: Option<String>,
    /// The artifacts of the node being built, so an operation naming one (`create: installer`)
    /// uses it instead of reading the name as a file.
    pub artifacts: IndexMap<String, Artifact>,
    /// `pattern` constraints compiled once for the whole run.
    pub patterns: Patterns,
    /// Each type chain's property and attribute definitions, merged once for all its templates.
    pub definitions: DefinitionsCache<'a>,
    /// Each node type's requirement definitions, merged once for all the relationships of its
    /// templates.
    pub requirement_definitions: super::assignments::DefinitionCache<'a>,
    /// Each type chain's capabilities and each definition set's typed defaults, worked out once
    /// for all its templates.
    pub type_parts: TypeParts,
    /// Where a missing artifact file was reported: a type's artifact is built again for every
    /// template of the type, and reported once.
    pub missing_files_reported: std::cell::RefCell<std::collections::HashSet<Span>>,
    /// How many implementations named a file so far ([`Self::file_artifact`]): interfaces
    /// worked out without one depend on their type chain alone.
    pub files_named: std::cell::Cell<usize>,
    /// Each artifact file's path by the file that names it and the name it is given there
    /// ([`Self::artifact_path`]): every template of a type names its type's scripts again.
    pub artifact_paths: std::cell::RefCell<FastMap<(FileId, String), Option<String>>>,
}

/// The keys a template writes in one of its sections (`properties`, `attributes`), in the order
/// written: what the not-translated ledger tells from the type's defaults.
pub fn written_keys(section: Option<&Yaml>) -> Vec<String> {
    section
        .and_then(Yaml::as_map)
        .map(|m| {
            m.entries()
                .iter()
                .filter_map(|e| e.key.scalar_text().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether directives make the resolver select the node rather than create it: `select`
/// (the Simple Profile 1.0 drafts' `selectable`) tried before `create`, since directives are
/// tried in order and `create` always succeeds (§7.2.1 Node Template Directives). Returns the
/// directives tried when selection finds nothing.
pub fn selection(directives: &[String]) -> Option<Vec<String>> {
    let at = directives
        .iter()
        .take_while(|d| *d != "create")
        .position(|d| d == "select" || d == "selectable")?;
    Some(directives[at + 1..].to_vec())
}

/// Node template name → id, built once.
pub fn index(topology: &Topology) -> FastMap<&str, NodeId> {
    topology
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), NodeId::from_index(i)))
        .collect()
}

/// [`index`] with names of its own, for a pass that changes the topology while it looks names up.
pub fn owned_index(topology: &Topology) -> FastMap<String, NodeId> {
    index(topology)
        .into_iter()
        .map(|(name, id)| (name.to_string(), id))
        .collect()
}

impl<'a> NodeBuilder<'a> {
    pub fn build(
        &mut self,
        template: &TopologyTemplate,
        topology: &mut Topology,
        diags: &mut Diagnostics,
    ) {
        topology.nodes.reserve(template.node_templates.len());
        for named in &template.node_templates {
            let node = self.node(named, diags);
            topology.nodes.push(node);
        }
    }

    /// The type name of a template (`type:`), reported when missing.
    pub fn type_of(
        &self,
        named: &Named,
        what: &str,
        diags: &mut Diagnostics,
    ) -> Option<(String, Span)> {
        let def = named.def.as_map()?;
        match def.get("type") {
            Some(t) => match t.scalar_text() {
                Some(s) => Some((s.to_string(), t.span)),
                None => {
                    diags.push(crate::model::shape::wrong_shape(
                        t,
                        &format!("`type` of {what} `{}`", named.name),
                        "a string",
                    ));
                    None
                }
            },
            None => {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("{what} `{}` has no `type`", named.name),
                    )
                    .at(named.span)
                    .hint("add `type: <the name of its type>`"),
                );
                None
            }
        }
    }

    fn node(&mut self, named: &Named, diags: &mut Diagnostics) -> Node {
        let empty = Map::new();
        let def = named.def.as_map().unwrap_or(&empty);
        let (type_name, type_span) = self
            .type_of(named, "node template", diags)
            .unwrap_or_else(|| (String::new(), named.span));
        let (types, defs) = if type_name.is_empty() {
            (TypeNames::default(), Vec::new())
        } else {
            let types = self
                .ancestry
                .of(self.model, TypeKind::Node, &type_name, type_span, diags);
            let defs = definitions(self.model, TypeKind::Node, &types);
            (types, defs)
        };
        let text = |key: &str| {
            def.get(key)
                .and_then(|n| n.scalar_text())
                .map(str::to_string)
        };
        let owner = format!("node template `{}`", named.name);
        let capabilities = self.capabilities(&defs, def.get("capabilities"), &named.name, diags);
        let instances =
            instance_bounds(&capabilities).or_else(|| xml_instance_bounds(def.get("metadata")));
        self.artifacts = self.artifacts(&defs, def.get("artifacts"), diags);
        let interfaces = self.interfaces(&defs, def.get("interfaces"), diags);
        let directives = def
            .get("directives")
            .map(|d| self.strings(d, "`directives`", diags))
            .unwrap_or_default();
        // A TOSCA 2.0 node that can only be selected is not created: the resolver reads only its
        // `node_filter` (§7.2.1 Node Template Directives); a required property unset is no error.
        let only_selected = self.model.dialect == crate::ir::Dialect::Tosca2
            && selection(&directives).is_some_and(|otherwise| otherwise.is_empty());
        if !only_selected {
            let assigned = def.get("capabilities");
            self.check_capabilities(&named.name, &capabilities, assigned, named.span, diags);
        }
        let selection = selection(&directives).map(|otherwise| NodeSelection {
            node_filter: def.get("node_filter").map(|f| self.reader.value(f, diags)),
            otherwise,
        });
        Node {
            name: named.name.clone(),
            type_name,
            types,
            description: text("description"),
            metadata: def
                .get("metadata")
                .map(|m| metadata_values(self.reader, m, diags))
                .unwrap_or_default(),
            directives,
            selection,
            count: def
                .get("count")
                .map_or(Value::Integer(1), |c| self.reader.value(c, diags)),
            instance: None,
            instances,
            properties: self.merged_checked(
                &owner,
                &defs,
                "properties",
                def.get("properties"),
                named.span,
                !only_selected,
                diags,
            ),
            assigned: written_keys(def.get("properties")),
            assigned_attributes: written_keys(def.get("attributes")),
            attributes: self.merged(
                &owner,
                &defs,
                "attributes",
                def.get("attributes"),
                named.span,
                diags,
            ),
            capabilities,
            requirements: Vec::new(),
            interfaces,
            artifacts: std::mem::take(&mut self.artifacts),
            location: self.locator.at(named.span),
        }
    }

    pub fn strings(&self, node: &Yaml, what: &str, diags: &mut Diagnostics) -> Vec<String> {
        let Some(items) = crate::model::shape::seq(node, what, diags) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|i| crate::model::shape::text(i, what, diags))
            .collect()
    }

    /// The values of `section` (`properties`, `attributes`) for `owner` (`node template `x``):
    /// typed defaults from the type chain, then the template's own typed assignments. Property
    /// names are checked when the whole chain is known, and so are required properties.
    pub fn merged(
        &mut self,
        owner: &str,
        defs: &[&'a TypeDef],
        section: &str,
        assigned: Option<&Yaml>,
        at: Span,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        self.merged_checked(owner, defs, section, assigned, at, true, diags)
    }

    /// [`Self::merged`], where `required` says whether a required property left unset is an
    /// error: not for a node that is only selected, whose property assignments the resolver
    /// ignores (§7.2.1 Node Template Directives).
    #[allow(clippy::too_many_arguments)]
    fn merged_checked(
        &mut self,
        owner: &str,
        defs: &[&'a TypeDef],
        section: &str,
        assigned: Option<&Yaml>,
        at: Span,
        required: bool,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        if let Some(assigned) = assigned {
            // Only the shape is reported here; the entries are read below.
            crate::model::shape::map(assigned, &format!("`{section}`"), diags);
        }
        let check_names = section == "properties" && defs_complete(self.model, defs);
        let definitions = self.definitions.of(defs, section);
        let mut values = self.defaults(&definitions, section);
        let mut typing = self.typing();
        values.extend(typing.assigned(owner, &definitions, section, assigned, check_names, diags));
        if check_names && required {
            // `section` is `properties` here, whose definitions the required ones are among.
            typing.check_required(owner, &definitions, &values, at, diags);
        }
        values
    }

    /// The typed defaults of `section`'s merged definitions from [`DefinitionsCache::of`],
    /// worked out once per definition set (what [`Typing::defaults`] gives). The cache's key is
    /// the set's address, which is one (type chain, section) for as long as the builder lives.
    fn defaults(
        &mut self,
        definitions: &std::rc::Rc<IndexMap<&'a str, super::typing::Definition<'a>>>,
        section: &str,
    ) -> IndexMap<String, Value> {
        let key = std::rc::Rc::as_ptr(definitions) as usize;
        if let Some(known) = self.type_parts.defaults.get(&key) {
            return known.clone();
        }
        let values = self.typing().defaults(definitions, section);
        self.type_parts.defaults.insert(key, values.clone());
        values
    }

    /// A value reader that knows the types, for this builder's model.
    pub fn typing(&mut self) -> Typing<'_, 'a> {
        Typing {
            model: self.model,
            reader: self.reader,
            ancestry: self.ancestry,
            patterns: &self.patterns,
        }
    }

    fn capabilities(
        &mut self,
        defs: &[&'a TypeDef],
        assigned: Option<&Yaml>,
        node: &str,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Shared<Capability>> {
        let mut out = match self.type_parts.capabilities.get(&ChainRef(defs)) {
            Some(known) => known.replay(diags),
            None => {
                let made = Replayed::make(|local| {
                    let made = self.type_capabilities(defs, local);
                    made.into_iter().map(|(k, c)| (k, Shared::new(c))).collect()
                });
                let out = made.replay(diags);
                self.type_parts.capabilities.insert(Chain::of(defs), made);
                out
            }
        };
        self.assigned_capabilities(&mut out, defs, assigned, node, diags);
        out
    }

    /// The capabilities a node type chain defines, with the defaults of their types and the
    /// refinements along the chain: what every template of the type starts from.
    fn type_capabilities(
        &mut self,
        defs: &[&'a TypeDef],
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Capability> {
        let mut out: IndexMap<String, Capability> = IndexMap::new();
        for def in defs.iter().rev() {
            let Some(section) = def
                .def
                .as_map()
                .and_then(|m| m.get("capabilities"))
                .and_then(Yaml::as_map)
            else {
                continue;
            };
            for entry in section.entries() {
                let Some(name) = entry.key.scalar_text() else {
                    continue;
                };
                let (type_node, cap_def) = match entry.value.as_map() {
                    Some(m) => (m.get("type"), Some(m)),
                    None => (Some(&entry.value), None),
                };
                let inherited = out.shift_remove(name);
                let type_name = type_node
                    .and_then(|t| t.scalar_text())
                    .map(str::to_string)
                    .or_else(|| inherited.as_ref().and_then(|c| c.type_name.clone()));
                let types = match (&type_name, type_node) {
                    (Some(t), Some(n)) => {
                        self.ancestry
                            .of(self.model, TypeKind::Capability, t, n.span, diags)
                    }
                    _ => inherited
                        .as_ref()
                        .map(|c| c.types.clone())
                        .unwrap_or_default(),
                };
                // Defaults of the capability type come first, then the refinements along the node
                // type chain, then (below) the template's assignments.
                let type_defs = definitions(self.model, TypeKind::Capability, &types);
                // Only defaults here: required properties are judged once the template's own
                // assignments are in (`capability_values`).
                let property_defs = self.definitions.of(&type_defs, "properties");
                let attribute_defs = self.definitions.of(&type_defs, "attributes");
                let mut properties = self.defaults(&property_defs, "properties");
                let mut attributes = self.defaults(&attribute_defs, "attributes");
                if let Some(inherited) = &inherited {
                    properties.extend(inherited.properties.clone());
                    attributes.extend(inherited.attributes.clone());
                }
                if let Some(cap_def) = cap_def {
                    for (key, target) in [
                        ("properties", &mut properties),
                        ("attributes", &mut attributes),
                    ] {
                        if let Some(values) = cap_def.get(key) {
                            target.extend(self.defaults_or_values(values, diags));
                        }
                    }
                }
                out.insert(
                    name.to_string(),
                    Capability {
                        type_name,
                        types,
                        properties,
                        attributes,
                        assigned: Vec::new(),
                        location: self.locator.at(entry.key.span),
                    },
                );
            }
        }
        out
    }

    /// A template's capability assignments, typed and merged into what its type defines.
    fn assigned_capabilities(
        &mut self,
        out: &mut IndexMap<String, Shared<Capability>>,
        defs: &[&TypeDef],
        assigned: Option<&Yaml>,
        node: &str,
        diags: &mut Diagnostics,
    ) {
        let Some(assigned) =
            assigned.and_then(|a| crate::model::shape::map(a, "`capabilities`", diags))
        else {
            return;
        };
        for entry in assigned.entries() {
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            let known = out.contains_key(name);
            if !known && defs_complete(self.model, defs) {
                diags.push(
                    Diagnostic::error(codes::TOSCA_UNKNOWN_NAME, format!("node template `{node}` assigns capability `{name}`, which its type does not define"))
                        .at(entry.key.span)
                        .hint(format!("capabilities of this type: {}", out.keys().cloned().collect::<Vec<_>>().join(", "))),
                );
                continue;
            }
            let cap = out.entry(name.to_string()).or_insert_with(|| {
                Shared::new(Capability {
                    type_name: None,
                    types: TypeNames::default(),
                    properties: IndexMap::new(),
                    attributes: IndexMap::new(),
                    assigned: Vec::new(),
                    location: None,
                })
            });
            // The template writes to this one: its own copy from here on.
            let cap = Shared::make_mut(cap);
            cap.location = self.locator.at(entry.key.span);
            if let Some(m) = entry.value.as_map() {
                cap.assigned.extend(written_keys(m.get("properties")));
                // Typed against the capability type's definitions; names are judged when its
                // whole chain is known (a node type may also refine them, so only then).
                let type_defs = definitions(self.model, TypeKind::Capability, &cap.types);
                let owner = format!("capability `{name}` of node template `{node}`");
                let check_names = defs_complete(self.model, &type_defs);
                for (key, target) in [
                    ("properties", &mut cap.properties),
                    ("attributes", &mut cap.attributes),
                ] {
                    if let Some(values) = m.get(key) {
                        crate::model::shape::map(values, &format!("`{key}`"), diags);
                        let definitions = self.definitions.of(&type_defs, key);
                        target.extend(self.typing().assigned(
                            &owner,
                            &definitions,
                            key,
                            Some(values),
                            check_names && key == "properties",
                            diags,
                        ));
                    }
                }
            }
        }
    }

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
    /// names no file (see [`TypeParts::interfaces`]); otherwise for every template, as before.
    fn chain_interfaces(&mut self, defs: &[&TypeDef], diags: &mut Diagnostics) -> Interfaces {
        if let Some(known) = self.type_parts.interfaces.get(&ChainRef(defs)) {
            return known.clone();
        }
        let files_before = self.files_named.get();
        let mut local = Diagnostics::with_cap(0);
        let interfaces = self.type_interfaces(defs, &mut local);
        let clean = local.iter().next().is_none() && self.files_named.get() == files_before;
        diags.extend(local.iter().cloned());
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

    fn interface_section(
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
                match super::interfaces::assigned_name(name, &entry.key, out, diags) {
                    Some(name) => {
                        let interface = &out[name.as_str()];
                        super::interfaces::check_operations(self.model, interface, body, diags);
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

    fn interface_body(&mut self, interface: &mut Interface, body: &Map, diags: &mut Diagnostics) {
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
    fn parameter_values(&self, node: &Yaml, diags: &mut Diagnostics) -> IndexMap<String, Value> {
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

    fn operation(
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

    fn implementation_from_file(
        &self,
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

    fn implementation(&mut self, node: &Yaml, diags: &mut Diagnostics) -> Implementation {
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

    /// An implementation artifact: a file name, or an inline artifact definition.
    fn artifact_ref(&mut self, node: &Yaml, diags: &mut Diagnostics) -> Option<Artifact> {
        match node.as_str() {
            Some(file) => Some(self.file_artifact(file, file, node, diags)),
            None => node.as_map().map(|_| self.artifact("", node, diags)),
        }
    }

    /// The path of artifact file `file`, named in `defined_in`, relative to the topology root;
    /// for a file of a profile read from outside the template (`--profile-path`), its own
    /// location: it belongs to the profile, not to the template or its CSAR.
    fn artifact_path(&self, defined_in: FileId, file: &str) -> Option<String> {
        let key = (defined_in, file.to_string());
        if let Some(known) = self.artifact_paths.borrow().get(&key) {
            return known.clone();
        }
        let path = self.find_artifact_path(defined_in, file);
        self.artifact_paths.borrow_mut().insert(key, path.clone());
        path
    }

    fn find_artifact_path(&self, defined_in: FileId, file: &str) -> Option<String> {
        let path = paths::artifact_path(self.ctx.sources, self.root.as_deref(), defined_in, file)?;
        if self.of_outside_profile(defined_in, &path) {
            return paths::artifact_path(self.ctx.sources, Some(""), defined_in, file);
        }
        Some(path)
    }

    /// Whether an artifact at `path` (relative to the topology root), named in `defined_in`,
    /// is a file of a TOSCA 2.0 profile that lives outside the template's folder.
    fn of_outside_profile(&self, defined_in: FileId, path: &str) -> bool {
        let outside = path.starts_with('/') || path.split('/').any(|p| p == "..");
        outside
            && self
                .model
                .namespaces
                .qualifier(defined_in)
                .profile
                .is_some()
    }

    /// Reports an artifact whose file is not where its path says: an error inside a CSAR,
    /// which must carry what it names; a warning next to a plain file, whose artifacts may be
    /// put in place before deployment, or in a profile outside the template. URLs, repository
    /// artifacts and images are not looked up: an image artifact's `file` names an image that a
    /// registry or cloud holds (`redis:7`), which no translator reads as a file.
    fn check_file(&self, artifact: &Artifact, at: Span, diags: &mut Diagnostics) {
        let Some(path) = artifact.path.as_deref() else {
            return;
        };
        if artifact.repository.is_some() || artifact.file.contains("://") || is_image(artifact) {
            return;
        }
        let missing = if self.of_outside_profile(at.file, path) {
            (!std::path::Path::new(path).is_file()).then(|| crate::source::Missing {
                reason: format!("`{path}` does not exist"),
                in_csar: false,
                outside: false,
            })
        } else {
            self.ctx.artifact_files.missing(path)
        };
        let Some(missing) = missing else {
            return;
        };
        if !self.missing_files_reported.borrow_mut().insert(at) {
            return;
        }
        // An inline definition under `primary` or `dependencies` has no name of its own.
        let reason = &missing.reason;
        let message = if artifact.name.is_empty() || artifact.name == artifact.file {
            format!("implementation file `{}`: {reason}", artifact.file)
        } else {
            format!("artifact `{}`: {reason}", artifact.name)
        };
        if missing.outside {
            let hint = "an artifact is a file of the template: put it inside the template's folder (or its CSAR) and name it by a relative path";
            diags.push(
                match missing.in_csar {
                    true => Diagnostic::error(codes::INPUT_OUTSIDE_ROOT, message),
                    false => Diagnostic::warning(codes::INPUT_OUTSIDE_ROOT, message),
                }
                .at(at)
                .hint(hint),
            );
            return;
        }
        diags.push(if missing.in_csar {
            Diagnostic::error(codes::TOSCA_MISSING_FILE, message)
                .at(at)
                .hint("add the file to the CSAR, or correct the path (it is relative to the file that names it)")
        } else {
            Diagnostic::warning(codes::TOSCA_MISSING_FILE, message)
                .at(at)
                .hint("the path is relative to the file that names it; a translator that ships the file will fail")
        });
    }

    /// An artifact named by a string: the node's artifact of that name, else a file.
    fn file_artifact(
        &self,
        name: &str,
        file: &str,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> Artifact {
        self.files_named.set(self.files_named.get() + 1);
        if let Some(artifact) = self.artifacts.get(file) {
            return artifact.clone();
        }
        let artifact = Artifact {
            name: name.to_string(),
            type_name: None,
            types: TypeNames::default(),
            file: file.to_string(),
            path: self.artifact_path(node.span.file, file),
            repository: None,
            repository_url: None,
            deploy_path: None,
            description: None,
            properties: IndexMap::new(),
            checksum: None,
            checksum_algorithm: None,
            location: self.locator.at(node.span),
        };
        self.check_file(&artifact, node.span, diags);
        artifact
    }

    pub fn artifacts(
        &mut self,
        defs: &[&TypeDef],
        assigned: Option<&Yaml>,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Artifact> {
        let mut out = IndexMap::new();
        // Each artifact's definition as inherited down the type chain and refined by the template.
        // Borrowed from the files until a refinement makes a new definition.
        let mut merged: IndexMap<String, Cow<Yaml>> = IndexMap::new();
        let sources = defs
            .iter()
            .rev()
            .filter_map(|d| d.def.as_map().and_then(|m| m.get("artifacts")))
            .chain(assigned);
        for section in sources {
            // 1.0 drafts also wrote artifacts as a list of single-entry maps.
            let entries: Vec<&crate::yaml::Entry> = match (section.as_map(), section.as_seq()) {
                (Some(m), _) => m.entries().iter().collect(),
                (None, Some(items)) => items
                    .iter()
                    .filter_map(Yaml::as_map)
                    .flat_map(|m| m.entries())
                    .collect(),
                _ => {
                    diags.push(crate::model::shape::wrong_shape(
                        section,
                        "`artifacts`",
                        "a map",
                    ));
                    continue;
                }
            };
            for entry in entries {
                let Some(name) = entry.key.scalar_text() else {
                    continue;
                };
                let definition = match merged.get(name) {
                    Some(inherited) => {
                        // `name: file` over a full definition changes just the file.
                        let stated = match (inherited.as_map(), entry.value.as_str()) {
                            (Some(_), Some(_)) => {
                                let mut map = Map::new();
                                let _ = map.insert(
                                    Yaml::string("file", entry.value.span),
                                    entry.value.clone(),
                                );
                                Cow::Owned(Yaml {
                                    span: entry.value.span,
                                    tag: None,
                                    kind: Kind::Map(map),
                                })
                            }
                            _ => Cow::Borrowed(&entry.value),
                        };
                        self.check_artifact_refinement(name, inherited, &stated, diags);
                        Cow::Owned(crate::yaml::overlay(inherited, &stated))
                    }
                    None => Cow::Borrowed(&entry.value),
                };
                merged.insert(name.to_string(), definition);
            }
        }
        for (name, definition) in &merged {
            let artifact = self.artifact(name, definition, diags);
            out.insert(name.clone(), artifact);
        }
        out
    }

    /// A derived type or a template that restates an inherited artifact may change its `type`
    /// only to a type derived from the inherited one.
    fn check_artifact_refinement(
        &mut self,
        name: &str,
        inherited: &Yaml,
        stated: &Yaml,
        diags: &mut Diagnostics,
    ) {
        let type_of = |n: &Yaml| {
            n.as_map()
                .and_then(|m| m.get("type"))
                .and_then(|t| t.scalar_text().map(|s| (s.to_string(), t.span)))
        };
        let (Some((before, before_at)), Some((after, at))) = (type_of(inherited), type_of(stated))
        else {
            return;
        };
        let mut quiet = Diagnostics::default();
        let after_types = self
            .ancestry
            .of(self.model, TypeKind::Artifact, &after, at, &mut quiet);
        let before_types = self.ancestry.of(
            self.model,
            TypeKind::Artifact,
            &before,
            before_at,
            &mut quiet,
        );
        let Some(before_name) = before_types.first() else {
            return;
        };
        if !after_types.is_empty() && !after_types.contains(before_name) {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("artifact `{name}` is a `{before}` where it is inherited; `{after}` does not derive from it"),
                )
                .at_with(at, "not derived from the inherited artifact type")
                .hint(format!("use `{before}` or a type derived from it, or give the artifact another name")),
            );
        }
    }

    fn artifact(&mut self, name: &str, node: &Yaml, diags: &mut Diagnostics) -> Artifact {
        if let Some(file) = node.as_str() {
            return self.file_artifact(name, file, node, diags);
        }
        let empty = Map::new();
        let map = node.as_map().unwrap_or(&empty);
        let text = |key: &str| {
            map.get(key)
                .and_then(|n| n.scalar_text())
                .map(str::to_string)
        };
        let file_node = map.get("file");
        let file = text("file").unwrap_or_default();
        if file_node.is_none() {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!("artifact `{name}` has no `file`"),
                )
                .at(node.span)
                .hint("add `file: <path or URL of the artifact>`"),
            );
        }
        let repository = text("repository");
        let repository_url =
            repository
                .as_ref()
                .and_then(|r| match self.model.repository(r, node.span.file) {
                    Some(repo) => Some(repo.url.clone()),
                    None => {
                        diags.push(
                            Diagnostic::error(
                                codes::TOSCA_UNKNOWN_NAME,
                                format!("artifact `{name}` names unknown repository `{r}`"),
                            )
                            .at(map.get("repository").map_or(node.span, |n| n.span))
                            .hint("define it under `repositories`"),
                        );
                        None
                    }
                });
        let (type_name, types) = match map.get("type") {
            Some(t) => {
                let name = t.scalar_text().unwrap_or_default().to_string();
                let types = self
                    .ancestry
                    .of(self.model, TypeKind::Artifact, &name, t.span, diags);
                (Some(name), types)
            }
            None => (None, TypeNames::default()),
        };
        let path = match (&repository, file_node) {
            (None, Some(f)) => self.artifact_path(f.span.file, &file),
            _ => None,
        };
        let artifact = Artifact {
            name: name.to_string(),
            type_name,
            types,
            file,
            path,
            repository,
            repository_url,
            deploy_path: text("deploy_path"),
            description: text("description"),
            properties: map
                .get("properties")
                .map(|p| map_values(self.reader, p, "`properties`", diags))
                .unwrap_or_default(),
            checksum: text("checksum"),
            checksum_algorithm: text("checksum_algorithm"),
            location: self.locator.at(node.span),
        };
        if let Some(f) = file_node {
            self.check_file(&artifact, f.span, diags);
        }
        artifact
    }
}

/// Whether every type on a chain was read, so a missing name is really missing. A type that
/// TOSCA 1.0 XML's `--quirk winery` took on trust was not.
pub fn defs_complete(model: &Model, defs: &[&TypeDef]) -> bool {
    let taken_on_trust = |d: &&TypeDef| {
        d.def
            .as_map()
            .and_then(|m| m.get("metadata"))
            .and_then(Yaml::as_map)
            .is_some_and(|m| m.contains_key(crate::model::TAKEN_ON_TRUST))
    };
    !model.incomplete_types
        && !defs.iter().any(taken_on_trust)
        && defs.last().is_some_and(|root| {
            root.derived_from.as_ref().is_none_or(|(p, _)| {
                model
                    .types
                    .contains_key(&super::types::TypeRef(root.kind, p))
            })
        })
}

/// Instance bounds of a TOSCA 1.0 XML node template: its `minInstances`/`maxInstances`, which
/// the XML front end writes as the metadata `xml_min_instances` and `xml_max_instances`
/// (`unbounded` for no upper bound), because Simple Profile 1.3 has no keyname for them.
fn xml_instance_bounds(metadata: Option<&crate::yaml::Node>) -> Option<InstanceBounds> {
    let m = metadata?.as_map()?;
    let min = m.get("xml_min_instances")?.scalar_text()?.parse().ok()?;
    let max = match m.get("xml_max_instances")?.scalar_text()? {
        "unbounded" => None,
        n => Some(n.parse().ok()?),
    };
    Some(InstanceBounds { min, max })
}

/// Instance bounds from a Scalable capability's `min_instances`/`max_instances`.
fn instance_bounds(capabilities: &IndexMap<String, Shared<Capability>>) -> Option<InstanceBounds> {
    let scalable = capabilities
        .iter()
        .find(|(name, c)| {
            type_matches(&c.types, "tosca.capabilities.Scalable")
                || (c.types.is_empty() && *name == "scalable")
        })?
        .1;
    let int = |key: &str| match scalable.properties.get(key) {
        Some(Value::Integer(i)) => u64::try_from(*i).ok(),
        _ => None,
    };
    let min = int("min_instances")?;
    Some(InstanceBounds {
        min,
        max: int("max_instances"),
    })
}

/// Whether an artifact is an image: its type is, or derives from, the Simple Profile's
/// `tosca.artifacts.Deployment.Image` (C.8.3.2: "an opaque packaging of a TOSCA Node's
/// deployment ... prepared to be run on a known target container") or the 2.0 simple profile's
/// `Deployment.Image`, under any namespace prefix.
fn is_image(artifact: &Artifact) -> bool {
    artifact
        .types
        .iter()
        .chain(artifact.type_name.as_ref())
        .map(|t| t.rsplit_once(':').map_or(t.as_str(), |(_, local)| local))
        .any(|t| t == "tosca.artifacts.Deployment.Image" || t == "Deployment.Image")
}
