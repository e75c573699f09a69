//! Property, attribute and parameter definitions, as a front end files them (Simple Profile
//! A.5.7 Property definition, A.5.9 Attribute definition, A.5.8 Property definition used as an
//! input or output parameter; TOSCA 2.0 §9.3 Schema Definition, §9.4 Property Definition, §9.6
//! Attribute Definition, §9.8 Parameter Definition).
//!
//! One [`Definition`] serves every kind: the keynames the kinds share are the same fields, and a
//! kind that does not define a keyname never has it filled (each dialect's grammar reports a
//! keyname its kind does not have, where it checks the keynames, before the definition is
//! built). A section (`outputs`, later `inputs`, `properties`, `attributes`) is a list of
//! [`Entry`]s in source order, each a [`Definition`] or a one-line refinement `<name>: <value>`.
//!
//! What is typed, and why some fields stay a [`Value`]:
//!
//! - The keynames are fields, read once by the front end (`front::definitions`); what else a
//!   definition writes (a key of no kind, reported by the grammar) is kept aside, unread by
//!   the resolver ([`Definition::unknown`]).
//! - `type` is the [`Value`] as written, not a name: the Simple Profile's grammar does not
//!   report every `type` that is no string (a null), and readers differ on a scalar that is no
//!   string (a value's type reads its text, a reader of names reads only a string), as they did
//!   on the YAML; [`Definition::type_text`] and [`Definition::type_name`] say which.
//! - `required`, `default`, `value`, `status`, `constraints`, `validation`, `metadata`,
//!   `external_schema` and `mapping` are values as written: `required` may be a YAML 1.1 `no`,
//!   the Simple Profile's `constraints` one clause or a list, a clause's operands data, and the
//!   resolver reports what is of the wrong shape where it reads it.
//! - `entry_schema` and `key_schema` are [`Schema`]s: a type's name, or a schema definition,
//!   itself a [`Definition`] (§9.3 Schema Definition: type, description, validation or
//!   constraints, nested schemas).

use crate::source::Span;

use super::value::{Entry as ValueEntry, Text, Value};

/// One named entry of a definitions section.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    /// The span of the name.
    pub span: Span,
    pub body: Body,
}

/// What an entry writes.
#[derive(Debug, Clone)]
pub enum Body {
    /// A definition: a map of keynames (boxed: it is ten times a value's size).
    Definition(Box<Definition>),
    /// Anything else, as written: a one-line refinement `<name>: <value>` of an inherited
    /// definition, or (where no refinement is allowed, as in `outputs`) a value of the wrong
    /// shape (a null, a scalar, a list), which the grammar reports.
    OneLine(Value),
}

impl Entry {
    /// The definition, when the entry writes one.
    pub fn definition(&self) -> Option<&Definition> {
        match &self.body {
            Body::Definition(d) => Some(d),
            Body::OneLine(_) => None,
        }
    }

    /// The span of what the entry writes.
    pub fn body_span(&self) -> Span {
        match &self.body {
            Body::Definition(d) => d.span,
            Body::OneLine(v) => v.span,
        }
    }
}

/// A property, attribute, parameter or schema definition.
#[derive(Debug, Clone, Default)]
pub struct Definition {
    /// Where the definition (the map) is written.
    pub span: Span,
    /// `type`, as written (see the module docs).
    pub type_name: Option<Value>,
    /// `description`, when it is a scalar (the grammar reports one that is not).
    pub description: Option<Text>,
    /// `required`, as written (the Simple Profile's files write a YAML 1.1 `no`).
    pub required: Option<Value>,
    pub default: Option<Value>,
    /// `value`: a TOSCA 2.0 property's fixed value, a parameter's value.
    pub value: Option<Value>,
    pub status: Option<Value>,
    /// The Simple Profile's `constraints`: one clause or a list of them, as written.
    pub constraints: Option<Value>,
    /// TOSCA 2.0's `validation` clause.
    pub validation: Option<Value>,
    pub entry_schema: Option<Box<Schema>>,
    pub key_schema: Option<Box<Schema>>,
    pub metadata: Option<Value>,
    /// 1.3's `external-schema` of a parameter.
    pub external_schema: Option<Value>,
    /// TOSCA 2.0's `mapping` of an incoming parameter (§9.8 Parameter Definition).
    pub mapping: Option<Value>,
    /// The keys no kind of definition has, with their values, in source order: the grammar
    /// reported them and the resolver reads none, but the language server still finds the
    /// calls written under them, as it did in the YAML.
    pub unknown: Vec<ValueEntry>,
}

impl Definition {
    /// The text of `type` when it is a scalar (what a value of the type is read against).
    pub fn type_text(&self) -> Option<&str> {
        self.type_name.as_ref().and_then(Value::scalar_text)
    }

    /// `type` when it is a string (a name a reader of names follows).
    pub fn type_name(&self) -> Option<&str> {
        self.type_name.as_ref().and_then(Value::as_str)
    }

    /// The keynames written as [`Value`]s, with their keynames (all but `description`, the
    /// schemas and the unknown keys), as [`crate::model::grouping::Grouping::values`] gives a
    /// group's. The language server and the resolver's index of calls walk them.
    pub fn values(&self) -> impl Iterator<Item = (&'static str, &Value)> {
        [
            ("type", &self.type_name),
            ("required", &self.required),
            ("default", &self.default),
            ("value", &self.value),
            ("status", &self.status),
            ("constraints", &self.constraints),
            ("validation", &self.validation),
            ("metadata", &self.metadata),
            ("external-schema", &self.external_schema),
            ("mapping", &self.mapping),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k, v.as_ref()?)))
    }
}

/// An `entry_schema` or `key_schema`.
#[derive(Debug, Clone)]
pub enum Schema {
    /// A type's name (any scalar, as written: `entry_schema: string`).
    Type(Value),
    /// A schema definition (boxed, as [`Body::Definition`]).
    Definition(Box<Definition>),
    /// A list, as written: no schema (the grammar reports its shape).
    Malformed(Value),
}

impl Schema {
    /// Where the schema is written.
    pub fn span(&self) -> Span {
        match self {
            Schema::Type(v) | Schema::Malformed(v) => v.span,
            Schema::Definition(d) => d.span,
        }
    }
}
