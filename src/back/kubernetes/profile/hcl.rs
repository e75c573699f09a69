//! The objects of a Kubernetes profile for `toscana tf --provider kubernetes`: each a
//! `kubernetes_manifest` resource whose `manifest` is the object, exactly as `toscana k8s`
//! writes it (the same evaluation and references, checked by the same `k8s-openapi` round trip).
//!
//! The provider's typed resources (`kubernetes_deployment_v1`, …) spell every field in their
//! own schema (`container` blocks for `containers`, snake_case names); `kubernetes_manifest`
//! takes the API object as it is, for every kind, so the translation cannot drift from the
//! manifests. It needs the cluster reachable at plan time, which the typed resources do not.

use std::collections::HashSet;

use heck::ToSnakeCase;
use serde_json::Value as Json;

use super::ProfileObject;

/// `objects.tf`: one `kubernetes_manifest` per object, in the order given.
pub fn manifests(objects: &[ProfileObject]) -> String {
    let mut names = HashSet::new();
    let mut out = String::new();
    for o in objects {
        let kind = o.object["kind"].as_str().unwrap_or("object");
        let name = o.object["metadata"]["name"].as_str().unwrap_or("");
        let base = identifier(&format!("{kind}_{name}"));
        let mut label = base.clone();
        let mut n = 2;
        while !names.insert(label.clone()) {
            label = format!("{base}_{n}");
            n += 1;
        }
        out.push_str(&format!(
            "resource \"kubernetes_manifest\" \"{label}\" {{\n  manifest = {}\n}}\n\n",
            value(&o.object, 1)
        ));
    }
    out
}

/// A Terraform resource name: snake_case letters, digits and `_`, not starting with a digit.
fn identifier(text: &str) -> String {
    let snake: String = text
        .to_snake_case()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    match snake.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => snake,
        _ => format!("k_{snake}"),
    }
}

/// A JSON value as an HCL expression; keys quoted, strings escaped so Terraform never
/// interpolates them.
fn value(v: &Json, depth: usize) -> String {
    let pad = "  ".repeat(depth + 1);
    let end = "  ".repeat(depth);
    match v {
        Json::Null => "null".to_string(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => crate::back::filters::hcl_str(s),
        Json::Array(items) if items.is_empty() => "[]".to_string(),
        Json::Array(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|i| format!("{pad}{},\n", value(i, depth + 1)))
                .collect();
            format!("[\n{}{end}]", items.concat())
        }
        Json::Object(map) if map.is_empty() => "{}".to_string(),
        Json::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{pad}{} = {}\n",
                        crate::back::filters::hcl_str(k),
                        value(v, depth + 1)
                    )
                })
                .collect();
            format!("{{\n{}{end}}}", entries.concat())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_terraform_identifiers() {
        assert_eq!(identifier("Deployment_shop-web"), "deployment_shop_web");
        assert_eq!(identifier("9x"), "k_9x");
    }

    #[test]
    fn values_are_hcl_with_quoted_keys() {
        let v = serde_json::json!({"a.b/c": ["${x}", 1, true, null], "e": {}});
        assert_eq!(
            value(&v, 0),
            "{\n  \"a.b/c\" = [\n    \"$${x}\",\n    1,\n    true,\n    null,\n  ]\n  \"e\" = {}\n}"
        );
    }
}
