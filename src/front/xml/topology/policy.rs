//! A Policy as a topology policy.

use roxmltree::Node as Xn;

use crate::front::xml::X;
use crate::front::xml::build::{self, M};
use crate::front::xml::doc::{self, attr};
use crate::front::xml::names::XKind;
use crate::front::xml::types::Found;
use crate::yaml::Node;

/// A `Policy` as a topology policy; its policy template's properties are merged under its own
/// content (the content has no YAML counterpart).
pub(super) fn policy(
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
        // The template's type as its own translation reads it, which reports it and reads
        // no properties without one (a `type` missing or empty).
        let ty = attr(tn, "type")
            .filter(|t| !t.is_empty())
            .and_then(|_| x.found(t.doc, tn, "type", XKind::PolicyType));
        if let Some(v) = ty.and_then(|f| x.policy_template_values(t.doc, tn, &f)) {
            m.set("properties", v);
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
