//! Which nodes become which workload, and what each workload runs: container applications,
//! database products and lifted stacks.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value as Json;

use crate::diag::{Diagnostics, codes};
use crate::ir::{NodeId, PolicyTarget, Value, type_matches};
use crate::limits::Limits;
use crate::source::ArtifactFiles;

use super::super::values::{
    cpu_quantity, env_name, integer, literal_text, port_name, size_quantity,
};
use super::defaults;
use super::*;
use crate::back::ignores::Part;
use crate::back::stack::lifecycle_steps;

impl Ctx<'_> {
    /// Decides which nodes become which workloads.
    pub(super) fn plan_workloads(
        &mut self,
        artifacts: &ArtifactFiles,
        limits: &Limits,
        mut diags: Option<&mut Diagnostics>,
    ) {
        let n = self.topology.nodes.len();
        // Databases with a known product first: they take their DBMS and hosted databases.
        let mut taken = vec![false; n];
        for id in self.topology.node_ids() {
            let i = id.index();
            if taken[i] || !matches!(self.roles[i], Role::Dbms | Role::Database) {
                continue;
            }
            // A database hosted on a DBMS belongs to the DBMS's decision.
            if self.roles[i] == Role::Database
                && let Some(h) = self.hosting.host(id)
                && self.roles[h.index()] == Role::Dbms
            {
                continue;
            }
            let hosted: Vec<usize> = self
                .hosting
                .hosted(id)
                .iter()
                .map(|h| h.index())
                .filter(|&h| self.roles[h] == Role::Database)
                .collect();
            let product = self
                .product_of(i)
                .or_else(|| hosted.iter().find_map(|&h| self.product_of(h)));
            let Some(product) = product else { continue };
            let mut plan = self.new_plan(i, "database");
            plan.stateful = true;
            plan.members.extend(&hosted);
            taken[i] = true;
            for &h in &hosted {
                taken[h] = true;
            }
            self.product_workload(&mut plan, &product, &hosted, diags.as_deref_mut());
            plan.product = Some(product);
            let w = self.plans.len();
            for &m in &plan.members {
                self.workload_of[m] = Some(w);
            }
            self.plans.push(plan);
        }
        for id in self.topology.node_ids() {
            let i = id.index();
            if taken[i] {
                continue;
            }
            match self.roles[i] {
                Role::Container => {
                    let mut plan = self.new_plan(i, "application");
                    self.container_workload(&mut plan, diags.as_deref_mut());
                    if plan.image.is_some() {
                        self.workload_of[i] = Some(self.plans.len());
                        self.plans.push(plan);
                    }
                }
                Role::Compute | Role::Software | Role::Dbms | Role::Database
                    if self.hosting.root(id) == id =>
                {
                    self.stack_workload(id, &taken, artifacts, limits, diags.as_deref_mut());
                }
                _ => {}
            }
        }
        // Software that ended up in no workload says why: its chain does not end on a
        // Compute, or it sits on a database product, whose image has no place for it.
        for id in self.topology.node_ids() {
            let i = id.index();
            if self.workload_of[i].is_some()
                || !matches!(self.roles[i], Role::Software | Role::Dbms | Role::Database)
            {
                continue;
            }
            let host = self.hosting.host(id).map_or(i, |h| h.index());
            let root = self.hosting.root(id).index();
            let (message, hint) = if self.workload_of[host].is_some()
                && self.plans[self.workload_of[host].unwrap_or(0)]
                    .product
                    .is_some()
            {
                (
                    format!(
                        "node `{}` is hosted on `{}`, whose product image has no place for it; skipped",
                        self.node(i).name,
                        self.node(host).name
                    ),
                    "host it on a Compute node, or make it a container application",
                )
            } else {
                (
                    format!(
                        "node `{}` is hosted on `{}`, which has no Kubernetes workload; skipped",
                        self.node(i).name,
                        self.node(root).name
                    ),
                    "lift-and-shift needs the bottom of a hosting chain to be a Compute node",
                )
            };
            // The warning says the node is skipped as a whole.
            self.ledger.accounted(ElementKind::Node, i);
            self.warn_to(
                diags.as_deref_mut(),
                codes::K8S_UNSUPPORTED,
                self.node(i).location,
                message,
                hint,
            );
        }
    }

    /// A database product: its image, port, data volume and environment.
    pub(super) fn product_workload(
        &mut self,
        plan: &mut Plan,
        product: &Json,
        hosted: &[usize],
        mut diags: Option<&mut Diagnostics>,
    ) {
        let owner = plan.owner;
        let version = self
            .property(owner, "component_version")
            .and_then(literal_text);
        plan.image = self.product_image(owner, product, version.as_deref(), diags.as_deref_mut());
        let port = self
            .property(owner, "port")
            .and_then(integer)
            .or_else(|| {
                hosted
                    .iter()
                    .find_map(|&h| self.property(h, "port").and_then(integer))
            })
            .or_else(|| product.get("port").and_then(Json::as_i64));
        // The image listens on the product's port; a different TOSCA port is the Service's.
        let target = product.get("port").and_then(Json::as_i64);
        if let Some(port) = port {
            plan.ports.push(Port {
                name: port_name(json_str(product, "name").unwrap_or("db")),
                port,
                target: target.unwrap_or(port),
                protocol: "TCP",
                ..Port::default()
            });
        }
        let env_map = product.get("env").cloned().unwrap_or(Json::Null);
        // The database's own settings first, then the DBMS's.
        let mut sources: Vec<(usize, &str, &str)> = Vec::new();
        if let Some(&db) = hosted.first() {
            sources.push((db, "name", "database"));
            sources.push((db, "user", "user"));
            sources.push((db, "password", "password"));
        }
        if self.roles[owner] == Role::Database {
            sources.push((owner, "name", "database"));
        }
        sources.push((owner, "user", "user"));
        sources.push((owner, "password", "password"));
        sources.push((owner, "root_password", "root_password"));
        for (node, property, slot) in sources {
            let Some(value) = self.property(node, property).cloned() else {
                continue;
            };
            let Some(env) = json_str(&env_map, slot).map(str::to_string) else {
                if !matches!(value, Value::Null)
                    && let Some(diags) = diags.as_deref_mut()
                {
                    let d = self.warn(
                            codes::K8S_UNSUPPORTED,
                            self.node(node).location,
                            format!(
                                "property `{property}` of `{}` has no setting in the {} image; skipped",
                                self.node(node).name,
                                json_str(product, "name").unwrap_or("database")
                            ),
                            "set it up with an init script, or add it to the product's `env` in the rules",
                        );
                    diags.push(d);
                }
                continue;
            };
            let secret = slot.contains("password");
            self.add_env(plan, node, &env, &value, secret, diags.as_deref_mut());
        }
        for &extra in hosted.iter().skip(1) {
            self.warn_to(
                diags.as_deref_mut(),
                codes::K8S_UNSUPPORTED,
                self.node(extra).location,
                format!(
                    "database `{}` is the second on `{}`: the image creates only `{}`; skipped",
                    self.node(extra).name,
                    self.node(owner).name,
                    self.node(hosted[0]).name
                ),
                "create further databases with an init script",
            );
        }
        // Its data claim comes with every other stateful workload's (`claim_state`), after the
        // storage attached to it, which may already hold the data folder.
        plan.args = json_strings(product, "args");
        if plan.args.iter().any(|a| a.contains("$(")) {
            // Arguments that refer to a variable need it; drop them when it was not set.
            let known: Vec<String> = plan.env.iter().map(|e| format!("$({})", e.name)).collect();
            if !plan
                .args
                .iter()
                .all(|a| !a.contains("$(") || known.iter().any(|k| a.contains(k.as_str())))
            {
                plan.args.clear();
            }
        }
        plan.replicas = self.replicas(owner);
    }

    /// A container application: image artifact, ports, environment.
    pub(super) fn container_workload(
        &mut self,
        plan: &mut Plan,
        mut diags: Option<&mut Diagnostics>,
    ) {
        let i = plan.owner;
        let node = self.node(i);
        let bind = self.bind(i);
        let image_types = json_strings(bind, "image_types");
        let artifact = node
            .artifacts
            .iter()
            .find(|(_, a)| is_image(a, &image_types))
            .or_else(|| node.artifacts.get_key_value("image"))
            .map(|(name, a)| {
                self.used(i, Part::Artifact, name);
                a
            })
            .or_else(|| {
                // 1.x container applications often name the image as the create implementation.
                node.interfaces.iter().find_map(|(name, iface)| {
                    let image = iface
                        .operations
                        .get("create")
                        .and_then(|o| o.implementation.as_ref())
                        .and_then(|im| im.primary.as_ref())
                        .filter(|a| is_image(a, &image_types))?;
                    self.used(i, Part::Operation, &format!("{name}.create"));
                    Some(image)
                })
            });
        match artifact {
            Some(a) => {
                plan.image = Some(crate::back::images::image_ref(
                    &a.file,
                    a.repository_url.as_deref(),
                ))
            }
            None => {
                if let Some(image) = self.property(i, "image").and_then(Value::as_str) {
                    plan.image = Some(image.to_string());
                } else {
                    self.warn_to(diags.as_deref_mut(), codes::K8S_UNSUPPORTED,
                            node.location,
                            format!("container application `{}` has no image artifact; skipped", node.name),
                            "add an artifact of type tosca.artifacts.Deployment.Image (file: nginx:1.27)",);
                    self.ledger.accounted(ElementKind::Node, i);
                    return;
                }
            }
        }
        self.check_image(plan, diags.as_deref_mut());
        // An image of a product that keeps state, or a type that names one or offers a database
        // endpoint: a StatefulSet with its data on a claim (`claim_state`).
        plan.state = plan
            .image
            .as_deref()
            .and_then(|image| self.image_product(i, image))
            .or_else(|| self.product_of(i));
        plan.stateful = plan.state.is_some() || self.typed_as_database(i);
        plan.ports = self.endpoint_ports(&[i]);
        // Properties the rules map to the environment.
        if bind.get("property_env").and_then(Json::as_bool) == Some(true) {
            let skip = json_strings(bind, "property_env_skip");
            for (name, value) in &node.properties {
                if skip.contains(name) || matches!(value, Value::Null) {
                    continue;
                }
                self.used(i, Part::Property, name);
                let secret = self.is_secret_name(name);
                self.add_property_env(plan, i, name, value, secret, diags.as_deref_mut());
            }
        }
        // Operation inputs of create and start.
        for (iface_name, iface) in &node.interfaces {
            for op in ["create", "start"] {
                if let Some(o) = iface.operations.get(op) {
                    self.used(i, Part::Operation, &format!("{iface_name}.{op}"));
                    for (name, value) in iface.inputs.iter().chain(&o.inputs) {
                        let secret = self.is_secret_name(name);
                        self.env_at = o
                            .implementation
                            .as_ref()
                            .and_then(|im| im.primary.as_ref())
                            .and_then(|a| a.location);
                        self.add_env(
                            plan,
                            i,
                            &env_name(name),
                            value,
                            secret,
                            diags.as_deref_mut(),
                        );
                        self.env_at = None;
                    }
                }
            }
        }
        plan.replicas = self.replicas(i);
    }

    /// Ports of the endpoint capabilities of `members` (and their `port` properties), each
    /// number once. A capability's `target-port` (the abstract application profile's Endpoint)
    /// is the port the container listens on, `port` the one its Service offers; its name is
    /// `port_name` (Simple Profile) or `name` (that profile), else the capability's.
    pub(super) fn endpoint_ports(&self, members: &[usize]) -> Vec<Port> {
        let mut ports: Vec<Port> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for &m in members {
            let node = self.node(m);
            let mut found: Vec<(String, i64, i64, &'static str, defaults::Http)> = Vec::new();
            for (cname, cap) in &node.capabilities {
                if !is_endpoint(cap) {
                    continue;
                }
                let Some(cap) = self.capability(m, cname) else {
                    continue;
                };
                if let Some(port) = cap.get("port").and_then(integer) {
                    let name = ["port_name", "name"]
                        .iter()
                        .find_map(|k| cap.get(k).and_then(Value::as_str))
                        .unwrap_or(cname);
                    let target = cap.get("target-port").and_then(integer);
                    found.push((
                        name.to_string(),
                        port,
                        target.unwrap_or(port),
                        protocol(cap.get("protocol")),
                        defaults::http(cap),
                    ));
                }
            }
            if let Some(port) = self.property(m, "port").and_then(integer) {
                found.push((node.name.clone(), port, port, "TCP", (None, None)));
            }
            for (name, port, target, proto, (scheme, path)) in found {
                if !(1..=65535).contains(&port)
                    || ports.iter().any(|p| p.port == port && p.protocol == proto)
                {
                    continue;
                }
                let mut pn = port_name(&name);
                if names.contains(&pn) {
                    pn = port_name(&format!("p{port}"));
                }
                names.push(pn.clone());
                ports.push(Port {
                    name: pn,
                    port,
                    target,
                    protocol: proto,
                    scheme,
                    path,
                });
            }
        }
        // Nothing declared, but others connect: the port the product listens on by default.
        if ports.is_empty()
            && let Some((name, port)) = members
                .iter()
                .filter(|&&m| self.addressed[m])
                .find_map(|&m| self.known_port(m))
        {
            ports.push(Port {
                name: port_name(&name),
                port,
                target: port,
                protocol: "TCP",
                ..Port::default()
            });
        }
        ports
    }

    /// replicas: the node's `count`, a scaling policy's `default_instances`, the Scalable
    /// capability's `default_instances`, or 1.
    pub(super) fn replicas(&self, i: usize) -> i64 {
        let node = self.node(i);
        if let Some(c) = integer(&node.count)
            && c != 1
        {
            return c.max(0);
        }
        if let Some(&d) = self.scaled_instances.get(&i) {
            return d.max(0);
        }
        node.capabilities
            .keys()
            .find_map(|c| {
                self.capability(i, c)?
                    .get("default_instances")
                    .and_then(integer)
            })
            .map_or(1, |d| d.max(0))
    }

    /// The workloads a `kind` (`scaling`, `placement`) policy's targets ended up in; none is a
    /// warning that the policy is skipped.
    pub(super) fn policy_workloads(
        &mut self,
        p: &crate::ir::Policy,
        kind: &str,
        diags: &mut Diagnostics,
    ) -> Vec<usize> {
        let mut workloads: Vec<usize> = self
            .policy_nodes(&p.targets)
            .iter()
            .filter_map(|&t| self.workload_of[t])
            .collect();
        workloads.dedup();
        if workloads.is_empty() {
            let d = self.warn(
                codes::K8S_UNSUPPORTED,
                p.location,
                format!(
                    "{kind} policy `{}` targets no translated workload; skipped",
                    p.name
                ),
                "",
            );
            diags.push(d);
        }
        workloads
    }

    pub(super) fn policy_nodes(&self, targets: &[PolicyTarget]) -> Vec<usize> {
        policy_nodes(self.topology, targets)
    }

    /// A lifted stack: a Compute (or a software node that is not hosted) and what it hosts.
    pub(super) fn stack_workload(
        &mut self,
        root_id: NodeId,
        taken: &[bool],
        artifacts: &ArtifactFiles,
        limits: &Limits,
        mut diags: Option<&mut Diagnostics>,
    ) {
        let root = root_id.index();
        let stack = self.hosting.stack(self.topology, root_id);
        let order: Vec<NodeId> = stack
            .iter()
            .copied()
            .filter(|m| {
                !taken[m.index()]
                    && matches!(
                        self.roles[m.index()],
                        Role::Compute | Role::Software | Role::Dbms | Role::Database
                    )
                    && !self.under_taken(*m, taken)
            })
            .collect();
        let steps = lifecycle_steps(self.topology, &order, self.ledger);
        if order.len() == 1
            && steps.is_empty()
            && self.roles[root] == Role::Compute
            && stack
                .iter()
                .any(|m| self.roles[m.index()] == Role::Container)
        {
            // A server whose only guests are container applications (on it, or on a container
            // runtime on it) is a node of the cluster that runs them, not a workload: lifted, it
            // would be an idle pod beside the containers' own.
            return;
        }
        if order.len() == 1 && steps.is_empty() && self.roles[root] == Role::Compute {
            // A server that only hosts a database product: its resources go to that database.
            if let Some(w) = self
                .hosting
                .hosted(root_id)
                .iter()
                .find_map(|h| self.workload_of[h.index()])
            {
                self.workload_of[root] = Some(w);
                let requests = self.requests(root);
                self.plans[w].requests.extend(requests);
                self.plans[w].members.push(root);
                return;
            }
        }
        let mut plan = self.new_plan(
            root,
            if self.roles[root] == Role::Compute {
                "server"
            } else {
                "software"
            },
        );
        plan.members = order.iter().map(|m| m.index()).collect();
        // A stack that keeps data is a StatefulSet with its data on claims (`claim_state`).
        plan.stateful = order.iter().any(|m| self.keeps_data(m.index()));
        // The base image.
        let bind = self.bind(root);
        plan.image = Some(self.base_image(root, diags.as_deref_mut()));
        plan.requests = self.requests(root);
        plan.ports = self.endpoint_ports(&plan.members.clone());
        // Scripts, in order, and their inputs as the environment.
        let script = self.ship_scripts(
            &mut plan,
            &steps,
            bind,
            artifacts,
            limits,
            diags.as_deref_mut(),
        );
        self.unattended(&mut plan, root, bind, diags.as_deref_mut());
        plan.config.insert(
            0,
            Pair {
                key: "entrypoint.sh".to_string(),
                value: script,
            },
        );
        plan.items.insert(
            0,
            Pair {
                key: "entrypoint.sh".to_string(),
                value: "entrypoint.sh".to_string(),
            },
        );
        plan.command = vec![
            "/bin/sh".to_string(),
            format!("{SCRIPTS_DIR}/entrypoint.sh"),
        ];
        plan.mounts.push(Mount {
            name: "scripts".to_string(),
            path: SCRIPTS_DIR.to_string(),
            read_only: true,
            sub_path: None,
        });
        plan.replicas = self.replicas(root);
        if self.roles[root] != Role::Compute
            && let Some(diags) = diags
        {
            diags.push(self.warn(
                codes::K8S_UNSUPPORTED,
                self.node(root).location,
                format!(
                    "`{}` has no Compute host; it runs on the default base image",
                    self.node(root).name
                ),
                "host it on a Compute node whose `os` capability names the distribution",
            ));
        }
        let w = self.plans.len();
        for &m in &plan.members {
            self.workload_of[m] = Some(w);
        }
        self.plans.push(plan);
    }

    /// What scripts written for a server need to run unattended in a container (the rules'
    /// `environment`): package managers must not stop to ask, there is no terminal.
    fn unattended(
        &mut self,
        plan: &mut Plan,
        root: usize,
        bind: &Json,
        mut diags: Option<&mut Diagnostics>,
    ) {
        let Some(settings) = bind.get("environment").and_then(Json::as_object) else {
            return;
        };
        for (name, value) in settings {
            if let Some(value) = value.as_str() {
                let value = Value::String(value.to_string());
                self.add_env(plan, root, name, &value, false, diags.as_deref_mut());
            }
        }
    }

    /// True when a node of the stack sits on a node a database product took.
    pub(super) fn under_taken(&self, node: NodeId, taken: &[bool]) -> bool {
        let mut at = self.hosting.host(node);
        let mut steps = 0;
        while let Some(h) = at {
            if taken[h.index()] {
                return true;
            }
            steps += 1;
            if steps > taken.len() {
                break;
            }
            at = self.hosting.host(h);
        }
        false
    }

    /// Resource requests from a Compute's `host` capability.
    pub(super) fn requests(&self, i: usize) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        if let Some(host) = self.sizing_capability(i) {
            if let Some(cpu) = host.get("num_cpus").and_then(cpu_quantity) {
                out.insert("cpu".to_string(), cpu);
            }
            if let Some(mem) = host.get("mem_size").and_then(size_quantity) {
                out.insert("memory".to_string(), mem);
            }
            if let Some(disk) = host.get("disk_size").and_then(size_quantity) {
                out.insert("ephemeral-storage".to_string(), disk);
            }
        }
        out
    }
}

