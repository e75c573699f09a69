//! Values against their definitions: every assigned property, input and data-type field is
//! checked against its declared type and constraints, and read into its typed IR form
//! (`4 GB` of type `scalar-unit.size` becomes a [`Value::Scalar`] with its value in bytes, a
//! `version` keeps its written text, a `timestamp` is marked as one).
//!
//! Property assignments are checked by name too: a name the type does not define is an error
//! (with the closest defined name), and a required property with neither a value nor a default
//! is one. Functions (`get_input`, ...) are left to deployment: their results are not checked.
//!
//! Definitions are read from the type chain, most specific first: a subtype's refinement of a
//! property (narrowing constraints, adding a default) overrides its parent keyname by keyname,
//! and keeps what it does not restate (usually `type`).

use std::borrow::Cow;
use std::fmt;

use indexmap::IndexMap;

use super::patterns::Patterns;
use super::types::{Ancestry, definitions};
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, Findings, FirstError, codes};
use crate::ir::{Dialect, Value};
use crate::model::literals::{self, UnitTable};
use crate::model::tree::{Pair, Tree};
use crate::model::{Model, TypeDef, TypeKind};
use crate::yaml::{Map, Node as Yaml};

mod definition;
mod layers;
mod place;
mod read;
pub(crate) use definition::on_tree;
pub use definition::{Definition, DefinitionsCache, SchemaRef, Written};
pub use layers::definitions_of;
use place::Place;
use read::Schemas;

/// Nesting of data types within data types checked at most; deeper values are taken as they are
/// (a recursive data type is legal TOSCA, a value cannot nest forever, but the YAML depth limit
/// already bounds it; this bounds the work per value).
const MAX_TYPE_DEPTH: usize = 64;

/// Reads values into their typed form, reporting every mismatch.
pub struct Typing<'a, 'm> {
    pub model: &'m Model,
    pub reader: &'a ValueReader<'a>,
    pub ancestry: &'a mut Ancestry,
    pub patterns: &'a Patterns,
}

