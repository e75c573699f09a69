//! A NodeTemplate as a node template: its type, instance bounds, properties, requirements,
//! capabilities, policies and deployment artifacts.

use roxmltree::Node as Xn;

use crate::diag::{Diagnostic, codes};
use crate::front::xml::X;
use crate::front::xml::build::{self, M};
use crate::front::xml::doc::{self, attr, documentation, kid, kids};
use crate::front::xml::names::XKind;
use crate::front::xml::types::Found;
use crate::yaml::Node;

pub(super) fn node_template(
    x: &mut X,
    di: usize,
    n: Xn,
    id: &str,
    requirements: Vec<Node>,
    policies: &mut Vec<Node>,
) -> Node {
    let d = x.docs[di];
    doc::check_element(
        d,
        n,
        &[
            "Properties",
            "PropertyConstraints",
            "Requirements",
            "Capabilities",
            "Policies",
            "DeploymentArtifacts",
        ],
        &["id", "name", "type", "minInstances", "maxInstances"],
        &[],
        x.diags,
    );
    let mut m = M::new(d.el(n));
    let found = match doc::required(d, n, "type", x.diags) {
        Some(_) => x.resolve(di, n, "type", XKind::NodeType),
        None => None,
    };
    if let Some((f, span)) = &found {
        m.set("type", build::s(x.found_name(XKind::NodeType, f), *span));
        if let Found::Def(def) = f
            && doc::flag(x.node(*def), "abstract", false)
        {
            x.diags.push(
                Diagnostic::warning(
                    codes::XML_RULE,
                    format!("node template `{id}` is of abstract type `{}`; it must be substituted before deployment", x.yaml_name(XKind::NodeType, *def)),
                )
                .at(*span)
                .hint("use a concrete derived type, or provide a service template with this substitutableNodeType"),
            );
        }
    }
    if let Some(text) = documentation(n) {
        m.set("description", build::s(text, d.el(n)));
    }
    let mut meta = M::new(d.el(n));
    if let Some(name) = attr(n, "name")
        && name != id
    {
        meta.put("name", d.at(n, "name"), build::s(name, d.at(n, "name")));
    }
    instances(x, di, n, &mut meta);
    m.set_nonempty("metadata", meta);
    let schema = found
        .as_ref()
        .and_then(|(f, _)| x.schema_or_trust(XKind::NodeType, f, kid(n, "Properties")));
    if let Some(p) = kid(n, "Properties") {
        let owner = format!("node template `{id}`");
        if let Some(v) = x.values(di, p, schema.as_ref(), &owner) {
            m.set("properties", v);
        }
    }
    if let Some(pc) = kid(n, "PropertyConstraints") {
        x.lose(di, pc, "`PropertyConstraints` (XPath)");
    }
    check_requirements(x, di, n, id, found.as_ref());
    if !requirements.is_empty() {
        m.set("requirements", build::seq(requirements, d.el(n)));
    }
    if let Some(cm) = capabilities(x, di, n, id, found.as_ref()) {
        m.set_nonempty("capabilities", cm);
    }
    node_policies(x, di, n, id, policies);
    if let Some(am) = artifacts(x, di, n) {
        m.set_nonempty("artifacts", am);
    }
    m.done()
}

type Typed = (Found, crate::source::Span);

/// The template's Requirement elements, checked against its type's definitions (their
/// assignments come from the relationship templates).
fn check_requirements(x: &mut X, di: usize, n: Xn, id: &str, found: Option<&Typed>) {
    let d = x.docs[di];
    let defined_reqs = found
        .as_ref()
        .map(|(f, _)| x.definition_names(f, "RequirementDefinitions", "RequirementDefinition"));
    if let Some(reqs) = kid(n, "Requirements") {
        for r in doc::items(d, reqs, "Requirement", x.diags) {
            doc::check_element(
                d,
                r,
                &["Properties", "PropertyConstraints"],
                &["id", "name", "type"],
                &[],
                x.diags,
            );
            let Some(name) = doc::required(d, r, "name", x.diags) else {
                continue;
            };
            if doc::required(d, r, "type", x.diags).is_some()
                && let Some((rtype, _)) = x.resolve(di, r, "type", XKind::RequirementType)
                && let Some((f, _)) = &found
            {
                let def = (
                    "RequirementDefinitions",
                    "RequirementDefinition",
                    "requirementType",
                );
                check_part_type(x, di, f, def, XKind::RequirementType, r, &rtype);
            }
            if let Some(Some(known)) = &defined_reqs
                && !known.iter().any(|k| k == name)
            {
                x.diags.push(
                    Diagnostic::error(codes::XML_RULE, format!("requirement `{name}` of node template `{id}` matches no RequirementDefinition of its type"))
                        .at(d.at(r, "name"))
                        .did_you_mean(name, &known.iter().map(String::as_str).collect::<Vec<_>>(), Some(format!("its type defines: {}", known.join(", ")))),
                );
            }
            if kid(r, "Properties").is_some() {
                x.lose(di, r, "properties of a node template's Requirement");
            }
        }
    }
}

