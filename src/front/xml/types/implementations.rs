//! Node and relationship type implementations folded into their types: implementation
//! artifacts become operation implementations, deployment artifacts type artifacts.

use roxmltree::Node as Xn;

use crate::diag::{Diagnostic, codes};
use crate::front::xml::X;
use crate::front::xml::build::{self, M};
use crate::front::xml::doc::{self, attr, documentation, kid, kids};
use crate::front::xml::names::{Def, XKind};
use crate::quirk::Quirk;
use crate::source::Span;
use crate::yaml::Node;

use super::Found;

/// An implementation artifact folded into an operation: which interface and operation it
/// serves (`None`: all of them) and the artifact's name among the type's artifacts.
pub(super) struct Ia {
    iface: Option<String>,
    op: Option<String>,
    artifact: String,
    span: Span,
    used: std::cell::Cell<bool>,
}

impl X<'_, '_> {
    /// The artifacts a type gets from its implementation, and the implementation artifacts
    /// for its operations.
    pub(super) fn implemented(&mut self, yaml: &str, at: Span) -> (M, Vec<Ia>) {
        let mut artifacts = M::new(at);
        let ias = match self.chosen_implementation(yaml, at) {
            Some(def) => self.implementation_artifacts(def, &mut artifacts),
            None => Vec::new(),
        };
        (artifacts, ias)
    }

    /// The implementation whose artifacts a type gets: the first non-abstract one read.
    pub(super) fn chosen_implementation(&mut self, yaml: &str, at: Span) -> Option<Def> {
        let list = self.impls.get(yaml)?.clone();
        let concrete: Vec<Def> = list
            .iter()
            .copied()
            .filter(|d| !doc::flag(self.node(*d), "abstract", false))
            .collect();
        let first = *concrete.first()?;
        if concrete.len() > 1 {
            let names: Vec<String> = concrete
                .iter()
                .map(|d| attr(self.node(*d), "name").unwrap_or("").to_string())
                .collect();
            self.diags.push(
                Diagnostic::warning(
                    codes::XML_RULE,
                    format!("`{yaml}` has {} implementations ({}); the first is used", concrete.len(), names.join(", ")),
                )
                .at(at)
                .hint("a container chooses by RequiredContainerFeatures; toscana takes the first non-abstract one read"),
            );
        }
        Some(first)
    }

    /// The implementation and deployment artifacts of an NTI/RTI (and its DerivedFrom chain):
    /// artifacts are added to `artifacts`, and implementation artifacts returned for the
    /// operations.
    pub(super) fn implementation_artifacts(&mut self, def: Def, artifacts: &mut M) -> Vec<Ia> {
        let mut out = Vec::new();
        let d = self.docs[def.doc];
        let n = self.node(def);
        if let Some(ias) = kid(n, "ImplementationArtifacts") {
            for (i, ia) in doc::items(d, ias, "ImplementationArtifact", self.diags).enumerate() {
                let iface = attr(ia, "interfaceName").map(str::to_string);
                let op = attr(ia, "operationName").map(str::to_string);
                let name =
                    attr(ia, "name")
                        .map(str::to_string)
                        .unwrap_or_else(|| match (&iface, &op) {
                            (_, Some(o)) => format!("{o}_ia"),
                            (Some(f), None) => format!("{}_ia", f.rsplit('/').next().unwrap_or(f)),
                            _ => format!("ia_{i}"),
                        });
                if let Some(a) = self.artifact(def.doc, ia, &name)
                    && artifacts.put(&name, d.el(ia), a)
                {
                    out.push(Ia {
                        iface,
                        op,
                        artifact: name,
                        span: d.el(ia),
                        used: std::cell::Cell::new(false),
                    });
                }
            }
        }
        if let Some(das) = kid(n, "DeploymentArtifacts") {
            for da in doc::items(d, das, "DeploymentArtifact", self.diags) {
                let Some(name) = doc::required(d, da, "name", self.diags) else {
                    continue;
                };
                if let Some(a) = self.artifact(def.doc, da, name) {
                    artifacts.put(name, d.at(da, "name"), a);
                }
            }
        }
        if let Some(f) = kid(n, "RequiredContainerFeatures") {
            self.lose(def.doc, f, "`RequiredContainerFeatures`");
        }
        out
    }

