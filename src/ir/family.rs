//! Normative identity: which normative type a type name is, whatever version or spelling the
//! file used, and type matching by ancestry through it.
//!
//! Backend rules and requirement checks name a type (`tosca.nodes.Compute`) and must match any
//! element whose type derives from it, whichever dialect it came from. One normative type has
//! many names:
//!
//! - its Simple Profile 1.1–1.3 type URI, the full name every rule is written with
//!   (`tosca.nodes.Storage.BlockStorage`);
//! - a Simple Profile 1.0 URI that 1.1 renamed (`tosca.nodes.BlockStorage`, wd05 §C.7.9);
//! - its shorthand (`BlockStorage`, Simple Profile §3.1.1 "Type name shorthand") and the
//!   shorthand's `tosca:` qualified form (`tosca:BlockStorage`);
//! - its TOSCA 2.0 simple profile name (`Storage.BlockStorage`), qualified in an ancestry by the
//!   profile (`org.oasis-open.simple:2.0:Storage.BlockStorage`).
//!
//! [`NORMATIVE`] lists each normative type once with every other name it has. It is per kind
//! (node, relationship, capability, policy, group, interface, artifact, data) because short
//! names collide across kinds: TOSCA 2.0 has a `Compute` node type and a `Compute` capability
//! type, a `Network` node and a `Network` capability, a `Root` of every kind. An element's
//! ancestry holds types of one kind only, so a pattern meets an ancestry entry in the pattern's
//! kind: see [`type_matches`].
//!
//! The table follows `checklists/normative-type-aliases.tsv` (1.0 URIs and shorthands), the
//! Simple Profile 1.3 type definitions and the TOSCA 2.0 simple profile
//! (`src/profiles/tosca2/simple_2_0.yaml`).

pub use crate::model::TypeKind;

/// True when `pattern` names one of the types in `ancestry` (most specific first), directly or
/// through another name of the same normative type.
///
/// A pattern that names a normative type (in any spelling) matches an ancestry entry that is
/// another name of that type in the same kind; every other pattern (a type of the template's
/// own, a non-normative profile type) is compared by name alone. A pattern in a spelling that
/// does not say its kind (`org.oasis-open.simple:2.0:Compute`) matches in every kind that has
/// the name; an ancestry is of one kind, so only that kind can meet it.
pub fn type_matches(ancestry: &[String], pattern: &str) -> bool {
    let wanted = identities(pattern);
    if wanted.is_empty() {
        return ancestry.iter().any(|t| t == pattern);
    }
    ancestry
        .iter()
        .any(|t| t == pattern || identities(t).iter().any(|id| wanted.contains(id)))
}

/// The full normative name (Simple Profile 1.1–1.3 URI) of the type `name` of kind `kind`, or
/// `name` itself when it is no name of a normative type of that kind.
pub fn canonical(kind: TypeKind, name: &str) -> &str {
    identities(name)
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(name, |(_, full)| full)
}

/// The kind of a normative type named by its full Simple Profile URI (`tosca.capabilities.…`),
/// or `None` for any other name.
pub fn kind_of_uri(name: &str) -> Option<TypeKind> {
    let (prefix, _) = name.strip_prefix("tosca.")?.split_once('.')?;
    Some(match prefix {
        "nodes" => TypeKind::Node,
        "relationships" => TypeKind::Relationship,
        "capabilities" => TypeKind::Capability,
        "policies" => TypeKind::Policy,
        "groups" => TypeKind::Group,
        "interfaces" => TypeKind::Interface,
        "artifacts" => TypeKind::Artifact,
        "datatypes" => TypeKind::Data,
        _ => return None,
    })
}

/// Every (kind, full name) that `name` can be: one per kind that has a normative type by that
/// name. Empty for a name of no normative type.
fn identities(name: &str) -> &'static [(TypeKind, &'static str)] {
    let map = names();
    map.get(name)
        .or_else(|| map.get(unqualified(name)))
        .map_or(&[], Vec::as_slice)
}

