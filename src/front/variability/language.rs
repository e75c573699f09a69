//! Which revision of Variability4TOSCA a template is written in, and so which resolver reads
//! it. A template is read by the release candidate's rules (the seed, `[`super::eval`]`) unless
//! it uses something only the current text defines; then the current text's rules apply
//! ([`super::current`]), as the current text wins for templates that use its features while
//! templates valid under the release candidate keep resolving exactly as before.
//!
//! What makes a template current: a definitions version of the release candidates after the
//! first (`tosca_variability_1_0_rc_2`, `_rc_3`, or `_rc_1`); a variability definition with more
//! than `inputs`, `presets` and `expressions` (`options`, `constraints`, ...); a function or
//! operator the seed does not define (`variability_input`, `node_presence`, `greater`, ...); an
//! element keyname the seed does not define (`default_alternative`, `implies`, `technology`,
//! `weight`, `anchor`, `pruning`, ...); conditional types; conditional properties outside node
//! and relationship templates; and conditions on outputs, imports or input definitions' default
//! expressions.

use crate::source::Span;
use crate::yaml::Node;

/// Why a template is read as the current language, and where.
#[derive(Debug, Clone)]
pub struct Current {
    pub reason: String,
    pub span: Span,
}

/// The functions and operators of the seed.
use super::eval::OPERATORS as SEED_FUNCTIONS;

/// Element keynames only the current text defines.
pub const CURRENT_KEYNAMES: &[&str] = &[
    "default_alternative",
    "implies",
    "implied",
    "technology",
    "weight",
    "anchor",
    "persistent",
    "managed",
    "pruning",
    "consistency_pruning",
    "semantic_pruning",
    "default_condition",
    "default_consistency_condition",
    "default_semantic_condition",
    "default_condition_mode",
];

fn found(reason: impl Into<String>, span: Span) -> Option<Current> {
    Some(Current {
        reason: reason.into(),
        span,
    })
}

/// `Some` when `root` uses the current language, with the first feature found.
pub fn current(root: &Node) -> Option<Current> {
    let map = root.as_map()?;
    if let Some(v) = map.get("tosca_definitions_version")
        && let Some(text) = v.scalar_text()
        && text.starts_with("tosca_variability_1_0_rc")
    {
        return found(format!("its definitions version is `{text}`"), v.span);
    }
    if let Some(imports) = map.get("imports").and_then(Node::as_seq) {
        for i in imports {
            if let Some(c) = i.as_map().and_then(|m| m.entry("conditions")) {
                return found("an import has conditions", c.key.span);
            }
        }
    }
    let topo = map.get("topology_template")?.as_map()?;
    if let Some(var) = topo.get("variability").and_then(Node::as_map) {
        for e in var.entries() {
            let key = e.key.scalar_text().unwrap_or_default();
            if !matches!(key, "inputs" | "presets" | "expressions") {
                return found(
                    format!("its variability definition has `{key}`"),
                    e.key.span,
                );
            }
        }
        if let Some(inputs) = var.get("inputs").and_then(Node::as_map) {
            for e in inputs.entries() {
                for key in super::definitions::CURRENT_INPUT_KEYNAMES {
                    if let Some(d) = e.value.as_map().and_then(|m| m.entry(key)) {
                        return found(format!("a variability input has `{key}`"), d.key.span);
                    }
                }
            }
        }
        if let Some(exprs) = var.get("expressions").and_then(Node::as_map) {
            for e in exprs.entries() {
                if let Some(c) = functions(&e.value) {
                    return Some(c);
                }
            }
        }
    }
    for section in ["inputs", "outputs", "node_templates", "groups", "policies"] {
        if let Some(node) = topo.get(section)
            && let Some(c) = elements(section, node)
        {
            return Some(c);
        }
    }
    if let Some(rts) = topo.get("relationship_templates").and_then(Node::as_map) {
        for e in rts.entries() {
            if let Some(c) = element(&e.value, true) {
                return Some(c);
            }
        }
    }
    None
}

