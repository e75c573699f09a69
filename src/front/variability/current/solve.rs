//! From conditions to presence (§ Check Element Presence, § Optimization): every element's
//! conditions, the constraints and the implications become one propositional problem; its
//! solution is chosen as the options say (smallest or largest topology by weight or count,
//! preferred deployment scenarios, best technologies), and a second solution that differs
//! where the options ask for a unique one is reported as ambiguous.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;
use crate::yaml::Node;

use super::conditions::{Cond, Part};
use super::encode::Encoder;
use super::formula::Formula;
use super::model::{Data, Id, Kind, Model};
use super::options::Options;
use super::sat::{Exhausted, Sat};
use super::values::{Fail, Values};
use super::vars::Vars;

/// The solution: each element's presence.
pub struct Solution {
    pub present: Vec<bool>,
    /// The formula each element's presence is equivalent to, for `--explain`.
    pub formulas: Vec<Formula>,
}

pub struct Problem<'a, 't> {
    pub model: &'a Model<'t>,
    pub options: &'a Options<'t>,
    pub conditions: &'a [Vec<Cond<'t>>],
    pub constraints: Vec<Formula>,
    /// `variability.constraints` as written.
    pub written_constraints: Vec<&'t Node>,
    /// Where "Could not solve" points.
    pub span: Span,
}

fn push_fail(diags: &mut Diagnostics, f: Fail) {
    let mut d = Diagnostic::error(f.code, f.message).at(f.span);
    if let Some(h) = f.hint {
        d = d.hint(h);
    }
    diags.push(d);
}

/// Solves the problem; `None` when an error was reported.
pub fn solve<'t>(
    p: Problem<'_, 't>,
    values: &mut Values<'t>,
    diags: &mut Diagnostics,
) -> Option<Solution> {
    let m = p.model;
    let vars = Vars::new(m.elements.len(), values.expressions.len());
    let mut sat = Sat::new(vars.count());
    let errors = diags.error_count();
    let mut formulas = vec![Formula::Const(true); m.elements.len()];
    {
        let mut enc = Encoder::new(m, vars, values, &mut sat);
        for id in m.ordered() {
            let mut manual = Vec::new();
            let mut all = Vec::new();
            for cond in &p.conditions[id] {
                let mut parts = Vec::new();
                for part in &cond.parts {
                    match encode_part(&mut enc, part, id) {
                        Ok(f) => parts.push(f),
                        Err(fail) => push_fail(diags, fail),
                    }
                }
                let f = Formula::and(parts);
                if !cond.generated() {
                    manual.push(f.clone());
                }
                all.push(f);
            }
            let full = Formula::and(all);
            enc.sat
                .require(&Formula::equiv(vars.manual(id), Formula::and(manual)));
            enc.sat
                .require(&Formula::equiv(vars.present(id), full.clone()));
            formulas[id] = full;
        }
        for c in &p.written_constraints {
            match enc.logic(c, None) {
                Ok(f) => enc.sat.require(&f),
                Err(fail) => push_fail(diags, fail),
            }
        }
        for id in m.ordered() {
            implies(&mut enc, id, vars, diags);
        }
    }
    for c in &p.constraints {
        sat.require(c);
    }
    if diags.error_count() > errors {
        return None;
    }
    match choose(&p, &mut sat, vars) {
        Ok(Ok(())) => {}
        Ok(Err(message)) => {
            diags.push(
                Diagnostic::error(codes::VAR_INCONSISTENT, message.clone())
                    .at(p.span)
                    .hint(hint_for(&message)),
            );
            return None;
        }
        Err(exhausted) => {
            let (message, hint) = match exhausted {
                Exhausted::Conflicts => (
                    format!(
                        "choosing among the variants needs more than {} solver conflicts",
                        super::sat::CONFLICT_BUDGET
                    ),
                    "the conditions leave too many combinations open; decide more of them with conditions or inputs",
                ),
                Exhausted::WeightedSum(total) => (
                    format!(
                        "the weighted sum to optimise totals {total} after dividing by the weights' common factor, more than the {} the solver encodes",
                        super::sat::MAX_ENCODED_SUM
                    ),
                    "use smaller weights (only their ratios matter), or switch that optimization off in `variability.options`",
                ),
            };
            diags.push(
                Diagnostic::error(codes::VAR_LIMIT, message)
                    .at(p.span)
                    .hint(hint),
            );
            return None;
        }
    }
    Some(Solution {
        present: (0..m.elements.len()).map(|i| sat.value(i as u32)).collect(),
        formulas,
    })
}

