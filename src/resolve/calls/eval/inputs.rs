//! `$get_input` (§10.2.1.1 $get_input): the input's value, and the selectors into it.

use super::{Evaluator, Site};
use crate::diag::Diagnostics;
use crate::ir::Value;
use crate::resolve::calls::builtins;
use crate::resolve::typing::is_built_in;
use crate::resolve::values::nested;

impl<'m, 't> Evaluator<'_, '_, 'm, 't> {
    /// `$get_input` whose arguments became known here (`[ name, $node_index ]`); the reader
    /// bound the others and reported undeclared inputs.
    pub(super) fn input(
        &mut self,
        args: Vec<Value>,
        site: &Site,
        diags: &mut Diagnostics,
    ) -> Result<Value, Vec<Value>> {
        let Some(Value::String(name)) = args.first() else {
            if !args.first().is_some_and(Value::has_call) {
                self.error(
                    site.arg(0),
                    "`$get_input` names an input first".into(),
                    "write `$get_input: <input name>` or `$get_input: [ <input name>, <key or index>, ... ]` (§10.2.1.1 $get_input)".into(),
                    diags,
                );
            }
            return Err(args);
        };
        if !self.selectors(&args, 1, &format!("input `{name}`"), site, diags) {
            return Err(args);
        }
        match self.inputs.get(name) {
            Some(Some(value)) if !args[1..].iter().any(Value::has_call) => {
                if let Some(v) = nested(value, &args[1..]) {
                    return Ok(v);
                }
                match self.missing_in_input(name, value, &args[1..]) {
                    Ok(()) => Ok(Value::Null),
                    Err((i, message)) => {
                        self.error(
                            site.arg(i + 1),
                            message,
                            "select a field its type defines, or an index within the list (§10.2.1.1 $get_input)"
                                .into(),
                            diags,
                        );
                        Err(args)
                    }
                }
            }
            Some(None) if !args[1..].iter().any(Value::has_call) => {
                if let Some((i, message)) = self.wrong_in_type(name, &args[1..]) {
                    self.error(
                        site.arg(i + 1),
                        message,
                        "select a field its type defines, or an index into a list (§10.2.1.1 $get_input: the nested names and indexes dereference complex inputs and lists)"
                            .into(),
                        diags,
                    );
                }
                Err(args)
            }
            _ => Err(args),
        }
    }

    /// Why `path` cannot select inside input `name`, which has no value yet, by its declared
    /// type: a step into a type that holds nothing to select (a string, a number, ...), a key
    /// its data type does not define, or a key into a list. `None` where the type does not
    /// settle it (a map's keys, a data type derived from a collection, an unknown type).
    fn wrong_in_type(&self, name: &str, path: &[Value]) -> Option<(usize, String)> {
        let input = self.graph.topology.inputs.iter().find(|i| i.name == name)?;
        // A primitive type has no schema; its name says it all.
        let Some(mut schema) = input.schema.as_ref() else {
            let type_name = input.type_name.as_deref()?;
            let shown = crate::ir::value_text(path.first()?);
            return self.holds_nothing(type_name).then(|| (0, format!("`{shown}` cannot select inside input `{name}`: its type `{type_name}` holds no fields or entries")));
        };
        for (i, step) in path.iter().enumerate() {
            let shown = crate::ir::value_text(step);
            let flat = self.holds_nothing(&schema.type_name) && schema.properties.is_empty();
            if flat {
                return Some((
                    i,
                    format!(
                        "`{shown}` cannot select inside input `{name}` here: its type `{}` holds no fields or entries",
                        schema.type_name
                    ),
                ));
            }
            let record = !schema.properties.is_empty() && schema.entry.is_none();
            schema = match step {
                Value::String(key) if record => match schema.properties.get(key) {
                    Some(next) => next,
                    None => {
                        let known: Vec<&str> =
                            schema.properties.keys().map(String::as_str).collect();
                        return Some((
                            i,
                            format!(
                                "input `{name}` has no `{key}` here: its type `{}` defines {}",
                                schema.type_name,
                                known.join(", ")
                            ),
                        ));
                    }
                },
                Value::String(key) if schema.type_name == "list" => {
                    return Some((
                        i,
                        format!(
                            "`{key}` cannot select inside input `{name}` here: it is a list, selected by index"
                        ),
                    ));
                }
                _ => schema.entry.as_deref()?,
            };
        }
        None
    }

