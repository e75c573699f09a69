//! Variability4TOSCA as its current text defines it (`../shared/specs/variability4tosca-current.md`):
//! options inside the template, default and pruning conditions of every element kind,
//! conditional types, inputs, outputs and imports, technologies and their rules, and the
//! choice among variants by a solver with optimisation (§ Processing).
//!
//! The steps: read the options ([`options`]) and the input values ([`inputs`]), build the
//! element model ([`build`], [`links`], [`technologies`]), give every element its conditions
//! ([`conditions`], [`defaults`]) and add the constraints ([`constraints`]), solve ([`solve`]), check the
//! result ([`checks`]) and build the resolved template ([`transform`]).

pub mod build;
mod build_parts;
mod build_sections;
pub mod checks;
pub mod conditions;
pub mod constraints;
pub mod dates;
mod defaults;
pub mod encode;
pub mod explain;
pub mod expressions;
pub mod formula;
pub mod inputs;
pub mod keynames;
pub mod links;
pub mod model;
pub mod options;
pub mod sat;
pub mod solve;
pub mod stats;
pub mod technologies;
pub mod transform;
pub mod values;
pub mod vars;

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::Node;

use super::{Given, Resolved};
use model::{Data, Kind, Model};
use options::{Options, Version};

/// The keynames of a variability definition (§ Variability Definition).
const DEFINITION_KEYS: &[&str] = &[
    "inputs",
    "presets",
    "expressions",
    "constraints",
    "options",
    "type_specific_conditions",
    "qualities",
    "plugins",
];

/// Resolves `root`, a template in the current language. `None` when an error was found (all
/// of them are in `diags`).
pub fn resolve(
    root: &Node,
    cli: &super::Options,
    given: &Given<'_>,
    budget: &crate::limits::Budget,
    diags: &mut Diagnostics,
) -> Option<Resolved> {
    let errors = diags.error_count();
    let root_map = root.as_map()?;
    let version_node = root_map.get("tosca_definitions_version");
    let version = Version::of(version_node.and_then(Node::scalar_text).unwrap_or_default());
    let anchor = version_node.map_or(root.span, |v| v.span);
    let topo = root_map.get("topology_template");
    let variability = topo.and_then(|t| t.as_map()?.get("variability"));
    let section = |key: &str| variability.and_then(|v| v.as_map()?.get(key));
    if let Some(map) = variability.and_then(Node::as_map) {
        crate::model::shape::check_keys(
            map,
            DEFINITION_KEYS,
            "the variability definition (Variability4TOSCA)",
            diags,
        );
        unread_sections(map, diags);
        sections(map, diags);
    }
    let before_definitions = diags.error_count();
    if let Some(v) = variability {
        super::definitions::check(root, v, diags);
    }
    let definitions_fine = diags.error_count() == before_definitions;
    let options = Options::read(version, section("options"), diags);
    if !cli.pruning_is_default() {
        diags.push(
            Diagnostic::warning(
                codes::VAR_IGNORED,
                "--prune, --force-prune and --skip-check are ignored: this template writes its options in `variability.options`",
            )
            .at(anchor)
            .hint("set `node_pruning`, `relation_default_condition`, `relation_source_check`, ... under `topology_template.variability.options`"),
        );
    }
    let named = |key: &str| super::by_name(section(key));
    let definitions = named("inputs");
    let declared: Vec<&str> = definitions.keys().copied().collect();
    let (assigned, consumed) = inputs::assigned(
        section("presets"),
        &cli.presets,
        given,
        &declared,
        anchor,
        diags,
    );
    let mut values =
        values::Values::new(assigned, definitions, named("expressions")).with_budget(budget);
    // Constraints naming inputs that do not exist were reported; judging them would only add
    // a second, vaguer error.
    if definitions_fine {
        inputs::validate(&mut values, diags);
    }
    let mut model = build::build(root, topo, options.relation_default_implied(), diags);
    keynames::check(&model, diags);
    expressions::check(&values.expressions, &values.definitions, &model, diags);
    anchor_check(&model, &options, anchor, diags);
    technologies::enrich(&mut model, &options, section("qualities"), diags);
    if diags.error_count() > errors {
        return None;
    }
    let vars = vars::Vars::new(model.elements.len(), values.expressions.len());
    let enricher = conditions::Enricher {
        model: &model,
        options: &options,
        vars,
        input_names: declared.clone(),
        type_specific: section("type_specific_conditions"),
    };
    let conds: Vec<_> = (0..model.elements.len())
        .map(|id| enricher.conditions(id, diags))
        .collect();
    let constraints = constraints::constraints(&model, &options, &vars);
    let written_constraints: Vec<&Node> = section("constraints")
        .and_then(Node::as_seq)
        .map(|l| l.iter().collect())
        .unwrap_or_default();
    if diags.error_count() > errors {
        return None;
    }
    let problem = solve::Problem {
        model: &model,
        options: &options,
        conditions: &conds,
        constraints,
        written_constraints,
        span: variability.map_or(anchor, |v| v.span),
    };
    let solution = solve::solve(problem, &mut values, diags)?;
    checks::run(&model, &options, &solution.present, diags);
    let computed = computed_properties(&model, &solution.present, &mut values, diags);
    if diags.error_count() > errors {
        return None;
    }
    let transform = transform::Transform {
        model: &model,
        present: &solution.present,
        computed: &computed,
    };
    let tree = transform.document(root);
    let explanation = if cli.explain {
        explain::explain(&model, &conds, &solution.formulas, &solution.present)
    } else {
        Vec::new()
    };
    Some(Resolved {
        tree,
        consumed,
        explanation,
    })
}

