//! Finding the targets of an assignment: a named target checked, or targets chosen among the
//! node templates (§14.3.2 One-to-Many Relationships), the room each has left for allocations
//! (§8.5.5 Capability Allocation), and what is reported when none fits.

use indexmap::IndexMap;

use super::judge::Judge2;
use super::{Decider, Plan, RelationshipInfo};
use crate::diag::{Diagnostic, Diagnostics, codes, plural};
use crate::ir::{NodeId, Topology, Value, type_matches};
use crate::model::tree::Tree;
use crate::resolve::allocation::{self, Amount};
use crate::resolve::counts::known;
use crate::resolve::filters::Verdict;
use crate::resolve::nodes::NodeBuilder;
use crate::resolve::requirements::{Unfulfilled, target_capability};
use crate::resolve::selection::{self, Selection, Wanted};
use crate::resolve::typing::Typing;

impl<'b> Decider<'_, 'b, '_> {
    /// An assignment that names its target template: the target is checked, not chosen.
    pub(super) fn named(
        &mut self,
        plan: &mut Plan,
        target: NodeId,
        relationship: &RelationshipInfo,
    ) {
        let wanted = self.wanted(plan, true, relationship);
        let node = &self.topology.nodes[target.index()];
        let asks_capability = wanted.capability.is_some() || wanted.capability_type.is_some();
        if asks_capability
            && chosen_capability(self.topology, target, &wanted, &plan.a.name).is_none()
            && wanted
                .node_types
                .iter()
                .all(|t| type_matches(&node.types, t))
        {
            // Connected as written: the relationship reports the capability the target lacks,
            // with the type of the same name it has instead, where it has one.
            plan.targets.push((target, plan.count.clone()));
            return;
        }
        let verdict = self.judge(plan, &wanted, relationship, target);
        let name = self.topology.nodes[target.index()].name.clone();
        let why = match verdict {
            Verdict::Fails(why) => Some(format!("`{name}` {why}")),
            _ => self.room(plan, target, plan.target_index.is_none()),
        };
        if let Some(why) = why {
            let source = &self.topology.nodes[plan.source.index()].name;
            self.fail(
                plan,
                format!(
                    "requirement `{}` of `{source}` names `{name}`, which cannot fulfil it: {why}",
                    plan.a.name
                ),
                "name a node template that fits, or change what the requirement asks for",
            );
            return;
        }
        self.take(plan, target, known(&plan.count).unwrap_or(1), relationship);
        plan.targets.push((target, plan.count.clone()));
    }

    /// Whether `target` has the representations a share of `count` needs: different ones for
    /// each relationship (`distinct`), and the one a literal `[template, index]` names.
    pub(super) fn room(&self, plan: &Plan, target: NodeId, distinct: bool) -> Option<String> {
        let name = &self.topology.nodes[target.index()].name;
        let have = self.state.counts[target.index()]?;
        if let Some(Value::Integer(i)) = plan.target_index
            && (i < 0 || i as u64 >= have)
        {
            return Some(format!(
                "`{name}` has {have} representation{} (indices 0 to {}), so there is none of index {i}",
                plural(have),
                have.saturating_sub(1)
            ));
        }
        let k = known(&plan.count)?;
        (distinct && k > have).then(|| {
            format!(
                "it asks for {k} relationship{}, each to a different representation, and `{name}` has {have}",
                plural(k)
            )
        })
    }

    /// Records the allocations of `share` relationships from every representation of the
    /// source to `target`, and that the source targets it for this requirement.
    pub(super) fn take(
        &mut self,
        plan: &mut Plan,
        target: NodeId,
        share: u64,
        relationship: &RelationshipInfo,
    ) {
        self.state
            .used
            .insert((plan.source, plan.a.name.clone(), target));
        let Some((cap, amounts)) = self.amounts(plan, target, relationship) else {
            return;
        };
        plan.allocation = amounts
            .iter()
            .map(|a| (a.property.clone(), a.value.clone()))
            .collect();
        let units = self.state.counts[plan.source.index()].unwrap_or(1) * share;
        self.state.ledger.take(target, &cap, &amounts, units);
    }

    /// The allocation read against the capability of `target` the relationship connects to.
    pub(super) fn amounts(
        &mut self,
        plan: &Plan,
        target: NodeId,
        relationship: &RelationshipInfo,
    ) -> Option<(String, Vec<Amount>)> {
        let allocation = plan.a.allocation?;
        let wanted = self.wanted(plan, true, relationship);
        let cap = chosen_capability(self.topology, target, &wanted, &plan.a.name)?;
        let capability = &self.topology.nodes[target.index()].capabilities[cap.as_str()];
        let amounts = allocation::read(
            &mut self.builder.typing(),
            allocation,
            capability,
            &cap,
            None,
        )
        .ok()?;
        Some((cap, amounts))
    }

