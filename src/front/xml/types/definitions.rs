//! Type definitions: the common part of every type, then node, relationship, policy and
//! requirement types.

use roxmltree::Node as Xn;

use crate::diag::{Diagnostic, codes};
use crate::front::xml::X;
use crate::front::xml::build::{self, M};
use crate::front::xml::doc::{self, attr, kid, kids};
use crate::front::xml::names::{XKind, qname};
use crate::source::Span;
use crate::yaml::Node;

use super::{Found, TYPE_ATTRS, TYPE_CHILDREN};

/// Capability and artifact types: the common part and properties.
pub(super) fn plain_type(x: &mut X, di: usize, n: Xn, kind: XKind, extra: &[&str]) -> Node {
    type_common(x, di, n, kind, extra, &[]).done()
}

/// What every type has: its element checked (the common children and attributes plus
/// `children` and `attrs`), derived_from, description, metadata and properties.
pub(super) fn type_common(
    x: &mut X,
    di: usize,
    n: Xn,
    kind: XKind,
    children: &[&str],
    attrs: &[&str],
) -> M {
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

pub(super) fn requirement_type(x: &mut X, di: usize, n: Xn) {
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

pub(super) fn policy_type(x: &mut X, di: usize, n: Xn) -> Node {
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
pub(super) fn bounds(x: &mut X, di: usize, n: Xn) -> Node {
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

pub(super) fn node_type(x: &mut X, di: usize, n: Xn, yaml: &str) -> Node {
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
        for r in doc::items(d, reqs, "RequirementDefinition", x.diags) {
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
        for c in doc::items(d, caps, "CapabilityDefinition", x.diags) {
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

pub(super) fn relationship_type(x: &mut X, di: usize, n: Xn, yaml: &str) -> Node {
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
        found.map(|f| crate::front::xml::Tosca2Only {
            section: "relationship_types",
            type_name: yaml.to_string(),
            key,
            value: build::seq(
                vec![build::s(x.found_name(XKind::NodeType, &f), span)],
                span,
            ),
        })
    };
    // `ValidSource` and `ValidTarget` hold their one required QName `typeRef` (X1-REL-02).
    for end in ["ValidSource", "ValidTarget"]
        .into_iter()
        .filter_map(|e| kid(n, e))
    {
        doc::check_element(d, end, &[], &["typeRef"], &[], x.diags);
        doc::required(d, end, "typeRef", x.diags);
    }
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
