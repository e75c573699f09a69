//! The `k8s` context: what each node, policy and group becomes, worked out over the whole
//! topology (see the parent module for the mapping). Templates only write it down.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::Value as Json;

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{Topology, Value};
use crate::limits::Limits;
use crate::source::ArtifactFiles;
use crate::source::Span;

use super::super::elements::SpanFinder;
use super::super::filters::dns_label;
use super::super::meanings::{Meaning, RelationshipMeanings};
use super::super::{Element, ElementKind, Engine, Ledger};
use super::K8sOptions;
use crate::ir::Hosting;

mod addresses;
mod defaults;
mod env;
mod foresight;
mod images;
mod kinds;
mod plan;
mod policies;
mod reads;
mod scripts;
mod state;
mod subfolder;
mod tables;
mod wiring;
mod workloads;

use kinds::{is_endpoint, is_image};

/// The `bind` of a node no rule takes.
static NO_BIND: Json = Json::Null;

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

#[derive(Debug, Clone, Serialize, PartialEq, Default)]
struct Port {
    name: String,
    /// The port clients use (the Service's).
    port: i64,
    /// The port the container listens on.
    target: i64,
    protocol: &'static str,
    /// `HTTP` or `HTTPS` when the endpoint's `protocol` says so (probes `GET` its `path`).
    scheme: Option<&'static str>,
    path: Option<String>,
}

/// One environment variable: a value, or a key of the workload's Secret.
#[derive(Debug, Clone, Serialize, PartialEq)]
struct Env {
    name: String,
    value: Option<String>,
    secret: Option<String>,
    key: Option<String>,
    /// A field of the pod (downward API `fieldRef.fieldPath`), such as `status.podIP`.
    field: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct Mount {
    name: String,
    path: String,
    read_only: bool,
    /// The volume's subfolder mounted at `path` instead of its root (`subPath`), for a product
    /// that refuses a data folder holding the `lost+found` of a fresh filesystem
    /// ([`state`]'s `data_subfolder`).
    sub_path: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
/// A ConfigMap mounted as files (the scripts of a lifted stack); storage is a claim template.
struct Volume {
    name: String,
    config_map: String,
    /// ConfigMap keys mounted as files at these paths.
    items: Vec<Pair>,
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
    /// Pods carrying this label are kept together within `topology_key`.
    together: Vec<Spread>,
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
    security: Option<defaults::Security>,
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
    probe: Option<defaults::Probe>,
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
    /// `cpu` or `memory`.
    resource: &'static str,
    /// Average utilization target, in percent of the requests.
    cpu: i64,
    /// Pods added or removed per minute (`increment`).
    increment: Option<i64>,
    /// Stabilization window in seconds (`cooldown`).
    cooldown: Option<i64>,
    /// The period `increment` applies to: the cooldown where Kubernetes accepts it (1 to 1800
    /// seconds), else a minute.
    period: i64,
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
#[derive(Debug, Clone, Default)]
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
    claim_templates: Vec<ClaimTemplate>,
    replicas: i64,
    component: String,
    part_of: Option<String>,
    extra_labels: BTreeMap<String, String>,
    affinity: Affinity,
    /// The product table entry of a database workload.
    product: Option<Json>,
    /// The product table entry of a container's image that keeps state (`mysql:8.4`): where
    /// its data is ([`state`]).
    state: Option<Json>,
}

struct Ctx<'a> {
    topology: &'a Topology,
    /// What the translation used of each element ([`Ledger`]): reads of the IR go through it.
    ledger: &'a Ledger,
    /// Node template name → index, for functions that name a node.
    node_index: HashMap<&'a str, usize>,
    /// Node → the `default_instances` a scaling policy gives it.
    scaled_instances: HashMap<usize, i64>,
    /// The backend's hosting tree: relationships that mean `hosting` in its mapping.
    hosting: Hosting,
    /// What each relationship means to this backend (its mapping's `relationships:`).
    meanings: RelationshipMeanings,
    roles: Vec<Role>,
    /// Per node: its rule's `bind` (null without a rule).
    binds: Binds<'a>,
    spans: SpanFinder<'a>,
    options: &'a K8sOptions,
    instance: String,
    secret_names: Vec<String>,
    /// Per node: the workload that represents it.
    workload_of: Vec<Option<usize>>,
    plans: Vec<Plan>,
    /// Used object names per kind group, for uniqueness.
    names: HashMap<String, usize>,
    /// Where the value [`Self::add_env`] is adding was written, when more precise than its node
    /// (an operation's implementation, a relationship); warnings point there.
    env_at: Option<crate::ir::Location>,
    /// Per node: its outgoing relationships, in source order.
    out_rels: Vec<Vec<usize>>,
    /// Per node: storage that a StatefulSet claims through a claim template.
    templated: Vec<bool>,
    /// The workloads as a first planning pass decided them ([`Foresight`]), so that an address
    /// resolves the same whether its node is declared before or after the one that needs it.
    foresight: Option<foresight::Foresight>,
    /// True while the first planning pass runs ([`foresight`]): it decides the workloads only,
    /// so variables are not resolved and scripts not shipped.
    foreseeing: bool,
    /// Per node: another node reaches it by address (a relationship other than hosting or
    /// attachment targets it, or a function asks for its address), so its workload gets a
    /// Service even when it declares no port.
    addressed: Vec<bool>,
}

/// Builds the `k8s` context, as templates see it. Problems are warnings (what was skipped, and why) in `diags`.
#[allow(clippy::too_many_arguments)]
pub fn context(
    backend: &Engine,
    topology: &Topology,
    elements: &[Element],
    sources: &crate::source::SourceMap,
    artifacts: &ArtifactFiles,
    limits: &Limits,
    options: &K8sOptions,
    ledger: &Ledger,
    diags: &mut Diagnostics,
) -> tera::Value {
    let node_elements: Vec<&Element> = elements
        .iter()
        .filter(|e| e.kind == ElementKind::Node)
        .collect();
    let binds: Vec<&Json> = (0..topology.nodes.len())
        .map(|i| {
            node_elements
                .get(i)
                .and_then(|e| backend.bind_for(e))
                .map_or(&NO_BIND, |(_, b)| b)
        })
        .collect();
    let roles: Vec<Role> = binds
        .iter()
        .zip(&topology.nodes)
        .map(|(b, node)| match node.only_selected() {
            // Found outside the topology, not created: see `selected` below.
            true => Role::None,
            false => Role::parse(b.get("role").and_then(Json::as_str).unwrap_or("")),
        })
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
    let meanings = backend.meanings().of(topology);
    let mut ctx = Ctx {
        topology,
        ledger,
        node_index: {
            // The first node of each name (names are unique in a valid template).
            let mut index = HashMap::new();
            for (i, n) in topology.nodes.iter().enumerate() {
                index.entry(n.name.as_str()).or_insert(i);
            }
            index
        },
        scaled_instances: workloads::scaled_instances(topology, ledger),
        hosting: Hosting::by(topology, |id| meanings.means(id, Meaning::Hosting)),
        meanings,
        roles,
        binds: Binds(binds),
        spans: SpanFinder::new(&topology.source.files, sources),
        options,
        instance: dns_label(&instance),
        secret_names,
        workload_of: vec![None; topology.nodes.len()],
        plans: Vec::new(),
        names: HashMap::new(),
        env_at: None,
        out_rels: outgoing(topology),
        templated: vec![false; topology.nodes.len()],
        foresight: None,
        foreseeing: false,
        addressed: Vec::new(),
    };
    ctx.addressed = ctx.addressed_nodes();
    ctx.selected(diags);
    ctx.plan_in_foresight(artifacts, limits, diags);
    ctx.claim_state(diags);
    ctx.connect(diags);
    let claims = ctx.standalone_claims();
    ctx.apply_groups(diags);
    let networks = ctx.networks(diags);
    ctx.apply_placement(elements, backend, diags);
    let hpas = ctx.scaling(elements, backend, diags);
    let lbs = ctx.load_balancers(diags);

    // Consumed: the plans are freed before the Tera values are built.
    let mut nodes = ctx.finished();
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
    super::super::to_tera(&K8s {
        namespace: options.namespace.as_deref(),
        nodes,
        policies: hpas,
    })
}

/// What templates see as `k8s`.
#[derive(Serialize)]
struct K8s<'a> {
    namespace: Option<&'a str>,
    nodes: Vec<NodeOut>,
    policies: Vec<Json>,
}

