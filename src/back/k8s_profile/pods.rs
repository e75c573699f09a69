//! Where each kind that runs pods keeps its pod template: the one table
//! (`workloads` of `backends/kubernetes/profiles.yaml`) that every reader of a pod spec goes
//! through, so that a kind added there is known to all of them at once: the service account
//! token withheld from the pods a profile writes, the check for containers without an image,
//! the clusters `toscana dot` draws, and the wiring check of the tests, which finds each
//! object's pods (their labels and spec) here too.

use serde_json::Value as Json;

use super::data;

/// Whether objects of `kind` run pods.
pub fn runs_pods(kind: &str) -> bool {
    data().workloads.contains_key(kind)
}

/// The path of keys from an object of `kind` to its pod template (the object's `metadata` and
/// `spec` for a Pod, `spec.template` for a Deployment); `None` for a kind that runs no pods.
fn template_path(kind: &str) -> Option<impl Iterator<Item = &'static str>> {
    let path = data().workloads.get(kind)?;
    Some(path.split('.').filter(|key| !key.is_empty()))
}

/// The pod template of `object` (with the pods' `metadata` and `spec`), when its kind runs pods
/// and it has one.
pub fn pod_template(object: &Json) -> Option<&Json> {
    let kind = object.get("kind")?.as_str()?;
    template_path(kind)?
        .try_fold(object, |at, key| at.get(key))
        .filter(|template| template.is_object())
}

/// The pod spec of `object`, when its kind runs pods and it has one.
pub fn pod_spec(object: &Json) -> Option<&Json> {
    pod_template(object)?
        .get("spec")
        .filter(|spec| spec.is_object())
}

/// [`pod_spec`], to change.
pub fn pod_spec_mut(object: &mut Json) -> Option<&mut Json> {
    let kind = object.get("kind")?.as_str()?.to_string();
    template_path(&kind)?
        .chain(["spec"])
        .try_fold(object, |at, key| at.get_mut(key))
        .filter(|spec| spec.is_object())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_kind_that_runs_pods_has_its_pod_spec_found() {
        let spec = json!({"containers": [{"name": "app"}]});
        let objects = [
            json!({"kind": "Pod", "spec": spec}),
            json!({"kind": "Deployment", "spec": {"template": {"spec": spec}}}),
            json!({"kind": "ReplicationController", "spec": {"template": {"spec": spec}}}),
            json!({"kind": "CronJob", "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}}}),
        ];
        for mut object in objects {
            assert_eq!(pod_spec(&object), Some(&spec), "{object}");
            assert_eq!(pod_spec_mut(&mut object).cloned(), Some(spec.clone()));
        }
        assert_eq!(pod_spec(&json!({"kind": "Service", "spec": spec})), None);
        assert!(runs_pods("StatefulSet") && !runs_pods("ConfigMap"));
        let pod = json!({"kind": "Pod", "metadata": {"labels": {"a": "b"}}, "spec": spec});
        assert_eq!(pod_template(&pod), Some(&pod));
    }
}
