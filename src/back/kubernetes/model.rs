//! The `k8s` context: what each node, policy and group becomes, worked out over the whole
//! topology (see the parent module for the mapping). Templates only write it down.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Capability, NodeId, PolicyTarget, Topology, Value, type_matches};
use crate::limits::Limits;
use crate::source::ArtifactFiles;
use crate::source::Span;

use super::super::elements::SpanFinder;
use super::super::filters::dns_label;
use super::super::stack::{Hosting, lifecycle_steps};
use super::super::{Backend, Element, ElementKind};
use super::K8sOptions;
use super::values::{
    cpu_quantity, data_key, env_name, image_ref, integer, literal_text, port_name, shouty,
    size_quantity,
};

/// Where the entrypoint and the scripts of a lifted stack are mounted.
const SCRIPTS_DIR: &str = "/toscana";

/// The role a rule's `bind.role` gives a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Container,
    Compute,
    Software,
    Dbms,
    Database,
    Storage,
    LoadBalancer,
    Network,
    Port,
    /// No rule, a skip rule, or a role this module does not know.
    None,
}

impl Role {
    fn parse(s: &str) -> Role {
        match s {
            "container" => Role::Container,
            "compute" => Role::Compute,
            "software" => Role::Software,
            "dbms" => Role::Dbms,
            "database" => Role::Database,
            "storage" => Role::Storage,
            "load_balancer" => Role::LoadBalancer,
            "network" => Role::Network,
            "port" => Role::Port,
            _ => Role::None,
        }
    }
}

/// A key and a value, the way templates loop over labels, data and the like.
#[derive(Debug, Clone, Serialize, PartialEq)]
struct Pair {
    key: String,
    value: String,
}

fn pairs(map: &BTreeMap<String, String>) -> Vec<Pair> {
    map.iter()
        .map(|(k, v)| Pair {
            key: k.clone(),
            value: v.clone(),
        })
        .collect()
}

/// `metadata` of one object.
#[derive(Debug, Clone, Serialize)]
struct Meta {
    name: String,
    namespace: Option<String>,
    labels: Vec<Pair>,
    annotations: Vec<Pair>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
struct Port {
    name: String,
    /// The port clients use (the Service's).
    port: i64,
    /// The port the container listens on.
    target: i64,
    protocol: &'static str,
}

/// One environment variable: a value, or a key of the workload's Secret.
#[derive(Debug, Clone, Serialize, PartialEq)]
struct Env {
    name: String,
    value: Option<String>,
    secret: Option<String>,
    key: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct Mount {
    name: String,
    path: String,
    read_only: bool,
}

#[derive(Debug, Clone, Serialize)]
struct Volume {
    name: String,
    config_map: Option<String>,
    /// ConfigMap keys mounted as files at these paths.
    items: Vec<Pair>,
    claim: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct ClaimTemplate {
    name: String,
    size: String,
}

#[derive(Debug, Clone, Serialize, Default)]
struct Affinity {
    /// Pods carrying this label are spread over `topology_key`.
    spread: Vec<Spread>,
    /// Required node zones.
    zones: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
struct Spread {
    label: String,
    value: String,
    topology_key: String,
}

/// A Deployment or StatefulSet with one container.
#[derive(Debug, Clone, Serialize)]
struct Workload {
    kind: &'static str,
    meta: Meta,
    replicas: i64,
    selector: Vec<Pair>,
    pod_labels: Vec<Pair>,
    service_name: Option<String>,
    container: Container,
    volumes: Vec<Volume>,
    claim_templates: Vec<ClaimTemplate>,
    affinity: Option<Affinity>,
}

#[derive(Debug, Clone, Serialize)]
struct Container {
    name: String,
    image: String,
    command: Vec<String>,
    args: Vec<String>,
    ports: Vec<Port>,
    env: Vec<Env>,
    requests: Vec<Pair>,
    mounts: Vec<Mount>,
}

#[derive(Debug, Clone, Serialize)]
struct ServiceObj {
    meta: Meta,
    /// `ClusterIP` or `LoadBalancer`.
    service_type: &'static str,
    headless: bool,
    selector: Vec<Pair>,
    ports: Vec<ServicePort>,
}

#[derive(Debug, Clone, Serialize)]
struct ServicePort {
    name: String,
    port: i64,
    target_port: i64,
    protocol: &'static str,
}

#[derive(Debug, Clone, Serialize)]
struct DataObj {
    meta: Meta,
    data: Vec<Pair>,
}

#[derive(Debug, Clone, Serialize)]
struct ClaimObj {
    meta: Meta,
    size: String,
}

#[derive(Debug, Clone, Serialize)]
struct IngressObj {
    meta: Meta,
    paths: Vec<IngressPath>,
}

#[derive(Debug, Clone, Serialize)]
struct IngressPath {
    path: String,
    service: String,
    port: i64,
}

#[derive(Debug, Clone, Serialize)]
struct NetworkPolicyObj {
    meta: Meta,
    label: String,
}

#[derive(Debug, Clone, Serialize)]
struct HpaObj {
    meta: Meta,
    target_kind: &'static str,
    target_name: String,
    min: i64,
    max: i64,
    cpu: i64,
}

/// The Services (or the Ingress) of one load balancer.
type Routing = (Vec<ServiceObj>, Option<IngressObj>);

/// What one node renders (`k8s.nodes[element.index]`).
#[derive(Debug, Clone, Serialize, Default)]
struct NodeOut {
    config_map: Option<DataObj>,
    secret: Option<DataObj>,
    service: Option<ServiceObj>,
    workload: Option<Workload>,
    claims: Vec<ClaimObj>,
    services: Vec<ServiceObj>,
    ingress: Option<IngressObj>,
    network_policy: Option<NetworkPolicyObj>,
}

/// A workload under construction.
#[derive(Debug, Clone)]
struct Plan {
    /// The node whose rule renders it.
    owner: usize,
    name: String,
    /// Every node it represents, in deployment order.
    members: Vec<usize>,
    stateful: bool,
    image: Option<String>,
    command: Vec<String>,
    args: Vec<String>,
    ports: Vec<Port>,
    env: Vec<Env>,
    secret: BTreeMap<String, String>,
    config: Vec<Pair>,
    items: Vec<Pair>,
    requests: BTreeMap<String, String>,
    mounts: Vec<Mount>,
    volumes: Vec<Volume>,
    claim_templates: Vec<ClaimTemplate>,
    replicas: i64,
    component: String,
    part_of: Option<String>,
    extra_labels: BTreeMap<String, String>,
    affinity: Affinity,
    /// The product table entry of a database workload.
    product: Option<Json>,
}

struct Ctx<'a> {
    topology: &'a Topology,
    hosting: Hosting,
    roles: Vec<Role>,
    binds: Vec<Json>,
    spans: SpanFinder<'a>,
    options: &'a K8sOptions,
    instance: String,
    secret_names: Vec<String>,
    /// Per node: the workload that represents it.
    workload_of: Vec<Option<usize>>,
    plans: Vec<Plan>,
    /// Used object names per kind group, for uniqueness.
    names: HashMap<String, usize>,
}

/// Builds the `k8s` context. Problems are warnings (what was skipped, and why) in `diags`.
#[allow(clippy::too_many_arguments)]
pub fn context(
    backend: &Backend,
    topology: &Topology,
    elements: &[Element],
    sources: &crate::source::SourceMap,
    artifacts: &ArtifactFiles,
    limits: &Limits,
    options: &K8sOptions,
    diags: &mut Diagnostics,
) -> Json {
    let node_elements: Vec<&Element> = elements
        .iter()
        .filter(|e| e.kind == ElementKind::Node)
        .collect();
    let binds: Vec<Json> = (0..topology.nodes.len())
        .map(|i| {
            node_elements
                .get(i)
                .and_then(|e| backend.bind_for(e))
                .map_or(Json::Null, |(_, b)| b.clone())
        })
        .collect();
    let roles: Vec<Role> = binds
        .iter()
        .map(|b| Role::parse(b.get("role").and_then(Json::as_str).unwrap_or("")))
        .collect();
    let secret_names = binds
        .iter()
        .find_map(|b| b.get("secret_names").and_then(Json::as_array))
        .map(|a| {
            a.iter()
                .filter_map(Json::as_str)
                .map(str::to_ascii_lowercase)
                .collect()
        })
        .unwrap_or_default();
    let instance = topology
        .metadata
        .get("template_name")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| {
            let entry = topology.source.entry.replace('\\', "/");
            let file = entry.rsplit('/').next().unwrap_or(&entry).to_string();
            file.split('.').next().unwrap_or(&file).to_string()
        });
    let mut ctx = Ctx {
        topology,
        hosting: Hosting::new(topology),
        roles,
        binds,
        spans: SpanFinder::new(&topology.source.files, sources),
        options,
        instance: dns_label(&instance),
        secret_names,
        workload_of: vec![None; topology.nodes.len()],
        plans: Vec::new(),
        names: HashMap::new(),
    };
    ctx.plan_workloads(artifacts, limits, diags);
    ctx.connect(diags);
    ctx.attach_storage(diags);
    let claims = ctx.standalone_claims();
    ctx.apply_groups(diags);
    let networks = ctx.networks(diags);
    ctx.apply_placement(elements, backend, diags);
    let hpas = ctx.scaling(elements, backend, diags);
    let lbs = ctx.load_balancers(diags);