fn hint_for(message: &str) -> &'static str {
    if message == "Could not solve" {
        "the conditions, constraints and implications contradict each other for these inputs; `--explain` cannot show a solution, so look at the constraints the options switch on"
    } else {
        "more than one variant satisfies the conditions; add conditions that decide between them, or switch the optimization on"
    }
}

fn encode_part<'t>(enc: &mut Encoder<'_, 't>, part: &Part<'t>, id: Id) -> Result<Formula, Fail> {
    match part {
        Part::Made(f) => Ok(f.clone()),
        Part::Written(node) => enc.logic(node, Some(id)),
        Part::Input(name) => {
            let span = enc.model.get(id).span;
            match enc.values.input(name, span)? {
                crate::front::variability::eval::Value::Bool(b) => Ok(Formula::Const(b)),
                other => Err(super::values::fail(
                    codes::VAR_TYPE,
                    format!(
                        "variability input \"{name}\" decides the presence of {}, so it must be a boolean, not \"{}\"",
                        enc.model.display(id),
                        other.text()
                    ),
                    span,
                    "an input named after an element's identifier is that element's condition",
                )),
            }
        }
    }
}

/// § element `implies`: `[target, condition?]` pairs, each `element (and condition) implies
/// target`.
fn implies(enc: &mut Encoder<'_, '_>, id: Id, vars: Vars, diags: &mut Diagnostics) {
    let Some(list) = enc.model.get(id).keyname("implies") else {
        return;
    };
    for item in list.as_seq().unwrap_or_default() {
        let pair = item.as_seq().unwrap_or_default();
        let (Some(target), condition) = (pair.first(), pair.get(1)) else {
            diags.push(
                Diagnostic::error(
                    codes::VAR_STRUCTURE,
                    format!(
                        "{} has an implies without a target",
                        enc.model.display_upper(id)
                    ),
                )
                .at(item.span)
                .hint("each entry of `implies` is `[target]` or `[target, condition]`"),
            );
            continue;
        };
        let left = match condition {
            Some(c) => enc
                .logic(c, Some(id))
                .map(|f| Formula::and(vec![vars.present(id), f])),
            None => Ok(vars.present(id)),
        };
        match (left, enc.logic(target, Some(id))) {
            (Ok(l), Ok(r)) => enc.sat.require(&Formula::implies(l, r)),
            (Err(f), _) | (_, Err(f)) => push_fail(diags, f),
        }
    }
}

/// The outcome of one step of the choice: `Err` holds the message of a failure.
type Step = Result<Result<(), String>, Exhausted>;

/// Solves and optimises as the options say.
fn choose(p: &Problem<'_, '_>, sat: &mut Sat, vars: Vars) -> Step {
    if !sat.solve(&[])? {
        return Ok(Err("Could not solve".into()));
    }
    for step in [topology, scenarios, technologies] {
        if let Err(message) = step(p, sat, vars)? {
            return Ok(Err(message));
        }
    }
    // What the options leave open is decided as a solver deciding "absent" first, element by
    // element in the reference resolver's order, would.
    let order: Vec<u32> = p.model.ordered().into_iter().map(|i| i as u32).collect();
    sat.prefer_false(&order)?;
    Ok(Ok(()))
}

/// The formulas of the elements of `ids` present (`true`) or absent in the last solution.
fn split(sat: &Sat, vars: Vars, ids: &[Id], present: bool) -> Vec<Formula> {
    ids.iter()
        .filter(|i| sat.value(**i as u32) == present)
        .map(|i| vars.present(*i))
        .collect()
}

/// A uniqueness check (§ Solver Options, `optimization_*_unique`): an error when a solution
/// exists that is not `same`, in the reference resolver's words.
fn ambiguous(sat: &mut Sat, same: Formula, what: &str, optimized: bool) -> Step {
    if sat.possible(&Formula::not(same))? {
        let mode = if optimized { "besides" } else { "without" };
        return Ok(Err(format!(
            "The result is ambiguous considering {what} ({mode} optimization)"
        )));
    }
    Ok(Ok(()))
}

