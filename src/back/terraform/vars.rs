//! TOSCA inputs → `variable` blocks (type, description, default, `sensitive`, constraints as
//! `validation` blocks, and the command-line value for `terraform.tfvars`), and TOSCA outputs →
//! `output` blocks.

use std::collections::{HashMap, HashSet};

use serde_json::{Value as Json, json};

use crate::back::ElementKind;
use crate::back::filters::hcl_str;
use crate::diag::Diagnostics;
use crate::ir::{Function, Input, Schema, Topology, Value};

use super::expr::{key, number};
use super::nodes::Built;
use super::{Spans, unexpressed, unique_names};

/// Names Terraform reserves for variables, and the provider settings `providers.tf` declares.
const RESERVED_VARIABLES: &[&str] = &[
    "aws_region",
    "openstack_cloud",
    "openstack_network",
    "openstack_external_network",
    "kube_config_path",
    "kube_context",
    "kube_namespace",
    "source",
    "version",
    "providers",
    "count",
    "for_each",
    "lifecycle",
    "depends_on",
    "locals",
];

pub struct Vars {
    /// TOSCA input name → variable name.
    pub names: HashMap<String, String>,
    /// One entry per input, in order.
    pub inputs: Vec<Json>,
    /// The variable names of the sensitive inputs ([`super::secrets`]).
    pub sensitive: HashSet<String>,
}

pub fn inputs(topology: &Topology, spans: &Spans, diags: &mut Diagnostics) -> Vars {
    let ids = unique_names(
        topology.inputs.iter().map(|i| i.name.as_str()),
        RESERVED_VARIABLES,
    );
    let names: HashMap<String, String> = topology
        .inputs
        .iter()
        .zip(&ids)
        .map(|(i, n)| (i.name.clone(), n.clone()))
        .collect();
    let mut out = Vec::new();
    let mut sensitive_vars = HashSet::new();
    for (index, (input, id)) in topology.inputs.iter().zip(&ids).enumerate() {
        let span = spans.of(ElementKind::Input, index);
        let (sensitive, guessed) = super::secrets::sensitive(input, span);
        diags.extend(guessed);
        if sensitive {
            sensitive_vars.insert(id.clone());
        }
        let example = input.value.as_ref().or(input.default.as_ref());
        let ty = match &input.schema {
            Some(schema) => schema_type(schema, example),
            None => hcl_type(input.type_name.as_deref(), example),
        };
        let default = match &input.default {
            // A secret's default would be written in variables.tf: Terraform asks for it.
            Some(_) if sensitive => None,
            Some(v) => literal_or_warn(
                v,
                |reason| {
                    format!(
                        "the default of input `{}` is left out: {reason}",
                        input.name
                    )
                },
                "give the value in terraform.tfvars, or with --set",
                span,
                diags,
            ),
            None if !input.required => Some("null".to_string()),
            None => None,
        };
        let nullable = default.as_deref() == Some("null");
        let mut validations = Vec::new();
        let var = format!("var.{id}");
        for c in &input.constraints {
            match constraint(c, &var, &input.name) {
                Ok(v) => validations.push(v),
                Err(reason) => diags.push(unexpressed(
                    span,
                    format!("a constraint of input `{}` is not checked: {reason}", input.name),
                    "check the value before running terraform, or write the validation block by hand",
                )),
            }
        }
        if let Some(v) = &input.validation {
            match validation(v, &var) {
                Ok(cond) => {
                    let shown = cond
                        .strip_prefix('(')
                        .and_then(|c| c.strip_suffix(')'))
                        .unwrap_or(&cond)
                        .to_string();
                    validations.push((
                        cond,
                        format!("The value of {} must satisfy {shown}.", input.name),
                    ))
                }
                Err(reason) => diags.push(unexpressed(
                    span,
                    format!("the validation of input `{}` is not checked: {reason}", input.name),
                    "check the value before running terraform, or write the validation block by hand",
                )),
            }
        }
        let validations: Vec<Json> = validations
            .into_iter()
            .map(|(cond, message)| {
                let condition = if nullable {
                    format!("{var} == null ? true : {cond}")
                } else {
                    cond
                };
                json!({ "condition": condition, "error_message": hcl_str(&message) })
            })
            .collect();
        let tfvars = tfvars_value(input, id, sensitive, span, diags);
        let example = example_value(sensitive, tfvars.as_ref().or(default.as_ref()), &ty);
        out.push(json!({
            "name": id,
            "type": ty,
            "description": input.description.as_deref().map(hcl_str),
            "default": default,
            "sensitive": sensitive,
            "validations": validations,
            "value": tfvars,
            "example": example,
            "required": default.is_none(),
            // One comment line of terraform.tfvars.example.
            "comment": input.description.as_deref().map(|d| d.split_whitespace().collect::<Vec<_>>().join(" ")),
        }));
    }
    Vars {
        names,
        inputs: out,
        sensitive: sensitive_vars,
    }
}