/// The parts of a variability definition that name code or files toscana does not read
/// (§ Variability Definition, § Plugin Definition): a template relying on them resolves
/// differently than under the reference resolver, so each is a warning, never silence.
/// (`qualities` given as a file is reported where technologies are enriched.)
fn unread_sections(map: &crate::yaml::Map, diags: &mut Diagnostics) {
    for e in map.entries() {
        let what = match e.key.scalar_text() {
            Some("plugins") => {
                "`variability.plugins` names technology plugins, TypeScript modules of the reference resolver: they are not run"
            }
            Some("type_specific_conditions") if e.value.scalar_text().is_some() => {
                "`variability.type_specific_conditions` given as a file is not read: its conditions are ignored"
            }
            _ => continue,
        };
        diags.push(
            Diagnostic::warning(codes::VAR_IGNORED, what)
                .at(e.key.span)
                .hint(
                    "write the type-specific conditions or technology rules inline in the template",
                ),
        );
    }
}

/// § Variability Definition: `inputs`, `presets` and `expressions` are maps, `constraints` a
/// list; anything else would be read as empty.
fn sections(map: &crate::yaml::Map, diags: &mut Diagnostics) {
    for e in map.entries() {
        let (fits, expected) = match e.key.scalar_text() {
            Some("inputs" | "presets" | "expressions") => (
                e.value.as_map().is_some(),
                "a map (§ Variability Definition)",
            ),
            Some("constraints") => (
                e.value.as_seq().is_some(),
                "a list of logic expressions (§ Variability Definition)",
            ),
            _ => continue,
        };
        if !fits && !e.value.is_null() {
            diags.push(crate::model::shape::wrong_shape(
                &e.value,
                format!("`variability.{}`", e.key.scalar_text().unwrap_or_default()),
                expected,
            ));
        }
    }
}

/// § Node Template `anchor`: the default condition mode that combines incoming relations
/// and hosts prunes everything unless something anchors the topology.
fn anchor_check(
    model: &Model<'_>,
    options: &Options<'_>,
    at: crate::source::Span,
    diags: &mut Diagnostics,
) {
    let mode = options.default_condition_mode("node");
    if !(options.anchor_check() && mode.contains("incoming") && mode.contains("host")) {
        return;
    }
    let anchored = model.of(Kind::Node).any(|n| {
        let e = model.get(n);
        e.node().is_some_and(|d| d.anchor) || e.flag("implied") == Some(true)
    });
    if !anchored && model.of(Kind::Node).next().is_some() {
        diags.push(
            Diagnostic::error(
                codes::VAR_INCONSISTENT,
                "Node default condition mode \"incoming(naive)-host\" requires at least one anchor or implied node template",
            )
            .at(at)
            .hint("mark the node templates end users reach directly with `anchor: true`"),
        );
    }
}

/// The values of present properties given by `expression` (§ Property Assignment).
fn computed_properties(
    model: &Model<'_>,
    present: &[bool],
    values: &mut values::Values<'_>,
    diags: &mut Diagnostics,
) -> IndexMap<usize, super::eval::Value> {
    let mut out = IndexMap::new();
    for p in model.of(Kind::Property).filter(|p| present[*p]) {
        let Data::Property(data) = &model.get(p).data else {
            continue;
        };
        let Some(expr) = data.expression else {
            continue;
        };
        match values.eval(expr) {
            Ok(v) => {
                out.insert(p, v);
            }
            Err(f) => {
                let mut d = Diagnostic::error(f.code, f.message).at(f.span);
                if let Some(h) = f.hint {
                    d = d.hint(h);
                }
                diags.push(d);
            }
        }
    }
    out
}
