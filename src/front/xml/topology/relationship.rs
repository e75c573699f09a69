//! A RelationshipTemplate as a relationship template hung off its source's requirement.

use std::collections::HashMap;

use roxmltree::Node as Xn;

use super::Target;
use crate::diag::{Diagnostic, codes};
use crate::front::xml::X;
use crate::front::xml::build::{self, M};
use crate::front::xml::doc::{self, attr, documentation, kid};
use crate::front::xml::names::XKind;
use crate::front::xml::types::Found;
use crate::yaml::Node;

pub(super) fn relationship_template(
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
    let source = end(x, di, r, id, ids, "SourceElement");
    let target = end(x, di, r, id, ids, "TargetElement");
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
        check_ends(x, di, r, f, (source, source_node), (target, target_node));
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

/// The template's `SourceElement` or `TargetElement` (`which`): what its `ref` designates.
fn end<'a, 'i>(
    x: &mut X,
    di: usize,
    r: Xn,
    id: &str,
    ids: &HashMap<&str, Target<'a, 'i>>,
    which: &'static str,
) -> Option<Target<'a, 'i>> {
    let d = x.docs[di];
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
    doc::check_element(d, e, &[], &["ref"], &[], x.diags);
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
}

/// Both ends of the template against its type's `ValidSource`/`ValidTarget`: each end with the
/// node template it is on.
fn check_ends(
    x: &mut X,
    di: usize,
    r: Xn,
    f: &Found,
    (source, source_node): (Target, Xn),
    (target, target_node): (Target, Xn),
) {
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
    // A second reading: the relationship type's ValidSource or ValidTarget is read, and its
    // QName reported, where the type is written.
    let Some(Ok(q)) = attr(v, "typeRef").map(|text| crate::front::xml::names::parse_qname(v, text))
    else {
        return;
    };
    let defined = |k: XKind| x.sym.defs.contains_key(&(k, q.ns.clone(), q.local.clone()));
    let kind = if defined(XKind::NodeType)
        || crate::front::xml::names::base_type(XKind::NodeType, &q).is_some()
    {
        XKind::NodeType
    } else if defined(part_kind) {
        part_kind
    } else {
        return;
    };
    let wanted = match x.found_q(owner.doc, &q, kind) {
        w @ (Found::Def(_) | Found::Builtin(_)) => x.found_name(kind, &w),
        _ => return,
    };
    let (holder, attr_kind) = match (kind, part) {
        (XKind::NodeType, _) => (node, XKind::NodeType),
        (_, Some(p)) => (p, kind),
        // A requirement or capability type is wanted, and the end is the node itself.
        _ => return,
    };
    let Some(actual) = x.found(di, holder, "type", attr_kind) else {
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