    let mut nodes: Vec<NodeOut> = vec![NodeOut::default(); topology.nodes.len()];
    for plan in ctx.plans.clone() {
        let out = ctx.finish(&plan);
        let slot = &mut nodes[plan.owner];
        slot.config_map = out.config_map;
        slot.secret = out.secret;
        slot.service = out.service;
        slot.workload = out.workload;
    }
    for (i, claim) in claims {
        nodes[i].claims.push(claim);
    }
    for (i, np) in networks {
        nodes[i].network_policy = Some(np);
    }
    for (i, (services, ingress)) in lbs {
        nodes[i].services = services;
        nodes[i].ingress = ingress;
    }
    json!({
        "namespace": options.namespace,
        "nodes": nodes,
        "policies": hpas,
    })
}

/// True when a capability is an endpoint: typed as one (any spelling), or untyped with a port.
fn is_endpoint(c: &Capability) -> bool {
    c.types.iter().any(|t| {
        let short = t.rsplit_once(':').map_or(t.as_str(), |(_, n)| n);
        short == "tosca.capabilities.Endpoint"
            || short.starts_with("tosca.capabilities.Endpoint.")
            || short == "Endpoint"
            || short.starts_with("Endpoint.")
    }) || (c.types.is_empty() && c.properties.contains_key("port"))
}

/// True when an artifact's type (or an ancestor), under any profile prefix, is one of `types`.
fn is_image(a: &crate::ir::Artifact, types: &[String]) -> bool {
    a.types.iter().chain(a.type_name.as_ref()).any(|t| {
        let short = t.rsplit_once(':').map_or(t.as_str(), |(_, n)| n);
        types.iter().any(|w| w == t || w == short)
    })
}

fn protocol(value: Option<&Value>) -> &'static str {
    match value.and_then(Value::as_str).map(str::to_ascii_lowercase) {
        Some(p) if p == "udp" => "UDP",
        Some(p) if p == "sctp" => "SCTP",
        _ => "TCP",
    }
}

/// The words in a name, for matching product keywords: `my-PostgreSQL_db` → `my postgresql db`.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

fn json_str<'j>(j: &'j Json, key: &str) -> Option<&'j str> {
    j.get(key).and_then(Json::as_str)
}

