//! Templates written with a Kubernetes profile become exactly those objects.
//!
//! The OASIS community publishes TOSCA profiles whose node types each stand for one Kubernetes
//! object (`io.kubernetes`, generated from the Kubernetes OpenAPI, the same types as
//! `community.tosca.technology.k8s`, and the hand-written
//! `community.tosca.technology.kubernetes`). A node of such a type is not a container or a
//! server to be translated: it *is* the object, so it is written through, by data
//! (`backends/kubernetes/profiles.yaml`) rather than by a rule of `mapping.yaml`:
//!
//! - which profiles are Kubernetes profiles (any version: the version is a parameter);
//! - each kind's `apiVersion`, found by the type's name (the node's own type first, so a type
//!   a template derives from the profile's `Pod` is still a Pod);
//! - which properties are the object's top-level fields;
//! - how relationships become references ([`refs`]).
//!
//! The objects are then checked like every other: deserialized into their `k8s-openapi` type
//! and written back ([`super::objects`]). A node of a profile type that names no kind toscana
//! writes (an abstract `Resource`, a kind of a group it does not check) is one warning naming
//! the type.
//!
//! What a node's object carries is read through the not-translated ledger like every other
//! translation's reads (issue 26, "nothing silently dropped"): its properties that are fields,
//! the properties of the capabilities the data maps, every property a value reaches with
//! `$get_property`, and the relationships made into references. [`NOT_CARRIED`] is the hint of
//! the `backend::not-translated` warning about the rest (a property that is no field, a
//! capability the data does not map, an artifact, an operation other than the `create` and
//! `delete` the object stands for).

mod eval;
mod refs;
mod token;

use std::collections::BTreeMap;

use indexmap::IndexMap;

use crate::back::k8s_profile::{data, kind_of, profile_type};
use serde_json::Value as Json;

use crate::back::ignores::Part;
use crate::back::{ElementKind, Ledger};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{NodeId, Topology};
use crate::source::Span;

/// Pseudo-type put at the head of a profile node's ancestry for `toscana tf --provider
/// kubernetes`, whose rules skip it: its object is written with the others
/// (`crate::back::terraform::kubernetes`).
pub const OBJECT: &str = "toscana.kubernetes.ProfileObject";

/// The hint of the `backend::not-translated` warning about what a profile node's object does
/// not carry.
pub const NOT_CARRIED: &str = "the object of a Kubernetes profile's node carries only its properties that are the object's top-level fields (`metadata`, `spec`, `data`, ...), the capabilities backends/kubernetes/profiles.yaml maps, and the relationships it makes references of; write the value into one of those, or leave it out";

/// The operations a node's object stands for: the profiles' `Standard.create` applies the
/// object (`kubectl apply`) and `Standard.delete` deletes it, which is what applying and deleting
/// the manifests does. Any other operation (`configure`, an interface of the template's own) is
/// warned.
const CARRIED_OPERATIONS: [&str; 2] = ["Standard.create", "Standard.delete"];

/// One object a node writes.
pub struct ProfileObject {
    pub node: NodeId,
    /// The node's type, for messages.
    pub type_name: String,
    pub object: Json,
}

/// What the profile nodes of a topology become.
pub struct ProfileObjects {
    /// The objects, in node order (a pod folded into its controller writes none).
    pub objects: Vec<ProfileObject>,
    /// Per node: whether it is a node of a Kubernetes profile, written (or warned about) here
    /// and so not offered to the rules of `mapping.yaml`.
    pub taken: Vec<bool>,
}

/// Per node of `topology`: whether it is a node of a Kubernetes profile, which
/// [`documents`] takes (writes, or warns about) and the rules of `mapping.yaml` are not offered. A decision
/// on the node's types alone, so a caller that only needs it (`toscana tf --provider
/// kubernetes`, whose objects `toscana k8s`'s build writes and reports on) builds no object.
pub fn taken(topology: &Topology) -> Vec<bool> {
    topology
        .nodes
        .iter()
        .map(|node| node.types.iter().any(|t| profile_type(t).is_some()))
        .collect()
}

