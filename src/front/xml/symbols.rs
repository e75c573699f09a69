//! The symbol table: every definition of every document by (kind, namespace, name), global
//! XSD elements and complex types by (namespace, name), and the document-wide checks that need
//! no translation: Definitions attributes, Extensions, unknown top-level elements, ids.

use std::collections::HashMap;

use roxmltree::Node as Xn;

use super::X;
use super::doc::{self, TOSCA_NS, WINERY_NS, XSD_NS, attr, is_ncname};
use super::load::{Loaded, Role};
use super::names::{Def, XKind, clark, read_qname};
use crate::diag::{Diagnostic, codes};
use crate::quirk::Quirk;

/// The children a `Definitions` element may hold.
const DEFINITIONS: &[&str] = &[
    "Extensions",
    "Import",
    "Types",
    "ServiceTemplate",
    "NodeType",
    "NodeTypeImplementation",
    "RelationshipType",
    "RelationshipTypeImplementation",
    "RequirementType",
    "CapabilityType",
    "ArtifactType",
    "ArtifactTemplate",
    "PolicyType",
    "PolicyTemplate",
];

/// Extension namespaces toscana understands (a mandatory one it does not is a refusal).
fn supported_extension(x: &X, ns: &str) -> bool {
    ns == WINERY_NS && x.quirks.has(Quirk::Winery)
}

pub fn collect(x: &mut X) {
    for i in 0..x.docs.len() {
        let d = x.docs[i];
        let root = d.doc.root_element();
        if x.roles[i] == Role::Xsd {
            let tns = attr(root, "targetNamespace").unwrap_or("").to_string();
            schema(x, i, root, &tns);
            continue;
        }
        let tns = attr(root, "targetNamespace").unwrap_or("").to_string();
        for a in ["id", "targetNamespace"] {
            doc::required(d, root, a, x.diags);
        }
        // Its children are checked below, as they are read.
        doc::check_attributes(d, root, &["id", "name", "targetNamespace"], &[], x.diags);
        let mut defines = 0;
        for c in root.children().filter(|c| c.is_element()) {
            let name = c.tag_name().name();
            if c.tag_name().namespace() != Some(TOSCA_NS) || name == "documentation" {
                continue;
            }
            match name {
                "Import" => {}
                "Extensions" => extensions(x, i, c),
                "Types" => {
                    for s in c.children().filter(|s| s.is_element()) {
                        if s.tag_name().namespace() == Some(XSD_NS)
                            && s.tag_name().name() == "schema"
                        {
                            let stns = attr(s, "targetNamespace").unwrap_or(&tns).to_string();
                            schema(x, i, s, &stns);
                        } else {
                            x.diags.push(
                                Diagnostic::warning(
                                    codes::XML_RULE,
                                    format!(
                                        "`Types` holds `{}`, which is not an XML Schema; ignored",
                                        s.tag_name().name()
                                    ),
                                )
                                .at(d.el(s))
                                .hint("toscana reads property types from xs:schema only"),
                            );
                        }
                    }
                }
                _ => {
                    match XKind::of(name) {
                        Some(kind) => {
                            defines += 1;
                            define(x, i, c, kind, &tns);
                        }
                        None if x.quirks.has(Quirk::Winery) => {
                            x.diags.push(
                            Diagnostic::warning(
                                codes::XML_QUIRK,
                                format!("`{name}` is not TOSCA 1.0 (a Winery extension); skipped (--quirk winery)"),
                            )
                            .at(d.el(c)),
                        );
                        }
                        None => {
                            let mut e = doc::unknown_element(d, c, root, DEFINITIONS);
                            if name == "Tags" {
                                e = e.hint("Tags belong on a ServiceTemplate or a type, not on Definitions");
                            }
                            x.diags.push(e);
                        }
                    }
                }
            }
        }
        if defines == 0 {
            let msg = "this Definitions document defines nothing (it holds only imports)";
            if x.quirks.has(Quirk::Winery) {
                x.diags.push(
                    Diagnostic::warning(
                        codes::XML_QUIRK,
                        format!("{msg}; accepted (--quirk winery)"),
                    )
                    .at(d.el(root)),
                );
            } else {
                x.diags.push(
                    Diagnostic::error(codes::XML_RULE, msg)
                        .at(d.el(root))
                        .hint("a Definitions document holds at least one ServiceTemplate, type, implementation or template; Winery's XSD import wrappers need --quirk winery"),
                );
            }
        }
        ids(x, i, root);
    }
}

