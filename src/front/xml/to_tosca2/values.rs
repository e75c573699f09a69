//! Values in TOSCA 2.0: every string that starts with `$` is a function call there (§10.1 Function
//! Syntax), so a literal one is escaped as `$$`, and the 1.3 functions are written with their `$`
//! names.

use crate::model::Dialect;
use crate::model::call::{Written, call_in};
use crate::yaml::{Core, Kind, Map, Node, Scalar};

use super::Rw;

/// The 1.3 functions 2.0 keeps under the same name (§10.2). `get_property` and
/// `get_attribute` are among them only in the `[entity, name]` form, whose path means the same
/// in both; longer paths name capabilities and requirements differently in 2.0.
const KEPT: &[&str] = &[
    "get_input",
    "get_property",
    "get_attribute",
    "get_artifact",
    "concat",
    "join",
    "token",
];

/// A value (property assignment, default, operand) as 2.0 writes it; `None` when it calls a
/// function 2.0 does not have (reported).
pub fn value(rw: &mut Rw, node: &Node) -> Option<Node> {
    match &node.kind {
        Kind::Scalar(s) => Some(escaped(node, s)),
        Kind::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(value(rw, item)?);
            }
            Some(Node {
                kind: Kind::Seq(out),
                ..node.clone()
            })
        }
        Kind::Map(map) => {
            if let Some(Written {
                name,
                name_node,
                args: Some(args),
            }) = call_in(Dialect::SimpleProfile, node)
            {
                return call(rw, node, name, name_node, args);
            }
            let mut out = Map::new();
            for e in map.entries() {
                let key = match &e.key.kind {
                    Kind::Scalar(s) => escaped(&e.key, s),
                    _ => value(rw, &e.key)?,
                };
                let _ = out.insert(key, value(rw, &e.value)?);
            }
            Some(Node {
                kind: Kind::Map(out),
                ..node.clone()
            })
        }
    }
}

/// A map of values (`properties`, `inputs` of an operation assignment), each rewritten; an
/// entry whose value 2.0 cannot say is left out.
pub fn values(rw: &mut Rw, node: &Node) -> Node {
    let Some(map) = node.as_map() else {
        return node.clone();
    };
    let mut out = Map::new();
    for e in map.entries() {
        if let Some(v) = value(rw, &e.value) {
            let _ = out.insert(e.key.clone(), v);
        }
    }
    Node {
        kind: Kind::Map(out),
        ..node.clone()
    }
}

/// A 1.3 function call as 2.0 writes it.
fn call(rw: &mut Rw, node: &Node, function: &str, key: &Node, args: &Node) -> Option<Node> {
    let path_too_long = matches!(function, "get_property" | "get_attribute")
        && args.as_seq().is_some_and(|a| a.len() > 2);
    if !KEPT.contains(&function) || path_too_long {
        let what = if path_too_long {
            format!("`{function}` with a path of more than two parts")
        } else {
            format!("the function `{function}`")
        };
        rw.lose(key.span, what);
        return None;
    }
    let args = value(rw, args)?;
    let mut map = Map::new();
    let _ = map.insert(Node::string(&format!("${function}"), key.span), args);
    Some(Node {
        kind: Kind::Map(map),
        ..node.clone()
    })
}

/// A string with a leading `$` escaped; any other scalar as it is.
fn escaped(node: &Node, s: &Scalar) -> Node {
    if s.core == Core::Str && s.text.starts_with('$') {
        return Node {
            kind: Kind::Scalar(Scalar {
                text: format!("${}", s.text).into(),
                ..s.clone()
            }),
            ..node.clone()
        };
    }
    node.clone()
}
