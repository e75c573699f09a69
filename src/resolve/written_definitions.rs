//! The one walk over the property and attribute definitions every type writes, used or not,
//! for the checks that judge a definition where it is written: its `default` and fixed `value`
//! ([`super::defaults`]) and how it refines an inherited one ([`super::refinement`]); the
//! constraint clauses written anywhere in a type, and in the topology's input definitions, are
//! judged before them ([`judge_constraints`]).
//!
//! Each definition is seen twice over through its type chain: merged with everything it
//! inherits (what a template of the type gets), and, when the type derives from another, the
//! inherited definition alone (what it refines). The chain is walked only for a type that
//! writes definitions, so a long chain of types that only derive costs nothing here, and once
//! for all the checks.

use super::constraints;
use super::types::definitions;
use super::typing::{Definition, Typing, definitions_of};
use crate::diag::Diagnostics;
use crate::ir::Dialect;
use crate::model::TypeKind;
use crate::span::Span;
use crate::yaml::{Map, Node};

/// The sections of a type that hold value definitions: a data type's fields are its
/// `properties`.
pub const SECTIONS: [&str; 2] = ["properties", "attributes"];

/// One definition a type writes.
pub struct Written<'w, 'm> {
    /// `properties` or `attributes`.
    pub section: &'static str,
    pub name: &'w str,
    /// The definition as this type writes it.
    pub body: &'m Map,
    /// The definition through the whole chain, this type's layer included.
    pub merged: &'w Definition<'m>,
    /// The definition of the same name this type inherits, if it refines one.
    pub inherited: Option<&'w Definition<'m>>,
}

/// Runs the checks of written definitions, [`super::refinement`] and [`super::defaults`], in
/// one walk; each one's findings are reported together, refinements first.
pub fn check(typing: &mut Typing, diags: &mut Diagnostics) {
    // First, so that a default meeting a mistaken clause finds it reported.
    judge_constraints(typing, diags);
    let (mut refined, mut defaulted) = (Diagnostics::new(), Diagnostics::new());
    each(typing, |typing, written| {
        super::refinement::check(typing, written, &mut refined);
        super::defaults::check(typing, written, &mut defaulted);
        super::required_keyname::check(typing.model.dialect, written, &mut defaulted);
        super::entry_schema_required::written(typing, written, &mut defaulted);
        super::validation_clause_types::refined(typing, written, &mut defaulted);
    });
    diags.extend(refined.iter().cloned());
    diags.extend(defaulted.iter().cloned());
}

/// Calls `visit` with every definition written in every type of the model, in the model's
/// type order and each type's written order.
pub fn each<'m>(
    typing: &mut Typing<'_, 'm>,
    mut visit: impl FnMut(&mut Typing<'_, 'm>, &Written<'_, 'm>),
) {
    let model = typing.model;
    for ((kind, id), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        if *kind == TypeKind::Node {
            capability_refinements(typing, map, &mut visit);
        }
        if !SECTIONS.iter().any(|s| map.get(s).is_some()) {
            continue;
        }
        let chain = typing.ancestry.chain(model, *kind, id);
        let defs = definitions(model, *kind, &chain);
        let parents = def.derived_from.as_ref().and_then(|_| defs.get(1..));
        for section in SECTIONS {
            let Some(own) = map.get(section).and_then(Node::as_map) else {
                continue;
            };
            let merged = definitions_of(&defs, section);
            let inherited = parents.map(|p| definitions_of(p, section));
            for entry in own.entries() {
                let (Some(name), Some(body)) = (entry.key.scalar_text(), entry.value.as_map())
                else {
                    continue;
                };
                let Some(merged) = merged.get(name) else {
                    continue;
                };
                let written = Written {
                    section,
                    name,
                    body,
                    merged,
                    inherited: inherited.as_ref().and_then(|i| i.get(name)),
                };
                visit(typing, &written);
            }
        }
    }
}

/// The property definitions a node type's capability definitions write: each refines the
/// capability type's definition of the same name (§8.2 Capability Definition, A.6.1 Capability
/// definition), so it is judged as a subtype's property is, against that definition. A
/// capability definition that names no `type` (a refinement of an inherited capability) is
/// left to the node type that defines it.
fn capability_refinements<'m>(
    typing: &mut Typing<'_, 'm>,
    node_type: &'m Map,
    visit: &mut impl FnMut(&mut Typing<'_, 'm>, &Written<'_, 'm>),
) {
    let model = typing.model;
    let capabilities = node_type.get("capabilities").and_then(Node::as_map);
    for entry in capabilities.map_or(&[][..], Map::entries) {
        let Some(capability) = entry.value.as_map() else {
            continue;
        };
        let (Some(type_name), Some(own)) = (
            capability.get("type").and_then(Node::scalar_text),
            capability.get("properties").and_then(Node::as_map),
        ) else {
            continue;
        };
        let chain = typing
            .ancestry
            .chain(model, TypeKind::Capability, type_name);
        let inherited = definitions_of(
            &definitions(model, TypeKind::Capability, &chain),
            "properties",
        );
        for entry in own.entries() {
            let (Some(name), Some(body)) = (entry.key.scalar_text(), entry.value.as_map()) else {
                continue;
            };
            let parent = inherited.get(name);
            let mut merged = parent.cloned().unwrap_or_default();
            merged.layers.insert(0, body);
            let written = Written {
                section: "properties",
                name,
                body,
                merged: &merged,
                inherited: parent,
            };
            visit(typing, &written);
        }
    }
}

