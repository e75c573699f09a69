//! Node representations (TOSCA 2.0 §14 Creating Multiple Representations from Templates): the
//! topology of templates expanded into one node per representation and one relationship per
//! relationship representation, as `toscana ir --expand` prints it. The same pairing checks every
//! topology whose counts are known, so a template whose relationships cannot all be made is
//! reported even without `--expand`.
//!
//! Naming: a node template `web` with `count: 3` becomes the nodes `web[0]`, `web[1]` and
//! `web[2]` (every template gets an index, `[0]` when it has one representation), each with
//! [`Instance`] saying where it comes from; a relationship of requirement `host` of `web[1]`
//! is `web[1].host[0]`, where `0` is its `$relationship_index` among the relationships `web[1]`
//! has for `host` (§14.3.6 Many-to-Many Relationships), and [`RelationshipInstance`] names the
//! relationship of templates it represents.
//!
//! Pairing: each representation of a source gets `count` relationships, each to a different
//! representation of the target (§14.3.2 One-to-Many Relationships). A `[template, index]` target
//! names the representation, with `$node_index` (the source's index) and `$relationship_index`
//! evaluated for each relationship (§14.3.4 Matched Pairs, §14.3.6 Many-to-Many Relationships).
//! Otherwise the representation with the fewest relationships of this kind so far is taken (the
//! lowest index among equals), so equal counts pair up one to one and the rest spread evenly; a
//! representation whose capability has too little left for the relationship's `allocation` is
//! passed over (§8.5.5 Capability Allocation). Values are evaluated per representation:
//! `$node_index`, `$relationship_index`, and `$get_input` and arithmetic over them (`$get_input: [
//! list, $node_index ]`, §14.2 Node-Specific Input Values).
//!
//! Bounds: counts are added with checked arithmetic, and neither the expansion nor the check
//! goes past [`Limits::max_representations`] node and relationship representations together.
//! [`check`] pairs without making the representations (no node or relationship is copied), so
//! `count: 1000000` costs `check` a million small steps, not a million copies of the node.
//!
//! [`Limits::max_representations`]: crate::limits::Limits::max_representations

use std::collections::{BTreeSet, HashMap};

use indexmap::IndexMap;

use super::allocation::number;
use crate::ir::{
    BoundaryMapping, Call, Function, Instance, Interface, Interfaces, Node, NodeId, PolicyTarget,
    Relationship, RelationshipId, RelationshipInstance, Requirement, Shared, Topology, Value,
};

/// Why representations cannot be paired (or expanded) as the templates ask: a count not known,
/// more representations than the limit, a relationship that cannot be made; with the element it
/// is about. The resolver reports each as a diagnostic at that element.
pub struct PairingProblem {
    pub at: Option<crate::ir::Location>,
    pub message: String,
    pub hint: String,
    /// An optional requirement that is left short is a warning, not an error.
    pub optional: bool,
    /// The problem is the limit on representations, not the pairing.
    pub limit: bool,
}

