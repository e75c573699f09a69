//! Whether an assignment is compatible with its requirement definition (T2-REQASSIGN-05), and
//! what it asks of a target: the node type, capability and relationship type of the
//! assignment narrowed by the definition's.

use super::{Decider, Plan, RelationshipInfo};
use crate::diag::{Diagnostic, codes};
use crate::ir::{TypeNames, type_matches};
use crate::model::TypeKind;
use crate::resolve::selection::{self, Wanted};
use crate::resolve::types::definitions;
use crate::source::{FileId, Span};

impl<'b> Decider<'_, 'b, '_> {
    /// The assignment against its definition (T2-REQASSIGN-05): a node type, capability and
    /// relationship type of its own must narrow the definition's, a symbolic capability stays
    /// as it is, and the relationship type must admit this node as its source.
    pub(super) fn compatible(&mut self, plan: &Plan, relationship: &RelationshipInfo, at: Span) {
        self.node_type_narrows(plan);
        self.capability_narrows(plan);
        self.relationship_type_narrows(plan, relationship, at);
        self.relationship_admits_source(plan, relationship);
    }

    /// The full name of type `name` of `kind`, as written in `file`.
    fn full_name(&mut self, kind: TypeKind, name: &str, file: FileId) -> Option<String> {
        let model = self.builder.model;
        self.builder.ancestry.full_name(model, kind, name, file)
    }

    /// The ancestry of type `name` of `kind` written at `at`, empty when it is unknown (which
    /// is reported where the name is read).
    fn ancestry_of(&mut self, kind: TypeKind, name: &str, at: Span) -> TypeNames {
        let model = self.builder.model;
        self.builder
            .ancestry
            .of_reported_elsewhere(model, kind, name, at)
    }

