//! `topology_template.variability.options` (§ Variability Options): pruning and default
//! condition switches, checks, solver, constraint, normalizer and enricher options, each
//! resolved the way the specification orders them: the element's own keyname, then the
//! option of its kind, then the pruning mode (§ Pruning Modes), then the wider option, then the
//! default of the template's definitions version (§ RC v2, § RC v3).

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::{Core, Node};

/// Which definitions version's defaults apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// `tosca_variability_1_0` (and `_rc_1`): everything off unless switched on.
    V1,
    /// `tosca_variability_1_0_rc_2` (§ RC v2).
    V2,
    /// `tosca_variability_1_0_rc_3` (§ RC v3).
    V3,
}

impl Version {
    pub fn of(version: &str) -> Version {
        match version {
            "tosca_variability_1_0_rc_2" => Version::V2,
            "tosca_variability_1_0_rc_3" => Version::V3,
            _ => Version::V1,
        }
    }
}

/// The element kinds options are named after (`node_pruning`, `artifact_default_condition`).
const ALL: [&str; 10] = [
    "input",
    "node",
    "output",
    "relation",
    "policy",
    "group",
    "artifact",
    "property",
    "type",
    "technology",
];

/// Pruning modes of `_1_0` and `_rc_2`: input and output pruning are never switched by a mode
/// (§ Pruning Modes: "pruning modes do not consider input and output pruning in rc_2").
fn mode_v1(name: &str) -> Option<Vec<(String, bool)>> {
    let io_off: Vec<(String, bool)> = [
        "input_default_condition",
        "input_default_consistency_condition",
        "input_default_semantic_condition",
        "input_pruning",
        "input_consistency_pruning",
        "input_semantic_pruning",
        "output_default_condition",
        "output_default_consistency_condition",
        "output_default_semantic_condition",
        "output_pruning",
        "output_consistency_pruning",
        "output_semantic_pruning",
    ]
    .iter()
    .map(|k| (k.to_string(), false))
    .collect();
    let inner: Vec<&str> = ALL
        .iter()
        .copied()
        .filter(|k| *k != "input" && *k != "output")
        .collect();
    let mut out = Vec::new();
    match name {
        "strict" | "manual" => out.extend(io_off),
        "consistent-strict" => {
            out.extend(io_off);
            for k in &inner {
                out.extend(default_triple(k, true, false));
            }
        }
        "consistent-loose" => {
            out.extend(io_off);
            for k in &inner {
                out.extend(pruning_triple(k, true, false));
            }
        }
        "default" => {
            out.push(("default_condition".to_string(), true));
            out.extend(io_off);
        }
        "semantic-strict" => {
            out.push(("default_condition".to_string(), true));
            out.extend(io_off);
            for k in &inner {
                out.extend(pruning_triple(k, true, false));
            }
        }
        "semantic-loose" | "loose" => {
            out.push(("pruning".to_string(), true));
            out.extend(io_off);
        }
        _ => return None,
    }
    Some(out)
}

/// Pruning modes of `_rc_3`, which also prune inputs and outputs.
fn mode_v3(name: &str) -> Option<Vec<(String, bool)>> {
    let mut out = Vec::new();
    match name {
        "strict" | "manual" => {}
        "consistent-strict" => {
            for k in ALL {
                out.extend(default_triple(k, true, false));
            }
        }
        "consistent-loose" => {
            for k in ALL {
                out.extend(pruning_triple(k, true, false));
            }
        }
        "default" => out.push(("default_condition".to_string(), true)),
        "semantic-strict" => {
            out.push(("default_condition".to_string(), true));
            for k in ALL {
                out.extend(pruning_triple(k, true, false));
            }
        }
        "semantic-loose" | "loose" => out.push(("pruning".to_string(), true)),
        _ => return None,
    }
    Some(out)
}

/// The options of one element kind (`node_pruning`, `artifact_default_condition_mode`), by
/// suffix (§ Default Condition Options, § Pruning Options).
const KIND_OPTIONS: [&str; 7] = [
    "default_condition",
    "default_consistency_condition",
    "default_semantic_condition",
    "default_condition_mode",
    "pruning",
    "consistency_pruning",
    "semantic_pruning",
];

