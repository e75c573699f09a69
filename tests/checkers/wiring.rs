//! The wiring check of a set of Kubernetes manifests (issue 26, scope 8): `kubernetes-validate`
//! says each object is well-formed alone; this says the objects fit together, so that once
//! applied the pods start and reach each other. Within one output (a folder of manifests or a
//! stream), every name one object gives to reach another must resolve:
//!
//! - a Service's selector matches the labels of at least one pod template, and every
//!   `targetPort` (a number, a name, or the `port` itself when absent) is a container port of
//!   every pod template it selects;
//! - every `secretKeyRef` and `configMapKeyRef` names a Secret or ConfigMap of the output that
//!   holds the key; every `envFrom` source, `configMap`, `secret` and `persistentVolumeClaim`
//!   volume (projected ones included) names an object of the output, with each listed item key;
//!   every `volumeMount` names a volume of its pod or a `volumeClaimTemplate` of its StatefulSet;
//!   a StatefulSet's `serviceName` names a Service;
//! - every address a workload is given names a Service of the output. Every address toscana
//!   writes comes from one function of the model (`host_of`): the Service's name, or
//!   `<svc>.<ns>.svc` under `--namespace`. The check finds them by their form, wherever they
//!   stand: `<svc>.<ns>.svc[.<domain>][:port]` in env values, command, args and the files of
//!   ConfigMaps; `<svc>:<port>` and the host of a URL (`scheme://host[:port]/...`) in env
//!   values, command and args; and a bare name in the value of a variable whose name says it
//!   holds an address (a `host`, `hostname`, `ip`, `addr` or `address` word, `DB_HOST`,
//!   `mongodb_ip`), as `host` or `host:port`, comma-separated lists too. A bare name (`mysql`)
//!   is a Service of the workload's namespace, `<svc>.<ns>.svc[.<domain>]` the Service `<svc>`
//!   of namespace `<ns>`; IP literals, `localhost`, names of other domains (`github.com`) and
//!   values with a `$(VAR)` reference are not judged, nor `name:number` in a ConfigMap's files
//!   (a lifted stack's scripts are the template's text, where it may mean anything);
//! - a HorizontalPodAutoscaler's `scaleTargetRef` names an object of that kind, and every
//!   Ingress backend a Service of the output with that port.
//!
//! Names resolve within one namespace: an object's `metadata.namespace`, or the namespace it is
//! applied to when it has none (the same for every object without one). Objects outside the
//! output (a Secret created by hand) are not assumed: toscana writes every object its output
//! refers to. The one exception is a Service the template itself says the cluster has: a TOSCA
//! 2.0 node selected from outside the topology (directive `select`) is reached "as a Service of
//! its name" and gets a warning saying so (docs/backends/kubernetes.md); the caller passes those
//! names as `cluster` (the golden test from the case's `cluster-services` file, the corpus test
//! from the topology's selected nodes).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value as Json;

/// One object of the output: where it was read, and its kind, namespace and name.
pub struct Object {
    pub file: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub json: Json,
}

impl Object {
    fn id(&self) -> String {
        format!("{}: {} {}", self.file, self.kind, self.name)
    }
}

/// Checks the manifests of the folder `dir` (every `.yaml`/`.yml` file but
/// `kustomization.yaml`, each one or more documents); `cluster` names the Services the cluster
/// has already (see the module docs).
pub fn check_dir(dir: &Path, cluster: &[String]) -> Result<(), String> {
    let mut objects = Vec::new();
    let mut problems = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "yaml" || e == "yml")
                && p.file_name().is_some_and(|n| n != "kustomization.yaml")
        })
        .collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        match std::fs::read_to_string(&path) {
            Ok(text) => read_stream(&name, &text, &mut objects, &mut problems),
            Err(e) => problems.push(format!("{name}: cannot read it: {e}")),
        }
    }
    problems.extend(check(&objects, cluster));
    report(problems)
}

