//! Substitution expansion: a node template that another service template substitutes is
//! replaced, in the IR, by that template's topology (TOSCA 2.0 §15, L7245-7262; Simple Profile
//! 1.0 §12-13, L768-1100 and A.8).
//!
//! Candidates are the templates given with `--substitute FILE` and the imported templates that
//! declare `substitution_mappings` (2.0 L2284), each resolved on its own like any template.
//!
//! Which nodes are substituted:
//! - TOSCA 2.0: a node with the `substitute` directive (L2551). Directives are tried in order
//!   (L2563): after `select` the orchestrator decides, so the node is left as it is; with no
//!   candidate, a later `create` lets the node be created, and otherwise "a substituting
//!   template must be found to instantiate this node" (L7555): an error where the output needs
//!   every value (`ir`, `k8s`), a warning where it does not (`check`, whose orchestrator may
//!   know one; `tf` and `dot`, which show the node as it is).
//! - Simple Profile 1.x: a node with the `substitutable` (or `substitute`) directive (L785),
//!   and an *abstract* node — one without a deployment artifact and without an implementation
//!   of a `create` operation (L606-614, L822) — when a candidate fits. "Substitutable was
//!   determined to be equivalent to selectable" (L13808): an orchestrator may provide the
//!   template, so a directive with no candidate is a warning, and an abstract node without one
//!   is left for the orchestrator silently.
//!
//! A candidate fits when the node's type is, or derives from, its `node_type`, and the node
//! passes its `substitution_filter`: a Simple Profile 1.3 node filter, or a TOSCA 2.0 condition
//! clause evaluated with `SELF` the node (L7269). Several fitting candidates are an error; when
//! only deployment can tell, the node is left for the orchestrator with a warning.
//!
//! The outer node's property values become the inner template's input values: through the
//! `properties` mappings (`prop: input`, `prop: [input]`, `[CAPABILITY, cap, prop]: input`),
//! else, in Simple Profile, by name (L913). An input that is required, has no default and gets
//! no value is an error at the substituted node.
//!
//! Expansion (see [`splice`]): the inner nodes, relationships, groups and policies are named
//! `<outer node>.<inner name>` and take the substituted node's place in node order; the
//! substituted node itself leaves `nodes` and is recorded in `Topology::substituted`.
//! Relationships from the substituted node leave from the inner node its requirement mapping
//! names; relationships to it end at the inner node and capability its capability mapping
//! names. Inner function calls naming inner nodes are renamed; outer calls naming the
//! substituted node are left as written. Inner outputs (the attribute mappings) are kept as
//! data on the `Substituted` record. A template that would substitute itself, directly or
//! through others, is reported with the whole chain and not expanded.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use super::Context;
use super::calls::{CallIndex, Evaluator, Functions, Graph, Scope};
use super::params::Bindings;
use crate::back::elements::SpanFinder;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{
    BoundaryMapping, Dialect, Location, Node, NodeId, PolicyTarget, Relationship, RelationshipId,
    Requirement, Substituted, Topology, Value, type_matches,
};
use crate::model::{Model, TypeKind};
use crate::source::Span;
use crate::yaml::{Map, Node as Yaml};

/// What separates the substituted node's name from an inner name: `db.server`. A `.` cannot
/// occur in a TOSCA name written as a YAML key by accident of another separator, reads as a
/// path, and the backends already turn names into identifiers of their own (as they do for
/// `web[0]`).
pub const SEPARATOR: &str = ".";

/// A service template that may substitute node templates.
pub struct Candidate {
    pub model: Model,
    /// The file as shown to users.
    pub name: String,
    /// The folder its artifact paths are relative to.
    pub artifact_root: Option<String>,
    /// Given with `--substitute` (a warning when it substitutes nothing).
    pub given: bool,
}

/// What a candidate declares: the node type it substitutes (its full name) and its mappings.
struct Boundary<'m> {
    node_type: String,
    mappings: &'m Map,
}

fn boundary(candidate: &Candidate) -> Option<Boundary<'_>> {
    let node = candidate
        .model
        .topology
        .as_ref()?
        .substitution_mappings
        .as_ref()?;
    let mappings = node.as_map()?;
    let written = mappings.get("node_type")?;
    let name = written.scalar_text()?;
    // Its own resolution reports an unknown type.
    let mut quiet = Diagnostics::new();
    let ancestry = super::types::Ancestry::new(&candidate.model).of(
        &candidate.model,
        TypeKind::Node,
        name,
        written.span,
        &mut quiet,
    );
    Some(Boundary {
        node_type: ancestry.first()?.clone(),
        mappings,
    })
}

/// How a node asks to be substituted.
#[derive(Clone, Copy)]
struct Marked {
    /// By a directive (else it is an abstract Simple Profile node).
    explicit: bool,
    /// Nothing else can realize it: no candidate is an error.
    required: bool,
}

fn marked(dialect: Dialect, node: &Node) -> Option<Marked> {
    if node.selection.is_some() {
        return None;
    }
    let tosca2 = dialect == Dialect::Tosca2;
    let at = node
        .directives
        .iter()
        .position(|d| d == "substitute" || (!tosca2 && d == "substitutable"));
    match at {
        Some(p) if tosca2 => {
            (!node.directives[..p].iter().any(|d| d == "select")).then_some(Marked {
                explicit: true,
                required: p + 1 == node.directives.len(),
            })
        }
        None if tosca2 => None,
        Some(_) => Some(Marked {
            explicit: true,
            required: false,
        }),
        None => is_abstract(node).then_some(Marked {
            explicit: false,
            required: false,
        }),
    }
}

