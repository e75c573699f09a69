//! Defaults a reviewer expects of every workload (issue 26, scope 4), each switchable off.
//!
//! - **Probes** (`--no-probes`): a container that declares a TCP port gets a readiness and a
//!   liveness probe on it, an HTTP `GET` of the endpoint's `url_path` (else `/`) where the
//!   endpoint's `protocol` is `http` or `https`, else a TCP connection. A startup probe on the
//!   same check holds the liveness probe back while the container starts, so that a slow first
//!   start (a database initialising its data, a lifted stack installing its packages) is not
//!   killed half-way: five minutes for an image, fifteen for a lifted stack.
//! - **securityContext** (`--no-security-context`), at the Pod Security Standards level the
//!   image allows, written in the annotation `toscana.io/pod-security`: "restricted" for an image
//!   the image table knows runs as a non-root user (`non_root` of `backends/images.yaml`:
//!   `runAsNonRoot` with that user, no privilege escalation, every capability dropped, the
//!   runtime's default seccomp profile, and the image's group as `fsGroup` so that it can write
//!   its claims); "baseline" for every other image, which starts as root (the database images
//!   chown their data folder and then drop to their user; a lifted stack's scripts install
//!   packages): no privilege escalation and the default seccomp profile, the root capabilities
//!   of the runtime's default set kept.

use serde::Serialize;

use crate::back::images;

use super::*;

/// How long a container may take to start before its liveness probe counts: periods of
/// [`PROBE_PERIOD`] seconds.
const STARTUP_PERIODS: i64 = 30;
/// The same for a lifted stack, whose scripts install its packages on every start.
const LIFTED_STARTUP_PERIODS: i64 = 90;
/// Seconds between two probes.
const PROBE_PERIOD: i64 = 10;

/// The check the probes of a container make.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Probe {
    /// The container port's name.
    port: String,
    /// `HTTP` or `HTTPS` for an `httpGet`; `None` for a `tcpSocket`.
    scheme: Option<&'static str>,
    path: String,
    period: i64,
    startup_failures: i64,
}

/// A workload's securityContext and its Pod Security Standards level.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Security {
    /// `restricted` or `baseline`.
    pub(super) level: &'static str,
    /// The image's non-root user, for `restricted`.
    run_as_user: Option<i64>,
    /// The group that owns the claims' files, for a `restricted` workload with claims.
    fs_group: Option<i64>,
}

impl Ctx<'_> {
    /// The probes of workload `plan`'s container: on its first TCP port; `None` without one,
    /// or with `--no-probes`.
    pub(super) fn probe(&self, plan: &Plan) -> Option<Probe> {
        if self.options.no_probes {
            return None;
        }
        let port = plan.ports.iter().find(|p| p.protocol == "TCP")?;
        Some(Probe {
            port: port.name.clone(),
            scheme: port.scheme,
            path: port.path.clone().unwrap_or_else(|| "/".to_string()),
            period: PROBE_PERIOD,
            startup_failures: if is_lifted(plan) {
                LIFTED_STARTUP_PERIODS
            } else {
                STARTUP_PERIODS
            },
        })
    }

    /// The securityContext of workload `plan`; `None` with `--no-security-context`.
    pub(super) fn security(&self, plan: &Plan) -> Option<Security> {
        if self.options.no_security_context {
            return None;
        }
        let user = plan
            .image
            .as_deref()
            .filter(|_| !is_lifted(plan))
            .and_then(images::non_root_user);
        Some(match user {
            Some(u) => Security {
                level: "restricted",
                run_as_user: Some(u.user),
                fs_group: u.group.filter(|_| !plan.claim_templates.is_empty()),
            },
            None => Security {
                level: "baseline",
                run_as_user: None,
                fs_group: None,
            },
        })
    }
}

/// A lifted stack runs its scripts from the ConfigMap of its plan, as root.
fn is_lifted(plan: &Plan) -> bool {
    !plan.config.is_empty()
}

/// The scheme and path an HTTP probe uses on an endpoint.
pub(super) type Http = (Option<&'static str>, Option<String>);

/// `HTTP` or `HTTPS`, and the `url_path`, of an endpoint whose `protocol` is `http` or `https`
/// (any case); nothing for another protocol.
pub(super) fn http(endpoint: crate::back::CapabilityReader) -> Http {
    let protocol = endpoint
        .get("protocol")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase);
    let scheme = match protocol.as_deref() {
        Some("http") => "HTTP",
        Some("https") => "HTTPS",
        _ => return (None, None),
    };
    let path = endpoint
        .get("url_path")
        .and_then(Value::as_str)
        .filter(|p| p.starts_with('/'))
        .map(str::to_string);
    (Some(scheme), path)
}

/// Names the Pod Security Standards level of a workload in its annotation
/// `toscana.io/pod-security`, among the others in name order.
pub(super) fn annotate(meta: &mut Meta, security: Option<&Security>) {
    if let Some(s) = security {
        meta.annotations.push(Pair {
            key: "toscana.io/pod-security".to_string(),
            value: s.level.to_string(),
        });
        meta.annotations.sort_by(|a, b| a.key.cmp(&b.key));
    }
}
