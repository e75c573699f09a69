//! The YAML shape each Simple Profile 1.x keyname's value must have, checked as the keyname walk
//! meets it (checklist SP-ERR-32: "wrong YAML shape: list where map expected, map where list
//! expected, a scalar where a map is expected").
//!
//! The keyname tables of the spec give each keyname a type: a property definition's `type` is a
//! `string` and its `required` a `boolean` (A.5.7.2 Keynames), a capability type's
//! `valid_source_types` a `string[]` (A.6.1.2), a node type's `properties` a list of property
//! definitions written as a map (A.6.8.1), and so on. A value of another shape means nothing
//! the grammar defines: `type: [string]` names no type, `required: maybe` is neither true nor
//! false, and `properties: [a, b]` defines no property. Until this check such values were
//! skipped by the readers that take only what they understand, so the definition vanished
//! without a word (mutants of tosca-parser's and the spec's valid files, issue #25).
//!
//! What is checked:
//! - a keyname whose value the table types ([`expected`]): a string, a boolean, a list of
//!   strings, a list, a map, an integer;
//! - a section of named definitions (`properties`, `node_types`, `inputs`, ...) is a map;
//! - each named definition with no short form is a map: parameter definitions, types,
//!   templates, capability and interface assignments. Definitions with a short form
//!   (capability and requirement definitions, operations, artifacts, requirement and
//!   relationship assignments) may be scalars, never lists. A property or attribute definition
//!   written `<name>: <value>` refines an inherited one, which only the resolver can tell
//!   (`resolve::simple_new_definitions`).
//!
//! A null value (`properties:` with nothing under it) is left to the readers, which warn that
//! it is empty. Where a reader already reports a wrong shape (a node template's `properties`,
//! a `node_templates` that is a list), the table says nothing, so that a fact is reported once.

use super::table::{E, Sub};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::{Core, Node, yaml11_bool_word};

/// What a keyname's value must be.
#[derive(Clone, Copy)]
enum Shape {
    /// A scalar that is not null: a name, a path, a description (a number reads as its text).
    Text,
    /// A boolean; YAML 1.1 spellings (`yes`, `off`) are read as booleans, with a warning of
    /// their own elsewhere (`resolve::required_keyname`).
    Bool,
    /// A list of scalars (type names, template names, file extensions).
    Texts,
    /// A map.
    Map,
    /// An integer.
    Int,
    /// A scalar or a map, not a list (a schema definition: a type name or its long form).
    NotList,
}

impl Shape {
    fn fits(self, node: &Node) -> bool {
        let scalar = |n: &Node| n.as_scalar().is_some_and(|s| s.core != Core::Null);
        match self {
            Shape::Text => scalar(node),
            Shape::Bool => node.as_scalar().is_some_and(|s| {
                matches!(s.core, Core::Bool(_))
                    || yaml11_bool_word(&s.text).is_some()
                    || s.text.eq_ignore_ascii_case("true")
                    || s.text.eq_ignore_ascii_case("false")
            }),
            Shape::Texts => node.as_seq().is_some_and(|items| items.iter().all(scalar)),
            Shape::Map => node.as_map().is_some(),
            Shape::Int => node
                .as_scalar()
                .is_some_and(|s| matches!(s.core, Core::Int(_))),
            Shape::NotList => node.as_seq().is_none(),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Shape::Text => "a string",
            Shape::Bool => "a boolean (`true` or `false`)",
            Shape::Texts => "a list of strings",
            Shape::Map => "a map",
            Shape::Int => "an integer",
            Shape::NotList => "a type name or a schema definition (a map)",
        }
    }
}

/// The shape the value of keyname `key` of entity `e` must have, where the grammar types it
/// and no reader already reports it.
fn expected(e: E, key: &str) -> Option<Shape> {
    use Shape::*;
    Some(match key {
        "type" | "derived_from" | "version" | "description" => Text,
        "required" => Bool,
        "metadata" => Map,
        "valid_source_types" | "valid_target_types" | "members" | "targets" | "file_ext"
        | "dependencies" => Texts,
        "mime_type"
        | "file"
        | "repository"
        | "deploy_path"
        | "primary"
        | "artifact_version"
        | "checksum"
        | "checksum_algorithm"
        | "operation_host"
        | "copy"
        | "namespace"
        | "tosca_default_namespace" => Text,
        "implementation" if e == E::ArtifactDef => Text,
        "capability" | "node" if e == E::RequirementDef => Text,
        "entry_schema" | "key_schema" => NotList,
        "timeout" => Int,
        "properties" | "attributes"
            if matches!(
                e,
                E::RelationshipDef
                    | E::RelationshipAssignment
                    | E::RelationshipTemplate
                    | E::CapabilityAssignment
                    | E::Group
                    | E::Policy
                    | E::ArtifactDef
            ) =>
        {
            Map
        }
        "inputs" if e == E::InterfaceAssignment => Map,
        "outputs" | "triggers" | "workflows" | "substitution_filter" => Map,
        _ => return None,
    })
}

