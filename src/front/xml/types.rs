//! Types and implementations: each XML type becomes a Simple Profile type of the same kind
//! (requirement types are folded into the requirement definitions that use them), and the
//! node and relationship type implementations are folded into their types: implementation
//! artifacts become operation implementations, deployment artifacts node type artifacts.

use roxmltree::Node as Xn;

use super::X;
use super::build::{self, M};
use super::doc::{self, attr, documentation, kid, kids};
use super::names::{Def, QName, XKind, base_parent, base_type, clark, qname};
use crate::diag::{Diagnostic, codes};
use crate::quirk::Quirk;
use crate::source::Span;
use crate::yaml::Node;

/// What a QName resolved to.
#[derive(Debug, Clone)]
pub enum Found {
    Def(Def),
    /// A ToscaBaseTypes name no file defines: the normative type it stands for.
    Builtin(String),
    /// Not defined anywhere read; taken on trust (`--quirk winery`).
    Trusted(String),
}

const TYPE_CHILDREN: &[&str] = &["Tags", "DerivedFrom", "PropertiesDefinition"];
const TYPE_ATTRS: &[&str] = &["name", "abstract", "final", "targetNamespace"];

impl<'d, 'a> X<'d, 'a> {
    pub(super) fn tns(&self, di: usize) -> String {
        attr(self.docs[di].doc.root_element(), "targetNamespace")
            .unwrap_or("")
            .to_string()
    }

    /// The element of a definition.
    pub(super) fn node(&self, def: Def) -> Xn<'d, 'a> {
        self.docs[def.doc]
            .doc
            .get_node(def.node)
            .expect("a definition's node exists")
    }

    /// The expanded name of a definition.
    pub(super) fn def_name(&self, kind: XKind, def: Def) -> (String, String) {
        let n = self.node(def);
        let ns = attr(n, "targetNamespace")
            .map(str::to_string)
            .unwrap_or_else(|| self.tns(def.doc));
        (ns, attr(n, kind.name_attr()).unwrap_or("").to_string())
    }

    /// The translated name of a definition (the naming rule of [`super::names`]).
    pub(super) fn yaml_name(&self, kind: XKind, def: Def) -> String {
        let (ns, local) = self.def_name(kind, def);
        clark(&ns, &local)
    }

    pub(super) fn found_name(&self, kind: XKind, f: &Found) -> String {
        match f {
            Found::Def(d) => self.yaml_name(kind, *d),
            Found::Builtin(b) => b.clone(),
            Found::Trusted(t) => t.clone(),
        }
    }

    /// Resolves the QName in attribute `name` of `n` to a definition of `kind`.
    pub(super) fn resolve(
        &mut self,
        di: usize,
        n: Xn,
        name: &str,
        kind: XKind,
    ) -> Option<(Found, Span)> {
        let Some((q, span)) = qname(self.docs[di], n, name, self.diags) else {
            // Reported; the written text stands for an empty type from here on.
            let text = attr(n, name)?;
            let q = QName {
                ns: String::new(),
                local: text.to_string(),
                unprefixed: false,
            };
            let span = self.docs[di].at(n, name);
            return self.recover(kind, &q, span).map(|f| (f, span));
        };
        self.resolve_q(di, &q, span, kind).map(|f| (f, span))
    }

