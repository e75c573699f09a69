//! Requirement assignments as written in node templates, and the requirement definitions they
//! assign, read for both YAML dialects.
//!
//! The Simple Profile bounds a requirement by `occurrences` (default `[1, 1]`); TOSCA 2.0 by
//! `count_range` (default `[0, UNBOUNDED]`, §8.4 Requirement Definition), and adds to an assignment
//! its `count`, `optional`, `directives`, `allocation` and the `node: [template, index]` form
//! (§8.5.1 Supported Keynames). A TOSCA 2.0 definition may be refined along the node type chain:
//! each keyname is taken from the most specific type that writes it, and the `node_filter`s of
//! every layer all apply (§8.4.1 Requirement Refinement).

use std::rc::Rc;

use super::occurrences::{Bounds, bounds};
use super::types::definitions;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::FastMap;
use crate::ir::{Dialect, Node};
use crate::model::{Model, TypeKind, call};
use crate::source::{FileId, Span};
use crate::yaml::{Map, Node as Yaml};

/// One assignment as written (or, in TOSCA 2.0, created from its definition).
pub struct Assignment<'y> {
    pub name: String,
    pub span: Span,
    pub node: Option<(String, Span)>,
    /// The second entry of `node: [template, index]`: which representation of the template.
    pub target_index: Option<&'y Yaml>,
    pub capability: Option<String>,
    /// Where the template's `capability:` is written.
    pub capability_at: Option<Span>,
    pub relationship: Option<&'y Yaml>,
    pub node_filter: Option<&'y Yaml>,
    /// Where `node_filter` is written (its key).
    pub node_filter_at: Option<Span>,
    /// The lower bound of the assignment's own `occurrences` (Simple Profile), where it gives
    /// one.
    pub min: Option<u64>,
    /// TOSCA 2.0 `count` as written; `None` means 1.
    pub count: Option<&'y Yaml>,
    /// For an implicit assignment: the count it stands for (the definition's lower bound).
    pub implicit_count: Option<u64>,
    pub optional: bool,
    /// `internal` / `external`, in order.
    pub directives: Vec<String>,
    pub allocation: Option<&'y Yaml>,
    /// Created from the definition because the template assigns nothing of this name.
    pub implicit: bool,
}

impl<'y> Assignment<'y> {
    fn new(name: String, span: Span) -> Self {
        Assignment {
            name,
            span,
            node: None,
            target_index: None,
            capability: None,
            capability_at: None,
            relationship: None,
            node_filter: None,
            node_filter_at: None,
            min: None,
            count: None,
            implicit_count: None,
            optional: false,
            directives: Vec::new(),
            allocation: None,
            implicit: false,
        }
    }

    /// An implicit assignment (TOSCA 2.0, §8.5.4 Requirement Count): the definition's `capability`,
    /// `node`, `relationship` and `node_filter` apply through the definition itself, and its count
    /// is the definition's lower bound.
    pub fn implicit(name: &str, min: u64, at: Span) -> Self {
        let mut a = Assignment::new(name.to_string(), at);
        a.implicit = true;
        a.implicit_count = Some(min);
        a
    }
}

/// The keynames of an assignment's long form, in either dialect (each front end checks which
/// of them its version has).
const KEYNAMES: &[&str] = &[
    "node",
    "capability",
    "relationship",
    "node_filter",
    "occurrences",
    "count",
    "description",
    "metadata",
    "directives",
    "optional",
    "allocation",
    "allocations",
];

