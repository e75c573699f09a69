//! TOSCA values as HCL expressions: literals, `get_input` → `var.x`, `get_property` → the value it
//! names, `get_attribute` → a resource attribute through the rule's attribute table,
//! `concat` / `join` → string templates, `token` → `element(split(...))`.
//!
//! What has no Terraform equivalent (`get_operation_output`, `get_artifact`, an attribute with no
//! entry in the attribute table...) is an `Err` with the reason, which the caller reports as a
//! warning at the element's span.

use std::collections::HashMap;

use crate::back::Ledger;
use crate::back::filters::hcl_str;
use crate::ir::{Call, Function, NodeId, Topology, Value, eval};

/// How deep `get_property` may chase other `get_property` calls before giving up (a cycle).
const MAX_DEPTH: usize = 16;

/// What a node is in Terraform, for references to it.
#[derive(Debug, Clone, Default)]
pub struct NodeRef<'b> {
    /// `aws_instance.web_vm`, or `None` when the node is no resource of its own.
    pub address: Option<String>,
    /// TOSCA attribute name (or `capability.attribute`) → the path after the address
    /// (`public_ip`): the rule's `bind.attributes`, borrowed from the rule (every node of a
    /// rule has the same table).
    pub attributes: Option<&'b serde_json::Map<String, serde_json::Value>>,
}

/// The attributes that name a machine's public address: `public_address` (Simple Profile
/// 1.3 §5.9.4 tosca.nodes.Compute) and `public_ip_address` (TOSCA 1.0's name for it).
pub const PUBLIC_ADDRESSES: &[&str] = &["public_address", "public_ip_address"];

/// Everything an expression may refer to.
pub struct Scope<'a> {
    pub topology: &'a Topology,
    /// TOSCA input name → Terraform variable name.
    pub vars: &'a HashMap<String, String>,
    /// By node index.
    pub nodes: &'a [NodeRef<'a>],
    /// By node index: the expression of the node's public address where a resource of its
    /// own holds it (a machine's floating IP), which wins over its attribute table for
    /// [`PUBLIC_ADDRESSES`].
    pub public_addresses: &'a [Option<String>],
    /// The direct host of each node (for `HOST`).
    pub hosts: &'a [Option<NodeId>],
    /// Node name → index ([`node_ids`]): functions name nodes, and a scan of all nodes per
    /// function made a topology's translation quadratic (a third of `tosca2tf` at 100,000 nodes).
    pub node_ids: &'a HashMap<String, NodeId>,
    /// Records the properties `get_property` reads (see [`crate::back::Ledger`]).
    pub ledger: &'a Ledger,
}

/// The value `value` has when the configuration is written: a `get_input` call (which the
/// Terraform backend receives for every input, see
/// [`crate::back::Backend::keeps_input_calls`]) is the input's bound value or default. For the
/// choices made at translation that Terraform cannot make from a variable (the instance size
/// in a rule's table, the image for an `os`, a port to open); everything else refers to
/// `var.<name>`. An input with neither, or a selector that is not a literal, stays the call.
pub fn known<'v>(topology: &'v Topology, value: &'v Value) -> &'v Value {
    match value {
        Value::Call(call) => crate::ir::eval::bound_input(topology, call).unwrap_or(value),
        _ => value,
    }
}

/// Each node's index by its name, the first node of a name winning (as a scan would find it).
pub fn node_ids(topology: &Topology) -> HashMap<String, NodeId> {
    let mut ids = HashMap::with_capacity(topology.nodes.len());
    for id in topology.node_ids() {
        ids.entry(topology[id].name.clone()).or_insert(id);
    }
    ids
}

