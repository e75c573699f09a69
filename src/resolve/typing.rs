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
use std::rc::Rc;

use indexmap::IndexMap;

use super::constraints;
use super::patterns::Patterns;
use super::type_parts::{ChainSection, SectionRef};
use super::types::{Ancestry, definitions};
use super::validation;
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, Value};
use crate::model::literals::{self, UnitTable};
use crate::model::{Model, TypeDef, TypeKind};
use crate::yaml::{Map, Node as Yaml};

mod layers;
pub use layers::definitions_of;

/// Nesting of data types within data types checked at most; deeper values are taken as they are
/// (a recursive data type is legal TOSCA, a value cannot nest forever, but the YAML depth limit
/// already bounds it; this bounds the work per value).
const MAX_TYPE_DEPTH: usize = 64;

/// One property (or parameter) definition seen through the refinements along a type chain.
#[derive(Debug, Clone, Default)]
pub struct Definition<'m> {
    /// The definition maps, most specific first.
    pub(super) layers: Vec<&'m Map>,
    /// The value of a one-line refinement `<name>: <value>` more specific than every layer
    /// that gives a `default` or `value` (see [`definitions_of`]).
    pub(super) one_line: Option<&'m Yaml>,
}

impl<'m> Definition<'m> {
    /// A definition written in one place (an input, an entry_schema).
    pub fn single(map: &'m Map) -> Self {
        Definition {
            layers: vec![map],
            one_line: None,
        }
    }

    /// The most specific value of `key`.
    pub fn get(&self, key: &str) -> Option<&'m Yaml> {
        self.layers.iter().find_map(|m| m.get(key))
    }

    pub fn type_name(&self) -> Option<&'m str> {
        self.get("type").and_then(Yaml::scalar_text)
    }

    /// `required` defaults to true (Simple Profile and TOSCA 2.0 alike); a YAML 1.1 `no` is
    /// false, as the Simple Profile's own files mean it (see [`super::required_keyname`]).
    pub fn required(&self) -> bool {
        let required = self.get("required");
        let core = required.and_then(|n| n.as_scalar()).map(|s| s.core);
        !(core == Some(crate::yaml::Core::Bool(false))
            || required.and_then(yaml11_bool).is_some_and(|(_, b)| !b))
    }

    /// The `validation` clause of every layer: a refinement's is ANDed with what it inherits
    /// (§9.4 Property Definition).
    fn validations(&self) -> Vec<&'m Yaml> {
        self.layers
            .iter()
            .filter_map(|m| m.get("validation"))
            .collect()
    }

    /// Every constraint clause of every layer: a refinement adds to what it inherits.
    fn constraints(&self) -> Vec<&'m Yaml> {
        self.layers
            .iter()
            .filter_map(|m| m.get("constraints"))
            .flat_map(|c| c.as_seq().unwrap_or(std::slice::from_ref(c)))
            .collect()
    }
}

/// [`definitions_of`] remembered per type chain and section: every template of a type reads the
/// same definitions, so they are merged once per type, not once per template.
#[derive(Debug, Default)]
pub struct DefinitionsCache<'m> {
    /// (the chain's types, by address in the model; section) → its definitions.
    merged: DefinitionsBySection<'m>,
}

type DefinitionsBySection<'m> =
    IndexMap<ChainSection, Rc<IndexMap<&'m str, Definition<'m>>>, foldhash::fast::RandomState>;

