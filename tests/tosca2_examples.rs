//! The OASIS TOSCA 2.0 examples that import community profiles by name resolve into IR when
//! `--profile-path` points at the corpus's profile collection (laid out by profile name).
//!
//! Locally a missing `../shared/corpus` skips with a notice; under `CI=true` it is a failure.

mod common;

use common::{corpus_root, in_ci, toscana};

fn ir(example: &str) -> serde_json::Value {
    let examples = corpus_root().join("oasis/examples");
    let out = toscana()
        .args(["ir", "-q", "--profile-path"])
        .arg(corpus_root().join("oasis/profiles"))
        .arg(examples.join(example))
        .output()
        .unwrap();
    assert!(out.status.success(), "{example}: {}", common::stderr(&out));
    serde_json::from_slice(&out.stdout).expect("the IR is JSON")
}

fn corpus_present() -> bool {
    if corpus_root().join("oasis/profiles").is_dir() {
        return true;
    }
    assert!(!in_ci(), "../shared/corpus is missing under CI=true");
    eprintln!("notice: ../shared/corpus not found; TOSCA 2.0 examples skipped");
    false
}

#[test]
fn online_boutique_resolves_with_its_profiles() {
    if !corpus_present() {
        return;
    }
    let ir = ir("online_boutique");
    let nodes = ir["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 11);
    assert_eq!(ir["relationships"].as_array().unwrap().len(), 15);
    // Types come from the profile `community.tosca.abstract.application:0.1`, and their
    // identities say so.
    assert!(
        nodes
            .iter()
            .any(|n| n["types"][0] == "community.tosca.abstract.application:0.1:MicroService")
    );
}

#[test]
fn kubernetes_clusters_resolves_with_its_profiles() {
    if !corpus_present() {
        return;
    }
    let examples = corpus_root().join("oasis/examples/kubernetes_clusters");
    let out = toscana()
        .args([
            "ir",
            "-q",
            "--set",
            "number_of_clusters=2",
            "--profile-path",
        ])
        .arg(corpus_root().join("oasis/profiles"))
        .arg(&examples)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = ir["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["name"], "k8s-cluster");
    // Each type qualified by the profile that defines it: `ContainerPlatform` of the platform
    // profile derives from types of the base profile it imports.
    assert_eq!(
        nodes[0]["types"],
        serde_json::json!([
            "community.tosca.abstract.platform:0.1:ContainerPlatform",
            "community.tosca.abstract.base:0.1:Platform",
            "community.tosca.abstract.base:0.1:Base"
        ])
    );
}

#[test]
fn a_profile_not_on_the_profile_path_is_reported() {
    if !corpus_present() {
        return;
    }
    let out = toscana()
        .args(["check"])
        .arg(corpus_root().join("oasis/examples/online_boutique"))
        .output()
        .unwrap();
    let stderr = common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("main.yaml:4:14: error[import::unknown-profile]: unknown profile `community.tosca.abstract.application:0.1`")
            && stderr.contains("--profile-path"),
        "{stderr}"
    );
}

#[test]
fn the_embedded_simple_profile_is_imported_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: org.oasis-open.simple:2.0\n    namespace: simple\nservice_template:\n  node_templates:\n    vm:\n      type: simple:Compute\n      capabilities:\n        host:\n          properties: { num_cpus: 2, mem_size: 4 GB }\n",
    )
    .unwrap();
    let out = toscana().args(["ir"]).arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.is_empty(), "no diagnostics expected: {stderr}");
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let vm = &ir["nodes"][0];
    assert_eq!(
        vm["types"],
        serde_json::json!([
            "org.oasis-open.simple:2.0:Compute",
            "org.oasis-open.simple:2.0:Abstract.Compute",
            "org.oasis-open.simple:2.0:Root"
        ])
    );
    // `mem_size` is the profile's Size scalar type: 4 GB in bytes.
    assert_eq!(
        vm["capabilities"]["host"]["properties"]["mem_size"]["value"]["canonical"],
        4_000_000_000.0
    );
}
