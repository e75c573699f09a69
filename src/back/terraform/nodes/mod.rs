//! What each node's template needs, computed from the whole topology and the rule's `bind`.
//!
//! The rule's `bind.role` says what a node is for the backend: `compute`, `block_storage`,
//! `network`, `port`, `object_storage`, `load_balancer`, `container`, `hosted` (software
//! installed by its host's lifecycle scripts) or `unsupported` (with `bind.reason`, a warning).
//! `bind.resource` is the Terraform resource type that stands for the node (its address is what
//! `get_attribute` and `depends_on` refer to) and `bind.attributes` its attribute table.

use std::collections::{HashMap, HashSet};

use serde_json::{Value as Json, json};

use crate::back::filters::hcl_str;
use crate::back::meanings::{Meaning, RelationshipMeanings};
use crate::back::stack;
use crate::back::{Element, ElementKind, Engine, Ledger};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Hosting;
use crate::ir::{NodeId, Topology, Value};

use super::expr::{NodeRef, Scope, known, number};
use super::graph::{addresses_in_value, strongly_connected};
use super::policies::{self, Policies};
use super::scripts::{GIB, MIB, size_bytes};
use derived::DerivedNames;
use scaling::scaled_refs;

mod balancing;
mod derived;
mod endpoints;
mod images;
mod mounts;
mod outbound;
mod reads;
mod resources;
mod routed;
mod scaling;
mod sizes;
mod steps;
mod volumes;
mod zones;
use super::{Provider, ReadArtifact, Spans, unexpressed, unique_names};

/// Names Terraform does not allow for resources.
const RESERVED: &[&str] = &["count", "for_each", "provider", "lifecycle", "depends_on"];

/// The per-node context and what the whole configuration needs.
pub struct Built<'b> {
    pub nodes: Vec<Json>,
    /// Per policy: what its template writes ([`Policies::contexts`]).
    pub policies: Vec<Json>,
    /// The variables of instance sizes chosen from inputs (`name`, `description`, `default`).
    pub size_variables: Vec<Json>,
    pub refs: Vec<NodeRef<'b>>,
    /// Per node: the public address a resource of its own holds (see
    /// [`Scope::public_addresses`]).
    pub public_addresses: Vec<Option<String>>,
    pub hosts: Vec<Option<NodeId>>,
    /// Node name → its index, for functions that name a node (see [`Scope::node_ids`]).
    pub node_ids: HashMap<String, NodeId>,
    /// Flags for the documents: `cloudinit`, `availability_zones`, `default_network`,
    /// `portless_machine`, `default_security_group`, `default_vpc`.
    pub needs: Json,
    /// `artifacts/...` files: path and text.
    pub artifacts: Vec<(String, String)>,
}

impl Built<'_> {
    pub fn scope<'a>(
        &'a self,
        topology: &'a Topology,
        vars: &'a HashMap<String, String>,
        ledger: &'a Ledger,
    ) -> Scope<'a> {
        Scope {
            topology,
            vars,
            nodes: &self.refs,
            public_addresses: &self.public_addresses,
            hosts: &self.hosts,
            node_ids: &self.node_ids,
            ledger,
        }
    }
}

fn role(bind: Option<&Json>) -> &str {
    bind.and_then(|b| b.get("role"))
        .and_then(Json::as_str)
        .unwrap_or("")
}

