//! Groups and policies of a topology template: their types, typed properties and attributes,
//! members and targets (TOSCA 2.0 §16.2 Group Definition, §16.4 Policy Definition; the Simple
//! Profile's group and policy definitions), read into the IR. Whether the members and targets
//! are of the types their group or policy type admits is [`membership`].

pub(super) mod membership;

use std::collections::HashMap;

use indexmap::IndexMap;

use super::nodes::{NodeBuilder, index};
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Group, GroupId, NodeId, Policy, PolicyTarget, Topology, TypeNames, Value};
use crate::model::grouping::Grouping;
use crate::model::{TopologyTemplate, TypeKind, Value as Written};

/// Reads the template's groups, then its policies, into `topology`.
pub fn read(
    builder: &mut NodeBuilder,
    template: &TopologyTemplate,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) {
    let nodes: HashMap<String, NodeId> = index(topology)
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    for named in &template.groups {
        let (type_name, types) = typed(builder, named, TypeKind::Group, "group", diags);
        let owner = format!("group `{}`", named.name);
        let span = named.span;
        let properties = typed_values(
            builder,
            &owner,
            &types,
            TypeKind::Group,
            named.properties.as_ref(),
            "properties",
            span,
            diags,
        );
        let attributes = typed_values(
            builder,
            &owner,
            &types,
            TypeKind::Group,
            named.attributes.as_ref(),
            "attributes",
            span,
            diags,
        );
        let members = named
            .members
            .as_ref()
            .map(|m| builder.strings(m, "`members`", diags))
            .unwrap_or_default();
        let member_spans = named.members.as_ref().map_or(named.span, |m| m.span);
        let members = members
            .iter()
            .filter_map(|m| {
                let found = nodes.get(m).copied();
                if found.is_none() {
                    diags.push(unknown(
                        &format!("group `{}` has unknown member `{m}`", named.name),
                        member_spans,
                        m,
                        nodes.keys(),
                    ));
                }
                found
            })
            .collect();
        let group = Group {
            name: named.name.clone(),
            type_name,
            types,
            description: text(named.description.as_ref()),
            metadata: named
                .metadata
                .as_ref()
                .map(|n| super::metadata_values(builder.reader, n, diags))
                .unwrap_or_default(),
            members,
            properties,
            attributes,
            location: builder.locator.at(named.span),
        };
        topology.groups.push(group);
    }
    policies(builder, template, topology, &nodes, diags);
}

/// The template's policies, after its groups: a policy targets nodes and groups by name.
fn policies(
    builder: &mut NodeBuilder,
    template: &TopologyTemplate,
    topology: &mut Topology,
    nodes: &HashMap<String, NodeId>,
    diags: &mut Diagnostics,
) {
    let groups: HashMap<String, GroupId> = topology
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| (g.name.clone(), GroupId::from_index(i)))
        .collect();
    for named in &template.policies {
        let (type_name, types) = typed(builder, named, TypeKind::Policy, "policy", diags);
        let owner = format!("policy `{}`", named.name);
        let properties = typed_values(
            builder,
            &owner,
            &types,
            TypeKind::Policy,
            named.properties.as_ref(),
            "properties",
            named.span,
            diags,
        );
        let target_names = named
            .targets
            .as_ref()
            .map(|t| builder.strings(t, "`targets`", diags))
            .unwrap_or_default();
        let targets_span = named.targets.as_ref().map_or(named.span, |t| t.span);
        let targets = target_names
            .iter()
            .filter_map(|t| match (nodes.get(t), groups.get(t)) {
                (Some(n), _) => Some(PolicyTarget::Node(*n)),
                (None, Some(g)) => Some(PolicyTarget::Group(*g)),
                (None, None) => {
                    diags.push(unknown(
                        &format!(
                            "policy `{}` targets unknown node or group `{t}`",
                            named.name
                        ),
                        targets_span,
                        t,
                        nodes.keys().chain(groups.keys()),
                    ));
                    None
                }
            })
            .collect();
        let policy = Policy {
            name: named.name.clone(),
            type_name,
            types,
            description: text(named.description.as_ref()),
            metadata: named
                .metadata
                .as_ref()
                .map(|n| super::metadata_values(builder.reader, n, diags))
                .unwrap_or_default(),
            targets,
            properties,
            // Still the YAML node (see `crate::model::grouping`), read as any tree.
            triggers: named
                .triggers
                .as_ref()
                .map(|n| super::map_values(builder.reader, n, "`triggers`", diags))
                .unwrap_or_default(),
            location: builder.locator.at(named.span),
        };
        topology.policies.push(policy);
    }
}

