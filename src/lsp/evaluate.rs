//! What a function call evaluates to, for hover: any call of a template, input default, output,
//! interface input or workflow, in the Simple Profile (`get_input`, `concat`, ...) or TOSCA 2.0
//! (`$get_input`, `$concat`, ...).
//!
//! Two sources, the first that knows wins:
//!
//! 1. the resolved topology: a call that is itself a value of a template (a property, a
//!    capability's property, an interface input, an output's value) was evaluated by the
//!    resolver there, so the hover says exactly what `toscana check` and the backends use;
//! 2. the call read on its own, for calls inside other calls' arguments and outside the
//!    service template: `get_input` is the input's value or default, `get_property` and
//!    `get_attribute` read the resolved template they name (`SELF` is the template the call is
//!    written in), and the functions computed from their arguments alone (`concat`, `join`,
//!    TOSCA 2.0's arithmetic, ...) are applied with the resolver's own implementation
//!    ([`crate::resolve::calls::builtins::apply`]) once their arguments are known.
//!
//! What neither knows (an attribute set at deployment, `get_operation_output`, an unbound
//! input, a `HOST` or `TARGET` path) is said to be known only at deployment.

use super::check::Checked;
use super::index::{CallSite, Owner, Step};
use crate::ir::{Dialect, Function, Topology, Value};
use crate::model::call;
use crate::model::definitions::{Body, Definition, Entry, Schema};
use crate::model::tree::{Pair, Shape as TreeShape, Tree};
use crate::model::value::{Data, Value as ModelValue};
use crate::resolve::calls::builtins::{self, Group, Outcome};
use crate::source::Span;
use crate::yaml::Node;

/// At most this many calls deep are read on their own (a call nested in a call ...).
const MAX_DEPTH: usize = 16;

/// The hover of a call: the function's meaning, and what it evaluates to.
pub fn describe(checked: &Checked, call: &CallSite) -> String {
    let name = call.function.trim_start_matches('$');
    let meaning = match call.function.starts_with('$') {
        true => builtins::built_in(name).map(|f| {
            format!(
                "`{}: {}` ({})",
                call.function,
                f.grammar.trim_start_matches(&call.function).trim(),
                f.section
            )
        }),
        false => meaning_1x(&Function::parse(name, Dialect::SimpleProfile))
            .map(|m| format!("{m} (Simple Profile §4 TOSCA functions)")),
    };
    let mut out = format!("**`{}`**", call.function);
    if let Some(meaning) = meaning {
        out.push_str(&format!(": {meaning}"));
    }
    out.push_str("\n\n");
    out.push_str(&evaluation(checked, call));
    out
}

/// The one-line meaning of a Simple Profile function (Simple Profile 1.3 §4 TOSCA functions).
fn meaning_1x(function: &Function) -> Option<&'static str> {
    Some(match function {
        Function::GetInput => "the value of an input of the service template",
        Function::GetProperty => {
            "the value of a property of a template, or of one of its capabilities"
        }
        Function::GetAttribute => {
            "the value of an attribute of a template, known once it is deployed (or its default)"
        }
        Function::GetOperationOutput => "an output of an operation, known once it has run",
        Function::GetNodesOfType => "the names of the node templates of a type",
        Function::GetArtifact => "the location of an artifact once it is deployed",
        Function::Concat => "the strings given, one after the other",
        Function::Join => "the strings of a list, with a delimiter between them",
        Function::Token => "the substring of a string between separators, by position",
        _ => return None,
    })
}

/// What the call evaluates to, as a sentence.
fn evaluation(checked: &Checked, call: &CallSite) -> String {
    let Some(topology) = checked.topology.as_ref() else {
        return "not evaluated: the template does not resolve yet".into();
    };
    let placed = call
        .owner
        .as_ref()
        .zip(call.place.as_ref())
        .and_then(|(owner, place)| placed(topology, owner, place));
    if let Some(value) = &placed
        && !value.has_call()
    {
        let (owner, place) = (call.owner.as_ref(), call.place.as_deref());
        return format!(
            "`{}` of `{}` evaluates to `{}`",
            shown_place(place.unwrap_or_default()),
            owner.map(owner_name).unwrap_or_default(),
            show(value)
        );
    }
    let read = written_call(checked, call).and_then(|written| {
        let evaluator = Alone {
            topology,
            this: This::Template(call.owner.as_ref()),
        };
        match written {
            Written::Yaml(node) => evaluator.value(node, 0),
            Written::Typed(value) => evaluator.value(value, 0),
        }
    });
    match read {
        Some(value) if !value.has_call() => format!("evaluates to `{}`", show(&value)),
        _ => "known only at deployment".into(),
    }
}

