//! Whether an assignment is compatible with its requirement definition (T2-REQASSIGN-05), and
//! what it asks of a target: the node type, capability and relationship type of the
//! assignment narrowed by the definition's.

use super::{Decider, Plan, RelationshipInfo};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::type_matches;
use crate::model::TypeKind;
use crate::resolve::nodes::NodeBuilder;
use crate::resolve::selection::{self, Wanted};
use crate::resolve::types::definitions;
use crate::source::Span;

impl<'b> Decider<'_, 'b, '_> {
    /// The assignment against its definition (T2-REQASSIGN-05): a node type, capability and
    /// relationship type of its own must narrow the definition's, a symbolic capability stays
    /// as it is, and the relationship type must admit this node as its source.
    pub(super) fn compatible(&mut self, plan: &Plan, relationship: &RelationshipInfo, at: Span) {
        let model = self.builder.model;
        let source = &self.topology.nodes[plan.source.index()];
        let a = &plan.a;
        let full =
            |b: &mut NodeBuilder, kind, n: &str, file| b.ancestry.full_name(model, kind, n, file);
        if let (Some((node, at)), Some(wanted)) = (&a.node, &plan.def.node)
            && !self.topology.nodes.iter().any(|n| &n.name == node)
            && let Some(wanted_full) =
                full(self.builder, TypeKind::Node, wanted, plan.def.node_in())
        {
            let types = self.builder.ancestry.of(
                model,
                TypeKind::Node,
                node,
                *at,
                &mut Diagnostics::with_cap(0),
            );
            if !types.is_empty() && !type_matches(&types, &wanted_full) {
                self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{}` of `{}` asks for a `{node}`, which does not derive from `{wanted}`, the node type its definition requires",
                            a.name, source.name
                        ),
                    )
                    .at(*at)
                    .hint(format!("name `{wanted}` or a type derived from it (§8.5.2 Requirement Assignment Grammar)")),
                );
            }
        }
        let symbolic = self.symbolic_capability(plan);
        if let (Some(cap), Some(at)) = (&a.capability, a.capability_at) {
            let as_type = full(self.builder, TypeKind::Capability, cap, at.file);
            match (&symbolic, &as_type, &plan.def.capability) {
                (Some(name), Some(_), _) if name != cap => self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{}` of `{}` names capability type `{cap}`, but its definition names the capability `{name}`, which an assignment cannot change",
                            a.name, source.name
                        ),
                    )
                    .at(at)
                    .hint(format!("write `capability: {name}`, or leave it out (§8.5.2 Requirement Assignment Grammar)")),
                ),
                (Some(name), None, _) if name != cap => self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{}` of `{}` names capability `{cap}`, but its definition names the capability `{name}`, which an assignment cannot change",
                            a.name, source.name
                        ),
                    )
                    .at(at)
                    .hint(format!("write `capability: {name}`, or leave it out (§8.5.2 Requirement Assignment Grammar)")),
                ),
                (None, Some(cap_full), Some(wanted)) => {
                    if let Some(wanted_full) = full(
                        self.builder,
                        TypeKind::Capability,
                        wanted,
                        plan.def.capability_in(),
                    ) {
                        let types = self.builder.ancestry.of(
                            model,
                            TypeKind::Capability,
                            cap,
                            at,
                            &mut Diagnostics::with_cap(0),
                        );
                        if !types.is_empty()
                            && !type_matches(&types, &wanted_full)
                            && cap_full != &wanted_full
                        {
                            self.diags.push(
                                Diagnostic::error(
                                    codes::TOSCA_TYPE_MISMATCH,
                                    format!(
                                        "requirement `{}` of `{}` asks for capability type `{cap}`, which does not derive from `{wanted}`, the capability type its definition requires",
                                        a.name, source.name
                                    ),
                                )
                                .at(at)
                                .hint(format!("name `{wanted}` or a type derived from it, or a capability of the target by name (§8.5.2 Requirement Assignment Grammar)")),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        if let (Some(declared), Some(first)) = (&plan.def.relationship, relationship.types.first())
            && let Some(declared_full) = full(
                self.builder,
                TypeKind::Relationship,
                declared,
                plan.def.relationship_in(),
            )
            && !type_matches(&relationship.types, &declared_full)
        {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!(
                        "requirement `{}` of `{}` uses relationship type `{first}`, which does not derive from `{declared}`, the relationship type its definition requires",
                        a.name, source.name
                    ),
                )
                .at(at)
                .hint(format!("use `{declared}` or a type derived from it (§8.5.2 Requirement Assignment Grammar)")),
            );
        }
        if !selection::admits(&relationship.valid_sources, &source.types)
            && let Some(first) = relationship.types.first()
        {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!(
                        "requirement `{}` of `{}` creates a `{first}` relationship, whose type admits only sources of type {}; `{}` is a {}",
                        a.name,
                        source.name,
                        relationship.valid_sources.join(", "),
                        source.name,
                        source.type_name
                    ),
                )
                .at(a.span)
                .hint("use a relationship type whose `valid_source_node_types` admit this node (§7.3 Relationship Type)"),
            );
        }
    }

    /// The definition's capability when it is the symbolic name of a capability of its `node`
    /// type rather than a capability type (§8.4 Requirement Definition; T2-REQDEF-02).
    pub(super) fn symbolic_capability(&mut self, plan: &Plan) -> Option<String> {
        let (cap, node) = (plan.def.capability.as_ref()?, plan.def.node.as_ref()?);
        let key = (node.clone(), cap.clone(), plan.def.node_in());
        if let Some(&known) = self.state.symbolic.get(&key) {
            return known.then(|| cap.clone());
        }
        let symbolic = self.names_capability(plan, node, cap);
        self.state.symbolic.insert(key, symbolic);
        symbolic.then(|| cap.clone())
    }

    /// Whether node type `node` has a capability named `cap`.
    pub(super) fn names_capability(&mut self, plan: &Plan, node: &str, cap: &str) -> bool {
        let model = self.builder.model;
        let written = plan.def.node_in();
        let Some(full) = self
            .builder
            .ancestry
            .full_name(model, TypeKind::Node, node, written)
        else {
            return false;
        };
        let types = self.builder.ancestry.chain(model, TypeKind::Node, &full);
        let defs = definitions(model, TypeKind::Node, &types);
        crate::resolve::filters::capability_names(&defs).contains(&cap)
    }

    /// What the assignment asks of its target's type and capability.
    pub(super) fn wanted(
        &mut self,
        plan: &Plan,
        named_template: bool,
        relationship: &RelationshipInfo,
    ) -> Wanted {
        let model = self.builder.model;
        let mut wanted = Wanted {
            admitted: relationship.valid_capabilities.clone(),
            ..Wanted::default()
        };
        if !named_template
            && let Some((n, at)) = &plan.a.node
            && let Some(full) = self
                .builder
                .ancestry
                .full_name(model, TypeKind::Node, n, at.file)
        {
            wanted.node_types.push(full);
        }
        let node_in = plan.def.node_in();
        if let Some(full) = plan.def.node.as_ref().and_then(|n| {
            self.builder
                .ancestry
                .full_name(model, TypeKind::Node, n, node_in)
        }) && !wanted.node_types.contains(&full)
        {
            wanted.node_types.push(full);
        }
        let symbolic = self.symbolic_capability(plan);
        let written = match &plan.a.capability {
            Some(c) => Some((c.clone(), plan.a.capability_at.unwrap_or(plan.a.span).file)),
            None => symbolic.clone().map(|c| (c, plan.def.capability_in())),
        };
        wanted.capability = written.map(|(c, file)| {
            let full = self
                .builder
                .ancestry
                .full_name(model, TypeKind::Capability, &c, file);
            (c, full)
        });
        if symbolic.is_none() {
            let capability_in = plan.def.capability_in();
            wanted.capability_type = plan.def.capability.as_ref().and_then(|c| {
                self.builder
                    .ancestry
                    .full_name(model, TypeKind::Capability, c, capability_in)
            });
        }
        wanted
    }
}
