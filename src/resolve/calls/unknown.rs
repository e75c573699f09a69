//! What a call of a function that is neither built in nor defined means (T2-FN-07).
//!
//! Custom functions may be called without a definition, for the orchestrator to supply
//! (§10.4 Function Definitions), so such a call is a warning and stays in the IR as written,
//! unevaluated. Two exceptions are errors: a name one slip away from a known function
//! (`$get_propery`) is a typo, not an orchestrator's function, and `$in_range`, which csd07 does
//! not define though its examples call it (§8.6 Node Filter Definition, §9.1.1.2 integer), and
//! which OASIS's conformance tests reject (`in_range-inv.yaml`), unless `--quirk in-range` reads it
//! as a built-in. When an import could not be read, any unknown name may be defined there and is
//! taken on trust.

use super::builtins::IN_RANGE;
use super::table::Functions;
use crate::diag::{Diagnostic, closest, codes};
use crate::model::Model;
use crate::resolve::types::tolerated;
use crate::source::Span;

/// The diagnostic for a call of `name`, written at `at`, that `functions` does not know.
pub fn report(model: &Model, functions: &Functions, name: &str, at: Option<Span>) -> Diagnostic {
    let here = |d: Diagnostic, label: Option<&str>| match (at, label) {
        (Some(at), Some(label)) => d.at_with(at, label),
        (Some(at), None) => d.at(at),
        (None, _) => d,
    };
    if tolerated(model, name, at.unwrap_or_default()) {
        let d = Diagnostic::warning(
            codes::TOSCA_UNKNOWN_NAME,
            format!("function `${name}` is not defined in the files read; it is taken on trust"),
        )
        .hint("an import could not be read, and it may define it");
        return here(d, None);
    }
    if name == IN_RANGE.name {
        let d = Diagnostic::error(
            codes::TOSCA_UNKNOWN_NAME,
            "TOSCA 2.0 has no function `$in_range`".to_string(),
        )
        .hint("write `$and: [ { $greater_or_equal: [ $value, <min> ] }, { $less_or_equal: [ $value, <max> ] } ]`, or use `--quirk in-range` to read it as the draft's examples do (§8.6 Node Filter Definition)");
        return here(d, None);
    }
    if let Some(elsewhere) = functions.named_anywhere(name) {
        // Defined, but not in a namespace the calling file reads (§10.4 Function Definitions:
        // "namespacing works as for types"): no typo, and no function of the orchestrator.
        let d = Diagnostic::error(
            codes::TOSCA_UNKNOWN_NAME,
            format!("unknown function `${name}`"),
        )
        .label(elsewhere.span, "a function of this name is defined here")
        .hint("it is defined in another file, out of this file's namespaces: import that file into this one, and call the function by the namespace of that import (`$<namespace>:<name>`) if it has one (§6.8.4 Namespaces)");
        return here(d, Some("not defined in the namespaces of this file"));
    }
    if let Some(near) = closest(name, &functions.names()) {
        let d = Diagnostic::error(
            codes::TOSCA_UNKNOWN_NAME,
            format!("unknown function `${name}`"),
        )
        .hint(format!(
            "did you mean `${near}`? A function of your orchestrator with this name must be defined under `functions` (§10.4 Function Definitions)"
        ));
        return here(
            d,
            Some("neither a TOSCA 2.0 function nor one defined under `functions`"),
        );
    }
    let d = Diagnostic::warning(
        codes::TOSCA_UNKNOWN_NAME,
        format!(
            "function `${name}` is neither built in nor defined under `functions`; it is left for the orchestrator to evaluate"
        ),
    )
    .hint("define it under `functions` (§10.4 Function Definitions) to have its arguments checked, or write `$$` to start a string with `$`");
    here(d, None)
}
