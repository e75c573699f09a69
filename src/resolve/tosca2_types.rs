//! TOSCA 2.0 type definitions judged with their types known: every type a definition names
//! exists and is of the right kind, data types follow their derivation rules, scalar types their
//! unit rules, each `entry_schema` and `key_schema` fits the type it is written for, and
//! validation clauses call only functions that exist.
//!
//! Runs over every type read, used or not, so a mistake in a type no template uses is still
//! reported (a profile is mostly such types). Only for TOSCA 2.0: the Simple Profile's types are
//! judged by the 1.x rules where templates use them. Sections are those of
//! `tosca-2.0-csd07.md`; IDs those of the TOSCA 2.0 checklist.

use super::patterns::Patterns;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Call, Dialect, Value};
use crate::model::{Model, TypeDef, TypeKind};
use crate::source::Span;
use crate::yaml::{Core, Map, Node};

use super::calls::builtins::{self, BuiltIn, Group, Outcome};
use super::calls::table::{Function, signature_entries};
use super::calls::{Functions, reserved_name, syntax, unknown};
use super::interface_parameters;
use super::types::{Ancestry, definitions};
use super::typing::Typing;
use super::validation_clause_types::Misfit;
use super::values::ValueReader;

/// The built-in types of TOSCA 2.0 (§9.1 TOSCA Built-In Types); `scalar` is abstract.
pub(super) const BUILT_IN: &[&str] = &[
    "string",
    "integer",
    "float",
    "boolean",
    "bytes",
    "nil",
    "timestamp",
    "version",
    "list",
    "map",
];

/// The keynames only a scalar type has (§9.1.2.2 scalar).
const SCALAR_KEYS: &[&str] = &["data_type", "units", "canonical_unit", "prefixes"];

/// Checks every TOSCA 2.0 type definition and function signature of the model.
pub fn check(
    model: &Model,
    ancestry: &mut Ancestry,
    functions: &Functions,
    patterns: &Patterns,
    diags: &mut Diagnostics,
) {
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    let mut checker = Checker {
        model,
        ancestry,
        functions,
        patterns,
        diags,
    };
    for ((kind, id), def) in &model.types {
        if *kind == TypeKind::Data
            && (BUILT_IN.contains(&def.name.as_str()) || def.name == "scalar")
        {
            checker.diags.push(
                Diagnostic::error(
                    codes::TOSCA_DUPLICATE,
                    format!("`{}` is a built-in type; it cannot name a data type", def.name),
                )
                .at_with(def.span, "a reserved name")
                .hint("the built-in type names are reserved (§9.1 TOSCA Built-In Types, T2-NS-09): give the type another name, and derive it from the built-in type if it narrows it"),
            );
        }
        let Some(map) = def.def.as_map() else {
            continue;
        };
        checker.type_def(*kind, id, def, map);
    }
    // The service template's inputs are parameter definitions too (§9.8 Parameter
    // Definition). Outputs are left alone: their value is computed, and real suites write
    // placeholder output `type`s that no file defines.
    let parameters = model.topology.iter().flat_map(|t| &t.inputs);
    for named in parameters {
        if let Some(body) = named.def.as_map() {
            checker.definition_types(body, Missing::Here);
            checker.definition_validation(body);
        }
    }
    if let Some(template) = &model.topology {
        checker.workflows_and_triggers(template);
    }
    let service_functions = model.topology.iter().flat_map(|t| &t.functions);
    for named in model.functions.values().chain(service_functions) {
        checker.signatures(&named.def);
    }
    super::function_artifacts::check(model, checker.ancestry, checker.diags);
    super::refinement::new_definitions(model, checker.ancestry, checker.diags);
}

/// Where a definition's missing `entry_schema` is judged: here, or merged with the definition
/// it refines ([`super::entry_schema_required::written`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Missing {
    Here,
    Inherited,
}

pub(super) struct Checker<'a, 'm> {
    model: &'m Model,
    ancestry: &'a mut Ancestry,
    functions: &'a Functions<'m>,
    patterns: &'a Patterns,
    diags: &'a mut Diagnostics,
}

