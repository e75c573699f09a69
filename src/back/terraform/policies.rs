//! Placement and scaling policies: which machines a policy places or scales, read before the
//! resources are written, since a scaled machine is an autoscaling group rather than one
//! instance and a placed one joins a group.
//!
//! How a policy reads is shared with `toscana k8s` ([`crate::back::policies`]): together or
//! apart, strict or soft, the trigger's metric and threshold. A policy's rule (`bind.role`
//! `placement` or `scaling`) says what this provider makes of it:
//!
//! - placement: one group per policy (`bind.resource`, `aws_placement_group` or
//!   `openstack_compute_servergroup_v2`), with `bind.strategies` naming the provider's word for
//!   `together`, `apart` and, where the provider has them, `together_soft` and `apart_soft`. A
//!   policy's target is a machine, or software whose hosting chain ends at one (its machine is
//!   placed). A machine joins at most one group, the first policy's: both providers take one.
//! - scaling: each targeted machine (or the machine of targeted software) is scaled between the
//!   policy's `min_instances` and `max_instances` (else the machine's `scalable` capability,
//!   else 1 and `bind.default_max`), starting at `default_instances` (else the capability's,
//!   else the minimum), tracking the CPU utilization of its trigger (else
//!   `target_cpu_utilization`, else `bind.cpu_utilization`).
//! - `unsupported`: a warning with `bind.reason` and `bind.hint`.

use serde_json::{Value as Json, json};

use crate::back::ignores::Part;
use crate::back::meanings::{Meaning, RelationshipMeanings};
use crate::back::policies::{
    Placement, Trigger, placement_is_soft, placement_mode, policy_nodes, utilization_trigger,
};
use crate::back::{Element, ElementKind, Engine, Ledger, Reader};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Hosting, NodeId, Policy, Topology, Value};

use super::expr::known;
use super::{Spans, unexpressed, unique_names};

/// What the policies make of each node and what each policy's template writes.
pub struct Policies<'t> {
    /// Per policy, in topology order: `tf.policies[element.index]` (`name`, `strategy`,
    /// `machines`), `{}` for a policy no placement rule takes.
    pub contexts: Vec<Json>,
    /// Per node: the placement group its machine joins (`name`, `strategy`).
    pub placement: Vec<Option<Json>>,
    /// Per node: how its machine is scaled, when a scaling policy scales it.
    pub scaling: Vec<Option<Scaling<'t>>>,
    /// Per node: the availability zones a placement policy names for its machine.
    pub zones: Vec<Option<Zones<'t>>>,
}

/// The availability zones a placement policy's `zone`, `zones`, `availability_zone` or
/// `availability_zones` name for one of its machines. A machine created once takes the zone at
/// its place among the policy's machines, round the list (the machines spread over the
/// zones in order); a scaled machine's group takes them all.
pub struct Zones<'t> {
    pub policy: &'t Policy,
    /// Each zone as written (a literal or a `get_input`), in the policy's order.
    pub zones: Vec<&'t Value>,
    /// The machine's place among the policy's machines.
    pub nth: usize,
}

/// A machine's scaling, as its policy and `scalable` capability say.
pub struct Scaling<'t> {
    pub policy: &'t Policy,
    /// Each bound as written (a literal or a `get_input`), `None` when neither the policy nor
    /// the capability gives it.
    pub min: Option<&'t Value>,
    pub max: Option<&'t Value>,
    pub desired: Option<&'t Value>,
    /// `bind.default_max`, for a policy that gives no maximum.
    pub default_max: i64,
    /// The average CPU utilization to keep, in percent.
    pub cpu: i64,
    /// The policy's `cooldown` in seconds: how long a new instance warms up before its
    /// metrics count.
    pub warmup: Option<i64>,
    /// The load balancers that route to the machine's software: their target groups take the
    /// instances, and their address stands for the machine's.
    pub balancers: Vec<NodeId>,
    /// The resource that stands for the machine (`bind.resource` of the scaling rule).
    pub resource: Option<String>,
}

/// The inputs [`read`] needs from the node builder.
pub struct Context<'a> {
    pub topology: &'a Topology,
    pub elements: &'a [Element],
    pub backend: &'a Engine,
    pub spans: &'a Spans,
    /// Each node's `bind.role`.
    pub roles: &'a [&'a str],
    pub hosting: &'a Hosting,
    pub meanings: &'a RelationshipMeanings,
    /// Where the policies' property and trigger reads are recorded.
    pub ledger: &'a Ledger,
}

