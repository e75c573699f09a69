//! A workload's plan and what it becomes: a new plan for a node, the labels, selector and
//! annotations of its objects, its service, and the objects it finishes into.

use super::*;

impl Ctx<'_> {
    pub(super) fn new_plan(&mut self, owner: usize, component: &str) -> Plan {
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
            claim_templates: Vec::new(),
            replicas: 1,
            component: component.to_string(),
            part_of: None,
            extra_labels: BTreeMap::new(),
            affinity: Affinity::default(),
            product: None,
            state: None,
        }
    }

    pub(super) fn selector(&self, plan: &Plan) -> Vec<Pair> {
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
    pub(super) fn meta(
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
    pub(super) fn meta_at(
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

    /// The Service in front of a workload: one with ports when it has any, a headless one when
    /// it is stateful or addressed without ports; `None` when nothing reaches it.
    pub(super) fn service(&mut self, plan: &Plan, part_of: Option<&str>) -> Option<ServiceObj> {
        let addressed = plan.members.iter().any(|&m| self.addressed[m]);
        if !plan.ports.is_empty() || plan.stateful || addressed {
            let meta = self.meta(plan.owner, &plan.name, &plan.component, part_of, &plan.name);
            return Some(ServiceObj {
                meta,
                service_type: "ClusterIP",
                // Without ports a Service can only name its pods: a headless one, whose DNS
                // name resolves to their IPs on every port.
                headless: plan.stateful || plan.ports.is_empty(),
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
        None
    }

    /// Every workload's objects, by owner node, the context consumed: the plans (each
    /// workload's environment, scripts and volumes) are freed before the caller builds the Tera
    /// values, not held beside them at the model's peak. [`Ctx::finish`] reads no other plan,
    /// so each plan is dropped once finished.
    pub(super) fn finished(mut self) -> Vec<NodeOut> {
        let mut nodes: Vec<NodeOut> = vec![NodeOut::default(); self.topology.nodes.len()];
        for plan in std::mem::take(&mut self.plans) {
            let out = self.finish(&plan);
            let slot = &mut nodes[plan.owner];
            slot.config_map = out.config_map;
            slot.secret = out.secret;
            slot.service = out.service;
            slot.workload = out.workload;
        }
        nodes
    }

    /// The objects of one workload.
    pub(super) fn finish(&mut self, plan: &Plan) -> NodeOut {
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
        let mut volumes = Vec::new();
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
            volumes.push(Volume {
                name: "scripts".to_string(),
                config_map: name,
                items: plan.items.clone(),
            });
        }
        let stateful = plan.stateful;
        out.service = self.service(plan, part_of.as_deref());
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
        let mut meta = self.meta(
            plan.owner,
            &plan.name,
            &plan.component,
            part_of.as_deref(),
            &plan.name,
        );
        let security = self.security(plan);
        defaults::annotate(&mut meta, security.as_ref());
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
        let affinity = (!plan.affinity.spread.is_empty()
            || !plan.affinity.together.is_empty()
            || !plan.affinity.zones.is_empty())
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
                probe: self.probe(plan),
            },
            volumes,
            claim_templates: plan.claim_templates.clone(),
            affinity,
            security,
        });
        out
    }
}
