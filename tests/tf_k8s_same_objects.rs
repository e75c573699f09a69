//! One Kubernetes model, two writers (issue 27, scope 5): for every golden case with a
//! `toscana k8s` or a `toscana tf --provider kubernetes` output, both backends run on the same
//! input and create the same set of (kind, name).
//!
//! `toscana k8s --ingress` has no Terraform counterpart (Terraform writes the load balancers'
//! Services), so a case's `--ingress` is left out of both runs; `--namespace` names no object.

mod common;

use std::path::{Path, PathBuf};

/// Extra arguments of a case for one command: its `args` file, then `args.<command>`.
fn args_of(case: &Path, command: &str) -> Vec<String> {
    let mut out = Vec::new();
    for file in ["args".to_string(), format!("args.{command}")] {
        if let Ok(text) = std::fs::read_to_string(case.join(file)) {
            out.extend(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(String::from),
            );
        }
    }
    out
}

fn input_of(case: &Path) -> PathBuf {
    ["input.yaml", "input.csar", "input.zip", "input"]
        .iter()
        .map(|n| case.join(n))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{} has no input", case.display()))
}

/// The cases with a k8s output or a Terraform output for Kubernetes.
fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("golden")
        .expect("golden/ exists")
        .map(|e| e.unwrap().path())
        .filter(|case| {
            case.join("expected/k8s").is_dir()
                || args_of(case, "tf").iter().any(|a| a == "kubernetes")
        })
        .collect();
    cases.sort();
    cases
}

/// Runs `toscana` with these arguments; its standard output.
fn run(args: &[String]) -> String {
    let out = common::toscana().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "toscana {}: {}",
        args.join(" "),
        common::stderr(&out)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `args` with each option (a flag and its value, `--set x=1` or `--set=x=1`) once, in the order
/// given, and without `--namespace` (the backends place objects in a namespace differently).
fn distinct_options(args: &[String]) -> Vec<String> {
    let mut units: Vec<Vec<String>> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let takes_value = args[i].starts_with("--")
            && !args[i].contains('=')
            && args.get(i + 1).is_some_and(|v| !v.starts_with("--"));
        let end = if takes_value { i + 2 } else { i + 1 };
        let unit = args[i..end].to_vec();
        if !unit[0].starts_with("--namespace") && !units.contains(&unit) {
            units.push(unit);
        }
        i = end;
    }
    units.concat()
}

/// The required inputs `toscana k8s` finds without a value.
fn unbound_inputs(args: &[String]) -> Vec<String> {
    let out = common::toscana().args(args).output().unwrap();
    common::stderr(&out)
        .lines()
        .filter_map(|l| l.split("required input `").nth(1)?.split('`').next())
        .map(String::from)
        .collect()
}

#[test]
fn both_backends_create_the_same_objects_for_every_golden() {
    let cases = cases();
    assert!(cases.len() >= 30, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let input = input_of(case).display().to_string();
        let shared: Vec<String> = args_of(case, "")
            .into_iter()
            .chain(
                args_of(case, "k8s")
                    .into_iter()
                    .filter(|a| a != "--ingress"),
            )
            .chain(
                args_of(case, "tf")
                    .into_iter()
                    .filter(|a| a != "--provider" && a != "kubernetes"),
            )
            .collect::<Vec<_>>();
        let shared = distinct_options(&shared);
        let mut k8s = vec!["k8s".to_string(), input.clone()];
        k8s.extend(shared.iter().cloned());
        let mut tf = vec![
            "tf".to_string(),
            input,
            "--provider".into(),
            "kubernetes".into(),
        ];
        tf.extend(shared.iter().cloned());
        // A required input without a value is a Terraform variable, but `toscana k8s` needs one.
        for input in unbound_inputs(&k8s) {
            k8s.push(format!("--set={input}=placeholder"));
        }
        let manifests = common::objects::of_manifests(&run(&k8s));
        let text = run(&tf);
        let main = text
            .split("# ==> ")
            .find_map(|f| f.strip_prefix("main.tf <==\n"))
            .unwrap_or("");
        let resources = common::objects::of_terraform(main);
        assert!(!manifests.is_empty(), "{}: no objects", case.display());
        if manifests != resources {
            failures.push(format!(
                "{}: k8s only {:?}; tf only {:?}",
                case.display(),
                manifests.difference(&resources).collect::<Vec<_>>(),
                resources.difference(&manifests).collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn kinds_and_names_are_read_from_both_formats() {
    let yaml = "apiVersion: v1\nkind: Secret\nmetadata:\n  labels:\n    name: x\n  name: db\n---\nkind: Service\nmetadata:\n  name: web\n";
    let found = common::objects::of_manifests(yaml);
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        [
            ("Secret".into(), "db".into()),
            ("Service".into(), "web".into())
        ]
    );
    let tf = "resource \"kubernetes_stateful_set_v1\" \"db\" {\n  metadata {\n    name = \"db\"\n  }\n}\n\nresource \"kubernetes_manifest\" \"r\" {\n  manifest = {\n    kind = \"ReplicaSet\"\n    metadata = {\n      name = \"r\"\n    }\n  }\n}\n";
    assert_eq!(
        common::objects::of_terraform(tf)
            .into_iter()
            .collect::<Vec<_>>(),
        [
            ("ReplicaSet".into(), "r".into()),
            ("StatefulSet".into(), "db".into())
        ]
    );
}