/// The name without its namespace prefix: `Compute` of `org.oasis-open.simple:2.0:Compute` and
/// of `tosca:Compute`. A Simple Profile URI (`tosca.nodes.Compute`) has none.
fn unqualified(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, n)| n)
}

type Names = crate::hash::FastMap<&'static str, Vec<(TypeKind, &'static str)>>;

/// [`NORMATIVE`] as a map from every name (full and other) to what it is, built on first use.
/// Every node's ancestry is matched against rules and requirement definitions many times per
/// template: one hash lookup per ancestry entry, not a scan of the table.
fn names() -> &'static Names {
    static MAP: std::sync::OnceLock<Names> = std::sync::OnceLock::new();
    MAP.get_or_init(|| {
        let mut map = Names::default();
        let mut add = |name: &'static str, id: (TypeKind, &'static str)| {
            let ids = map.entry(name).or_default();
            if !ids.contains(&id) {
                ids.push(id);
            }
        };
        for (kind, full, others) in NORMATIVE {
            add(full, (*kind, full));
            for other in *others {
                add(other, (*kind, full));
            }
        }
        map
    })
}

use TypeKind::{Artifact, Capability, Data, Group, Interface, Node, Policy, Relationship};

/// Each normative type: its kind, its full Simple Profile 1.1–1.3 name, and its other names
/// (1.0 URIs, shorthands, TOSCA 2.0 simple profile names; a `tosca:` or 2.0 profile qualifier is
/// stripped before lookup, so the table holds the bare forms).
const NORMATIVE: &[(TypeKind, &str, &[&str])] = &[
    // Node types (Simple Profile 1.3 §5.9, 2.0 simple profile `node_types`).
    (Node, "tosca.nodes.Root", &["Root"]),
    (Node, "tosca.nodes.Abstract.Compute", &["Abstract.Compute"]),
    (Node, "tosca.nodes.Compute", &["Compute"]),
    (
        Node,
        "tosca.nodes.SoftwareComponent",
        &["SoftwareComponent"],
    ),
    (Node, "tosca.nodes.WebServer", &["WebServer"]),
    (Node, "tosca.nodes.WebApplication", &["WebApplication"]),
    (Node, "tosca.nodes.DBMS", &["DBMS"]),
    (Node, "tosca.nodes.Database", &["Database"]),
    (Node, "tosca.nodes.Abstract.Storage", &["Abstract.Storage"]),
    // Simple Profile 1.0 spells the storage types without `Storage.` (wd05 §C.7.8
    // tosca.nodes.ObjectStorage, §C.7.9 tosca.nodes.BlockStorage), and every storage template
    // found in the wild uses that spelling.
    (
        Node,
        "tosca.nodes.Storage.ObjectStorage",
        &[
            "tosca.nodes.ObjectStorage",
            "ObjectStorage",
            "Storage.ObjectStorage",
        ],
    ),
    (
        Node,
        "tosca.nodes.Storage.BlockStorage",
        &[
            "tosca.nodes.BlockStorage",
            "BlockStorage",
            "Storage.BlockStorage",
        ],
    ),
    (
        Node,
        "tosca.nodes.Container.Runtime",
        &["Container.Runtime"],
    ),
    (
        Node,
        "tosca.nodes.Container.Application",
        &["Container.Application"],
    ),
    (Node, "tosca.nodes.LoadBalancer", &["LoadBalancer"]),
    // TOSCA 2.0's simple profile and the 1.0 shorthands drop the `network.` prefix.
    (
        Node,
        "tosca.nodes.network.Network",
        &["network.Network", "Network"],
    ),
    (Node, "tosca.nodes.network.Port", &["network.Port", "Port"]),
    // Relationship types (§5.7).
    (Relationship, "tosca.relationships.Root", &["Root"]),
    (
        Relationship,
        "tosca.relationships.DependsOn",
        &["DependsOn"],
    ),
    (Relationship, "tosca.relationships.HostedOn", &["HostedOn"]),
    (
        Relationship,
        "tosca.relationships.ConnectsTo",
        &["ConnectsTo"],
    ),
    (
        Relationship,
        "tosca.relationships.AttachesTo",
        &["AttachesTo"],
    ),
    (Relationship, "tosca.relationships.RoutesTo", &["RoutesTo"]),
    (
        Relationship,
        "tosca.relationships.network.LinksTo",
        &["network.LinksTo", "LinksTo"],
    ),
    (
        Relationship,
        "tosca.relationships.network.BindsTo",
        &["network.BindsTo", "BindsTo"],
    ),
    // Capability types (§5.5).
    (Capability, "tosca.capabilities.Root", &["Root"]),
    (Capability, "tosca.capabilities.Node", &["Node"]),
    (Capability, "tosca.capabilities.Compute", &["Compute"]),
    (Capability, "tosca.capabilities.Network", &["Network"]),
    (Capability, "tosca.capabilities.Storage", &["Storage"]),
    (Capability, "tosca.capabilities.Container", &["Container"]),
    (Capability, "tosca.capabilities.Endpoint", &["Endpoint"]),
    (
        Capability,
        "tosca.capabilities.Endpoint.Public",
        &["Endpoint.Public"],
    ),
    (
        Capability,
        "tosca.capabilities.Endpoint.Admin",
        &["Endpoint.Admin"],
    ),
    (
        Capability,
        "tosca.capabilities.Endpoint.Database",
        &["Endpoint.Database"],
    ),
    (Capability, "tosca.capabilities.Attachment", &["Attachment"]),
    (
        Capability,
        "tosca.capabilities.OperatingSystem",
        &["OperatingSystem"],
    ),
    (Capability, "tosca.capabilities.Scalable", &["Scalable"]),
    (
        Capability,
        "tosca.capabilities.network.Bindable",
        &["network.Bindable", "Bindable"],
    ),
    (
        Capability,
        "tosca.capabilities.network.Linkable",
        &["network.Linkable", "Linkable"],
    ),
    (
        Capability,
        "tosca.capabilities.Container.Docker",
        &["Container.Docker"],
    ),
    // Policy and group types (§5.10, §5.11).
    (Policy, "tosca.policies.Root", &["Root"]),
    (Policy, "tosca.policies.Placement", &["Placement"]),
    (Policy, "tosca.policies.Scaling", &["Scaling"]),
    (Policy, "tosca.policies.Update", &["Update"]),
    (Policy, "tosca.policies.Performance", &["Performance"]),
    (Group, "tosca.groups.Root", &["Root"]),
    // Interface types (§5.8); TOSCA 2.0 renames both.
    (
        Interface,
        "tosca.interfaces.node.lifecycle.Standard",
        &["Standard", "Lifecycle.Standard"],
    ),
    (
        Interface,
        "tosca.interfaces.relationship.Configure",
        &["Configure", "Relationship.Configure"],
    ),
    // Artifact types (§5.4).
    (Artifact, "tosca.artifacts.Root", &["Root"]),
    (Artifact, "tosca.artifacts.File", &["File"]),
    (Artifact, "tosca.artifacts.Deployment", &["Deployment"]),
    (
        Artifact,
        "tosca.artifacts.Deployment.Image",
        &["Deployment.Image"],
    ),
    (
        Artifact,
        "tosca.artifacts.Deployment.Image.VM",
        &["Deployment.Image.VM"],
    ),
    (
        Artifact,
        "tosca.artifacts.Implementation",
        &["Implementation"],
    ),
    (
        Artifact,
        "tosca.artifacts.Implementation.Bash",
        &["Implementation.Bash", "Bash"],
    ),
    (
        Artifact,
        "tosca.artifacts.Implementation.Python",
        &["Implementation.Python", "Python"],
    ),
    // Data types (§5.3).
    (Data, "tosca.datatypes.Root", &["Root"]),
    (Data, "tosca.datatypes.Credential", &["Credential"]),
    (Data, "tosca.datatypes.TimeInterval", &["TimeInterval"]),
    (
        Data,
        "tosca.datatypes.network.NetworkInfo",
        &["network.NetworkInfo", "NetworkInfo"],
    ),
    (
        Data,
        "tosca.datatypes.network.PortInfo",
        &["network.PortInfo", "PortInfo"],
    ),
    (
        Data,
        "tosca.datatypes.network.PortDef",
        &["network.PortDef", "PortDef"],
    ),
    (
        Data,
        "tosca.datatypes.network.PortSpec",
        &["network.PortSpec", "PortSpec"],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_rule_for_the_normative_name_matches_every_spelling() {
        let v1 = names(&["my.Server", "tosca.nodes.Compute"]);
        for ancestry in [
            &v1,
            &names(&["org.oasis-open.simple:2.0:Compute"]),
            &names(&["Compute"]),
            &names(&["tosca:Compute"]),
        ] {
            assert!(
                type_matches(ancestry, "tosca.nodes.Compute"),
                "{ancestry:?}"
            );
        }
        assert!(type_matches(&v1, "my.Server"));
        let v10 = names(&["tosca.nodes.BlockStorage", "tosca.nodes.Root"]);
        assert!(type_matches(&v10, "tosca.nodes.Storage.BlockStorage"));
        assert!(!type_matches(&v1, "tosca.nodes.DBMS"));
    }

    #[test]
    fn short_names_that_collide_across_kinds_stay_apart() {
        // TOSCA 2.0 has a Compute capability and a Compute node type.
        let capability = names(&["org.oasis-open.simple:2.0:Compute"]);
        assert!(type_matches(&capability, "tosca.capabilities.Compute"));
        assert!(type_matches(&capability, "tosca.nodes.Compute"));
        assert_eq!(
            canonical(Capability, "Compute"),
            "tosca.capabilities.Compute"
        );
        assert_eq!(canonical(Node, "Compute"), "tosca.nodes.Compute");
        let endpoint = names(&["org.oasis-open.simple:2.0:Endpoint.Database"]);
        assert!(type_matches(
            &endpoint,
            "tosca.capabilities.Endpoint.Database"
        ));
        assert!(!type_matches(
            &endpoint,
            "tosca.capabilities.Endpoint.Public"
        ));
        // A full URI says its kind: a node ancestry never meets a capability rule.
        assert!(!type_matches(
            &names(&["tosca.nodes.Compute"]),
            "tosca.capabilities.Compute"
        ));
    }

    #[test]
    fn every_kind_and_version_resolves_to_its_full_name() {
        for (kind, name, full) in [
            (
                Relationship,
                "tosca:HostedOn",
                "tosca.relationships.HostedOn",
            ),
            (
                Relationship,
                "BindsTo",
                "tosca.relationships.network.BindsTo",
            ),
            (
                Capability,
                "Linkable",
                "tosca.capabilities.network.Linkable",
            ),
            (
                Policy,
                "org.oasis-open.simple:2.0:Scaling",
                "tosca.policies.Scaling",
            ),
            (
                Interface,
                "org.oasis-open.simple:2.0:Lifecycle.Standard",
                "tosca.interfaces.node.lifecycle.Standard",
            ),
            (
                Node,
                "tosca.nodes.ObjectStorage",
                "tosca.nodes.Storage.ObjectStorage",
            ),
            (Node, "my.Type", "my.Type"),
        ] {
            assert_eq!(canonical(kind, name), full, "{name}");
        }
        assert_eq!(kind_of_uri("tosca.policies.Scaling"), Some(Policy));
        assert_eq!(kind_of_uri("Scaling"), None);
    }

    #[test]
    fn every_full_name_in_the_table_says_its_kind() {
        for (kind, full, _) in NORMATIVE {
            assert_eq!(kind_of_uri(full), Some(*kind), "{full}");
        }
    }
}