/// Simple Profile L606-614: concrete nodes have a deployment artifact or an implementation of
/// the `create` operation; the others are abstract.
fn is_abstract(node: &Node) -> bool {
    node.artifacts.is_empty()
        && !node.interfaces.values().any(|i| {
            i.operations
                .get("create")
                .and_then(|op| op.implementation.as_ref())
                .is_some_and(|im| im.primary.is_some())
        })
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
        used: vec![false; candidates.len()],
        spliced: HashSet::new(),
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
    /// Candidates whose own problems were reported (once, however often they are used).
    reported: HashSet<usize>,
    used: Vec<bool>,
    /// Problems of splicing reported so far.
    spliced: HashSet<String>,
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
        let mut spans = SpanFinder::new(&topology.source.files, self.ctx.sources);
        let mut plans = Vec::new();
        let mut total = topology.nodes.len();
        let filtered = self
            .boundaries
            .iter()
            .flatten()
            .any(|b| b.mappings.contains_key("substitution_filter"));
        let conditions = (model.dialect == Dialect::Tosca2 && filtered)
            .then(|| Conditions::new(model, &topology));
        for (i, node) in topology.nodes.iter().enumerate() {
            let Some(mark) = marked(model.dialect, node) else {
                continue;
            };
            let at = node.location.and_then(|l| spans.span(l));
            let judged = Judged {
                model,
                node,
                id: NodeId(i),
                conditions: conditions.as_ref(),
            };
            let Some(c) = self.select(&judged, mark, at, diags) else {
                continue;
            };
            if let Some(p) = stack.iter().position(|&s| s == c) {
                self.report_cycle(node, &stack[p..], c, mark, at, diags);
                continue;
            }
            let Some((inner, own)) = self.instantiate(node, c, at, diags) else {
                continue;
            };
            stack.push(c);
            let inner = self.expand(&self.candidates[c].model, inner, stack, diags);
            stack.pop();
            if let Some(own) = own {
                diags.extend(settled(own.finish(), &inner, self.ctx.sources));
            }
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
        let mut spans = SpanFinder::new(&out.source.files, self.ctx.sources);
        for (at, error, message, hint) in problems {
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
                format!("{message}; the abstract node is left for the orchestrator"),
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
    ) -> Option<(Topology, Option<Diagnostics>)> {
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
            let how = if b.mappings.contains_key("properties") {
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
            artifact_root: candidate.artifact_root.clone(),
            unbound_inputs_are_errors: false,
            report_open_requirements: self.ctx.report_open_requirements,
            artifact_files: self.ctx.artifact_files,
        };
        let mut own = Diagnostics::with_cap(0);
        let inner = super::resolve(&candidate.model, &ctx, &mut own);
        // A template's own problems are reported once, however many nodes it substitutes.
        Some((inner, self.reported.insert(c).then_some(own)))
    }
}

/// Whether a candidate substitutes `node`, beyond its type.
enum Fit {
    Yes,
    /// Only values known at deployment can tell.
    Maybe(String),
    No(String),
}

/// Whether `node` passes the candidate's `substitution_filter` and has the values its constant
/// property mappings ask for, or why not. A Simple Profile property "mapping" onto a value
/// that is no input of the template (`flavour_id: simple`, as ETSI NFV deployment flavours and
/// tosca-parser's tests write) selects the nodes whose property has that value.
fn fits(judged: &Judged, b: &Boundary, template: Option<&crate::model::TopologyTemplate>) -> Fit {
    let (model, node) = (judged.model, judged.node);
    if model.dialect == Dialect::Tosca2 {
        return match (b.mappings.get("substitution_filter"), judged.conditions) {
            (Some(filter), Some(conditions)) => conditions.judge(filter, judged.id),
            _ => Fit::Yes,
        };
    }
    let reader = super::values::ValueReader {
        dialect: model.dialect,
        inputs: None,
    };
    let mut quiet = Diagnostics::new();
    let mut maybe = None;
    if model.dialect != Dialect::Tosca2
        && let Some(mappings) = b.mappings.get("properties").and_then(Yaml::as_map)
    {
        let declared =
            |name: &str| template.is_some_and(|t| t.inputs.iter().any(|i| i.name == name));
        for e in mappings.entries() {
            let (Some(property), Some(text)) = (e.key.scalar_text(), e.value.scalar_text()) else {
                continue;
            };
            if declared(text) {
                continue;
            }
            let wanted = reader.value(&e.value, &mut quiet);
            match node.properties.get(property) {
                Some(Value::Call(_)) => {
                    maybe = Some(format!(
                        "`{property}` must be {}",
                        crate::ir::value_text(&wanted)
                    ));
                }
                Some(v) if values_equal(v, &wanted) => {}
                got => {
                    return Fit::No(format!(
                        "it substitutes nodes whose `{property}` is {}, not {}",
                        crate::ir::value_text(&wanted),
                        got.map_or("unset".to_string(), crate::ir::value_text)
                    ));
                }
            }
        }
    }
    if let Some(filter) = b.mappings.get("substitution_filter") {
        let filter = filter
            .as_map()
            .and_then(|m| m.get("node_filter"))
            .unwrap_or(filter);
        let read = super::filters::read(filter, &mut quiet);
        let mut ancestry = super::types::Ancestry::new(model);
        let mut patterns = super::constraints::Patterns::default();
        let mut typing = super::typing::Typing {
            model,
            reader: &reader,
            ancestry: &mut ancestry,
            patterns: &mut patterns,
        };
        match super::filters::judge(&read, &mut typing, node) {
            super::filters::Verdict::Fails(why) => return Fit::No(why),
            super::filters::Verdict::Maybe(why) => maybe = maybe.or(Some(why)),
            super::filters::Verdict::Fits => {}
        }
    }
    maybe.map_or(Fit::Yes, Fit::Maybe)
}

/// A node of the topology being expanded, as a candidate judges it.
struct Judged<'j> {
    model: &'j Model,
    node: &'j Node,
    id: NodeId,
    conditions: Option<&'j Conditions<'j>>,
}

