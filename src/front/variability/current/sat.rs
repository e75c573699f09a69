//! The solver behind the current language (§ Processing, "Optimization"): formulas become
//! clauses by the Tseitin transformation, BatSat (a MiniSat in Rust, through rustsat) decides
//! them, and weighted sums are minimised or maximised by linear search over a generalized
//! totalizer, the optimum then kept as a hard constraint, as the reference resolver's
//! `minimizeWeightedSum` does, so the next optimisation works among the optimal solutions.
//!
//! Work is bounded: a search that needs more than [`CONFLICT_BUDGET`] conflicts is stopped and
//! reported ([`Exhausted`]), never left to run for hours on a hostile template; so is a weighted
//! sum too large to encode, rather than skipping its optimisation.

use std::collections::HashMap;

use rustsat::encodings::pb::{BoundUpper, GeneralizedTotalizer};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit, TernaryVal, Var};

use super::formula::Formula;

/// Conflicts one template may cost the solver, over all its searches.
pub const CONFLICT_BUDGET: u64 = 2_000_000;

/// Weighted sums larger than this are not encoded (the encoding grows with the distinct sums).
pub const MAX_ENCODED_SUM: usize = 4_000_000;

/// The search was stopped: the template needs more solver work than allowed.
#[derive(Debug, Clone, Copy)]
pub enum Exhausted {
    /// More than [`CONFLICT_BUDGET`] conflicts.
    Conflicts,
    /// A weighted sum to optimise whose total, after dividing by the weights' common factor, is
    /// past [`MAX_ENCODED_SUM`]: optimising it would need an encoding of that size, and an
    /// arbitrary variant in its place would be a result the options did not ask for.
    WeightedSum(usize),
}

/// Counts learnt clauses (one per conflict) and stops the search past the budget.
#[derive(Default)]
pub struct Budget {
    conflicts: u64,
}

impl batsat::Callbacks for Budget {
    fn on_new_clause(&mut self, _c: &[batsat::Lit], src: batsat::clause::Kind) {
        if src == batsat::clause::Kind::Learnt {
            self.conflicts += 1;
        }
    }

    fn stop(&self) -> bool {
        self.conflicts > CONFLICT_BUDGET
    }
}

pub struct Sat {
    solver: rustsat_batsat::Solver<Budget>,
    vars: BasicVarManager,
    truth: Lit,
    memo: HashMap<Formula, Lit>,
    /// Values of the named variables in the last solution.
    model: Vec<bool>,
    named: u32,
}

impl Sat {
    /// A solver with `named` variables `0..named` (element presences and the like).
    pub fn new(named: u32) -> Sat {
        let mut vars = BasicVarManager::default();
        vars.increase_next_free(Var::new(named));
        let truth = vars.new_var().pos_lit();
        let mut solver = rustsat_batsat::Solver::<Budget>::default();
        let _ = solver.add_unit(truth);
        Sat {
            solver,
            vars,
            truth,
            memo: HashMap::new(),
            model: vec![false; named as usize],
            named,
        }
    }

    fn fresh(&mut self) -> Lit {
        self.vars.new_var().pos_lit()
    }

    fn clause(&mut self, lits: &[Lit]) {
        let _ = self.solver.add_clause(lits.iter().copied().collect());
    }

    /// A literal equivalent to `f`.
    pub fn lit(&mut self, f: &Formula) -> Lit {
        match f {
            Formula::Const(true) => return self.truth,
            Formula::Const(false) => return !self.truth,
            Formula::Var(v) => return Var::new(*v).pos_lit(),
            Formula::Not(inner) => return !self.lit(inner),
            _ => {}
        }
        if let Some(l) = self.memo.get(f) {
            return *l;
        }
        let l = match f {
            Formula::And(items) => {
                let lits: Vec<Lit> = items.iter().map(|i| self.lit(i)).collect();
                self.and_of(&lits)
            }
            Formula::Or(items) => {
                let lits: Vec<Lit> = items.iter().map(|i| self.lit(i)).collect();
                !self.and_of(&lits.iter().map(|l| !*l).collect::<Vec<_>>())
            }
            Formula::Xor(items) => {
                let lits: Vec<Lit> = items.iter().map(|i| self.lit(i)).collect();
                let mut acc = !self.truth;
                for l in lits {
                    acc = self.xor2(acc, l);
                }
                acc
            }
            Formula::Exo(items) | Formula::Amo(items) => {
                let lits: Vec<Lit> = items.iter().map(|i| self.lit(i)).collect();
                let (any, two) = self.counter(&lits);
                if matches!(f, Formula::Exo(_)) {
                    self.and_of(&[any, !two])
                } else {
                    !two
                }
            }
            Formula::Implies(a, b) => {
                let (a, b) = (self.lit(a), self.lit(b));
                !self.and_of(&[a, !b])
            }
            Formula::Equiv(a, b) => {
                let (a, b) = (self.lit(a), self.lit(b));
                !self.xor2(a, b)
            }
            Formula::Const(_) | Formula::Var(_) | Formula::Not(_) => unreachable!(),
        };
        self.memo.insert(f.clone(), l);
        l
    }

