//! The lifecycle scripts of the stack a machine hosts, as the machine runs them: each script
//! copied to `artifacts/` unchanged, its operation inputs as an env file, and the command that
//! runs it with its own interpreter ([`Delivery`]).

use serde_json::{Value as Json, json};

use crate::back::filters::hcl_str;
use crate::back::stack;
use crate::diag::{Diagnostic, codes};
use crate::ir::NodeId;

use super::super::scripts::{Delivery, artifact_path, export_line, is_shell_name};
use super::Builder;

impl Builder<'_, '_> {
    /// The lifecycle scripts of the stack hosted on `root`, in deployment order, copied to
    /// `artifacts/`.
    pub(super) fn scripts(&mut self, root: NodeId) -> Vec<Json> {
        let order = self.hosting.stack(self.topology, root);
        let steps = stack::lifecycle_steps(self.topology, &order, self.ledger);
        let root_address = self.refs[root.index()].address.clone().unwrap_or_default();
        let mut out = Vec::new();
        for step in steps {
            let node = &self.topology.nodes[step.node.index()];
            let Some(primary) = &step.implementation.primary else {
                continue;
            };
            let what = format!(
                "the {} script `{}` of node `{}`",
                step.operation, primary.file, node.name
            );
            let is_ansible = primary
                .types
                .iter()
                .any(|t| t.to_lowercase().contains("ansible"))
                || primary.file.ends_with(".yml")
                || primary.file.ends_with(".yaml");
            if is_ansible {
                self.warn(
                    step.node,
                    format!(
                        "{what} is left out: cloud-init runs shell scripts, not Ansible playbooks"
                    ),
                    "run the playbook from a shell script, or with a provisioner of your own",
                );
                continue;
            }
            let text = match (self.read_artifact)(primary) {
                Ok(bytes) => match String::from_utf8(bytes) {
                    Ok(t) => t,
                    Err(_) => {
                        self.warn(
                            step.node,
                            format!("{what} is left out: it is not UTF-8 text"),
                            "cloud-init parts are text; convert the script to UTF-8",
                        );
                        continue;
                    }
                },
                Err(reason) => {
                    if self.reporting() {
                        let d = Diagnostic::warning(
                            codes::TF_ARTIFACT,
                            format!("{what} is left out: {reason}"),
                        )
                        .hint("put the script next to the template (or in the CSAR) under the path the template names");
                        self.push_at(step.node, d);
                    }
                    continue;
                }
            };
            for dep in &step.implementation.dependencies {
                self.warn(
                    step.node,
                    format!(
                        "the dependency `{}` of {what} is not delivered to the machine",
                        dep.file
                    ),
                    "fetch it from the script itself (curl, git), or bundle it into the script",
                );
            }
            let path = artifact_path(&primary.file, &self.names[step.node.index()]);
            let mut lines: Vec<String> = Vec::new();
            for (name, value) in step.inputs {
                if !is_shell_name(name) {
                    self.warn(
                        step.node,
                        format!(
                            "input `{name}` of {what} is not passed: it is no shell variable name"
                        ),
                        "name operation inputs with letters, digits and `_`",
                    );
                    continue;
                }
                let Some(e) = self.value(step.node, value, &format!("input `{name}` of {what}"))
                else {
                    continue;
                };
                if !root_address.is_empty() && e.contains(&format!("{root_address}.")) {
                    self.warn(
                        step.node,
                        format!(
                            "input `{name}` of {what} is not passed: it reads an attribute of the machine the script runs on, which is not known before the machine exists"
                        ),
                        "read it in the script from the instance metadata instead",
                    );
                    continue;
                }
                let literal = self.scope().resolved(value, Some(step.node));
                lines.push(export_line(name, literal.as_ref().unwrap_or(value), &e));
            }
            let base = format!(
                "{:02}-{}-{}",
                out.len() + 1,
                self.names[step.node.index()].replace('_', "-"),
                step.operation
            );
            let delivery = Delivery::new(&base, &path, &text, !lines.is_empty());
            let env = (!lines.is_empty()).then(|| {
                lines.push(hcl_str(""));
                format!("join(\"\\n\", [{}])", lines.join(", "))
            });
            self.artifacts.push((path.clone(), text));
            out.push(json!({
                "file": format!("file(\"${{path.module}}/{path}\")"),
                "script_name": delivery.script_name,
                "script_path": hcl_str(&delivery.script_path),
                "env": env,
                "env_name": delivery.env_name,
                "env_path": hcl_str(&delivery.env_path),
                "command": hcl_str(&delivery.command),
                "run": delivery.command,
            }));
        }
        out
    }
}