/// The template's Capability elements with properties, checked against its type's definitions.
fn capabilities(x: &mut X, di: usize, n: Xn, id: &str, found: Option<&Typed>) -> Option<M> {
    let d = x.docs[di];
    let defined_caps = found
        .as_ref()
        .map(|(f, _)| x.definition_names(f, "CapabilityDefinitions", "CapabilityDefinition"));
    let caps = kid(n, "Capabilities")?;
    let mut cm = M::new(d.el(caps));
    for c in doc::items(d, caps, "Capability", x.diags) {
        doc::check_element(
            d,
            c,
            &["Properties", "PropertyConstraints"],
            &["id", "name", "type"],
            &[],
            x.diags,
        );
        let Some(name) = doc::required(d, c, "name", x.diags) else {
            continue;
        };
        let ctype = match doc::required(d, c, "type", x.diags) {
            Some(_) => x.resolve(di, c, "type", XKind::CapabilityType),
            None => None,
        };
        if let (Some((ct, _)), Some((f, _))) = (&ctype, &found) {
            let def = (
                "CapabilityDefinitions",
                "CapabilityDefinition",
                "capabilityType",
            );
            check_part_type(x, di, f, def, XKind::CapabilityType, c, ct);
        }
        if let Some(Some(known)) = &defined_caps
            && !known.iter().any(|k| k == name)
        {
            x.diags.push(
                Diagnostic::error(codes::XML_RULE, format!("capability `{name}` of node template `{id}` matches no CapabilityDefinition of its type"))
                    .at(d.at(c, "name"))
                    .did_you_mean(name, &known.iter().map(String::as_str).collect::<Vec<_>>(), Some(format!("its type defines: {}", known.join(", ")))),
            );
            continue;
        }
        if let Some(p) = kid(c, "Properties") {
            let s = ctype
                .as_ref()
                .and_then(|(f, _)| x.schema_of(XKind::CapabilityType, f));
            if let Some(v) = x.values(di, p, s.as_ref(), &format!("capability `{name}` of `{id}`"))
            {
                let mut one = M::new(d.el(c));
                one.set("properties", v);
                cm.put(name, d.at(c, "name"), one.done());
            }
        }
    }
    Some(cm)
}

/// The template's own Policy elements, each a topology policy targeting it.
fn node_policies(x: &mut X, di: usize, n: Xn, id: &str, policies: &mut Vec<Node>) {
    let d = x.docs[di];
    if let Some(pols) = kid(n, "Policies") {
        for (i, p) in doc::items(d, pols, "Policy", x.diags).enumerate() {
            if let Some(pol) = super::policy::policy(
                x,
                di,
                p,
                &format!("{id}_policy_{i}"),
                Some((id, d.at(n, "id"))),
            ) {
                policies.push(pol);
            }
        }
    }
}

/// The template's DeploymentArtifacts as artifact definitions.
fn artifacts(x: &mut X, di: usize, n: Xn) -> Option<M> {
    let d = x.docs[di];
    let das = kid(n, "DeploymentArtifacts")?;
    let mut am = M::new(d.el(das));
    for da in doc::items(d, das, "DeploymentArtifact", x.diags) {
        let Some(name) = doc::required(d, da, "name", x.diags) else {
            continue;
        };
        if let Some(a) = x.artifact(di, da, name) {
            am.put(name, d.at(da, "name"), a);
        }
    }
    Some(am)
}

