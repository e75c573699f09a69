//! `--quirk oasis-profiles`: a property definition that refines the properties of its own data
//! type, as the OASIS community's Kubernetes profile (`io.kubernetes:1.35`) writes them:
//!
//! ```yaml
//! Service:                      # a node type
//!   properties:
//!     spec:
//!       type: ServiceSpec
//!       properties:             # no keyname of a property definition (§9.4 Property Definition)
//!         selector:
//!           default: { $get_property: [SELF, RELATIONSHIP, pod, TARGET, metadata, labels] }
//! ```
//!
//! The profile's authors mean what a TOSCA 2.0 data type derived from `ServiceSpec` says when
//! it refines `selector` (§9.2 Data Type): for this one property the value is a `ServiceSpec`
//! whose `selector` defaults to the pod's labels (their `GENERATING.md`, step 7, "set `spec`
//! property values in the node types ... with `default:` values on the spec fields"). Ignoring
//! the block would lose those defaults and make every `Service` template lack its required
//! `selector`, so under the quirk it is read as just that: the file gets a data type named
//! `ServiceSpec (in node type Service, property spec)`, derived from `ServiceSpec`, whose
//! `properties` are the block, and the property definition's `type` names it. Everything
//! else (refinement rules, defaults, fixed values, required fields) is then what TOSCA 2.0
//! says of a derived data type, checked by the same code. A refinement nested in the block is
//! read the same way, one level further down.
//!
//! A refinement of an inherited property (no `type`: `Pod` makes the `labels` of its
//! `metadata` required) refines the type the property has in the parent, found along
//! `derived_from` among the types of the same file (itself such a data type when the parent
//! refined it too, so `Pod`'s `metadata` keeps what `NamespacedResource` fixed). When the
//! parent is not in the file, the type is not known before names are resolved, and the block
//! is dropped with a warning. Only the `properties` of type definitions are read so; elsewhere
//! (a capability definition inside a node type) the keyname stays the grammar's error.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::TypeKind;
use crate::yaml::{Kind, Map, Node};

/// The file's root with every nested refinement of its type definitions' property definitions
/// turned into a data type of its own; `None` when the file has none (nothing to change).
pub fn rewrite(root: &Map, diags: &mut Diagnostics) -> Option<Map> {
    if !TypeKind::ALL.iter().any(|kind| has_nested(root, *kind)) {
        return None;
    }
    let mut added: Vec<(Node, Node)> = Vec::new();
    let mut out = Map::new();
    for entry in root.entries() {
        let kind = entry.key.as_str().and_then(TypeKind::of_section);
        let value = match (kind, entry.value.as_map()) {
            (Some(kind), Some(types)) => {
                let mut rewritten = Map::new();
                for def in types.entries() {
                    let owner = Owner {
                        noun: kind.noun(),
                        name: def.key.scalar_text().unwrap_or_default().to_string(),
                        section: Some(types),
                    };
                    let body = rewrite_type(&def.value, &owner, &mut added, diags);
                    // Keys come from a map that had them once each.
                    let _ = rewritten.insert(def.key.clone(), body);
                }
                Node {
                    kind: Kind::Map(rewritten),
                    ..entry.value.clone()
                }
            }
            _ => entry.value.clone(),
        };
        let _ = out.insert(entry.key.clone(), value);
    }
    add_data_types(&mut out, added, diags);
    Some(out)
}

/// Whether a type section of `root` has a property definition with `properties`.
fn has_nested(root: &Map, kind: TypeKind) -> bool {
    root.get(kind.section())
        .and_then(Node::as_map)
        .is_some_and(|types| {
            types.entries().iter().any(|def| {
                property_defs(&def.value).is_some_and(|props| {
                    props.entries().iter().any(|p| {
                        p.value
                            .as_map()
                            .is_some_and(|m| m.contains_key("properties"))
                    })
                })
            })
        })
}

/// The `properties` map of a type definition.
fn property_defs(def: &Node) -> Option<&Map> {
    def.as_map()?.get("properties")?.as_map()
}

/// The type whose property definitions are being rewritten: for the names of the data types
/// made from them, and the types of its file's section, where its parents are.
struct Owner<'s> {
    noun: &'static str,
    name: String,
    section: Option<&'s Map>,
}

