//! Does every element use only the Variability4TOSCA keynames its kind defines, each with a
//! value of its type? The current text gives each element kind its own table (§ Node
//! Template, § Technology Template, § Type Assignment, § Requirement Assignment, § Property
//! Assignment, § Group Template, § Policy Template, § Artifact Template, § Topology Template
//! Input, § Topology Template Output, § Import Definition): `anchor` belongs to node templates
//! only, `default_condition_mode` is not a keyname of groups, policies or imports, and so on.
//!
//! The resolved template drops every such keyname (they mean nothing to TOSCA 1.3), so one
//! written where its kind does not define it, or with a value that is not of its type, would
//! vanish without effect: `pruning: "no"` on a node would leave pruning as the options say.
//! Both are errors here, at the keyname or the value.
//!
//! A type assignment is Variability4TOSCA's own construct, so every keyname of it is checked;
//! the other elements are TOSCA elements whose TOSCA keynames pass through untouched.
//! Technology templates are Variability4TOSCA's too, but templates in use also give them the
//! keynames of a technology rule (`artifact`, `hosting`, § Technology Rules), which the table
//! does not list: only the table's keynames are checked there.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::{Core, Node};

use super::model::{Kind, Model};
use crate::front::variability::language::CURRENT_KEYNAMES;

/// The keynames of the switches every conditional element shares (§ Node Template and the
/// other element tables).
const SWITCHES: &[&str] = &[
    "default_condition",
    "default_consistency_condition",
    "default_semantic_condition",
    "pruning",
    "consistency_pruning",
    "semantic_pruning",
];

/// The Variability4TOSCA keynames of an element kind, besides [`SWITCHES`] where
/// [`has_switches`] says so, and the section that defines them.
fn own_keynames(kind: Kind) -> (&'static [&'static str], &'static str) {
    match kind {
        Kind::Node => (
            &[
                "conditions",
                "default_condition_mode",
                "anchor",
                // The keyname `anchor` had before (the reference resolver still reads it).
                "persistent",
                "weight",
                "implies",
                "technology",
                "managed",
                "implied",
            ],
            "§ Node Template",
        ),
        Kind::Technology => (
            &[
                "conditions",
                "default_alternative",
                "default_condition_mode",
                "weight",
                "assign",
            ],
            "§ Technology Template",
        ),
        Kind::Type => (
            &["conditions", "default_alternative", "implies"],
            "§ Type Assignment",
        ),
        Kind::Relation => (
            &[
                "conditions",
                "default_alternative",
                "default_condition_mode",
                "implies",
                "implied",
            ],
            "§ Requirement Assignment",
        ),
        Kind::Property => (
            &[
                "value",
                "expression",
                "conditions",
                "default_alternative",
                "default_condition_mode",
                "implies",
            ],
            "§ Property Assignment",
        ),
        Kind::Group => (&["conditions", "implies"], "§ Group Template"),
        Kind::Policy => (&["conditions", "implies"], "§ Policy Template"),
        Kind::Artifact => (
            &[
                "conditions",
                "default_alternative",
                "default_condition_mode",
                "implies",
            ],
            "§ Artifact Template",
        ),
        Kind::Input => (
            &[
                "conditions",
                "implies",
                "default_alternative",
                "default_condition_mode",
            ],
            "§ Topology Template Input",
        ),
        Kind::Output => (
            &[
                "conditions",
                "implies",
                "default_alternative",
                "default_condition_mode",
            ],
            "§ Topology Template Output",
        ),
        Kind::Import => (&["conditions", "implies"], "§ Import Definition"),
    }
}

/// Whether the kind's table has the default-condition switches; groups have only the pruning
/// ones (§ Group Template) and imports none (§ Import Definition).
fn switches(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Import => &[],
        Kind::Group => &["pruning", "consistency_pruning", "semantic_pruning"],
        _ => SWITCHES,
    }
}

