//! The relationship a requirement assignment creates to its target: its type and values (from
//! the relationship template it names, its inline assignment or its definition), its
//! interfaces, and the target capability it connects to.

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, Subject, codes};
use crate::ir::{
    Capability, Interfaces, Location, Node, NodeId, Relationship, Shared, Topology, TypeNames,
};
use crate::model::{Model, TypeKind};
use crate::resolve::assignments::{Assignment, Definition};
use crate::resolve::nodes::NodeBuilder;
use crate::resolve::selection;
use crate::resolve::type_parts::{Chain, ChainRef, RelationshipParts};
use crate::resolve::types::definitions;
use crate::source::Span;
use crate::yaml::{Map, Node as Yaml};

use super::{RelationshipTemplates, fallback_relationship};

/// The relationship an assignment creates to `target`, typed and with its values: from the
/// relationship template it names, its inline relationship assignment, or its definition.
#[allow(clippy::too_many_arguments)]
pub(in crate::resolve) fn relationship(
    builder: &mut NodeBuilder,
    topology: &Topology,
    source: NodeId,
    target: NodeId,
    a: &Assignment,
    label: String,
    templates: &mut RelationshipTemplates,
    diags: &mut Diagnostics,
) -> Relationship {
    let definition = builder.requirement_definitions.get(
        builder.model,
        &topology.nodes[source.index()],
        &a.name,
    );
    let written = written_relationship(builder, a, &definition, label, templates, diags);
    let types = if written.type_name.is_empty() {
        TypeNames::default()
    } else {
        builder.ancestry.of(
            builder.model,
            TypeKind::Relationship,
            &written.type_name,
            written.type_at,
            diags,
        )
    };
    let default_type = is_default_type(builder, &definition, a, &types);
    let defs = definitions(builder.model, TypeKind::Relationship, &types);
    let source_subject = Subject::quoted(&topology.nodes[source.index()].name);
    let owner = Subject::new("the relationship of requirement", &a.name).of(&source_subject);
    let values = written.assigned;
    let assigned = |key: &str| values.and_then(|m| m.get(key));
    let properties = builder.merged(
        &owner,
        &defs,
        "properties",
        assigned("properties"),
        a.span,
        diags,
    );
    let attributes = builder.merged(
        &owner,
        &defs,
        "attributes",
        assigned("attributes"),
        a.span,
        diags,
    );
    let (interfaces, admitted) = type_parts(builder, &defs, assigned("interfaces"), diags);
    let target_node = &topology.nodes[target.index()];
    let wanted = wanted_capability(builder, a, &definition, target_node);
    let capability = wanted
        .as_ref()
        .and_then(|w| target_capability(&target_node.capabilities, w, &a.name, &admitted));
    if let (Some(wanted), None) = (&wanted, &capability) {
        let source_name = &topology.nodes[source.index()].name;
        report_missing_capability(builder, source_name, a, wanted, target_node, diags);
    }
    Relationship {
        name: written.name,
        source,
        target,
        requirement: a.name.clone(),
        capability,
        count: crate::ir::Value::Integer(1),
        target_index: None,
        allocation: IndexMap::new(),
        instance: None,
        type_name: written.type_name,
        types,
        default_type,
        properties,
        assigned: crate::resolve::nodes::written_keys(assigned("properties")),
        attributes,
        interfaces,
        location: builder.locator.at(a.span),
        template_location: written.template_location,
    }
}

/// A relationship as its assignment writes it, before its type is read.
struct Written<'w> {
    /// The relationship template's name, else the requirement's label.
    name: String,
    /// Its type's name as written; empty when nothing names one (TOSCA 2.0 has no fallback).
    type_name: String,
    /// Where the type comes from, for what is reported about it.
    type_at: Span,
    /// The keynames of the relationship template or inline assignment: its values.
    assigned: Option<&'w Map>,
    /// Where the relationship template is, when it comes from one.
    template_location: Option<Location>,
}

