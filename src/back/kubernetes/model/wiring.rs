//! What ties workloads together: connections (`<TARGET>_HOST`, functions), storage, groups,
//! networks, placement and scaling policies, load balancers.

use crate::diag::{Diagnostics, codes};
use crate::ir::{Call, Function, Value, eval};

use super::super::values::{integer, literal_text, shouty, size_quantity};
use super::addresses::{ADDRESS_ATTRIBUTES, POD_IP_MARK};
use super::*;
use crate::back::filters::dns_label;
use crate::back::meanings::Meaning;

impl Ctx<'_> {
    /// The DNS name of the Service in front of `target`, seen from workload `from`: the Service's
    /// name, or `<svc>.<ns>.svc` under `--namespace` (the pod's IP for a node of `from` itself).
    /// Every address toscana writes for a node comes from here, so the wiring check
    /// (`tests/checkers/wiring.rs`) can tell an address by its form and hold it to a Service of
    /// the output.
    pub(super) fn host_of(&self, target: usize, from: Option<usize>) -> Result<String, String> {
        let in_namespace = |name: String| match &self.options.namespace {
            Some(ns) => format!("{name}.{ns}.svc"),
            None => name,
        };
        if self.node(target).only_selected() {
            // Selected from outside the topology: reached as a Service of its name would be.
            return Ok(in_namespace(super::dns_label(&self.node(target).name)));
        }
        let (workload_of, plans) = self.decided();
        let Some(w) = workload_of.get(target).copied().flatten() else {
            return Err(format!(
                "`{}` has no Kubernetes workload",
                self.node(target).name
            ));
        };
        if Some(w) == from {
            // The same pod: its own IP, which a server can bind and a neighbour can reach.
            return Ok(POD_IP_MARK.to_string());
        }
        let plan = &plans[w];
        let addressed = plan.members.iter().any(|&m| self.addressed[m]);
        if plan.ports.is_empty() && !plan.stateful && !addressed {
            return Err(format!(
                "`{}` exposes no port, so it has no Service",
                self.node(target).name
            ));
        }
        Ok(in_namespace(plan.name.clone()))
    }

    /// The port of `target` (of its capability `capability`, when named).
    pub(super) fn port_of(&self, target: usize, capability: Option<&str>) -> Option<i64> {
        let node = self.node(target);
        capability
            .filter(|c| node.capabilities.contains_key(*c))
            .and_then(|c| self.capability(target, c))
            .and_then(|c| c.get("port"))
            .and_then(integer)
            .or_else(|| self.property(target, "port").and_then(integer))
            .or_else(|| {
                let (workload_of, plans) = self.decided();
                let w = workload_of.get(target).copied().flatten()?;
                plans[w].ports.first().map(|p| p.port)
            })
    }

    /// The text of a value, with functions resolved where Kubernetes can express them.
    /// `Ok(None)` for null; `Err(why)` for what cannot be expressed.
    pub(super) fn resolve(
        &self,
        value: &Value,
        node: usize,
        plan: &Plan,
    ) -> Result<Option<String>, String> {
        match value {
            Value::Call(call) => eval::call(
                call,
                &mut Text {
                    ctx: self,
                    node,
                    plan,
                },
            ),
            v if v.has_call() => {
                Err("a list or map holds a function known only after deployment".to_string())
            }
            v => Ok(literal_text(v)),
        }
    }

    /// `get_attribute` or `get_property` of `call` (`[node, (capability,) name]`) as text: a
    /// value known now, a node's address or port, its name.
    fn query_text(&self, call: &Call, node: usize, plan: &Plan) -> Result<Option<String>, String> {
        let args: Vec<String> = call.args.iter().filter_map(literal_text).collect();
        if !matches!(
            call.function,
            Function::GetAttribute | Function::GetProperty
        ) || args.len() < 2
        {
            return Err(after_deployment(call));
        }
        let from = self.workload_of[node];
        // While a plan is built it is not in `plans` yet; a reference to one of its own members
        // is local.
        let local = |t: usize| plan.members.contains(&t);
        let entity = args[0].as_str();
        let target = match entity {
            "SELF" => Some(node),
            "HOST" => self
                .topology
                .node_at(node)
                .and_then(|id| self.hosting.host(id))
                .map(|h| h.index()),
            _ => self.node_index.get(entity).copied(),
        };
        let Some(target) = target else {
            return Err(format!(
                "`{}` names `{entity}`, which is not a node here",
                call.function
            ));
        };
        let attr = args.last().map(String::as_str).unwrap_or("");
        // A property (or attribute) with a value known now.
        let known = if args.len() >= 3 {
            self.capability(target, &args[1])
                .and_then(|c| c.get(attr).or_else(|| c.attribute(attr)))
        } else {
            self.property(target, attr)
                .or_else(|| self.ledger.attribute(self.topology, target, attr))
        };
        if let Some(v) = known
            && !v.has_call()
            && !matches!(v, Value::Null)
            && (call.function == Function::GetProperty || !matches!(attr, "state" | "tosca_id"))
        {
            return Ok(literal_text(v));
        }
        match attr {
            a if ADDRESS_ATTRIBUTES.contains(&a) => {
                if local(target) {
                    // The pod's own address (`SELF`, its host, a neighbour in the same lifted
                    // stack): the pod IP.
                    Ok(Some(POD_IP_MARK.to_string()))
                } else {
                    self.host_of(target, from).map(Some)
                }
            }
            "port" => {
                let cap = (args.len() >= 3).then(|| args[1].as_str());
                self.port_of(target, cap)
                    .map(|p| Some(p.to_string()))
                    .ok_or_else(|| format!("`{}` has no port", self.node(target).name))
            }
            "tosca_name" => Ok(Some(self.node(target).name.clone())),
            _ => Err(format!(
                "{}({}) is known only after deployment",
                call.function,
                args.join(", ")
            )),
        }
    }

    /// `<TARGET>_HOST` and `<TARGET>_PORT` for requirements to nodes that expose an endpoint.
    pub(super) fn connect(&mut self, diags: &mut Diagnostics) {
        for id in self.topology.relationship_ids() {
            let r = &self.topology[id];
            let (s, t) = (r.source.index(), r.target.index());
            if self.meanings.means(id, Meaning::Hosting)
                || self.meanings.means(id, Meaning::Attachment)
            {
                continue;
            }
            let Some(w) = self.workload_of.get(s).copied().flatten() else {
                continue;
            };
            let capability = r.capability.as_deref();
            let endpoint = self.meanings.means(id, Meaning::Connection)
                || capability
                    .and_then(|c| self.node(t).capabilities.get(c))
                    .is_some_and(|c| is_endpoint(c))
                // Nothing read names the relationship or the capability (a TOSCA 2.0 profile
                // that is not available): a target with ports is taken as an endpoint.
                || (r.types.is_empty()
                    && capability.is_none()
                    && self.workload_of[t].is_some_and(|w| !self.plans[w].ports.is_empty()));
            let reachable = self.workload_of.get(t).copied().flatten().is_some()
                || self.node(t).only_selected();
            if !endpoint || !reachable {
                continue;
            }
            // Wired (or said why not below), whatever its type means to the mapping.
            self.ledger.relationship(id.index());
            let prefix = shouty(&self.node(t).name);
            let host = if self.workload_of[t] == Some(w) {
                Ok(POD_IP_MARK.to_string())
            } else {
                self.host_of(t, Some(w))
            };
            match host {
                Ok(host) => {
                    // Worked out before the plan is taken out of `plans` to be changed.
                    let port = self.port_of(t, capability);
                    let mut plan = std::mem::take(&mut self.plans[w]);
                    self.add_env(
                        &mut plan,
                        s,
                        &format!("{prefix}_HOST"),
                        &Value::String(host),
                        false,
                        Some(&mut *diags),
                    );
                    match port {
                        Some(port) => self.add_env(
                            &mut plan,
                            s,
                            &format!("{prefix}_PORT"),
                            &Value::Integer(port),
                            false,
                            Some(&mut *diags),
                        ),
                        None => {
                            let target = &self.node(t).name;
                            let hint = match capability {
                                Some(c) => format!(
                                    "set `port` in the properties of capability `{c}` of `{target}`, or add the product to the rules' `known_ports`"
                                ),
                                None => format!(
                                    "set `port` in the properties of the endpoint capability of `{target}`, or add the product to the rules' `known_ports`"
                                ),
                            };
                            let d = self.warn(
                                codes::K8S_UNSUPPORTED,
                                r.location,
                                format!("`{}` connects to `{target}`, which names no port: its Service is headless and {prefix}_PORT is left out", self.node(s).name),
                                &hint,
                            );
                            diags.push(d);
                        }
                    }
                    self.plans[w] = plan;
                }
                Err(why) => {
                    let d = self.warn(
                        codes::K8S_UNSUPPORTED,
                        r.location,
                        format!(
                            "`{}` connects to `{}`, but {why}; {prefix}_HOST is left out",
                            self.node(s).name,
                            self.node(t).name
                        ),
                        "give the target's endpoint capability a `port`",
                    );
                    diags.push(d);
                }
            }
        }
    }

    /// Storage a workload keeps its data on, attached to one of its nodes with AttachesTo or
    /// hosted on one (scope 3 of issue 26: anything with storage is stateful): a claim template
    /// of the workload, which becomes a StatefulSet, mounted at the relationship's `location`
    /// (else `/mnt/<storage>`). A Deployment mounting one PersistentVolumeClaim would hand one
    /// ReadWriteOnce disk to every replica and to the next pod of a rolling update, which
    /// cannot start while the old one holds it; a StatefulSet gives each replica its own.
    pub(super) fn attach_storage(&mut self, mut diags: Option<&mut Diagnostics>) {
        for id in self.topology.relationship_ids() {
            let r = &self.topology[id];
            let (s, t) = (r.source.index(), r.target.index());
            let (user, storage) = if self.meanings.means(id, Meaning::Attachment) {
                (s, t)
            } else if self.meanings.means(id, Meaning::Hosting) {
                (t, s)
            } else {
                continue;
            };
            if self.roles.get(storage) != Some(&Role::Storage) {
                continue;
            }
            let Some(w) = self.workload_of.get(user).copied().flatten() else {
                self.warn_to(diags.as_deref_mut(), codes::K8S_UNSUPPORTED,
                        r.location,
                        format!("`{}` is attached to `{}`, which has no Kubernetes workload; the volume is not mounted", self.node(storage).name, self.node(user).name),
                        "",);
                continue;
            };
            let location = self
                .relationship_property(id.index(), "location")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("/mnt/{}", dns_label(&self.node(storage).name)));
            let volume = dns_label(&self.node(storage).name);
            let size = self.storage_size(storage);
            let plan = &mut self.plans[w];
            if let Some(taken) = plan
                .mounts
                .iter()
                .find(|m| m.path == location || m.name == volume)
            {
                let message = format!(
                    "`{}` cannot be mounted at `{location}` in `{}`: `{}` is already mounted at `{}`; skipped",
                    self.topology.nodes[storage].name, plan.name, taken.name, taken.path
                );
                self.warn_to(
                    diags.as_deref_mut(),
                    codes::K8S_UNSUPPORTED,
                    r.location,
                    message,
                    "give the attachment another `location`, or the storage another name",
                );
                continue;
            }
            plan.mounts.push(Mount {
                name: volume.clone(),
                path: location,
                read_only: false,
                sub_path: None,
            });
            plan.stateful = true;
            plan.claim_templates
                .push(ClaimTemplate { name: volume, size });
            self.templated[storage] = true;
        }
    }

    pub(super) fn storage_size(&self, t: usize) -> String {
        self.property(t, "size")
            .and_then(size_quantity)
            .or_else(|| json_str(&self.binds[t], "default_size").map(str::to_string))
            .unwrap_or_else(|| "1Gi".to_string())
    }

    /// Storage that no workload claims through a claim template (attached to nothing) gets a
    /// PersistentVolumeClaim of its own, so that the disk the template asks for exists.
    pub(super) fn standalone_claims(&mut self) -> Vec<(usize, ClaimObj)> {
        let mut out = Vec::new();
        for i in 0..self.topology.nodes.len() {
            if self.roles[i] != Role::Storage || self.templated[i] {
                continue;
            }
            let name = self.unique_name("object", &self.node(i).name.clone());
            let meta = self.meta(i, &name, "storage", None, &name);
            out.push((
                i,
                ClaimObj {
                    meta,
                    size: self.storage_size(i),
                },
            ));
        }
        out
    }

    /// Groups: `app.kubernetes.io/part-of` on their members' workloads.
    pub(super) fn apply_groups(&mut self, diags: &mut Diagnostics) {
        for g in &self.topology.groups {
            let label = dns_label(&g.name);
            for m in &g.members {
                let Some(w) = self.workload_of.get(m.index()).copied().flatten() else {
                    continue;
                };
                match &self.plans[w].part_of {
                    None => self.plans[w].part_of = Some(label.clone()),
                    Some(existing) if *existing == label => {}
                    Some(existing) => {
                        let message = format!(
                            "`{}` is in groups `{existing}` and `{}`; its app.kubernetes.io/part-of label names only the first",
                            self.node(m.index()).name,
                            g.name
                        );
                        let d = self.warn(codes::K8S_UNSUPPORTED, g.location, message, "");
                        diags.push(d);
                    }
                }
            }
        }
    }

    /// Networks: a NetworkPolicy per network that admits traffic only from the workloads whose
    /// ports link to it.
    pub(super) fn networks(&mut self, diags: &mut Diagnostics) -> Vec<(usize, NetworkPolicyObj)> {
        let n = self.topology.nodes.len();
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut seen: std::collections::HashSet<(usize, usize)> = Default::default();
        for p in 0..n {
            if self.roles[p] != Role::Port {
                continue;
            }
            let mut bound = None;
            let mut linked = None;
            for &ri in &self.out_rels[p] {
                let target = self.topology.relationships[ri].target.index();
                if self.meanings.means_at(ri, Meaning::Binding) {
                    bound = Some(target);
                } else if self.meanings.means_at(ri, Meaning::Link) {
                    linked = Some(target);
                }
            }
            match (bound.and_then(|b| self.workload_of[b]), linked) {
                (Some(w), Some(net)) if self.roles[net] == Role::Network => {
                    if seen.insert((net, w)) {
                        members[net].push(w);
                    }
                }
                _ => {
                    let d = self.warn(
                        codes::K8S_UNSUPPORTED,
                        self.node(p).location,
                        format!(
                            "port `{}` does not bind a translated workload to a network; skipped",
                            self.node(p).name
                        ),
                        "a Port needs a `binding` to a Compute and a `link` to a Network",
                    );
                    diags.push(d);
                }
            }
        }
        let mut out = Vec::new();
        for (net, net_members) in members.iter().enumerate() {
            if self.roles[net] != Role::Network {
                continue;
            }
            if net_members.is_empty() {
                let d = self.warn(
                    codes::K8S_UNSUPPORTED,
                    self.node(net).location,
                    format!(
                        "network `{}` has no translated members; no NetworkPolicy is written",
                        self.node(net).name
                    ),
                    "link Port nodes bound to Compute nodes to it",
                );
                diags.push(d);
                continue;
            }
            let name = self.unique_name("object", &self.node(net).name.clone());
            let label = format!("network.toscana.io/{name}");
            for &w in net_members {
                self.plans[w]
                    .extra_labels
                    .insert(label.clone(), "member".to_string());
            }
            let meta = self.meta(net, &name, "network", None, &name);
            out.push((net, NetworkPolicyObj { meta, label }));
        }
        out
    }

    /// Load balancers: a Service of type LoadBalancer per application they route to, or one
    /// Ingress with `--ingress`.
    pub(super) fn load_balancers(&mut self, diags: &mut Diagnostics) -> Vec<(usize, Routing)> {
        let mut out = Vec::new();
        for l in 0..self.topology.nodes.len() {
            if self.roles[l] != Role::LoadBalancer {
                continue;
            }
            let client_port = self.first_endpoint_port(l);
            let mut targets: Vec<usize> = Vec::new();
            let mut seen: std::collections::HashSet<usize> = Default::default();
            let topology = self.topology;
            for r in self.out_rels[l]
                .clone()
                .into_iter()
                .map(|ri| &topology.relationships[ri])
            {
                match self.workload_of.get(r.target.index()).copied().flatten() {
                    Some(w) if !self.plans[w].ports.is_empty() => {
                        if seen.insert(w) {
                            targets.push(w);
                        }
                    }
                    _ => {
                        let d = self.warn(
                            codes::K8S_UNSUPPORTED,
                            r.location,
                            format!(
                                "load balancer `{}` routes to `{}`, which exposes no port; skipped",
                                self.node(l).name,
                                self.node(r.target.index()).name
                            ),
                            "give the application an endpoint capability with a `port`",
                        );
                        diags.push(d);
                    }
                }
            }
            if targets.is_empty() {
                continue;
            }
            let mut services = Vec::new();
            let mut ingress = None;
            if self.options.ingress {
                let name = self.unique_name("object", &self.node(l).name.clone());
                let meta = self.meta(l, &name, "load-balancer", None, &name);
                let mut paths = Vec::new();
                for &w in &targets {
                    let plan = &self.plans[w];
                    let path = self
                        .property(
                            plan.members.last().copied().unwrap_or(plan.owner),
                            "context_root",
                        )
                        .or_else(|| {
                            plan.members
                                .iter()
                                .find_map(|&m| self.property(m, "context_root"))
                        })
                        .and_then(Value::as_str)
                        .map(|p| {
                            if p.starts_with('/') {
                                p.to_string()
                            } else {
                                format!("/{p}")
                            }
                        })
                        .unwrap_or_else(|| "/".to_string());
                    paths.push(IngressPath {
                        path,
                        service: plan.name.clone(),
                        port: plan.ports[0].port,
                    });
                }
                ingress = Some(IngressObj { meta, paths });
            } else {
                for &w in &targets {
                    let plan = self.plans[w].clone();
                    let base = if targets.len() == 1 {
                        self.node(l).name.clone()
                    } else {
                        format!("{}-{}", self.node(l).name, plan.name)
                    };
                    let name = self.unique_name("object", &base);
                    let meta = self.meta(l, &name, "load-balancer", plan.part_of.as_deref(), &name);
                    let ports = plan
                        .ports
                        .iter()
                        .enumerate()
                        .map(|(pi, p)| ServicePort {
                            name: p.name.clone(),
                            port: if pi == 0 {
                                client_port.unwrap_or(p.port)
                            } else {
                                p.port
                            },
                            target_port: p.target,
                            protocol: p.protocol,
                        })
                        .collect();
                    services.push(ServiceObj {
                        meta,
                        service_type: "LoadBalancer",
                        headless: false,
                        selector: self.selector(&plan),
                        ports,
                    });
                }
            }
            out.push((l, (services, ingress)));
        }
        out
    }
}