/// Each node's rule's `bind`, borrowed from the rules: a `bind` holds tables (products, known
/// ports) that a copy per node would repeat thousands of times. `binds[i]` is node `i`'s.
struct Binds<'a>(Vec<&'a Json>);

impl std::ops::Index<usize> for Binds<'_> {
    type Output = Json;
    fn index(&self, node: usize) -> &Json {
        self.0[node]
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

impl<'a> Ctx<'a> {
    fn node(&self, i: usize) -> &'a crate::ir::Node {
        &self.topology.nodes[i]
    }

    /// Node `i`'s `bind`, for as long as the rules live (not only while `self` is borrowed).
    fn bind(&self, i: usize) -> &'a Json {
        self.binds.0[i]
    }

    fn span_of(&mut self, location: Option<crate::ir::Location>) -> Option<Span> {
        location.and_then(|l| self.spans.span(l))
    }

    /// Nodes an orchestrator selects from outside the topology (directive `select`): nothing is
    /// created for them, and what connects to them reaches them by name.
    fn selected(&mut self, diags: &mut Diagnostics) {
        for node in &self.topology.nodes {
            if !node.only_selected() {
                continue;
            }
            let d = self.warn(
                crate::diag::codes::BACKEND_SKIPPED,
                node.location,
                format!(
                    "node `{}` is selected from outside the topology (directive `select`); no Kubernetes objects are created for it",
                    node.name
                ),
                "what connects to it reaches it by its name, as a Service of that name in the cluster would be reached; add `create` after `select` to create it here",
            );
            diags.push(d);
        }
    }

    /// A warning into `diags` when the pass reports: the first planning pass
    /// (`model/foresight.rs`) passes `None`, since it only decides and the second pass reports.
    fn warn_to(
        &mut self,
        diags: Option<&mut Diagnostics>,
        code: &'static str,
        location: Option<crate::ir::Location>,
        message: String,
        hint: &str,
    ) {
        if let Some(diags) = diags {
            let d = self.warn(code, location, message, hint);
            diags.push(d);
        }
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

    fn is_secret_name(&self, name: &str) -> bool {
        let lower = name.to_ascii_lowercase();
        self.secret_names.iter().any(|s| lower.contains(s.as_str()))
    }
}

/// Per node: its outgoing relationships, in source order.
fn outgoing(topology: &Topology) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); topology.nodes.len()];
    for (ri, r) in topology.relationships.iter().enumerate() {
        out[r.source.index()].push(ri);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_keywords_match_whole_words() {
        assert_eq!(
            words("my.nodes.DBMS.PostgreSQL"),
            ["my", "nodes", "dbms", "postgresql"]
        );
        assert!(!words("tosca.nodes.Mongoose").contains(&"mongo".to_string()));
    }
}