/// `v` as an HCL literal, or `None` with a warning whose message `says` the reason.
fn literal_or_warn(
    v: &Value,
    says: impl FnOnce(String) -> String,
    hint: &str,
    span: Option<crate::source::Span>,
    diags: &mut Diagnostics,
) -> Option<String> {
    literal(v)
        .map_err(|reason| diags.push(unexpressed(span, says(reason), hint)))
        .ok()
}

/// The value `terraform.tfvars` gives a variable: the one bound with `--set` / `--inputs`,
/// never a secret's (a warning says how to give it), `None` (warned) when it is no plain value.
fn tfvars_value(
    input: &Input,
    id: &str,
    sensitive: bool,
    span: Option<crate::source::Span>,
    diags: &mut Diagnostics,
) -> Option<String> {
    match &input.value {
        Some(_) if sensitive => {
            diags.push(unexpressed(
                span,
                format!(
                    "the value given for sensitive input `{}` is not written to terraform.tfvars: a secret is written to no file",
                    input.name
                ),
                &format!("give it to Terraform from the environment: export TF_VAR_{id}=..."),
            ));
            None
        }
        Some(v) => literal_or_warn(
            v,
            |reason| {
                format!(
                    "the value given for input `{}` is not written to terraform.tfvars: {reason}",
                    input.name
                )
            },
            "give a plain value with --set or --inputs",
            span,
            diags,
        ),
        None => None,
    }
}

/// The value `terraform.tfvars.example` shows for a variable: the one given, else the
/// default, else a placeholder of its type to fill in; `None` for a secret, which is given
/// from the environment (`TF_VAR_<name>`), never in a file.
fn example_value(sensitive: bool, value: Option<&String>, ty: &str) -> Option<String> {
    if sensitive {
        return None;
    }
    if let Some(e) = value {
        return Some(e.clone());
    }
    Some(
        match ty.split('(').next().unwrap_or(ty) {
            "string" => "\"\"",
            "number" => "0",
            "bool" => "false",
            "list" | "set" | "tuple" => "[]",
            _ => "{}",
        }
        .to_string(),
    )
}

/// A value with no functions as HCL.
fn literal(v: &Value) -> Result<String, String> {
    super::expr::literal(v)
}

/// The Terraform type of a TOSCA type; lists, maps and complex data types take their element or
/// field types from the value when there is one.
fn hcl_type(type_name: Option<&str>, example: Option<&Value>) -> String {
    let short = type_name.map(|t| t.rsplit([':', '.']).next().unwrap_or(t));
    match short {
        Some("string" | "version" | "timestamp" | "bytes") => "string".to_string(),
        Some(t) if t.starts_with("scalar-unit") => "string".to_string(),
        Some(t) if type_name.is_some_and(|n| n.contains("scalar-unit")) && !t.is_empty() => {
            "string".to_string()
        }
        Some("integer" | "float") => "number".to_string(),
        Some("boolean") => "bool".to_string(),
        Some("list") => format!("list({})", element_type(example)),
        Some("map") => format!("map({})", element_type(example)),
        None => example.map_or("any".to_string(), value_type),
        Some(_) => match example {
            Some(v @ Value::Map(_)) => value_type(v),
            _ => "any".to_string(),
        },
    }
}