/// A call as written: in a definition the model keeps as YAML, or in a value of the typed
/// model (a group's or policy's keynames, an output's definition).
enum Written<'m> {
    Yaml(&'m Node),
    Typed(&'m ModelValue),
}

/// The call as written, found again in its definition (the index keeps spans, not trees).
fn written_call<'m>(checked: &'m Checked, call: &CallSite) -> Option<Written<'m>> {
    let model = checked.model.as_ref()?;
    let span = call.span;
    let holds = |at: Span| at.file == span.file && contains(at, span);
    if let Some(topology) = &model.topology {
        let named = topology
            .inputs
            .iter()
            .chain(&topology.node_templates)
            .chain(&topology.relationship_templates)
            .chain(&topology.workflows);
        if let Some(found) = named
            .filter(|n| holds(n.def.span))
            .find_map(|n| find(&n.def, span))
        {
            return Some(Written::Yaml(found));
        }
        for grouping in topology.groups.iter().chain(&topology.policies) {
            if !holds(grouping.definition) {
                continue;
            }
            let typed = grouping.values().map(|(_, value)| value);
            if let Some(found) = typed.filter(|v| holds(v.span)).find_map(|v| find(v, span)) {
                return Some(Written::Typed(found));
            }
            let triggers = grouping.triggers.as_ref().filter(|t| holds(t.span));
            if let Some(found) = triggers.and_then(|t| find(t, span)) {
                return Some(Written::Yaml(found));
            }
        }
        let mut outputs = topology.outputs.iter().filter(|o| holds(o.body_span()));
        if let Some(found) = outputs.find_map(|o| find_in_entry(o, span)) {
            return Some(Written::Typed(found));
        }
    }
    model
        .types
        .values()
        .filter(|t| holds(t.def.span))
        .find_map(|t| find(&t.def, span))
        .map(Written::Yaml)
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// The value at `span` in what an output writes.
fn find_in_entry(entry: &Entry, span: Span) -> Option<&ModelValue> {
    match &entry.body {
        Body::OneLine(value) => find(value, span),
        Body::Definition(def) => find_in_definition(def, span),
    }
}

/// The value at `span` under the values a typed definition writes.
fn find_in_definition(def: &Definition, span: Span) -> Option<&ModelValue> {
    let schemas = [&def.entry_schema, &def.key_schema];
    let in_schemas = schemas.into_iter().flatten().find_map(|s| match &**s {
        Schema::Type(v) | Schema::Malformed(v) => find(v, span),
        Schema::Definition(d) => find_in_definition(d, span),
    });
    let unknown = def.unknown.iter().map(|e| &e.value);
    def.values()
        .map(|(_, value)| value)
        .chain(unknown)
        .find_map(|v| find(v, span))
        .or(in_schemas)
}

/// The node at `span` under `node`, walking only into the children that hold it.
fn find<N: Tree>(node: &N, span: Span) -> Option<&N> {
    if node.span() == span {
        return Some(node);
    }
    let holds = |child: &&N| child.span().file == span.file && contains(child.span(), span);
    match node.shape() {
        TreeShape::Map(entries) => entries
            .iter()
            .map(Pair::value)
            .filter(holds)
            .find_map(|child| find(child, span)),
        TreeShape::List(items) => items.iter().filter(holds).find_map(|c| find(c, span)),
        TreeShape::Scalar(..) => None,
    }
}

fn owner_name(owner: &Owner) -> &str {
    match owner {
        Owner::Node(n)
        | Owner::Relationship(n)
        | Owner::Group(n)
        | Owner::Policy(n)
        | Owner::Output(n) => n,
    }
}