impl Scope<'_> {
    fn node_named(&self, name: &str, this: Option<NodeId>) -> Result<NodeId, String> {
        match name {
            "SELF" => this.ok_or_else(|| "`SELF` means nothing outside a node".to_string()),
            "HOST" => this
                .and_then(|n| self.hosts.get(n.index()).copied().flatten())
                .ok_or_else(|| "`HOST` names no host here".to_string()),
            "SOURCE" | "TARGET" => Err(format!("`{name}` is only known inside a relationship")),
            _ => self
                .node_ids
                .get(name)
                .copied()
                .ok_or_else(|| format!("there is no node `{name}`")),
        }
    }

    /// The HCL expression of `value`, seen from node `this` (for `SELF` and `HOST`).
    pub fn expr(&self, value: &Value, this: Option<NodeId>) -> Result<String, String> {
        self.expr_at(value, this, 0)
    }

    fn expr_at(&self, value: &Value, this: Option<NodeId>, depth: usize) -> Result<String, String> {
        if depth > MAX_DEPTH {
            return Err("the value refers to itself through get_property".to_string());
        }
        Ok(match value {
            Value::Null => "null".to_string(),
            Value::Boolean(b) => b.to_string(),
            Value::Integer(i) => i.to_string(),
            Value::Float(f) if f.is_finite() => number(*f),
            Value::Float(f) => return Err(format!("{f} is not a number Terraform can hold")),
            Value::String(s) | Value::Timestamp(s) | Value::Bytes(s) => hcl_str(s),
            Value::Scalar(s) => hcl_str(&s.text),
            Value::Version(v) => hcl_str(&v.text),
            Value::List(items) => {
                let parts: Result<Vec<String>, String> = items
                    .iter()
                    .map(|i| self.expr_at(i, this, depth + 1))
                    .collect();
                format!("[{}]", parts?.join(", "))
            }
            Value::Map(map) if map.is_empty() => "{}".to_string(),
            Value::Map(map) => {
                let mut parts = Vec::with_capacity(map.len());
                for (k, v) in map.iter() {
                    parts.push(format!(
                        "{} = {}",
                        key(k),
                        self.expr_at(v, this, depth + 1)?
                    ));
                }
                format!("{{ {} }}", parts.join(", "))
            }
            Value::Call(call) => eval::call(
                call,
                &mut Hcl {
                    scope: self,
                    this,
                    depth,
                },
            )?,
        })
    }

    /// The literal a value stands for: itself, or what `get_property` names (followed through
    /// further `get_property` calls); `None` for anything known only at deployment.
    pub fn resolved(&self, value: &Value, this: Option<NodeId>) -> Option<Value> {
        let mut value = value.clone();
        let mut this = this;
        for _ in 0..MAX_DEPTH {
            match &value {
                Value::Call(c) if c.function == Function::GetProperty => {
                    let next = self.property(&c.args, this).ok()?.clone();
                    if let Some(Value::String(n)) = c.args.first() {
                        this = self.node_named(n, this).ok().or(this);
                    }
                    value = next;
                }
                v if v.has_call() => return None,
                _ => return Some(value),
            }
        }
        None
    }

    /// The value `get_property` names: a node's property, or a property of one of its
    /// capabilities, then indexes into it.
    fn property<'v>(
        &'v self,
        args: &'v [Value],
        this: Option<NodeId>,
    ) -> Result<&'v Value, String> {
        let names: Vec<&str> = args.iter().filter_map(Value::as_str).collect();
        let [entity, rest @ ..] = names.as_slice() else {
            return Err("get_property needs a node and a property".to_string());
        };
        let mut id = self.node_named(entity, this)?;
        // `HOST` names the first node down the hosting chain that has the property.
        while *entity == "HOST"
            && !has_property(&self.topology.nodes[id.index()], rest)
            && let Some(host) = self.hosts.get(id.index()).copied().flatten()
        {
            id = host;
        }
        let node = &self.topology.nodes[id.index()];
        // Read through the ledger: what a function carries into the configuration is
        // translated, the capability's property as much as the node's.
        let (topology, i) = (self.topology, id.index());
        let read = match rest {
            [cap, prop, tail @ ..]
                if node
                    .capabilities
                    .get(*cap)
                    .is_some_and(|c| c.properties.contains_key(*prop)) =>
            {
                self.ledger
                    .capability_property(topology, i, cap, prop)
                    .map(|v| (v, tail))
            }
            [prop, tail @ ..] if node.properties.contains_key(*prop) => {
                self.ledger.property(topology, i, prop).map(|v| (v, tail))
            }
            _ => None,
        };
        let Some((value, tail)) = read else {
            return Err(format!(
                "node `{}` has no property {}",
                node.name,
                rest.join(".")
            ));
        };
        let mut value = value;
        for key in tail {
            value = match value {
                Value::Map(m) => m.get(*key),
                Value::List(l) => key.parse::<usize>().ok().and_then(|i| l.get(i)),
                _ => None,
            }
            .ok_or_else(|| format!("`{key}` is not in property {}", rest.join(".")))?;
        }
        Ok(value)
    }

    fn attribute(
        &self,
        args: &[Value],
        this: Option<NodeId>,
        depth: usize,
    ) -> Result<String, String> {
        let names: Vec<&str> = args.iter().filter_map(Value::as_str).collect();
        let [entity, rest @ ..] = names.as_slice() else {
            return Err("get_attribute needs a node and an attribute".to_string());
        };
        if rest.is_empty() {
            return Err("get_attribute needs an attribute name".to_string());
        }
        let mut id = self.node_named(entity, this)?;
        let keys = [rest.join("."), rest[1..].join("."), rest[0].to_string()];
        let lookup = |id: NodeId| -> Option<String> {
            let target = &self.nodes[id.index()];
            let address = target.address.as_ref()?;
            if let Some(Some(public)) = self.public_addresses.get(id.index())
                && keys.iter().any(|k| PUBLIC_ADDRESSES.contains(&k.as_str()))
            {
                return Some(public.clone());
            }
            keys.iter().filter(|k| !k.is_empty()).find_map(|k| {
                match target.attributes.and_then(|a| a.get(k)) {
                    Some(serde_json::Value::String(path)) => Some(format!("{address}.{path}")),
                    _ => None,
                }
            })
        };
        // `HOST` names the first node down the hosting chain that has the attribute.
        while *entity == "HOST"
            && lookup(id).is_none()
            && let Some(host) = self.hosts.get(id.index()).copied().flatten()
        {
            id = host;
        }
        if let Some(found) = lookup(id) {
            return Ok(found);
        }
        let node = &self.topology.nodes[id.index()];
        let target = &self.nodes[id.index()];
        // An attribute that only reflects a property the template set is that value.
        if rest.len() == 1
            && let Some(v) = self.ledger.property(self.topology, id.index(), rest[0])
            && !matches!(v, Value::Null)
        {
            return self.expr_at(v, Some(id), depth + 1);
        }
        Err(match &target.address {
            Some(address) => format!(
                "attribute `{}` of node `{}` has no entry in the attribute table of {address}",
                rest.join("."),
                node.name
            ),
            None => format!(
                "node `{}` is no Terraform resource, so its attribute `{}` cannot be read",
                node.name,
                rest.join(".")
            ),
        })
    }

    /// An HCL string template of the parts: literals as text, the rest as `${...}`.
    fn template(
        &self,
        parts: &[Value],
        this: Option<NodeId>,
        depth: usize,
    ) -> Result<String, String> {
        // A template of one interpolation and nothing else is that expression, as
        // `terraform fmt` writes it.
        let non_empty: Vec<&Value> = parts
            .iter()
            .filter(|p| !matches!(p, Value::String(s) if s.is_empty()))
            .collect();
        if let [only @ (Value::Call(_) | Value::List(_) | Value::Map(_))] = non_empty.as_slice() {
            let e = self.expr_at(only, this, depth + 1)?;
            return Ok(e);
        }
        let mut out = String::from("\"");
        for part in parts {
            match part {
                Value::String(s) => out.push_str(&inner(s)),
                Value::Integer(i) => out.push_str(&i.to_string()),
                Value::Boolean(b) => out.push_str(&b.to_string()),
                Value::Float(f) if f.is_finite() => out.push_str(&number(*f)),
                Value::Scalar(s) => out.push_str(&inner(&s.text)),
                Value::Version(v) => out.push_str(&inner(&v.text)),
                other => {
                    let e = self.expr_at(other, this, depth + 1)?;
                    // A nested template is spliced in rather than interpolated.
                    match e.strip_prefix('"').and_then(|e| e.strip_suffix('"')) {
                        Some(body) if !body.contains('"') => out.push_str(body),
                        _ => {
                            out.push_str("${");
                            out.push_str(&e);
                            out.push('}');
                        }
                    }
                }
            }
        }
        out.push('"');
        Ok(out)
    }
}

