//! `topology_template` as 2.0's `service_template` (T2-DIFF-02): templates, policies, workflows
//! and the substitution mappings.
//!
//! 2.0 maps a substituted node's property to an input of the substituting template, never
//! straight to an inner node's property (§15.2, T2-DIFF-13). So a 1.3 mapping `p: [node, q]`
//! (what XML's `PropertyMapping` becomes) is written as an input `p` of `q`'s type, the node
//! template's `q: { $get_input: p }`, and the mapping `p: p`; a value the template gave `q` is
//! the input's default, and without one the input is not required, as no XML property is.

use crate::source::Span;
use crate::yaml::{Map, Node};

use super::Rw;
use super::build::{self, M};
use super::keys::{self, To};
use super::types::{self, ValueDef};
use super::values;
use crate::model::TypeKind;

/// A node template property that takes an input.
struct Injection<'t> {
    node: &'t str,
    property: &'t str,
    input: String,
    span: Span,
}

pub fn service_template(rw: &mut Rw, node: &Node) -> Node {
    let Some(map) = node.as_map() else {
        return node.clone();
    };
    let what = "the service template";
    let templates = map.get("node_templates").and_then(Node::as_map);
    let mut inputs = M::new(node.span);
    if let Some(defined) = map.get("inputs") {
        let defined = types::value_defs(rw, defined, ValueDef::Parameter, what);
        for e in defined.as_map().map(Map::entries).unwrap_or_default() {
            inputs.put(
                e.key.scalar_text().unwrap_or_default(),
                e.key.span,
                e.value.clone(),
            );
        }
    }
    let mut injections = Vec::new();
    let substitution = map
        .get("substitution_mappings")
        .map(|s| substitution_mappings(rw, s, templates, &mut inputs, &mut injections));
    let inputs = inputs.done();
    let out = keys::rewrite(rw, node, what, |rw, key, v| match key {
        "description" => To::Same,
        "inputs" => To::Value(inputs.clone()),
        "outputs" => To::Value(types::value_defs(rw, v, ValueDef::Parameter, what)),
        "node_templates" => To::Value(types::each(v, |name, def| {
            node_template(rw, name, def, &injections)
        })),
        "relationship_templates" => To::Value(types::each(v, |name, def| {
            entity(rw, def, &format!("relationship template `{name}`"))
        })),
        "groups" => To::Value(types::each(v, |name, def| {
            entity(rw, def, &format!("group `{name}`"))
        })),
        "policies" => To::Value(policies(rw, v)),
        "workflows" => To::Value(types::each(v, |name, def| workflow(rw, name, def))),
        "substitution_mappings" => substitution.clone().map_or(To::Dropped, To::Value),
        _ => To::Lost,
    });
    if map.contains_key("inputs") || inputs.as_map().is_none_or(Map::is_empty) {
        return out;
    }
    // Inputs made for property mappings, where a service template lists them: first, after
    // its description.
    let mut with_inputs = M::new(out.span);
    let entries = out.as_map().map(Map::entries).unwrap_or_default();
    let (description, rest) = match entries.split_first() {
        Some((first, rest)) if first.key.scalar_text() == Some("description") => {
            (Some(first), rest)
        }
        _ => (None, entries),
    };
    if let Some(d) = description {
        with_inputs.put("description", d.key.span, d.value.clone());
    }
    with_inputs.put("inputs", inputs.span, inputs);
    for e in rest {
        with_inputs.put(
            e.key.scalar_text().unwrap_or_default(),
            e.key.span,
            e.value.clone(),
        );
    }
    with_inputs.done()
}

/// A node template, with the properties that take inputs set to `$get_input`.
fn node_template(rw: &mut Rw, name: &str, def: &Node, injections: &[Injection]) -> Node {
    let mine: Vec<&Injection> = injections.iter().filter(|i| i.node == name).collect();
    let what = format!("node template `{name}`");
    let out = keys::rewrite(rw, def, &what, |rw, key, v| match key {
        "type" => To::Value(rw.type_ref(v)),
        "description" | "metadata" | "directives" | "copy" => To::Same,
        "properties" => To::Value(with_inputs(values::values(rw, v), &mine)),
        "attributes" => To::Value(values::values(rw, v)),
        "requirements" => To::Value(requirement_assignments(rw, v, &what)),
        "capabilities" => To::Value(types::each(v, |cap, c| {
            entity(rw, c, &format!("capability `{cap}` of {what}"))
        })),
        "interfaces" => To::Value(interface_assignments(rw, v, &what)),
        "artifacts" => To::Value(types::artifact_defs(rw, v, &what)),
        _ => To::Lost,
    });
    let has_properties = def.as_map().is_some_and(|m| m.contains_key("properties"));
    if has_properties || mine.is_empty() {
        return out;
    }
    let properties = with_inputs(M::new(def.span).done(), &mine);
    super::with_entry(out, "properties", properties)
}