/// A place as a dotted path, without the leading `properties` (`port`, not `properties.port`).
fn shown_place(place: &[Step]) -> String {
    let steps = match place.first() {
        Some(Step::Key(k)) if k == "properties" && place.len() > 1 => &place[1..],
        _ => place,
    };
    steps
        .iter()
        .map(|s| match s {
            Step::Key(k) => k.clone(),
            Step::Item(i) => i.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The resolved value at `place` of `owner`'s definition, where the topology keeps one.
fn placed(topology: &Topology, owner: &Owner, place: &[Step]) -> Option<Value> {
    let key = |i: usize| match place.get(i) {
        Some(Step::Key(k)) => Some(k.as_str()),
        _ => None,
    };
    let (value, rest) = match owner {
        Owner::Node(name) => {
            let node = topology.nodes.iter().find(|n| &n.name == name)?;
            match key(0)? {
                "properties" => (node.properties.get(key(1)?)?, 2),
                "attributes" => (node.attributes.get(key(1)?)?, 2),
                "capabilities" => {
                    let capability = node.capabilities.get(key(1)?)?;
                    match key(2)? {
                        "properties" => (capability.properties.get(key(3)?)?, 4),
                        "attributes" => (capability.attributes.get(key(3)?)?, 4),
                        _ => return None,
                    }
                }
                "interfaces" => {
                    let interface = node.interfaces.get(key(1)?)?;
                    interface_value(interface, place, 2)?
                }
                _ => return None,
            }
        }
        Owner::Relationship(name) => {
            let relationship = topology.relationships.iter().find(|r| &r.name == name)?;
            match key(0)? {
                "properties" => (relationship.properties.get(key(1)?)?, 2),
                "attributes" => (relationship.attributes.get(key(1)?)?, 2),
                "interfaces" => {
                    let interface = relationship.interfaces.get(key(1)?)?;
                    interface_value(interface, place, 2)?
                }
                _ => return None,
            }
        }
        Owner::Group(name) => {
            let group = topology.groups.iter().find(|g| &g.name == name)?;
            match key(0)? {
                "properties" => (group.properties.get(key(1)?)?, 2),
                _ => return None,
            }
        }
        Owner::Policy(name) => {
            let policy = topology.policies.iter().find(|p| &p.name == name)?;
            match key(0)? {
                "properties" => (policy.properties.get(key(1)?)?, 2),
                _ => return None,
            }
        }
        Owner::Output(name) => {
            let output = topology.outputs.iter().find(|o| &o.name == name)?;
            match key(0)? {
                "value" => (&output.value, 1),
                _ => return None,
            }
        }
    };
    descend(value, &place[rest..]).cloned()
}

/// An interface's input, or an operation's (`inputs` of the interface, or
/// `operations.NAME.inputs` / the 1.x `NAME.inputs`), from step `at` of `place`.
fn interface_value<'t>(
    interface: &'t crate::ir::Interface,
    place: &[Step],
    at: usize,
) -> Option<(&'t Value, usize)> {
    let key = |i: usize| match place.get(i) {
        Some(Step::Key(k)) => Some(k.as_str()),
        _ => None,
    };
    if key(at)? == "inputs" {
        return Some((interface.inputs.get(key(at + 1)?)?, at + 2));
    }
    let (operation, next) = match key(at)? {
        "operations" => (interface.operations.get(key(at + 1)?)?, at + 2),
        "notifications" => (interface.notifications.get(key(at + 1)?)?, at + 2),
        name => (interface.operations.get(name)?, at + 1),
    };
    match key(next)? {
        "inputs" => Some((operation.inputs.get(key(next + 1)?)?, next + 2)),
        _ => None,
    }
}

/// The part of `value` at `steps`.
fn descend<'v>(value: &'v Value, steps: &[Step]) -> Option<&'v Value> {
    let mut value = value;
    for step in steps {
        value = match (value, step) {
            (Value::Map(map), Step::Key(k)) => map.get(k)?,
            (Value::List(items), Step::Item(i)) => items.get(*i)?,
            _ => return None,
        };
    }
    Some(value)
}

/// A call read on its own, against the resolved topology.
struct Alone<'t> {
    topology: &'t Topology,
    /// What `SELF` names.
    this: This<'t>,
}

/// What `SELF` is where a call is read (§10.3 TOSCA Path).
enum This<'t> {
    /// The template the call is written in (none in outputs).
    Template(Option<&'t Owner>),
    /// The relationship a requirement would establish to a candidate target: `SELF` in a
    /// TOSCA 2.0 requirement's node filter (§8.6 Node Filter Definition).
    Relationship(&'t Candidate<'t>),
}

/// A relationship not made yet: from `source` to `target`, to the target's capability
/// `capability` when it is known which one the requirement would use.
pub struct Candidate<'t> {
    pub source: &'t crate::ir::Node,
    pub target: &'t crate::ir::Node,
    pub capability: Option<&'t str>,
}

/// Whether the TOSCA 2.0 condition clause `clause` (a node filter, §8.6 Node Filter
/// Definition) holds for the relationship `candidate`, with `SELF` that relationship: `None`
/// when it cannot be known before deployment (an attribute, an unbound input, a property
/// without a value, a relationship's own property, a function toscana does not compute) or
/// when the clause is not a boolean expression (`check` reports that).
pub fn holds(topology: &Topology, candidate: &Candidate<'_>, clause: &Node) -> Option<bool> {
    let evaluator = Alone {
        topology,
        this: This::Relationship(candidate),
    };
    match evaluator.value(clause, 0)? {
        Value::Boolean(b) => Some(b),
        _ => None,
    }
}

