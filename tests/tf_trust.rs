//! What a Terraform engineer needs to trust each golden configuration (issue 27), checked on
//! every golden case with an `expected/tf/` folder, from the parsed HCL (hcl-edit):
//!
//! - every declared variable is referred to outside its own `variable` block, or the run that
//!   wrote the configuration warned that it is unused (`terraform::unused-variable`), so that
//!   editing `terraform.tfvars` changes what the configuration does;
//! - no value of a sensitive variable (its default, or the value the case binds with `--set`)
//!   appears in any file of the configuration, `.tf`, `.tfvars`, scripts or ConfigMap data
//!   alike, and every output that refers to a sensitive variable is `sensitive = true`;
//! - both of these on `tf --provider kubernetes` of every `toscana k8s` golden too, which
//!   carry most of the passwords given with `--set`;
//! - on AWS and OpenStack, every `location` of an attachment (`AttachesTo`) is mounted by the
//!   machine's cloud-init before the template's scripts run, so that software writes to the
//!   volume and not to the root disk.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use hcl_edit::expr::Expression;
use hcl_edit::structure::Body;
use toscana::back::terraform::references::variables_used;

/// The golden cases that write a Terraform configuration.
fn tf_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir("golden")
        .expect("golden/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("expected/tf").is_dir())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no golden case has expected/tf/");
    cases
}

fn input_of(case: &Path) -> PathBuf {
    ["input.yaml", "input.csar", "input.zip", "input"]
        .iter()
        .map(|n| case.join(n))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{} has no input", case.display()))
}

