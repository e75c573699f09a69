//! Which image a workload runs, and what is wrong with it: the base image of a lifted server
//! from its `os` capability (the rules' `os_images`, with the releases out of support or
//! without an image warned), and a container image that names no tag.

use serde_json::Value as Json;

use crate::diag::{Diagnostics, codes};
use crate::ir::Value;

use super::super::values::literal_text;
use super::*;

impl Ctx<'_> {
    /// The image for a server's `os` capability, by the rules' `os_images` table.
    pub(super) fn base_image(
        &mut self,
        root: usize,
        bind: &Json,
        diags: &mut Diagnostics,
    ) -> String {
        let default = json_str(bind, "default_image")
            .unwrap_or("ubuntu:24.04")
            .to_string();
        let os = self.node(root).capabilities.values().find(|c| {
            c.types.iter().any(|t| t.ends_with("OperatingSystem"))
                || c.properties.contains_key("distribution")
        });
        let Some(os) = os else { return default };
        let distribution = os.properties.get("distribution").and_then(Value::as_str);
        let os_type = os.properties.get("type").and_then(Value::as_str);
        let version = os.properties.get("version").and_then(literal_text);
        let table = bind
            .get("os_images")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        let key = distribution.or(os_type).map(str::to_ascii_lowercase);
        let Some(key) = key else { return default };
        let Some(entry) = table.iter().find(|e| {
            json_strings(e, "names")
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&key))
        }) else {
            let d = self.warn(
                codes::K8S_UNSUPPORTED,
                os.location,
                format!("no base image is known for the operating system `{key}` of `{}`; using {default}", self.node(root).name),
                "add the distribution to `os_images` in the rules (--backend-dir)",
            );
            diags.push(d);
            return default;
        };
        let default_version = json_str(entry, "default_version").map(str::to_string);
        let mut version = version
            .or_else(|| default_version.clone())
            .unwrap_or_else(|| "latest".to_string());
        let major_of = |v: &str| v.split('.').next().unwrap_or(v).to_string();
        let major_number = major_of(&version).parse::<i64>().ok();
        let supported_from = entry.get("supported_from").and_then(Json::as_i64);
        let first = entry.get("first_major").and_then(Json::as_i64);
        if let (Some(m), Some(from)) = (major_number, supported_from)
            && m < from
        {
            let missing = first.is_some_and(|f| m < f);
            let (what, instead) = match (&default_version, missing) {
                (Some(d), true) => (
                    "has no image at all",
                    format!("; using version {d} instead"),
                ),
                _ => ("is out of support", String::new()),
            };
            let d = self.warn(
                codes::K8S_UNSUPPORTED,
                os.location,
                format!(
                    "`{key}` {version} of `{}` {what} (supported from {from}){instead}",
                    self.node(root).name
                ),
                "move the stack to a supported release, and set the `os` capability's `version` to it",
            );
            diags.push(d);
            if missing && let Some(d) = default_version {
                version = d;
            }
        }
        let major = major_of(&version);
        json_str(entry, "image")
            .unwrap_or(&default)
            .replace("{version}", &version)
            .replace("{major}", &major)
    }

    /// Warns when the container image of `plan` names neither a tag nor a digest.
    pub(super) fn warn_unpinned(&mut self, plan: &Plan, diags: &mut Diagnostics) {
        let (location, name) = (
            self.node(plan.owner).location,
            self.node(plan.owner).name.clone(),
        );
        if let Some(image) = plan.image.as_deref()
            && !is_pinned(image)
        {
            let d = self.warn(
                codes::K8S_UNSUPPORTED,
                location,
                format!("the image `{image}` of `{name}` names no tag: the cluster runs whatever `latest` is when it pulls"),
                "pin the image to a version tag or a digest (mysql:8.4, or name@sha256:...)",
            );
            diags.push(d);
        }
    }
}

/// True when an image reference names a tag or a digest: `mysql:8.4`, `name@sha256:...`, but
/// not `mysql` or `registry:5000/app` (a registry port is no tag).
fn is_pinned(image: &str) -> bool {
    let last = image.rsplit('/').next().unwrap_or(image);
    image.contains('@') || last.contains(':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_is_pinned_by_a_tag_or_a_digest() {
        assert!(is_pinned("mysql:8.4"));
        assert!(is_pinned("registry:5000/app:1.2"));
        assert!(is_pinned("app@sha256:abc"));
        assert!(!is_pinned("mysql"));
        assert!(!is_pinned("registry:5000/app"));
    }
}
