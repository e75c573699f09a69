//! `toscana tf --provider kubernetes`: the objects `toscana k8s` builds, written as Terraform.
//!
//! One Kubernetes model, two writers (issue 27, scope 5): the objects come from the Kubernetes
//! backend itself ([`crate::back::kubernetes::build`]: the same rules, model, image table and
//! `k8s-openapi` check, the objects of templates written with a Kubernetes profile among them),
//! built from the input read as `toscana k8s` reads it. Each object becomes one resource
//! ([`hcl`]): the provider's typed resource for its kind where the provider has one and the
//! object fits it (`kubernetes_deployment_v1`, `kubernetes_stateful_set_v1`,
//! `kubernetes_secret_v1`, `kubernetes_horizontal_pod_autoscaler_v2`, ...), `kubernetes_manifest`
//! otherwise, with a comment that says why. Fields that name another object refer to its
//! resource, so Terraform creates what is referred to first. Every namespaced object is created
//! in `var.kube_namespace`.
//!
//! Inputs stay variables: a string that came from an input is `var.<name>` (inside a longer
//! string too, [`provenance`]), and so is a number, boolean or size the model passed on
//! unchanged, converted to what the field takes ([`moved`]); what the model chose or derived
//! from an input's value at translation (an image for an `os`, a name cut to a DNS label, a
//! memory limit) keeps that value, and the variable is then reported unused. A
//! sensitive input reaches its container through the object `toscana k8s` writes it to, a
//! Secret (`kubernetes_secret_v1`, whose `data` is `var.<name>`), never a ConfigMap.

mod data;
mod hcl;
mod moved;
mod provenance;

use std::collections::{HashMap, HashSet};

use heck::ToSnakeCase;
use serde_json::Value as Json;

use crate::back::kubernetes::{self, K8sOptions, objects::Object};
use crate::back::registry::{Reread, RereadFn};
use crate::back::{Engine, builtin};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Topology, Value};
use crate::limits::Limits;
use crate::source::SourceMap;

pub use hcl::Address;
use moved::Moves;
use provenance::{Markers, NAMESPACE};

/// What the objects became.
pub struct Written {
    /// The text of `main.tf`: one resource per object.
    pub main: String,
    /// Node name → the resources of the objects it wrote (their `toscana.io/node`
    /// annotation), for `get_attribute` in outputs.
    pub by_node: HashMap<String, Vec<Address>>,
}

/// The objects of `topology` (read with every `get_input` a call, for the variables) as
/// resources; `vars` names each input's variable. `None` when there was an error, reported.
pub fn write(
    topology: &Topology,
    vars: &HashMap<String, String>,
    sources: &mut SourceMap,
    reread: Option<&RereadFn<'_>>,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Option<Written> {
    let Some(reread) = reread else {
        diags.push(internal("the input cannot be read a second time"));
        return None;
    };
    // No text read holds a marker's first character, so no template can hold a marker.
    let markers = if sources.files().any(|(_, f)| f.text.contains('\u{E000}')) {
        Markers::none()
    } else {
        Markers::new(topology, vars)
    };
    // As `toscana k8s` reads it; an input without a value is its marker (then a variable).
    let valued = first_read(reread, &[markers.bindings(topology, false), Vec::new()]);
    let Some(valued) = valued else {
        diags.push(internal("the input does not read with its inputs' values"));
        return None;
    };
    let engine = Engine::load(builtin("kubernetes"), None, sources, limits, diags)?;
    let objects = build(&engine, &valued, sources, limits, diags)?;
    // The same with every string input a marker; its problems were the first build's.
    let marked = first_read(reread, &[markers.bindings(topology, true)])
        .and_then(|read| build(&engine, &read, sources, limits, &mut Diagnostics::new()))
        .unwrap_or_default();
    let marked: HashMap<(String, String), &Object<Json>> = marked
        .iter()
        .map(|o| ((o.kind.clone(), markers.with_values(&o.name)), o))
        .collect();
    // The same with every number, boolean and size input moved ([`moved`]).
    let moves = Moves::new(topology, vars);
    let moved = if moves.is_empty() {
        Vec::new()
    } else {
        let mut bindings = markers.bindings(topology, false);
        bindings.extend(moves.bindings());
        first_read(reread, &[bindings])
            .and_then(|read| build(&engine, &read, sources, limits, &mut Diagnostics::new()))
            .unwrap_or_default()
    };
    let moved: HashMap<(String, String), &Object<Json>> = moved
        .iter()
        .map(|o| ((o.kind.clone(), o.name.clone()), o))
        .collect();
    let data = data::data();
    let mut addresses: HashMap<(String, String), Address> = HashMap::new();
    let mut why_manifest: Vec<Option<String>> = Vec::new();
    let mut labels: HashSet<(String, String)> = HashSet::new();
    for o in &objects {
        let (resource, why, base) = match hcl::typed_resource(data, &o.body) {
            Ok(resource) => (resource, None, o.name.to_snake_case()),
            Err(why) => (
                "kubernetes_manifest".to_string(),
                Some(why),
                format!("{}_{}", o.kind, o.name).to_snake_case(),
            ),
        };
        let label = unique_label(&resource, &base, &mut labels);
        addresses.insert(
            (o.kind.clone(), o.name.clone()),
            Address { resource, label },
        );
        why_manifest.push(why);
    }
    let writer = hcl::Writer {
        data,
        markers: &markers,
        moves: &moves,
        addresses: &addresses,
    };
    let mut main = String::new();
    let mut by_node: HashMap<String, Vec<Address>> = HashMap::new();
    for (o, why) in objects.iter().zip(&why_manifest) {
        let address = &addresses[&(o.kind.clone(), o.name.clone())];
        let cluster_scoped = data.cluster_scoped.contains(&o.kind);
        let a = namespaced(&o.body, cluster_scoped);
        let key = (o.kind.clone(), o.name.clone());
        let b = marked
            .get(&key)
            .map(|m| namespaced(&m.body, cluster_scoped));
        let c = moved.get(&key).map(|m| namespaced(&m.body, cluster_scoped));
        if !main.is_empty() {
            main.push('\n');
        }
        if let Some(why) = why {
            main.push_str(&format!("# A {} as it is: {why}.\n", o.kind));
        }
        let partners = hcl::Partners {
            marked: b.as_ref(),
            moved: c.as_ref(),
        };
        main.push_str(&writer.resource(address, &a, partners));
        if let Some(node) = o.body.pointer("/metadata/annotations/toscana.io~1node") {
            let node = node.as_str().unwrap_or_default().to_string();
            by_node.entry(node).or_default().push(address.clone());
        }
    }
    for variable in markers.sensitive_values_in(&main) {
        diags.push(
            Diagnostic::warning(
                codes::TF_UNEXPRESSED,
                format!(
                    "the value of the sensitive variable `{variable}` is written into main.tf: toscana chose something from it at translation (a name, an image), so it cannot be the variable there"
                ),
            )
            .hint("use the input only where its value is passed on as it is (an environment variable, a Secret), or give it with --set a value that may be seen"),
        );
    }
    Some(Written { main, by_node })
}

