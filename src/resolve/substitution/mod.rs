//! Substitution expansion: a node template that another service template substitutes is
//! replaced, in the IR, by that template's topology (TOSCA 2.0 §15 Substitution; Simple Profile
//! 1.0 §12 Using node template substitution for model composition, §13 Using node template
//! substitution for chaining subsystems and §A.8 Topology Template definition).
//!
//! Candidates are the templates given with `--substitute FILE` and the imported templates that
//! declare `substitution_mappings` (2.0 §6.9.9 Substitution Mappings), each resolved on its own
//! like any template.
//!
//! Which nodes are substituted:
//! - TOSCA 2.0: a node with the `substitute` directive (§7.2.1 Node Template Directives).
//!   Directives are tried in order (§7.2.1 Node Template Directives): after `select` the
//!   orchestrator decides, so the node is left as it is; with no candidate, a later `create` lets
//!   the node be created, and otherwise "a substituting template must be found to instantiate this
//!   node" (§15.5.1 Mapping Multiple Requirements with the Same Name): an error where the output
//!   needs every value (`ir`, `k8s`), a warning where it does not (`check`, whose orchestrator may
//!   know one; `tf` and `dot`, which show the node as it is).
//! - Simple Profile 1.x: a node with the `substitutable` (or `substitute`) directive (§12 Using
//!   node template substitution for model composition), and an *abstract* node — one without a
//!   deployment artifact and without an implementation of a `create` operation (§11 Describing
//!   abstract requirements for nodes and capabilities in a TOSCA template, §12 Using node template
//!   substitution for model composition) — when a candidate fits. "Substitutable was determined to
//!   be equivalent to selectable" (the 1.0 draft's Appendix M Revision History, on A.3.2): an
//!   orchestrator may provide the template, so a directive with no candidate is a warning, and an
//!   abstract node without one is left for the orchestrator silently.
//!
//! A candidate fits when the node's type is, or derives from, its `node_type`, and the node
//! passes its `substitution_filter`: a Simple Profile 1.3 node filter, or a TOSCA 2.0 condition
//! clause evaluated with `SELF` the node (§15.1 Substitution Mapping). Several fitting candidates
//! are an error; when only deployment can tell, the node is left for the orchestrator with a
//! warning.
//!
//! The outer node's property values become the inner template's input values: through the
//! `properties` mappings (`prop: input`, `prop: [input]`, `[CAPABILITY, cap, prop]: input`),
//! else, in Simple Profile, by name (§12 Using node template substitution for model composition).
//! An input that is required, has no default and gets no value is an error at the substituted node.
//!
//! Expansion (see [`splice`]): the inner nodes, relationships, groups and policies are named
//! `<outer node>.<inner name>` and take the substituted node's place in node order; the
//! substituted node itself leaves `nodes` and is recorded in `Topology::substituted`.
//! Relationships from the substituted node leave from the inner node its requirement mapping
//! names; relationships to it end at the inner node and capability its capability mapping
//! names. Inner function calls naming inner nodes are renamed. The attribute mappings (the
//! inner outputs) are kept on the `Substituted` record, and `get_attribute` of the substituted
//! node elsewhere reads them. A template that would substitute itself, directly or through
//! others, is reported with the whole chain and not expanded.
//!
//! Bounds: substitutions nest at most [`Limits::max_substitution_depth`] deep, and all of them
//! together add at most [`Limits::max_substituted_nodes`] node templates, counted before each
//! template is instantiated: five levels of 15-node templates would otherwise make 759,375
//! nodes from 5.7 KB. The first substitution past a limit is reported at its node, and no
//! other substitution is made.
//!
//! The parts: [`fit`] (which nodes, which template), [`values`] (inputs and attributes across
//! the boundary), [`splice`] (the expanded topology), [`rename`] (names and places in it).
//!
//! [`Limits::max_substitution_depth`]: crate::limits::Limits::max_substitution_depth
//! [`Limits::max_substituted_nodes`]: crate::limits::Limits::max_substituted_nodes