impl Checker<'_, '_> {
    /// One type, whose identity (key in the model) is `id`.
    fn type_def(&mut self, kind: TypeKind, id: &str, def: &TypeDef, map: &Map) {
        // Properties and attributes may inherit their entry schema: judged merged with what
        // they refine ([`super::entry_schema_required::written`]).
        for section in ["properties", "attributes"] {
            if let Some(defs) = map.get(section).and_then(Node::as_map) {
                self.value_defs(defs, Missing::Inherited);
            }
        }
        for interface in interface_parameters::interfaces_of(kind, map) {
            for parameters in interface_parameters::of_interface(interface, Dialect::Tosca2) {
                self.value_defs(parameters.map, Missing::Here);
            }
        }
        let names = |key: &'static str, of: TypeKind| (key, of);
        let lists: &[(&str, TypeKind)] = match kind {
            TypeKind::Capability => &[
                names("valid_source_node_types", TypeKind::Node),
                names("valid_relationship_types", TypeKind::Relationship),
            ],
            TypeKind::Relationship => &[
                names("valid_capability_types", TypeKind::Capability),
                names("valid_target_node_types", TypeKind::Node),
                names("valid_source_node_types", TypeKind::Node),
            ],
            TypeKind::Group => &[names("members", TypeKind::Node)],
            _ => &[],
        };
        for (key, of) in lists {
            self.type_list(map, key, *of);
        }
        if kind == TypeKind::Policy
            && let Some(targets) = map.get("targets").and_then(Node::as_seq)
        {
            for target in targets {
                let Some(target_name) = target.as_str() else {
                    continue;
                };
                let known = [TypeKind::Node, TypeKind::Group].into_iter().any(|k| {
                    self.ancestry
                        .full_name(self.model, k, target_name, target.span.file)
                        .is_some()
                });
                if !known && !self.model.incomplete_types {
                    self.ancestry.of(
                        self.model,
                        TypeKind::Node,
                        target_name,
                        target.span,
                        self.diags,
                    );
                }
            }
        }
        if kind == TypeKind::Data {
            self.data_type(id, def, map);
        }
        if kind == TypeKind::Node {
            let capabilities = map.get("capabilities").and_then(Node::as_map);
            for entry in capabilities.map_or(&[][..], |m| m.entries()) {
                if let Some(cap) = entry.key.as_str() {
                    reserved_name(cap, entry.key.span, "capability", self.diags);
                }
            }
            let requirements = map.get("requirements").and_then(Node::as_seq);
            for item in requirements.unwrap_or_default() {
                for entry in item.as_map().map_or(&[][..], |m| m.entries()) {
                    if let Some(req) = entry.key.as_str() {
                        reserved_name(req, entry.key.span, "requirement", self.diags);
                    }
                }
            }
        }
        if let Some(validation) = map.get("validation") {
            self.functions(validation);
            // A data type's own clause validates a value of the type itself (§9.2 Data Type).
            let base = (kind == TypeKind::Data)
                .then(|| {
                    let chain = self.ancestry.chain(self.model, kind, id);
                    chain
                        .last()
                        .filter(|b| BUILT_IN.contains(&b.as_str()) || *b == "scalar")
                        .cloned()
                })
                .flatten();
            let validated = (kind == TypeKind::Data).then_some(id);
            self.clause_types(validation, base.as_deref(), validated);
        }
    }

    /// The type problems of a validation clause on a value whose built-in base is `base`
    /// ([`super::validation_clause_types`]), its literals compared with `$value` read as values
    /// of the data type `validated` (an identity), if known.
    fn clause_types(&mut self, clause: &Node, base: Option<&str>, validated: Option<&str>) {
        let reader = ValueReader {
            dialect: Dialect::Tosca2,
            inputs: None,
            budget: None,
        };
        let mut typing = Typing {
            model: self.model,
            reader: &reader,
            ancestry: &mut *self.ancestry,
            patterns: self.patterns,
        };
        let mut fit = |operand: &Node| match validated {
            Some(type_name) => {
                typing
                    .operand_fit(operand, type_name)
                    .map(|_| ())
                    .map_err(|expected| Misfit {
                        type_name: type_name.to_string(),
                        expected,
                    })
            }
            None => Ok(()),
        };
        let found = super::validation_clause_types::problems(clause, base, &mut fit);
        self.diags.extend(found);
    }