/// The Terraform type of a schema: `list(T)`, `map(T)`, `object({...})` with `optional(...)`
/// for properties that are not required; the value fills in what the schema leaves open.
fn schema_type(schema: &Schema, example: Option<&Value>) -> String {
    let short = schema
        .type_name
        .rsplit([':', '.'])
        .next()
        .unwrap_or(&schema.type_name);
    match short {
        "list" | "map" => match &schema.entry {
            Some(entry) => {
                let first = match example {
                    Some(Value::List(l)) => l.first(),
                    Some(Value::Map(m)) => m.values().next(),
                    _ => None,
                };
                format!("{short}({})", schema_type(entry, first))
            }
            None => hcl_type(Some(short), example),
        },
        _ if !schema.properties.is_empty() => {
            let fields: Vec<String> = schema
                .properties
                .iter()
                .map(|(k, p)| {
                    let v = match example {
                        Some(Value::Map(m)) => m.get(k),
                        _ => None,
                    };
                    let t = schema_type(p, v);
                    if p.required {
                        format!("{} = {t}", key(k))
                    } else {
                        format!("{} = optional({t})", key(k))
                    }
                })
                .collect();
            format!("object({{ {} }})", fields.join(", "))
        }
        _ => hcl_type(Some(&schema.type_name), example),
    }
}

fn element_type(example: Option<&Value>) -> String {
    let items: Vec<&Value> = match example {
        Some(Value::List(l)) => l.iter().collect(),
        Some(Value::Map(m)) => m.values().collect(),
        _ => Vec::new(),
    };
    let types: Vec<String> = items.iter().map(|v| value_type(v)).collect();
    match types.first() {
        Some(t) if types.iter().all(|u| u == t) => t.clone(),
        _ => "any".to_string(),
    }
}

/// The type of a value: `object({...})` for a map of differently typed fields.
fn value_type(v: &Value) -> String {
    match v {
        Value::Boolean(_) => "bool".to_string(),
        Value::Integer(_) | Value::Float(_) => "number".to_string(),
        Value::List(_) => format!("list({})", element_type(Some(v))),
        Value::Map(m) if m.is_empty() => "map(any)".to_string(),
        Value::Map(m) => {
            let fields: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), value_type(v)))
                .collect();
            format!("object({{ {} }})", fields.join(", "))
        }
        Value::Null | Value::Call(_) => "any".to_string(),
        _ => "string".to_string(),
    }
}

/// A TOSCA 1.x constraint (`{operator: argument}`) as a condition and its error message.
pub(super) fn constraint(c: &Value, var: &str, name: &str) -> Result<(String, String), String> {
    let Value::Map(map) = c else {
        return Err("it is not an `operator: value` map".to_string());
    };
    let Some((op, arg)) = map.iter().next().filter(|_| map.len() == 1) else {
        return Err("it is not an `operator: value` map".to_string());
    };
    condition(op.trim_start_matches('$'), arg, var, name)
}

