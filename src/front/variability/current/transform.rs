//! From the solution to the variability-resolved template (§ Resolve Variability): absent
//! elements removed, list forms turned into maps, each element's present type, technology
//! and property values put in place, every Variability4TOSCA keyname removed, the version set
//! to `tosca_simple_yaml_1_3`. Kept nodes keep their spans, so later errors point into the
//! variable template.

use indexmap::IndexMap;

use crate::front::variability::eval::Value;
use crate::front::variability::language::CURRENT_KEYNAMES;
use crate::model::Dialect;
use crate::model::call::call_in;
use crate::source::Span;
use crate::yaml::{Core, Kind as YKind, Map, Node, Scalar, Style};

use super::build::entries;
use super::model::{Data, Id, Kind, Model};

pub const RESOLVED_VERSION: &str = "tosca_simple_yaml_1_3";

/// The roots type definitions derive from when they name no parent.
const TYPE_ROOTS: &[(&str, &str)] = &[
    ("artifact_types", "tosca.artifacts.Root"),
    ("capability_types", "tosca.capabilities.Root"),
    ("data_types", "tosca.datatypes.Root"),
    ("group_types", "tosca.groups.Root"),
    ("interface_types", "tosca.interfaces.Root"),
    ("node_types", "tosca.nodes.Root"),
    ("policy_types", "tosca.policies.Root"),
    ("relationship_types", "tosca.relationships.Root"),
];

fn map_node(span: Span, map: Map) -> Node {
    Node {
        span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: YKind::Map(map),
    }
}

fn seq_node(span: Span, items: Vec<Node>) -> Node {
    Node {
        span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: YKind::Seq(items),
    }
}

fn put(map: &mut Map, key: &str, span: Span, value: Node) {
    let _ = map.insert(Node::string(key, span), value);
}

/// `map` rebuilt entry by entry: `edit` gives each scalar-keyed value its replacement, or
/// `None` to drop it.
fn rebuild(map: Map, mut edit: impl FnMut(&str, Node) -> Option<Node>) -> Map {
    let mut out = Map::new();
    for e in map.into_entries() {
        let key = e.key.scalar_text().unwrap_or_default().to_string();
        if let Some(v) = edit(&key, e.value) {
            let _ = out.insert(e.key, v);
        }
    }
    out
}

/// `def` without the keynames of `drop`.
/// An element's definition without the keynames Variability4TOSCA adds to elements (§ Node
/// Template and the other element tables): its `conditions` and the keynames only the current
/// language defines (`weight`, `pruning`, ...).
fn without_variability(def: &Node) -> Map {
    let mut out = Map::new();
    for e in def.as_map().map(Map::entries).unwrap_or_default() {
        let variability = e
            .key
            .scalar_text()
            .is_some_and(|k| k == "conditions" || CURRENT_KEYNAMES.contains(&k));
        if !variability {
            let _ = out.insert(e.key.clone(), e.value.clone());
        }
    }
    out
}

