//! Values in the IR: what a property, attribute, input or operation input holds.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;

use super::Function;

pub use crate::model::{ScalarUnit, Version};

/// A TOSCA value, tagged so that no reader has to guess: `{"kind": "string", "value": "x"}`.
///
/// Literals are already typed by their TOSCA definitions where the front end knows them; a
/// `version` keeps its written text (`1.10`), a scalar-unit both its text and canonical number.
/// What cannot be known before deployment stays a [`Call`], which backends turn into their own
/// reference syntax or report as untranslatable.
//
// (Not a doc comment: the doc comment is the IR schema's description.) The variants larger
// than a string (a map, a scalar-unit, a version, a call: 72 to 96 bytes) are boxed, so a
// value is 32 bytes rather than 104. Every property, attribute and input entry holds one, and
// requirements and relationships two (their `count` and node filter or target index); most are
// strings, numbers and booleans, which then carry no room for the rare large kinds (at 100,000
// nodes about 2 million values, docs/performance.md). Serde and schemars see through a `Box`,
// so the IR's JSON and schema are unchanged; a size test holds the size.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Value {
    Null,
    Boolean(bool),
    Integer(i64),
    /// A float; an infinity or NaN is written as its YAML spelling (`.inf`, `-.inf`, `.nan`),
    /// JSON having no number for it.
    Float(
        #[serde(serialize_with = "super::float::serialize")]
        #[schemars(with = "super::float::FloatJson")]
        f64,
    ),
    String(String),
    List(Vec<Value>),
    /// A map in source order. Keys are strings (TOSCA map keys are typed by a string-like
    /// `key_schema`).
    Map(Box<IndexMap<String, Value>>),
    /// A scalar with a unit (`4 GB`, `1 ms`, or a TOSCA 2.0 user-defined scalar type).
    Scalar(Box<ScalarUnit>),
    /// A TOSCA version (`major.minor[.fix[.qualifier[-build]]]`), with its written text kept.
    Version(Box<Version>),
    /// An RFC 3339 / ISO 8601 timestamp, as written.
    Timestamp(String),
    /// TOSCA 2.0 `bytes`, as the Base64 text written in the template.
    Bytes(String),
    /// A function whose result is known only at deployment, or an input left unbound.
    Call(Box<Call>),
}

/// A function call kept for deployment time: the IR's expression.
///
/// Names are the TOSCA 1.x spellings without `$` (`get_attribute`, `get_input`, `concat`,
/// `join`, `get_operation_output`, `get_artifact`, `token`, ...) whatever the dialect, so a
/// backend handles each function once; TOSCA 2.0 adds its own (`sum`, `node_index`, custom
/// functions by the name they are called with, `core:to_string`).
///
/// `get_property`, `get_attribute` and `get_artifact` of TOSCA 2.0 arrive in the Simple Profile
/// form whenever their TOSCA path leads to one node template: `[node, name, nested...]` or
/// `[node, capability, name, nested...]`. A path the resolver cannot follow to one template
/// (through a relationship, with `ALL`, to a node the orchestrator selects) keeps its TOSCA 2.0
/// form in `args`, keywords (`SELF`, `RELATIONSHIP`, `CAPABILITY`, `SOURCE`, `TARGET`, `ALL`)
/// and indices included; a backend that cannot follow it says so.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Call {
    #[schemars(with = "String")]
    pub function: Function,
    pub args: Vec<Value>,
    /// For a call of a custom function (TOSCA 2.0 `functions`, §10.4 Function Definitions): the
    /// `implementation` of the signature the call fits, with its artifact paths resolved like
    /// an operation's, for the orchestrator or a backend that runs it. toscana does not run it,
    /// so the call stays. Absent where the signature names none (the processor is then assumed
    /// to know the function, §10.4 Function Definitions) and for every other function.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub implementation: Option<Box<super::Implementation>>,
    /// Where the call is written, for the resolver's own messages; not part of the IR's JSON.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Option<crate::source::Span>,
}

impl Call {
    /// A call made by toscana rather than read, with no place in a file.
    pub fn new(function: Function, args: Vec<Value>) -> Self {
        Call {
            function,
            args,
            implementation: None,
            span: None,
        }
    }

    /// The same call, at the same place, with `args` for its arguments: what an evaluator
    /// keeps for deployment when it cannot compute the call (without an implementation, which
    /// is resolved again where the call is kept).
    pub fn with_args(&self, args: Vec<Value>) -> Self {
        Call {
            function: self.function.clone(),
            args,
            implementation: None,
            span: self.span,
        }
    }
}