/// Every other option of § Variability Options, with those the defaults of § RC v2 and § RC v3
/// set.
const OTHER_OPTIONS: &[&str] = &[
    // § General Options, and the wide switches of § Default Condition and § Pruning Options
    "mode",
    "default_condition",
    "pruning",
    "relation_default_implied",
    // § Checks Options
    "checks",
    "consistency_checks",
    "semantic_checks",
    "relation_source_check",
    "relation_target_check",
    "ambiguous_hosting_check",
    "expected_hosting_check",
    "missing_artifact_container_check",
    "ambiguous_artifact_check",
    "missing_property_container_check",
    "ambiguous_property_check",
    "missing_type_container_check",
    "ambiguous_type_check",
    "expected_incoming_relation_check",
    "expected_artifact_check",
    "missing_technology_container_check",
    "required_technology_check",
    "ambiguous_technology_check",
    "expected_technology_check",
    "ambiguous_input_check",
    "ambiguous_output_check",
    "ambiguous_relation_check",
    "unconsumed_input_check",
    "unproduced_output_check",
    "anchor_check",
    // § Solver Options
    "optimization_topology",
    "optimization_topology_unique",
    "optimization_topology_unique_backward",
    "optimization_topology_mode",
    "optimization_technologies",
    "optimization_technologies_unique",
    "optimization_technologies_mode",
    "optimization_scenarios",
    "optimization_scenarios_unique",
    // § Enricher Options
    "enrich_input_condition",
    "enrich_technologies",
    "enrich_technologies_best_only",
    "enrich_implementations",
    // § Normalizer Options
    "automatic_default_alternatives",
    "fallback_property_default_alternative",
    // § Constraints Options
    "constraints",
    "relation_source_constraint",
    "relation_target_constraint",
    "artifact_container_constraint",
    "property_container_constraint",
    "type_container_constraint",
    "required_hosting_constraint",
    "single_hosting_constraint",
    "required_technology_constraint",
    "required_artifact_constraint",
    "required_incoming_relation_constraint",
    "unique_property_constraint",
    "unique_artifact_constraint",
    "unique_input_constraint",
    "unique_output_constraint",
    "unique_relation_constraint",
    "unique_technology_constraint",
    "unique_scenario_constraint",
    "relation_enhanced_implication_mode",
];

/// Reports the options § Variability Options does not define: a misspelt option read as absent
/// would silently give another variant.
fn unknown_options(map: &crate::yaml::Map, diags: &mut Diagnostics) {
    let known = known_options();
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    for e in map.entries() {
        let Some(key) = e.key.scalar_text() else {
            continue;
        };
        if known.contains(&key) {
            continue;
        }
        diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_KEY,
                format!("unknown option `{key}` in `variability.options`"),
            )
            .excused_by(crate::quirk::Quirk::UnknownKeynames)
            .at_with(e.key.span, "not an option of Variability4TOSCA")
            .did_you_mean(
                key,
                &known,
                Some("the options are those of § Variability Options (docs/dialects/variability4tosca.md lists them)".into()),
            ),
        );
    }
}

/// Every option name § Variability Options defines.
fn known_options() -> Vec<String> {
    ALL.iter()
        .flat_map(|kind| KIND_OPTIONS.iter().map(move |o| format!("{kind}_{o}")))
        .chain(OTHER_OPTIONS.iter().map(|o| o.to_string()))
        .collect()
}

fn default_triple(kind: &str, consistency: bool, semantic: bool) -> [(String, bool); 3] {
    [
        (format!("{kind}_default_condition"), true),
        (format!("{kind}_default_consistency_condition"), consistency),
        (format!("{kind}_default_semantic_condition"), semantic),
    ]
}

fn pruning_triple(kind: &str, consistency: bool, semantic: bool) -> [(String, bool); 3] {
    [
        (format!("{kind}_pruning"), true),
        (format!("{kind}_consistency_pruning"), consistency),
        (format!("{kind}_semantic_pruning"), semantic),
    ]
}

/// The resolved options of one variable template.
#[derive(Debug, Clone)]
pub struct Options<'t> {
    pub version: Version,
    raw: IndexMap<String, &'t Node>,
    mode: Vec<(String, bool)>,
}

