//! The values of a profile object's properties, evaluated to plain JSON: what the resolver left
//! as calls because they cross relationships with several targets, concatenate lists or call the
//! community core profile's string functions, worked out over the whole topology.
//!
//! `get_property` follows TOSCA 2.0's path grammar (§10.2.1.2 $get_property, §10.3 TOSCA
//! Path): a node (`SELF` or a
//! node template's name), then `CAPABILITY <name>` or `RELATIONSHIP <requirement> [index|ALL]
//! TARGET|SOURCE` (repeatable), then a property and the keys and indexes into its value. A
//! missing index is 0; `ALL` gives the list of every target's value, so `$concat` of an
//! environment list with them stays a list; a requirement with no relationship gives null.

use serde_json::Value as Json;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::back::Ledger;
use crate::ir::{Call, Function, NodeId, Topology, Value, eval};

/// A property of a node or of one of its capabilities.
type Key = (usize, Option<String>, String);

/// How deep values may refer to values before it is taken for a cycle.
const MAX_DEPTH: usize = 32;

/// Evaluates values in the context of one topology. Every property a value reads, of its own
/// node or of another (`$get_property`), is read through the not-translated ledger: it is in
/// the object, so it is translated.
pub struct Evaluator<'t> {
    topology: &'t Topology,
    ledger: &'t Ledger,
    /// The relationships leaving each node (indexes into the topology's), by node index.
    outgoing: Vec<Vec<usize>>,
    /// Each node by its name, for `get_property` of a named node.
    by_name: HashMap<&'t str, NodeId>,
    /// The properties evaluated so far: (node index, capability, property) → value.
    known: RefCell<HashMap<Key, Result<Json, String>>>,
    /// What could not be evaluated, in the words of a message.
    problems: RefCell<Vec<String>>,
}

impl<'t> Evaluator<'t> {
    pub fn new(topology: &'t Topology, ledger: &'t Ledger) -> Self {
        let mut outgoing = vec![Vec::new(); topology.nodes.len()];
        for (i, r) in topology.relationships.iter().enumerate() {
            outgoing[r.source.index()].push(i);
        }
        Self {
            topology,
            ledger,
            known: RefCell::new(HashMap::new()),
            outgoing,
            by_name: topology
                .node_ids()
                .map(|id| (topology[id].name.as_str(), id))
                .collect(),
            problems: RefCell::new(Vec::new()),
        }
    }