    pub(super) fn resolve_q(
        &mut self,
        di: usize,
        q: &QName,
        span: Span,
        kind: XKind,
    ) -> Option<Found> {
        if let Some(def) = self
            .sym
            .defs
            .get(&(kind, q.ns.clone(), q.local.clone()))
            .copied()
        {
            self.check_visible(di, def, q, span, kind);
            return Some(Found::Def(def));
        }
        let tns = self.tns(di);
        if q.unprefixed
            && let Some(def) = self
                .sym
                .defs
                .get(&(kind, tns.clone(), q.local.clone()))
                .copied()
        {
            self.diags.push(
                Diagnostic::warning(
                    codes::XML_QNAME,
                    format!("unprefixed `{}` means `{}` by the XML rules, which is not defined; read as `{}` of this document's targetNamespace", q.local, q.clark(), clark(&tns, &q.local)),
                )
                .at(span)
                .hint(format!("declare a prefix for {tns} and write `prefix:{}`", q.local)),
            );
            return Some(Found::Def(def));
        }
        if let Some(b) = base_type(kind, q) {
            return Some(Found::Builtin(b));
        }
        let other = self
            .sym
            .kinds
            .get(&(q.ns.clone(), q.local.clone()))
            .and_then(|k| k.first().copied());
        if let Some(other) = other {
            self.diags.push(
                Diagnostic::error(
                    codes::XML_QNAME,
                    format!(
                        "`{}` is a {}, not a {}",
                        q.clark(),
                        other.element(),
                        kind.element()
                    ),
                )
                .at(span)
                .hint(format!("name a {} here", kind.element())),
            );
            return self.recover(kind, q, span);
        }
        if self.quirks.has(Quirk::Winery) {
            let name = q.clark();
            if self
                .trusted
                .iter()
                .any(|(k, n, _)| *k == kind && *n == name)
            {
                return Some(Found::Trusted(name));
            }
            self.trusted.push((kind, name, span));
            self.diags.push(
                Diagnostic::warning(
                    codes::XML_QUIRK,
                    format!("{} `{}` is not defined in any document read; taken on trust, as Winery finds it in its repository (--quirk winery)", kind.element(), q.clark()),
                )
                .at(span),
            );
            return Some(Found::Trusted(q.clark()));
        }
        let hint = if self.namespace_only.contains(&q.ns) {
            format!(
                "namespace {} is imported without a `location`, so its definitions were not read; add location=\"FILE\" to that Import",
                q.ns
            )
        } else {
            format!(
                "define {} `{}` in namespace {}, or import the document that does",
                kind.element(),
                q.local,
                if q.ns.is_empty() { "(none)" } else { &q.ns }
            )
        };
        self.diags.push(
            Diagnostic::error(
                codes::XML_QNAME,
                format!(
                    "no {} `{}` is defined in the documents read",
                    kind.element(),
                    q.clark()
                ),
            )
            .at(span)
            .hint(hint),
        );
        self.recover(kind, q, span)
    }

    /// A definition used by document `di` must be in it or in a document it imports itself
    /// (X1-IMP-08): an error, or a warning under `--quirk winery`, whose repositories resolve
    /// every name globally.
    fn check_visible(&mut self, di: usize, def: Def, q: &QName, span: Span, kind: XKind) {
        if self.visible[di].contains(&def.doc) {
            return;
        }
        let file = &self.docs[def.doc].file.name;
        let message = format!(
            "{} `{}` is defined in `{file}`, which this document does not import (imports are not transitive)",
            kind.element(),
            q.clark()
        );
        let d = if self.quirks.has(Quirk::Winery) {
            Diagnostic::warning(
                codes::XML_QUIRK,
                format!("{message}; used anyway (--quirk winery)"),
            )
        } else {
            Diagnostic::error(codes::XML_QNAME, message)
        };
        self.diags.push(d.at(span).hint(format!(
            "add <Import importType=\"{}\" namespace=\"{}\" location=\"...\"/> to this document",
            super::doc::TOSCA_NS,
            q.ns
        )));
    }

    /// After an unresolved name was reported: the name stands for an empty type of its kind,
    /// so the error is not repeated by everything that uses it.
    fn recover(&mut self, kind: XKind, q: &QName, span: Span) -> Option<Found> {
        let name = q.clark();
        if !self
            .trusted
            .iter()
            .any(|(k, n, _)| *k == kind && *n == name)
        {
            self.trusted.push((kind, name.clone(), span));
        }
        Some(Found::Trusted(name))
    }

    /// `DerivedFrom` of a definition: its parent, checked to exist, be of the same kind and
    /// not be final.
    fn derived(&mut self, di: usize, n: Xn, kind: XKind, attr_name: &str) -> Option<(Found, Span)> {
        let df = kid(n, "DerivedFrom")?;
        let (found, span) = self.resolve(di, df, attr_name, kind)?;
        if let Found::Def(p) = found {
            let pd = self.docs[p.doc];
            let pn = self.node(p);
            let mut quiet = crate::diag::Diagnostics::with_cap(0);
            if doc::yes_no(pd, pn, "final", false, &mut quiet) {
                self.diags.push(
                    Diagnostic::error(
                        codes::XML_RULE,
                        format!("`{}` derives from `{}`, which is final", attr(n, kind.name_attr()).unwrap_or(""), self.yaml_name(kind, p)),
                    )
                    .at(span)
                    .label(pd.el(pn), "declared final=\"yes\" here")
                    .hint("a final definition cannot be derived from; derive from its parent or drop final"),
                );
            }
        }
        Some((found, span))
    }

