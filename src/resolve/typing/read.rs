//! Reading a YAML value as a value of a type: primitives, scalars with units, ranges, lists and
//! maps by their schemas, data types field by field, and the mismatch reported when it is not one.

use std::fmt;

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, Findings, codes};
use crate::ir::{Dialect, Value};
use crate::model::TypeDef;
use crate::model::definitions::Schema;
use crate::model::literals::{self};
use crate::model::tree::{Pair, Shape as TreeShape, Tree};
use crate::model::value::Data;
use crate::resolve::calls::syntax;
use crate::resolve::constraints;
use crate::resolve::port_spec;
use crate::resolve::validation;

use super::place::Place;
use super::{
    Definition, MAX_TYPE_DEPTH, SchemaRef, Shape, Typing, definitions_of, fixed_assigned,
    is_base64, major_only, on_tree, shape_name, unknown_name, yaml11_bool,
};

/// The collection schemas a value is read with: a list's or map's `entry_schema`, a map's
/// `key_schema` (none for a value of a named type, whose own definition gives them).
#[derive(Clone, Copy)]
pub(super) struct Schemas<'m> {
    pub entry: Option<SchemaRef<'m>>,
    pub key: Option<SchemaRef<'m>>,
}

impl<'m> Schemas<'m> {
    pub const NONE: Self = Schemas {
        entry: None,
        key: None,
    };

    /// The schemas a definition (property, parameter, schema) writes.
    pub fn of(def: &Definition<'m>) -> Self {
        Schemas {
            entry: def.entry_schema(),
            key: def.key_schema(),
        }
    }
}

