//! The TOSCA 2.0 checks of a candidate target beyond its type and capability: relationship and
//! capability type lists, node filters (§8.6 Node Filter Definition) and allocations (§8.5.5
//! Capability Allocation), with the reason a filter does not hold.

use super::{Conditions, Plan, RelationshipInfo, State};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{NodeId, Topology, Value, type_matches};
use crate::model::{TopologyTemplate, TypeKind};
use crate::resolve::allocation::{self, Ledger};
use crate::resolve::calls::{Evaluator, Explained, OpenRelationship, Scope};
use crate::resolve::filters::Verdict;
use crate::resolve::selection::{self, TypeLists};
use crate::resolve::typing::Typing;
use crate::yaml::Node as Yaml;

/// The TOSCA 2.0 checks of a candidate beyond its type and capability.
pub(super) struct Judge2<'a, 'm> {
    topology: &'a Topology,
    template: &'a TopologyTemplate,
    source: NodeId,
    relationship: &'a RelationshipInfo,
    /// The node filters, as values, and what evaluates them.
    conditions: Option<&'a Conditions<'a, 'm>>,
    filters: Vec<Value>,
    allocation: Option<&'a Yaml>,
    counts: &'a [Option<u64>],
    ledger: &'a Ledger,
    lists: &'a TypeLists,
}

