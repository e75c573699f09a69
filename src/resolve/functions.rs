//! `get_property` and `get_attribute` checked against the resolved topology, and loops of
//! `get_property` reported; [`super::simple_eval`] evaluates what is known.
//!
//! Runs after node templates and requirements are built, over the YAML of each node template
//! and output (for spans), looking things up in the topology (for what resolution decided: the
//! host of a node, the capabilities it has). A reference to a node template, capability or
//! property that does not exist is an error at the argument that names it. A chain of
//! `get_property` through node properties that comes back to itself is an error that shows the
//! loop.
//!
//! TOSCA 2.0 writes these as `$get_property` with TOSCA paths, checked and evaluated by
//! [`super::calls`].

use super::types::definitions;
use super::typing::DefinitionsCache;
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Hosting;
use crate::ir::{Dialect, NodeId, Topology, Value};
use crate::model::tree::{Pair, Shape, Tree};
use crate::model::{Model, TopologyTemplate, TypeKind, call};

/// Where a function is written: which node `SELF` is, if any, and whether a relationship's
/// `SOURCE` and `TARGET` exist there.
#[derive(Clone, Copy)]
struct Place {
    this: Option<NodeId>,
    /// Inside a requirement assignment, whose relationship the function may name the ends of.
    relationship: bool,
}

/// A property of a node, as `get_property` reaches it: node, property name, path inside.
type Target = (NodeId, String);

/// Checks every reference and evaluates what can be evaluated.
pub fn check(
    model: &Model,
    template: &TopologyTemplate,
    reader: &ValueReader,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) {
    if model.dialect == Dialect::Tosca2 {
        return;
    }
    let mut checker = Checker {
        model,
        reader,
        index: super::nodes::owned_index(topology),
        hosting: Hosting::new(topology),
        loops: Default::default(),
        followed: Default::default(),
        definitions: Default::default(),
    };
    for (i, named) in template.node_templates.iter().enumerate() {
        let Some(def) = named.def.as_map() else {
            continue;
        };
        let place = Place {
            this: Some(NodeId::from_index(i)),
            relationship: false,
        };
        for (key, value) in def
            .entries()
            .iter()
            .filter_map(|e| Some((e.key.scalar_text()?, &e.value)))
        {
            match key {
                "properties" => {
                    for entry in value.as_map().map_or(&[][..], |m| m.entries()) {
                        let name = entry.key.scalar_text().unwrap_or_default();
                        checker.walk(
                            &entry.value,
                            place,
                            topology,
                            Some((NodeId::from_index(i), name.to_string())),
                            diags,
                        );
                    }
                }
                "requirements" => {
                    let place = Place {
                        relationship: true,
                        ..place
                    };
                    checker.walk(value, place, topology, None, diags)
                }
                "attributes" | "capabilities" | "interfaces" | "artifacts" => {
                    checker.walk(value, place, topology, None, diags)
                }
                _ => {}
            }
        }
    }
    for named in &template.outputs {
        if let Some(value) = named.definition().and_then(|d| d.value.as_ref()) {
            let place = Place {
                this: None,
                relationship: false,
            };
            checker.walk(value, place, topology, None, diags);
        }
    }
}

struct Checker<'a> {
    model: &'a Model,
    reader: &'a ValueReader<'a>,
    index: crate::hash::FastMap<String, NodeId>,
    hosting: Hosting,
    /// Loops already reported (their members, sorted), so each is reported once.
    loops: std::collections::HashSet<Vec<Target>>,
    /// Properties whose `get_property` chain was followed already (see [`Checker::follow`]).
    followed: crate::hash::FastSet<Target>,
    /// The property and attribute definitions of each type chain a reference names, merged
    /// once: every template's `get_property` asks its type's.
    definitions: DefinitionsCache<'a>,
}

