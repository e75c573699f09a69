//! `--explain` for the current language: for each element, whether it is present and what
//! decided it: the conditions that held or failed (own, of a variability group, of a default
//! alternative, the default or pruning condition with what it checks) and the presence of the
//! elements they read.

use crate::front::variability::Explained;
use crate::front::variability::eval::Reason;
use crate::yaml::Node;

use super::conditions::{Cond, Origin, Part};
use super::formula::Formula;
use super::model::{Id, Model};

fn origin_text(m: &Model<'_>, c: &Cond<'_>) -> String {
    match &c.origin {
        Origin::Own => "its condition".into(),
        Origin::Group(g) => format!("the condition of variability group \"{}\"", m.get(*g).name),
        Origin::Alternative => "as default alternative: no other alternative is present".into(),
        Origin::Input(name) => format!("variability input \"{name}\""),
        Origin::Default { pruning, what } => format!(
            "{} ({what})",
            if *pruning {
                "pruning"
            } else {
                "default condition"
            }
        ),
    }
}

fn written_span<'t>(c: &Cond<'t>) -> Option<&'t Node> {
    c.parts.iter().find_map(|p| match p {
        Part::Written(n) => Some(*n),
        _ => None,
    })
}

/// The presence of the elements a formula reads, as `node "a" is absent`.
fn readings(m: &Model<'_>, f: &Formula, present: &[bool]) -> String {
    let mut vars = Vec::new();
    f.vars(&mut vars);
    let shown: Vec<String> = vars
        .iter()
        .filter(|v| (**v as usize) < m.elements.len())
        .take(6)
        .map(|v| {
            let id = *v as usize;
            format!(
                "{} is {}",
                m.display(id),
                if present[id] { "present" } else { "absent" }
            )
        })
        .collect();
    if shown.is_empty() {
        String::new()
    } else {
        format!("; {}", shown.join(", "))
    }
}

pub fn explain(
    m: &Model<'_>,
    conditions: &[Vec<Cond<'_>>],
    formulas: &[Formula],
    present: &[bool],
) -> Vec<Explained> {
    let mut out = Vec::new();
    for id in m.ordered() {
        let e = m.get(id);
        let conds = &conditions[id];
        let is = present[id];
        let reason = if conds.is_empty() {
            Reason {
                text: "no conditions".into(),
                span: None,
            }
        } else {
            let listed: Vec<String> = conds.iter().map(|c| origin_text(m, c)).collect();
            let decided = if is {
                format!(
                    "{} hold{}",
                    listed.join(" and "),
                    if listed.len() == 1 { "s" } else { "" }
                )
            } else if listed.len() == 1 {
                format!("{} does not hold", listed[0])
            } else {
                format!("{} do not all hold", listed.join(" and "))
            };
            Reason {
                text: format!("{decided}{}", readings(m, &formulas[id], present)),
                span: conds.iter().find_map(written_span).map(|n| n.span),
            }
        };
        out.push(Explained {
            element: describe(m, id),
            span: e.span,
            present: is,
            reason,
        });
    }
    out
}

fn describe(m: &Model<'_>, id: Id) -> String {
    m.display(id)
}
