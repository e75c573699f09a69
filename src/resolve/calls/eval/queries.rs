//! `$get_property`, `$get_attribute`, `$get_artifact` and `$available_allocation` (§10.2.1
//! Representation Graph Query Functions): where the path leads, whether the entity there defines
//! the name, and the value when it is known.

use super::inputs::wrong_selector;
use super::{Evaluator, Site};
use crate::diag::Diagnostics;
use crate::ir::{Call, TypeNames, Value};
use crate::model::TypeKind;
use crate::resolve::calls::builtins::{self, BuiltIn};
use crate::resolve::calls::path::{Entity, Graph, PathError, Reached, Scope};
use crate::resolve::nodes::defs_complete;
use crate::resolve::types::definitions;
use crate::resolve::values::nested;

/// What is wrong with a query's arguments (see [`Evaluator::aim`]); each names the index of
/// the first argument after the path where it needs it.
pub(super) enum Miss {
    Path(PathError),
    /// No name after the path.
    NoName(usize),
    /// Something after the name of an artifact or an allocated property.
    AfterName(usize),
    /// A key or index inside the value (after the name) that is neither.
    Selector(usize, String),
    /// A name the entity's type does not define: the message and the hint.
    Undefined(usize, String, String),
}

impl<'m, 't> Evaluator<'_, '_, 'm, 't> {
    /// `$get_property`, `$get_attribute`, `$get_artifact` and `$available_allocation`.
    pub(super) fn query(
        &mut self,
        b: &BuiltIn,
        call: &Call,
        args: Vec<Value>,
        site: &Site,
        scope: &Scope,
        diags: &mut Diagnostics,
    ) -> Value {
        let keep = |args: Vec<Value>| Value::Call(Box::new(call.with_args(args)));
        let (reached, name) = match self.aim(b, &args, scope) {
            Ok(aimed) => aimed,
            Err(miss) => {
                self.missed(b, miss, &args, site, diags);
                return keep(args);
            }
        };
        let end = reached.end;
        if b.name == "get_property" && reached.exact {
            let mut values = Vec::with_capacity(reached.entities.len());
            for entity in &reached.entities {
                match self.read_property(entity, &name) {
                    Some(v) if !v.has_call() => match nested(&v, &args[end + 1..]) {
                        Some(v) => values.push(v),
                        None => break,
                    },
                    _ => break,
                }
            }
            if values.len() == reached.entities.len() {
                return if reached.many {
                    Value::List(values)
                } else if let Some(v) = values.pop() {
                    v
                } else {
                    keep(normalized(self.graph, &reached, args))
                };
            }
        }
        if b.name == "available_allocation"
            && reached.exact
            && let [Entity::Capability(n, c)] = &reached.entities[..]
            && let Some(left) = self.available.and_then(|f| f(*n, c, &name))
            && let Some(like) = self.read_property(&reached.entities[0], &name)
        {
            return amount_like(&like, left);
        }
        keep(normalized(self.graph, &reached, args))
    }

    /// Where a query's (evaluated) `args` lead from `scope`, and the name they read there;
    /// what is wrong with them as data, reported by [`Self::missed`] where the query is
    /// evaluated, and not at all where only where it leads matters (a property waiting for
    /// what it reads, see [`Self::force`]).
    pub(super) fn aim(
        &mut self,
        b: &BuiltIn,
        args: &[Value],
        scope: &Scope,
    ) -> Result<(Reached, String), Miss> {
        let reached = self
            .graph
            .follow(self.typing.ancestry, scope, args)
            .map_err(Miss::Path)?;
        let end = reached.end;
        let Some(Value::String(name)) = args.get(end) else {
            return Err(Miss::NoName(end));
        };
        let only_name = matches!(b.name, "get_artifact" | "available_allocation");
        if only_name && args.len() > end + 1 {
            return Err(Miss::AfterName(end));
        }
        if wrong_selector(args, end + 1).is_some() {
            return Err(Miss::Selector(end, name.clone()));
        }
        for entity in &reached.entities {
            if let Err((message, hint)) = self.defines(b.name, entity, name) {
                return Err(Miss::Undefined(end, message, hint));
            }
        }
        Ok((reached, name.clone()))
    }

