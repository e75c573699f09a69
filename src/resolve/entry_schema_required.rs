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
//! data type that describes them, or as a `map` of a complex type. Two files of the OASIS
//! TOSCA 2.0 suite that the suite calls valid omit the entry schema; they are suite defects,
//! recorded with the spec's words in `tests/conformance/DISAGREEMENTS.md`.
//!
//! TOSCA 2.0 only: the Simple Profile's `entry_schema` is "The optional key that is used to
//! declare the name of the Datatype definition for entries of set types such as the TOSCA list
//! or map" (A.5.7.2 Keynames).
//!
//! The judgement of one definition reads its YAML, and so lives with the other schema rules in
//! [`super::tosca2_types`]; this module holds the rule's reasons and the refinement-aware hook
//! for the definitions types write.

use super::tosca2_types::missing_entry_schema;
use super::written_definitions::Written;
use crate::diag::Diagnostics;
use crate::ir::Dialect;

/// A property or attribute definition a type writes ([`super::written_definitions`]), judged
/// with what it inherits: TOSCA 2.0 only (see the module docs for 1.x).
pub fn written(dialect: Dialect, written: &Written, diags: &mut Diagnostics) {
    if dialect != Dialect::Tosca2 {
        return;
    }
    let Some(type_node) = written.body.get("type") else {
        // A refinement that keeps the inherited type was judged where that type was written.
        return;
    };
    if written.merged.get("entry_schema").is_some() {
        return;
    }
    let noun = match written.section {
        "attributes" => "attribute",
        _ => "property",
    };
    let subject = format!("{noun} `{}`", written.name);
    diags.extend(missing_entry_schema(&subject, type_node, written.body));
}
