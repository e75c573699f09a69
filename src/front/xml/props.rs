//! Properties: what a type's `PropertiesDefinition` (an XSD element or complex type, or
//! Winery's key/value list) declares, as Simple Profile property definitions, and a
//! template's property document as values typed by it.
//!
//! The XSD subset read: a global element with an anonymous or named complex type whose
//! `sequence`/`all` holds local elements of built-in simple types (`maxOccurs` above 1 makes a
//! list, a nested complex type a map); a global element of a simple type is one property named
//! after it. Anything else is a string. Property documents may be incomplete until deployment
//! (X1-PROP-04), so no property is required and an empty element is left unset.

use roxmltree::Node as Xn;

use super::X;
use super::build::{self, M};
use super::doc::{self, WINERY_NS, XSD_NS, attr};
use super::names::{Def, QName, parse_qname, read_qname};
use crate::diag::{Diagnostic, codes};
use crate::quirk::Quirk;
use crate::source::Span;
use crate::yaml::Node;

#[derive(Debug, Clone)]
pub struct Schema {
    /// The expected root element of a property document, when known.
    pub root: Option<(String, String)>,
    pub fields: Vec<Field>,
    /// A global element of a simple type: the document is one value.
    pub simple: bool,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub ty: &'static str,
    pub list: bool,
    /// Constraints from the facets of the element's simple type: `(operator, arguments)`,
    /// e.g. `("valid_values", [a, b])`, `("pattern", [p])`.
    pub facets: Facets,
}

/// Constraints from XSD facets: `(operator, arguments)`.
pub type Facets = Vec<(&'static str, Vec<String>)>;

/// The Simple Profile constraint operator of an XSD facet.
fn facet_operator(facet: &str) -> Option<&'static str> {
    Some(match facet {
        "enumeration" => "valid_values",
        "pattern" => "pattern",
        "minInclusive" => "greater_or_equal",
        "maxInclusive" => "less_or_equal",
        "minExclusive" => "greater_than",
        "maxExclusive" => "less_than",
        "length" => "length",
        "minLength" => "min_length",
        "maxLength" => "max_length",
        _ => return None,
    })
}

/// The base type and facets of an `xs:restriction` (of a simple type).
fn restriction(simple_type: Xn) -> Option<(&'static str, Facets)> {
    let r = simple_type.children().find(|c| {
        c.is_element()
            && c.tag_name().namespace() == Some(XSD_NS)
            && c.tag_name().name() == "restriction"
    })?;
    let base = attr(r, "base").map_or("string", |b| builtin(b.rsplit(':').next().unwrap_or(b)));
    let mut facets: Facets = Vec::new();
    for f in r
        .children()
        .filter(|c| c.is_element() && c.tag_name().namespace() == Some(XSD_NS))
    {
        let (Some(op), Some(v)) = (facet_operator(f.tag_name().name()), attr(f, "value")) else {
            continue;
        };
        match facets
            .iter_mut()
            .find(|(o, _)| *o == op && op == "valid_values")
        {
            Some((_, values)) => values.push(v.to_string()),
            None => facets.push((op, vec![v.to_string()])),
        }
    }
    Some((base, facets))
}

/// The YAML type of an XSD built-in type (by local name).
pub(crate) fn builtin(local: &str) -> &'static str {
    match local {
        "boolean" => "boolean",
        "int" | "integer" | "long" | "short" | "byte" | "nonNegativeInteger"
        | "positiveInteger" | "negativeInteger" | "nonPositiveInteger" | "unsignedInt"
        | "unsignedLong" | "unsignedShort" | "unsignedByte" => "integer",
        "decimal" | "float" | "double" => "float",
        _ => "string",
    }
}

impl X<'_, '_> {
    /// The schema a type element itself declares (not inherited), reporting what is wrong
    /// the first time it is asked for: the type's translation and the templates whose types
    /// inherit it ask for the same element, which is read once and reported once.
    pub(super) fn own_schema(&mut self, di: usize, n: Xn) -> Option<Schema> {
        let key = (di, n.id());
        if let Some(schema) = self.own_schemas.get(&key) {
            return schema.clone();
        }
        let schema = self.read_own_schema(di, n);
        self.own_schemas.insert(key, schema.clone());
        schema
    }

