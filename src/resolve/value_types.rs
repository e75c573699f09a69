//! The types of Simple Profile value definitions name data types: a property, attribute or
//! parameter (interface and operation input and output) definition's `type`, and its `entry_schema` (and `key_schema`), written in any type, used or
//! not, and a topology's or workflow's input definition's. "The required data type for the property" (A.5.7.2 Keynames) and "The optional key that
//! is used to declare the name of the Datatype definition for entries of set types such as the
//! TOSCA list or map" (A.5.7.2, `entry_schema`) name a built-in type or a data type, never a
//! node or capability type, nor a name defined nowhere.
//!
//! TOSCA 2.0 files get the same rule from [`super::tosca2_types`]; this is its Simple Profile
//! counterpart, which runs over every type read because a profile is mostly types no template
//! uses.

use super::interface_parameters::{interfaces_of, of_interface};
use super::types::Ancestry;
use super::typing::is_built_in;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};
use crate::yaml::{Map, Node};

/// Checks the `type`, `entry_schema` and `key_schema` of every property, attribute and
/// interface parameter definition in a Simple Profile type.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.dialect == Dialect::Tosca2 || model.incomplete_types {
        return;
    }
    for def in model.types.values() {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        let sections = ["properties", "attributes"]
            .into_iter()
            .filter_map(|section| map.get(section).and_then(Node::as_map));
        let parameters = interfaces_of(def.kind, map)
            .into_iter()
            .flat_map(|interface| of_interface(interface, model.dialect))
            .map(|parameters| parameters.map);
        // A list or map data type's own schemas (the `key_schema` and `entry_schema` keynames
        // 1.3 gives a data type definition) name data types as a definition's do: "the name of
        // the Datatype definition for entries" (A.5.7.2). The type has no `type` to read.
        if def.kind == TypeKind::Data {
            definition(model, ancestry, map, diags);
        }
        for defs in sections.chain(parameters) {
            for entry in defs.entries() {
                if let Some(body) = entry.value.as_map() {
                    definition(model, ancestry, body, diags);
                }
            }
        }
    }
    // The topology's inputs are property definitions: "The inputs section provides a means to
    // define parameters using TOSCA property definitions" (A.8.1.1 inputs; checklist SP-IN-01),
    // and a workflow's inputs (1.1 and later) are parameter definitions typed the same way.
    // Outputs are left
    // alone (their `type` is optional, and their value computed: `super::output_values`).
    // TOSCA 2.0 service templates get the rule from [`super::tosca2_types`].
    let Some(template) = &model.topology else {
        return;
    };
    let workflow_inputs = template
        .workflows
        .iter()
        .filter_map(|w| w.def.as_map()?.get("inputs")?.as_map())
        .flat_map(|inputs| inputs.entries())
        .map(|entry| &entry.value);
    let inputs = template.inputs.iter().map(|named| &named.def);
    for body in inputs.chain(workflow_inputs).filter_map(Node::as_map) {
        definition(model, ancestry, body, diags);
    }
}

/// One definition or schema: its `type`, then its schemas.
pub(super) fn definition(
    model: &Model,
    ancestry: &mut Ancestry,
    body: &Map,
    diags: &mut Diagnostics,
) {
    if let Some(type_node) = body.get("type") {
        data_type(model, ancestry, type_node, diags);
    }
    for schema in ["entry_schema", "key_schema"] {
        match body.get(schema) {
            Some(node) if node.as_str().is_some() => data_type(model, ancestry, node, diags),
            Some(node) => {
                if let Some(inner) = node.as_map() {
                    untyped_schema(schema, body, inner, diags);
                    definition(model, ancestry, inner, diags);
                }
            }
            None => {}
        }
    }
}

/// A schema written as a map names its type under `type`: the schema "is used to declare the
/// name of the Datatype definition for entries" (A.5.7.2), which 1.0 writes as the name itself
/// and 1.2 and later as a schema definition whose `type` is required. Without it the entries
/// would be typed by nothing and go unchecked.
fn untyped_schema(keyname: &str, owner: &Map, schema: &Map, diags: &mut Diagnostics) {
    // A definition without its own `type` refines an inherited one, and its schemas the
    // inherited schemas, whose type they keep.
    let refinement = owner.get("type").is_none();
    let Some(entry) = owner
        .entry(keyname)
        .filter(|_| !refinement && schema.get("type").is_none())
    else {
        return;
    };
    diags.push(
        Diagnostic::error(
            codes::TOSCA_MISSING_KEY,
            format!("this `{keyname}` has no `type`: it does not say what data type its entries are"),
        )
        .at_with(entry.key.span, "a schema definition without `type`")
        .hint(format!(
            "name the entries' data type: `{keyname}: <type>` or `{keyname}: {{ type: <type>, ... }}` (A.5.7.2)"
        )),
    );
}

/// A name where a data type is expected: a built-in one, or a defined data type (reported as
/// unknown otherwise, with the kind of type it names if it names one).
fn data_type(model: &Model, ancestry: &mut Ancestry, node: &Node, diags: &mut Diagnostics) {
    let Some(name) = node.as_str() else { return };
    if is_built_in(name, model.dialect) {
        return;
    }
    ancestry.of(model, TypeKind::Data, name, node.span, diags);
}