    /// The topology the values are evaluated in.
    pub fn topology(&self) -> &'t Topology {
        self.topology
    }

    /// `value` as JSON, with `this` the node `SELF` names, and what could not be evaluated
    /// (left out as null). Nulls inside maps are left out.
    pub fn eval(&self, value: &Value, this: NodeId) -> (Json, Vec<String>) {
        self.passed_on(value);
        let json = self.value(value, this, 0).unwrap_or_else(|problem| {
            self.problems.borrow_mut().push(problem);
            Json::Null
        });
        (json, std::mem::take(&mut *self.problems.borrow_mut()))
    }

    fn value(&self, value: &Value, this: NodeId, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err("the value refers to itself through get_property".to_string());
        }
        Ok(match value {
            Value::Null => Json::Null,
            Value::Boolean(b) => Json::Bool(*b),
            Value::Integer(i) => Json::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
            Value::String(s) | Value::Timestamp(s) | Value::Bytes(s) => Json::String(s.clone()),
            Value::Scalar(s) => Json::String(s.text.clone()),
            Value::Version(v) => Json::String(v.text.clone()),
            Value::List(items) => Json::Array(
                items
                    .iter()
                    .map(|v| self.value(v, this, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Map(map) => {
                let mut out = serde_json::Map::new();
                for (k, v) in map.iter() {
                    let v = self.value(v, this, depth + 1)?;
                    if !v.is_null() {
                        out.insert(k.clone(), v);
                    }
                }
                Json::Object(out)
            }
            Value::Call(call) => match self.call(call, this, depth) {
                Ok(v) => v,
                Err(problem) => {
                    self.problems.borrow_mut().push(problem);
                    Json::Null
                }
            },
        })
    }

    fn call(&self, call: &Call, this: NodeId, depth: usize) -> Result<Json, String> {
        eval::call(
            call,
            &mut Field {
                evaluator: self,
                this,
                depth,
            },
        )
    }

    /// The arguments of `call`, each evaluated (what cannot be is null, and a problem).
    fn args(&self, call: &Call, this: NodeId, depth: usize) -> Result<Vec<Json>, String> {
        call.args
            .iter()
            .map(|a| self.value(a, this, depth + 1))
            .collect()
    }

    fn input(&self, args: &[Value], this: NodeId, depth: usize) -> Result<Json, String> {
        let Some(Value::String(name)) = args.first() else {
            return Err("get_input needs an input name".to_string());
        };
        let input = self
            .topology
            .inputs
            .iter()
            .find(|i| &i.name == name)
            .ok_or_else(|| format!("there is no input `{name}`"))?;
        match input.value.as_ref().or(input.default.as_ref()) {
            Some(v) => self.value(v, this, depth + 1),
            None => Ok(Json::Null),
        }
    }

    fn property(&self, args: &[Value], this: NodeId, depth: usize) -> Result<Json, String> {
        let words: Vec<PathWord> = args.iter().map(PathWord::of).collect();
        let Some(PathWord::Name(first)) = words.first() else {
            return Err("get_property needs a node and a property".to_string());
        };
        let start = match first.as_str() {
            "SELF" => this,
            name => self
                .node_named(name)
                .ok_or_else(|| format!("get_property names `{name}`, which is no node"))?,
        };
        self.walk(start, &words[1..], depth)
    }

    /// The rest of a `get_property` path from `node`.
    fn walk(&self, node: NodeId, path: &[PathWord], depth: usize) -> Result<Json, String> {
        let n = &self.topology[node];
        match path {
            [PathWord::Name(k), PathWord::Name(cap), rest @ ..] if k == "CAPABILITY" => {
                let c = self
                    .ledger
                    .capability(self.topology, node.index(), cap)
                    .ok_or_else(|| format!("node `{}` has no capability `{cap}`", n.name))?;
                let [PathWord::Name(prop), keys @ ..] = rest else {
                    return Err("get_property of a capability needs a property".to_string());
                };
                let v = c.get(prop).ok_or_else(|| {
                    format!(
                        "capability `{cap}` of node `{}` has no property `{prop}`",
                        n.name
                    )
                })?;
                descend(self.memo(node, Some(cap), prop, v, depth)?, keys)
            }
            [PathWord::Name(k), PathWord::Name(req), rest @ ..] if k == "RELATIONSHIP" => {
                // A missing index is 0; `ALL` gives the list of every relationship's value
                // (§10.3 TOSCA Path).
                let (index, rest) = match rest {
                    [PathWord::Index(i), rest @ ..] => (Some(*i), rest),
                    [PathWord::Name(all), rest @ ..] if all == "ALL" => (None, rest),
                    _ => (Some(0), rest),
                };
                let (end, rest) = match rest {
                    [PathWord::Name(e), rest @ ..] if e == "TARGET" || e == "SOURCE" => {
                        (e.as_str(), rest)
                    }
                    _ => ("TARGET", rest),
                };
                let ends: Vec<NodeId> = self.outgoing[node.index()]
                    .iter()
                    .filter(|&&r| &self.topology.relationships[r].requirement == req)
                    .map(|&r| {
                        // The relationship is what the value reaches its end through.
                        self.ledger.relationship(r);
                        let r = &self.topology.relationships[r];
                        if end == "SOURCE" { r.source } else { r.target }
                    })
                    .collect();
                match index {
                    Some(i) => match ends.get(i) {
                        Some(t) => self.walk(*t, rest, depth + 1),
                        // None made: an optional requirement left unfulfilled.
                        None if ends.is_empty() => Ok(Json::Null),
                        None => Err(format!(
                            "node `{}` has no relationship {i} of requirement `{req}`",
                            n.name
                        )),
                    },
                    None => Ok(Json::Array(
                        ends.iter()
                            .map(|t| self.walk(*t, rest, depth + 1))
                            .collect::<Result<_, _>>()?,
                    )),
                }
            }
            [PathWord::Name(prop), keys @ ..] => {
                let v = self
                    .ledger
                    .property(self.topology, node.index(), prop)
                    .ok_or_else(|| format!("node `{}` has no property `{prop}`", n.name))?;
                descend(self.memo(node, None, prop, v, depth)?, keys)
            }
            _ => Err("get_property needs a property name".to_string()),
        }
    }

    /// A property's value (of a node, or of one of its capabilities), evaluated once: a
    /// template whose values each name another's twice would otherwise take exponential time.
    fn memo(
        &self,
        node: NodeId,
        capability: Option<&str>,
        property: &str,
        value: &Value,
        depth: usize,
    ) -> Result<Json, String> {
        let key = (
            node.index(),
            capability.map(str::to_string),
            property.to_string(),
        );
        if let Some(known) = self.known.borrow().get(&key) {
            return known.clone();
        }
        self.passed_on(value);
        let result = self.value(value, node, depth + 1);
        self.known.borrow_mut().insert(key, result.clone());
        result
    }

    /// Records the properties whose values `value` carries as read: the resolver already put
    /// in what it could evaluate (`$get_property: [SELF, label]` is the label's value inside a
    /// `$core:to_uppercase` left for here), so those reads are seen by their values
    /// ([`Ledger::values_used`]).
    fn passed_on(&self, value: &Value) {
        self.ledger.values_used(self.topology, [value]);
    }

    fn node_named(&self, name: &str) -> Option<NodeId> {
        self.by_name.get(name).copied()
    }
}

/// One word of a `get_property` path: a name or a list index.
enum PathWord {
    Name(String),
    Index(usize),
}

impl PathWord {
    fn of(value: &Value) -> PathWord {
        match value {
            Value::Integer(i) => PathWord::Index(usize::try_from(*i).unwrap_or(usize::MAX)),
            Value::String(s) => PathWord::Name(s.clone()),
            _ => PathWord::Name(String::new()),
        }
    }
}

/// Keys and indexes into a value.
fn descend(mut value: Json, keys: &[PathWord]) -> Result<Json, String> {
    for key in keys {
        value = match (key, value) {
            (PathWord::Name(k), Json::Object(mut map)) => map.remove(k).unwrap_or(Json::Null),
            (PathWord::Index(i), Json::Array(mut items)) if *i < items.len() => {
                items.swap_remove(*i)
            }
            (PathWord::Name(k), _) => return Err(format!("there is no `{k}` in the value")),
            (PathWord::Index(i), _) => return Err(format!("there is no item {i} in the value")),
        };
    }
    Ok(value)
}

/// A value as a JSON field of a profile object ([`Evaluator::eval`]), seen from node `this`.
struct Field<'e, 't> {
    evaluator: &'e Evaluator<'t>,
    this: NodeId,
    depth: usize,
}

impl eval::Host for Field<'_, '_> {
    type Out = Json;

    fn known(&mut self, value: &Value) -> Result<Json, String> {
        self.evaluator.value(value, self.this, self.depth + 1)
    }

    fn input(&mut self, call: &Call) -> Result<Json, String> {
        self.evaluator.input(&call.args, self.this, self.depth)
    }

    fn query(&mut self, call: &Call) -> Result<Json, String> {
        match call.function {
            Function::GetProperty => self.evaluator.property(&call.args, self.this, self.depth),
            _ => self.other(call),
        }
    }

    /// The evaluator follows TOSCA 2.0 paths itself, through relationships and `ALL`.
    fn unresolved_query(&mut self, call: &Call) -> Result<Json, String> {
        self.query(call)
    }

    fn concat(&mut self, call: &Call) -> Result<Json, String> {
        Ok(concat(self.evaluator.args(call, self.this, self.depth)?))
    }

    fn join(&mut self, call: &Call) -> Result<Json, String> {
        join(self.evaluator.args(call, self.this, self.depth)?)
    }

    /// The community core profile's string functions, by the name they have in it: a template
    /// calls them with the profile's namespace (`core:to_string`).
    fn other(&mut self, call: &Call) -> Result<Json, String> {
        let args = || self.evaluator.args(call, self.this, self.depth);
        match call.function.custom_local_name() {
            Some("to_string") => one(args()?).map(|v| Json::String(text(&v))),
            Some("to_uppercase") => one(args()?).map(|v| Json::String(text(&v).to_uppercase())),
            Some("to_lowercase") => one(args()?).map(|v| Json::String(text(&v).to_lowercase())),
            local => {
                let name = local.unwrap_or(call.function.name());
                Err(format!(
                    "`${name}` is known only at deployment, and a manifest needs the value now"
                ))
            }
        }
    }
}

/// `$concat` (§10.2.3.2 $concat): strings joined, or, when an argument is a list, the lists
/// joined (and single values added as items, as a requirement with one target gives its value,
/// not a list of one; nulls left out).
fn concat(args: Vec<Json>) -> Json {
    if args.iter().any(Json::is_array) {
        let mut out = Vec::new();
        for a in args {
            match a {
                Json::Array(items) => out.extend(items.into_iter().filter(|i| !i.is_null())),
                Json::Null => {}
                other => out.push(other),
            }
        }
        return Json::Array(out);
    }
    Json::String(args.iter().map(text).collect())
}

/// `$join: [list, separator]` (§10.2.3.3 $join).
fn join(args: Vec<Json>) -> Result<Json, String> {
    let mut args = args.into_iter();
    let Some(Json::Array(items)) = args.next() else {
        return Err("join needs a list".to_string());
    };
    let sep = args.next().map(|s| text(&s)).unwrap_or_default();
    Ok(Json::String(
        items.iter().map(text).collect::<Vec<_>>().join(&sep),
    ))
}

fn one(args: Vec<Json>) -> Result<Json, String> {
    let mut args = args.into_iter();
    match (args.next(), args.next()) {
        (Some(v), None) => Ok(v),
        _ => Err("the function takes one argument".to_string()),
    }
}

/// The text of a scalar; lists and maps as JSON.
fn text(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        Json::Null => String::new(),
        other => other.to_string(),
    }
}
