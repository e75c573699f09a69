//! One Kubernetes object as one Terraform resource, by data: the typed resource of its kind
//! and API version where the provider has one and every field of the object has a place in
//! it (the provider's schema, [`super::data`]), else `kubernetes_manifest` with the object as
//! it is.
//!
//! The typed resources spell the API their own way, which the conversion follows generically:
//! a field whose value is an object, or a list of objects, is a nested block when the
//! schema has a block of its name (`spec { ... }`, one `container { ... }` per container), an
//! argument otherwise (`labels = { ... }`, `args = [...]`); names are the API's in snake_case,
//! in the singular for the blocks of a list (`containers` → `container`), or as
//! `objects.yaml` renames them (a Secret's `stringData` is the provider's `data`). Permission
//! bits are octal strings there (`default_mode = "0555"`).
//!
//! Every string goes through [`Markers::string`] (an input's value becomes its variable) or,
//! where it names another object of the configuration, becomes a reference to that object's
//! name, so that Terraform creates the object first.

use std::collections::HashMap;

use heck::ToSnakeCase;
use serde_json::{Map, Value as Json};

use super::data::{Block, Data};
use super::moved::Moves;
use super::provenance::Markers;
use crate::back::filters::hcl_str;
use crate::back::terraform::expr::key;

/// Where an object is in the configuration.
#[derive(Debug, Clone)]
pub struct Address {
    /// `kubernetes_secret_v1` or `kubernetes_manifest`.
    pub resource: String,
    pub label: String,
}

impl Address {
    /// The expression of the object's name, which refers to the resource.
    pub fn name_expression(&self) -> String {
        if self.resource == "kubernetes_manifest" {
            format!("{}.{}.manifest.metadata.name", self.resource, self.label)
        } else {
            format!("{}.{}.metadata[0].name", self.resource, self.label)
        }
    }
}

/// Writes objects as resources; `addresses` holds every object of the configuration by kind
/// and name, for references.
pub struct Writer<'a> {
    pub data: &'a Data,
    pub markers: &'a Markers,
    pub moves: &'a Moves,
    pub addresses: &'a HashMap<(String, String), Address>,
}

/// The same place in the other builds of an object: with the string inputs marked
/// ([`Markers`]) and with the other inputs moved ([`Moves`]), where they have it.
#[derive(Clone, Copy, Default)]
pub struct Partners<'a> {
    pub marked: Option<&'a Json>,
    pub moved: Option<&'a Json>,
}

impl<'a> Partners<'a> {
    /// The partners of a field of an object.
    fn field(self, name: &str) -> Partners<'a> {
        let get = |j: Option<&'a Json>| j.and_then(|j| j.get(name));
        Partners {
            marked: get(self.marked),
            moved: get(self.moved),
        }
    }

    /// The partners of the items of a list of `len` items: each build's item where its list
    /// has as many.
    fn items(self, len: usize) -> Vec<Partners<'a>> {
        let list = |j: Option<&'a Json>| match j {
            Some(Json::Array(o)) if o.len() == len => Some(o),
            _ => None,
        };
        let (marked, moved) = (list(self.marked), list(self.moved));
        (0..len)
            .map(|i| Partners {
                marked: marked.map(|o| &o[i]),
                moved: moved.map(|o| &o[i]),
            })
            .collect()
    }
}

/// The typed resource an object fits, or the reason it is written as a manifest.
pub fn typed_resource(data: &Data, object: &Json) -> Result<String, String> {
    let api = object["apiVersion"].as_str().unwrap_or("");
    let kind = object["kind"].as_str().unwrap_or("");
    let Some((resource, schema)) = data.resource(api, kind) else {
        return Err(format!(
            "the provider has no typed resource for {kind} of {api}"
        ));
    };
    let fields = top_fields(object);
    fits(data, kind, &fields, schema, &mut Vec::new(), true)
        .map_err(|why| format!("{resource} {why}"))?;
    Ok(resource)
}

/// The object's fields but `apiVersion`, `kind` and `status`.
fn top_fields(object: &Json) -> Map<String, Json> {
    let mut fields = object.as_object().cloned().unwrap_or_default();
    for k in ["apiVersion", "kind", "status"] {
        fields.remove(k);
    }
    fields
}

/// What a field is in the provider: a nested block or an argument, and its name.
enum Place {
    Block(String),
    Argument(String),
}

/// Where the API field `field` goes in `schema` (`top`: a field of the object itself, where
/// `<Kind>.<field>` renamings apply).
fn place(data: &Data, kind: &str, field: &str, schema: &Block, top: bool) -> Option<Place> {
    let snake = field.to_snake_case();
    let singular = singular(&snake);
    let candidates = [
        top.then(|| data.renamed.get(&format!("{kind}.{field}")))
            .flatten()
            .cloned(),
        data.renamed.get(field).cloned(),
        Some(snake),
        Some(singular),
    ];
    candidates.into_iter().flatten().find_map(|name| {
        if schema.blocks.contains_key(&name) {
            Some(Place::Block(name))
        } else if schema.arguments.contains(&name) {
            Some(Place::Argument(name))
        } else {
            None
        }
    })
}