/// The expanded topology, or why there is none (a count not known, more than `limit` node and
/// relationship representations).
pub fn expand(
    topology: &Topology,
    limit: u64,
) -> Result<(Topology, Vec<PairingProblem>), PairingProblem> {
    let counts = counts(topology)?;
    let nodes = nodes_within(topology, &counts, limit)?;
    let inputs = input_values(topology);
    let first = firsts(&counts);
    let next = nodes as usize;
    let mut out = Topology {
        source: topology.source.clone(),
        description: topology.description.clone(),
        metadata: topology.metadata.clone(),
        inputs: topology.inputs.clone(),
        nodes: Vec::with_capacity(next),
        relationships: Vec::new(),
        groups: topology.groups.clone(),
        policies: topology.policies.clone(),
        workflows: topology.workflows.clone(),
        outputs: topology.outputs.clone(),
        substitution: topology.substitution.clone(),
        substituted: topology.substituted.clone(),
        location: topology.location,
    };
    for (t, node) in topology.nodes.iter().enumerate() {
        for i in 0..counts[t] {
            let eval = Eval {
                inputs: &inputs,
                node_index: Some(i),
                relationship_index: None,
            };
            out.nodes.push(Node {
                name: format!("{}[{i}]", node.name),
                count: Value::Integer(1),
                instance: Some(Instance {
                    template: node.name.clone(),
                    index: i,
                }),
                properties: eval.map(&node.properties),
                attributes: eval.map(&node.attributes),
                capabilities: node
                    .capabilities
                    .iter()
                    .map(|(k, c)| {
                        let mut c = crate::ir::Capability::clone(c);
                        c.properties = eval.map(&c.properties);
                        c.attributes = eval.map(&c.attributes);
                        (k.clone(), Shared::new(c))
                    })
                    .collect(),
                interfaces: eval.interfaces(&node.interfaces),
                requirements: Vec::new(),
                ..node.clone()
            });
        }
    }
    let mut pairing = Pairing::new(topology, &counts, &first, &inputs, Some(&mut out));
    pairing.limit(limit, nodes);
    pairing.all()?;
    let problems = pairing.problems;
    // Every representation of a member or target is one.
    let first = &first;
    let spread = |id: NodeId| {
        (0..counts[id.index()]).map(move |i| NodeId::from_index(first[id.index()] + i as usize))
    };
    for g in &mut out.groups {
        g.members = g.members.iter().flat_map(|&id| spread(id)).collect();
    }
    for s in &mut out.substituted {
        s.nodes = s.nodes.iter().flat_map(|&id| spread(id)).collect();
    }
    for p in &mut out.policies {
        p.targets = p
            .targets
            .iter()
            .flat_map(|t| match t {
                PolicyTarget::Node(id) => spread(*id).map(PolicyTarget::Node).collect(),
                PolicyTarget::Group(g) => vec![PolicyTarget::Group(*g)],
            })
            .collect();
    }
    if let Some(s) = &mut out.substitution {
        // A boundary maps onto the template's first representation.
        let remap = |m: &BoundaryMapping| BoundaryMapping {
            node: NodeId::from_index(first[m.node.index()]),
            ..m.clone()
        };
        s.capabilities = s.capabilities.iter().map(remap).collect();
        s.requirements = s.requirements.iter().map(remap).collect();
    }
    Ok((out, problems))
}

/// Checks that every relationship of the topology can be made between representations, when
/// every count is known, without making them. Past `limit` representations the pairing is not
/// checked, which a warning says.
pub fn check(topology: &Topology, limit: u64) -> Vec<PairingProblem> {
    let one = |v: &Value| matches!(v, Value::Integer(1));
    let trivial = topology.nodes.iter().all(|n| one(&n.count))
        && topology
            .relationships
            .iter()
            .all(|r| one(&r.count) && r.target_index.is_none());
    if trivial
        || topology
            .nodes
            .iter()
            .any(|n| super::counts::known(&n.count).is_none())
    {
        // One representation each: the fulfilment already judged every relationship.
        return Vec::new();
    }
    let paired = counts(topology).and_then(|counts| {
        let nodes = nodes_within(topology, &counts, limit)?;
        let first = firsts(&counts);
        let inputs = input_values(topology);
        let mut pairing = Pairing::new(topology, &counts, &first, &inputs, None);
        pairing.limit(limit, nodes);
        pairing.all()?;
        Ok(pairing.problems)
    });
    match paired {
        Ok(problems) => problems,
        // The translators keep `count` symbolic: only the check is left undone.
        Err(problem) => vec![PairingProblem {
            message: format!(
                "the relationships between node representations are not checked: {}",
                problem.message
            ),
            optional: true,
            ..problem
        }],
    }
}

/// The node representations the templates' counts add up to, when at most `limit`; else the
/// problem, at the template whose count passes it.
fn nodes_within(topology: &Topology, counts: &[u64], limit: u64) -> Result<u64, PairingProblem> {
    let mut total = 0u64;
    for (node, &c) in topology.nodes.iter().zip(counts) {
        total = total
            .checked_add(c)
            .filter(|total| *total <= limit)
            .ok_or_else(|| too_many(limit, node.location, &node.name))?;
    }
    Ok(total)
}

