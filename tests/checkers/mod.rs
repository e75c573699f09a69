//! External checkers of output formats: each golden file is also checked by the tool its
//! format's users run. Locally a missing checker is skipped with a notice `cargo test` shows;
//! under `CI=true` it is a failure (`.ci/run` installs them all first, except `terraform`, which
//! the CI machine image carries: see docs/testing.md).

// checkov runs once over every configuration, in tests/tf_corpus.rs only.
#[allow(dead_code)]
pub mod checkov;
// Batches of folders, in tests/k8s_corpus.rs only.
#[allow(dead_code)]
pub mod kustomize;
pub mod terraform_schema;
// The golden test checks folders only; the corpus and profile tests check streams too.
#[allow(dead_code)]
pub mod wiring;

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

/// Says that `tool` is missing and its check of `path` is skipped, on the stream itself, which
/// the test harness does not capture.
fn skipped(tool: &str, path: &Path) {
    let _ = writeln!(
        std::io::stderr(),
        "notice: SKIPPED the `{tool}` check of {}: `{tool}` is not installed",
        path.display()
    );
}

/// Whether this run must have every checker (CI), or may skip missing ones (a laptop).
pub fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Whether `tool` can be started at all (its answer to `--version` does not matter).
pub fn available(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// Runs `tool args... path`; a missing tool is skipped (with a notice) unless required.
fn run(tool: &str, args: &[&str], path: &Path) -> Result<(), String> {
    match Command::new(tool).args(args).arg(path).output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "{tool} rejected it ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(_) if required() => Err(format!(
            "checker `{tool}` is not installed (CI=true requires every checker; docs/testing.md says where each comes from)"
        )),
        Err(_) => {
            skipped(tool, path);
            Ok(())
        }
    }
}

/// Renders a dot file with `dot -Tsvg`: any error, and any warning on standard error, fails.
pub fn dot_clean(path: &Path) -> Result<(), String> {
    match Command::new("dot")
        .args(["-Tsvg", "-o", "/dev/null"])
        .arg(path)
        .output()
    {
        Ok(out) if out.status.success() && out.stderr.is_empty() => Ok(()),
        Ok(out) => Err(format!(
            "dot -Tsvg {} ({}):\n{}",
            if out.status.success() {
                "warned"
            } else {
                "failed"
            },
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(_) if required() => {
            Err("checker `dot` is not installed (CI=true requires it; .ci/run installs it)".into())
        }
        Err(_) => {
            skipped("dot", path);
            Ok(())
        }
    }
}

/// Checks a whole golden output folder of one command, for checkers that read a folder:
/// `terraform fmt -check -recursive` over a Terraform configuration, `kubectl kustomize` and the
/// wiring check (`wiring`) over a folder of Kubernetes manifests, and the provider schema check of a Terraform configuration
/// (`terraform_schema`). `terraform` cannot be
/// installed from the package registries CI reaches, so `.ci/run` does not install it; the CI
/// machine image carries it, and under `CI=true` it is required like every other checker.
/// `cluster` names the Services the cluster already has (a TOSCA 2.0 node selected from outside
/// the topology: see `wiring`).
pub fn check_tree(command: &str, dir: &Path, cluster: &[String]) -> Result<(), String> {
    match command {
        "tf" => {
            run("terraform", &["fmt", "-check", "-diff", "-recursive"], dir)?;
            terraform_schema::check_dir(dir)
        }
        // A folder of manifests is applied with `kubectl apply -k`: its kustomization must build
        // (every resource it lists exists and parses, no two objects share a kind and name), and
        // its objects must fit together (`wiring`).
        "k8s" => {
            if dir.join("kustomization.yaml").is_file() {
                run("kubectl", &["kustomize"], dir)?;
            }
            wiring::check_dir(dir, cluster)
        }
        _ => Ok(()),
    }
}

/// Checks one golden output file by its command and extension.
pub fn check(command: &str, path: &Path, bytes: &[u8]) -> Result<(), String> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match (command, ext) {
        ("ir", "json") => serde_json::from_slice::<serde_json::Value>(bytes)
            .map(|_| ())
            .map_err(|e| format!("not JSON: {e}")),
        ("dot", "dot") => dot_clean(path),
        ("k8s", "yaml" | "yml") => {
            run(
                "kubernetes-validate",
                &["--strict", "--quiet", "-k", "1.33.0"],
                path,
            )?;
            yamllint(path)
        }
        ("convert", "yaml") => yamllint(path),
        ("tf", "tf" | "tfvars") => run("hcl2tojson", &["-q"], path),
        _ => Ok(()),
    }
}

/// `yamllint --strict`, with lines up to 200 characters and either list indentation.
fn yamllint(path: &Path) -> Result<(), String> {
    run(
        "yamllint",
        &[
            "--strict",
            "-d",
            "{extends: default, rules: {document-start: disable, line-length: {max: 200}, indentation: {indent-sequences: whatever}}}",
        ],
        path,
    )
}