mod fit;
mod rename;
mod splice;
mod values;

pub use rename::SEPARATOR;

use std::collections::HashSet;

use super::Context;
use super::params::Bindings;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::spans::SpanFinder;
use crate::ir::{Dialect, Input, Node, NodeId, Topology, Value, type_matches};
use crate::model::Model;
use crate::source::Span;
use crate::yaml::Node as Yaml;
use fit::{Boundary, Conditions, Fit, Judged, Marked, boundary, fits, marked};
use splice::splice;
use values::input_values;

/// A service template that may substitute node templates.
pub struct Candidate {
    pub model: Model,
    /// The file as shown to users.
    pub name: String,
    /// Given with `--substitute` (a warning when it substitutes nothing).
    pub given: bool,
}

/// Expands every node of `topology` (read from `model`) that a candidate substitutes.
pub fn substitute(
    model: &Model,
    topology: Topology,
    candidates: &[Candidate],
    ctx: &Context,
    diags: &mut Diagnostics,
) -> Topology {
    let mut expander = Expander {
        candidates,
        boundaries: candidates.iter().map(boundary).collect(),
        ctx,
        reported: HashSet::new(),
        seen: None,
        used: vec![false; candidates.len()],
        spliced: HashSet::new(),
        added: 0,
        stopped: false,
    };
    let mut stack = Vec::new();
    let topology = expander.expand(model, topology, &mut stack, diags);
    for (c, used) in candidates.iter().zip(&expander.used) {
        if c.given && !used {
            let node_type = boundary(c).map(|b| b.node_type).unwrap_or_default();
            diags.push(
                Diagnostic::warning(
                    codes::TOSCA_SUBSTITUTION,
                    format!(
                        "`--substitute {}` substitutes no node template: none is of type `{node_type}` and marked for substitution",
                        c.name
                    ),
                )
                .in_file(c.name.clone())
                .hint("a node is substituted when its type is or derives from the `node_type` of `substitution_mappings` and it has the `substitute` directive (Simple Profile: or is abstract)"),
            );
        }
    }
    topology
}

struct Expander<'c> {
    candidates: &'c [Candidate],
    boundaries: Vec<Option<Boundary<'c>>>,
    ctx: &'c Context<'c>,
    /// Candidates resolved once already: what a later resolution finds anew was caused by its
    /// node's own values, and names that node.
    reported: HashSet<usize>,
    /// What is reported so far, as `Diagnostics::extend_unseen` tells a fact apart (code,
    /// place, message): made at the first substitution, from what the template's own
    /// resolution reported, so a problem every resolution of a candidate finds is reported
    /// once, and no pass over every diagnostic is made for each substituted node.
    seen: Option<HashSet<(&'static str, Option<Span>, String)>>,
    used: Vec<bool>,
    /// Problems of splicing reported so far.
    spliced: HashSet<String>,
    /// Node templates substitution has added so far, at every level.
    added: usize,
    /// A limit stopped substitution (reported): no other is made.
    stopped: bool,
}

/// One substituted node and the topology that replaces it.
struct Plan {
    node: usize,
    candidate: usize,
    inner: Topology,
}

