//! Resource limits for hostile input.
//!
//! Every stage consults one `Limits` value so that a single place says how much work a file may
//! cause. The rule (docs/security.md, "Limits"): the work and memory of every stage are bounded
//! by the input's size times a small constant, or one of these limits stops it first with a
//! diagnostic that names the limit and the flag that raises it ([`Limit::hint`]).
//!
//! Each limit has a default generous enough for real estates of services (the 100,000-node
//! benchmark fits) and small enough that an alias bomb, a zip bomb, an import loop, a chain of
//! doubling `concat`s or a fan of nested substitutions ends with a diagnostic instead of
//! exhausting the machine. Limits that count across a whole run (the bytes functions compute,
//! the memory of compiled patterns) are spent through a [`Budget`].

use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

/// Upper bounds on what one run will read and compute. `Default` gives the documented defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Largest single input file, in bytes.
    pub max_file_bytes: u64,
    /// Deepest nesting of YAML collections.
    pub max_yaml_depth: usize,
    /// Most YAML nodes that alias expansion may produce in one document (billion-laughs guard).
    pub max_alias_expansion: usize,
    /// Most bytes of scalar text that alias expansion may copy in one document: one long
    /// scalar referenced by many aliases costs its length each time, which a count of nodes
    /// does not see.
    pub max_alias_bytes: u64,
    /// Most YAML nodes (scalars, lists and maps, aliases expanded) in one file: a node and
    /// what `check` makes of it take about 220 bytes, a hundred times what `1,` takes in the
    /// file. The 100,000-node benchmark holds 2.6 million.
    pub max_yaml_nodes: usize,
    /// Longest single scalar, in bytes.
    pub max_scalar_bytes: usize,
    /// Most files read through imports in one run.
    pub max_imports: usize,
    /// Deepest chain of imports.
    pub max_import_depth: usize,
    /// Most entries a CSAR may hold.
    pub max_csar_entries: usize,
    /// Most bytes a CSAR may expand to.
    pub max_csar_bytes: u64,
    /// Largest ratio of uncompressed to compressed size for one CSAR entry.
    pub max_compression_ratio: u64,
    /// Most node templates in one topology.
    pub max_node_templates: usize,
    /// Longest chain of `derived_from` from a type to its root: every type keeps the names of
    /// its ancestors, so a chain of n types costs n² names.
    pub max_type_depth: usize,
    /// Deepest nesting of substitutions: a substituting template whose nodes are substituted
    /// in turn.
    pub max_substitution_depth: usize,
    /// Most node templates that substitution adds to one run's topology, over every level:
    /// five levels of 15-node templates are 759,375 nodes from 5.7 KB.
    pub max_substituted_nodes: usize,
    /// Most node and relationship representations (TOSCA 2.0 `count`) one topology expands
    /// to, for `ir --expand` and for `check`'s pairing of relationships.
    pub max_representations: u64,
    /// Most bytes of values that evaluating functions may create in one run (`concat`,
    /// `join`, the values `get_property` and `get_input` copy, Variability4TOSCA expressions):
    /// a chain of `concat`s that doubles its value at each step reaches 2⁴⁰ bytes in 40 lines.
    pub max_computed_bytes: u64,
    /// Most memory, in bytes, that the compiled `pattern` and `$matches` expressions of one
    /// run may take; each distinct pattern is compiled once.
    pub max_regex_bytes: u64,
    /// Most bytes of diagnostics printed in one run; `--max-errors` caps only their number,
    /// and one that quotes a long value can be a megabyte.
    pub max_diagnostic_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 256 * 1024 * 1024,
            max_yaml_depth: 256,
            max_alias_expansion: 1_000_000,
            max_alias_bytes: 64 * 1024 * 1024,
            max_yaml_nodes: 5_000_000,
            max_scalar_bytes: 16 * 1024 * 1024,
            max_imports: 10_000,
            max_import_depth: 64,
            max_csar_entries: 100_000,
            max_csar_bytes: 1024 * 1024 * 1024,
            max_compression_ratio: 200,
            max_node_templates: 1_000_000,
            max_type_depth: 64,
            max_substitution_depth: 16,
            max_substituted_nodes: 100_000,
            max_representations: 1_000_000,
            max_computed_bytes: 256 * 1024 * 1024,
            max_regex_bytes: 64 * 1024 * 1024,
            max_diagnostic_bytes: 16 * 1024 * 1024,
        }
    }
}

/// One limit, named by the diagnostics of the stages it stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    AliasBytes,
    YamlNodes,
    TypeDepth,
    SubstitutionDepth,
    SubstitutedNodes,
    Representations,
    ComputedBytes,
    RegexBytes,
    DiagnosticBytes,
}

