//! A workflow that inlines itself, directly or through the workflows it inlines, gets a
//! warning. An inline activity "inlines another workflow defined in the service (allowing
//! reusability)" (§13.2.3 Activity Definition, §13.2.3.4 Inline Workflow Activity Definition):
//! the inlined workflow's steps take the activity's place, so a workflow that comes back to
//! itself along its inlines would have to be put in its own place without end.
//!
//! A warning, not an error: the spec does not say what an orchestrator does with such a
//! workflow, and the OASIS suite's valid `inline-workflow-activity-definition/s122.yaml` puts
//! the spec's own activity list (`- inline: my-workflow`, §13.2.3.4) inside `my-workflow`
//! itself, expecting it accepted. The warning names the cycle for the author to judge.
//!
//! Read for every dialect with workflows (the Simple Profile's 1.1 and later inline the same
//! way, and [`super::workflow_calls`] resolves their `inline` names alike). Which workflow an
//! `inline` names, and whether it exists, is [`super::workflow_calls`]'s; a name that is no
//! workflow is left to it here. A repeat through `on_success` or `on_failure` steps is not an
//! inline and is not judged: it is how a workflow retries.
//!
//! One depth-first walk over the workflows in source order, each inline followed once: linear
//! in the number of inline activities. Each cycle is reported once, at the inline that closes
//! it.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::TopologyTemplate;
use crate::yaml::{Map, Node};

/// Where a workflow is in the walk.
#[derive(Clone, Copy, PartialEq)]
enum Visit {
    Unseen,
    /// On the current path: an inline that reaches it closes a cycle.
    OnPath,
    Done,
}

/// Reports every cycle of inline activities among the service template's workflows.
pub fn check(template: &TopologyTemplate, diags: &mut Diagnostics) {
    let names: Vec<&str> = template.workflows.iter().map(|w| w.name.as_str()).collect();
    let index_of: crate::hash::FastMap<&str, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    // Each workflow's inlines, in the order they are written: the workflow each names, and
    // the name's node.
    let inlines: Vec<Vec<(usize, &Node)>> = template
        .workflows
        .iter()
        .map(|w| {
            inlined_names(&w.def)
                .into_iter()
                .filter_map(|name| Some((*index_of.get(name.as_str()?)?, name)))
                .collect()
        })
        .collect();
    let mut visit = vec![Visit::Unseen; names.len()];
    for start in 0..names.len() {
        if visit[start] != Visit::Unseen {
            continue;
        }
        // The path from `start`: each workflow with the index of its next inline to follow.
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        visit[start] = Visit::OnPath;
        while let Some(&mut (at, ref mut next)) = path.last_mut() {
            let Some(&(to, name)) = inlines[at].get(*next) else {
                visit[at] = Visit::Done;
                path.pop();
                continue;
            };
            *next += 1;
            match visit[to] {
                Visit::Unseen => {
                    visit[to] = Visit::OnPath;
                    path.push((to, 0));
                }
                Visit::OnPath => {
                    let from = path.iter().position(|(w, _)| *w == to).unwrap_or(0);
                    let cycle: Vec<&str> = path[from..]
                        .iter()
                        .map(|(w, _)| names[*w])
                        .chain(std::iter::once(names[to]))
                        .collect();
                    diags.push(cycle_error(names[at], names[to], &cycle, name));
                }
                Visit::Done => {}
            }
        }
    }
}

/// The names every `inline` activity of a workflow's steps writes: `inline: <workflow>` or
/// `inline: { workflow: <workflow>, inputs }`.
fn inlined_names(workflow: &Node) -> Vec<&Node> {
    let steps = workflow.as_map().and_then(|w| w.get("steps")?.as_map());
    steps
        .map_or(&[][..], Map::entries)
        .iter()
        .filter_map(|step| step.value.as_map()?.get("activities")?.as_seq())
        .flatten()
        .filter_map(|activity| activity.as_map()?.get("inline"))
        .filter_map(|inline| match inline.as_map() {
            Some(extended) => extended.get("workflow"),
            None => Some(inline),
        })
        .filter(|name| name.as_str().is_some())
        .collect()
}

fn cycle_error(workflow: &str, inlined: &str, cycle: &[&str], at: &Node) -> Diagnostic {
    let what = match cycle.len() {
        2 => format!("workflow `{workflow}` inlines itself"),
        _ => format!(
            "workflow `{workflow}` inlines `{inlined}`, which comes back to it: {}",
            cycle.join(" → ")
        ),
    };
    Diagnostic::warning(
        codes::TOSCA_CYCLE,
        format!("{what}; inlining it would never end"),
    )
    .at_with(at.span, "closes the cycle")
    .hint("an inline activity puts another workflow's steps in its place (§13.2.3.4 Inline Workflow Activity Definition): inline only workflows that do not come back to this one, and repeat work with `on_success` or `on_failure` steps instead")
}
