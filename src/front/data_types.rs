//! What a data type definition must write to define anything: a parent, or properties. Both
//! the Simple Profile and TOSCA 2.0 say it in the same words: "A valid datatype definition MUST
//! have either a valid derived_from declaration or at least one valid property definition", and
//! "If a properties keyname is provided, it SHALL contain one or more valid property
//! definitions" (A.6.5.3 Additional Requirements of A.6.5 Data Type, SP-DT-02, SP-DT-04; §9.2 Data
//! Type, T2-DATATYPE-02, T2-DATATYPE-03). A type with neither is no type at all: its values
//! could only be empty maps.
//!
//! An empty `properties` keyname is an error. A type with neither a parent nor properties is a
//! warning, not an error: the Simple Profile's own normative root (`tosca.datatypes.Root`,
//! `description` only) is written that way, and real Kubernetes profiles (Puccini's, the OASIS
//! community's) declare opaque types such as `RawExtension` or `FieldsV1` so; refusing them
//! would refuse those profiles and every template that imports them. The embedded normative
//! profiles are not judged at all, nor a `tosca.datatypes.Root` anywhere (copies of the Simple
//! Profile, and the root the TOSCA 1.0 XML converter writes): the one type with no parent.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::{Core, Map, Node};

/// Checks every entry of one file's `data_types`.
pub fn check(root: &Map, tosca2: bool, diags: &mut Diagnostics) {
    let Some(types) = root.get("data_types").and_then(Node::as_map) else {
        return;
    };
    let rule = if tosca2 {
        "§9.2 Data Type"
    } else {
        "A.6.5.3 Additional Requirements of A.6.5 Data Type"
    };
    for entry in types.entries() {
        let Some(def) = entry.value.as_map() else {
            continue;
        };
        let name = entry.key.scalar_text().unwrap_or_default();
        let properties = def.entry("properties");
        let empty = properties.map(|p| match &p.value.as_map() {
            Some(map) => map.is_empty(),
            None => p.value.as_scalar().is_some_and(|s| s.core == Core::Null),
        });
        if empty == Some(true) {
            let key = properties.map_or(entry.key.span, |p| p.key.span);
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("data type `{name}` has a `properties` keyname with no property definition"),
                )
                .at(key)
                .hint(format!("define at least one property under `properties`, or remove the keyname ({rule}: if it is provided it must contain one or more property definitions)")),
            );
        } else if properties.is_none()
            && !def.contains_key("derived_from")
            && name != "tosca.datatypes.Root"
        {
            diags.push(
                Diagnostic::warning(
                    codes::TOSCA_MISSING_KEY,
                    format!("data type `{name}` has neither `derived_from` nor any property"),
                )
                .at(entry.key.span)
                .hint(format!("derive it from a type (`derived_from: {}`) or define its `properties` ({rule}: a data type needs one or the other)", if tosca2 { "string" } else { "tosca.datatypes.Root" })),
            );
        }
    }
}