fn extensions(x: &mut X, i: usize, n: Xn) {
    let d = x.docs[i];
    let list: Vec<Xn> = doc::kids(n, "Extension").collect();
    if list.is_empty() {
        x.diags.push(
            Diagnostic::error(codes::XML_SCHEMA, "`Extensions` is empty")
                .at(d.el(n))
                .hint("declare at least one `Extension namespace=\"...\"`, or drop the element"),
        );
    }
    for e in list {
        let Some(ns) = doc::required(d, e, "namespace", x.diags) else {
            continue;
        };
        let must = doc::yes_no(d, e, "mustUnderstand", true, x.diags);
        if must && !supported_extension(x, ns) {
            x.diags.push(
                Diagnostic::error(
                    codes::XML_RULE,
                    format!("this document requires the extension `{ns}`, which toscana does not understand"),
                )
                .at(d.el(e))
                .hint(if ns == WINERY_NS {
                    "the Winery extension is understood with --quirk winery".to_string()
                } else {
                    "a mandatory extension (mustUnderstand=\"yes\", the default) that a processor lacks makes the document unreadable; mark it mustUnderstand=\"no\" if it may be ignored".to_string()
                }),
            );
        }
    }
}

fn define(x: &mut X, i: usize, n: Xn, kind: XKind, tns: &str) {
    let d = x.docs[i];
    let Some(name) = doc::required(d, n, kind.name_attr(), x.diags) else {
        return;
    };
    if !is_ncname(name) {
        x.diags.push(
            Diagnostic::error(
                codes::XML_SCHEMA,
                format!(
                    "`{name}` is not an NCName, so it cannot name a {}",
                    kind.element()
                ),
            )
            .at(d.at(n, kind.name_attr()))
            .hint(
                "names start with a letter or `_` and hold letters, digits, `_`, `-` and `.` only",
            ),
        );
    }
    let ns = attr(n, "targetNamespace").unwrap_or(tns).to_string();
    let key = (kind, ns.clone(), name.to_string());
    if let Some(first) = x.sym.defs.get(&key) {
        let fd = x.docs[first.doc];
        let fnode = fd.doc.get_node(first.node).expect("a stored node");
        x.diags.push(
            Diagnostic::error(
                codes::XML_RULE,
                format!("{} `{}` is defined twice", kind.element(), clark(&ns, name)),
            )
            .at(d.at(n, kind.name_attr()))
            .label(fd.at(fnode, kind.name_attr()), "first defined here")
            .hint("a name is defined once per kind and namespace, across all documents read"),
        );
        return;
    }
    x.sym.defs.insert(
        key,
        Def {
            doc: i,
            node: n.id(),
        },
    );
    x.sym
        .kinds
        .entry((ns, name.to_string()))
        .or_default()
        .push(kind);
}

/// Checks that the `type` of each local element of complex type `ct` (the properties a
/// `PropertiesDefinition` naming it gives) is a QName whose prefix is declared: reported here,
/// once per schema read, however many types' properties use the complex type
/// (`props::fields` reads the same QNames without reporting).
fn local_element_types(x: &mut X, i: usize, ct: Xn) {
    let d = x.docs[i];
    let mut elements = Vec::new();
    super::props::local_elements(ct, &mut elements);
    for e in elements {
        if let Some(t) = attr(e, "type") {
            read_qname(d, e, t, d.at(e, "type"), "type", x.diags);
        }
    }
}