/// `properties` with each injected property set to `{ $get_input: <input> }`.
fn with_inputs(properties: Node, injections: &[&Injection]) -> Node {
    if injections.is_empty() {
        return properties;
    }
    let mut out = M::new(properties.span);
    let get = |i: &Injection| {
        let mut m = M::new(i.span);
        m.put("$get_input", i.span, build::s(&i.input, i.span));
        m.done()
    };
    for e in properties.as_map().map(Map::entries).unwrap_or_default() {
        let name = e.key.scalar_text().unwrap_or_default();
        match injections.iter().find(|i| i.property == name) {
            Some(i) => out.put(name, e.key.span, get(i)),
            None => out.put(name, e.key.span, e.value.clone()),
        };
    }
    for i in injections {
        out.put(i.property, i.span, get(i));
    }
    out.done()
}

/// Relationship templates, groups, capability assignments, policies: an entity with a type and
/// values.
fn entity(rw: &mut Rw, def: &Node, what: &str) -> Node {
    keys::rewrite(rw, def, what, |rw, key, v| match key {
        "type" => To::Value(rw.type_ref(v)),
        "description" | "metadata" | "copy" | "members" | "targets" | "directives" => To::Same,
        "properties" | "attributes" => To::Value(values::values(rw, v)),
        "interfaces" => To::Value(interface_assignments(rw, v, what)),
        _ => To::Lost,
    })
}

/// `policies`: a list of single-entry maps in both dialects.
fn policies(rw: &mut Rw, node: &Node) -> Node {
    each_in_list(node, |name, def| {
        entity(rw, def, &format!("policy `{name}`"))
    })
}

/// The requirement assignments of a node template.
fn requirement_assignments(rw: &mut Rw, node: &Node, owner: &str) -> Node {
    each_in_list(node, |name, def| {
        let what = format!("requirement `{name}` of {owner}");
        // The short form names the target node template, as in 2.0.
        keys::rewrite(rw, def, &what, |rw, key, v| match key {
            "node" | "capability" => To::Value(rw.type_ref(v)),
            "relationship" if v.as_map().is_some() => To::Value(entity(rw, v, &what)),
            "relationship" => To::Value(rw.type_ref(v)),
            _ => To::Lost,
        })
    })
}

/// A list of single-entry maps whose every value is rewritten by `f(name, value)`.
fn each_in_list(node: &Node, mut f: impl FnMut(&str, &Node) -> Node) -> Node {
    let items = node
        .as_seq()
        .unwrap_or_default()
        .iter()
        .map(|item| types::each(item, &mut f))
        .collect();
    build::seq(items, node.span)
}

/// Interface assignments of a template: input values and operation implementations.
fn interface_assignments(rw: &mut Rw, node: &Node, owner: &str) -> Node {
    types::each(node, |name, def| {
        let what = format!("interface `{name}` of {owner}");
        keys::rewrite(rw, def, &what, |rw, key, v| match key {
            "description" | "metadata" => To::Same,
            "inputs" => To::Value(values::values(rw, v)),
            "operations" | "notifications" => To::Value(types::each(v, |op, o| {
                operation_assignment(rw, o, &format!("operation `{op}` of {what}"))
            })),
            // Operations written directly under the interface (before 1.3's `operations`).
            _ => To::Operation(operation_assignment(
                rw,
                v,
                &format!("operation `{key}` of {what}"),
            )),
        })
    })
}

fn operation_assignment(rw: &mut Rw, def: &Node, what: &str) -> Node {
    if def.as_map().is_none() {
        let mut m = M::new(def.span);
        // The short form is the implementation.
        if !def.is_null() {
            m.put(
                "implementation",
                def.span,
                types::implementation(rw, def, what),
            );
        }
        return m.done();
    }
    keys::rewrite(rw, def, what, |rw, key, v| match key {
        "description" | "metadata" => To::Same,
        "implementation" => To::Value(types::implementation(rw, v, what)),
        "inputs" => To::Value(values::values(rw, v)),
        _ => To::Lost,
    })
}

