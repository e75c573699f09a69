//! The Kubernetes backend's own Rust (`toscana k8s`, `tosca2k8s`).
//!
//! The rules in `backends/kubernetes/mapping.yaml` give each node a `role` (container, compute,
//! software, dbms, database, storage, load_balancer, network, port) and the tables the mapping
//! needs (base images by operating system, database products, names that mark secrets, script
//! interpreters); the templates in `templates/kubernetes/` write the objects. What needs the
//! whole graph is worked out here ([`model`]) and given to every template as `k8s`:
//!
//! - which nodes become which workload: a container application its own Deployment; a database
//!   of a known product a StatefulSet with the product's image; a Compute with the software
//!   hosted on it one "lifted" Deployment or StatefulSet whose entrypoint runs the stack's
//!   lifecycle scripts (shipped in a ConfigMap) in deployment order;
//! - each workload's image, ports, environment (operation inputs, mapped properties,
//!   `<TARGET>_HOST`/`<TARGET>_PORT` of its connections), Secret, resource requests, volumes,
//!   replicas, labels, part-of group and affinity;
//! - the objects of load balancers, storage, networks and scaling policies.
//!
//! Then every rendered document is checked against its `k8s-openapi` type ([`objects`]) and
//! written with `serde-saphyr`: one stream on standard output, or `<kind>-<name>.yaml` files
//! and a `kustomization.yaml` in a directory.

mod json_doc;
mod model;
pub mod objects;
pub mod profile;
mod survives;
pub(crate) mod values;

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Topology, Valid};
use crate::limits::Limits;
use crate::source::ArtifactFiles;
use crate::source::{SourceMap, Span};

use super::{Element, ElementKind, Engine, OutputFile};

/// The options of `toscana k8s`, given to templates as `options`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct K8sOptions {
    /// `--namespace NS`: every object's namespace, and the kustomization's.
    pub namespace: Option<String>,
    /// `--ingress`: load balancers become an Ingress instead of LoadBalancer Services.
    pub ingress: bool,
    /// One file per object plus `kustomization.yaml` (`-o DIR`), instead of one stream.
    pub split: bool,
    /// `--no-limits`: containers get resource requests from the host capability but no
    /// limits (by default the limits equal the requests).
    pub no_limits: bool,
    /// `--no-probes`: containers get no startup, readiness or liveness probes.
    pub no_probes: bool,
    /// `--no-security-context`: pods and containers get no securityContext (nor the
    /// `toscana.io/pod-security` annotation).
    pub no_security_context: bool,
    /// `--service-account-token`: pods get their service account's API token mounted. By
    /// default every pod says `automountServiceAccountToken: false`: a TOSCA template gives its
    /// software no ServiceAccount or RBAC, so nothing it runs is meant to call the Kubernetes
    /// API, and a token it does not use is only a credential to steal (CIS Kubernetes
    /// Benchmark 5.1.6; checkov CKV_K8S_38).
    pub service_account_token: bool,
    /// The caller writes the topology's outputs itself (`tf --provider kubernetes` makes each a
    /// Terraform `output`), so the not-translated ledger does not report them as dropped.
    #[serde(skip)]
    pub outputs_written: bool,
}

/// Order of kinds in the stream: what others refer to comes first.
const KIND_ORDER: &[&str] = &[
    "Namespace",
    "ServiceAccount",
    "Secret",
    "ConfigMap",
    "PersistentVolumeClaim",
    "Service",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
    "HorizontalPodAutoscaler",
    "PodDisruptionBudget",
    "Ingress",
    "NetworkPolicy",
];

/// Renders `topology` with a loaded Kubernetes backend and checks every object.
#[allow(clippy::too_many_arguments)]
pub fn render(
    backend: &Engine,
    topology: Valid<'_>,
    sources: &mut SourceMap,
    artifacts: &ArtifactFiles,
    limits: &Limits,
    options: &K8sOptions,
    diags: &mut Diagnostics,
) -> Vec<OutputFile> {
    let Some(Built { objects, others }) = build::<objects::Yaml>(
        backend, topology, sources, artifacts, limits, options, diags,
    ) else {
        return Vec::new();
    };
    if objects.is_empty() && others.is_empty() {
        let message = if topology.nodes.is_empty() {
            "the topology has no node templates, so there is no Kubernetes object to write"
        } else {
            "no node of the topology became a Kubernetes object; the warning on each node says why"
        };
        diags.push(
            super::nothing_to_write(topology.topology(), sources, message)
                .hint("Kubernetes objects come from container applications, Compute nodes and the software on them, databases, storage, load balancers and networks"),
        );
        return Vec::new();
    }
    write(objects, others, options)
}

/// What the model and the templates made of a topology: the checked objects (in the form `F`
/// their writer takes), in the order of [`KIND_ORDER`], and the files that are no object.
pub struct Built<F> {
    pub objects: Vec<objects::Object<F>>,
    pub others: Vec<OutputFile>,
}

