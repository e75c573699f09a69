//! What a built-in backend's Rust reads from a rule's `bind`, checked when the mapping loads.
//!
//! A rule's `bind` is handed to its template, and the built-in backends' Rust reads it too: its
//! `role` says what the Kubernetes or Terraform backend computes for the element, and its tables
//! (database products, machine sizes, images, ...) feed that computation. A misspelt key or
//! role would silently leave the element untranslated, so for a backend of the registry every
//! top-level key of `bind` must be one it reads ([`BindSchema::keys`]), and `role` one of its
//! roles ([`BindSchema::roles`]); anything else is a `backend::rules` error at its place in the
//! mapping file, built-in or `--backend-dir`. Keys a template of your own reads go under
//! `bind.extra`, which is never checked. `render --backend-dir` (no Rust of its own) checks none.

use crate::diag::{Diagnostic, Diagnostics, codes};

use super::rules::{BindKeys, Located};

/// The `bind` keys and roles a backend's Rust reads.
#[derive(Debug, Clone, Copy)]
pub struct BindSchema {
    /// The backend's name in messages (`the kubernetes backend has no role ...`).
    pub backend: &'static str,
    /// The values `bind.role` may take.
    pub roles: &'static [&'static str],
    /// The top-level keys `bind` may have, besides `role` and `extra`.
    pub keys: &'static [&'static str],
}

/// The keys every checked `bind` may have.
const ALWAYS: &[&str] = &["role", "extra"];

impl BindSchema {
    /// Reports every key and role of `bind` this schema does not know; false when there was one.
    pub(crate) fn check(&self, bind: &BindKeys, diags: &mut Diagnostics) -> bool {
        let mut ok = true;
        for Located { text, span } in &bind.keys {
            if self.keys.contains(&text.as_str()) || ALWAYS.contains(&text.as_str()) {
                continue;
            }
            ok = false;
            let known: Vec<&str> = ALWAYS.iter().chain(self.keys).copied().collect();
            diags.push(
                Diagnostic::error(
                    codes::BACKEND_RULES,
                    format!(
                        "the {} backend reads no `{text}` in a rule's `bind`",
                        self.backend
                    ),
                )
                .at(*span)
                .did_you_mean(
                    text,
                    &known,
                    Some(format!(
                        "it reads: {}; keys for templates of your own go under `bind.extra`",
                        known.join(", ")
                    )),
                ),
            );
        }
        if let Some((role, span)) = &bind.role
            && !role.as_deref().is_some_and(|r| self.roles.contains(&r))
        {
            ok = false;
            let shown = role.as_deref().unwrap_or("this value");
            diags.push(
                Diagnostic::error(
                    codes::BACKEND_RULES,
                    format!("`{shown}` is not a role of the {} backend", self.backend),
                )
                .at(*span)
                .did_you_mean(
                    shown,
                    self.roles,
                    Some(format!("its roles are: {}", self.roles.join(", "))),
                ),
            );
        }
        ok
    }
}

/// `toscana k8s`: the roles of `backends/kubernetes/mapping.yaml`'s header and the tables its
/// rules hold.
pub const KUBERNETES: BindSchema = BindSchema {
    backend: "kubernetes",
    roles: &[
        "container",
        "compute",
        "software",
        "dbms",
        "database",
        "storage",
        "load_balancer",
        "network",
        "port",
        "placement",
        "scaling",
    ],
    keys: &[
        "cpu_utilization",
        "default_max",
        "default_size",
        "environment",
        "image_types",
        "interpreter_packages",
        "interpreters",
        "known_ports",
        "product_properties",
        "products",
        "property_env",
        "property_env_skip",
        "secret_names",
        "topology_key",
    ],
};

/// `toscana tf`: the roles of `backends/terraform/aws/mapping.yaml`'s header (every provider's).
pub const TERRAFORM: BindSchema = BindSchema {
    backend: "terraform",
    roles: &[
        "compute",
        "block_storage",
        "network",
        "port",
        "object_storage",
        "load_balancer",
        "container",
        "hosted",
        "placement",
        "scaling",
        "unsupported",
    ],
    keys: &[
        "algorithms",
        "attributes",
        "cluster_excludes",
        "cpu_utilization",
        "default_cidr",
        "default_max",
        "default_port",
        "default_size_gib",
        "devices",
        "hint",
        "ignored_properties",
        "images",
        "mount_by_id",
        "mount_xen_names",
        "public_address",
        "reason",
        "resource",
        "size_variable",
        "sizes",
        "spread_limit",
        "strategies",
        "target_group",
        "volume_type",
    ],
};

/// `toscana dot`: what its templates read of `bind` (its Rust reads `family`).
pub const GRAPHVIZ: BindSchema = BindSchema {
    backend: "graphviz",
    roles: &[],
    keys: &[
        "color",
        "family",
        "fillcolor",
        "key",
        "label",
        "shape",
        "style",
    ],
};
