//! The (kind, name) of every Kubernetes object an output creates, read from `toscana k8s`'s
//! YAML stream or from `toscana tf --provider kubernetes`'s `main.tf`: the two backends build
//! their objects from one model and must create the same ones (issue 27, scope 5).

use std::collections::BTreeSet;

/// (kind, name) of each object of a stream of manifests (`---` between documents).
pub fn of_manifests(yaml: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for doc in yaml.split("\n---\n") {
        let mut kind = None;
        let mut name = None;
        let mut in_metadata = false;
        for line in doc.lines() {
            if !line.starts_with(' ') {
                in_metadata = line == "metadata:";
            }
            if let Some(k) = line.strip_prefix("kind: ") {
                kind = Some(k.trim().to_string());
            } else if in_metadata && name.is_none() {
                name = line.strip_prefix("  name: ").map(|n| n.trim().to_string());
            }
        }
        if let (Some(kind), Some(name)) = (kind, name) {
            out.insert((kind, name));
        }
    }
    out
}

/// (kind, name) of each resource of a `main.tf`: the kind of a typed resource from its type
/// (`kubernetes_stateful_set_v1` → `StatefulSet`), of a `kubernetes_manifest` from its
/// `kind`; the name from the first `name` of its metadata. A resource header is a line
/// `resource "TYPE" "LABEL" {` and ends at the line `}`.
pub fn of_terraform(tf: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let mut lines = tf.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("resource \"") else {
            continue;
        };
        let resource = rest.split('"').next().unwrap_or("").to_string();
        let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "}").collect();
        let value = |key: &str| {
            body.iter().find_map(|l| {
                let (k, v) = l.trim().split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
            })
        };
        let kind = if resource == "kubernetes_manifest" {
            value("kind").unwrap_or_default()
        } else {
            let middle = resource
                .strip_prefix("kubernetes_")
                .and_then(|r| r.rsplit_once("_v"))
                .map_or("", |(m, _)| m);
            middle
                .split('_')
                .map(|w| {
                    let mut c = w.chars();
                    c.next()
                        .map(|f| f.to_uppercase().chain(c).collect::<String>())
                        .unwrap_or_default()
                })
                .collect()
        };
        out.insert((kind, value("name").unwrap_or_default()));
    }
    out
}