#[allow(clippy::too_many_arguments)]
pub fn build<'b>(
    backend: &'b Engine,
    topology: &Topology,
    elements: &[Element],
    spans: &Spans,
    vars: &HashMap<String, String>,
    provider: Provider,
    read_artifact: ReadArtifact,
    ledger: &Ledger,
    mut diags: Option<&mut Diagnostics>,
) -> Built<'b> {
    let node_elements: Vec<&Element> = elements
        .iter()
        .filter(|e| e.kind == ElementKind::Node)
        .collect();
    // Borrowed from the rules: a rule's tables (sizes, images, attributes) are the same for
    // every node it takes.
    let binds: Vec<Option<&Json>> = node_elements
        .iter()
        .map(|e| backend.bind_for(e).map(|(_, b)| b))
        .collect();
    let names = unique_names(topology.nodes.iter().map(|n| n.name.as_str()), RESERVED);
    let meanings = backend.meanings().of(topology);
    let hosting = Hosting::by(topology, |id| meanings.means(id, Meaning::Hosting));
    let hosts: Vec<Option<NodeId>> = topology.node_ids().map(|id| hosting.host(id)).collect();
    let roles: Vec<&str> = binds.iter().map(|&b| role(b)).collect();
    let policies = policies::read(
        &policies::Context {
            topology,
            elements,
            backend,
            spans,
            roles: &roles,
            hosting: &hosting,
            meanings: &meanings,
            ledger,
        },
        diags.as_deref_mut(),
    );
    policies::warn_scaled_addresses(topology, &hosting, &policies, spans, diags.as_deref_mut());
    let mut refs: Vec<NodeRef> = binds
        .iter()
        .zip(&names)
        .map(|(&b, name)| NodeRef {
            address: b
                .and_then(|b| b.get("resource"))
                .and_then(Json::as_str)
                .map(|r| format!("{r}.{name}")),
            attributes: b
                .and_then(|b| b.get("attributes"))
                .and_then(Json::as_object),
        })
        .collect();
    scaled_refs(&mut refs, &policies, &names);
    volumes::launch_only_have_no_address(
        &mut refs, topology, &meanings, &hosting, &roles, &policies,
    );
    let node_ids = super::expr::node_ids(topology);
    let mut b = Builder {
        topology,
        ledger,
        spans,
        vars,
        provider,
        binds: &binds,
        names: &names,
        hosting: &hosting,
        meanings: &meanings,
        policies: &policies,
        refs: &refs,
        public_addresses: Vec::new(),
        hosts: &hosts,
        node_ids: &node_ids,
        read_artifact,
        diags,
        artifacts: Vec::new(),
        needs: serde_json::Map::new(),
        depends: vec![Vec::new(); topology.nodes.len()],
        derived: DerivedNames::seeded(taken_names(&names, &policies).iter()),
        variable_names: vars.values().cloned().collect(),
        size_variables: Vec::new(),
        outgoing: vec![Vec::new(); topology.nodes.len()],
        incoming: vec![Vec::new(); topology.nodes.len()],
        balancer_networks: vec![None; topology.nodes.len()],
        balanced_networks: HashMap::new(),
        routed_ports: Vec::new(),
    };
    for (i, r) in topology.relationships.iter().enumerate() {
        b.outgoing[r.source.index()].push(i);
        b.incoming[r.target.index()].push(i);
    }
    b.place_balancers();
    b.route_ports();
    b.public_addresses = topology.node_ids().map(|id| b.public_address(id)).collect();
    let mut nodes: Vec<Json> = topology.node_ids().map(|id| b.node(id)).collect();
    b.relationships(&mut nodes);
    volumes::into_launch_templates(&mut nodes);
    b.zones_into_subnets(&mut nodes);
    for (node, depends) in nodes.iter_mut().zip(&b.depends) {
        node["depends_on"] = json!(first_of_each(depends));
    }
    let needs = Json::Object(b.needs);
    // In name order, whatever the order of the node templates.
    let mut size_variables = b.size_variables;
    size_variables.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    let artifacts = b.artifacts;
    let public_addresses = b.public_addresses;
    Built {
        nodes,
        policies: policies.contexts,
        size_variables,
        refs,
        public_addresses,
        hosts,
        node_ids,
        needs,
        artifacts,
    }
}

/// The suffixes the templates add to a node's name for resources of their own (a machine's
/// egress rule, a network's default route, a scaled machine's zones, a machine's cloud-config).
const TEMPLATE_SUFFIXES: &[&str] = &["_egress", "_internet", "_zones", "_cloud_config"];

/// Every name the configuration uses before any is derived: each node's (and the names its
/// templates make from it) and each policy's.
fn taken_names(names: &[String], policies: &Policies) -> Vec<String> {
    let policy_names = policies
        .contexts
        .iter()
        .filter_map(|p| p["name"].as_str())
        .map(str::to_string);
    let node_names = names.iter().flat_map(|n| {
        std::iter::once(n.clone()).chain(TEMPLATE_SUFFIXES.iter().map(move |s| format!("{n}{s}")))
    });
    node_names.chain(policy_names).collect()
}

