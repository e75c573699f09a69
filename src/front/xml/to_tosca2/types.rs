//! Type definitions and the definitions inside them (properties, capabilities, requirements,
//! interfaces, artifacts), keyname by keyname from 1.3 (checklist SP-*) to 2.0 (T2-DIFF-07..12).

use crate::model::TypeKind;
use crate::yaml::{Kind, Map, Node};

use super::build::{self, M};
use super::keys::{self, To};
use super::{Rw, validation, values};

/// What a map of value definitions defines: their keynames differ a little.
#[derive(Clone, Copy, PartialEq)]
pub enum ValueDef {
    Property,
    Attribute,
    /// Inputs and outputs of templates, operations, interfaces and workflows.
    Parameter,
}

/// A type definition.
pub fn type_def(rw: &mut Rw, kind: TypeKind, name: &str, def: &Node) -> Node {
    let owner = format!("{} `{name}`", kind.noun());
    let base = def
        .as_map()
        .and_then(|m| m.get("derived_from"))
        .and_then(Node::scalar_text);
    keys::rewrite(rw, def, &owner, |rw, key, v| {
        use TypeKind as K;
        match (kind, key) {
            (_, "derived_from") => To::Value(rw.type_ref(v)),
            (_, "version" | "description" | "metadata") => To::Same,
            (_, "properties") => To::Value(value_defs(rw, v, ValueDef::Property, &owner)),
            (K::Data | K::Capability | K::Relationship | K::Node | K::Group, "attributes") => {
                To::Value(value_defs(rw, v, ValueDef::Attribute, &owner))
            }
            (K::Data, "constraints") => To::Validation(validation::clause(rw, v, base)),
            (K::Data, "key_schema" | "entry_schema") => To::Value(schema(rw, v, &owner)),
            (K::Artifact, "mime_type" | "file_ext") => To::Same,
            (K::Capability, "valid_source_types") => {
                To::Renamed("valid_source_node_types", rw.names.rename_all(v))
            }
            (K::Relationship, "valid_target_types") => {
                To::Renamed("valid_capability_types", rw.names.rename_all(v))
            }
            (K::Group, "members") | (K::Policy, "targets") => To::Value(rw.names.rename_all(v)),
            (K::Interface, "inputs") => To::Value(value_defs(rw, v, ValueDef::Parameter, &owner)),
            (K::Interface, "operations" | "notifications") => {
                To::Value(operation_defs(rw, v, &owner))
            }
            // Before 1.3 an interface type listed its operations directly.
            (K::Interface, _) if v.as_map().is_some() || v.is_null() => {
                To::Operation(operation_def(rw, v, &owner))
            }
            (K::Relationship | K::Node, "interfaces") => To::Value(interface_defs(rw, v, &owner)),
            (K::Node, "requirements") => To::Value(requirement_defs(rw, v, &owner)),
            (K::Node, "capabilities") => To::Value(capability_defs(rw, v, &owner)),
            (K::Node, "artifacts") => To::Value(artifact_defs(rw, v, &owner)),
            _ => To::Lost,
        }
    })
}

/// A map of property, attribute or parameter definitions.
pub fn value_defs(rw: &mut Rw, node: &Node, kind: ValueDef, owner: &str) -> Node {
    each(node, |name, def| {
        value_def(rw, def, kind, &format!("`{name}` of {owner}"))
    })
}

/// One property, attribute or parameter definition.
pub fn value_def(rw: &mut Rw, def: &Node, kind: ValueDef, what: &str) -> Node {
    let map = match def.as_map() {
        // 1.3 writes a parameter's value in place of its definition (an operation's inputs in
        // a type, say); 2.0 has `value` for it.
        Some(map) if kind != ValueDef::Parameter || is_definition(map) => map,
        _ => {
            let mut m = M::new(def.span);
            if let Some(v) = values::value(rw, def) {
                m.put("value", def.span, v);
            }
            return m.done();
        }
    };
    // 2.0 forbids `default` on a property that is not required (§9.4 Property Definition). Such a
    // property always has a value (its default) unless a template assigns one, which is what a
    // required property with a default means in 2.0.
    let not_required_with_default = map.get("required").and_then(Node::scalar_text)
        == Some("false")
        && map.contains_key("default");
    let type_name = map.get("type").and_then(Node::scalar_text);
    keys::rewrite(rw, def, what, |rw, key, v| match key {
        "type" => To::Value(rw.type_ref(v)),
        "description" | "metadata" | "status" => To::Same,
        "required" if kind == ValueDef::Attribute => To::Lost,
        "required" if not_required_with_default => To::Dropped,
        "required" => To::Same,
        "default" | "value" => values::value(rw, v).map_or(To::Dropped, To::Value),
        "constraints" => To::Validation(validation::clause(rw, v, type_name)),
        "key_schema" | "entry_schema" => To::Value(schema(rw, v, what)),
        _ => To::Lost,
    })
}