/// Whether `element` is a node of a Kubernetes profile: `taken` is [`taken`]'s answer.
pub fn is_taken(taken: &[bool], element: &crate::back::Element) -> bool {
    match element.context {
        crate::back::ElementContext::Part {
            list: "nodes",
            index,
        } => taken.get(index).copied().unwrap_or(false),
        _ => false,
    }
}

/// Where each node is written, by node index.
pub fn node_spans(elements: &[crate::back::Element], nodes: usize) -> Vec<Option<Span>> {
    let mut spans = vec![None; nodes];
    for e in elements {
        if let crate::back::ElementContext::Part {
            list: "nodes",
            index,
        } = e.context
            && let Some(slot) = spans.get_mut(index)
        {
            *slot = e.span;
        }
    }
    spans
}

/// What [`documents`] gives the Kubernetes backend.
pub struct Documents {
    /// The elements left for the rules.
    pub ruled: Vec<crate::back::Element>,
    /// The elements of the profile nodes, accounted by the ledger ([`NOT_CARRIED`]).
    pub profiled: Vec<crate::back::Element>,
    /// Each object of a profile node as a document to check with the rendered ones: its JSON
    /// text, who wrote it, where.
    pub documents: Vec<(String, String, Option<Span>)>,
}

/// For `toscana k8s`: the objects of the profile nodes, what they read recorded in `ledger`.
/// Unless `service_account_token`, their pods get no service account token, as every other pod
/// ([`token`]).
pub fn documents(
    topology: &Topology,
    elements: &[crate::back::Element],
    service_account_token: bool,
    ledger: &Ledger,
    diags: &mut Diagnostics,
) -> Documents {
    let spans = node_spans(elements, topology.nodes.len());
    let mut profile = objects_read(topology, ledger, |i| spans.get(i).copied().flatten(), diags);
    if !service_account_token {
        let mut written: Vec<&mut Json> =
            profile.objects.iter_mut().map(|p| &mut p.object).collect();
        token::withhold(&mut written);
    }
    let (profiled, ruled) = elements
        .iter()
        .cloned()
        .partition(|e| is_taken(&profile.taken, e));
    let documents = profile
        .objects
        .iter()
        .map(|p| {
            let node = &topology[p.node];
            let origin = format!("node `{}` of type {}", node.name, p.type_name);
            let span = spans.get(p.node.index()).copied().flatten();
            (p.object.to_string(), origin, span)
        })
        .collect();
    Documents {
        ruled,
        profiled,
        documents,
    }
}