impl Call {
    /// Whether this `get_property`, `get_attribute`, `get_artifact` or `available_allocation`
    /// still holds a TOSCA 2.0 path that the resolver could not follow to one node template
    /// (see [`Call`]): a path keyword after the start, `ALL`, a node index, or an index known
    /// only at deployment. Backends that map the Simple Profile form cannot read it.
    pub fn has_unresolved_path(&self) -> bool {
        const KEYWORDS: &[&str] = &["RELATIONSHIP", "CAPABILITY", "SOURCE", "TARGET", "ALL"];
        self.function.is_query()
            && self.args.iter().enumerate().any(|(i, arg)| match arg {
                Value::String(s) => KEYWORDS.contains(&s.as_str()),
                Value::Integer(_) => i == 1,
                Value::Call(_) => true,
                _ => false,
            })
    }
}

/// Two calls are the same expression wherever they are written.
impl PartialEq for Call {
    fn eq(&self, other: &Self) -> bool {
        self.function == other.function
            && self.args == other.args
            && self.implementation == other.implementation
    }
}

impl Value {
    /// A string value.
    pub fn string(s: impl Into<String>) -> Self {
        Value::String(s.into())
    }

    /// The text of a string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// About how many bytes the value holds: the text of its strings, keys and scalars, and a
    /// word for each item, entry and argument. What the run's budget for computed values
    /// counts ([`crate::limits::Limits::max_computed_bytes`]).
    pub fn weight(&self) -> u64 {
        const WORD: u64 = 8;
        let text = |s: &str| s.len() as u64;
        match self {
            Value::Null | Value::Boolean(_) | Value::Integer(_) | Value::Float(_) => WORD,
            Value::String(s) | Value::Timestamp(s) | Value::Bytes(s) => WORD + text(s),
            Value::Scalar(s) => WORD + text(&s.text),
            Value::Version(v) => WORD + text(&v.text),
            Value::List(items) => items
                .iter()
                .fold(WORD, |sum, v| sum.saturating_add(v.weight())),
            Value::Map(map) => map.iter().fold(WORD, |sum, (k, v)| {
                sum.saturating_add(text(k)).saturating_add(v.weight())
            }),
            Value::Call(call) => call
                .args
                .iter()
                .fold(WORD + text(call.function.name()), |sum, v| {
                    sum.saturating_add(v.weight())
                }),
        }
    }

    /// True when the value, or anything inside it, is a [`Call`].
    pub fn has_call(&self) -> bool {
        match self {
            Value::Call(_) => true,
            Value::List(items) => items.iter().any(Value::has_call),
            Value::Map(map) => map.values().any(Value::has_call),
            _ => false,
        }
    }
}

/// The text of a value as diagrams and messages show it: strings as written, scalars and versions as
/// written, lists and maps in flow style, functions as `name(args)`.
pub fn value_text(value: &Value) -> String {
    fn nested(v: &Value, out: &mut String) {
        match v {
            Value::String(s) => {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            other => flat(other, out),
        }
    }
    fn flat(v: &Value, out: &mut String) {
        match v {
            Value::Null => out.push_str("null"),
            Value::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Integer(i) => out.push_str(&i.to_string()),
            Value::Float(f) => out.push_str(&super::float::float_text(*f)),
            Value::String(s) | Value::Timestamp(s) | Value::Bytes(s) => out.push_str(s),
            Value::Scalar(s) => out.push_str(&s.text),
            Value::Version(v) => out.push_str(&v.text),
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    nested(item, out);
                }
                out.push(']');
            }
            Value::Map(map) => {
                out.push('{');
                for (i, (k, item)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(": ");
                    nested(item, out);
                }
                out.push('}');
            }
            Value::Call(call) => {
                out.push_str(call.function.name());
                out.push('(');
                for (i, arg) in call.args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match arg {
                        // Names in paths read better bare.
                        Value::String(s)
                            if !s.is_empty()
                                && s.chars().all(|c| c.is_alphanumeric() || "_-.".contains(c)) =>
                        {
                            out.push_str(s)
                        }
                        other => nested(other, out),
                    }
                }
                out.push(')');
            }
        }
    }
    let mut out = String::new();
    flat(value, &mut out);
    out
}

#[cfg(test)]
mod size_tests {
    use super::*;

    /// Every property and attribute entry of the IR holds a value (see [`Value`] for why the
    /// large kinds are boxed); a variant added unboxed beside them would undo it.
    #[test]
    fn a_value_stays_small() {
        assert!(
            size_of::<Value>() <= 32,
            "Value is {} bytes",
            size_of::<Value>()
        );
    }
}