impl<'t> Options<'t> {
    /// Reads `variability.options` of a template of `version`; wrong shapes are reported.
    pub fn read(
        version: Version,
        options: Option<&'t Node>,
        diags: &mut Diagnostics,
    ) -> Options<'t> {
        let mut raw = IndexMap::new();
        if let Some(node) = options {
            match node.as_map() {
                Some(map) => {
                    for e in map.entries() {
                        if let Some(k) = e.key.scalar_text() {
                            raw.insert(k.to_string(), &e.value);
                        }
                    }
                    unknown_options(map, diags);
                }
                None if node.is_null() => {}
                None => diags.push(crate::model::shape::wrong_shape(
                    node,
                    "`variability.options`",
                    "a map of option names to values",
                )),
            }
        }
        let default_mode = match version {
            Version::V1 => "manual",
            Version::V2 | Version::V3 => "semantic-loose",
        };
        let mode_name = match raw.get("mode") {
            Some(n) => match n.as_str() {
                Some(s) => s.to_string(),
                None => {
                    diags.push(crate::model::shape::wrong_shape(
                        *n,
                        "option `mode`",
                        "one of manual, consistent-strict, consistent-loose, default, semantic-strict, semantic-loose",
                    ));
                    default_mode.to_string()
                }
            },
            None => default_mode.to_string(),
        };
        let mode = match version {
            Version::V3 => mode_v3(&mode_name),
            _ => mode_v1(&mode_name),
        };
        let mode = mode.unwrap_or_else(|| {
            if let Some(n) = raw.get("mode") {
                diags.push(
                    Diagnostic::error(codes::VAR_UNKNOWN, format!("Pruning mode \"{mode_name}\" unknown"))
                        .at(n.span)
                        .hint("one of manual, consistent-strict, consistent-loose, default, semantic-strict, semantic-loose"),
                );
            }
            Vec::new()
        });
        let options = Options { version, raw, mode };
        options.validate(diags);
        options
    }

    fn validate(&self, diags: &mut Diagnostics) {
        let known = known_options();
        for (key, node) in &self.raw {
            // Unknown options are reported as such ([`unknown_options`]).
            if !known.contains(key) {
                continue;
            }
            let expects_bool = !key.ends_with("_mode")
                && key != "mode"
                && !matches!(
                    key.as_str(),
                    "optimization_topology" | "optimization_technologies"
                );
            if expects_bool && bool_of(node).is_none() {
                diags.push(crate::model::shape::wrong_shape(
                    *node,
                    format!("option `{key}`"),
                    "true or false",
                ));
            }
            // § Solver Options: the optimisations and their modes take only these values.
            let choices: &[&str] = match key.as_str() {
                "optimization_topology" | "optimization_technologies" => &["min", "max"],
                "optimization_topology_mode" => &["count", "weight"],
                "optimization_technologies_mode" => &["count", "weight", "weight-count"],
                _ => continue,
            };
            let boolean_allowed = !key.ends_with("_mode");
            let fits = (boolean_allowed && bool_of(node).is_some())
                || node.as_str().is_some_and(|t| choices.contains(&t));
            if !fits {
                let expected = format!(
                    "{}{} (§ Solver Options)",
                    if boolean_allowed { "true, false, " } else { "" },
                    choices.join(" or ")
                );
                diags.push(crate::model::shape::wrong_shape(
                    *node,
                    format!("option `{key}`"),
                    &expected,
                ));
            }
        }
    }

    fn raw_bool(&self, key: &str) -> Option<bool> {
        self.raw.get(key).and_then(|n| bool_of(n))
    }

    fn mode_bool(&self, key: &str) -> Option<bool> {
        self.mode.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The option as written, else as the pruning mode sets it.
    fn setting(&self, key: &str) -> Option<bool> {
        self.raw_bool(key).or_else(|| self.mode_bool(key))
    }

    fn text(&self, key: &str) -> Option<&'t str> {
        self.raw.get(key).and_then(|n| n.scalar_text())
    }

    /// Whether the option was written at all (for messages).
    pub fn written(&self, key: &str) -> Option<&'t Node> {
        self.raw.get(key).copied()
    }

    // § Default Condition Options

    pub fn default_condition(&self, kind: &str) -> bool {
        let wide = self.setting("default_condition").unwrap_or(false);
        self.setting(&format!("{kind}_default_condition"))
            .unwrap_or(wide)
    }

    pub fn default_consistency_condition(&self, kind: &str) -> bool {
        self.setting(&format!("{kind}_default_consistency_condition"))
            .unwrap_or_else(|| self.default_condition(kind))
    }

    pub fn default_semantic_condition(&self, kind: &str) -> bool {
        self.setting(&format!("{kind}_default_semantic_condition"))
            .unwrap_or_else(|| self.default_condition(kind))
    }

    /// The default condition mode of a kind, as `-`-separated words.
    pub fn default_condition_mode(&self, kind: &str) -> &'t str {
        if let Some(t) = self.text(&format!("{kind}_default_condition_mode")) {
            return t;
        }
        let v3 = self.version == Version::V3;
        match kind {
            "node" if self.version == Version::V1 => "incoming-artifact",
            "node" => "incomingnaive-artifact-host",
            "output" if v3 => "produced-default",
            "output" => "produced",
            "relation" if v3 => "source-target-default",
            "relation" => "source-target",
            "artifact" if v3 => "container-managed-default",
            "artifact" => "container",
            "property" if v3 => "container-consuming-default",
            "property" => "container-consuming",
            "technology" if v3 => "container-other-scenario-default",
            "technology" => "container-other-scenario",
            _ => "container",
        }
    }

    pub fn relation_default_implied(&self) -> bool {
        self.raw_bool("relation_default_implied")
            .unwrap_or(self.version != Version::V1)
    }

    // § Pruning Options

    pub fn pruning(&self, kind: &str) -> bool {
        let wide = self.setting("pruning").unwrap_or(false);
        self.setting(&format!("{kind}_pruning")).unwrap_or(wide)
    }

    pub fn consistency_pruning(&self, kind: &str) -> bool {
        self.setting(&format!("{kind}_consistency_pruning"))
            .unwrap_or_else(|| self.pruning(kind))
    }

    pub fn semantic_pruning(&self, kind: &str) -> bool {
        self.setting(&format!("{kind}_semantic_pruning"))
            .unwrap_or_else(|| self.pruning(kind))
    }

    // § Checks Options

    fn checks(&self) -> bool {
        self.raw_bool("checks")
            .unwrap_or(self.version != Version::V3)
    }

    pub fn consistency_checks(&self) -> bool {
        self.raw_bool("consistency_checks")
            .unwrap_or_else(|| self.checks())
    }

    pub fn semantic_checks(&self) -> bool {
        self.raw_bool("semantic_checks")
            .unwrap_or_else(|| self.checks())
    }

    /// A consistency check (`relation_source_check`, `ambiguous_artifact_check`, ...).
    pub fn consistency_check(&self, key: &str) -> bool {
        self.raw_bool(key)
            .unwrap_or_else(|| self.consistency_checks())
    }

    /// A semantic check (`expected_hosting_check`, ...).
    pub fn semantic_check(&self, key: &str) -> bool {
        self.raw_bool(key).unwrap_or_else(|| self.semantic_checks())
    }

    pub fn anchor_check(&self) -> bool {
        self.raw_bool("anchor_check")
            .unwrap_or_else(|| self.checks())
    }

    pub fn unconsumed_input_check(&self) -> bool {
        match self.version {
            Version::V3 => self
                .raw_bool("unconsumed_input_check")
                .unwrap_or_else(|| self.semantic_checks()),
            _ => self.raw_bool("unconsumed_input_check").unwrap_or(false),
        }
    }

    pub fn unproduced_output_check(&self) -> bool {
        match self.version {
            Version::V3 => self
                .raw_bool("unproduced_output_check")
                .unwrap_or_else(|| self.consistency_checks()),
            _ => self.raw_bool("unproduced_output_check").unwrap_or(false),
        }
    }

    // § Solver Options

    /// `optimization_topology`: `None` when off, `Some(true)` to minimise, `Some(false)` to
    /// maximise.
    pub fn optimize_topology(&self) -> Option<bool> {
        let default = self.version != Version::V1;
        optimization(
            self.raw.get("optimization_topology").copied(),
            default,
            true,
        )
    }

    pub fn topology_unique(&self) -> bool {
        self.raw_bool("optimization_topology_unique")
            .unwrap_or(true)
    }

    pub fn topology_unique_backward(&self) -> bool {
        self.raw_bool("optimization_topology_unique_backward")
            .unwrap_or(false)
    }

    /// `weight` or `count`.
    pub fn topology_mode(&self) -> &'t str {
        self.text("optimization_topology_mode").unwrap_or("weight")
    }

    /// `optimization_technologies`: `None` when off, `Some(true)` to minimise.
    pub fn optimize_technologies(&self) -> Option<bool> {
        let default = self.version != Version::V1;
        // `true` minimises in `_1_0` and maximises in the release candidates.
        optimization(
            self.raw.get("optimization_technologies").copied(),
            default,
            self.version == Version::V1,
        )
    }

    pub fn technologies_unique(&self) -> bool {
        self.raw_bool("optimization_technologies_unique")
            .unwrap_or(false)
    }

    /// `weight`, `count` or `weight-count`.
    pub fn technologies_mode(&self) -> &'t str {
        self.text("optimization_technologies_mode")
            .unwrap_or(if self.version == Version::V1 {
                "count"
            } else {
                "weight-count"
            })
    }

    pub fn optimize_scenarios(&self) -> bool {
        self.raw_bool("optimization_scenarios").unwrap_or(false)
    }

    pub fn scenarios_unique(&self) -> bool {
        self.raw_bool("optimization_scenarios_unique")
            .unwrap_or(false)
    }

    // § Constraints Options

    fn constraints(&self) -> Option<bool> {
        self.raw_bool("constraints")
    }

    /// A constraint switch: the option, else `constraints`, else the version's default.
    pub fn constraint(&self, key: &str) -> bool {
        if let Some(v) = self.raw_bool(key) {
            return v;
        }
        let on_in_release_candidates = matches!(
            key,
            "required_hosting_constraint"
                | "single_hosting_constraint"
                | "required_technology_constraint"
                | "unique_property_constraint"
                | "unique_artifact_constraint"
                | "unique_input_constraint"
                | "unique_output_constraint"
                | "unique_relation_constraint"
                | "unique_technology_constraint"
        );
        let default = self.version != Version::V1 && on_in_release_candidates;
        self.constraints().unwrap_or(default)
    }

    pub fn relation_enhanced_implication(&self) -> bool {
        self.raw_bool("relation_enhanced_implication_mode")
            .unwrap_or(true)
    }

    // § Normalizer Options

    pub fn automatic_default_alternatives(&self) -> bool {
        self.raw_bool("automatic_default_alternatives")
            .unwrap_or(false)
    }

    pub fn fallback_property_default_alternative(&self) -> bool {
        self.raw_bool("fallback_property_default_alternative")
            .unwrap_or(self.version != Version::V3)
    }

    // § Enricher Options

    pub fn enrich_input_condition(&self) -> bool {
        self.raw_bool("enrich_input_condition").unwrap_or(true)
    }

    pub fn enrich_technologies(&self) -> bool {
        self.raw_bool("enrich_technologies")
            .unwrap_or(self.version != Version::V1)
    }

    pub fn enrich_technologies_best_only(&self) -> bool {
        self.raw_bool("enrich_technologies_best_only")
            .unwrap_or(true)
    }
}