fn singular(plural: &str) -> String {
    if let Some(stem) = plural.strip_suffix("ies") {
        format!("{stem}y")
    } else {
        plural.strip_suffix('s').unwrap_or(plural).to_string()
    }
}

/// `Ok` when every field of `fields` has a place and every block the provider requires is
/// there; `Err` saying which field has no place or which block is missing (a Role without
/// `rules` is no `kubernetes_role_v1`, whose `rule` block is required).
fn fits(
    data: &Data,
    kind: &str,
    fields: &Map<String, Json>,
    schema: &Block,
    path: &mut Vec<String>,
    top: bool,
) -> Result<(), String> {
    let mut present: Vec<String> = Vec::new();
    for (field, value) in fields {
        path.push(field.clone());
        match place(data, kind, field, schema, top) {
            Some(Place::Block(name)) => {
                let inner = &schema.blocks[&name];
                present.push(name);
                let items: Vec<&Json> = match value {
                    Json::Array(items) => items.iter().collect(),
                    other => vec![other],
                };
                for item in items {
                    let Json::Object(map) = item else {
                        return Err(format!("has no place for `{}`", path.join(".")));
                    };
                    fits(data, kind, map, inner, path, false)?;
                }
            }
            Some(Place::Argument(_)) => {}
            None => return Err(format!("has no place for `{}`", path.join("."))),
        }
        path.pop();
    }
    match schema.required_blocks.iter().find(|b| !present.contains(b)) {
        Some(missing) if path.is_empty() => Err(format!("requires a `{missing}` block")),
        Some(missing) => Err(format!(
            "requires a `{missing}` block in `{}`",
            path.join(".")
        )),
        None => Ok(()),
    }
}

