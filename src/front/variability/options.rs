//! How a variable template is resolved: the preset, the pruning options and the consistency
//! checks (the switches of the RC's resolver), and the command-line flags that set them.

use clap::Args;

/// What the resolver does with elements that carry no conditions of their own (spec,
/// "Prune Elements").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Prune {
    /// No default condition: an element without conditions is present.
    #[default]
    Off,
    /// An element without conditions gets the pruning condition of its kind.
    Default,
    /// Every element of the kind gets the pruning condition instead of its own conditions.
    Force,
}

/// The element kinds a pruning option applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PruneKind {
    Nodes,
    Relations,
    Policies,
    Groups,
    Artifacts,
    Properties,
    All,
}

/// The consistency checks of the spec (section "Check Consistency"), in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Check {
    RelationSource,
    RelationTarget,
    AmbiguousHosting,
    ExpectedHosting,
    MissingArtifactParent,
    AmbiguousArtifact,
    MissingPropertyParent,
    AmbiguousProperty,
    All,
}

/// The pruning option of each element kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pruning {
    pub nodes: Prune,
    pub relations: Prune,
    pub policies: Prune,
    pub groups: Prune,
    pub artifacts: Prune,
    pub properties: Prune,
}

impl Pruning {
    /// Sets `kind` (every kind for `All`) to `prune`, unless it is already forced.
    pub fn set(&mut self, kind: PruneKind, prune: Prune) {
        let slots = match kind {
            PruneKind::Nodes => vec![&mut self.nodes],
            PruneKind::Relations => vec![&mut self.relations],
            PruneKind::Policies => vec![&mut self.policies],
            PruneKind::Groups => vec![&mut self.groups],
            PruneKind::Artifacts => vec![&mut self.artifacts],
            PruneKind::Properties => vec![&mut self.properties],
            PruneKind::All => vec![
                &mut self.nodes,
                &mut self.relations,
                &mut self.policies,
                &mut self.groups,
                &mut self.artifacts,
                &mut self.properties,
            ],
        };
        for slot in slots {
            if *slot != Prune::Force {
                *slot = prune;
            }
        }
    }
}

/// Everything that decides how a variable template resolves, besides the input values.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The presets whose inputs are applied, in this order, before the explicit values
    /// (§ Retrieve Variability Inputs Assignments: later ones override earlier ones).
    pub presets: Vec<String>,
    pub pruning: Pruning,
    /// Consistency checks switched off.
    pub disabled_checks: Vec<Check>,
    /// Record, for each element, whether it is present and what decided it.
    pub explain: bool,
}

impl Options {
    /// Whether `check` runs.
    pub fn checks(&self, check: Check) -> bool {
        !self
            .disabled_checks
            .iter()
            .any(|c| *c == check || *c == Check::All)
    }

    /// Whether any variability option was given (they mean nothing for a plain template).
    pub fn is_default(&self) -> bool {
        self.presets.is_empty() && self.pruning_is_default()
    }

    /// Whether no pruning or check flag was given (the seed's resolver switches, which the
    /// current language writes in the template instead).
    pub fn pruning_is_default(&self) -> bool {
        self.pruning == Pruning::default() && self.disabled_checks.is_empty()
    }
}

/// The variability flags every reading command takes (`resolve`, `check`, `ir`, `k8s`, `tf`,
/// `dot`, `render` and the aliases). Variability input values come from `--inputs` and `--set`.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Variability4TOSCA")]
pub struct VariabilityArgs {
    /// Apply the inputs of a preset of `variability.presets` (repeatable)
    ///
    /// Presets apply in the order given, a later one overriding an earlier one; values given
    /// with --inputs and --set win over all of them.
    #[arg(long, value_name = "NAME", help_heading = "Values")]
    pub preset: Vec<String>,
    /// Give elements of KIND without conditions a pruning default condition (repeatable)
    #[arg(long, value_enum, value_name = "KIND", hide_short_help = true)]
    pub prune: Vec<PruneKind>,
    /// Replace the conditions of elements of KIND by the pruning condition (repeatable)
    #[arg(long, value_enum, value_name = "KIND", hide_short_help = true)]
    pub force_prune: Vec<PruneKind>,
    /// Switch off one consistency check, or `all` (repeatable)
    #[arg(long, value_enum, value_name = "CHECK", hide_short_help = true)]
    pub skip_check: Vec<Check>,
    /// Print, for each element, whether it is present and which condition decided it
    #[arg(long, hide_short_help = true)]
    pub explain: bool,
}

impl VariabilityArgs {
    pub fn options(&self) -> Options {
        let mut pruning = Pruning::default();
        for kind in &self.force_prune {
            pruning.set(*kind, Prune::Force);
        }
        for kind in &self.prune {
            pruning.set(*kind, Prune::Default);
        }
        Options {
            presets: self.preset.clone(),
            pruning,
            disabled_checks: self.skip_check.clone(),
            explain: self.explain,
        }
    }
}