/// Reads one list item: a single-entry map `name: target` or `name: {node, capability, ...}`;
/// TOSCA 2.0 also writes `name: [template, index]`.
pub fn read<'y>(
    item: &'y Yaml,
    dialect: Dialect,
    diags: &mut Diagnostics,
) -> Option<Assignment<'y>> {
    let single = item.as_map().and_then(|m| match m.entries() {
        [entry] => Some(entry),
        _ => None,
    });
    let Some(entry) = single else {
        diags.push(
            Diagnostic::error(codes::TOSCA_SHAPE, match item.as_map() {
                Some(map) => format!("a requirement assignment must be a map with one entry, found {} entries", map.len()),
                None => format!("a requirement assignment must be a map with one entry, found {}", item.describe()),
            })
                .at(item.span)
                .hint("write `- <requirement name>: <node template>` or `- <requirement name>: {node: ..., capability: ...}`; a second key usually means wrong indentation"),
        );
        return None;
    };
    let name = entry.key.scalar_text()?.to_string();
    let mut a = Assignment::new(name, entry.key.span);
    if let Some(target) = entry.value.as_str() {
        a.node = Some((target.to_string(), entry.value.span));
        return Some(a);
    }
    if dialect == Dialect::Tosca2 && entry.value.as_seq().is_some() {
        // The short form of a tuple (§14.3.4 Matched Pairs: `- uses: [ right, $node_index ]`).
        node(&mut a, &entry.value, dialect, diags);
        return Some(a);
    }
    let map: &Map = entry.value.as_map()?;
    crate::model::shape::check_keys(map, KEYNAMES, &format!("requirement `{}`", a.name), diags);
    if let Some(n) = map.get("node") {
        node(&mut a, n, dialect, diags);
    }
    a.capability = map
        .get("capability")
        .and_then(|c| c.scalar_text())
        .map(str::to_string);
    a.capability_at = map.get("capability").map(|c| c.span);
    a.relationship = map.get("relationship");
    a.node_filter = map.get("node_filter");
    a.node_filter_at = map.entry("node_filter").map(|e| e.key.span);
    a.min = map.get("occurrences").and_then(bounds).map(|b| b.min);
    a.count = map.get("count");
    a.optional = map
        .get("optional")
        .and_then(|o| o.as_scalar())
        .is_some_and(|s| s.core == crate::yaml::Core::Bool(true));
    a.directives = map
        .get("directives")
        .and_then(Yaml::as_seq)
        .unwrap_or(&[])
        .iter()
        .filter_map(Yaml::as_str)
        .map(str::to_string)
        .collect();
    a.allocation = map.get("allocation");
    if let Some(alias) = map.entry("allocations") {
        let (message, hint) = match a.allocation {
            Some(_) => (
                "`allocations` is ignored: this assignment also has `allocation`",
                "remove `allocations`",
            ),
            None => (
                "`allocations` is read as `allocation`, the keyname of §8.5.1 Supported Keynames (the spec's §14 examples write `allocations`)",
                "write `allocation`",
            ),
        };
        diags.push(
            Diagnostic::warning(codes::TOSCA_UNKNOWN_KEY, message)
                .at(alias.key.span)
                .hint(hint),
        );
        a.allocation = a.allocation.or(Some(&alias.value));
    }
    Some(a)
}

/// `node:` as a name, or (TOSCA 2.0) `[template, index]` with an index that is a
/// non-negative integer or an expression (§8.5.1 Supported Keynames).
fn node<'y>(a: &mut Assignment<'y>, node: &'y Yaml, dialect: Dialect, diags: &mut Diagnostics) {
    if let Some(name) = node.scalar_text() {
        a.node = Some((name.to_string(), node.span));
        return;
    }
    // A non-negative integer, or a call: `$node_index`, `$relationship_index` and expressions
    // over them (§10.1 Function Syntax: `$$x` is the literal text `$x`, a map of another key no
    // call).
    let index_ok = |i: &Yaml| match i.as_scalar().map(|s| s.core) {
        Some(crate::yaml::Core::Int(n)) => n >= 0,
        _ => call::call_in(dialect, i).is_some(),
    };
    match node.as_seq() {
        Some([template, index]) if template.as_str().is_some() && index_ok(index) => {
            a.node = template.as_str().map(|t| (t.to_string(), template.span));
            a.target_index = Some(index);
        }
        Some([template, index]) if template.as_str().is_some() => diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!(
                    "the index in `node` of requirement `{}` must be a non-negative integer or a function call, found {}",
                    a.name,
                    match index.as_str() {
                        Some(text) => format!("the string `{text}`"),
                        None => index.describe().to_string(),
                    }
                ),
            )
            .at(index.span)
            .hint("write a non-negative integer or an expression such as $node_index; a leading `$$` is a literal `$`, and a map is a call only with one `$` key (§8.5.1 Supported Keynames, §10.1 Function Syntax)"),
        ),
        _ => diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!(
                    "`node` of requirement `{}` must be a node template or node type name, or [template, index], found {}",
                    a.name,
                    node.describe()
                ),
            )
            .at(node.span)
            .hint("write `node: <template>`, `node: <node type>`, or `node: [<template>, <index>]` with a non-negative integer index or an expression such as $node_index (§8.5.1 Supported Keynames)"),
        ),
    }
}