/// Whether a parameter's map is a definition rather than a value: it names a type or has
/// only definition keynames.
fn is_definition(map: &Map) -> bool {
    map.contains_key("type")
        || (!map.is_empty()
            && map.names().all(|k| {
                matches!(
                    k,
                    "description"
                        | "required"
                        | "default"
                        | "value"
                        | "constraints"
                        | "status"
                        | "metadata"
                        | "entry_schema"
                        | "key_schema"
                )
            }))
}

/// An `entry_schema` or `key_schema`: a type name or a schema definition.
pub fn schema(rw: &mut Rw, node: &Node, owner: &str) -> Node {
    let Some(map) = node.as_map() else {
        return rw.type_ref(node);
    };
    let type_name = map.get("type").and_then(Node::scalar_text);
    let what = format!("the schema of {owner}");
    keys::rewrite(rw, node, &what, |rw, key, v| match key {
        "type" => To::Value(rw.type_ref(v)),
        "description" | "metadata" => To::Same,
        "constraints" => To::Validation(validation::clause(rw, v, type_name)),
        "key_schema" | "entry_schema" => To::Value(schema(rw, v, owner)),
        _ => To::Lost,
    })
}

/// A node type's requirement definitions: a list of single-entry maps in both dialects.
fn requirement_defs(rw: &mut Rw, node: &Node, owner: &str) -> Node {
    let Some(items) = node.as_seq() else {
        return node.clone();
    };
    let mut out = Vec::new();
    for item in items {
        let Some([entry]) = item.as_map().map(Map::entries) else {
            out.push(item.clone());
            continue;
        };
        let name = entry.key.scalar_text().unwrap_or_default();
        let what = format!("requirement `{name}` of {owner}");
        let def = requirement_def(rw, &entry.value, &what);
        let mut m = M::new(item.span);
        m.put(name, entry.key.span, def);
        out.push(m.done());
    }
    build::seq(out, node.span)
}

fn requirement_def(rw: &mut Rw, def: &Node, what: &str) -> Node {
    if def.as_map().is_none() {
        // The short form names the capability type.
        let mut m = M::new(def.span);
        m.put("capability", def.span, rw.type_ref(def));
        return m.done();
    }
    keys::rewrite(rw, def, what, |rw, key, v| match key {
        "capability" | "node" => To::Value(rw.type_ref(v)),
        "relationship" => To::Value(relationship_def(rw, v, what)),
        "occurrences" => To::Renamed("count_range", v.clone()),
        "description" | "metadata" => To::Same,
        _ => To::Lost,
    })
}

/// The relationship of a requirement definition: a type name, or a type with interfaces.
fn relationship_def(rw: &mut Rw, node: &Node, what: &str) -> Node {
    if node.as_map().is_none() {
        return rw.type_ref(node);
    }
    let what = format!("the relationship of {what}");
    keys::rewrite(rw, node, &what, |rw, key, v| match key {
        "type" => To::Value(rw.type_ref(v)),
        "description" | "metadata" => To::Same,
        "interfaces" => To::Value(interface_defs(rw, v, &what)),
        _ => To::Lost,
    })
}

/// A node type's capability definitions.
fn capability_defs(rw: &mut Rw, node: &Node, owner: &str) -> Node {
    each(node, |name, def| {
        let what = format!("capability `{name}` of {owner}");
        if def.as_map().is_none() {
            // The short form names the capability type.
            let mut m = M::new(def.span);
            m.put("type", def.span, rw.type_ref(def));
            return m.done();
        }
        keys::rewrite(rw, def, &what, |rw, key, v| match key {
            "type" => To::Value(rw.type_ref(v)),
            "description" | "metadata" => To::Same,
            "properties" => To::Value(value_defs(rw, v, ValueDef::Property, &what)),
            "attributes" => To::Value(value_defs(rw, v, ValueDef::Attribute, &what)),
            "valid_source_types" => To::Renamed("valid_source_node_types", rw.names.rename_all(v)),
            // 2.0 gives capabilities no occurrences (T2-DIFF-08): the bounds are lost.
            "occurrences" => {
                rw.lose(v.span, format!("the bounds (occurrences) of {what}"));
                To::Dropped
            }
            _ => To::Lost,
        })
    })
}