    /// The common part of every type: derived_from, description, metadata.
    fn type_head(&mut self, di: usize, n: Xn, kind: XKind, m: &mut M) {
        let d = self.docs[di];
        let abstract_ = doc::yes_no(d, n, "abstract", false, self.diags);
        let final_ = doc::yes_no(d, n, "final", false, self.diags);
        if abstract_ && final_ {
            self.diags.push(
                Diagnostic::error(
                    codes::XML_RULE,
                    "a definition cannot be both abstract and final",
                )
                .at(d.el(n))
                .hint("an abstract definition exists to be derived from; drop one of the two"),
            );
        }
        let parent = match self.derived(di, n, kind, "typeRef") {
            Some((f, span)) => Some(build::s(self.found_name(kind, &f), span)),
            None => {
                let (ns, local) = (
                    self.tns_of(di, n),
                    attr(n, "name").unwrap_or("").to_string(),
                );
                base_parent(kind, &ns, &local)
                    .or(kind.yaml_root().map(str::to_string))
                    .map(|r| build::s(r, d.el(n)))
            }
        };
        if let Some(p) = parent {
            m.set("derived_from", p);
        }
        if let Some(text) = documentation(n) {
            m.set("description", build::s(text, d.el(n)));
        }
        let mut meta = M::new(d.el(n));
        if abstract_ {
            meta.put(
                "abstract",
                d.at(n, "abstract"),
                build::s("yes", d.at(n, "abstract")),
            );
            self.lose(di, n, "`abstract` (kept as metadata)");
        }
        if final_ {
            meta.put("final", d.at(n, "final"), build::s("yes", d.at(n, "final")));
            self.lose(di, n, "`final` (kept as metadata)");
        }
        self.tags(di, n, &mut meta);
        m.set_nonempty("metadata", meta);
    }

    pub(super) fn tns_of(&self, di: usize, n: Xn) -> String {
        attr(n, "targetNamespace")
            .map(str::to_string)
            .unwrap_or_else(|| self.tns(di))
    }

    /// `Tags/Tag` as metadata entries; a repeated tag name keeps its first value.
    pub(super) fn tags(&mut self, di: usize, n: Xn, meta: &mut M) {
        let d = self.docs[di];
        let Some(tags) = kid(n, "Tags") else { return };
        for t in kids(tags, "Tag") {
            let (Some(name), Some(value)) = (
                doc::required(d, t, "name", self.diags),
                doc::required(d, t, "value", self.diags),
            ) else {
                continue;
            };
            if !meta.put(name, d.at(t, "name"), build::s(value, d.at(t, "value"))) {
                self.lose(di, t, "a repeated tag name (the first value is kept)");
            }
        }
    }

    /// Records a construct `toscana convert` cannot express in YAML.
    pub(super) fn lose(&mut self, di: usize, n: Xn, what: &str) {
        let span = self.docs[di].el(n);
        self.lost.push(super::Lost {
            what: what.to_string(),
            span,
            tosca2: None,
        });
    }

    /// Records a construct TOSCA YAML 1.3 cannot express but TOSCA 2.0 can: `key: value` on
    /// the definition `name` of `section`, which the 2.0 rewrite adds.
    pub(super) fn lose_in_1_3(&mut self, di: usize, n: Xn, what: &str, keeps: super::Tosca2Only) {
        let span = self.docs[di].el(n);
        self.lost.push(super::Lost {
            what: what.to_string(),
            span,
            tosca2: Some(keeps),
        });
    }

    /// The property schema of a type, inherited along DerivedFrom (a derived definition
    /// replaces its parent's, X1-INH-08).
    pub(super) fn schema_of(&mut self, kind: XKind, found: &Found) -> Option<super::props::Schema> {
        let Found::Def(def) = found else { return None };
        let name = self.yaml_name(kind, *def);
        if let Some(s) = self.schemas.get(&name) {
            return s.clone();
        }
        self.schemas.insert(name.clone(), None);
        let n = self.node(*def);
        let schema = match self.quietly(|x| x.own_schema(def.doc, n)) {
            Some(s) => Some(s),
            None => kid(n, "DerivedFrom")
                .and_then(|df| self.quiet_resolve(def.doc, df, "typeRef", kind))
                .and_then(|p| self.schema_of(kind, &p)),
        };
        self.schemas.insert(name, schema.clone());
        schema
    }

