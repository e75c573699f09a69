//! What the functions of a TOSCA 2.0 node filter mean while a requirement is fulfilled: the
//! filter is a condition clause evaluated with `SELF` as the relationship that would be
//! established to the candidate (L3446-3449), so `$get_property: [SELF, TARGET, p]` reads the
//! candidate node, `[SELF, CAPABILITY, p]` the capability the relationship would target,
//! `[SELF, SOURCE, p]` the requiring node and `[SELF, p]` the relationship itself.
//!
//! Only what a translator knows is evaluated: property values that are literals (or were
//! evaluated already), bound inputs, and `$available_allocation` of a target with one
//! representation. Attributes, unbound inputs and paths through other relationships are
//! known only at deployment; a clause that needs them is left to the orchestrator (the
//! candidate "may fit").

use indexmap::IndexMap;

use super::types::definitions;
use super::typing::{Typing, definitions_of};
use super::validation::{Scope, Typed};
use super::values::nested;
use crate::ir::{NodeId, Topology, Value};
use crate::model::TypeKind;
use crate::yaml::Node as Yaml;

/// The relationship being judged, before it exists.
pub struct Prospect<'a> {
    pub topology: &'a Topology,
    pub source: NodeId,
    pub target: NodeId,
    /// The capability of the target it would connect to.
    pub capability: Option<&'a str>,
    /// The relationship's own properties and its type's ancestry.
    pub properties: &'a IndexMap<String, Value>,
    pub types: &'a [String],
    /// How many representations each node template has, where known.
    pub counts: &'a [Option<u64>],
    /// What is left of a capability property after the allocations made so far, for a target
    /// with one representation.
    pub available: &'a dyn Fn(NodeId, &str, &str) -> Option<f64>,
    /// A property the filter reads that the entity's type does not define: the filter cannot
    /// hold of this candidate, and this says why.
    pub missing: Option<String>,
}

/// Where a path leads.
#[derive(Clone, Copy)]
enum Entity<'a> {
    Relationship,
    Node(NodeId),
    Capability(NodeId, &'a str),
}