/// A call as an HCL expression ([`Scope::expr`]), seen from node `this` (for `SELF` and
/// `HOST`).
struct Hcl<'s, 'a> {
    scope: &'s Scope<'a>,
    this: Option<NodeId>,
    depth: usize,
}

impl eval::Host for Hcl<'_, '_> {
    type Out = String;

    fn known(&mut self, value: &Value) -> Result<String, String> {
        self.scope.expr_at(value, self.this, self.depth + 1)
    }

    /// `var.<name>` and the keys and indexes after the name.
    fn input(&mut self, call: &Call) -> Result<String, String> {
        let Some(Value::String(name)) = call.args.first() else {
            return Err("get_input needs an input name".to_string());
        };
        let var = self
            .scope
            .vars
            .get(name)
            .ok_or_else(|| format!("there is no input `{name}`"))?;
        let mut out = format!("var.{var}");
        for a in &call.args[1..] {
            out.push_str(&index(a)?);
        }
        Ok(out)
    }

    /// A property's value, seen from the node that has it; an attribute through the rule's
    /// attribute table.
    fn query(&mut self, call: &Call) -> Result<String, String> {
        let (scope, args, this) = (self.scope, call.args.as_slice(), self.this);
        match call.function {
            Function::GetProperty => {
                let value = scope.property(args, this)?;
                let node = match args.first() {
                    Some(Value::String(n)) => scope.node_named(n, this).ok(),
                    _ => None,
                };
                scope.expr_at(value, node.or(this), self.depth + 1)
            }
            Function::GetAttribute => scope.attribute(args, this, self.depth),
            _ => self.other(call),
        }
    }

