//! Which files make up the definitions: the entry, the TOSCA documents and XML Schemas it
//! imports (each once, cycles allowed as XML imports are unordered), WSDL recorded only.
//! The root of each TOSCA document is checked here, so a CSD02 draft is refused first.

use std::collections::HashSet;

use roxmltree::Node as X;

use super::doc::{self, TOSCA_NS, WSDL_NS, XSD_NS, attr};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::quirk::{Quirk, Quirks};
use crate::source::{FileId, ImportRef, Loader, Span};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Tosca,
    Xsd,
}

pub struct File {
    pub id: FileId,
    pub role: Role,
}

/// One `Import` that named a file: who imported it, the file, under which namespace, where.
pub struct Imported {
    pub importer: FileId,
    pub file: FileId,
    pub namespace: Option<String>,
    pub span: Span,
}

pub struct Loaded {
    pub files: Vec<File>,
    pub imports: Vec<Imported>,
    pub namespace_only: Vec<String>,
}

/// An `Import` as read, before its file is looked for.
struct Request {
    role: Option<Role>,
    location: Option<String>,
    namespace: Option<String>,
    span: Span,
}

pub fn load(
    loader: &mut Loader,
    entry: FileId,
    quirks: &Quirks,
    diags: &mut Diagnostics,
) -> Option<Loaded> {
    let mut out = Loaded {
        files: vec![File {
            id: entry,
            role: Role::Tosca,
        }],
        imports: Vec::new(),
        namespace_only: Vec::new(),
    };
    let mut seen: HashSet<FileId> = HashSet::from([entry]);
    let mut i = 0;
    while i < out.files.len() {
        let (id, role) = (out.files[i].id, out.files[i].role);
        i += 1;
        let requests = {
            let Some(d) = doc::parse(id, loader.sources().get(id), diags) else {
                if id == entry {
                    return None;
                }
                continue;
            };
            let root = d.doc.root_element();
            if role == Role::Xsd {
                if !(root.tag_name().namespace() == Some(XSD_NS)
                    && root.tag_name().name() == "schema")
                {
                    diags.push(
                        Diagnostic::error(
                            codes::XML_SCHEMA,
                            "an XML Schema import that is not an `xs:schema` document",
                        )
                        .at(d.el(root))
                        .hint("importType http://www.w3.org/2001/XMLSchema names a file whose root is xs:schema"),
                    );
                }
                continue;
            }
            if !check_root(&d, root, id == entry, diags) {
                if id == entry {
                    return None;
                }
                continue;
            }
            requests(&d, root, quirks, diags)
        };
        for r in requests {
            let Some(role) = r.role else { continue };
            let Some(location) = r.location.filter(|l| !l.is_empty()) else {
                if let Some(ns) = r.namespace {
                    out.namespace_only.push(ns);
                }
                continue;
            };
            let reference = ImportRef {
                url: &location,
                repository_url: None,
            };
            let Some((file, _)) = loader.resolve_import(id, &reference, r.span, diags) else {
                continue;
            };
            out.imports.push(Imported {
                importer: id,
                file,
                namespace: r.namespace.clone(),
                span: r.span,
            });
            if seen.insert(file) {
                out.files.push(File { id: file, role });
            }
        }
    }
    Some(out)
}