    /// An artifact definition from an IA/DA: its type, and the file of its artifact template.
    pub(in crate::front::xml) fn artifact(&mut self, di: usize, n: Xn, name: &str) -> Option<Node> {
        let d = self.docs[di];
        let is_ia = n.tag_name().name() == "ImplementationArtifact";
        // Winery names implementation artifacts; the schema does not (X1-LEN-02).
        let lenient: &[&str] = if is_ia && self.quirks.has(Quirk::Winery) {
            &["name"]
        } else {
            &[]
        };
        let attrs: &[&str] = if is_ia {
            &[
                "interfaceName",
                "operationName",
                "artifactType",
                "artifactRef",
            ]
        } else {
            &["name", "artifactType", "artifactRef"]
        };
        doc::check_element(d, n, &[], attrs, lenient, self.diags);
        doc::required(d, n, "artifactType", self.diags)?;
        let (ty, ty_span) = self.resolve(di, n, "artifactType", XKind::ArtifactType)?;
        let mut m = M::new(d.el(n));
        m.set(
            "type",
            build::s(self.found_name(XKind::ArtifactType, &ty), ty_span),
        );
        let file = match attr(n, "artifactRef") {
            Some(_) => {
                match self.resolve(di, n, "artifactRef", XKind::ArtifactTemplate) {
                    Some((Found::Def(t), span)) => {
                        let tn = self.node(t);
                        let reference = kid(tn, "ArtifactReferences")
                            .and_then(|r| kid(r, "ArtifactReference"))
                            .and_then(|r| attr(r, "reference"));
                        match reference {
                            Some(r) => Some(build::s(self.csar_relative(di, r), span)),
                            None => {
                                self.lose(di, n, &format!("artifact `{name}`, whose template has no ArtifactReference,"));
                                None
                            }
                        }
                    }
                    Some(_) => {
                        self.lose(
                            di,
                            n,
                            &format!("artifact `{name}`, whose template was not read,"),
                        );
                        None
                    }
                    None => return None,
                }
            }
            None => {
                self.lose(
                    di,
                    n,
                    &format!("artifact `{name}` described by its content only"),
                );
                None
            }
        };
        let file = file?;
        m.set("file", file);
        if n.children().any(|c| c.is_element()) {
            self.lose(di, n, &format!("the content of artifact `{name}`"));
        }
        Some(m.done())
    }

    /// An artifact reference is relative to the CSAR root (X1-ATPL-02); a YAML artifact file to
    /// the file naming it. Inside an archive the path is rewritten from the document's folder.
    pub(super) fn csar_relative(&self, di: usize, reference: &str) -> String {
        if reference.contains("://") || reference.starts_with('/') {
            return reference.to_string();
        }
        match &self.docs[di].file.origin {
            crate::source::Origin::Archive { entry, .. } => {
                format!("{}{reference}", "../".repeat(entry.matches('/').count()))
            }
            crate::source::Origin::Path(path) => {
                let depth = self.csar_root.as_ref().and_then(|root| {
                    Some(path.parent()?.strip_prefix(root).ok()?.components().count())
                });
                format!("{}{reference}", "../".repeat(depth.unwrap_or(0)))
            }
            _ => reference.to_string(),
        }
    }