/// What a type name stands for when reading a value.
enum Shape<'m> {
    String,
    Integer,
    Float,
    Boolean,
    Null,
    Timestamp,
    Version,
    Range,
    Bytes,
    List,
    Map,
    /// Borrowed for the Simple Profile's scalar-unit types, whose tables are made once.
    Scalar(Cow<'m, UnitTable>),
    /// A data type with properties (its definitions along its chain).
    Complex(Vec<&'m TypeDef>),
    /// A type this reader does not know (already reported where it was named): anything goes.
    Unknown,
}

impl<'m> Typing<'_, 'm> {
    /// The typed defaults of `definitions` (a type chain's, from a [`DefinitionsCache`] or
    /// [`definitions_of`]), in definition order: what a template's values start from, before
    /// its own [`Typing::assigned`] ones.
    pub fn defaults(
        &mut self,
        definitions: &IndexMap<&'m str, Definition<'m>>,
        section: &str,
    ) -> IndexMap<String, Value> {
        let mut out = IndexMap::new();
        for (name, def) in definitions {
            // A TOSCA 2.0 property definition's `value` is fixed (§9.4 Property Definition), and so
            // is its value.
            let fixed = self.fixed_value(section, def);
            if let Some(default) = fixed.or(def.one_line()).or_else(|| def.default_written()) {
                // A default that does not fit its type is the type's mistake, reported once
                // where types are checked (`defaults::check`), not at every template: this
                // reading reports nothing.
                let value = on_tree!(default, |d| self.value_at(
                    d,
                    def,
                    name,
                    0,
                    &mut None::<&mut Diagnostics>
                ));
                out.insert(name.to_string(), value);
            }
        }
        out
    }

    /// The fixed `value` of a TOSCA 2.0 property definition, which no template may change.
    fn fixed_value(&self, section: &str, def: &Definition<'m>) -> Option<Written<'m>> {
        (self.model.dialect == Dialect::Tosca2 && section == "properties")
            .then(|| def.one_line().or_else(|| def.value_written()))
            .flatten()
    }

    /// Only the typed assignments of `section` in `assigned`, against `definitions`. The
    /// assignments are any [`Tree`]: a YAML definition's or a typed entity's
    /// [`crate::model::Value`].
    pub fn assigned<N: Tree>(
        &mut self,
        owner: impl fmt::Display + Copy,
        definitions: &IndexMap<&'m str, Definition<'m>>,
        section: &str,
        assigned: Option<&N>,
        check_names: bool,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        let diags = &mut Some(diags);
        self.assigned_to(owner, definitions, section, assigned, check_names, diags)
    }

    /// [`Self::assigned`], reporting to `diags` if any: `None` for a second reading of
    /// assignments whose owner reports them where it reads them (each caller names it).
    pub fn assigned_to<N: Tree>(
        &mut self,
        owner: impl fmt::Display + Copy,
        definitions: &IndexMap<&'m str, Definition<'m>>,
        section: &str,
        assigned: Option<&N>,
        check_names: bool,
        diags: &mut Option<&mut Diagnostics>,
    ) -> IndexMap<String, Value> {
        let mut out = IndexMap::new();
        let entries = assigned.and_then(N::entries).unwrap_or_default();
        for entry in entries {
            let (key, written) = (entry.key(), entry.value());
            let Some(name) = key.scalar_text() else {
                continue;
            };
            // An attribute may be assigned in extended form, `{description, value}`.
            let node = match written.entries() {
                Some(m)
                    if section == "attributes"
                        && !m.is_empty()
                        && m.iter().all(|e| {
                            matches!(e.key().scalar_text(), Some("description" | "value"))
                        }) =>
                {
                    match m.iter().find(|e| e.key().scalar_text() == Some("value")) {
                        Some(v) => v.value(),
                        None => continue,
                    }
                }
                _ => written,
            };
            let value = match definitions.get(name) {
                Some(def) if self.fixed_value(section, def).is_some() => {
                    if let Some(diags) = diags {
                        diags.push(fixed_assigned(owner, name, key.span()));
                    }
                    continue;
                }
                Some(def) => {
                    // The path names the value only if a message is made (`Place`).
                    let path = Place::field(&section, name);
                    self.value_at(node, def, &path, 0, diags)
                }
                None => match diags {
                    Some(diags) => {
                        if check_names {
                            diags.push(unknown_name(owner, section, name, key.span(), definitions));
                        }
                        self.reader.value(node, diags)
                    }
                    None => self.reader.plain(node),
                },
            };
            out.insert(name.to_string(), value);
        }
        out
    }

    /// Reports required properties among a type chain's `properties` definitions that `values`
    /// does not hold. `at` is where the template is written.
    pub fn check_required(
        &self,
        owner: impl fmt::Display + Copy,
        properties: &IndexMap<&'m str, Definition<'m>>,
        values: &IndexMap<String, Value>,
        at: crate::source::Span,
        diags: &mut Diagnostics,
    ) {
        for (&name, def) in properties {
            if def.required() && !values.contains_key(name) {
                let type_name = def.type_name().unwrap_or("its type");
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("{owner} does not set required property `{name}` ({type_name})"),
                    )
                    .at(at)
                    .hint(format!(
                        "add `{name}: <a {type_name}>` under `properties`, or give the definition a `default` or `required: false`"
                    )),
                );
            }
        }
    }

    /// `node` read as a value of the definition `def`; `path` names it in messages.
    pub fn value<N: Tree>(
        &mut self,
        node: &N,
        def: &Definition<'m>,
        path: &str,
        diags: &mut Diagnostics,
    ) -> Value {
        self.value_at(node, def, &path, 0, &mut Some(diags))
    }

    /// `node` read as a value of the type `type_name` itself (no definition around it: a
    /// keyname the grammar types, such as a 1.x repository's `credential`).
    pub fn value_of_type<N: Tree>(
        &mut self,
        node: &N,
        type_name: &str,
        path: &str,
        diags: &mut Diagnostics,
    ) -> Value {
        self.typed(node, type_name, Schemas::NONE, &path, 0, &mut Some(diags))
    }

    /// Whether the Simple Profile's YAML 1.1 habits are read with a warning (not in TOSCA 2.0).
    fn lenient(&self) -> bool {
        self.model.dialect != Dialect::Tosca2
    }

    /// `node` judged against a schema definition (a type name, or a map with `type`,
    /// `entry_schema`, `key_schema` and `validation`), as a function signature declares its
    /// arguments (§10.4 Function Definitions), reporting nothing: the value read when it fits
    /// (its type, constraints and validation clauses), else the message of the first error a
    /// reporting reading would report. A fitting value has nothing more to report than its
    /// owner's reading of it does (a map key that is not text), so no second reading follows.
    pub fn schema_fit<N: Tree>(
        &mut self,
        node: &N,
        schema: &'m Yaml,
        path: &str,
    ) -> Result<Value, String> {
        let mut first = FirstError::default();
        let value = self.entry(node, Some(SchemaRef::Yaml(schema)), &path, 0, &mut first);
        match first.into_error() {
            Some(error) => Err(error.message),
            None => Ok(value),
        }
    }

    /// Whether a value computed before deployment (a function's result) can be a value of the
    /// type `type_name` (an identity, see [`Self::identity`]): its kind, not its constraints.
    /// `Err` says what was expected.
    pub fn value_fits(&mut self, value: &Value, type_name: &str) -> Result<(), &'static str> {
        let (shape, _) = self.shape(type_name);
        let fits = match (&shape, value) {
            (_, Value::Call(_)) | (Shape::Unknown, _) => true,
            (Shape::String, Value::String(_)) => true,
            (Shape::Integer, Value::Integer(_)) => true,
            (Shape::Float, Value::Integer(_) | Value::Float(_)) => true,
            (Shape::Boolean, Value::Boolean(_)) => true,
            (Shape::Null, Value::Null) => true,
            (Shape::Timestamp, Value::Timestamp(_)) => true,
            (Shape::Timestamp, Value::String(s)) => literals::timestamp(s).is_ok(),
            (Shape::Version, Value::Version(_)) => true,
            (Shape::Version, Value::String(s)) => literals::version(s).is_ok(),
            (Shape::Bytes, Value::Bytes(_) | Value::String(_)) => true,
            (Shape::Range, Value::List(items)) => items.len() == 2,
            (Shape::List, Value::List(_)) => true,
            (Shape::Map | Shape::Complex(_), Value::Map(_)) => true,
            (Shape::Scalar(table), Value::Scalar(s)) => s.canonical_unit == table.canonical,
            (Shape::Scalar(table), Value::String(s)) => literals::scalar_unit(s, table).is_ok(),
            _ => false,
        };
        if fits {
            Ok(())
        } else {
            Err(shape_name(&shape))
        }
    }

    /// Whether values of the type `type_name` (an identity) are numbers or scalars, which
    /// capacities are allocated from (§10.2.1.8 $available_allocation); true for a type this reader
    /// does not know.
    pub fn allocatable(&mut self, type_name: &str) -> bool {
        matches!(
            self.shape(type_name).0,
            Shape::Integer | Shape::Float | Shape::Scalar(_) | Shape::Unknown
        )
    }

    /// Whether a value of type `actual` (a function's declared result) can be a value of type
    /// `expected` (both identities, see [`Self::identity`]): the same type or one derived from
    /// it, an integer for a float, or anything where either type is not known.
    pub fn type_fits(&mut self, actual: &str, expected: &str) -> bool {
        if actual == expected {
            return true;
        }
        let (want, _) = self.shape(expected);
        let (have, _) = self.shape(actual);
        match (&want, &have) {
            (Shape::Unknown, _) | (_, Shape::Unknown) => true,
            (Shape::Float, Shape::Integer) => true,
            (Shape::Complex(_), Shape::Complex(_)) => self
                .ancestry
                .chain(self.model, TypeKind::Data, actual)
                .iter()
                .any(|t| t == expected),
            (Shape::Scalar(a), Shape::Scalar(b)) => a.canonical == b.canonical,
            (Shape::Map, Shape::Complex(_)) => true,
            _ => std::mem::discriminant(&want) == std::mem::discriminant(&have),
        }
    }

    /// An allocation amount (§8.5.5 Capability Allocation) read as a value of `type_name`,
    /// reporting nothing: a call as it is; a literal of a type that counts (an integer, float
    /// or scalar type, or a type not known) when it is a value of that type; else `None`. What
    /// is wrong in the node as a value is reported where the assignment's `allocation` is
    /// first read (`fulfil::choose::plain_allocation`); what is wrong against the capability,
    /// by the caller ([`super::allocation::read`]).
    pub fn amount<N: Tree>(&mut self, node: &N, type_name: &str) -> Option<Value> {
        if self.reader.is_call(node) {
            return Some(self.reader.plain(node));
        }
        match self.shape(type_name).0 {
            shape @ (Shape::Integer | Shape::Float | Shape::Scalar(_)) => {
                self.primitive(node, &shape).ok()
            }
            Shape::Unknown => Some(self.reader.plain(node)),
            _ => None,
        }
    }

    /// A constraint's operand read as a value of the constrained type.
    pub fn operand<N: Tree>(
        &mut self,
        node: &N,
        type_name: &str,
        operator: &str,
        diags: &mut Diagnostics,
    ) -> Value {
        self.operand_to(node, type_name, operator, &mut Some(diags))
    }

    /// [`Self::operand`], its findings to `diags` (`None`: the clause's owner reports them).
    pub fn operand_to<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        type_name: &str,
        operator: &str,
        diags: &mut F,
    ) -> Value {
        let path = format_args!("the operand of `{operator}`");
        self.read_as(node, type_name, Schemas::NONE, &path, 0, diags)
            .0
    }

    /// A validation clause's literal operand compared with `$value`, read as a value of the
    /// validated type `type_name` (an identity), reporting nothing: the value, or what a value
    /// of the type is when `node` is none (§10.2.2.2 Comparison Functions: the arguments
    /// compared are of the same type). The clause is type-checked where it is written
    /// (`validation_clause_types`), which reports such an operand once; where it meets a
    /// value (`validation::check`), it is judged only when its operands are of the type.
    pub fn operand_fit<N: Tree>(&mut self, node: &N, type_name: &str) -> Result<Value, String> {
        let path = "the operand";
        self.read_fitting(
            node,
            type_name,
            Schemas::NONE,
            &path,
            0,
            &mut None::<&mut Diagnostics>,
        )
        .map(|(value, _)| value)
    }

    /// The data type a `type` (or schema) node names where it is written: its identity, or
    /// the name as written when it is a built-in type or names nothing (reported where types
    /// are checked). The values read from here on carry identities, so a type name means the
    /// same thing wherever a value of it is checked.
    pub fn identity<N: Tree>(&mut self, type_node: &N) -> String {
        let written = type_node.scalar_text().unwrap_or_default();
        if primitive_shape(written, self.model.dialect).is_some() {
            return written.to_string();
        }
        self.ancestry
            .full_name(self.model, TypeKind::Data, written, type_node.span().file)
            .unwrap_or_else(|| written.to_string())
    }

    /// What the data type of identity `type_name` (or a built-in type) means, and the data
    /// type chain whose constraints apply on top.
    fn shape(&mut self, type_name: &str) -> (Shape<'m>, Vec<&'m TypeDef>) {
        if let Some(shape) = primitive_shape(type_name, self.model.dialect) {
            return (shape, Vec::new());
        }
        if !self
            .model
            .types
            .contains_key(&super::types::TypeRef(TypeKind::Data, type_name))
        {
            return (Shape::Unknown, Vec::new());
        }
        let ancestry = self.ancestry.chain(self.model, TypeKind::Data, type_name);
        let defs = definitions(self.model, TypeKind::Data, &ancestry);
        // TOSCA 2.0 scalar types: a data type on `scalar` with its own units.
        if ancestry.iter().any(|t| t == "scalar")
            && let Some(table) = tosca2_units(&defs)
        {
            return (Shape::Scalar(Cow::Owned(table)), defs);
        }
        match ancestry
            .iter()
            .find_map(|t| primitive_shape(t, self.model.dialect))
        {
            Some(base) => (base, defs),
            None => (Shape::Complex(defs.clone()), defs),
        }
    }
}

