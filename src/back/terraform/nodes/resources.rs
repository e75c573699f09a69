//! What the templates of storage, networks, ports, load balancers and containers need.

use serde_json::{Value as Json, json};

use crate::back::ElementKind;
use crate::back::filters::{dns_label, hcl_str};
use crate::back::ignores::Part;
use crate::back::meanings::Meaning;
use crate::ir::{NodeId, Value, type_matches};

use super::super::expr::known;
use super::{Builder, Provider};

impl Builder<'_, '_> {
    pub(super) fn network(&mut self, id: NodeId) -> Json {
        let default_cidr = self
            .bind(id)
            .get("default_cidr")
            .and_then(Json::as_str)
            .map(hcl_str);
        let cidr = self.prop(id, "cidr").or(default_cidr);
        let ip_version = self.prop(id, "ip_version");
        let public_machines = self.public_machines_in(id);
        if self.provider == Provider::Openstack && !public_machines.is_empty() {
            // Routers and floating IPs come from the external network, a variable.
            self.needs
                .insert("external_network".to_string(), json!(true));
        }
        // Load balancers in the network's VPC: their subnets, one in each of two zones.
        let load_balancer_subnets = self.balanced_networks.get(&id).cloned();
        if load_balancer_subnets.is_some() {
            self.needs
                .insert("availability_zones".to_string(), json!(true));
        }
        let outbound = self.outbound(id, !public_machines.is_empty());
        json!({
            "outbound": outbound,
            "public_machines": public_machines,
            "network_name": self.prop(id, "network_name"),
            "cidr": cidr,
            "ip_version": ip_version,
            "gateway_ip": self.prop(id, "gateway_ip"),
            "start_ip": self.prop(id, "start_ip"),
            "end_ip": self.prop(id, "end_ip"),
            "dhcp_enabled": self.prop(id, "dhcp_enabled"),
            "load_balancer_subnets": load_balancer_subnets,
        })
    }

    /// The primary interfaces (ports) in network `id` of the machines that expose a public
    /// endpoint (AWS and OpenStack): they need a public address (an Elastic or floating IP),
    /// and the network a route to the internet (an internet gateway, a router).
    fn public_machines_in(&self, id: NodeId) -> Vec<Json> {
        if !matches!(self.provider, Provider::Aws | Provider::Openstack) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (port, machine) in self.primary_ports_in(id) {
            if self
                .endpoints_of(machine)
                .iter()
                .any(|e| e["public"] == true)
            {
                // A scaled machine's instances take a public address from the subnet.
                let port = (!self.is_scaled(machine)).then(|| &self.names[port.index()]);
                out.push(json!({
                    "machine": self.names[machine.index()],
                    "port": port,
                }));
            }
        }
        out
    }

    /// The public address of machine `id` where a resource of its own holds it: the
    /// resource the machine rule's `bind.public_address` names (AWS `aws_eip`, OpenStack
    /// `openstack_networking_floatingip_v2`), which the network writes for the primary port
    /// of each unscaled machine with a public endpoint ([`Self::public_machines_in`]). The
    /// machine's own address attribute would be its fixed address (OpenStack
    /// `access_ip_v4`), or the address it had before the public one was associated (AWS
    /// `public_ip`).
    pub(super) fn public_address(&self, id: NodeId) -> Option<String> {
        let public = self.bind(id).get("public_address")?;
        let resource = public.get("resource")?.as_str()?;
        let attribute = public.get("attribute")?.as_str()?;
        let port = *self.port_ids(id).first()?;
        let linked = self.outgoing[port.index()].iter().any(|&ri| {
            self.meanings.means_at(ri, Meaning::Link)
                && self.role_of(self.topology.relationships[ri].target) == "network"
        });
        let public_endpoint = self.endpoints_of(id).iter().any(|e| e["public"] == true);
        (linked && public_endpoint && !self.is_scaled(id))
            .then(|| format!("{resource}.{}.{attribute}", self.names[port.index()]))
    }

    /// The port's network (LinksTo) and machine (BindsTo).
    pub(super) fn port(&mut self, id: NodeId) -> Json {
        let mut network = None;
        let mut compute = None;
        let mut compute_id = None;
        for &ri in &self.outgoing[id.index()] {
            let r = &self.topology.relationships[ri];
            if self.meanings.means_at(ri, Meaning::Link) && self.role_of(r.target) == "network" {
                network = Some(self.names[r.target.index()].clone());
            } else if self.meanings.means_at(ri, Meaning::Binding)
                && self.role_of(r.target) == "compute"
            {
                compute = Some(self.names[r.target.index()].clone());
                compute_id = Some(r.target);
            }
        }
        let name = self.topology.nodes[id.index()].name.clone();
        if let Some(machine) = compute_id.filter(|&c| self.is_scaled(c)) {
            let machine = self.topology.nodes[machine.index()].name.clone();
            self.warn(
                id,
                format!("port `{name}` is not written: machine `{machine}` is scaled, and each of its instances gets an interface of its own in the port's network"),
                "read the address of a load balancer in front of the machine rather than the port's",
            );
            return json!({});
        }
        if network.is_none() {
            self.warn(
                id,
                format!(
                    "port `{name}` links to no network this backend creates, so it is left out"
                ),
                "give the port a `link` requirement to a tosca.nodes.network.Network",
            );
        }
        let index = compute_id.map(|c| self.port_ids(c).iter().position(|p| *p == id).unwrap_or(0));
        // The machine's security group sits on its primary interface, the machine's own.
        let security_group = compute_id
            .filter(|c| {
                index == Some(0)
                    && self.provider != Provider::Kubernetes
                    && !self.endpoints_of(*c).is_empty()
            })
            .map(|c| self.names[c.index()].clone());
        json!({
            "security_group": security_group,
            "network": network,
            "compute": compute,
            "ip_address": self.prop(id, "ip_address"),
            // The first port is the machine's primary interface (device 0, named by the
            // machine); the others are attached after it.
            "device_index": index,
        })
    }