pub fn read<'t>(cx: &Context<'t>, mut diags: Option<&mut Diagnostics>) -> Policies<'t> {
    let topology = cx.topology;
    let count = topology.nodes.len();
    let mut out = Policies {
        contexts: Vec::with_capacity(topology.policies.len()),
        placement: vec![None; count],
        scaling: (0..count).map(|_| None).collect(),
        zones: (0..count).map(|_| None).collect(),
    };
    let policy_elements: Vec<&Element> = cx
        .elements
        .iter()
        .filter(|e| e.kind == ElementKind::Policy)
        .collect();
    let names = unique_names(topology.policies.iter().map(|p| p.name.as_str()), &[]);
    let mut balancers = None;
    for (pi, p) in topology.policies.iter().enumerate() {
        let bind = policy_elements
            .get(pi)
            .and_then(|e| cx.backend.bind_for(e))
            .map(|(_, b)| b);
        let span = cx.spans.of(ElementKind::Policy, pi);
        let props = Reader::new(
            &p.properties,
            cx.ledger,
            ElementKind::Policy,
            pi,
            Part::Property,
        );
        let role = bind
            .and_then(|b| b.get("role"))
            .and_then(Json::as_str)
            .unwrap_or("");
        let context = match (role, bind) {
            ("placement", Some(bind)) => place(
                cx,
                p,
                props,
                &names[pi],
                bind,
                span,
                &mut out,
                diags.as_deref_mut(),
            ),
            ("scaling", Some(bind)) => {
                let balancers = balancers.get_or_insert_with(|| self::balancers(cx));
                let triggers = Reader::new(
                    &p.triggers,
                    cx.ledger,
                    ElementKind::Policy,
                    pi,
                    Part::Trigger,
                );
                scale(
                    cx,
                    p,
                    props,
                    triggers,
                    bind,
                    balancers,
                    span,
                    &mut out,
                    diags.as_deref_mut(),
                );
                json!({})
            }
            ("unsupported", Some(bind)) => {
                let reason = bind.get("reason").and_then(Json::as_str).unwrap_or("");
                let hint = bind.get("hint").and_then(Json::as_str).unwrap_or("");
                if let Some(diags) = diags.as_deref_mut() {
                    let mut d = Diagnostic::warning(
                        codes::TF_UNSUPPORTED,
                        format!(
                            "policy `{}` of type {} is skipped: {reason}",
                            p.name, p.type_name
                        ),
                    )
                    .hint(hint.to_string());
                    if let Some(span) = span {
                        d = d.at(span);
                    }
                    diags.push(d);
                }
                // The warning names the whole policy as left out, so none of its keys is
                // reported again.
                cx.ledger.accounted(ElementKind::Policy, pi);
                json!({})
            }
            _ => json!({}),
        };
        out.contexts.push(context);
    }
    out
}

/// The machines a policy's targets stand for, each once: a targeted machine, or the machine at
/// the end of a targeted node's hosting chain; a target on no machine is warned about.
fn machines(
    cx: &Context<'_>,
    p: &Policy,
    span: Option<crate::source::Span>,
    mut diags: Option<&mut Diagnostics>,
) -> Vec<NodeId> {
    let mut out = Vec::new();
    for n in policy_nodes(cx.topology, &p.targets) {
        let machine = cx.hosting.root(n);
        if cx.roles[machine.index()] != "compute" {
            if let Some(diags) = diags.as_deref_mut() {
                diags.push(unexpressed(
                span,
                format!(
                    "policy `{}` is left out for `{}`: it runs on no machine this backend creates",
                    p.name,
                    cx.topology.nodes[n.index()].name
                ),
                "target a tosca.nodes.Compute, or software hosted on one",
            ));
            }
            continue;
        }
        if !out.contains(&machine) {
            out.push(machine);
        }
    }
    out
}

