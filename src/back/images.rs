//! Which container image a workload runs, from the one image table `backends/images.yaml`,
//! shared by `toscana k8s` and `toscana tf --provider kubernetes` so that both run the same image
//! for the same node: the base image of a lifted server by its `os` capability, a database
//! product's image, and an image the template names itself, with what is wrong with each (no
//! image for that release, out of support, no tag).
//!
//! Each backend words nothing itself: it gets [`Finding`]s (message and hint) and reports them
//! with its own code and the node's place.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::ir::Value;

/// The data of `backends/images.yaml` (its header says what each key means).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    default: String,
    docker_hub: Vec<String>,
    operating_systems: Vec<Entry>,
    products: Vec<Entry>,
    non_root: Vec<NonRoot>,
}

/// Images whose own user is not root.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NonRoot {
    repositories: Vec<String>,
    user: i64,
    #[serde(default)]
    group: Option<i64>,
}

/// The user an image runs as, when it is not root: what a "restricted" pod needs to name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageUser {
    pub user: i64,
    pub group: Option<i64>,
}

/// The non-root user the image reference `image` runs as, from the table's `non_root` (by the
/// image's name, [`repository`]); `None` when the table does not know it to run as non-root.
pub fn non_root_user(image: &str) -> Option<ImageUser> {
    let name = repository(image);
    table()
        .non_root
        .iter()
        .find(|e| e.repositories.iter().any(|r| r == name))
        .map(|e| ImageUser {
            user: e.user,
            group: e.group,
        })
}

/// One operating system or product of the table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    /// A product's name (operating systems are found by `names`).
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    repositories: Vec<String>,
    image: String,
    #[serde(default)]
    default_version: Option<String>,
    /// major → its newest release, for a template that names only the major.
    #[serde(default)]
    releases: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    supported_from: Option<String>,
    #[serde(default)]
    first_major: Option<u64>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let text = include_str!("../../backends/images.yaml");
        let json = crate::yaml::plain_json(text, &crate::limits::Limits::default())
            .expect("backends/images.yaml is plain YAML");
        serde_json::from_value(json).expect("backends/images.yaml has the keys of Table")
    })
}

/// Something wrong with an image a node asks for, worded for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub message: String,
    pub hint: String,
}

/// The image chosen for a node, and what is wrong with what the node asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub image: String,
    pub findings: Vec<Finding>,
}