    /// `x <-> (l1 & ... & ln)`.
    fn and_of(&mut self, lits: &[Lit]) -> Lit {
        let x = self.fresh();
        for l in lits {
            self.clause(&[!x, *l]);
        }
        let mut back: Vec<Lit> = lits.iter().map(|l| !*l).collect();
        back.push(x);
        self.clause(&back);
        x
    }

    fn xor2(&mut self, a: Lit, b: Lit) -> Lit {
        let x = self.fresh();
        self.clause(&[!x, a, b]);
        self.clause(&[!x, !a, !b]);
        self.clause(&[x, !a, b]);
        self.clause(&[x, a, !b]);
        x
    }

    /// A sequential counter over `lits`: (at least one holds, at least two hold), in linear size.
    fn counter(&mut self, lits: &[Lit]) -> (Lit, Lit) {
        let mut one = !self.truth;
        let mut two = !self.truth;
        for l in lits {
            let both = self.and_of(&[one, *l]);
            two = !self.and_of(&[!two, !both]);
            one = !self.and_of(&[!one, !*l]);
        }
        (one, two)
    }

    /// Adds `f` as a hard constraint.
    pub fn require(&mut self, f: &Formula) {
        match f {
            Formula::Const(true) => {}
            Formula::And(items) => items.iter().for_each(|i| self.require(i)),
            _ => {
                let l = self.lit(f);
                self.clause(&[l]);
            }
        }
    }