/// What TOSCA 2.0 substitution filters are evaluated with: the calls of the topology being
/// expanded (`$get_property: [ SELF, ... ]` reads the substituted node), as node filters are
/// where requirements are fulfilled.
struct Conditions<'t> {
    model: &'t Model,
    graph: Graph<'t>,
    functions: Functions<'t>,
    calls: CallIndex<'t>,
    inputs: IndexMap<String, Option<Value>>,
}

impl<'t> Conditions<'t> {
    fn new(model: &'t Model, topology: &'t Topology) -> Self {
        Conditions {
            model,
            graph: Graph::new(model, topology),
            // Its own resolution reported the functions' problems.
            functions: Functions::new(model, &mut Diagnostics::new()),
            calls: CallIndex::new(model),
            inputs: topology
                .inputs
                .iter()
                .map(|i| {
                    (
                        i.name.clone(),
                        i.value.clone().or_else(|| i.default.clone()),
                    )
                })
                .collect(),
        }
    }

    /// The filter (a condition clause, or a list of them that must all hold, as in a node
    /// filter) judged on node `id`.
    fn judge(&self, filter: &Yaml, id: NodeId) -> Fit {
        let reader = super::values::ValueReader {
            dialect: Dialect::Tosca2,
            inputs: None,
        };
        let mut quiet = Diagnostics::new();
        let clauses = match reader.value(filter, &mut quiet) {
            Value::List(items) => items,
            one => vec![one],
        };
        let mut ancestry = super::types::Ancestry::new(self.model);
        let mut patterns = super::constraints::Patterns::default();
        let mut typing = super::typing::Typing {
            model: self.model,
            reader: &reader,
            ancestry: &mut ancestry,
            patterns: &mut patterns,
        };
        let mut evaluator = Evaluator::new(
            &mut typing,
            &self.graph,
            &self.functions,
            &self.calls,
            &self.inputs,
        );
        let mut maybe = None;
        for clause in &clauses {
            let mut found = Diagnostics::new();
            let value = evaluator.evaluate(clause, &Scope::Node(id), &mut found);
            if let Some(wrong) = found.iter().find(|d| d.is_error()) {
                return Fit::No(format!("its substitution_filter fails: {}", wrong.message));
            }
            match value {
                Value::Boolean(true) => {}
                Value::Boolean(false) => {
                    return Fit::No(format!(
                        "its substitution_filter `{}` is false for this node",
                        crate::ir::value_text(clause)
                    ));
                }
                _ => {
                    maybe = Some(
                        "its substitution_filter depends on values known only at deployment"
                            .to_string(),
                    )
                }
            }
        }
        maybe.map_or(Fit::Yes, Fit::Maybe)
    }
}

/// Equal as values: a property's typed value against a constant read without its type (an
/// integer written where the property is a float, a string where it is a version).
fn values_equal(typed: &Value, constant: &Value) -> bool {
    typed == constant || crate::ir::value_text(typed) == crate::ir::value_text(constant)
}

/// The inner inputs the node's properties give values to, and the mappings that name an input
/// the template does not declare (name, where).
fn input_values(
    dialect: Dialect,
    node: &Node,
    b: &Boundary,
    template: &crate::model::TopologyTemplate,
    missing: &mut Vec<(String, Span)>,
) -> Vec<(String, Value)> {
    let declared = |name: &str| template.inputs.iter().any(|i| i.name == name);
    let mut out = Vec::new();
    let mappings = b.mappings.get("properties").and_then(Yaml::as_map);
    if dialect != Dialect::Tosca2 {
        // Simple Profile (L913): properties are inputs by name; `properties` mappings (1.2)
        // map others, and win (they are bound later).
        for (name, value) in &node.properties {
            if declared(name) && !matches!(value, Value::Null) {
                out.push((name.clone(), value.clone()));
            }
        }
    }
    let Some(mappings) = mappings else {
        return out;
    };
    for entry in mappings.entries() {
        let target = entry
            .value
            .as_map()
            .and_then(|m| m.get("mapping"))
            .unwrap_or(&entry.value);
        let input = match (target.scalar_text(), target.as_seq()) {
            (Some(name), _) => Some(name),
            (None, Some([one])) => one.scalar_text(),
            _ => None,
        };
        let Some(input) = input else { continue };
        if !declared(input) {
            // In Simple Profile a scalar is a value the node must have (see `fits`).
            if dialect == Dialect::Tosca2 || target.scalar_text().is_none() {
                missing.push((input.to_string(), target.span));
            }
            continue;
        }
        let value = match (entry.key.scalar_text(), entry.key.as_seq()) {
            (Some(property), _) => node.properties.get(property),
            (None, Some([kind, cap, property])) if kind.scalar_text() == Some("CAPABILITY") => node
                .capabilities
                .get(cap.scalar_text().unwrap_or_default())
                .and_then(|c| c.properties.get(property.scalar_text().unwrap_or_default())),
            // `[RELATIONSHIP, ...]` is known only once the relationships exist.
            _ => None,
        };
        if let Some(value) = value.filter(|v| !matches!(v, Value::Null)) {
            out.push((input.to_string(), value.clone()));
        }
    }
    out
}