/// The template's type name and its chain; none, and nothing reported, for a definition that
/// is no map (the grammar reported it).
fn typed(
    builder: &mut NodeBuilder,
    named: &Grouping,
    kind: TypeKind,
    what: &str,
    diags: &mut Diagnostics,
) -> (String, TypeNames) {
    if named.not_a_map {
        return (String::new(), TypeNames::default());
    }
    let written = named.type_name.as_ref();
    match super::nodes::type_written(written, what, &named.name, named.span, diags) {
        Some((t, span)) => {
            let types = builder.ancestry.of(builder.model, kind, &t, span, diags);
            (t, types)
        }
        None => (String::new(), TypeNames::default()),
    }
}

/// A group's or policy's `section` (`properties`, `attributes`): the defaults of its type
/// chain, then its own assignments typed against the definitions, and a required property left
/// unset reported once the whole chain is known. TOSCA 2.0 gives both "An optional map of
/// property value assignments" (§16.2 Group Definition, §16.4 Policy Definition), which the
/// type's property definitions govern as they do a node template's (T2-PROPASSIGN-04: every
/// required property needs a value); the Simple Profile's group and policy types define
/// properties the same way, so 1.x templates are read alike.
///
/// A property the type does not define is kept, untyped; it is reported only when the type
/// chain defines properties (a TOSCA 2.0 attribute always is) ([`super::assigned_names`]): the normative policy types define no
/// properties (`tosca.policies.Scaling`, `Placement`), and templates
/// give them the settings an orchestrator reads by convention (`min_instances` and
/// `max_instances` on a Scaling policy, which toscana's Kubernetes mapping reads too). A
/// template whose type is unknown (reported where it is named) keeps all its values untyped.
#[allow(clippy::too_many_arguments)]
fn typed_values(
    builder: &mut NodeBuilder,
    owner: &str,
    types: &TypeNames,
    kind: TypeKind,
    assigned: Option<&Written>,
    section: &str,
    at: crate::source::Span,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    if types.is_empty() {
        return values(builder.reader, assigned, section, diags);
    }
    if let Some(assigned) = assigned.filter(|a| a.as_map().is_none()) {
        diags.push(crate::model::shape::not_a_map(
            assigned,
            format!("`{section}`"),
        ));
    }
    let defs = super::types::definitions(builder.model, kind, types);
    let definitions = builder.definitions.of(&defs, section);
    // A property is reflected as an attribute of the same name (§9.7 Attribute Assignment).
    let reflected = match section {
        "attributes" => builder.definitions.of(&defs, "properties"),
        _ => std::rc::Rc::default(),
    };
    let complete = super::nodes::defs_complete(builder.model, &defs);
    let mut typing = builder.typing();
    let mut values = typing.defaults(&definitions, section);
    // A TOSCA 2.0 group's attributes are those its type defines (§9.7 Attribute Assignment:
    // "an attribute definition with the same name ... declared ... in its declared type"); no
    // convention gives undefined ones a meaning, as it does the normative policies' properties.
    let names_checked = match section {
        "properties" => !definitions.is_empty(),
        _ => typing.model.dialect == crate::ir::Dialect::Tosca2,
    };
    if names_checked && complete {
        let names = super::nodes::names(assigned);
        super::assigned_names::check(owner, section, names, &definitions, &reflected, diags);
    }
    values.extend(typing.assigned(owner, &definitions, section, assigned, false, diags));
    if section == "properties" && super::nodes::defs_complete(builder.model, &defs) {
        builder
            .typing()
            .check_required(owner, &definitions, &values, at, diags);
    }
    values
}

/// A scalar's text (a `description`).
fn text(written: Option<&Written>) -> Option<String> {
    written.and_then(Written::scalar_text).map(str::to_string)
}

/// The values of the section `key`, untyped.
fn values(
    reader: &ValueReader,
    written: Option<&Written>,
    key: &str,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    written
        .map(|n| super::map_values(reader, n, &format!("`{key}`"), diags))
        .unwrap_or_default()
}

fn unknown<'k>(
    message: &str,
    span: crate::source::Span,
    name: &str,
    known: impl Iterator<Item = &'k String>,
) -> Diagnostic {
    let known: Vec<&str> = known.map(String::as_str).collect();
    Diagnostic::error(codes::TOSCA_UNKNOWN_NAME, message.to_string())
        .at(span)
        .did_you_mean(name, &known, None)
}
