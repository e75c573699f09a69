//! Groups, policies, workflows and the substitution boundary.

use std::collections::HashMap;

use indexmap::IndexMap;

use super::Locator;
use super::boundary::Target;
use super::nodes::{NodeBuilder, index};
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{
    BoundaryMapping, Group, GroupId, NodeId, Policy, PolicyTarget, Substitution, Topology,
    TypeNames, Value, Workflow,
};
use crate::model::{Named, TopologyTemplate, TypeKind};
use crate::yaml::{Map, Node as Yaml};

pub fn groups_and_policies(
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
        let (type_name, types, def) = typed(builder, named, TypeKind::Group, "group", diags);
        let owner = format!("group `{}`", named.name);
        let span = named.span;
        let properties = typed_values(
            builder,
            &owner,
            &types,
            TypeKind::Group,
            def,
            "properties",
            span,
            diags,
        );
        let attributes = typed_values(
            builder,
            &owner,
            &types,
            TypeKind::Group,
            def,
            "attributes",
            span,
            diags,
        );
        let members = def
            .and_then(|d| d.get("members"))
            .map(|m| builder.strings(m, "`members`", diags))
            .unwrap_or_default();
        let member_spans = def
            .and_then(|d| d.get("members"))
            .map_or(named.span, |m| m.span);
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
            description: text(def, "description"),
            metadata: def
                .and_then(|d| d.get("metadata"))
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
        let (type_name, types, def) = typed(builder, named, TypeKind::Policy, "policy", diags);
        let owner = format!("policy `{}`", named.name);
        let properties = typed_values(
            builder,
            &owner,
            &types,
            TypeKind::Policy,
            def,
            "properties",
            named.span,
            diags,
        );
        let target_names = def
            .and_then(|d| d.get("targets"))
            .map(|t| builder.strings(t, "`targets`", diags))
            .unwrap_or_default();
        let targets_span = def
            .and_then(|d| d.get("targets"))
            .map_or(named.span, |t| t.span);
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
            description: text(def, "description"),
            metadata: def
                .and_then(|d| d.get("metadata"))
                .map(|n| super::metadata_values(builder.reader, n, diags))
                .unwrap_or_default(),
            targets,
            properties,
            triggers: values(builder.reader, def, "triggers", diags),
            location: builder.locator.at(named.span),
        };
        topology.policies.push(policy);
    }
}