/// A problem found while splicing: where, whether it is an error, what, what would be right.
type Problem = (Option<Location>, bool, String, String);

/// The topology with each plan's node replaced by its inner topology (see the module docs).
fn splice(
    outer: Topology,
    plans: Vec<Plan>,
    names: &[String],
    problems: &mut Vec<Problem>,
) -> Topology {
    let mut out = Topology {
        nodes: Vec::new(),
        relationships: Vec::new(),
        groups: Vec::new(),
        policies: Vec::new(),
        substituted: Vec::new(),
        ..outer.clone()
    };
    let plan_of: HashMap<usize, usize> =
        plans.iter().enumerate().map(|(p, x)| (x.node, p)).collect();
    // Each inner file's index in the merged file list.
    let files: Vec<Vec<usize>> = plans
        .iter()
        .map(|p| {
            p.inner
                .source
                .files
                .iter()
                .map(|f| match out.source.files.iter().position(|g| g == f) {
                    Some(i) => i,
                    None => {
                        out.source.files.push(f.clone());
                        out.source.files.len() - 1
                    }
                })
                .collect()
        })
        .collect();
    // Nodes: the outer ones in order, each substituted one replaced by its inner nodes.
    let mut new_id: Vec<Option<NodeId>> = vec![None; outer.nodes.len()];
    let mut base = vec![0usize; plans.len()];
    let rel_base_start = outer.relationships.len();
    let mut rel_base = vec![0usize; plans.len()];
    let mut next_rel = rel_base_start;
    for (p, plan) in plans.iter().enumerate() {
        rel_base[p] = next_rel;
        next_rel += plan.inner.relationships.len();
    }
    for (i, node) in outer.nodes.iter().enumerate() {
        let Some(&p) = plan_of.get(&i) else {
            new_id[i] = Some(NodeId(out.nodes.len()));
            out.nodes.push(node.clone());
            continue;
        };
        let plan = &plans[p];
        base[p] = out.nodes.len();
        let renames = renames(&node.name, &plan.inner);
        for inner in &plan.inner.nodes {
            let mut n = inner.clone();
            n.name = prefixed(&node.name, &n.name);
            for r in &mut n.requirements {
                r.relationship = r.relationship.map(|id| RelationshipId(id.0 + rel_base[p]));
            }
            node_values(&mut n, &renames);
            relocate_node(&mut n, &files[p]);
            out.nodes.push(n);
        }
        let attributes = attribute_values(&plan.inner);
        out.substituted.push(Substituted {
            name: node.name.clone(),
            type_name: node.type_name.clone(),
            template: names[p].clone(),
            nodes: (base[p]..base[p] + plan.inner.nodes.len())
                .map(NodeId)
                .collect(),
            attributes: attributes
                .into_iter()
                .map(|(k, mut v)| {
                    rename_value(&mut v, &renames);
                    (k, v)
                })
                .collect(),
            location: node.location,
        });
    }
    let expansion = |p: usize| (base[p]..base[p] + plans[p].inner.nodes.len()).map(NodeId);
    let boundary = |p: usize, section: Section, name: &str| -> Option<&BoundaryMapping> {
        let s = plans[p].inner.substitution.as_ref()?;
        let list = match section {
            Section::Capabilities => &s.capabilities,
            Section::Requirements => &s.requirements,
        };
        list.iter().find(|m| m.name == name)
    };
    // Outer relationships keep their ids; those of a substituted node are re-pointed.
    let mut dropped = HashSet::new();
    let inner_rels = rel_base_start..next_rel;
    let mut fan_out: Vec<(Relationship, Option<Requirement>)> = Vec::new();
    // How many assignments of each (substituted node, requirement) were wired so far.
    let mut assigned: HashMap<(usize, String), usize> = HashMap::new();
    for (r, rel) in outer.relationships.iter().enumerate() {
        let mut rel = rel.clone();
        let outer_source = &outer.nodes[rel.source.0];
        let outer_target = &outer.nodes[rel.target.0];
        // Inner requirements a relationship from outside connects: the first is this one,
        // each further one (a TOSCA 2.0 mapping onto a list, §15.5) gets a copy of it.
        let mut sources: Vec<(NodeId, String)> = Vec::new();
        match plan_of.get(&rel.source.0) {
            None => rel.source = new_id[rel.source.0].unwrap_or(rel.source),
            Some(&p) => {
                let k = assigned
                    .entry((rel.source.0, rel.requirement.clone()))
                    .or_insert(0);
                let mapped = assignment_targets(&plans[p].inner, &rel.requirement, *k);
                *k += 1;
                if mapped.is_empty() {
                    // The substituting template fulfils it inside, or has no use for it
                    // (tosca-parser's `system.yaml` hosts `dbsys`, whose template maps no `host`).
                    problems.push((
                        rel.location,
                        false,
                        if *k > 1 && !assignment_targets(&plans[p].inner, &rel.requirement, 0).is_empty() {
                            format!(
                                "requirement `{}` of substituted node `{}` connects it to `{}`, but the mappings of `{}` take only {} of its assignments; the relationship is dropped",
                                rel.requirement, outer_source.name, outer_target.name, names[p], *k - 1
                            )
                        } else {
                            format!(
                                "requirement `{}` of substituted node `{}` connects it to `{}`, but `{}` maps no requirement `{}`; the relationship is dropped",
                                rel.requirement, outer_source.name, outer_target.name, names[p], rel.requirement
                            )
                        },
                        format!(
                            "to keep it, add `{}: [ <inner node template>, <requirement> ]` under `substitution_mappings.requirements` of `{}`",
                            rel.requirement, names[p]
                        ),
                    ));
                    dropped.insert(r);
                }
                for m in mapped {
                    let id = NodeId(base[p] + m.node.0);
                    let inner = &out.nodes[id.0];
                    let inside = inner.requirements.iter().any(|q| {
                        q.name == m.target
                            && q.relationship.is_some_and(|i| inner_rels.contains(&i.0))
                    });
                    if inside {
                        problems.push((
                            rel.location,
                            true,
                            format!(
                                "requirement `{}` of substituted node `{}` is fulfilled here and also inside `{}`, by `{}`'s requirement `{}`",
                                m.name, outer_source.name, names[p], inner.name, m.target
                            ),
                            "fulfil it in one place: drop the assignment here, or leave the inner requirement open (Simple Profile L911)".to_string(),
                        ));
                        dropped.insert(r);
                        continue;
                    }
                    sources.push((id, m.target.clone()));
                }
            }
        }
        match plan_of.get(&rel.target.0) {
            None => rel.target = new_id[rel.target.0].unwrap_or(rel.target),
            // Dropped already (its requirement is not mapped): nothing to re-point.
            Some(_) if dropped.contains(&r) => {}
            Some(&p) => {
                let found = match &rel.capability {
                    Some(c) => boundary(p, Section::Capabilities, c),
                    None => plans[p].inner.substitution.as_ref().and_then(|s| {
                        match s.capabilities.as_slice() {
                            [one] => Some(one),
                            _ => None,
                        }
                    }),
                };
                match found {
                    Some(m) => {
                        rel.target = NodeId(base[p] + m.node.0);
                        rel.capability = Some(m.target.clone());
                    }
                    None => {
                        let (cap, message) = match rel.capability.as_deref() {
                            Some(cap) => (
                                cap,
                                format!(
                                    "`{}` requires capability `{cap}` of substituted node `{}`, but `{}` maps no capability `{cap}`",
                                    outer_source.name, outer_target.name, names[p]
                                ),
                            ),
                            None => (
                                "<capability>",
                                format!(
                                    "`{}` requires substituted node `{}` without naming a capability, and `{}` does not map exactly one",
                                    outer_source.name, outer_target.name, names[p]
                                ),
                            ),
                        };
                        problems.push((
                            rel.location,
                            true,
                            message,
                            format!(
                                "add `{cap}: [ <inner node template>, <capability> ]` under `substitution_mappings.capabilities` of `{}`",
                                names[p]
                            ),
                        ));
                        dropped.insert(r);
                    }
                }
            }
        }
        if !dropped.contains(&r) {
            let assignment = outer_source
                .requirements
                .iter()
                .find(|q| q.relationship == Some(RelationshipId(r)));
            for (k, (id, requirement)) in sources.into_iter().enumerate() {
                let mut copy = rel.clone();
                copy.source = id;
                copy.requirement = requirement.clone();
                if k == 0 {
                    rel = copy;
                    attach(
                        &mut out.nodes[id.0],
                        &requirement,
                        RelationshipId(r),
                        assignment,
                    );
                } else {
                    copy.name = format!("{}[{k}]", rel.name);
                    fan_out.push((copy, assignment.cloned()));
                }
            }
        }
        out.relationships.push(rel);
    }
    for (p, plan) in plans.iter().enumerate() {
        let prefix = &outer.nodes[plan.node].name;
        let renames = renames(prefix, &plan.inner);
        for rel in &plan.inner.relationships {
            let mut rel = rel.clone();
            rel.name = prefixed(prefix, &rel.name);
            rel.source = NodeId(base[p] + rel.source.0);
            rel.target = NodeId(base[p] + rel.target.0);
            relationship_values(&mut rel, &renames);
            rel.location = relocate(rel.location, &files[p]);
            relocate_interfaces(&mut rel.interfaces, &files[p]);
            out.relationships.push(rel);
        }
    }
    for (rel, assignment) in fan_out {
        let id = RelationshipId(out.relationships.len());
        let requirement = rel.requirement.clone();
        attach(
            &mut out.nodes[rel.source.0],
            &requirement,
            id,
            assignment.as_ref(),
        );
        out.relationships.push(rel);
    }
    // Groups and policies: a substituted member or target is its whole expansion.
    let spread = |id: NodeId| -> Vec<NodeId> {
        match plan_of.get(&id.0) {
            Some(&p) => expansion(p).collect(),
            None => new_id[id.0].into_iter().collect(),
        }
    };
    for g in &outer.groups {
        let mut g = g.clone();
        g.members = g.members.iter().flat_map(|&m| spread(m)).collect();
        out.groups.push(g);
    }
    let mut group_base = vec![0usize; plans.len()];
    for (p, plan) in plans.iter().enumerate() {
        let prefix = &outer.nodes[plan.node].name;
        group_base[p] = out.groups.len();
        for g in &plan.inner.groups {
            let mut g = g.clone();
            g.name = prefixed(prefix, &g.name);
            g.members = g.members.iter().map(|m| NodeId(base[p] + m.0)).collect();
            g.location = relocate(g.location, &files[p]);
            out.groups.push(g);
        }
    }
    for policy in &outer.policies {
        let mut policy = policy.clone();
        policy.targets = policy
            .targets
            .iter()
            .flat_map(|t| match t {
                PolicyTarget::Node(id) => spread(*id).into_iter().map(PolicyTarget::Node).collect(),
                PolicyTarget::Group(g) => vec![PolicyTarget::Group(*g)],
            })
            .collect();
        out.policies.push(policy);
    }
    for (p, plan) in plans.iter().enumerate() {
        let prefix = &outer.nodes[plan.node].name;
        for policy in &plan.inner.policies {
            let mut policy = policy.clone();
            policy.name = prefixed(prefix, &policy.name);
            policy.targets = policy
                .targets
                .iter()
                .map(|t| match t {
                    PolicyTarget::Node(id) => PolicyTarget::Node(NodeId(base[p] + id.0)),
                    PolicyTarget::Group(g) => {
                        PolicyTarget::Group(crate::ir::GroupId(group_base[p] + g.0))
                    }
                })
                .collect();
            policy.location = relocate(policy.location, &files[p]);
            out.policies.push(policy);
        }
    }
    // Records of expansions inside the inner templates, and of the outer ones before.
    for s in &outer.substituted {
        let mut s = s.clone();
        s.nodes = s.nodes.iter().flat_map(|&m| spread(m)).collect();
        out.substituted.push(s);
    }
    for (p, plan) in plans.iter().enumerate() {
        let prefix = &outer.nodes[plan.node].name;
        for s in &plan.inner.substituted {
            let mut s = s.clone();
            s.name = prefixed(prefix, &s.name);
            s.nodes = s.nodes.iter().map(|m| NodeId(base[p] + m.0)).collect();
            s.location = relocate(s.location, &files[p]);
            out.substituted.push(s);
        }
    }
    // The outer boundary, when this topology substitutes for a node type itself.
    if let Some(s) = &mut out.substitution {
        for (section, list) in [
            (Section::Capabilities, &mut s.capabilities),
            (Section::Requirements, &mut s.requirements),
        ] {
            for m in list.iter_mut() {
                match plan_of.get(&m.node.0) {
                    None => m.node = new_id[m.node.0].unwrap_or(m.node),
                    Some(&p) => {
                        if let Some(inner) = boundary(p, section, &m.target) {
                            m.node = NodeId(base[p] + inner.node.0);
                            m.target = inner.target.clone();
                        }
                    }
                }
            }
        }
    }
    // `get_attribute: [ <substituted node>, <attribute> ]` elsewhere reads what its attribute
    // mapping gives (L913, §15.3), where the mapping names a value.
    let mapped: HashMap<String, IndexMap<String, Value>> = out.substituted[..plans.len()]
        .iter()
        .map(|s| (s.name.clone(), s.attributes.clone()))
        .collect();
    if !mapped.is_empty() {
        for node in &mut out.nodes {
            for map in node_maps(node) {
                map.values_mut().for_each(|v| read_attributes(v, &mapped));
            }
        }
        for rel in &mut out.relationships {
            rel.properties
                .values_mut()
                .for_each(|v| read_attributes(v, &mapped));
            rel.attributes
                .values_mut()
                .for_each(|v| read_attributes(v, &mapped));
        }
        for o in &mut out.outputs {
            read_attributes(&mut o.value, &mapped);
        }
    }
    // A relationship that could not be re-pointed is taken out, with the requirement that
    // used it left open.
    if !dropped.is_empty() {
        drop_relationships(&mut out, &dropped);
    }
    out
}