    /// The identity of the data type a definition's `type` names ([`Typing::identity`]).
    fn identity(&mut self, type_node: &Node) -> String {
        let reader = ValueReader {
            dialect: Dialect::Tosca2,
            inputs: None,
            budget: None,
        };
        Typing {
            model: self.model,
            reader: &reader,
            ancestry: &mut *self.ancestry,
            patterns: self.patterns,
        }
        .identity(type_node)
    }

    /// A definition's `validation`: the functions it calls exist, and it type-checks against
    /// the definition's `type`.
    fn definition_validation(&mut self, body: &Map) {
        let Some(validation) = body.get("validation") else {
            return;
        };
        self.functions(validation);
        let base = body
            .get("type")
            .and_then(|t| Some((t.as_str()?, t.span)))
            .and_then(|(name, at)| self.built_in_base(name, at));
        let validated = body
            .get("type")
            .filter(|t| t.as_str().is_some())
            .map(|t| self.identity(t));
        self.clause_types(validation, base.as_deref(), validated.as_deref());
    }

    /// A workflow's inputs are parameter definitions (§13.2 Imperative Workflows, §9.8
    /// Parameter Definition), typed as the service template's are; its `precondition`, its
    /// steps' `filter` clauses and a policy trigger's `condition` are condition clauses, Boolean
    /// expressions (§13.2.1 Workflow Precondition Definition, §13.2.2 Workflow Step Definition,
    /// §16.5 Trigger Definition: "an optional Boolean expression"), judged as a validation
    /// clause is, with no `$value`; so is a substitution mapping's `substitution_filter`.
    fn workflows_and_triggers(&mut self, template: &crate::model::TopologyTemplate) {
        for workflow in template.workflows.iter().filter_map(|w| w.def.as_map()) {
            let inputs = workflow.get("inputs").and_then(Node::as_map);
            for body in inputs.map_or(&[][..], |m| m.entries()) {
                if let Some(body) = body.value.as_map() {
                    self.definition_types(body, Missing::Here);
                    self.definition_validation(body);
                }
            }
            let steps = workflow.get("steps").and_then(Node::as_map);
            let filters = steps
                .map_or(&[][..], |m| m.entries())
                .iter()
                .filter_map(|step| step.value.as_map()?.get("filter")?.as_seq())
                .flatten();
            for clause in workflow.get("precondition").into_iter().chain(filters) {
                self.clause_types(clause, None, None);
            }
        }
        // A condition clause too (§15.1 Substitution Mapping), which no other pass reads unless
        // a node is substituted.
        let substitution = template.substitution_mappings.as_ref();
        if let Some(filter) = substitution.and_then(|m| m.substitution_filter.as_ref()) {
            self.functions(filter);
            self.clause_types(filter, None, None);
        }
        if let Some(mappings) = substitution {
            super::substitution_filter_paths::check(
                self.model,
                self.ancestry,
                mappings,
                self.diags,
            );
        }
        for policy in &template.policies {
            let triggers = policy.triggers.as_ref().and_then(Node::as_map);
            for trigger in triggers.map_or(&[][..], |m| m.entries()) {
                if let Some(condition) = trigger.value.as_map().and_then(|t| t.get("condition")) {
                    self.clause_types(condition, None, None);
                }
            }
        }
    }

    /// The schemas of a function's signatures name data types that exist, and their
    /// validation clauses call functions that exist (§10.4 Function Definitions).
    fn signatures(&mut self, def: &Node) {
        let items = signature_entries(def.as_map().and_then(|m| m.get("signatures")));
        for signature in items.into_iter().filter_map(Node::as_map) {
            let lists = ["arguments", "optional_arguments"]
                .into_iter()
                .filter_map(|k| signature.get(k).and_then(Node::as_seq))
                .flatten();
            for schema in lists.chain(signature.get("result")) {
                match (schema.as_str(), schema.as_map()) {
                    (Some(_), _) => self.data_type_ref(schema),
                    (_, Some(map)) => {
                        self.definition_types(map, Missing::Here);
                        self.definition_validation(map);
                    }
                    _ => {}
                }
            }
        }
    }