/// Builds and checks every object of `topology` (the rules' and the Kubernetes profiles'):
/// the objects `toscana k8s` writes and `toscana tf --provider kubernetes` writes as HCL.
/// `None` when there was an error.
#[allow(clippy::too_many_arguments)]
pub fn build<F: objects::Form>(
    backend: &Engine,
    topology: Valid<'_>,
    sources: &mut SourceMap,
    artifacts: &ArtifactFiles,
    limits: &Limits,
    options: &K8sOptions,
    diags: &mut Diagnostics,
) -> Option<Built<F>> {
    // Valid: every handle resolves, so what follows indexes the topology unguarded.
    let topology: &Topology = topology.topology();
    let elements = super::elements(topology, sources);
    // Nodes of a Kubernetes profile are their objects (`profile`), not offered to the rules.
    let ledger = super::Ledger::new();
    let profile::Documents {
        ruled,
        profiled,
        documents: profile_documents,
    } = profile::documents(
        topology,
        &elements,
        options.service_account_token,
        &ledger,
        diags,
    );
    let k8s = model::context(
        backend, topology, &ruled, sources, artifacts, limits, options, &ledger, diags,
    );
    let extra = vec![
        ("k8s".to_string(), k8s),
        ("options".to_string(), super::to_tera(options)),
    ];
    let files = backend.render_with(topology, &ruled, extra, diags);
    if options.outputs_written {
        let kept: Vec<Element> = ruled
            .iter()
            .filter(|e| e.kind != ElementKind::Output)
            .cloned()
            .collect();
        backend.account(&ledger, topology, &kept, diags);
    } else {
        backend.account(&ledger, topology, &ruled, diags);
    }
    backend.account_unruled(&ledger, topology, &profiled, profile::NOT_CARRIED, diags);
    if diags.has_errors() {
        return None;
    }
    // Which element (and template) each rule output came from: rule outputs are named
    // `<kind>-<index>.yaml` by the built-in rules.
    let mut who: HashMap<String, (String, Option<Span>)> = HashMap::new();
    let mut counters: HashMap<ElementKind, usize> = HashMap::new();
    for e in &elements {
        let c = counters.entry(e.kind).or_default();
        let template = backend.template_for(e).unwrap_or("?");
        who.insert(
            format!("{}-{c}.yaml", e.kind),
            (
                format!("template `{template}` (for {} `{}`)", e.kind, e.name),
                e.span,
            ),
        );
        *c += 1;
    }
    let mut others: Vec<OutputFile> = Vec::new();
    // Each rendered document is checked where it lies in its file's text, and the file is
    // dropped once its documents are: a copy of every document held until all were checked
    // doubled the rendered text at `toscana k8s`'s peak (docs/performance.md).
    let mut checker = Checker::default();
    for file in files {
        if !(file.path.ends_with(".yaml") || file.path.ends_with(".yml")) {
            others.push(file);
            continue;
        }
        let fallback;
        let (origin, element) = match who.get(&file.path) {
            Some((origin, element)) => (origin.as_str(), *element),
            None => {
                fallback = format!("the template of `{}`", file.path);
                (fallback.as_str(), None)
            }
        };
        for doc in objects::split_documents(&file.contents) {
            checker.check(doc, origin, element, sources, diags);
        }
    }
    for (text, origin, element) in profile_documents {
        checker.check(&text, &origin, element, sources, diags);
    }
    let mut objects = checker.objects;
    if diags.has_errors() {
        return None;
    }
    objects.sort_by(|a, b| {
        let rank = |k: &str| {
            KIND_ORDER
                .iter()
                .position(|x| *x == k)
                .unwrap_or(KIND_ORDER.len())
        };
        (rank(&a.kind), &a.kind, &a.name).cmp(&(rank(&b.kind), &b.kind, &b.name))
    });
    Some(Built { objects, others })
}

/// The files of the objects: one stream, or one file per object and a kustomization.
fn write(
    objects: Vec<objects::Object<objects::Yaml>>,
    others: Vec<OutputFile>,
    options: &K8sOptions,
) -> Vec<OutputFile> {
    if !options.split {
        // The stream is as long as the objects together: allocated once, it is not grown by
        // doubling, which held the old and the new buffer at once (the whole output, at the
        // end of the run, on top of the objects).
        let length: usize = objects.iter().map(|o| o.body.0.len() + "---\n".len()).sum();
        let mut stream = String::with_capacity(length);
        for (i, o) in objects.into_iter().enumerate() {
            if i > 0 {
                stream.push_str("---\n");
            }
            stream.push_str(&o.body.0);
        }
        let mut out = others;
        if !stream.is_empty() {
            out.insert(
                0,
                OutputFile {
                    path: "manifests.yaml".to_string(),
                    contents: stream,
                },
            );
        }
        return out;
    }
    let mut out: Vec<OutputFile> = Vec::new();
    let mut names = Vec::new();
    for o in objects {
        let path = objects::file_name(&o);
        names.push(path.clone());
        out.push(OutputFile {
            path,
            contents: o.body.0,
        });
    }
    if !names.is_empty() {
        out.push(OutputFile {
            path: "kustomization.yaml".to_string(),
            contents: objects::kustomization(&names, options.namespace.as_deref()),
        });
    }
    out.extend(others);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The objects checked so far; two documents that write the same object are an error.
struct Checker<F> {
    objects: Vec<objects::Object<F>>,
    /// Who wrote each (kind, name) first.
    seen: HashMap<(String, String), String>,
}

impl<F> Default for Checker<F> {
    fn default() -> Self {
        Checker {
            objects: Vec::new(),
            seen: HashMap::new(),
        }
    }
}

impl<F: objects::Form> Checker<F> {
    /// Checks one document (its text, who wrote it, where) against its Kubernetes type.
    fn check(
        &mut self,
        text: &str,
        origin: &str,
        element: Option<Span>,
        sources: &mut SourceMap,
        diags: &mut Diagnostics,
    ) {
        let Some(object) = objects::check_document::<F>(text, origin, element, sources, diags)
        else {
            return;
        };
        let key = (object.kind.clone(), object.name.clone());
        if let Some(first) = self.seen.get(&key) {
            diags.push(Diagnostic::error(
                codes::K8S_INTERNAL,
                format!(
                    "{origin} and {first} both write the {} `{}`",
                    object.kind, object.name
                ),
            ));
            return;
        }
        self.seen.insert(key, origin.to_string());
        self.objects.push(object);
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
