//! Which capability is an endpoint and which artifact an image, under any spelling of their
//! types (normative identity, [`crate::ir::canonical`]).

use crate::ir::{Capability, TypeKind, canonical, type_matches};

/// True when a capability is an endpoint: typed as one or one of its normative kinds (any
/// spelling, [`canonical`]), or untyped with a port.
pub(super) fn is_endpoint(c: &Capability) -> bool {
    c.types.iter().any(|t| {
        let full = canonical(TypeKind::Capability, t);
        full == "tosca.capabilities.Endpoint" || full.starts_with("tosca.capabilities.Endpoint.")
    }) || (c.types.is_empty() && c.properties.contains_key("port"))
}

/// True when an artifact's type (or an ancestor), under any of its names ([`type_matches`]), is
/// one of `types`.
pub(super) fn is_image(a: &crate::ir::Artifact, types: &[String]) -> bool {
    let ancestry: Vec<String> = a
        .types
        .iter()
        .chain(a.type_name.as_ref())
        .cloned()
        .collect();
    types.iter().any(|w| {
        type_matches(&ancestry, w) || {
            // A name of the template's own under a profile prefix (`docker:Image`).
            ancestry
                .iter()
                .any(|t| t.rsplit_once(':').is_some_and(|(_, short)| short == w))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Value;

    fn capability(types: &[&str], port: Option<i64>) -> Capability {
        let mut properties = indexmap::IndexMap::new();
        if let Some(p) = port {
            properties.insert("port".to_string(), Value::Integer(p));
        }
        Capability {
            type_name: types.first().map(|t| t.to_string()),
            types: types.iter().map(|t| t.to_string()).collect(),
            properties,
            attributes: indexmap::IndexMap::new(),
            assigned: Vec::new(),
            location: None,
        }
    }

    #[test]
    fn endpoints_are_recognised_under_every_spelling() {
        for types in [
            &[
                "tosca.capabilities.Endpoint.Database",
                "tosca.capabilities.Endpoint",
            ][..],
            &["org.oasis-open.simple:2.0:Endpoint.Public"],
            &["Endpoint"],
        ] {
            assert!(is_endpoint(&capability(types, None)), "{types:?}");
        }
        assert!(!is_endpoint(&capability(
            &["tosca.capabilities.Node"],
            Some(80)
        )));
        // Untyped (a profile that is not available): a port makes it one.
        assert!(is_endpoint(&capability(&[], Some(80))));
        assert!(!is_endpoint(&capability(&[], None)));
    }
}