    /// Solves under `assumptions`; on success the named variables' values are kept.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, Exhausted> {
        match self.solver.solve_assumps(assumptions) {
            Ok(SolverResult::Sat) => {
                for v in 0..self.named {
                    self.model[v as usize] = self.value_of(Var::new(v).pos_lit());
                }
                Ok(true)
            }
            Ok(SolverResult::Unsat) => Ok(false),
            Ok(SolverResult::Interrupted) | Err(_) => Err(Exhausted::Conflicts),
        }
    }

    fn value_of(&self, l: Lit) -> bool {
        matches!(self.solver.lit_val(l), Ok(TernaryVal::True))
    }

    /// The value of named variable `v` in the last solution.
    pub fn value(&self, v: u32) -> bool {
        self.model.get(v as usize).copied().unwrap_or(false)
    }

    /// Whether `f` holds in the last solution.
    pub fn holds(&self, f: &Formula) -> bool {
        f.eval(&|v| self.value(v))
    }

    /// Whether a solution exists in which `f` holds (the constraints are not changed).
    pub fn possible(&mut self, f: &Formula) -> Result<bool, Exhausted> {
        let kept = self.model.clone();
        let l = self.lit(f);
        let found = self.solve(&[l])?;
        if found {
            self.model = kept;
        }
        Ok(found)
    }

    /// Among the solutions equal to the last one in everything already decided, moves to the
    /// one that keeps the variables of `order` false wherever it can, earliest first (what a
    /// solver deciding false first, in this order, finds), and keeps that choice.
    pub fn prefer_false(&mut self, order: &[u32]) -> Result<(), Exhausted> {
        // Each decision is kept as a unit clause at once: the solver propagates it once, where
        // assumptions would be propagated again by every later call (quadratic in `order`).
        for v in order {
            let lit = Var::new(*v).pos_lit();
            if self.value(*v) && (self.forced_true(*v) || !self.solve(&[!lit])?) {
                self.clause(&[lit]);
            } else {
                self.clause(&[!lit]);
            }
        }
        self.solve(&[])?;
        Ok(())
    }

    /// Whether named variable `v` is true in every solution by propagation alone (the solver
    /// assigned it at level 0): then no search can make it false, and none is tried.
    fn forced_true(&self, v: u32) -> bool {
        use batsat::{SolverInterface, intmap::AsIndex};
        let solver = self.solver.batsat_ref();
        v < solver.num_vars()
            && solver.value_lvl_0(batsat::Lit::new(batsat::Var::from_index(v as usize), true))
                == batsat::lbool::TRUE
    }

    /// Moves the last solution to one that minimises (or maximises) the weighted sum of
    /// `terms`, and keeps that optimum as a constraint. Must follow a successful [`Sat::solve`].
    pub fn optimize(&mut self, terms: &[(Formula, u64)], minimize: bool) -> Result<u64, Exhausted> {
        self.search(terms, minimize, true)
    }

    /// [`Sat::optimize`] without keeping the optimum: the last solution is an optimal one, but
    /// later searches may leave it.
    pub fn optimum(&mut self, terms: &[(Formula, u64)], minimize: bool) -> Result<u64, Exhausted> {
        self.search(terms, minimize, false)
    }

    /// Fixes the named variables `vars` to their values in the last solution.
    pub fn fix(&mut self, vars: &[u32]) {
        for v in vars {
            let lit = Var::new(*v).pos_lit();
            let l = if self.value(*v) { lit } else { !lit };
            self.clause(&[l]);
        }
    }

    fn search(
        &mut self,
        terms: &[(Formula, u64)],
        minimize: bool,
        keep: bool,
    ) -> Result<u64, Exhausted> {
        let mut lits = Vec::new();
        for (f, w) in terms {
            if *w == 0 {
                continue;
            }
            let l = self.lit(f);
            lits.push((if minimize { l } else { !l }, *w as usize));
        }
        // Only the ratios of the weights matter: equal weights (100 per node of weight 1) are
        // counted as 1 each, which keeps the encoding as small as the sums it must tell apart.
        let divisor = lits.iter().fold(0, |g, (_, w)| gcd(g, *w)).max(1);
        for (_, w) in &mut lits {
            *w /= divisor;
        }
        let total = lits
            .iter()
            .fold(0usize, |sum, (_, w)| sum.saturating_add(*w));
        if total > MAX_ENCODED_SUM {
            return Err(Exhausted::WeightedSum(total));
        }
        if lits.is_empty() {
            return Ok(0);
        }
        // The model of the named variables does not cover the fresh literals: solve once more
        // so their values are the solver's.
        if !self.solve(&[])? {
            return Ok(0);
        }
        let cost = |s: &Sat| -> usize {
            lits.iter()
                .filter(|(l, _)| s.value_of(*l))
                .map(|(_, w)| *w)
                .sum()
        };
        let mut best = cost(self);
        let mut encoding: GeneralizedTotalizer = lits.iter().copied().collect();
        let mut best_model = self.model.clone();
        while best > 0 {
            // Each bound is encoded when it is asked for, so only the sums up to the first
            // solution's cost are ever built.
            if encoding
                .encode_ub(best - 1..best, &mut self.solver, &mut self.vars)
                .is_err()
            {
                break;
            }
            let Ok(assumptions) = encoding.enforce_ub(best - 1) else {
                break;
            };
            if !self.solve(&assumptions)? {
                break;
            }
            best = cost(self);
            best_model = self.model.clone();
        }
        if keep {
            let encoded = encoding
                .encode_ub(best..best + 1, &mut self.solver, &mut self.vars)
                .is_ok();
            if encoded && let Ok(units) = encoding.enforce_ub(best) {
                for u in units {
                    self.clause(&[u]);
                }
            }
            self.solve(&[])?;
        } else {
            self.model = best_model;
        }
        Ok((best * divisor) as u64)
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_optimizes() {
        let mut sat = Sat::new(3);
        // exactly one of 0, 1, 2
        sat.require(&Formula::Exo(vec![
            Formula::var(0),
            Formula::var(1),
            Formula::var(2),
        ]));
        assert!(sat.solve(&[]).unwrap());
        let weights = [
            (Formula::var(0), 5),
            (Formula::var(1), 2),
            (Formula::var(2), 9),
        ];
        assert_eq!(sat.optimize(&weights, true).unwrap(), 2);
        assert!(sat.value(1) && !sat.value(0) && !sat.value(2));
        // the optimum is kept: var 2 can no longer be chosen
        assert!(!sat.possible(&Formula::var(2)).unwrap());
    }

    #[test]
    fn maximizes() {
        let mut sat = Sat::new(2);
        sat.require(&Formula::Amo(vec![Formula::var(0), Formula::var(1)]));
        assert!(sat.solve(&[]).unwrap());
        sat.optimize(&[(Formula::var(0), 1), (Formula::var(1), 3)], false)
            .unwrap();
        assert!(sat.value(1) && !sat.value(0));
    }

    #[test]
    fn xor_is_odd_parity() {
        let mut sat = Sat::new(3);
        sat.require(&Formula::Xor(vec![
            Formula::var(0),
            Formula::var(1),
            Formula::var(2),
        ]));
        sat.require(&Formula::var(0));
        sat.require(&Formula::var(1));
        assert!(sat.solve(&[]).unwrap());
        assert!(sat.value(2));
    }

    #[test]
    fn unsatisfiable_is_reported() {
        let mut sat = Sat::new(1);
        sat.require(&Formula::var(0));
        sat.require(&Formula::not(Formula::var(0)));
        assert!(!sat.solve(&[]).unwrap());
    }

    #[test]
    fn a_sum_too_large_to_encode_is_reported_not_skipped() {
        let mut sat = Sat::new(2);
        sat.require(&Formula::Amo(vec![Formula::var(0), Formula::var(1)]));
        assert!(sat.solve(&[]).unwrap());
        // weights 3 and 4,000,000 share no factor: the sum cannot be divided down
        let weights = [(Formula::var(0), 3), (Formula::var(1), 4_000_000)];
        assert!(matches!(
            sat.optimize(&weights, true),
            Err(Exhausted::WeightedSum(4_000_003))
        ));
        // weights whose sum overflows saturate instead of wrapping to a small total
        let huge = [(Formula::var(0), u64::MAX), (Formula::var(1), u64::MAX - 1)];
        assert!(matches!(
            sat.optimize(&huge, true),
            Err(Exhausted::WeightedSum(usize::MAX))
        ));
    }
}