/// `diagnostics` without those about the open requirements of nodes that were substituted:
/// "the orchestrator will first try to perform substitution ... and after that validate if all
/// mandatory requirements of all nodes in the resulting graph are fulfilled" (Simple Profile
/// L785), and the substituted node is no longer in that graph.
pub fn settled(
    diagnostics: Vec<Diagnostic>,
    topology: &Topology,
    sources: &crate::source::SourceMap,
) -> Vec<Diagnostic> {
    if topology.substituted.is_empty() {
        return diagnostics;
    }
    let mut spans = SpanFinder::new(&topology.source.files, sources);
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

/// The substituted node's attributes as the substituting template maps them: its `attributes`
/// mappings (`attr: output`, 1.2's `attr: [ output ]`) with each output's value, else every
/// output by name (Simple Profile L913). A mapping that names no output is kept as written.
fn attribute_values(inner: &Topology) -> IndexMap<String, Value> {
    let output = |name: &str| {
        inner
            .outputs
            .iter()
            .find(|o| o.name == name)
            .map(|o| o.value.clone())
    };
    match inner
        .substitution
        .as_ref()
        .map(|s| &s.attributes)
        .filter(|a| !a.is_empty())
    {
        Some(mappings) => mappings
            .iter()
            .map(|(attribute, written)| {
                let named = match written {
                    Value::String(o) => Some(o.as_str()),
                    Value::List(items) => match items.as_slice() {
                        [Value::String(o)] => Some(o.as_str()),
                        _ => None,
                    },
                    _ => None,
                };
                let value = named.and_then(output).unwrap_or_else(|| written.clone());
                (attribute.clone(), value)
            })
            .collect(),
        None => inner
            .outputs
            .iter()
            .map(|o| (o.name.clone(), o.value.clone()))
            .collect(),
    }
}

/// The value maps of a node that function calls can be in.
fn node_maps(node: &mut Node) -> Vec<&mut IndexMap<String, Value>> {
    let mut maps = vec![&mut node.properties, &mut node.attributes];
    for c in node.capabilities.values_mut() {
        maps.push(&mut c.properties);
        maps.push(&mut c.attributes);
    }
    for i in node.interfaces.values_mut() {
        maps.push(&mut i.inputs);
        for op in i
            .operations
            .values_mut()
            .chain(i.notifications.values_mut())
        {
            maps.push(&mut op.inputs);
        }
    }
    maps
}

/// `get_attribute: [ S, attr ]` of a substituted node `S` replaced by the value its attribute
/// mapping gives.
fn read_attributes(value: &mut Value, mapped: &HashMap<String, IndexMap<String, Value>>) {
    match value {
        Value::List(items) => items.iter_mut().for_each(|v| read_attributes(v, mapped)),
        Value::Map(map) => map.values_mut().for_each(|v| read_attributes(v, mapped)),
        Value::Call(call) => {
            let found = match (call.function.as_str(), call.args.as_slice()) {
                ("get_attribute", [Value::String(node), Value::String(attribute)]) => mapped
                    .get(node.as_str())
                    .and_then(|a| a.get(attribute.as_str()))
                    .cloned(),
                _ => None,
            };
            match found {
                Some(v) => *value = v,
                None => call
                    .args
                    .iter_mut()
                    .for_each(|v| read_attributes(v, mapped)),
            }
        }
        _ => {}
    }
}

/// The inner requirements that assignment `k` (0-based, in assignment order) of requirement
/// `name` of the substituted node is wired to. The pairs of one mapping entry take an
/// assignment together; in TOSCA 2.0 an entry takes as many assignments as its `[name, count]`
/// key says (`UNBOUNDED`: all the rest), one without a count takes one (§15.5, L7437), and an
/// assignment past them all is not mapped. A Simple Profile mapping (a map: one entry per
/// name) takes every assignment.
fn assignment_targets<'t>(inner: &'t Topology, name: &str, k: usize) -> Vec<&'t BoundaryMapping> {
    let mut groups: Vec<Vec<&BoundaryMapping>> = Vec::new();
    for m in inner
        .substitution
        .iter()
        .flat_map(|s| &s.requirements)
        .filter(|m| m.name == name)
    {
        match groups.last_mut() {
            Some(g) if g[0].entry == m.entry => g.push(m),
            _ => groups.push(vec![m]),
        }
    }
    if inner.source.dialect != Dialect::Tosca2 {
        return groups.into_iter().flatten().collect();
    }
    let mut start = 0usize;
    for g in groups {
        let take = match &g[0].count {
            None => Some(1),
            Some(Value::Integer(n)) => Some(usize::try_from(*n).unwrap_or(0)),
            Some(_) => None,
        };
        match take {
            Some(n) if k >= start + n => start += n,
            _ => return g,
        }
    }
    Vec::new()
}