/// What the requirement definitions on the source node's type chain say. TOSCA 2.0 reads a
/// type name in the namespaces of the file it is written in, and a refinement may be written
/// in another file than what it inherits: each name keeps its file.
#[derive(Default)]
pub struct Definition<'m> {
    pub relationship: Option<String>,
    pub capability: Option<String>,
    pub node: Option<String>,
    /// Where `relationship`, `capability` and `node` are written.
    pub relationship_at: Option<Span>,
    pub capability_at: Option<Span>,
    pub node_at: Option<Span>,
    /// Where the most specific definition is written.
    pub at: Option<Span>,
    /// The lower bound: of `occurrences` in the Simple Profile (1 when it gives none,
    /// SP-REQD-04), of `count_range` in TOSCA 2.0 (0 when it gives none, §8.4 Requirement
    /// Definition).
    pub min: u64,
    /// TOSCA 2.0 `count_range` (`[0, UNBOUNDED]` when none is written).
    pub bounds: Option<Bounds>,
    /// Where `count_range` is written, if it is.
    pub bounds_at: Option<Span>,
    /// TOSCA 2.0 `node_filter`s of every layer, most specific first: all must hold.
    pub filters: Vec<&'m Yaml>,
}

impl Definition<'_> {
    /// The file the (most specific) definition is written in (any, when there is none and so
    /// no name to read).
    pub fn file(&self) -> FileId {
        self.at.map(|s| s.file).unwrap_or_default()
    }

    /// The files its names are read in: `relationship`, `capability`, `node`.
    pub fn relationship_in(&self) -> FileId {
        self.relationship_at.map_or(self.file(), |s| s.file)
    }

    pub fn capability_in(&self) -> FileId {
        self.capability_at.map_or(self.file(), |s| s.file)
    }

    pub fn node_in(&self) -> FileId {
        self.node_at.map_or(self.file(), |s| s.file)
    }
}