    /// Property, attribute or parameter definitions: their types, schemas and validation.
    fn value_defs(&mut self, defs: &Map, missing: Missing) {
        for entry in defs.entries() {
            let Some(body) = entry.value.as_map() else {
                continue;
            };
            self.definition_types(body, missing);
            self.definition_validation(body);
        }
    }

    /// The `type` of a definition or schema, and of its `key_schema` and `entry_schema`.
    /// `missing` says where a missing `entry_schema` of `body` itself is judged; nested schemas
    /// are judged here.
    fn definition_types(&mut self, body: &Map, missing: Missing) {
        if let Some(type_node) = body.get("type") {
            self.data_type_ref(type_node);
            if let Some(name) = type_node.as_str() {
                let base = self.built_in_base(name, type_node.span);
                schema_shape(self, type_node, base.as_deref(), body);
            }
            if missing == Missing::Here {
                self.diags.extend(missing_entry_schema(
                    "a schema or parameter",
                    type_node,
                    body,
                ));
            }
        }
        self.schemas(body);
    }

    /// The `key_schema` and `entry_schema` of a definition, schema or list or map data type
    /// (§9.2 Data Type, §9.3 Schema Definition): each names a data type, and a schema written
    /// as a map is judged as any definition is, its `validation` against its own `type`.
    fn schemas(&mut self, body: &Map) {
        for schema in ["key_schema", "entry_schema"] {
            match body.get(schema) {
                Some(s) if s.as_str().is_some() => self.data_type_ref(s),
                Some(s) => {
                    if let Some(inner) = s.as_map() {
                        self.definition_types(inner, Missing::Here);
                        self.definition_validation(inner);
                    }
                }
                None => {}
            }
        }
    }