impl<'a, 'm> Judge2<'a, 'm> {
    pub(super) fn new(
        (topology, template): (&'a Topology, &'a TopologyTemplate),
        plan: &'a Plan,
        relationship: &'a RelationshipInfo,
        state: &'a State<'_>,
        lists: &'a TypeLists,
        (conditions, filters): (Option<&'a Conditions<'a, 'm>>, Vec<Value>),
    ) -> Self {
        Judge2 {
            topology,
            template,
            source: plan.source,
            relationship,
            conditions,
            filters,
            allocation: plan.a.allocation,
            counts: &state.counts,
            ledger: &state.ledger,
            lists,
        }
    }

    pub(super) fn judge(
        &mut self,
        typing: &mut Typing<'_, 'm>,
        id: NodeId,
        cap: Option<&str>,
    ) -> Verdict {
        let node = &self.topology.nodes[id.index()];
        let rel = self.relationship;
        let rel_type = rel.types.first().map_or("", String::as_str);
        if !selection::admits(&rel.valid_targets, &node.types) {
            return Verdict::Fails(format!(
                "is a {}, and relationship type `{rel_type}` admits only targets of type {}",
                node.type_name,
                rel.valid_targets.join(", ")
            ));
        }
        if let Some(cap_name) = cap {
            let capability = &node.capabilities[cap_name];
            if !selection::admits(&rel.valid_capabilities, &capability.types) {
                return Verdict::Fails(format!(
                    "has capability `{cap_name}` of type {}, and relationship type `{rel_type}` admits only capabilities of type {}",
                    capability.type_name.as_deref().unwrap_or("unknown"),
                    rel.valid_capabilities.join(", ")
                ));
            }
            let admitted = self.lists.valid_types(
                typing,
                node,
                cap_name,
                capability,
                "valid_relationship_types",
                TypeKind::Relationship,
            );
            if !admitted.is_empty()
                && !rel.types.is_empty()
                && !admitted.iter().any(|t| type_matches(&rel.types, t))
            {
                return Verdict::Fails(format!(
                    "has capability `{cap_name}`, which admits only relationships of type {}, not `{rel_type}`",
                    admitted.join(", ")
                ));
            }
            if let Some(directives) = self.capability_directives(id, cap_name)
                && !directives.iter().any(|d| d == "internal")
            {
                return Verdict::Fails(format!(
                    "has capability `{cap_name}`, which admits only sources from outside this topology (directives: {})",
                    directives.join(", ")
                ));
            }
            if let Some(allocation) = self.allocation {
                match allocation::read(typing, allocation, capability, cap_name, None) {
                    Err(why) => return Verdict::Fails(why),
                    Ok(amounts) => {
                        let units = self.counts[self.source.index()].unwrap_or(1);
                        if let Some(fit) = self.ledger.fits(
                            capability,
                            id,
                            cap_name,
                            &amounts,
                            self.counts[id.index()],
                        ) && fit < units
                        {
                            let left: Vec<String> = amounts
                                .iter()
                                .filter_map(|a| {
                                    let left = self.ledger.left(
                                        capability,
                                        id,
                                        cap_name,
                                        &a.property,
                                        self.counts[id.index()],
                                    )?;
                                    Some(format!(
                                        "{} of `{}` left, {} asked",
                                        trim(left),
                                        a.property,
                                        trim(a.number * units as f64)
                                    ))
                                })
                                .collect();
                            return Verdict::Fails(format!(
                                "has too little left in capability `{cap_name}` to allocate from: {}",
                                left.join(", ")
                            ));
                        }
                    }
                }
            }
        }
        match self.conditions {
            Some(conditions) if !self.filters.is_empty() => {
                self.judge_filters(conditions, typing, id, cap)
            }
            _ => Verdict::Fits,
        }
    }

    /// Judges the node filters of the candidate `id` (its capability `cap`): each is evaluated
    /// by the calls subsystem with `SELF` the relationship that would be established, and
    /// `$available_allocation` reads what the allocations so far leave of a target with one
    /// representation. A filter that reads what the candidate does not have (a property its
    /// type does not define) fails; one that needs values known only at deployment may hold.
    pub(super) fn judge_filters(
        &self,
        conditions: &Conditions<'_, 'm>,
        typing: &mut Typing<'_, 'm>,
        id: NodeId,
        cap: Option<&str>,
    ) -> Verdict {
        let (ledger, topology, counts) = (self.ledger, self.topology, self.counts);
        let available = move |n: NodeId, cap: &str, prop: &str| {
            if counts.get(n.index()).copied().flatten() != Some(1) {
                return None;
            }
            ledger.left(
                topology.nodes[n.index()].capabilities.get(cap)?,
                n,
                cap,
                prop,
                counts[n.index()],
            )
        };
        let node = &topology.nodes[id.index()];
        let scope = Scope::Open(Box::new(OpenRelationship {
            source: Some(self.source),
            target: Some(id),
            capability: cap.map(str::to_string),
            types: self.relationship.types.clone(),
            target_types: node.types.clone(),
            capability_types: cap
                .and_then(|c| node.capabilities.get(c))
                .map(|c| c.types.clone())
                .unwrap_or_default(),
            properties: self.relationship.properties.clone(),
        }));
        let mut evaluator = Evaluator::new(
            typing,
            &conditions.graph,
            conditions.functions,
            &conditions.calls,
            conditions.inputs,
        )
        .with_available(&available);
        let mut maybe = None;
        for filter in &self.filters {
            let mut found = Diagnostics::new();
            let explained = evaluator.evaluate_explained(filter, &scope, &mut found);
            if let Some(wrong) = found.iter().find(|d| d.is_error()) {
                return Verdict::Fails(format!("fails the node_filter: {}", wrong.message));
            }
            match explained.value {
                Value::Boolean(true) => {}
                Value::Boolean(false) => {
                    let why = why_false(&explained, filter);
                    return Verdict::Fails(format!("fails the node_filter: {why}"));
                }
                _ => {
                    let at = match filter {
                        Value::Call(c) => c.span.map(|s| format!(" at line {}", s.line)),
                        _ => None,
                    };
                    maybe = maybe.or(Some(format!(
                        "its node_filter{} depends on values known only at deployment",
                        at.unwrap_or_default()
                    )))
                }
            }
        }
        maybe.map_or(Verdict::Fits, Verdict::Maybe)
    }

    /// The `directives` of a capability assignment in the target's template.
    pub(super) fn capability_directives(&self, id: NodeId, cap: &str) -> Option<Vec<String>> {
        let list = self.template.node_templates[id.index()]
            .def
            .as_map()?
            .get("capabilities")?
            .as_map()?
            .get(cap)?
            .as_map()?
            .get("directives")?
            .as_seq()?;
        Some(
            list.iter()
                .filter_map(Yaml::as_str)
                .map(str::to_string)
                .collect(),
        )
    }
}

/// A problem of a node filter whatever the candidate stays an error, with the reminder that
/// filters written for the Simple Profile's reading (`SELF` the requiring node) need: in TOSCA
/// 2.0 `SELF` is the relationship to the candidate (§8.6 Node Filter Definition). The filter is
/// then not judged: the candidates are chosen without it, not each failed with a vaguer message.
pub(super) fn unjudged(mut d: Diagnostic) -> Diagnostic {
    if d.is_error() {
        let hint = d.hint.take().unwrap_or_default();
        d.hint = Some(format!(
            "{hint}; in a requirement's node filter `SELF` is the relationship to the candidate (§8.6 Node Filter Definition). This filter is not judged"
        ));
    }
    d
}

/// Why a condition that evaluates to false is false: the innermost comparison that decided
/// it, with the values compared, as the evaluation that judged it (`explained`) found them.
pub(super) fn why_false(explained: &Explained, clause: &Value) -> String {
    let Value::Call(call) = clause else {
        return format!("`{}` is false", crate::ir::value_text(clause));
    };
    // Each argument as evaluated; every call of the filter was, so the written one is only
    // what a call the evaluation did not reach would show.
    let evaluated = |i: usize, arg: &'_ Value| -> Value {
        explained
            .arguments(call)
            .and_then(|args| args.get(i))
            .unwrap_or(arg)
            .clone()
    };
    match call.function {
        crate::ir::Function::And => {
            for (i, arg) in call.args.iter().enumerate() {
                if evaluated(i, arg) == Value::Boolean(false) {
                    return why_false(explained, arg);
                }
            }
        }
        crate::ir::Function::Or => {
            let reasons: Vec<String> = call.args.iter().map(|a| why_false(explained, a)).collect();
            return format!("none holds: {}", reasons.join("; "));
        }
        crate::ir::Function::Not => {
            return format!("`$not` of a clause that holds{}", line_of(clause));
        }
        _ => {}
    }
    let shown: Vec<String> = call
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| crate::ir::value_text(&evaluated(i, a)))
        .collect();
    format!(
        "`${}` is false for {}{}",
        call.function,
        shown.join(" and "),
        line_of(clause)
    )
}

/// ` (line N)` for a call whose place is known.
pub(super) fn line_of(value: &Value) -> String {
    match value {
        Value::Call(c) => c
            .span
            .map_or(String::new(), |s| format!(" (line {})", s.line)),
        _ => String::new(),
    }
}

/// A number without a needless `.0`.
pub(super) fn trim(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}
