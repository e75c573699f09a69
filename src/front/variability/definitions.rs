//! Are the variability inputs and presets of a variability definition well formed? Both
//! revisions read them the same way: a variability input is a TOSCA input parameter
//! definition, with the keynames § Variability Input adds in the current text, and a preset is
//! `name`, `description` and a required map of `inputs` (§ Variability Preset).
//!
//! Nothing else reads these definitions: they are not part of the resolved template, so
//! `toscana check` never sees them. A mistake in them would otherwise go unnoticed: an input of
//! type `boolean` whose `default` is `"yes"` (a string, never equal to `true`), a preset that
//! sets an input no template declares (its value is dropped), an input that `requires` an
//! input that does not exist (the constraint can never hold).

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::shape::{check_keys, wrong_shape};
use crate::yaml::{Core, Node};

/// The keynames of a TOSCA input parameter definition (Simple Profile 1.3 §3.6.14 Parameter
/// definition, with those of §3.6.10 Property definition it includes: the first
/// [`PARAMETER_KEYS`]), then those § Variability Input of the current text adds
/// ([`CURRENT_INPUT_KEYNAMES`], the rest).
const INPUT_KEYS: &[&str] = &[
    "type",
    "description",
    "value",
    "required",
    "default",
    "status",
    "constraints",
    "key_schema",
    "entry_schema",
    "external-schema",
    "metadata",
    "default_expression",
    "mandatory",
    "optional",
    "choices",
    "alternatives",
    "requires",
    "excludes",
];

/// How many of [`INPUT_KEYS`] a TOSCA input parameter definition has.
const PARAMETER_KEYS: usize = 11;

/// The keynames of variability inputs only the current text defines (§ Variability Input),
/// which the release candidate's inputs do not have.
pub(super) const CURRENT_INPUT_KEYNAMES: &[&str] = INPUT_KEYS.split_at(PARAMETER_KEYS).1;

/// The keynames of § Variability Input that name other variability inputs.
const INPUT_REFERENCES: &[&str] = &[
    "mandatory",
    "optional",
    "choices",
    "alternatives",
    "requires",
    "excludes",
];

/// The primitive types of Simple Profile 1.3 §3.3 (and the collections of §3.3.4, §3.3.5).
const PRIMITIVE_TYPES: &[&str] = &[
    "string",
    "integer",
    "float",
    "boolean",
    "timestamp",
    "null",
    "version",
    "range",
    "list",
    "map",
    "scalar-unit.size",
    "scalar-unit.time",
    "scalar-unit.frequency",
    "scalar-unit.bitrate",
];

/// Checks `variability.inputs` and `variability.presets` of `root`'s variability definition.
pub fn check(root: &Node, variability: &Node, diags: &mut Diagnostics) {
    let Some(map) = variability.as_map() else {
        return;
    };
    let inputs = map.get("inputs").and_then(Node::as_map);
    let declared: Vec<&str> = inputs.map(|m| m.names().collect()).unwrap_or_default();
    let types = KnownTypes::of(root);
    for e in inputs.map(|m| m.entries()).unwrap_or_default() {
        let name = e.key.scalar_text().unwrap_or_default();
        input(name, &e.value, &declared, &types, diags);
    }
    let presets = map.get("presets").and_then(Node::as_map);
    for e in presets.map(|m| m.entries()).unwrap_or_default() {
        preset(&e.key, &e.value, inputs, diags);
    }
}

/// The data types a variability input may name: the primitive ones, the normative
/// `tosca.datatypes.*`, and the template's own; with imports, any (they are read later).
struct KnownTypes<'a> {
    own: Vec<&'a str>,
    imports: bool,
}

impl<'a> KnownTypes<'a> {
    fn of(root: &'a Node) -> Self {
        let map = root.as_map();
        KnownTypes {
            own: map
                .and_then(|m| m.get("data_types"))
                .and_then(Node::as_map)
                .map(|m| m.names().collect())
                .unwrap_or_default(),
            imports: map.is_some_and(|m| m.contains_key("imports")),
        }
    }

    fn knows(&self, name: &str) -> bool {
        self.imports
            || PRIMITIVE_TYPES.contains(&name)
            || name.starts_with("tosca.datatypes.")
            || self.own.contains(&name)
    }
}

