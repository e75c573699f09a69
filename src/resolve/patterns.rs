//! The regular expressions of a run (`pattern` constraints of the Simple Profile, `$matches` of
//! TOSCA 2.0), each compiled once, within [`Limits::max_regex_bytes`].
//!
//! Compiling a pattern can take time and memory far beyond its length: `(a{1000}){1000}` is 20
//! bytes and a compiled program of gigabytes, which the regex crate refuses only once it has
//! built the first 10 MiB. So each distinct pattern is compiled once per run (a thousand
//! templates with the same constraint cost one compilation, and so do a thousand copies of an
//! expensive one), the compilation stops at what is left of the run's budget, and what each
//! compilation took (its program's memory, or the budget it was given when it stopped) is
//! spent from it. Once the budget is spent, a pattern not compiled yet is refused with a
//! diagnostic that names the limit.
//!
//! [`Limits::max_regex_bytes`]: crate::limits::Limits::max_regex_bytes

use std::sync::{Arc, Mutex};

use regex_automata::meta::{BuildError, Regex};

use crate::hash::FastMap;
use crate::limits::{Budget, Limit};
use crate::span::Span;

/// The most one pattern may take, as the regex crate allows by default.
const ONE_PATTERN: usize = 10 * 1024 * 1024;

/// Why a pattern cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Not a regular expression, or one too large: what is wrong, in a few words.
    Invalid(String),
    /// The run's budget for compiled patterns is spent: the limit, in bytes.
    Budget(u64),
}

impl Refused {
    /// What is wrong, for a message.
    pub fn why(&self) -> String {
        match self {
            Refused::Invalid(why) => why.clone(),
            Refused::Budget(limit) => format!(
                "the patterns compiled so far take the {limit} bytes regular expressions may take in one run"
            ),
        }
    }

    /// The hint of the message: how to fix the pattern, or raise the limit.
    pub fn hint(&self) -> Option<String> {
        match self {
            Refused::Invalid(_) => None,
            Refused::Budget(_) => Some(Limit::RegexBytes.hint()),
        }
    }
}

/// A run's compiled patterns, shared by every stage (and thread) that reads them: cloning the
/// handle shares the cache and the budget.
#[derive(Debug, Clone)]
pub struct Patterns {
    budget: Arc<Budget>,
    compiled: Arc<Mutex<FastMap<String, Result<Regex, Refused>>>>,
    /// Where the Simple Profile constraint clauses judged where they are written start
    /// (`written_definitions::judge_constraints`): a value checked against one of them later
    /// reports only whether it holds, not the clause's own mistakes again. Kept here because
    /// this is the one cache every stage of a run shares.
    judged: Arc<Mutex<std::collections::HashSet<Span>>>,
}

impl Patterns {
    pub fn new(budget: Arc<Budget>) -> Self {
        Patterns {
            budget,
            compiled: Arc::default(),
            judged: Arc::default(),
        }
    }

    /// Records that the constraint clause at `clause` is judged where it is written; false when
    /// it was already (a clause of a file two models share).
    pub fn judge_once(&self, clause: Span) -> bool {
        let mut judged = self.judged.lock().unwrap_or_else(|e| e.into_inner());
        judged.insert(clause)
    }

    /// Whether the constraint clause at `clause` was judged where it is written.
    pub fn was_judged(&self, clause: Span) -> bool {
        let judged = self.judged.lock().unwrap_or_else(|e| e.into_inner());
        judged.contains(&clause)
    }

    /// The run's budget, which function evaluation also spends.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// `pattern` compiled to match the whole text (`^(?:pattern)$`), as a Simple Profile
    /// `pattern` constraint reads it.
    pub fn whole(&self, pattern: &str) -> Result<Regex, Refused> {
        self.get(&format!("^(?:{pattern})$"))
    }

    /// `pattern` compiled as it is (a match anywhere), as TOSCA 2.0 `$matches` reads it.
    pub fn get(&self, pattern: &str) -> Result<Regex, Refused> {
        let mut compiled = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = compiled.get(pattern) {
            return known.clone();
        }
        let result = self.compile(pattern);
        // A pattern refused for want of budget may fit in another run; in this one it stays
        // refused, so the answer does not depend on the order patterns are asked in.
        compiled.insert(pattern.to_string(), result.clone());
        result
    }

