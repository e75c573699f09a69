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
//! - [`call`] decides once what a call means to a backend: a pure call whose arguments are
//!   known is computed by [`apply`], any other goes to the backend's [`Host`] method for its
//!   kind. What only a backend knows (how it refers to an input with no value, an attribute
//!   known once deployed, how it writes `concat` of such values) is that method's to say.
//!
//! Which function a call calls is its [`Function`]; what is computed from the arguments alone
//! is [`Function::is_pure`].

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

/// A backend's side of evaluating a call ([`call`]): what only it knows, in its own form of a
/// result (`Out`: an HCL expression, the text of an environment variable, a JSON field).
///
/// [`call`] decides once, for every backend, what a call means: a pure function whose
/// arguments are known is computed by [`apply`] and handed over as a [`Host::known`] value;
/// everything else goes to the method of its kind. A backend never matches a function's
/// name, and says in one place per kind what it cannot express.
pub trait Host {
    type Out;
    /// What a value without calls is to the backend (a pure call's computed result included).
    fn known(&mut self, value: &Value) -> Result<Self::Out, String>;
    /// `get_input` of an input the resolver could not bind (it has no value or default, or
    /// the path after its name leads nowhere): the backend's reference to it, or why it has
    /// none.
    fn input(&mut self, call: &Call) -> Result<Self::Out, String>;
    /// A query ([`Function::is_query`]) whose path leads to one node template, in the
    /// Simple Profile form `[node, (capability,) name, nested...]`.
    fn query(&mut self, call: &Call) -> Result<Self::Out, String>;
    /// A query whose TOSCA 2.0 path the resolver could not follow to one node template
    /// ([`Call::has_unresolved_path`]): by default known only at deployment.
    fn unresolved_query(&mut self, call: &Call) -> Result<Self::Out, String> {
        Err(unresolved_path(call))
    }
    /// `concat` with an argument known only to the backend or at deployment.
    fn concat(&mut self, call: &Call) -> Result<Self::Out, String>;
    /// `join` with an argument known only to the backend or at deployment.
    fn join(&mut self, call: &Call) -> Result<Self::Out, String>;
    /// `token` with an argument known only to the backend or at deployment.
    fn token(&mut self, call: &Call) -> Result<Self::Out, String> {
        self.other(call)
    }
    /// Any other call: a custom function, `get_operation_output`, a pure function with an
    /// argument known only at deployment, ...
    fn other(&mut self, call: &Call) -> Result<Self::Out, String>;
}

/// What `call` is to `host` (see [`Host`]).
pub fn call<H: Host>(call: &Call, host: &mut H) -> Result<H::Out, String> {
    let function = &call.function;
    if function.is_pure()
        && !call.args.iter().any(Value::has_call)
        && let Outcome::Value(value) = apply(function, &call.args)
    {
        return host.known(&value);
    }
    match function {
        Function::GetInput => host.input(call),
        f if f.is_query() && call.has_unresolved_path() => host.unresolved_query(call),
        f if f.is_query() => host.query(call),
        Function::Concat => host.concat(call),
        Function::Join => host.join(call),
        Function::Token => host.token(call),
        _ => host.other(call),
    }
}

/// Why a query whose TOSCA 2.0 path the resolver could not follow has no value before
/// deployment.
pub fn unresolved_path(call: &Call) -> String {
    format!(
        "{} follows a TOSCA path that leads to no one node template before deployment",
        super::value_text(&Value::Call(Box::new(call.clone())))
    )
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
        Value::Call(Box::new(Call::new(
            Function::GetAttribute,
            vec![s("db"), s("ip")],
        )))
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

    /// A host that names the method each call reached.
    struct Names;

    impl Host for Names {
        type Out = String;
        fn known(&mut self, value: &Value) -> Result<String, String> {
            Ok(format!("known {}", crate::ir::value_text(value)))
        }
        fn input(&mut self, _: &Call) -> Result<String, String> {
            Ok("input".into())
        }
        fn query(&mut self, _: &Call) -> Result<String, String> {
            Ok("query".into())
        }
        fn concat(&mut self, _: &Call) -> Result<String, String> {
            Ok("concat".into())
        }
        fn join(&mut self, _: &Call) -> Result<String, String> {
            Ok("join".into())
        }
        fn other(&mut self, call: &Call) -> Result<String, String> {
            Ok(format!("other {}", call.function))
        }
    }

    #[test]
    fn each_call_reaches_the_host_method_of_its_kind() {
        let run =
            |function: Function, args: Vec<Value>| call(&Call::new(function, args), &mut Names);
        assert_eq!(
            run(Function::Concat, vec![s("a"), s("b")]),
            Ok("known ab".into())
        );
        assert_eq!(
            run(Function::Concat, vec![s("a"), later()]),
            Ok("concat".into())
        );
        assert_eq!(run(Function::Join, vec![later()]), Ok("join".into()));
        // `token` goes to `other` unless the host writes it.
        assert_eq!(
            run(Function::Token, vec![later(), s("."), Value::Integer(0)]),
            Ok("other token".into())
        );
        assert_eq!(run(Function::GetInput, vec![s("port")]), Ok("input".into()));
        assert_eq!(
            run(Function::GetAttribute, vec![s("db"), s("ip")]),
            Ok("query".into())
        );
        assert_eq!(
            run(Function::Custom("core:to_string".into()), vec![later()]),
            Ok("other core:to_string".into())
        );
        assert_eq!(
            run(Function::Sum, vec![later(), Value::Integer(1)]),
            Ok("other sum".into())
        );
        // A path the resolver could not follow is known only at deployment, unless the host
        // follows paths itself.
        let unfollowed = run(
            Function::GetProperty,
            vec![s("SELF"), s("RELATIONSHIP"), s("db"), s("port")],
        );
        assert_eq!(
            unfollowed,
            Err("get_property(SELF, RELATIONSHIP, db, port) follows a TOSCA path that leads to no one node template before deployment".into())
        );
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