fn json_strings(j: &Json, key: &str) -> Vec<String> {
    j.get(key)
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

impl Ctx<'_> {
    fn node(&self, i: usize) -> &crate::ir::Node {
        &self.topology.nodes[i]
    }

    fn span_of(&mut self, location: Option<crate::ir::Location>) -> Option<Span> {
        location.and_then(|l| self.spans.span(l))
    }

    fn warn(
        &mut self,
        code: &'static str,
        location: Option<crate::ir::Location>,
        message: String,
        hint: &str,
    ) -> Diagnostic {
        let mut d = Diagnostic::warning(code, message);
        if !hint.is_empty() {
            d = d.hint(hint.to_string());
        }
        if let Some(span) = self.span_of(location) {
            d = d.at(span);
        }
        d
    }

    /// A DNS-1123 name unique within `group`, starting with a letter (Service names must).
    /// Workloads, their Services, claims, Ingresses and NetworkPolicies share the group
    /// `object`, so `My_App` and `my-app` become `my-app` and `my-app-2` everywhere.
    fn unique_name(&mut self, group: &str, base: &str) -> String {
        let mut name = dns_label(base);
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            name = dns_label(&format!("n-{name}"));
        }
        let mut candidate = name.clone();
        let mut n = 1;
        while self.names.contains_key(&format!("{group}/{candidate}")) {
            n += 1;
            candidate = dns_label(&format!("{name}-{n}"));
        }
        self.names.insert(format!("{group}/{candidate}"), 1);
        candidate
    }

    /// The product-table entry a node names by its type or by one of the properties listed in
    /// the table's `properties`.
    fn product_of(&self, i: usize) -> Option<Json> {
        let bind = &self.binds[i];
        let products = bind.get("products")?.as_array()?;
        let node = self.node(i);
        let props = json_strings(bind, "product_properties");
        let mut texts: Vec<String> = node.types.iter().flat_map(|t| words(t)).collect();
        for p in &props {
            if let Some(v) = node.properties.get(p).and_then(Value::as_str) {
                texts.extend(words(v));
            }
        }
        products
            .iter()
            .find(|p| {
                json_strings(p, "match")
                    .iter()
                    .any(|m| texts.contains(&m.to_ascii_lowercase()))
            })
            .cloned()
    }

    fn is_secret_name(&self, name: &str) -> bool {
        let lower = name.to_ascii_lowercase();
        self.secret_names.iter().any(|s| lower.contains(s.as_str()))
    }

    fn new_plan(&mut self, owner: usize, component: &str) -> Plan {
        let name = self.unique_name("object", &self.node(owner).name.clone());
        Plan {
            owner,
            name,
            members: vec![owner],
            stateful: false,
            image: None,
            command: Vec::new(),
            args: Vec::new(),
            ports: Vec::new(),
            env: Vec::new(),
            secret: BTreeMap::new(),
            config: Vec::new(),
            items: Vec::new(),
            requests: BTreeMap::new(),
            mounts: Vec::new(),
            volumes: Vec::new(),
            claim_templates: Vec::new(),
            replicas: 1,
            component: component.to_string(),
            part_of: None,
            extra_labels: BTreeMap::new(),
            affinity: Affinity::default(),
            product: None,
        }
    }

    /// Decides which nodes become which workloads.
    fn plan_workloads(
        &mut self,
        artifacts: &ArtifactFiles,
        limits: &Limits,
        diags: &mut Diagnostics,
    ) {
        let n = self.topology.nodes.len();
        // Databases with a known product first: they take their DBMS and hosted databases.
        let mut taken = vec![false; n];
        for i in 0..n {
            if taken[i] || !matches!(self.roles[i], Role::Dbms | Role::Database) {
                continue;
            }
            // A database hosted on a DBMS belongs to the DBMS's decision.
            if self.roles[i] == Role::Database
                && let Some(h) = self.hosting.host(NodeId(i))
                && self.roles[h.0] == Role::Dbms
            {
                continue;
            }
            let hosted: Vec<usize> = self
                .hosting
                .hosted(NodeId(i))
                .iter()
                .map(|h| h.0)
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
            self.product_workload(&mut plan, &product, &hosted, diags);
            plan.product = Some(product);
            let w = self.plans.len();
            for &m in &plan.members {
                self.workload_of[m] = Some(w);
            }
            self.plans.push(plan);
        }
        for i in 0..n {
            if taken[i] {
                continue;
            }
            match self.roles[i] {
                Role::Container => {
                    let mut plan = self.new_plan(i, "application");
                    self.container_workload(&mut plan, diags);
                    if plan.image.is_some() {
                        self.workload_of[i] = Some(self.plans.len());
                        self.plans.push(plan);
                    }
                }
                Role::Compute | Role::Software | Role::Dbms | Role::Database
                    if self.hosting.root(NodeId(i)) == NodeId(i) =>
                {
                    self.stack_workload(i, &taken, artifacts, limits, diags);
                }
                Role::Software | Role::Dbms | Role::Database => {
                    let root = self.hosting.root(NodeId(i)).0;
                    if !matches!(
                        self.roles[root],
                        Role::Compute | Role::Software | Role::Dbms | Role::Database
                    ) {
                        let d = self.warn(
                            codes::K8S_UNSUPPORTED,
                            self.node(i).location,
                            format!(
                                "node `{}` is hosted on `{}`, which has no Kubernetes workload; skipped",
                                self.node(i).name,
                                self.node(root).name
                            ),
                            "lift-and-shift needs the bottom of a hosting chain to be a Compute node",
                        );
                        diags.push(d);
                    }
                }
                _ => {}
            }
        }
    }

    /// A database product: its image, port, data volume and environment.
    fn product_workload(
        &mut self,
        plan: &mut Plan,
        product: &Json,
        hosted: &[usize],
        diags: &mut Diagnostics,
    ) {
        let owner = plan.owner;
        let version = self
            .node(owner)
            .properties
            .get("component_version")
            .and_then(literal_text)
            .or_else(|| json_str(product, "default_version").map(str::to_string))
            .unwrap_or_else(|| "latest".to_string());
        plan.image = json_str(product, "image").map(|i| i.replace("{version}", &version));
        let port = self
            .node(owner)
            .properties
            .get("port")
            .and_then(integer)
            .or_else(|| {
                hosted
                    .iter()
                    .find_map(|&h| self.node(h).properties.get("port").and_then(integer))
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
            let Some(value) = self.node(node).properties.get(property).cloned() else {
                continue;
            };
            let Some(env) = json_str(&env_map, slot).map(str::to_string) else {
                if !matches!(value, Value::Null) {
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
            self.add_env(plan, node, &env, &value, secret, diags);
        }
        for &extra in hosted.iter().skip(1) {
            let d = self.warn(
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
            diags.push(d);
        }
        let size = json_str(product, "size").unwrap_or("1Gi").to_string();
        plan.claim_templates.push(ClaimTemplate {
            name: "data".to_string(),
            size,
        });
        if let Some(path) = json_str(product, "data") {
            plan.mounts.push(Mount {
                name: "data".to_string(),
                path: path.to_string(),
                read_only: false,
            });
        }
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
    fn container_workload(&mut self, plan: &mut Plan, diags: &mut Diagnostics) {
        let i = plan.owner;
        let node = self.node(i).clone();
        let bind = self.binds[i].clone();
        let hub = json_strings(&bind, "docker_hub");
        let image_types = json_strings(&bind, "image_types");
        let artifact = node
            .artifacts
            .values()
            .find(|a| is_image(a, &image_types))
            .or_else(|| node.artifacts.get("image"))
            .or_else(|| {
                // 1.x container applications often name the image as the create implementation.
                node.interfaces.values().find_map(|iface| {
                    iface
                        .operations
                        .get("create")
                        .and_then(|o| o.implementation.as_ref())
                        .and_then(|im| im.primary.as_ref())
                        .filter(|a| is_image(a, &image_types))
                })
            });
        match artifact {
            Some(a) => plan.image = Some(image_ref(&a.file, a.repository_url.as_deref(), &hub)),
            None => {
                if let Some(image) = node.properties.get("image").and_then(Value::as_str) {
                    plan.image = Some(image.to_string());
                } else {
                    let d = self.warn(
                        codes::K8S_UNSUPPORTED,
                        node.location,
                        format!("container application `{}` has no image artifact; skipped", node.name),
                        "add an artifact of type tosca.artifacts.Deployment.Image (file: nginx:1.27)",
                    );
                    diags.push(d);
                    return;
                }
            }
        }
        plan.ports = self.endpoint_ports(&[i]);
        // Properties the rules map to the environment.
        if bind.get("property_env").and_then(Json::as_bool) == Some(true) {
            let skip = json_strings(&bind, "property_env_skip");
            for (name, value) in &node.properties {
                if skip.contains(name) || matches!(value, Value::Null) {
                    continue;
                }
                let secret = self.is_secret_name(name);
                self.add_property_env(plan, i, name, value, secret, diags);
            }
        }
        // Operation inputs of create and start.
        for iface in node.interfaces.values() {
            for op in ["create", "start"] {
                if let Some(o) = iface.operations.get(op) {
                    for (name, value) in iface.inputs.iter().chain(&o.inputs) {
                        let secret = self.is_secret_name(name);
                        self.add_env(plan, i, &env_name(name), value, secret, diags);
                    }
                }
            }
        }
        plan.replicas = self.replicas(i);
    }

    /// A property as environment: a credential becomes `<NAME>_USER` and a secret
    /// `<NAME>_TOKEN`; anything else `<NAME>`.
    fn add_property_env(
        &mut self,
        plan: &mut Plan,
        node: usize,
        name: &str,
        value: &Value,
        secret: bool,
        diags: &mut Diagnostics,
    ) {
        if let Value::Map(map) = value
            && map.contains_key("token")
        {
            for (k, v) in map {
                let env = shouty(&format!("{name}_{k}"));
                let secret = k == "token" || k == "keys";
                self.add_env(plan, node, &env, v, secret, diags);
            }
            return;
        }
        self.add_env(plan, node, &shouty(name), value, secret, diags);
    }

    /// Adds one variable; a secret goes into the workload's Secret. A value Kubernetes cannot
    /// hold is a warning and left out.
    fn add_env(
        &mut self,
        plan: &mut Plan,
        node: usize,
        name: &str,
        value: &Value,
        secret: bool,
        diags: &mut Diagnostics,
    ) {
        if matches!(value, Value::Null) {
            return;
        }
        let text = match self.resolve(value, node, plan) {
            Ok(Some(t)) => t,
            Ok(None) => return,
            Err(why) => {
                let d = self.warn(
                    codes::K8S_UNSUPPORTED,
                    self.node(node).location,
                    format!(
                        "environment variable `{name}` of `{}` is left out: {why}",
                        self.node(node).name
                    ),
                    "give the value as a literal or an input, or set it after deployment",
                );
                diags.push(d);
                return;
            }
        };
        if let Some(existing) = plan.env.iter().find(|e| e.name == name) {
            let same = existing.value.as_deref() == Some(text.as_str())
                || (existing.secret.is_some() && plan.secret.get(name) == Some(&text));
            if !same {
                let d = self.warn(
                    codes::K8S_UNSUPPORTED,
                    self.node(node).location,
                    format!("environment variable `{name}` of `{}` is set twice with different values; the first is kept", self.node(node).name),
                    "the lifted stack runs in one container, which has one environment",
                );
                diags.push(d);
            }
            return;
        }
        if secret {
            let key = data_key(name);
            plan.secret.insert(key.clone(), text);
            plan.env.push(Env {
                name: name.to_string(),
                value: None,
                secret: Some(String::new()), // named in `finish`
                key: Some(key),
            });
        } else {
            plan.env.push(Env {
                name: name.to_string(),
                value: Some(text),
                secret: None,
                key: None,
            });
        }
    }

    /// Ports of the endpoint capabilities of `members` (and their `port` properties), each
    /// number once.
    fn endpoint_ports(&self, members: &[usize]) -> Vec<Port> {
        let mut ports: Vec<Port> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for &m in members {
            let node = self.node(m);
            let mut found: Vec<(String, i64, &'static str)> = Vec::new();
            for (cname, cap) in &node.capabilities {
                if !is_endpoint(cap) {
                    continue;
                }
                if let Some(port) = cap.properties.get("port").and_then(integer) {
                    let name = cap
                        .properties
                        .get("port_name")
                        .and_then(Value::as_str)
                        .unwrap_or(cname);
                    found.push((
                        name.to_string(),
                        port,
                        protocol(cap.properties.get("protocol")),
                    ));
                }
            }
            if let Some(port) = node.properties.get("port").and_then(integer) {
                found.push((node.name.clone(), port, "TCP"));
            }
            for (name, port, proto) in found {
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
                    target: port,
                    protocol: proto,
                });
            }
        }
        ports
    }

    /// replicas: the node's `count`, a scaling policy's `default_instances`, the Scalable
    /// capability's `default_instances`, or 1.
    fn replicas(&self, i: usize) -> i64 {
        let node = self.node(i);
        if let Some(c) = integer(&node.count)
            && c != 1
        {
            return c.max(0);
        }
        for p in &self.topology.policies {
            if !type_matches(&p.types, "tosca.policies.Scaling")
                && !p.types.iter().any(|t| t.ends_with("Scaling"))
            {
                continue;
            }
            if self.policy_nodes(&p.targets).contains(&i)
                && let Some(d) = p.properties.get("default_instances").and_then(integer)
            {
                return d.max(0);
            }
        }
        node.capabilities
            .values()
            .find_map(|c| c.properties.get("default_instances").and_then(integer))
            .map_or(1, |d| d.max(0))
    }

    fn policy_nodes(&self, targets: &[PolicyTarget]) -> Vec<usize> {
        let mut out = Vec::new();
        for t in targets {
            match *t {
                PolicyTarget::Node(n) => out.push(n.0),
                PolicyTarget::Group(g) => {
                    if let Some(group) = self.topology.groups.get(g.0) {
                        out.extend(group.members.iter().map(|m| m.0));
                    }
                }
            }
        }
        out
    }

    /// A lifted stack: a Compute (or a software node that is not hosted) and what it hosts.
    fn stack_workload(
        &mut self,
        root: usize,
        taken: &[bool],
        artifacts: &ArtifactFiles,
        limits: &Limits,
        diags: &mut Diagnostics,
    ) {
        let order: Vec<NodeId> = self
            .hosting
            .stack(self.topology, NodeId(root))
            .into_iter()
            .filter(|m| {
                !taken[m.0]
                    && matches!(
                        self.roles[m.0],
                        Role::Compute | Role::Software | Role::Dbms | Role::Database
                    )
                    && !self.under_taken(m.0, taken)
            })
            .collect();
        let steps = lifecycle_steps(self.topology, &order);
        if order.len() == 1 && steps.is_empty() && self.roles[root] == Role::Compute {
            // A server that only hosts a database product: its resources go to that database.
            if let Some(w) = self
                .hosting
                .hosted(NodeId(root))
                .iter()
                .find_map(|h| self.workload_of[h.0])
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
        plan.members = order.iter().map(|m| m.0).collect();
        plan.stateful = order
            .iter()
            .any(|m| matches!(self.roles[m.0], Role::Dbms | Role::Database));
        // The base image.
        let bind = self.binds[root].clone();
        plan.image = Some(self.base_image(root, &bind, diags));
        plan.requests = self.requests(root);
        plan.ports = self.endpoint_ports(&plan.members.clone());
        // Scripts, in order, and their inputs as the environment.
        let interpreters = bind.get("interpreters").cloned().unwrap_or(Json::Null);
        let mut script = String::from(
            "#!/bin/sh\n# Runs the lifecycle operations of the stack in deployment order, then keeps the\n# container running as the server did.\nset -e\ncd ",
        );
        script.push_str(SCRIPTS_DIR);
        script.push_str("/files\n");
        let mut shipped: Vec<String> = Vec::new();
        for step in &steps {
            let node = step.node.0;
            let node_name = self.node(node).name.clone();
            for (name, value) in step.inputs {
                let secret = self.is_secret_name(name);
                self.add_env(&mut plan, node, &env_name(name), value, secret, diags);
            }
            let Some(primary) = step.implementation.primary.as_ref() else {
                continue;
            };
            let ext = primary
                .file
                .rsplit_once('.')
                .map(|(_, e)| e.to_ascii_lowercase())
                .unwrap_or_default();
            let Some(interpreter) = json_str(&interpreters, &ext).map(str::to_string) else {
                let d = self.warn(
                    codes::K8S_UNSUPPORTED,
                    primary.location,
                    format!("the {} operation of `{node_name}` is `{}`, which a container cannot run; skipped", step.operation, primary.file),
                    "lift-and-shift runs shell and Python scripts; add an interpreter for this extension to the rules' `interpreters`",
                );
                diags.push(d);
                continue;
            };
            let mut ok = true;
            for artifact in std::iter::once(primary).chain(&step.implementation.dependencies) {
                let Some(path) = artifact.path.clone() else {
                    let d = self.warn(
                        codes::K8S_UNSUPPORTED,
                        artifact.location,
                        format!("artifact `{}` of `{node_name}` lives in a repository; the lifted container cannot fetch it", artifact.file),
                        "ship the file with the template (a path next to it or in the CSAR)",
                    );
                    diags.push(d);
                    ok = false;
                    continue;
                };
                if shipped.contains(&path) {
                    continue;
                }
                match artifacts.read(artifact, limits).map(String::from_utf8) {
                    Ok(Ok(text)) => {
                        let key = data_key(&format!(
                            "{}-{}",
                            shipped.len() + 1,
                            path.rsplit('/').next().unwrap_or(&path)
                        ));
                        plan.config.push(Pair {
                            key: key.clone(),
                            value: text,
                        });
                        plan.items.push(Pair {
                            key,
                            value: format!("files/{}", safe_path(&path)),
                        });
                        shipped.push(path);
                    }
                    Ok(Err(_)) => {
                        let d = self.warn(
                            codes::K8S_UNSUPPORTED,
                            artifact.location,
                            format!("artifact `{}` of `{node_name}` is not text; a ConfigMap cannot ship it", artifact.file),
                            "put binary files into the base image",
                        );
                        diags.push(d);
                        ok = false;
                    }
                    Err(why) => {
                        let d = self.warn(
                            codes::K8S_UNSUPPORTED,
                            artifact.location,
                            format!(
                                "artifact `{}` of `{node_name}` cannot be read: {why}",
                                artifact.file
                            ),
                            "translate from the folder or CSAR that holds the scripts",
                        );
                        diags.push(d);
                        ok = false;
                    }
                }
            }
            if !ok && !shipped.contains(primary.path.as_ref().unwrap_or(&String::new())) {
                continue;
            }
            let path = safe_path(primary.path.as_deref().unwrap_or_default());
            script.push_str(&format!(
                "echo \"toscana: {} {}\"\n{interpreter} {}\n",
                node_name.replace(['"', '\\', '$', '`'], "_"),
                step.operation,
                shell_quote(&path)
            ));
        }
        script.push_str("exec sleep infinity\n");
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
        });
        plan.replicas = self.replicas(root);
        if self.roles[root] != Role::Compute {
            let d = self.warn(
                codes::K8S_UNSUPPORTED,
                self.node(root).location,
                format!(
                    "`{}` has no Compute host; it runs on the default base image",
                    self.node(root).name
                ),
                "host it on a Compute node whose `os` capability names the distribution",
            );
            diags.push(d);
        }
        let w = self.plans.len();
        for &m in &plan.members {
            self.workload_of[m] = Some(w);
        }
        self.plans.push(plan);
    }

    /// True when a node of the stack sits on a node a database product took.
    fn under_taken(&self, i: usize, taken: &[bool]) -> bool {
        let mut at = self.hosting.host(NodeId(i));
        let mut steps = 0;
        while let Some(h) = at {
            if taken[h.0] {
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

    /// The image for a server's `os` capability, by the rules' `os_images` table.
    fn base_image(&mut self, root: usize, bind: &Json, diags: &mut Diagnostics) -> String {
        let default = json_str(bind, "default_image")
            .unwrap_or("ubuntu:24.04")
            .to_string();
        let os = self.node(root).capabilities.values().find(|c| {
            c.types.iter().any(|t| t.ends_with("OperatingSystem"))
                || c.properties.contains_key("distribution")
        });
        let Some(os) = os else { return default };
        let distribution = os.properties.get("distribution").and_then(Value::as_str);
        let os_type = os.properties.get("type").and_then(Value::as_str);
        let version = os.properties.get("version").and_then(literal_text);
        let table = bind
            .get("os_images")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        let key = distribution.or(os_type).map(str::to_ascii_lowercase);
        let Some(key) = key else { return default };
        let Some(entry) = table.iter().find(|e| {
            json_strings(e, "names")
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&key))
        }) else {
            let d = self.warn(
                codes::K8S_UNSUPPORTED,
                os.location,
                format!("no base image is known for the operating system `{key}` of `{}`; using {default}", self.node(root).name),
                "add the distribution to `os_images` in the rules (--backend-dir)",
            );
            diags.push(d);
            return default;
        };
        let version = version
            .or_else(|| json_str(entry, "default_version").map(str::to_string))
            .unwrap_or_else(|| "latest".to_string());
        let major = version.split('.').next().unwrap_or(&version).to_string();
        json_str(entry, "image")
            .unwrap_or(&default)
            .replace("{version}", &version)
            .replace("{major}", &major)
    }

    /// Resource requests from a Compute's `host` capability.
    fn requests(&self, i: usize) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let node = self.node(i);
        let host = node.capabilities.get("host").or_else(|| {
            node.capabilities
                .values()
                .find(|c| c.properties.contains_key("num_cpus"))
        });
        if let Some(host) = host {
            if let Some(cpu) = host.properties.get("num_cpus").and_then(cpu_quantity) {
                out.insert("cpu".to_string(), cpu);
            }
            if let Some(mem) = host.properties.get("mem_size").and_then(size_quantity) {
                out.insert("memory".to_string(), mem);
            }
            if let Some(disk) = host.properties.get("disk_size").and_then(size_quantity) {
                out.insert("ephemeral-storage".to_string(), disk);
            }
        }
        out
    }

    /// The DNS name of the Service in front of `target`, seen from workload `from`.
    fn host_of(&self, target: usize, from: Option<usize>) -> Result<String, String> {
        let Some(w) = self.workload_of.get(target).copied().flatten() else {
            return Err(format!(
                "`{}` has no Kubernetes workload",
                self.node(target).name
            ));
        };
        if Some(w) == from {
            return Ok("localhost".to_string());
        }
        let plan = &self.plans[w];
        if plan.ports.is_empty() && !plan.stateful {
            return Err(format!(
                "`{}` exposes no port, so it has no Service",
                self.node(target).name
            ));
        }
        Ok(match &self.options.namespace {
            Some(ns) => format!("{}.{ns}.svc", plan.name),
            None => plan.name.clone(),
        })
    }

    /// The port of `target` (of its capability `capability`, when named).
    fn port_of(&self, target: usize, capability: Option<&str>) -> Option<i64> {
        let node = self.node(target);
        capability
            .and_then(|c| node.capabilities.get(c))
            .and_then(|c| c.properties.get("port"))
            .and_then(integer)
            .or_else(|| node.properties.get("port").and_then(integer))
            .or_else(|| {
                let w = self.workload_of.get(target).copied().flatten()?;
                self.plans[w].ports.first().map(|p| p.port)
            })
    }

    /// The text of a value, with functions resolved where Kubernetes can express them.
    /// `Ok(None)` for null; `Err(why)` for what cannot be expressed.
    fn resolve(&self, value: &Value, node: usize, plan: &Plan) -> Result<Option<String>, String> {
        let from = self.workload_of[node];
        // While a plan is built it is not in `plans` yet; a reference to one of its own members
        // is local.
        let local = |t: usize| plan.members.contains(&t);
        match value {
            Value::Call(call) => {
                let args: Vec<String> = call.args.iter().filter_map(literal_text).collect();
                match call.function.as_str() {
                    "get_input" => Err(format!("input `{}` has no value", args.join("."))),
                    "get_attribute" | "get_property" if args.len() >= 2 => {
                        let entity = args[0].as_str();
                        let target = match entity {
                            "SELF" => Some(node),
                            "HOST" => self.hosting.host(NodeId(node)).map(|h| h.0),
                            _ => self.topology.nodes.iter().position(|n| n.name == entity),
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
                            self.node(target).capabilities.get(&args[1]).and_then(|c| {
                                c.properties.get(attr).or_else(|| c.attributes.get(attr))
                            })
                        } else {
                            self.node(target)
                                .properties
                                .get(attr)
                                .or_else(|| self.node(target).attributes.get(attr))
                        };
                        if let Some(v) = known
                            && !v.has_call()
                            && !matches!(v, Value::Null)
                            && (call.function == "get_property"
                                || !matches!(attr, "state" | "tosca_id"))
                        {
                            return Ok(literal_text(v));
                        }
                        match attr {
                            "ip_address" | "private_address" | "public_address" | "address"
                            | "hostname" | "host" | "private_ip" | "public_ip" => {
                                if local(target) {
                                    Ok(Some("localhost".to_string()))
                                } else {
                                    self.host_of(target, from).map(Some)
                                }
                            }
                            "port" => {
                                let cap = (args.len() >= 3).then(|| args[1].as_str());
                                self.port_of(target, cap)
                                    .map(|p| Some(p.to_string()))
                                    .ok_or_else(|| {
                                        format!("`{}` has no port", self.node(target).name)
                                    })
                            }
                            "tosca_name" => Ok(Some(self.node(target).name.clone())),
                            _ => Err(format!(
                                "{}({}) is known only after deployment",
                                call.function,
                                args.join(", ")
                            )),
                        }
                    }
                    "concat" => {
                        let mut out = String::new();
                        for part in &call.args {
                            if let Some(t) = self.resolve(part, node, plan)? {
                                out.push_str(&t);
                            }
                        }
                        Ok(Some(out))
                    }
                    "join" => {
                        let list = match call.args.first() {
                            Some(Value::List(items)) => items.clone(),
                            _ => return Err("join() without a list".to_string()),
                        };
                        let delimiter = call.args.get(1).and_then(literal_text).unwrap_or_default();
                        let mut parts = Vec::new();
                        for part in &list {
                            if let Some(t) = self.resolve(part, node, plan)? {
                                parts.push(t);
                            }
                        }
                        Ok(Some(parts.join(&delimiter)))
                    }
                    other => Err(format!("{other}() is known only after deployment")),
                }
            }
            v if v.has_call() => {
                Err("a list or map holds a function known only after deployment".to_string())
            }
            v => Ok(literal_text(v)),
        }
    }

    /// `<TARGET>_HOST` and `<TARGET>_PORT` for requirements to nodes that expose an endpoint.
    fn connect(&mut self, diags: &mut Diagnostics) {
        for r in &self.topology.relationships {
            let (s, t) = (r.source.0, r.target.0);
            if super::super::stack::is_hosting(r)
                || type_matches(&r.types, "tosca.relationships.AttachesTo")
            {
                continue;
            }
            let Some(w) = self.workload_of.get(s).copied().flatten() else {
                continue;
            };
            let capability = r.capability.as_deref();
            let endpoint = type_matches(&r.types, "tosca.relationships.ConnectsTo")
                || capability
                    .and_then(|c| self.node(t).capabilities.get(c))
                    .is_some_and(is_endpoint);
            if !endpoint || self.workload_of.get(t).copied().flatten().is_none() {
                continue;
            }
            let prefix = shouty(&self.node(t).name);
            let host = if self.workload_of[t] == Some(w) {
                Ok("localhost".to_string())
            } else {
                self.host_of(t, Some(w))
            };
            match host {
                Ok(host) => {
                    let mut plan = self.plans[w].clone();
                    self.add_env(
                        &mut plan,
                        s,
                        &format!("{prefix}_HOST"),
                        &Value::String(host),
                        false,
                        diags,
                    );
                    match self.port_of(t, capability) {
                        Some(port) => self.add_env(
                            &mut plan,
                            s,
                            &format!("{prefix}_PORT"),
                            &Value::Integer(port),
                            false,
                            diags,
                        ),
                        None => {
                            let d = self.warn(
                                codes::K8S_UNSUPPORTED,
                                r.location,
                                format!("`{}` connects to `{}`, which names no port; {prefix}_PORT is left out", self.node(s).name, self.node(t).name),
                                "set the `port` of the target's endpoint capability",
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

    /// BlockStorage attached with AttachesTo: a claim template of a StatefulSet, or a
    /// PersistentVolumeClaim (rendered by the storage node) mounted by a Deployment.
    fn attach_storage(&mut self, diags: &mut Diagnostics) {
        for r in &self.topology.relationships {
            let (s, t) = (r.source.0, r.target.0);
            if !type_matches(&r.types, "tosca.relationships.AttachesTo")
                || self.roles.get(t) != Some(&Role::Storage)
            {
                continue;
            }
            let Some(w) = self.workload_of.get(s).copied().flatten() else {
                let d = self.warn(
                    codes::K8S_UNSUPPORTED,
                    r.location,
                    format!("`{}` is attached to `{}`, which has no Kubernetes workload; the volume is not mounted", self.node(t).name, self.node(s).name),
                    "",
                );
                diags.push(d);
                continue;
            };
            let location = r
                .properties
                .get("location")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("/mnt/{}", dns_label(&self.node(t).name)));
            let volume = dns_label(&self.node(t).name);
            let size = self.storage_size(t);
            let owner_is_compute = self.roles[self.plans[w].owner] == Role::Compute;
            let plan = &mut self.plans[w];
            if plan
                .mounts
                .iter()
                .any(|m| m.path == location || m.name == volume)
            {
                continue;
            }
            let stateful = plan.stateful || plan.product.is_some() || owner_is_compute;
            plan.mounts.push(Mount {
                name: volume.clone(),
                path: location,
                read_only: false,
            });
            if stateful {
                plan.stateful = true;
                plan.claim_templates
                    .push(ClaimTemplate { name: volume, size });
            } else {
                plan.volumes.push(Volume {
                    name: volume.clone(),
                    config_map: None,
                    items: Vec::new(),
                    claim: Some(volume),
                });
            }
        }
    }

    fn storage_size(&self, t: usize) -> String {
        let node = self.node(t);
        node.properties
            .get("size")
            .and_then(size_quantity)
            .or_else(|| json_str(&self.binds[t], "default_size").map(str::to_string))
            .unwrap_or_else(|| "1Gi".to_string())
    }

    /// Storage nodes whose volume is not a StatefulSet's claim template get a claim of their
    /// own (attached to a Deployment, or not attached at all).
    fn standalone_claims(&mut self) -> Vec<(usize, ClaimObj)> {
        let mut out = Vec::new();
        for i in 0..self.topology.nodes.len() {
            if self.roles[i] != Role::Storage {
                continue;
            }
            let label = dns_label(&self.node(i).name);
            let templated = self.plans.iter().any(|p| {
                p.claim_templates.iter().any(|c| c.name == label)
                    && p.members.iter().any(|&m| {
                        self.topology
                            .relationships
                            .iter()
                            .any(|r| r.source.0 == m && r.target.0 == i)
                    })
            });
            if templated {
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
    fn apply_groups(&mut self, diags: &mut Diagnostics) {
        for g in &self.topology.groups {
            let label = dns_label(&g.name);
            for m in &g.members {
                let Some(w) = self.workload_of.get(m.0).copied().flatten() else {
                    continue;
                };
                match &self.plans[w].part_of {
                    None => self.plans[w].part_of = Some(label.clone()),
                    Some(existing) if *existing == label => {}
                    Some(existing) => {
                        let message = format!(
                            "`{}` is in groups `{existing}` and `{}`; its app.kubernetes.io/part-of label names only the first",
                            self.node(m.0).name,
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
    fn networks(&mut self, diags: &mut Diagnostics) -> Vec<(usize, NetworkPolicyObj)> {
        let n = self.topology.nodes.len();
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
        for p in 0..n {
            if self.roles[p] != Role::Port {
                continue;
            }
            let mut bound = None;
            let mut linked = None;
            for r in self
                .topology
                .relationships
                .iter()
                .filter(|r| r.source.0 == p)
            {
                if type_matches(&r.types, "tosca.relationships.network.BindsTo")
                    || r.requirement == "binding"
                {
                    bound = Some(r.target.0);
                } else if type_matches(&r.types, "tosca.relationships.network.LinksTo")
                    || r.requirement == "link"
                {
                    linked = Some(r.target.0);
                }
            }
            match (bound.and_then(|b| self.workload_of[b]), linked) {
                (Some(w), Some(net)) if self.roles[net] == Role::Network => {
                    if !members[net].contains(&w) {
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

    /// Placement policies: the targets' pods spread over the rule's topology key, or kept in
    /// the zones the policy names.
    fn apply_placement(
        &mut self,
        elements: &[Element],
        backend: &Backend,
        diags: &mut Diagnostics,
    ) {
        let policy_elements: Vec<&Element> = elements
            .iter()
            .filter(|e| e.kind == ElementKind::Policy)
            .collect();
        for (pi, p) in self.topology.policies.iter().enumerate() {
            let Some(bind) = policy_elements
                .get(pi)
                .and_then(|e| backend.bind_for(e))
                .map(|(_, b)| b.clone())
            else {
                continue;
            };
            if json_str(&bind, "role") != Some("placement") {
                continue;
            }
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
                        "placement policy `{}` targets no translated workload; skipped",
                        p.name
                    ),
                    "",
                );
                diags.push(d);
                continue;
            }
            let zones: Vec<String> = ["zone", "zones", "availability_zone", "availability_zones"]
                .iter()
                .filter_map(|k| p.properties.get(*k))
                .flat_map(|v| match v {
                    Value::List(items) => items.iter().filter_map(literal_text).collect(),
                    other => literal_text(other).into_iter().collect::<Vec<_>>(),
                })
                .collect();
            let label = format!("placement.toscana.io/{}", dns_label(&p.name));
            let topology_key = json_str(&bind, "topology_key")
                .unwrap_or("kubernetes.io/hostname")
                .to_string();
            for w in workloads {
                let plan = &mut self.plans[w];
                if zones.is_empty() {
                    plan.extra_labels
                        .insert(label.clone(), "spread".to_string());
                    plan.affinity.spread.push(Spread {
                        label: label.clone(),
                        value: "spread".to_string(),
                        topology_key: topology_key.clone(),
                    });
                } else {
                    for z in &zones {
                        if !plan.affinity.zones.contains(z) {
                            plan.affinity.zones.push(z.clone());
                        }
                    }
                }
            }
        }
    }

    /// Scaling policies: one HorizontalPodAutoscaler per targeted workload.
    fn scaling(
        &mut self,
        elements: &[Element],
        backend: &Backend,
        diags: &mut Diagnostics,
    ) -> Vec<Json> {
        let policy_elements: Vec<&Element> = elements
            .iter()
            .filter(|e| e.kind == ElementKind::Policy)
            .collect();
        let mut out = Vec::new();
        let mut scaled: Vec<usize> = Vec::new();
        for (pi, p) in self.topology.policies.iter().enumerate() {
            let bind = policy_elements
                .get(pi)
                .and_then(|e| backend.bind_for(e))
                .map(|(_, b)| b.clone())
                .unwrap_or(Json::Null);
            let mut hpas = Vec::new();
            if json_str(&bind, "role") == Some("scaling") {
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
                            "scaling policy `{}` targets no translated workload; skipped",
                            p.name
                        ),
                        "",
                    );
                    diags.push(d);
                }
                let min = p
                    .properties
                    .get("min_instances")
                    .and_then(integer)
                    .unwrap_or(1)
                    .max(1);
                let max_default = bind.get("default_max").and_then(Json::as_i64).unwrap_or(10);
                let mut max = p
                    .properties
                    .get("max_instances")
                    .and_then(integer)
                    .filter(|&m| m > 0)
                    .unwrap_or(max_default);
                if max < min {
                    let d = self.warn(codes::K8S_UNSUPPORTED, p.location, format!("scaling policy `{}` has max_instances below min_instances; max is raised to {min}", p.name), "");
                    diags.push(d);
                    max = min;
                }
                let cpu = p
                    .properties
                    .get("target_cpu_utilization")
                    .and_then(integer)
                    .or_else(|| bind.get("cpu_utilization").and_then(Json::as_i64))
                    .unwrap_or(80);
                for w in workloads {
                    if scaled.contains(&w) {
                        let d = self.warn(codes::K8S_UNSUPPORTED, p.location, format!("`{}` is already scaled by another policy; policy `{}` is skipped for it", self.plans[w].name, p.name), "");
                        diags.push(d);
                        continue;
                    }
                    scaled.push(w);
                    let plan = self.plans[w].clone();
                    let name = self.unique_name("hpa", &plan.name);
                    let meta = self.meta_at(
                        p.location,
                        ("toscana.io/policy", &p.name),
                        &name,
                        "autoscaler",
                        plan.part_of.as_deref(),
                        &plan.name,
                    );
                    hpas.push(HpaObj {
                        meta,
                        target_kind: if plan.stateful {
                            "StatefulSet"
                        } else {
                            "Deployment"
                        },
                        target_name: plan.name.clone(),
                        min,
                        max,
                        cpu,
                    });
                }
            }
            out.push(json!({ "hpas": hpas }));
        }
        out
    }

    /// Load balancers: a Service of type LoadBalancer per application they route to, or one
    /// Ingress with `--ingress`.
    fn load_balancers(&mut self, diags: &mut Diagnostics) -> Vec<(usize, Routing)> {
        let mut out = Vec::new();
        for l in 0..self.topology.nodes.len() {
            if self.roles[l] != Role::LoadBalancer {
                continue;
            }
            let client_port = self
                .node(l)
                .capabilities
                .values()
                .filter(|c| is_endpoint(c))
                .find_map(|c| c.properties.get("port").and_then(integer));
            let mut targets: Vec<usize> = Vec::new();
            for r in self
                .topology
                .relationships
                .iter()
                .filter(|r| r.source.0 == l)
            {
                match self.workload_of.get(r.target.0).copied().flatten() {
                    Some(w) if !self.plans[w].ports.is_empty() => {
                        if !targets.contains(&w) {
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
                                self.node(r.target.0).name
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
                        .node(plan.members.last().copied().unwrap_or(plan.owner))
                        .properties
                        .get("context_root")
                        .or_else(|| {
                            plan.members
                                .iter()
                                .find_map(|&m| self.node(m).properties.get("context_root"))
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

    fn selector(&self, plan: &Plan) -> Vec<Pair> {
        let mut m = BTreeMap::new();
        m.insert("app.kubernetes.io/name".to_string(), plan.name.clone());
        m.insert(
            "app.kubernetes.io/instance".to_string(),
            self.instance.clone(),
        );
        pairs(&m)
    }

    /// The labels and the source annotations of an object made for node `i`, part of the
    /// application `app`.
    fn meta(
        &mut self,
        i: usize,
        name: &str,
        component: &str,
        part_of: Option<&str>,
        app: &str,
    ) -> Meta {
        let node = self.node(i);
        let (location, what) = (node.location, node.name.clone());
        self.meta_at(
            location,
            ("toscana.io/node", &what),
            name,
            component,
            part_of,
            app,
        )
    }

    /// Like [`Self::meta`] for any element: `source` names its kind and name.
    fn meta_at(
        &mut self,
        location: Option<crate::ir::Location>,
        source: (&str, &str),
        name: &str,
        component: &str,
        part_of: Option<&str>,
        app: &str,
    ) -> Meta {
        let mut labels = BTreeMap::new();
        labels.insert("app.kubernetes.io/name".to_string(), app.to_string());
        labels.insert(
            "app.kubernetes.io/instance".to_string(),
            self.instance.clone(),
        );
        labels.insert(
            "app.kubernetes.io/component".to_string(),
            component.to_string(),
        );
        labels.insert(
            "app.kubernetes.io/managed-by".to_string(),
            "toscana".to_string(),
        );
        if let Some(p) = part_of {
            labels.insert("app.kubernetes.io/part-of".to_string(), p.to_string());
        }
        let mut annotations = BTreeMap::new();
        if let Some(l) = location {
            let file = self
                .topology
                .source
                .files
                .get(l.file)
                .cloned()
                .unwrap_or_default();
            annotations.insert(
                "toscana.io/source".to_string(),
                format!("{file}:{}", l.line),
            );
        }
        annotations.insert(source.0.to_string(), source.1.to_string());
        Meta {
            name: name.to_string(),
            namespace: self.options.namespace.clone(),
            labels: pairs(&labels),
            annotations: pairs(&annotations),
        }
    }

    /// The objects of one workload.
    fn finish(&mut self, plan: &Plan) -> NodeOut {
        let mut out = NodeOut::default();
        let part_of = plan.part_of.clone();
        let secret_name = dns_label(&format!("{}-secret", plan.name));
        if !plan.secret.is_empty() {
            let meta = self.meta(
                plan.owner,
                &secret_name,
                &plan.component,
                part_of.as_deref(),
                &plan.name,
            );
            out.secret = Some(DataObj {
                meta,
                data: pairs(&plan.secret),
            });
        }
        let mut volumes = plan.volumes.clone();
        if !plan.config.is_empty() {
            let name = dns_label(&format!("{}-scripts", plan.name));
            let meta = self.meta(
                plan.owner,
                &name,
                &plan.component,
                part_of.as_deref(),
                &plan.name,
            );
            out.config_map = Some(DataObj {
                meta,
                data: plan.config.clone(),
            });
            volumes.insert(
                0,
                Volume {
                    name: "scripts".to_string(),
                    config_map: Some(name),
                    items: plan.items.clone(),
                    claim: None,
                },
            );
        }
        let stateful = plan.stateful;
        if !plan.ports.is_empty() || stateful {
            let meta = self.meta(
                plan.owner,
                &plan.name,
                &plan.component,
                part_of.as_deref(),
                &plan.name,
            );
            out.service = Some(ServiceObj {
                meta,
                service_type: "ClusterIP",
                headless: stateful,
                selector: self.selector(plan),
                ports: plan
                    .ports
                    .iter()
                    .map(|p| ServicePort {
                        name: p.name.clone(),
                        port: p.port,
                        target_port: p.target,
                        protocol: p.protocol,
                    })
                    .collect(),
            });
        }
        let env = plan
            .env
            .iter()
            .map(|e| {
                let mut e = e.clone();
                if e.secret.is_some() {
                    e.secret = Some(secret_name.clone());
                }
                e
            })
            .collect();
        let meta = self.meta(
            plan.owner,
            &plan.name,
            &plan.component,
            part_of.as_deref(),
            &plan.name,
        );
        let mut pod = BTreeMap::new();
        for p in self.selector(plan) {
            pod.insert(p.key, p.value);
        }
        pod.insert(
            "app.kubernetes.io/component".to_string(),
            plan.component.clone(),
        );
        pod.insert(
            "app.kubernetes.io/managed-by".to_string(),
            "toscana".to_string(),
        );
        if let Some(p) = &part_of {
            pod.insert("app.kubernetes.io/part-of".to_string(), p.clone());
        }
        pod.extend(plan.extra_labels.clone());
        let affinity = (!plan.affinity.spread.is_empty() || !plan.affinity.zones.is_empty())
            .then(|| plan.affinity.clone());
        out.workload = Some(Workload {
            kind: if stateful {
                "StatefulSet"
            } else {
                "Deployment"
            },
            meta,
            replicas: plan.replicas,
            selector: self.selector(plan),
            pod_labels: pairs(&pod),
            service_name: stateful.then(|| plan.name.clone()),
            container: Container {
                name: plan.name.clone(),
                image: plan.image.clone().unwrap_or_default(),
                command: plan.command.clone(),
                args: plan.args.clone(),
                ports: plan.ports.clone(),
                env,
                requests: pairs(&plan.requests),
                mounts: plan.mounts.clone(),
            },
            volumes,
            claim_templates: plan.claim_templates.clone(),
            affinity,
        });
        out
    }
}

/// A relative path a ConfigMap volume accepts: no `..`, `.` or empty segments (a file from a
/// folder above the template's keeps its place under `_up/`).
fn safe_path(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .map(|p| if p == ".." { "_up" } else { p })
        .collect();
    if parts.is_empty() {
        "_".to_string()
    } else {
        parts.join("/")
    }
}

/// A path quoted for `sh`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}
