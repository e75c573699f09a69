//! Variability4TOSCA 1.0 RC (`tosca_variability_1_0`): resolves a variable service template to
//! a plain `tosca_simple_yaml_1_3` tree, which the Simple Profile front end then reads like any
//! other file.
//!
//! The steps are the spec's "Processing": take the input values (a preset's, then the explicit
//! ones), build the element graph ([`graph`]), decide the presence of every element ([`eval`]:
//! conditions, variability groups, pruning), check the consistency of what is present
//! ([`check`]), and build the resolved tree ([`transform`]). The resolved tree is made of the
//! variable template's own nodes, so every span still points into the file the user wrote.
//!
//! Where the RC's reference code and the spec differ, this follows the code the conformance
//! suite was written against (see `docs/dialects/variability4tosca.md`).

pub mod check;
pub mod current;
pub mod definitions;
pub mod eval;
pub mod graph;
pub mod language;
pub mod options;
pub mod transform;

#[cfg(test)]
mod tests;

use indexmap::IndexMap;

pub use options::{Options, VariabilityArgs};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::{SourceMap, Span};
use crate::yaml::Node;
use eval::{Evaluator, Reason, Value};
use graph::Id;

/// A variable template after resolution.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The variability-resolved template (`tosca_simple_yaml_1_3`).
    pub tree: Node,
    /// The names of `--inputs`/`--set` values taken as variability inputs.
    pub consumed: Vec<String>,
    /// Per element, whether it is present and why (filled with `--explain`).
    pub explanation: Vec<Explained>,
}

/// One line of `--explain`.
#[derive(Debug, Clone)]
pub struct Explained {
    pub element: String,
    pub span: Span,
    pub present: bool,
    pub reason: Reason,
}

/// Renders the explanation, one element per line: `file:line:col: node `a`: absent (condition
/// at file:line:col is false)`.
pub fn render_explanation(lines: &[Explained], sources: &SourceMap) -> String {
    let at = |span: Span| format!("{}:{}:{}", sources.get(span.file).name, span.line, span.col);
    let mut out = String::new();
    for l in lines {
        out.push_str(&format!(
            "{}: {}: {} ({}{})\n",
            at(l.span),
            l.element,
            if l.present { "present" } else { "absent" },
            l.reason.text,
            l.reason
                .span
                .map(|s| format!(", decided at {}", at(s)))
                .unwrap_or_default()
        ));
    }
    out
}

/// Input values given on the command line, by name, with where they were given.
pub type Given<'a> = Vec<(&'a str, &'a Node, Option<Span>)>;

/// Resolves the variable template `root`, by the current text's rules when it uses the current
/// language ([`language::current`]) and by the release candidate's otherwise. Returns `None`
/// when an error was found (all of them are in `diags`).
pub fn resolve(
    root: &Node,
    options: &Options,
    given: &Given<'_>,
    limits: &crate::limits::Limits,
    diags: &mut Diagnostics,
) -> Option<Resolved> {
    // What expressions compute is bounded (`concat`s that double a text at each step).
    let budget = crate::limits::Budget::new(limits);
    // An expression is evaluated wherever a condition names it, so one mistake in it would be
    // reported once per use; each problem is passed on once.
    let mut found = Diagnostics::with_cap(0);
    // Evaluation recurses (up to [`eval::MAX_DEPTH`] levels); a thread of its own gives it a
    // known stack, whatever thread the caller runs on.
    let resolved = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("variability".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                resolve_in_its_language(root, options, given, &budget, &mut found)
            })
            .ok()
            .map(|handle| handle.join())
    })
    .unwrap_or_else(|| {
        Ok(resolve_in_its_language(
            root, options, given, &budget, &mut found,
        ))
    })
    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    let mut seen = std::collections::HashSet::new();
    for d in found.iter() {
        if seen.insert((d.code, d.span, d.message.as_str())) {
            diags.push(d.clone());
        }
    }
    resolved
}

fn resolve_in_its_language(
    root: &Node,
    options: &Options,
    given: &Given<'_>,
    budget: &crate::limits::Budget,
    diags: &mut Diagnostics,
) -> Option<Resolved> {
    match language::current(root) {
        Some(_) => current::resolve(root, options, given, budget, diags),
        None => resolve_here(root, options, given, budget, diags),
    }
}