impl Checker<'_> {
    /// Checks the functions in `node`; `property` is set when `node` is a node property's whole
    /// value, which `get_property` evaluation may then replace.
    fn walk<N: Tree>(
        &mut self,
        node: &N,
        place: Place,
        topology: &Topology,
        property: Option<Target>,
        diags: &mut Diagnostics,
    ) {
        if let Some(written) = call::call_in(self.reader.dialect, node)
            && let Some(args) = written.args
        {
            let function = written.name;
            let call = target_call(function, args, place);
            super::function_targets::check(self.model, &self.index, topology, &call, diags);
            if matches!(function, "get_property" | "get_attribute")
                && let Some(target) = self.reference(function, args, place, topology, diags)
                && function == "get_property"
                && let Some(property) = property
                && let Some(chain) = self.follow(property, target, topology)
            {
                let mut members = chain.clone();
                members.sort();
                members.dedup();
                if self.loops.insert(members) {
                    diags.push(loop_error(&chain, topology, node));
                }
            }
            self.walk(args, place, topology, None, diags);
            return;
        }
        match node.shape() {
            Shape::List(items) => {
                for item in items {
                    self.walk(item, place, topology, None, diags);
                }
            }
            Shape::Map(entries) => {
                for entry in entries {
                    self.walk(entry.value(), place, topology, None, diags);
                }
            }
            Shape::Scalar(..) => {}
        }
    }

    /// Checks the arguments of one `get_property`/`get_attribute`; returns the node property it
    /// names when it names one of a node directly.
    fn reference<N: Tree>(
        &mut self,
        function: &str,
        args: &N,
        place: Place,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) -> Option<Target> {
        let items = args.items().filter(|a| a.len() >= 2);
        let Some(items) = items else {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "{function} needs a list: [ <node template, SELF or HOST>, <name>, ... ]"
                    ),
                )
                .at(args.span())
                .hint(format!("e.g. `{function}: [ SELF, port ]`")),
            );
            return None;
        };
        let entity = items[0].scalar_text().unwrap_or_default();
        let nodes = self.entity_nodes(function, &items[0], place, topology, diags)?;
        let names: Vec<&str> = items[1..]
            .iter()
            .map(|i| i.scalar_text().unwrap_or_default())
            .collect();
        // [entity, capability or requirement, name, ...] or [entity, name, ...].
        let first = &topology.nodes[nodes[0].index()];
        if names.len() >= 2 && first.requirements.iter().any(|r| r.name == names[0]) {
            return None;
        }
        let via_capability = names.len() >= 2 && first.capabilities.contains_key(names[0]);
        let (capability, name, name_at) = if via_capability {
            (Some(names[0]), names[1], &items[2])
        } else {
            (None, names[0], &items[1])
        };
        let known = match self.defined(function, &nodes, capability, name, topology) {
            // A node's own property, named directly, is what a `get_property` loop runs through.
            Ok(Some(node))
                if function == "get_property" && capability.is_none() && entity != "HOST" =>
            {
                return Some((node, name.to_string()));
            }
            Ok(_) => return None,
            Err(known) => known,
        };
        let owner = match capability {
            Some(capability) => format!(
                "capability `{capability}` of node template `{}`",
                first.name
            ),
            None if entity == "HOST" => format!(
                "the hosts of `{}`",
                topology.nodes[place.this?.index()].name
            ),
            None => format!("node template `{}`", first.name),
        };
        diags.push(unknown_property(function, &owner, name, name_at, known));
        None
    }

    /// The nodes the first argument (`at`) names: `SELF`, the hosts of `SELF` for `HOST`, or a
    /// node template; `None` for a relationship's ends (judged where relationships are read) or
    /// what does not exist, reported.
    fn entity_nodes<N: Tree>(
        &self,
        function: &str,
        at: &N,
        place: Place,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) -> Option<Vec<NodeId>> {
        match at.scalar_text().unwrap_or_default() {
            "SELF" => match place.this {
                Some(this) => Some(vec![this]),
                None => {
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_UNKNOWN_NAME,
                            format!("{function}: SELF means the template the function is written in, and an output has none"),
                        )
                        .at(at.span())
                        .hint("name the node template instead"),
                    );
                    None
                }
            },
            "SOURCE" | "TARGET" if place.relationship => None,
            keyword @ ("SOURCE" | "TARGET" | "HOST")
                if keyword != "HOST" || place.this.is_none() =>
            {
                diags.push(out_of_context(function, keyword, place, at));
                None
            }
            "HOST" => self.hosts(function, place.this?, at, topology, diags),
            name => match self.index.get(name) {
                Some(&node) => Some(vec![node]),
                None => {
                    let mut known: Vec<&str> = self.index.keys().map(String::as_str).collect();
                    known.sort_unstable();
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_UNKNOWN_NAME,
                            format!(
                                "{function} names node template `{name}`, which does not exist"
                            ),
                        )
                        .at(at.span())
                        .did_you_mean(
                            name,
                            &known,
                            Some("name a node template, SELF or HOST".into()),
                        ),
                    );
                    None
                }
            },
        }
    }

    /// What `HOST` names from node `this`: the nodes down its hosting chain, nearest first
    /// (a property is looked up on the first that has it); `None` when it is hosted on nothing,
    /// reported at `at`.
    fn hosts<N: Tree>(
        &self,
        function: &str,
        this: NodeId,
        at: &N,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) -> Option<Vec<NodeId>> {
        let mut chain = Vec::new();
        let mut next = self.hosting.host(this);
        while let Some(host) = next {
            if chain.contains(&host) {
                break;
            }
            chain.push(host);
            next = self.hosting.host(host);
        }
        if chain.is_empty() {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!(
                        "{function}: HOST means the node `{}` is hosted on, and it is hosted on nothing",
                        topology.nodes[this.index()].name
                    ),
                )
                .at(at.span())
                .hint("give it a `host` requirement, or name the node template"),
            );
            return None;
        }
        Some(chain)
    }

    /// Looks `name` up among the properties (and, for `get_attribute`, the attributes) of each
    /// of `nodes`, or of their `capability`: `Ok` with the first node that defines it, `Ok(None)`
    /// when a type is not complete enough to tell, else `Err` with the names they do define.
    fn defined(
        &mut self,
        function: &str,
        nodes: &[NodeId],
        capability: Option<&str>,
        name: &str,
        topology: &Topology,
    ) -> Result<Option<NodeId>, Vec<&str>> {
        let mut known: Vec<&str> = Vec::new();
        for &node in nodes {
            let node_ir = &topology.nodes[node.index()];
            let (kind, types) = match capability {
                Some(capability) => match node_ir.capabilities.get(capability) {
                    Some(cap) => (TypeKind::Capability, &cap.types),
                    None => continue,
                },
                None => (TypeKind::Node, &node_ir.types),
            };
            let defs = definitions(self.model, kind, types);
            if !super::nodes::defs_complete(self.model, &defs) {
                return Ok(None);
            }
            let mut sections = vec!["properties"];
            if function == "get_attribute" {
                // Every property is also an attribute of the same name.
                sections.push("attributes");
            }
            for section in sections {
                let defined = self.definitions.of(&defs, section);
                if defined.contains_key(name) {
                    return Ok(Some(node));
                }
                known.extend(defined.keys().copied());
            }
        }
        Err(known)
    }

    /// Follows the chain of `get_property` calls from `property`, whose value reads `target`,
    /// through node properties whose whole value is another `get_property`: the chain when it
    /// comes back to a property it passed (a loop, the repeated property last), else `None`.
    ///
    /// Each property is followed once in a run: the properties of a chain followed before
    /// either lead to no loop or to one reported then, so a chain of 10,000 properties costs
    /// 10,000 steps, not 10,000 walks of it (with a scan of the walk at each step).
    fn follow(
        &mut self,
        property: Target,
        target: Target,
        topology: &Topology,
    ) -> Option<Vec<Target>> {
        if self.followed.contains(&property) {
            return None;
        }
        let mut chain = vec![property.clone()];
        let mut on_chain: crate::hash::FastSet<Target> = std::iter::once(property).collect();
        let mut next = Some(target);
        let mut looped = false;
        while let Some(target) = next.take() {
            if self.followed.contains(&target) {
                break;
            }
            chain.push(target.clone());
            if !on_chain.insert(target.clone()) {
                looped = true;
                break;
            }
            next = match topology.nodes[target.0.index()].properties.get(&target.1) {
                Some(Value::Call(call)) if call.function == crate::ir::Function::GetProperty => {
                    self.call_target(call, target.0, topology)
                }
                _ => None,
            };
        }
        self.followed.extend(on_chain);
        looped.then_some(chain)
    }

    /// The node property an IR `get_property` call of node `this` names, if it names one
    /// directly (SELF or a template, then a property of the node).
    fn call_target(
        &self,
        call: &crate::ir::Call,
        this: NodeId,
        topology: &Topology,
    ) -> Option<Target> {
        let entity = call.args.first()?.as_str()?;
        let node = match entity {
            "SELF" => this,
            "SOURCE" | "TARGET" | "HOST" => return None,
            name => *self.index.get(name)?,
        };
        let name = call.args.get(1)?.as_str()?;
        if topology.nodes[node.index()].capabilities.contains_key(name) && call.args.len() > 2 {
            return None;
        }
        Some((node, name.to_string()))
    }
}