    /// Whether the arguments from `from` on are keys (strings) and indices (non-negative
    /// integers) into `what`, or calls that give them; reports the first that is not.
    pub(super) fn selectors(
        &mut self,
        args: &[Value],
        from: usize,
        what: &str,
        site: &Site,
        diags: &mut Diagnostics,
    ) -> bool {
        let Some(i) = wrong_selector(args, from) else {
            return true;
        };
        let step = &args[i];
        self.error(
            site.arg(i),
            format!(
                "`{}` cannot select inside {what}",
                crate::ir::value_text(step)
            ),
            "a key is a string and an index a non-negative integer (§10.2.1.1 $get_input)".into(),
            diags,
        );
        false
    }

    /// Why `path` selects nothing inside the known value of input `name`: `Ok` when it names a
    /// field the input's type declares and the value leaves unset (no value, null), else the
    /// step that goes wrong and why.
    pub(super) fn missing_in_input(
        &self,
        name: &str,
        value: &Value,
        path: &[Value],
    ) -> Result<(), (usize, String)> {
        let mut schema = self
            .graph
            .topology
            .inputs
            .iter()
            .find(|i| i.name == name)
            .and_then(|i| i.schema.as_ref());
        let mut current = value;
        for (i, step) in path.iter().enumerate() {
            let shown = crate::ir::value_text(step);
            match (current, step) {
                (Value::Map(map), Value::String(key)) => match map.get(key) {
                    Some(next) => {
                        current = next;
                        schema = schema.and_then(|s| s.properties.get(key).or(s.entry.as_deref()));
                    }
                    None if schema.is_some_and(|s| s.properties.contains_key(key)) => return Ok(()),
                    None => {
                        let mut known: Vec<&str> = map.keys().map(String::as_str).collect();
                        if let Some(s) = schema {
                            known.extend(s.properties.keys().map(String::as_str));
                        }
                        known.sort_unstable();
                        known.dedup();
                        return Err((
                            i,
                            format!(
                                "input `{name}` has no `{key}` (it has: {})",
                                known.join(", ")
                            ),
                        ));
                    }
                },
                (Value::List(items), Value::Integer(k))
                    if usize::try_from(*k).is_ok_and(|k| k < items.len()) =>
                {
                    current = &items[*k as usize];
                    schema = schema.and_then(|s| s.entry.as_deref());
                }
                (Value::List(items), Value::Integer(k)) => {
                    return Err((
                        i,
                        format!(
                            "input `{name}` holds {} entr{} here, so index {k} is past the end",
                            items.len(),
                            if items.len() == 1 { "y" } else { "ies" }
                        ),
                    ));
                }
                (other, _) => {
                    return Err((
                        i,
                        format!(
                            "`{shown}` cannot select inside input `{name}` here: it is {}",
                            builtins::describe(other)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether values of the built-in type `type_name` hold no fields or entries to select
    /// (§9.1.1 Primitive Types, §9.1.2 Special Types; the Simple Profile's scalar-unit types):
    /// every built-in type but the collections and 1.x's `range`, a list of two.
    fn holds_nothing(&self, type_name: &str) -> bool {
        let bare = type_name.strip_prefix("tosca:").unwrap_or(type_name);
        is_built_in(type_name, self.model().dialect) && !matches!(bare, "list" | "map" | "range")
    }
}

/// The first of `args` from `from` on that is neither a key (a string), an index (a
/// non-negative integer) nor a call that gives one.
pub(super) fn wrong_selector(args: &[Value], from: usize) -> Option<usize> {
    args.iter()
        .enumerate()
        .skip(from)
        .find(|(_, step)| {
            !matches!(step, Value::String(_) | Value::Call(_))
                && !matches!(step, Value::Integer(k) if *k >= 0)
        })
        .map(|(i, _)| i)
}