/// `minInstances`/`maxInstances`, checked, kept as metadata the resolver turns into the IR's
/// instance bounds (`xml_min_instances`, `xml_max_instances`).
fn instances(x: &mut X, di: usize, n: Xn, meta: &mut M) {
    let d = x.docs[di];
    let min = match attr(n, "minInstances") {
        None => 1,
        Some(v) => match v.parse::<i64>() {
            Ok(i) => i,
            Err(_) => {
                x.diags.push(
                    Diagnostic::error(
                        codes::XML_SCHEMA,
                        format!("minInstances `{v}` is not an integer"),
                    )
                    .at(d.at(n, "minInstances")),
                );
                return;
            }
        },
    };
    let max = match attr(n, "maxInstances") {
        None => Some(1),
        Some("unbounded") => None,
        Some(v) => match v.parse::<i64>() {
            Ok(i) => Some(i),
            Err(_) => {
                x.diags.push(
                    Diagnostic::error(
                        codes::XML_SCHEMA,
                        format!("maxInstances `{v}` is neither a positive integer nor `unbounded`"),
                    )
                    .at(d.at(n, "maxInstances")),
                );
                return;
            }
        },
    };
    if min < 0 || max.is_some_and(|m| m < 1 || m < min) {
        x.diags.push(
            Diagnostic::error(
                codes::XML_RULE,
                format!(
                    "instance bounds [{min}, {}] are not a range",
                    max.map_or("unbounded".to_string(), |m| m.to_string())
                ),
            )
            .at(d.el(n))
            .hint("minInstances ≥ 0, maxInstances ≥ 1 and ≥ minInstances"),
        );
        return;
    }
    if min == 1 && max == Some(1) {
        return;
    }
    meta.put(
        "xml_min_instances",
        d.at(n, "minInstances"),
        build::s(min.to_string(), d.at(n, "minInstances")),
    );
    let max_text = max.map_or("unbounded".to_string(), |m| m.to_string());
    meta.put(
        "xml_max_instances",
        d.at(n, "maxInstances"),
        build::s(max_text, d.at(n, "maxInstances")),
    );
}

impl X<'_, '_> {
    /// The property schema of a template's type; for a type taken on trust, one string
    /// property per element of the template's property document, remembered for its stub.
    pub(super) fn schema_or_trust(
        &mut self,
        kind: XKind,
        f: &Found,
        props: Option<Xn>,
    ) -> Option<crate::front::xml::props::Schema> {
        let Found::Trusted(name) = f else {
            return self.schema_of(kind, f);
        };
        let root = props?.children().find(|c| c.is_element())?;
        let names = self.trusted_props.entry(name.clone()).or_default();
        let mut fields = Vec::new();
        for c in root.children().filter(|c| c.is_element()) {
            let n = c.tag_name().name().to_string();
            if !names.contains(&n) {
                names.push(n.clone());
            }
            if !fields
                .iter()
                .any(|f: &crate::front::xml::props::Field| f.name == n)
            {
                fields.push(crate::front::xml::props::Field {
                    name: n,
                    ty: "string",
                    list: false,
                    facets: Vec::new(),
                });
            }
        }
        Some(crate::front::xml::props::Schema {
            root: None,
            fields,
            simple: false,
        })
    }

    /// The requirement or capability definition names along a node type's chain; `None` when
    /// the chain leaves the XML (a normative parent's definitions are checked by the resolver).
    fn definition_names(
        &mut self,
        f: &Found,
        list: &'static str,
        item: &'static str,
    ) -> Option<Vec<String>> {
        let Found::Def(def) = f else { return None };
        let chain = self.chain(XKind::NodeType, *def);
        let root = self.node(*chain.last()?);
        if kid(root, "DerivedFrom").is_some() {
            return None;
        }
        let mut out = Vec::new();
        for c in chain {
            let n = self.node(c);
            for r in kid(n, list).into_iter().flat_map(|l| kids(l, item)) {
                if let Some(name) = attr(r, "name") {
                    out.push(name.to_string());
                }
            }
        }
        Some(out)
    }
}

/// X1-NTPL-04/05: a template's requirement (capability) is of its definition's type or a
/// type derived from it. `def` names the definition list, item and type attribute.
fn check_part_type(
    x: &mut X,
    di: usize,
    node_type: &Found,
    def: (&'static str, &'static str, &'static str),
    kind: XKind,
    e: Xn,
    actual: &Found,
) {
    let (list, item, type_attr) = def;
    let Found::Def(nt) = node_type else { return };
    let Some(name) = attr(e, "name") else { return };
    let chain = x.chain(XKind::NodeType, *nt);
    let Some((owner, definition)) = chain.iter().find_map(|c| {
        kid(x.node(*c), list)
            .into_iter()
            .flat_map(|l| kids(l, item))
            .find(|r| attr(*r, "name") == Some(name))
            .map(|r| (*c, r))
    }) else {
        return;
    };
    let wanted = match x.found(owner.doc, definition, type_attr, kind) {
        Some(w @ (Found::Def(_) | Found::Builtin(_))) => x.found_name(kind, &w),
        _ => return,
    };
    let Some(names) = x.ancestry(kind, actual) else {
        return;
    };
    if names.contains(&wanted) {
        return;
    }
    let d = x.docs[di];
    x.diags.push(
        Diagnostic::error(
            codes::XML_RULE,
            format!(
                "{} `{name}` is of type `{}`, but its definition wants `{wanted}`",
                e.tag_name().name().to_lowercase(),
                names.first().map_or("", String::as_str)
            ),
        )
        .at(d.at(e, "type"))
        .hint(format!("use {wanted} or a type derived from it")),
    );
}
