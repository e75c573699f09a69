//! What the templates wrote, checked: each document is read into JSON (as JSON when it is
//! JSON, else straight from the YAML parser's events, or with our own loader when an error
//! needs its spans), deserialized into its `k8s-openapi` type by `apiVersion` and `kind`, serialized back and
//! compared ([`super::survives`] compares while serializing; the full comparison runs only to
//! name a loss). A field the type does not know, a value of the wrong shape or anything else lost on
//! the way is a bug in the template that wrote it, reported as `k8s::internal` naming the
//! template; the run fails. What survives is written with `serde-saphyr`, which quotes `on`,
//! `yes`, `no` and every other string a YAML 1.1 reader would take for something else.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value as Json;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::limits::Limits;
use crate::source::{Origin, SourceMap, Span};
use crate::yaml::{Core, Kind, Node};

/// One checked Kubernetes object, ready to write, in the form `F` its writer takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object<F> {
    pub kind: String,
    pub name: String,
    pub body: F,
}

/// The form a checked object is kept in: what its writer writes, and nothing more. Every object
/// of a topology is held until all are checked and sorted, so a second form kept beside the
/// first doubled `toscana k8s`'s peak memory (5.8 GB at 100,000 nodes, see
/// `docs/performance.md`).
pub trait Form: Sized {
    /// The kept form of an object that passed the check: `json` as read, `typed` as its
    /// Kubernetes type holds it.
    fn keep<T: Serialize>(json: Json, typed: &T) -> Result<Self, String>;
}

/// The object as YAML, one document ending with a newline, written from its Kubernetes type
/// (`toscana k8s`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Yaml(pub String);

impl Form for Yaml {
    fn keep<T: Serialize>(_json: Json, typed: &T) -> Result<Yaml, String> {
        serde_saphyr::to_string(typed)
            .map(Yaml)
            .map_err(|e| e.to_string())
    }
}

/// The object as JSON, as the template wrote it, for the writers of other formats (`toscana
/// tf --provider kubernetes` writes it as HCL).
impl Form for Json {
    fn keep<T: Serialize>(json: Json, _typed: &T) -> Result<Json, String> {
        Ok(json)
    }
}

/// Splits a rendered fragment into its YAML documents at `---` lines, dropping empty ones. Each
/// document is the text between two separator lines, so it is borrowed, not copied.
pub fn split_documents(text: &str) -> Vec<&str> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "---" {
            docs.push(&text[start..at]);
            start = at + line.len();
        }
        at += line.len();
    }
    docs.push(&text[start..]);
    docs.retain(|d| {
        d.lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
    });
    docs
}

/// A YAML tree as JSON: the core schema's nulls, booleans, integers, floats and strings; maps
/// with string keys.
pub fn to_json(node: &Node) -> Result<Json, String> {
    Ok(match &node.kind {
        Kind::Scalar(s) => match s.core {
            Core::Null => Json::Null,
            Core::Bool(b) => Json::Bool(b),
            Core::Int(i) => Json::from(i),
            Core::Float(f) => serde_json::Number::from_f64(f)
                .map(Json::Number)
                .ok_or_else(|| format!("the number `{}` is not finite", s.text))?,
            Core::Str => Json::String(s.text.to_string()),
        },
        Kind::Seq(items) => Json::Array(items.iter().map(to_json).collect::<Result<_, _>>()?),
        Kind::Map(map) => {
            let mut out = serde_json::Map::new();
            for entry in map.entries() {
                let key = entry
                    .key
                    .scalar_text()
                    .ok_or("a map key is not a scalar")?
                    .to_string();
                out.insert(key, to_json(&entry.value)?);
            }
            Json::Object(out)
        }
    })
}

/// Reads one rendered document, checks it against its Kubernetes type, and writes it back.
/// `who` says which template rendered it for which element, for the error; `element` is where
/// that element is written, where a value of it that Kubernetes cannot take is reported.
///
/// Nearly every document checks out and needs no spans: a JSON document (what the built-in
/// templates write) is read as JSON ([`super::json_doc`]), a plain YAML one straight into JSON
/// ([`crate::yaml::plain_json`]). Anything else, and any document that fails the check, is
/// read again with the loader, whose spans and messages the error then carries.
pub fn check_document<F: Form>(
    text: &str,
    who: &str,
    element: Option<Span>,
    sources: &mut SourceMap,
    diags: &mut Diagnostics,
) -> Option<Object<F>> {
    let limits = Limits::default();
    if let Some(json) =
        super::json_doc::read(text, &limits).or_else(|| crate::yaml::plain_json(text, &limits))
        && let Ok(object) = roundtrip(json)
    {
        return Some(object);
    }
    check_with_spans(text, who, element, sources, diags)
}