/// Whether `name` is a built-in type of `dialect` (a primitive, a collection, or one of the
/// Simple Profile's scalar-unit types), which no type definition needs to define.
pub fn is_built_in(name: &str, dialect: Dialect) -> bool {
    primitive_shape(name, dialect).is_some()
}

/// The primitive types by name (with the Simple Profile's `tosca:` prefixed spellings).
fn primitive_shape<'m>(name: &str, dialect: Dialect) -> Option<Shape<'m>> {
    let name = name.strip_prefix("tosca:").unwrap_or(name);
    Some(match name {
        "string" => Shape::String,
        "integer" => Shape::Integer,
        "float" => Shape::Float,
        "boolean" => Shape::Boolean,
        "null" | "nil" => Shape::Null,
        "timestamp" => Shape::Timestamp,
        "version" => Shape::Version,
        "range" => Shape::Range,
        "bytes" if dialect == Dialect::Tosca2 => Shape::Bytes,
        "list" => Shape::List,
        "map" => Shape::Map,
        other => Shape::Scalar(Cow::Borrowed(literals::simple_profile_units(other)?)),
    })
}

/// A TOSCA 2.0 scalar type's units: `units` (unit → multiplier), each also with every one of
/// its `prefixes` (prefix → multiplier), and `canonical_unit`, from the most specific
/// definition that has them.
fn tosca2_units(defs: &[&TypeDef]) -> Option<UnitTable> {
    let get = |key: &str| {
        defs.iter()
            .find_map(|d| d.def.as_map().and_then(|m| m.get(key)))
    };
    let factors = |node: &Yaml| -> Vec<(String, f64)> {
        node.as_map()
            .map_or(&[][..], Map::entries)
            .iter()
            .filter_map(|e| {
                let factor = match e.value.as_scalar()?.core {
                    crate::yaml::Core::Int(i) => i as f64,
                    crate::yaml::Core::Float(f) => f,
                    _ => return None,
                };
                Some((e.key.scalar_text()?.to_string(), factor))
            })
            .collect()
    };
    let units = factors(get("units")?);
    let prefixes = get("prefixes").map(factors).unwrap_or_default();
    // With prefixes, the unit strings are each prefix before the unit; the bare unit only
    // with the prefix "" (§9.1.2.2 scalar, T2-SCALAR-05).
    let mut table = if prefixes.is_empty() {
        units.clone()
    } else {
        Vec::new()
    };
    for (prefix, p) in &prefixes {
        for (unit, u) in &units {
            table.push((format!("{prefix}{unit}"), p * u));
        }
    }
    let canonical = get("canonical_unit")
        .and_then(Yaml::scalar_text)
        .map(str::to_string)
        .or_else(|| {
            table
                .iter()
                .find(|(_, f)| *f == 1.0)
                .map(|(u, _)| u.clone())
        })?;
    Some(UnitTable {
        units: table,
        canonical,
        case_insensitive: false,
    })
}