    /// Reports what [`Self::aim`] found wrong with a query's `args`, at the argument it is
    /// about.
    fn missed(
        &mut self,
        b: &BuiltIn,
        miss: Miss,
        args: &[Value],
        site: &Site,
        diags: &mut Diagnostics,
    ) {
        let (what, a_what) = match b.name {
            "get_artifact" => ("artifact", "an artifact"),
            "get_attribute" => ("attribute", "an attribute"),
            _ => ("property", "a property"),
        };
        let grammar = format!("write `${}: {}` ({})", b.name, b.grammar, b.section);
        match miss {
            Miss::Path(e) => self.error(
                site.arg(e.arg),
                format!("`${}`: {}", b.name, e.message),
                e.hint,
                diags,
            ),
            Miss::NoName(end) => {
                let at = if end < args.len() {
                    site.arg(end)
                } else {
                    site.name
                };
                let found = args.get(end).map_or("nothing".to_string(), |v| {
                    format!("`{}`", crate::ir::value_text(v))
                });
                self.error(
                    at,
                    format!(
                        "`${}` needs the name of {a_what} after its TOSCA path, and finds {found}",
                        b.name
                    ),
                    grammar,
                    diags,
                );
            }
            Miss::AfterName(end) => self.error(
                site.arg(end + 1),
                format!("`${}` takes nothing after the {what} name", b.name),
                grammar,
                diags,
            ),
            Miss::Selector(end, name) => {
                self.selectors(args, end + 1, &format!("{what} `{name}`"), site, diags);
            }
            Miss::Undefined(end, message, hint) => self.error(
                site.arg(end),
                format!("`${}`: {message}", b.name),
                hint,
                diags,
            ),
        }
    }

    /// The kind and type chain of the entity a path reached, and how messages name it.
    fn owner(&self, entity: &Entity) -> (TypeKind, TypeNames, String) {
        let topology = self.graph.topology;
        match entity {
            Entity::Node(n) => {
                let node = &topology.nodes[n.index()];
                (
                    TypeKind::Node,
                    node.types.clone(),
                    format!("node template `{}` ({})", node.name, node.type_name),
                )
            }
            Entity::Capability(n, c) => {
                let node = &topology.nodes[n.index()];
                let types = node
                    .capabilities
                    .get(c)
                    .map(|c| c.types.clone())
                    .unwrap_or_default();
                (
                    TypeKind::Capability,
                    types,
                    format!("capability `{c}` of node template `{}`", node.name),
                )
            }
            Entity::Relationship(r) => {
                let rel = &topology.relationships[r.index()];
                (
                    TypeKind::Relationship,
                    rel.types.clone(),
                    format!("relationship `{}` ({})", rel.name, rel.type_name),
                )
            }
            Entity::Open(open) => (
                TypeKind::Relationship,
                open.types.clone(),
                format!(
                    "relationship type `{}`",
                    open.types.first().map_or("?", String::as_str)
                ),
            ),
            Entity::Typed(kind, types) => (
                *kind,
                types.clone(),
                format!(
                    "{} `{}`",
                    kind.noun(),
                    types.first().map_or("?", String::as_str)
                ),
            ),
        }
    }