    /// Runs `f` with its diagnostics dropped: for looking things up that are reported where
    /// they are written.
    pub(super) fn quietly<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let real = std::mem::replace(self.diags, crate::diag::Diagnostics::with_cap(0));
        let out = f(self);
        *self.diags = real;
        out
    }

    /// [`Self::resolve`] without reporting anything.
    pub(super) fn quiet_resolve(
        &mut self,
        di: usize,
        n: Xn,
        name: &str,
        kind: XKind,
    ) -> Option<Found> {
        self.quietly(|x| x.resolve(di, n, name, kind).map(|(f, _)| f))
    }

    /// The names of a type and its ancestors that the XML tells (the normative ancestors of a
    /// normative parent are the resolver's to know); `None` for a type taken on trust.
    pub(super) fn ancestry(&mut self, kind: XKind, f: &Found) -> Option<Vec<String>> {
        match f {
            Found::Trusted(_) => None,
            Found::Builtin(b) => Some(vec![b.clone()]),
            Found::Def(def) => {
                let chain = self.chain(kind, *def);
                let mut names: Vec<String> =
                    chain.iter().map(|d| self.yaml_name(kind, *d)).collect();
                let root = self.node(*chain.last()?);
                if let Some(df) = kid(root, "DerivedFrom") {
                    match self.quiet_resolve(chain.last()?.doc, df, "typeRef", kind)? {
                        Found::Builtin(b) => names.push(b),
                        Found::Trusted(_) => return None,
                        Found::Def(_) => {}
                    }
                }
                Some(names)
            }
        }
    }

    /// Every definition along a type's DerivedFrom chain, itself first (cycles stop it).
    pub(super) fn chain(&mut self, kind: XKind, def: Def) -> Vec<Def> {
        let mut out = vec![def];
        while out.len() < 64 {
            let last = *out.last().expect("not empty");
            let n = self.node(last);
            let Some(df) = kid(n, "DerivedFrom") else {
                break;
            };
            let f = self.quiet_resolve(last.doc, df, "typeRef", kind);
            match f {
                Some(Found::Def(p)) if !out.iter().any(|d| d.node == p.node && d.doc == p.doc) => {
                    out.push(p)
                }
                _ => break,
            }
        }
        out
    }
}

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
    let mut sections: Vec<(&str, M)> = super::TYPE_SECTIONS
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
        && let Some(t) = super::topology::service_template(x, di, st)
    {
        top.set("topology_template", t);
    }
    top.done()
}

/// Capability and artifact types: the common part and properties.
fn plain_type(x: &mut X, di: usize, n: Xn, kind: XKind, extra: &[&str]) -> Node {
    type_common(x, di, n, kind, extra, &[]).done()
}

/// What every type has: its element checked (the common children and attributes plus
/// `children` and `attrs`), derived_from, description, metadata and properties.
fn type_common(x: &mut X, di: usize, n: Xn, kind: XKind, children: &[&str], attrs: &[&str]) -> M {
    let d = x.docs[di];
    let allowed = [TYPE_CHILDREN, children].concat();
    let attrs = [TYPE_ATTRS, attrs].concat();
    doc::check_element(d, n, &allowed, &attrs, &[], x.diags);
    let mut m = M::new(d.el(n));
    x.type_head(di, n, kind, &mut m);
    if let Some(s) = x.own_schema(di, n) {
        let defs = x.definitions(&s, d.el(n));
        m.set("properties", defs);
    }
    m
}

fn requirement_type(x: &mut X, di: usize, n: Xn) {
    type_common(
        x,
        di,
        n,
        XKind::RequirementType,
        &[],
        &["requiredCapabilityType"],
    );
    if attr(n, "requiredCapabilityType").is_some() {
        x.resolve(di, n, "requiredCapabilityType", XKind::CapabilityType);
    }
    x.lose(
        di,
        n,
        "a RequirementType (folded into the requirement definitions that use it)",
    );
}