/// [`check_document`] with the loader's tree, so an error can point into the document.
fn check_with_spans<F: Form>(
    text: &str,
    who: &str,
    element: Option<Span>,
    sources: &mut SourceMap,
    diags: &mut Diagnostics,
) -> Option<Object<F>> {
    // The text joins the run's sources only when an error points into it: thousands of
    // objects that check out need not stay in memory until the end.
    let mut scratch = SourceMap::new();
    let id = scratch.add(
        format!("<rendered by {who}>"),
        Origin::Builtin(format!("rendered/{who}")),
        text,
    );
    let loaded = crate::yaml::load_own(&scratch, id, &Limits::default());
    let bug = |message: String| {
        Diagnostic::error(
            codes::K8S_INTERNAL,
            format!("{who} wrote an object that is not valid Kubernetes: {message}"),
        )
        .hint("this is a bug in the template (toscana's own, or one given with --backend-dir), not in your TOSCA file; please report it with the input")
    };
    // Whatever the loader finds in a document a template wrote is the template's bug: an
    // error, and a warning too (an integer past 64 bits read as a string is a value the
    // template left unquoted).
    let root = match loaded {
        Ok(root) => root,
        Err(found) => {
            let why: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
            diags.push(bug(format!("its YAML does not read: {}", why.join("; "))));
            return None;
        }
    };
    let json = match to_json(&root) {
        Ok(j) => j,
        Err(e) => {
            diags.push(bug(e));
            return None;
        }
    };
    match roundtrip(json) {
        Ok(object) => Some(object),
        Err((e, path)) => {
            if let Some(d) = out_of_range(&e, &root, who, element) {
                diags.push(d);
                return None;
            }
            let mut d = bug(e);
            if let Some(node) = path.as_deref().and_then(|p| find(&root, p)) {
                let file = scratch.get(id);
                let kept = sources.add(file.name.clone(), file.origin.clone(), file.text.clone());
                d = d.at(Span {
                    file: kept,
                    ..node.span
                });
            }
            diags.push(d);
            None
        }
    }
}

/// The error of an integer the template wrote faithfully that the Kubernetes field cannot hold
/// (a replica count past 2^31): a value of the element out of range, reported where the
/// element is written, not a bug of the template. `None` for any other error.
fn out_of_range(error: &str, root: &Node, who: &str, element: Option<Span>) -> Option<Diagnostic> {
    // serde's words for an integer that does not fit the field's type: "invalid value:
    // integer `9007199254740993`, expected i32" (deserializing JSON gives no path).
    let (value, expected) = error
        .strip_prefix("invalid value: integer `")?
        .split_once("`, expected ")?;
    let value: i64 = value.parse().ok()?;
    let path = int_path(root, value)?;
    let range = match expected {
        "i32" => "a 32-bit integer (-2147483648 to 2147483647)",
        "u32" => "an unsigned 32-bit integer (0 to 4294967295)",
        "i64" => "a 64-bit integer",
        "u64" => "an unsigned 64-bit integer (0 or more)",
        _ => return None,
    };
    let d = Diagnostic::error(
        codes::K8S_UNSUPPORTED,
        format!("{who} writes {value} at `{path}`, which Kubernetes holds as {range}"),
    )
    .hint("give the element a value Kubernetes can hold there");
    Some(match element {
        Some(span) => d.at(span),
        None => d,
    })
}

/// The dotted path (`spec.maxReplicas`) of the first integer `value` in a YAML tree.
fn int_path(root: &Node, value: i64) -> Option<String> {
    fn steps(node: &Node, value: i64) -> Option<String> {
        match &node.kind {
            Kind::Scalar(s) => (s.core == Core::Int(value)).then(String::new),
            Kind::Seq(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, item)| steps(item, value).map(|rest| format!("[{i}]{rest}"))),
            Kind::Map(map) => map.entries().iter().find_map(|e| {
                let key = e.key.scalar_text()?;
                steps(&e.value, value).map(|rest| format!(".{key}{rest}"))
            }),
        }
    }
    steps(root, value).map(|p| p.trim_start_matches('.').to_string())
}

