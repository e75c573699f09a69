//! A document of types: each definition in order, and names taken on trust.

use roxmltree::Node as Xn;

use crate::diag::{Diagnostic, codes};
use crate::front::xml::X;
use crate::front::xml::build::{self, M};
use crate::front::xml::doc::{self, attr, documentation};
use crate::front::xml::names::{Def, XKind, clark};
use crate::source::Span;
use crate::yaml::Node;

use super::definitions::{node_type, plain_type, policy_type, relationship_type, requirement_type};
use super::templates::{artifact_template, implementation, policy_template};

/// The definition written for a name taken on trust (`--quirk winery`): an empty type derived
/// from the normative root of its kind, marked in its metadata, with a string property for
/// each property its templates set, so the YAML it becomes is complete.
pub fn stub(kind: XKind, span: Span, properties: &[String]) -> Option<(&'static str, Node)> {
    let section = match kind {
        XKind::NodeType => "node_types",
        XKind::RelationshipType => "relationship_types",
        XKind::CapabilityType => "capability_types",
        XKind::ArtifactType => "artifact_types",
        XKind::PolicyType => "policy_types",
        _ => return None,
    };
    let mut m = M::new(span);
    m.set("derived_from", build::s(kind.yaml_root()?, span));
    let mut meta = M::new(span);
    meta.set(
        crate::model::TAKEN_ON_TRUST,
        build::s("not defined in the documents read (--quirk winery)", span),
    );
    m.set("metadata", meta.done());
    let mut props = M::new(span);
    for p in properties {
        let mut d = M::new(span);
        d.set("type", build::s("string", span));
        d.set("required", build::boolean(false, span));
        props.put(p, span, d.done());
    }
    m.set_nonempty("properties", props);
    Some((section, m.done()))
}

/// Finds each node and relationship type's implementations (NTIs and RTIs), in reading order.
pub fn collect_implementations(x: &mut X) {
    let mut list: Vec<(XKind, Def)> = x
        .sym
        .defs
        .iter()
        .filter(|((k, _, _), _)| {
            matches!(
                k,
                XKind::NodeTypeImplementation | XKind::RelationshipTypeImplementation
            )
        })
        .map(|((k, _, _), d)| (*k, *d))
        .collect();
    list.sort_by_key(|(_, d)| (d.doc, d.node.get()));
    for (kind, def) in list {
        let n = x.node(def);
        let (attr_name, of) = match kind {
            XKind::NodeTypeImplementation => ("nodeType", XKind::NodeType),
            _ => ("relationshipType", XKind::RelationshipType),
        };
        let d = x.docs[def.doc];
        if doc::required(d, n, attr_name, x.diags).is_none() {
            continue;
        }
        let Some((found, _)) = x.resolve(def.doc, n, attr_name, of) else {
            continue;
        };
        let name = x.found_name(of, &found);
        x.impls.entry(name).or_default().push(def);
    }
}

/// One Definitions document as the YAML tree of a Simple Profile 1.3 file.
pub fn document(x: &mut X, di: usize, entry: bool) -> Node {
    let d = x.docs[di];
    let root = d.doc.root_element();
    let at = d.el(root);
    let mut top = M::new(at);
    top.put(
        "tosca_definitions_version",
        at,
        build::s("tosca_simple_yaml_1_3", at),
    );
    if let Some(text) = documentation(root) {
        top.set("description", build::s(text, at));
    }
    let mut sections: Vec<(&str, M)> = crate::front::xml::TYPE_SECTIONS
        .into_iter()
        .map(|s| (s, M::new(at)))
        .collect();
    let mut service: Option<Xn> = None;
    for c in root.children().filter(|c| c.is_element()) {
        if c.tag_name().namespace() != Some(doc::TOSCA_NS) {
            continue;
        }
        let Some(kind) = XKind::of(c.tag_name().name()) else {
            continue;
        };
        let Some(name) = attr(c, kind.name_attr()) else {
            continue;
        };
        let yaml = clark(&x.tns_of(di, c), name);
        let span = d.at(c, kind.name_attr());
        let (section, body) = match kind {
            XKind::NodeType => ("node_types", node_type(x, di, c, &yaml)),
            XKind::RelationshipType => ("relationship_types", relationship_type(x, di, c, &yaml)),
            XKind::CapabilityType => ("capability_types", plain_type(x, di, c, kind, &[])),
            XKind::ArtifactType => ("artifact_types", plain_type(x, di, c, kind, &[])),
            XKind::PolicyType => ("policy_types", policy_type(x, di, c)),
            XKind::RequirementType => {
                requirement_type(x, di, c);
                continue;
            }
            XKind::ServiceTemplate => {
                if service.is_none() && entry {
                    service = Some(c);
                } else if entry {
                    x.diags.push(
                        Diagnostic::warning(codes::XML_RULE, "only the first ServiceTemplate of the entry document is read")
                            .at(d.el(c))
                            .hint("put each service template in a Definitions document of its own to read it"),
                    );
                }
                continue;
            }
            XKind::ArtifactTemplate => {
                artifact_template(x, di, c);
                continue;
            }
            XKind::PolicyTemplate => {
                policy_template(x, di, c);
                continue;
            }
            XKind::NodeTypeImplementation | XKind::RelationshipTypeImplementation => {
                implementation(x, di, c, kind);
                continue;
            }
        };
        if let Some((_, m)) = sections.iter_mut().find(|(s, _)| *s == section) {
            m.put(&yaml, span, body);
        }
        // Interface types used by this document's types are written into it.
        let pending: Vec<(String, Span)> = std::mem::take(&mut x.pending_interfaces);
        if let Some((_, m)) = sections.iter_mut().find(|(s, _)| *s == "interface_types") {
            for (name, span) in pending {
                let mut t = M::new(span);
                t.set("derived_from", build::s("tosca.interfaces.Root", span));
                m.put(&name, span, t.done());
            }
        }
    }
    let mut meta = M::new(at);
    if let Some(id) = attr(root, "id") {
        meta.put(
            "xml_definitions_id",
            d.at(root, "id"),
            build::s(id, d.at(root, "id")),
        );
    }
    if let Some(tns) = attr(root, "targetNamespace") {
        meta.put(
            "xml_target_namespace",
            d.at(root, "targetNamespace"),
            build::s(tns, d.at(root, "targetNamespace")),
        );
    }
    if let Some(st) = service {
        let at_id = d.at(st, "id");
        let name = attr(st, "name").or(attr(st, "id")).unwrap_or("");
        meta.put("template_name", at_id, build::s(name, at_id));
        x.tags(di, st, &mut meta);
    }
    top.set_nonempty("metadata", meta);
    for (s, m) in sections {
        top.set_nonempty(s, m);
    }
    if let Some(st) = service
        && let Some(t) = crate::front::xml::topology::service_template(x, di, st)
    {
        top.set("topology_template", t);
    }
    top.done()
}
