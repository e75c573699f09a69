//! From the variable template and the presence of its elements to the variability-resolved
//! template (spec "Resolve Variability", steps 2-14): absent elements removed, list forms turned
//! into maps, property defaults applied, every Variability4TOSCA keyname stripped, and the
//! version set to `tosca_simple_yaml_1_3`. Every kept node keeps its span, so later errors still
//! point into the variable template.

use super::eval::Evaluator;
use indexmap::IndexMap;

use super::graph::{Id, Owner, named_items};
use crate::diag::{Diagnostic, codes};
use crate::source::Span;
use crate::yaml::{Kind, Map, Node};

pub const RESOLVED_VERSION: &str = "tosca_simple_yaml_1_3";

fn present(ev: &Evaluator<'_, '_>, id: Id) -> bool {
    ev.decided(id).is_some_and(|(p, _)| p)
}

fn map_node(span: Span, map: Map) -> Node {
    Node {
        span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: Kind::Map(map),
    }
}

fn put(map: &mut Map, key: &Node, value: Node) {
    // Keys come from maps that had no duplicates, or are unique by construction; a duplicate
    // (possible only with a consistency check switched off) keeps the first value.
    let _ = map.insert(key.clone(), value);
}

/// A copy of `def` without its `conditions` keyname.
fn strip(def: &Node) -> Node {
    strip_keys(def, &["conditions"])
}

fn strip_keys(def: &Node, keys: &[&str]) -> Node {
    match def.as_map() {
        Some(map) => {
            let mut out = Map::new();
            for e in map.entries() {
                if !e.key.scalar_text().is_some_and(|k| keys.contains(&k)) {
                    put(&mut out, &e.key, e.value.clone());
                }
            }
            map_node(def.span, out)
        }
        None => def.clone(),
    }
}

/// The resolved document. Errors (ambiguous defaults) go into the evaluator's diagnostics.
pub fn document(root: &Node, ev: &mut Evaluator<'_, '_>) -> Node {
    let Some(map) = root.as_map() else {
        return root.clone();
    };
    let mut out = Map::new();
    for e in map.entries() {
        match e.key.scalar_text() {
            Some("tosca_definitions_version") => put(
                &mut out,
                &e.key,
                Node::string(RESOLVED_VERSION, e.value.span),
            ),
            Some("topology_template") => {
                let topo = topology(&e.value, ev);
                if topo.as_map().is_none_or(|m| !m.is_empty()) {
                    put(&mut out, &e.key, topo);
                }
            }
            _ => put(&mut out, &e.key, e.value.clone()),
        }
    }
    map_node(root.span, out)
}

fn topology(topo: &Node, ev: &mut Evaluator<'_, '_>) -> Node {
    let Some(map) = topo.as_map() else {
        return topo.clone();
    };
    let mut out = Map::new();
    for e in map.entries() {
        let value = &e.value;
        let kept = match e.key.scalar_text() {
            Some("variability") => None,
            // An emptied `inputs` is kept, as the RC does.
            Some("inputs") => Some(inputs(value, ev)),
            Some("node_templates") if value.as_map().is_some() => node_templates(value, ev),
            Some("relationship_templates") if value.as_map().is_some() => {
                relationship_templates(value, ev)
            }
            Some("groups") => groups(value, ev),
            Some("policies") => policies(value, ev),
            _ => Some(value.clone()),
        };
        if let Some(v) = kept {
            put(&mut out, &e.key, v);
        }
    }
    map_node(topo.span, out)
}

/// The present topology inputs.
fn inputs(value: &Node, ev: &mut Evaluator<'_, '_>) -> Node {
    let mut inputs = Map::new();
    for (i, (key, def, _)) in named_items(value).into_iter().enumerate() {
        if present(ev, Id::Input(i)) {
            put(&mut inputs, key, strip(def));
        }
    }
    map_node(value.span, inputs)
}

/// The present node templates; `None` when none is.
fn node_templates(value: &Node, ev: &mut Evaluator<'_, '_>) -> Option<Node> {
    let g = ev.g;
    let mut nodes = Map::new();
    for n in 0..g.nodes.len() {
        if present(ev, Id::Node(n)) {
            let def = node(n, ev);
            put(&mut nodes, g.nodes[n].key, def);
        }
    }
    (!nodes.is_empty()).then(|| map_node(value.span, nodes))
}