/// What a shape expects, with its article: "an integer".
fn shape_name(shape: &Shape) -> &'static str {
    match shape {
        Shape::String => "a string",
        Shape::Integer => "an integer",
        Shape::Float => "a number",
        Shape::Boolean => "a boolean (true or false)",
        Shape::Null => "a null",
        Shape::Timestamp => "a timestamp",
        Shape::Version => "a version",
        Shape::Range => "a range",
        Shape::Bytes => "a Base64 string",
        Shape::List => "a list",
        Shape::Map | Shape::Complex(_) => "a map",
        Shape::Scalar(_) => "a scalar with a unit",
        Shape::Unknown => "a value",
    }
}

/// A version written as its major number alone (`16`), which tosca-parser accepts.
fn major_only<N: Tree>(node: &N) -> Option<String> {
    let text = node.scalar_text()?;
    (!text.is_empty() && text.len() <= 18 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.to_string())
}

/// A YAML 1.1 boolean spelling (`yes`, `off`, ...) that YAML 1.2 reads as a string.
pub(super) fn yaml11_bool<N: Tree>(node: &N) -> Option<(String, bool)> {
    let text = node.as_str()?;
    if !node.plain() {
        return None;
    }
    let b = crate::yaml::yaml11_bool_word(text)?;
    Some((text.to_string(), b))
}