impl<'a> Prospect<'a> {
    /// Follows a TOSCA path (L5508-5569) from its start to the entity it names, returning the
    /// entity and the rest of the arguments (the property name and nested keys); `None` for a
    /// path that leaves what is known before deployment.
    fn walk<'s, 'y>(&self, args: &'s [&'y Yaml]) -> Option<(Entity<'a>, &'s [&'y Yaml])> {
        let topology: &'a Topology = self.topology;
        let word = |i: usize| args.get(i).and_then(|a| a.as_str());
        let (mut at, mut i) = match word(0)? {
            "SELF" => (Entity::Relationship, 1),
            name => {
                // A node template by name, with an optional index.
                let id = topology
                    .nodes
                    .iter()
                    .position(|n| n.name == name)
                    .map(NodeId)?;
                let index = args
                    .get(1)
                    .and_then(|a| a.as_scalar())
                    .and_then(|s| match s.core {
                        crate::yaml::Core::Int(i) => Some(i),
                        _ => None,
                    });
                match index {
                    Some(0) => (Entity::Node(id), 2),
                    // Another representation of a multi-representation template.
                    Some(_) => return None,
                    None => (Entity::Node(id), 1),
                }
            }
        };
        loop {
            match (at, word(i)) {
                (Entity::Relationship, Some("SOURCE")) => at = Entity::Node(self.source),
                (Entity::Relationship, Some("TARGET")) => at = Entity::Node(self.target),
                (Entity::Relationship, Some("CAPABILITY")) => {
                    at = Entity::Capability(self.target, self.capability?)
                }
                (Entity::Node(id), Some("CAPABILITY")) => {
                    let name = word(i + 1)?;
                    let (key, _) = topology.nodes[id.0].capabilities.get_key_value(name)?;
                    at = Entity::Capability(id, key.as_str());
                    i += 1;
                }
                // Other relationships, and the relationships of a capability, exist only once
                // requirements are fulfilled.
                (_, Some("RELATIONSHIP")) => return None,
                _ => return Some((at, &args[i..])),
            }
            i += 1;
        }
    }

    /// The property values of an entity, with the type definitions of the entity's type
    /// (`None` when the type is not fully known).
    fn property(&mut self, typing: &mut Typing, at: Entity, name: &str) -> Option<Typed> {
        let topology: &'a Topology = self.topology;
        let (values, types, kind, owner) = match at {
            Entity::Relationship => (
                self.properties,
                self.types,
                TypeKind::Relationship,
                "the relationship".to_string(),
            ),
            Entity::Node(id) => {
                let node = &topology.nodes[id.0];
                (
                    &node.properties,
                    &node.types[..],
                    TypeKind::Node,
                    format!("`{}`", node.name),
                )
            }
            Entity::Capability(id, cap) => {
                let node = &topology.nodes[id.0];
                let c = &node.capabilities[cap];
                (
                    &c.properties,
                    &c.types[..],
                    TypeKind::Capability,
                    format!("capability `{cap}` of `{}`", node.name),
                )
            }
        };
        let defs = definitions(typing.model, kind, types);
        let defined = definitions_of(&defs, "properties");
        let complete = super::nodes::defs_complete(typing.model, &defs);
        let type_name = defined
            .get(name)
            .and_then(|d| d.type_name())
            .map(str::to_string);
        match values.get(name) {
            Some(value) if !value.has_call() => Some(Typed {
                value: value.clone(),
                type_name,
            }),
            Some(_) => None,
            None if complete && !defined.contains_key(name) => {
                self.missing
                    .get_or_insert_with(|| format!("{owner} has no property `{name}`"));
                None
            }
            // Defined, and not set: nothing to compare with.
            None => None,
        }
    }

    fn get_property(&mut self, typing: &mut Typing, args: &[&Yaml]) -> Option<Typed> {
        let (at, rest) = self.walk(args)?;
        let (name, keys) = rest.split_first()?;
        let found = self.property(typing, at, name.as_str()?)?;
        if keys.is_empty() {
            return Some(found);
        }
        let path = keys_of(typing, keys);
        Some(Typed {
            value: nested(&found.value, &path)?,
            type_name: None,
        })
    }

    fn get_input(&self, typing: &Typing, args: &[&Yaml]) -> Option<Typed> {
        let (name, keys) = args.split_first()?;
        let value = typing.reader.inputs?.get(name.as_str()?)?.as_ref()?;
        let path = keys_of(typing, keys);
        Some(Typed {
            value: nested(value, &path)?,
            type_name: None,
        })
    }

    /// `$available_allocation: [<path to a capability>, property]` (L5104-5133).
    fn available_allocation(&mut self, typing: &mut Typing, args: &[&Yaml]) -> Option<Typed> {
        let (Entity::Capability(id, cap), [name]) = self.walk(args)? else {
            return None;
        };
        let name = name.as_str()?;
        let typed = self.property(typing, Entity::Capability(id, cap), name)?;
        if self.counts.get(id.0).copied().flatten() != Some(1) {
            return None;
        }
        let left = (self.available)(id, cap, name)?;
        let value = match typed.value {
            Value::Integer(_) => Value::Integer(left as i64),
            Value::Scalar(mut s) => {
                // Back into the written unit, so comparisons read both sides alike.
                let factor = if s.number == 0.0 {
                    1.0
                } else {
                    s.canonical / s.number
                };
                s.canonical = left;
                s.number = left / factor;
                s.text = format!("{} {}", s.number, s.unit);
                Value::Scalar(s)
            }
            _ => Value::Float(left),
        };
        Some(Typed {
            value,
            type_name: typed.type_name,
        })
    }
}

/// The nested names and indices after a property or input name, as values.
fn keys_of(typing: &Typing, keys: &[&Yaml]) -> Vec<Value> {
    let mut quiet = crate::diag::Diagnostics::with_cap(0);
    keys.iter()
        .map(|k| typing.reader.value(k, &mut quiet))
        .collect()
}

impl Scope for Prospect<'_> {
    fn call(&mut self, typing: &mut Typing, function: &str, args: &[&Yaml]) -> Option<Typed> {
        match function {
            "get_property" => self.get_property(typing, args),
            "get_input" => self.get_input(typing, args),
            "available_allocation" => self.available_allocation(typing, args),
            // The requiring node's index: 0 when it has one representation.
            "node_index" if self.counts.get(self.source.0).copied().flatten() == Some(1) => {
                Some(Typed {
                    value: Value::Integer(0),
                    type_name: Some("integer".to_string()),
                })
            }
            // Attributes, relationship indices and everything else: at deployment.
            _ => None,
        }
    }
}