/// What names the operating system of an `os` capability for [`for_os`]: its `distribution`,
/// else its `type`, read through the ledger. Beside a distribution, a `type` of `linux` is
/// read too, since every base image of the table is a Linux system: the image carries it.
/// Any other `type` beside a distribution is not carried, and so not read.
pub fn os_system<'t>(os: crate::back::CapabilityReader<'t, '_>) -> Option<&'t Value> {
    let distribution = os.get("distribution").filter(|v| !matches!(v, Value::Null));
    if distribution.is_none() {
        return os.get("type");
    }
    let linux = os
        .peek("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("linux"));
    if linux {
        os.get("type");
    }
    distribution
}

/// The base image of the lifted server `node`, whose `os` capability names `system` (its
/// `distribution`, else its `type`; `None` when it names neither) in `version`.
pub fn for_os(node: &str, system: Option<&str>, version: Option<&str>) -> Choice {
    let t = table();
    let Some(system) = system.map(str::to_ascii_lowercase) else {
        return Choice {
            image: t.default.clone(),
            findings: Vec::new(),
        };
    };
    let entry = t
        .operating_systems
        .iter()
        .find(|e| e.names.iter().any(|n| n.eq_ignore_ascii_case(&system)));
    match entry {
        Some(entry) => choose(entry, &system, node, version),
        None => Choice {
            image: t.default.clone(),
            findings: vec![Finding {
                message: format!(
                    "no base image is known for the operating system `{system}` of `{node}`; using {}",
                    t.default
                ),
                hint: "give the `os` capability a distribution of backends/images.yaml (ubuntu, debian, rhel, ...)".to_string(),
            }],
        },
    }
}

/// The image of the database `product` (a name of the table's `products`) that `node` runs in
/// `version`; `None` when the table has no such product.
pub fn for_product(node: &str, product: &str, version: Option<&str>) -> Option<Choice> {
    let entry = table()
        .products
        .iter()
        .find(|e| e.name.as_deref() == Some(product))?;
    Some(choose(entry, product, node, version))
}

/// What is wrong with the image reference `image` that `node` names itself: no tag or digest,
/// or a release of a system or product of the table that is out of support.
pub fn check_named(node: &str, image: &str) -> Vec<Finding> {
    if !is_pinned(image) {
        return vec![Finding {
            message: format!(
                "the image `{image}` of `{node}` names no tag: the cluster runs whatever `latest` is when it pulls"
            ),
            hint: "pin the image to a version tag or a digest (mysql:8.4, or name@sha256:...)"
                .to_string(),
        }];
    }
    let Some((repository, tag)) = repository_and_tag(image) else {
        return Vec::new();
    };
    let t = table();
    let Some(entry) = t
        .operating_systems
        .iter()
        .chain(&t.products)
        .find(|e| e.repositories.iter().any(|r| r == repository))
    else {
        return Vec::new();
    };
    match out_of_support(entry, tag) {
        Some(from) => vec![Finding {
            message: format!(
                "the image `{image}` of `{node}` is a release out of support (supported from {from})"
            ),
            hint: format!(
                "use a supported release of {repository} (the table's default is {})",
                {
                    let version = entry.default_version.as_deref().unwrap_or("latest");
                    fill(&entry.image, &release_of(entry, version))
                }
            ),
        }],
        None => Vec::new(),
    }
}

/// The reference of an image artifact's `file` in the repository at `url`: the host and path
/// before the file, or the file alone for Docker Hub (the table's `docker_hub` hosts).
pub fn image_ref(file: &str, url: Option<&str>) -> String {
    let Some(url) = url else {
        return file.to_string();
    };
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.trim_end_matches('/');
    let host = rest.split('/').next().unwrap_or("");
    if rest.is_empty()
        || table()
            .docker_hub
            .iter()
            .any(|h| h.eq_ignore_ascii_case(host))
    {
        return file.to_string();
    }
    // A registry URL's API path (`/v2`) is not part of image names.
    let rest = rest.strip_suffix("/v2").unwrap_or(rest);
    format!("{rest}/{}", file.trim_start_matches('/'))
}

/// The image of `entry` for the release `version` (or its default), with a finding when that
/// release has no image (the default is used) or is out of support.
fn choose(entry: &Entry, what: &str, node: &str, version: Option<&str>) -> Choice {
    let default = entry.default_version.as_deref();
    let mut version = release_of(entry, version.or(default).unwrap_or("latest"));
    let mut findings = Vec::new();
    let major = major_of(&version);
    if let (Some(m), Some(first), Some(d)) = (major, entry.first_major, default)
        && m < first
    {
        findings.push(Finding {
            message: format!(
                "`{what}` {version} of `{node}` has no image at all (the first is {first}); using version {d} instead"
            ),
            hint: "move the stack to a supported release, and set the `os` capability's `version` (or the `component_version`) to it".to_string(),
        });
        version = release_of(entry, d);
    } else if let Some(from) = out_of_support(entry, &version) {
        findings.push(Finding {
            message: format!(
                "`{what}` {version} of `{node}` is out of support (supported from {from})"
            ),
            hint: "move the stack to a supported release, and set the `os` capability's `version` (or the `component_version`) to it".to_string(),
        });
    }
    Choice {
        image: fill(&entry.image, &version),
        findings,
    }
}

/// `version` as the release the image is tagged with: a bare major becomes its newest release
/// when the entry lists one (`22` → `22.04`).
fn release_of(entry: &Entry, version: &str) -> String {
    entry
        .releases
        .get(version)
        .cloned()
        .unwrap_or_else(|| version.to_string())
}

/// `image` with `{version}` and `{major}` filled in.
fn fill(image: &str, version: &str) -> String {
    let major = version.split('.').next().unwrap_or(version);
    image
        .replace("{version}", version)
        .replace("{major}", major)
}

/// `Some(supported_from)` when `version` is a release below the entry's `supported_from`,
/// compared on the numbers both name (`22` is not below `22.04`, `20.04` is).
fn out_of_support<'e>(entry: &'e Entry, version: &str) -> Option<&'e str> {
    let from = entry.supported_from.as_deref()?;
    let (have, want) = (numbers(version)?, numbers(from)?);
    let n = have.len().min(want.len());
    (have[..n] < want[..n]).then_some(from)
}

/// The leading dotted numbers of a release (`14.04` → [14, 4], `8.4.2-debian` → [8, 4, 2]);
/// `None` when it starts with no number (`latest`, `stream9`).
fn numbers(version: &str) -> Option<Vec<u64>> {
    let mut out = Vec::new();
    for part in version.split('.') {
        let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
        let Ok(n) = digits.parse() else { break };
        out.push(n);
        if digits.len() < part.len() {
            break;
        }
    }
    (!out.is_empty()).then_some(out)
}

fn major_of(version: &str) -> Option<u64> {
    numbers(version).and_then(|n| n.first().copied())
}

/// The image name of a reference: its last path part without tag or digest
/// (`docker.io/library/mysql:8.4` → `mysql`, `mysql@sha256:...` → `mysql`), what the table's
/// `repositories` and the Kubernetes rules' products name.
pub fn repository(image: &str) -> &str {
    let name = image.split('@').next().unwrap_or(image);
    let last = name.rsplit('/').next().unwrap_or(name);
    last.split(':').next().unwrap_or(last)
}

/// The repository's last path part and the tag of a pinned reference (`docker.io/library/mysql:5.7`
/// → `mysql`, `5.7`); `None` for a digest.
fn repository_and_tag(image: &str) -> Option<(&str, &str)> {
    if image.contains('@') {
        return None;
    }
    let last = image.rsplit('/').next().unwrap_or(image);
    last.split_once(':')
}

/// True when an image reference names a tag or a digest: `mysql:8.4`, `name@sha256:...`, but
/// not `mysql` or `registry:5000/app` (a registry port is no tag).
fn is_pinned(image: &str) -> bool {
    let last = image.rsplit('/').next().unwrap_or(image);
    image.contains('@') || last.contains(':')
}

#[cfg(test)]
#[path = "images_tests.rs"]
mod tests;
