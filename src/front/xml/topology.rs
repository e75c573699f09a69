//! A ServiceTemplate as a Simple Profile `topology_template`: node templates (instance bounds as
//! metadata the resolver reads), relationship templates hung off their source's requirement
//! (`dependency` of tosca.nodes.Root when the source is the node itself), policies, the
//! boundary as `substitution_mappings` and plans as workflows with an opaque model reference.

use std::collections::HashMap;

use roxmltree::Node as Xn;

use super::X;
use super::build::{self, M};
use super::doc::{self, attr, documentation, kid, kids};
use super::names::XKind;
use super::types::Found;
use crate::diag::{Diagnostic, codes};
use crate::yaml::Node;

/// What an id of the service template designates.
#[derive(Clone, Copy)]
enum Target<'a, 'i> {
    Node(Xn<'a, 'i>),
    /// A Requirement or Capability element and the node template holding it.
    Requirement(Xn<'a, 'i>, Xn<'a, 'i>),
    Capability(Xn<'a, 'i>, Xn<'a, 'i>),
    Relationship,
    Plan,
}

pub fn service_template(x: &mut X, di: usize, st: Xn) -> Option<Node> {
    let d = x.docs[di];
    doc::check_element(
        d,
        st,
        &["Tags", "BoundaryDefinitions", "TopologyTemplate", "Plans"],
        &["id", "name", "targetNamespace", "substitutableNodeType"],
        &[],
        x.diags,
    );
    let Some(tt) = kid(st, "TopologyTemplate") else {
        x.diags.push(
            Diagnostic::error(codes::XML_SCHEMA, "this ServiceTemplate has no TopologyTemplate")
                .at(d.el(st))
                .hint("a ServiceTemplate holds exactly one TopologyTemplate with its node and relationship templates"),
        );
        return None;
    };
    doc::check_element(
        d,
        tt,
        &["NodeTemplate", "RelationshipTemplate"],
        &[],
        &[],
        x.diags,
    );
    // Every id of the service template, for SourceElement, TargetElement and the boundary.
    let mut ids: HashMap<&str, Target> = HashMap::new();
    for n in kids(tt, "NodeTemplate") {
        if let Some(id) = attr(n, "id") {
            ids.insert(id, Target::Node(n));
        }
        for r in kid(n, "Requirements")
            .into_iter()
            .flat_map(|r| kids(r, "Requirement"))
        {
            if let Some(id) = attr(r, "id") {
                ids.insert(id, Target::Requirement(r, n));
            }
        }
        for c in kid(n, "Capabilities")
            .into_iter()
            .flat_map(|c| kids(c, "Capability"))
        {
            if let Some(id) = attr(c, "id") {
                ids.insert(id, Target::Capability(c, n));
            }
        }
    }
    for r in kids(tt, "RelationshipTemplate") {
        if let Some(id) = attr(r, "id") {
            ids.insert(id, Target::Relationship);
        }
    }
    for p in kid(st, "Plans").into_iter().flat_map(|p| kids(p, "Plan")) {
        if let Some(id) = attr(p, "id") {
            ids.insert(id, Target::Plan);
        }
    }
    let mut out = M::new(d.el(st));
    if let Some(text) = documentation(st) {
        out.set("description", build::s(text, d.el(st)));
    }
    // Relationship templates first: they add requirement assignments to their sources.
    let mut requirements: HashMap<String, Vec<Node>> = HashMap::new();
    let mut rels = M::new(d.el(tt));
    for r in kids(tt, "RelationshipTemplate") {
        relationship_template(x, di, r, &ids, &mut rels, &mut requirements);
    }
    let mut nodes = M::new(d.el(tt));
    let mut policies = Vec::new();
    for n in kids(tt, "NodeTemplate") {
        let Some(id) = doc::required(d, n, "id", x.diags) else {
            continue;
        };
        let reqs = requirements.remove(id).unwrap_or_default();
        let body = node_template(x, di, n, id, reqs, &mut policies);
        nodes.put(id, d.at(n, "id"), body);
    }
    if nodes.is_empty() && kids(tt, "RelationshipTemplate").next().is_none() {
        x.diags.push(
            Diagnostic::error(codes::XML_SCHEMA, "this TopologyTemplate is empty")
                .at(d.el(tt))
                .hint("a TopologyTemplate holds at least one NodeTemplate or RelationshipTemplate"),
        );
    }
    out.set_nonempty("node_templates", nodes);
    out.set_nonempty("relationship_templates", rels);
    if let Some(bd) = kid(st, "BoundaryDefinitions")
        && let Some(sm) = boundary(x, di, st, bd, &ids, &mut policies)
    {
        out.set("substitution_mappings", sm);
    }
    if !policies.is_empty() {
        out.set("policies", build::seq(policies, d.el(tt)));
    }
    if let Some(plans) = kid(st, "Plans") {
        let wf = workflows(x, di, plans);
        out.set_nonempty("workflows", wf);
    }
    Some(out.done())
}

