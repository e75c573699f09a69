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

use crate::back::Ledger;
use crate::ir::Topology;

/// Applies `references` to the built objects (by node index), pass by pass: first those that
/// others read (a namespace), then the references that keep both objects, then those that fold
/// a target into its source, so a folded pod carries its own references (its service account)
/// into its controller. Each relationship made a reference is recorded in `ledger`. Gives the
/// folded nodes.
pub fn apply(
    references: &[Reference],
    topology: &Topology,
    ledger: &Ledger,
    built: &mut BTreeMap<usize, Json>,
) -> BTreeSet<usize> {
    let mut folded = BTreeSet::new();
    for pass in 0..=2 {
        for (ri, r) in topology.relationships.iter().enumerate() {
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
            if entry.pass() != pass {
                continue;
            }
            let target = target.clone();
            let source_copy = source.clone();
            let Some(source) = built.get_mut(&s) else {
                continue;
            };
            let roots = [("source", &source_copy), ("target", &target)];
            write_all(source, &entry.set, &entry.append, &target, &roots);
            ledger.relationship(ri);
            if entry.fold {
                folded.insert(t);
            }
        }
    }
    folded
}

/// Writes `set` (where nothing is) and `append` into `object`: a `from` path is read from
/// `from_root` (a reference's target, a capability's properties), a `value` template's
/// `{<root>.<path>}` strings from the named `roots`.
pub fn write_all(
    object: &mut Json,
    set: &[Write],
    appends: &[Write],
    from_root: &Json,
    roots: &[(&str, &Json)],
) {
    for w in set {
        if let Some(v) = w.value_for(from_root, roots) {
            set_if_missing(object, &w.path, v);
        }
    }
    for w in appends {
        if let Some(v) = w.value_for(from_root, roots) {
            append(object, &w.path, v, w.key.as_deref());
        }
    }
}

impl Write {
    fn value_for(&self, from_root: &Json, roots: &[(&str, &Json)]) -> Option<Json> {
        if let Some(from) = &self.from {
            return get(from_root, from).filter(|v| !v.is_null()).cloned();
        }
        self.value
            .as_ref()
            .map(|v| fill(v, roots))
            .filter(|v| !v.is_null())
    }
}

/// A value template with each string `{<root>.<path>}` replaced by that path of the named root
/// (`{target.metadata.name}`); a key whose value comes out null is left out, so an optional
/// property the template does not give (a port's `name`) writes nothing.
fn fill(template: &Json, roots: &[(&str, &Json)]) -> Json {
    match template {
        Json::String(s) => {
            let inner = s.strip_prefix('{').and_then(|s| s.strip_suffix('}'));
            let looked_up = inner.and_then(|p| {
                roots.iter().find_map(|(name, root)| {
                    let path = p.strip_prefix(name)?.strip_prefix('.')?;
                    Some(get(root, path).cloned().unwrap_or(Json::Null))
                })
            });
            looked_up.unwrap_or_else(|| template.clone())
        }
        Json::Array(items) => Json::Array(items.iter().map(|i| fill(i, roots)).collect()),
        Json::Object(map) => Json::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill(v, roots)))
                .filter(|(_, v)| !v.is_null())
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The value at a dotted path; a number indexes a list (`spec.ports.0.port`).
fn get<'j>(value: &'j Json, path: &str) -> Option<&'j Json> {
    path.split('.').try_fold(value, |v, key| match v {
        Json::Array(items) => items.get(key.parse::<usize>().ok()?),
        _ => v.get(key),
    })
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

/// Adds `value` to the list at the dotted `path`, making the list when there is none, unless
/// the list has it already, or (with `key`) has an item with the same value at `key`; a value
/// without `key` is not added.
fn append(object: &mut Json, path: &str, value: Json, key: Option<&str>) {
    let named = key.map(|k| value.get(k).cloned().unwrap_or(Json::Null));
    if named.as_ref().is_some_and(Json::is_null) {
        return;
    }
    walk(object, &path.split('.').collect::<Vec<_>>(), &mut |slot| {
        if slot.is_null() {
            *slot = Json::Array(Vec::new());
        }
        if let Json::Array(items) = slot
            && !items.contains(&value)
            && !items.iter().any(|item| {
                key.zip(named.as_ref())
                    .is_some_and(|(k, n)| item.get(k) == Some(n))
            })
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
        append(&mut o, "containers.*.envFrom", json!({"y": 2}), None);
        assert_eq!(
            o,
            json!({"containers": [{"name": "a", "envFrom": [{"y": 2}]}, {"name": "b", "envFrom": [{"x": 1}, {"y": 2}]}]})
        );
    }

    #[test]
    fn templates_take_paths_of_either_end() {
        let source = json!({"kind": "RoleBinding"});
        let target = json!({"kind": "Role", "metadata": {"name": "reader"}});
        let v = fill(
            &json!({"kind": "{target.kind}", "name": "{target.metadata.name}", "x": "{source.kind}", "k": "lit", "gone": "{target.nothing}"}),
            &[("source", &source), ("target", &target)],
        );
        assert_eq!(
            v,
            json!({"kind": "Role", "name": "reader", "x": "RoleBinding", "k": "lit"})
        );
    }

    #[test]
    fn a_path_indexes_a_list() {
        let o = json!({"spec": {"ports": [{"port": 80}, {"port": 443}]}});
        assert_eq!(get(&o, "spec.ports.1.port"), Some(&json!(443)));
        assert_eq!(get(&o, "spec.ports.2.port"), None);
        assert_eq!(get(&o, "spec.ports.x"), None);
    }

    #[test]
    fn append_by_key_adds_each_named_item_once() {
        let mut o = json!({"spec": {"ports": [{"port": 80, "targetPort": "http"}]}});
        append(
            &mut o,
            "spec.ports",
            json!({"port": 80, "targetPort": 8080}),
            Some("port"),
        );
        append(&mut o, "spec.ports", json!({"port": 443}), Some("port"));
        append(&mut o, "spec.ports", json!({"targetPort": 9}), Some("port"));
        assert_eq!(
            o,
            json!({"spec": {"ports": [{"port": 80, "targetPort": "http"}, {"port": 443}]}})
        );
    }
}
