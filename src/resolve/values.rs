//! Data values into IR values, with function calls recognised and inputs bound.
//!
//! Written once over [`Tree`], so a value the model has typed ([`crate::model::Value`]) and one
//! it still keeps as YAML are read alike (see [`crate::model::tree`] for why).

use indexmap::IndexMap;

use super::calls::syntax;
use crate::diag::{Diagnostic, Diagnostics, Findings, codes};
use crate::ir::{Call, Dialect, Function, Value};
use crate::model::FUNCTIONS_1X;
use crate::model::call;
use crate::model::tree::{Pair, Shape, Tree};
use crate::model::value::Data;
use crate::source::Span;

/// A single-key map whose key reads like a function name (`get_propery`, `concatenate`) is a
/// typo far more often than data, and the Simple Profile has no escape for it (SP-FUNC-11).
fn looks_like_function(key: &str) -> bool {
    key.starts_with("get_") || key.starts_with("concat") || key == "tokens" || key == "joins"
}

/// Converts data values to IR values for one dialect, binding `get_input` where the input has a value.
pub struct ValueReader<'a> {
    pub dialect: Dialect,
    /// Every declared input with its value (bound or default, `None` when it has neither); or
    /// `None` where `get_input` is not about topology inputs (a workflow's `get_input` names
    /// the workflow's own inputs), so it is kept as a call and not checked.
    pub inputs: Option<&'a IndexMap<String, Option<Value>>>,
    /// The run's budget for computed values, which every bound `get_input` spends with the
    /// copy of the input's value it makes; `None` where no input is bound.
    pub budget: Option<&'a crate::limits::Budget>,
}