/// Checks one stream of manifests (documents separated by `---` lines); `label` names it.
pub fn check_stream(label: &str, text: &str, cluster: &[String]) -> Result<(), String> {
    let mut objects = Vec::new();
    let mut problems = Vec::new();
    read_stream(label, text, &mut objects, &mut problems);
    problems.extend(check(&objects, cluster));
    report(problems)
}

fn report(problems: Vec<String>) -> Result<(), String> {
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the wiring check found {} problem(s):\n  {}",
        problems.len(),
        problems.join("\n  ")
    ))
}

/// Reads the documents of `text` as objects; a document that is not a plain YAML map with a
/// kind and a name is a problem (toscana writes no anchors, tags or merges).
fn read_stream(label: &str, text: &str, objects: &mut Vec<Object>, problems: &mut Vec<String>) {
    let limits = toscana::limits::Limits::default();
    for (n, doc) in toscana::back::kubernetes::objects::split_documents(text)
        .into_iter()
        .enumerate()
    {
        let file = format!("{label}#{}", n + 1);
        let Some(json) = toscana::yaml::plain_json(doc, &limits) else {
            problems.push(format!("{file}: not a plain YAML map"));
            continue;
        };
        let text = |v: &Json| v.as_str().unwrap_or_default().to_string();
        let (kind, name) = (text(&json["kind"]), text(&json["metadata"]["name"]));
        if kind.is_empty() || name.is_empty() {
            problems.push(format!("{file}: an object without kind or metadata.name"));
            continue;
        }
        objects.push(Object {
            file: if n == 0 { label.to_string() } else { file },
            kind,
            namespace: text(&json["metadata"]["namespace"]),
            name,
            json,
        });
    }
}

/// Every wiring problem of `objects`, each naming the object and what would be right; the
/// Services named in `cluster` are in the cluster already.
pub fn check(objects: &[Object], cluster: &[String]) -> Vec<String> {
    let mut index = Index::new(objects);
    index.cluster = cluster;
    let mut problems = Vec::new();
    for pod in &index.pods {
        pod_references(&index, pod, &mut problems);
        addresses(&index, pod, &mut problems);
    }
    for object in objects {
        match object.kind.as_str() {
            "Service" => service(&index, object, &mut problems),
            "StatefulSet" => {
                let service = object.json["spec"]["serviceName"].as_str().unwrap_or("");
                if !service.is_empty() && index.get("Service", &object.namespace, service).is_none()
                {
                    problems.push(format!(
                        "{}: serviceName `{service}` names no Service of the output: its pods get no DNS names (write the headless Service, or name one)",
                        object.id()
                    ));
                }
            }
            "HorizontalPodAutoscaler" => {
                let target = &object.json["spec"]["scaleTargetRef"];
                let (kind, name) = (str_of(&target["kind"]), str_of(&target["name"]));
                if index.get(kind, &object.namespace, name).is_none() {
                    problems.push(format!(
                        "{}: scaleTargetRef names {kind} `{name}`, which is not in the output (it must name a Deployment or StatefulSet written beside it)",
                        object.id()
                    ));
                }
            }
            "Ingress" => ingress(&index, object, &mut problems),
            "ConfigMap" => config_addresses(&index, object, &mut problems),
            _ => {}
        }
    }
    problems
}

fn str_of(v: &Json) -> &str {
    v.as_str().unwrap_or("")
}

fn items(v: &Json) -> impl Iterator<Item = &Json> {
    v.as_array().into_iter().flatten()
}

/// A pod template: the object that holds it, its labels, its pod spec, and the volume claim
/// templates its pods also mount (a StatefulSet's).
struct Pod<'a> {
    owner: &'a Object,
    labels: BTreeMap<&'a str, &'a str>,
    spec: &'a Json,
    claim_templates: Vec<&'a str>,
}

impl Pod<'_> {
    /// Every container of the pod, init containers included.
    fn containers(&self) -> impl Iterator<Item = &Json> {
        items(&self.spec["initContainers"]).chain(items(&self.spec["containers"]))
    }
}