/// The problem of a topology with more than `limit` node and relationship representations,
/// found at the element `at` (named `name`).
fn too_many(limit: u64, at: Option<crate::ir::Location>, name: &str) -> PairingProblem {
    PairingProblem {
        at,
        message: format!(
            "with `{name}` the topology has more than {limit} node and relationship representations, the limit"
        ),
        hint: crate::limits::Limit::Representations.hint(),
        optional: false,
        limit: true,
    }
}

/// The first expanded id of each template, whose counts are `counts` (within the limit).
fn firsts(counts: &[u64]) -> Vec<usize> {
    let mut first = Vec::with_capacity(counts.len());
    let mut next = 0usize;
    for &c in counts {
        first.push(next);
        next += c as usize;
    }
    first
}

/// The value of each input that has one (given, or its default).
fn input_values(topology: &Topology) -> HashMap<&str, &Value> {
    topology
        .inputs
        .iter()
        .filter_map(|i| Some((i.name.as_str(), i.value.as_ref().or(i.default.as_ref())?)))
        .collect()
}

/// The `$relationship_index` of relationship `id` in the topology of templates, where one
/// value serves every representation of its source: the relationship is made once per source
/// representation (`count` 1) and the relationships its source makes earlier for the same
/// requirement have known counts. The numbering is the pairing's (see [`expand`]): the
/// relationships of a requirement in the order of its assignments, those left for the
/// orchestrator not counted, so `toscana ir` and `toscana ir --expand` agree.
pub fn template_relationship_index(topology: &Topology, id: RelationshipId) -> Option<u64> {
    let rel = topology.relationships.get(id.index())?;
    if super::counts::known(&rel.count) != Some(1) {
        return None;
    }
    let mut index = 0u64;
    for req in &topology.nodes[rel.source.index()].requirements {
        if req.name != rel.requirement {
            continue;
        }
        match req.relationship {
            Some(r) if r == id => return Some(index),
            Some(r) => index += super::counts::known(&topology.relationships[r.index()].count)?,
            None => {}
        }
    }
    None
}

/// Evaluates in the topology of templates each `[template, index]` target index that one value
/// serves for every relationship it stands for: `$node_index` where the source has one
/// representation, `$relationship_index` where [`template_relationship_index`] knows it, and
/// `$get_input` and arithmetic over them. An index that still depends on the representation
/// stays an expression, which the pairing (and `--expand`) evaluates per representation.
pub fn settle_target_indices(topology: &mut Topology) {
    let inputs: HashMap<&str, &Value> = topology
        .inputs
        .iter()
        .filter_map(|i| Some((i.name.as_str(), i.value.as_ref().or(i.default.as_ref())?)))
        .collect();
    let mut settled = Vec::new();
    for (i, rel) in topology.relationships.iter().enumerate() {
        let Some(index) = rel.target_index.as_ref().filter(|v| v.has_call()) else {
            continue;
        };
        let one = super::counts::known(&topology.nodes[rel.source.index()].count) == Some(1);
        let eval = Eval {
            inputs: &inputs,
            node_index: one.then_some(0),
            relationship_index: template_relationship_index(
                topology,
                RelationshipId::from_index(i),
            ),
        };
        let value = eval.value(index);
        if !value.has_call() {
            settled.push((i, value));
        }
    }
    for (i, value) in settled {
        topology.relationships[i].target_index = Some(value);
    }
}

/// Every template's count, or the problem with the first that is not known.
fn counts(topology: &Topology) -> Result<Vec<u64>, PairingProblem> {
    topology
        .nodes
        .iter()
        .map(|n| {
            super::counts::known(&n.count).ok_or_else(|| PairingProblem {
                at: n.location,
                message: format!(
                    "the `count` of node template `{}` is {}, not known until deployment, so its representations cannot be listed",
                    n.name,
                    crate::ir::value_text(&n.count)
                ),
                hint: "give the input it reads a value with --set or --inputs".to_string(),
                optional: false,
                limit: false,
            })
        })
        .collect()
}

