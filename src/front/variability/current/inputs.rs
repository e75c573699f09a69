//! Variability input values (§ Retrieve Variability Inputs Assignments): the presets in the
//! order given, then the values given directly; and the constraints among boolean inputs that
//! § Variability Input defines (`requires`, `excludes`, `mandatory`, `alternatives`).

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::front::variability::eval::Value;
use crate::source::Span;
use crate::yaml::Node;

use super::values::Values;

/// Names given as a string or a list of strings.
fn names(node: Option<&Node>) -> Vec<&str> {
    match node {
        Some(n) => match n.as_seq() {
            Some(list) => list.iter().filter_map(Node::as_str).collect(),
            None => n.as_str().into_iter().collect(),
        },
        None => Vec::new(),
    }
}

/// The values of `presets` (in order) overridden by `given`, keeping only declared inputs.
pub fn assigned(
    presets_node: Option<&Node>,
    presets: &[String],
    given: &crate::front::variability::Given<'_>,
    declared: &[&str],
    anchor: Span,
    diags: &mut Diagnostics,
) -> (IndexMap<String, (Value, Span)>, Vec<String>) {
    let mut values = IndexMap::new();
    let mut add = |name: &str, node: &Node, diags: &mut Diagnostics| match Value::from_node(node) {
        Some(v) => {
            values.insert(name.to_string(), (v, node.span));
        }
        None => diags.push(crate::model::shape::wrong_shape(
            node,
            format!("the value of variability input `{name}`"),
            "a boolean, a number, a string or a list of these",
        )),
    };
    for name in presets {
        let preset = presets_node
            .and_then(Node::as_map)
            .and_then(|m| m.get(name));
        match preset {
            Some(p) => {
                for e in p
                    .as_map()
                    .and_then(|m| m.get("inputs"))
                    .and_then(Node::as_map)
                    .map(|m| m.entries())
                    .unwrap_or_default()
                {
                    if let Some(k) = e.key.scalar_text() {
                        add(k, &e.value, diags);
                    }
                }
            }
            None => {
                let known: Vec<&str> = presets_node
                    .and_then(Node::as_map)
                    .map(|m| m.names().collect())
                    .unwrap_or_default();
                let otherwise = if known.is_empty() {
                    "this template defines no presets".to_string()
                } else {
                    format!("presets: {}", known.join(", "))
                };
                diags.push(
                    Diagnostic::error(
                        codes::VAR_UNKNOWN,
                        format!("Did not find variability set \"{name}\""),
                    )
                    .at_with(
                        presets_node.map_or(anchor, |n| n.span),
                        "the presets are here",
                    )
                    .did_you_mean(name, &known, Some(otherwise)),
                );
            }
        }
    }
    let mut consumed = Vec::new();
    for (name, node, span) in given {
        if declared.contains(name) {
            let key = Node {
                span: span.unwrap_or(node.span),
                ..(*node).clone()
            };
            add(name, &key, diags);
            consumed.push(name.to_string());
        }
    }
    (values, consumed)
}

/// Checks the constraints among boolean variability inputs; a violation is reported once,
/// with the reference resolver's text, at the first input whose constraint fails.
pub fn validate(values: &mut Values<'_>, diags: &mut Diagnostics) {
    let definitions: Vec<(&str, &Node)> =
        values.definitions.iter().map(|(k, v)| (*k, *v)).collect();
    let constrained = definitions.iter().any(|(_, d)| {
        d.as_map().is_some_and(|m| {
            [
                "requires",
                "excludes",
                "mandatory",
                "alternatives",
                "optional",
                "choices",
            ]
            .iter()
            .any(|k| m.contains_key(k))
        })
    });
    if !constrained {
        return;
    }
    let truth = |name: &str, values: &mut Values<'_>| -> Option<bool> {
        match values.input(name, Span::default()) {
            Ok(Value::Bool(b)) => Some(b),
            _ => None,
        }
    };
    for (name, def) in &definitions {
        let Some(map) = def.as_map() else { continue };
        let on = truth(name, values);
        let mut violated = false;
        let children: Vec<&str> = ["mandatory", "optional", "alternatives", "choices"]
            .iter()
            .flat_map(|k| names(map.get(k)))
            .collect();
        if on == Some(false) && children.iter().any(|c| truth(c, values) == Some(true)) {
            violated = true;
        }
        if on == Some(true) {
            violated |= names(map.get("requires"))
                .iter()
                .any(|r| truth(r, values) != Some(true));
            violated |= names(map.get("excludes"))
                .iter()
                .any(|r| truth(r, values) == Some(true));
            violated |= names(map.get("mandatory"))
                .iter()
                .any(|r| truth(r, values) != Some(true));
            let alternatives = names(map.get("alternatives"));
            if !alternatives.is_empty() {
                let chosen = alternatives
                    .iter()
                    .filter(|a| truth(a, values) == Some(true))
                    .count();
                violated |= chosen != 1;
            }
        }
        if violated {
            diags.push(
                Diagnostic::error(codes::VAR_INCONSISTENT, "Variability inputs constraints are violated")
                    .at(def.span)
                    .hint(format!(
                        "the values of the variability inputs break the `requires`, `excludes`, `mandatory` or `alternatives` of \"{name}\""
                    )),
            );
            return;
        }
    }
}
