//! BoundaryDefinitions as `substitution_mappings`.

use std::collections::HashMap;

use roxmltree::Node as Xn;

use super::Target;
use crate::diag::{Diagnostic, codes};
use crate::front::xml::X;
use crate::front::xml::build::{self, M};
use crate::front::xml::doc::{self, attr, kid, kids};
use crate::front::xml::names::XKind;
use crate::yaml::Node;

/// BoundaryDefinitions: with `substitutableNodeType`, a `substitution_mappings`; the parts
/// without a YAML counterpart are reported for `convert`.
pub(super) fn boundary(
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
    let reqs = exposed(x, di, bd, ids, "Requirements", "Requirement");
    let caps = exposed(x, di, bd, ids, "Capabilities", "Capability");
    let props = property_mappings(x, di, bd, ids);
    if let Some(pc) = kid(bd, "PropertyConstraints") {
        x.lose(di, pc, "boundary `PropertyConstraints`");
    }
    let listed =
        kid(bd, "Policies").map(|p| doc::items(d, p, "Policy", x.diags).collect::<Vec<_>>());
    for (i, p) in listed.unwrap_or_default().into_iter().enumerate() {
        if let Some(pol) = super::policy::policy(x, di, p, &format!("boundary_policy_{i}"), None) {
            policies.push(pol);
        }
    }
    let ifs = exported_interfaces(x, di, bd, ids);
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

/// The node template and element name a boundary `Requirement` (`want`) or `Capability` refers
/// to.
fn boundary_ref(
    x: &mut X,
    di: usize,
    ids: &HashMap<&str, Target>,
    e: Xn,
    want: &str,
) -> Option<(String, String)> {
    let d = x.docs[di];
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
}

/// Exposed requirements or capabilities: `name: [node template, its element's name]`.
fn exposed(
    x: &mut X,
    di: usize,
    bd: Xn,
    ids: &HashMap<&str, Target>,
    list: &'static str,
    item: &'static str,
) -> M {
    let d = x.docs[di];
    let mut out = M::new(d.el(bd));
    for e in kid(bd, list).into_iter().flat_map(|l| kids(l, item)) {
        if let Some((node, name)) = boundary_ref(x, di, ids, e, item) {
            let key = attr(e, "name").unwrap_or(&name).to_string();
            let at = d.at(e, "ref");
            let target = build::seq(vec![build::s(node, at), build::s(name, at)], at);
            out.put(&key, d.el(e), target);
        }
    }
    out
}

/// Property mappings to node templates' properties: `name: [node template, property]`; the
/// property document itself has no YAML counterpart.
fn property_mappings(x: &mut X, di: usize, bd: Xn, ids: &HashMap<&str, Target>) -> M {
    let d = x.docs[di];
    let mut props = M::new(d.el(bd));
    let Some(p) = kid(bd, "Properties") else {
        return props;
    };
    // The boundary's `<Properties>` holds its property document and `PropertyMappings`, and
    // no attribute (csd06, Service Template pseudo-schema).
    doc::check_attributes(d, p, &[], &[], x.diags);
    let listed = kid(p, "PropertyMappings")
        .map(|m| doc::items(d, m, "PropertyMapping", x.diags).collect::<Vec<_>>());
    for pm in listed.unwrap_or_default() {
        doc::check_element(
            d,
            pm,
            &[],
            &[
                "serviceTemplatePropertyRef",
                "targetObjectRef",
                "targetPropertyRef",
            ],
            &[],
            x.diags,
        );
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
                    Diagnostic::error(
                        codes::XML_RULE,
                        format!(
                            "property mapping target `{object}` is no id in this service template"
                        ),
                    )
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
    props
}

/// What an exported operation binds, with the attributes each binding has.
const BINDINGS: [(&str, &[&str]); 3] = [
    (
        "NodeOperation",
        &["nodeRef", "interfaceName", "operationName"],
    ),
    (
        "RelationshipOperation",
        &["relationshipRef", "interfaceName", "operationName"],
    ),
    ("Plan", &["planRef"]),
];

/// Exported interfaces: operations bound to a plan; those bound to a node or relationship
/// operation have no YAML counterpart.
fn exported_interfaces(x: &mut X, di: usize, bd: Xn, ids: &HashMap<&str, Target>) -> M {
    let d = x.docs[di];
    let mut ifs = M::new(d.el(bd));
    let listed =
        kid(bd, "Interfaces").map(|i| doc::items(d, i, "Interface", x.diags).collect::<Vec<_>>());
    for i in listed.unwrap_or_default() {
        // tExportedInterface: a `name` and its operations; tExportedOperation: a `name` and
        // one NodeOperation, RelationshipOperation or Plan (X1-IFC-06, csd06 Appendix D).
        doc::check_element(d, i, &["Operation"], &["name"], &[], x.diags);
        let Some(iname) = doc::required(d, i, "name", x.diags) else {
            continue;
        };
        let mut ops = M::new(d.el(i));
        for o in kids(i, "Operation") {
            doc::check_element(d, o, &BINDINGS.map(|(el, _)| el), &["name"], &[], x.diags);
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
            if let Some((_, attrs)) = BINDINGS.iter().find(|(el, _)| doc::is(b, el)) {
                doc::check_element(d, b, &[], attrs, &[], x.diags);
            }
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
    ifs
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