impl ValueReader<'_> {
    /// `node` as a value, reporting what is wrong in it (a misspelt function, a malformed
    /// call, an undeclared input, a key that is not text): the reading of the place that
    /// owns the node.
    pub fn value<T: Tree>(&self, node: &T, diags: &mut Diagnostics) -> Value {
        self.read(node, true, &mut Some(diags))
    }

    /// `node` as a value, the same one [`Self::value`] gives, for a second use of a node whose
    /// problems the place that owns it reports when it reads it (each caller names that
    /// place): nothing is reported here, and no diagnostic is made.
    pub fn plain<T: Tree>(&self, node: &T) -> Value {
        self.read(node, true, &mut None::<&mut Diagnostics>)
    }

    /// A value in which functions mean nothing: `metadata`, which is opaque (T2-FN-09), so a
    /// `$` there is text. A TOSCA 2.0 `$$` escape is still undone.
    pub fn metadata<T: Tree>(&self, node: &T, diags: &mut Diagnostics) -> Value {
        self.read(node, false, &mut Some(diags))
    }

    /// `node` as a value, its findings to `diags`: a reading that reports, a second reading
    /// (`None`), or one that only judges (the typed reader's, see [`Findings`]).
    pub fn value_to<T: Tree, F: Findings>(&self, node: &T, diags: &mut F) -> Value {
        self.read(node, true, diags)
    }

    /// The reading behind [`Self::value`] and [`Self::plain`]: `diags` is where problems are
    /// reported, or `None` where the caller's node is reported by its owner.
    fn read<T: Tree, F: Findings>(&self, node: &T, calls: bool, diags: &mut F) -> Value {
        match node.shape() {
            Shape::Scalar(text, data) => match data {
                Data::Null => Value::Null,
                Data::Bool(b) => Value::Boolean(b),
                Data::Integer(i) => Value::Integer(i),
                Data::Float(f) => Value::Float(f),
                Data::String => match self.bare_call(text).filter(|_| calls) {
                    // TOSCA 2.0: `$name` is a call without arguments (§10.1 Function Syntax).
                    Some(function) => self.call(function, None, node, diags),
                    None => Value::String(self.unescape(text).to_string()),
                },
            },
            Shape::List(items) => {
                Value::List(items.iter().map(|i| self.read(i, calls, diags)).collect())
            }
            Shape::Map(entries) => {
                if let [entry] = entries
                    && let Some(key) = entry.key().as_str()
                    && calls
                {
                    if let Some(function) = self.function_name(key) {
                        return self.call(function, Some(entry.value()), node, diags);
                    }
                    if self.dialect != Dialect::Tosca2 && looks_like_function(key) {
                        report(diags, || {
                            Diagnostic::error(
                                codes::TOSCA_UNKNOWN_NAME,
                                format!("unknown function `{key}`"),
                            )
                            .at(entry.key().span())
                            .did_you_mean(
                                key,
                                FUNCTIONS_1X,
                                Some(format!("the functions are {}", FUNCTIONS_1X.join(", "))),
                            )
                        });
                    }
                }
                if self.dialect == Dialect::Tosca2
                    && calls
                    && diags.judges()
                    && let Some(d) = syntax::malformed::<T>(entries)
                {
                    diags.find(|| d);
                }
                let mut out = IndexMap::with_capacity(entries.len());
                for entry in entries {
                    match entry.key().scalar_text() {
                        Some(key) => {
                            out.insert(
                                self.unescape(key).to_string(),
                                self.read(entry.value(), calls, diags),
                            );
                        }
                        None => report(diags, || self.non_text_key(entry.key())),
                    }
                }
                Value::Map(Box::new(out))
            }
        }
    }

    /// The warning for a map key that is not text (a list, a map), whose entry the IR cannot
    /// hold.
    pub fn non_text_key<T: Tree>(&self, key: &T) -> Diagnostic {
        non_text_key(self.dialect, call::call(key).map(|c| c.name), key.span())
    }

    /// Whether a node is a single-entry map whose key reads like a misspelt function (reported
    /// when the node is read).
    pub fn is_function_typo<T: Tree>(&self, node: &T) -> bool {
        self.dialect != Dialect::Tosca2
            && matches!(node.entries(), Some([entry]) if entry.key().as_str().is_some_and(|k| looks_like_function(k) && self.function_name(k).is_none()))
    }

    /// Whether a node is a function call: a single-entry map keyed by a function name, or in
    /// TOSCA 2.0 also a string that starts with one `$`.
    pub fn is_call<T: Tree>(&self, node: &T) -> bool {
        call::call_in(self.dialect, node).is_some()
    }

    /// The function a map key names: `get_input` in 1.x, `$get_input` (or `$get_input$2`) in
    /// 2.0, where `$$` escapes a literal `$`.
    fn function_name<'k>(&self, key: &'k str) -> Option<&'k str> {
        call::key_function(self.dialect, key)
    }

    /// The function a TOSCA 2.0 string value calls without arguments.
    fn bare_call<'k>(&self, text: &'k str) -> Option<&'k str> {
        match self.dialect {
            Dialect::Tosca2 => call::function_name(text),
            _ => None,
        }
    }

    /// TOSCA 2.0 escapes a leading `$` in strings and keys as `$$`.
    pub fn unescape<'s>(&self, text: &'s str) -> &'s str {
        match self.dialect {
            Dialect::Tosca2 => call::unescape(text),
            _ => text,
        }
    }

    /// A call of `function` with the arguments `args_node` (`None`: the bare form), written at
    /// `at`.
    fn call<T: Tree, F: Findings>(
        &self,
        function: &str,
        args_node: Option<&T>,
        at: &T,
        diags: &mut F,
    ) -> Value {
        if self.dialect == Dialect::Tosca2 && function.is_empty() {
            report(diags, || syntax::nameless(at));
            return Value::Null;
        }
        let args: Vec<Value> = match (self.dialect, args_node) {
            (_, None) => Vec::new(),
            (Dialect::Tosca2, Some(args_node)) => {
                let written = call::Written {
                    name: function,
                    name_node: at,
                    args: Some(args_node),
                };
                call::arguments(&written)
                    .into_iter()
                    .map(|i| self.read(i, true, diags))
                    .collect()
            }
            (_, Some(args_node)) => {
                if diags.judges() {
                    super::call_shapes::check(function, args_node, diags);
                }
                match args_node.items() {
                    Some(items) => items.iter().map(|i| self.read(i, true, diags)).collect(),
                    None => vec![self.read(args_node, true, diags)],
                }
            }
        };
        let function = Function::parse(function, self.dialect);
        if function == Function::GetInput {
            return self.get_input(args, at.span(), diags);
        }
        Value::Call(Box::new(Call {
            function,
            args,
            implementation: None,
            span: Some(at.span()),
        }))
    }

    /// Binds `get_input` to the input's value; an unbound input stays a call for the backend
    /// (a Terraform variable, say), and an undeclared one is an error.
    fn get_input<F: Findings>(&self, args: Vec<Value>, at: Span, diags: &mut F) -> Value {
        let Some(name) = args.first().and_then(Value::as_str) else {
            report(diags, || {
                Diagnostic::error(codes::TOSCA_SHAPE, "get_input needs the name of an input")
                    .at(at)
                    .hint("write `get_input: <input name>`")
            });
            return Value::Null;
        };
        let Some(inputs) = self.inputs else {
            return unbound(args, at);
        };
        match inputs.get(name) {
            None => {
                report(diags, || {
                    let known: Vec<&str> = inputs.keys().map(String::as_str).collect();
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!("get_input refers to undefined input `{name}`"),
                    )
                    .at_with(at, "no such input")
                    .did_you_mean(
                        name,
                        &known,
                        Some("declare it under `inputs` of the service template".into()),
                    )
                });
                Value::Null
            }
            Some(Some(value)) => {
                let Some(copy) = nested(value, &args[1..]) else {
                    return unbound(args, at);
                };
                let weight = copy.weight();
                match self.budget.map(|b| b.compute(weight)) {
                    Some(Err(exceeded)) => {
                        report(diags, || {
                            computed_too_much("get_input", weight, exceeded, at)
                        });
                        unbound(args, at)
                    }
                    _ => copy,
                }
            }
            Some(None) => unbound(args, at),
        }
    }
}

