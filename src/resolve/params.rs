//! Inputs and outputs of the service template, and input values from the command line.

use indexmap::IndexMap;

use super::Locator;
use super::typing::{Definition, Typing};
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Input, Output, Schema, Value};
use crate::model::{Model, TopologyTemplate, TypeKind};
use crate::source::Span;
use crate::yaml::Node;

/// Input values given on the command line (`--inputs FILE`, `--set NAME=VALUE`), later ones
/// winning, each with where it was given.
#[derive(Debug, Default, Clone)]
pub struct Bindings {
    values: IndexMap<String, (Node, Option<Span>)>,
    /// Values already read and typed elsewhere: a substituted node's properties given to the
    /// substituting template's inputs ([`super::substitution`]).
    resolved: IndexMap<String, Value>,
}

impl Bindings {
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `name` to a YAML value; `span` is where the name was given (a line of an inputs
    /// file), `None` for `--set`.
    pub fn set(&mut self, name: String, value: Node, span: Option<Span>) {
        self.values.insert(name, (value, span));
    }

    /// Binds `name` to a value that is already read (a substituted node's property).
    pub fn set_value(&mut self, name: String, value: Value) {
        self.resolved.insert(name, value);
    }

    /// Whether `name` has a value, given either way.
    pub fn has_value(&self, name: &str) -> bool {
        self.values.contains_key(name) || self.resolved.contains_key(name)
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.resolved.is_empty()
    }

    /// The values in the order given: name, value, where the name was given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Node, Option<Span>)> {
        self.values
            .iter()
            .map(|(name, (node, span))| (name.as_str(), node, *span))
    }

    /// Drops a value (one a variable template took as a variability input).
    pub fn remove(&mut self, name: &str) {
        self.values.shift_remove(name);
    }
}

/// The inputs as IR, and each input's value for `get_input` (bound, else default, else none).
/// Defaults and bound values are read as values of the input's type and checked against its
/// constraints (`typing` reads without binding `get_input`).
pub fn inputs<'m>(
    typing: &mut Typing<'_, 'm>,
    template: &'m TopologyTemplate,
    bindings: &Bindings,
    unbound_is_error: bool,
    locator: &Locator,
    diags: &mut Diagnostics,
) -> (Vec<Input>, IndexMap<String, Option<Value>>) {
    let reader = typing.reader;
    let mut out = Vec::with_capacity(template.inputs.len());
    let mut values = IndexMap::with_capacity(template.inputs.len());
    // A fresh index, so looking up data types for schemas reports nothing twice.
    let mut ancestry = super::types::Ancestry::new(typing.model);
    for named in &template.inputs {
        let def = named.def.as_map();
        let get = |key: &str| def.and_then(|d| d.get(key));
        let text = |key: &str| get(key).and_then(|n| n.scalar_text()).map(str::to_string);
        let type_name = text("type");
        let path = format!("inputs.{}", named.name);
        let mut typed = |node: &Node, diags: &mut Diagnostics| match def {
            Some(map) => typing.value(node, &Definition::single(map), &path, diags),
            None => reader.value(node, diags),
        };
        let default = get("default").map(|n| typed(n, diags));
        let bound = bindings
            .resolved
            .get(&named.name)
            .cloned()
            .or_else(|| {
                bindings
                    .values
                    .get(&named.name)
                    .map(|(n, _)| typed(n, diags))
            })
            .or_else(|| get("value").map(|n| typed(n, diags)));
        let constraints = match get("constraints").map(|n| reader.value(n, diags)) {
            Some(Value::List(items)) => items,
            Some(other) => vec![other],
            None => Vec::new(),
        };
        let metadata = match get("metadata").map(|n| reader.metadata(n, diags)) {
            Some(Value::Map(m)) => *m,
            _ => IndexMap::new(),
        };
        let sensitive = matches!(
            metadata.get("sensitive"),
            Some(Value::Boolean(true)) | Some(Value::String(_))
        ) || type_name
            .as_deref()
            .is_some_and(|t| t.ends_with("Credential"));
        let required = !matches!(
            get("required").and_then(|n| n.as_scalar()).map(|s| s.core),
            Some(crate::yaml::Core::Bool(false))
        );
        if required && bound.is_none() && default.is_none() && unbound_is_error {
            diags.push(unbound_input(&named.name, named.span));
        }
        values.insert(
            named.name.clone(),
            bound.clone().or_else(|| default.clone()),
        );
        out.push(Input {
            name: named.name.clone(),
            type_name,
            description: text("description"),
            required,
            default,
            value: bound,
            constraints,
            validation: get("validation").map(|n| reader.value(n, diags)),
            metadata,
            sensitive,
            schema: def.and_then(|d| schema(typing.model, &mut ancestry, d, 0)),
            location: locator.at(named.span),
        });
    }
    let declared: Vec<&str> = template.inputs.iter().map(|n| n.name.as_str()).collect();
    check_unused_bindings(bindings, &declared, diags);
    (out, values)
}

