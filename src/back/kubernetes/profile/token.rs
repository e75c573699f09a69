//! The service account token of the pods a Kubernetes profile writes, set as for every other pod
//! (`automountServiceAccountToken: false` unless `--service-account-token`, see
//! [`crate::back::kubernetes::K8sOptions::service_account_token`]).
//!
//! A profile template writes its objects field by field, so it can say more than a template of
//! servers and containers: the pod spec's own `automountServiceAccountToken` is kept as written,
//! and a pod that runs as a ServiceAccount that needs the token keeps Kubernetes' default (the
//! account's own `automountServiceAccountToken`, else mounted). An account needs it when the
//! template binds it to API rights (a subject of one of its RoleBindings or ClusterRoleBindings),
//! or when the template does not write the account at all (an account of the cluster, named for
//! what it may do there). An account the template writes and binds to nothing has no use for the
//! token, and neither has a pod with no account.

use std::collections::BTreeSet;

use serde_json::Value as Json;

use crate::back::k8s_profile::pod_spec_mut;

/// Sets `automountServiceAccountToken: false` on the pod spec of every object of `objects` that
/// runs pods, where the spec does not say and its account does not need the token.
pub fn withhold(objects: &mut [&mut Json]) {
    let written = accounts_of_kind(objects, "ServiceAccount");
    let bound = bound_accounts(objects);
    for object in objects.iter_mut() {
        let Some(spec) = pod_spec_mut(object) else {
            continue;
        };
        if spec.get("automountServiceAccountToken").is_some() {
            continue;
        }
        let account = spec
            .get("serviceAccountName")
            .or_else(|| spec.get("serviceAccount"))
            .and_then(Json::as_str);
        let needs_token = account.is_some_and(|a| !written.contains(a) || bound.contains(a));
        if !needs_token && let Some(map) = spec.as_object_mut() {
            map.insert(
                "automountServiceAccountToken".to_string(),
                Json::Bool(false),
            );
        }
    }
}

/// The names of the objects of `kind`.
fn accounts_of_kind(objects: &[&mut Json], kind: &str) -> BTreeSet<String> {
    objects
        .iter()
        .filter(|o| o.get("kind").and_then(Json::as_str) == Some(kind))
        .filter_map(|o| o.pointer("/metadata/name").and_then(Json::as_str))
        .map(str::to_string)
        .collect()
}

/// The ServiceAccounts a RoleBinding or ClusterRoleBinding of `objects` gives rights to.
fn bound_accounts(objects: &[&mut Json]) -> BTreeSet<String> {
    objects
        .iter()
        .filter(|o| {
            matches!(
                o.get("kind").and_then(Json::as_str),
                Some("RoleBinding" | "ClusterRoleBinding")
            )
        })
        .filter_map(|o| o.get("subjects").and_then(Json::as_array))
        .flatten()
        .filter(|s| s.get("kind").and_then(Json::as_str) == Some("ServiceAccount"))
        .filter_map(|s| s.get("name").and_then(Json::as_str))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn token(object: &Json) -> Option<&Json> {
        crate::back::k8s_profile::pod_spec(object)?.get("automountServiceAccountToken")
    }

    #[test]
    fn pods_without_an_account_that_needs_it_get_no_token() {
        let mut pod = json!({"kind": "Pod", "spec": {"containers": []}});
        let mut cron = json!({"kind": "CronJob", "spec": {"jobTemplate": {"spec": {"template": {"spec": {"serviceAccountName": "idle"}}}}}});
        let mut idle = json!({"kind": "ServiceAccount", "metadata": {"name": "idle"}});
        let mut service = json!({"kind": "Service", "spec": {}});
        withhold(&mut [&mut pod, &mut cron, &mut idle, &mut service]);
        assert_eq!(token(&pod), Some(&json!(false)));
        assert_eq!(token(&cron), Some(&json!(false)));
        assert_eq!(service, json!({"kind": "Service", "spec": {}}));
    }

    #[test]
    fn an_account_with_rights_or_of_the_cluster_and_a_spec_that_says_keep_their_way() {
        let template = |account: &str| json!({"kind": "Deployment", "spec": {"template": {"spec": {"serviceAccountName": account}}}});
        let mut bound = template("operator");
        let mut cluster = template("from-the-cluster");
        let mut said = json!({"kind": "Job", "spec": {"template": {"spec": {"automountServiceAccountToken": true}}}});
        let mut account = json!({"kind": "ServiceAccount", "metadata": {"name": "operator"}});
        let mut binding = json!({"kind": "RoleBinding", "subjects": [{"kind": "ServiceAccount", "name": "operator"}]});
        withhold(&mut [
            &mut bound,
            &mut cluster,
            &mut said,
            &mut account,
            &mut binding,
        ]);
        assert_eq!(token(&bound), None);
        assert_eq!(token(&cluster), None);
        assert_eq!(token(&said), Some(&json!(true)));
    }
}