/// Reports the diagnostic `make` makes, if the reading reports (see [`ValueReader::plain`]).
fn report<F: Findings>(diags: &mut F, make: impl FnOnce() -> Diagnostic) {
    diags.find(make);
}

/// The warning for a map key that is not text, at `span`; `call` is the function a TOSCA 2.0
/// key `{ $name: args }` calls.
fn non_text_key(dialect: Dialect, call: Option<&str>, span: Span) -> Diagnostic {
    match call {
        // TOSCA 2.0 allows a call as a key (§10.1 Function Syntax); its text is known only at
        // deployment, and the IR's keys are text.
        Some(name) if dialect == Dialect::Tosca2 => Diagnostic::warning(
            codes::TOSCA_UNSUPPORTED,
            format!(
                "a map key computed by `${name}` is known only at deployment; toscana keeps map keys as text, so this entry is left out"
            ),
        ),
        _ => Diagnostic::warning(
            codes::TOSCA_UNSUPPORTED,
            "a map value with a non-string key is not supported; entry ignored",
        ),
    }
    .at(span)
}

/// A map of values (properties, triggers) in source order.
pub(super) fn map_values<T: Tree>(
    reader: &ValueReader,
    node: &T,
    what: &str,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    let value = reader.value(node, diags);
    entries_of(value, node, what, diags)
}

/// A `metadata` map: opaque data, in which a `$` is no function call (T2-FN-09).
pub(super) fn metadata_values<T: Tree>(
    reader: &ValueReader,
    node: &T,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    let value = reader.metadata(node, diags);
    entries_of(value, node, "`metadata`", diags)
}

/// The entries of `value`, read from `node` where a map (`what`) belongs: none for an empty
/// value, none and an error for anything but a map.
fn entries_of<T: Tree>(
    value: Value,
    node: &T,
    what: &str,
    diags: &mut Diagnostics,
) -> IndexMap<String, Value> {
    match value {
        Value::Map(map) => *map,
        Value::Null => IndexMap::new(),
        _ => {
            diags.push(crate::model::shape::wrong_shape(node, what, "a map"));
            IndexMap::new()
        }
    }
}

fn unbound(args: Vec<Value>, at: Span) -> Value {
    Value::Call(Box::new(Call {
        function: Function::GetInput,
        args,
        implementation: None,
        span: Some(at),
    }))
}

/// The error of a function whose result would pass the run's budget for computed values
/// ([`crate::limits::Limits::max_computed_bytes`]): the call is kept, unevaluated.
pub(super) fn computed_too_much(
    function: &str,
    weight: u64,
    crate::limits::Exceeded(limit): crate::limits::Exceeded,
    at: Span,
) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_LIMIT,
        format!(
            "`{function}` would copy a value of about {weight} bytes, which with the values computed before passes the limit of {limit} bytes functions may compute in one run"
        ),
    )
    .at(at)
    .hint(crate::limits::Limit::ComputedBytes.hint())
}

/// `get_input: [name, key, 0]` selects inside a structured input.
pub(super) fn nested(value: &Value, path: &[Value]) -> Option<Value> {
    let mut current = value;
    for step in path {
        current = match (current, step) {
            (Value::Map(m), Value::String(k)) => m.get(k)?,
            (Value::List(l), Value::Integer(i)) => l.get(usize::try_from(*i).ok()?)?,
            _ => return None,
        };
    }
    Some(current.clone())
}

#[cfg(test)]
#[path = "values_tests.rs"]
mod tests;