    /// The target chosen among the templates.
    pub(super) fn select(&mut self, plan: &mut Plan, relationship: &RelationshipInfo) {
        let wanted = self.wanted(plan, false, relationship);
        self.check_capability_name(plan, &wanted);
        let filters = plan.def.filters.len() + usize::from(plan.a.node_filter.is_some());
        if wanted.node_types.is_empty()
            && wanted.capability.is_none()
            && wanted.capability_type.is_none()
            && filters == 0
        {
            // Nothing says what the target is: the orchestrator's to find.
            plan.open = Some(plan.count.clone());
            return;
        }
        let asks = wanted.describe(filters > 0);
        if plan.a.directives.first().map(String::as_str) == Some("external") {
            self.outside_first(plan, &asks);
            return;
        }
        let found = self.fitting(plan, relationship, &wanted);
        // Templates this node does not target yet for this requirement first, then document
        // order (the order the candidates come in).
        let mut ordered = found.fitting.clone();
        ordered.sort_by_key(|t| {
            self.state
                .used
                .contains(&(plan.source, plan.a.name.clone(), *t))
        });
        match known(&plan.count) {
            Some(count) => self.share_out(plan, count, &ordered, &found, &asks, relationship),
            // A count known only at deployment: the first template that fits takes it all.
            None => match ordered.first() {
                Some(&first) => {
                    self.chosen(plan, &ordered[..1], &found.fitting, &found.lines);
                    self.take(plan, first, 1, relationship);
                    plan.targets.push((first, plan.count.clone()));
                }
                None => {
                    let count = plan.count.clone();
                    self.unfulfilled(plan, count, &asks, &found.lines, found.outside);
                }
            },
        }
    }

    /// An assignment whose directives look `external` first: left to the orchestrator, which
    /// `check` reports.
    fn outside_first(&mut self, plan: &mut Plan, asks: &str) {
        plan.open = Some(plan.count.clone());
        if !self.builder.ctx.report_open_requirements {
            return;
        }
        let source = &self.topology.nodes[plan.source.index()].name;
        self.diags.push(
            Diagnostic::warning(
                codes::TOSCA_UNFULFILLED,
                format!(
                    "requirement `{}` of `{source}` asks for {asks} from outside this topology first (directive `external`), so it is left to the orchestrator",
                    plan.a.name
                ),
            )
            .at(plan.a.span)
            .hint("put `internal` first to fulfil it from this topology's node templates"),
        );
    }

    /// The templates that fit what the assignment asks for, with the TOSCA 2.0 checks
    /// ([`Judge2`]) as the selection's judge.
    fn fitting(&mut self, plan: &Plan, relationship: &RelationshipInfo, wanted: &Wanted) -> Found {
        let filters = self.sound_filters(plan, relationship);
        self.index_candidates();
        let candidates = self.state.candidates.as_ref().expect("indexed above");
        let mut judge = Judge2::new(
            (self.topology, self.template),
            plan,
            relationship,
            self.state,
            &candidates.lists,
            (self.conditions, filters),
        );
        let mut extra = |typing: &mut Typing<'_, 'b>, id: NodeId, cap: Option<&str>| {
            judge.judge(typing, id, cap)
        };
        let selection = selection::select(
            &mut self.builder.typing(),
            self.topology,
            candidates,
            plan.source,
            &plan.a.name,
            wanted,
            &mut extra,
        );
        match selection {
            Selection::One(id) => Found {
                fitting: vec![id],
                lines: Vec::new(),
                outside: false,
            },
            Selection::Open {
                fitting,
                lines,
                outside,
            } => Found {
                fitting,
                lines,
                outside,
            },
        }
    }

    /// Shares a known `count` out among the `ordered` fitting templates, each taking what its
    /// representations and capacity allow, and reports a count not reached.
    fn share_out(
        &mut self,
        plan: &mut Plan,
        count: u64,
        ordered: &[NodeId],
        found: &Found,
        asks: &str,
        relationship: &RelationshipInfo,
    ) {
        let mut remaining = count;
        let mut chosen = Vec::new();
        // What limits each template's share, for the message when the count is not reached.
        let mut limits: Vec<String> = Vec::new();
        for t in ordered.iter().copied() {
            if remaining == 0 {
                break;
            }
            let (share, limit) = self.share_of(plan, t, remaining, relationship);
            limits.push(limit);
            if share == 0 {
                continue;
            }
            self.take(plan, t, share, relationship);
            plan.targets.push((t, Value::Integer(share as i64)));
            chosen.push(t);
            remaining -= share;
        }
        self.chosen(plan, &chosen, &found.fitting, &found.lines);
        if remaining == 0 {
            return;
        }
        let missing = Value::Integer(remaining as i64);
        if chosen.is_empty() && limits.iter().all(|l| !l.starts_with("capability")) {
            self.unfulfilled(plan, missing, asks, &found.lines, found.outside);
        } else {
            self.short(plan, remaining, asks, &limits);
            plan.open = Some(missing);
        }
    }