/// The name of the data type made of the block refining property `prop` of the type `owner`
/// (a `noun`), whose type is (derived from) the data type `local`, named without its prefix.
fn refined_name(local: &str, noun: &str, owner: &str, prop: &str) -> String {
    format!("{local} (in {noun} {owner}, property {prop})")
}

/// A type name without its namespace prefixes.
fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// What property `prop` of the type `name` of `section` (of `noun`s) is, as this file writes
/// it: the type name to derive a refinement from (a data type this module makes, when `name`
/// or a parent refines its properties) and the local name of the data type written last along
/// the way. `None` when the chain leaves the file before a `type` is found; `hops` bounds a
/// `derived_from` cycle (reported where types are resolved).
fn declared(
    section: &Map,
    noun: &str,
    name: &str,
    prop: &str,
    hops: usize,
) -> Option<(String, String)> {
    if hops > section.len() {
        return None;
    }
    let def = section.get(name)?;
    let Some(body) = property_defs(def)
        .and_then(|props| props.get(prop))
        .and_then(Node::as_map)
    else {
        return inherited(section, noun, name, prop, hops);
    };
    let base = match body.get("type").and_then(Node::as_str) {
        Some(written) => Some((written.to_string(), local(written).to_string())),
        None => inherited(section, noun, name, prop, hops),
    };
    match base {
        Some((_, root)) if body.contains_key("properties") => {
            Some((refined_name(&root, noun, name, prop), root))
        }
        base => base,
    }
}

/// [`declared`] for the parent of the type `name`, if the file defines it.
fn inherited(
    section: &Map,
    noun: &str,
    name: &str,
    prop: &str,
    hops: usize,
) -> Option<(String, String)> {
    let parent = section.get(name)?.as_map()?.get("derived_from")?.as_str()?;
    declared(section, noun, parent, prop, hops + 1)
}

/// One type definition with its nested refinements rewritten; the data types they become are
/// pushed onto `added` as (name, definition), and rewritten in turn.
fn rewrite_type(
    def: &Node,
    owner: &Owner<'_>,
    added: &mut Vec<(Node, Node)>,
    diags: &mut Diagnostics,
) -> Node {
    let (Some(map), Some(props)) = (def.as_map(), property_defs(def)) else {
        return def.clone();
    };
    let mut new_props = Map::new();
    for prop in props.entries() {
        let value = match (prop.value.as_map(), prop.key.scalar_text()) {
            (Some(body), Some(name)) if body.contains_key("properties") => {
                rewrite_property(&prop.value, body, name, owner, added, diags)
            }
            _ => prop.value.clone(),
        };
        let _ = new_props.insert(prop.key.clone(), value);
    }
    let mut new_def = Map::new();
    for entry in map.entries() {
        let value = if entry.key.as_str() == Some("properties") {
            Node {
                kind: Kind::Map(std::mem::take(&mut new_props)),
                ..entry.value.clone()
            }
        } else {
            entry.value.clone()
        };
        let _ = new_def.insert(entry.key.clone(), value);
    }
    Node {
        kind: Kind::Map(new_def),
        ..def.clone()
    }
}