/// The objects by kind, namespace and name, and the pod templates among them.
struct Index<'a> {
    by_id: BTreeMap<(&'a str, &'a str, &'a str), &'a Object>,
    pods: Vec<Pod<'a>>,
    /// Services the cluster has already, as a workload would address them.
    cluster: &'a [String],
}

impl<'a> Index<'a> {
    fn new(objects: &'a [Object]) -> Self {
        let mut by_id = BTreeMap::new();
        let mut pods = Vec::new();
        for o in objects {
            by_id.insert((o.kind.as_str(), o.namespace.as_str(), o.name.as_str()), o);
            // Where each kind keeps its pods: the library's one table of it.
            let Some(template) = toscana::back::k8s_profile::pod_template(&o.json) else {
                continue;
            };
            let labels = template["metadata"]["labels"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.as_str(), str_of(v)))
                .collect();
            let claim_templates = items(&o.json["spec"]["volumeClaimTemplates"])
                .map(|c| str_of(&c["metadata"]["name"]))
                .collect();
            pods.push(Pod {
                owner: o,
                labels,
                spec: &template["spec"],
                claim_templates,
            });
        }
        Index {
            by_id,
            pods,
            cluster: &[],
        }
    }

    fn get(&self, kind: &str, namespace: &str, name: &str) -> Option<&'a Object> {
        self.by_id.get(&(kind, namespace, name)).copied()
    }
}

/// A Service's selector selects pods, and each of its ports reaches a container port of each.
fn service(index: &Index, svc: &Object, problems: &mut Vec<String>) {
    let Some(selector) = svc.json["spec"]["selector"].as_object() else {
        return; // no selector: its endpoints are managed by hand (or it is an ExternalName)
    };
    if selector.is_empty() {
        return;
    }
    let selected: Vec<&Pod> = index
        .pods
        .iter()
        .filter(|p| p.owner.namespace == svc.namespace)
        .filter(|p| {
            selector
                .iter()
                .all(|(k, v)| p.labels.get(k.as_str()) == Some(&str_of(v)))
        })
        .collect();
    if selected.is_empty() {
        let wanted: Vec<String> = selector
            .iter()
            .map(|(k, v)| format!("{k}={}", str_of(v)))
            .collect();
        problems.push(format!(
            "{}: its selector {{{}}} matches the labels of no pod template in the output, so it has no endpoints (the selector must be a subset of a workload's pod labels)",
            svc.id(),
            wanted.join(", ")
        ));
        return;
    }
    for port in items(&svc.json["spec"]["ports"]) {
        let target = match &port["targetPort"] {
            Json::Null => &port["port"],
            t => t,
        };
        for pod in &selected {
            let declared: Vec<String> = pod
                .containers()
                .flat_map(|c| items(&c["ports"]))
                .flat_map(|p| {
                    let number = p["containerPort"].as_u64().map(|n| n.to_string());
                    number
                        .into_iter()
                        .chain(p["name"].as_str().map(str::to_string))
                })
                .collect();
            let wanted = match target {
                Json::String(s) => s.clone(),
                other => other.to_string(),
            };
            if !declared.contains(&wanted) {
                problems.push(format!(
                    "{}: port {} targets `{wanted}`, which no container of {} {} declares (its ports: {}); the targetPort must be a containerPort number or name of the pods it selects",
                    svc.id(),
                    port["port"],
                    pod.owner.kind,
                    pod.owner.name,
                    if declared.is_empty() { "none".to_string() } else { declared.join(", ") }
                ));
            }
        }
    }
}

/// A name a pod gives to reach an object: the kind, the name, the keys it wants of it, and
/// which field gives it.
struct Reference<'a> {
    kind: &'static str,
    name: &'a str,
    keys: Vec<&'a str>,
    why: String,
}

