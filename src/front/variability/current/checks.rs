//! The consistency and semantic checks of the resolved topology (§ Conduct Checks, § Checks
//! Options), in the reference resolver's order and with its texts; every failure is reported,
//! the first being the one the reference resolver stops at.

use crate::diag::{Diagnostic, Diagnostics, codes};

use super::model::{Data, Id, Kind, Model};
use super::options::Options;

pub fn run(m: &Model<'_>, o: &Options<'_>, present: &[bool], diags: &mut Diagnostics) {
    let is = |id: Id| present[id];
    let mut fail = |id: Id, message: String, hint: &str| {
        diags.push(
            Diagnostic::error(codes::VAR_INCONSISTENT, message)
                .at(m.get(id).span)
                .hint(hint.to_string()),
        );
    };
    let of = |k: Kind| -> Vec<Id> { m.of(k).filter(|i| present[*i]).collect() };
    let relations = of(Kind::Relation);
    let nodes = of(Kind::Node);
    let c = |key: &str| o.consistency_check(key);
    let s = |key: &str| o.semantic_check(key);
    if c("relation_source_check") {
        for r in &relations {
            let source = m.relation_data(*r).source;
            if !is(source) {
                fail(
                    *r,
                    format!(
                        "Relation source \"{}\" of {} does not exist",
                        m.get(source).name,
                        m.display(*r)
                    ),
                    "give the requirement assignment a condition that holds only when its node is present, or prune relations (`relation_pruning: true`)",
                );
            }
        }
    }
    if c("relation_target_check") {
        for r in &relations {
            let target = m.relation_data(*r).target;
            if !is(target) {
                fail(
                    *r,
                    format!(
                        "Relation target \"{}\" of {} does not exist",
                        m.get(target).name,
                        m.display(*r)
                    ),
                    "give the requirement assignment a condition that holds only when its target is present, or prune relations (`relation_pruning: true`)",
                );
            }
        }
    }
    let containers = |kind: Kind, key: &str, fail: &mut dyn FnMut(Id, String, &str)| {
        if c(key) {
            for e in m.of(kind).filter(|i| present[*i]) {
                if let Some(container) = m.get(e).container
                    && !is(container)
                {
                    fail(
                        e,
                        format!("Container of {} does not exist", m.display(e)),
                        "give it a condition that holds only when its container is present, or switch its pruning on",
                    );
                }
            }
        }
    };
    containers(
        Kind::Artifact,
        "missing_artifact_container_check",
        &mut fail,
    );
    let unique_names = |lists: Vec<Vec<Id>>, fail: &mut dyn FnMut(Id, String, &str)| {
        for list in lists {
            let mut seen: Vec<&str> = Vec::new();
            for e in list.into_iter().filter(|i| present[*i]) {
                let name = m.get(e).name.as_str();
                if seen.contains(&name) {
                    fail(
                        e,
                        format!("{} is ambiguous", m.display_upper(e)),
                        "at most one element of a name may be present; make their conditions exclude each other",
                    );
                }
                seen.push(name);
            }
        }
    };
    if c("ambiguous_artifact_check") {
        unique_names(
            nodes
                .iter()
                .map(|n| m.node_data(*n).artifacts.clone())
                .collect(),
            &mut fail,
        );
    }
    containers(
        Kind::Property,
        "missing_property_container_check",
        &mut fail,
    );
    if c("ambiguous_property_check") {
        unique_names(
            nodes.iter().map(|n| m.get(*n).properties.clone()).collect(),
            &mut fail,
        );
    }
    containers(Kind::Type, "missing_type_container_check", &mut fail);
    if c("ambiguous_type_check") {
        for kind in [Kind::Node, Kind::Group, Kind::Policy, Kind::Artifact] {
            for e in of(kind) {
                let types: Vec<Id> = m.get(e).types.iter().copied().filter(|t| is(*t)).collect();
                if types.is_empty() {
                    fail(
                        e,
                        format!("{} has no type", m.display_upper(e)),
                        "give one of its type assignments a condition that holds",
                    );
                }
            }
            unique_names(
                of(kind).iter().map(|e| m.get(*e).types.clone()).collect(),
                &mut fail,
            );
        }
    }
    if c("ambiguous_hosting_check") {
        for n in &nodes {
            if m.hostings(*n).into_iter().filter(|r| is(*r)).count() > 1 {
                fail(
                    *n,
                    format!(
                        "{} has more than one hosting relations",
                        m.display_upper(*n)
                    ),
                    "make the conditions of its hosting requirements exclude each other",
                );
            }
        }
    }
    if s("expected_hosting_check") {
        for n in &nodes {
            let hostings = m.hostings(*n);
            if !hostings.is_empty() && !hostings.iter().any(|r| is(*r)) {
                fail(
                    *n,
                    format!(
                        "{} expected to have a hosting relation",
                        m.display_upper(*n)
                    ),
                    "one of its hosting requirements must be present whenever the node is",
                );
            }
        }
    }
    if s("expected_incoming_relation_check") {
        for n in &nodes {
            let ingoing = &m.node_data(*n).ingoing;
            if !ingoing.is_empty() && !ingoing.iter().any(|r| is(*r)) {
                fail(
                    *n,
                    format!(
                        "{} expected to have an incoming relation",
                        m.display_upper(*n)
                    ),
                    "a node that had incoming relations keeps one, or is removed by pruning",
                );
            }
        }
    }
    if s("expected_artifact_check") {
        for n in &nodes {
            let artifacts = &m.node_data(*n).artifacts;
            if !artifacts.is_empty() && !artifacts.iter().any(|a| is(*a)) {
                fail(
                    *n,
                    format!(
                        "{} expected to have an deployment artifact",
                        m.display_upper(*n)
                    ),
                    "a node that had deployment artifacts keeps one, or is removed by pruning",
                );
            }
        }
    }
    if s("expected_technology_check") {
        for n in &nodes {
            let technologies = &m.node_data(*n).technologies;
            if !technologies.is_empty() && !technologies.iter().any(|t| is(*t)) {
                fail(
                    *n,
                    format!("{} expected to have a technology", m.display_upper(*n)),
                    "one of its technologies must be present whenever the node is",
                );
            }
        }
    }
    containers(
        Kind::Technology,
        "missing_technology_container_check",
        &mut fail,
    );
    if c("ambiguous_technology_check") {
        for n in &nodes {
            let technologies = &m.node_data(*n).technologies;
            if technologies.iter().filter(|t| is(**t)).count() > 1 {
                fail(
                    *n,
                    format!("{} has more than one technology", m.display_upper(*n)),
                    "switch technology pruning on, or make the technologies' conditions exclude each other",
                );
            }
        }
    }
    if c("ambiguous_input_check") {
        unique_names(vec![m.of(Kind::Input).collect()], &mut fail);
    }
    if o.unconsumed_input_check() {
        for i in of(Kind::Input) {
            if let Data::Input { consumers } = &m.get(i).data
                && !consumers.iter().any(|c| is(*c))
            {
                fail(
                    i,
                    format!("{} is not consumed", m.display_upper(i)),
                    "remove the input, or switch input pruning on",
                );
            }
        }
    }
    if c("ambiguous_output_check") {
        unique_names(vec![m.of(Kind::Output).collect()], &mut fail);
    }
    if o.unproduced_output_check() {
        for out in of(Kind::Output) {
            if let Data::Output { producers } = &m.get(out).data
                && producers.iter().any(|p| !is(*p))
            {
                fail(
                    out,
                    format!("{} is not produced", m.display_upper(out)),
                    "remove the output, or switch output pruning on",
                );
            }
        }
    }
    // The resolved template needs one type per present node: one that had technologies takes
    // the type its present technology assigns.
    for n in &nodes {
        let technologies = &m.node_data(*n).technologies;
        if !technologies.is_empty() && !technologies.iter().any(|t| is(*t)) {
            fail(
                *n,
                format!("{} has no present technology", m.display_upper(*n)),
                "give one of its technologies a condition that holds, or switch technology pruning off",
            );
        }
    }
    if c("ambiguous_relation_check") {
        unique_names(
            nodes
                .iter()
                .map(|n| m.node_data(*n).outgoing.clone())
                .collect(),
            &mut fail,
        );
    }
}
