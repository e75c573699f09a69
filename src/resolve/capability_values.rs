//! A capability's values beyond its type's defaults: what a node type's capability definition
//! assigns, and the required properties a template's capability leaves unset.
//!
//! Required capability properties left unset: a node template's capability, whether the
//! template assigns it or takes it as its type defines it, must end with a value for every
//! required property of its capability type, from the capability type's `default`, the node
//! type's refinement of the capability definition, or the template's own assignment.
//!
//! TOSCA 2.0 asks that "all the required properties of all its node templates must have valid
//! property assignments" (§15.1 Substitution Mapping, of a template valid in its own right;
//! T2-PROPASSIGN-04), and a capability's are "An optional map of property assignments for the
//! capability definition" (§8.3 Capability Assignment), property assignments like the node's;
//! the Simple Profile's "A property SHALL be considered required by default" (A.5.7.5) holds
//! for a capability type's property definitions as for a node type's. A node type's capability
//! definition may not turn a required property optional (refinement only narrows, see
//! [`super::refinement`]), so the capability type's definitions decide what is required.
//!
//! Judged only when the capability type's whole chain is known (a type taken on trust or
//! defined in a file that could not be read may define the property's default), and not for a
//! TOSCA 2.0 node that is only selected, whose assignments are not read.

use indexmap::IndexMap;

use super::nodes::{NodeBuilder, defs_complete};
use super::workflow_calls::is_value;
use crate::diag::{Diagnostics, Subject};
use crate::ir::{Capability, Shared, Value};
use crate::model::TypeKind;
use crate::source::Span;
use crate::yaml::Node as Yaml;

impl NodeBuilder<'_> {
    /// In a type's capability definition, `properties` are definitions (take their `default`,
    /// or a TOSCA 2.0 fixed `value`); a refinement may also be the one-line form
    /// `<name>: <value>` (§9.4 Property Definition: "the short form can be used only during a
    /// refinement"; toscana reads the same form in 1.x capability definitions), which gives the
    /// property its value. A map counts as a definition when it uses a definition keyname.
    pub(super) fn defaults_or_values(
        &self,
        values: &Yaml,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        let mut out = IndexMap::new();
        let Some(map) = values.as_map() else {
            return out;
        };
        for entry in map.entries() {
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            let value = match entry.value.as_map() {
                Some(def) if !is_value(def) => def.get("default").or_else(|| def.get("value")),
                _ => Some(&entry.value),
            };
            if let Some(value) = value {
                out.insert(name.to_string(), self.reader.value(value, diags));
            }
        }
        out
    }

    /// Reports each required property of `capabilities` (the finished capabilities of node
    /// template `node`) that has no value, and what the normative capability types' rules
    /// forbid ([`super::normative_values`]); `assigned` is the template's `capabilities` as
    /// written: an error points at a capability it assigns, else at `node_span`.
    pub(super) fn check_capabilities(
        &mut self,
        node: &str,
        capabilities: &IndexMap<String, Shared<Capability>>,
        assigned: Option<&Yaml>,
        node_span: Span,
        diags: &mut Diagnostics,
    ) {
        let at = |c: &str| assigned?.as_map()?.entry(c).map(|e| e.key.span);
        let value_at = |c: &str, property: Option<&str>| {
            let written = assigned?.as_map()?.get(c)?.as_map()?.get("properties");
            let value = written.and_then(|p| p.as_map()?.get(property?));
            value.map(|v| v.span).or_else(|| at(c))
        };
        super::normative_values::check(node, capabilities, value_at, node_span, diags);
        for (name, capability) in capabilities {
            let type_defs =
                self.definitions
                    .chain(self.model, TypeKind::Capability, &capability.types);
            if type_defs.is_empty() || !defs_complete(self.model, &type_defs) {
                continue;
            }
            let properties = self.definitions.of(&type_defs, "properties");
            let template = Subject::new("node template", node);
            let owner = Subject::new("capability", name).of(&template);
            self.typing().check_required(
                owner,
                &properties,
                &capability.properties,
                at(name).unwrap_or(node_span),
                diags,
            );
        }
    }
}