/// A workflow. What the XML writes (a plan: its metadata and input parameters) reads the same
/// in 2.0; 1.3's declarative steps and preconditions are not rewritten.
fn workflow(rw: &mut Rw, name: &str, def: &Node) -> Node {
    let what = format!("workflow `{name}`");
    keys::rewrite(rw, def, &what, |rw, key, v| match key {
        "description" | "metadata" => To::Same,
        "inputs" => To::Value(types::value_defs(rw, v, ValueDef::Parameter, &what)),
        _ => To::Lost,
    })
}

/// `substitution_mappings`, collecting the inputs and node template properties that stand for
/// property mappings.
fn substitution_mappings<'t>(
    rw: &mut Rw,
    node: &'t Node,
    templates: Option<&'t Map>,
    inputs: &mut M,
    injections: &mut Vec<Injection<'t>>,
) -> Node {
    let entries = |v: &'t Node| v.as_map().map(Map::entries).unwrap_or_default();
    keys::rewrite(
        rw,
        node,
        "the substitution mappings",
        |rw, key, v| match key {
            "node_type" => To::Value(rw.type_ref(v)),
            "description" | "metadata" => To::Same,
            "capabilities" | "interfaces" => {
                To::Value(types::each(v, |_, target| mapping_target(target).clone()))
            }
            // 2.0 lists requirement mappings (§15.5), and maps only onto requirements the
            // substituting template leaves dangling (§15.5.4 Requirement Mapping Rules, rule 1).
            "requirements" => {
                let mut items = Vec::new();
                for r in entries(v) {
                    let name = r.key.scalar_text().unwrap_or_default();
                    let target = mapping_target(&r.value);
                    if let Some((node, inner, fulfiller)) = fulfilled_inside(target, templates) {
                        rw.lose_because(
                            r.key.span,
                            format!("the mapping of requirement `{name}` onto `{inner}` of node template `{node}`"),
                            format!("the topology already connects `{inner}` of `{node}` to `{fulfiller}`, and TOSCA 2.0 maps a requirement only onto one the substituting template leaves dangling (§15.5.4 Requirement Mapping Rules); the mapping is left out"),
                        );
                        continue;
                    }
                    let mut m = M::new(r.key.span);
                    m.put(name, r.key.span, target.clone());
                    items.push(m.done());
                }
                match items.is_empty() {
                    true => To::Dropped,
                    false => To::Value(build::seq(items, v.span)),
                }
            }
            "properties" => {
                let node_type = node
                    .as_map()
                    .and_then(|m| m.get("node_type"))
                    .and_then(Node::scalar_text);
                let mut props = M::new(v.span);
                for p in entries(v) {
                    let name = p.key.scalar_text().unwrap_or_default();
                    let Some(input) =
                        property_mapping(rw, name, &p.value, templates, inputs, injections)
                    else {
                        continue;
                    };
                    // XML maps the service template's own properties, which its
                    // substitutableNodeType need not define; 2.0 maps only properties of the
                    // substituted node type (§15.2 Property Mapping). The input made for the
                    // mapping still carries the value to the node template.
                    if let Some(t) = node_type
                        && property_definition(rw, t, name).is_none()
                    {
                        rw.lose_because(
                            p.key.span,
                            format!("the mapping of property `{name}` onto node type `{t}`"),
                            format!("`{t}` defines no property `{name}`, and TOSCA 2.0 maps only properties of the substituted node type (§15.2 Property Mapping); the input `{name}` still gives the node template its value"),
                        );
                        continue;
                    }
                    props.put(name, p.key.span, input);
                }
                match props.is_empty() {
                    true => To::Dropped,
                    false => To::Value(props.done()),
                }
            }
            _ => To::Lost,
        },
    )
}

