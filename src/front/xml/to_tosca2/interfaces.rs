//! Operations an interface type must declare in 2.0.
//!
//! In 1.3 an interface definition in a node or relationship type may add operations its
//! interface type does not list; 2.0 only refines operations and notifications the interface
//! type defines (§11.2 Interface Definition). The XML has no interface types at all (an interface
//! is named by a URI, and its operations are the node type's), so the XML front end writes an empty
//! interface type per name. The 2.0 file declares, in each interface type, every operation and
//! notification an interface definition of that type names, with an empty definition.

use indexmap::IndexMap;

use crate::source::Span;
use crate::yaml::{Kind, Map, Node};

use super::build::M;

/// What a file's interface definitions name, by interface type: `operations` and
/// `notifications`, each name with where it is first written.
#[derive(Default)]
pub struct Uses(IndexMap<String, IndexMap<(&'static str, String), Span>>);

impl Uses {
    /// Collects the interface definitions of every node and relationship type of `root`, and
    /// of the relationships of their requirement definitions.
    pub fn of(root: &Map) -> Uses {
        let mut uses = Uses::default();
        for section in ["node_types", "relationship_types"] {
            for t in root
                .get(section)
                .and_then(Node::as_map)
                .map(Map::entries)
                .unwrap_or_default()
            {
                let Some(def) = t.value.as_map() else {
                    continue;
                };
                if let Some(interfaces) = def.get("interfaces") {
                    uses.add_all(interfaces);
                }
                for r in def
                    .get("requirements")
                    .and_then(Node::as_seq)
                    .unwrap_or_default()
                {
                    let interfaces = r
                        .as_map()
                        .and_then(|m| m.entries().first())
                        .and_then(|e| e.value.as_map())
                        .and_then(|d| d.get("relationship"))
                        .and_then(Node::as_map)
                        .and_then(|rel| rel.get("interfaces"));
                    if let Some(interfaces) = interfaces {
                        uses.add_all(interfaces);
                    }
                }
            }
        }
        uses
    }

    fn add_all(&mut self, interfaces: &Node) {
        for i in interfaces.as_map().map(Map::entries).unwrap_or_default() {
            let Some(def) = i.value.as_map() else {
                continue;
            };
            // A refinement without `type` names operations its parent's type declares.
            let Some(type_name) = def.get("type").and_then(Node::scalar_text) else {
                continue;
            };
            let used = self.0.entry(type_name.to_string()).or_default();
            for e in def.entries() {
                let key = e.key.scalar_text().unwrap_or_default();
                match key {
                    "operations" | "notifications" => {
                        let kind = if key == "operations" {
                            "operations"
                        } else {
                            "notifications"
                        };
                        for op in e.value.as_map().map(Map::entries).unwrap_or_default() {
                            if let Some(name) = op.key.scalar_text() {
                                used.entry((kind, name.to_string())).or_insert(op.key.span);
                            }
                        }
                    }
                    // Operations written directly under the interface (before 1.3).
                    "type" | "description" | "metadata" | "inputs" => {}
                    name => {
                        used.entry(("operations", name.to_string()))
                            .or_insert(e.key.span);
                    }
                }
            }
        }
    }

    /// The 2.0 definition of interface type `name` with the operations and notifications it
    /// lacks added.
    pub fn declare(&self, name: &str, def: Node) -> Node {
        let Some(used) = self.0.get(name) else {
            return def;
        };
        let Kind::Map(map) = &def.kind else {
            return def;
        };
        let mut out = M::new(def.span);
        let mut missing: Vec<(&str, &str, Span)> = used
            .iter()
            .filter(|((kind, op), _)| {
                !map.get(kind)
                    .and_then(Node::as_map)
                    .is_some_and(|m| m.contains_key(op))
            })
            .map(|((kind, op), span)| (*kind, op.as_str(), *span))
            .collect();
        if missing.is_empty() {
            return def;
        }
        for e in map.entries() {
            let key = e.key.scalar_text().unwrap_or_default();
            match e.value.as_map() {
                Some(ops) if key == "operations" || key == "notifications" => {
                    let mut m = M::new(e.value.span);
                    for op in ops.entries() {
                        m.put(
                            op.key.scalar_text().unwrap_or_default(),
                            op.key.span,
                            op.value.clone(),
                        );
                    }
                    missing.retain(|(kind, op, span)| {
                        *kind != key || {
                            m.put(op, *span, M::new(*span).done());
                            false
                        }
                    });
                    out.put(key, e.key.span, m.done());
                }
                _ => {
                    out.put(key, e.key.span, e.value.clone());
                }
            }
        }
        for kind in ["operations", "notifications"] {
            let mut m = M::new(def.span);
            for (_, op, span) in missing.iter().filter(|(k, _, _)| *k == kind) {
                m.put(op, *span, M::new(*span).done());
            }
            if !m.is_empty() {
                out.put(kind, def.span, m.done());
            }
        }
        out.done()
    }
}