    /// The ports bound to a machine, ordered by their `order` property, then source order.
    pub(super) fn port_ids(&self, compute: NodeId) -> Vec<NodeId> {
        let mut ports: Vec<(i64, usize, NodeId)> = self.incoming[compute.index()]
            .iter()
            .filter(|&&ri| self.meanings.means_at(ri, Meaning::Binding))
            .map(|&ri| &self.topology.relationships[ri])
            .filter(|r| self.role_of(r.source) == "port" && self.network_of(r.source).is_some())
            .map(|r| {
                let order = match self
                    .ledger
                    .property(self.topology, r.source.index(), "order")
                {
                    Some(Value::Integer(i)) => *i,
                    _ => 0,
                };
                (order, r.source.index(), r.source)
            })
            .collect();
        ports.sort();
        ports.dedup_by_key(|p| p.2);
        ports.into_iter().map(|p| p.2).collect()
    }

    /// The block storage attached to a machine, with where it is mounted.
    pub(super) fn volumes_of(&self, compute: NodeId) -> Json {
        let volumes: Vec<Json> = self
            .attachments_of(compute)
            .into_iter()
            .map(|(ri, volume)| {
                let location = match self.relationship_property(ri, "location") {
                    Some(Value::String(l)) => Some(hcl_str(l)),
                    _ => None,
                };
                json!({
                    "name": self.names[volume.index()],
                    "label": dns_label(&self.names[volume.index()]),
                    "location": location,
                })
            })
            .collect();
        json!(volumes)
    }

    /// The network a port links to, when this backend creates it.
    pub(super) fn network_of(&self, port: NodeId) -> Option<NodeId> {
        self.outgoing[port.index()]
            .iter()
            .filter(|&&ri| self.meanings.means_at(ri, Meaning::Link))
            .map(|&ri| &self.topology.relationships[ri])
            .find(|l| self.role_of(l.target) == "network")
            .map(|l| l.target)
    }

    pub(super) fn ports_of(&self, compute: NodeId) -> Json {
        let ports: Vec<Json> = self
            .port_ids(compute)
            .into_iter()
            .map(|p| {
                let network = self.network_of(p).map(|n| self.names[n.index()].clone());
                json!({ "name": self.names[p.index()], "network": network })
            })
            .collect();
        json!(ports)
    }

    pub(super) fn load_balancer(&mut self, id: NodeId) -> Json {
        let algorithm = self.algorithm(id);
        let default_port = self
            .bind(id)
            .get("default_port")
            .and_then(Json::as_i64)
            .unwrap_or(80);
        let client_port = self
            .capability_port(id, "client")
            .unwrap_or_else(|| default_port.to_string());
        let mut targets: Vec<Json> = Vec::new();
        let mut targeted: Vec<NodeId> = Vec::new();
        for ri in self.outgoing[id.index()].clone() {
            let r = &self.topology.relationships[ri];
            if !self.meanings.means_at(ri, Meaning::Routing) {
                continue;
            }
            let app = r.target;
            let root = self.hosting.root(app);
            let port = self.routed_port(id, ri).text;
            let kind = match self.role_of(root) {
                "compute" => "compute",
                _ if self.role_of(app) == "container" => "container",
                _ => {
                    let name = self.topology.nodes[app.index()].name.clone();
                    let lb = self.topology.nodes[id.index()].name.clone();
                    self.warn(
                        id,
                        format!("load balancer `{lb}` does not route to `{name}`: it runs on no machine or container this backend creates"),
                        "host the application on a tosca.nodes.Compute, or make it a container application with --provider kubernetes",
                    );
                    continue;
                }
            };
            // A scaled machine's group registers its instances itself (`target_group_arns`).
            let kind = if kind == "compute" && self.is_scaled(root) {
                "group"
            } else {
                kind
            };
            let target = if kind == "container" { app } else { root };
            if targeted.contains(&target) {
                continue;
            }
            targeted.push(target);
            if kind != "container" && !self.reaches(id, target) {
                continue;
            }
            targets.push(json!({
                "name": self.derived_name(format!("{}_{}", self.names[id.index()], self.names[target.index()])),
                "node": self.names[target.index()],
                "kind": kind,
                "port": port,
                // OpenStack: the member's subnet, so that the load balancer plugs into a
                // network of the template it is not in (none: the default network, its own).
                "subnet": (kind == "compute").then(|| self.machine_network(target)).flatten().map(|n| &self.names[n.index()]),
            }));
        }
        if self.provider == Provider::Kubernetes && targets.len() > 1 {
            let lb = self.topology.nodes[id.index()].name.clone();
            self.warn(
                id,
                format!("load balancer `{lb}` routes to several applications; a Kubernetes service selects only the first"),
                "put the applications behind one service each",
            );
        }
        let mut ctx = json!({
            "algorithm": algorithm,
            "port": client_port,
            "targets": targets,
        });
        match self.provider {
            Provider::Openstack => {
                self.needs
                    .insert("default_network".to_string(), json!(true));
            }
            Provider::Aws => {
                let lb = &self.names[id.index()];
                ctx["security_group"] = json!(self.derived_name(format!("{lb}_lb")));
                if let (Json::Object(ctx), Json::Object(place)) =
                    (&mut ctx, self.balancer_place(id))
                {
                    ctx.extend(place);
                }
            }
            Provider::Kubernetes => {}
        }
        ctx
    }

