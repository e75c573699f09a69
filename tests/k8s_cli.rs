//! `toscana k8s` as users meet it: the README's command on the example, inputs that must be
//! bound, the flags, and a broken template failing loudly.

use std::fs;

mod common;

use assert_cmd::Command;

use common::{stderr, toscana};

#[test]
fn the_readme_command_translates_the_example_into_files_and_a_kustomization() {
    let dir = tempfile::tempdir().unwrap();
    let out = toscana()
        .args([
            "k8s",
            "examples/webapp.yaml",
            "--set",
            "db_password=s3cret",
            "-o",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for expected in [
        "deployment-guestbook.yaml",
        "statefulset-postgres.yaml",
        "service-postgres.yaml",
        "secret-postgres-secret.yaml",
        "horizontalpodautoscaler-guestbook.yaml",
        "kustomization.yaml",
    ] {
        assert!(names.contains(&expected.to_string()), "{names:?}");
    }
    let kustomization = fs::read_to_string(dir.path().join("kustomization.yaml")).unwrap();
    for name in names.iter().filter(|n| *n != "kustomization.yaml") {
        assert!(
            kustomization.contains(&format!("  - {name}\n")),
            "{kustomization}"
        );
    }
    // The password is in a Secret, never in the Deployment or StatefulSet.
    for workload in ["deployment-guestbook.yaml", "statefulset-postgres.yaml"] {
        let text = fs::read_to_string(dir.path().join(workload)).unwrap();
        assert!(!text.contains("s3cret"), "{workload}:\n{text}");
        assert!(text.contains("secretKeyRef"), "{workload}:\n{text}");
    }
}

#[test]
fn standard_output_is_one_stream_in_a_stable_order() {
    let run = || {
        toscana()
            .args([
                "k8s",
                "examples/webapp.yaml",
                "--set",
                "db_password=pw",
                "--namespace",
                "guests",
                "--ingress",
            ])
            .output()
            .unwrap()
    };
    let (a, b) = (run(), run());
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    let kinds: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("kind: "))
        .collect();
    assert_eq!(
        kinds,
        [
            "Secret",
            "Secret",
            "Service",
            "Service",
            "Deployment",
            "StatefulSet",
            "HorizontalPodAutoscaler",
            "Ingress"
        ],
        "{text}"
    );
    assert_eq!(text.matches("\n---\n").count(), kinds.len() - 1);
    assert_eq!(text.matches("namespace: guests").count(), kinds.len());
    assert!(text.contains("value: postgres.guests.svc"), "{text}");
}

#[test]
fn an_unbound_required_input_is_an_error_that_names_it() {
    let out = toscana()
        .args(["k8s", "examples/webapp.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "examples/webapp.yaml:43:5: error[tosca::unbound-input]: required input `db_password` has no value"
        ),
        "{err}"
    );
    assert!(err.contains("with --set db_password=VALUE"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_namespace_must_be_a_dns_label() {
    let out = toscana()
        .args(["k8s", "examples/webapp.yaml", "--namespace", "Not_OK"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn the_alias_takes_the_same_flags() {
    let out = Command::cargo_bin("tosca2k8s")
        .unwrap()
        .args([
            "examples/webapp.yaml",
            "--set",
            "db_password=pw",
            "--ingress",
            "--namespace",
            "web",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("kind: Ingress"));
}

#[test]
fn a_template_whose_object_does_not_survive_its_kubernetes_type_fails_loudly() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("storage.yaml.tera"),
        "{%- for c in k8s.nodes[element.index].claims %}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {{ c.meta.name }}\nspec:\n  accessMode: [ReadWriteOnce]\n{%- endfor %}\n",
    )
    .unwrap();
    let out = toscana()
        .args(["k8s", "golden/k8s-storage/input.yaml", "--backend-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("error[k8s::internal]"), "{err}");
    assert!(err.contains("template `storage.yaml.tera`"), "{err}");
    assert!(err.contains("`spec.accessMode`"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn names_stay_unique_after_cleaning() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clash.yaml");
    fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    My_App:\n      type: tosca.nodes.Container.Application\n      artifacts:\n        image: { type: tosca.artifacts.Deployment.Image, file: a:1 }\n    my-app:\n      type: tosca.nodes.Container.Application\n      artifacts:\n        image: { type: tosca.artifacts.Deployment.Image, file: b:1 }\n    9lives:\n      type: tosca.nodes.Container.Application\n      artifacts:\n        image: { type: tosca.artifacts.Deployment.Image, file: c:1 }\n",
    )
    .unwrap();
    let out = toscana().arg("k8s").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  name: "))
        .collect();
    assert_eq!(names, ["my-app", "my-app-2", "n-9lives"], "{text}");
}

#[test]
fn software_with_no_place_in_a_workload_is_a_warning_not_silence() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("orphans.yaml");
    fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.MySQL:\n    derived_from: tosca.nodes.DBMS\ntopology_template:\n  node_templates:\n    db:\n      type: my.MySQL\n    backup_agent:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - host: db\n    bucket:\n      type: tosca.nodes.Storage.ObjectStorage\n      properties: { name: b }\n",
    )
    .unwrap();
    let out = toscana()
        .arg("k8s")
        .arg(&path)
        .args(["--message-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("node `backup_agent` is hosted on `db`, whose product image has no place for it; skipped"),
        "{err}"
    );
    assert!(err.contains("\"code\":\"backend::skipped\""), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("image: mysql:8.4"));
}

/// The wiki of the lift-and-shift golden case, translated with a `--backend-dir` holding
/// only `mapping` (or without one).
fn wiki_with_mapping(mapping: Option<&str>) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let mut command = toscana();
    command.args(["k8s", "golden/k8s-lift-and-shift/input/wiki.yaml"]);
    if let Some(mapping) = mapping {
        fs::write(dir.path().join("mapping.yaml"), mapping).unwrap();
        command.arg("--backend-dir").arg(dir.path());
    }
    command.output().unwrap()
}

#[test]
fn what_a_relationship_means_is_data_a_backend_dir_can_change() {
    let lifted = wiki_with_mapping(None);
    assert!(lifted.status.success(), "{}", stderr(&lifted));
    // The only warning is the ledger's true one: no load balancer routes to the wiki, so its
    // `context_root` is carried nowhere (golden/k8s-lift-and-shift/not-translated.k8s).
    let warnings = stderr(&lifted)
        .lines()
        .filter(|l| l.contains("warning[") && !l.contains("warning[backend::not-translated]"))
        .count();
    assert_eq!(warnings, 0, "{}", stderr(&lifted));
    // No relationship means hosting any more: the web server and the wiki are no longer
    // lifted into their machine's Deployment but are stacks of their own, and say that they
    // have no Compute host.
    let unhosted = wiki_with_mapping(Some("relationships:\n  hosting: { types: [] }\n"));
    assert!(unhosted.status.success(), "{}", stderr(&unhosted));
    let deployments = |out: &std::process::Output| {
        String::from_utf8_lossy(&out.stdout)
            .matches("kind: Deployment")
            .count()
    };
    assert_eq!(deployments(&lifted), 1);
    assert_eq!(deployments(&unhosted), 3);
    let warnings = stderr(&unhosted);
    assert!(
        warnings.contains("`wiki` has no Compute host"),
        "{warnings}"
    );
}

#[test]
fn an_unknown_relationship_meaning_is_an_error_at_its_place() {
    let out = wiki_with_mapping(Some(
        "relationships:\n  hosting: { typs: [tosca.relationships.HostedOn] }\n  wiring: { types: [tosca.relationships.ConnectsTo] }\n",
    ));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("mapping.yaml:2:14"), "{err}");
    assert!(err.contains("typs"), "{err}");
    assert!(err.contains("mapping.yaml:3:3"), "{err}");
    assert!(err.contains("wiring"), "{err}");
}

#[test]
fn a_misspelt_role_or_bind_key_is_an_error_at_its_place() {
    let out = wiki_with_mapping(Some(
        "rules:\n  - match: { kind: node, type: tosca.nodes.WebServer }\n    template: workload.yaml.tera\n    output: web.yaml\n    bind: { role: sofware, secret_name: [password], extra: { mine: 1 } }\n",
    ));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("`sofware` is not a role of the kubernetes backend"),
        "{err}"
    );
    assert!(err.contains("mapping.yaml:5:19"), "{err}");
    assert!(err.contains("software"), "{err}");
    assert!(
        err.contains("the kubernetes backend reads no `secret_name` in a rule's `bind`"),
        "{err}"
    );
    assert!(err.contains("mapping.yaml:5:28"), "{err}");
    assert!(!err.contains("`extra`"), "{err}");
}
