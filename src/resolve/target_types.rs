//! A Simple Profile requirement that names its target node template must connect to a
//! capability its relationship type admits (checklist SP-ERR-41, SP-REQA-07): the relationship
//! type's `valid_target_types`, "one or more names of Capability Types that are valid targets
//! for this relationship" (A.6.9.1 Relationship Type Keynames), must admit the target capability
//! the requirement connects to. A warning: the TOSCA 1.0 XML reader's YAML conversion writes
//! XML relationships as the `dependency` requirement with a HostedOn or ConnectsTo relationship
//! template to a node's `feature`, and real 1.x files do the same; refusing them would refuse
//! files other processors read, so the warning says the rule and the output keeps the edge.
//!
//! The other half of SP-ERR-41, a capability's `valid_source_types` excluding the source's
//! node type, is judged the same way: where a requirement selects its target,
//! [`super::selection`] passes over templates whose capability refuses the source; for a named
//! target it is a warning. The keyname is "An optional list of one or more valid names of Node
//! Types that are supported as valid sources of any relationship established to the declared
//! Capability Type" (A.6.1.1 Capability definition Keynames, A.6.1 Capability Type): it says
//! which sources are supported, with no SHALL that a processor refuse another, and templates
//! commonly host a Database or a type derived from `tosca.nodes.Root` on a Compute by name,
//! whose normative `host` admits only `tosca.nodes.SoftwareComponent` (C.7.2
//! tosca.nodes.Compute): this repository's `examples/hello.yaml`, tosca-parser's own interface
//! tests, which other processors accept. The warning names the rule; the edge is kept.
//!
//! A requirement that selects its target is fulfilled only by templates that pass these checks;
//! one that names a template was connected without them. TOSCA 2.0 fulfilment judges both
//! itself ([`super::fulfil`]), and TOSCA 1.0 XML matches requirements to capabilities by its own
//! rules, so neither is judged here. An empty or absent list admits anything, and nothing is
//! judged where the capability is unknown (the missing capability is reported on its own).

use super::nodes::NodeBuilder;
use super::requirements::admitted_capabilities;
use super::selection::{admits, valid_types};
use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, Subject, codes};
use crate::ir::{Dialect, Relationship, Topology};
use crate::model::TypeKind;
use crate::source::Span;

/// Checks relationship `rel`, made for a requirement assignment whose target is written at
/// `at`.
pub(super) fn check(
    builder: &mut NodeBuilder,
    topology: &Topology,
    rel: &Relationship,
    at: Span,
    diags: &mut Diagnostics,
) {
    let Some(name) = &rel.capability else {
        return;
    };
    if builder.model.dialect == Dialect::Xml {
        return;
    }
    let (source, target) = (
        &topology.nodes[rel.source.index()],
        &topology.nodes[rel.target.index()],
    );
    let Some(capability) = target.capabilities.get(name) else {
        return;
    };
    let (source_subject, target_subject) =
        (Subject::quoted(&source.name), Subject::quoted(&target.name));
    let requirement = Subject::new("requirement", &rel.requirement).of(&source_subject);
    let capability_subject = Subject::new("capability", name).of(&target_subject);
    let what = format_args!("{requirement} connects to {capability_subject}");
    let is = capability
        .type_name
        .as_deref()
        .unwrap_or("of an unknown type");
    let defs = definitions(builder.model, TypeKind::Relationship, &rel.types);
    let admitted = admitted_capabilities(builder.model, builder.ancestry, &defs);
    if !admits(&admitted, &capability.types) {
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "{what}, a `{is}`, which relationship type `{}` does not admit: its valid_target_types are {}",
                    rel.type_name,
                    admitted.join(", ")
                ),
            )
            .at(at)
            .hint("a relationship connects only to capabilities of its type's `valid_target_types` (A.6.9.1 Relationship Type Keynames): name a target with a capability of one of those types, or use another relationship type"),
        );
    }
    let sources = valid_types(
        builder.model,
        builder.ancestry,
        target,
        name,
        capability,
        "valid_source_types",
        TypeKind::Node,
    );
    if !admits(&sources, &source.types) {
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "{what}, which supports only sources of type {}; `{}` is a `{}`",
                    sources.join(", "),
                    source.name,
                    source.type_name
                ),
            )
            .at(at)
            .hint("a capability's `valid_source_types` are \"valid names of Node Types that are supported as valid sources of any relationship established to\" it (A.6.1 Capability Type): connect a node of one of those types, or give the target a capability that admits this one (a node type may redefine the capability's valid_source_types)"),
        );
    }
}