/// Global `xs:element` and `xs:complexType` of a schema.
fn schema(x: &mut X, i: usize, s: Xn, tns: &str) {
    for c in s
        .children()
        .filter(|c| c.is_element() && c.tag_name().namespace() == Some(XSD_NS))
    {
        let Some(name) = attr(c, "name") else {
            continue;
        };
        let def = Def {
            doc: i,
            node: c.id(),
        };
        match c.tag_name().name() {
            "element" => {
                x.sym
                    .xsd_elements
                    .insert((tns.to_string(), name.to_string()), def);
                let inline = c
                    .children()
                    .find(|k| k.is_element() && k.tag_name().name() == "complexType");
                if let Some(ct) = inline {
                    local_element_types(x, i, ct);
                }
            }
            "complexType" => {
                local_element_types(x, i, c);
                x.sym
                    .xsd_types
                    .insert((tns.to_string(), name.to_string()), def);
            }
            "simpleType" => {
                x.sym
                    .xsd_types
                    .insert((tns.to_string(), name.to_string()), def);
            }
            _ => {}
        }
    }
    // `<element>` without the xs: prefix inside a schema (the spec's appendix E) is not XSD.
    for c in s
        .children()
        .filter(|c| c.is_element() && c.tag_name().namespace() != Some(XSD_NS))
    {
        let d = x.docs[i];
        x.diags.push(
            Diagnostic::error(
                codes::XML_SCHEMA,
                format!(
                    "`{}` inside `xs:schema` is not in the XML Schema namespace",
                    c.tag_name().name()
                ),
            )
            .at(d.el(c))
            .hint(format!(
                "write it with the prefix bound to {XSD_NS}, e.g. `xs:{}`",
                c.tag_name().name()
            )),
        );
    }
}

/// `xs:ID` values: NCNames, unique across the whole document and across element kinds.
fn ids(x: &mut X, i: usize, root: Xn) {
    let d = x.docs[i];
    let mut seen: HashMap<&str, Xn> = HashMap::new();
    for n in root
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().namespace() == Some(TOSCA_NS))
    {
        let Some(id) = attr(n, "id") else { continue };
        if !is_ncname(id) {
            x.diags.push(
                Diagnostic::error(codes::XML_SCHEMA, format!("id `{id}` is not an NCName"))
                    .at(d.at(n, "id"))
                    .hint("an id starts with a letter or `_` and holds no spaces or colons; put display text in `name`"),
            );
        }
        if let Some(first) = seen.get(id) {
            x.diags.push(
                Diagnostic::error(
                    codes::XML_RULE,
                    format!("id `{id}` is used twice in this document"),
                )
                .at(d.at(n, "id"))
                .label(d.at(*first, "id"), "first used here")
                .hint("ids are unique across the whole document, whatever the element"),
            );
        } else {
            seen.insert(id, n);
        }
    }
}

/// An imported TOSCA document must define its definitions in the namespace the import names.
pub fn check_imports(x: &mut X, loaded: &Loaded) {
    for imp in &loaded.imports {
        let Some(ns) = &imp.namespace else { continue };
        let Some(i) = x.docs.iter().position(|d| d.id == imp.file) else {
            continue;
        };
        if x.roles[i] != Role::Tosca {
            continue;
        }
        let root = x.docs[i].doc.root_element();
        let tns = attr(root, "targetNamespace").unwrap_or("");
        if tns != ns {
            x.diags.push(
                Diagnostic::error(
                    codes::XML_RULE,
                    format!("this import names namespace `{ns}`, but the document it reads has targetNamespace `{tns}`"),
                )
                .at(imp.span)
                .hint("correct `namespace` (or drop it: it only tells what the document defines)"),
            );
        }
    }
}