/// Builds the objects of every node of a Kubernetes profile in `topology`, each read of the
/// topology recorded in `ledger`. `span_of` gives where a node is written, for warnings.
fn objects_read(
    topology: &Topology,
    ledger: &Ledger,
    span_of: impl Fn(usize) -> Option<Span>,
    diags: &mut Diagnostics,
) -> ProfileObjects {
    let data = data();
    let evaluator = eval::Evaluator::new(topology, ledger);
    let taken = taken(topology);
    let mut built: BTreeMap<usize, Json> = BTreeMap::new();
    // Types that name no object, with the nodes of them: one warning per type.
    let mut unwritable: IndexMap<String, Vec<usize>> = IndexMap::new();
    let ids: Vec<NodeId> = topology.node_ids().collect();
    for (i, node) in topology.nodes.iter().enumerate() {
        if !taken[i] {
            continue;
        }
        let Some((kind, type_name)) = kind_of(&node.types) else {
            let full = node.types.first().map_or("", String::as_str);
            let named = if full == node.type_name {
                full.to_string()
            } else {
                format!("{} ({full})", node.type_name)
            };
            unwritable.entry(named).or_default().push(i);
            // Its warning says the node is skipped as a whole.
            ledger.accounted(ElementKind::Node, i);
            continue;
        };
        let warn = |message: String| {
            let mut d = Diagnostic::warning(codes::K8S_UNSUPPORTED, message);
            if let Some(span) = span_of(i) {
                d = d.at(span);
            }
            diags.push(d);
        };
        // The object is what its lifecycle's `create` applies and `delete` deletes.
        for operation in CARRIED_OPERATIONS {
            ledger.used(ElementKind::Node, i, Part::Operation, operation);
        }
        let object = build(&evaluator, ledger, ids[i], kind, type_name, warn);
        built.insert(i, object);
    }
    for (type_name, nodes) in &unwritable {
        let names: Vec<String> = nodes
            .iter()
            .map(|&i| format!("`{}`", topology.nodes[i].name))
            .collect();
        let mut d = Diagnostic::warning(
            codes::BACKEND_SKIPPED,
            format!(
                "type {type_name} names no Kubernetes object toscana writes, so its node{} {} {} skipped",
                if nodes.len() == 1 { "" } else { "s" },
                names.join(", "),
                if nodes.len() == 1 { "is" } else { "are" },
            ),
        )
        .hint(format!(
            "the objects toscana writes from a Kubernetes profile are: {}",
            data.kinds.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
        if let Some(span) = span_of(nodes[0]) {
            d = d.at(span);
        }
        diags.push(d);
    }
    let folded = refs::apply(&data.references, topology, ledger, &mut built);
    for object in built.values_mut() {
        numbers_as_numbers(object, &data.int_or_string);
    }
    for (&i, object) in &built {
        if folded.contains(&i) {
            continue;
        }
        for (message, hint) in refused(object) {
            let node = &topology.nodes[i];
            let mut d = Diagnostic::warning(
                codes::K8S_UNSUPPORTED,
                format!("node `{}`: {message}", node.name),
            )
            .hint(hint);
            if let Some(span) = span_of(i) {
                d = d.at(span);
            }
            diags.push(d);
        }
    }
    let objects = built
        .into_iter()
        .filter(|(i, _)| !folded.contains(i))
        .map(|(i, object)| ProfileObject {
            node: ids[i],
            type_name: topology.nodes[i].type_name.clone(),
            object,
        })
        .collect();
    ProfileObjects { objects, taken }
}

/// The object of one node of `kind` (its type `type_name`): its properties that are fields,
/// then what its capabilities write (a Service's `endpoint` its port), its name and the Service
/// type its type means. `warn` is told what could not be evaluated.
fn build(
    evaluator: &eval::Evaluator,
    ledger: &Ledger,
    id: NodeId,
    kind: &str,
    type_name: &str,
    mut warn: impl FnMut(String),
) -> Json {
    let data = data();
    let topology = evaluator.topology();
    let node = &topology[id];
    let mut object = serde_json::Map::new();
    object.insert("apiVersion".into(), Json::String(data.kinds[kind].clone()));
    object.insert("kind".into(), Json::String(kind.to_string()));
    for name in node.properties.keys() {
        if !data.fields.iter().any(|f| f == name) {
            continue;
        }
        let Some(value) = ledger.property(topology, id.index(), name) else {
            continue;
        };
        let (v, problems) = evaluator.eval(value, id);
        for problem in problems {
            warn(format!(
                "node `{}`: a value of property `{name}` is left out of its {kind}: {problem}",
                node.name
            ));
        }
        if !v.is_null() {
            object.insert(name.clone(), v);
        }
    }
    let mut object = Json::Object(object);
    for cap_name in node.capabilities.keys() {
        let Some(capability) = ledger.capability(topology, id.index(), cap_name) else {
            continue;
        };
        let rules: Vec<_> = data
            .capabilities
            .iter()
            .filter(|r| r.matches(capability.types(), kind))
            .collect();
        if rules.is_empty() {
            continue;
        }
        // The rules write from every property of the capability.
        let mut properties = serde_json::Map::new();
        for (name, value) in capability.properties() {
            let (v, problems) = evaluator.eval(value, id);
            for problem in problems {
                warn(format!(
                    "node `{}`: a value of property `{name}` of capability `{cap_name}` is left out of its {kind}: {problem}",
                    node.name
                ));
            }
            properties.insert(name.clone(), v);
        }
        let properties = Json::Object(properties);
        let this = object.clone();
        for rule in rules {
            refs::write_all(
                &mut object,
                &rule.set,
                &rule.append,
                &properties,
                &[("source", &this), ("capability", &properties)],
            );
        }
    }
    default_name(&mut object, &node.name);
    if let Some(service_type) = data.service_types.get(type_name) {
        refs::set_if_missing(&mut object, "spec.type", Json::String(service_type.clone()));
    }
    object
}

/// What the API server would refuse in an object toscana cannot fill in itself, each with how
/// to give it: a container without an image, a Service without a port, a ClusterRoleBinding's
/// ServiceAccount without a namespace (a RoleBinding's is its own namespace).
fn refused(object: &Json) -> Vec<(String, &'static str)> {
    let kind = object["kind"].as_str().unwrap_or("object");
    let mut out: Vec<(String, &'static str)> = imageless(object)
        .into_iter()
        .map(|container| {
            (
                format!(
                    "container `{container}` of its {kind} has no image, which Kubernetes refuses"
                ),
                "give the container an `image` in the pod's spec",
            )
        })
        .collect();
    let ports = object.pointer("/spec/ports").and_then(Json::as_array);
    let external = object.pointer("/spec/type").and_then(Json::as_str) == Some("ExternalName");
    if kind == "Service" && !external && ports.is_none_or(Vec::is_empty) {
        out.push((
            "its Service has no port, which Kubernetes refuses".to_string(),
            "give its `endpoint` capability a `port` (and a `target-port`), or write `spec.ports`",
        ));
    }
    let subjects = object.get("subjects").and_then(Json::as_array);
    let unscoped = subjects.is_some_and(|list| {
        list.iter()
            .any(|s| s["kind"] == "ServiceAccount" && s.get("namespace").is_none())
    });
    if kind == "ClusterRoleBinding" && unscoped {
        out.push((
            "a ServiceAccount subject of its ClusterRoleBinding has no namespace, which Kubernetes refuses".to_string(),
            "give the ServiceAccount a `namespace` requirement (or a `metadata.namespace`)",
        ));
    }
    out
}

/// The names of the containers without an image, in the pod spec of an object whose kind runs
/// pods (the one table of where each kind keeps it, [`crate::back::k8s_profile::pod_spec`]).
fn imageless(object: &Json) -> Vec<String> {
    let Some(spec) = crate::back::k8s_profile::pod_spec(object) else {
        return Vec::new();
    };
    ["containers", "initContainers"]
        .iter()
        .filter_map(|list| spec.get(*list).and_then(Json::as_array))
        .flatten()
        .filter(|c| c.get("image").is_none_or(Json::is_null))
        .map(|c| c["name"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// A string of digits under an IntOrString key written as the number: the generated profiles
/// type these fields `string` (`intstr.yaml`), and Kubernetes reads `"8080"` as a port name.
fn numbers_as_numbers(value: &mut Json, keys: &[String]) {
    match value {
        Json::Object(map) => {
            for (k, v) in map.iter_mut() {
                if let Json::String(s) = v
                    && keys.iter().any(|key| key == k)
                    && let Ok(n) = s.parse::<i64>()
                {
                    *v = Json::from(n);
                } else {
                    numbers_as_numbers(v, keys);
                }
            }
        }
        Json::Array(items) => items.iter_mut().for_each(|i| numbers_as_numbers(i, keys)),
        _ => {}
    }
}

/// `metadata.name` from the node's name when the template gives none.
fn default_name(object: &mut Json, node_name: &str) {
    refs::set_if_missing(
        object,
        "metadata.name",
        Json::String(crate::back::filters::dns_label(node_name)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_data_reads() {
        let data = data();
        assert!(data.kinds.contains_key("Deployment"));
        assert!(!data.references.is_empty());
    }

    #[test]
    fn ports_written_as_strings_of_digits_are_numbers() {
        let mut o = serde_json::json!({"spec": {"ports": [{"port": 80, "targetPort": "8080"}, {"targetPort": "http"}], "name": "8080"}});
        numbers_as_numbers(&mut o, &data().int_or_string);
        assert_eq!(
            o,
            serde_json::json!({"spec": {"ports": [{"port": 80, "targetPort": 8080}, {"targetPort": "http"}], "name": "8080"}})
        );
    }

    #[test]
    fn what_the_api_server_refuses_is_named() {
        let messages = |o: Json| refused(&o).into_iter().map(|(m, _)| m).collect::<Vec<_>>();
        assert_eq!(
            messages(serde_json::json!({"kind": "Service", "spec": {"selector": {"app": "a"}}})),
            ["its Service has no port, which Kubernetes refuses"]
        );
        assert!(
            messages(serde_json::json!({"kind": "Service", "spec": {"type": "ExternalName"}}))
                .is_empty()
        );
        assert!(
            messages(serde_json::json!({"kind": "Service", "spec": {"ports": [{"port": 80}]}}))
                .is_empty()
        );
        let binding = |namespace: Option<&str>| {
            let mut subject = serde_json::json!({"kind": "ServiceAccount", "name": "a"});
            if let Some(n) = namespace {
                subject["namespace"] = n.into();
            }
            serde_json::json!({"kind": "ClusterRoleBinding", "subjects": [subject]})
        };
        assert_eq!(messages(binding(None)).len(), 1);
        assert!(messages(binding(Some("shop"))).is_empty());
    }

    #[test]
    fn a_container_without_an_image_is_found_in_every_kind_that_runs_pods() {
        let spec = serde_json::json!({"containers": [{"name": "app", "image": "nginx:1.27"}, {"name": "bare"}],
            "initContainers": [{"name": "init"}]});
        for object in [
            serde_json::json!({"kind": "Pod", "spec": spec}),
            serde_json::json!({"kind": "StatefulSet", "spec": {"template": {"spec": spec}}}),
            serde_json::json!({"kind": "CronJob", "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}}}),
        ] {
            assert_eq!(imageless(&object), ["bare", "init"], "{object}");
        }
        assert!(imageless(&serde_json::json!({"kind": "ConfigMap", "data": {}})).is_empty());
    }

    #[test]
    fn a_type_of_a_profile_is_found_at_any_version() {
        assert_eq!(
            profile_type("io.kubernetes:1.35:Deployment"),
            Some(("io.kubernetes", "Deployment"))
        );
        assert_eq!(
            profile_type("io.kubernetes:1.40:Service"),
            Some(("io.kubernetes", "Service"))
        );
        assert_eq!(profile_type("io.kubernetesx:1.35:Service"), None);
        assert_eq!(profile_type("tosca.nodes.Compute"), None);
    }

    #[test]
    fn the_kind_is_the_most_specific_type_that_names_one() {
        let types = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            kind_of(&types(&[
                "Pod",
                "io.kubernetes:1.35:Pod",
                "io.kubernetes:1.35:BasePod"
            ])),
            Some(("Pod", "Pod"))
        );
        assert_eq!(
            kind_of(&types(&["io.kubernetes:1.35:StandalonePod"])),
            Some(("Pod", "StandalonePod"))
        );
        assert_eq!(kind_of(&types(&["io.kubernetes:1.35:Resource"])), None);
    }
}