    /// A node type the assignment names (not a template) derives from the definition's.
    fn node_type_narrows(&mut self, plan: &Plan) {
        let topology = self.topology;
        let (Some((node, at)), Some(wanted)) = (&plan.a.node, &plan.def.node) else {
            return;
        };
        if topology.nodes.iter().any(|n| &n.name == node) {
            return;
        }
        let Some(wanted_full) = self.full_name(TypeKind::Node, wanted, plan.def.node_in()) else {
            return;
        };
        let types = self.ancestry_of(TypeKind::Node, node, *at);
        if types.is_empty() || type_matches(&types, &wanted_full) {
            return;
        }
        let source = &topology.nodes[plan.source.index()];
        self.diags.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "requirement `{}` of `{}` asks for a `{node}`, which does not derive from `{wanted}`, the node type its definition requires",
                    plan.a.name, source.name
                ),
            )
            .at(*at)
            .hint(format!("name `{wanted}` or a type derived from it (§8.5.2 Requirement Assignment Grammar)")),
        );
    }

    /// A capability the assignment names keeps the definition's symbolic capability name, or,
    /// where the definition names a capability type, is a type derived from it.
    fn capability_narrows(&mut self, plan: &Plan) {
        let symbolic = self.symbolic_capability(plan);
        let (Some(cap), Some(at)) = (&plan.a.capability, plan.a.capability_at) else {
            return;
        };
        let as_type = self.full_name(TypeKind::Capability, cap, at.file);
        match (&symbolic, &as_type, &plan.def.capability) {
            (Some(name), _, _) if name != cap => {
                let what = if as_type.is_some() {
                    "capability type"
                } else {
                    "capability"
                };
                let source = &self.topology.nodes[plan.source.index()];
                self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{}` of `{}` names {what} `{cap}`, but its definition names the capability `{name}`, which an assignment cannot change",
                            plan.a.name, source.name
                        ),
                    )
                    .at(at)
                    .hint(format!("write `capability: {name}`, or leave it out (§8.5.2 Requirement Assignment Grammar)")),
                );
            }
            (None, Some(cap_full), Some(wanted)) => {
                self.capability_type_narrows(plan, (cap, cap_full), wanted, at);
            }
            _ => {}
        }
    }

    /// The capability type the assignment names (`cap` and its full name) derives from the
    /// capability type `wanted` of the definition.
    fn capability_type_narrows(
        &mut self,
        plan: &Plan,
        (cap, cap_full): (&str, &str),
        wanted: &str,
        at: Span,
    ) {
        let Some(wanted_full) =
            self.full_name(TypeKind::Capability, wanted, plan.def.capability_in())
        else {
            return;
        };
        let types = self.ancestry_of(TypeKind::Capability, cap, at);
        if types.is_empty() || type_matches(&types, &wanted_full) || cap_full == wanted_full {
            return;
        }
        let source = &self.topology.nodes[plan.source.index()];
        self.diags.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "requirement `{}` of `{}` asks for capability type `{cap}`, which does not derive from `{wanted}`, the capability type its definition requires",
                    plan.a.name, source.name
                ),
            )
            .at(at)
            .hint(format!("name `{wanted}` or a type derived from it, or a capability of the target by name (§8.5.2 Requirement Assignment Grammar)")),
        );
    }

    /// The relationship type the assignment uses derives from the definition's.
    fn relationship_type_narrows(
        &mut self,
        plan: &Plan,
        relationship: &RelationshipInfo,
        at: Span,
    ) {
        let (Some(declared), Some(first)) = (&plan.def.relationship, relationship.types.first())
        else {
            return;
        };
        let Some(declared_full) =
            self.full_name(TypeKind::Relationship, declared, plan.def.relationship_in())
        else {
            return;
        };
        if type_matches(&relationship.types, &declared_full) {
            return;
        }
        let source = &self.topology.nodes[plan.source.index()];
        self.diags.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "requirement `{}` of `{}` uses relationship type `{first}`, which does not derive from `{declared}`, the relationship type its definition requires",
                    plan.a.name, source.name
                ),
            )
            .at(at)
            .hint(format!("use `{declared}` or a type derived from it (§8.5.2 Requirement Assignment Grammar)")),
        );
    }

    /// The relationship type's `valid_source_node_types` admit this node.
    fn relationship_admits_source(&mut self, plan: &Plan, relationship: &RelationshipInfo) {
        let source = &self.topology.nodes[plan.source.index()];
        if selection::admits(&relationship.valid_sources, &source.types) {
            return;
        }
        let Some(first) = relationship.types.first() else {
            return;
        };
        self.diags.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!(
                    "requirement `{}` of `{}` creates a `{first}` relationship, whose type admits only sources of type {}; `{}` is a {}",
                    plan.a.name,
                    source.name,
                    relationship.valid_sources.join(", "),
                    source.name,
                    source.type_name
                ),
            )
            .at(plan.a.span)
            .hint("use a relationship type whose `valid_source_node_types` admit this node (§7.3 Relationship Type)"),
        );
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

    /// Reports an assignment whose `capability` is neither a capability type nor a capability of
    /// the node type it asks for: "the name of either a capability definition within a target
    /// node type or a capability type" (§8.5.2 Requirement Assignment Grammar), so no template
    /// could fit. Nothing is said where the node type's chain is not all known.
    pub(super) fn check_capability_name(&mut self, plan: &Plan, wanted: &Wanted) {
        let (Some((cap, None)), Some(node_type)) = (&wanted.capability, wanted.node_types.first())
        else {
            return;
        };
        if plan.a.capability.is_none() {
            return;
        }
        let model = self.builder.model;
        let types = self
            .builder
            .ancestry
            .chain(model, TypeKind::Node, node_type);
        let defs = definitions(model, TypeKind::Node, &types);
        if !crate::resolve::nodes::defs_complete(model, &defs)
            || crate::resolve::filters::capability_names(&defs).contains(&cap.as_str())
        {
            return;
        }
        let source = &self.topology.nodes[plan.source.index()].name;
        self.diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_NAME,
                format!(
                    "requirement `{}` of `{source}` names capability `{cap}`, which is neither a capability type nor a capability of node type `{node_type}`",
                    plan.a.name
                ),
            )
            .at(plan.a.capability_at.unwrap_or(plan.a.span))
            .hint("name a capability the node type defines, or a capability type (§8.5.2 Requirement Assignment Grammar)"),
        );
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