    /// How many of the `remaining` relationships template `t` can take: no more than it has
    /// representations, nor than its capability has room for the allocation of every
    /// representation of the source; and what limits it, in words.
    fn share_of(
        &mut self,
        plan: &Plan,
        t: NodeId,
        remaining: u64,
        relationship: &RelationshipInfo,
    ) -> (u64, String) {
        let units = self.state.counts[plan.source.index()].unwrap_or(1).max(1);
        let target = &self.topology.nodes[t.index()].name;
        let have = self.state.counts[t.index()].unwrap_or(remaining);
        let mut share = remaining.min(have);
        let mut limit = format!("`{target}` has {have} representation{}", plural(have));
        if let Some((cap, amounts)) = self.amounts(plan, t, relationship) {
            let capability = &self.topology.nodes[t.index()].capabilities[cap.as_str()];
            let count = self.state.counts[t.index()];
            if let Some(fit) = self.state.ledger.fits(capability, t, &cap, &amounts, count)
                && fit / units < share
            {
                share = fit / units;
                limit = format!(
                    "capability `{cap}` of `{target}` has room for {fit} allocation{} of {} in all",
                    plural(fit),
                    amounts
                        .iter()
                        .map(|a| format!("`{}: {}`", a.property, crate::ir::value_text(&a.value)))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
        (share, limit)
    }

    /// The count could not be reached (`remaining` short): what each template could take.
    fn short(&mut self, plan: &mut Plan, remaining: u64, asks: &str, limits: &[String]) {
        let source_name = &self.topology.nodes[plan.source.index()].name;
        let k = known(&plan.count).unwrap_or(remaining);
        let (each, apiece) = match self.state.counts[plan.source.index()] {
            Some(n) if n > 1 => (
                format!("each of the {n} representations of `{source_name}` asks"),
                " each",
            ),
            _ => (format!("`{source_name}` asks"), ""),
        };
        self.fail(
            plan,
            format!(
                "requirement `{}` cannot be fulfilled: {each} for {k} relationship{} to {asks}, each to a different representation, and only {}{apiece} can be made: {}",
                plan.a.name,
                plural(k),
                k - remaining,
                limits.join("; ")
            ),
            "lower its `count`, or give the targets more representations or capacity",
        );
    }

    /// Says which template was chosen when more fit than were needed.
    pub(super) fn chosen(
        &mut self,
        plan: &Plan,
        chosen: &[NodeId],
        fitting: &[NodeId],
        lines: &[String],
    ) {
        if chosen.is_empty() || fitting.len() <= chosen.len() {
            return;
        }
        let names: Vec<String> = chosen
            .iter()
            .map(|t| format!("`{}`", self.topology.nodes[t.index()].name))
            .collect();
        let source = &self.topology.nodes[plan.source.index()].name;
        self.diags.push(
            Diagnostic::warning(
                codes::TOSCA_CHOSEN_TARGET,
                format!(
                    "requirement `{}` of `{source}` is fulfilled by {}, chosen among {} node templates that fit: {}",
                    plan.a.name,
                    names.join(" and "),
                    fitting.len(),
                    lines.join("; ")
                ),
            )
            .at(plan.a.span)
            .hint("the choice is the processor's (§14.3.2 One-to-Many Relationships): toscana takes the templates this node does not target yet for the requirement first, then document order; name the template meant with `node: <template>`, or narrow the choice with a `node_filter`"),
        );
    }

    /// No template fits: an error when the author evidently meant one of those judged, else
    /// dangling for the orchestrator (with a warning from `check`).
    pub(super) fn unfulfilled(
        &mut self,
        plan: &mut Plan,
        missing: Value,
        asks: &str,
        lines: &[String],
        outside: bool,
    ) {
        plan.open = Some(missing);
        let source = self.topology.nodes[plan.source.index()].name.clone();
        let external =
            plan.a.directives.is_empty() || plan.a.directives.iter().any(|d| d == "external");
        let listed = lines.join("; ");
        if plan.a.optional || (outside && external) {
            if !self.builder.ctx.report_open_requirements || (plan.a.optional && outside) {
                return;
            }
            let message = if plan.a.optional {
                format!(
                    "no node template fits the optional requirement `{}` of `{source}`, which asks for {asks}, so it stays unfulfilled: {listed}",
                    plan.a.name
                )
            } else {
                format!(
                    "requirement `{}` of `{source}` asks for {asks}, and the topology has none; an orchestrator would have to select or allocate the target",
                    plan.a.name
                )
            };
            self.diags.push(
                Diagnostic::warning(codes::TOSCA_UNFULFILLED, message)
                    .at(plan.a.span)
                    .hint("add a node template that fits if this topology should hold it; the IR keeps the requirement with its criteria"),
            );
            return;
        }
        let message = if outside {
            format!(
                "requirement `{}` of `{source}` asks for {asks} from this topology only (directive `internal`), and the topology has none",
                plan.a.name
            )
        } else {
            format!(
                "no node template fits requirement `{}` of `{source}`, which asks for {asks}: {listed}",
                plan.a.name
            )
        };
        let hint = format!(
            "make one fit, or name one with `node: <template>`; if the target may come from outside the topology, add `directives: [ internal, external ]`, mark the assignment `optional: true`, or expose the requirement in `substitution_mappings`; a node `{source}` with the `select` directive is not fulfilled here"
        );
        self.unfulfilled_error(plan, message, &hint);
    }

    /// A requirement that cannot be fulfilled as written: an error, or a warning (and
    /// dangling) when it is optional.
    pub(super) fn fail(&mut self, plan: &mut Plan, message: String, hint: &str) {
        if plan.a.optional {
            plan.open = Some(plan.count.clone());
            self.diags.push(
                Diagnostic::warning(
                    codes::TOSCA_UNFULFILLED,
                    format!("{message}; it is optional, so it stays unfulfilled"),
                )
                .at(plan.a.span)
                .hint(hint),
            );
            return;
        }
        self.unfulfilled_error(plan, message, hint);
    }

    /// The error of a requirement nothing fulfils, reported once substitution mappings are
    /// known (a mapped requirement is fulfilled outside).
    pub(super) fn unfulfilled_error(&mut self, plan: &Plan, message: String, hint: &str) {
        self.unfulfilled.push(Unfulfilled {
            node: plan.source,
            requirement: plan.a.name.clone(),
            diagnostic: Diagnostic::error(codes::TOSCA_UNFULFILLED, message)
                .at(plan.a.span)
                .hint(hint),
        });
    }

    /// Judges one template the assignment names, reporting what its allocation gets wrong.
    pub(super) fn judge(
        &mut self,
        plan: &Plan,
        wanted: &Wanted,
        relationship: &RelationshipInfo,
        target: NodeId,
    ) -> Verdict {
        if let (Some(allocation), Some(cap)) = (
            plan.a.allocation,
            chosen_capability(self.topology, target, wanted, &plan.a.name),
        ) {
            let capability = &self.topology.nodes[target.index()].capabilities[cap.as_str()];
            if allocation::read(
                &mut self.builder.typing(),
                allocation,
                capability,
                &cap,
                Some(self.diags),
            )
            .is_err()
            {
                return Verdict::Fits;
            }
        }
        let filters = self.sound_filters(plan, relationship);
        let mut judge = Judge2::new(
            (self.topology, self.template),
            plan,
            relationship,
            self.state,
            &self.state.lists,
            (self.conditions, filters),
        );
        let mut extra = |typing: &mut Typing<'_, 'b>, id: NodeId, cap: Option<&str>| {
            judge.judge(typing, id, cap)
        };
        selection::judge(
            &mut self.builder.typing(),
            self.topology,
            &self.state.lists,
            plan.source,
            target,
            &plan.a.name,
            wanted,
            &mut extra,
        )
    }
}

/// The templates that fit an assignment, as the selection judged them.
struct Found {
    fitting: Vec<NodeId>,
    /// One line per template judged, for the messages.
    lines: Vec<String>,
    /// No template is of the kind asked for: the target is outside the topology.
    outside: bool,
}

/// The allocation as plain values, for the IR when no target reads it as typed. This is where
/// the assignment's `allocation` is first read (once per assignment), so what is wrong in it
/// as a value (an undeclared input, a misspelt function) is reported here; the readings as
/// amounts of a candidate's capability ([`allocation::read`]) report only what is wrong
/// against that capability.
pub(super) fn plain_allocation<A: Tree>(
    builder: &NodeBuilder,
    allocation: Option<&A>,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    match allocation.map(|a| builder.reader.value(a, diags)) {
        Some(Value::Map(m)) => *m,
        _ => IndexMap::new(),
    }
}

/// The capability of `target` a requirement connects to: the one named, else the one of the
/// type asked for (named like the requirement, else the first).
pub(super) fn chosen_capability(
    topology: &Topology,
    target: NodeId,
    wanted: &Wanted,
    requirement: &str,
) -> Option<String> {
    let capabilities = &topology.nodes[target.index()].capabilities;
    let asked = match &wanted.capability {
        Some((name, _)) if capabilities.contains_key(name) => name,
        Some((_, full)) => full.as_ref()?,
        None => wanted.capability_type.as_ref()?,
    };
    target_capability(capabilities, asked, requirement, &wanted.admitted)
}