/// Every Secret, ConfigMap and claim a pod's volumes and containers name, and every mount of a
/// volume the pod does not have.
fn pod_references(index: &Index, pod: &Pod, problems: &mut Vec<String>) {
    let owner = pod.owner;
    for r in references(pod) {
        let Some(object) = index.get(r.kind, &owner.namespace, r.name) else {
            problems.push(format!(
                "{}: {} names {} `{}`, which is not in the output (write it beside the workload, or refer to one that is)",
                owner.id(),
                r.why,
                r.kind,
                r.name
            ));
            continue;
        };
        for key in r.keys.iter().filter(|k| !keys_of(object).contains(k)) {
            problems.push(format!(
                "{}: {} wants key `{key}` of {} `{}`, which holds only {}",
                owner.id(),
                r.why,
                r.kind,
                r.name,
                keys_of(object).join(", ")
            ));
        }
    }
    let volumes: Vec<&str> = items(&pod.spec["volumes"])
        .map(|v| str_of(&v["name"]))
        .collect();
    for container in pod.containers() {
        for mount in items(&container["volumeMounts"]) {
            let name = str_of(&mount["name"]);
            if !volumes.contains(&name) && !pod.claim_templates.contains(&name) {
                problems.push(format!(
                    "{}: container `{}` mounts `{name}`, which is no volume of the pod ({}) nor a volumeClaimTemplate",
                    owner.id(),
                    str_of(&container["name"]),
                    volumes.join(", ")
                ));
            }
        }
    }
}

/// The keys a volume source lists under `items`.
fn item_keys(source: &Json) -> Vec<&str> {
    items(&source["items"]).map(|i| str_of(&i["key"])).collect()
}

/// What a pod refers to by name: the sources of its volumes, and its containers' `valueFrom`
/// and `envFrom`.
fn references<'a>(pod: &Pod<'a>) -> Vec<Reference<'a>> {
    let mut out = Vec::new();
    let spec: &'a Json = pod.spec;
    for volume in items(&spec["volumes"]) {
        let why = format!("volume `{}`", str_of(&volume["name"]));
        let mut add = |kind, name, keys| {
            out.push(Reference {
                kind,
                name,
                keys,
                why: why.clone(),
            })
        };
        if let Some(source) = volume.get("configMap") {
            add("ConfigMap", str_of(&source["name"]), item_keys(source));
        }
        if let Some(source) = volume.get("secret") {
            add("Secret", str_of(&source["secretName"]), item_keys(source));
        }
        if let Some(source) = volume.get("persistentVolumeClaim") {
            add(
                "PersistentVolumeClaim",
                str_of(&source["claimName"]),
                Vec::new(),
            );
        }
        for projected in items(&volume["projected"]["sources"]) {
            if let Some(source) = projected.get("configMap") {
                add("ConfigMap", str_of(&source["name"]), item_keys(source));
            }
            if let Some(source) = projected.get("secret") {
                add("Secret", str_of(&source["name"]), item_keys(source));
            }
        }
    }
    let containers = items(&spec["initContainers"]).chain(items(&spec["containers"]));
    for container in containers {
        let cname = str_of(&container["name"]);
        for env in items(&container["env"]) {
            let why = format!("container `{cname}` env `{}`", str_of(&env["name"]));
            for (field, kind) in [("secretKeyRef", "Secret"), ("configMapKeyRef", "ConfigMap")] {
                if let Some(r) = env["valueFrom"].get(field) {
                    let keys = vec![str_of(&r["key"])];
                    let (name, why) = (str_of(&r["name"]), why.clone());
                    out.push(Reference {
                        kind,
                        name,
                        keys,
                        why,
                    });
                }
            }
        }
        for source in items(&container["envFrom"]) {
            for (field, kind) in [("configMapRef", "ConfigMap"), ("secretRef", "Secret")] {
                if let Some(r) = source.get(field) {
                    out.push(Reference {
                        kind,
                        name: str_of(&r["name"]),
                        keys: Vec::new(),
                        why: format!("container `{cname}` envFrom"),
                    });
                }
            }
        }
    }
    out
}