/// What the assignment's `relationship` names: a relationship type, a relationship template,
/// or an inline `{type, properties, interfaces}`; the definition's type where it names none.
fn written_relationship<'w, 'y: 'w, 't: 'w>(
    builder: &mut NodeBuilder,
    a: &Assignment<'y>,
    definition: &Definition,
    label: String,
    templates: &mut RelationshipTemplates<'t>,
    diags: &mut Diagnostics,
) -> Written<'w> {
    let by_definition = |builder: &NodeBuilder, written: Written<'w>| Written {
        type_name: definition
            .relationship
            .clone()
            .unwrap_or_else(|| fallback_relationship(builder.model)),
        type_at: definition.relationship_at.unwrap_or(written.type_at),
        ..written
    };
    let mut written = Written {
        name: label,
        type_name: String::new(),
        type_at: a.span,
        assigned: None,
        template_location: None,
    };
    let named = a.relationship.and_then(Yaml::as_str);
    // A name is a relationship type first, then a template (§8.5.2 Requirement Assignment
    // Grammar); the Simple Profile looks for the template first.
    let written_in = a.relationship.map_or(a.span.file, |r| r.span.file);
    let is_type = named.is_some_and(|t| {
        builder.model.dialect == crate::ir::Dialect::Tosca2
            && builder
                .ancestry
                .full_name(builder.model, TypeKind::Relationship, t, written_in)
                .is_some()
    });
    let found = named.filter(|_| !is_type).and_then(|t| templates.get(t));
    match (a.relationship, found) {
        // A relationship template: its name, type and values.
        (_, Some(template)) => {
            templates.used.insert(template.name.as_str());
            let found = builder.type_of(template, "relationship template", diags);
            Written {
                name: template.name.clone(),
                type_at: found.as_ref().map_or(template.span, |(_, s)| *s),
                type_name: found.map(|(t, _)| t).unwrap_or_default(),
                assigned: template.def.as_map(),
                template_location: builder.locator.at(template.span),
            }
        }
        // A relationship type by name.
        (Some(r), None) if named.is_some() => {
            written.type_at = r.span;
            written.type_name = named.unwrap_or_default().to_string();
            written
        }
        // An inline `{type, properties, interfaces}`, its type possibly left to the definition.
        (Some(r), None) => {
            written.assigned = r.as_map();
            match written.assigned.and_then(|m| m.get("type")) {
                Some(t) => {
                    written.type_at = t.span;
                    written.type_name = t.scalar_text().unwrap_or_default().to_string();
                    written
                }
                None => by_definition(builder, written),
            }
        }
        (None, _) => by_definition(builder, written),
    }
}

/// Whether the relationship is of the type its definition declares (or, without one, the
/// assignment names none): a backend may then draw it as the requirement's plain link.
fn is_default_type(
    builder: &mut NodeBuilder,
    definition: &Definition,
    a: &Assignment,
    types: &TypeNames,
) -> bool {
    let Some(declared) = &definition.relationship else {
        return a.relationship.is_none();
    };
    let declared = builder
        .ancestry
        .full_name(
            builder.model,
            TypeKind::Relationship,
            declared,
            definition.relationship_in(),
        )
        .unwrap_or_else(|| declared.clone());
    types.first() == Some(&declared)
}

/// What the relationship connects to on `target`: a capability name of the target, or a
/// capability type (perhaps by shorthand), the assignment's, else the definition's.
fn wanted_capability(
    builder: &mut NodeBuilder,
    a: &Assignment,
    definition: &Definition,
    target: &Node,
) -> Option<String> {
    let (wanted, written_in) = match &a.capability {
        Some(c) => (c.clone(), a.capability_at.unwrap_or(a.span).file),
        None => (definition.capability.clone()?, definition.capability_in()),
    };
    match builder
        .ancestry
        .full_name(builder.model, TypeKind::Capability, &wanted, written_in)
    {
        Some(full) if !target.capabilities.contains_key(&wanted) => Some(full),
        _ => Some(wanted),
    }
}

/// A target without the capability `wanted`: reported, unless the target's types are not all
/// known (taken on trust), with the capability of a namesake type where it has one.
fn report_missing_capability(
    builder: &NodeBuilder,
    source: &str,
    a: &Assignment,
    wanted: &str,
    target: &Node,
    diags: &mut Diagnostics,
) {
    let target_defs = definitions(builder.model, TypeKind::Node, &target.types);
    if !crate::resolve::nodes::defs_complete(builder.model, &target_defs) {
        return;
    }
    let d = missing_capability(
        source,
        a,
        wanted,
        &target.name,
        target.capabilities.keys().map(String::as_str).collect(),
        builder.model.dialect == crate::ir::Dialect::Tosca2,
    );
    diags.push(match namesake(&target.capabilities, wanted) {
        Some((name, other)) => d.hint(format!(
            "its capability `{name}` is of type `{other}`: a type of the same name from another profile or namespace is another type (§6.7.3 Profile Versions)"
        )),
        None => d,
    });
}