/// The article-and-noun of an element kind in messages.
fn noun(kind: Kind) -> &'static str {
    match kind {
        Kind::Node => "a node template",
        Kind::Technology => "a technology template",
        Kind::Type => "a type assignment",
        Kind::Relation => "a requirement assignment",
        Kind::Property => "a property assignment",
        Kind::Group => "a group template",
        Kind::Policy => "a policy template",
        Kind::Artifact => "an artifact template",
        Kind::Input => "a topology template input",
        Kind::Output => "a topology template output",
        Kind::Import => "an import definition",
    }
}

/// Checks the Variability4TOSCA keynames of every element of `model`, and the list forms of
/// their collections.
pub fn check(model: &Model<'_>, diags: &mut Diagnostics) {
    for e in &model.elements {
        let Some(map) = e.def.and_then(Node::as_map) else {
            continue;
        };
        single_entries(map, diags);
        let (own, section) = own_keynames(e.kind);
        let known: Vec<&str> = own.iter().chain(switches(e.kind)).copied().collect();
        let whole = e.kind == Kind::Type;
        for entry in map.entries() {
            let Some(key) = entry.key.scalar_text() else {
                continue;
            };
            let variability = key == "conditions" || CURRENT_KEYNAMES.contains(&key);
            if !known.contains(&key) {
                if whole || variability {
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_UNKNOWN_KEY,
                            format!("`{key}` is not a keyname of {} ({section})", noun(e.kind)),
                        )
                        .at_with(entry.key.span, "not a keyname here")
                        .hint(format!(
                            "{} takes {}",
                            noun(e.kind),
                            known
                                .iter()
                                .map(|k| format!("`{k}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    );
                }
                continue;
            }
            if let Some(expected) = wrong_value(e.kind, key, &entry.value) {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        format!(
                            "`{key}` of {} must be {expected} ({section}), found {}",
                            noun(e.kind),
                            entry.value.describe()
                        ),
                    )
                    .at_with(entry.value.span, format!("expected {expected}")),
                );
            }
        }
    }
}

/// What `value` of `key` should have been, when it is not of the type the table gives.
fn wrong_value(kind: Kind, key: &str, value: &Node) -> Option<&'static str> {
    let core = value.as_scalar().map(|s| s.core);
    let boolean = matches!(core, Some(Core::Bool(_)));
    match key {
        "weight" => {
            let fits = boolean
                || matches!(core, Some(Core::Int(i)) if i >= 0)
                || matches!(core, Some(Core::Float(f)) if f >= 0.0);
            (!fits).then_some("a boolean or a non-negative number")
        }
        "implied" if kind == Kind::Relation => {
            let fits = boolean || matches!(value.as_str(), Some("SOURCE" | "TARGET" | "CONTAINER"));
            (!fits).then_some("a boolean, SOURCE, TARGET or CONTAINER")
        }
        "implies" => {
            let fits = value.as_seq().is_some_and(|l| {
                l.iter()
                    .all(|i| i.as_seq().is_some_and(|p| matches!(p.len(), 1 | 2)))
            });
            (!fits).then_some("a list of `[target]` or `[target, condition]` pairs")
        }
        "default_condition_mode" | "assign" => (value.as_str().is_none()).then_some("a string"),
        "conditions" | "value" | "expression" | "technology" => None,
        _ => (!boolean).then_some("a boolean"),
    }
}

/// § Node Template (and the other tables): `properties`, `artifacts`, a conditional `type` and
/// `technology` may be lists, and then "each ... map must contain only one" entry. An entry
/// with two or none would be skipped when the list is read, so it is reported.
fn single_entries(map: &crate::yaml::Map, diags: &mut Diagnostics) {
    for key in ["properties", "artifacts", "type", "technology"] {
        let Some(list) = map.get(key).and_then(Node::as_seq) else {
            continue;
        };
        for item in list {
            if item.as_map().is_some_and(|m| m.len() == 1) {
                continue;
            }
            let found = item.as_map().map_or_else(
                || item.describe().to_string(),
                |m| format!("a map of {} entries", m.len()),
            );
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "an entry of the list `{key}` must be a map of exactly one entry, found {found}"
                    ),
                )
                .at_with(item.span, "one entry per list item")
                .hint(format!(
                    "§ Node Template: in the list form of `{key}`, \"each ... map must contain only one\"; write each on its own list item"
                )),
            );
        }
    }
}