fn policy_type(x: &mut X, di: usize, n: Xn) -> Node {
    let d = x.docs[di];
    let mut m = type_common(
        x,
        di,
        n,
        XKind::PolicyType,
        &["AppliesTo"],
        &["policyLanguage"],
    );
    if let Some(applies) = kid(n, "AppliesTo") {
        let mut targets = Vec::new();
        for r in kids(applies, "NodeTypeReference") {
            if let Some((f, span)) = x.resolve(di, r, "typeRef", XKind::NodeType) {
                targets.push(build::s(x.found_name(XKind::NodeType, &f), span));
            }
        }
        if !targets.is_empty() {
            m.set("targets", build::seq(targets, d.el(applies)));
        }
    }
    if attr(n, "policyLanguage").is_some() {
        x.lose(di, n, "`policyLanguage`");
    }
    m.done()
}

/// Occurrences `[lower, upper]` from XML bounds, checked.
fn bounds(x: &mut X, di: usize, n: Xn) -> Node {
    let d = x.docs[di];
    let lower = match attr(n, "lowerBound") {
        None => 1,
        Some(v) => v.parse::<i64>().unwrap_or_else(|_| {
            x.diags.push(
                Diagnostic::error(
                    codes::XML_SCHEMA,
                    format!("lowerBound `{v}` is not an integer"),
                )
                .at(d.at(n, "lowerBound")),
            );
            1
        }),
    };
    let upper: Option<i64> = match attr(n, "upperBound") {
        None => Some(1),
        Some("unbounded") => None,
        Some(v) => match v.parse::<i64>() {
            Ok(u) => Some(u),
            Err(_) => {
                x.diags.push(
                    Diagnostic::error(
                        codes::XML_SCHEMA,
                        format!("upperBound `{v}` is neither a positive integer nor `unbounded`"),
                    )
                    .at(d.at(n, "upperBound")),
                );
                Some(1)
            }
        },
    };
    if lower < 0 || upper.is_some_and(|u| u < 1 || u < lower) {
        x.diags.push(
            Diagnostic::error(
                codes::XML_RULE,
                format!(
                    "bounds [{lower}, {}] are not a range",
                    upper.map_or("unbounded".to_string(), |u| u.to_string())
                ),
            )
            .at(d.el(n))
            .hint("lowerBound ≥ 0, upperBound ≥ 1 and ≥ lowerBound"),
        );
    }
    let span = d.el(n);
    build::seq(
        vec![
            build::int(lower.max(0), span),
            match upper {
                Some(u) => build::int(u.max(lower.max(0)).max(1), span),
                None => build::s("UNBOUNDED", span),
            },
        ],
        span,
    )
}