impl Limit {
    /// The command-line flag that sets the limit.
    pub fn flag(self) -> &'static str {
        match self {
            Limit::AliasBytes => "--max-alias-size",
            Limit::YamlNodes => "--max-yaml-nodes",
            Limit::TypeDepth => "--max-type-depth",
            Limit::SubstitutionDepth => "--max-substitution-depth",
            Limit::SubstitutedNodes => "--max-substituted-nodes",
            Limit::Representations => "--max-representations",
            Limit::ComputedBytes => "--max-computed-size",
            Limit::RegexBytes => "--max-regex-size",
            Limit::DiagnosticBytes => "--max-diagnostics-size",
        }
    }

    /// The hint of a diagnostic that this limit stopped something: how to raise it.
    pub fn hint(self) -> String {
        let unit = match self {
            Limit::AliasBytes
            | Limit::ComputedBytes
            | Limit::RegexBytes
            | Limit::DiagnosticBytes => "BYTES",
            _ => "N",
        };
        format!(
            "raise the limit with {} {unit} if the template is trusted and this is intended",
            self.flag()
        )
    }
}

/// What one run has spent of the limits that count over the whole run rather than one file or
/// one element: the bytes that evaluating functions created, and the memory of compiled
/// patterns. Shared by reference between the stages (and the threads) of the run.
#[derive(Debug)]
pub struct Budget {
    max_computed_bytes: u64,
    max_regex_bytes: u64,
    computed_bytes: AtomicU64,
    regex_bytes: AtomicU64,
}

/// A run-wide limit that a charge would pass: the limit, in its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exceeded(pub u64);

impl Budget {
    pub fn new(limits: &Limits) -> Self {
        Budget {
            max_computed_bytes: limits.max_computed_bytes,
            max_regex_bytes: limits.max_regex_bytes,
            computed_bytes: AtomicU64::new(0),
            regex_bytes: AtomicU64::new(0),
        }
    }

    /// Counts `bytes` of computed values; `Err` (and nothing counted) when the run would pass
    /// [`Limits::max_computed_bytes`].
    pub fn compute(&self, bytes: u64) -> Result<(), Exceeded> {
        charge(&self.computed_bytes, bytes, self.max_computed_bytes)
    }

    /// The memory a pattern compiled next may take: what is left of
    /// [`Limits::max_regex_bytes`].
    pub fn regex_left(&self) -> u64 {
        self.max_regex_bytes
            .saturating_sub(self.regex_bytes.load(Ordering::Relaxed))
    }

    /// Counts `bytes` of compiled patterns (or of the work a compilation did before it
    /// stopped at its limit); saturates at the limit.
    pub fn spend_regex(&self, bytes: u64) {
        let _ = self
            .regex_bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |spent| {
                Some(spent.saturating_add(bytes).min(self.max_regex_bytes))
            });
    }

    /// [`Limits::max_regex_bytes`].
    pub fn max_regex_bytes(&self) -> u64 {
        self.max_regex_bytes
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(&Limits::default())
    }
}

fn charge(counter: &AtomicU64, bytes: u64, limit: u64) -> Result<(), Exceeded> {
    counter
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |spent| {
            spent.checked_add(bytes).filter(|total| *total <= limit)
        })
        .map(|_| ())
        .map_err(|_| Exceeded(limit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_refuses_the_charge_that_would_pass_it_and_keeps_the_rest() {
        let budget = Budget::new(&Limits {
            max_computed_bytes: 10,
            max_regex_bytes: 5,
            ..Limits::default()
        });
        assert_eq!(budget.compute(6), Ok(()));
        assert_eq!(budget.compute(5), Err(Exceeded(10)));
        assert_eq!(budget.compute(4), Ok(()));
        assert_eq!(budget.compute(u64::MAX), Err(Exceeded(10)));
        assert_eq!(budget.regex_left(), 5);
        budget.spend_regex(3);
        assert_eq!(budget.regex_left(), 2);
        budget.spend_regex(u64::MAX);
        assert_eq!(budget.regex_left(), 0);
    }

    #[test]
    fn every_hint_names_its_flag() {
        for limit in [
            Limit::AliasBytes,
            Limit::YamlNodes,
            Limit::TypeDepth,
            Limit::SubstitutionDepth,
            Limit::SubstitutedNodes,
            Limit::Representations,
            Limit::ComputedBytes,
            Limit::RegexBytes,
            Limit::DiagnosticBytes,
        ] {
            assert!(limit.hint().contains(limit.flag()), "{limit:?}");
        }
    }
}
