//! A TOSCA 2.0 list or map without an `entry_schema` (T2-DATATYPE-06, T2-SCHEMA-03, T2-ERR-09).
//!
//! The spec makes the entry schema mandatory wherever a collection is typed:
//!
//! - a data type: "For data types that derive from the TOSCA list or map data types, the
//!   mandatory schema definition for the entries in properties of this data type" (§9.2 Data
//!   Type);
//! - a schema: "When the schema itself is of type list or map, the schema definition is
//!   mandatory" (§9.3 Schema Definition);
//! - a property, attribute or parameter definition: "If the property type is a collection type,
//!   entry_schema is mandatory" (§9.4 Property Definition; §9.6 Attribute Definition says the
//!   same; a parameter definition "has all the keynames of a TOSCA property definition", §9.8).
//!
//! What counts as missing:
//!
//! - a definition or schema whose `type` is the built-in `list` or `map` itself and that writes
//!   no `entry_schema`. A definition typed by a data type derived from `list` or `map` takes the
//!   data type's entry schema; a data type without one is reported where it is defined, once;
//! - a property or attribute definition of a type is judged merged with the one it refines: a
//!   derived type that writes `type: list` again inherits the parent's `entry_schema` ("if
//!   defined in the property definition in the parent entity type it may be refined", §9.4), so
//!   only a definition that writes `type` and has no entry schema in any layer is reported;
//! - a data type that derives from `list` or `map` itself and writes no `entry_schema`; one that
//!   derives from a user type inherits that type's (T2-DATATYPE-06's DECIDE).
//!
//! TOSCA 2.0 has no type for entries of any kind: a list of mixed entries is written with a
//! data type that describes them, or as a `map` of a complex type.
//!
//! Severity: a data type without its entry schema is an error. A definition or schema without
//! one is, for now, a warning: toscana's own XML-to-2.0 conversion (`toscana convert --to
//! tosca_2_0`) writes an XSD element of anonymous complex content as a bare `map` (the XML
//! reader does not yet make a data type of its child elements, `front::xml::props`), and its
//! output must read. When it does, this becomes the error the spec's words make it, and the two
//! OASIS files that the suite calls valid and that omit it (`function-definitions/s115.yaml`,
//! whose entry_schema lines are commented out, and `schema-definition/schema-defintion-short.yaml`)
//! become rows of `tests/conformance/DISAGREEMENTS.md` quoting §9.4.
//!
//! The Simple Profile's `entry_schema` is "The optional key that is used to declare the name of
//! the Datatype definition for entries of set types such as the TOSCA list or map" (A.5.7.2
//! Keynames): a 1.x list or map without one is not reported (the key is optional, and real 1.x
//! files leave it out), and one on a type that is no list or map is a warning (SP-PROP-07): it
//! declares entries such a value does not have, and the spec's own PortSpec writes one on
//! `type: integer` (C.2.5.2), which toscana's embedded profile corrects.
//!
//! The judgement of one definition reads its YAML, and so lives with the other schema rules in
//! [`super::tosca2_types`]; this module holds the rule's reasons and the refinement-aware hook
//! for the definitions types write.

use super::tosca2_types::missing_entry_schema;
use super::typing::{Typing, is_built_in};
use super::written_definitions::Written;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::TypeKind;

/// Whether `name` is a Simple Profile built-in value type that is no collection (3.2 TOSCA
/// built-in types, A.2 Primitive types, A.3 Special types): the one table of built-in types
/// ([`is_built_in`]) less `list` and `map`.
fn is_scalar_built_in(name: &str) -> bool {
    is_built_in(name, Dialect::SimpleProfile)
        && !matches!(name.strip_prefix("tosca:").unwrap_or(name), "list" | "map")
}

/// A property or attribute definition a type writes ([`super::written_definitions`]), judged
/// with what it inherits.
pub fn written(typing: &mut Typing, written: &Written, diags: &mut Diagnostics) {
    match typing.model.dialect {
        Dialect::Tosca2 => missing_in_2_0(written, diags),
        Dialect::SimpleProfile | Dialect::Variability => misplaced_in_1_x(typing, written, diags),
        Dialect::Xml => {}
    }
}

fn missing_in_2_0(written: &Written, diags: &mut Diagnostics) {
    let Some(type_node) = written.body.get("type") else {
        // A refinement that keeps the inherited type was judged where that type was written.
        return;
    };
    if written.merged.get("entry_schema").is_some() {
        return;
    }
    let subject = format!("{} `{}`", noun(written), written.name);
    diags.extend(missing_entry_schema(&subject, type_node, written.body));
}

/// A 1.x `entry_schema` written on a definition whose type (its own or inherited) is no list or
/// map: a warning (see the module docs).
fn misplaced_in_1_x(typing: &mut Typing, written: &Written, diags: &mut Diagnostics) {
    let Some(entry) = written.body.entry("entry_schema") else {
        return;
    };
    let Some(type_node) = written.merged.get("type") else {
        return;
    };
    let Some(type_name) = type_node.as_str() else {
        return;
    };
    if !is_scalar_1_x(typing, type_name, type_node.span.file) {
        return;
    }
    diags.push(
        Diagnostic::warning(
            codes::TOSCA_SHAPE,
            format!(
                "`entry_schema` on {} `{}` of type `{type_name}`, which is no list or map",
                noun(written),
                written.name
            ),
        )
        .at_with(entry.key.span, "only lists and maps have entries")
        .hint("remove `entry_schema`, or make the type `list` or `map`: it names \"the Datatype definition for entries of set types such as the TOSCA list or map\" (A.5.7.2 Keynames), and a value of this type has none, so it is ignored"),
    );
}

/// Whether 1.x type `name` (written in `file`) is a built-in scalar type or a data type derived
/// from one; `false` for a collection, a complex data type and a name that is no type (reported
/// elsewhere).
fn is_scalar_1_x(typing: &mut Typing, name: &str, file: crate::source::FileId) -> bool {
    if is_scalar_built_in(name) {
        return true;
    }
    let model = typing.model;
    let Some(id) = typing.ancestry.full_name(model, TypeKind::Data, name, file) else {
        return false;
    };
    let chain = typing.ancestry.chain(model, TypeKind::Data, &id);
    chain.last().is_some_and(|base| is_scalar_built_in(base))
}

fn noun(written: &Written) -> &'static str {
    match written.section {
        "attributes" => "attribute",
        _ => "property",
    }
}