impl Expander<'_> {
    fn expand(
        &mut self,
        model: &Model,
        topology: Topology,
        stack: &mut Vec<usize>,
        diags: &mut Diagnostics,
    ) -> Topology {
        let spans = SpanFinder::new(&topology.source.files, self.ctx.sources);
        let mut plans = Vec::new();
        let mut total = topology.nodes.len();
        let filtered = self
            .boundaries
            .iter()
            .flatten()
            .any(|b| b.mappings.substitution_filter.is_some());
        let conditions = (model.dialect == Dialect::Tosca2 && filtered)
            .then(|| Conditions::new(model, &topology, self.ctx.patterns.clone()));
        for (i, node) in topology.nodes.iter().enumerate() {
            let Some(mark) = marked(model.dialect, node) else {
                continue;
            };
            let at = node.location.and_then(|l| spans.span(l));
            // A backend that keeps `get_input` as calls (Terraform) still chooses the substitute
            // by the inputs' values: the node is judged with them bound.
            let bound;
            let node = if self.ctx.inputs_stay_calls {
                bound = with_inputs_bound(node, &topology.inputs);
                &bound
            } else {
                node
            };
            let judged = Judged {
                model,
                node,
                id: NodeId::from_index(i),
                conditions: conditions.as_ref(),
                patterns: &self.ctx.patterns,
            };
            let Some(c) = self.select(&judged, mark, at, diags) else {
                continue;
            };
            if let Some(p) = stack.iter().position(|&s| s == c) {
                self.report_cycle(node, &stack[p..], c, mark, at, diags);
                continue;
            }
            if self.stopped || !self.within_limits(node, c, stack.len(), at, diags) {
                break;
            }
            let Some((inner, own)) = self.instantiate(node, c, at, diags) else {
                continue;
            };
            stack.push(c);
            let inner = self.expand(&self.candidates[c].model, inner, stack, diags);
            stack.pop();
            let found = settled(own.finish(), &inner, self.ctx.sources);
            self.report_resolution(found, node, c, at, diags);
            total += inner.nodes.len();
            if total > self.ctx.limits.max_node_templates {
                let d = Diagnostic::error(
                    codes::TOSCA_LIMIT,
                    format!(
                        "substituting `{}` makes more than {} node templates",
                        node.name, self.ctx.limits.max_node_templates
                    ),
                )
                .hint("raise the limit with --max-node-templates N if this is intended");
                diags.push(match at {
                    Some(s) => d.at(s),
                    None => d,
                });
                break;
            }
            plans.push(Plan {
                node: i,
                candidate: c,
                inner,
            });
        }
        if plans.is_empty() {
            return topology;
        }
        let names: Vec<String> = plans
            .iter()
            .map(|p| self.candidates[p.candidate].name.clone())
            .collect();
        let mut problems = Vec::new();
        let out = splice(topology, plans, &names, &mut problems);
        let spans = SpanFinder::new(&out.source.files, self.ctx.sources);
        for splice::SpliceProblem {
            at,
            error,
            message,
            hint,
        } in problems
        {
            // An inner template spliced into several nodes has the same problem each time.
            if !self.spliced.insert(format!("{at:?} {message}")) {
                continue;
            }
            let d = if error {
                Diagnostic::error(codes::TOSCA_SUBSTITUTION, message)
            } else {
                Diagnostic::warning(codes::TOSCA_SUBSTITUTION, message)
            }
            .hint(hint);
            diags.push(match at.and_then(|l| spans.span(l)) {
                Some(s) => d.at(s),
                None => d,
            });
        }
        out
    }

    /// Whether substituting `node` with candidate `c`, `depth` substitutions deep, stays within
    /// the limits on nesting and on the nodes substitution adds; when not, it is reported at
    /// the node and substitution stops.
    fn within_limits(
        &mut self,
        node: &Node,
        c: usize,
        depth: usize,
        at: Option<Span>,
        diags: &mut Diagnostics,
    ) -> bool {
        let limits = self.ctx.limits;
        let size = self.candidates[c]
            .model
            .topology
            .as_ref()
            .map_or(0, |t| t.node_templates.len());
        let added = self.added.saturating_add(size);
        let (message, limit) = if depth >= limits.max_substitution_depth {
            (
                format!(
                    "substituting `{}` with `{}` nests substitutions more than {} deep, the limit",
                    node.name, self.candidates[c].name, limits.max_substitution_depth
                ),
                crate::limits::Limit::SubstitutionDepth,
            )
        } else if added > limits.max_substituted_nodes {
            (
                format!(
                    "substituting `{}` with `{}` adds {size} node templates to the {} substitution added before, more than the limit of {}",
                    node.name, self.candidates[c].name, self.added, limits.max_substituted_nodes
                ),
                crate::limits::Limit::SubstitutedNodes,
            )
        } else {
            self.added = added;
            return true;
        };
        self.stopped = true;
        let d = Diagnostic::error(codes::TOSCA_LIMIT, message)
            .hint(format!("no further node is substituted; {}", limit.hint()));
        diags.push(match at {
            Some(s) => d.at(s),
            None => d,
        });
        false
    }

    /// The one candidate that substitutes `node`, or `None` (reported where the mark asks).
    fn select(
        &mut self,
        judged: &Judged,
        mark: Marked,
        at: Option<Span>,
        diags: &mut Diagnostics,
    ) -> Option<usize> {
        let node = judged.node;
        let mut rejected = Vec::new();
        let mut fitting = Vec::new();
        let mut maybe = Vec::new();
        for (c, b) in self.boundaries.iter().enumerate() {
            let Some(b) = b else { continue };
            if !type_matches(&node.types, &b.node_type) {
                continue;
            }
            self.used[c] = true;
            let template = self.candidates[c].model.topology.as_ref();
            match fits(judged, b, template) {
                Fit::Yes => fitting.push(c),
                Fit::Maybe(why) => maybe.push(format!("`{}` ({why})", self.candidates[c].name)),
                Fit::No(why) => {
                    rejected.push(format!("`{}` does not fit: {why}", self.candidates[c].name))
                }
            }
        }
        let place = |d: Diagnostic| match at {
            Some(s) => d.at(s),
            None => d,
        };
        if fitting.is_empty() && !maybe.is_empty() {
            // Which one is the orchestrator's choice at deployment (an ETSI NFV deployment
            // flavour chosen by an input, say).
            diags.push(
                place(Diagnostic::warning(
                    codes::TOSCA_SUBSTITUTION,
                    format!(
                        "whether {} substitutes node template `{}` depends on values known only at deployment; it is left for the orchestrator",
                        maybe.join(", "),
                        node.name
                    ),
                ))
                .hint("give the inputs those values depend on a value (--set, --inputs) to expand it here"),
            );
            return None;
        }
        match fitting.as_slice() {
            [one] => Some(*one),
            [] => {
                if !mark.explicit {
                    return None;
                }
                let why = if rejected.is_empty() {
                    String::new()
                } else {
                    format!("; {}", rejected.join("; "))
                };
                let message = format!(
                    "node template `{}` is marked for substitution, but no service template substitutes its type `{}`{why}",
                    node.name, node.type_name
                );
                let hint = format!(
                    "give one with --substitute FILE, or import one, whose `substitution_mappings` has `node_type: {}` (or a type it derives from)",
                    node.type_name
                );
                // Like an input without a value: the template is valid (an orchestrator may
                // know a substituting template), but an output that realizes it cannot be made.
                if mark.required && self.ctx.unbound_inputs_are_errors {
                    diags.push(
                        place(Diagnostic::error(codes::TOSCA_SUBSTITUTION, message)).hint(format!(
                            "{hint}; or add `create` after `substitute` in its directives"
                        )),
                    );
                } else {
                    diags.push(
                        place(Diagnostic::warning(
                            codes::TOSCA_SUBSTITUTION,
                            format!("{message}; it is left for the orchestrator"),
                        ))
                        .hint(hint),
                    );
                }
                None
            }
            several => {
                let names: Vec<String> = several
                    .iter()
                    .map(|&c| format!("`{}`", self.candidates[c].name))
                    .collect();
                diags.push(
                    place(Diagnostic::error(
                        codes::TOSCA_SUBSTITUTION,
                        format!(
                            "node template `{}` can be substituted by {} service templates: {}",
                            node.name,
                            several.len(),
                            names.join(", ")
                        ),
                    ))
                    .hint("keep one of them (drop a --substitute or an import), or tell them apart with a `substitution_filter` on the node's properties"),
                );
                None
            }
        }
    }

    fn report_cycle(
        &self,
        node: &Node,
        chain: &[usize],
        again: usize,
        mark: Marked,
        at: Option<Span>,
        diags: &mut Diagnostics,
    ) {
        let cycle: Vec<&str> = chain
            .iter()
            .chain(std::iter::once(&again))
            .map(|&c| self.candidates[c].name.as_str())
            .collect();
        let message = format!(
            "substituting node template `{}` would recurse: {}",
            node.name,
            cycle.join(" → ")
        );
        let d = if mark.explicit {
            Diagnostic::error(codes::TOSCA_SUBSTITUTION, message)
        } else {
            Diagnostic::warning(
                codes::TOSCA_SUBSTITUTION,
                format!("{message}; the node is not expanded"),
            )
        };
        let d = match at {
            Some(s) => d.at(s),
            None => d,
        };
        diags.push(d.hint("a template cannot substitute a node of its own expansion; give the inner node a type the template does not substitute"));
    }

    /// The candidate resolved with the node's properties as its inputs.
    fn instantiate(
        &mut self,
        node: &Node,
        c: usize,
        at: Option<Span>,
        diags: &mut Diagnostics,
    ) -> Option<(Topology, Diagnostics)> {
        let candidate = &self.candidates[c];
        let b = self.boundaries[c].as_ref()?;
        let template = candidate.model.topology.as_ref()?;
        let mut bindings = Bindings::new();
        let mut missing = Vec::new();
        for (input, value) in input_values(candidate.model.dialect, node, b, template, &mut missing)
        {
            bindings.set_value(input, value);
        }
        let place = |d: Diagnostic| match at {
            Some(s) => d.at(s),
            None => d,
        };
        for (name, span) in missing {
            diags.push(
                place(Diagnostic::error(
                    codes::TOSCA_SUBSTITUTION,
                    format!(
                        "substitution mapping of node template `{}` names `{name}`, which `{}` does not have",
                        node.name, candidate.name
                    ),
                ))
                .label(span, "named here")
                .hint("map onto an input the substituting template declares, from a property the node type defines"),
            );
        }
        let mut ok = true;
        for input in &template.inputs {
            let def = input.def.as_map();
            let get = |k: &str| def.and_then(|d| d.get(k));
            let optional = get("required")
                .and_then(Yaml::as_scalar)
                .is_some_and(|s| matches!(s.core, crate::yaml::Core::Bool(false)));
            if optional
                || get("default").is_some()
                || get("value").is_some()
                || bindings.has_value(&input.name)
            {
                continue;
            }
            ok = false;
            let how = if b.mappings.properties.is_some() {
                format!(
                    "map a property onto it under `substitution_mappings.properties` in `{}` and set that property on `{}`",
                    candidate.name, node.name
                )
            } else {
                format!("set property `{}` on `{}`", input.name, node.name)
            };
            diags.push(
                place(Diagnostic::error(
                    codes::TOSCA_SUBSTITUTION,
                    format!(
                        "node template `{}` is substituted by `{}`, whose required input `{}` gets no value",
                        node.name, candidate.name, input.name
                    ),
                ))
                .label(input.span, "this input has no default")
                .hint(format!("{how}, or give the input a default")),
            );
        }
        if !ok {
            return None;
        }
        let ctx = Context {
            sources: self.ctx.sources,
            limits: self.ctx.limits,
            bindings: &bindings,
            csar: None,
            // Artifact paths relative to the whole topology's root, where backends read them.
            artifact_root: self.ctx.artifact_root.clone(),
            unbound_inputs_are_errors: false,
            inputs_stay_calls: false,
            report_open_requirements: self.ctx.report_open_requirements,
            artifact_files: self.ctx.artifact_files,
            patterns: self.ctx.patterns.clone(),
        };
        // Read by `report_resolution`, once the expansion says which open requirements are
        // settled.
        let mut own = Diagnostics::with_cap(0);
        let inner = super::resolve(&candidate.model, &ctx, &mut own);
        Some((inner, own))
    }

    /// Reports what resolving candidate `c` for `node` found (`found`, settled): each fact
    /// once, however many nodes the candidate substitutes. The template's own problems and
    /// those of the type definitions it shares with the template were reported already, and
    /// are not again; what a later node's resolution finds anew its own property values
    /// caused (an input value a `token` call cannot split, say), and it names that node.
    fn report_resolution(
        &mut self,
        found: Vec<Diagnostic>,
        node: &Node,
        c: usize,
        at: Option<Span>,
        diags: &mut Diagnostics,
    ) {
        let later = !self.reported.insert(c);
        let seen = self.seen.get_or_insert_with(|| {
            diags
                .iter()
                .map(|d| (d.code, d.span, d.message.clone()))
                .collect()
        });
        for d in found {
            if !seen.insert((d.code, d.span, d.message.clone())) {
                continue;
            }
            let d = match at {
                Some(span) if later => d.label(
                    span,
                    format!(
                        "found when `{}` substitutes node template `{}`, whose property values give its inputs",
                        self.candidates[c].name, node.name
                    ),
                ),
                _ => d,
            };
            diags.push(d);
        }
    }
}

