//! How a property definition is seen through the refinements along a type chain: each
//! refinement's map is a layer over what it inherits, and a one-line refinement
//! `<name>: <value>` gives the property its value.

use indexmap::IndexMap;

use super::Definition;
use crate::model::TypeDef;

/// The definitions of `section` (`properties`, `attributes`) along a type chain (most specific
/// first), by name in the order the most general type lists them.
pub fn definitions_of<'m>(
    defs: &[&'m TypeDef],
    section: &str,
) -> IndexMap<&'m str, Definition<'m>> {
    let mut out: IndexMap<&'m str, Definition<'m>> = IndexMap::new();
    for def in defs.iter().rev() {
        let Some(map) = def
            .def
            .as_map()
            .and_then(|m| m.get(section))
            .and_then(|section| section.as_map())
        else {
            continue;
        };
        for entry in map.entries() {
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            match entry.value.as_map() {
                Some(body) => {
                    let def = out.entry(name).or_default();
                    if body.contains_key("default") || body.contains_key("value") {
                        def.one_line = None;
                    }
                    def.layers.insert(0, body);
                }
                // The one-line refinement of an inherited definition gives the property its
                // value: TOSCA 2.0 fixes it ("equivalent to `value: <property_value>`", §9.4
                // Property Definition); toscana reads the same form in a 1.x type as the
                // type's default, the only per-type value 1.x has. A name nothing defines
                // stays unknown (reported where refinements are checked).
                None => {
                    if let Some(def) = out.get_mut(name) {
                        def.one_line = Some(&entry.value);
                    }
                }
            }
        }
    }
    out
}
