//! Whether a Simple Profile function call has the arguments its grammar asks for
//! (SP-FUNC-12): how many, and of which kind where the kind is fixed by the grammar rather than
//! by a value only known at deployment.
//!
//! `get_input` is checked where inputs are bound, and `get_property`/`get_attribute` where their
//! references are resolved (`functions.rs`); this module covers the rest, so that a malformed
//! call is an error at its span instead of an `Expr` no backend can use.

use crate::diag::{Diagnostic, Findings, codes};
use crate::model::tree::{Shape, Tree};
use crate::model::value::Data;

/// Reports what is wrong with the arguments of one call of `function` (a 1.x built-in).
pub fn check<T: Tree, F: Findings>(function: &str, args: &T, diags: &mut F) {
    let items = args.items();
    let problem: Option<(&T, String)> = match function {
        "concat" => match items {
            Some(items) if !items.is_empty() => None,
            _ => Some((args, "concat needs a list of one or more strings or expressions".to_string())),
        },
        "join" => match items {
            Some([list, rest @ ..]) if rest.len() <= 1 => {
                if !is_list_or_call(list) {
                    Some((list, "join's first argument must be a list of strings or expressions".into()))
                } else if let Some(delimiter) = rest.first().filter(|d| !is_string(*d)) {
                    Some((delimiter, "join's delimiter (second argument) must be a string".into()))
                } else {
                    None
                }
            }
            _ => Some((args, "join needs [ <list of strings>, <delimiter>? ]".into())),
        },
        "token" => match items {
            Some([_, separators, index]) => {
                if !is_string(separators) || separators.scalar_text() == Some("") {
                    Some((separators, "token's second argument must be a non-empty string of separator characters".into()))
                } else if !is_index(index) {
                    Some((index, "token's third argument must be a non-negative integer (the 0-based substring index)".into()))
                } else {
                    None
                }
            }
            _ => Some((args, "token needs exactly three arguments: [ <string>, <separator characters>, <index> ]".into())),
        },
        "get_operation_output" => match items {
            Some(items) if items.len() == 4 && items.iter().all(is_string) => None,
            _ => Some((args, "get_operation_output needs [ <node template, SELF, SOURCE or TARGET>, <interface>, <operation>, <output name> ]".into())),
        },
        "get_nodes_of_type" => (!is_string(args))
            .then(|| (args, "get_nodes_of_type needs one node type name".to_string())),
        "get_artifact" => match items {
            Some(items) if (2..=4).contains(&items.len()) && items[..2].iter().all(is_string) => None,
            _ => Some((args, "get_artifact needs [ <node template or SELF>, <artifact name>, <location>?, <remove>? ]".into())),
        },
        _ => None,
    };
    if let Some((at, problem)) = problem {
        diags.find(|| {
            Diagnostic::error(codes::TOSCA_SHAPE, problem)
                .at(at.span())
                .hint(format!("see the `{function}` grammar in the Simple Profile's section on intrinsic functions"))
        });
    }
}

fn is_string<T: Tree>(node: &T) -> bool {
    node.as_str().is_some()
}

fn is_index<T: Tree>(node: &T) -> bool {
    matches!(node.shape(), Shape::Scalar(_, Data::Integer(i)) if i >= 0)
}

/// A literal list, or a call whose result may be one.
fn is_list_or_call<T: Tree>(node: &T) -> bool {
    node.items().is_some() || node.entries().is_some_and(|m| m.len() == 1)
}