fn typed<'n>(
    builder: &mut NodeBuilder,
    named: &'n Named,
    kind: TypeKind,
    what: &str,
    diags: &mut Diagnostics,
) -> (String, TypeNames, Option<&'n Map>) {
    let def = named.def.as_map();
    match builder.type_of(named, what, diags) {
        Some((t, span)) => {
            let types = builder.ancestry.of(builder.model, kind, &t, span, diags);
            (t, types, def)
        }
        None => (String::new(), TypeNames::default(), def),
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
/// A property the type does not define is kept, untyped, and not reported: the normative
/// policy types define no properties (`tosca.policies.Scaling`, `Placement`), and templates
/// give them the settings an orchestrator reads by convention (`min_instances` and
/// `max_instances` on a Scaling policy, which toscana's Kubernetes mapping reads too). A
/// template whose type is unknown (reported where it is named) keeps all its values untyped.
#[allow(clippy::too_many_arguments)]
fn typed_values(
    builder: &mut NodeBuilder,
    owner: &str,
    types: &TypeNames,
    kind: TypeKind,
    def: Option<&Map>,
    section: &str,
    at: crate::source::Span,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    if types.is_empty() {
        return values(builder.reader, def, section, diags);
    }
    let assigned = def.and_then(|d| d.get(section));
    if let Some(assigned) = assigned {
        crate::model::shape::map(assigned, &format!("`{section}`"), diags);
    }
    let defs = super::types::definitions(builder.model, kind, types);
    let definitions = builder.definitions.of(&defs, section);
    let mut typing = builder.typing();
    let mut values = typing.defaults(&definitions, section);
    values.extend(typing.assigned(owner, &definitions, section, assigned, false, diags));
    if section == "properties" && super::nodes::defs_complete(builder.model, &defs) {
        builder
            .typing()
            .check_required(owner, &definitions, &values, at, diags);
    }
    values
}

fn text(def: Option<&Map>, key: &str) -> Option<String> {
    def.and_then(|d| d.get(key))
        .and_then(Yaml::scalar_text)
        .map(str::to_string)
}

fn values(
    reader: &ValueReader,
    def: Option<&Map>,
    key: &str,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    def.and_then(|d| d.get(key))
        .map(|n| super::map_values(reader, n, &format!("`{key}`"), diags))
        .unwrap_or_default()
}

/// Property or attribute mappings by the name they map, a TOSCA 2.0 list key (`[CAPABILITY,
/// endpoint, port]`, §15.2-15.3) written as that list's flow text.
fn mapping_values(
    reader: &ValueReader,
    mappings: &Map,
    key: &str,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    let Some(entries) = mappings.get(key).and_then(Yaml::as_map) else {
        return values(reader, Some(mappings), key, diags);
    };
    entries
        .entries()
        .iter()
        .filter_map(|e| {
            let name = match (e.key.scalar_text(), e.key.as_seq()) {
                (Some(name), _) => name.to_string(),
                (None, Some(items)) => {
                    let parts: Option<Vec<&str>> = items.iter().map(Yaml::scalar_text).collect();
                    format!("[{}]", parts?.join(", "))
                }
                _ => None?,
            };
            Some((name, reader.value(&e.value, diags)))
        })
        .collect()
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

pub fn workflows(
    reader: &ValueReader,
    locator: &Locator,
    template: &TopologyTemplate,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) {
    for named in &template.workflows {
        topology.workflows.push(Workflow {
            name: named.name.clone(),
            description: named
                .def
                .as_map()
                .and_then(|d| d.get("description"))
                .and_then(Yaml::scalar_text)
                .map(str::to_string),
            definition: reader.value(&named.def, diags),
            plan: plan_model(&named.def),
            location: locator.at(named.span),
        });
    }
}

/// The model of a TOSCA 1.0 XML plan, which the XML front end writes as the workflow metadata
/// `xml_plan_language` and `xml_plan_reference`.
fn plan_model(def: &Yaml) -> Option<crate::ir::PlanModel> {
    let meta = def.as_map()?.get("metadata")?.as_map()?;
    Some(crate::ir::PlanModel {
        language: meta.get("xml_plan_language")?.scalar_text()?.to_string(),
        reference: meta
            .get("xml_plan_reference")
            .and_then(Yaml::scalar_text)
            .map(str::to_string),
    })
}

pub fn substitution(
    builder: &mut NodeBuilder,
    template: &TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) -> Option<Substitution> {
    let node = template.substitution_mappings.as_ref()?;
    let map = crate::model::shape::map(node, "`substitution_mappings`", diags)?;
    crate::model::shape::check_keys(
        map,
        &[
            "node_type",
            "substitution_filter",
            "node",
            "properties",
            "attributes",
            "capabilities",
            "requirements",
            "interfaces",
            "description",
            "metadata",
        ],
        "`substitution_mappings`",
        diags,
    );
    let Some(node_type) = map.get("node_type").and_then(Yaml::scalar_text) else {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_MISSING_KEY,
                "substitution_mappings has no `node_type`",
            )
            .at(node.span)
            .hint("add `node_type: <the node type this template substitutes>`"),
        );
        return None;
    };
    let node_type_span = map.get("node_type").map_or(node.span, |n| n.span);
    let node_types = builder.ancestry.of(
        builder.model,
        TypeKind::Node,
        node_type,
        node_type_span,
        diags,
    );
    let nodes = index(topology);
    super::boundary::mappings::check(builder, map, &node_types, topology, &nodes, diags);
    if builder.model.dialect == crate::ir::Dialect::Tosca2 {
        super::requirement_mapping::check(builder.model, map, &node_types, topology, &nodes, diags);
    }
    // A TOSCA 2.0 substitution filter is a condition clause (§15.1 Substitution Mapping), judged
    // where a node is substituted (`substitution`); a Simple Profile node filter is checked here.
    if builder.model.dialect != crate::ir::Dialect::Tosca2 {
        super::boundary::check_substitution_filter(map, diags);
    }
    super::boundary::check_implicit_inputs(
        builder.model,
        map,
        node.span,
        &node_types,
        template,
        diags,
    );
    let boundary = |key: &str, diags: &mut Diagnostics| -> Vec<BoundaryMapping> {
        let Some(section) = map.get(key) else {
            return Vec::new();
        };
        let mut mapped = Vec::new();
        for (index, entry) in super::boundary::mapping_entries(key, section, diags)
            .into_iter()
            .enumerate()
        {
            let Some(name) = super::boundary::mapped_name(&entry.key) else {
                continue;
            };
            let count = match entry.key.as_seq() {
                Some([_, count]) => Some(builder.reader.value(count, diags)),
                _ => None,
            };
            let several =
                key == "requirements" && builder.model.dialect == crate::ir::Dialect::Tosca2;
            let Some(targets) = super::boundary::mapping_targets(&entry.value, several) else {
                let several = if several {
                    ", a selectable node template, or a list of them"
                } else {
                    ""
                };
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        format!(
                            "substitution mapping of `{name}` must be `[node template, {}]`{several}",
                            &key[..key.len() - 1]
                        ),
                    )
                    .at(entry.value.span),
                );
                continue;
            };
            for target in targets {
                let (node, inner) = match target {
                    Target::Pair(node, inner) => (node, Some(inner)),
                    Target::Selectable(node) => (node, None),
                };
                let node_name = node.scalar_text().unwrap_or_default();
                match (nodes.get(node_name), inner) {
                    (Some(id), Some(inner)) => mapped.push(BoundaryMapping {
                        name: name.to_string(),
                        node: *id,
                        target: inner.scalar_text().unwrap_or_default().to_string(),
                        count: count.clone(),
                        entry: index,
                    }),
                    (Some(_), None) => diags.push(
                        Diagnostic::warning(
                            codes::TOSCA_UNSUPPORTED,
                            format!(
                                "requirement `{name}` mapped onto the selectable node template `{node_name}` is not carried into the IR"
                            ),
                        )
                        .at(node.span)
                        .hint("the IR maps a requirement onto a requirement of an inner node; map it as `[node template, requirement]` for backends to see it"),
                    ),
                    (None, _) => diags.push(
                        Diagnostic::error(
                            codes::TOSCA_UNKNOWN_NAME,
                            format!(
                                "substitution mapping names unknown node template `{node_name}`"
                            ),
                        )
                        .at(node.span),
                    ),
                }
            }
        }
        mapped
    };
    let capabilities = boundary("capabilities", diags);
    let requirements = boundary("requirements", diags);
    let interfaces = map
        .get("interfaces")
        .and_then(Yaml::as_map)
        .map(|m| {
            m.entries()
                .iter()
                .filter_map(|e| {
                    let ops = e
                        .value
                        .as_map()?
                        .entries()
                        .iter()
                        .filter_map(|o| {
                            Some((
                                o.key.scalar_text()?.to_string(),
                                o.value.scalar_text()?.to_string(),
                            ))
                        })
                        .collect();
                    Some((e.key.scalar_text()?.to_string(), ops))
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Substitution {
        node_type: node_type.to_string(),
        properties: mapping_values(builder.reader, map, "properties", diags),
        attributes: mapping_values(builder.reader, map, "attributes", diags),
        capabilities,
        requirements,
        interfaces,
        location: builder.locator.at(node.span),
    })
}

pub(super) mod membership {
    //! Group members and policy targets of the types their group or policy type admits (TOSCA 2.0
    //! §16.2 Group Definition, §16.4 Policy Definition; Simple Profile 1.1–1.3 group and policy
    //! types, whose `members` and `targets` lists mean the same).
    //!
    //! A group type's `members` lists the node types its groups may hold: "if the members keyname
    //! was defined (by specifying a <valid_member_type_*>) in the group type of this group then the
    //! nodes listed here must be compatible (i.e. be of that type or of type that is derived from)
    //! with the node types in the <valid_member_type_*>" (§16.2). A policy type's `targets` lists
    //! "the optional list of TOSCA types (i.e. group or node types) that are valid targets for this
    //! policy type; if the `targets` keyname is not defined then there are no restrictions to the
    //! targets' types" (§16.3 Policy Type), so a policy's target must be a node or group of one of
    //! them. The most specific type in the chain that writes the list is the one that counts
    //! (derivation may only narrow it). That the members and targets exist is checked where they
    //! are read ([`crate::resolve::extras`]); this only judges their types.

    use crate::diag::{Diagnostic, Diagnostics, codes};
    use crate::ir::{Dialect, PolicyTarget, Topology};
    use crate::model::{Model, TopologyTemplate, TypeKind};
    use crate::yaml::Node;

    use crate::resolve::selection::{admits, full_names, listed_types};
    use crate::resolve::types::{Ancestry, definitions};

    /// Checks the types of every group's members and every policy's targets.
    pub fn check(
        model: &Model,
        ancestry: &mut Ancestry,
        template: &TopologyTemplate,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) {
        if model.dialect == Dialect::Xml || model.incomplete_types {
            return;
        }
        for (group, named) in topology.groups.iter().zip(&template.groups) {
            let defs = definitions(model, TypeKind::Group, &group.types);
            let allowed = listed_types(ancestry, model, &defs, "members", TypeKind::Node);
            if allowed.is_empty() {
                continue;
            }
            let written = named.def.as_map().and_then(|d| d.get("members"));
            for &member in &group.members {
                let node = &topology.nodes[member.index()];
                if admits(&allowed, &node.types) {
                    continue;
                }
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!("group `{}` has member `{}`, a `{}`, which its group type `{}` does not admit", group.name, node.name, node.type_name, group.type_name),
                    )
                    .at(place_of(written, &node.name, named.span))
                    .hint(format!("a member must be of one of the group type's `members` types or derived from one: {} ({})", allowed.join(", "), section(model.dialect, "§16.2 Group Definition"))),
                );
            }
        }
        for (policy, named) in topology.policies.iter().zip(&template.policies) {
            let defs = definitions(model, TypeKind::Policy, &policy.types);
            let Some(list) = defs.iter().find_map(|d| d.def.as_map()?.get("targets")) else {
                continue;
            };
            let node_types = full_names(ancestry, model, Some(list), TypeKind::Node);
            let group_types = full_names(ancestry, model, Some(list), TypeKind::Group);
            if node_types.is_empty() {
                continue;
            }
            let written = named.def.as_map().and_then(|d| d.get("targets"));
            for target in &policy.targets {
                let (name, type_name, fits) = match *target {
                    PolicyTarget::Node(id) => {
                        let node = &topology.nodes[id.index()];
                        let fits = admits(&node_types, &node.types);
                        (&node.name, &node.type_name, fits)
                    }
                    PolicyTarget::Group(id) => {
                        let group = &topology.groups[id.index()];
                        let fits = admits(&group_types, &group.types);
                        (&group.name, &group.type_name, fits)
                    }
                };
                if fits {
                    continue;
                }
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!("policy `{}` targets `{name}`, a `{type_name}`, which its policy type `{}` does not admit", policy.name, policy.type_name),
                    )
                    .at(place_of(written, name, named.span))
                    .hint(format!("a target must be a node or group of one of the policy type's `targets` types or derived from one: {} ({})", node_types.join(", "), section(model.dialect, "§16.4 Policy Definition, §16.3 Policy Type"))),
                );
            }
        }
    }

    /// Where `name` is written in a list of names, else the list, else the definition.
    fn place_of(
        list: Option<&Node>,
        name: &str,
        otherwise: crate::source::Span,
    ) -> crate::source::Span {
        let item = list
            .and_then(Node::as_seq)
            .and_then(|items| items.iter().find(|i| i.scalar_text() == Some(name)));
        item.or(list).map_or(otherwise, |n| n.span)
    }

    /// The section that states the rule: TOSCA 2.0's, or the Simple Profile's group and policy
    /// definitions.
    fn section(dialect: Dialect, tosca2: &'static str) -> &'static str {
        if dialect == Dialect::Tosca2 {
            tosca2
        } else {
            "Simple Profile 1.1-1.3 group and policy definitions: members and targets of the types their type lists"
        }
    }
}
