//! Plans as workflows with an opaque model reference.

use roxmltree::Node as Xn;

use crate::diag::{Diagnostic, codes};
use crate::front::xml::X;
use crate::front::xml::build::{self, M};
use crate::front::xml::doc::{self, attr, documentation, kid, kids};

pub(super) fn workflows(x: &mut X, di: usize, plans: Xn) -> M {
    let d = x.docs[di];
    let mut out = M::new(d.el(plans));
    for p in doc::items(d, plans, "Plan", x.diags) {
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
        if let Some(r) = reference {
            doc::check_element(d, r, &[], &["reference"], &[], x.diags);
        }
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
            doc::check_element(d, ip, &["InputParameter"], &[], &[], x.diags);
            for param in kids(ip, "InputParameter") {
                let (name, _, required) = doc::parameter(d, param, x.diags);
                let Some(name) = name else {
                    continue;
                };
                let mut pm = M::new(d.el(param));
                pm.set("type", build::s("string", d.at(param, "type")));
                pm.set(
                    "required",
                    build::boolean(required, d.at(param, "required")),
                );
                inputs.put(name, d.at(param, "name"), pm.done());
            }
            w.set_nonempty("inputs", inputs);
        }
        if let Some(op) = kid(p, "OutputParameters") {
            doc::check_element(d, op, &["OutputParameter"], &[], &[], x.diags);
            for param in kids(op, "OutputParameter") {
                doc::parameter(d, param, x.diags);
            }
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