fn condition(op: &str, arg: &Value, var: &str, name: &str) -> Result<(String, String), String> {
    let lit = |v: &Value| -> Result<String, String> {
        match v {
            Value::Scalar(s) => Err(format!(
                "`{}` is a scalar-unit, which Terraform holds as a string and cannot compare",
                s.text
            )),
            other => literal(other),
        }
    };
    let text = |v: &Value| -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Integer(i) => i.to_string(),
            Value::Float(f) => number(*f),
            other => crate::back::graphviz::value_text(other),
        }
    };
    let numeric = |v: &Value| -> Result<(), String> {
        match v {
            Value::Integer(_) | Value::Float(_) => Ok(()),
            other => Err(format!(
                "Terraform orders only numbers, and `{}` is not one (scalar-units and versions are strings there)",
                text(other)
            )),
        }
    };
    let cmp = |symbol: &str, words: &str| -> Result<(String, String), String> {
        if symbol != "==" {
            numeric(arg)?;
        }
        Ok((
            format!("{var} {symbol} {}", lit(arg)?),
            format!("The value of {name} must be {words} {}.", text(arg)),
        ))
    };
    match op {
        "equal" => cmp("==", "equal to"),
        "greater_than" => cmp(">", "greater than"),
        "greater_or_equal" => cmp(">=", "at least"),
        "less_than" => cmp("<", "less than"),
        "less_or_equal" => cmp("<=", "at most"),
        "in_range" => match arg {
            Value::List(r) if r.len() == 2 => {
                numeric(&r[0])?;
                if !matches!(&r[1], Value::String(s) if s == "UNBOUNDED") {
                    numeric(&r[1])?;
                }
                let upper = match &r[1] {
                    Value::String(s) if s == "UNBOUNDED" => None,
                    v => Some(lit(v)?),
                };
                let lower = lit(&r[0])?;
                Ok(match upper {
                    Some(upper) => (
                        format!("{var} >= {lower} && {var} <= {upper}"),
                        format!(
                            "The value of {name} must be between {} and {}.",
                            text(&r[0]),
                            text(&r[1])
                        ),
                    ),
                    None => (
                        format!("{var} >= {lower}"),
                        format!("The value of {name} must be at least {}.", text(&r[0])),
                    ),
                })
            }
            _ => Err("in_range needs a list of two bounds".to_string()),
        },
        "valid_values" => match arg {
            Value::List(values) => {
                let items: Result<Vec<String>, String> = values.iter().map(lit).collect();
                let shown: Vec<String> = values.iter().map(text).collect();
                Ok((
                    format!("contains([{}], {var})", items?.join(", ")),
                    format!("The value of {name} must be one of: {}.", shown.join(", ")),
                ))
            }
            _ => Err("valid_values needs a list".to_string()),
        },
        "length" => Ok((
            format!("length({var}) == {}", lit(arg)?),
            format!("The length of {name} must be {}.", text(arg)),
        )),
        "min_length" => Ok((
            format!("length({var}) >= {}", lit(arg)?),
            format!("The length of {name} must be at least {}.", text(arg)),
        )),
        "max_length" => Ok((
            format!("length({var}) <= {}", lit(arg)?),
            format!("The length of {name} must be at most {}.", text(arg)),
        )),
        "pattern" => match arg {
            Value::String(p) => Ok((
                format!("can(regex({}, {var}))", hcl_str(&format!("^(?:{p})$"))),
                format!("The value of {name} must match the pattern {p}."),
            )),
            _ => Err("pattern needs a string".to_string()),
        },
        other => Err(format!("`{other}` has no Terraform equivalent")),
    }
}

/// A TOSCA 2.0 `validation` expression (`$value` is the input) as a condition.
pub(super) fn validation(v: &Value, var: &str) -> Result<String, String> {
    let Value::Call(call) = v else {
        return match v {
            Value::Boolean(b) => Ok(b.to_string()),
            _ => Err("it is not a boolean function".to_string()),
        };
    };
    let f = &call.function;
    let args = &call.args;
    let operand = |a: &Value| -> Result<String, String> {
        match a {
            Value::Call(c) if c.function == Function::Value => Ok(var.to_string()),
            Value::Call(c) => value_function(c, var).unwrap_or_else(|| validation(a, var)),
            other => literal(other),
        }
    };
    let binary = |symbol: &str| -> Result<String, String> {
        match args.as_slice() {
            [a, b] => Ok(format!("{} {symbol} {}", operand(a)?, operand(b)?)),
            _ => Err(format!("`{f}` needs two arguments")),
        }
    };
    match f {
        Function::And | Function::Or => {
            let parts: Result<Vec<String>, String> =
                args.iter().map(|a| validation(a, var)).collect();
            let joined = parts?.join(if *f == Function::And { " && " } else { " || " });
            Ok(if args.len() > 1 {
                format!("({joined})")
            } else {
                joined
            })
        }
        Function::Not => match args.as_slice() {
            [a] => Ok(format!("!({})", validation(a, var)?)),
            _ => Err("`not` needs one argument".to_string()),
        },
        Function::Equal => binary("=="),
        Function::GreaterThan => binary(">"),
        Function::GreaterOrEqual => binary(">="),
        Function::LessThan => binary("<"),
        Function::LessOrEqual => binary("<="),
        // The 1.x constraint operators that §10.2 has no function for are read too, under
        // the names a template that calls them as custom functions gives them.
        Function::ValidValues | Function::InRange | Function::Length | Function::Matches => {
            let op = match f {
                Function::Matches => "pattern",
                other => other.name(),
            };
            comparison(f, op, args, operand)
        }
        Function::Custom(op) if matches!(op.as_str(), "min_length" | "max_length" | "pattern") => {
            comparison(f, op, args, operand)
        }
        other => Err(format!("`{other}` has no Terraform equivalent")),
    }
}