/// A call's arguments for [`super::function_targets`]: a list's items, or the one argument.
fn target_call<'a, N: Tree>(
    function: &'a str,
    args: &'a N,
    place: Place,
) -> super::function_targets::Call<'a> {
    let items = args.items().unwrap_or(std::slice::from_ref(args));
    super::function_targets::Call {
        function,
        args: items.iter().map(|a| (a.scalar_text(), a.span())).collect(),
        this: place.this,
    }
}

/// `SOURCE` or `TARGET` outside a relationship, or `HOST` in an output: "SOURCE: A TOSCA
/// orchestrator will interpret this keyword as the Node Template instance that is at the source
/// end of the relationship that contains the referencing function" (A.4.1 Reserved Function
/// Keywords; TARGET the same at the target end), and HOST refers to "all nodes that host the
/// node using this reference": an output is no node, and a node's own properties, attributes,
/// capabilities and interfaces are in no relationship (checklist SP-ERR-42).
fn out_of_context<N: Tree>(function: &str, keyword: &str, place: Place, at: &N) -> Diagnostic {
    let (means, here) = match keyword {
        "HOST" => (
            "the nodes that host the node using it",
            "an output belongs to no node",
        ),
        "SOURCE" => (
            "the source node of the relationship the function is written in",
            if place.this.is_none() {
                "an output is in no relationship"
            } else {
                "a node template's own properties, attributes, capabilities and interfaces are in no relationship"
            },
        ),
        _ => (
            "the target node of the relationship the function is written in",
            if place.this.is_none() {
                "an output is in no relationship"
            } else {
                "a node template's own properties, attributes, capabilities and interfaces are in no relationship"
            },
        ),
    };
    Diagnostic::error(
        codes::TOSCA_UNKNOWN_NAME,
        format!("{function}: {keyword} means {means}, and {here}"),
    )
    .at(at.span())
    .hint("name the node template instead (SELF for the template the function is written in); SOURCE and TARGET belong in a requirement's relationship")
}

fn loop_error<N: Tree>(chain: &[Target], topology: &Topology, at: &N) -> Diagnostic {
    let shown: Vec<String> = chain
        .iter()
        .map(|(node, name)| format!("{}.{name}", topology.nodes[node.index()].name))
        .collect();
    Diagnostic::error(
        codes::TOSCA_CYCLE,
        format!("get_property loop: {}", shown.join(" → ")),
    )
    .at(at.span())
    .hint("one of these properties must have a value of its own")
}

/// "`owner` has no property `name`", at the argument that names it, with the names `known`
/// that `owner` does define.
pub(super) fn unknown_property<N: Tree>(
    function: &str,
    owner: &str,
    name: &str,
    at: &N,
    mut known: Vec<&str>,
) -> Diagnostic {
    let what = if function == "get_property" {
        "property"
    } else {
        "attribute or property"
    };
    known.sort();
    known.dedup();
    Diagnostic::error(
        codes::TOSCA_UNKNOWN_NAME,
        format!("{function}: {owner} has no {what} `{name}`"),
    )
    .at(at.span())
    .did_you_mean(
        name,
        &known,
        Some(if known.is_empty() {
            format!("{owner} defines none")
        } else {
            format!("defined: {}", known.join(", "))
        }),
    )
}