/// The definition of `requirement` for a node of type chain `types`, merged along the chain.
pub fn definition<'m>(model: &'m Model, types: &[String], requirement: &str) -> Definition<'m> {
    let defs = definitions(model, TypeKind::Node, types);
    let layers: Vec<&Yaml> = defs
        .iter()
        .filter_map(|d| {
            let list = d.def.as_map()?.get("requirements")?.as_seq()?;
            list.iter()
                .filter_map(Yaml::as_map)
                .find_map(|m| m.get(requirement))
        })
        .collect();
    let tosca2 = model.dialect == Dialect::Tosca2;
    let mut out = Definition {
        min: if tosca2 { 0 } else { 1 },
        ..Definition::default()
    };
    // The Simple Profile reads the most specific definition whole; TOSCA 2.0 refines keyname
    // by keyname.
    let layers: &[&Yaml] = match (tosca2, layers.first()) {
        (false, Some(_)) => &layers[..1],
        _ => &layers,
    };
    out.at = layers.first().map(|l| l.span);
    for found in layers {
        // Short form `name: CapabilityType`, or `{capability, relationship: Type | {type}}`.
        let map = found.as_map();
        if out.relationship.is_none() {
            let written = map
                .and_then(|m| m.get("relationship"))
                .and_then(|r| match r.as_str() {
                    Some(_) => Some(r),
                    None => r.as_map()?.get("type"),
                });
            out.relationship = written.and_then(Yaml::as_str).map(str::to_string);
            out.relationship_at = written.map(|w| w.span);
        }
        if out.capability.is_none() {
            let written = match found.as_str() {
                Some(_) => Some(*found),
                None => map.and_then(|m| m.get("capability")),
            };
            out.capability = written.and_then(Yaml::as_str).map(str::to_string);
            out.capability_at = written.map(|w| w.span);
        }
        if out.node.is_none() {
            let written = map.and_then(|m| m.get("node"));
            out.node = written.and_then(Yaml::as_str).map(str::to_string);
            out.node_at = written.map(|w| w.span);
        }
        let Some(map) = map else { continue };
        if tosca2 {
            if out.bounds.is_none()
                && let Some(range) = map.get("count_range")
            {
                out.bounds = bounds(range);
                out.bounds_at = Some(range.span);
            }
            if let Some(filter) = map.get("node_filter") {
                out.filters.push(filter);
            }
        } else if let Some(b) = map.get("occurrences").and_then(bounds) {
            out.min = b.min;
        }
    }
    if tosca2 {
        out.bounds = Some(out.bounds.unwrap_or(Bounds { min: 0, max: None }));
        out.min = out.bounds.map_or(0, |b| b.min);
    }
    out
}

/// [`definition`] merged once per node type and requirement name: every template of a type
/// reads the same definitions.
#[derive(Default)]
pub struct DefinitionCache<'m> {
    /// Node type (the chain's first) → requirement name → its merged definition. Nested, so a
    /// lookup (once per relationship) borrows both names instead of building a key.
    merged: FastMap<String, FastMap<String, Rc<Definition<'m>>>>,
    names: FastMap<String, Rc<Vec<&'m str>>>,
    complete: FastMap<String, bool>,
}

impl<'m> DefinitionCache<'m> {
    /// Whether every type of the node's chain is known (not taken on trust), so that what it
    /// defines can be judged.
    pub fn complete(&mut self, model: &'m Model, node: &Node) -> bool {
        let key = node.types.first().unwrap_or(&node.type_name);
        if let Some(&known) = self.complete.get(key.as_str()) {
            return known;
        }
        let defs = definitions(model, TypeKind::Node, &node.types);
        let complete = !defs.is_empty() && super::nodes::defs_complete(model, &defs);
        self.complete.insert(key.clone(), complete);
        complete
    }

    /// The requirement names a node's type chain defines.
    pub fn names(&mut self, model: &'m Model, node: &Node) -> Rc<Vec<&'m str>> {
        let key = node.types.first().unwrap_or(&node.type_name);
        if let Some(known) = self.names.get(key.as_str()) {
            return Rc::clone(known);
        }
        let defs = definitions(model, TypeKind::Node, &node.types);
        let names = Rc::new(
            super::occurrences::requirement_definitions(&defs)
                .into_keys()
                .collect(),
        );
        self.names.insert(key.clone(), Rc::clone(&names));
        names
    }

    pub fn get(&mut self, model: &'m Model, node: &Node, requirement: &str) -> Rc<Definition<'m>> {
        let key = node.types.first().unwrap_or(&node.type_name);
        if let Some(known) = self
            .merged
            .get(key.as_str())
            .and_then(|m| m.get(requirement))
        {
            return Rc::clone(known);
        }
        let made = Rc::new(definition(model, &node.types, requirement));
        self.merged
            .entry(key.clone())
            .or_default()
            .insert(requirement.to_string(), Rc::clone(&made));
        made
    }
}