/// A relationship's interfaces (its type chain's, then its own `assigned` ones) and the
/// capability types its type admits, the type chain's part worked out once per chain
/// ([`RelationshipParts`]).
pub(super) fn type_parts<'a>(
    builder: &mut NodeBuilder<'a>,
    defs: &[&'a crate::model::TypeDef],
    assigned: Option<&Yaml>,
    diags: &mut Diagnostics,
) -> (Interfaces, Vec<String>) {
    // An operation may name an artifact of the node being built; outside a node's build there
    // is none, and only then does the chain alone decide its interfaces.
    if !builder.artifacts.is_empty() {
        let interfaces = builder.interfaces(defs, assigned, diags);
        let admitted = admitted_capabilities(builder.model, builder.ancestry, defs);
        return (interfaces, admitted);
    }
    let known = builder
        .type_parts
        .relationships
        .get(&ChainRef(defs))
        .and_then(|p| {
            Some((
                crate::ir::clone_exact(p.interfaces.as_ref()?),
                p.admitted.clone(),
            ))
        });
    let (mut interfaces, admitted) = match known {
        Some(known) => known,
        None => {
            let reported_before = diags.reported();
            let interfaces = builder.type_interfaces(defs, diags);
            let clean = diags.reported() == reported_before;
            let admitted = admitted_capabilities(builder.model, builder.ancestry, defs);
            builder.type_parts.relationships.insert(
                Chain::of(defs),
                RelationshipParts {
                    interfaces: clean.then(|| interfaces.clone()),
                    admitted: admitted.clone(),
                },
            );
            (interfaces, admitted)
        }
    };
    builder.assigned_interfaces(&mut interfaces, defs, assigned, diags);
    (interfaces, admitted)
}

/// A capability of `capabilities` whose type has the local name of the type `wanted` (an
/// identity) without being it: its name and type.
pub(super) fn namesake<'c>(
    capabilities: &'c IndexMap<String, Shared<Capability>>,
    wanted: &str,
) -> Option<(&'c str, &'c str)> {
    let local = |id: &str| id.rsplit(':').next().unwrap_or(id).to_string();
    let wanted_local = local(wanted);
    capabilities.iter().find_map(|(name, c)| {
        let t = c.types.first()?;
        (t != wanted && local(t) == wanted_local).then_some((name.as_str(), t.as_str()))
    })
}

/// A requirement whose target has no capability of the wanted name or type.
pub(super) fn missing_capability(
    source: &str,
    a: &Assignment,
    wanted: &str,
    target: &str,
    capabilities: Vec<&str>,
    tosca2: bool,
) -> Diagnostic {
    // A capability the template names is a plain mistake, and so is one a TOSCA 2.0
    // requirement definition asks for (its `capability` is mandatory, §8.4 Requirement Definition;
    // §6.7.3 Profile Versions calls a target without it invalid). One only a Simple Profile
    // definition asks for is a warning: real profiles (tosca-parser's NFV samples among them)
    // connect such requirements anyway, and the template gives no other target to choose.
    let from_template = a.capability.is_some();
    let d = if from_template {
        Diagnostic::error(
            codes::TOSCA_UNKNOWN_NAME,
            format!(
                "requirement `{}` of `{source}` asks for capability `{wanted}` of `{target}`, which has none of that name or type",
                a.name
            ),
        )
    } else if tosca2 {
        Diagnostic::error(
            codes::TOSCA_TYPE_MISMATCH,
            format!(
                "requirement `{}` of `{source}` needs a capability of type `{wanted}`, and its target `{target}` has none",
                a.name
            ),
        )
    } else {
        Diagnostic::warning(
            codes::TOSCA_UNKNOWN_NAME,
            format!(
                "requirement `{}` of `{source}` needs a capability of type `{wanted}`, and its target `{target}` has none; connected without one",
                a.name
            ),
        )
    };
    d.at(a
        .capability_at
        .or(a.node.as_ref().map(|(_, s)| *s))
        .unwrap_or(a.span))
        .did_you_mean(
            wanted,
            &capabilities,
            Some(format!(
                "capabilities of `{target}`: {}",
                capabilities.join(", ")
            )),
        )
}

/// The target's capability a requirement connects to: by name, else the one of the wanted type
/// the relationship type admits ([`selection::capability_of_type`]).
pub(in crate::resolve) fn target_capability(
    capabilities: &IndexMap<String, Shared<Capability>>,
    wanted: &str,
    requirement: &str,
    admitted: &[String],
) -> Option<String> {
    if capabilities.contains_key(wanted) {
        return Some(wanted.to_string());
    }
    selection::capability_of_type(capabilities, wanted, requirement, admitted).cloned()
}

/// The capability types a relationship type admits as targets (its `valid_target_types`;
/// TOSCA 2.0 `valid_capability_types`), from the most specific type that lists them, as full
/// names; empty when it admits any.
pub(in crate::resolve) fn admitted_capabilities(
    model: &Model,
    ancestry: &mut crate::resolve::types::Ancestry,
    defs: &[&crate::model::TypeDef],
) -> Vec<String> {
    let keyname = match model.dialect {
        crate::ir::Dialect::Tosca2 => "valid_capability_types",
        _ => "valid_target_types",
    };
    selection::listed_types(ancestry, model, defs, keyname, TypeKind::Capability)
}