/// The case's `args` and `args.tf`, one argument a line.
fn tf_args(case: &Path) -> Vec<String> {
    ["args", "args.tf"]
        .iter()
        .flat_map(|name| {
            fs::read_to_string(case.join(name))
                .unwrap_or_default()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every file of the configuration: relative path → text (artifacts included).
fn files(dir: &Path) -> BTreeMap<String, String> {
    common::files_under(dir)
        .into_iter()
        .map(|(path, bytes)| (path, String::from_utf8_lossy(&bytes).into_owned()))
        .collect()
}

fn parse(name: &str, text: &str) -> Body {
    text.parse::<Body>()
        .unwrap_or_else(|e| panic!("{name} does not parse: {e}"))
}

/// The `variable` blocks of a body: name → whether it is `sensitive = true`.
fn declared(body: &Body) -> BTreeMap<String, bool> {
    body.get_blocks("variable")
        .filter_map(|b| {
            let name = b.labels.first()?.as_str().to_string();
            let sensitive = b
                .body
                .get_attribute("sensitive")
                .is_some_and(|a| matches!(&a.value, Expression::Bool(v) if *v.value()));
            Some((name, sensitive))
        })
        .collect()
}

/// The stderr of `toscana tf` on the case, as the golden test runs it.
fn tf_warnings(case: &Path) -> String {
    let out_dir = tempfile::tempdir().expect("temp dir");
    let output = common::toscana()
        .arg("tf")
        .arg(input_of(case))
        .args(tf_args(case))
        .arg("-o")
        .arg(out_dir.path().join("out"))
        .env("NO_COLOR", "1")
        .output()
        .expect("toscana runs");
    assert!(
        output.status.success(),
        "toscana tf failed on {}: {}",
        case.display(),
        common::stderr(&output)
    );
    common::stderr(&output)
}

/// The variables the `.tf` files of `files` (path, text) declare and nothing refers to.
fn unused_variables<'t>(files: impl Iterator<Item = (&'t String, &'t String)>) -> Vec<String> {
    let mut variables = BTreeMap::new();
    let mut used = BTreeSet::new();
    for (name, text) in files.filter(|(n, _)| n.ends_with(".tf")) {
        variables.extend(declared(&parse(name, text)));
        used.extend(variables_used(text));
    }
    variables
        .into_keys()
        .filter(|v| !used.contains(v))
        .collect()
}

/// A problem for each of `unused` that no `terraform::unused-variable` warning of `warnings`
/// (the run's stderr) reports.
fn unreported(case: &Path, unused: &[String], warnings: &str) -> Vec<String> {
    unused
        .iter()
        .filter(|var| {
            !warnings.lines().any(|l| {
                l.contains("warning[terraform::unused-variable]")
                    && l.contains(&format!("variable `{var}`"))
            })
        })
        .map(|var| {
            format!(
                "{}: variable `{var}` is used by nothing and no warning says so",
                case.display()
            )
        })
        .collect()
}

#[test]
fn every_variable_is_used_or_reported_unused() {
    let mut problems = Vec::new();
    for case in tf_cases() {
        let files = files(&case.join("expected/tf"));
        let unused = unused_variables(files.iter());
        if !unused.is_empty() {
            problems.extend(unreported(&case, &unused, &tf_warnings(&case)));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The texts a sensitive input's values take in a file: each scalar of its default and of
/// the value the case binds, as YAML reads them.
fn secret_texts(case: &Path, sensitive: &BTreeSet<String>) -> Vec<(String, String)> {
    let args = tf_args(case);
    let set: Vec<(String, String)> = args
        .windows(2)
        .filter(|w| w[0] == "--set")
        .filter_map(|w| {
            w[1].split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect();
    let topology = topology_of(case, set);
    let mut out = Vec::new();
    for input in &topology.inputs {
        let var = input.name.replace('-', "_").to_lowercase();
        if !sensitive.contains(&var) {
            continue;
        }
        for value in input.default.iter().chain(input.value.iter()) {
            scalars(value, &mut |text| out.push((var.clone(), text)));
        }
    }
    out
}

/// Looks for the value of every sensitive variable of `case` in every file, adding a problem
/// for each found; returns how many values were looked for.
fn leaked_secrets<'t>(
    case: &Path,
    sensitive: &BTreeSet<String>,
    files: impl Iterator<Item = (&'t String, &'t String)> + Clone,
    problems: &mut Vec<String>,
) -> usize {
    let mut checked = 0;
    for (var, secret) in secret_texts(case, sensitive) {
        // A value this short (a flag, a digit) is found anywhere; it is no secret worth the name.
        if secret.len() < 4 {
            continue;
        }
        checked += 1;
        for (file, text) in files.clone() {
            if text.contains(&secret) {
                problems.push(format!(
                    "{}: the value of sensitive variable `{var}` is written in {file}",
                    case.display()
                ));
            }
        }
    }
    checked
}

/// The case's topology, with `set` bound as `--set` binds it.
fn topology_of(case: &Path, set: Vec<(String, String)>) -> toscana::ir::Topology {
    let mut diags = toscana::diag::Diagnostics::new();
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(input_of(case))),
            set,
            ..Default::default()
        },
        &mut diags,
    );
    read.topology.expect("the golden input reads")
}

fn scalars(value: &toscana::ir::Value, found: &mut dyn FnMut(String)) {
    use toscana::ir::Value;
    match value {
        Value::String(s) => found(s.clone()),
        Value::Integer(i) => found(i.to_string()),
        Value::List(items) => items.iter().for_each(|i| scalars(i, found)),
        Value::Map(map) => map.values().for_each(|v| scalars(v, found)),
        _ => {}
    }
}

#[test]
fn no_secret_is_written_and_outputs_showing_one_are_sensitive() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for case in tf_cases() {
        let files = files(&case.join("expected/tf"));
        let mut sensitive = BTreeSet::new();
        let mut bodies = Vec::new();
        for (name, text) in files.iter().filter(|(n, _)| n.ends_with(".tf")) {
            let body = parse(name, text);
            sensitive.extend(
                declared(&body)
                    .into_iter()
                    .filter(|(_, s)| *s)
                    .map(|(n, _)| n),
            );
            bodies.push(body);
        }
        for body in &bodies {
            for output in body.get_blocks("output") {
                let name = output
                    .labels
                    .first()
                    .map(|l| l.as_str().to_string())
                    .unwrap_or_default();
                let Some(value) = output.body.get_attribute("value") else {
                    continue;
                };
                let refers = variables_used(&format!("value = {}\n", value.value))
                    .iter()
                    .any(|v| sensitive.contains(v));
                let marked = output
                    .body
                    .get_attribute("sensitive")
                    .is_some_and(|a| matches!(&a.value, Expression::Bool(v) if *v.value()));
                if refers && !marked {
                    problems.push(format!(
                        "{}: output `{name}` shows a sensitive variable but is not sensitive",
                        case.display()
                    ));
                }
            }
        }
        checked += leaked_secrets(&case, &sensitive, files.iter(), &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        checked > 0,
        "no golden case has a sensitive value to look for"
    );
}

/// The golden cases with a `toscana k8s` output: `tf --provider kubernetes` writes the same
/// stacks (tests/tf_k8s_same_objects.rs), several with passwords given by `--set`.
fn k8s_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir("golden")
        .expect("golden/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("expected/k8s").is_dir())
        .collect();
    cases.sort();
    cases
}

/// The files `toscana tf --provider kubernetes` writes for `case` with its `args` (its
/// `--set` values, its preset), as (path, text), from the standard output; and its warnings.
fn kubernetes_configuration(case: &Path) -> Result<(Vec<(String, String)>, String), String> {
    let output = common::toscana()
        .arg("tf")
        .arg(input_of(case))
        .args(["--provider", "kubernetes"])
        .args(tf_args(case))
        .env("NO_COLOR", "1")
        .output()
        .expect("toscana runs");
    if !output.status.success() {
        return Err(common::stderr(&output));
    }
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let files = stdout
        .split("# ==> ")
        .filter_map(|f| f.split_once(" <==\n"))
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect();
    Ok((files, common::stderr(&output)))
}

/// The variables and secrets tests on the Kubernetes configuration of every `toscana k8s`
/// golden: every variable used or reported unused, and no value of a sensitive variable (a
/// `--set` password, a default) in any file, ConfigMaps included.
#[test]
fn every_k8s_golden_on_the_kubernetes_provider_uses_its_variables_and_writes_no_secret() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for case in k8s_cases() {
        let (files, warnings) = match kubernetes_configuration(&case) {
            Ok(found) => found,
            Err(stderr) => {
                problems.push(format!("{}: toscana tf failed: {stderr}", case.display()));
                continue;
            }
        };
        let sensitive: BTreeSet<String> = files
            .iter()
            .filter(|(name, _)| name.ends_with(".tf"))
            .flat_map(|(name, text)| declared(&parse(name, text)))
            .filter(|(_, s)| *s)
            .map(|(n, _)| n)
            .collect();
        let unused = unused_variables(files.iter().map(|(n, t)| (n, t)));
        problems.extend(unreported(&case, &unused, &warnings));
        if sensitive.is_empty() {
            continue;
        }
        checked += leaked_secrets(
            &case,
            &sensitive,
            files.iter().map(|(n, t)| (n, t)),
            &mut problems,
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 5, "only {checked} sensitive values looked for");
}

/// The `locals` attribute `name` of a configuration, as HCL text.
fn local_text(bodies: &[Body], name: &str) -> Option<String> {
    bodies
        .iter()
        .flat_map(|b| b.get_blocks("locals"))
        .find_map(|l| l.body.get_attribute(name))
        .map(|a| a.value.to_string())
}

#[test]
fn every_attachment_location_is_mounted_before_the_scripts_run() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for case in tf_cases() {
        if tf_args(&case).iter().any(|a| a == "kubernetes") {
            continue; // the volume claim's mount puts the storage at its location
        }
        let files = files(&case.join("expected/tf"));
        let bodies: Vec<Body> = files
            .iter()
            .filter(|(n, _)| n.ends_with(".tf"))
            .map(|(n, t)| parse(n, t))
            .collect();
        let main = files.get("main.tf").cloned().unwrap_or_default();
        let topology = topology_of(&case, Vec::new());
        let hosting = toscana::ir::Hosting::new(&topology);
        for r in &topology.relationships {
            let Some(toscana::ir::Value::String(location)) = r.properties.get("location") else {
                continue;
            };
            if !r.types.iter().any(|t| t.ends_with("AttachesTo")) {
                continue;
            }
            checked += 1;
            let machine = topology.nodes[hosting.root(r.source).index()]
                .name
                .to_lowercase()
                .replace('-', "_");
            let where_ = format!("{}: `{location}` on `{machine}`", case.display());
            let Some(config) = local_text(&bodies, &format!("{machine}_cloud_config")) else {
                problems.push(format!("{where_}: the machine has no cloud-init config"));
                continue;
            };
            if !main.contains(&format!("data.cloudinit_config.{machine}.rendered")) {
                problems.push(format!(
                    "{where_}: the config is not the machine's user data"
                ));
            }
            let runcmd = config.split_once("runcmd").map_or("", |(_, r)| r);
            let mount = format!("mount-volume '{location}' ");
            match (runcmd.find(&mount), runcmd.find("/opt/toscana/")) {
                (None, _) => problems.push(format!("{where_}: no mount in the user data")),
                (Some(m), Some(script)) if script < m => {
                    problems.push(format!("{where_}: mounted after a script runs"));
                }
                (Some(m), _) => {
                    let line = runcmd[m..].lines().next().unwrap_or("");
                    if !line.contains("/dev/") || !line.ends_with("|| exit 1\",") {
                        problems.push(format!(
                            "{where_}: the mount names no device or does not stop the scripts: {line}"
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        checked > 0,
        "no golden case attaches a volume at a location"
    );
}
