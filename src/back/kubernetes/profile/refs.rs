//! Relationships of a Kubernetes profile made into the references the API uses: a Service's
//! selector from the labels of the pods it exposes, a controller's pod template from the pod it
//! controls, a pod's service account, an RBAC binding's `roleRef` and `subjects`, an Ingress's
//! backend, a workload's `envFrom` and volumes. Which relationship writes what is data (the
//! `references` of `backends/kubernetes/profiles.yaml`); this module only walks the paths.
//!
//! What the template wrote wins: `set` writes only where the object has nothing yet, so a
//! template that spells its selector out keeps it.

use std::collections::{BTreeMap, BTreeSet};

use crate::back::k8s_profile::{Reference, Write};
use serde_json::Value as Json;

use crate::ir::Topology;

/// Applies `references` to the built objects (by node index): first the references that keep
/// both objects, then those that fold a target into its source, so a folded pod carries its own
/// references (its service account) into its controller. Gives the folded nodes.
pub fn apply(
    references: &[Reference],
    topology: &Topology,
    built: &mut BTreeMap<usize, Json>,
) -> BTreeSet<usize> {
    let mut folded = BTreeSet::new();
    for fold_pass in [false, true] {
        for r in &topology.relationships {
            let (s, t) = (r.source.index(), r.target.index());
            let (Some(source), Some(target)) = (built.get(&s), built.get(&t)) else {
                continue;
            };
            let kind = |o: &Json| o["kind"].as_str().unwrap_or("").to_string();
            let (source_kind, target_kind) = (kind(source), kind(target));
            // A specific entry (with `kinds`) before a general one of the same relationship.
            let entry = references
                .iter()
                .filter(|e| e.matches(&r.types, &r.requirement, &source_kind, &target_kind))
                .max_by_key(|e| e.kinds.is_some());
            let Some(entry) = entry else { continue };
            if entry.fold != fold_pass {
                continue;
            }
            let target = target.clone();
            let source_copy = source.clone();
            let Some(source) = built.get_mut(&s) else {
                continue;
            };
            for w in &entry.set {
                if let Some(v) = w.value_for(&source_copy, &target) {
                    set_if_missing(source, &w.path, v);
                }
            }
            for w in &entry.append {
                if let Some(v) = w.value_for(&source_copy, &target) {
                    append(source, &w.path, v);
                }
            }
            if entry.fold {
                folded.insert(t);
            }
        }
    }
    folded
}

impl Write {
    fn value_for(&self, source: &Json, target: &Json) -> Option<Json> {
        if let Some(from) = &self.from {
            return get(target, from).filter(|v| !v.is_null()).cloned();
        }
        self.value
            .as_ref()
            .map(|v| fill(v, source, target))
            .filter(|v| !v.is_null())
    }
}

/// A value template with `{target.<path>}` and `{source.<path>}` strings replaced.
fn fill(template: &Json, source: &Json, target: &Json) -> Json {
    match template {
        Json::String(s) => {
            let inner = s.strip_prefix('{').and_then(|s| s.strip_suffix('}'));
            let looked_up = inner.and_then(|p| {
                if let Some(p) = p.strip_prefix("target.") {
                    Some(get(target, p).cloned().unwrap_or(Json::Null))
                } else {
                    p.strip_prefix("source.")
                        .map(|p| get(source, p).cloned().unwrap_or(Json::Null))
                }
            });
            looked_up.unwrap_or_else(|| template.clone())
        }
        Json::Array(items) => Json::Array(items.iter().map(|i| fill(i, source, target)).collect()),
        Json::Object(map) => Json::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill(v, source, target)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The value at a dotted path.
fn get<'j>(value: &'j Json, path: &str) -> Option<&'j Json> {
    path.split('.').try_fold(value, |v, key| v.get(key))
}

/// Writes `value` at the dotted `path` unless something is there; where a map is there and
/// `value` is a map, the keys it lacks (the pod spec a profile default copied before the pod's
/// own references were made gets its service account). `*` is every item of a list.
pub fn set_if_missing(object: &mut Json, path: &str, value: Json) {
    walk(object, &path.split('.').collect::<Vec<_>>(), &mut |slot| {
        fill_missing(slot, &value);
    });
}

/// `value` where `slot` is null, and the keys it lacks where both are maps.
fn fill_missing(slot: &mut Json, value: &Json) {
    match (slot, value) {
        (slot @ Json::Null, _) => *slot = value.clone(),
        (Json::Object(have), Json::Object(more)) => {
            for (k, v) in more {
                fill_missing(have.entry(k.clone()).or_insert(Json::Null), v);
            }
        }
        _ => {}
    }
}

/// Adds `value` to the list at the dotted `path`, making the list when there is none.
fn append(object: &mut Json, path: &str, value: Json) {
    walk(object, &path.split('.').collect::<Vec<_>>(), &mut |slot| {
        if slot.is_null() {
            *slot = Json::Array(Vec::new());
        }
        if let Json::Array(items) = slot
            && !items.contains(&value)
        {
            items.push(value.clone());
        }
    });
}

/// Calls `at` with the slot at `path`, making maps on the way (not through `*`, which needs a
/// list that is there).
fn walk(value: &mut Json, path: &[&str], at: &mut dyn FnMut(&mut Json)) {
    let Some((key, rest)) = path.split_first() else {
        at(value);
        return;
    };
    if *key == "*" {
        if let Json::Array(items) = value {
            for item in items {
                walk(item, rest, at);
            }
        }
        return;
    }
    if value.is_null() {
        *value = Json::Object(serde_json::Map::new());
    }
    if let Json::Object(map) = value {
        walk(map.entry(key.to_string()).or_insert(Json::Null), rest, at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn set_writes_only_where_nothing_is() {
        let mut o = json!({"spec": {"selector": {"app": "x"}}});
        set_if_missing(&mut o, "spec.selector", json!({"app": "y"}));
        set_if_missing(&mut o, "spec.template.metadata.labels", json!({"app": "y"}));
        assert_eq!(
            o,
            json!({"spec": {"selector": {"app": "x"}, "template": {"metadata": {"labels": {"app": "y"}}}}})
        );
    }

    #[test]
    fn set_fills_what_a_map_lacks() {
        let mut o = json!({"spec": {"containers": [1], "a": 1}});
        set_if_missing(
            &mut o,
            "spec",
            json!({"containers": [2], "serviceAccountName": "x"}),
        );
        assert_eq!(
            o,
            json!({"spec": {"containers": [1], "a": 1, "serviceAccountName": "x"}})
        );
    }

    #[test]
    fn append_reaches_every_container() {
        let mut o = json!({"containers": [{"name": "a"}, {"name": "b", "envFrom": [{"x": 1}]}]});
        append(&mut o, "containers.*.envFrom", json!({"y": 2}));
        assert_eq!(
            o,
            json!({"containers": [{"name": "a", "envFrom": [{"y": 2}]}, {"name": "b", "envFrom": [{"x": 1}, {"y": 2}]}]})
        );
    }

    #[test]
    fn templates_take_paths_of_either_end() {
        let v = fill(
            &json!({"kind": "{target.kind}", "name": "{target.metadata.name}", "x": "{source.kind}", "k": "lit"}),
            &json!({"kind": "RoleBinding"}),
            &json!({"kind": "Role", "metadata": {"name": "reader"}}),
        );
        assert_eq!(
            v,
            json!({"kind": "Role", "name": "reader", "x": "RoleBinding", "k": "lit"})
        );
    }
}