#[derive(Clone, Copy)]
enum Section {
    Capabilities,
    Requirements,
}

fn prefixed(prefix: &str, name: &str) -> String {
    format!("{prefix}{SEPARATOR}{name}")
}

/// What an inner value names that changes in the expansion: inner node names (→ prefixed),
/// and the inner inputs, whose `get_input` becomes the value the input got (null if none),
/// since the inner template's inputs are not inputs of the whole topology.
struct Renames {
    nodes: HashMap<String, String>,
    inputs: HashMap<String, Value>,
}

fn renames(prefix: &str, inner: &Topology) -> Renames {
    Renames {
        nodes: inner
            .nodes
            .iter()
            .map(|n| (n.name.clone(), prefixed(prefix, &n.name)))
            .collect(),
        inputs: inner
            .inputs
            .iter()
            .map(|i| {
                let value = i.value.as_ref().or(i.default.as_ref());
                (i.name.clone(), value.cloned().unwrap_or(Value::Null))
            })
            .collect(),
    }
}

/// Connects requirement `name` of an inner node to relationship `id` from outside: its first
/// open requirement of that name, else a new one like the outer `assignment`.
fn attach(node: &mut Node, name: &str, id: RelationshipId, assignment: Option<&Requirement>) {
    match node
        .requirements
        .iter_mut()
        .find(|q| q.name == name && q.relationship.is_none())
    {
        Some(open) => open.relationship = Some(id),
        None => node.requirements.push(Requirement {
            name: name.to_string(),
            relationship: Some(id),
            ..assignment
                .cloned()
                .unwrap_or_else(|| empty_requirement(name))
        }),
    }
}