    fn compile(&self, pattern: &str) -> Result<Regex, Refused> {
        let left = usize::try_from(self.budget.regex_left()).unwrap_or(usize::MAX);
        if left == 0 {
            return Err(Refused::Budget(self.budget.max_regex_bytes()));
        }
        let limit = left.min(ONE_PATTERN);
        let built = Regex::builder()
            .configure(Regex::config().nfa_size_limit(Some(limit)))
            .build(pattern);
        match built {
            Ok(regex) => {
                // A literal may take no memory of its own; it still costs its text.
                let taken = regex.memory_usage().max(pattern.len());
                self.budget.spend_regex(taken as u64);
                Ok(regex)
            }
            Err(e) if e.size_limit().is_some() => {
                self.budget.spend_regex(limit as u64);
                if limit < ONE_PATTERN {
                    Err(Refused::Budget(self.budget.max_regex_bytes()))
                } else {
                    Err(Refused::Invalid(format!(
                        "it compiles to more than {ONE_PATTERN} bytes"
                    )))
                }
            }
            Err(e) => Err(Refused::Invalid(syntax_error(&e))),
        }
    }
}

impl Default for Patterns {
    fn default() -> Self {
        Patterns::new(Arc::new(Budget::default()))
    }
}

/// What is wrong with a pattern that does not parse, in a few words: the regex crate draws the
/// pattern over several lines, and its last line says why.
fn syntax_error(e: &BuildError) -> String {
    let text = match e.syntax_error() {
        Some(syntax) => syntax.to_string(),
        None => e.to_string(),
    };
    let last = text.lines().last().unwrap_or_default();
    last.strip_prefix("error: ").unwrap_or(last).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    fn patterns(bytes: u64) -> Patterns {
        Patterns::new(Arc::new(Budget::new(&Limits {
            max_regex_bytes: bytes,
            ..Limits::default()
        })))
    }

    #[test]
    fn a_pattern_matches_whole_or_anywhere() {
        let p = Patterns::default();
        assert!(p.whole("[a-z]+").unwrap().is_match("abc"));
        assert!(!p.whole("[a-z]+").unwrap().is_match("Abc"));
        assert!(p.get("[a-z]+").unwrap().is_match("Abc"));
    }

    #[test]
    fn a_bad_pattern_says_why_in_a_few_words() {
        let p = Patterns::default();
        assert_eq!(
            p.whole("[a-z").unwrap_err(),
            Refused::Invalid("unclosed character class".into())
        );
        let huge = p.get("(?:a{1000}){1000}").unwrap_err();
        assert!(huge.why().contains("compiles to more than"), "{huge:?}");
    }

    #[test]
    fn each_pattern_is_compiled_once_and_the_budget_stops_new_ones() {
        let p = patterns(ONE_PATTERN as u64 + 1024);
        // The expensive pattern fails at its own limit and takes that much of the budget,
        // once however often it is asked for.
        for _ in 0..1_000 {
            assert!(matches!(
                p.get("(?:a{1000}){1000}"),
                Err(Refused::Invalid(_))
            ));
        }
        assert_eq!(p.budget().regex_left(), 1024);
        // What is left is too little for a pattern of any size.
        let refused = p.get("(?:b{100}){100}").unwrap_err();
        assert_eq!(refused, Refused::Budget(ONE_PATTERN as u64 + 1024));
        assert!(refused.hint().unwrap().contains("--max-regex-size"));
        // Patterns compiled before stay usable.
        let q = patterns(1 << 20);
        let small = q.get("x").unwrap();
        assert!(q.budget().regex_left() < 1 << 20);
        q.budget().spend_regex(u64::MAX);
        assert!(q.get("x").unwrap().is_match("x") && small.is_match("x"));
        assert_eq!(q.get("y").unwrap_err(), Refused::Budget(1 << 20));
    }
}
