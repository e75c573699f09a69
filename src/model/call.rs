//! Whether a value is a function call, and of which function: the one detection every stage
//! uses (the TOSCA 2.0 front end, the resolver's value layer, the language server), so they
//! cannot disagree on what is a call.
//!
//! TOSCA 2.0 (§10.1 Function Syntax; T2-FN-01..05): "TOSCA parsers MUST identify functions
//! wherever values are specified" with one algorithm. A string that starts with one `$` is a
//! call. As the only key of a map it names the function and the map's value holds the
//! arguments; as a value it is a call without arguments; as one key among several it is a
//! "malformed function" (reported by `resolve::calls::syntax`, which owns the diagnostics). A
//! leading `$$` escapes: one `$` is dropped and the rest is literal text. A key may add a
//! suffix after a second `$` (`$keygen$1`) so that one function can be called several times as
//! keys of one map; the suffix is not part of the name.
//!
//! The Simple Profile (1.0 Appendix B Functions and its later revisions; §4 TOSCA functions in
//! 1.3) has no marker: a map whose only key is one of [`FUNCTIONS_1X`] is a call, and a string
//! is never one. [`call_in`] and [`key_function`] apply the rule of a dialect; every dialect but
//! TOSCA 2.0 reads values with the Simple Profile's (TOSCA 1.0 XML and Variability4TOSCA
//! reach the resolver as Simple Profile values).
//!
//! Only the text of the tree is read here (through [`Tree`]); what a function means is the
//! resolver's.

use super::Dialect;
use super::FUNCTIONS_1X;
use super::tree::{Pair, Shape, Tree};

/// The function a TOSCA 2.0 string names, if it is a call: `$name` and `$name$suffix` name
/// `name`, which may be empty (`$` alone, reported by the resolver); `$$...` and any other
/// text name none.
pub fn function_name(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('$')?;
    if rest.starts_with('$') {
        return None;
    }
    Some(rest.split('$').next().unwrap_or_default())
}

/// The text a TOSCA 2.0 string stands for once a leading `$$` escape is undone (`$$$x` →
/// `$$x`).
pub fn unescape(text: &str) -> &str {
    if text.starts_with("$$") {
        &text[1..]
    } else {
        text
    }
}

/// The function a map's only key names in `dialect`: [`function_name`] in TOSCA 2.0, one of
/// [`FUNCTIONS_1X`] as it is written in any other dialect.
pub fn key_function(dialect: Dialect, key: &str) -> Option<&str> {
    match dialect {
        Dialect::Tosca2 => function_name(key),
        _ => FUNCTIONS_1X.contains(&key).then_some(key),
    }
}

/// A call as written: the function's name (without `$` or suffix), where it is named, and the
/// arguments node (`None` for the bare-string form, which has none).
pub struct Written<'y, T: Tree> {
    pub name: &'y str,
    pub name_node: &'y T,
    pub args: Option<&'y T>,
}

/// `node` read as a TOSCA 2.0 call, if it is one: `{ $name: args }` or `$name`.
pub fn call<T: Tree>(node: &T) -> Option<Written<'_, T>> {
    call_in(Dialect::Tosca2, node)
}

/// `node` read as a call of `dialect`, if it is one: in TOSCA 2.0 `{ $name: args }` or
/// `$name`; in the others `{ get_input: args }` and the like.
pub fn call_in<T: Tree>(dialect: Dialect, node: &T) -> Option<Written<'_, T>> {
    match node.shape() {
        Shape::Scalar(..) if dialect == Dialect::Tosca2 => {
            function_name(node.as_str()?).map(|name| Written {
                name,
                name_node: node,
                args: None,
            })
        }
        Shape::Map([entry]) => Some(Written {
            name: key_function(dialect, entry.key().as_str()?)?,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::limits::Limits;
    use crate::source::{Origin, SourceMap};

    fn yaml(text: &str) -> crate::yaml::Node {
        let mut sources = SourceMap::new();
        let file = sources.add("t.yaml", Origin::Stdin, text);
        let mut diags = Diagnostics::new();
        crate::yaml::load(&sources, file, &Limits::default(), &mut diags).expect("loads")
    }

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

    #[test]
    fn each_dialect_has_its_own_call_syntax() {
        let two = yaml("{ $get_input$2: port }");
        let written = call_in(Dialect::Tosca2, &two).expect("a 2.0 call");
        assert_eq!(written.name, "get_input");
        assert_eq!(arguments(&written).len(), 1);
        assert!(call_in(Dialect::SimpleProfile, &two).is_none());
        let one = yaml("{ get_input: port }");
        assert_eq!(
            call_in(Dialect::SimpleProfile, &one).map(|c| c.name),
            Some("get_input")
        );
        assert!(call_in(Dialect::Tosca2, &one).is_none());
        let bare = yaml("$node_index");
        assert_eq!(call(&bare).map(|c| c.name), Some("node_index"));
        assert!(call_in(Dialect::SimpleProfile, &bare).is_none());
        assert!(call(&yaml("{ $concat: [a], other: b }")).is_none());
        assert!(call(&yaml("$$literal")).is_none());
    }
}
