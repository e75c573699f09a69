//! The artifact types a custom function's implementation names, in a TOSCA 2.0 file without a
//! service template (a profile). A signature's `implementation` is "the same definition as for
//! operation/notification implementation" (§10.4 Function Definitions), whose `primary` and
//! `dependencies` are artifact definitions (§11.8 Operation and Notification Implementations),
//! each `type` an artifact type (§12.2 Artifact Definition). Where there is a service template
//! the implementation is read as an operation's is, after its artifacts are known
//! ([`super::calls::table`]'s `read_implementations`), and reported there; a profile has none,
//! so its functions' artifact types are resolved here, or a profile could name a type nobody
//! defines and pass until a template imports it.

use super::types::Ancestry;
use crate::diag::Diagnostics;
use crate::model::{Model, TypeKind};
use crate::yaml::Node;

/// Resolves the `type` of every inline artifact definition in the implementations of the
/// functions of a file with no service template.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if model.topology.is_some() {
        return;
    }
    let signatures = model.functions.values().flat_map(|named| {
        super::calls::table::signature_entries(named.def.as_map().and_then(|m| m.get("signatures")))
    });
    for signature in signatures {
        let Some(implementation) = signature.as_map().and_then(|m| m.get("implementation")) else {
            continue;
        };
        let Some(map) = implementation.as_map() else {
            continue;
        };
        let dependencies = map.get("dependencies").and_then(Node::as_seq);
        let artifacts = map
            .get("primary")
            .into_iter()
            .chain(dependencies.unwrap_or_default());
        for type_node in artifacts.filter_map(|a| a.as_map()?.get("type")) {
            if let Some(name) = type_node.as_str() {
                ancestry.of(model, TypeKind::Artifact, name, type_node.span, diags);
            }
        }
    }
}