    /// A data type named where values are typed: a built-in, or a defined data type; never the
    /// abstract `scalar` (§9.1.2.2 scalar, T2-SCALAR-01).
    fn data_type_ref(&mut self, node: &Node) {
        let Some(name) = node.as_str() else { return };
        if BUILT_IN.contains(&name) {
            return;
        }
        if name == "scalar" {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_TYPE,
                    "`scalar` is abstract and cannot type a value",
                )
                .at(node.span)
                .hint("define a scalar type with `derived_from: scalar` and its `units` (§9.1.2.2 scalar), and use that"),
            );
            return;
        }
        self.ancestry
            .of(self.model, TypeKind::Data, name, node.span, self.diags);
    }

    /// A list of type names of one kind (`valid_source_node_types`, `members`, ...).
    fn type_list(&mut self, map: &Map, key: &str, of: TypeKind) {
        let Some(items) = map.get(key).and_then(Node::as_seq) else {
            return;
        };
        for item in items {
            if let Some(name) = item.as_str() {
                self.ancestry
                    .of(self.model, of, name, item.span, self.diags);
            }
        }
    }

    /// A data type's own rules: properties only on complex types (§9.2 Data Type: not on a type
    /// derived from a built-in type, `scalar` among them, §9.1.2 Special Types), the scalar
    /// keynames only on scalar types (§9.1.2.2 scalar), and the scalar rules.
    fn data_type(&mut self, id: &str, def: &TypeDef, map: &Map) {
        let name = def.name.as_str();
        let chain = self.ancestry.chain(self.model, TypeKind::Data, id);
        let base = chain
            .last()
            .filter(|last| {
                !self
                    .model
                    .types
                    .contains_key(&(TypeKind::Data, (*last).clone()))
            })
            .cloned();
        let is_scalar = base.as_deref() == Some("scalar");
        let defs = definitions(self.model, TypeKind::Data, &chain);
        data_type_schemas(self, name, base.as_deref(), map);
        self.schemas(map);
        self.diags.extend(missing_data_type_entry_schema(name, map));
        if let (Some(base), Some(props)) = (&base, map.entry("properties")) {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("data type `{name}` derives from the built-in type `{base}` and cannot have properties"),
                )
                .at_with(props.key.span, "only complex data types have properties")
                .hint("TOSCA 2.0 (§9.2 Data Type): derive from no type (a complex type) or from another complex type to define properties; a type on a built-in type narrows it with `validation`"),
            );
        }
        if !is_scalar {
            for key in SCALAR_KEYS {
                if let Some(entry) = map.entry(key) {
                    self.diags.push(
                        Diagnostic::error(
                            codes::TOSCA_SHAPE,
                            format!("`{key}` on data type `{name}`, which is not a scalar type"),
                        )
                        .at(entry.key.span)
                        .hint("units and their keynames belong to scalar types: add `derived_from: scalar` (§9.1.2.2 scalar)"),
                    );
                }
            }
            return;
        }
        super::scalar_types::check(self, name, map, &defs);
    }

    /// Every function a validation clause calls is built in or defined (§10.1 Function Syntax,
    /// §10.4 Function Definitions).
    fn functions(&mut self, node: &Node) {
        if let Some(call) = syntax::call(node) {
            match self.functions.lookup(call.name, Some(node.span.file)) {
                None => {
                    let at = Some(call.name_node.span);
                    let d = unknown::report(self.model, self.functions, call.name, at);
                    self.diags.push(d);
                }
                Some(Function::BuiltIn(b)) => self.built_in_call(b, &call),
                Some(Function::Custom(_)) => {}
            }
        }
        match &node.kind {
            crate::yaml::Kind::Map(map) => {
                for entry in map.entries() {
                    self.functions(&entry.value);
                }
            }
            crate::yaml::Kind::Seq(items) => {
                for item in items {
                    self.functions(item);
                }
            }
            crate::yaml::Kind::Scalar(_) => {}
        }
    }

    /// A built-in in a validation clause gets as many arguments as it takes, and those written
    /// as literals are of kinds it takes (a regular expression that compiles, a non-negative
    /// index): mistakes in the clause itself, reported once here rather than for every value
    /// it judges.
    fn built_in_call(&mut self, b: &BuiltIn, call: &syntax::Written<Node>) {
        let args = syntax::arguments(call);
        if let Err((message, hint)) = b.arity(args.len()) {
            self.diags.push(
                Diagnostic::error(codes::TOSCA_FUNCTION, message)
                    .at(call.name_node.span)
                    .hint(hint),
            );
            return;
        }
        if b.group != Group::Pure {
            return;
        }
        let reader = ValueReader {
            dialect: Dialect::Tosca2,
            inputs: None,
            budget: None,
        };
        // The clause's literals are first read here, so what is wrong in them as values (a
        // call among other keys, a key that is not text) is reported here, once.
        let values: Vec<Value> = args
            .iter()
            .map(|arg| match syntax::call(*arg) {
                // Known only when the clause is applied.
                Some(inner) => Value::Call(Box::new(Call::new(
                    crate::ir::Function::parse(inner.name, Dialect::Tosca2),
                    Vec::new(),
                ))),
                None => reader.value(*arg, self.diags),
            })
            .collect();
        if let Outcome::Wrong { arg, message } = builtins::apply(
            &crate::ir::Function::parse(b.name, Dialect::Tosca2),
            &values,
            self.patterns,
        ) {
            let at = arg.map_or(call.name_node.span, |i| args[i].span);
            self.diags.push(
                Diagnostic::error(codes::TOSCA_FUNCTION, message)
                    .at(at)
                    .hint(format!("`${}` takes {} ({})", b.name, b.grammar, b.section)),
            );
        }
    }

    pub(super) fn report(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The built-in type `name` (written at `at`) is or derives from; `None` for a complex data
    /// type, or a name that is no data type (reported where it is written).
    pub(super) fn built_in_base(&mut self, name: &str, at: Span) -> Option<String> {
        if BUILT_IN.contains(&name) || name == "scalar" {
            return Some(name.to_string());
        }
        let chain = self
            .ancestry
            .of_reported_elsewhere(self.model, TypeKind::Data, name, at);
        chain
            .last()
            .filter(|last| BUILT_IN.contains(&last.as_str()) || *last == "scalar")
            .cloned()
    }

    /// Whether `name` (written at `at`) is integer, float, or a data type derived from them:
    /// the number types a scalar's `data_type` may be (§9.1.2.2 scalar).
    pub(super) fn number_base(&mut self, name: &str, at: Span) -> Option<&'static str> {
        match name {
            "integer" => return Some("integer"),
            "float" => return Some("float"),
            _ => {}
        }
        let chain = self
            .ancestry
            .of_reported_elsewhere(self.model, TypeKind::Data, name, at);
        match chain.last().map(String::as_str) {
            Some("integer") => Some("integer"),
            Some("float") => Some("float"),
            _ => None,
        }
    }
}