fn node_type(x: &mut X, di: usize, n: Xn, yaml: &str) -> Node {
    let d = x.docs[di];
    let children = [
        "RequirementDefinitions",
        "CapabilityDefinitions",
        "InstanceStates",
        "Interfaces",
    ];
    let mut m = type_common(x, di, n, XKind::NodeType, &children, &[]);
    if let Some(reqs) = kid(n, "RequirementDefinitions") {
        let mut list = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for r in kids(reqs, "RequirementDefinition") {
            doc::check_element(
                d,
                r,
                &["Constraints"],
                &["name", "requirementType", "lowerBound", "upperBound"],
                &[],
                x.diags,
            );
            let (Some(name), Some(_)) = (
                doc::required(d, r, "name", x.diags),
                doc::required(d, r, "requirementType", x.diags),
            ) else {
                continue;
            };
            if names.iter().any(|k| k == name) {
                x.diags.push(
                    Diagnostic::error(
                        codes::XML_RULE,
                        format!("requirement definition `{name}` is defined twice"),
                    )
                    .at(d.at(r, "name")),
                );
                continue;
            }
            names.push(name.to_string());
            let mut def = M::new(d.el(r));
            let capability = match x.resolve(di, r, "requirementType", XKind::RequirementType) {
                Some((Found::Def(rt), span)) => {
                    let rn = x.node(rt);
                    match attr(rn, "requiredCapabilityType") {
                        Some(_) => x
                            .resolve(rt.doc, rn, "requiredCapabilityType", XKind::CapabilityType)
                            .map(|(f, _)| build::s(x.found_name(XKind::CapabilityType, &f), span)),
                        None => Some(build::s("tosca.capabilities.Root", span)),
                    }
                }
                Some((_, span)) => Some(build::s("tosca.capabilities.Root", span)),
                None => None,
            };
            if let Some(c) = capability {
                def.set("capability", c);
            }
            let occ = bounds(x, di, r);
            def.set("occurrences", occ);
            if kid(r, "Constraints").is_some() {
                x.lose(di, r, "requirement definition `Constraints`");
            }
            let mut item = M::new(d.el(r));
            item.put(name, d.at(r, "name"), def.done());
            list.push(item.done());
        }
        if !list.is_empty() {
            m.set("requirements", build::seq(list, d.el(reqs)));
        }
    }
    if let Some(caps) = kid(n, "CapabilityDefinitions") {
        let mut cm = M::new(d.el(caps));
        for c in kids(caps, "CapabilityDefinition") {
            doc::check_element(
                d,
                c,
                &["Constraints"],
                &["name", "capabilityType", "lowerBound", "upperBound"],
                &[],
                x.diags,
            );
            let (Some(name), Some(_)) = (
                doc::required(d, c, "name", x.diags),
                doc::required(d, c, "capabilityType", x.diags),
            ) else {
                continue;
            };
            let mut def = M::new(d.el(c));
            if let Some((f, span)) = x.resolve(di, c, "capabilityType", XKind::CapabilityType) {
                def.set(
                    "type",
                    build::s(x.found_name(XKind::CapabilityType, &f), span),
                );
            }
            let occ = bounds(x, di, c);
            def.set("occurrences", occ);
            if kid(c, "Constraints").is_some() {
                x.lose(di, c, "capability definition `Constraints`");
            }
            if !cm.put(name, d.at(c, "name"), def.done()) {
                x.diags.push(
                    Diagnostic::error(
                        codes::XML_RULE,
                        format!("capability definition `{name}` is defined twice"),
                    )
                    .at(d.at(c, "name")),
                );
            }
        }
        m.set_nonempty("capabilities", cm);
    }
    if let Some(states) = kid(n, "InstanceStates") {
        x.lose(di, states, "`InstanceStates`");
    }
    let (artifacts, ias) = x.implemented(yaml, d.el(n));
    if let Some(ifs) = kid(n, "Interfaces") {
        let im = x.interfaces(di, ifs, &ias, "");
        m.set_nonempty("interfaces", im);
    }
    m.set_nonempty("artifacts", artifacts);
    m.done()
}

fn relationship_type(x: &mut X, di: usize, n: Xn, yaml: &str) -> Node {
    let d = x.docs[di];
    let children = [
        "InstanceStates",
        "SourceInterfaces",
        "TargetInterfaces",
        "ValidSource",
        "ValidTarget",
    ];
    let mut m = type_common(x, di, n, XKind::RelationshipType, &children, &[]);
    // A node type as the valid source or target has a counterpart in TOSCA 2.0 only.
    let node_type_in_2_0 = |x: &mut X, key: &'static str, found: Option<Found>, span: Span| {
        found.map(|f| super::Tosca2Only {
            section: "relationship_types",
            type_name: yaml.to_string(),
            key,
            value: build::seq(
                vec![build::s(x.found_name(XKind::NodeType, &f), span)],
                span,
            ),
        })
    };
    if let Some(vs) = kid(n, "ValidSource") {
        let q = qname(d, vs, "typeRef", x.diags);
        let mut keeps = None;
        if let Some((q, span)) = q {
            if x.sym
                .defs
                .contains_key(&(XKind::RequirementType, q.ns.clone(), q.local.clone()))
            {
                x.resolve_q(di, &q, span, XKind::RequirementType);
            } else {
                let found = x.resolve_q(di, &q, span, XKind::NodeType);
                keeps = node_type_in_2_0(x, "valid_source_node_types", found, span);
            }
        }
        match keeps {
            Some(keeps) => x.lose_in_1_3(di, vs, "`ValidSource` naming a node type", keeps),
            None => x.lose(di, vs, "`ValidSource` naming a requirement type"),
        }
    }
    if let Some(vt) = kid(n, "ValidTarget")
        && let Some((q, span)) = qname(d, vt, "typeRef", x.diags)
    {
        if x.sym
            .defs
            .contains_key(&(XKind::NodeType, q.ns.clone(), q.local.clone()))
        {
            let found = x.resolve_q(di, &q, span, XKind::NodeType);
            match node_type_in_2_0(x, "valid_target_node_types", found, span) {
                Some(keeps) => {
                    x.lose_in_1_3(di, vt, "`ValidTarget` naming a node type", keeps);
                }
                None => x.lose(di, vt, "`ValidTarget` naming a node type"),
            }
        } else if let Some(f) = x.resolve_q(di, &q, span, XKind::CapabilityType) {
            m.set(
                "valid_target_types",
                build::seq(
                    vec![build::s(x.found_name(XKind::CapabilityType, &f), span)],
                    span,
                ),
            );
        }
    }
    if let Some(states) = kid(n, "InstanceStates") {
        x.lose(di, states, "`InstanceStates`");
    }
    let (artifacts, ias) = x.implemented(yaml, d.el(n));
    let mut im = M::new(d.el(n));
    for (side, el) in [
        ("source", "SourceInterfaces"),
        ("target", "TargetInterfaces"),
    ] {
        if let Some(ifs) = kid(n, el) {
            let part = x.interfaces(di, ifs, &ias, side);
            let Node {
                kind: crate::yaml::Kind::Map(map),
                ..
            } = part.done()
            else {
                continue;
            };
            for e in map.into_entries() {
                let key = e.key.scalar_text().unwrap_or_default().to_string();
                im.put(&key, e.key.span, e.value);
            }
        }
    }
    m.set_nonempty("interfaces", im);
    if !artifacts.is_empty() {
        x.lose(di, n, "artifacts of a relationship type implementation");
    }
    m.done()
}