/// A value as the text of an environment variable ([`Ctx::resolve`]), for one node of a plan.
struct Text<'c, 'a> {
    ctx: &'c Ctx<'a>,
    node: usize,
    plan: &'c Plan,
}

impl eval::Host for Text<'_, '_> {
    type Out = Option<String>;

    fn known(&mut self, value: &Value) -> Result<Self::Out, String> {
        Ok(literal_text(value))
    }

    fn input(&mut self, call: &Call) -> Result<Self::Out, String> {
        let args: Vec<String> = call.args.iter().filter_map(literal_text).collect();
        Err(format!("input `{}` has no value", args.join(".")))
    }

    fn query(&mut self, call: &Call) -> Result<Self::Out, String> {
        self.ctx.query_text(call, self.node, self.plan)
    }

    /// The texts of the parts one after the other, a null part adding none.
    fn concat(&mut self, call: &Call) -> Result<Self::Out, String> {
        let mut out = String::new();
        for part in &call.args {
            if let Some(t) = self.ctx.resolve(part, self.node, self.plan)? {
                out.push_str(&t);
            }
        }
        Ok(Some(out))
    }

    /// The texts of the list's items with the delimiter between them, a null item left out.
    fn join(&mut self, call: &Call) -> Result<Self::Out, String> {
        let Some(Value::List(items)) = call.args.first() else {
            return Err("join() without a list".to_string());
        };
        let delimiter = call.args.get(1).and_then(literal_text).unwrap_or_default();
        let mut parts = Vec::new();
        for part in items {
            if let Some(t) = self.ctx.resolve(part, self.node, self.plan)? {
                parts.push(t);
            }
        }
        Ok(Some(parts.join(&delimiter)))
    }

    fn other(&mut self, call: &Call) -> Result<Self::Out, String> {
        Err(after_deployment(call))
    }
}

/// Why a call has no text in a manifest.
fn after_deployment(call: &Call) -> String {
    format!("{}() is known only after deployment", call.function)
}
