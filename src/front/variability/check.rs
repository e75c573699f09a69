//! The consistency checks of the spec ("Check Consistency"), in the RC's order: every failure is
//! reported, the first one being the one the RC would throw.

use indexmap::IndexMap;

use super::eval::{Evaluator, display};
use super::graph::{Id, Owner};
use super::options::{Check, Options};
use crate::diag::{Diagnostic, codes};
use crate::source::Span;

/// Whether an element was decided present (failed ones count as absent: their error is out).
fn present(ev: &Evaluator<'_, '_>, id: Id) -> bool {
    ev.decided(id).is_some_and(|(p, _)| p)
}

fn fail(ev: &mut Evaluator<'_, '_>, message: String, span: Span, hint: &str) {
    ev.diags.push(
        Diagnostic::error(codes::VAR_INCONSISTENT, message)
            .at(span)
            .hint(hint.to_string()),
    );
}

pub fn run(ev: &mut Evaluator<'_, '_>, options: &Options) {
    relation_ends(ev, options);
    hosting(ev, options);
    artifacts(ev, options);
    properties(ev, options);
}

/// A present relation's source and target are present.
fn relation_ends(ev: &mut Evaluator<'_, '_>, options: &Options) {
    let g = ev.g;
    let relations = (0..g.relations.len()).filter(|r| present(ev, Id::Relation(*r)));
    let relations: Vec<usize> = relations.collect();
    if options.checks(Check::RelationSource) {
        for &r in &relations {
            let rel = &g.relations[r];
            if !present(ev, Id::Node(rel.source)) {
                let message = format!(
                    "Relation source \"{}\" of relation \"{}\" does not exist",
                    g.nodes[rel.source].name,
                    ev.relation_name(r)
                );
                fail(
                    ev,
                    message,
                    rel.item.span,
                    "give the requirement assignment a condition that also holds only when its node is present, or prune relations (`--prune relations`)",
                );
            }
        }
    }
    if options.checks(Check::RelationTarget) {
        for &r in &relations {
            let rel = &g.relations[r];
            if let Some(t) = rel.target
                && !present(ev, Id::Node(t))
            {
                let message = format!(
                    "Relation target \"{}\" of relation \"{}\" does not exist",
                    g.nodes[t].name,
                    ev.relation_name(r)
                );
                fail(
                    ev,
                    message,
                    rel.item.span,
                    "give the requirement assignment a condition that holds only when its target is present",
                );
            }
        }
    }
}

/// A present node has at most one hosting relation, and one if it had any.
fn hosting(ev: &mut Evaluator<'_, '_>, options: &Options) {
    let g = ev.g;
    let nodes: Vec<usize> = (0..g.nodes.len())
        .filter(|n| present(ev, Id::Node(*n)))
        .collect();
    let hosting = |r: &usize| g.relations[*r].name == "host";
    if options.checks(Check::AmbiguousHosting) {
        for &n in &nodes {
            let count = g.nodes[n]
                .relations
                .iter()
                .filter(|r| hosting(r) && present(ev, Id::Relation(**r)))
                .count();
            if count > 1 {
                let message = format!(
                    "Node \"{}\" has more than one hosting relations",
                    g.nodes[n].name
                );
                fail(
                    ev,
                    message,
                    g.nodes[n].key.span,
                    "make the conditions of its `host` requirements exclude each other",
                );
            }
        }
    }
    if options.checks(Check::ExpectedHosting) {
        for &n in &nodes {
            let mut hosts = g.nodes[n]
                .relations
                .iter()
                .filter(|r| hosting(r))
                .peekable();
            if hosts.peek().is_some() && !hosts.any(|r| present(ev, Id::Relation(*r))) {
                let message = format!("Node \"{}\" requires a hosting relation", g.nodes[n].name);
                fail(
                    ev,
                    message,
                    g.nodes[n].key.span,
                    "one of its `host` requirements must be present whenever the node is",
                );
            }
        }
    }
}

/// A present artifact's node is present, and its name is unique among the node's artifacts.
fn artifacts(ev: &mut Evaluator<'_, '_>, options: &Options) {
    let g = ev.g;
    if options.checks(Check::MissingArtifactParent) {
        for (a, art) in g.artifacts.iter().enumerate() {
            if present(ev, Id::Artifact(a)) && !present(ev, Id::Node(art.node)) {
                let message = format!(
                    "Node \"{}\" of artifact \"{}\" does not exist",
                    g.nodes[art.node].name,
                    display(art.name, art.index)
                );
                fail(
                    ev,
                    message,
                    art.key.span,
                    "give the artifact a condition, or prune artifacts (`--prune artifacts`)",
                );
            }
        }
    }
    if options.checks(Check::AmbiguousArtifact) {
        for node in &g.nodes {
            let mut seen: IndexMap<&str, ()> = IndexMap::new();
            for &a in &node.artifacts {
                let art = &g.artifacts[a];
                if present(ev, Id::Artifact(a)) && seen.insert(art.name, ()).is_some() {
                    let message = format!(
                        "Artifact \"{}\" of node \"{}\" is ambiguous",
                        display(art.name, art.index),
                        node.name
                    );
                    fail(
                        ev,
                        message,
                        art.key.span,
                        "at most one artifact of a name may be present; make their conditions exclude each other",
                    );
                }
            }
        }
    }
}

/// A present property's node or relation is present, and its name is unique among the node's
/// properties.
fn properties(ev: &mut Evaluator<'_, '_>, options: &Options) {
    let g = ev.g;
    if options.checks(Check::MissingPropertyParent) {
        for (p, prop) in g.properties.iter().enumerate() {
            if !present(ev, Id::Property(p)) {
                continue;
            }
            let shown = display(prop.name, prop.index);
            match prop.owner {
                Owner::Node(n) if !present(ev, Id::Node(n)) => {
                    let message = format!(
                        "Node \"{}\" of property \"{shown}\" does not exist",
                        g.nodes[n].name
                    );
                    fail(
                        ev,
                        message,
                        prop.key.span,
                        "give the property a condition, or prune properties (`--prune properties`)",
                    );
                }
                Owner::RTemplate(rt) => {
                    if let Some(r) = g.rtemplates[rt].used_by
                        && !present(ev, Id::Relation(r))
                    {
                        let message = format!(
                            "Relation \"{}\" of property \"{shown}\" does not exist",
                            ev.relation_name(r)
                        );
                        fail(
                            ev,
                            message,
                            prop.key.span,
                            "give the property a condition, or prune properties (`--prune properties`)",
                        );
                    }
                }
                _ => {}
            }
        }
    }
    if options.checks(Check::AmbiguousProperty) {
        for node in &g.nodes {
            let mut seen: IndexMap<&str, ()> = IndexMap::new();
            for &p in &node.properties {
                let prop = &g.properties[p];
                if present(ev, Id::Property(p)) && seen.insert(prop.name, ()).is_some() {
                    let message = format!(
                        "Property \"{}\" of node \"{}\" is ambiguous",
                        display(prop.name, prop.index),
                        node.name
                    );
                    fail(
                        ev,
                        message,
                        prop.key.span,
                        "at most one value of a property may be present; make their conditions exclude each other",
                    );
                }
            }
        }
    }
}