    /// [`Self::own_schema`], read.
    fn read_own_schema(&mut self, di: usize, n: Xn) -> Option<Schema> {
        let d = self.docs[di];
        if let Some(p) = doc::kid(n, "PropertiesDefinition") {
            doc::check_element(d, p, &[], &["element", "type"], &[], self.diags);
            let element = attr(p, "element");
            let ty = attr(p, "type");
            if element.is_some() == ty.is_some() {
                self.diags.push(
                    Diagnostic::error(
                        codes::XML_RULE,
                        "`PropertiesDefinition` names both or neither of `element` and `type`",
                    )
                    .at(d.el(p))
                    .hint("name exactly one: element=\"prefix:GlobalElement\" or type=\"prefix:ComplexType\""),
                );
                return None;
            }
            let which = if element.is_some() { "element" } else { "type" };
            let (q, span) = super::names::qname(d, p, which, self.diags)?;
            return self.xsd_schema(di, &q, span, which == "element");
        }
        let kv = n.children().find(|c| {
            c.is_element()
                && c.tag_name().namespace() == Some(WINERY_NS)
                && c.tag_name().name() == "PropertiesDefinition"
        })?;
        if !self.quirks.has(Quirk::Winery) {
            self.diags.push(
                Diagnostic::error(
                    codes::XML_QUIRK,
                    "`winery:PropertiesDefinition` (Winery's key/value properties) is not TOSCA 1.0",
                )
                .at(d.el(kv))
                .hint("read Winery files with --quirk winery, or define the properties with an XSD element"),
            );
            return None;
        }
        let mut fields = Vec::new();
        for p in kv
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() == "properties")
        {
            let text = |name: &str| {
                p.children()
                    .find(|c| c.is_element() && c.tag_name().name() == name)
                    .and_then(|c| c.text())
                    .map(|t| t.trim().to_string())
            };
            let Some(key) = text("key") else { continue };
            let ty = text("type").unwrap_or_default();
            let local = ty.rsplit(':').next().unwrap_or("string");
            fields.push(Field {
                name: key,
                ty: builtin(local),
                list: false,
                facets: Vec::new(),
            });
        }
        let root = match (attr(kv, "namespace"), attr(kv, "elementname")) {
            (Some(ns), Some(el)) => Some((ns.to_string(), el.to_string())),
            _ => None,
        };
        Some(Schema {
            root,
            fields,
            simple: false,
        })
    }

    /// The schema of a global XSD element (or complex type) named by `q`.
    fn xsd_schema(&mut self, di: usize, q: &QName, span: Span, element: bool) -> Option<Schema> {
        let key = (q.ns.clone(), q.local.clone());
        let table = if element {
            &self.sym.xsd_elements
        } else {
            &self.sym.xsd_types
        };
        let found = table.get(&key).copied().or_else(|| {
            // X1-NS-05: the spec's examples mean "defined in this document" by an unprefixed name.
            let tns = self.tns(di);
            q.unprefixed
                .then(|| table.get(&(tns, q.local.clone())).copied())
                .flatten()
        });
        let Some(def) = found else {
            let what = if element { "element" } else { "type" };
            if self.quirks.has(Quirk::Winery) {
                self.incomplete = true;
                self.diags.push(
                    Diagnostic::warning(
                        codes::XML_QUIRK,
                        format!("XSD {what} `{}` is not defined in any schema read; its properties are taken on trust (--quirk winery)", q.clark()),
                    )
                    .at(span),
                );
            } else {
                self.diags.push(
                    Diagnostic::error(
                        codes::XML_QNAME,
                        format!("XSD {what} `{}` is not defined in any schema read", q.clark()),
                    )
                    .at(span)
                    .hint("define it under `Types` in an xs:schema, or import the XSD that does (Import importType=\"http://www.w3.org/2001/XMLSchema\" location=\"...\")"),
                );
            }
            return None;
        };
        let sd = self.docs[def.doc];
        let node = sd.doc.get_node(def.node)?;
        let root = element.then(|| key.clone());
        if element {
            if let Some(t) = attr(node, "type") {
                let tq = read_qname(sd, node, t, sd.at(node, "type"), "type", self.diags)?;
                if tq.ns == XSD_NS {
                    return Some(Schema {
                        root,
                        fields: vec![Field {
                            name: q.local.clone(),
                            ty: builtin(&tq.local),
                            list: false,
                            facets: Vec::new(),
                        }],
                        simple: true,
                    });
                }
                let mut s = self.xsd_schema(def.doc, &tq, sd.at(node, "type"), false)?;
                s.root = root;
                return Some(s);
            }
            let ct = node
                .children()
                .find(|c| c.is_element() && c.tag_name().name() == "complexType");
            return Some(Schema {
                root,
                fields: ct.map(|c| self.fields(c)).unwrap_or_default(),
                simple: false,
            });
        }
        Some(Schema {
            root: None,
            fields: self.fields(node),
            simple: false,
        })
    }

    /// The local elements of a complex type's sequence/all/choice.
    fn fields(&mut self, ct: Xn) -> Vec<Field> {
        let mut out = Vec::new();
        let mut elements = Vec::new();
        local_elements(ct, &mut elements);
        for e in elements {
            let name = attr(e, "name")
                .or_else(|| attr(e, "ref").map(|r| r.rsplit(':').next().unwrap_or(r)));
            let Some(name) = name else { continue };
            let list = attr(e, "maxOccurs")
                .is_some_and(|m| m == "unbounded" || m.parse::<u64>().is_ok_and(|n| n > 1));
            let nested = e
                .children()
                .any(|c| c.is_element() && c.tag_name().name() == "complexType");
            let anonymous = e
                .children()
                .find(|c| c.is_element() && c.tag_name().name() == "simpleType");
            let (ty, facets) = if nested {
                ("map", Vec::new())
            } else if let Some(st) = anonymous {
                restriction(st).unwrap_or(("string", Vec::new()))
            } else {
                match attr(e, "type") {
                    // A QName that does not read was reported where the schema was read
                    // (`symbols::local_element_types`).
                    Some(t) => match parse_qname(e, t) {
                        Ok(q) if q.ns == XSD_NS => (builtin(&q.local), Vec::new()),
                        Ok(q) => match self.sym.xsd_types.get(&(q.ns.clone(), q.local.clone())) {
                            Some(td) => self.simple_base(*td),
                            None => ("string", Vec::new()),
                        },
                        Err(_) => ("string", Vec::new()),
                    },
                    None => ("string", Vec::new()),
                }
            };
            out.push(Field {
                name: name.to_string(),
                ty,
                list,
                facets,
            });
        }
        out
    }

    /// A named type's YAML type: a simple type's restriction base and facets, a complex type
    /// a map.
    fn simple_base(&self, def: Def) -> (&'static str, Facets) {
        let d = self.docs[def.doc];
        let Some(n) = d.doc.get_node(def.node) else {
            return ("string", Vec::new());
        };
        if n.tag_name().name() == "complexType" {
            return ("map", Vec::new());
        }
        restriction(n).unwrap_or(("string", Vec::new()))
    }

    /// Simple Profile property definitions for a schema.
    pub(super) fn definitions(&self, schema: &Schema, span: Span) -> Node {
        let mut m = M::new(span);
        for f in &schema.fields {
            let mut p = M::new(span);
            let constraints = (!f.facets.is_empty()).then(|| constraints(f, span));
            if f.list {
                p.set("type", build::s("list", span));
                let mut es = M::new(span);
                es.set("type", build::s(f.ty, span));
                if let Some(c) = constraints {
                    es.set("constraints", c);
                }
                p.set("entry_schema", es.done());
            } else {
                p.set("type", build::s(f.ty, span));
                if let Some(c) = constraints {
                    p.set("constraints", c);
                }
            }
            p.set("required", build::boolean(false, span));
            m.put(&f.name, span, p.done());
        }
        m.done()
    }

    /// A template's `Properties` as values, typed by `schema` where it says how. Children the
    /// schema does not declare are kept as strings, so the resolver reports them.
    pub(super) fn values(
        &mut self,
        di: usize,
        props: Xn,
        schema: Option<&Schema>,
        owner: &str,
    ) -> Option<Node> {
        let d = self.docs[di];
        // `<Properties>` holds the property document and nothing else: the pseudo-schemas give
        // it no attribute (csd06, Service Template: `<Properties> XML fragment </Properties>`,
        // and the same in every template), so one without a namespace is a mistake read by
        // nobody; a namespaced one is an extension.
        doc::check_attributes(d, props, &[], &[], self.diags);
        let elements: Vec<Xn> = props.children().filter(|c| c.is_element()).collect();
        let [root] = elements[..] else {
            if elements.len() > 1 {
                self.diags.push(
                    Diagnostic::error(codes::XML_SCHEMA, format!("the `Properties` of {owner} hold {} elements; they hold exactly one, the property document", elements.len()))
                        .at(d.el(props)),
                );
            }
            return None;
        };
        let Some(schema) = schema else {
            if !self.incomplete {
                self.diags.push(
                    Diagnostic::warning(
                        codes::XML_RULE,
                        format!(
                            "{owner} has properties, but its type defines none; they are ignored"
                        ),
                    )
                    .at(d.el(root))
                    .hint("give the type a PropertiesDefinition"),
                );
            }
            return None;
        };
        self.check_document_root(di, root, schema, owner);
        let mut m = M::new(d.el(root));
        if schema.simple {
            if let Some(f) = schema.fields.first()
                && let Some(v) = self.value(di, root, f.ty)
            {
                m.put(&f.name, d.el(root), v);
            }
            return Some(m.done());
        }
        // In document order; a list property (maxOccurs > 1) collects its repeated elements.
        let mut entries: Vec<(String, Span, Vec<Node>, bool)> = Vec::new();
        for c in root.children().filter(|c| c.is_element()) {
            let name = c.tag_name().name();
            let field = schema.fields.iter().find(|f| f.name == name);
            if field.is_none() {
                let known: Vec<&str> = schema.fields.iter().map(|f| f.name.as_str()).collect();
                let message = format!(
                    "the property document of {owner} has `{name}`, which its type does not define"
                );
                let d0 = if self.quirks.has(Quirk::Winery) {
                    Diagnostic::warning(
                        codes::XML_QUIRK,
                        format!("{message}; ignored (--quirk winery)"),
                    )
                } else {
                    Diagnostic::error(codes::XML_RULE, message)
                };
                self.diags.push(d0.at(d.el(c)).did_you_mean(
                    name,
                    &known,
                    Some(format!("its properties: {}", known.join(", "))),
                ));
                continue;
            }
            let ty = field.map_or("string", |f| f.ty);
            let Some(v) = self.value(di, c, ty) else {
                continue;
            };
            let list = field.is_some_and(|f| f.list);
            match entries.iter_mut().find(|(n, _, _, _)| n == name) {
                Some((_, _, items, true)) => items.push(v),
                Some(_) => self.diags.push(
                    Diagnostic::error(
                        codes::XML_SCHEMA,
                        format!("property `{name}` of {owner} is written twice"),
                    )
                    .at(d.el(c))
                    .hint("its definition allows one value (maxOccurs 1)"),
                ),
                None => entries.push((name.to_string(), d.el(c), vec![v], list)),
            }
        }
        for (name, span, mut items, list) in entries {
            let value = if list {
                build::seq(items, span)
            } else {
                items.remove(0)
            };
            m.put(&name, span, value);
        }
        (!m.is_empty()).then(|| m.done())
    }

    /// The property document's element against its type's: in a namespace, and the element
    /// the type defines (X1-PROP-03).
    fn check_document_root(&mut self, di: usize, root: Xn, schema: &Schema, owner: &str) {
        let d = self.docs[di];
        let root_ns = root.tag_name().namespace().unwrap_or("");
        if root_ns.is_empty() && !self.quirks.has(Quirk::Winery) {
            self.diags.push(
                Diagnostic::warning(
                    codes::XML_RULE,
                    format!("the property document of {owner} is in no namespace, which the TOSCA schema does not allow"),
                )
                .at(d.el(root))
                .hint("put it in the namespace of its XSD element (Winery writes xmlns=\"\"; --quirk winery accepts it)"),
            );
        }
        if let Some((ns, local)) = &schema.root
            && (local != root.tag_name().name() || (!root_ns.is_empty() && root_ns != ns))
        {
            // X1-PROP-03: an error by the schema; Winery writes such documents (lenient: warn).
            let message = format!(
                "the property document of {owner} is `{}`, but its type defines `{}`",
                super::names::clark(root_ns, root.tag_name().name()),
                super::names::clark(ns, local)
            );
            self.diags.push(
                if self.quirks.has(Quirk::Winery) {
                    Diagnostic::warning(codes::XML_QUIRK, format!("{message} (--quirk winery)"))
                } else {
                    Diagnostic::error(codes::XML_RULE, message)
                }
                .at(d.el(root)),
            );
        }
    }

    /// One property element as a value: text typed by `ty`, nested elements as a map, an
    /// empty element as unset (`None`).
    fn value(&mut self, di: usize, n: Xn, ty: &str) -> Option<Node> {
        let d = self.docs[di];
        if n.children().any(|c| c.is_element()) {
            let mut m = M::new(d.el(n));
            for c in n.children().filter(|c| c.is_element()) {
                if let Some(v) = self.value(di, c, "string") {
                    m.put(c.tag_name().name(), d.el(c), v);
                }
            }
            return Some(m.done());
        }
        let text: String = n.children().filter_map(|c| c.text()).collect();
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let span = d.text_span(n);
        Some(match ty {
            "integer" => text
                .parse::<i64>()
                .map_or_else(|_| build::s(text, span), |i| build::int(i, span)),
            "float" => text
                .parse::<f64>()
                .map_or_else(|_| build::s(text, span), |f| build::float(f, span)),
            "boolean" => match text {
                "true" | "1" => build::boolean(true, span),
                "false" | "0" => build::boolean(false, span),
                _ => build::s(text, span),
            },
            _ => build::s(text, span),
        })
    }
}

