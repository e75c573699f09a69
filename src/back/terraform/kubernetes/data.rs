//! The data the Kubernetes objects are written as Terraform with: the shape of each typed
//! resource of the provider (`backends/terraform/kubernetes/schema.json`, generated from the
//! provider's schema by `schema.py` beside it) and the provider's renamings and the fields
//! that name other objects (`objects.yaml`, written by hand).

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use serde::Deserialize;

/// One block of a resource: its arguments, its nested blocks, and which of those the provider
/// requires.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    #[serde(default)]
    pub arguments: Vec<String>,
    #[serde(default)]
    pub blocks: BTreeMap<String, Block>,
    #[serde(default)]
    pub required_blocks: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Schema {
    #[allow(dead_code)] // for people reading the file
    provider_version: String,
    resources: HashMap<String, Block>,
}

/// A field that names another object.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// The end of the field's path, list indices left out.
    pub path: Vec<String>,
    /// The kind of the object it names, or
    pub kind: Option<String>,
    /// the sibling field that holds that kind.
    pub kind_field: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Objects {
    renamed: HashMap<String, String>,
    octal: Vec<String>,
    cluster_scoped: Vec<String>,
    references: Vec<Reference>,
}

/// Everything, read once; compiled in, and read by a unit test, so a broken file never
/// reaches a user.
pub struct Data {
    resources: HashMap<String, Block>,
    pub renamed: HashMap<String, String>,
    pub octal: Vec<String>,
    pub cluster_scoped: Vec<String>,
    pub references: Vec<Reference>,
}

impl Data {
    /// The typed resource of a kind in an API version (`apps/v1`, `Deployment` →
    /// `kubernetes_deployment_v1`), when the provider has one.
    pub fn resource(&self, api_version: &str, kind: &str) -> Option<(String, &Block)> {
        let version = api_version.rsplit('/').next()?;
        let name = format!(
            "kubernetes_{}_{version}",
            heck::ToSnakeCase::to_snake_case(kind)
        );
        let block = self.resources.get(&name)?;
        Some((name, block))
    }
}

pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let schema: Schema = serde_json::from_str(include_str!(
            "../../../../backends/terraform/kubernetes/schema.json"
        ))
        .expect("backends/terraform/kubernetes/schema.json is the shape schema.py writes");
        let text = include_str!("../../../../backends/terraform/kubernetes/objects.yaml");
        let json = crate::yaml::plain_json(text, &crate::limits::Limits::default())
            .expect("backends/terraform/kubernetes/objects.yaml is plain YAML");
        let objects: Objects = serde_json::from_value(json)
            .expect("backends/terraform/kubernetes/objects.yaml has the keys of Objects");
        Data {
            resources: schema.resources,
            renamed: objects.renamed,
            octal: objects.octal,
            cluster_scoped: objects.cluster_scoped,
            references: objects.references,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_reads_and_names_the_resources_by_kind_and_version() {
        let data = data();
        for (api, kind, resource) in [
            ("apps/v1", "Deployment", "kubernetes_deployment_v1"),
            ("apps/v1", "StatefulSet", "kubernetes_stateful_set_v1"),
            ("v1", "Secret", "kubernetes_secret_v1"),
            (
                "autoscaling/v2",
                "HorizontalPodAutoscaler",
                "kubernetes_horizontal_pod_autoscaler_v2",
            ),
            ("networking.k8s.io/v1", "Ingress", "kubernetes_ingress_v1"),
            (
                "policy/v1",
                "PodDisruptionBudget",
                "kubernetes_pod_disruption_budget_v1",
            ),
            (
                "rbac.authorization.k8s.io/v1",
                "RoleBinding",
                "kubernetes_role_binding_v1",
            ),
        ] {
            assert_eq!(
                data.resource(api, kind).map(|r| r.0),
                Some(resource.to_string())
            );
        }
        assert!(data.resource("apps/v1", "ReplicaSet").is_none());
        assert!(
            data.references
                .iter()
                .all(|r| r.kind.is_some() != r.kind_field.is_some())
        );
    }
}