/// The nodes a policy's targets name, groups by their members, in target order, each once
/// ([`crate::back::policies::policy_nodes`], as indexes).
pub(super) fn policy_nodes(topology: &Topology, targets: &[PolicyTarget]) -> Vec<usize> {
    crate::back::policies::policy_nodes(topology, targets)
        .into_iter()
        .map(NodeId::index)
        .collect()
}

/// Node → the `default_instances` of the first scaling policy (in policy order) that targets it
/// and gives one: what [`Ctx::replicas`] takes before the node's own capabilities.
pub(super) fn scaled_instances(topology: &Topology, ledger: &Ledger) -> HashMap<usize, i64> {
    let mut out = HashMap::new();
    for (pi, p) in topology.policies.iter().enumerate() {
        if !type_matches(&p.types, "tosca.policies.Scaling")
            && !p.types.iter().any(|t| t.ends_with("Scaling"))
        {
            continue;
        }
        let Some(d) = ledger
            .policy_property(topology, pi, "default_instances")
            .and_then(integer)
        else {
            continue;
        };
        for n in policy_nodes(topology, &p.targets) {
            out.entry(n).or_insert(d);
        }
    }
    out
}

/// The Kubernetes protocol of an endpoint's `protocol` property (TCP unless it says UDP or SCTP).
fn protocol(value: Option<&Value>) -> &'static str {
    match value.and_then(Value::as_str).map(str::to_ascii_lowercase) {
        Some(p) if p == "udp" => "UDP",
        Some(p) if p == "sctp" => "SCTP",
        _ => "TCP",
    }
}