    /// Whether the entity's type defines the name a query asks for.
    pub(super) fn defines(
        &mut self,
        function: &str,
        entity: &Entity,
        name: &str,
    ) -> Result<(), (String, String)> {
        let topology = self.graph.topology;
        let (kind, types, owner) = self.owner(entity);
        match function {
            "get_artifact" => {
                if kind != TypeKind::Node {
                    return Err((
                        format!("the path leads to {owner}, and artifacts belong to nodes"),
                        "end the path at a node (§10.2.1.4 `$get_artifact`)".into(),
                    ));
                }
                if let Entity::Node(n) = entity {
                    let node = &topology.nodes[n.index()];
                    if !node.artifacts.contains_key(name) {
                        let known: Vec<&str> = node.artifacts.keys().map(String::as_str).collect();
                        return Err((
                            format!("{owner} has no artifact `{name}`"),
                            suggestion(name, &known, "artifact"),
                        ));
                    }
                }
                return Ok(());
            }
            "available_allocation" if kind != TypeKind::Capability => {
                return Err((
                    format!("the path leads to {owner}, and allocations are made against capabilities"),
                    "end the path at a capability: `[ SELF, CAPABILITY, <capability> ]` or `[ SELF, CAPABILITY ]` in a relationship (§10.2.1.8 $available_allocation)".into(),
                ));
            }
            _ => {}
        }
        if types.is_empty() {
            return Ok(());
        }
        let model = self.model();
        let defs = definitions(model, kind, &types);
        if !defs_complete(model, &defs) {
            return Ok(());
        }
        let sections: &[&'static str] = if function == "get_attribute" {
            // Every property is also an attribute (§9.6 Attribute Definition).
            &["attributes", "properties"]
        } else {
            &["properties"]
        };
        let mut known: Vec<String> = Vec::new();
        for section in sections {
            let defined = self.declared(kind, &types, section);
            if let Some(type_name) = defined.get(name) {
                if function == "available_allocation" {
                    let type_name = type_name.clone().unwrap_or_default();
                    if !self.typing.allocatable(&type_name) {
                        return Err((
                            format!(
                                "property `{name}` of {owner} is a `{type_name}`, and only integer, float and scalar properties are allocated"
                            ),
                            "name a property of type integer, float or a scalar type (§10.2.1.8 $available_allocation)"
                                .into(),
                        ));
                    }
                }
                return Ok(());
            }
            known.extend(defined.keys().map(|k| k.to_string()));
        }
        known.sort();
        known.dedup();
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        let what = match function {
            "get_attribute" => "attribute or property",
            _ => "property",
        };
        Err((
            format!("{owner} has no {what} `{name}`"),
            suggestion(name, &known, what),
        ))
    }
}

/// `amount` as a value of the kind of `like` (the property it is left of): an integer, a float,
/// or a scalar in `like`'s unit, so comparisons read it as they read the property.
pub(super) fn amount_like(like: &Value, amount: f64) -> Value {
    match like {
        Value::Integer(_) => Value::Integer(amount as i64),
        Value::Scalar(s) => {
            // The amount is in the canonical unit; written back in the property's unit.
            let factor = if s.number == 0.0 {
                1.0
            } else {
                s.canonical / s.number
            };
            builtins::scalar_like(s, amount / factor)
        }
        _ => Value::Float(amount),
    }
}

pub(super) fn suggestion(name: &str, known: &[&str], what: &str) -> String {
    match crate::diag::closest(name, known) {
        Some(c) => format!("did you mean `{c}`?"),
        None if known.is_empty() => format!("it defines no {what}"),
        None => format!("defined: {}", known.join(", ")),
    }
}

/// A query's arguments in the Simple Profile's form when its path leads to one node template
/// (`[node, name, ...]`) or one capability of one (`[node, capability, name, ...]`); as written
/// otherwise.
pub(super) fn normalized(graph: &Graph, reached: &Reached, args: Vec<Value>) -> Vec<Value> {
    if !reached.exact || reached.many {
        return args;
    }
    let rest = &args[reached.end..];
    let head = match &reached.entities[..] {
        [Entity::Node(n)] => vec![Value::string(&graph.topology.nodes[n.index()].name)],
        [Entity::Capability(n, c)] => vec![
            Value::string(&graph.topology.nodes[n.index()].name),
            Value::string(c),
        ],
        _ => return args,
    };
    head.into_iter().chain(rest.iter().cloned()).collect()
}
