//! The scripts of a lifted stack: shipped in its ConfigMap, run in deployment order by an
//! entrypoint, each with the program its shebang names (then the one for its extension).

use std::collections::HashMap;

use serde_json::Value as Json;

use crate::diag::{Diagnostics, codes};
use crate::limits::Limits;
use crate::source::ArtifactFiles;

use super::super::values::{data_key, env_name};
use super::*;
use crate::back::shebang;
use crate::back::stack::LifecycleStep;

impl Ctx<'_> {
    /// Ships the scripts of `steps` into `plan`'s ConfigMap, adds their inputs to its
    /// environment, and returns the entrypoint that runs them in order, then keeps the
    /// container running as the server did.
    pub(super) fn ship_scripts(
        &mut self,
        plan: &mut Plan,
        steps: &[LifecycleStep<'_>],
        bind: &Json,
        artifacts: &ArtifactFiles,
        limits: &Limits,
        mut diags: Option<&mut Diagnostics>,
    ) -> String {
        // The first planning pass decides workloads, which no script changes: it ships none.
        let steps = if self.foreseeing { &[][..] } else { steps };
        let interpreters = bind.get("interpreters").cloned().unwrap_or(Json::Null);
        let packages = bind
            .get("interpreter_packages")
            .cloned()
            .unwrap_or(Json::Null);
        let mut script = String::new();
        // The programs the entrypoint makes sure of before the first script they run.
        let mut ensured: Vec<String> = Vec::new();
        let mut shipped: Vec<String> = Vec::new();
        // The interpreter each shipped script's shebang names (`None`: it has none).
        let mut shebangs: HashMap<String, Option<String>> = HashMap::new();
        for step in steps {
            let node = step.node.index();
            let node_name = self.node(node).name.clone();
            for (name, value) in step.inputs {
                let secret = self.is_secret_name(name);
                self.env_at = step
                    .implementation
                    .primary
                    .as_ref()
                    .and_then(|a| a.location);
                let env = env_name(name);
                self.add_env(plan, node, &env, value, secret, diags.as_deref_mut());
                self.env_at = None;
            }
            let Some(primary) = step.implementation.primary.as_ref() else {
                continue;
            };
            // A script that neither its extension nor a shebang says how to run (an Ansible
            // playbook, say) is not shipped at all.
            let ext = primary
                .file
                .rsplit_once('.')
                .map(|(_, e)| e.to_ascii_lowercase())
                .unwrap_or_default();
            let by_extension = json_str(&interpreters, &ext).map(str::to_string);
            let has_shebang = || {
                artifacts
                    .read(
                        primary.path.as_deref(),
                        primary.repository.as_deref(),
                        limits,
                    )
                    .ok()
                    .and_then(|bytes| String::from_utf8(bytes).ok())
                    .and_then(|text| shebang::interpreter(&text))
                    .is_some()
            };
            if by_extension.is_none() && !has_shebang() {
                self.cannot_run(step, primary, &node_name, diags.as_deref_mut());
                continue;
            }
            let files = std::iter::once(primary).chain(&step.implementation.dependencies);
            let ok = self.ship_files(
                plan,
                files,
                &node_name,
                &mut shipped,
                &mut shebangs,
                artifacts,
                limits,
                diags.as_deref_mut(),
            );
            if !ok && !shipped.contains(primary.path.as_ref().unwrap_or(&String::new())) {
                continue;
            }
            // The program the script's shebang names, else the one for its extension.
            let from_shebang = primary
                .path
                .as_ref()
                .and_then(|p| shebangs.get(p).cloned().flatten());
            let Some(interpreter) = from_shebang.or(by_extension) else {
                continue;
            };
            let program = interpreter.split(' ').next().unwrap_or_default();
            if program != "sh" && !ensured.iter().any(|p| p == program) {
                let package = json_str(&packages, program).unwrap_or(program);
                script.push_str(&format!(
                    "command -v {program} >/dev/null 2>&1 || toscana_install {}\n",
                    shell_quote(package)
                ));
                ensured.push(program.to_string());
            }
            let path = safe_path(primary.path.as_deref().unwrap_or_default());
            script.push_str(&format!(
                "echo \"toscana: {} {}\"\n{interpreter} {}\n",
                node_name.replace(['"', '\\', '$', '`'], "_"),
                step.operation,
                shell_quote(&path)
            ));
        }
        script.push_str("exec sleep infinity\n");
        let mut entrypoint = String::from(
            "#!/bin/sh\n# Runs the lifecycle operations of the stack in deployment order, then keeps the\n# container running as the server did.\nset -e\n",
        );
        if !ensured.is_empty() {
            entrypoint.push_str(INSTALL_FUNCTION);
        }
        entrypoint.push_str("cd ");
        entrypoint.push_str(SCRIPTS_DIR);
        entrypoint.push_str("/files\n");
        entrypoint.push_str(&script);
        entrypoint
    }

    /// Warns, where `diags` is given, that the script `primary` of `step` is not shipped: a
    /// container cannot tell how to run it.
    fn cannot_run(
        &mut self,
        step: &LifecycleStep<'_>,
        primary: &crate::ir::Artifact,
        node_name: &str,
        diags: Option<&mut Diagnostics>,
    ) {
        let Some(diags) = diags else {
            return;
        };
        let d = self.warn(
            codes::K8S_UNSUPPORTED,
            primary.location,
            format!("the {} operation of `{node_name}` is `{}`, which a container cannot run; skipped", step.operation, primary.file),
            "lift-and-shift runs shell and Python scripts: start the script with a `#!` line naming its interpreter, or add one for this extension to the rules' `interpreters`",
        );
        diags.push(d);
    }

    /// Ships `files` (an operation's script and its dependencies) into `plan`'s ConfigMap,
    /// each once (`shipped`), noting the interpreter each script's shebang names. False when
    /// one could not be shipped (warned).
    #[allow(clippy::too_many_arguments)]
    fn ship_files<'f>(
        &mut self,
        plan: &mut Plan,
        files: impl Iterator<Item = &'f crate::ir::Artifact>,
        node_name: &str,
        shipped: &mut Vec<String>,
        shebangs: &mut HashMap<String, Option<String>>,
        artifacts: &ArtifactFiles,
        limits: &Limits,
        mut diags: Option<&mut Diagnostics>,
    ) -> bool {
        let mut ok = true;
        for artifact in files {
            let Some(path) = artifact.path.clone() else {
                self.warn_to(diags.as_deref_mut(), codes::K8S_UNSUPPORTED,
                        artifact.location,
                        format!("artifact `{}` of `{node_name}` lives in a repository; the lifted container cannot fetch it", artifact.file),
                        "ship the file with the template (a path next to it or in the CSAR)",);
                ok = false;
                continue;
            };
            if shipped.contains(&path) {
                continue;
            }
            match artifacts
                .read(
                    artifact.path.as_deref(),
                    artifact.repository.as_deref(),
                    limits,
                )
                .map(String::from_utf8)
            {
                Ok(Ok(text)) => {
                    shebangs.insert(path.clone(), shebang::interpreter(&text));
                    let key = data_key(&format!(
                        "{}-{}",
                        shipped.len() + 1,
                        path.rsplit('/').next().unwrap_or(&path)
                    ));
                    plan.config.push(Pair {
                        key: key.clone(),
                        value: text,
                    });
                    plan.items.push(Pair {
                        key,
                        value: format!("files/{}", safe_path(&path)),
                    });
                    shipped.push(path);
                }
                Ok(Err(_)) => {
                    self.warn_to(diags.as_deref_mut(), codes::K8S_UNSUPPORTED,
                            artifact.location,
                            format!("artifact `{}` of `{node_name}` is not text; a ConfigMap cannot ship it", artifact.file),
                            "put binary files into the base image",);
                    ok = false;
                }
                Err(why) => {
                    self.warn_to(
                        diags.as_deref_mut(),
                        codes::K8S_UNSUPPORTED,
                        artifact.location,
                        format!(
                            "artifact `{}` of `{node_name}` cannot be read: {why}",
                            artifact.file
                        ),
                        "translate from the folder or CSAR that holds the scripts",
                    );
                    ok = false;
                }
            }
        }
        ok
    }
}