impl<'m> DefinitionsCache<'m> {
    /// The definitions of `section` along `defs`, as [`definitions_of`] gives them. Asked
    /// several times per template: a hit allocates nothing.
    pub fn of(
        &mut self,
        defs: &[&'m TypeDef],
        section: &str,
    ) -> Rc<IndexMap<&'m str, Definition<'m>>> {
        if let Some(known) = self.merged.get(&SectionRef(defs, section)) {
            return Rc::clone(known);
        }
        let made = Rc::new(definitions_of(defs, section));
        self.merged
            .insert(ChainSection::of(defs, section), Rc::clone(&made));
        made
    }
}

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
            if let Some(default) = fixed.or(def.one_line).or_else(|| def.get("default")) {
                // A default that does not fit its type is the type's mistake, reported once
                // where types are checked (`defaults::check`), not at every template.
                let mut quiet = Diagnostics::with_cap(0);
                out.insert(name.to_string(), self.value(default, def, name, &mut quiet));
            }
        }
        out
    }

    /// The fixed `value` of a TOSCA 2.0 property definition, which no template may change.
    fn fixed_value(&self, section: &str, def: &Definition<'m>) -> Option<&'m Yaml> {
        (self.model.dialect == Dialect::Tosca2 && section == "properties")
            .then(|| def.one_line.or_else(|| def.get("value")))
            .flatten()
    }

    /// Only the typed assignments of `section` in `assigned`, against `definitions`.
    pub fn assigned(
        &mut self,
        owner: &str,
        definitions: &IndexMap<&'m str, Definition<'m>>,
        section: &str,
        assigned: Option<&Yaml>,
        check_names: bool,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        let mut out = IndexMap::new();
        let entries = assigned
            .and_then(Yaml::as_map)
            .map_or(&[][..], Map::entries);
        for entry in entries {
            let Some(name) = entry.key.scalar_text() else {
                continue;
            };
            // An attribute may be assigned in extended form, `{description, value}`.
            let node = match entry.value.as_map() {
                Some(m)
                    if section == "attributes"
                        && !m.is_empty()
                        && m.entries().iter().all(|e| {
                            matches!(e.key.scalar_text(), Some("description" | "value"))
                        }) =>
                {
                    match m.get("value") {
                        Some(v) => v,
                        None => continue,
                    }
                }
                _ => &entry.value,
            };
            let value = match definitions.get(name) {
                Some(def) if self.fixed_value(section, def).is_some() => {
                    diags.push(fixed_assigned(owner, name, entry.key.span));
                    continue;
                }
                Some(def) => self.value(node, def, &format!("{section}.{name}"), diags),
                None => {
                    if check_names {
                        diags.push(unknown_name(owner, section, name, entry, definitions));
                    }
                    self.reader.value(node, diags)
                }
            };
            out.insert(name.to_string(), value);
        }
        out
    }

    /// Reports required properties among a type chain's `properties` definitions that `values`
    /// does not hold. `at` is where the template is written.
    pub fn check_required(
        &self,
        owner: &str,
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
    pub fn value(
        &mut self,
        node: &Yaml,
        def: &Definition<'m>,
        path: &str,
        diags: &mut Diagnostics,
    ) -> Value {
        self.value_at(node, def, path, 0, diags)
    }

    /// Whether the Simple Profile's YAML 1.1 habits are read with a warning (not in TOSCA 2.0).
    fn lenient(&self) -> bool {
        self.model.dialect != Dialect::Tosca2
    }

    /// `node` read against a schema definition (a type name, or a map with `type`,
    /// `entry_schema`, `key_schema` and `validation`), as a function signature declares its
    /// arguments (§10.4 Function Definitions).
    pub fn schema_value(
        &mut self,
        node: &Yaml,
        schema: &'m Yaml,
        path: &str,
        diags: &mut Diagnostics,
    ) -> Value {
        self.entry(node, Some(schema), path, 0, diags)
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

    /// A constraint's operand read as a value of the constrained type.
    pub fn operand(
        &mut self,
        node: &Yaml,
        type_name: &str,
        operator: &str,
        diags: &mut Diagnostics,
    ) -> Value {
        let path = format!("the operand of `{operator}`");
        self.read_as(node, type_name, None, None, &path, 0, diags).0
    }

    /// `node` as a value of `type_name`, with the collection schemas given, checked against
    /// the constraints of its data type chain.
    #[allow(clippy::too_many_arguments)]
    fn typed(
        &mut self,
        node: &Yaml,
        type_name: &str,
        entry_schema: Option<&'m Yaml>,
        key_schema: Option<&'m Yaml>,
        path: &str,
        depth: usize,
        diags: &mut Diagnostics,
    ) -> Value {
        let (value, chain) = self.read_as(
            node,
            type_name,
            entry_schema,
            key_schema,
            path,
            depth,
            diags,
        );
        if let Value::Map(fields) = &value {
            super::port_spec::check(&chain, fields, node.span, path, diags);
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
    fn scalar_number(
        &mut self,
        scalar: &crate::ir::ScalarUnit,
        chain: &[&'m TypeDef],
        node: &Yaml,
        path: &str,
        diags: &mut Diagnostics,
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
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_TYPE_MISMATCH,
                            format!(
                                "`{path}`: the number `{written}` of `{}` must be an integer, since the scalar type's data_type is `{data_type}`",
                                scalar.text
                            ),
                        )
                        .at(node.span)
                        .hint("write a whole number, or a smaller unit (§9.1.2.2 scalar: the number is of the data_type)"),
                    );
                    return;
                }
            }
        } else {
            Value::Float(scalar.number)
        };
        for def in &number_chain {
            if let Some(clause) = def.def.as_map().and_then(|m| m.get("validation")) {
                let what = format!("{path} (the number of `{}`)", scalar.text);
                validation::check(self, &number, node, clause, data_type, &what, diags);
            }
        }
    }

    /// `node` read as a value of `type_name` (its structure and literal forms, no constraints
    /// of the type itself), with the data type chain whose constraints apply.
    #[allow(clippy::too_many_arguments)]
    fn read_as(
        &mut self,
        node: &Yaml,
        type_name: &str,
        entry_schema: Option<&'m Yaml>,
        key_schema: Option<&'m Yaml>,
        path: &str,
        depth: usize,
        diags: &mut Diagnostics,
    ) -> (Value, Vec<&'m TypeDef>) {
        if self.reader.is_call(node) || self.reader.is_function_typo(node) || depth > MAX_TYPE_DEPTH
        {
            return (self.reader.value(node, diags), Vec::new());
        }
        if self.model.dialect == Dialect::Tosca2
            && let Some(malformed) = node.as_map().and_then(super::calls::syntax::malformed)
        {
            // A call among other keys: that, rather than the type the map does not fit.
            diags.push(malformed);
            return (
                self.reader.value(node, &mut Diagnostics::with_cap(0)),
                Vec::new(),
            );
        }
        let (shape, chain) = self.shape(type_name);
        let value = match shape {
            Shape::Unknown => self.reader.value(node, diags),
            Shape::List => match node.as_seq() {
                Some(items) => Value::List(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| {
                            self.entry(item, entry_schema, &format!("{path}[{i}]"), depth, diags)
                        })
                        .collect(),
                ),
                None => {
                    return (
                        self.mismatch(node, type_name, path, "a list", diags),
                        Vec::new(),
                    );
                }
            },
            Shape::Map => match node.as_map() {
                Some(map) => {
                    let mut out = IndexMap::with_capacity(map.len());
                    for entry in map.entries() {
                        let Some(key) = entry.key.scalar_text() else {
                            diags.push(self.reader.non_text_key(&entry.key));
                            continue;
                        };
                        if let Some(key_schema) = key_schema {
                            self.entry(
                                &entry.key,
                                Some(key_schema),
                                &format!("{path} key `{key}`"),
                                depth,
                                diags,
                            );
                        }
                        let value = self.entry(
                            &entry.value,
                            entry_schema,
                            &format!("{path}.{key}"),
                            depth,
                            diags,
                        );
                        out.insert(self.reader.unescape(key).to_string(), value);
                    }
                    Value::Map(out)
                }
                None => {
                    return (
                        self.mismatch(node, type_name, path, "a map", diags),
                        Vec::new(),
                    );
                }
            },
            Shape::Complex(defs) => match node.as_map() {
                Some(_) => {
                    let fields = definitions_of(&defs, "properties");
                    let mut out = IndexMap::new();
                    for entry in node.as_map().map_or(&[][..], Map::entries) {
                        let Some(key) = entry.key.scalar_text() else {
                            continue;
                        };
                        let field_path = format!("{path}.{key}");
                        let value = match fields.get(key) {
                            Some(def) if self.fixed_value("properties", def).is_some() => {
                                diags.push(fixed_assigned(
                                    &format!("a value of data type `{type_name}`"),
                                    key,
                                    entry.key.span,
                                ));
                                continue;
                            }
                            Some(def) => {
                                self.value_at(&entry.value, def, &field_path, depth + 1, diags)
                            }
                            None => {
                                diags.push(unknown_name(
                                    &format!("a value of data type `{type_name}`"),
                                    "properties",
                                    key,
                                    entry,
                                    &fields,
                                ));
                                self.reader.value(&entry.value, diags)
                            }
                        };
                        out.insert(key.to_string(), value);
                    }
                    for (name, def) in &fields {
                        if out.contains_key(*name) {
                            continue;
                        }
                        let fixed = self.fixed_value("properties", def);
                        if let Some(default) = fixed.or_else(|| def.get("default")) {
                            let mut quiet = Diagnostics::with_cap(0);
                            let value = self.value_at(default, def, name, depth + 1, &mut quiet);
                            out.insert(name.to_string(), value);
                        } else if def.required() {
                            diags.push(
                                Diagnostic::error(
                                    codes::TOSCA_MISSING_KEY,
                                    format!("`{path}` of data type `{type_name}` lacks its required property `{name}`"),
                                )
                                .at(node.span)
                                .hint(format!("add `{name}:` to the value")),
                            );
                        }
                    }
                    Value::Map(out)
                }
                None => {
                    return (
                        self.mismatch(node, type_name, path, "a map of its properties", diags),
                        Vec::new(),
                    );
                }
            },
            // Two leniencies for the Simple Profile, whose tools read YAML 1.1 and took a bare
            // major as a version; TOSCA 2.0 is strict.
            Shape::Version if self.lenient() && major_only(node).is_some() => {
                let text = major_only(node).unwrap_or_default();
                diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!("`{path}` is `{text}`, but a version has at least `major.minor`; read as `{text}.0`"),
                    )
                    .at(node.span)
                    .hint(format!("write `{text}.0`")),
                );
                match literals::version(&format!("{text}.0")) {
                    Ok(mut v) => {
                        v.text = text;
                        Value::Version(v)
                    }
                    Err(_) => self.reader.value(node, diags),
                }
            }
            Shape::Boolean if self.lenient() && yaml11_bool(node).is_some() => {
                let (text, b) = yaml11_bool(node).unwrap_or_default();
                diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!("`{path}` is `{text}`, a string in YAML 1.2; read as the boolean {b}, as YAML 1.1 would"),
                    )
                    .at(node.span)
                    .hint(format!("write `{b}`")),
                );
                Value::Boolean(b)
            }
            primitive => match self.primitive(node, &primitive) {
                Ok(value) => value,
                Err(expected) => {
                    return (
                        self.mismatch(node, type_name, path, &expected, diags),
                        Vec::new(),
                    );
                }
            },
        };
        (value, chain)
    }

    /// One list entry or map value, against an `entry_schema` (a type name or a definition).
    fn entry(
        &mut self,
        node: &Yaml,
        schema: Option<&'m Yaml>,
        path: &str,
        depth: usize,
        diags: &mut Diagnostics,
    ) -> Value {
        match schema {
            None => self.reader.value(node, diags),
            Some(s) => match (s.scalar_text(), s.as_map()) {
                (Some(_), _) => {
                    let type_name = self.identity(s);
                    self.typed(node, &type_name, None, None, path, depth + 1, diags)
                }
                (_, Some(map)) => {
                    self.value_at(node, &Definition::single(map), path, depth + 1, diags)
                }
                _ => self.reader.value(node, diags),
            },
        }
    }

    /// A value against a full definition (type, schemas, constraints), `depth` data types deep.
    fn value_at(
        &mut self,
        node: &Yaml,
        def: &Definition<'m>,
        path: &str,
        depth: usize,
        diags: &mut Diagnostics,
    ) -> Value {
        let Some(type_node) = def.get("type") else {
            return self.reader.value(node, diags);
        };
        let type_name = &self.identity(type_node);
        let value = self.typed(
            node,
            type_name,
            def.get("entry_schema"),
            def.get("key_schema"),
            path,
            depth,
            diags,
        );
        for clause in def.constraints() {
            constraints::check(self, &value, node, clause, type_name, path, diags);
        }
        if self.model.dialect == Dialect::Tosca2 {
            for clause in def.validations() {
                validation::check(self, &value, node, clause, type_name, path, diags);
            }
        }
        value
    }

    /// A primitive value, or what was expected.
    fn primitive(&self, node: &Yaml, shape: &Shape) -> Result<Value, String> {
        use crate::yaml::Core;
        if let Shape::Range = shape {
            return self.range(node).ok_or_else(|| {
                "a range: a list of two integers [lower, upper] with lower ≤ upper (upper may be UNBOUNDED)".to_string()
            });
        }
        let Some(scalar) = node.as_scalar() else {
            return Err(format!(
                "a single {}",
                shape_name(shape).split_once(' ').map_or("", |(_, n)| n)
            ));
        };
        let text = scalar.text.as_str();
        match (shape, scalar.core) {
            (Shape::String, Core::Str) => Ok(Value::String(self.reader.unescape(text).to_string())),
            (Shape::Integer, Core::Int(i)) => Ok(Value::Integer(i)),
            // Infinities and NaN are floats too (the IR writes them as `.inf`, `.nan`).
            (Shape::Float, Core::Float(f)) => Ok(Value::Float(f)),
            (Shape::Float, Core::Int(i)) => Ok(Value::Float(i as f64)),
            // TOSCA 2.0 booleans are the lowercase `true` and `false` only (§9.1.1.4; the YAML
            // core schema would also take `True` and `FALSE`).
            (Shape::Boolean, Core::Bool(_))
                if self.model.dialect == Dialect::Tosca2 && text != "true" && text != "false" =>
            {
                Err(format!(
                    "`{text}` is not a TOSCA 2.0 boolean: write `{}` in lowercase",
                    text.to_lowercase()
                ))
            }
            (Shape::Boolean, Core::Bool(b)) => Ok(Value::Boolean(b)),
            (Shape::Null, Core::Null) => Ok(Value::Null),
            (Shape::Timestamp, Core::Str) => {
                literals::timestamp(text).map(|()| Value::Timestamp(text.to_string()))
            }
            (Shape::Version, Core::Str | Core::Float(_) | Core::Int(_)) => {
                literals::version(text).map(Value::Version)
            }
            (Shape::Bytes, Core::Str) => {
                if is_base64(text) {
                    Ok(Value::Bytes(text.to_string()))
                } else {
                    Err(format!("`{text}` is not Base64 text"))
                }
            }
            (Shape::Scalar(table), Core::Str | Core::Int(_) | Core::Float(_)) => {
                literals::scalar_unit(text, table).map(Value::Scalar)
            }
            _ => Err(shape_name(shape).to_string()),
        }
    }

    /// A `range`: `[lower, upper]` of integers, `upper` possibly `UNBOUNDED`, lower ≤ upper.
    fn range(&self, node: &Yaml) -> Option<Value> {
        use crate::yaml::Core;
        let [lower, upper] = node.as_seq()? else {
            return None;
        };
        let lower = match lower.as_scalar()?.core {
            Core::Int(i) => i,
            _ => return None,
        };
        let upper_value = match upper.as_scalar()? {
            s if s.text == "UNBOUNDED" => Value::String("UNBOUNDED".into()),
            s => match s.core {
                Core::Int(i) if i >= lower => Value::Integer(i),
                _ => return None,
            },
        };
        Some(Value::List(vec![Value::Integer(lower), upper_value]))
    }

    fn mismatch(
        &self,
        node: &Yaml,
        type_name: &str,
        path: &str,
        expected: &str,
        diags: &mut Diagnostics,
    ) -> Value {
        let found = match node.as_scalar() {
            Some(s) => format!("`{}` ({})", s.text, node.describe()),
            None => node.describe().to_string(),
        };
        let mut message =
            format!("`{path}` must be {expected} (type `{type_name}`), found {found}");
        if expected.starts_with('`') {
            // A literal reader's own reason already says what is wrong and what would be right.
            message = format!("`{path}` (type `{type_name}`): {expected}");
        }
        diags.push(
            Diagnostic::error(codes::TOSCA_TYPE_MISMATCH, message)
                .at(node.span)
                .hint(format!(
                    "write a value of type `{type_name}`, or a function such as get_input"
                )),
        );
        self.reader.value(node, &mut Diagnostics::with_cap(0))
    }

    /// The data type a `type` (or schema) node names where it is written: its identity, or
    /// the name as written when it is a built-in type or names nothing (reported where types
    /// are checked). The values read from here on carry identities, so a type name means the
    /// same thing wherever a value of it is checked.
    pub fn identity(&mut self, type_node: &Yaml) -> String {
        let written = type_node.scalar_text().unwrap_or_default();
        if primitive_shape(written, self.model.dialect).is_some() {
            return written.to_string();
        }
        self.ancestry
            .full_name(self.model, TypeKind::Data, written, type_node.span.file)
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

/// The primitive types by name (with the Simple Profile's `tosca:` prefixed spellings).
/// Whether `name` is a built-in type of `dialect` (a primitive, a collection, or one of the
/// Simple Profile's scalar-unit types), which no type definition needs to define.
pub fn is_built_in(name: &str, dialect: Dialect) -> bool {
    primitive_shape(name, dialect).is_some()
}

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
fn major_only(node: &Yaml) -> Option<String> {
    let text = &node.as_scalar()?.text;
    (!text.is_empty() && text.len() <= 18 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.clone())
}

/// A YAML 1.1 boolean spelling (`yes`, `off`, ...) that YAML 1.2 reads as a string.
pub(super) fn yaml11_bool(node: &Yaml) -> Option<(String, bool)> {
    let scalar = node.as_scalar()?;
    if scalar.core != crate::yaml::Core::Str || !scalar.style.is_plain() {
        return None;
    }
    let b = match scalar.text.to_ascii_lowercase().as_str() {
        "yes" | "y" | "on" => true,
        "no" | "n" | "off" => false,
        _ => return None,
    };
    Some((scalar.text.clone(), b))
}

fn is_base64(text: &str) -> bool {
    let t = text.trim_end_matches('=');
    text.len().is_multiple_of(4)
        && text.len() - t.len() <= 2
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// `owner` assigns `name`, whose TOSCA 2.0 definition fixes its `value` (§9.4 Property Definition).
fn fixed_assigned(owner: &str, name: &str, at: crate::source::Span) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_TYPE_MISMATCH,
        format!("{owner} assigns property `{name}`, whose definition fixes its `value`"),
    )
    .at_with(at, "a fixed value cannot be changed")
    .hint("remove the assignment: a property defined with `value` has that value wherever it is used (§9.4 Property Definition)")
}

/// "`owner` assigns property `x`, which its type does not define", with the closest name.
fn unknown_name(
    owner: &str,
    section: &str,
    name: &str,
    entry: &crate::yaml::Entry,
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
    .at(entry.key.span)
    .did_you_mean(name, &known, Some(otherwise))
}

#[cfg(test)]
#[path = "typing_tests.rs"]
pub(super) mod tests;