/// The property definition `name` (`node`, whose map is `body`) without its `properties`
/// block, its `type` naming the data type the block becomes.
fn rewrite_property(
    node: &Node,
    body: &Map,
    name: &str,
    owner: &Owner<'_>,
    added: &mut Vec<(Node, Node)>,
    diags: &mut Diagnostics,
) -> Node {
    let block = body.entry("properties").expect("checked by the caller");
    let written = body.get("type");
    // The type to derive from, as a node (where it is written, else at the block), and the
    // data type's local name.
    let base = match written {
        Some(w) => w
            .as_str()
            .map(|t| (Some(w.clone()), t.to_string(), local(t).to_string())),
        None => owner
            .section
            .and_then(|section| inherited(section, owner.noun, &owner.name, name, 0))
            .map(|(parent, root)| (None, parent, root)),
    };
    let Some((parent_node, parent, root)) = base else {
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_UNKNOWN_KEY,
                format!(
                    "`properties` in property definition `{name}` is not TOSCA 2.0, and the property has no `type` here or in a parent type of this file to refine; ignored (--quirk oasis-profiles)"
                ),
            )
            .at(block.key.span)
            .hint("give the property its `type`, or define a data type that refines these properties"),
        );
        let mut out = Map::new();
        for entry in body.entries() {
            if entry.key.as_str() != Some("properties") {
                let _ = out.insert(entry.key.clone(), entry.value.clone());
            }
        }
        return Node {
            kind: Kind::Map(out),
            ..node.clone()
        };
    };
    let refined = refined_name(&root, owner.noun, &owner.name, name);
    diags.push(
        Diagnostic::warning(
            codes::TOSCA_UNKNOWN_KEY,
            format!(
                "`properties` in property definition `{name}` is not TOSCA 2.0; read as the data type `{refined}`, derived from `{parent}` with these property refinements (--quirk oasis-profiles)"
            ),
        )
        .at(block.key.span)
        .hint(format!(
            "TOSCA 2.0 says this with a data type derived from `{parent}` whose `properties` refine these (§9.2 Data Type), named as this property's `type`"
        )),
    );
    let type_node = |span| Node::string(&refined, span);
    let mut out = Map::new();
    for entry in body.entries() {
        match entry.key.as_str() {
            Some("properties") => {}
            Some("type") => {
                let _ = out.insert(entry.key.clone(), type_node(entry.value.span));
            }
            _ => {
                let _ = out.insert(entry.key.clone(), entry.value.clone());
            }
        }
    }
    if written.is_none() {
        let _ = out.insert(
            Node::string("type", block.key.span),
            type_node(block.key.span),
        );
    }
    let parent_node = parent_node.unwrap_or_else(|| Node::string(&parent, block.key.span));
    let mut data_type = Map::new();
    let _ = data_type.insert(Node::string("derived_from", parent_node.span), parent_node);
    let _ = data_type.insert(block.key.clone(), block.value.clone());
    let data_type = Node {
        span: block.value.span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: Kind::Map(data_type),
    };
    let nested_owner = Owner {
        noun: TypeKind::Data.noun(),
        name: refined.clone(),
        section: None,
    };
    let data_type = rewrite_type(&data_type, &nested_owner, added, diags);
    added.push((Node::string(&refined, block.key.span), data_type));
    Node {
        kind: Kind::Map(out),
        ..node.clone()
    }
}

/// Adds the data types made from nested refinements to the file's `data_types`.
fn add_data_types(root: &mut Map, added: Vec<(Node, Node)>, diags: &mut Diagnostics) {
    if added.is_empty() {
        return;
    }
    let entries = std::mem::take(root).into_entries();
    let has_section = entries
        .iter()
        .any(|e| e.key.as_str() == Some(TypeKind::Data.section()));
    let mut added = Some(added);
    let span = added.as_ref().and_then(|a| a.first()).map(|(k, _)| k.span);
    for mut entry in entries {
        if entry.key.as_str() == Some(TypeKind::Data.section())
            && let Kind::Map(types) = &mut entry.value.kind
        {
            insert_all(types, added.take().unwrap_or_default(), diags);
        }
        let _ = root.insert(entry.key, entry.value);
    }
    if let (false, Some(added), Some(span)) = (has_section, added, span) {
        let mut types = Map::new();
        insert_all(&mut types, added, diags);
        let _ = root.insert(
            Node::string(TypeKind::Data.section(), span),
            Node {
                span,
                tag: None,
                style: crate::yaml::Style::Plain,
                kind: Kind::Map(types),
            },
        );
    }
}

