//! What the resolver reports about how a TOSCA 2.0 call is written (§10.1 Function Syntax;
//! T2-FN-01..05): a `$` key among other keys ("malformed function"), and `$` naming no function.
//!
//! Whether a value is a call, of which function and with which arguments is
//! [`crate::model::call`]'s (re-exported here for the resolver's callers), one detection shared
//! with the front end and the language server.

use crate::diag::{Diagnostic, codes};
use crate::model::tree::{Pair, Tree};

pub use crate::model::call::{Written, arguments, call, function_name, unescape};

/// The error for a map (its `entries`) that has a `$` key among other keys (§10.1 Function
/// Syntax): "malformed function".
pub fn malformed<T: Tree>(entries: &[T::Entry]) -> Option<Diagnostic> {
    if entries.len() < 2 {
        return None;
    }
    let key = entries
        .iter()
        .map(Pair::key)
        .find(|k| k.as_str().and_then(function_name).is_some())?;
    let text = key.as_str().unwrap_or_default();
    Some(
        Diagnostic::error(
            codes::TOSCA_FUNCTION,
            format!(
                "malformed function: `{text}` is one of {} keys of this map",
                entries.len()
            ),
        )
        .at_with(key.span(), "a function call must be the only key of its map")
        .hint(format!(
            "write the call as a map of its own (`{{ {text}: [ ... ] }}`), or `${text}` for a key that is literal text (§10.1 Function Syntax)"
        )),
    )
}

/// The error for `$` with no name after it.
pub fn nameless<T: Tree>(at: &T) -> Diagnostic {
    Diagnostic::error(codes::TOSCA_FUNCTION, "`$` names no function")
        .at(at.span())
        .hint("write `$$` for a literal `$`, or the function's name after the `$` (§10.1 Function Syntax)")
}