/// § Solver Options, topology: the smallest (or largest) topology by node weight or count;
/// without optimisation the smallest by count, not kept as a constraint. Then the uniqueness
/// check: no other solution without one of these nodes (backward: with other nodes at all).
fn topology(p: &Problem<'_, '_>, sat: &mut Sat, vars: Vars) -> Step {
    let (m, o) = (p.model, p.options);
    let nodes: Vec<Id> = m.of(Kind::Node).collect();
    let optimize = o.optimize_topology();
    match optimize {
        Some(minimize) => {
            let weights: Vec<(Formula, u64)> = nodes
                .iter()
                .map(|n| {
                    let w = if o.topology_mode() == "count" {
                        1
                    } else {
                        (m.node_data(*n).weight * 100.0).round() as u64
                    };
                    (vars.present(*n), w)
                })
                .collect();
            sat.optimize(&weights, minimize)?;
        }
        None => {
            // What a solver that decides "absent" first finds.
            let counts: Vec<(Formula, u64)> = nodes.iter().map(|n| (vars.present(*n), 1)).collect();
            sat.optimum(&counts, true)?;
        }
    }
    if o.topology_unique() {
        let present = Formula::and(split(sat, vars, &nodes, true));
        let same = if o.topology_unique_backward() {
            Formula::and(vec![
                present,
                Formula::not(Formula::or(split(sat, vars, &nodes, false))),
            ])
        } else {
            present
        };
        let verdict = ambiguous(sat, same, "nodes", optimize.is_some())?;
        if verdict.is_err() {
            return Ok(verdict);
        }
    }
    if optimize.is_none() {
        let node_vars: Vec<u32> = nodes.iter().map(|n| *n as u32).collect();
        sat.fix(&node_vars);
        if !sat.solve(&[])? {
            return Ok(Err("Could not solve".into()));
        }
    }
    Ok(Ok(()))
}

fn technology(m: &Model<'_>, id: Id) -> super::model::TechnologyData {
    match &m.get(id).data {
        Data::Technology(t) => t.clone(),
        _ => unreachable!("element {id} is not a technology"),
    }
}

/// § Solver Options, scenarios: the deployment scenarios of highest priority.
fn scenarios(p: &Problem<'_, '_>, sat: &mut Sat, vars: Vars) -> Step {
    let m = p.model;
    let technologies: Vec<Id> = m.of(Kind::Technology).collect();
    if p.options.optimize_scenarios() {
        let prios: Vec<(Formula, u64)> = technologies
            .iter()
            .map(|t| (vars.present(*t), technology(m, *t).prio.round() as u64))
            .collect();
        sat.optimize(&prios, true)?;
    }
    if p.options.scenarios_unique()
        && sat.possible(&Formula::not(Formula::and(split(
            sat,
            vars,
            &technologies,
            true,
        ))))?
    {
        return Ok(Err(
            "There are multiple scenarios of the same priority for one node template possible"
                .into(),
        ));
    }
    Ok(Ok(()))
}

/// § Solver Options, technologies: by weight (`weight-count` maximises it), then by the count
/// of distinct technologies (`weight-count` minimises it); then the uniqueness check.
fn technologies(p: &Problem<'_, '_>, sat: &mut Sat, vars: Vars) -> Step {
    let (m, o) = (p.model, p.options);
    let technologies: Vec<Id> = m.of(Kind::Technology).collect();
    let optimize = o.optimize_technologies();
    if let Some(minimize) = optimize {
        let mode = o.technologies_mode();
        if mode.contains("weight") {
            let weights: Vec<(Formula, u64)> = technologies
                .iter()
                .map(|t| {
                    (
                        vars.present(*t),
                        (technology(m, *t).weight * 100.0).round() as u64,
                    )
                })
                .collect();
            let min = if mode.contains("count") {
                false
            } else {
                minimize
            };
            sat.optimize(&weights, min)?;
        }
        if mode.contains("count") {
            let mut names: indexmap::IndexMap<&str, Vec<Formula>> = indexmap::IndexMap::new();
            for t in &technologies {
                names
                    .entry(m.get(*t).name.as_str())
                    .or_default()
                    .push(vars.present(*t));
            }
            let counts: Vec<(Formula, u64)> =
                names.into_values().map(|fs| (Formula::or(fs), 1)).collect();
            let min = if mode.contains("weight") {
                true
            } else {
                minimize
            };
            sat.optimize(&counts, min)?;
        }
    }
    if o.technologies_unique() {
        let same = Formula::and(vec![
            Formula::and(split(sat, vars, &technologies, true)),
            Formula::not(Formula::or(split(sat, vars, &technologies, false))),
        ]);
        return ambiguous(sat, same, "technologies", optimize.is_some());
    }
    Ok(Ok(()))
}