struct Pairing<'a> {
    topology: &'a Topology,
    counts: &'a [u64],
    first: &'a [usize],
    inputs: &'a HashMap<&'a str, &'a Value>,
    /// The expanded topology, whose relationships and requirements the pairing makes; `None`
    /// when it only checks that they can be made.
    out: Option<&'a mut Topology>,
    /// The most node and relationship representations, and how many more relationships it
    /// allows.
    limit: u64,
    left: u64,
    /// Allocated so far from (target representation, capability, property).
    allocated: HashMap<(usize, String, String), f64>,
    /// For each relationship of templates: its target's representations by how many of its
    /// relationships they have so far, then by index.
    load: HashMap<usize, BTreeSet<(u64, u64)>>,
    problems: Vec<PairingProblem>,
}

impl<'a> Pairing<'a> {
    /// A pairing of the templates of `topology`, whose counts are `counts`, into `out` (or
    /// only checked, with `None`), with no limit yet.
    fn new(
        topology: &'a Topology,
        counts: &'a [u64],
        first: &'a [usize],
        inputs: &'a HashMap<&'a str, &'a Value>,
        out: Option<&'a mut Topology>,
    ) -> Self {
        Pairing {
            topology,
            counts,
            first,
            inputs,
            out,
            limit: u64::MAX,
            left: u64::MAX,
            allocated: HashMap::new(),
            load: HashMap::new(),
            problems: Vec::new(),
        }
    }

    /// At most `limit` representations, `nodes` of which are the nodes.
    fn limit(&mut self, limit: u64, nodes: u64) {
        self.limit = limit;
        self.left = limit.saturating_sub(nodes);
    }

    /// Every representation of every template, in order; stops at the limit.
    fn all(&mut self) -> Result<(), PairingProblem> {
        let topology = self.topology;
        for (s, node) in topology.nodes.iter().enumerate() {
            for i in 0..self.counts[s] {
                self.representation(node, s, i)?;
            }
        }
        Ok(())
    }

    /// The relationships of representation `i` of template `s`, in the order of its
    /// requirement assignments.
    fn representation(&mut self, node: &Node, s: usize, i: u64) -> Result<(), PairingProblem> {
        let source = self.first[s] + i as usize;
        let mut indices: HashMap<&str, u64> = HashMap::new();
        for req in &node.requirements {
            let Some(rid) = req.relationship else {
                if let Some(out) = self.out.as_deref_mut() {
                    out.nodes[source].requirements.push(Requirement {
                        count: Eval::node(self.inputs, i).value(&req.count),
                        ..req.clone()
                    });
                }
                continue;
            };
            let rel = &self.topology.relationships[rid.index()];
            let k = match super::counts::known(&Eval::node(self.inputs, i).value(&rel.count)) {
                Some(k) => k,
                None => continue,
            };
            // Each relationship is a representation: a count past what the limit leaves is
            // refused before it is paired one by one.
            self.left = self
                .left
                .checked_sub(k)
                .ok_or_else(|| too_many(self.limit, rel.location, &rel.name))?;
            let next = indices.entry(req.name.as_str()).or_default();
            let mut taken: Vec<u64> = Vec::new();
            for _ in 0..k {
                let j = *next;
                let eval = Eval {
                    inputs: self.inputs,
                    node_index: Some(i),
                    relationship_index: Some(j),
                };
                let Some(t) = self.target(rel, rid, &eval, &taken, i, req.optional) else {
                    break;
                };
                taken.push(t);
                *next += 1;
                let target = self.first[rel.target.index()] + t as usize;
                let Some(out) = self.out.as_deref_mut() else {
                    continue;
                };
                out.relationships.push(Relationship {
                    name: format!("{}.{}[{j}]", out.nodes[source].name, req.name),
                    source: NodeId::from_index(source),
                    target: NodeId::from_index(target),
                    count: Value::Integer(1),
                    target_index: None,
                    properties: eval.map(&rel.properties),
                    attributes: eval.map(&rel.attributes),
                    interfaces: eval.interfaces(&rel.interfaces),
                    instance: Some(RelationshipInstance {
                        of: rel.name.clone(),
                        index: j,
                    }),
                    ..rel.clone()
                });
                let id = RelationshipId::from_index(out.relationships.len() - 1);
                out.nodes[source].requirements.push(Requirement {
                    relationship: Some(id),
                    count: Value::Integer(1),
                    ..req.clone()
                });
            }
            let made = taken.len() as u64;
            if made < k
                && let Some(out) = self.out.as_deref_mut()
            {
                out.nodes[source].requirements.push(Requirement {
                    relationship: None,
                    count: Value::Integer((k - made) as i64),
                    ..req.clone()
                });
            }
        }
        Ok(())
    }

