//! Constraints the resolver adds to the conditions (§ Constraints Options): presence of
//! relation ends, containers and hosting stacks, uniqueness of names, required technologies,
//! artifacts and incoming relations; and the implications of implied elements (§ Requirement
//! Assignment, `implied`). Each is a formula that every solution satisfies.

use super::formula::Formula;
use super::model::{Data, Id, Implied, Kind, Model};
use super::options::Options;
use super::vars::Vars;

/// Groups `list` by element name, in order of first appearance.
fn by_name(m: &Model<'_>, list: &[Id]) -> Vec<Vec<Id>> {
    let mut groups: indexmap::IndexMap<&str, Vec<Id>> = indexmap::IndexMap::new();
    for id in list {
        groups
            .entry(m.get(*id).name.as_str())
            .or_default()
            .push(*id);
    }
    groups.into_values().collect()
}

/// `node` implies exactly one of `items` (the one itself, when there is one).
fn requires_one(v: &Vars, node: Id, items: &[Id]) -> Formula {
    let consequence = match items {
        [one] => v.present(*one),
        _ => Formula::exo(items.iter().map(|i| v.present(*i)).collect()),
    };
    Formula::implies(v.present(node), consequence)
}

pub fn constraints(m: &Model<'_>, o: &Options<'_>, v: &Vars) -> Vec<Formula> {
    let mut out = Vec::new();
    let relations: Vec<Id> = m.of(Kind::Relation).collect();
    let nodes: Vec<Id> = m.of(Kind::Node).collect();
    if o.constraint("relation_source_constraint") {
        for r in &relations {
            out.push(Formula::implies(
                v.present(*r),
                v.present(m.relation_data(*r).source),
            ));
        }
    }
    if o.constraint("relation_target_constraint") {
        for r in &relations {
            out.push(Formula::implies(
                v.present(*r),
                v.present(m.relation_data(*r).target),
            ));
        }
    }
    let contained = |kind: Kind, key: &str, out: &mut Vec<Formula>| {
        if o.constraint(key) {
            for e in m.of(kind) {
                if let Some(c) = m.get(e).container {
                    out.push(Formula::implies(v.present(e), v.present(c)));
                }
            }
        }
    };
    contained(Kind::Artifact, "artifact_container_constraint", &mut out);
    contained(Kind::Property, "property_container_constraint", &mut out);
    contained(Kind::Type, "type_container_constraint", &mut out);
    let amo_by_name = |lists: Vec<Vec<Id>>, out: &mut Vec<Formula>| {
        for list in lists {
            for group in by_name(m, &list) {
                if group.len() > 1 {
                    out.push(Formula::amo(group.iter().map(|i| v.present(*i)).collect()));
                }
            }
        }
    };
    if o.constraint("unique_artifact_constraint") {
        amo_by_name(
            nodes
                .iter()
                .map(|n| m.node_data(*n).artifacts.clone())
                .collect(),
            &mut out,
        );
    }
    if o.constraint("unique_property_constraint") {
        let containers = m
            .elements
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    Kind::Node | Kind::Relation | Kind::Policy | Kind::Group | Kind::Artifact
                )
            })
            .map(|e| e.properties.clone())
            .collect();
        amo_by_name(containers, &mut out);
    }
    if o.constraint("unique_relation_constraint") {
        amo_by_name(
            nodes
                .iter()
                .map(|n| m.node_data(*n).outgoing.clone())
                .collect(),
            &mut out,
        );
    }
    if o.constraint("unique_input_constraint") {
        amo_by_name(vec![m.of(Kind::Input).collect()], &mut out);
    }
    if o.constraint("unique_output_constraint") {
        amo_by_name(vec![m.of(Kind::Output).collect()], &mut out);
    }
    for n in &nodes {
        let data = m.node_data(*n);
        let hostings = m.hostings(*n);
        if !hostings.is_empty() {
            if o.constraint("required_hosting_constraint") {
                out.push(requires_one(v, *n, &hostings));
            }
            if o.constraint("single_hosting_constraint") {
                out.push(Formula::implies(
                    v.present(*n),
                    Formula::amo(hostings.iter().map(|h| v.present(*h)).collect()),
                ));
            }
        }
        if !data.technologies.is_empty() {
            if o.constraint("required_technology_constraint") {
                out.push(requires_one(v, *n, &data.technologies));
            }
            if o.constraint("unique_technology_constraint") {
                out.push(Formula::amo(
                    data.technologies.iter().map(|t| v.present(*t)).collect(),
                ));
            }
        }
        if !data.ingoing.is_empty() && o.constraint("required_incoming_relation_constraint") {
            out.push(Formula::implies(
                v.present(*n),
                Formula::or(data.ingoing.iter().map(|r| v.present(*r)).collect()),
            ));
        }
        if !data.artifacts.is_empty() && o.constraint("required_artifact_constraint") {
            out.push(requires_one(v, *n, &data.artifacts));
        }
    }
    out.extend(implications(m, o, v));
    out
}

/// An implied element is present whenever its container (or, for a relation implied by its
/// target, its target) is present and its manual conditions hold. With the enhanced mode
/// (`relation_enhanced_implication_mode`, on by default) a relation is implied only when the
/// manual conditions of its target hold too, so a target its own conditions remove never
/// forces the relation (and with it the template) into a contradiction.
fn implications(m: &Model<'_>, o: &Options<'_>, v: &Vars) -> Vec<Formula> {
    let mut out = Vec::new();
    for (id, e) in m.elements.iter().enumerate() {
        if e.implied == Implied::No {
            continue;
        }
        let Some(container) = e.container.or_else(|| (e.kind == Kind::Node).then_some(id)) else {
            continue;
        };
        let mut left = vec![v.manual(id)];
        match (e.implied, &e.data) {
            (Implied::Target, Data::Relation(r)) => left.push(v.present(r.target)),
            (_, Data::Relation(r)) => {
                left.push(v.present(r.source));
                if o.relation_enhanced_implication() {
                    left.push(v.manual(r.target));
                }
            }
            _ if e.kind == Kind::Node => {}
            _ => left.push(v.present(container)),
        }
        out.push(Formula::implies(Formula::and(left), v.present(id)));
    }
    out
}