/// An implementation artifact folded into an operation: which interface and operation it
/// serves (`None`: all of them) and the artifact's name among the type's artifacts.
pub struct Ia {
    iface: Option<String>,
    op: Option<String>,
    artifact: String,
    span: Span,
    used: std::cell::Cell<bool>,
}

impl X<'_, '_> {
    /// The artifacts a type gets from its implementation, and the implementation artifacts
    /// for its operations.
    fn implemented(&mut self, yaml: &str, at: Span) -> (M, Vec<Ia>) {
        let mut artifacts = M::new(at);
        let ias = match self.chosen_implementation(yaml, at) {
            Some(def) => self.implementation_artifacts(def, &mut artifacts),
            None => Vec::new(),
        };
        (artifacts, ias)
    }

    /// The implementation whose artifacts a type gets: the first non-abstract one read.
    fn chosen_implementation(&mut self, yaml: &str, at: Span) -> Option<Def> {
        let list = self.impls.get(yaml)?.clone();
        let mut quiet = crate::diag::Diagnostics::with_cap(0);
        let concrete: Vec<Def> = list
            .iter()
            .copied()
            .filter(|d| {
                !doc::yes_no(
                    self.docs[d.doc],
                    self.node(*d),
                    "abstract",
                    false,
                    &mut quiet,
                )
            })
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
    fn implementation_artifacts(&mut self, def: Def, artifacts: &mut M) -> Vec<Ia> {
        let mut out = Vec::new();
        let d = self.docs[def.doc];
        let n = self.node(def);
        if let Some(ias) = kid(n, "ImplementationArtifacts") {
            for (i, ia) in kids(ias, "ImplementationArtifact").enumerate() {
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
            for da in kids(das, "DeploymentArtifact") {
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
    pub(super) fn artifact(&mut self, di: usize, n: Xn, name: &str) -> Option<Node> {
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
    fn csar_relative(&self, di: usize, reference: &str) -> String {
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
    fn interfaces(&mut self, di: usize, ifs: Xn, ias: &[Ia], side: &str) -> M {
        let d = self.docs[di];
        let mut im = M::new(d.el(ifs));
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
    fn parameter<'n>(&mut self, di: usize, p: Xn<'n, '_>) -> Option<(&'n str, Node)> {
        let d = self.docs[di];
        doc::check_element(d, p, &[], &["name", "type", "required"], &[], self.diags);
        let name = doc::required(d, p, "name", self.diags)?;
        let local = attr(p, "type").unwrap_or("string").rsplit(':').next();
        let yaml_ty = match local.unwrap_or("string") {
            "list" => "list",
            "map" => "map",
            "number" => "float",
            other => super::props_builtin(other),
        };
        doc::yes_no(d, p, "required", true, self.diags);
        let mut m = M::new(d.el(p));
        m.set("type", build::s(yaml_ty, d.at(p, "type")));
        m.set("required", build::boolean(false, d.at(p, "required")));
        Some((name, m.done()))
    }
}

fn artifact_template(x: &mut X, di: usize, n: Xn) {
    let d = x.docs[di];
    doc::check_element(
        d,
        n,
        &[
            "Tags",
            "Properties",
            "PropertyConstraints",
            "ArtifactReferences",
        ],
        &["id", "name", "type"],
        &[],
        x.diags,
    );
    if doc::required(d, n, "type", x.diags).is_none() {
        return;
    }
    if let Some((f, _)) = x.resolve(di, n, "type", XKind::ArtifactType) {
        x.check_abstract(XKind::ArtifactType, &f, di, n);
        if let Some(p) = kid(n, "Properties") {
            let s = x.schema_of(XKind::ArtifactType, &f);
            x.values(di, p, s.as_ref(), "this artifact template");
        }
    }
    if let Some(refs) = kid(n, "ArtifactReferences") {
        for r in kids(refs, "ArtifactReference") {
            doc::required(d, r, "reference", x.diags);
            if kid(r, "Include").is_some() || kid(r, "Exclude").is_some() {
                x.lose(di, r, "`Include`/`Exclude` patterns");
            }
        }
    }
}

fn policy_template(x: &mut X, di: usize, n: Xn) {
    let d = x.docs[di];
    doc::check_element(
        d,
        n,
        &["Tags", "Properties", "PropertyConstraints"],
        &["id", "name", "type"],
        &[],
        x.diags,
    );
    if doc::required(d, n, "type", x.diags).is_none() {
        return;
    }
    if let Some((f, _)) = x.resolve(di, n, "type", XKind::PolicyType) {
        x.check_abstract(XKind::PolicyType, &f, di, n);
        if let Some(p) = kid(n, "Properties") {
            let s = x.schema_of(XKind::PolicyType, &f);
            x.values(di, p, s.as_ref(), "this policy template");
        }
    }
}

/// NTIs and RTIs are folded into their types; here they are only checked.
fn implementation(x: &mut X, di: usize, n: Xn, kind: XKind) {
    let d = x.docs[di];
    let (of_attr, derive_attr, children): (&str, &str, &[&str]) =
        if kind == XKind::NodeTypeImplementation {
            (
                "nodeType",
                "nodeTypeImplementationRef",
                &[
                    "Tags",
                    "DerivedFrom",
                    "RequiredContainerFeatures",
                    "ImplementationArtifacts",
                    "DeploymentArtifacts",
                ],
            )
        } else {
            (
                "relationshipType",
                "relationshipTypeImplementationRef",
                &[
                    "Tags",
                    "DerivedFrom",
                    "RequiredContainerFeatures",
                    "ImplementationArtifacts",
                ],
            )
        };
    doc::check_element(
        d,
        n,
        children,
        &["name", "targetNamespace", of_attr, "abstract", "final"],
        &[],
        x.diags,
    );
    x.derived(di, n, kind, derive_attr);
    if kid(n, "DerivedFrom").is_some() {
        x.lose(di, n, "an implementation's `DerivedFrom`");
    }
}

impl X<'_, '_> {
    /// Templates other than node templates must not instantiate an abstract type.
    pub(super) fn check_abstract(&mut self, kind: XKind, f: &Found, di: usize, n: Xn) {
        let Found::Def(def) = f else { return };
        let mut quiet = crate::diag::Diagnostics::with_cap(0);
        if doc::yes_no(
            self.docs[def.doc],
            self.node(*def),
            "abstract",
            false,
            &mut quiet,
        ) {
            let d = self.docs[di];
            self.diags.push(
                Diagnostic::error(
                    codes::XML_RULE,
                    format!(
                        "{} `{}` is abstract and cannot be instantiated",
                        kind.element(),
                        self.yaml_name(kind, *def)
                    ),
                )
                .at(d.at(n, "type"))
                .hint("use a concrete type derived from it"),
            );
        }
    }
}