/// The stack of the resolver's thread: room for [`eval::MAX_DEPTH`] nested evaluations in a
/// debug build, many times over.
const STACK_BYTES: usize = 64 << 20;

fn resolve_here(
    root: &Node,
    options: &Options,
    given: &Given<'_>,
    budget: &crate::limits::Budget,
    diags: &mut Diagnostics,
) -> Option<Resolved> {
    let errors_before = diags.error_count();
    let root_map = root.as_map()?;
    let empty = Node {
        span: root.span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: crate::yaml::Kind::Map(crate::yaml::Map::new()),
    };
    let topo = root_map.get("topology_template").unwrap_or(&empty);
    let variability = topo.as_map().and_then(|m| m.get("variability"));
    if let Some(v) = variability
        && v.as_map().is_none()
        && !v.is_null()
    {
        diags.push(crate::model::shape::wrong_shape(
            v,
            "`variability`",
            "a map with `inputs`, `presets` and `expressions`",
        ));
        return None;
    }
    if let Some(map) = variability.and_then(Node::as_map) {
        crate::model::shape::check_keys(
            map,
            &["inputs", "presets", "expressions"],
            "the variability definition (Variability4TOSCA 1.0)",
            diags,
        );
        definitions::check(root, variability.unwrap_or(&empty), diags);
    }
    let declared_node = section(variability, "inputs", diags);
    let presets = section(variability, "presets", diags);
    let expressions_node = section(variability, "expressions", diags);

    let declared: Vec<&str> = declared_node
        .and_then(Node::as_map)
        .map(|m| m.names().collect())
        .unwrap_or_default();
    let mut values: IndexMap<String, (Value, Span)> = IndexMap::new();
    // Declared defaults first, then the preset, then the explicit values.
    for e in declared_node
        .and_then(Node::as_map)
        .map(|m| m.entries())
        .unwrap_or_default()
    {
        if let Some(default) = e.value.as_map().and_then(|m| m.get("default")) {
            add_value(&mut values, &e.key, default, diags);
        }
    }
    let place = presets.or(variability).map(|n| n.span).or_else(|| {
        root_map
            .entry("tosca_definitions_version")
            .map(|e| e.key.span)
    });
    apply_presets(&mut values, &options.presets, presets, place, diags);
    let mut consumed = Vec::new();
    for (name, node, span) in given {
        if declared.contains(name) {
            let key = Node::string(name, span.unwrap_or(node.span));
            add_value(&mut values, &key, node, diags);
            consumed.push(name.to_string());
        }
    }
    let expressions = by_name(expressions_node);

    let g = graph::build(root, topo, diags);
    if diags.error_count() > errors_before {
        return None;
    }
    let mut ev =
        Evaluator::new(&g, options, values, declared, expressions, diags).with_budget(budget);
    let all = rc_order(&g);
    for (id, span) in &all {
        let _ = ev.presence(*id, *span);
    }
    warn_unused_expressions(&mut ev);
    if ev.diags.error_count() > errors_before {
        return None;
    }
    check::run(&mut ev, options);
    if ev.diags.error_count() > errors_before {
        return None;
    }
    let tree = transform::document(root, &mut ev);
    if ev.diags.error_count() > errors_before {
        return None;
    }
    let explanation = if options.explain {
        all.iter()
            .filter_map(|(id, span)| {
                let (present, reason) = ev.decided(*id)?;
                Some(Explained {
                    element: ev.describe(*id),
                    span: *span,
                    present,
                    reason: reason.clone(),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(Resolved {
        tree,
        consumed,
        explanation,
    })
}

/// Applies the inputs of the presets `names`, in order, to `values`; an unknown preset is
/// reported at `place` (the presets, else the variability definition, else the version).
fn apply_presets(
    values: &mut IndexMap<String, (Value, Span)>,
    names: &[String],
    presets: Option<&Node>,
    place: Option<Span>,
    diags: &mut Diagnostics,
) {
    for name in names {
        let preset = presets.and_then(Node::as_map).and_then(|m| m.get(name));
        match preset {
            Some(p) => {
                if let Some(map) = p.as_map() {
                    crate::model::shape::check_keys(
                        map,
                        &["name", "description", "inputs"],
                        "a variability preset",
                        diags,
                    );
                }
                let inputs = p.as_map().and_then(|m| m.get("inputs"));
                for e in inputs
                    .and_then(Node::as_map)
                    .map(|m| m.entries())
                    .unwrap_or_default()
                {
                    add_value(values, &e.key, &e.value, diags);
                }
            }
            None => {
                let known: Vec<&str> = presets
                    .and_then(Node::as_map)
                    .map(|m| m.names().collect())
                    .unwrap_or_default();
                let mut d = Diagnostic::error(
                    codes::VAR_UNKNOWN,
                    format!("Did not find variability set \"{name}\""),
                );
                if let Some(span) = place {
                    d = d.at_with(span, "the presets are here");
                }
                let otherwise = if known.is_empty() {
                    "this template defines no presets".to_string()
                } else {
                    format!("presets: {}", known.join(", "))
                };
                diags.push(d.did_you_mean(name, &known, Some(otherwise)));
            }
        }
    }
}

/// Every element of the graph with its span, in the RC's order, which decides which error
/// comes first.
fn rc_order(g: &graph::Graph<'_>) -> Vec<(Id, Span)> {
    fn ids<T>(items: &[T], id: fn(usize) -> Id, span: fn(&T) -> Span) -> Vec<(Id, Span)> {
        items
            .iter()
            .enumerate()
            .map(|(i, item)| (id(i), span(item)))
            .collect()
    }
    [
        ids(&g.nodes, Id::Node, |n| n.key.span),
        ids(&g.relations, Id::Relation, |r| r.item.span),
        ids(&g.inputs, Id::Input, |n| n.key.span),
        ids(&g.groups, Id::Group, |n| n.key.span),
        ids(&g.policies, Id::Policy, |n| n.key.span),
        ids(&g.artifacts, Id::Artifact, |n| n.key.span),
        ids(&g.properties, Id::Property, |n| n.key.span),
    ]
    .concat()
}

/// A named expression no condition reads is never evaluated, so nothing checks it: say so.
fn warn_unused_expressions(ev: &mut Evaluator<'_, '_>) {
    for (name, expr) in &ev.unused_expressions() {
        ev.diags.push(
            Diagnostic::warning(
                codes::VAR_IGNORED,
                format!("variability expression `{name}` is not used by any condition, so it is not evaluated"),
            )
            .at(*expr)
            .hint("read it with `get_variability_expression` or `get_variability_condition`, or remove it"),
        );
    }
}

/// The entries of a map by their names; empty for anything else.
pub(crate) fn by_name(node: Option<&Node>) -> IndexMap<&str, &Node> {
    node.and_then(Node::as_map)
        .map(|m| {
            m.entries()
                .iter()
                .filter_map(|e| Some((e.key.scalar_text()?, &e.value)))
                .collect()
        })
        .unwrap_or_default()
}

/// `variability.<key>`, which must be a map when present.
fn section<'a>(
    variability: Option<&'a Node>,
    key: &str,
    diags: &mut Diagnostics,
) -> Option<&'a Node> {
    let node = variability?.as_map()?.get(key)?;
    if node.as_map().is_none() && !node.is_null() {
        diags.push(crate::model::shape::wrong_shape(
            node,
            format!("`variability.{key}`"),
            "a map",
        ));
    }
    node.as_map().map(|_| node)
}

fn add_value(
    values: &mut IndexMap<String, (Value, Span)>,
    key: &Node,
    value: &Node,
    diags: &mut Diagnostics,
) {
    let Some(name) = key.scalar_text() else {
        return;
    };
    match Value::from_node(value) {
        Some(v) => {
            values.insert(name.to_string(), (v, value.span));
        }
        None => diags.push(crate::model::shape::wrong_shape(
            value,
            format!("the value of variability input `{name}`"),
            "a boolean, a number, a string or a list of these",
        )),
    }
}