struct Builder<'a, 'd> {
    topology: &'a Topology,
    ledger: &'a Ledger,
    spans: &'a Spans,
    vars: &'a HashMap<String, String>,
    provider: Provider,
    binds: &'a [Option<&'a Json>],
    names: &'a [String],
    /// The backend's hosting tree: relationships that mean `hosting` in its mapping.
    hosting: &'a Hosting,
    /// What each relationship means to this backend (its mapping's `relationships:`).
    meanings: &'a RelationshipMeanings,
    /// The machines placement and scaling policies place and scale.
    policies: &'a Policies<'a>,
    refs: &'a [NodeRef<'a>],
    /// By node: the public address a resource of its own holds ([`Builder::public_address`]).
    public_addresses: Vec<Option<String>>,
    hosts: &'a [Option<NodeId>],
    node_ids: &'a HashMap<String, NodeId>,
    read_artifact: ReadArtifact<'a>,
    /// Where the warnings go; `None` for a build that reports nothing (`toscana tf --provider
    /// kubernetes`, whose resources are the Kubernetes objects, built and reported on apart):
    /// then no diagnostic is made ([`Builder::reporting`]).
    diags: Option<&'d mut Diagnostics>,
    artifacts: Vec<(String, String)>,
    needs: serde_json::Map<String, Json>,
    /// Addresses each node's resource depends on.
    depends: Vec<Vec<String>>,
    /// The names the configuration uses: the nodes', the policies', and the derived ones
    /// given so far.
    derived: DerivedNames,
    /// Variable names taken: the inputs', then the size variables' ([`Builder::instance_type`]).
    variable_names: HashSet<String>,
    size_variables: Vec<Json>,
    /// Relationship indexes by source node and by target node.
    outgoing: Vec<Vec<usize>>,
    incoming: Vec<Vec<usize>>,
    /// By node: for an AWS load balancer in a network's VPC, that network
    /// ([`Builder::place_balancers`]).
    balancer_networks: Vec<Option<NodeId>>,
    /// The networks AWS load balancers are in: the names of their subnets and range.
    balanced_networks: HashMap<NodeId, Json>,
    /// By machine: the ports load balancers route to on it ([`Builder::route_ports`]).
    routed_ports: Vec<Vec<routed::RoutedPort>>,
}