/// The keys a ConfigMap or Secret holds.
fn keys_of(object: &Object) -> Vec<&str> {
    ["data", "binaryData", "stringData"]
        .iter()
        .filter_map(|f| object.json[*f].as_object())
        .flat_map(|m| m.keys().map(String::as_str))
        .collect()
}

/// Every address a pod's containers are given names a Service: in their environment (by the
/// variable's name, URLs, and the forms of [`service_forms`]) and in their command and
/// arguments (URLs and those forms).
fn addresses(index: &Index, pod: &Pod, problems: &mut Vec<String>) {
    let namespace = &pod.owner.namespace;
    for container in pod.containers() {
        let container_name = str_of(&container["name"]);
        for env in items(&container["env"]) {
            let (name, Some(value)) = (str_of(&env["name"]), env["value"].as_str()) else {
                continue;
            };
            let mut hosts = hosts_in(name, value);
            hosts.extend(service_forms(value, true));
            for problem in unresolved_hosts(index, namespace, hosts) {
                problems.push(format!(
                    "{}: container `{container_name}` env `{name}` = `{value}`: {problem}",
                    pod.owner.id(),
                ));
            }
        }
        for field in ["command", "args"] {
            for word in items(&container[field]).filter_map(Json::as_str) {
                let mut hosts = hosts_in("", word);
                hosts.extend(service_forms(word, true));
                for problem in unresolved_hosts(index, namespace, hosts) {
                    problems.push(format!(
                        "{}: container `{container_name}` {field} `{word}`: {problem}",
                        pod.owner.id(),
                    ));
                }
            }
        }
    }
}

/// Every Service a ConfigMap's files name in the cluster's own form
/// (`<svc>.<ns>.svc[.<domain>]`) is one of the output. Only that form is judged in files: the
/// scripts of a lifted stack are the template's text, where `name:number` may mean anything.
fn config_addresses(index: &Index, config: &Object, problems: &mut Vec<String>) {
    let files = config.json["data"].as_object().into_iter().flatten();
    for (key, text) in files {
        let hosts = service_forms(text.as_str().unwrap_or(""), false);
        for problem in unresolved_hosts(index, &config.namespace, hosts) {
            problems.push(format!("{}: file `{key}`: {problem}", config.id()));
        }
    }
}

/// Why each of `hosts` (once each) names no Service, seen from `namespace`.
fn unresolved_hosts(index: &Index, namespace: &str, mut hosts: Vec<&str>) -> Vec<String> {
    hosts.sort_unstable();
    hosts.dedup();
    hosts
        .into_iter()
        .filter_map(|host| unresolved(index, namespace, host))
        .collect()
}

/// The Service names `text` gives by their form, wherever they stand in it: each
/// `<svc>.<ns>.svc[.<domain>][:port]` (the cluster's DNS name of a Service), and, when
/// `with_ports`, each `<name>:<port>` (a DNS label with a letter, a port number) that is not
/// part of a longer name, path or URL credential. Text with a `$(VAR)` reference is not judged.
pub fn service_forms(text: &str, with_ports: bool) -> Vec<&str> {
    if text.contains("$(") {
        return Vec::new();
    }
    let word_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':');
    let mut hosts = Vec::new();
    let mut start = 0;
    for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
        if word_char(c) {
            continue;
        }
        let word = &text[start..at];
        let before = text[..start].chars().next_back();
        start = at + c.len_utf8();
        let word = word.trim_matches(|c: char| c == '.' || c == ':');
        let host = strip_port(word);
        let labels: Vec<&str> = host.split('.').collect();
        let cluster_name = labels.len() >= 3 && labels[2] == "svc";
        let name_and_port = with_ports
            && !matches!(before, Some('/' | '@' | '$' | '{'))
            && labels.len() == 1
            && word.split_once(':').is_some_and(|(name, port)| {
                name.chars().any(|c| c.is_ascii_lowercase())
                    && !port.is_empty()
                    && port.len() <= 5
                    && port.chars().all(|c| c.is_ascii_digit())
            });
        if cluster_name || name_and_port {
            hosts.push(host);
        }
    }
    hosts
}