/// A required input with no value, where the output needs every value (`ir`, `k8s`). Elsewhere
/// it is no problem of the template: `check` judges a template whose values come at deployment,
/// Terraform declares the input as a variable, and a diagram shows `get_input(name)`.
fn unbound_input(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_UNBOUND_INPUT,
        format!("required input `{name}` has no value"),
    )
    .at(span)
    .hint(format!(
        "give it a value with --set {name}=VALUE or in an --inputs FILE.yaml, or add a `default` to its definition"
    ))
}

/// Types whose values need no schema.
const PRIMITIVE: &[&str] = &[
    "string",
    "integer",
    "float",
    "boolean",
    "timestamp",
    "version",
    "bytes",
    "null",
    "range",
    "any",
];

/// How deep data types may nest in a schema; deeper (or recursive) types stop there.
const MAX_SCHEMA_DEPTH: usize = 8;

/// The schema of a parameter or property definition: `None` for primitive types and scalars.
fn schema(
    model: &Model,
    ancestry: &mut super::types::Ancestry,
    def: &crate::yaml::Map,
    depth: usize,
) -> Option<Schema> {
    let type_name = def.get("type")?.scalar_text()?.to_string();
    let short = type_name.rsplit(':').next().unwrap_or(&type_name);
    if PRIMITIVE.contains(&short) || short.starts_with("scalar-unit") || depth > MAX_SCHEMA_DEPTH {
        return None;
    }
    let required = def.get("default").is_none()
        && !matches!(
            def.get("required")
                .and_then(|n| n.as_scalar())
                .map(|s| s.core),
            Some(crate::yaml::Core::Bool(false))
        );
    let entry = def.get("entry_schema").and_then(|e| match e.as_map() {
        Some(m) => schema_or_primitive(model, ancestry, m, depth + 1),
        None => e.scalar_text().map(|t| Schema {
            type_name: t.to_string(),
            entry: None,
            properties: IndexMap::new(),
            required: true,
        }),
    });
    let mut properties = IndexMap::new();
    if !matches!(short, "list" | "map") {
        // The input's type was already read, and reported, where the input was read.
        let span = def.get("type").map(|n| n.span)?;
        let chain = ancestry.of_reported_elsewhere(model, TypeKind::Data, &type_name, span);
        for typedef in super::types::definitions(model, TypeKind::Data, &chain)
            .into_iter()
            .rev()
        {
            let Some(props) = typedef
                .def
                .as_map()
                .and_then(|d| d.get("properties"))
                .and_then(|p| p.as_map())
            else {
                continue;
            };
            for entry in props.entries() {
                let (Some(name), Some(pdef)) = (entry.key.scalar_text(), entry.value.as_map())
                else {
                    continue;
                };
                if let Some(s) = schema_or_primitive(model, ancestry, pdef, depth + 1) {
                    properties.insert(name.to_string(), s);
                }
            }
        }
    }
    Some(Schema {
        type_name,
        entry: entry.map(Box::new),
        properties,
        required,
    })
}

/// Like [`schema`], but a primitive type is a schema of its name alone.
fn schema_or_primitive(
    model: &Model,
    ancestry: &mut super::types::Ancestry,
    def: &crate::yaml::Map,
    depth: usize,
) -> Option<Schema> {
    schema(model, ancestry, def, depth).or_else(|| {
        let type_name = def.get("type")?.scalar_text()?.to_string();
        Some(Schema {
            type_name,
            entry: None,
            properties: IndexMap::new(),
            required: def.get("default").is_none()
                && !matches!(
                    def.get("required")
                        .and_then(|n| n.as_scalar())
                        .map(|s| s.core),
                    Some(crate::yaml::Core::Bool(false))
                ),
        })
    })
}

/// A value given for an input the template does not declare is a mistake worth an error: the
/// user believes it changes something.
pub fn check_unused_bindings(bindings: &Bindings, declared: &[&str], diags: &mut Diagnostics) {
    for (name, (_, span)) in &bindings.values {
        if declared.contains(&name.as_str()) {
            continue;
        }
        let mut d = Diagnostic::error(
            codes::CLI_INPUTS,
            format!("input `{name}` is given a value but the template declares no such input"),
        );
        if let Some(span) = span {
            d = d.at(*span);
        }
        let otherwise = if declared.is_empty() {
            "this template has no inputs".to_string()
        } else {
            format!("declared inputs: {}", declared.join(", "))
        };
        diags.push(d.did_you_mean(name, declared, Some(otherwise)));
    }
}

/// The outputs as IR.
pub fn outputs(
    reader: &ValueReader,
    locator: &Locator,
    template: &TopologyTemplate,
    diags: &mut Diagnostics,
) -> Vec<Output> {
    template
        .outputs
        .iter()
        .map(|named| {
            let def = named.definition();
            let value = match def.and_then(|d| d.value.as_ref()) {
                Some(v) => reader.value(v, diags),
                None => {
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_MISSING_KEY,
                            format!("output `{}` has no `value`", named.name),
                        )
                        .at(named.span)
                        .hint("add `value: <a value or a function such as get_attribute>`"),
                    );
                    Value::Null
                }
            };
            Output {
                name: named.name.clone(),
                type_name: def.and_then(|d| d.type_text()).map(str::to_string),
                description: def
                    .and_then(|d| d.description.as_ref())
                    .map(|t| t.text.clone()),
                value,
                location: locator.at(named.span),
            }
        })
        .collect()
}