/// `items` without repeats, each where it first is.
fn first_of_each(items: &[String]) -> Vec<&String> {
    let mut out: Vec<&String> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

impl<'a> Builder<'a, '_> {
    fn scope(&self) -> Scope<'_> {
        Scope {
            topology: self.topology,
            vars: self.vars,
            nodes: self.refs,
            public_addresses: &self.public_addresses,
            hosts: self.hosts,
            node_ids: self.node_ids,
            ledger: self.ledger,
        }
    }

    fn span(&self, id: NodeId) -> Option<crate::source::Span> {
        self.spans.of(ElementKind::Node, id.index())
    }

    fn role_of(&self, id: NodeId) -> &str {
        role(self.binds[id.index()])
    }

    /// The node's rule's `bind` (borrowed from the rule, not from `self`, so a table in it can
    /// be read while warnings are pushed).
    fn bind(&self, id: NodeId) -> &'a Json {
        static EMPTY: Json = Json::Null;
        self.binds[id.index()].unwrap_or(&EMPTY)
    }

    fn warn(&mut self, id: NodeId, message: String, hint: &str) {
        if self.reporting() {
            let span = self.span(id);
            self.push(unexpressed(span, message, hint));
        }
    }

    /// Whether this build reports: where it does not, no diagnostic is made.
    fn reporting(&self) -> bool {
        self.diags.is_some()
    }

    /// Reports `d`: made only where this build is [`Builder::reporting`].
    fn push(&mut self, d: Diagnostic) {
        if let Some(diags) = self.diags.as_deref_mut() {
            diags.push(d);
        }
    }

    /// Reports `d` at node `id`, where it is written.
    fn push_at(&mut self, id: NodeId, d: Diagnostic) {
        match self.span(id) {
            Some(span) => self.push(d.at(span)),
            None => self.push(d),
        }
    }

    /// A property of node `id` as HCL, or `None` (absent, null, or not expressible: warned).
    fn prop(&mut self, id: NodeId, name: &str) -> Option<String> {
        let value = self.ledger.property(self.topology, id.index(), name)?;
        if matches!(value, Value::Null) {
            return None;
        }
        let node = &self.topology.nodes[id.index()].name;
        self.value(id, value, &format!("property `{name}` of node `{node}`"))
    }

    /// `value` as HCL seen from node `id`; a warning naming `what` (which says whose value it
    /// is) when it cannot be.
    fn value(&mut self, id: NodeId, value: &Value, what: &str) -> Option<String> {
        match self.scope().expr(value, Some(id)) {
            Ok(e) => Some(e),
            Err(reason) => {
                self.warn(
                    id,
                    format!("{what} is left out: {reason}"),
                    "use a literal, get_input, get_property, or an attribute the rule's table lists",
                );
                None
            }
        }
    }

    fn node(&mut self, id: NodeId) -> Json {
        let mut ctx = json!({
            "name": self.names[id.index()],
            "role": self.role_of(id),
            "address": self.refs[id.index()].address,
        });
        self.ignored_properties(id);
        let role = self.role_of(id).to_string();
        let replicated =
            role == "container" || (role == "compute" && self.provider == Provider::Kubernetes);
        let count = self.topology.nodes[id.index()].count.clone();
        if !replicated && !matches!(count, Value::Null | Value::Integer(1)) {
            let node = self.topology.nodes[id.index()].name.clone();
            let shown = crate::back::graphviz::value_text(&count);
            let hint = if role == "compute" {
                "describe each machine as a node template of its own, or use --provider kubernetes, where count becomes replicas"
            } else {
                "describe each instance as a node template of its own"
            };
            self.warn(
                id,
                format!("the count ({shown}) of node `{node}` is not translated: one is created"),
                hint,
            );
        }
        let extra = match role.as_str() {
            "compute" => {
                let mut machine = self.compute(id);
                self.place_in_zone(id, &mut machine);
                self.pin_volume_zone(id, &mut machine);
                machine
            }
            "block_storage" => self.block_storage(id),
            "network" => self.network(id),
            "port" => self.port(id),
            "object_storage" => json!({ "bucket": self.prop(id, "name") }),
            "load_balancer" => self.load_balancer(id),
            "container" => self.container(id),
            "hosted" => {
                self.hosted(id);
                json!({})
            }
            "unsupported" => {
                self.ledger.accounted(ElementKind::Node, id.index()); // not created: said below
                let reason = self
                    .bind(id)
                    .get("reason")
                    .and_then(Json::as_str)
                    .unwrap_or("it has no equivalent with this provider")
                    .to_string();
                if self.reporting() {
                    let node = &self.topology.nodes[id.index()];
                    let mut d = Diagnostic::warning(
                        codes::TF_UNSUPPORTED,
                        format!(
                            "node `{}` of type {} is skipped: {reason}",
                            node.name, node.type_name
                        ),
                    );
                    if let Some(h) = self.bind(id).get("hint").and_then(Json::as_str) {
                        d = d.hint(h.to_string());
                    }
                    if let Some(span) = self.span(id) {
                        d = d.at(span);
                    }
                    self.push(d);
                }
                json!({})
            }
            _ => json!({}),
        };
        if let (Json::Object(ctx), Json::Object(extra)) = (&mut ctx, extra) {
            ctx.extend(extra);
        }
        ctx
    }

    /// A warning for each property the template sets that the rule's
    /// `bind.ignored_properties` (name → why) says this provider cannot express.
    fn ignored_properties(&mut self, id: NodeId) {
        let Some(table) = self
            .bind(id)
            .get("ignored_properties")
            .and_then(Json::as_object)
        else {
            return;
        };
        let node = &self.topology.nodes[id.index()];
        let set: Vec<(String, String)> = table
            .iter()
            .filter(|(name, _)| {
                node.assigned.iter().any(|a| a == *name)
                    && node
                        .properties
                        .get(*name)
                        .is_some_and(|v| !matches!(v, Value::Null))
            })
            .map(|(name, why)| (name.clone(), why.as_str().unwrap_or("").to_string()))
            .collect();
        let node_name = node.name.clone();
        for (name, why) in set {
            let _reported_here = self.ledger.property(self.topology, id.index(), &name);
            self.warn(
                id,
                format!("property `{name}` of node `{node_name}` is left out: {why}"),
                "another --provider may express it, or a template of your own with --backend-dir",
            );
        }
    }

    /// A property of a capability of node `id`, as its value is known at translation
    /// ([`known`]: an input's value for a `get_input`).
    fn capability_value(&self, id: NodeId, cap: &str, prop: &str) -> Option<&'a Value> {
        let topology = self.topology;
        let value = self.capability_property(id, cap, prop)?;
        Some(known(topology, value))
    }

    fn capability_number(&mut self, id: NodeId, cap: &str, prop: &str) -> Option<f64> {
        match self.capability_value(id, cap, prop)? {
            Value::Integer(i) => Some(*i as f64),
            Value::Float(f) if f.is_finite() => Some(*f),
            Value::Scalar(s) => Some(s.canonical),
            Value::String(s) if size_bytes(s).is_some() => size_bytes(s),
            Value::Null => None,
            other => {
                let what = crate::back::graphviz::value_text(other);
                self.warn(
                    id,
                    format!(
                        "`{cap}.{prop}` of node `{}` is {what}, not a number known before deployment; the size is chosen without it",
                        self.topology.nodes[id.index()].name
                    ),
                    "give the value with --set so the size can be chosen",
                );
                None
            }
        }
    }

    /// The CPU count as HCL writes it: an integer exactly as the template wrote it (a 64-bit
    /// integer does not go through `f64`), a float as a number.
    fn cpus_text(&self, id: NodeId, cpus: Option<f64>) -> Option<String> {
        let written = self
            .capability_property(id, "host", "num_cpus")
            .map(|v| known(self.topology, v));
        match written {
            Some(Value::Integer(i)) => Some(i.to_string()),
            _ => cpus.map(number),
        }
    }

    fn compute(&mut self, id: NodeId) -> Json {
        let cpus = self.capability_number(id, "host", "num_cpus");
        let mem_mib = self
            .capability_number(id, "host", "mem_size")
            .map(|b| b / MIB);
        let disk_gib = self
            .capability_number(id, "host", "disk_size")
            .map(|b| b / GIB);
        let size = self.size(id, cpus, mem_mib, disk_gib);
        let image = self.image(id);
        let scripts = self.scripts(id);
        if !scripts.is_empty() && self.provider != Provider::Kubernetes {
            self.needs.insert("cloudinit".to_string(), json!(true));
        }
        let ports = self.ports_of(id);
        let endpoints = if self.provider == Provider::Kubernetes {
            Vec::new()
        } else {
            self.endpoints_of(id)
        };
        // The security group of a machine in no network of the template is in the default VPC.
        let vpc = match ports.as_array().and_then(|p| p.first()) {
            Some(first) => first["network"]
                .as_str()
                .map(|net| format!("aws_vpc.{net}")),
            None => Some("data.aws_vpc.default".to_string()),
        };
        self.endpoint_needs(&endpoints, &ports);
        let scaling = self.scaling(id, &ports);
        let public_interface = ports
            .as_array()
            .filter(|_| self.provider == Provider::Aws && scaling.is_none())
            .and_then(|p| p.first())
            .filter(|_| endpoints.iter().any(|e| e["public"] == true))
            .map(|first| first["name"].clone());
        if ports.as_array().is_some_and(Vec::is_empty) {
            // A machine with no port of its own joins the provider's default network
            // (OpenStack's `var.openstack_network`), declared only when something uses it.
            self.needs
                .insert("portless_machine".to_string(), json!(true));
        }
        // On Kubernetes the container runs the steps in order, each in a subshell (its env
        // file is its own), then stays up.
        let script_env = scripts.iter().any(|s| !s["env"].is_null());
        let script_runner = (!scripts.is_empty()).then(|| {
            let steps: Vec<String> = scripts
                .iter()
                .filter_map(|s| s["run"].as_str())
                .map(|run| format!("({run})"))
                .chain(["exec sleep infinity".to_string()])
                .collect();
            hcl_str(&steps.join(" && "))
        });
        // Whole sizes in whole units, exactly where the template's number is exact.
        let mem_text = self
            .whole_size(id, "host", "mem_size", MIB, "MiB")
            .or_else(|| mem_mib.filter(|m| m.is_finite()).map(|m| number(m.ceil())));
        let disk_text = self
            .whole_size(id, "host", "disk_size", GIB, "GiB")
            .or_else(|| disk_gib.filter(|d| d.is_finite()).map(|d| number(d.ceil())));
        let instance_type = self.instance_type(id, size.as_ref());
        // A scaled machine in a network of the template with a public endpoint: its instances
        // take a public address in the (public) subnet.
        let public_subnet = scaling.is_some()
            && ports.as_array().is_some_and(|p| !p.is_empty())
            && endpoints.iter().any(|e| e["public"] == true);
        json!({
            "size": size,
            "instance_type": instance_type,
            "public_subnet": public_subnet,
            "image": image,
            "num_cpus": self.cpus_text(id, cpus),
            "mem_mib": mem_text,
            "disk_gib": disk_text,
            "scripts": scripts,
            "mounts": self.mounts(id),
            "script_env": script_env,
            "script_runner": script_runner,
            "ports": ports,
            // A public machine in a network of the template waits for the Elastic IP of its
            // interface (templates/terraform/aws/network.tera), so that its `public_ip` is that
            // address from the first apply.
            "public_interface": public_interface,
            "endpoints": endpoints,
            "vpc": vpc,
            "volumes": self.volumes_of(id),
            "replicas": self.replicas(id),
            "placement_group": self.policies.placement[id.index()],
            "scaling": scaling,
        })
    }

    fn hosted(&mut self, id: NodeId) {
        let root = self.hosting.root(id);
        let node = &self.topology.nodes[id.index()];
        if root == id || self.role_of(root) != "compute" {
            let name = node.name.clone();
            let on = if root == id {
                "it is hosted on nothing".to_string()
            } else {
                format!(
                    "its hosting chain ends at `{}`, which is no Compute",
                    self.topology.nodes[root.index()].name
                )
            };
            self.warn(
                id,
                format!("node `{name}` is not deployed: {on}, so its lifecycle scripts have nowhere to run"),
                "host it (directly or through its stack) on a tosca.nodes.Compute",
            );
            return;
        }
        let has_steps = !stack::lifecycle_steps(self.topology, &[id], self.ledger).is_empty();
        if !has_steps {
            let name = node.name.clone();
            let host = self.topology.nodes[root.index()].name.clone();
            self.warn(
                id,
                format!(
                    "node `{name}` has no create, configure or start script, so nothing installs it on `{host}`"
                ),
                "give it a Standard lifecycle implementation (a shell script)",
            );
        }
    }

    /// A unique name for a resource derived from nodes (an attachment, a target, a group):
    /// never a name the configuration uses already ([`DerivedNames`]).
    fn derived_name(&mut self, base: String) -> String {
        self.derived.derive(base)
    }

    /// The node's `count` as HCL (for replicas), `None` when it has none.
    fn replicas(&mut self, id: NodeId) -> Option<String> {
        match &self.topology.nodes[id.index()].count {
            Value::Integer(n) => Some(n.to_string()),
            Value::Null => None,
            other => {
                let other = other.clone();
                let node = &self.topology.nodes[id.index()].name;
                self.value(id, &other, &format!("the count of node `{node}`"))
            }
        }
    }

    /// Relationships whose values do not flow into a reference become `depends_on` between
    /// the resources that stand for their ends (a hosted node stands by its machine). A
    /// `depends_on` that would close a cycle (with other dependencies or with the references
    /// values make) is left out with a warning; machines that read each other's attributes are
    /// a warning too, since Terraform cannot create them.
    fn relationships(&mut self, nodes: &mut [Json]) {
        // What these mean is a resource argument already (a volume attachment, a target
        // group, a port's network and machine), so no `depends_on` is added for them.
        let structural = [
            Meaning::Hosting,
            Meaning::Attachment,
            Meaning::Routing,
            Meaning::Link,
            Meaning::Binding,
        ];
        let count = self.topology.nodes.len();
        // The references each resource's values make, found by address in its context.
        let by_address: HashMap<&str, usize> = self
            .refs
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.address.as_deref().map(|a| (a, i)))
            .collect();
        let mut references: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (i, node) in nodes.iter().enumerate() {
            for address in addresses_in_value(node) {
                if let Some(&j) = by_address.get(address)
                    && j != i
                    && !references[i].contains(&j)
                {
                    references[i].push(j);
                }
            }
        }
        // Candidate dependencies, in relationship order, each pair of ends once.
        let mut candidates: Vec<(usize, usize, usize)> = Vec::new();
        let mut candidate_ends: HashSet<(usize, usize)> = HashSet::new();
        for (ri, r) in self.topology.relationships.iter().enumerate() {
            if structural.iter().any(|&m| self.meanings.means_at(ri, m)) {
                continue;
            }
            // A node stands for itself when it is a resource, else its machine does.
            let stand = |n: NodeId| {
                if self.refs[n.index()].address.is_some() {
                    n
                } else {
                    self.hosting.root(n)
                }
            };
            let (from, to) = (stand(r.source), stand(r.target));
            if from == to
                || self.refs[from.index()].address.is_none()
                || self.refs[to.index()].address.is_none()
                // A value that flows already orders the two resources.
                || references[from.index()].contains(&to.index())
                || !candidate_ends.insert((from.index(), to.index()))
            {
                continue;
            }
            candidates.push((from.index(), to.index(), ri));
        }
        let mut graph = references.clone();
        for &(from, to, _) in &candidates {
            graph[from].push(to);
        }
        let component = strongly_connected(&graph);
        // The resources of each component, in node order, listed in one pass when a warning
        // first needs them.
        let mut resources_of: Option<HashMap<usize, Vec<usize>>> = None;
        let mut warned_references: HashSet<usize> = HashSet::new();
        for (from, targets) in references.iter().enumerate() {
            for &to in targets {
                if component[from] == component[to] && warned_references.insert(component[from]) {
                    let resources = resources_of.get_or_insert_with(|| {
                        let mut by_component: HashMap<usize, Vec<usize>> = HashMap::new();
                        for n in (0..count).filter(|&n| self.refs[n].address.is_some()) {
                            by_component.entry(component[n]).or_default().push(n);
                        }
                        by_component
                    });
                    let names: Vec<String> = resources
                        .get(&component[from])
                        .into_iter()
                        .flatten()
                        .map(|&n| format!("`{}`", self.topology.nodes[n].name))
                        .collect();
                    if self.reporting() {
                        let span = self.spans.of(ElementKind::Node, from);
                        self.push(unexpressed(
                            span,
                            format!(
                                "{} read each other's attributes, which Terraform cannot create: one must exist before the other",
                                names.join(", ")
                            ),
                            "pass one of the values some other way (a fixed address, DNS, or a script that looks it up)",
                        ));
                    }
                }
            }
        }
        for (from, to, ri) in candidates {
            if component[from] == component[to] {
                let r = &self.topology.relationships[ri];
                if self.reporting() {
                    let span = self.spans.of(ElementKind::Relationship, ri);
                    self.push(unexpressed(
                        span,
                        format!(
                            "the dependency of `{}` on `{}` is left out: it would close a cycle of resources waiting for each other",
                            self.topology.nodes[r.source.index()].name,
                            self.topology.nodes[r.target.index()].name
                        ),
                        "Terraform cannot create resources that wait for each other",
                    ));
                }
                continue;
            }
            if let Some(address) = self.refs[to].address.clone() {
                self.depends[from].push(address);
            }
        }
    }
}
