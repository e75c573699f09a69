//! `toscana convert --to tosca_2_0`: the Simple Profile 1.3 tree the XML was translated into,
//! rewritten as a TOSCA 2.0 file that means the same.
//!
//! The XML is read once, into the 1.3 tree that `check`, the backends and `convert --to
//! tosca_simple_yaml_1_3` all use; this rewrite is a structured pass over that tree, keyname by
//! keyname, following "What changed from TOSCA 1.3" of the TOSCA 2.0 checklist (T2-DIFF-*):
//!
//! - `tosca_definitions_version: tosca_2_0`, `service_template` for `topology_template`;
//! - type names: TOSCA 2.0 reserves `:` for namespace prefixes, so the XML's `{uri}local` names
//!   are written with `:` as `%3A` ([`names`]);
//! - values: a leading `$` escaped as `$$`, functions as `$get_input` ([`values`]);
//! - `constraints` as `validation` clauses over `$value` ([`validation`]);
//! - definitions ([`types`]): `occurrences` of a requirement as `count_range`, of a capability
//!   dropped (2.0 has none), `valid_target_types` as `valid_capability_types`,
//!   `valid_source_types` as `valid_source_node_types`, operations under `operations`, no
//!   `default` on a property that is not required; each interface type declares the operations
//!   the interface definitions of its type name ([`interfaces`]);
//! - the service template ([`templates`]): requirement mappings as a list, and each property
//!   mapping onto a node template's property as an input that the property takes with
//!   `$get_input` (2.0 maps properties to inputs only);
//! - the normative types: TOSCA 2.0 has none (T2-DIFF-01), so the 1.3 normative types the file
//!   uses are written into it, rewritten the same way, under their 1.3 names ([`normative`]).
//!   Type identity, and so the IR, stays that of the XML; backends match them as they match
//!   the 2.0 simple profile's types.
//!
//! Whatever 2.0 cannot say is reported as an `xml::no-counterpart` warning at the XML element
//! it came from, and left out. The normative types' own 1.3-only details (a capability's
//! `occurrences`) are left out without a warning: they are not in the user's file.

mod interfaces;
mod keys;
mod names;
mod normative;
mod templates;
#[cfg(test)]
mod tests;
mod types;
mod validation;
mod values;

use std::collections::HashMap;

use crate::diag::{Diagnostic, codes};
use crate::model::TypeKind;
use crate::source::Span;
use crate::yaml::{Map, Node};

use super::Tosca2Only;
use super::build::{self, M};

/// The version the rewrite writes.
pub const VERSION: &str = "tosca_2_0";

/// The dialect, as warnings name it.
pub const DIALECT: &str = "TOSCA 2.0";

/// The 2.0 file and the 1.3 constructs it could not hold.
pub struct Rewritten {
    pub tree: Node,
    pub lost: Vec<Diagnostic>,
}

/// Rewrites the 1.3 tree of translated XML (one merged file) as TOSCA 2.0, adding the
/// keynames only 2.0 has (`extra`).
pub fn rewrite(tree: &Node, extra: &[&Tosca2Only]) -> Rewritten {
    let mut lost = Vec::new();
    let library = normative::Library::load(&mut lost);
    let Some(root) = tree.as_map() else {
        return Rewritten {
            tree: tree.clone(),
            lost,
        };
    };
    let mut rw = Rw {
        names: names::Names::defined_in(root),
        lost,
        report: true,
        source: root,
        library: &library,
    };
    let uses = interfaces::Uses::of(root);
    let mut extra_of: HashMap<(&str, &str), Vec<&Tosca2Only>> = HashMap::new();
    for x in extra {
        extra_of
            .entry((x.section, x.type_name.as_str()))
            .or_default()
            .push(x);
    }
    let mut out = M::new(tree.span);
    let mut sections: Vec<(TypeKind, Span, M)> = Vec::new();
    let mut template = None;
    for e in root.entries() {
        let key = e.key.scalar_text().unwrap_or_default();
        if let Some(section) = TypeKind::of_section(key) {
            let m = section_of(&mut sections, section, e.value.span);
            for t in e.value.as_map().map(Map::entries).unwrap_or_default() {
                let name = t.key.scalar_text().unwrap_or_default();
                let mut def = types::type_def(&mut rw, section, name, &t.value);
                if section == TypeKind::Interface {
                    def = uses.declare(name, def);
                }
                for x in extra_of.get(&(key, name)).into_iter().flatten() {
                    def = with_entry(def, x.key, rw.names.rename_all(&x.value));
                }
                m.put(&rw.names.rename_text(name), t.key.span, def);
            }
            continue;
        }
        match key {
            "tosca_definitions_version" => {
                out.put(key, e.key.span, build::s(VERSION, e.value.span));
            }
            "description" | "metadata" => {
                out.put(key, e.key.span, e.value.clone());
            }
            "topology_template" => template = Some(e),
            _ => rw.lose(e.key.span, format!("`{key}`")),
        }
    }
    let used = normative::used(&library, root, &rw.names);
    rw.report = false;
    for (section, name, def) in used.types {
        let mut def = types::type_def(&mut rw, section, name, def);
        if section == TypeKind::Interface {
            def = uses.declare(name, def);
        }
        if section == TypeKind::Node && name == ROOT_NODE {
            def = any_dependency(def);
        }
        section_of(&mut sections, section, tree.span).put(name, tree.span, def);
    }
    rw.report = true;
    for (section, name, def) in used.builtins {
        section_of(&mut sections, section, tree.span).put(name, tree.span, def);
    }
    sections.sort_by_key(|(s, _, _)| *s);
    for (section, span, m) in sections {
        out.put(section.section(), span, m.done());
    }
    if let Some(e) = template {
        let st = templates::service_template(&mut rw, &e.value);
        out.put("service_template", e.key.span, st);
    }
    Rewritten {
        tree: out.done(),
        lost: rw.lost,
    }
}

