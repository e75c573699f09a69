//! The paths from `SELF` in a TOSCA 2.0 `substitution_filter`. The filter is "the condition
//! clause [that] must evaluate to True" for a node that needs to be substituted (§15.1
//! Substitution Mapping), so `SELF` there is that node, a node of the mapping's `node_type`,
//! and a path from it ends "within the current node via the <empty> resolution" or "within the
//! capability with symbolic name <capability_name>" (§10.3 TOSCA Path). A `$get_property` of a
//! property the type does not define (or a `$get_attribute` of a name that is neither an
//! attribute nor a property, every property being an attribute too, §9.5 Attribute
//! Definition) could never be true of any node this template substitutes: the filter would
//! reject them all. Judged here, once, against the type; no other pass reads the filter unless
//! a node is substituted.
//!
//! Only what the type itself decides is judged: the first step after `SELF` (a property or
//! attribute name, or `CAPABILITY` and a capability name). Paths through relationships lead to
//! nodes that only the substituting deployment knows, and stay unjudged.

use super::calls::path::KEYWORDS;
use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::substitution::SubstitutionMappings;
use crate::model::{Model, TypeDef, TypeKind, call};
use crate::yaml::{Map, Node};

/// Checks the `SELF` paths of `mappings`' `substitution_filter` against its `node_type`.
pub fn check(
    model: &Model,
    ancestry: &mut Ancestry,
    mappings: &SubstitutionMappings,
    diags: &mut Diagnostics,
) {
    let (Some(type_node), Some(filter)) = (
        mappings.node_type.as_ref(),
        mappings.substitution_filter.as_ref(),
    ) else {
        return;
    };
    let Some(type_name) = type_node.as_str() else {
        return;
    };
    let Some(id) = ancestry.full_name(model, TypeKind::Node, type_name, type_node.span.file) else {
        return;
    };
    let chain = ancestry.chain(model, TypeKind::Node, &id);
    let defs = definitions(model, TypeKind::Node, &chain);
    if !super::nodes::defs_complete(model, &defs) {
        return;
    }
    let node_type = Substituted {
        name: type_name,
        defs,
    };
    walk(filter, &node_type, diags);
}

/// The node type a substitution filter's `SELF` is a node of.
struct Substituted<'m> {
    name: &'m str,
    defs: Vec<&'m TypeDef>,
}

impl Substituted<'_> {
    /// Whether a type of the chain defines `name` in `section`.
    fn defines(&self, section: &str, name: &str) -> bool {
        self.defs.iter().any(|d| {
            d.def
                .as_map()
                .and_then(|m| m.get(section)?.as_map())
                .is_some_and(|m| m.contains_key(name))
        })
    }

    /// The names the chain defines in `sections`, sorted, for the hint.
    fn names(&self, sections: &[&str]) -> String {
        let mut names: Vec<&str> = self
            .defs
            .iter()
            .filter_map(|d| d.def.as_map())
            .flat_map(|m| sections.iter().filter_map(|s| m.get(s)?.as_map()))
            .flat_map(Map::names)
            .collect();
        names.sort_unstable();
        names.dedup();
        match names.is_empty() {
            true => "it defines none".to_string(),
            false => format!("it defines {}", names.join(", ")),
        }
    }
}

/// Every call in `node`, its arguments included.
fn walk(node: &Node, node_type: &Substituted, diags: &mut Diagnostics) {
    if let Some(written) = call::call(node)
        && let Some(args) = written.args.and_then(Node::as_seq)
        && matches!(written.name, "get_property" | "get_attribute")
        && args.first().and_then(Node::as_str) == Some("SELF")
    {
        judge(written.name, &args[1..], node_type, diags);
    }
    if let Some(items) = node.as_seq() {
        for item in items {
            walk(item, node_type, diags);
        }
    }
    if let Some(map) = node.as_map() {
        for entry in map.entries() {
            walk(&entry.value, node_type, diags);
        }
    }
}

/// The first step of a path after `SELF`: a property (or attribute) of the node, or
/// `CAPABILITY` and one of its capabilities.
fn judge(function: &str, steps: &[Node], node_type: &Substituted, diags: &mut Diagnostics) {
    let Some(first) = steps.first() else { return };
    let Some(name) = first.as_str() else { return };
    let (section, sections, what): (&str, &[&str], &str) = match name {
        "CAPABILITY" => match steps.get(1) {
            Some(capability) if capability.as_str().is_some() => {
                let capability_name = capability.as_str().unwrap_or_default();
                if !node_type.defines("capabilities", capability_name) {
                    diags.push(unknown(
                        function,
                        capability,
                        node_type,
                        "capability",
                        &["capabilities"],
                    ));
                }
                return;
            }
            _ => return,
        },
        _ if KEYWORDS.contains(&name) => return,
        _ if function == "get_property" => ("properties", &["properties"], "property"),
        _ => (
            "attributes",
            &["attributes", "properties"],
            "attribute or property",
        ),
    };
    let known = node_type.defines(section, name)
        || (section == "attributes" && node_type.defines("properties", name));
    if !known {
        diags.push(unknown(function, first, node_type, what, sections));
    }
}

fn unknown(
    function: &str,
    at: &Node,
    node_type: &Substituted,
    what: &str,
    sections: &[&str],
) -> Diagnostic {
    let name = at.as_str().unwrap_or_default();
    Diagnostic::error(
        codes::TOSCA_FUNCTION,
        format!(
            "`${function}` in `substitution_filter`: the node type `{}` this template substitutes has no {what} `{name}`",
            node_type.name
        ),
    )
    .at(at.span)
    .hint(format!(
        "`SELF` in a substitution filter is the node to be substituted, a `{}` (§15.1 Substitution Mapping, §10.3 TOSCA Path); {}",
        node_type.name,
        node_type.names(sections)
    ))
}