impl<'m> Typing<'_, 'm> {
    /// `node` as a value of `type_name`, with the collection schemas given, checked against
    /// the constraints of its data type chain.
    pub(super) fn typed<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        type_name: &str,
        schemas: Schemas<'m>,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> Value {
        let (value, chain) = self.read_as(node, type_name, schemas, path, depth, diags);
        // What follows only finds: a reading that keeps nothing skips it.
        if !diags.judges() {
            return value;
        }
        if let Value::Map(fields) = &value {
            port_spec::check(&chain, fields, node.span(), path, diags);
        }
        // A data type derived from a primitive (or another data type) adds its constraints.
        for def in &chain {
            let Some(clauses) = def.def.as_map().and_then(|m| m.get("constraints")) else {
                continue;
            };
            for clause in clauses.as_seq().unwrap_or(std::slice::from_ref(clauses)) {
                constraints::check(self, &value, node, clause, type_name, path, diags);
            }
        }
        if self.model.dialect == Dialect::Tosca2 {
            // TOSCA 2.0: the validation clauses of the type chain all apply (§9.2 Data Type).
            for def in &chain {
                if let Some(clause) = def.def.as_map().and_then(|m| m.get("validation")) {
                    validation::check(self, &value, node, clause, type_name, path, diags);
                }
            }
            if let Value::Scalar(scalar) = &value {
                self.scalar_number(scalar, &chain, node, path, diags);
            }
        }
        value
    }

    /// The number of a TOSCA 2.0 scalar is a value of the scalar type's `data_type` (§9.1.2.2
    /// scalar): an integer for an integer type, and valid against that type's validation clauses.
    pub(super) fn scalar_number<N: Tree, F: Findings>(
        &mut self,
        scalar: &crate::ir::ScalarUnit,
        chain: &[&'m TypeDef],
        node: &N,
        path: &dyn fmt::Display,
        diags: &mut F,
    ) {
        let data_type = chain
            .iter()
            .find_map(|d| d.def.as_map()?.get("data_type"))
            .map_or_else(|| "float".to_string(), |t| self.identity(t));
        let data_type = data_type.as_str();
        let (shape, number_chain) = self.shape(data_type);
        let number = if matches!(shape, Shape::Integer) {
            let written = scalar.text.split_whitespace().next().unwrap_or_default();
            match written.parse::<i64>() {
                Ok(i) => Value::Integer(i),
                Err(_) => {
                    diags.find(|| {
                        Diagnostic::error(
                            codes::TOSCA_TYPE_MISMATCH,
                            format!(
                                "`{path}`: the number `{written}` of `{}` must be an integer, since the scalar type's data_type is `{data_type}`",
                                scalar.text
                            ),
                        )
                        .at(node.span())
                        .hint("write a whole number, or a smaller unit (§9.1.2.2 scalar: the number is of the data_type)")
                    });
                    return;
                }
            }
        } else {
            Value::Float(scalar.number)
        };
        for def in &number_chain {
            if let Some(clause) = def.def.as_map().and_then(|m| m.get("validation")) {
                let what = format_args!("{path} (the number of `{}`)", scalar.text);
                validation::check(self, &number, node, clause, data_type, &what, diags);
            }
        }
    }

    /// `node` read as a value of `type_name` (its structure and literal forms, no constraints
    /// of the type itself), with the data type chain whose constraints apply.
    pub(super) fn read_as<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        type_name: &str,
        schemas: Schemas<'m>,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> (Value, Vec<&'m TypeDef>) {
        let read = self.read_fitting(node, type_name, schemas, path, depth, diags);
        match read {
            Ok(read) => read,
            // Not of the type: no constraints of its chain apply.
            Err(expected) => (
                self.mismatch(node, type_name, path, &expected, diags),
                Vec::new(),
            ),
        }
    }

    /// [`Self::read_as`] up to its verdict: the value and chain, or, when `node` itself is not
    /// of the type, what a value of it is (reported by `read_as`, by nobody here). What is
    /// wrong deeper inside (a field, an entry) is reported to `diags` if any.
    pub(super) fn read_fitting<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        type_name: &str,
        schemas: Schemas<'m>,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> Result<(Value, Vec<&'m TypeDef>), String> {
        if self.reader.is_call(node) || self.reader.is_function_typo(node) || depth > MAX_TYPE_DEPTH
        {
            return Ok((read_plain(self.reader, node, diags), Vec::new()));
        }
        if self.model.dialect == Dialect::Tosca2
            && node
                .entries()
                .and_then(|entries| syntax::malformed::<N>(entries))
                .is_some()
        {
            // A call among other keys: that, rather than the type the map does not fit. The
            // plain reading reports it (`ValueReader::value`), with what is wrong inside.
            return Ok((read_plain(self.reader, node, diags), Vec::new()));
        }
        let (shape, chain) = self.shape(type_name);
        let read = match shape {
            Shape::Unknown => Ok(read_plain(self.reader, node, diags)),
            Shape::List => self.read_list(node, schemas.entry, path, depth, diags),
            Shape::Map => self.read_map(node, schemas, path, depth, diags),
            Shape::Complex(defs) => self.read_data_type(node, &defs, type_name, path, depth, diags),
            // Two leniencies for the Simple Profile, whose tools read YAML 1.1 and took a bare
            // major as a version; TOSCA 2.0 is strict.
            Shape::Version if self.lenient() && major_only(node).is_some() => {
                Ok(self.major_only_version(node, path, diags))
            }
            Shape::Boolean if self.lenient() && yaml11_bool(node).is_some() => {
                Ok(yaml11_boolean(node, path, diags))
            }
            primitive => self.primitive(node, &primitive),
        };
        read.map(|value| (value, chain))
    }

    /// A `list`: each item against the `entry_schema`; else what was expected.
    fn read_list<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        entry_schema: Option<SchemaRef<'m>>,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> Result<Value, String> {
        let Some(items) = node.items() else {
            return Err("a list".to_string());
        };
        Ok(Value::List(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    self.entry(item, entry_schema, &Place::item(path, i), depth, diags)
                })
                .collect(),
        ))
    }

    /// A `map`: each key against the `key_schema` and each value against the `entry_schema`;
    /// else what was expected.
    fn read_map<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        schemas: Schemas<'m>,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> Result<Value, String> {
        let Some(entries) = node.entries() else {
            return Err("a map".to_string());
        };
        let mut out = IndexMap::with_capacity(entries.len());
        for entry in entries {
            let Some(key) = entry.key().scalar_text() else {
                report(diags, || self.reader.non_text_key(entry.key()));
                continue;
            };
            if let Some(key_schema) = schemas.key {
                let key_path = Place::key(path, key);
                self.entry(entry.key(), Some(key_schema), &key_path, depth, diags);
            }
            let value_path = Place::field(path, key);
            let value = self.entry(entry.value(), schemas.entry, &value_path, depth, diags);
            out.insert(self.reader.unescape(key).to_string(), value);
        }
        Ok(Value::Map(Box::new(out)))
    }

    /// A value of a data type with properties (`defs`, its chain): the fields written, each
    /// against its definition, then the defaults of those not written, and an error for each
    /// required one missing; else what was expected.
    fn read_data_type<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        defs: &[&'m TypeDef],
        type_name: &str,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> Result<Value, String> {
        let Some(entries) = node.entries() else {
            return Err("a map of its properties".to_string());
        };
        let fields = definitions_of(defs, "properties");
        let owner = format!("a value of data type `{type_name}`");
        let mut out = IndexMap::new();
        for entry in entries {
            let Some(key) = entry.key().scalar_text() else {
                continue;
            };
            let value = match fields.get(key) {
                Some(def) if self.fixed_value("properties", def).is_some() => {
                    report(diags, || fixed_assigned(&owner, key, entry.key().span()));
                    continue;
                }
                Some(def) => {
                    let field_path = Place::field(path, key);
                    self.value_at(entry.value(), def, &field_path, depth + 1, diags)
                }
                None => {
                    let at = entry.key().span();
                    report(diags, || {
                        unknown_name(&owner, "properties", key, at, &fields)
                    });
                    read_plain(self.reader, entry.value(), diags)
                }
            };
            out.insert(key.to_string(), value);
        }
        for name in self.fill_defaults(&mut out, &fields, depth) {
            report(diags, || {
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!(
                        "`{path}` of data type `{type_name}` lacks its required property `{name}`"
                    ),
                )
                .at(node.span())
                .hint(format!("add `{name}:` to the value"))
            });
        }
        Ok(Value::Map(Box::new(out)))
    }

    /// Gives each field of `fields` that `out` lacks its fixed value or default; returns the
    /// required ones that have neither, in definition order.
    fn fill_defaults<'f>(
        &mut self,
        out: &mut IndexMap<String, Value>,
        fields: &IndexMap<&'f str, Definition<'m>>,
        depth: usize,
    ) -> Vec<&'f str> {
        let mut missing = Vec::new();
        for (name, def) in fields {
            if out.contains_key(*name) {
                continue;
            }
            let fixed = self.fixed_value("properties", def);
            if let Some(default) = fixed.or_else(|| def.default_written()) {
                // A default is checked where it is defined (`defaults::check`), so this
                // reading reports nothing.
                let value = on_tree!(default, |d| self.value_at(
                    d,
                    def,
                    name,
                    depth + 1,
                    &mut None::<&mut Diagnostics>
                ));
                out.insert(name.to_string(), value);
            } else if def.required() {
                missing.push(*name);
            }
        }
        missing
    }

    /// A Simple Profile `version` written as a bare major (`2`): read as `2.0`, with a warning.
    fn major_only_version<N: Tree, F: Findings>(
        &self,
        node: &N,
        path: &dyn fmt::Display,
        diags: &mut F,
    ) -> Value {
        let text = major_only(node).unwrap_or_default();
        report(diags, || {
            Diagnostic::warning(
                codes::TOSCA_TYPE_MISMATCH,
                format!("`{path}` is `{text}`, but a version has at least `major.minor`; read as `{text}.0`"),
            )
            .at(node.span())
            .hint(format!("write `{text}.0`"))
        });
        match literals::version(&format!("{text}.0")) {
            Ok(mut v) => {
                v.text = text;
                Value::Version(Box::new(v))
            }
            Err(_) => read_plain(self.reader, node, diags),
        }
    }

    /// One list entry or map value, against an `entry_schema` (a type name or a definition).
    pub(super) fn entry<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        schema: Option<SchemaRef<'m>>,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> Value {
        let definition = match schema {
            None => return read_plain(self.reader, node, diags),
            Some(SchemaRef::Yaml(s)) => match (s.scalar_text(), s.as_map()) {
                (Some(_), _) => return self.named_entry(node, s, path, depth, diags),
                (_, Some(map)) => Definition::single(map),
                _ => return read_plain(self.reader, node, diags),
            },
            Some(SchemaRef::Typed(s)) => match s {
                Schema::Type(name) => return self.named_entry(node, name, path, depth, diags),
                Schema::Definition(def) => Definition::typed(def),
                Schema::Malformed(_) => return read_plain(self.reader, node, diags),
            },
        };
        self.value_at(node, &definition, path, depth + 1, diags)
    }

    /// One list entry or map value of the type named by `name`, an `entry_schema` that is a
    /// type's name.
    fn named_entry<N: Tree, S: Tree, F: Findings>(
        &mut self,
        node: &N,
        name: &S,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> Value {
        let type_name = self.identity(name);
        self.typed(node, &type_name, Schemas::NONE, path, depth + 1, diags)
    }

    /// A value against a full definition (type, schemas, constraints), `depth` data types deep.
    pub(super) fn value_at<N: Tree, F: Findings>(
        &mut self,
        node: &N,
        def: &Definition<'m>,
        path: &dyn fmt::Display,
        depth: usize,
        diags: &mut F,
    ) -> Value {
        let Some(type_node) = def.type_written() else {
            return read_plain(self.reader, node, diags);
        };
        let type_name = &on_tree!(type_node, |t| self.identity(t));
        let value = self.typed(node, type_name, Schemas::of(def), path, depth, diags);
        // What follows only finds: a reading that keeps nothing skips it.
        if !diags.judges() {
            return value;
        }
        for clause in def.constraints() {
            on_tree!(clause, |c| constraints::check(
                self, &value, node, c, type_name, path, diags
            ));
        }
        if self.model.dialect == Dialect::Tosca2 {
            for clause in def.validations() {
                on_tree!(clause, |c| validation::check(
                    self, &value, node, c, type_name, path, diags
                ));
            }
        }
        value
    }

    /// A primitive value, or what was expected.
    pub(super) fn primitive<N: Tree>(&self, node: &N, shape: &Shape) -> Result<Value, String> {
        if let Shape::Range = shape {
            return self.range(node).ok_or_else(|| {
                "a range: a list of two integers [lower, upper] with lower ≤ upper (upper may be UNBOUNDED)".to_string()
            });
        }
        let TreeShape::Scalar(text, data) = node.shape() else {
            return Err(format!(
                "a single {}",
                shape_name(shape).split_once(' ').map_or("", |(_, n)| n)
            ));
        };
        match (shape, data) {
            (Shape::String, Data::String) => {
                Ok(Value::String(self.reader.unescape(text).to_string()))
            }
            (Shape::Integer, Data::Integer(i)) => Ok(Value::Integer(i)),
            // Infinities and NaN are floats too (the IR writes them as `.inf`, `.nan`).
            (Shape::Float, Data::Float(f)) => Ok(Value::Float(f)),
            (Shape::Float, Data::Integer(i)) => Ok(Value::Float(i as f64)),
            // TOSCA 2.0 booleans are the lowercase `true` and `false` only (§9.1.1.4; the YAML
            // core schema would also take `True` and `FALSE`).
            (Shape::Boolean, Data::Bool(_))
                if self.model.dialect == Dialect::Tosca2 && text != "true" && text != "false" =>
            {
                Err(format!(
                    "`{text}` is not a TOSCA 2.0 boolean: write `{}` in lowercase",
                    text.to_lowercase()
                ))
            }
            (Shape::Boolean, Data::Bool(b)) => Ok(Value::Boolean(b)),
            (Shape::Null, Data::Null) => Ok(Value::Null),
            (Shape::Timestamp, Data::String) => {
                literals::timestamp(text).map(|()| Value::Timestamp(text.to_string()))
            }
            (Shape::Version, Data::String | Data::Float(_) | Data::Integer(_)) => {
                literals::version(text).map(|v| Value::Version(Box::new(v)))
            }
            (Shape::Bytes, Data::String) => {
                if is_base64(text) {
                    Ok(Value::Bytes(text.to_string()))
                } else {
                    Err(format!("`{text}` is not Base64 text"))
                }
            }
            (Shape::Scalar(table), Data::String | Data::Integer(_) | Data::Float(_)) => {
                literals::scalar_unit(text, table).map(|s| Value::Scalar(Box::new(s)))
            }
            _ => Err(shape_name(shape).to_string()),
        }
    }

    /// A `range`: `[lower, upper]` of integers, `upper` possibly `UNBOUNDED`, lower ≤ upper.
    pub(super) fn range<N: Tree>(&self, node: &N) -> Option<Value> {
        let [lower, upper] = node.items()? else {
            return None;
        };
        let lower = match lower.shape() {
            TreeShape::Scalar(_, Data::Integer(i)) => i,
            _ => return None,
        };
        let upper_value = match upper.shape() {
            TreeShape::Scalar("UNBOUNDED", _) => Value::String("UNBOUNDED".into()),
            TreeShape::Scalar(_, Data::Integer(i)) if i >= lower => Value::Integer(i),
            _ => return None,
        };
        Some(Value::List(vec![Value::Integer(lower), upper_value]))
    }

    pub(super) fn mismatch<N: Tree, F: Findings>(
        &self,
        node: &N,
        type_name: &str,
        path: &dyn fmt::Display,
        expected: &str,
        diags: &mut F,
    ) -> Value {
        let found = match node.scalar_text() {
            Some(text) => format!("`{text}` ({})", node.describe()),
            None => node.describe().to_string(),
        };
        let mut message =
            format!("`{path}` must be {expected} (type `{type_name}`), found {found}");
        if expected.starts_with('`') {
            // A literal reader's own reason already says what is wrong and what would be right.
            message = format!("`{path}` (type `{type_name}`): {expected}");
        }
        report(diags, || {
            Diagnostic::error(codes::TOSCA_TYPE_MISMATCH, message)
                .at(node.span())
                .hint(format!(
                    "write a value of type `{type_name}`, or a function such as get_input"
                ))
        });
        // Not a value of its type, the node is kept as written; this is its only reading, so
        // what is wrong inside it as a value (an undeclared input, a misspelt function) is
        // reported too.
        read_plain(self.reader, node, diags)
    }
}

