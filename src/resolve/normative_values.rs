//! Rules the Simple Profile states in the "Additional requirements" of its normative capability
//! types, which no property definition can express, checked on a node template's finished
//! capabilities (its assignments over its types' defaults):
//!
//! - `tosca.capabilities.Scalable`: "The value for this property MUST be in the range between
//!   the values set for 'min_instances' and 'max_instances' properties" (C.3.10.1 Properties,
//!   `default_instances`), which also asks `min_instances` ≤ `max_instances`. An error.
//! - `tosca.capabilities.Endpoint` and its subtypes: "one of port or ports must be provided in a
//!   valid Endpoint" (C.3.4.4 Additional requirements). Judged only where the template assigns
//!   the capability (the normative types' own endpoints, such as Compute's `endpoint`, have
//!   neither until a template says where it listens), and a warning, as the checklist asks
//!   (SP-NORM-05: "apply it leniently"): templates that assign only `secure` or `network_name`
//!   and leave the port to the orchestrator are common, and rejecting them would refuse files
//!   every other processor reads.
//!
//! Both types keep their names and properties in TOSCA 2.0's simple profile, so the rules apply
//! there too; a type is recognised by its ancestry under any spelling of its name.

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, Subject, codes};
use crate::ir::{Capability, Shared, Value, type_matches};
use crate::source::Span;

/// Checks the capabilities of node template `node`. `at(capability, property)` is where the
/// template writes that property's value, or with no property (or one it does not write) the
/// capability, if the template assigns it; `node_span` is where the template is named.
pub(super) fn check(
    node: &str,
    capabilities: &IndexMap<String, Shared<Capability>>,
    at: impl Fn(&str, Option<&str>) -> Option<Span>,
    node_span: Span,
    diags: &mut Diagnostics,
) {
    let node_subject = Subject::new("node template", node);
    for (name, capability) in capabilities {
        let owner = Subject::new("capability", name).of(&node_subject);
        let value_at = |property: &str| at(name, Some(property)).unwrap_or(node_span);
        if type_matches(&capability.types, "tosca.capabilities.Scalable") {
            scalable(owner, &capability.properties, value_at, diags);
        }
        if let Some(assigned) = at(name, None)
            && type_matches(&capability.types, "tosca.capabilities.Endpoint")
        {
            endpoint(owner, &capability.properties, assigned, diags);
        }
    }
}

/// `min_instances` ≤ `default_instances` ≤ `max_instances`, where each is an integer.
fn scalable(
    owner: Subject,
    properties: &IndexMap<String, Value>,
    at: impl Fn(&str) -> Span,
    diags: &mut Diagnostics,
) {
    let int = |key: &str| match properties.get(key) {
        Some(Value::Integer(i)) => Some(*i),
        _ => None,
    };
    let (min, max) = (int("min_instances"), int("max_instances"));
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_CONSTRAINT,
                format!("{owner} has `min_instances` {min} above `max_instances` {max}"),
            )
            .at(at("max_instances"))
            .hint("`max_instances` is the largest number of instances and may not be below `min_instances` (C.3.10.1 Properties of tosca.capabilities.Scalable)"),
        );
        return;
    }
    let Some(default) = int("default_instances") else {
        return;
    };
    if min.is_some_and(|min| default < min) || max.is_some_and(|max| default > max) {
        let range = format!(
            "[{}, {}]",
            min.map_or("-".into(), |m| m.to_string()),
            max.map_or("-".into(), |m| m.to_string())
        );
        diags.push(
            Diagnostic::error(
                codes::TOSCA_CONSTRAINT,
                format!("{owner} has `default_instances` {default}, outside [min_instances, max_instances] = {range}"),
            )
            .at(at("default_instances"))
            .hint(format!("`default_instances` \"MUST be in the range between the values set for 'min_instances' and 'max_instances'\" (C.3.10.1 Properties of tosca.capabilities.Scalable): give a number in {range}")),
        );
    }
}

/// An assigned Endpoint with neither `port` nor `ports`.
fn endpoint(
    owner: Subject,
    properties: &IndexMap<String, Value>,
    at: Span,
    diags: &mut Diagnostics,
) {
    let set = |key: &str| properties.get(key).is_some_and(|v| *v != Value::Null);
    if set("port") || set("ports") {
        return;
    }
    diags.push(
        Diagnostic::warning(
            codes::TOSCA_MISSING_KEY,
            format!("{owner} is an Endpoint with neither `port` nor `ports`"),
        )
        .at(at)
        .hint("\"one of port or ports must be provided in a valid Endpoint\" (C.3.4.4 Additional requirements of tosca.capabilities.Endpoint): add `port: <the port it listens on>` under the capability's `properties`"),
    );
}
