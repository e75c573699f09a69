//! Types and implementations: each XML type becomes a Simple Profile type of the same kind
//! (requirement types are folded into the requirement definitions that use them), and the
//! node and relationship type implementations are folded into their types: implementation
//! artifacts become operation implementations, deployment artifacts node type artifacts.

mod definitions;
mod document;
mod implementations;
mod templates;

pub use document::{collect_implementations, document, stub};

use roxmltree::Node as Xn;

use super::X;
use super::build::{self, M};
use super::doc::{self, attr, documentation, kid};
use super::names::{Def, QName, XKind, base_parent, base_type, clark, qname};
use crate::diag::{Diagnostic, codes};
use crate::quirk::Quirk;
use crate::source::Span;

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
        // `DerivedFrom` holds its one required QName attribute and nothing else.
        let d = self.docs[di];
        doc::check_element(d, df, &[], &[attr_name], &[], self.diags);
        doc::required(d, df, attr_name, self.diags)?;
        let (found, span) = self.resolve(di, df, attr_name, kind)?;
        if let Found::Def(p) = found {
            let pd = self.docs[p.doc];
            let pn = self.node(p);
            if doc::flag(pn, "final", false) {
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
        // tTags holds `Tag` elements; a tTag has the attributes `name` and `value`.
        for t in doc::items(d, tags, "Tag", self.diags) {
            doc::check_element(d, t, &[], &["name", "value"], &[], self.diags);
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
        let schema = match self.own_schema(def.doc, n) {
            Some(s) => Some(s),
            None => kid(n, "DerivedFrom")
                .and_then(|df| self.found(def.doc, df, "typeRef", kind))
                .and_then(|p| self.schema_of(kind, &p)),
        };
        self.schemas.insert(name, schema.clone());
        schema
    }

    /// What [`Self::resolve`] finds for the QName in attribute `name` of `n`, reporting and
    /// recording nothing: a second reading of a reference that is resolved, and reported
    /// (unknown, of another kind, not imported, taken on trust), where it is written. A name
    /// that does not read as a QName stands for the written text, as `resolve` recovers it.
    pub(super) fn found(&self, di: usize, n: Xn, name: &str, kind: XKind) -> Option<Found> {
        let text = attr(n, name)?;
        Some(match super::names::parse_qname(n, text) {
            Ok(q) => self.found_q(di, &q, kind),
            Err(_) => Found::Trusted(text.to_string()),
        })
    }

    /// What [`Self::resolve_q`] finds for `q`, reporting and recording nothing (its
    /// non-reporting half): the definition of that name, or of the unprefixed name in the
    /// document's targetNamespace, or the normative type a ToscaBaseTypes name stands for;
    /// anything else stands for a type taken on trust, as `resolve_q` recovers it.
    pub(super) fn found_q(&self, di: usize, q: &QName, kind: XKind) -> Found {
        let defined = |ns: &str| {
            self.sym
                .defs
                .get(&(kind, ns.to_string(), q.local.clone()))
                .copied()
        };
        if let Some(def) = defined(&q.ns) {
            return Found::Def(def);
        }
        if q.unprefixed
            && let Some(def) = defined(&self.tns(di))
        {
            return Found::Def(def);
        }
        base_type(kind, q).map_or_else(|| Found::Trusted(q.clark()), Found::Builtin)
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
                    match self.found(chain.last()?.doc, df, "typeRef", kind)? {
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
            let f = self.found(last.doc, df, "typeRef", kind);
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