/// For a requirement mapping `[node, requirement]` onto a requirement that node template
/// `node` assigns a target node every time it assigns it: the node, the requirement and the
/// (first) target. XML's boundary requirements may expose a requirement that a relationship
/// template of the topology connects; 2.0 cannot map those (§15.5.4 rule 1), and `check`
/// reports it as `tosca::requirement-mapping`.
fn fulfilled_inside<'t>(
    target: &'t Node,
    templates: Option<&'t Map>,
) -> Option<(&'t str, &'t str, &'t str)> {
    let [node, inner] = target.as_seq()? else {
        return None;
    };
    let (node, inner) = (node.scalar_text()?, inner.scalar_text()?);
    let assignments = templates?
        .get(node)?
        .as_map()?
        .get("requirements")?
        .as_seq()?
        .iter()
        .filter_map(|item| item.as_map()?.get(inner));
    let mut first = None;
    for assignment in assignments {
        // The short form names the target node; the long form may leave it out (dangling).
        let target = match assignment.as_map() {
            Some(long) => long.get("node")?.scalar_text()?,
            None => assignment.scalar_text()?,
        };
        first.get_or_insert(target);
    }
    first.map(|target| (node, inner, target))
}

/// 1.3's `{ mapping: [node, name] }` or `[node, name]`: the list.
fn mapping_target(node: &Node) -> &Node {
    node.as_map().and_then(|m| m.get("mapping")).unwrap_or(node)
}

/// One property mapping as the input 2.0 maps the property to.
fn property_mapping<'t>(
    rw: &mut Rw,
    name: &str,
    mapping: &'t Node,
    templates: Option<&'t Map>,
    inputs: &mut M,
    injections: &mut Vec<Injection<'t>>,
) -> Option<Node> {
    let target = mapping_target(mapping);
    let parts: Vec<&'t str> = target
        .as_seq()
        .unwrap_or_default()
        .iter()
        .filter_map(Node::scalar_text)
        .collect();
    let template = parts
        .first()
        .and_then(|n| templates?.get(n).map(|t| (*n, t)));
    match (&parts[..], template) {
        // `[input]`: 2.0 writes the input's name.
        ([input], None) => Some(build::s(*input, target.span)),
        ([node_name, property], Some((_, template))) => {
            let input = unique(inputs, name);
            let def = input_for(rw, template, property, target.span);
            inputs.put(&input, mapping.span, def);
            injections.push(Injection {
                node: node_name,
                property,
                input: input.clone(),
                span: target.span,
            });
            Some(build::s(input, target.span))
        }
        _ => {
            rw.lose(
                mapping.span,
                format!("the mapping of property `{name}` (only `[node, property]` and `[input]` are rewritten)"),
            );
            None
        }
    }
}

/// A name for a new input: `name`, or `name_2`, ... when an input has it already.
fn unique(inputs: &M, name: &str) -> String {
    let mut candidate = name.to_string();
    let mut n = 1;
    while inputs.has(&candidate) {
        n += 1;
        candidate = format!("{name}_{n}");
    }
    candidate
}

/// The input a mapped property takes: the property's type (and schema), and the template's
/// value as its default, if it has one.
fn input_for(rw: &mut Rw, template: &Node, property: &str, span: Span) -> Node {
    let mut m = M::new(span);
    let definition = template
        .as_map()
        .and_then(|t| t.get("type"))
        .and_then(Node::scalar_text)
        .and_then(|t| property_definition(rw, t, property))
        .cloned();
    if let Some(def) = definition.as_ref().and_then(Node::as_map) {
        if let Some(t) = def.get("type") {
            m.put("type", span, rw.type_ref(t));
        }
        for key in ["entry_schema", "key_schema"] {
            if let Some(v) = def.get(key) {
                let schema = types::schema(rw, v, &format!("input `{property}`"));
                m.put(key, span, schema);
            }
        }
    }
    let value = template
        .as_map()
        .and_then(|t| t.get("properties"))
        .and_then(Node::as_map)
        .and_then(|p| p.get(property));
    match value.and_then(|v| values::value(rw, v)) {
        Some(v) => {
            m.put("default", span, v);
        }
        None => {
            m.put("required", span, build::boolean(false, span));
        }
    }
    m.done()
}

/// The definition of `property` on node type `type_name` or the nearest type it derives from.
fn property_definition<'r>(rw: &'r Rw, type_name: &str, property: &str) -> Option<&'r Node> {
    let mut current = type_name;
    // A derivation cycle is reported when the file is read; here it just ends the search.
    let mut seen = std::collections::HashSet::new();
    while seen.insert(current) {
        let def = rw.type_definition(TypeKind::Node, current)?.as_map()?;
        if let Some(p) = def
            .get("properties")
            .and_then(Node::as_map)
            .and_then(|p| p.get(property))
        {
            return Some(p);
        }
        current = def.get("derived_from")?.scalar_text()?;
    }
    None
}
