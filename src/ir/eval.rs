//! What the IR's calls compute wherever they are read: the one implementation that the resolver,
//! every backend and the language server share.
//!
//! - [`apply`] computes the string functions (`concat`, `join`, `token`; §10.2.3 String, List,
//!   and Map Functions, Simple Profile 1.3 §4.3 String functions) once their arguments are
//!   known, and judges the arguments it knows when others are not. The resolver's TOSCA 2.0
//!   built-ins (`crate::resolve::calls::builtins::apply`) call it for these three, so a backend
//!   that meets one of them computes what `toscana check` computes.
//! - [`bound_input`] is the value a `get_input` call reads where the input has one (its bound
//!   value, or its default), through the keys and indexes after the input's name.
//!
//! Which function a call calls is its [`Function`]; what is computed from the arguments alone
//! is [`Function::is_pure`]. What only a backend knows (how it refers to an input with no value,
//! an attribute known once deployed) stays with the backend, which matches the variant.

mod strings;

pub use strings::base64_len;

use super::{Call, Function, Topology, Value};
use crate::limits::Limit;

/// What applying a pure function to its arguments gives.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Value(Value),
    /// An argument is known only at deployment (and the known ones are right).
    Later,
    /// An argument (by index) or the call as a whole (`None`) is wrong.
    Wrong {
        arg: Option<usize>,
        message: String,
    },
    /// A limit of the run stops the call (it is kept, unevaluated): what passed it, and which.
    Limit {
        message: String,
        limit: Limit,
    },
}

/// The outcome of argument `arg` being wrong.
pub fn wrong(arg: usize, message: impl Into<String>) -> Outcome {
    Outcome::Wrong {
        arg: Some(arg),
        message: message.into(),
    }
}

/// How a value is named in messages.
pub fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Boolean(_) => "a boolean",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a float",
        Value::String(_) => "a string",
        Value::List(_) => "a list",
        Value::Map(_) => "a map",
        Value::Scalar(_) => "a scalar",
        Value::Version(_) => "a version",
        Value::Timestamp(_) => "a timestamp",
        Value::Bytes(_) => "bytes",
        Value::Call(_) => "a function call",
    }
}

/// Argument `i` if it is known before deployment.
pub fn known(args: &[Value], i: usize) -> Option<&Value> {
    args.get(i).filter(|v| !v.has_call())
}

/// Applies `concat`, `join` or `token` to `args`: the value once every argument is known,
/// [`Outcome::Later`] before, [`Outcome::Wrong`] for an argument of the wrong kind whatever the
/// others are; `Later` for any other function, which the resolver computes where it can
/// (`crate::resolve::calls::builtins::apply`) or only a deployment knows. The run's budget for
/// computed values is the caller's to spend.
pub fn apply(function: &Function, args: &[Value]) -> Outcome {
    match function {
        Function::Concat => strings::concat(args),
        Function::Join => strings::join(args),
        Function::Token => strings::token(args),
        _ => Outcome::Later,
    }
}

/// The value a `get_input` call reads in `topology` where the input has one: its bound value
/// or default, then the keys and indexes after the input's name (`get_input: [name, key, 0]`).
/// `None` for another call, an input with neither value nor default, a path that leads nowhere
/// or holds a call: the call is then known only at deployment (a Terraform variable, say).
pub fn bound_input<'t>(topology: &'t Topology, call: &'t Call) -> Option<&'t Value> {
    let (Function::GetInput, Some(Value::String(name))) = (&call.function, call.args.first())
    else {
        return None;
    };
    let input = topology.inputs.iter().find(|i| &i.name == name)?;
    let mut current = input.value.as_ref().or(input.default.as_ref())?;
    for step in &call.args[1..] {
        current = match (current, step) {
            (Value::Map(m), Value::String(k)) => m.get(k)?,
            (Value::List(l), Value::Integer(i)) => l.get(usize::try_from(*i).ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::string(text)
    }

    fn later() -> Value {
        Value::Call(Call::new(Function::GetAttribute, vec![s("db"), s("ip")]))
    }

    #[test]
    fn string_functions_compute_once_their_arguments_are_known() {
        assert_eq!(
            apply(&Function::Concat, &[s("a"), s("b")]),
            Outcome::Value(s("ab"))
        );
        assert_eq!(
            apply(
                &Function::Join,
                &[Value::List(vec![s("a"), s("b")]), s("-")]
            ),
            Outcome::Value(s("a-b"))
        );
        assert_eq!(
            apply(&Function::Token, &[s("a.b.c"), s("."), Value::Integer(1)]),
            Outcome::Value(s("b"))
        );
        assert_eq!(apply(&Function::Concat, &[s("a"), later()]), Outcome::Later);
        assert_eq!(apply(&Function::Sum, &[Value::Integer(1)]), Outcome::Later);
    }

    #[test]
    fn a_wrong_argument_is_wrong_whatever_else_is_unknown() {
        let outcome = apply(&Function::Concat, &[s("a"), Value::Integer(1), later()]);
        assert!(
            matches!(outcome, Outcome::Wrong { arg: Some(1), .. }),
            "{outcome:?}"
        );
    }
}