/// Reports the value of keyname `key` of `e` when its shape is not the one the grammar gives.
pub(super) fn keyname(
    e: E,
    key: &str,
    value: &Node,
    what: &dyn std::fmt::Display,
    diags: &mut Diagnostics,
) {
    let Some(shape) = expected(e, key) else {
        return;
    };
    if value.is_null() || shape.fits(value) {
        return;
    }
    diags.push(wrong(value, &format!("`{key}` of {what}"), shape.noun()));
}

/// Reports a section of named definitions (`sub`) that is not a map (a list of single-entry
/// maps, for the sections written as one).
pub(super) fn section(
    sub: Sub,
    value: &Node,
    what: &dyn std::fmt::Display,
    diags: &mut Diagnostics,
) {
    let fits = match sub {
        Sub::Defs(_) => value.as_map().is_some(),
        Sub::ListDefs(_) => value.as_seq().is_some() || value.as_map().is_some(),
        Sub::Leaf | Sub::One(_) => true,
    };
    if !fits && !value.is_null() {
        let expected = match sub {
            Sub::ListDefs(_) => "a list of single-entry maps `- <name>: <definition>`",
            _ => "a map of names to definitions",
        };
        diags.push(wrong(value, &what.to_string(), expected));
    }
}

/// Reports a named definition of `e` that is not a map where `e` has no short form.
pub(super) fn definition(
    e: E,
    value: &Node,
    what: &dyn std::fmt::Display,
    diags: &mut Diagnostics,
) {
    // A property or attribute written `<name>: <value>` refines an inherited one, which only
    // the resolver knows of (`resolve::simple_new_definitions`).
    if value.is_null()
        || value.as_map().is_some()
        || matches!(e, E::Input | E::Property | E::Attribute)
    {
        return;
    }
    if !short_form(e) {
        diags.push(wrong(value, &what.to_string(), "a map of its keynames"));
    }
}

/// Whether entity `e` has a short form, a scalar written in place of its map.
fn short_form(e: E) -> bool {
    matches!(
        e,
        E::CapabilityDef
            | E::RequirementDef
            | E::RelationshipDef
            | E::Operation
            | E::OperationAssignment
            | E::ArtifactDef
            | E::RequirementAssignment
            | E::RelationshipAssignment
            | E::Import
            | E::Schema
    )
}

/// Reports one entity with a short form (an operation, an implementation, a relationship)
/// written as a list: neither its map nor the scalar that stands for it.
pub(super) fn short_form_entity(
    e: E,
    value: &Node,
    what: &dyn std::fmt::Display,
    diags: &mut Diagnostics,
) {
    let listed = matches!(
        e,
        E::CapabilityDef
            | E::RequirementDef
            | E::ArtifactDef
            | E::RelationshipDef
            | E::RelationshipAssignment
            | E::Operation
            | E::OperationAssignment
            | E::Implementation
    );
    // ETSI NFV SOL001 descriptors write `instantiate: []` for an operation left to the VNFM
    // (tosca-parser's `csar_multiple_deployment_flavour.zip`); an empty list says nothing.
    if listed && value.as_seq().is_some_and(|items| !items.is_empty()) {
        diags.push(wrong(
            value,
            &what.to_string(),
            "a map of its keynames, or its short form (a string)",
        ));
    }
}

fn wrong(value: &Node, what: &str, expected: &str) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_SHAPE,
        format!("{what} must be {expected}, found {}", value.describe()),
    )
    .at_with(value.span, format!("expected {expected}"))
    .hint("the keyname tables of the Simple Profile (A.5 and A.6: each keyname's type) give the shape; a value of another shape is not read")
}