/// The root must be `{TOSCA}Definitions`. A root `ServiceTemplate` in the TOSCA namespace is
/// the CSD02 draft of 2012, a different language under the same namespace.
fn check_root(d: &doc::Doc, root: X, entry: bool, diags: &mut Diagnostics) -> bool {
    let name = root.tag_name().name();
    let ns = root.tag_name().namespace();
    if ns == Some(TOSCA_NS) && name == "Definitions" {
        return true;
    }
    let what = if entry {
        "this document"
    } else {
        "an imported document"
    };
    let csd02 = root.descendants().any(|n| {
        n.is_element()
            && (matches!(
                n.tag_name().name(),
                "NodeTypes"
                    | "RelationshipTypes"
                    | "NodeTypeProperties"
                    | "TopologyTemplateReference"
                    | "GroupTemplate"
            ) || (attr(n, "nodeType").is_some() && n.tag_name().name() == "NodeTemplate")
                || (attr(n, "relationshipType").is_some()
                    && n.tag_name().name() == "RelationshipTemplate"))
    });
    let d0 = if ns == Some(TOSCA_NS) && name == "ServiceTemplate" && !csd02 {
        Diagnostic::error(
            codes::XML_SCHEMA,
            format!("the root of {what} is `ServiceTemplate`; in TOSCA 1.0 a ServiceTemplate sits inside `Definitions`"),
        )
        .hint("wrap it in <Definitions id=\"...\" targetNamespace=\"...\" xmlns=\"http://docs.oasis-open.org/tosca/ns/2011/12\"> (a root ServiceTemplate was the grammar of the 2012 draft CSD02)")
    } else if ns == Some(TOSCA_NS) && name == "ServiceTemplate" {
        Diagnostic::error(
            codes::XML_DRAFT,
            format!("{what} is a pre-standard TOSCA 1.0 draft (Committee Specification Draft 02, April 2012): its root is `ServiceTemplate`"),
        )
        .hint("toscana reads the TOSCA 1.0 standard (2013), whose root is `Definitions` holding types and a `ServiceTemplate`; CSD02 has another grammar under the same namespace (NodeTypes, nodeType=, NodeTypeProperties ...). Re-export it from a current modelling tool (Winery) or rewrite it as a Definitions document")
    } else if ns.is_none() && name == "Definitions" {
        Diagnostic::error(
            codes::XML_SCHEMA,
            format!("the `Definitions` root of {what} is in no namespace, so it is not TOSCA"),
        )
        .hint(format!(
            "declare the TOSCA namespace on it: xmlns=\"{TOSCA_NS}\""
        ))
    } else if ns == Some(TOSCA_NS) {
        Diagnostic::error(
            codes::XML_SCHEMA,
            format!(
                "the root of {what} is `{name}`; a TOSCA 1.0 XML document's root is `Definitions`"
            ),
        )
    } else {
        Diagnostic::error(
            codes::XML_SCHEMA,
            format!(
                "{what} is XML but not TOSCA: its root is `{name}` in namespace `{}`",
                ns.unwrap_or("(none)")
            ),
        )
        .hint(format!("TOSCA 1.0 XML has the root `Definitions` in namespace {TOSCA_NS}; TOSCA YAML starts with `tosca_definitions_version`"))
    };
    diags.push(d0.at(d.el(root)));
    false
}

/// The `Import` children of a Definitions root.
fn requests(d: &doc::Doc, root: X, quirks: &Quirks, diags: &mut Diagnostics) -> Vec<Request> {
    let mut out = Vec::new();
    let mut triples: HashSet<(String, String, String)> = HashSet::new();
    for imp in doc::kids(root, "Import") {
        // tImport: `namespace`, `location`, `importType` (X1-IMP-01).
        doc::check_element(
            d,
            imp,
            &[],
            &["namespace", "location", "importType"],
            &[],
            diags,
        );
        let location = attr(imp, "location").map(str::to_string);
        let namespace = attr(imp, "namespace").map(str::to_string);
        let span = d.el(imp);
        let import_type = match attr(imp, "importType") {
            Some(t) => t.to_string(),
            None => {
                let guessed = guess(location.as_deref());
                if quirks.has(Quirk::Winery) {
                    diags.push(
                        Diagnostic::warning(
                            codes::XML_QUIRK,
                            format!("`Import` without `importType`; read as {guessed} from its location (--quirk winery)"),
                        )
                        .at(span),
                    );
                    guessed.to_string()
                } else {
                    diags.push(
                        Diagnostic::error(codes::XML_SCHEMA, "`Import` lacks its required attribute `importType`")
                            .at(span)
                            .hint(format!("add importType=\"{guessed}\" (Winery omits it; --quirk winery infers it from the file extension)")),
                    );
                    continue;
                }
            }
        };
        let key = (
            import_type.clone(),
            namespace.clone().unwrap_or_default(),
            location.clone().unwrap_or_default(),
        );
        if !triples.insert(key) {
            diags.push(
                Diagnostic::warning(codes::XML_RULE, "this `Import` repeats an earlier one (same namespace, importType and location)")
                    .at(span),
            );
        }
        let role = match import_type.as_str() {
            TOSCA_NS => Some(Role::Tosca),
            XSD_NS => Some(Role::Xsd),
            WSDL_NS => None,
            other => {
                diags.push(
                    Diagnostic::warning(
                        codes::XML_RULE,
                        format!("import type `{other}` is not one toscana reads; the import is ignored"),
                    )
                    .at(d.at(imp, "importType"))
                    .hint(format!("known import types: {TOSCA_NS} (TOSCA), {XSD_NS} (XML Schema), {WSDL_NS} (WSDL, recorded only)")),
                );
                None
            }
        };
        if location
            .as_deref()
            .is_some_and(|l| l.contains(char::is_whitespace))
        {
            diags.push(
                Diagnostic::warning(codes::XML_RULE, "the import location contains white space")
                    .at(d.at(imp, "location"))
                    .hint("a URI has no spaces; a location wrapped over lines keeps them"),
            );
        }
        out.push(Request {
            role,
            location,
            namespace,
            span,
        });
    }
    out
}

fn guess(location: Option<&str>) -> &'static str {
    let lower = location.unwrap_or("").to_ascii_lowercase();
    if lower.ends_with(".xsd") {
        XSD_NS
    } else if lower.ends_with(".wsdl") {
        WSDL_NS
    } else {
        TOSCA_NS
    }
}
