//! Propositional formulas over the resolver's variables (element presence, the manual part of
//! an element's conditions, named logic expressions), with constructors that fold constants
//! away, so a condition that the input values already decide never reaches the solver.

/// A propositional formula. `Var(i)` is the solver variable `i` of [`super::sat::Sat`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Formula {
    Const(bool),
    Var(u32),
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    /// An odd number of the operands hold (§ Intrinsic Functions, "xor").
    Xor(Vec<Formula>),
    /// Exactly one operand holds ("exo").
    Exo(Vec<Formula>),
    /// At most one operand holds ("amo").
    Amo(Vec<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    Equiv(Box<Formula>, Box<Formula>),
}

pub const TRUE: Formula = Formula::Const(true);
pub const FALSE: Formula = Formula::Const(false);

impl Formula {
    pub fn var(v: u32) -> Formula {
        Formula::Var(v)
    }

    pub fn constant(&self) -> Option<bool> {
        match self {
            Formula::Const(b) => Some(*b),
            _ => None,
        }
    }

    #[allow(clippy::should_implement_trait)]
    pub fn not(f: Formula) -> Formula {
        match f {
            Formula::Const(b) => Formula::Const(!b),
            Formula::Not(inner) => *inner,
            other => Formula::Not(Box::new(other)),
        }
    }

    /// All of `items`; the empty conjunction holds.
    pub fn and(items: Vec<Formula>) -> Formula {
        let mut kept = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Formula::Const(true) => {}
                Formula::Const(false) => return FALSE,
                Formula::And(inner) => kept.extend(inner),
                other => kept.push(other),
            }
        }
        match kept.len() {
            0 => TRUE,
            1 => kept.pop().unwrap_or(TRUE),
            _ => Formula::And(kept),
        }
    }

    /// Any of `items`; the empty disjunction does not hold.
    pub fn or(items: Vec<Formula>) -> Formula {
        let mut kept = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Formula::Const(false) => {}
                Formula::Const(true) => return TRUE,
                Formula::Or(inner) => kept.extend(inner),
                other => kept.push(other),
            }
        }
        match kept.len() {
            0 => FALSE,
            1 => kept.pop().unwrap_or(FALSE),
            _ => Formula::Or(kept),
        }
    }

    pub fn xor(items: Vec<Formula>) -> Formula {
        let mut parity = false;
        let mut kept = Vec::new();
        for item in items {
            match item {
                Formula::Const(b) => parity ^= b,
                other => kept.push(other),
            }
        }
        match (kept.len(), parity) {
            (0, p) => Formula::Const(p),
            (1, false) => kept.pop().unwrap_or(FALSE),
            (1, true) => Formula::not(kept.pop().unwrap_or(FALSE)),
            (_, false) => Formula::Xor(kept),
            (_, true) => Formula::not(Formula::Xor(kept)),
        }
    }

    /// Exactly one of `items`.
    pub fn exo(items: Vec<Formula>) -> Formula {
        let trues = items.iter().filter(|f| **f == TRUE).count();
        let kept: Vec<Formula> = items
            .into_iter()
            .filter(|f| f.constant().is_none())
            .collect();
        match trues {
            0 if kept.is_empty() => FALSE,
            0 if kept.len() == 1 => kept.into_iter().next().unwrap_or(FALSE),
            0 => Formula::Exo(kept),
            1 => Formula::not(Formula::or(kept)),
            _ => FALSE,
        }
    }

    /// At most one of `items`.
    pub fn amo(items: Vec<Formula>) -> Formula {
        let trues = items.iter().filter(|f| **f == TRUE).count();
        let kept: Vec<Formula> = items
            .into_iter()
            .filter(|f| f.constant().is_none())
            .collect();
        match trues {
            0 if kept.len() <= 1 => TRUE,
            0 => Formula::Amo(kept),
            1 => Formula::not(Formula::or(kept)),
            _ => FALSE,
        }
    }

    pub fn implies(a: Formula, b: Formula) -> Formula {
        match (a.constant(), b.constant()) {
            (Some(false), _) | (_, Some(true)) => TRUE,
            (Some(true), _) => b,
            (_, Some(false)) => Formula::not(a),
            _ => Formula::Implies(Box::new(a), Box::new(b)),
        }
    }

    pub fn equiv(a: Formula, b: Formula) -> Formula {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) => Formula::Const(x == y),
            (Some(true), _) => b,
            (_, Some(true)) => a,
            (Some(false), _) => Formula::not(b),
            (_, Some(false)) => Formula::not(a),
            _ => Formula::Equiv(Box::new(a), Box::new(b)),
        }
    }

    /// The value under `assignment` (the solver's values of its variables).
    pub fn eval(&self, assignment: &dyn Fn(u32) -> bool) -> bool {
        let count = |items: &[Formula]| items.iter().filter(|f| f.eval(assignment)).count();
        match self {
            Formula::Const(b) => *b,
            Formula::Var(v) => assignment(*v),
            Formula::Not(f) => !f.eval(assignment),
            Formula::And(items) => items.iter().all(|f| f.eval(assignment)),
            Formula::Or(items) => items.iter().any(|f| f.eval(assignment)),
            Formula::Xor(items) => count(items) % 2 == 1,
            Formula::Exo(items) => count(items) == 1,
            Formula::Amo(items) => count(items) <= 1,
            Formula::Implies(a, b) => !a.eval(assignment) || b.eval(assignment),
            Formula::Equiv(a, b) => a.eval(assignment) == b.eval(assignment),
        }
    }

    /// The variables the formula reads, in order of first appearance.
    pub fn vars(&self, out: &mut Vec<u32>) {
        match self {
            Formula::Const(_) => {}
            Formula::Var(v) => {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
            Formula::Not(f) => f.vars(out),
            Formula::And(items)
            | Formula::Or(items)
            | Formula::Xor(items)
            | Formula::Exo(items)
            | Formula::Amo(items) => items.iter().for_each(|f| f.vars(out)),
            Formula::Implies(a, b) | Formula::Equiv(a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_fold_away() {
        assert_eq!(Formula::and(vec![]), TRUE);
        assert_eq!(Formula::or(vec![]), FALSE);
        assert_eq!(Formula::and(vec![TRUE, Formula::var(1)]), Formula::var(1));
        assert_eq!(Formula::or(vec![TRUE, Formula::var(1)]), TRUE);
        assert_eq!(Formula::exo(vec![TRUE, FALSE, FALSE]), TRUE);
        assert_eq!(Formula::exo(vec![TRUE, TRUE]), FALSE);
        assert_eq!(Formula::xor(vec![TRUE, TRUE, TRUE]), TRUE);
        assert_eq!(Formula::amo(vec![TRUE, TRUE]), FALSE);
        assert_eq!(Formula::implies(FALSE, Formula::var(2)), TRUE);
    }

    #[test]
    fn evaluation_counts_operands() {
        let f = Formula::Xor(vec![Formula::var(0), Formula::var(1), Formula::var(2)]);
        assert!(f.eval(&|v| v == 0));
        assert!(!f.eval(&|v| v <= 1));
        let g = Formula::Exo(vec![Formula::var(0), Formula::var(1)]);
        assert!(g.eval(&|v| v == 1));
        assert!(!g.eval(&|_| true));
    }
}