/// `diagnostics` without those about the open requirements of nodes that were substituted:
/// "the orchestrator will first try to perform substitution ... and after that validate if all
/// mandatory requirements of all nodes in the resulting graph are fulfilled" (Simple Profile
/// §12 Using node template substitution for model composition), and the substituted node is no
/// longer in that graph.
pub fn settled(
    diagnostics: Vec<Diagnostic>,
    topology: &Topology,
    sources: &crate::source::SourceMap,
) -> Vec<Diagnostic> {
    if topology.substituted.is_empty() {
        return diagnostics;
    }
    let spans = SpanFinder::new(&topology.source.files, sources);
    let place = |s: Span| (s.file, s.line, s.col);
    let gone: HashSet<_> = topology
        .substituted
        .iter()
        .filter_map(|s| s.location.and_then(|l| spans.span(l)))
        .map(place)
        .collect();
    diagnostics
        .into_iter()
        .filter(|d| {
            d.code != codes::TOSCA_UNFULFILLED || !d.span.is_some_and(|s| gone.contains(&place(s)))
        })
        .collect()
}

/// `node` with every `get_input` of its and its capabilities' properties replaced by the
/// input's value (bound, else default), where it has one.
fn with_inputs_bound(node: &Node, inputs: &[Input]) -> Node {
    let mut node = node.clone();
    for value in node.properties.values_mut() {
        *value = bind_inputs(value, inputs);
    }
    for capability in node.capabilities.values_mut() {
        let capability = crate::ir::Shared::make_mut(capability);
        for value in capability.properties.values_mut() {
            *value = bind_inputs(value, inputs);
        }
    }
    node
}

fn bind_inputs(value: &Value, inputs: &[Input]) -> Value {
    match value {
        Value::Call(call) if call.function == crate::ir::Function::GetInput => {
            let Some(Value::String(name)) = call.args.first() else {
                return value.clone();
            };
            inputs
                .iter()
                .find(|i| &i.name == name)
                .and_then(|i| i.value.as_ref().or(i.default.as_ref()))
                .and_then(|v| super::values::nested(v, &call.args[1..]))
                .unwrap_or_else(|| value.clone())
        }
        Value::List(items) => Value::List(items.iter().map(|i| bind_inputs(i, inputs)).collect()),
        Value::Map(map) => Value::Map(Box::new(
            map.iter()
                .map(|(k, v)| (k.clone(), bind_inputs(v, inputs)))
                .collect(),
        )),
        other => other.clone(),
    }
}
