//! A node's capabilities: the ones its type chain defines, worked out once per chain, then the
//! template's assignments.

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, Subject, codes};
use crate::ir::{Capability, Shared, TypeNames};
use crate::model::{TypeDef, TypeKind};
use crate::resolve::type_parts::{Chain, ChainRef};
use crate::resolve::types::definitions;
use crate::yaml::Node as Yaml;

use super::{NodeBuilder, defs_complete, written_keys};

impl<'a> NodeBuilder<'a> {
    pub(super) fn capabilities(
        &mut self,
        defs: &[&'a TypeDef],
        assigned: Option<&Yaml>,
        node: &str,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Shared<Capability>> {
        // What working a chain's capabilities out finds is about the types, not the template:
        // it is reported once, by the first template of the chain.
        let mut out = match self.type_parts.capabilities.get(&ChainRef(defs)) {
            Some(known) => crate::ir::clone_exact(known),
            None => {
                let made: IndexMap<String, Shared<Capability>> = self
                    .type_capabilities(defs, diags)
                    .into_iter()
                    .map(|(k, c)| (k, Shared::new(c)))
                    .collect();
                self.type_parts
                    .capabilities
                    .insert(Chain::of(defs), made.clone());
                made
            }
        };
        self.assigned_capabilities(&mut out, defs, assigned, node, diags);
        out
    }

    /// The capabilities a node type chain defines, with the defaults of their types and the
    /// refinements along the chain: what every template of the type starts from.
    pub(super) fn type_capabilities(
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
    pub(super) fn assigned_capabilities(
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
                let type_defs =
                    self.definitions
                        .chain(self.model, TypeKind::Capability, &cap.types);
                let template = Subject::new("node template", node);
                let owner = Subject::new("capability", name).of(&template);
                let check_names = defs_complete(self.model, &type_defs);
                for (key, target) in [
                    ("properties", &mut cap.properties),
                    ("attributes", &mut cap.attributes),
                ] {
                    if let Some(values) = m.get(key) {
                        crate::model::shape::map(values, Subject::quoted(key), diags);
                        let definitions = self.definitions.of(&type_defs, key);
                        // A TOSCA 2.0 capability's attributes are those its type defines or
                        // reflects from a property (§8.3 Capability Assignment, §9.7 Attribute
                        // Assignment).
                        if key == "attributes"
                            && check_names
                            && self.model.dialect == crate::ir::Dialect::Tosca2
                        {
                            let reflected = self.definitions.of(&type_defs, "properties");
                            let names = super::names(Some(values));
                            crate::resolve::assigned_names::check(
                                owner,
                                key,
                                names,
                                &definitions,
                                &reflected,
                                diags,
                            );
                        }
                        target.extend(self.typing().assigned(
                            owner,
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
}