/// `true`/`false`/`min`/`max` as "off, or minimise/maximise".
fn optimization(node: Option<&Node>, default: bool, true_minimises: bool) -> Option<bool> {
    let Some(node) = node else {
        return default.then_some(true_minimises);
    };
    match (bool_of(node), node.scalar_text()) {
        (Some(false), _) => None,
        (Some(true), _) => Some(true_minimises),
        (_, Some("min")) => Some(true),
        (_, Some("max")) => Some(false),
        _ => default.then_some(true_minimises),
    }
}

pub fn bool_of(node: &Node) -> Option<bool> {
    match node.as_scalar().map(|s| s.core) {
        Some(Core::Bool(b)) => Some(b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_candidate_modes_prune_everything() {
        let mut diags = Diagnostics::new();
        let v3 = Options::read(Version::V3, None, &mut diags);
        assert!(v3.pruning("node") && v3.pruning("input"));
        let v2 = Options::read(Version::V2, None, &mut diags);
        assert!(v2.pruning("node") && !v2.pruning("input"));
        let v1 = Options::read(Version::V1, None, &mut diags);
        assert!(!v1.pruning("node"));
        assert_eq!(v1.default_condition_mode("node"), "incoming-artifact");
        assert_eq!(
            v3.default_condition_mode("node"),
            "incomingnaive-artifact-host"
        );
        assert!(diags.is_empty());
    }
}