fn input(
    name: &str,
    def: &Node,
    declared: &[&str],
    types: &KnownTypes<'_>,
    diags: &mut Diagnostics,
) {
    let Some(map) = def.as_map() else {
        diags.push(wrong_shape(
            def,
            format!("variability input `{name}`"),
            "an input parameter definition (a map with `type`, `default`, ...; § Variability Input)",
        ));
        return;
    };
    check_keys(
        map,
        INPUT_KEYS,
        "a variability input (§ Variability Input)",
        diags,
    );
    let type_name = map.get("type").and_then(Node::scalar_text);
    if let Some(t) = map.get("type")
        && let Some(text) = type_name
        && !types.knows(text)
    {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_TYPE,
                format!("variability input `{name}` has the unknown data type `{text}`"),
            )
            .at_with(t.span, "not a data type")
            .hint(format!(
                "a primitive type ({}) or a data type the template defines",
                PRIMITIVE_TYPES.join(", ")
            )),
        );
    }
    if let (Some(t), Some(default)) = (type_name, map.get("default")) {
        fits(
            t,
            default,
            &format!("the default of variability input `{name}`"),
            diags,
        );
    }
    for key in INPUT_REFERENCES {
        let Some(refs) = map.get(key) else { continue };
        let names: Vec<&Node> = match refs.as_seq() {
            Some(list) => list.iter().collect(),
            None => vec![refs],
        };
        for r in names {
            match r.as_str() {
                Some(other) if declared.contains(&other) => {}
                Some(other) => diags.push(
                    Diagnostic::error(
                        codes::VAR_UNKNOWN,
                        format!(
                            "`{key}` of variability input `{name}` names `{other}`, which is not a variability input"
                        ),
                    )
                    .at_with(r.span, "not declared")
                    .did_you_mean(other, declared, Some(format!("variability inputs: {}", declared.join(", ")))),
                ),
                None => diags.push(wrong_shape(
                    r,
                    format!("`{key}` of variability input `{name}`"),
                    "the name of a variability input, or a list of them (§ Variability Input)",
                )),
            }
        }
    }
}

fn preset(key: &Node, def: &Node, inputs: Option<&crate::yaml::Map>, diags: &mut Diagnostics) {
    let name = key.scalar_text().unwrap_or_default();
    let Some(map) = def.as_map() else {
        diags.push(wrong_shape(
            def,
            format!("variability preset `{name}`"),
            "a map with `name`, `description` and `inputs` (§ Variability Preset)",
        ));
        return;
    };
    check_keys(
        map,
        &["name", "description", "inputs"],
        "a variability preset (§ Variability Preset)",
        diags,
    );
    let Some(values) = map.get("inputs") else {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_MISSING_KEY,
                format!("variability preset `{name}` has no `inputs`"),
            )
            .at_with(key.span, "no `inputs`")
            .hint("§ Variability Preset: `inputs`, the map of the values the preset assigns, is required"),
        );
        return;
    };
    let Some(values) = values.as_map() else {
        diags.push(wrong_shape(
            values,
            format!("`inputs` of variability preset `{name}`"),
            "a map of variability input names to values (§ Variability Preset)",
        ));
        return;
    };
    let declared: Vec<&str> = inputs.map(|m| m.names().collect()).unwrap_or_default();
    for e in values.entries() {
        let input = e.key.scalar_text().unwrap_or_default();
        let Some(def) = inputs.and_then(|m| m.get(input)) else {
            let otherwise = if declared.is_empty() {
                "the template declares no variability inputs: declare it under `variability.inputs`"
                    .to_string()
            } else {
                format!("variability inputs: {}", declared.join(", "))
            };
            diags.push(
                Diagnostic::error(
                    codes::VAR_UNKNOWN,
                    format!(
                        "variability preset `{name}` assigns `{input}`, which is not a variability input"
                    ),
                )
                .at_with(e.key.span, "not declared")
                .did_you_mean(input, &declared, Some(otherwise)),
            );
            continue;
        };
        if let Some(t) = def
            .as_map()
            .and_then(|m| m.get("type"))
            .and_then(Node::scalar_text)
        {
            fits(
                t,
                &e.value,
                &format!("the value preset `{name}` assigns to variability input `{input}`"),
                diags,
            );
        }
    }
}

/// Reports `value` when it is not of the primitive type `type_name` (§3.3 of Simple Profile
/// 1.3: YAML's booleans, integers, floats and strings). Other types are not judged here.
fn fits(type_name: &str, value: &Node, what: &str, diags: &mut Diagnostics) {
    let core = value.as_scalar().map(|s| s.core);
    let ok = match type_name {
        "boolean" => matches!(core, Some(Core::Bool(_))),
        "integer" => matches!(core, Some(Core::Int(_))),
        "float" => matches!(core, Some(Core::Int(_) | Core::Float(_))),
        "string" => matches!(core, Some(Core::Str)),
        _ => true,
    };
    if !ok {
        diags.push(wrong_shape(
            value,
            what,
            &format!("a value of its type `{type_name}`"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::CURRENT_INPUT_KEYNAMES;

    #[test]
    fn the_current_keynames_are_the_seven_variability_input_adds() {
        assert_eq!(
            CURRENT_INPUT_KEYNAMES,
            [
                "default_expression",
                "mandatory",
                "optional",
                "choices",
                "alternatives",
                "requires",
                "excludes"
            ]
        );
    }
}