/// Each node's address, for `get_attribute` in outputs: the resource of the object it wrote
/// whose type its rule names (`bind.resource`: a load balancer's Service), or none when it
/// wrote no such object. The objects carry their scripts, so no artifact is copied.
pub fn use_objects(
    built: &mut super::nodes::Built<'_>,
    topology: &Topology,
    by_node: &HashMap<String, Vec<Address>>,
) {
    for (node, r) in topology.nodes.iter().zip(&mut built.refs) {
        let Some(wanted) = r
            .address
            .as_ref()
            .and_then(|a| a.split_once('.'))
            .map(|a| a.0)
        else {
            continue;
        };
        r.address = by_node.get(&node.name).and_then(|objects| {
            objects
                .iter()
                .find(|o| o.resource == wanted)
                .map(|o| format!("{}.{}", o.resource, o.label))
        });
    }
    built.artifacts.clear();
}

/// The first of the reads with these bindings that reads without errors.
fn first_read(reread: &RereadFn<'_>, attempts: &[Vec<(String, Value)>]) -> Option<Reread> {
    let mut tried: Vec<&Vec<(String, Value)>> = Vec::new();
    for bindings in attempts {
        if tried.contains(&bindings) {
            continue;
        }
        tried.push(bindings);
        if let Some(read) = reread(bindings) {
            return Some(read);
        }
    }
    None
}

/// The checked objects of a read, as `toscana k8s` builds them.
fn build(
    engine: &Engine,
    read: &Reread,
    sources: &mut SourceMap,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Option<Vec<Object<Json>>> {
    let topology = match crate::ir::validate(&read.topology) {
        Ok(valid) => valid,
        Err(problems) => {
            diags.push(internal(&format!(
                "the topology read with the inputs' values is inconsistent: {}",
                problems.join("; ")
            )));
            return None;
        }
    };
    let options = K8sOptions {
        outputs_written: true,
        ..K8sOptions::default()
    };
    let built = kubernetes::build::<Json>(
        engine,
        topology,
        sources,
        &read.artifacts,
        limits,
        &options,
        diags,
    )?;
    Some(built.objects)
}

/// The object with `metadata.namespace` the namespace variable, unless it has one or its kind
/// has none.
fn namespaced(object: &Json, cluster_scoped: bool) -> Json {
    let mut object = object.clone();
    if !cluster_scoped && let Some(Json::Object(metadata)) = object.get_mut("metadata") {
        metadata
            .entry("namespace")
            .or_insert_with(|| Json::String(NAMESPACE.to_string()));
    }
    object
}

/// A resource name unique among the resources of its type: snake_case, starting with a
/// letter, `_2`, `_3`... on clashes.
fn unique_label(resource: &str, base: &str, taken: &mut HashSet<(String, String)>) -> String {
    let mut base: String = base
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !base.starts_with(|c: char| c.is_ascii_alphabetic()) {
        base = format!("k_{base}");
    }
    let mut label = base.clone();
    let mut n = 2;
    while !taken.insert((resource.to_string(), label.clone())) {
        label = format!("{base}_{n}");
        n += 1;
    }
    label
}

fn internal(what: &str) -> Diagnostic {
    Diagnostic::error(
        codes::TF_INTERNAL,
        format!("internal error: {what}, so the Kubernetes objects cannot be written"),
    )
    .hint("this is a bug in toscana; nothing was written. Please report it with the input")
}