/// The node at a dotted path (`spec.ports[0].port`) of a YAML tree.
fn find<'n>(root: &'n Node, path: &str) -> Option<&'n Node> {
    let mut at = root;
    for part in path.split('.') {
        let (key, indexes) = part
            .split_once('[')
            .map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            at = at.as_map()?.get(key)?;
        }
        for index in indexes.split('[').filter(|s| !s.is_empty()) {
            let i: usize = index.trim_end_matches(']').parse().ok()?;
            at = at.as_seq()?.get(i)?;
        }
    }
    Some(at)
}

/// Deserializes `json` into the type its `apiVersion`/`kind` name, serializes it back, and
/// fails on anything lost, with the path of the first loss.
pub fn roundtrip<F: Form>(json: Json) -> Result<Object<F>, (String, Option<String>)> {
    use k8s_openapi::api::{apps, autoscaling, batch, core, networking, policy, rbac};
    let api = json.get("apiVersion").and_then(Json::as_str).unwrap_or("");
    let kind = json.get("kind").and_then(Json::as_str).unwrap_or("");
    match (api, kind) {
        ("v1", "ConfigMap") => typed::<core::v1::ConfigMap, F>(json),
        ("v1", "Secret") => typed::<core::v1::Secret, F>(json),
        ("v1", "Service") => typed::<core::v1::Service, F>(json),
        ("v1", "PersistentVolumeClaim") => typed::<core::v1::PersistentVolumeClaim, F>(json),
        ("v1", "Namespace") => typed::<core::v1::Namespace, F>(json),
        ("v1", "ServiceAccount") => typed::<core::v1::ServiceAccount, F>(json),
        ("v1", "Pod") => typed::<core::v1::Pod, F>(json),
        ("apps/v1", "Deployment") => typed::<apps::v1::Deployment, F>(json),
        ("apps/v1", "StatefulSet") => typed::<apps::v1::StatefulSet, F>(json),
        ("apps/v1", "DaemonSet") => typed::<apps::v1::DaemonSet, F>(json),
        ("batch/v1", "Job") => typed::<batch::v1::Job, F>(json),
        ("batch/v1", "CronJob") => typed::<batch::v1::CronJob, F>(json),
        ("autoscaling/v2", "HorizontalPodAutoscaler") => {
            typed::<autoscaling::v2::HorizontalPodAutoscaler, F>(json)
        }
        ("networking.k8s.io/v1", "NetworkPolicy") => {
            typed::<networking::v1::NetworkPolicy, F>(json)
        }
        ("networking.k8s.io/v1", "Ingress") => typed::<networking::v1::Ingress, F>(json),
        ("policy/v1", "PodDisruptionBudget") => typed::<policy::v1::PodDisruptionBudget, F>(json),
        ("rbac.authorization.k8s.io/v1", "Role") => typed::<rbac::v1::Role, F>(json),
        ("rbac.authorization.k8s.io/v1", "RoleBinding") => typed::<rbac::v1::RoleBinding, F>(json),
        // The kinds a Kubernetes profile may write besides (`profile`).
        ("v1", "PersistentVolume") => typed::<core::v1::PersistentVolume, F>(json),
        ("v1", "LimitRange") => typed::<core::v1::LimitRange, F>(json),
        ("v1", "ResourceQuota") => typed::<core::v1::ResourceQuota, F>(json),
        ("v1", "ReplicationController") => typed::<core::v1::ReplicationController, F>(json),
        ("v1", "Endpoints") => typed::<core::v1::Endpoints, F>(json),
        ("apps/v1", "ReplicaSet") => typed::<apps::v1::ReplicaSet, F>(json),
        ("networking.k8s.io/v1", "IngressClass") => typed::<networking::v1::IngressClass, F>(json),
        ("rbac.authorization.k8s.io/v1", "ClusterRole") => typed::<rbac::v1::ClusterRole, F>(json),
        ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding") => {
            typed::<rbac::v1::ClusterRoleBinding, F>(json)
        }
        ("storage.k8s.io/v1", "StorageClass") => {
            typed::<k8s_openapi::api::storage::v1::StorageClass, F>(json)
        }
        ("", _) | (_, "") => Err(("it has no `apiVersion` and `kind`".to_string(), None)),
        _ => Err((
            format!("toscana does not know the kind `{kind}` of `{api}`, so it cannot check it"),
            None,
        )),
    }
}

