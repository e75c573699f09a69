//! The machine image for a node's `os` capability: the entry of the rule's `bind.images`
//! that matches, the same system in another version, or the table's first entry, each choice
//! but the first with a warning.

use serde_json::{Value as Json, json};

use crate::ir::{NodeId, Value};

use super::super::Provider;
use super::super::expr::{known, number};
use super::Builder;

impl Builder<'_, '_> {
    /// The entry of `bind.images` for the `os` capability; on Kubernetes, the base image of the
    /// one image table that `toscana k8s` uses too (`{"image": ...}`).
    pub(super) fn image(&mut self, id: NodeId) -> Option<Json> {
        let os = self.capability(id, "os");
        let value_text = |v: &Value| -> Option<String> {
            match known(self.topology, v) {
                Value::String(s) => Some(s.to_lowercase()),
                Value::Version(v) => Some(v.text.clone()),
                Value::Integer(i) => Some(i.to_string()),
                Value::Float(f) => Some(number(*f)),
                _ => None,
            }
        };
        let text = |k: &str| value_text(os?.get(k)?);
        if self.provider == Provider::Kubernetes {
            let system = os
                .and_then(crate::back::images::os_system)
                .and_then(value_text);
            let version = text("version");
            let node = self.topology.nodes[id.index()].name.clone();
            let choice = crate::back::images::for_os(&node, system.as_deref(), version.as_deref());
            for f in choice.findings {
                self.warn(id, f.message, &f.hint);
            }
            return Some(json!({ "image": choice.image }));
        }
        let table = self.bind(id).get("images")?.as_array()?;
        let wanted: Vec<(&str, String)> = ["type", "distribution", "version", "architecture"]
            .into_iter()
            .filter_map(|k| text(k).map(|v| (k, v)))
            .collect();
        let matches = |entry: &Json| {
            wanted
                .iter()
                .all(|(k, want)| match entry.get(*k).and_then(Json::as_str) {
                    Some(have) => {
                        let have = have.to_lowercase();
                        if *k == "version" {
                            have == *want || have.starts_with(&format!("{want}."))
                        } else {
                            have == *want
                        }
                    }
                    None => true,
                })
        };
        if let Some(e) = table.iter().find(|e| matches(e)) {
            return Some(e.clone());
        }
        // The same system in another version is closer than the default.
        let same_system = |entry: &Json| {
            wanted
                .iter()
                .filter(|(k, _)| *k != "version")
                .all(|(k, want)| match entry.get(*k).and_then(Json::as_str) {
                    Some(have) => have.to_lowercase() == *want,
                    None => true,
                })
                && wanted.iter().any(|(k, _)| *k == "distribution")
        };
        if let Some(e) = table.iter().find(|e| same_system(e)) {
            let version = wanted
                .iter()
                .find(|(k, _)| *k == "version")
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            let has = e.get("version").and_then(Json::as_str).unwrap_or("any");
            self.warn(
                id,
                format!(
                    "the rule's table has no image of version {version} for node `{}`; version {has} of the same system is used",
                    self.topology.nodes[id.index()].name
                ),
                "add the version to `bind.images` in a mapping.yaml given with --backend-dir",
            );
            return Some(e.clone());
        }
        let first = table.first().cloned();
        let shown: Vec<String> = wanted.iter().map(|(k, v)| format!("{k} {v}")).collect();
        self.warn(
            id,
            format!(
                "no image in the rule's table matches the os of node `{}` ({}); the first one is used",
                self.topology.nodes[id.index()].name,
                shown.join(", ")
            ),
            "add the image to `bind.images` in a mapping.yaml given with --backend-dir",
        );
        first
    }
}