/// The entrypoint's installer of a program a script is run with and the image lacks: a bare
/// base image has no `python3` (Debian, Ubuntu) or `bash` (Alpine), and a lifted server's
/// scripts were written for a machine that had them. It uses whichever package manager the
/// image has, as the scripts themselves do to install what they need (so it needs the same
/// network access), and stops the entrypoint (`set -e`) when none can install it: a script
/// that cannot run must not be skipped silently.
const INSTALL_FUNCTION: &str = r#"# Installs a package the next script's interpreter comes in, with the image's package manager.
toscana_install() {
  echo "toscana: installing $1"
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -q && apt-get install -y -q --no-install-recommends "$1"
  elif command -v dnf >/dev/null 2>&1; then dnf install -y -q "$1"
  elif command -v microdnf >/dev/null 2>&1; then microdnf install -y "$1"
  elif command -v yum >/dev/null 2>&1; then yum install -y -q "$1"
  elif command -v apk >/dev/null 2>&1; then apk add --no-cache -q "$1"
  elif command -v zypper >/dev/null 2>&1; then zypper --non-interactive install "$1"
  else echo "toscana: no package manager installs $1 here" >&2; return 1
  fi
}
"#;

/// A relative path a ConfigMap volume accepts: no `..`, `.` or empty segments (a file from a
/// folder above the template's keeps its place under `_up/`).
fn safe_path(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .map(|p| if p == ".." { "_up" } else { p })
        .collect();
    if parts.is_empty() {
        "_".to_string()
    } else {
        parts.join("/")
    }
}

/// A path quoted for `sh`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configmap_paths_never_climb_out() {
        assert_eq!(safe_path("scripts/install.sh"), "scripts/install.sh");
        assert_eq!(safe_path("../shared/./x.sh"), "_up/shared/x.sh");
        assert_eq!(safe_path("//"), "_");
    }

    #[test]
    fn shell_quoting_survives_quotes() {
        assert_eq!(shell_quote("it's.sh"), r"'it'\''s.sh'");
    }
}