/// Keynames whose values are values, not definitions: nothing under them is judged.
const VALUES: [&str; 5] = ["default", "value", "metadata", "description", "constraints"];

/// Simple Profile constraint clauses judged where they are written, used or not: each clause
/// of a property, attribute or parameter definition that names its `type` (in a type, an
/// `entry_schema` or `key_schema`, an interface's inputs, the topology's or a workflow's
/// inputs) and each of a data type's own `constraints` is read once, with
/// [`constraints::judge`] (a `pattern` excepted, see [`is_pattern`]): a single-key map with a
/// known operator (A.5.2 Constraint clause: a bare `- in_range [ 1, 2 ]` is no clause), whose
/// operand is a value of the constrained type ("Constraints of a property definition SHALL be
/// type-compatible with the type defined for that definition", A.5.7.5 Additional Requirements; a data type's constraints "SHALL be
/// type-compatible with the type defined by the derived_from keyname", A.6.5.3 Additional
/// Requirements). Before, a clause was read only when a value met it, so a mistaken clause in
/// a type no template used, or on a property left unset, passed.
///
/// A definition that refines an inherited one without restating its `type` is left to the
/// values that meet it (its type is the parent's). A value checked later against a clause
/// judged here reports only whether it holds ([`constraints::check`]), so each mistake is said
/// once. TOSCA 2.0 has `validation` instead, judged by [`super::tosca2_types`]; the XML front
/// end writes its clauses from XSD facets, already typed.
fn judge_constraints(typing: &mut Typing, diags: &mut Diagnostics) {
    let model = typing.model;
    if !matches!(model.dialect, Dialect::SimpleProfile | Dialect::Variability) {
        return;
    }
    for ((kind, id), def) in &model.types {
        let own = (*kind == TypeKind::Data).then_some(id.as_str());
        walk(typing, &def.def, own, diags);
    }
    if let Some(topology) = &model.topology {
        for named in topology.inputs.iter().chain(&topology.workflows) {
            walk(typing, &named.def, None, diags);
        }
    }
}

/// Judges the clauses of `node` and of the definitions nested in it; `own_type` is the data
/// type whose definition `node` is, for its own `constraints`.
fn walk(typing: &mut Typing, node: &Node, own_type: Option<&str>, diags: &mut Diagnostics) {
    if let Some(items) = node.as_seq() {
        for item in items {
            walk(typing, item, None, diags);
        }
        return;
    }
    let Some(map) = node.as_map() else {
        return;
    };
    if let Some(clauses) = map.get("constraints") {
        let type_name = match map.get("type") {
            Some(type_node) if type_node.scalar_text().is_some() => {
                Some(typing.identity(type_node))
            }
            Some(_) => None,
            None => own_type.map(str::to_string),
        };
        if let Some(type_name) = type_name {
            for clause in clauses.as_seq().unwrap_or(std::slice::from_ref(clauses)) {
                // A clause a front end made up has no place of its own to be known by.
                if clause.span != Span::default()
                    && !is_pattern(clause)
                    && typing.patterns.judge_once(clause.span)
                {
                    constraints::judge(typing, clause, &type_name, diags);
                }
            }
        }
    }
    for entry in map.entries() {
        if entry.key.as_str().is_some_and(|k| !VALUES.contains(&k)) {
            walk(typing, &entry.value, None, diags);
        }
    }
}

/// Whether a clause is a `pattern`, which is left to the values that meet it: the spec leaves
/// its regular expression dialect open (A.5.2.1 Operator keynames; SP-CON-16), so a pattern
/// that toscana's dialect cannot compile (a look-around, as Puccini's Kubernetes profile writes
/// in its `Hostname` type) may be right in its author's, and a profile must stay readable for
/// it. A value that meets such a pattern is reported then, as it cannot be checked.
fn is_pattern(clause: &Node) -> bool {
    clause.as_map().is_some_and(|m| m.contains_key("pattern"))
}