/// A placement policy: its group's context, and the group for each of its machines.
#[allow(clippy::too_many_arguments)]
fn place<'t>(
    cx: &Context<'t>,
    p: &'t Policy,
    props: Reader<'t, '_>,
    name: &str,
    bind: &Json,
    span: Option<crate::source::Span>,
    out: &mut Policies<'t>,
    mut diags: Option<&mut Diagnostics>,
) -> Json {
    let apart = placement_mode(p, props) == Placement::Apart;
    let soft = placement_is_soft(p, props);
    let strategies = bind.get("strategies");
    let word = |key: &str| strategies.and_then(|s| s.get(key)).and_then(Json::as_str);
    let key = if apart { "apart" } else { "together" };
    let strategy = match (soft, word(&format!("{key}_soft"))) {
        (true, Some(w)) => w,
        (true, None) => {
            if let Some(diags) = diags.as_deref_mut() {
                diags.push(unexpressed(
                span,
                format!(
                    "placement policy `{}` is a preference, which this provider's groups cannot be: its targets are kept {} strictly",
                    p.name,
                    if apart { "apart" } else { "together" }
                ),
                "drop `soft`/`preferred` from the policy, or accept the strict placement",
            ));
            }
            word(key).unwrap_or(key)
        }
        (false, _) => word(key).unwrap_or(key),
    };
    let zones = zones_of(cx.topology, props);
    if !zones.is_empty() {
        // As `toscana k8s` reads such a policy: its machines are kept in the zones it names,
        // which says where they are, not that they share or avoid hardware.
        place_in_zones(cx, p, zones, span, out, diags.as_deref_mut());
        return json!({});
    }
    let machines = machines(cx, p, span, diags.as_deref_mut());
    if machines.is_empty() {
        if let Some(diags) = diags.as_deref_mut() {
            diags.push(unexpressed(
            span,
            format!(
                "placement policy `{}` places no machine this backend creates, so no group is written",
                p.name
            ),
            "target Compute nodes, or software hosted on them",
        ));
        }
        return json!({});
    }
    let mut joined = Vec::new();
    for m in machines {
        let node = &cx.topology.nodes[m.index()].name;
        if let Some(other) = &out.placement[m.index()] {
            if let Some(diags) = diags.as_deref_mut() {
                diags.push(unexpressed(
                span,
                format!(
                    "machine `{node}` is already in the placement group of policy `{}`; policy `{}` is left out for it, since a machine joins one group",
                    other["policy"].as_str().unwrap_or(""),
                    p.name
                ),
                "make the placement policies target disjoint machines",
            ));
            }
            continue;
        }
        out.placement[m.index()] = Some(json!({
            "name": name,
            "policy": p.name,
            "strategy": strategy,
            // Sizes the provider cannot keep together (AWS: burstable types in a cluster group).
            "excludes": if apart { None } else { bind.get("cluster_excludes") },
        }));
        joined.push(node.clone());
    }
    let limit = bind.get("spread_limit").and_then(Json::as_u64);
    if apart
        && let Some(limit) = limit.filter(|&l| joined.len() as u64 > l)
        && let Some(diags) = diags
    {
        diags.push(unexpressed(
            span,
            format!(
                "placement policy `{}` spreads {} machines, more than the {limit} a spread group holds in one availability zone",
                p.name,
                joined.len()
            ),
            "spread the machines over subnets in several zones, or split the policy",
        ));
    }
    json!({
        "name": name,
        "policy": p.name,
        "strategy": strategy,
        "apart": apart,
        "soft": soft,
        "machines": joined,
    })
}

/// The zones a placement policy names (`zone`, `zones`, `availability_zone`,
/// `availability_zones`: one zone or a list, literals or inputs), in that order, each once.
fn zones_of<'t>(topology: &'t Topology, props: Reader<'t, '_>) -> Vec<&'t Value> {
    let mut out: Vec<&Value> = Vec::new();
    for key in ["zone", "zones", "availability_zone", "availability_zones"] {
        let Some(value) = props.get(key) else {
            continue;
        };
        let items: Vec<&Value> = match known(topology, value) {
            Value::List(items) => items.iter().collect(),
            Value::Null => Vec::new(),
            _ => vec![value],
        };
        for item in items {
            if !out.contains(&item) {
                out.push(item);
            }
        }
    }
    out
}

/// A placement policy with zones: each of its machines in one of them (see [`Zones`]).
fn place_in_zones<'t>(
    cx: &Context<'t>,
    p: &'t Policy,
    zones: Vec<&'t Value>,
    span: Option<crate::source::Span>,
    out: &mut Policies<'t>,
    mut diags: Option<&mut Diagnostics>,
) {
    let mut nth = 0;
    for m in machines(cx, p, span, diags.as_deref_mut()) {
        if let Some(other) = &out.zones[m.index()] {
            if let Some(diags) = diags.as_deref_mut() {
                diags.push(unexpressed(
                span,
                format!(
                    "machine `{}` is already placed in the zones of policy `{}`; the zones of policy `{}` are left out for it",
                    cx.topology.nodes[m.index()].name,
                    other.policy.name,
                    p.name
                ),
                "make the placement policies that name zones target disjoint machines",
            ));
            }
            continue;
        }
        out.zones[m.index()] = Some(Zones {
            policy: p,
            zones: zones.clone(),
            nth,
        });
        nth += 1;
    }
}