impl Writer<'_> {
    /// The resource `address` of the object `a` (built from the inputs' values), `b` the same
    /// object in the other builds where they have it.
    pub fn resource(&self, address: &Address, a: &Json, b: Partners<'_>) -> String {
        let kind = a["kind"].as_str().unwrap_or("");
        if address.resource == "kubernetes_manifest" {
            let mut path = Vec::new();
            return format!(
                "resource \"kubernetes_manifest\" \"{}\" {{\n  manifest = {}\n}}\n",
                address.label,
                self.value(a, b, &mut path, None, 1)
            );
        }
        let schema = self
            .data
            .resource(a["apiVersion"].as_str().unwrap_or(""), kind)
            .map(|(_, s)| s)
            .expect("typed_resource chose a resource of the schema");
        let fields = top_fields(a);
        let top = |j: Option<&Json>| j.map(|j| Json::Object(top_fields(j)));
        let (marked, moved) = (top(b.marked), top(b.moved));
        let mut body = String::new();
        self.body(
            kind,
            &fields,
            Partners {
                marked: marked.as_ref(),
                moved: moved.as_ref(),
            },
            schema,
            &mut Vec::new(),
            true,
            1,
            &mut body,
        );
        format!(
            "resource \"{}\" \"{}\" {{\n{body}}}\n",
            address.resource, address.label
        )
    }

    /// The arguments, then the blocks (`metadata` first), of one block's body.
    #[allow(clippy::too_many_arguments)]
    fn body(
        &self,
        kind: &str,
        a: &Map<String, Json>,
        b: Partners<'_>,
        schema: &Block,
        path: &mut Vec<String>,
        top: bool,
        depth: usize,
        out: &mut String,
    ) {
        let pad = "  ".repeat(depth);
        let mut blocks: Vec<(String, &String, &Json)> = Vec::new();
        for (field, value) in a {
            let partner = b.field(field);
            match place(self.data, kind, field, schema, top) {
                Some(Place::Block(name)) => blocks.push((name, field, value)),
                Some(Place::Argument(name)) => {
                    path.push(field.clone());
                    let expr = if self.data.octal.contains(field)
                        && let Some(bits) = value.as_u64()
                    {
                        format!("\"0{bits:o}\"")
                    } else {
                        self.value(value, partner, path, Some(a), depth)
                    };
                    path.pop();
                    out.push_str(&format!("{pad}{name} = {expr}\n"));
                }
                None => {}
            }
        }
        blocks.sort_by_key(|(name, _, _)| name != "metadata");
        for (name, field, value) in blocks {
            let inner = &schema.blocks[&name];
            let partner = b.field(field);
            path.push(field.clone());
            let items: Vec<(&Json, Partners<'_>)> = match value {
                Json::Array(items) => items.iter().zip(partner.items(items.len())).collect(),
                one => vec![(one, partner)],
            };
            for (item, partner) in items {
                let empty = Map::new();
                let map = item.as_object().unwrap_or(&empty);
                if map.is_empty() {
                    out.push_str(&format!("\n{pad}{name} {{}}\n"));
                    continue;
                }
                out.push_str(&format!("\n{pad}{name} {{\n"));
                self.body(kind, map, partner, inner, path, false, depth + 1, out);
                out.push_str(&format!("{pad}}}\n"));
            }
            path.pop();
        }
    }

    /// A value as an HCL expression; `path` is the field's (list indices left out),
    /// `siblings` the object that holds it.
    fn value(
        &self,
        a: &Json,
        b: Partners<'_>,
        path: &mut Vec<String>,
        siblings: Option<&Map<String, Json>>,
        depth: usize,
    ) -> String {
        let pad = "  ".repeat(depth + 1);
        let end = "  ".repeat(depth);
        match a {
            Json::String(s) => {
                if let Some(reference) = self.reference(s, path, siblings) {
                    return reference;
                }
                let marked = b.marked.and_then(Json::as_str);
                let written = self.markers.string(s, marked);
                if written != hcl_str(s) {
                    return written;
                }
                self.moves.leaf(a, b.moved).unwrap_or(written)
            }
            Json::Array(items) if items.is_empty() => "[]".to_string(),
            Json::Array(items) => {
                let values: Vec<String> = items
                    .iter()
                    .zip(b.items(items.len()))
                    .map(|(item, partner)| self.value(item, partner, path, None, depth + 1))
                    .collect();
                if items.iter().all(|i| !i.is_object() && !i.is_array()) {
                    format!("[{}]", values.join(", "))
                } else {
                    let lines: Vec<String> =
                        values.iter().map(|v| format!("{pad}{v},\n")).collect();
                    format!("[\n{}{end}]", lines.concat())
                }
            }
            Json::Object(map) if map.is_empty() => "{}".to_string(),
            Json::Object(map) => {
                let mut lines = String::new();
                for (k, v) in map {
                    path.push(k.clone());
                    let partner = b.field(k);
                    let expr = self.value(v, partner, path, Some(map), depth + 1);
                    path.pop();
                    lines.push_str(&format!("{pad}{} = {expr}\n", key(k)));
                }
                format!("{{\n{lines}{end}}}")
            }
            other => self
                .moves
                .leaf(other, b.moved)
                .unwrap_or_else(|| other.to_string()),
        }
    }

    /// The reference to the object a field names, when the field is one that names an object
    /// (`objects.yaml`'s `references`) and that object is in the configuration.
    fn reference(
        &self,
        name: &str,
        path: &[String],
        siblings: Option<&Map<String, Json>>,
    ) -> Option<String> {
        self.data.references.iter().find_map(|r| {
            if !path.ends_with(&r.path) {
                return None;
            }
            let kind = match (&r.kind, &r.kind_field) {
                (Some(kind), _) => kind.clone(),
                (None, Some(field)) => siblings?.get(field)?.as_str()?.to_string(),
                _ => return None,
            };
            let address = self.addresses.get(&(kind, name.to_string()))?;
            Some(address.name_expression())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::data::data;
    use super::*;

    #[test]
    fn list_fields_are_singular_blocks_and_renamings_apply() {
        let data = data();
        let (_, deployment) = data.resource("apps/v1", "Deployment").unwrap();
        assert!(matches!(
            place(data, "Deployment", "spec", deployment, true),
            Some(Place::Block(n)) if n == "spec"
        ));
        let (_, secret) = data.resource("v1", "Secret").unwrap();
        assert!(matches!(
            place(data, "Secret", "stringData", secret, true),
            Some(Place::Argument(n)) if n == "data"
        ));
        assert!(matches!(
            place(data, "Secret", "data", secret, true),
            Some(Place::Argument(n)) if n == "binary_data"
        ));
        assert_eq!(singular("policies"), "policy");
        assert_eq!(singular("containers"), "container");
    }

    #[test]
    fn an_object_with_a_field_the_provider_lacks_is_a_manifest() {
        let o = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "x"}, "data": {"a": "b"}});
        assert_eq!(
            typed_resource(data(), &o).unwrap(),
            "kubernetes_config_map_v1"
        );
        let o = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "x", "noSuchField": 1}});
        assert!(
            typed_resource(data(), &o)
                .unwrap_err()
                .contains("metadata.noSuchField")
        );
        let o = serde_json::json!({"apiVersion": "apps/v1", "kind": "ReplicaSet"});
        assert!(typed_resource(data(), &o).is_err());
    }

    #[test]
    fn an_object_without_a_block_the_provider_requires_is_a_manifest() {
        let rules =
            serde_json::json!([{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]);
        let o = serde_json::json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": {"name": "r"}, "rules": rules});
        assert_eq!(typed_resource(data(), &o).unwrap(), "kubernetes_role_v1");
        let o = serde_json::json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": {"name": "r"}});
        assert_eq!(
            typed_resource(data(), &o).unwrap_err(),
            "kubernetes_role_v1 requires a `rule` block"
        );
    }
}
