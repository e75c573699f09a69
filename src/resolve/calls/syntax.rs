//! How a TOSCA 2.0 value says it is a function call (§10.1 Function Syntax; T2-FN-01..05).
//!
//! The detection algorithm of §10.1 Function Syntax: a string that starts with one `$` is a call.
//! As the only key of a map it names the function and the map's value holds the arguments; as a
//! value it is a call without arguments; as one key among several it is a "malformed function". A
//! leading `$$` escapes: one `$` is dropped and the rest is literal text. A key may add a suffix
//! after a second `$` (`$keygen$1`) so that one function can be called several times as keys
//! of one map (§10.1 Function Syntax); the suffix is not part of the name.

use crate::diag::{Diagnostic, codes};
use crate::model::tree::{Pair, Shape, Tree};

/// The function a string names, if it is a call: `$name` and `$name$suffix` name `name`, which
/// may be empty (`$` alone, reported by the caller); `$$...` and any other text name none.
pub fn function_name(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('$')?;
    if rest.starts_with('$') {
        return None;
    }
    Some(rest.split('$').next().unwrap_or_default())
}

/// The text a string stands for once a leading `$$` escape is undone (`$$$x` → `$$x`).
pub fn unescape(text: &str) -> &str {
    if text.starts_with("$$") {
        &text[1..]
    } else {
        text
    }
}

/// A call as written: the function's name, where it is named, and the arguments node (`None`
/// for the bare-string form, which has none). Read from either tree the model holds
/// ([`Tree`]).
pub struct Written<'y, T: Tree> {
    pub name: &'y str,
    pub name_node: &'y T,
    pub args: Option<&'y T>,
}

/// `node` read as a call, if it is one: `{ $name: args }` or `$name`.
pub fn call<T: Tree>(node: &T) -> Option<Written<'_, T>> {
    match node.shape() {
        Shape::Scalar(..) => function_name(node.as_str()?).map(|name| Written {
            name,
            name_node: node,
            args: None,
        }),
        Shape::Map([entry]) => Some(Written {
            name: function_name(entry.key().as_str()?)?,
            name_node: entry.key(),
            args: Some(entry.value()),
        }),
        _ => None,
    }
}

/// The argument nodes of a call: the items of a list, the one node of any other value
/// (`$get_input: name`), none for the bare form or a null value (`$node_index:`).
pub fn arguments<'y, T: Tree>(written: &Written<'y, T>) -> Vec<&'y T> {
    match written.args {
        None => Vec::new(),
        Some(args) => match args.items() {
            Some(items) => items.iter().collect(),
            None if args.is_null() => Vec::new(),
            None => vec![args],
        },
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_escapes_and_suffixes() {
        assert_eq!(function_name("$concat"), Some("concat"));
        assert_eq!(function_name("$keygen$1"), Some("keygen"));
        assert_eq!(function_name("$core:to_string"), Some("core:to_string"));
        assert_eq!(function_name("$"), Some(""));
        assert_eq!(function_name("$$name"), None);
        assert_eq!(function_name("name"), None);
        assert_eq!(unescape("$$name"), "$name");
        assert_eq!(unescape("$$$item"), "$$item");
        assert_eq!(unescape("plain"), "plain");
    }
}