fn empty_requirement(name: &str) -> Requirement {
    Requirement {
        name: name.to_string(),
        relationship: None,
        count: Value::Integer(1),
        optional: false,
        implicit: false,
        directives: Vec::new(),
        allocation: IndexMap::new(),
        node: None,
        capability: None,
        node_filter: None,
        location: None,
    }
}

/// Removes the relationships in `dropped` (outer ids), renumbering the rest.
fn drop_relationships(out: &mut Topology, dropped: &HashSet<usize>) {
    let mut map = Vec::with_capacity(out.relationships.len());
    let mut kept = 0usize;
    for i in 0..out.relationships.len() {
        if dropped.contains(&i) {
            map.push(None);
        } else {
            map.push(Some(RelationshipId(kept)));
            kept += 1;
        }
    }
    let mut i = 0usize;
    out.relationships.retain(|_| {
        i += 1;
        !dropped.contains(&(i - 1))
    });
    for node in &mut out.nodes {
        for r in &mut node.requirements {
            r.relationship = r
                .relationship
                .and_then(|id| map.get(id.0).copied().flatten());
        }
    }
}

/// Function calls in `value` that start their path at an inner node, renamed.
fn rename_value(value: &mut Value, renames: &Renames) {
    match value {
        Value::List(items) => items.iter_mut().for_each(|v| rename_value(v, renames)),
        Value::Map(map) => map.values_mut().for_each(|v| rename_value(v, renames)),
        Value::Call(call)
            if call.function == "get_input"
                && let Some(Value::String(name)) = call.args.first()
                && let Some(given) = renames.inputs.get(name.as_str()) =>
        {
            let mut given = given.clone();
            if let [_, path @ ..] = call.args.as_slice() {
                for step in path {
                    given = match (given, step) {
                        (Value::List(items), Value::Integer(i)) => usize::try_from(*i)
                            .ok()
                            .and_then(|i| items.into_iter().nth(i)),
                        (Value::Map(mut map), Value::String(k)) => map.swap_remove(k.as_str()),
                        _ => None,
                    }
                    .unwrap_or(Value::Null);
                }
            }
            *value = given;
        }
        Value::Call(call) => {
            if matches!(
                call.function.as_str(),
                "get_property"
                    | "get_attribute"
                    | "get_artifact"
                    | "get_operation_output"
                    | "available_allocation"
            ) && let Some(Value::String(first)) = call.args.first_mut()
                && let Some(new) = renames.nodes.get(first.as_str())
            {
                *first = new.clone();
            }
            call.args.iter_mut().for_each(|v| rename_value(v, renames));
        }
        _ => {}
    }
}