    /// The provider's name for load balancer `id`'s `algorithm` (the rule's
    /// `bind.algorithms`); `None`, with a warning, for one it has no name for.
    fn algorithm(&mut self, id: NodeId) -> Option<String> {
        match self
            .ledger
            .property(self.topology, id.index(), "algorithm")
            .map(|v| known(self.topology, v))
        {
            Some(Value::String(a)) => {
                let table = self.bind(id).get("algorithms").unwrap_or(&Json::Null);
                match table.get(a.to_lowercase()).and_then(Json::as_str) {
                    Some(v) => Some(hcl_str(v)),
                    None => {
                        self.warn(
                        id,
                        format!(
                            "algorithm `{a}` of load balancer `{}` has no equivalent; the provider's default is used",
                            self.topology.nodes[id.index()].name
                        ),
                        "use an algorithm the rule's `bind.algorithms` lists",
                    );
                        None
                    }
                }
            }
            _ => None,
        }
    }

    /// The `port` of capability `cap` of node `id` as HCL ([`Self::port_text`]).
    pub(super) fn capability_port(&self, id: NodeId, cap: &str) -> Option<String> {
        self.port_text(id, self.capability_property(id, cap, "port")?)
    }

    /// A port number of node `id` as HCL: the input's variable where `written` is a
    /// `get_input` (so that the port follows `terraform.tfvars`), else the number; `None` when
    /// it is no integer known before deployment.
    pub(super) fn port_text(&self, id: NodeId, written: &Value) -> Option<String> {
        let Value::Integer(port) = known(self.topology, written) else {
            return None;
        };
        Some(
            self.scope()
                .expr(written, Some(id))
                .unwrap_or_else(|_| port.to_string()),
        )
    }

    pub(super) fn container(&mut self, id: NodeId) -> Json {
        let node = &self.topology.nodes[id.index()];
        let name = node.name.clone();
        // The reference `toscana k8s` runs too: the artifact's repository before its file.
        let image_artifact = node
            .artifacts
            .iter()
            .find(|(_, a)| type_matches(&a.types, "tosca.artifacts.Deployment.Image"))
            .or_else(|| node.artifacts.first())
            .map(|(artifact, a)| {
                self.ledger
                    .used(ElementKind::Node, id.index(), Part::Artifact, artifact);
                crate::back::images::image_ref(&a.file, a.repository_url.as_deref())
            });
        if let Some(image) = &image_artifact {
            for f in crate::back::images::check_named(&name, image) {
                self.warn(id, f.message, &f.hint);
            }
        }
        let image = image_artifact
            .map(|i| hcl_str(&i))
            .or_else(|| self.prop(id, "image"));
        if image.is_none() {
            self.warn(
                id,
                format!("container `{name}` names no image, so it is left out"),
                "give it an artifact of type tosca.artifacts.Deployment.Image.VM (or a Docker image) whose file is the image reference",
            );
        }
        let mut ports: Vec<i64> = Vec::new();
        for name in node.capabilities.keys() {
            if let Some(Value::Integer(p)) = self
                .capability_property(id, name, "port")
                .map(|v| known(self.topology, v))
                && !ports.contains(p)
            {
                ports.push(*p);
            }
        }
        if let Some(Value::Integer(p)) = self
            .ledger
            .property(self.topology, id.index(), "port")
            .map(|v| known(self.topology, v))
            && !ports.contains(p)
        {
            ports.push(*p);
        }
        let replicas = self.replicas(id);
        json!({
            "image": image,
            "ports": ports,
            "replicas": replicas,
            "label": dns_label(&self.names[id.index()]),
        })
    }
}
