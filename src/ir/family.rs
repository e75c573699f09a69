//! Type matching by ancestry, with the one table of equivalent type names.
//!
//! Backend rules name a type (`tosca.nodes.Compute`) and must match any node whose type derives
//! from it, whichever dialect it came from: the Simple Profile's `tosca.nodes.Compute`, its
//! shorthand `Compute`, and the TOSCA 2.0 simple profile's `Compute`
//! (`org.oasis-open.simple:2.0` in the ancestry's qualified form) are one type for matching.

/// True when `pattern` names one of the types in `ancestry` (most specific first), directly or
/// through an equivalent name.
///
/// Only a pattern with a normative form can match through another spelling: an entry's
/// canonical name is the entry itself or a full normative name, and a full normative name is
/// itself in the table. Every other pattern (a capability type, a type of the template's own)
/// is compared by name alone, without looking each ancestry entry up in the table: backend
/// rules and requirements match every node's ancestry many times.
pub fn type_matches(ancestry: &[String], pattern: &str) -> bool {
    let Some(&wanted) = equivalents().get(short_name(pattern)) else {
        return ancestry.iter().any(|t| t == pattern);
    };
    ancestry
        .iter()
        .any(|t| t == pattern || canonical(t) == wanted)
}

/// The name without its 2.0 profile qualifier: `Compute` of `org.oasis-open.simple:2.0:Compute`.
fn short_name(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, n)| n)
}

/// The canonical name of a type for matching: the Simple Profile's full normative name when the
/// type is a normative one under another spelling, else the name itself.
pub fn canonical(name: &str) -> &str {
    // A 2.0 ancestry entry is `profile:Name`, e.g. `org.oasis-open.simple:2.0:Compute`.
    equivalents().get(short_name(name)).copied().unwrap_or(name)
}

/// [`NORMATIVE_SHORT_NAMES`] as a map from each short and full name to the full name, built on
/// first use. Every node's ancestry is matched against rules and requirement definitions many
/// times per template; a scan of the table for each ancestry entry was 4% of `toscana check`.
/// The first entry that names a form wins, as the scan's `find` did.
fn equivalents() -> &'static crate::hash::FastMap<&'static str, &'static str> {
    static MAP: std::sync::OnceLock<crate::hash::FastMap<&'static str, &'static str>> =
        std::sync::OnceLock::new();
    MAP.get_or_init(|| {
        let mut map = crate::hash::FastMap::default();
        for (short, full) in NORMATIVE_SHORT_NAMES {
            map.entry(*short).or_insert(*full);
            map.entry(*full).or_insert(*full);
        }
        map
    })
}

/// Short (TOSCA 2.0 simple profile and Simple Profile shorthand) → full Simple Profile names of
/// the normative node, relationship and policy types that backends map. Capability, data and other kinds
/// keep their names; their short forms collide across kinds (`Endpoint`, `Storage`).
const NORMATIVE_SHORT_NAMES: &[(&str, &str)] = &[
    ("Root", "tosca.nodes.Root"),
    ("Abstract.Compute", "tosca.nodes.Abstract.Compute"),
    ("Compute", "tosca.nodes.Compute"),
    ("SoftwareComponent", "tosca.nodes.SoftwareComponent"),
    ("WebServer", "tosca.nodes.WebServer"),
    ("WebApplication", "tosca.nodes.WebApplication"),
    ("DBMS", "tosca.nodes.DBMS"),
    ("Database", "tosca.nodes.Database"),
    ("Abstract.Storage", "tosca.nodes.Abstract.Storage"),
    ("Storage.ObjectStorage", "tosca.nodes.Storage.ObjectStorage"),
    ("ObjectStorage", "tosca.nodes.Storage.ObjectStorage"),
    ("Storage.BlockStorage", "tosca.nodes.Storage.BlockStorage"),
    ("BlockStorage", "tosca.nodes.Storage.BlockStorage"),
    // Simple Profile 1.0 spells the storage types without `Storage.` (wd05 §C.7.8 tosca.nodes.ObjectStorage, §C.7.9 tosca.nodes.BlockStorage),
    // and every storage template found in the wild uses that spelling.
    (
        "tosca.nodes.BlockStorage",
        "tosca.nodes.Storage.BlockStorage",
    ),
    (
        "tosca.nodes.ObjectStorage",
        "tosca.nodes.Storage.ObjectStorage",
    ),
    ("Container.Runtime", "tosca.nodes.Container.Runtime"),
    ("Container.Application", "tosca.nodes.Container.Application"),
    ("LoadBalancer", "tosca.nodes.LoadBalancer"),
    ("network.Network", "tosca.nodes.network.Network"),
    ("network.Port", "tosca.nodes.network.Port"),
    // TOSCA 2.0's simple profile drops the `network.` prefix.
    ("Network", "tosca.nodes.network.Network"),
    ("Port", "tosca.nodes.network.Port"),
    ("DependsOn", "tosca.relationships.DependsOn"),
    ("HostedOn", "tosca.relationships.HostedOn"),
    ("ConnectsTo", "tosca.relationships.ConnectsTo"),
    ("AttachesTo", "tosca.relationships.AttachesTo"),
    ("RoutesTo", "tosca.relationships.RoutesTo"),
    ("network.BindsTo", "tosca.relationships.network.BindsTo"),
    ("network.LinksTo", "tosca.relationships.network.LinksTo"),
    ("BindsTo", "tosca.relationships.network.BindsTo"),
    ("LinksTo", "tosca.relationships.network.LinksTo"),
    ("Scaling", "tosca.policies.Scaling"),
    ("Placement", "tosca.policies.Placement"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_for_the_normative_name_matches_every_spelling() {
        let v1 = vec!["my.Server".to_string(), "tosca.nodes.Compute".to_string()];
        let v2 = vec!["org.oasis-open.simple:2.0:Compute".to_string()];
        let short = vec!["Compute".to_string()];
        for ancestry in [&v1, &v2, &short] {
            assert!(
                type_matches(ancestry, "tosca.nodes.Compute"),
                "{ancestry:?}"
            );
        }
        assert!(type_matches(&v1, "my.Server"));
        let v10 = vec![
            "tosca.nodes.BlockStorage".to_string(),
            "tosca.nodes.Root".to_string(),
        ];
        assert!(type_matches(&v10, "tosca.nodes.Storage.BlockStorage"));
        assert!(!type_matches(&v1, "tosca.nodes.DBMS"));
    }
}