fn is_base64(text: &str) -> bool {
    let t = text.trim_end_matches('=');
    text.len().is_multiple_of(4)
        && text.len() - t.len() <= 2
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// `owner` assigns `name`, whose TOSCA 2.0 definition fixes its `value` (§9.4 Property Definition).
fn fixed_assigned(
    owner: impl fmt::Display + Copy,
    name: &str,
    at: crate::source::Span,
) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_TYPE_MISMATCH,
        format!("{owner} assigns property `{name}`, whose definition fixes its `value`"),
    )
    .at_with(at, "a fixed value cannot be changed")
    .hint("remove the assignment: a property defined with `value` has that value wherever it is used (§9.4 Property Definition)")
}

/// "`owner` assigns property `x`, which its type does not define", with the closest name.
fn unknown_name(
    owner: impl fmt::Display + Copy,
    section: &str,
    name: &str,
    at: crate::source::Span,
    defined: &IndexMap<&str, Definition>,
) -> Diagnostic {
    let what = match section {
        "properties" => "property",
        "attributes" => "attribute",
        other => other,
    };
    let known: Vec<&str> = defined.keys().copied().collect();
    let otherwise = if known.is_empty() {
        format!("its type defines no {section}")
    } else {
        format!("{section} defined: {}", known.join(", "))
    };
    Diagnostic::error(
        codes::TOSCA_UNKNOWN_NAME,
        format!("{owner} assigns {what} `{name}`, which its type does not define"),
    )
    .at(at)
    .did_you_mean(name, &known, Some(otherwise))
}

#[cfg(test)]
#[path = "typing_tests.rs"]
pub(super) mod tests;