/// A scaling policy: the scaling of each of its machines.
#[allow(clippy::too_many_arguments)]
fn scale<'t>(
    cx: &Context<'t>,
    p: &'t Policy,
    props: Reader<'t, '_>,
    triggers: Reader,
    bind: &Json,
    balancers: &[Vec<NodeId>],
    span: Option<crate::source::Span>,
    out: &mut Policies<'t>,
    mut diags: Option<&mut Diagnostics>,
) {
    let topology = cx.topology;
    let integer = |v: Option<&Value>| match v.map(|v| known(topology, v)) {
        Some(Value::Integer(i)) => Some(*i),
        _ => None,
    };
    let cpu = cpu_target(
        topology,
        p,
        props,
        triggers,
        bind,
        span,
        diags.as_deref_mut(),
    );
    if props.get("increment").is_some()
        && let Some(diags) = diags.as_deref_mut()
    {
        diags.push(unexpressed(
            span,
            format!(
                "property `increment` of scaling policy `{}` is left out: target tracking chooses how many instances to add or remove",
                p.name
            ),
            "add a step scaling policy of your own where the step matters",
        ));
    }
    let warmup = match props.get("cooldown").map(|v| known(topology, v)) {
        Some(Value::Integer(s)) => Some(*s),
        Some(Value::Scalar(s)) => Some(s.canonical.round() as i64),
        _ => None,
    }
    .filter(|s| *s >= 0);
    let default_max = bind.get("default_max").and_then(Json::as_i64).unwrap_or(10);
    for m in machines(cx, p, span, diags.as_deref_mut()) {
        let node = &topology.nodes[m.index()];
        if let Some(other) = &out.scaling[m.index()] {
            if let Some(diags) = diags.as_deref_mut() {
                diags.push(unexpressed(
                span,
                format!(
                    "machine `{}` is already scaled by policy `{}`; policy `{}` is left out for it",
                    node.name, other.policy.name, p.name
                ),
                "make the scaling policies target disjoint machines",
            ));
            }
            continue;
        }
        let scalable = cx.ledger.capability(topology, m.index(), "scalable");
        let bound = |key: &str| {
            props
                .get(key)
                .or_else(|| scalable.and_then(|s| s.get(key)))
                .filter(|v| !matches!(v, Value::Null))
        };
        let (min, max, desired) = (
            bound("min_instances"),
            bound("max_instances"),
            bound("default_instances"),
        );
        let (lo, hi) = (
            integer(min).unwrap_or(1),
            integer(max).unwrap_or(default_max),
        );
        let start = integer(desired).unwrap_or(lo);
        if lo < 0 || lo > hi || start < lo || start > hi {
            if let Some(diags) = diags.as_deref_mut() {
                let d = Diagnostic::error(
                    codes::TF_OUT_OF_RANGE,
                    format!(
                        "scaling policy `{}` asks machine `{}` for {start} instances between {lo} and {hi}, which no autoscaling group can hold",
                        p.name, node.name
                    ),
                )
                .hint("give 0 <= min_instances <= default_instances <= max_instances");
                diags.push(match span {
                    Some(span) => d.at(span),
                    None => d,
                });
            }
            continue;
        }
        let balancers = balancers[m.index()].clone();
        out.scaling[m.index()] = Some(Scaling {
            policy: p,
            min,
            max,
            desired,
            default_max,
            cpu,
            warmup,
            balancers,
            resource: bind
                .get("resource")
                .and_then(Json::as_str)
                .map(String::from),
        });
    }
}

/// The average CPU utilization a scaling policy keeps, in percent: its trigger's threshold as
/// written, else `target_cpu_utilization`, else `bind.cpu_utilization`. A trigger on anything
/// but CPU is tracked as CPU, with a warning.
fn cpu_target(
    topology: &Topology,
    p: &Policy,
    props: Reader,
    triggers: Reader,
    bind: &Json,
    span: Option<crate::source::Span>,
    mut diags: Option<&mut Diagnostics>,
) -> i64 {
    let integer = |v: Option<&Value>| match v.map(|v| known(topology, v)) {
        Some(Value::Integer(i)) => Some(*i),
        _ => None,
    };
    let cpu_default = bind
        .get("cpu_utilization")
        .and_then(Json::as_i64)
        .unwrap_or(80);
    match utilization_trigger(triggers) {
        Some(Trigger::Utilization {
            resource: "cpu",
            percent: Some(percent),
        }) => Some(percent),
        Some(Trigger::Utilization { resource: "cpu", .. }) | None => None,
        Some(Trigger::Utilization { resource, .. }) => {
            if let Some(diags) = diags.as_deref_mut() {
                diags.push(unexpressed(
                span,
                format!(
                    "scaling policy `{}` triggers on {resource} utilization, which an autoscaling group tracks only with an agent on the machines; it tracks CPU utilization instead",
                    p.name
                ),
                "write the trigger's condition as `utilization greater_than N%` of cpu, or add a tracking policy of your own",
            ));
            }
            None
        }
        Some(Trigger::Unknown(what)) => {
            if let Some(diags) = diags {
                diags.push(unexpressed(
                span,
                format!(
                    "scaling policy `{}` triggers on {what}, which the backend cannot track; it tracks CPU utilization instead",
                    p.name
                ),
                "write the trigger's condition as `utilization greater_than N%` of cpu",
            ));
            }
            None
        }
    }
    .or_else(|| integer(props.get("target_cpu_utilization")))
    .unwrap_or(cpu_default)
}

