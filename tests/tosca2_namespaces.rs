//! TOSCA 2.0 namespaces and profiles end to end: a name means what the file it is written in
//! says (§6.8.4), a type's identity in the IR keeps its namespace or profile, and the embedded
//! compatibility profiles give 2.0 files the 1.x normative types that backends know.

mod common;

use std::path::Path;

use common::toscana;

/// Writes `files` (relative path, text) under `dir`.
fn write(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// `toscana ir` of `entry` in `dir`, which must succeed without a diagnostic.
fn ir(dir: &Path, entry: &str) -> serde_json::Value {
    let out = toscana().arg("ir").arg(dir.join(entry)).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn one_name_means_different_types_in_different_namespaces() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "main.yaml",
                "tosca_definitions_version: tosca_2_0\nimports:\n  - url: b.yaml\n    namespace: fileB\n  - url: my.yaml\n    namespace: my\nnode_types:\n  MyNode:\n    properties:\n      first: { type: string }\nservice_template:\n  node_templates:\n    mine: { type: MyNode, properties: { first: one } }\n    theirs: { type: fileB:MyNode, properties: { first: 1 } }\n    pod: { type: my:k8s:Pod }\n    super: { type: my:SuperPod }\n",
            ),
            (
                "b.yaml",
                "tosca_definitions_version: tosca_2_0\nnode_types:\n  MyNode:\n    properties:\n      first: { type: integer }\n",
            ),
            (
                "my.yaml",
                "tosca_definitions_version: tosca_2_0\nimports:\n  - url: k8s.yaml\n    namespace: k8s\nnode_types:\n  SuperPod:\n    derived_from: k8s:Pod\n",
            ),
            (
                "k8s.yaml",
                "tosca_definitions_version: tosca_2_0\nnode_types:\n  Pod: {}\n",
            ),
        ],
    );
    let ir = ir(dir.path(), "main.yaml");
    let types = |i: usize| ir["nodes"][i]["types"].clone();
    assert_eq!(types(0), serde_json::json!(["MyNode"]));
    assert_eq!(types(1), serde_json::json!(["fileB:MyNode"]));
    assert_eq!(types(2), serde_json::json!(["my:k8s:Pod"]));
    assert_eq!(types(3), serde_json::json!(["my:SuperPod", "my:k8s:Pod"]));
    // Each value is read as its own type's property.
    assert_eq!(ir["nodes"][0]["properties"]["first"]["kind"], "string");
    assert_eq!(ir["nodes"][1]["properties"]["first"]["kind"], "integer");
}

#[test]
fn a_repository_name_is_read_in_the_file_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "main.yaml",
                "tosca_definitions_version: tosca_2_0\nimports:\n  - url: lib/lib.yaml\n    namespace: lib\nrepositories:\n  code: https://main.example.com/\nservice_template:\n  node_templates:\n    a:\n      type: lib:App\n      artifacts:\n        mine: { type: lib:Image, file: a.img, repository: code }\n",
            ),
            (
                "lib/lib.yaml",
                "tosca_definitions_version: tosca_2_0\nrepositories:\n  code: https://lib.example.org/\nartifact_types:\n  Image: {}\nnode_types:\n  App:\n    artifacts:\n      theirs: { type: Image, file: b.img, repository: code }\n",
            ),
        ],
    );
    let ir = ir(dir.path(), "main.yaml");
    let artifacts = &ir["nodes"][0]["artifacts"];
    assert_eq!(
        artifacts["mine"]["repository_url"],
        "https://main.example.com/"
    );
    assert_eq!(
        artifacts["theirs"]["repository_url"],
        "https://lib.example.org/"
    );
}

#[test]
fn a_compatibility_profile_gives_backends_the_normative_types() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[(
            "main.yaml",
            "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: org.oasis-open.simple:1.3\n    namespace: tosca\nservice_template:\n  node_templates:\n    vm:\n      type: tosca:tosca.nodes.Compute\n      capabilities:\n        host:\n          properties: { num_cpus: 2, mem_size: 4 GB }\n        os:\n          properties: { distribution: ubuntu, version: \"22.04\" }\n",
        )],
    );
    let ir = ir(dir.path(), "main.yaml");
    assert_eq!(
        ir["nodes"][0]["types"][0],
        "org.oasis-open.simple:1.3:tosca.nodes.Compute"
    );
    // `4 GB` is a value of the profile's `scalar-unit.size`, in bytes.
    assert_eq!(
        ir["nodes"][0]["capabilities"]["host"]["properties"]["mem_size"]["value"]["canonical"],
        4_000_000_000.0
    );
    // The Kubernetes rules for `tosca.nodes.Compute` catch it.
    let out = toscana()
        .arg("k8s")
        .arg(dir.path().join("main.yaml"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(
        stdout.contains("kind: Deployment") && stdout.contains("image: ubuntu:22.04"),
        "{stdout}"
    );
}