    /// An HCL string template of the parts.
    fn concat(&mut self, call: &Call) -> Result<String, String> {
        self.scope.template(&call.args, self.this, self.depth)
    }

    /// A template of the items with the delimiter between them; `join(...)` of a list known
    /// only at deployment.
    fn join(&mut self, call: &Call) -> Result<String, String> {
        let (args, this, depth) = (call.args.as_slice(), self.this, self.depth);
        let delimiter = match args.get(1) {
            Some(Value::String(d)) => d.as_str(),
            None => "",
            Some(_) => return Err("join's delimiter must be a string".to_string()),
        };
        match args.first() {
            Some(Value::List(items)) => {
                let mut parts = Vec::with_capacity(items.len() * 2);
                for (i, item) in items.iter().enumerate() {
                    if i > 0 && !delimiter.is_empty() {
                        parts.push(Value::String(delimiter.to_string()));
                    }
                    parts.push(item.clone());
                }
                self.scope.template(&parts, this, depth)
            }
            Some(other) => Ok(format!(
                "join({}, {})",
                hcl_str(delimiter),
                self.scope.expr_at(other, this, depth + 1)?
            )),
            None => Err("join needs a list".to_string()),
        }
    }

    /// `element(split(separators, text), index)`.
    fn token(&mut self, call: &Call) -> Result<String, String> {
        match call.args.as_slice() {
            [s, Value::String(sep), Value::Integer(i)] => Ok(format!(
                "element(split({}, {}), {i})",
                hcl_str(sep),
                self.scope.expr_at(s, self.this, self.depth + 1)?
            )),
            _ => Err("token needs a string, a separator and an index".to_string()),
        }
    }

    fn other(&mut self, call: &Call) -> Result<String, String> {
        Err(format!("`{}` has no Terraform equivalent", call.function))
    }
}

/// A value with no functions as HCL.
pub fn literal(v: &Value) -> Result<String, String> {
    Ok(match v {
        Value::Call(c) => return Err(format!("it is computed by `{}`", c.function)),
        Value::Null => "null".to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) if f.is_finite() => number(*f),
        Value::Float(f) => return Err(format!("{f} is not a number Terraform can hold")),
        Value::String(s) | Value::Timestamp(s) | Value::Bytes(s) => hcl_str(s),
        Value::Scalar(s) => hcl_str(&s.text),
        Value::Version(v) => hcl_str(&v.text),
        Value::List(items) => {
            let parts: Result<Vec<String>, String> = items.iter().map(literal).collect();
            format!("[{}]", parts?.join(", "))
        }
        Value::Map(map) if map.is_empty() => "{}".to_string(),
        Value::Map(map) => {
            let parts: Result<Vec<String>, String> = map
                .iter()
                .map(|(k, v)| Ok(format!("{} = {}", key(k), literal(v)?)))
                .collect();
            format!("{{ {} }}", parts?.join(", "))
        }
    })
}

/// True when `node` has the property `rest` names (`prop...` or `capability prop...`).
fn has_property(node: &crate::ir::Node, rest: &[&str]) -> bool {
    match rest {
        [cap, prop, ..]
            if node
                .capabilities
                .get(*cap)
                .is_some_and(|c| c.properties.contains_key(*prop)) =>
        {
            true
        }
        [prop, ..] => node.properties.contains_key(*prop),
        [] => false,
    }
}

/// The inside of a quoted HCL string for `s` (no quotes).
fn inner(s: &str) -> String {
    let q = hcl_str(s);
    q[1..q.len() - 1].to_string()
}

/// A number as HCL writes it: integers without a fraction.
pub fn number(f: f64) -> String {
    if !f.is_finite() {
        // No HCL number: where text is wanted, the YAML spelling the template wrote.
        crate::ir::float_text(f)
    } else if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

/// An object key: bare when it is an identifier, quoted otherwise.
pub fn key(k: &str) -> String {
    if is_identifier(k) {
        k.to_string()
    } else {
        hcl_str(k)
    }
}

/// True for an HCL identifier: a letter or `_`, then letters, digits, `_` and `-`.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// `[0]` or `["key"]` after an expression.
fn index(v: &Value) -> Result<String, String> {
    match v {
        Value::Integer(i) => Ok(format!("[{i}]")),
        Value::String(s) => Ok(format!("[{}]", hcl_str(s))),
        _ => Err("an index must be a number or a key".to_string()),
    }
}