    /// The representation of `rel`'s target for the next relationship of source
    /// representation `i`, or `None` (reported) when there is none.
    fn target(
        &mut self,
        rel: &Relationship,
        rid: RelationshipId,
        eval: &Eval,
        taken: &[u64],
        i: u64,
        optional: bool,
    ) -> Option<u64> {
        let target = &self.topology.nodes[rel.target.index()];
        let have = self.counts[rel.target.index()];
        let source_name = format!("{}[{i}]", self.topology.nodes[rel.source.index()].name);
        if let Some(index) = &rel.target_index {
            let value = eval.value(index);
            let found = match value {
                Value::Integer(n) if n >= 0 && (n as u64) < have => Some(n as u64),
                _ => None,
            };
            if found.is_none() {
                self.problems.push(PairingProblem {
                    at: rel.location,
                    message: format!(
                        "`{source_name}` has no target for requirement `{}`: it names representation {} of `{}`, which has {have} (indices 0 to {})",
                        rel.requirement,
                        crate::ir::value_text(&value),
                        target.name,
                        have.saturating_sub(1)
                    ),
                    hint: "give the templates counts that pair up, or compute the index so it stays below the target's count (§14.3.6 Many-to-Many Relationships)".to_string(),
                    optional,
                    limit: false,
                });
            }
            if let Some(t) = found {
                self.allocate(rel, t, eval);
            }
            return found;
        }
        let mut set = self
            .load
            .remove(&rid.index())
            .unwrap_or_else(|| (0..have).map(|t| (0, t)).collect());
        let mut passed: Vec<(u64, u64)> = Vec::new();
        let mut found = None;
        while let Some(entry) = set.pop_first() {
            if taken.contains(&entry.1) {
                passed.push(entry);
                continue;
            }
            if !self.room(rel, entry.1, eval) {
                // Capacity only shrinks: this representation stays full for this relationship.
                continue;
            }
            found = Some(entry);
            break;
        }
        set.extend(passed);
        if let Some((load, t)) = found {
            set.insert((load + 1, t));
        }
        self.load.insert(rid.index(), set);
        let Some((_, t)) = found else {
            self.problems.push(PairingProblem {
                at: rel.location,
                message: format!(
                    "`{source_name}` has no target left for requirement `{}`: each of its relationships needs a different representation of `{}` with room for its allocation, and none of the {have} is left",
                    rel.requirement, target.name
                ),
                hint: "lower the requirement's `count`, or give the target more representations or capacity".to_string(),
                optional,
                limit: false,
            });
            return None;
        };
        self.allocate(rel, t, eval);
        Some(t)
    }

    /// Whether representation `t` of the target has room for the relationship's allocation.
    fn room(&self, rel: &Relationship, t: u64, eval: &Eval) -> bool {
        let Some(cap) = &rel.capability else {
            return true;
        };
        let target = &self.topology.nodes[rel.target.index()];
        let Some(capability) = target.capabilities.get(cap) else {
            return true;
        };
        let at = Eval::node(self.inputs, t);
        rel.allocation.iter().all(|(property, amount)| {
            let (Some(total), Some(amount)) = (
                capability
                    .properties
                    .get(property)
                    .and_then(|v| number(&at.value(v))),
                number(&eval.value(amount)),
            ) else {
                return true;
            };
            let used = self
                .allocated
                .get(&(
                    self.first[rel.target.index()] + t as usize,
                    cap.clone(),
                    property.clone(),
                ))
                .copied()
                .unwrap_or(0.0);
            used + amount <= total
        })
    }

