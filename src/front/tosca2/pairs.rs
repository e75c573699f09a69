//! TOSCA 2.0 grammar rules between the keynames of one entity, and between the entries of one
//! list: a keyname that needs another, two that exclude each other, and names that must be
//! unique in a list (a map's keys are unique already; YAML reports a key written twice).

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;
use crate::yaml::Map;

use super::table::{D, Flow};

/// The rules between the keynames of one definition of kind `d`, described as `what`.
pub(super) fn check(d: D, map: &Map, what: &str, diags: &mut Diagnostics) {
    match d {
        // "checksum_algorithm ... Shall be specified if checksum is specified for an artifact"
        // (§12.2 Artifact Definition).
        D::ArtifactDef => {
            if let Some(checksum) = map.entry("checksum")
                && !map.contains_key("checksum_algorithm")
            {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("{what} has a `checksum` but no `checksum_algorithm`"),
                    )
                    .at_with(checksum.key.span, "a checksum of an unknown algorithm")
                    .hint("add `checksum_algorithm:` (such as SHA-256): it \"shall be specified if checksum is specified\" (§12.2 Artifact Definition)"),
                );
            }
        }
        // `value`: "Mutually exclusive with the mapping keyname" (§9.8 Parameter Definition).
        D::Parameter(flow) => {
            if let (Some(value), Some(mapping)) = (map.entry("value"), map.entry("mapping")) {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        format!("{what} has both a `value` and a `mapping`"),
                    )
                    .at_with(mapping.key.span, "a mapping stores what the operation returns")
                    .label(value.key.span, "a value is what the operation is given")
                    .hint("keep `value` for a parameter given to an operation or template, `mapping` for one it returns; they are mutually exclusive (§9.8 Parameter Definition)"),
                );
            } else {
                direction(flow, map, what, diags);
            }
        }
        _ => {}
    }
}

/// A parameter's `value` is for an outgoing one, its `mapping` for an incoming one: `value` "May
/// only be defined for outgoing parameters", `mapping` "May only be defined for incoming
/// parameters" (§9.8 Parameter Definition, which lists the parameters of each direction). A
/// warning, not an error: the same section's grammar notes weaken the table's words to "the value
/// keyname is relevant only for *outgoing* parameter definitions and SHOULD NOT be defined in
/// *incoming* parameter definitions" (and the same of `mapping`), and a SHOULD NOT does not make a
/// file invalid (T2-PARAM-03 reads it so).
fn direction(flow: Flow, map: &Map, what: &str, diags: &mut Diagnostics) {
    let (key, wrong, hint) = match flow {
        Flow::In => (
            "value",
            "an incoming parameter (a template input, an operation or notification output)",
            "its value comes from outside: give a `default` instead, or move the value to where the parameter is assigned",
        ),
        Flow::Out => (
            "mapping",
            "an outgoing parameter (a template output, an operation input)",
            "a mapping stores a returned value into an attribute: give a `value` instead, or map an output of the operation",
        ),
        Flow::Either => return,
    };
    if let Some(entry) = map.entry(key) {
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_SHAPE,
                format!("{what} is {wrong}, which should not have a `{key}`"),
            )
            .at(entry.key.span)
            .hint(format!("{hint} (§9.8 Parameter Definition: `{key}` \"SHOULD NOT be defined in {} parameter definitions\")", if key == "value" { "incoming" } else { "outgoing" })),
        );
    }
}

/// The names of a list of single-entry maps of kind `d`, described as `what`, in order: a
/// requirement definition's name is unique in its node type ("Requirement names must be unique
/// within the context of a node type definition", §7.1 Node Type) and a policy's in its
/// service template ("duplicate template names within a service template SHALL be considered
/// an error", §6.9.1 Service Template Grammar). A requirement *assignment* may repeat its name
/// (§8.5 Requirement Assignment), so other lists are left alone.
pub(super) fn unique_names(d: D, names: &[(&str, Span)], what: &str, diags: &mut Diagnostics) {
    if !matches!(d, D::RequirementDef | D::Policy) {
        return;
    }
    let mut first: BTreeMap<&str, Span> = BTreeMap::new();
    for (name, span) in names {
        match first.get(name) {
            Some(earlier) => diags.push(
                Diagnostic::error(
                    codes::TOSCA_DUPLICATE,
                    format!("{what} names {} `{name}` twice", d.noun()),
                )
                .at_with(*span, "written again here")
                .label(*earlier, "first written here")
                .hint(match d {
                    D::RequirementDef => "requirement names are unique within a node type (§7.1 Node Type): rename one, or give one requirement a count_range that admits both relationships",
                    _ => "policy names are unique within a service template (§6.9.1 Service Template Grammar): rename one",
                }),
            ),
            None => {
                first.insert(name, *span);
            }
        }
    }
}