/// The relationship templates a present relation uses; `None` when none is.
fn relationship_templates(value: &Node, ev: &mut Evaluator<'_, '_>) -> Option<Node> {
    let g = ev.g;
    let mut templates = Map::new();
    for (rt, entry) in value
        .as_map()
        .into_iter()
        .flat_map(Map::entries)
        .enumerate()
    {
        let used = g.rtemplates[rt]
            .used_by
            .is_some_and(|r| present(ev, Id::Relation(r)));
        if used {
            let def = with_properties(
                &entry.value,
                &g.rtemplates[rt].properties,
                Owner::RTemplate(rt),
                ev,
            );
            put(&mut templates, &entry.key, def);
        }
    }
    (!templates.is_empty()).then(|| map_node(value.span, templates))
}

/// The present groups that are not variability groups, with their present members; `None`
/// when none is.
fn groups(value: &Node, ev: &mut Evaluator<'_, '_>) -> Option<Node> {
    let g = ev.g;
    let mut groups = Map::new();
    for (gr, (key, def, _)) in named_items(value).into_iter().enumerate() {
        if g.groups[gr].variability || !present(ev, Id::Group(gr)) {
            continue;
        }
        let members: Vec<Node> = def
            .as_map()
            .and_then(|m| m.get("members"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter(|m| member_present(ev, m))
            .cloned()
            .collect();
        put(
            &mut groups,
            key,
            replace_list(&strip(def), "members", members),
        );
    }
    (!groups.is_empty()).then(|| map_node(value.span, groups))
}

/// The present policies with their present targets, in the form (map or list) they were
/// written in; `None` when none is.
fn policies(value: &Node, ev: &mut Evaluator<'_, '_>) -> Option<Node> {
    let items = named_items(value);
    let mut kept = Vec::new();
    for (p, (key, def, _)) in items.into_iter().enumerate() {
        if !present(ev, Id::Policy(p)) {
            continue;
        }
        let targets: Vec<Node> = def
            .as_map()
            .and_then(|m| m.get("targets"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter(|t| target_present(ev, p, t))
            .cloned()
            .collect();
        kept.push((key, replace_list(&strip(def), "targets", targets)));
    }
    if kept.is_empty() {
        return None;
    }
    if value.as_map().is_some() {
        let mut m = Map::new();
        for (key, def) in kept {
            put(&mut m, key, def);
        }
        return Some(map_node(value.span, m));
    }
    let list = kept
        .into_iter()
        .map(|(key, def)| {
            let mut m = Map::new();
            let span = key.span;
            put(&mut m, key, def);
            map_node(span, m)
        })
        .collect();
    Some(Node {
        span: value.span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: Kind::Seq(list),
    })
}

/// `def` with the list under `key` replaced (only when it had one).
fn replace_list(def: &Node, key: &str, items: Vec<Node>) -> Node {
    let Some(map) = def.as_map() else {
        return def.clone();
    };
    let mut out = Map::new();
    for e in map.entries() {
        if e.key.scalar_text() == Some(key) && e.value.as_seq().is_some() {
            let list = Node {
                span: e.value.span,
                tag: None,
                style: crate::yaml::Style::Plain,
                kind: Kind::Seq(items.clone()),
            };
            put(&mut out, &e.key, list);
        } else {
            put(&mut out, &e.key, e.value.clone());
        }
    }
    map_node(def.span, out)
}

fn member_present(ev: &Evaluator<'_, '_>, m: &Node) -> bool {
    let g = ev.g;
    if let Some(name) = m.as_str() {
        return g
            .node_index
            .get(name)
            .is_some_and(|n| present(ev, Id::Node(*n)));
    }
    let Some([node, req]) = m.as_seq() else {
        return false;
    };
    let Some(n) = node.as_str().and_then(|n| g.node_index.get(n)).copied() else {
        return false;
    };
    super::graph::find_relation(g, n, req).is_ok_and(|r| present(ev, Id::Relation(r)))
}

fn target_present(ev: &Evaluator<'_, '_>, _p: usize, t: &Node) -> bool {
    let g = ev.g;
    let name = t.as_str().unwrap_or("");
    match (g.node_index.get(name), g.group_index.get(name)) {
        (Some(n), _) => present(ev, Id::Node(*n)),
        (None, Some(gr)) => !g.groups[*gr].variability && present(ev, Id::Group(*gr)),
        _ => false,
    }
}

/// A present node template, resolved.
fn node(n: usize, ev: &mut Evaluator<'_, '_>) -> Node {
    let g = ev.g;
    let t = &g.nodes[n];
    let def = with_properties(t.def, &t.properties, Owner::Node(n), ev);
    let Some(map) = def.as_map() else {
        return def;
    };
    let mut out = Map::new();
    for e in map.entries() {
        match e.key.scalar_text() {
            Some("conditions") => {}
            Some("requirements") if e.value.as_seq().is_some() => {
                let mut kept = Vec::new();
                let items = e.value.as_seq().unwrap_or_default();
                let mut relation_at = vec![None; items.len()];
                for &r in &t.relations {
                    relation_at[g.relations[r].index] = Some(r);
                }
                for (item, relation) in items.iter().zip(relation_at) {
                    match relation {
                        Some(r) if !present(ev, Id::Relation(r)) => {}
                        Some(_) => kept.push(strip_requirement(item)),
                        None => kept.push(item.clone()),
                    }
                }
                let list = Node {
                    span: e.value.span,
                    tag: None,
                    style: crate::yaml::Style::Plain,
                    kind: Kind::Seq(kept),
                };
                put(&mut out, &e.key, list);
            }
            Some("artifacts") => {
                let mut arts = Map::new();
                for &a in &t.artifacts {
                    if present(ev, Id::Artifact(a)) {
                        let art = &g.artifacts[a];
                        put(&mut arts, art.key, strip(art.def));
                    }
                }
                if !arts.is_empty() {
                    put(&mut out, &e.key, map_node(e.value.span, arts));
                }
            }
            _ => put(&mut out, &e.key, e.value.clone()),
        }
    }
    map_node(def.span, out)
}

/// `- name: {node: .., conditions: ..}` without its conditions.
fn strip_requirement(item: &Node) -> Node {
    let Some(entry) = item.as_map().and_then(|m| m.entries().first()) else {
        return item.clone();
    };
    let mut m = Map::new();
    put(&mut m, &entry.key, strip(&entry.value));
    map_node(item.span, m)
}

/// `def` with its properties selected: for each name, the one present entry, else its single
/// default, else nothing; a `properties` left empty is removed.
fn with_properties(def: &Node, ids: &[usize], owner: Owner, ev: &mut Evaluator<'_, '_>) -> Node {
    let Some(map) = def.as_map() else {
        return def.clone();
    };
    let g = ev.g;
    if !map
        .get("properties")
        .is_some_and(|p| p.as_map().is_some() || p.as_seq().is_some())
    {
        return def.clone();
    }
    let mut by_name: IndexMap<&str, Vec<usize>> = IndexMap::new();
    for &p in ids {
        by_name.entry(g.properties[p].name).or_default().push(p);
    }
    let mut props = Map::new();
    for (name, entries) in by_name {
        let chosen = entries.iter().find(|p| present(ev, Id::Property(**p)));
        let chosen = match chosen {
            Some(p) => Some(*p),
            None => {
                let defaults: Vec<usize> = entries
                    .iter()
                    .copied()
                    .filter(|p| g.properties[*p].default)
                    .collect();
                if defaults.len() > 1 {
                    let whose = match owner {
                        Owner::Node(n) => format!("node \"{}\"", g.nodes[n].name),
                        Owner::RTemplate(rt) => {
                            format!("relation \"{}\"", g.rtemplates[rt].name)
                        }
                    };
                    let mut d = Diagnostic::error(
                        codes::VAR_INCONSISTENT,
                        format!("Property \"{name}\" of {whose} has multiple defaults"),
                    )
                    .at(g.properties[defaults[1]].key.span);
                    d = d.label(g.properties[defaults[0]].key.span, "first default");
                    ev.diags
                        .push(d.hint("keep `default: true` on one entry of the property"));
                }
                defaults.first().copied()
            }
        };
        if let Some(p) = chosen {
            put(
                &mut props,
                g.properties[p].key,
                g.properties[p].value.clone(),
            );
        }
    }
    let mut out = Map::new();
    for e in map.entries() {
        if e.key.scalar_text() == Some("properties") {
            if !props.is_empty() {
                put(&mut out, &e.key, map_node(e.value.span, props.clone()));
            }
        } else {
            put(&mut out, &e.key, e.value.clone());
        }
    }
    map_node(def.span, out)
}