/// A Simple Profile `boolean` written as YAML 1.1 writes one (`yes`, `off`): read as the
/// boolean, with a warning.
fn yaml11_boolean<N: Tree, F: Findings>(node: &N, path: &dyn fmt::Display, diags: &mut F) -> Value {
    let (text, b) = yaml11_bool(node).unwrap_or_default();
    report(diags, || {
        Diagnostic::warning(
            codes::TOSCA_TYPE_MISMATCH,
            format!("`{path}` is `{text}`, a string in YAML 1.2; read as the boolean {b}, as YAML 1.1 would"),
        )
        .at(node.span())
        .hint(format!("write `{b}`"))
    });
    Value::Boolean(b)
}

/// Reports the diagnostic `make` makes, if the reading keeps findings: a reading with `None`
/// (a default, checked where it is defined) makes no diagnostic.
fn report<F: Findings>(diags: &mut F, make: impl FnOnce() -> Diagnostic) {
    diags.find(make);
}

/// `node` as a plain value ([`ValueReader`](crate::resolve::values::ValueReader)), its
/// findings to `diags`.
fn read_plain<N: Tree, F: Findings>(
    reader: &crate::resolve::values::ValueReader,
    node: &N,
    diags: &mut F,
) -> Value {
    reader.value_to(node, diags)
}