/// `function`'s `[subject, arg]` read as the constraint operator `op`: the condition a
/// validation clause's comparison means, `operand` turning the subject into HCL.
fn comparison(
    function: &Function,
    op: &str,
    args: &[Value],
    operand: impl Fn(&Value) -> Result<String, String>,
) -> Result<String, String> {
    let [subject, arg] = args else {
        return Err(format!("`{function}` needs two arguments"));
    };
    let subject = operand(subject)?;
    let (cond, _) = condition(op, arg, &subject, "")?;
    Ok(cond)
}

/// A TOSCA 2.0 function that computes a value inside a validation clause (`$length` of one
/// argument, arithmetic, `$concat`), or `None` when `call` is a boolean function.
fn value_function(call: &crate::ir::Call, var: &str) -> Option<Result<String, String>> {
    let f = &call.function;
    let operand = |a: &Value| -> Result<String, String> {
        match a {
            Value::Call(c) if c.function == Function::Value => Ok(var.to_string()),
            Value::Call(c) => value_function(c, var)
                .unwrap_or_else(|| Err(format!("`{}` gives no value", c.function))),
            other => literal(other),
        }
    };
    let all = || -> Result<Vec<String>, String> { call.args.iter().map(operand).collect() };
    let arithmetic = |symbol: &str| -> Result<String, String> {
        let parts = all()?;
        if parts.len() < 2 {
            return Err(format!("`{f}` needs two arguments"));
        }
        Ok(format!("({})", parts.join(&format!(" {symbol} "))))
    };
    Some(match (f, call.args.as_slice()) {
        (Function::Length, [a]) => operand(a).map(|x| format!("length({x})")),
        (Function::Sum, _) => arithmetic("+"),
        (Function::Difference, _) => arithmetic("-"),
        (Function::Product, _) => arithmetic("*"),
        (Function::Quotient, _) => arithmetic("/"),
        (Function::Remainder, _) => arithmetic("%"),
        (Function::Concat, _) => all().map(|p| format!("join(\"\", [{}])", p.join(", "))),
        _ => return None,
    })
}

/// TOSCA outputs → one entry per output: its name, description and value (`None` when the
/// value cannot be expressed, with a warning).
pub fn outputs(
    topology: &Topology,
    spans: &Spans,
    vars: &Vars,
    built: &Built,
    ledger: &crate::back::Ledger,
    diags: &mut Diagnostics,
) -> Vec<Json> {
    let ids = unique_names(topology.outputs.iter().map(|o| o.name.as_str()), &[]);
    let scope = built.scope(topology, &vars.names, ledger);
    let mut out = Vec::new();
    for (index, (output, id)) in topology.outputs.iter().zip(&ids).enumerate() {
        let value = match scope.expr(&output.value, None) {
            Ok(e) => Some(e),
            Err(reason) => {
                diags.push(unexpressed(
                    spans.of(ElementKind::Output, index),
                    format!("output `{}` is left out: {reason}", output.name),
                    "outputs can read inputs, properties and the attributes listed in the rule's `bind.attributes`",
                ));
                None
            }
        };
        // An output that shows a sensitive variable must say so, or Terraform refuses it;
        // the expression is parsed, so `var.db` is not read inside `var.db_password`.
        let sensitive = value.as_deref().is_some_and(|v| {
            super::references::variables_used(&format!("value = {v}\n"))
                .iter()
                .any(|var| vars.sensitive.contains(var))
        });
        out.push(json!({
            "name": id,
            "description": output.description.as_deref().map(hcl_str),
            "value": value,
            "sensitive": sensitive,
        }));
    }
    out
}