/// The host names an environment value gives: URL hosts, and the value itself when the
/// variable's name says it is an address.
pub fn hosts_in<'v>(name: &str, value: &'v str) -> Vec<&'v str> {
    if value.contains("$(") {
        return Vec::new(); // expanded by Kubernetes from another variable
    }
    let says_address = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| {
            matches!(
                word.to_ascii_lowercase().as_str(),
                "host" | "hostname" | "ip" | "addr" | "address"
            )
        });
    let mut hosts = Vec::new();
    for part in value.split(',').map(str::trim) {
        if let Some((_, rest)) = part.split_once("://") {
            let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
            let host_port = authority.rsplit('@').next().unwrap_or("");
            hosts.push(strip_port(host_port));
        } else if says_address {
            hosts.push(strip_port(part));
        }
    }
    hosts.retain(|h| !h.is_empty());
    hosts
}

fn strip_port(host_port: &str) -> &str {
    if host_port.starts_with('[') {
        return host_port; // an IPv6 literal, not judged
    }
    host_port.split(':').next().unwrap_or("")
}

/// Why `host`, given to a workload of `namespace`, names no Service of the output; `None` when
/// it does, or when it is not a name in the cluster (an IP, `localhost`, another domain).
fn unresolved(index: &Index, namespace: &str, host: &str) -> Option<String> {
    let is_label = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && s.chars().any(|c| c.is_ascii_lowercase())
    };
    if host == "localhost" || host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') {
        return None;
    }
    let labels: Vec<&str> = host.split('.').collect();
    let (service, service_namespace) = match labels.as_slice() {
        [one] if is_label(one) => (*one, namespace),
        [svc, ns, "svc", ..] if is_label(svc) && is_label(ns) => (*svc, *ns),
        _ => return None,
    };
    if index.get("Service", service_namespace, service).is_some()
        || index.cluster.iter().any(|c| c == host)
    {
        return None;
    }
    let services: Vec<String> = index
        .by_id
        .keys()
        .filter(|(kind, _, _)| *kind == "Service")
        .map(|(_, ns, name)| {
            if ns.is_empty() {
                (*name).to_string()
            } else {
                format!("{name}.{ns}.svc")
            }
        })
        .collect();
    Some(format!(
        "`{host}` names no Service of the output{} (its Services: {})",
        if service_namespace.is_empty() {
            String::new()
        } else {
            format!(" in namespace `{service_namespace}`")
        },
        if services.is_empty() {
            "none".to_string()
        } else {
            services.join(", ")
        }
    ))
}

/// Every backend of an Ingress is a Service of the output, with that port.
fn ingress(index: &Index, ingress: &Object, problems: &mut Vec<String>) {
    let spec = &ingress.json["spec"];
    let rules = items(&spec["rules"]).flat_map(|r| items(&r["http"]["paths"]));
    let backends = std::iter::once(&spec["defaultBackend"])
        .chain(rules.map(|p| &p["backend"]))
        .filter(|b| b["service"].is_object());
    for backend in backends {
        let name = str_of(&backend["service"]["name"]);
        let Some(service) = index.get("Service", &ingress.namespace, name) else {
            problems.push(format!(
                "{}: a backend names Service `{name}`, which is not in the output",
                ingress.id()
            ));
            continue;
        };
        let port = &backend["service"]["port"];
        if !port["number"].is_number() && !port["name"].is_string() {
            problems.push(format!(
                "{}: a backend names Service `{name}` but no port (an Ingress backend needs service.port.number or service.port.name)",
                ingress.id()
            ));
            continue;
        }
        let served = items(&service.json["spec"]["ports"]).any(|p| {
            (port["number"].is_number() && p["port"] == port["number"])
                || (port["name"].is_string() && p["name"] == port["name"])
        });
        if !served {
            problems.push(format!(
                "{}: a backend wants port {} of Service `{name}`, which does not serve it",
                ingress.id(),
                port
            ));
        }
    }
}