/// A value of the expression language as YAML; integral numbers are integers, as JavaScript
/// does not tell them apart.
pub fn value_node(v: &Value, span: Span) -> Node {
    let scalar = |text: String, core: Core| Node {
        span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: YKind::Scalar(Scalar {
            text: text.into_boxed_str(),
            core,
        }),
    };
    match v {
        Value::Null => scalar("null".into(), Core::Null),
        Value::Bool(b) => scalar(b.to_string(), Core::Bool(*b)),
        Value::Num(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => {
            scalar(format!("{}", *n as i64), Core::Int(*n as i64))
        }
        Value::Num(n) => scalar(v.text(), Core::Float(*n)),
        Value::Str(s) => {
            let mut node = Node::string(s, span);
            node.style = Style::DoubleQuoted;
            node
        }
        Value::List(items) => seq_node(span, items.iter().map(|i| value_node(i, span)).collect()),
    }
}

pub struct Transform<'a, 't> {
    pub model: &'a Model<'t>,
    pub present: &'a [bool],
    /// The values of properties given by `expression`.
    pub computed: &'a IndexMap<Id, Value>,
}

impl Transform<'_, '_> {
    fn is(&self, id: Id) -> bool {
        self.present[id]
    }

    pub fn document(&self, root: &Node) -> Node {
        let mut out = Map::new();
        for e in root.as_map().map(Map::entries).unwrap_or_default() {
            let key = e.key.scalar_text().unwrap_or_default();
            match key {
                "tosca_definitions_version" => put(
                    &mut out,
                    key,
                    e.key.span,
                    Node::string(RESOLVED_VERSION, e.value.span),
                ),
                "topology_template" => {
                    let topo = self.topology(&e.value);
                    if topo.as_map().is_some_and(|m| !m.is_empty()) {
                        let _ = out.insert(e.key.clone(), topo);
                    }
                }
                "imports" => {
                    let imports = self.imports();
                    if !imports.is_empty() {
                        let _ = out.insert(e.key.clone(), seq_node(e.value.span, imports));
                    }
                }
                k if TYPE_ROOTS.iter().any(|(s, _)| *s == k) => {
                    let _ = out.insert(e.key.clone(), with_roots(k, &e.value));
                }
                _ => {
                    let _ = out.insert(e.key.clone(), e.value.clone());
                }
            }
        }
        map_node(root.span, out)
    }

    fn imports(&self) -> Vec<Node> {
        self.model
            .of(Kind::Import)
            .filter(|i| self.is(*i))
            .filter_map(|i| {
                let def = self.model.get(i).def?;
                if def.as_map().is_none() {
                    return Some(def.clone());
                }
                let map = without_variability(def);
                if map.len() == 1
                    && let Some(file) = map.get("file")
                {
                    return Some(file.clone());
                }
                Some(map_node(def.span, map))
            })
            .collect()
    }

    fn topology(&self, topo: &Node) -> Node {
        let Some(map) = topo.as_map() else {
            return topo.clone();
        };
        let mut out = Map::new();
        for e in map.entries() {
            let key = e.key.scalar_text().unwrap_or_default();
            let value = match key {
                "variability" => None,
                "inputs" => Some(self.named_elements(Kind::Input, e.value.span)),
                "outputs" => Some(self.named_elements(Kind::Output, e.value.span)),
                "node_templates" => Some(self.nodes(e.value.span)),
                "relationship_templates" => Some(self.relationships(&e.value)),
                "groups" => Some(self.groups(&e.value)),
                "policies" => Some(self.policies(e.value.span)),
                _ => Some(e.value.clone()),
            };
            if let Some(v) = value {
                let empty = v.as_map().is_some_and(Map::is_empty)
                    || v.as_seq().is_some_and(<[Node]>::is_empty);
                if !empty
                    || !matches!(
                        key,
                        "inputs"
                            | "outputs"
                            | "node_templates"
                            | "relationship_templates"
                            | "groups"
                            | "policies"
                    )
                {
                    let _ = out.insert(e.key.clone(), v);
                }
            }
        }
        map_node(topo.span, out)
    }

    fn nodes(&self, span: Span) -> Node {
        let m = self.model;
        let mut nodes = Map::new();
        for n in m.of(Kind::Node).filter(|n| self.is(*n)) {
            let _ = nodes.insert(Node::string(&m.get(n).name, m.get(n).span), self.node(n));
        }
        map_node(span, nodes)
    }

    /// The present policies, as the list of single-entry maps TOSCA writes.
    fn policies(&self, span: Span) -> Node {
        let m = self.model;
        let items: Vec<Node> = m
            .of(Kind::Policy)
            .filter(|p| self.is(*p))
            .map(|p| {
                let mut item = Map::new();
                let _ = item.insert(Node::string(&m.get(p).name, m.get(p).span), self.policy(p));
                map_node(m.get(p).span, item)
            })
            .collect();
        seq_node(span, items)
    }

    /// Inputs or outputs, present ones by name.
    fn named_elements(&self, kind: Kind, span: Span) -> Node {
        let m = self.model;
        let mut out = Map::new();
        for i in m.of(kind).filter(|i| self.is(*i)) {
            let e = m.get(i);
            let def = e.def.map_or_else(
                || map_node(e.span, Map::new()),
                |d| map_node(d.span, without_variability(d)),
            );
            let _ = out.insert(Node::string(&e.name, e.span), def);
        }
        map_node(span, out)
    }

    /// The present type of an element, or the type a present technology assigns.
    fn type_name(&self, id: Id) -> Option<String> {
        let m = self.model;
        if let Some(n) = m.get(id).node()
            && !n.technologies.is_empty()
        {
            return n
                .technologies
                .iter()
                .find(|t| self.is(**t))
                .map(|t| match &m.get(*t).data {
                    Data::Technology(d) => d.assign.clone(),
                    _ => String::new(),
                });
        }
        m.get(id)
            .types
            .iter()
            .find(|t| self.is(**t))
            .map(|t| m.get(*t).name.clone())
    }

    /// An element's definition with its type and properties resolved and the keynames of
    /// Variability4TOSCA removed.
    fn element(&self, id: Id, def: Option<&Node>, extra_drop: &[&str]) -> Map {
        let m = self.model;
        let e = m.get(id);
        let map = def.map(without_variability).unwrap_or_default();
        let type_name = (!e.types.is_empty()).then(|| self.type_name(id).unwrap_or_default());
        let mut map = rebuild(map, |k, v| match k {
            k if extra_drop.contains(&k) => None,
            "type" => type_name
                .as_ref()
                .map(|t| Node::string(t, v.span))
                .or(Some(v)),
            "properties" => {
                let props = self.properties(id);
                (!props.is_empty()).then(|| map_node(v.span, props))
            }
            _ => Some(v),
        });
        if let Some(t) = type_name.filter(|_| !map.contains_key("type")) {
            put(&mut map, "type", e.span, Node::string(&t, e.span));
        }
        map
    }

    fn properties(&self, container: Id) -> Map {
        let m = self.model;
        let mut out = Map::new();
        for p in m
            .get(container)
            .properties
            .iter()
            .copied()
            .filter(|p| self.is(*p))
        {
            let e = m.get(p);
            let Data::Property(data) = &e.data else {
                continue;
            };
            let value = match (self.computed.get(&p), data.value) {
                (Some(v), _) => value_node(v, e.span),
                (None, Some(v)) => v.clone(),
                (None, None) => continue,
            };
            let value = self.renamed_input(value);
            let _ = out.insert(Node::string(&e.name, e.span), value);
        }
        out
    }

    /// `get_input` by position becomes `get_input` by name, as the positions are gone.
    fn renamed_input(&self, value: Node) -> Node {
        let Some(arg) = call_in(Dialect::SimpleProfile, &value)
            .filter(|c| c.name == "get_input")
            .and_then(|c| c.args)
        else {
            return value;
        };
        let Some(Core::Int(i)) = arg.as_scalar().map(|s| s.core) else {
            return value;
        };
        let Some(input) = usize::try_from(i)
            .ok()
            .and_then(|i| self.model.of(Kind::Input).nth(i))
        else {
            return value;
        };
        let mut map = Map::new();
        put(
            &mut map,
            "get_input",
            value.span,
            Node::string(&self.model.get(input).name, arg.span),
        );
        map_node(value.span, map)
    }

    fn node(&self, n: Id) -> Node {
        let m = self.model;
        let e = m.get(n);
        let data = m.node_data(n);
        let map = rebuild(self.element(n, e.def, &[]), |k, v| match k {
            "requirements" => {
                let reqs: Vec<Node> = data
                    .outgoing
                    .iter()
                    .copied()
                    .filter(|r| self.is(*r))
                    .map(|r| self.requirement(r))
                    .collect();
                (!reqs.is_empty()).then(|| seq_node(v.span, reqs))
            }
            "artifacts" => {
                let arts = self.artifacts(n);
                (!arts.is_empty()).then(|| map_node(v.span, arts))
            }
            _ => Some(v),
        });
        map_node(e.def.map_or(e.span, |d| d.span), map)
    }

    fn artifacts(&self, n: Id) -> Map {
        let m = self.model;
        let mut arts = Map::new();
        for a in m
            .node_data(n)
            .artifacts
            .iter()
            .copied()
            .filter(|a| self.is(*a))
        {
            let ae = m.get(a);
            let def = match ae.def {
                Some(d) => map_node(d.span, self.element(a, Some(d), &[])),
                None => {
                    let mut short = Map::new();
                    let t = self.type_name(a).unwrap_or_default();
                    put(&mut short, "type", ae.span, Node::string(&t, ae.span));
                    if let Some(file) = artifact_file(m, a) {
                        put(&mut short, "file", ae.span, file);
                    }
                    map_node(ae.span, short)
                }
            };
            let _ = arts.insert(Node::string(&ae.name, ae.span), def);
        }
        arts
    }

    fn requirement(&self, r: Id) -> Node {
        let e = self.model.get(r);
        let value = match e.def {
            Some(def) => {
                let map = without_variability(def);
                match (map.len(), map.get("node")) {
                    (1, Some(node)) => node.clone(),
                    _ => map_node(def.span, map),
                }
            }
            None => {
                let target = self.model.relation_data(r).target;
                Node::string(&self.model.get(target).name, e.span)
            }
        };
        let mut item = Map::new();
        let _ = item.insert(Node::string(&e.name, e.span), value);
        map_node(e.span, item)
    }

    fn relationships(&self, node: &Node) -> Node {
        let m = self.model;
        let mut out = Map::new();
        for (name, rt) in &m.relationships {
            let Some(r) = rt.used_by.filter(|r| self.is(*r)) else {
                continue;
            };
            let _ = out.insert(
                rt.key.clone(),
                map_node(rt.def.span, self.element(r, Some(rt.def), &[])),
            );
            let _ = name;
        }
        map_node(node.span, out)
    }

    fn groups(&self, node: &Node) -> Node {
        let m = self.model;
        let mut out = Map::new();
        let members_written: IndexMap<&str, &Node> = entries(node)
            .into_iter()
            .filter_map(|(k, v, _)| Some((k.scalar_text()?, v.as_map()?.get("members")?)))
            .collect();
        for g in m.of(Kind::Group).filter(|g| self.is(*g)) {
            let e = m.get(g);
            let Data::Group { members, .. } = &e.data else {
                continue;
            };
            let written = members_written.get(e.name.as_str()).copied();
            let map = rebuild(self.element(g, e.def, &[]), |k, v| match (k, written) {
                ("members", Some(written)) => {
                    let kept: Vec<Node> = written
                        .as_seq()
                        .unwrap_or_default()
                        .iter()
                        .zip(members.iter())
                        .filter(|(_, id)| self.is(**id))
                        .map(|(w, _)| w.clone())
                        .collect();
                    Some(seq_node(v.span, kept))
                }
                _ => Some(v),
            });
            let _ = out.insert(
                Node::string(&e.name, e.span),
                map_node(e.def.map_or(e.span, |d| d.span), map),
            );
        }
        map_node(node.span, out)
    }

    fn policy(&self, p: Id) -> Node {
        let m = self.model;
        let e = m.get(p);
        let Data::Policy { targets } = &e.data else {
            return Node::string("", e.span);
        };
        let map = rebuild(self.element(p, e.def, &[]), |k, v| match k {
            "targets" => {
                let kept: Vec<Node> = v
                    .as_seq()
                    .unwrap_or_default()
                    .iter()
                    .zip(targets.iter())
                    .filter(|(_, t)| self.is(**t))
                    .map(|(w, _)| w.clone())
                    .collect();
                Some(seq_node(v.span, kept))
            }
            _ => Some(v),
        });
        map_node(e.def.map_or(e.span, |d| d.span), map)
    }
}

/// The file of an artifact given in its short form (`artifact: path`).
fn artifact_file(m: &Model<'_>, a: Id) -> Option<Node> {
    let e = m.get(a);
    let node = m.get(e.container?).def?;
    let arts = node.as_map()?.get("artifacts")?;
    entries(arts)
        .into_iter()
        .find(|(_, _, i)| Some(*i) == e.index)
        .and_then(|(_, v, _)| v.as_str().map(|_| v.clone()))
}

/// A section of type definitions with `derived_from` given to every type that names no parent
/// (the reference resolver's normalization).
fn with_roots(section: &str, types: &Node) -> Node {
    let Some(map) = types.as_map() else {
        return types.clone();
    };
    let root = TYPE_ROOTS
        .iter()
        .find(|(s, _)| *s == section)
        .map_or("", |(_, r)| r);
    let mut out = Map::new();
    for e in map.entries() {
        let value = match e.value.as_map() {
            Some(def) if !def.contains_key("derived_from") && !e.value.is_null() => {
                let mut def = def.clone();
                put(
                    &mut def,
                    "derived_from",
                    e.value.span,
                    Node::string(root, e.value.span),
                );
                map_node(e.value.span, def)
            }
            _ => e.value.clone(),
        };
        let _ = out.insert(e.key.clone(), value);
    }
    map_node(types.span, out)
}
