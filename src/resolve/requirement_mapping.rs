//! TOSCA 2.0's rules for mapping a substituted node's requirements onto the substituting
//! template (§15.5.4 Requirement Mapping Rules; checklist T2-SUBMAP):
//!
//! 1. a requirement can only be mapped onto a *dangling* requirement of an inner node, one the
//!    substituting template leaves unfulfilled (the outer node's relationship takes its place);
//! 2. no more mappings onto *mandatory* (non-optional) inner requirements than the lower bound
//!    of the outer requirement's `count_range`: only that many outer relationships are
//!    guaranteed to exist, and each mandatory inner requirement needs one;
//! 3. no more mappings in all than the upper bound of that `count_range`.
//!
//! Fewer mappings than the lower bound are allowed (§15.5.4 Requirement Mapping Rules). Rule 2
//! broken against a `count_range` the type does not write (the implied `[0, UNBOUNDED]`) is a
//! warning: the community profiles leave the range out on requirements they mean to be always
//! there.

use indexmap::IndexMap;

use super::assignments::definition;
use crate::diag::{Diagnostic, Diagnostics, codes, plural};
use crate::ir::{NodeId, Topology};
use crate::model::substitution::{BoundaryMappings, Target};
use crate::model::{Model, Text, Value};
use crate::source::Span;

/// What the mappings of one outer requirement name map onto.
#[derive(Default)]
struct Mapped<'m> {
    /// Each mapping's key, in the order written.
    all: Vec<&'m Value>,
    /// The keys of the mappings onto a mandatory inner requirement.
    mandatory: Vec<&'m Value>,
}

/// Checks the `requirements` mappings of a TOSCA 2.0 `substitution_mappings` against the rules
/// above; `node_types` is the substituted node type's ancestry, `nodes` the inner templates.
pub fn check(
    model: &Model,
    requirements: &BoundaryMappings,
    node_types: &[String],
    topology: &Topology,
    nodes: &crate::hash::FastMap<&str, NodeId>,
    diags: &mut Diagnostics,
) {
    let mut by_name: IndexMap<&str, Mapped> = IndexMap::new();
    for entry in &requirements.entries {
        let Some(name) = entry.key.scalar_text() else {
            continue;
        };
        // One mapping may name several inner requirements (§15.5.2): they share the one outer
        // relationship, so the mapping counts once, as mandatory if any of them is.
        let mut mandatory = false;
        for target in entry.targets.iter().flatten() {
            if let Target::Pair(node, inner) = target {
                mandatory |= onto_mandatory(node, inner, topology, nodes, diags);
            }
        }
        let mapped = by_name.entry(name).or_default();
        mapped.all.push(&entry.key);
        if mandatory {
            mapped.mandatory.push(&entry.key);
        }
    }
    let node_type = node_types.first().map_or("", String::as_str);
    for (name, mapped) in by_name {
        let outer = definition(model, node_types, name);
        let (Some(bounds), Some(defined_at)) = (outer.bounds, outer.at) else {
            continue; // an undefined name is reported with the other mapped names
        };
        let range_at = outer.bounds_at.unwrap_or(defined_at);
        let guaranteed = usize::try_from(bounds.min).unwrap_or(usize::MAX);
        if let Some(excess) = mapped.mandatory.get(guaranteed) {
            // A range the type does not write is the implied `[0, UNBOUNDED]` (§8.4 Requirement
            // Definition): the profiles in use leave it out where they mean a requirement that is
            // always there, so breaking it is a warning; breaking a written guarantee is an error.
            let written = outer.bounds_at.is_some();
            diags.push(too_many(
                written,
                format!(
                    "substitution maps requirement `{name}` of node type `{node_type}` onto {} non-optional requirement{} of the substituting template, but its `count_range` {}{} guarantees {} `{name}` relationship{}",
                    mapped.mandatory.len(),
                    plural(mapped.mandatory.len() as u64),
                    bounds.show(),
                    if written { "" } else { " (implied: the type writes none)" },
                    match guaranteed { 0 => "no".to_string(), n => format!("only {n}") },
                    plural(bounds.min),
                ),
                excess.span,
                range_at,
                if written {
                    "make the other inner requirements optional (`optional: true`, or a `count_range` lower bound of 0 in their type) or map fewer of them (§15.5.4 rule 2)"
                } else {
                    "write the `count_range` the substituted node's type means (e.g. `[1, 1]`), or make the inner requirements optional (`optional: true`) (§8.4 Requirement Definition; §15.5.4 rule 2)"
                },
            ));
        }
        let allowed = bounds.max.and_then(|m| usize::try_from(m).ok());
        if let Some(excess) = allowed.and_then(|max| mapped.all.get(max)) {
            diags.push(too_many(
                true,
                format!(
                    "substitution maps `{name}` of node type `{node_type}` {} times, more than the upper bound of its `count_range` {}",
                    mapped.all.len(),
                    bounds.show()
                ),
                excess.span,
                range_at,
                "remove the mappings beyond the upper bound (§15.5.4 rule 3)",
            ));
        }
    }
}

/// An error, or a warning when the `count_range` broken is not `written` but implied.
fn too_many(written: bool, message: String, at: Span, range_at: Span, hint: &str) -> Diagnostic {
    let code = codes::TOSCA_REQUIREMENT_MAPPING;
    match written {
        true => Diagnostic::error(code, message),
        false => Diagnostic::warning(code, message),
    }
    .at_with(at, "one mapping too many")
    .label(
        range_at,
        "the `count_range` of the substituted node's requirement",
    )
    .hint(hint)
}

/// Whether the mapping onto requirement `inner` of node template `node` maps onto a mandatory
/// requirement; reports a mapping onto a requirement the inner template already fulfils.
fn onto_mandatory(
    node: &Text,
    inner: &Text,
    topology: &Topology,
    nodes: &crate::hash::FastMap<&str, NodeId>,
    diags: &mut Diagnostics,
) -> bool {
    let (node_name, inner_name) = (node.text.as_str(), inner.text.as_str());
    let Some(&id) = nodes.get(node_name) else {
        return false; // reported where the mapping is read
    };
    let assigned: Vec<_> = topology.nodes[id.index()]
        .requirements
        .iter()
        .filter(|r| r.name == inner_name)
        .collect();
    let dangling: Vec<_> = assigned
        .iter()
        .filter(|r| r.relationship.is_none())
        .collect();
    if !assigned.is_empty() && dangling.is_empty() {
        let target = assigned
            .iter()
            .filter_map(|r| r.relationship)
            .map(|r| {
                topology.nodes[topology.relationships[r.index()].target.index()]
                    .name
                    .as_str()
            })
            .next()
            .unwrap_or_default();
        diags.push(
            Diagnostic::error(
                codes::TOSCA_REQUIREMENT_MAPPING,
                format!(
                    "substitution maps a requirement onto `{inner_name}` of node template `{node_name}`, which the substituting template already fulfils (with `{target}`)"
                ),
            )
            .at_with(inner.span, "not a dangling requirement")
            .hint(format!(
                "only a requirement the substituting template leaves unfulfilled can be mapped (§15.5.4 rule 1): drop the target of `{inner_name}` in `{node_name}` or map another requirement"
            )),
        );
        return false;
    }
    dangling.iter().any(|r| !r.optional)
}