/// Interface definitions of a node or relationship type (or a requirement's relationship).
fn interface_defs(rw: &mut Rw, node: &Node, owner: &str) -> Node {
    each(node, |name, def| {
        let what = format!("interface `{name}` of {owner}");
        keys::rewrite(rw, def, &what, |rw, key, v| match key {
            "type" => To::Value(rw.type_ref(v)),
            "description" | "metadata" => To::Same,
            "inputs" => To::Value(value_defs(rw, v, ValueDef::Parameter, &what)),
            "operations" | "notifications" => To::Value(operation_defs(rw, v, &what)),
            // Operations written directly under the interface (before 1.3's `operations`).
            _ => To::Operation(operation_def(rw, v, &what)),
        })
    })
}

fn operation_defs(rw: &mut Rw, node: &Node, owner: &str) -> Node {
    each(node, |name, def| {
        operation_def(rw, def, &format!("operation `{name}` of {owner}"))
    })
}

/// An operation or notification definition.
fn operation_def(rw: &mut Rw, def: &Node, what: &str) -> Node {
    if def.as_map().is_none() {
        let mut m = M::new(def.span);
        // The short form is the implementation.
        if !def.is_null() {
            m.put("implementation", def.span, implementation(rw, def, what));
        }
        return m.done();
    }
    keys::rewrite(rw, def, what, |rw, key, v| match key {
        "description" | "metadata" => To::Same,
        "implementation" => To::Value(implementation(rw, v, what)),
        "inputs" => To::Value(value_defs(rw, v, ValueDef::Parameter, what)),
        "outputs" => To::Value(outputs(v)),
        _ => To::Lost,
    })
}

/// 1.3 operation outputs map an output to an attribute (`[SELF, attr]`); 2.0 writes that as
/// the output's `mapping` (T2-DIFF-07).
fn outputs(node: &Node) -> Node {
    each(node, |_, target| {
        let mut m = M::new(target.span);
        m.put("mapping", target.span, target.clone());
        m.done()
    })
}

/// An operation implementation: an artifact name, or `primary` and `dependencies`.
pub fn implementation(rw: &mut Rw, node: &Node, what: &str) -> Node {
    let artifact = |rw: &mut Rw, a: &Node| match a.as_map() {
        Some(_) => artifact_def(rw, a, what),
        None => Some(a.clone()),
    };
    let of = format!("the implementation of {what}");
    keys::rewrite(rw, node, &of, |rw, key, v| match key {
        "primary" => artifact(rw, v).map_or(To::Dropped, To::Value),
        "dependencies" => {
            let items = v.as_seq().unwrap_or_default();
            let deps = items.iter().filter_map(|d| artifact(rw, d)).collect();
            To::Value(build::seq(deps, v.span))
        }
        _ => To::Lost,
    })
}

/// A map of artifact definitions.
pub fn artifact_defs(rw: &mut Rw, node: &Node, owner: &str) -> Node {
    let Some(map) = node.as_map() else {
        return node.clone();
    };
    let mut out = M::new(node.span);
    for e in map.entries() {
        let name = e.key.scalar_text().unwrap_or_default();
        if let Some(def) = artifact_def(rw, &e.value, &format!("artifact `{name}` of {owner}")) {
            out.put(name, e.key.span, def);
        }
    }
    out.done()
}

/// One artifact definition; `None` for 1.3's short form (a file alone), as 2.0 wants a type.
fn artifact_def(rw: &mut Rw, def: &Node, what: &str) -> Option<Node> {
    if def.as_map().is_none() {
        rw.lose(
            def.span,
            format!("{what}, a file without an artifact type,"),
        );
        return None;
    }
    Some(keys::rewrite(rw, def, what, |rw, key, v| match key {
        "type" => To::Value(rw.type_ref(v)),
        "file" | "repository" | "description" | "metadata" | "artifact_version" | "checksum"
        | "checksum_algorithm" => To::Same,
        "properties" => To::Value(values::values(rw, v)),
        _ => To::Lost,
    }))
}

/// A map whose every value is rewritten by `f(name, value)`.
pub fn each(node: &Node, mut f: impl FnMut(&str, &Node) -> Node) -> Node {
    let Some(map) = node.as_map() else {
        return node.clone();
    };
    let mut out = Map::new();
    for e in map.entries() {
        let name = e.key.scalar_text().unwrap_or_default();
        let _ = out.insert(e.key.clone(), f(name, &e.value));
    }
    Node {
        kind: Kind::Map(out),
        ..node.clone()
    }
}