    /// `Interfaces` of a type as interface definitions, with the operations' implementations.
    pub(super) fn interfaces(&mut self, di: usize, ifs: Xn, ias: &[Ia], side: &str) -> M {
        let d = self.docs[di];
        let mut im = M::new(d.el(ifs));
        // `Interfaces`, `SourceInterfaces`, `TargetInterfaces`: tInterfaces, one or more
        // `Interface` and nothing else (X1-IFC-01, X1-IFC-05).
        doc::check_element(d, ifs, &["Interface"], &[], &[], self.diags);
        for i in kids(ifs, "Interface") {
            doc::check_element(d, i, &["Operation"], &["name"], &[], self.diags);
            let Some(iname) = doc::required(d, i, "name", self.diags) else {
                continue;
            };
            let key = if side.is_empty() {
                iname.to_string()
            } else {
                format!("{side}:{iname}")
            };
            let mut def = M::new(d.el(i));
            def.set("type", build::s(iname, d.at(i, "name")));
            if self.interface_types.insert(iname.to_string()) {
                self.pending_interfaces
                    .push((iname.to_string(), d.at(i, "name")));
            }
            let mut ops = M::new(d.el(i));
            for o in kids(i, "Operation") {
                doc::check_element(
                    d,
                    o,
                    &["InputParameters", "OutputParameters"],
                    &["name"],
                    &[],
                    self.diags,
                );
                let Some(oname) = doc::required(d, o, "name", self.diags) else {
                    continue;
                };
                let mut om = M::new(d.el(o));
                if let Some(text) = documentation(o) {
                    om.set("description", build::s(text, d.el(o)));
                }
                if let Some(ip) = kid(o, "InputParameters") {
                    let mut inputs = M::new(d.el(ip));
                    for p in kids(ip, "InputParameter") {
                        let Some((pn, pm)) = self.parameter(di, p) else {
                            continue;
                        };
                        inputs.put(pn, d.at(p, "name"), pm);
                    }
                    om.set_nonempty("inputs", inputs);
                    doc::check_element(d, ip, &["InputParameter"], &[], &[], self.diags);
                }
                if let Some(op) = kid(o, "OutputParameters") {
                    doc::check_element(d, op, &["OutputParameter"], &[], &[], self.diags);
                    for p in kids(op, "OutputParameter") {
                        doc::parameter(d, p, self.diags);
                    }
                    self.lose(di, op, "operation `OutputParameters`");
                }
                let ia = ias
                    .iter()
                    .filter(|a| {
                        a.iface.as_deref().is_none_or(|f| f == iname)
                            && a.op.as_deref().is_none_or(|p| p == oname)
                    })
                    .max_by_key(|a| (a.iface.is_some(), a.op.is_some()));
                if let Some(a) = ia {
                    a.used.set(true);
                    let mut imp = M::new(a.span);
                    imp.set("primary", build::s(&a.artifact, a.span));
                    om.set("implementation", imp.done());
                }
                if !ops.put(oname, d.at(o, "name"), om.done()) {
                    self.diags.push(
                        Diagnostic::error(
                            codes::XML_RULE,
                            format!("operation `{oname}` is defined twice in interface `{iname}`"),
                        )
                        .at(d.at(o, "name")),
                    );
                }
            }
            def.set_nonempty("operations", ops);
            if !im.put(&key, d.at(i, "name"), def.done()) {
                self.diags.push(
                    Diagnostic::error(
                        codes::XML_RULE,
                        format!("interface `{iname}` is defined twice"),
                    )
                    .at(d.at(i, "name")),
                );
            }
        }
        if side.is_empty() || side == "target" {
            for a in ias
                .iter()
                .filter(|a| !a.used.get() && (a.iface.is_some() || a.op.is_some()))
            {
                self.diags.push(
                    Diagnostic::warning(
                        codes::XML_RULE,
                        format!(
                            "implementation artifact `{}` is for {}, which the type does not define",
                            a.artifact,
                            match (&a.iface, &a.op) {
                                (Some(f), Some(o)) => format!("operation `{o}` of interface `{f}`"),
                                (Some(f), None) => format!("interface `{f}`"),
                                (None, Some(o)) => format!("operation `{o}`"),
                                _ => String::new(),
                            }
                        ),
                    )
                    .at(a.span),
                );
                a.used.set(true);
            }
        }
        im
    }

    /// An operation parameter: its `type` is an opaque string (X1-NS-07, X1-IFC-03). Optional
    /// for the template, which never assigns it (the invoking plan does, given `required`).
    pub(super) fn parameter<'n>(&mut self, di: usize, p: Xn<'n, '_>) -> Option<(&'n str, Node)> {
        let d = self.docs[di];
        let (name, written_type, _) = doc::parameter(d, p, self.diags);
        let name = name?;
        let local = written_type.unwrap_or("string").rsplit(':').next();
        let yaml_ty = match local.unwrap_or("string") {
            "list" => "list",
            "map" => "map",
            "number" => "float",
            other => crate::front::xml::props_builtin(other),
        };
        let mut m = M::new(d.el(p));
        m.set("type", build::s(yaml_ty, d.at(p, "type")));
        m.set("required", build::boolean(false, d.at(p, "required")));
        Some((name, m.done()))
    }
}
