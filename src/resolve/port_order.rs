//! The Ports bound to one Compute (`tosca.nodes.network.Port`, its `binding` requirement):
//! their `order` and `is_default` properties concern the Compute's NICs together, which no
//! property definition can express (F.5.2.1 Properties of tosca.nodes.network.Port):
//!
//! - `order`: "when binding more than one port to a single compute (aka multi vNICs) and
//!   ordering is desired, it is *mandatory* that all ports will be set with an order value",
//!   and the values "represent a positive, arithmetic progression that starts with 0 (e.g.
//!   0, 1, 2, ..., n)". Ordering is desired when one of the Ports sets `order`; Ports that all
//!   leave it to its default (0) ask for no order, and are not judged.
//! - `is_default`: "Only one port that is associated to single compute node can set as
//!   default=true."
//!
//! Both are errors, at the value that breaks the rule (or the Port when it sets no `order`).

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Node, NodeId, Topology, Value, type_matches};
use crate::model::TopologyTemplate;
use crate::source::Span;

/// Checks the Ports of every Compute in `topology`.
pub(super) fn check(template: &TopologyTemplate, topology: &Topology, diags: &mut Diagnostics) {
    // Compute → its Ports, in template order.
    let mut bound: indexmap::IndexMap<NodeId, Vec<NodeId>> = indexmap::IndexMap::new();
    for relationship in &topology.relationships {
        let port = &topology.nodes[relationship.source.index()];
        if relationship.requirement == "binding"
            && type_matches(&port.types, "tosca.nodes.network.Port")
        {
            bound
                .entry(relationship.target)
                .or_default()
                .push(relationship.source);
        }
    }
    for (compute, ports) in &bound {
        if ports.len() < 2 {
            continue;
        }
        let compute = &topology.nodes[compute.index()].name;
        let port = |id: &NodeId| &topology.nodes[id.index()];
        let at = |id: &NodeId, property: &str| {
            let named = template.node_templates.get(id.index());
            named
                .and_then(|n| n.def.as_map()?.get("properties")?.as_map()?.get(property))
                .map(|v| v.span)
                .or(named.map(|n| n.span))
        };
        defaults(compute, ports, port, &at, diags);
        order(compute, ports, port, &at, diags);
    }
}

/// At most one Port of `compute` with `is_default: true`.
fn defaults<'t>(
    compute: &str,
    ports: &[NodeId],
    port: impl Fn(&NodeId) -> &'t Node,
    at: &impl Fn(&NodeId, &str) -> Option<Span>,
    diags: &mut Diagnostics,
) {
    let defaults: Vec<&NodeId> = ports
        .iter()
        .filter(|p| port(p).properties.get("is_default") == Some(&Value::Boolean(true)))
        .collect();
    if let [first, second, ..] = defaults[..] {
        let mut error = Diagnostic::error(
            codes::TOSCA_CONSTRAINT,
            format!(
                "Ports `{}` and `{}` are both bound to `{compute}` with `is_default: true`",
                port(first).name,
                port(second).name
            ),
        )
        .hint("\"Only one port that is associated to single compute node can set as default=true\" (F.5.2.1 Properties of tosca.nodes.network.Port): keep it on the Port of the default route's network");
        if let Some(span) = at(second, "is_default") {
            error = error.at(span);
        }
        if let Some(span) = at(first, "is_default") {
            error = error.label(span, "the first default Port");
        }
        diags.push(error);
    }
}

/// When a Port of `compute` sets `order`, all do, and the orders are 0, 1, ..., n-1.
fn order<'t>(
    compute: &str,
    ports: &[NodeId],
    port: impl Fn(&NodeId) -> &'t Node,
    at: &impl Fn(&NodeId, &str) -> Option<Span>,
    diags: &mut Diagnostics,
) {
    let sets = |p: &NodeId| port(p).assigned.iter().any(|a| a == "order");
    if !ports.iter().any(sets) {
        return;
    }
    let rule = "when more than one Port is bound to one Compute and ordering is desired, \"it is *mandatory* that all ports will be set with an order value\", a progression 0, 1, ..., n (F.5.2.1 Properties of tosca.nodes.network.Port)";
    let mut orders: Vec<(i64, &NodeId)> = Vec::new();
    for p in ports {
        match port(p).properties.get("order") {
            Some(Value::Integer(order)) if sets(p) => orders.push((*order, p)),
            // A call known only at deployment: the progression cannot be judged.
            Some(Value::Call(_)) => return,
            _ => {
                let mut error = Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!(
                        "Port `{}` sets no `order`, while other Ports bound to `{compute}` do",
                        port(p).name
                    ),
                )
                .hint(format!("give it `order:`; {rule}"));
                if let Some(span) = at(p, "order") {
                    error = error.at(span);
                }
                diags.push(error);
                return;
            }
        }
    }
    orders.sort_by_key(|(order, _)| *order);
    if let Some((expected, (order, p))) = orders
        .iter()
        .enumerate()
        .find(|(i, (order, _))| *order != *i as i64)
    {
        let mut error = Diagnostic::error(
            codes::TOSCA_CONSTRAINT,
            format!(
                "Port `{}` has `order: {order}`, where the {} Ports bound to `{compute}` need 0 to {}, each once; the next free is {expected}",
                port(p).name,
                orders.len(),
                orders.len() - 1
            ),
        )
        .hint(rule.to_string());
        if let Some(span) = at(p, "order") {
            error = error.at(span);
        }
        diags.push(error);
    }
}
