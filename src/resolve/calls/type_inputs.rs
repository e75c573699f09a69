//! The calls a node or relationship type writes in its interface definitions' inputs (the
//! interface's own `inputs` and each operation's and notification's, §8.3 Interface Definition,
//! §11.4 Operation Definition), judged once for the type whether or not a template uses it.
//!
//! A type's input is a parameter definition whose `value` (or `default`) may call functions
//! (§9.8 Parameter Definition), and "within the context of Node or relationship type
//! definitions, these functions may only reference properties and attributes accessible
//! starting from "SELF"" (§11.4, "The following additional requirements apply"). What such a
//! call reads is therefore known from the type: `SELF` is any node (or relationship) of the
//! type ([`Scope::Candidate`], [`Scope::Open`] with the type chain), so a property or attribute
//! the type chain does not define, a wrong argument count, or a malformed call is an error at
//! the call, as it is in a template. A type in a profile is checked before anything uses it.
//!
//! What is not judged here: a `$get_input`'s name. A type does not know the service template
//! that will use it (§10.2.1.1 $get_input reads "the service template's" inputs); where a
//! template of the type is checked, its own service template's inputs judge the name. That a path
//! starts at `SELF` is [`crate::resolve::operation_context`]'s rule.
//!
//! Each fact is reported once: a template of the type evaluates the same YAML with the template
//! for `SELF`, and says so more precisely (it names the template), so what it reported at a
//! place is kept and the type's judgement of that place is dropped
//! ([`Diagnostics::extend_at_new_places`]).

use super::eval::Evaluator;
use super::path::{OpenRelationship, Scope};
use crate::diag::Diagnostics;
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};
use crate::resolve::interface_parameters::{interfaces_of, of_interface};
use crate::resolve::values::ValueReader;
use crate::yaml::Node as Yaml;

/// The kinds of type whose interface inputs may read `SELF`.
const KINDS: [TypeKind; 2] = [TypeKind::Node, TypeKind::Relationship];

/// Whether any node or relationship type of `model` writes an interface input (so the pass
/// has work).
pub fn any(model: &Model) -> bool {
    model.dialect == Dialect::Tosca2 && types(model).any(|(_, _, def)| inputs(def).next().is_some())
}

/// The node and relationship types of `model`: kind, name, definition.
fn types(model: &Model) -> impl Iterator<Item = (TypeKind, &str, &Yaml)> {
    model
        .types
        .iter()
        .filter(|((kind, _), _)| KINDS.contains(kind))
        .map(|((kind, id), def)| (*kind, id.as_str(), &def.def))
}

/// The value each input of each interface definition of a type's definition gives: a
/// definition's `value` or `default`, or (a refinement's single-line form) the value itself.
fn inputs(def: &Yaml) -> impl Iterator<Item = &Yaml> {
    let map = def.as_map();
    let kind = TypeKind::Node; // node, relationship and group types write `interfaces` alike
    map.into_iter()
        .flat_map(move |m| interfaces_of(kind, m))
        .flat_map(|interface| of_interface(interface, Dialect::Tosca2))
        .filter(|parameters| parameters.section == "inputs")
        .flat_map(|parameters| parameters.map.entries())
        .filter_map(|entry| match entry.value.as_map() {
            Some(m) if super::syntax::call(&entry.value).is_none() => {
                m.get("value").or_else(|| m.get("default"))
            }
            _ => Some(&entry.value),
        })
}

/// Judges every call of every node and relationship type's interface inputs, with `SELF` any
/// entity of the type; keeps only what no earlier judgement reported at the same place.
pub fn check(model: &Model, evaluator: &mut Evaluator<'_, '_, '_, '_>, diags: &mut Diagnostics) {
    // `get_input` stays a call whose name is not judged (see the module docs).
    let reader = ValueReader {
        dialect: Dialect::Tosca2,
        inputs: None,
        budget: None,
    };
    let mut found = Diagnostics::new();
    for (kind, id, def) in types(model) {
        let chain = evaluator.type_chain(kind, id);
        let scope = match kind {
            TypeKind::Node => Scope::Candidate(chain),
            _ => Scope::Open(Box::new(OpenRelationship {
                types: chain,
                ..OpenRelationship::default()
            })),
        };
        for value in inputs(def) {
            let value = reader.value(value, &mut found);
            if value.has_call() {
                evaluator.evaluate(&value, &scope, &mut found);
            }
        }
    }
    diags.extend_at_new_places(found.finish());
}