fn typed<T: DeserializeOwned + Serialize, F: Form>(
    json: Json,
) -> Result<Object<F>, (String, Option<String>)> {
    let plain = |e: String| (e, None);
    let value = T::deserialize(&json).map_err(|e| plain(e.to_string()))?;
    // Nothing lost, so the typed object's kind and name are those `json` holds.
    let checked = if super::survives::survives(&json, &value) {
        kind_and_name(&json)
    } else {
        None
    };
    let (kind, name) = match checked {
        Some(found) => found,
        None => exact_check(&json, &value)?,
    };
    let body = F::keep(json, &value).map_err(plain)?;
    Ok(Object { kind, name, body })
}

/// The `kind` and `metadata.name` of an object, when both are strings.
fn kind_and_name(json: &Json) -> Option<(String, String)> {
    let kind = json.get("kind")?.as_str()?;
    let name = json.pointer("/metadata/name")?.as_str()?;
    Some((kind.to_string(), name.to_string()))
}

/// The round trip compared in full: `value` serialized to JSON, the first loss named by its
/// path, the kind and name read from what the type wrote.
fn exact_check<T: Serialize>(
    json: &Json,
    value: &T,
) -> Result<(String, String), (String, Option<String>)> {
    let plain = |e: String| (e, None);
    let back = serde_json::to_value(value).map_err(|e| plain(e.to_string()))?;
    if let Some(path) = first_difference(json, &back) {
        return Err((
            format!(
                "`{path}` does not survive the round trip through its Kubernetes type (an unknown field, or a value of the wrong shape)"
            ),
            Some(path),
        ));
    }
    let kind = back
        .get("kind")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    let name = back
        .pointer("/metadata/name")
        .and_then(Json::as_str)
        .ok_or_else(|| plain("it has no `metadata.name`".to_string()))?
        .to_string();
    Ok((kind, name))
}

/// The path of the first place where `a` holds something `b` does not, or a different value
/// (`spec.ports[0].port`). The path is spelled out only once a difference is found.
pub(super) fn first_difference(a: &Json, b: &Json) -> Option<String> {
    let mut steps = Vec::new();
    if !differs(a, b, &mut steps) {
        return None;
    }
    let mut path = String::new();
    for step in steps.iter().rev() {
        match step {
            Step::Key(k) if path.is_empty() => path.push_str(k),
            Step::Key(k) => {
                path.push('.');
                path.push_str(k);
            }
            Step::Index(i) => path.push_str(&format!("[{i}]")),
        }
    }
    Some(path)
}

/// One step of a path into a JSON document.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// True when `a` holds something `b` does not; `steps` then holds the way to it, innermost
/// first.
fn differs<'a>(a: &'a Json, b: &Json, steps: &mut Vec<Step<'a>>) -> bool {
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => {
            // Only losses count: the typed object may add `apiVersion` and `kind` to embedded
            // objects (a StatefulSet's claim templates).
            for (k, v) in x {
                let lost = match y.get(k) {
                    Some(w) => differs(v, w, steps),
                    None => true,
                };
                if lost {
                    steps.push(Step::Key(k));
                    return true;
                }
            }
            false
        }
        (Json::Array(x), Json::Array(y)) => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if differs(v, w, steps) {
                    steps.push(Step::Index(i));
                    return true;
                }
            }
            x.len() != y.len()
        }
        (Json::Number(x), Json::Number(y)) => {
            use super::survives::{Num, same_number};
            !same_number(Num::of(x), Num::of(y))
        }
        _ => a != b,
    }
}

/// The file name of an object: `<kind>-<name>.yaml`, kind in lower case.
pub fn file_name<F>(object: &Object<F>) -> String {
    format!("{}-{}.yaml", object.kind.to_ascii_lowercase(), object.name)
}

/// A `kustomization.yaml` listing `files` (and the namespace, when given).
pub fn kustomization(files: &[String], namespace: Option<&str>) -> String {
    let mut out =
        String::from("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n");
    if let Some(ns) = namespace {
        out.push_str(&format!("namespace: {ns}\n"));
    }
    out.push_str("resources:\n");
    for f in files {
        out.push_str(&format!("  - {f}\n"));
    }
    out
}