/// A multiplier of a unit or prefix: an integer or a float (§9.1.2.2 scalar).
pub(super) fn multiplier(node: &Node) -> Option<f64> {
    match node.as_scalar()?.core {
        Core::Int(i) => Some(i as f64),
        Core::Float(f) => Some(f),
        _ => None,
    }
}

// Schemas fit their types (§9.2 Data Type, §9.3 Schema Definition, §9.4 Property Definition).
//
// Whether a TOSCA 2.0 definition's `entry_schema` and `key_schema` fit its type: a list or a
// map has an `entry_schema` and nothing else has one; only a map has a `key_schema`, and its
// keys are strings or derive from `string`.
//
// The spec states the rule for every place a schema is written: data types (§9.2 Data Type:
// "For data types that do not derive from the TOSCA list or map data type, the entry_schema is
// not allowed"), schemas (§9.3 Schema Definition: "When the schema itself is of type list or
// map, the schema definition is mandatory ... For other schema types, the entry_schema must
// not be defined"; `key_schema` "only allowed when the schema type is map"), property and
// attribute definitions (§9.4 Property Definition, §9.6 Attribute Definition: "If the property
// type is a collection type, entry_schema is mandatory. For other types, the entry_schema is
// not allowed") and parameter definitions (§9.8 Parameter Definition). TOSCA 2.0 only: in the
// Simple Profile `entry_schema` is optional (A.5.7.2 Keynames), and real 1.x files omit it.
//
// A missing `entry_schema` is not reported, though §9.4 calls it mandatory for a collection
// type: TOSCA 2.0 has no type for entries of any kind, so a free-form map (a Kubernetes
// object's `spec`) could not be written at all, and the OASIS TOSCA 2.0 suite, written by the
// committee that wrote the spec, keeps untyped lists among its valid files
// (`function-definitions/s115.yaml`, `schema-definition/schema-defintion-short.yaml`). Such a
// list's or map's entries are judged as values of any type. An `entry_schema` or `key_schema`
// where the type has no entries or keys has no reading at all, and is an error.

/// The built-in type a schema's keys must be or derive from (§9.3 Schema Definition).
const KEY_TYPE: &str = "string";

/// A property, attribute or parameter definition, or a schema: `type_name` is its written type
/// (at `type_node`), `base` the built-in type it is or derives from (`None` for a complex data
/// type or one not known).
fn schema_shape(checker: &mut Checker, type_node: &Node, base: Option<&str>, body: &Map) {
    let Some(type_name) = type_node.as_str() else {
        return;
    };
    if base.is_some() {
        let subject = format!("a definition of type `{type_name}`");
        misplaced_schemas(
            checker,
            body,
            base,
            &subject,
            "§9.3 Schema Definition, §9.4 Property Definition",
        );
    }
    if base == Some("map") {
        key_schema_type(checker, body);
    }
}

/// A data type's own schemas (§9.2 Data Type): `entry_schema` only on a type derived from a
/// list or a map, `key_schema` only on one derived from a map, its keys strings.
fn data_type_schemas(checker: &mut Checker, name: &str, base: Option<&str>, map: &Map) {
    misplaced_schemas(
        checker,
        map,
        base,
        &format!("data type `{name}`"),
        "§9.2 Data Type",
    );
    if base == Some("map") {
        key_schema_type(checker, map);
    }
}