impl Alone<'_> {
    /// `node` as a value: a literal, or a call evaluated; `None` when not known. Calls are
    /// those of the template's dialect ([`call::call_in`], the detection the resolver uses),
    /// and TOSCA 2.0's `$$` escapes are undone in strings and keys as the resolver does.
    fn value<N: Tree>(&self, node: &N, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(written) = call::call_in(self.topology.source.dialect, node) {
            return self.call(&written, depth);
        }
        match node.shape() {
            TreeShape::Scalar(text, data) => Some(match data {
                Data::Null => Value::Null,
                Data::Bool(b) => Value::Boolean(b),
                Data::Integer(i) => Value::Integer(i),
                Data::Float(f) => Value::Float(f),
                Data::String => Value::String(self.unescape(text).to_string()),
            }),
            TreeShape::List(items) => items
                .iter()
                .map(|item| self.value(item, depth + 1))
                .collect::<Option<Vec<_>>>()
                .map(Value::List),
            TreeShape::Map(entries) => entries
                .iter()
                .map(|e| {
                    Some((
                        self.unescape(e.key().as_str()?).to_string(),
                        self.value(e.value(), depth + 1)?,
                    ))
                })
                .collect::<Option<indexmap::IndexMap<_, _>>>()
                .map(|map| Value::Map(Box::new(map))),
        }
    }

    /// The text a string stands for in the template's dialect.
    fn unescape<'s>(&self, text: &'s str) -> &'s str {
        match self.topology.source.dialect {
            Dialect::Tosca2 => call::unescape(text),
            _ => text,
        }
    }

    /// The value of `written`, a call: `None` when it is not known (an attribute, a function
    /// toscana does not compute, one of TOSCA 2.0's custom functions).
    fn call<N: Tree>(&self, written: &call::Written<'_, N>, depth: usize) -> Option<Value> {
        let name = written.name;
        let tosca2 = self.topology.source.dialect == Dialect::Tosca2;
        let dialect = match tosca2 {
            true => Dialect::Tosca2,
            false => Dialect::SimpleProfile,
        };
        let function = Function::parse(name, dialect);
        let list = call::arguments(written);
        let text = |i: usize| list.get(i).and_then(|n| n.as_str());
        let values = || {
            list.iter()
                .map(|n| self.value(*n, depth + 1))
                .collect::<Option<Vec<_>>>()
        };
        match function {
            Function::GetInput => {
                let input = self
                    .topology
                    .inputs
                    .iter()
                    .find(|i| Some(i.name.as_str()) == text(0));
                input
                    .and_then(|i| i.value.clone().or_else(|| i.default.clone()))
                    .and_then(|v| descend_args(v, list.get(1..).unwrap_or_default()))
            }
            Function::GetProperty | Function::GetAttribute => {
                let strings: Option<Vec<&str>> = list.iter().map(|n| n.as_str()).collect();
                let attribute = function == Function::GetAttribute;
                strings.and_then(|path| self.read(&path, attribute))
            }
            Function::Concat | Function::Join => applied(&function, &values()?),
            Function::And | Function::Or => {
                self.logic(function == Function::And, written.args?, depth)
            }
            _ if tosca2 => {
                if builtins::built_in(name)?.group != Group::Pure {
                    return None;
                }
                applied(&function, &values()?)
            }
            _ => None,
        }
    }

    /// `$and` (`all`) or `$or` of clauses of which some may be unknown: one false clause decides
    /// `$and` and one true clause `$or` whatever the others (§10.2.2.1.1 $and, §10.2.2.1.2 $or).
    fn logic<N: Tree>(&self, all: bool, args: &N, depth: usize) -> Option<Value> {
        let mut unknown = false;
        for clause in args.items()? {
            match self.value(clause, depth + 1) {
                Some(Value::Boolean(b)) if b != all => return Some(Value::Boolean(b)),
                Some(Value::Boolean(_)) => {}
                _ => unknown = true,
            }
        }
        (!unknown).then_some(Value::Boolean(all))
    }

    /// A property (or attribute) through a path: `[SELF | template, (capability)?, name,
    /// nested...]`, TOSCA 2.0's `CAPABILITY` keyword allowed before a capability's name.
    fn read(&self, path: &[&str], attribute: bool) -> Option<Value> {
        let (&entity, rest) = path.split_first()?;
        let name = match (entity, &self.this) {
            ("SELF", This::Template(owner)) => match owner.as_ref()? {
                Owner::Node(n) | Owner::Relationship(n) => n.as_str(),
                _ => return None,
            },
            ("SELF", This::Relationship(candidate)) => {
                return self.read_relationship(candidate, rest, attribute);
            }
            ("SOURCE" | "TARGET" | "HOST", _) => return None,
            (name, _) => name,
        };
        if let Some(node) = self.topology.nodes.iter().find(|n| n.name == name) {
            return read_node(node, rest, attribute);
        }
        let relationship = self
            .topology
            .relationships
            .iter()
            .find(|r| r.name == name)?;
        read_section(
            &relationship.properties,
            &relationship.attributes,
            rest,
            attribute,
        )
    }

    /// A path from a relationship not made yet (`<rel_ctx>` of §10.3 TOSCA Path): `CAPABILITY`
    /// is the target's capability the requirement would use, `SOURCE` and `TARGET` its ends. A
    /// property of the relationship itself, anything further along its edges, and attributes
    /// (set at deployment) are not known.
    fn read_relationship(
        &self,
        candidate: &Candidate<'_>,
        rest: &[&str],
        attribute: bool,
    ) -> Option<Value> {
        if attribute {
            // An attribute's value is the deployed node's; its default says nothing of it.
            return None;
        }
        let (&step, further) = rest.split_first()?;
        match step {
            "CAPABILITY" if further.first() != Some(&"RELATIONSHIP") => {
                let capability = candidate.target.capabilities.get(candidate.capability?)?;
                read_section(
                    &capability.properties,
                    &capability.attributes,
                    further,
                    attribute,
                )
            }
            "SOURCE" | "TARGET" if further.first() != Some(&"RELATIONSHIP") => {
                let node = if step == "SOURCE" {
                    candidate.source
                } else {
                    candidate.target
                };
                read_node(node, further, attribute)
            }
            _ => None,
        }
    }
}