/// A field's facets as Simple Profile constraints, arguments typed like the field (lengths
/// and patterns are what they are whatever the type).
fn constraints(f: &Field, span: Span) -> Node {
    let typed = |v: &str, ty: &str| match ty {
        "integer" => v
            .parse::<i64>()
            .map_or_else(|_| build::s(v, span), |i| build::int(i, span)),
        "float" => v
            .parse::<f64>()
            .map_or_else(|_| build::s(v, span), |x| build::float(x, span)),
        _ => build::s(v, span),
    };
    let items = f
        .facets
        .iter()
        .map(|(op, values)| {
            let arg = match *op {
                "valid_values" => build::seq(values.iter().map(|v| typed(v, f.ty)).collect(), span),
                "length" | "min_length" | "max_length" => typed(&values[0], "integer"),
                "pattern" => build::s(&values[0], span),
                _ => typed(&values[0], f.ty),
            };
            let mut m = M::new(span);
            m.set(op, arg);
            m.done()
        })
        .collect();
    build::seq(items, span)
}

/// The `xs:element`s of a content model, through nested sequence/all/choice but not into
/// the anonymous types of those elements.
pub(super) fn local_elements<'a, 'i>(n: Xn<'a, 'i>, out: &mut Vec<Xn<'a, 'i>>) {
    for c in n
        .children()
        .filter(|c| c.is_element() && c.tag_name().namespace() == Some(XSD_NS))
    {
        match c.tag_name().name() {
            "element" => out.push(c),
            "sequence" | "all" | "choice" | "complexContent" | "extension" => {
                local_elements(c, out)
            }
            _ => {}
        }
    }
}