/// The output section of `section`, made on first use.
fn section_of(sections: &mut Vec<(TypeKind, Span, M)>, section: TypeKind, span: Span) -> &mut M {
    let i = match sections.iter().position(|(s, _, _)| *s == section) {
        Some(i) => i,
        None => {
            sections.push((section, span, M::new(span)));
            sections.len() - 1
        }
    };
    &mut sections[i].2
}

/// `node` (a map) with `key: value` added, unless it has that key already.
fn with_entry(node: Node, key: &str, value: Node) -> Node {
    let crate::yaml::Kind::Map(mut map) = node.kind else {
        return node;
    };
    let _ = map.insert(build::s(key, value.span), value);
    Node {
        kind: crate::yaml::Kind::Map(map),
        ..node
    }
}

/// The node type every XML node type derives from in the end.
const ROOT_NODE: &str = "tosca.nodes.Root";

/// `tosca.nodes.Root` with its `dependency` requirement admitting any relationship to any
/// capability. An XML relationship template between two nodes (no requirement, no capability)
/// is read as that requirement with the relationship template's type; TOSCA 2.0 requires the
/// type of a relationship template to derive from its requirement definition's (§8.5.2 Requirement
/// Assignment Grammar), so 1.3's `DependsOn` and `Node` would reject Winery's `HostedOn` between
/// nodes. The capability it targets is then the one its relationship type admits (`host` for
/// `HostedOn`), as in the XML's own reading.
fn any_dependency(root: Node) -> Node {
    let Some(requirements) = root.as_map().and_then(|m| m.get("requirements")) else {
        return root;
    };
    let items: Vec<Node> = requirements
        .as_seq()
        .unwrap_or_default()
        .iter()
        .map(
            |item| match item.as_map().and_then(|m| m.get("dependency")) {
                Some(def) if def.as_map().is_some() => {
                    let def = replaced(def, "capability", "tosca.capabilities.Root");
                    let def = replaced(&def, "relationship", "tosca.relationships.Root");
                    let mut m = build::M::new(item.span);
                    m.put("dependency", item.span, def);
                    m.done()
                }
                _ => item.clone(),
            },
        )
        .collect();
    let list = build::seq(items, requirements.span);
    let Some(map) = root.as_map() else {
        return root;
    };
    let mut m = build::M::new(root.span);
    for e in map.entries() {
        let key = e.key.scalar_text().unwrap_or_default();
        let value = match key {
            "requirements" => list.clone(),
            _ => e.value.clone(),
        };
        m.put(key, e.key.span, value);
    }
    m.done()
}

/// A map with the string value of `key` replaced by `text`.
fn replaced(map: &Node, key: &str, text: &str) -> Node {
    let mut m = build::M::new(map.span);
    for e in map
        .as_map()
        .map(crate::yaml::Map::entries)
        .unwrap_or_default()
    {
        let k = e.key.scalar_text().unwrap_or_default();
        let value = match k == key {
            true => build::s(text, e.value.span),
            false => e.value.clone(),
        };
        m.put(k, e.key.span, value);
    }
    m.done()
}

/// The warning that `what` has no counterpart in 2.0.
fn lost(span: Span, what: &str) -> Diagnostic {
    Diagnostic::warning(
        codes::XML_NO_COUNTERPART,
        format!("{what} has no counterpart in {DIALECT}"),
    )
    .at(span)
}

/// The state of one rewrite.
pub(super) struct Rw<'t> {
    names: names::Names,
    lost: Vec<Diagnostic>,
    /// Whether what 2.0 cannot say is reported: off for the normative types, which are not in
    /// the user's file.
    report: bool,
    /// The 1.3 file, where the definitions of properties a mapping names are looked up.
    source: &'t Map,
    library: &'t normative::Library,
}

impl Rw<'_> {
    /// Reports a construct 2.0 has no counterpart for (it is left out).
    fn lose(&mut self, span: Span, what: String) {
        if self.report {
            self.lost.push(lost(span, &what));
        }
    }

    /// [`Rw::lose`] with a hint saying why.
    fn lose_because(&mut self, span: Span, what: String, why: String) {
        if self.report {
            self.lost.push(lost(span, &what).hint(why));
        }
    }

    /// A type name as 2.0 writes it.
    fn type_ref(&self, node: &Node) -> Node {
        self.names.rename(node)
    }

    /// The definition of type `name` of `section` in the file or the normative types.
    fn type_definition(&self, section: TypeKind, name: &str) -> Option<&Node> {
        self.source
            .get(section.section())
            .and_then(Node::as_map)
            .and_then(|m| m.get(name))
            .or_else(|| self.library.get(section, name))
    }
}