fn insert_all(types: &mut Map, added: Vec<(Node, Node)>, diags: &mut Diagnostics) {
    for (name, def) in added {
        if let Err((name, _)) = types.insert(name, def) {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_DUPLICATE,
                    format!(
                        "the data type `{}` that --quirk oasis-profiles makes of this block is already defined in this file",
                        name.scalar_text().unwrap_or_default()
                    ),
                )
                .at(name.span)
                .hint("rename the data type the file defines under this name"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::source::{Origin, SourceMap};

    /// The YAML `text` through [`rewrite`], with what it reported.
    fn rewritten(text: &str) -> (Option<Map>, Diagnostics) {
        let mut sources = SourceMap::default();
        let id = sources.add("t.yaml", Origin::Stdin, text);
        let mut diags = Diagnostics::default();
        let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags).unwrap();
        assert!(diags.is_empty());
        let out = rewrite(root.as_map().unwrap(), &mut diags);
        (out, diags)
    }

    /// The definition of property `prop` in the type `ty` of `section`.
    fn property_of<'a>(section: &'a Map, ty: &str, prop: &str) -> Option<&'a Map> {
        property_defs(section.get(ty)?)?.get(prop)?.as_map()
    }

    #[test]
    fn a_nested_refinement_becomes_a_derived_data_type() {
        let (out, diags) = rewritten(
            "tosca_definitions_version: tosca_2_0\nnode_types:\n  Service:\n    properties:\n      spec:\n        type: k8s:ServiceSpec\n        properties:\n          selector:\n            default: {}\n            properties:\n              app: { required: true }\n      plain: { type: string }\n",
        );
        let out = out.expect("rewritten");
        let node_types = out.get("node_types").and_then(Node::as_map).unwrap();
        let spec = property_of(node_types, "Service", "spec").unwrap();
        let refined = "ServiceSpec (in node type Service, property spec)";
        assert_eq!(spec.get("type").and_then(Node::as_str), Some(refined));
        assert!(!spec.contains_key("properties"));
        let data_types = out.get("data_types").and_then(Node::as_map).unwrap();
        let made = data_types.get(refined).and_then(Node::as_map).unwrap();
        assert_eq!(
            made.get("derived_from").and_then(Node::as_str),
            Some("k8s:ServiceSpec")
        );
        // `selector` has no `type`: its own block is dropped with a warning.
        let selector = property_of(data_types, refined, "selector").unwrap();
        assert!(!selector.contains_key("properties"));
        assert!(selector.contains_key("default"));
        let messages: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].contains(refined), "{messages:?}");
        assert!(messages[1].contains("has no `type`"), "{messages:?}");
        assert!(diags.iter().all(|d| d.span.is_some()));
    }

    #[test]
    fn a_file_without_nested_refinements_is_left_alone() {
        let (out, diags) = rewritten(
            "tosca_definitions_version: tosca_2_0\nnode_types:\n  A:\n    properties:\n      p: { type: string }\n",
        );
        assert!(out.is_none());
        assert!(diags.is_empty());
    }

    #[test]
    fn a_refinement_of_an_inherited_property_refines_what_the_parent_made_of_it() {
        let (out, diags) = rewritten(
            "tosca_definitions_version: tosca_2_0\nnode_types:\n  Resource:\n    properties:\n      metadata: { type: meta:ObjectMeta }\n  Namespaced:\n    derived_from: Resource\n    properties:\n      metadata:\n        properties:\n          namespace: { value: default }\n  Pod:\n    derived_from: Namespaced\n    properties:\n      metadata:\n        properties:\n          labels: { required: true }\n  Far:\n    derived_from: other:Resource\n    properties:\n      metadata:\n        properties:\n          labels: { required: true }\n",
        );
        let out = out.expect("rewritten");
        let data_types = out.get("data_types").and_then(Node::as_map).unwrap();
        let parent_of = |name: &str| {
            data_types
                .get(name)
                .and_then(Node::as_map)
                .and_then(|m| m.get("derived_from"))
                .and_then(Node::as_str)
                .map(str::to_string)
        };
        let namespaced = "ObjectMeta (in node type Namespaced, property metadata)";
        let pod = "ObjectMeta (in node type Pod, property metadata)";
        assert_eq!(parent_of(namespaced).as_deref(), Some("meta:ObjectMeta"));
        assert_eq!(parent_of(pod).as_deref(), Some(namespaced));
        let types = out.get("node_types").and_then(Node::as_map).unwrap();
        let metadata_type = |owner: &str| {
            property_of(types, owner, "metadata")
                .and_then(|m| m.get("type"))
                .and_then(Node::as_str)
                .map(str::to_string)
        };
        assert_eq!(metadata_type("Pod").as_deref(), Some(pod));
        // `Far`'s parent is in another file: its block is dropped, with a warning.
        assert_eq!(metadata_type("Far"), None);
        assert_eq!(diags.warning_count(), 3);
    }
}