/// An `entry_schema` on what is (or derives from) no list or map, and a `key_schema` on what is
/// no map: `subject` is what `body` defines, `base` the built-in type it is or derives from,
/// `rule` the sections the hint cites ("for other types the entry_schema is not allowed").
fn misplaced_schemas(
    checker: &mut Checker,
    body: &Map,
    base: Option<&str>,
    subject: &str,
    rule: &str,
) {
    let misplaced = [
        (
            "entry_schema",
            !matches!(base, Some("list" | "map")),
            "no list or map",
            "only lists and maps have entries",
            "entries",
        ),
        (
            "key_schema",
            base != Some("map"),
            "no map",
            "only maps have keys",
            "keys",
        ),
    ];
    for (key, wrong, what, label, holds) in misplaced {
        let Some(entry) = body.entry(key).filter(|_| wrong) else {
            continue;
        };
        checker.report(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!("`{key}` on {subject}, which is {what}"),
            )
            .at_with(entry.key.span, label)
            .hint(format!("remove `{key}`, or make the type one that has {holds} ({rule}: for other types the {key} is not allowed)")),
        );
    }
}

/// A `key_schema`'s type is `string` or derives from it (§9.3 Schema Definition: "the type of
/// the keys ... must derive from string").
fn key_schema_type(checker: &mut Checker, body: &Map) {
    let Some(schema) = body.get("key_schema") else {
        return;
    };
    let type_node = match schema.as_map() {
        Some(inner) => inner.get("type"),
        None => Some(schema),
    };
    let Some(type_node) = type_node else { return };
    let Some(type_name) = type_node.as_str() else {
        return;
    };
    match checker.built_in_base(type_name, type_node.span).as_deref() {
        Some(KEY_TYPE) | None => {}
        Some(other) => checker.report(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                if other == type_name {
                    format!("the keys of a map are of type `{type_name}`, which is no string")
                } else {
                    format!("the keys of a map are of type `{type_name}`, derived from `{other}`, which is no string")
                },
            )
            .at(type_node.span)
            .hint("map keys are strings: write `key_schema: string` or a data type derived from string, or leave key_schema out (§9.3 Schema Definition)"),
        ),
    }
}

/// The built-in collection types, whose entries need a schema
/// ([`super::entry_schema_required`]).
const COLLECTIONS: [&str; 2] = ["list", "map"];

/// A definition or schema (`body`, described by `subject`: "property `ports`") whose `type`
/// (at `type_node`) is `list` or `map` and that writes no `entry_schema`: the error, if so
/// ([`super::entry_schema_required`]).
pub(super) fn missing_entry_schema(
    subject: &str,
    type_node: &Node,
    body: &Map,
) -> Option<Diagnostic> {
    let type_name = type_node.as_str()?;
    if !COLLECTIONS.contains(&type_name) || body.contains_key("entry_schema") {
        return None;
    }
    // A warning until toscana's own XML-to-2.0 conversion can describe the entries of an XSD
    // complex element (see `super::entry_schema_required`).
    Some(Diagnostic::warning(codes::TOSCA_MISSING_KEY, format!("{subject} of type `{type_name}` has no `entry_schema`"))
        .at_with(type_node.span, "a collection needs the schema of its entries")
        .hint(format!("add `entry_schema:` with the type of the {type_name}'s entries (e.g. `entry_schema: string`), or a data type that describes them (§9.4 Property Definition: \"If the property type is a collection type, entry_schema is mandatory\"; §9.3 Schema Definition)")))
}

/// Data type `name` (body `map`) derived from `list` or `map` itself, with no `entry_schema`:
/// the error, if so ([`super::entry_schema_required`]).
fn missing_data_type_entry_schema(name: &str, map: &Map) -> Option<Diagnostic> {
    let parent = map.get("derived_from")?;
    let parent_name = parent.as_str()?;
    if !COLLECTIONS.contains(&parent_name) || map.contains_key("entry_schema") {
        return None;
    }
    Some(no_entry_schema(parent, format!("data type `{name}` derives from `{parent_name}` and has no `entry_schema`"))
        .hint(format!("add `entry_schema:` with the type of the entries (§9.2 Data Type: \"For data types that derive from the TOSCA list or map data types, the mandatory schema definition for the entries in properties of this data type\"); derive from a {parent_name} type that has one to inherit it")))
}

fn no_entry_schema(at: &Node, message: String) -> Diagnostic {
    Diagnostic::error(codes::TOSCA_MISSING_KEY, message)
        .at_with(at.span, "a collection needs the schema of its entries")
}