    fn allocate(&mut self, rel: &Relationship, t: u64, eval: &Eval) {
        let Some(cap) = &rel.capability else { return };
        let target = self.first[rel.target.index()] + t as usize;
        for (property, amount) in &rel.allocation {
            if let Some(n) = number(&eval.value(amount)) {
                *self
                    .allocated
                    .entry((target, cap.clone(), property.clone()))
                    .or_default() += n;
            }
        }
    }
}

/// Evaluates what depends on the representation: `$node_index`, `$relationship_index`, and
/// `$get_input` and arithmetic whose arguments they complete.
struct Eval<'a> {
    inputs: &'a HashMap<&'a str, &'a Value>,
    node_index: Option<u64>,
    relationship_index: Option<u64>,
}

impl<'a> Eval<'a> {
    fn node(inputs: &'a HashMap<&'a str, &'a Value>, i: u64) -> Self {
        Eval {
            inputs,
            node_index: Some(i),
            relationship_index: None,
        }
    }

    fn map(&self, values: &IndexMap<String, Value>) -> IndexMap<String, Value> {
        values
            .iter()
            .map(|(k, v)| (k.clone(), self.value(v)))
            .collect()
    }

    /// Interface and operation inputs, evaluated.
    fn interfaces(&self, interfaces: &Interfaces) -> Interfaces {
        interfaces
            .iter()
            .map(|(k, f)| {
                let mut f = Interface::clone(f);
                f.inputs = self.map(&f.inputs);
                for op in f
                    .operations
                    .values_mut()
                    .chain(f.notifications.values_mut())
                {
                    op.inputs = self.map(&op.inputs);
                }
                (k.clone(), Shared::new(f))
            })
            .collect()
    }

    fn value(&self, value: &Value) -> Value {
        match value {
            Value::List(items) => Value::List(items.iter().map(|v| self.value(v)).collect()),
            Value::Map(map) => Value::Map(Box::new(self.map(map))),
            Value::Call(call) => self.call(call),
            other => other.clone(),
        }
    }

    fn call(&self, call: &Call) -> Value {
        let index = |i: Option<u64>| i.map(|i| Value::Integer(i as i64));
        match call.function {
            Function::NodeIndex if call.args.is_empty() => {
                if let Some(v) = index(self.node_index) {
                    return v;
                }
            }
            Function::RelationshipIndex if call.args.is_empty() => {
                if let Some(v) = index(self.relationship_index) {
                    return v;
                }
            }
            _ => {}
        }
        let args: Vec<Value> = call.args.iter().map(|a| self.value(a)).collect();
        let known = |v: &Value| !v.has_call();
        let computed = match (&call.function, &args[..]) {
            (Function::GetInput, [Value::String(name), path @ ..]) if path.iter().all(known) => {
                self.inputs
                    .get(name.as_str())
                    .and_then(|v| super::values::nested(v, path))
            }
            (Function::Sum, items) if !items.is_empty() => fold(items, 0, i64::checked_add),
            (Function::Product, items) if !items.is_empty() => fold(items, 1, i64::checked_mul),
            (Function::Difference, [Value::Integer(a), Value::Integer(b)]) => {
                a.checked_sub(*b).map(Value::Integer)
            }
            (Function::Remainder, [Value::Integer(a), Value::Integer(b)]) if *b != 0 => {
                a.checked_rem_euclid(*b).map(Value::Integer)
            }
            (Function::Quotient, [Value::Integer(a), Value::Integer(b)]) if *b != 0 => {
                Some(Value::Float(*a as f64 / *b as f64))
            }
            _ => None,
        };
        computed.unwrap_or_else(|| {
            Value::Call(Box::new(Call {
                function: call.function.clone(),
                args,
                implementation: call.implementation.clone(),
                span: call.span,
            }))
        })
    }
}

/// Integer arithmetic over integers only; anything else is left to the general evaluator.
fn fold(items: &[Value], start: i64, op: fn(i64, i64) -> Option<i64>) -> Option<Value> {
    items
        .iter()
        .try_fold(start, |acc, v| match v {
            Value::Integer(n) => op(acc, *n),
            _ => None,
        })
        .map(Value::Integer)
}