/// A property (or attribute) of `node` through the rest of a path (`<node_ctx>` of §10.3 TOSCA
/// Path): its own, or with TOSCA 2.0's `CAPABILITY` keyword (or a 1.x capability name) one of
/// its capabilities'.
fn read_node(node: &crate::ir::Node, rest: &[&str], attribute: bool) -> Option<Value> {
    let rest = match rest.first() {
        Some(&"CAPABILITY") => &rest[1..],
        _ => rest,
    };
    if let Some(found) = read_section(&node.properties, &node.attributes, rest, attribute) {
        return Some(found);
    }
    let capability = node.capabilities.get(*rest.first()?)?;
    read_section(
        &capability.properties,
        &capability.attributes,
        &rest[1..],
        attribute,
    )
}

/// The property (or, for an attribute, attribute before property) named first in `rest`, and
/// the keys inside it after.
fn read_section(
    properties: &indexmap::IndexMap<String, Value>,
    attributes: &indexmap::IndexMap<String, Value>,
    rest: &[&str],
    attribute: bool,
) -> Option<Value> {
    let (first, nested) = rest.split_first()?;
    let value = match attribute {
        true => attributes.get(*first).or_else(|| properties.get(*first))?,
        false => properties.get(*first)?,
    };
    let steps: Vec<Step> = nested.iter().map(|k| Step::Key(k.to_string())).collect();
    descend(value, &steps).cloned()
}

/// `get_input`'s further arguments (TOSCA 1.3 and 2.0: keys or positions into the value).
fn descend_args<N: Tree>(value: Value, args: &[&N]) -> Option<Value> {
    let steps: Option<Vec<Step>> = args
        .iter()
        .map(|a| match a.shape() {
            TreeShape::Scalar(_, Data::Integer(i)) => Some(Step::Item(usize::try_from(i).ok()?)),
            TreeShape::Scalar(..) => Some(Step::Key(a.as_str()?.to_string())),
            _ => None,
        })
        .collect();
    descend(&value, &steps?).cloned()
}

/// A pure function applied by the resolver's implementation, when its arguments are known.
fn applied(function: &Function, args: &[Value]) -> Option<Value> {
    if args.iter().any(Value::has_call) {
        return None;
    }
    let built_in = builtins::built_in(function.name())?;
    if built_in.arity(args.len()).is_err() {
        return None;
    }
    match builtins::apply(
        function,
        args,
        &crate::resolve::patterns::Patterns::default(),
    ) {
        Outcome::Value(value) => Some(value),
        _ => None,
    }
}

/// A value as a template would write it, in YAML's flow style.
pub fn show(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{k}: {}", show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Scalar(scalar) => scalar.text.clone(),
        Value::Version(version) => version.text.clone(),
        Value::Timestamp(text) | Value::Bytes(text) => text.clone(),
        Value::Call(_) => "(known at deployment)".into(),
    }
}
