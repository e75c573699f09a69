//! A TOSCA 2.0 attribute is set by an operation's output mapping or by an attribute
//! assignment, never both: "attributes that are the target of a parameter mapping assignment
//! cannot also be assigned a value using an attribute assignment" (§9.7 Attribute Assignment,
//! T2-ATTRASSIGN-01, T2-ERR-15). The operation writes the attribute when it runs, so a value
//! the template assigns would be overwritten, or would overwrite what the operation reports.
//!
//! The mappings that count are those onto an attribute of the template itself, `[ SELF,
//! <attribute> ]`, written in the interface definitions of its type chain or of the template.
//! A mapping onto a capability's attribute (`[ SELF, CAPABILITY, <capability>, <attribute> ]`,
//! §10.3 TOSCA Path) targets another entity, whose attributes a node template does not assign.

use std::collections::BTreeMap;

use super::interface_parameters::{entries, interfaces_of, of_interface};
use super::operation_context::mapped_attributes;
use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, Named, TypeKind};
use crate::source::Span;
use crate::yaml::{Map, Node};

/// Checks every node and relationship template of a TOSCA 2.0 service template.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    let Some(topology) = model
        .topology
        .as_ref()
        .filter(|_| model.dialect == Dialect::Tosca2)
    else {
        return;
    };
    let templates = [
        (TypeKind::Node, &topology.node_templates),
        (TypeKind::Relationship, &topology.relationship_templates),
    ];
    for (kind, named) in templates {
        for template in named {
            check_template(model, ancestry, kind, template, diags);
        }
    }
}

fn check_template(
    model: &Model,
    ancestry: &mut Ancestry,
    kind: TypeKind,
    template: &Named,
    diags: &mut Diagnostics,
) {
    let Some(map) = template.def.as_map() else {
        return;
    };
    let Some(assigned) = map.get("attributes").and_then(Node::as_map) else {
        return;
    };
    let mut mapped = BTreeMap::new();
    if let Some(type_node) = map.get("type").and_then(Node::as_str)
        && let Some(id) = ancestry.full_name(model, kind, type_node, template.span.file)
    {
        let chain = ancestry.chain(model, kind, &id);
        for def in definitions(model, kind, &chain).into_iter().rev() {
            if let Some(type_map) = def.def.as_map() {
                collect(interfaces_of(kind, type_map), &mut mapped);
            }
        }
    }
    collect(
        entries(map.get("interfaces")).map(|(_, i)| i).collect(),
        &mut mapped,
    );
    for entry in assigned.entries() {
        let Some(name) = entry.key.scalar_text() else {
            continue;
        };
        let Some((output, at)) = mapped.get(name) else {
            continue;
        };
        diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!(
                    "attribute `{name}` of template `{}` is assigned a value and is also where output `{output}` is mapped",
                    template.name
                ),
            )
            .at_with(entry.key.span, "assigned here")
            .label(*at, "the output mapping that sets it")
            .hint("an attribute an operation's output sets cannot also be assigned (§9.7 Attribute Assignment): remove the assignment, or map the output onto another attribute"),
        );
    }
}

/// The attributes of the entity itself that the outputs of `interfaces` map onto, with the
/// output and where it maps; a later interface (more specific) replaces an earlier one's entry.
fn collect<'m>(interfaces: Vec<&'m Map>, mapped: &mut BTreeMap<&'m str, (&'m str, Span)>) {
    for interface in interfaces {
        for parameters in of_interface(interface, Dialect::Tosca2) {
            if parameters.section != "outputs" {
                continue;
            }
            for (output, path) in mapped_attributes(parameters.map) {
                if let [start, attribute] = path
                    && start.as_str() == Some("SELF")
                    && let (Some(attribute), Some(output)) =
                        (attribute.as_str(), output.scalar_text())
                {
                    mapped.insert(attribute, (output, start.span));
                }
            }
        }
    }
}
