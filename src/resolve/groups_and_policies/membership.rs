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
//! are read ([`crate::resolve::groups_and_policies`]); this only judges their types.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, PolicyTarget, Topology};
use crate::model::{Model, TopologyTemplate, TypeKind, Value};

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
        let written = named.members.as_ref();
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
        let written = named.targets.as_ref();
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
    list: Option<&Value>,
    name: &str,
    otherwise: crate::source::Span,
) -> crate::source::Span {
    let item = list
        .and_then(Value::as_list)
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
