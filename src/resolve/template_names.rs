//! In a TOSCA 2.0 service template one name means one thing: "duplicate template names within a
//! service template SHALL be considered an error. These include, but are not limited to
//! duplicate names found for the following template types: Inputs, Outputs, Node Templates,
//! Relationship Templates, Groups, Policies, Workflows" (§6.9.1 Service Template Grammar;
//! T2-ST-03, T2-ERR-33).
//!
//! Each section but `policies` is a YAML map, so within a section YAML already keeps names
//! unique (and the front end reports a policy listed twice); what is left is a name used in two
//! sections. The sentence scopes uniqueness to the service template, not to a section, and a
//! reading "unique within each section" would make it say nothing for the map sections. The
//! node/relationship case matters beyond the rule: a TOSCA Path starts from a template name that
//! may be either kind (§10.3 TOSCA Path: `<tosca_path> ::= <node_symbolic_name>, ... |
//! <relationship_symbolic_name>, ...`), so a shared name makes every path that starts there
//! ambiguous (T2-NODETPL-07).
//!
//! Each name is owned by the first section that uses it, in the grammar's order (inputs,
//! outputs, node templates, relationship templates, groups, policies, workflows); each later
//! use is reported once, at its name, with the first one labelled. Simple Profile 1.x states no
//! such rule (its A.1.1 lists collisions within one entity and from imports), and its own
//! examples name an input and an output alike (1.0 ex-018), so its files are left as they are.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::FastMap;
use crate::ir::Dialect;
use crate::model::definitions::Entry;
use crate::model::grouping::Grouping;
use crate::model::{Model, Named, TopologyTemplate};
use crate::source::Span;

/// What each section's entries are called in a message: the singular with its article.
const SECTIONS: [(&str, &str); 7] = [
    ("inputs", "an input"),
    ("outputs", "an output"),
    ("node_templates", "a node template"),
    ("relationship_templates", "a relationship template"),
    ("groups", "a group"),
    ("policies", "a policy"),
    ("workflows", "a workflow"),
];

/// A name of the service template and where it is written.
type Name<'t> = (&'t str, Span);

/// The service template's names, section by section in [`SECTIONS`] order (inputs and
/// templates are [`Named`], groups and policies typed [`Grouping`]s, outputs typed
/// [`Entry`]s).
fn sections(topology: &TopologyTemplate) -> [Vec<Name<'_>>; 7] {
    fn named(entries: &[Named]) -> Vec<Name<'_>> {
        entries.iter().map(|e| (e.name.as_str(), e.span)).collect()
    }
    fn grouping(entries: &[Grouping]) -> Vec<Name<'_>> {
        entries.iter().map(|g| (g.name.as_str(), g.span)).collect()
    }
    fn entry(entries: &[Entry]) -> Vec<Name<'_>> {
        entries.iter().map(|e| (e.name.as_str(), e.span)).collect()
    }
    [
        named(&topology.inputs),
        entry(&topology.outputs),
        named(&topology.node_templates),
        named(&topology.relationship_templates),
        grouping(&topology.groups),
        grouping(&topology.policies),
        named(&topology.workflows),
    ]
}

/// Reports each name of a TOSCA 2.0 service template used in a second section.
pub fn check(model: &Model, diags: &mut Diagnostics) {
    let Some(topology) = model.topology.as_ref() else {
        return;
    };
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    // The first use of each name: its section (an index into SECTIONS) and its entry.
    let mut owners: FastMap<&str, (usize, Name)> = FastMap::default();
    for (section, entries) in sections(topology).into_iter().enumerate() {
        for entry in entries {
            let Some(&(first_section, first)) = owners.get(entry.0) else {
                owners.insert(entry.0, (section, entry));
                continue;
            };
            if first_section != section {
                diags.push(reuse(
                    entry,
                    SECTIONS[section].1,
                    first,
                    SECTIONS[first_section].1,
                ));
            }
        }
    }
}

/// The error for `entry` (called `kind`) named like `first` (called `first_kind`).
fn reuse(entry: Name, kind: &str, first: Name, first_kind: &str) -> Diagnostic {
    let subject = kind.split_once(' ').map_or(kind, |(_, noun)| noun);
    Diagnostic::error(
        codes::TOSCA_DUPLICATE,
        format!(
            "{subject} `{}` has the name of {first_kind}",
            entry.0
        ),
    )
    .at_with(entry.1, kind)
    .label(first.1, format!("{first_kind} of that name"))
    .hint(
        "inputs, outputs, node and relationship templates, groups, policies and workflows of a \
         service template share one set of names (\"duplicate template names within a service \
         template SHALL be considered an error\", §6.9.1 Service Template Grammar): rename one of them",
    )
}
