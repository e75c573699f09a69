//! What the types of a Kubernetes profile mean, for every backend that meets them: which
//! profiles are Kubernetes profiles, which kind each type stands for, and which relationships
//! make references (`backends/kubernetes/profiles.yaml`); and which objects belong together as
//! one workload ([`units`]), which `toscana dot` draws as one cluster.
//!
//! The Kubernetes backend writes the objects (`back::kubernetes::profile`); the diagram groups
//! them. Both read this module, so neither backend reaches into the other.

mod pods;
mod units;

pub use pods::{pod_spec, pod_spec_mut, pod_template, runs_pods};
pub use units::{Unit, claim_workloads};

use std::sync::OnceLock;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value as Json;

/// The data of `backends/kubernetes/profiles.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Data {
    pub profiles: Vec<Profile>,
    /// kind → apiVersion
    pub kinds: IndexMap<String, String>,
    /// type name → the kind it is
    pub aliases: IndexMap<String, String>,
    /// type name → the Service `spec.type` it means
    pub service_types: IndexMap<String, String>,
    /// the top-level fields a property may write
    pub fields: Vec<String>,
    /// the keys of IntOrString values, whose strings of digits are numbers
    pub int_or_string: Vec<String>,
    /// the kinds that run pods → the path of keys to their pod template (`spec.template`),
    /// empty for a Pod ([`pods`])
    pub workloads: IndexMap<String, String>,
    pub references: Vec<Reference>,
    /// Capabilities whose properties are fields of their node's object.
    pub capabilities: Vec<CapabilityFields>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub name: String,
    #[allow(dead_code)] // for people reading the file
    pub description: String,
}

/// The profile data, read once. It is compiled in, and a unit test reads it, so a broken file
/// never reaches a user.
pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let text = include_str!("../../../backends/kubernetes/profiles.yaml");
        let json = crate::yaml::plain_json(text, &crate::limits::Limits::default())
            .expect("backends/kubernetes/profiles.yaml is plain YAML");
        serde_json::from_value(json)
            .expect("backends/kubernetes/profiles.yaml has the keys of Data")
    })
}

/// The profile a type name belongs to and the type's own name: `io.kubernetes:1.35:Pod` →
/// (`io.kubernetes`, `Pod`).
pub fn profile_type(type_name: &str) -> Option<(&'static str, &str)> {
    let data = data();
    data.profiles.iter().find_map(|p| {
        let rest = type_name.strip_prefix(p.name.as_str())?.strip_prefix(':')?;
        // `<version>:<Name>`; the version is whatever the template imported.
        let (_version, name) = rest.rsplit_once(':')?;
        Some((p.name.as_str(), name))
    })
}

/// The unqualified name of a type: what follows its last `:`.
pub fn local_name(type_name: &str) -> &str {
    type_name.rsplit(':').next().unwrap_or(type_name)
}

/// The kind a node of these types is: the first type (most specific first) whose name is a
/// kind or an alias of one, with that type's name.
pub fn kind_of(types: &[String]) -> Option<(&'static str, &str)> {
    let data = data();
    types.iter().find_map(|t| {
        let name = local_name(t);
        let kind = data.aliases.get(name).map_or(name, String::as_str);
        data.kinds
            .get_key_value(kind)
            .map(|(k, _)| (k.as_str(), name))
    })
}

/// One entry of `references`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// The relationship type's own name (`Controls`), of any profile.
    #[serde(default)]
    pub relationship: Option<String>,
    /// The requirement's name.
    #[serde(default)]
    pub requirement: Option<String>,
    /// The source object's kinds this entry is for; all when absent.
    #[serde(default)]
    pub kinds: Option<Vec<String>>,
    /// The target object's kinds this entry is for; all when absent.
    #[serde(default)]
    pub target_kinds: Option<Vec<String>>,
    /// The target is written inside the source, not as an object of its own.
    #[serde(default)]
    pub fold: bool,
    /// When the entry is applied: 0 before the others (what other references read, a
    /// namespace), 1 by default, 2 for a `fold` (after the folded object's own references).
    #[serde(default)]
    pub pass: Option<u8>,
    #[serde(default)]
    pub set: Vec<Write>,
    #[serde(default)]
    pub append: Vec<Write>,
}

/// A value written at a path of the source object.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Write {
    pub path: String,
    /// A path of the target object.
    #[serde(default)]
    pub from: Option<String>,
    /// A template with `{target.<path>}` and `{source.<path>}` strings (and, for a capability,
    /// `{capability.<property>}`).
    #[serde(default)]
    pub value: Option<Json>,
    /// For `append` of a map: the key that names an item. An item without it is not added, and
    /// neither is one whose value there an item of the list already has (the template's own
    /// port 80 and the capability's port 80 are one port).
    #[serde(default)]
    pub key: Option<String>,
}

/// One entry of `capabilities`: what a capability's properties write into its node's object.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilityFields {
    /// The capability type's own name (`ServiceEndpoint`), of any profile: the capability's type
    /// or one of its ancestors.
    pub capability: String,
    /// The kinds of object this entry is for; all when absent.
    #[serde(default)]
    pub kinds: Option<Vec<String>>,
    #[serde(default)]
    pub set: Vec<Write>,
    #[serde(default)]
    pub append: Vec<Write>,
}

impl CapabilityFields {
    /// Whether the entry is for a capability of these types on an object of this kind.
    pub fn matches(&self, types: &[String], kind: &str) -> bool {
        types.iter().any(|t| local_name(t) == self.capability)
            && self
                .kinds
                .as_ref()
                .is_none_or(|l| l.iter().any(|k| k == kind))
    }
}

impl Reference {
    /// The pass the entry is applied in ([`Reference::pass`]).
    pub fn pass(&self) -> u8 {
        self.pass.unwrap_or(if self.fold { 2 } else { 1 })
    }

    /// The relationship type whose target is written inside its source (a pod template).
    pub fn folds(&self) -> Option<&str> {
        self.relationship.as_deref().filter(|_| self.fold)
    }

    /// The relationship type whose source selects its target's pods (`spec.selector`).
    pub fn selects(&self) -> Option<&str> {
        self.relationship
            .as_deref()
            .filter(|_| self.set.iter().any(|w| w.path == "spec.selector"))
    }

    /// Whether the entry is for a relationship of these types and requirement between objects
    /// of these kinds. The most specific matching entry is the one with a `kinds` list, so
    /// entries are tried in file order and the first that matches wins.
    pub fn matches(&self, types: &[String], requirement: &str, source: &str, target: &str) -> bool {
        let named = |list: &Option<Vec<String>>, kind: &str| {
            list.as_ref().is_none_or(|l| l.iter().any(|k| k == kind))
        };
        self.relationship
            .as_ref()
            .is_none_or(|r| types.iter().any(|t| local_name(t) == r))
            && self.requirement.as_ref().is_none_or(|r| r == requirement)
            && named(&self.kinds, source)
            && named(&self.target_kinds, target)
    }
}