fn rename_map(map: &mut IndexMap<String, Value>, renames: &Renames) {
    map.values_mut().for_each(|v| rename_value(v, renames));
}

fn rename_interfaces(interfaces: &mut IndexMap<String, crate::ir::Interface>, renames: &Renames) {
    for i in interfaces.values_mut() {
        rename_map(&mut i.inputs, renames);
        for op in i
            .operations
            .values_mut()
            .chain(i.notifications.values_mut())
        {
            rename_map(&mut op.inputs, renames);
            rename_map(&mut op.outputs, renames);
        }
    }
}

fn node_values(node: &mut Node, renames: &Renames) {
    rename_map(&mut node.properties, renames);
    rename_map(&mut node.attributes, renames);
    for c in node.capabilities.values_mut() {
        rename_map(&mut c.properties, renames);
        rename_map(&mut c.attributes, renames);
    }
    rename_interfaces(&mut node.interfaces, renames);
    for r in &mut node.requirements {
        if let Some(target) = r
            .node
            .as_mut()
            .and_then(|t| renames.nodes.get(t.as_str()).map(|n| (t, n)))
        {
            *target.0 = target.1.clone();
        }
    }
}

fn relationship_values(rel: &mut Relationship, renames: &Renames) {
    rename_map(&mut rel.properties, renames);
    rename_map(&mut rel.attributes, renames);
    rename_interfaces(&mut rel.interfaces, renames);
}

fn relocate(location: Option<Location>, files: &[usize]) -> Option<Location> {
    location.map(|l| Location {
        file: files.get(l.file).copied().unwrap_or(l.file),
        ..l
    })
}

/// Every location in `node` pointed at the merged file list.
fn relocate_node(node: &mut Node, files: &[usize]) {
    node.location = relocate(node.location, files);
    for c in node.capabilities.values_mut() {
        c.location = relocate(c.location, files);
    }
    for r in &mut node.requirements {
        r.location = relocate(r.location, files);
    }
    for a in node.artifacts.values_mut() {
        a.location = relocate(a.location, files);
    }
    relocate_interfaces(&mut node.interfaces, files);
}

fn relocate_interfaces(interfaces: &mut IndexMap<String, crate::ir::Interface>, files: &[usize]) {
    let artifacts = interfaces
        .values_mut()
        .flat_map(|i| {
            i.operations
                .values_mut()
                .chain(i.notifications.values_mut())
        })
        .filter_map(|op| op.implementation.as_mut())
        .flat_map(|im| im.primary.iter_mut().chain(im.dependencies.iter_mut()));
    for a in artifacts {
        a.location = relocate(a.location, files);
    }
}