/// Per machine, the load balancers that route to its software (or to it), by name: one pass
/// over the relationships.
fn balancers(cx: &Context<'_>) -> Vec<Vec<NodeId>> {
    let mut out: Vec<Vec<NodeId>> = vec![Vec::new(); cx.topology.nodes.len()];
    for (ri, r) in cx.topology.relationships.iter().enumerate() {
        let machine = cx.hosting.root(r.target);
        let list = &mut out[machine.index()];
        if cx.meanings.means_at(ri, Meaning::Routing)
            && cx.roles[r.source.index()] == "load_balancer"
            && !list.contains(&r.source)
        {
            list.push(r.source);
        }
    }
    let name = |n: &NodeId| cx.topology.nodes[n.index()].name.as_str();
    for list in &mut out {
        list.sort_by(|a, b| name(a).cmp(name(b)));
    }
    out
}

/// A warning for each scaled machine whose address something reads (`get_attribute` of the
/// machine or of its software by name, in a property, an operation input or an output): its
/// instances have no one address. The value reads the address of the first load balancer in
/// front of it, or is left out when there is none.
pub fn warn_scaled_addresses(
    topology: &Topology,
    hosting: &Hosting,
    policies: &Policies<'_>,
    spans: &Spans,
    diags: Option<&mut Diagnostics>,
) {
    // Only reports: a build that reports nothing skips it.
    let Some(diags) = diags else {
        return;
    };
    if policies.scaling.iter().all(Option::is_none) {
        return;
    }
    let mut read = std::collections::HashSet::new();
    for value in every_value(topology) {
        attributes_read(value, &mut read);
    }
    for id in topology.node_ids() {
        let Some(scaling) = &policies.scaling[id.index()] else {
            continue;
        };
        if !hosting
            .stack(topology, id)
            .iter()
            .any(|n| read.contains(topology.nodes[n.index()].name.as_str()))
        {
            continue;
        }
        let node = &topology.nodes[id.index()].name;
        let (choice, hint) = match scaling.balancers.first() {
            Some(lb) => (
                format!(
                    "they read the address of load balancer `{}` in front of it",
                    topology.nodes[lb.index()].name
                ),
                "read the load balancer's address instead, so the template says what it means",
            ),
            None => (
                "they are left out".to_string(),
                "put a tosca.nodes.LoadBalancer in front of the machine's software (a RoutesTo relationship) and read its address",
            ),
        };
        diags.push(unexpressed(
            spans.of(ElementKind::Node, id.index()),
            format!(
                "machine `{node}` is scaled by policy `{}`, so its instances have no one address: {choice}",
                scaling.policy.name
            ),
            hint,
        ));
    }
}

/// Every value of the topology a resource or an output may be written from.
fn every_value(topology: &Topology) -> impl Iterator<Item = &Value> {
    let nodes = topology.nodes.iter().flat_map(|n| {
        let capabilities = n.capabilities.values().flat_map(|c| c.properties.values());
        let operations = n.interfaces.values().flat_map(|i| {
            i.inputs
                .values()
                .chain(i.operations.values().flat_map(|o| o.inputs.values()))
        });
        n.properties.values().chain(capabilities).chain(operations)
    });
    nodes.chain(topology.outputs.iter().map(|o| &o.value))
}

/// The nodes `value` reads an attribute of by name (`get_attribute`), added to `read`.
fn attributes_read<'v>(value: &'v Value, read: &mut std::collections::HashSet<&'v str>) {
    match value {
        Value::Call(c) => {
            if c.function == crate::ir::Function::GetAttribute
                && let Some(name) = c.args.first().and_then(Value::as_str)
            {
                read.insert(name);
            }
            for a in &c.args {
                attributes_read(a, read);
            }
        }
        Value::List(items) => items.iter().for_each(|v| attributes_read(v, read)),
        Value::Map(m) => m.values().for_each(|v| attributes_read(v, read)),
        _ => {}
    }
}