fn node_template(
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
        if let Found::Def(def) = f {
            let mut quiet = crate::diag::Diagnostics::with_cap(0);
            if doc::yes_no(x.docs[def.doc], x.node(*def), "abstract", false, &mut quiet) {
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
    let defined_reqs = found
        .as_ref()
        .map(|(f, _)| x.definition_names(f, "RequirementDefinitions", "RequirementDefinition"));
    if let Some(reqs) = kid(n, "Requirements") {
        for r in kids(reqs, "Requirement") {
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
    if !requirements.is_empty() {
        m.set("requirements", build::seq(requirements, d.el(n)));
    }
    let defined_caps = found
        .as_ref()
        .map(|(f, _)| x.definition_names(f, "CapabilityDefinitions", "CapabilityDefinition"));
    if let Some(caps) = kid(n, "Capabilities") {
        let mut cm = M::new(d.el(caps));
        for c in kids(caps, "Capability") {
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
                if let Some(v) =
                    x.values(di, p, s.as_ref(), &format!("capability `{name}` of `{id}`"))
                {
                    let mut one = M::new(d.el(c));
                    one.set("properties", v);
                    cm.put(name, d.at(c, "name"), one.done());
                }
            }
        }
        m.set_nonempty("capabilities", cm);
    }
    if let Some(pols) = kid(n, "Policies") {
        for (i, p) in kids(pols, "Policy").enumerate() {
            if let Some(pol) = policy(
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
    if let Some(das) = kid(n, "DeploymentArtifacts") {
        let mut am = M::new(d.el(das));
        for da in kids(das, "DeploymentArtifact") {
            let Some(name) = doc::required(d, da, "name", x.diags) else {
                continue;
            };
            if let Some(a) = x.artifact(di, da, name) {
                am.put(name, d.at(da, "name"), a);
            }
        }
        m.set_nonempty("artifacts", am);
    }
    m.done()
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
    fn schema_or_trust(
        &mut self,
        kind: XKind,
        f: &Found,
        props: Option<Xn>,
    ) -> Option<super::props::Schema> {
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
            if !fields.iter().any(|f: &super::props::Field| f.name == n) {
                fields.push(super::props::Field {
                    name: n,
                    ty: "string",
                    list: false,
                    facets: Vec::new(),
                });
            }
        }
        Some(super::props::Schema {
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

fn relationship_template(
    x: &mut X,
    di: usize,
    r: Xn,
    ids: &HashMap<&str, Target>,
    rels: &mut M,
    requirements: &mut HashMap<String, Vec<Node>>,
) {
    let d = x.docs[di];
    doc::check_element(
        d,
        r,
        &[
            "Properties",
            "PropertyConstraints",
            "SourceElement",
            "TargetElement",
            "RelationshipConstraints",
        ],
        &["id", "name", "type"],
        &[],
        x.diags,
    );
    let Some(id) = doc::required(d, r, "id", x.diags) else {
        return;
    };
    let mut m = M::new(d.el(r));
    let found = match doc::required(d, r, "type", x.diags) {
        Some(_) => x.resolve(di, r, "type", XKind::RelationshipType),
        None => None,
    };
    if let Some((f, span)) = &found {
        m.set(
            "type",
            build::s(x.found_name(XKind::RelationshipType, f), *span),
        );
        x.check_abstract(XKind::RelationshipType, f, di, r);
    }
    if let Some(text) = documentation(r) {
        m.set("description", build::s(text, d.el(r)));
    }
    if let Some(name) = attr(r, "name")
        && name != id
    {
        let mut meta = M::new(d.el(r));
        meta.put("name", d.at(r, "name"), build::s(name, d.at(r, "name")));
        m.set("metadata", meta.done());
    }
    if let Some(p) = kid(r, "Properties") {
        let s = found
            .as_ref()
            .and_then(|(f, _)| x.schema_or_trust(XKind::RelationshipType, f, Some(p)));
        if let Some(v) = x.values(di, p, s.as_ref(), &format!("relationship template `{id}`")) {
            m.set("properties", v);
        }
    }
    for el in ["PropertyConstraints", "RelationshipConstraints"] {
        if let Some(c) = r.children().find(|c| doc::is(*c, el)) {
            x.lose(di, c, &format!("`{el}`"));
        }
    }
    let end = |x: &mut X, which: &'static str| -> Option<Target> {
        let Some(e) = kid(r, which) else {
            x.diags.push(
                Diagnostic::error(
                    codes::XML_SCHEMA,
                    format!("relationship template `{id}` has no `{which}`"),
                )
                .at(d.el(r))
                .hint(format!(
                    "add <{which} ref=\"ID\"/> naming a node template or its {}",
                    if which == "SourceElement" {
                        "requirement"
                    } else {
                        "capability"
                    }
                )),
            );
            return None;
        };
        let rf = doc::required(d, e, "ref", x.diags)?;
        match ids.get(rf) {
            Some(t) => Some(*t),
            None => {
                let known: Vec<&str> = ids.keys().copied().collect();
                let mut known = known;
                known.sort();
                x.diags.push(
                    Diagnostic::error(codes::XML_RULE, format!("`{which}` of `{id}` refers to `{rf}`, which is no id in this service template"))
                        .at(d.at(e, "ref"))
                        .did_you_mean(rf, &known, None),
                );
                None
            }
        }
    };
    let source = end(x, "SourceElement");
    let target = end(x, "TargetElement");
    let (Some(source), Some(target)) = (source, target) else {
        return;
    };
    let (source_node, requirement) = match source {
        Target::Node(n) => (n, "dependency".to_string()),
        Target::Requirement(req, n) => (n, attr(req, "name").unwrap_or("dependency").to_string()),
        _ => {
            x.diags.push(
                Diagnostic::error(codes::XML_RULE, format!("the source of relationship template `{id}` is neither a node template nor a requirement"))
                    .at(d.at(kid(r, "SourceElement").expect("checked"), "ref")),
            );
            return;
        }
    };
    let (target_node, capability) = match target {
        Target::Node(n) => (n, None),
        Target::Capability(cap, n) => (n, attr(cap, "name")),
        _ => {
            x.diags.push(
                Diagnostic::error(codes::XML_RULE, format!("the target of relationship template `{id}` is neither a node template nor a capability"))
                    .at(d.at(kid(r, "TargetElement").expect("checked"), "ref")),
            );
            return;
        }
    };
    let (Some(src), Some(tgt)) = (attr(source_node, "id"), attr(target_node, "id")) else {
        return;
    };
    if let Some((f, _)) = &found {
        let ends = [
            (
                "ValidSource",
                "SourceElement",
                source_node,
                match source {
                    Target::Requirement(e, _) => Some(e),
                    _ => None,
                },
            ),
            (
                "ValidTarget",
                "TargetElement",
                target_node,
                match target {
                    Target::Capability(e, _) => Some(e),
                    _ => None,
                },
            ),
        ];
        for (valid, element, node, part) in ends {
            check_end(x, di, r, f, valid, element, node, part);
        }
    }
    let te = kid(r, "TargetElement").expect("checked");
    let mut a = M::new(d.el(r));
    a.set("node", build::s(tgt, d.at(te, "ref")));
    if let Some(c) = capability {
        a.set("capability", build::s(c, d.at(te, "ref")));
    }
    a.set("relationship", build::s(id, d.at(r, "id")));
    let mut item = M::new(d.el(r));
    item.put(
        &requirement,
        d.at(kid(r, "SourceElement").expect("checked"), "ref"),
        a.done(),
    );
    requirements
        .entry(src.to_string())
        .or_default()
        .push(item.done());
    rels.put(id, d.at(r, "id"), m.done());
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
    let wanted = match x.quiet_resolve(owner.doc, definition, type_attr, kind) {
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

/// X1-RTPL-04: an end of a relationship template satisfies its type's (inherited)
/// `ValidSource`/`ValidTarget`: a node type the end's node is of, or a requirement (capability)
/// type its requirement (capability) is of, subtypes allowed.
#[allow(clippy::too_many_arguments)]
fn check_end(
    x: &mut X,
    di: usize,
    r: Xn,
    f: &Found,
    valid: &'static str,
    element: &'static str,
    node: Xn,
    part: Option<Xn>,
) {
    let Found::Def(rt) = f else { return };
    let chain = x.chain(XKind::RelationshipType, *rt);
    let Some((owner, v)) = chain
        .iter()
        .find_map(|c| kid(x.node(*c), valid).map(|v| (*c, v)))
    else {
        return;
    };
    let part_kind = if valid == "ValidSource" {
        XKind::RequirementType
    } else {
        XKind::CapabilityType
    };
    let Some((q, span)) =
        x.quietly(|x| super::names::qname(x.docs[owner.doc], v, "typeRef", x.diags))
    else {
        return;
    };
    let defined = |k: XKind| x.sym.defs.contains_key(&(k, q.ns.clone(), q.local.clone()));
    let kind = if defined(XKind::NodeType) || super::names::base_type(XKind::NodeType, &q).is_some()
    {
        XKind::NodeType
    } else if defined(part_kind) {
        part_kind
    } else {
        return;
    };
    let wanted = match x.quietly(|x| x.resolve_q(owner.doc, &q, span, kind)) {
        Some(w @ (Found::Def(_) | Found::Builtin(_))) => x.found_name(kind, &w),
        _ => return,
    };
    let (holder, attr_kind) = match (kind, part) {
        (XKind::NodeType, _) => (node, XKind::NodeType),
        (_, Some(p)) => (p, kind),
        // A requirement or capability type is wanted, and the end is the node itself.
        _ => return,
    };
    let Some(actual) = x.quiet_resolve(di, holder, "type", attr_kind) else {
        return;
    };
    let Some(names) = x.ancestry(attr_kind, &actual) else {
        return;
    };
    if names.contains(&wanted)
        || names.last().is_some_and(|n| n.starts_with("tosca.")) && wanted.starts_with("tosca.")
    {
        return;
    }
    let d = x.docs[di];
    let end = kid(r, element).expect("checked");
    x.diags.push(
        Diagnostic::error(
            codes::XML_RULE,
            format!(
                "the {} of relationship template `{}` is a `{}`, but its type's {valid} is `{wanted}`",
                if valid == "ValidSource" { "source" } else { "target" },
                attr(r, "id").unwrap_or(""),
                names.first().map_or("", String::as_str)
            ),
        )
        .at(d.at(end, "ref"))
        .hint(format!("connect a {} of type {wanted} or a type derived from it", attr_kind.element())),
    );
}

/// A `Policy` as a topology policy; its policy template's properties are merged under its own
/// content (the content has no YAML counterpart).
fn policy(
    x: &mut X,
    di: usize,
    p: Xn,
    fallback: &str,
    target: Option<(&str, crate::source::Span)>,
) -> Option<Node> {
    let d = x.docs[di];
    doc::check_element(
        d,
        p,
        &[],
        &["name", "policyType", "policyRef"],
        &[],
        x.diags,
    );
    doc::required(d, p, "policyType", x.diags)?;
    let (f, span) = x.resolve(di, p, "policyType", XKind::PolicyType)?;
    let mut m = M::new(d.el(p));
    m.set("type", build::s(x.found_name(XKind::PolicyType, &f), span));
    if let Some((node, at)) = target {
        m.set("targets", build::seq(vec![build::s(node, at)], at));
    }
    if attr(p, "policyRef").is_some()
        && let Some((Found::Def(t), _)) = x.resolve(di, p, "policyRef", XKind::PolicyTemplate)
    {
        let tn = x.node(t);
        if let Some(props) = kid(tn, "Properties") {
            let ty = x.quiet_resolve(t.doc, tn, "type", XKind::PolicyType);
            let schema = ty.as_ref().and_then(|f| x.schema_of(XKind::PolicyType, f));
            let v = x.quietly(|x| x.values(t.doc, props, schema.as_ref(), "the policy template"));
            if let Some(v) = v {
                m.set("properties", v);
            }
        }
    }
    if p.children().any(|c| c.is_element()) {
        x.lose(di, p, "policy content");
    }
    let name = attr(p, "name")
        .filter(|n| !n.is_empty())
        .unwrap_or(fallback);
    let mut item = M::new(d.el(p));
    item.put(name, d.el(p), m.done());
    Some(item.done())
}

/// BoundaryDefinitions: with `substitutableNodeType`, a `substitution_mappings`; the parts
/// without a YAML counterpart are reported for `convert`.
fn boundary(
    x: &mut X,
    di: usize,
    st: Xn,
    bd: Xn,
    ids: &HashMap<&str, Target>,
    policies: &mut Vec<Node>,
) -> Option<Node> {
    let d = x.docs[di];
    doc::check_element(
        d,
        bd,
        &[
            "Properties",
            "PropertyConstraints",
            "Requirements",
            "Capabilities",
            "Policies",
            "Interfaces",
        ],
        &[],
        &[],
        x.diags,
    );
    let mut m = M::new(d.el(bd));
    let node_type = match attr(st, "substitutableNodeType") {
        Some(_) => x.resolve(di, st, "substitutableNodeType", XKind::NodeType),
        None => None,
    };
    if let Some((f, span)) = &node_type {
        m.set(
            "node_type",
            build::s(x.found_name(XKind::NodeType, f), *span),
        );
    }
    let check_ref = |x: &mut X, e: Xn, want: &str| -> Option<(String, String)> {
        let rf = doc::required(d, e, "ref", x.diags)?;
        let hit = match (ids.get(rf), want) {
            (Some(Target::Requirement(r, n)), "Requirement") => {
                Some((attr(*n, "id")?.to_string(), attr(*r, "name")?.to_string()))
            }
            (Some(Target::Capability(c, n)), "Capability") => {
                Some((attr(*n, "id")?.to_string(), attr(*c, "name")?.to_string()))
            }
            _ => None,
        };
        if hit.is_none() {
            x.diags.push(
                Diagnostic::error(codes::XML_RULE, format!("boundary {} `{rf}` does not refer to a {want} of a node template in this service template", want.to_lowercase()))
                    .at(d.at(e, "ref")),
            );
        }
        hit
    };
    // Exposed requirements and capabilities: `name: [node template, its element's name]`.
    let exposed = |x: &mut X, list: &'static str, item: &'static str| {
        let mut out = M::new(d.el(bd));
        for e in kid(bd, list).into_iter().flat_map(|l| kids(l, item)) {
            if let Some((node, name)) = check_ref(x, e, item) {
                let key = attr(e, "name").unwrap_or(&name).to_string();
                let at = d.at(e, "ref");
                let target = build::seq(vec![build::s(node, at), build::s(name, at)], at);
                out.put(&key, d.el(e), target);
            }
        }
        out
    };
    let reqs = exposed(x, "Requirements", "Requirement");
    let caps = exposed(x, "Capabilities", "Capability");
    let mut props = M::new(d.el(bd));
    if let Some(p) = kid(bd, "Properties") {
        for pm in kid(p, "PropertyMappings")
            .into_iter()
            .flat_map(|m| kids(m, "PropertyMapping"))
        {
            let (Some(service), Some(object), Some(target)) = (
                doc::required(d, pm, "serviceTemplatePropertyRef", x.diags),
                doc::required(d, pm, "targetObjectRef", x.diags),
                doc::required(d, pm, "targetPropertyRef", x.diags),
            ) else {
                continue;
            };
            let node = match ids.get(object) {
                Some(Target::Node(n)) => attr(*n, "id"),
                Some(_) => {
                    x.lose(
                        di,
                        pm,
                        "a property mapping to a template other than a node template",
                    );
                    continue;
                }
                None => {
                    x.diags.push(
                        Diagnostic::error(codes::XML_RULE, format!("property mapping target `{object}` is no id in this service template"))
                            .at(d.at(pm, "targetObjectRef")),
                    );
                    continue;
                }
            };
            let (Some(sname), Some(tname)) = (xpath_name(service), xpath_name(target)) else {
                x.lose(
                    di,
                    pm,
                    "a property mapping whose XPath is not a plain child path",
                );
                continue;
            };
            if let Some(node) = node {
                props.put(
                    &sname,
                    d.at(pm, "serviceTemplatePropertyRef"),
                    build::seq(
                        vec![
                            build::s(node, d.at(pm, "targetObjectRef")),
                            build::s(tname, d.at(pm, "targetPropertyRef")),
                        ],
                        d.el(pm),
                    ),
                );
            }
        }
        x.lose(di, p, "the service template's own property document");
    }
    if let Some(pc) = kid(bd, "PropertyConstraints") {
        x.lose(di, pc, "boundary `PropertyConstraints`");
    }
    for (i, p) in kid(bd, "Policies")
        .into_iter()
        .flat_map(|p| kids(p, "Policy"))
        .enumerate()
    {
        if let Some(pol) = policy(x, di, p, &format!("boundary_policy_{i}"), None) {
            policies.push(pol);
        }
    }
    let mut ifs = M::new(d.el(bd));
    for i in kid(bd, "Interfaces")
        .into_iter()
        .flat_map(|i| kids(i, "Interface"))
    {
        let Some(iname) = doc::required(d, i, "name", x.diags) else {
            continue;
        };
        let mut ops = M::new(d.el(i));
        for o in kids(i, "Operation") {
            let Some(oname) = doc::required(d, o, "name", x.diags) else {
                continue;
            };
            let bound: Vec<Xn> = o
                .children()
                .filter(|c| {
                    doc::is(*c, "NodeOperation")
                        || doc::is(*c, "RelationshipOperation")
                        || doc::is(*c, "Plan")
                })
                .collect();
            if bound.len() != 1 {
                x.diags.push(
                    Diagnostic::error(codes::XML_SCHEMA, format!("exported operation `{oname}` binds {} targets; it binds exactly one NodeOperation, RelationshipOperation or Plan", bound.len()))
                        .at(d.el(o)),
                );
                continue;
            }
            let b = bound[0];
            let (attr_name, want) = match b.tag_name().name() {
                "NodeOperation" => ("nodeRef", "node template"),
                "RelationshipOperation" => ("relationshipRef", "relationship template"),
                _ => ("planRef", "plan"),
            };
            let Some(rf) = doc::required(d, b, attr_name, x.diags) else {
                continue;
            };
            let ok = matches!(
                (ids.get(rf), want),
                (Some(Target::Node(_)), "node template")
                    | (Some(Target::Relationship), "relationship template")
                    | (Some(Target::Plan), "plan")
            );
            if !ok {
                x.diags.push(
                    Diagnostic::error(codes::XML_RULE, format!("exported operation `{oname}` refers to `{rf}`, which is no {want} of this service template"))
                        .at(d.at(b, attr_name)),
                );
                continue;
            }
            if want == "plan" {
                ops.put(oname, d.at(o, "name"), build::s(rf, d.at(b, attr_name)));
            } else {
                x.lose(
                    di,
                    b,
                    "an exported operation bound to a node or relationship operation",
                );
            }
        }
        if !ops.is_empty() {
            ifs.put(iname, d.at(i, "name"), ops.done());
        }
    }
    if node_type.is_none() {
        if !(reqs.is_empty() && caps.is_empty() && props.is_empty() && ifs.is_empty()) {
            x.lose(
                di,
                bd,
                "BoundaryDefinitions of a service template without substitutableNodeType",
            );
        }
        return None;
    }
    m.set_nonempty("properties", props);
    m.set_nonempty("requirements", reqs);
    m.set_nonempty("capabilities", caps);
    m.set_nonempty("interfaces", ifs);
    Some(m.done())
}

/// The property name an XPath into a property document ends in: a bare name, or the last
/// step of `/*[local-name()='A']/*[local-name()='B']` or `/A/B`. `None` for anything else.
fn xpath_name(path: &str) -> Option<String> {
    let last = path.trim().rsplit('/').next()?.trim();
    if let Some(rest) = last.strip_prefix("*[local-name()=") {
        let inner = rest
            .strip_suffix(']')?
            .trim_matches(|c| c == '\'' || c == '"');
        return doc::is_ncname(inner).then(|| inner.to_string());
    }
    let name = last.rsplit(':').next()?;
    doc::is_ncname(name).then(|| name.to_string())
}

fn workflows(x: &mut X, di: usize, plans: Xn) -> M {
    let d = x.docs[di];
    let mut out = M::new(d.el(plans));
    for p in kids(plans, "Plan") {
        doc::check_element(
            d,
            p,
            &[
                "Precondition",
                "InputParameters",
                "OutputParameters",
                "PlanModel",
                "PlanModelReference",
            ],
            &["id", "name", "planType", "planLanguage"],
            &[],
            x.diags,
        );
        let Some(id) = doc::required(d, p, "id", x.diags) else {
            continue;
        };
        let ty = doc::required(d, p, "planType", x.diags);
        let lang = doc::required(d, p, "planLanguage", x.diags);
        let model = kid(p, "PlanModel");
        let reference = kid(p, "PlanModelReference");
        if model.is_some() == reference.is_some() {
            x.diags.push(
                Diagnostic::error(codes::XML_SCHEMA, format!("plan `{id}` has {} of PlanModel and PlanModelReference; it has exactly one", if model.is_some() { "both" } else { "neither" }))
                    .at(d.el(p)),
            );
        }
        let mut w = M::new(d.el(p));
        if let Some(text) = documentation(p) {
            w.set("description", build::s(text, d.el(p)));
        }
        let mut meta = M::new(d.el(p));
        if let Some(name) = attr(p, "name") {
            meta.put("name", d.at(p, "name"), build::s(name, d.at(p, "name")));
        }
        if let Some(t) = ty {
            meta.put(
                "xml_plan_type",
                d.at(p, "planType"),
                build::s(t, d.at(p, "planType")),
            );
        }
        if let Some(l) = lang {
            meta.put(
                "xml_plan_language",
                d.at(p, "planLanguage"),
                build::s(l, d.at(p, "planLanguage")),
            );
        }
        if let Some(r) = reference.and_then(|r| attr(r, "reference")) {
            let span = d.at(reference.expect("present"), "reference");
            meta.put("xml_plan_reference", span, build::s(r, span));
        }
        if let Some(m) = model {
            x.lose(di, m, "an inline plan model");
        }
        w.set_nonempty("metadata", meta);
        if let Some(ip) = kid(p, "InputParameters") {
            let mut inputs = M::new(d.el(ip));
            for param in kids(ip, "InputParameter") {
                let Some(name) = doc::required(d, param, "name", x.diags) else {
                    continue;
                };
                let mut pm = M::new(d.el(param));
                pm.set("type", build::s("string", d.at(param, "type")));
                let required = doc::yes_no(d, param, "required", true, x.diags);
                pm.set(
                    "required",
                    build::boolean(required, d.at(param, "required")),
                );
                inputs.put(name, d.at(param, "name"), pm.done());
            }
            w.set_nonempty("inputs", inputs);
        }
        for el in ["Precondition", "OutputParameters"] {
            if let Some(c) = p.children().find(|c| doc::is(*c, el)) {
                x.lose(di, c, &format!("plan `{el}`"));
            }
        }
        out.put(id, d.at(p, "id"), w.done());
    }
    out
}