/// A collection in list form where the seed has maps, or an element of it using a current
/// feature.
fn elements(section: &str, node: &Node) -> Option<Current> {
    if node.as_seq().is_some() && matches!(section, "node_templates" | "groups" | "outputs") {
        return found(format!("`{section}` is a list"), node.span);
    }
    for (_, def, _) in crate::front::variability::graph::named_items(node) {
        if section == "outputs"
            && let Some(c) = def.as_map().and_then(|m| m.entry("conditions"))
        {
            return found("an output has conditions", c.key.span);
        }
        let conditional_properties = section == "node_templates";
        if let Some(c) = element(def, conditional_properties) {
            return Some(c);
        }
        if section == "node_templates"
            && let Some(c) = node_parts(def)
        {
            return Some(c);
        }
    }
    None
}

/// An element's own keynames and conditions.
fn element(def: &Node, conditional_properties: bool) -> Option<Current> {
    let map = def.as_map()?;
    for e in map.entries() {
        let key = e.key.scalar_text().unwrap_or_default();
        if CURRENT_KEYNAMES.contains(&key) {
            return found(format!("an element uses `{key}`"), e.key.span);
        }
    }
    if let Some(t) = map.get("type").filter(|t| t.as_seq().is_some()) {
        return found("a type assignment is conditional (a list)", t.span);
    }
    if let Some(c) = map.get("conditions").and_then(functions) {
        return Some(c);
    }
    if let Some(props) = map.get("properties").and_then(Node::as_seq) {
        if !conditional_properties {
            return found(
                "conditional properties outside node and relationship templates",
                props.first().map_or(def.span, |p| p.span),
            );
        }
        for item in props {
            for (_, value, _) in crate::front::variability::graph::named_items(item) {
                if let Some(w) = value.as_map() {
                    for e in w.entries() {
                        let key = e.key.scalar_text().unwrap_or_default();
                        if CURRENT_KEYNAMES.contains(&key) || key == "expression" {
                            return found(format!("a property uses `{key}`"), e.key.span);
                        }
                    }
                    if let Some(c) = w.get("conditions").and_then(functions) {
                        return Some(c);
                    }
                }
            }
        }
    }
    None
}

/// The requirement assignments and artifacts of a node template.
fn node_parts(def: &Node) -> Option<Current> {
    let map = def.as_map()?;
    for item in map
        .get("requirements")
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        for (_, assignment, _) in crate::front::variability::graph::named_items(item) {
            if let Some(c) = element(assignment, true) {
                return Some(c);
            }
        }
    }
    if let Some(arts) = map.get("artifacts") {
        for (_, art, _) in crate::front::variability::graph::named_items(arts) {
            if let Some(c) = element(art, false) {
                return Some(c);
            }
        }
    }
    None
}

/// The first function or operator of an expression the seed does not define.
fn functions(expr: &Node) -> Option<Current> {
    if let Some(list) = expr.as_seq() {
        return list.iter().find_map(functions);
    }
    let map = expr.as_map()?;
    if map.len() != 1 {
        return None;
    }
    let e = &map.entries()[0];
    let op = e.key.scalar_text().unwrap_or_default();
    if !SEED_FUNCTIONS.contains(&op) {
        return found(format!("a condition uses `{op}`"), e.key.span);
    }
    functions(&e.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Node {
        let mut sources = crate::source::SourceMap::new();
        let id = sources.add("t.yaml", crate::source::Origin::Builtin("t".into()), text);
        crate::yaml::load(
            &sources,
            id,
            &crate::limits::Limits::default(),
            &mut crate::diag::Diagnostics::new(),
        )
        .unwrap()
    }

    #[test]
    fn seed_templates_stay_with_the_seed() {
        let t = load(
            "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    inputs: {mode: {type: string}}\n  node_templates:\n    a:\n      type: a\n      conditions: {equal: [{get_variability_input: mode}, x]}\n",
        );
        assert!(current(&t).is_none());
    }

    #[test]
    fn current_features_are_found() {
        for (text, reason) in [
            (
                "tosca_definitions_version: tosca_variability_1_0_rc_3\n",
                "definitions version",
            ),
            (
                "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    options: {node_pruning: true}\n",
                "`options`",
            ),
            (
                "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: a, conditions: {node_presence: b}}\n",
                "`node_presence`",
            ),
            (
                "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: [{a: {}}]}\n",
                "conditional",
            ),
            (
                "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a:\n      type: a\n      properties:\n        - p: {expression: {add: [1, 2]}}\n",
                "`expression`",
            ),
        ] {
            let c = current(&load(text)).unwrap_or_else(|| panic!("{text}"));
            assert!(c.reason.contains(reason), "{} / {reason}", c.reason);
        }
    }
}
