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

/// `toscana ir` of `entry` in `dir` with `args` before it: exit code, stderr, and the IR when
/// one was written.
fn ir_with(dir: &Path, args: &[&str], entry: &str) -> (i32, String, serde_json::Value) {
    let out = toscana()
        .arg("ir")
        .args(args)
        .arg(dir.join(entry))
        .output()
        .unwrap();
    let ir = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().unwrap(), common::stderr(&out), ir)
}

#[test]
fn under_oasis_profiles_a_definition_shadows_what_its_file_imports_into_its_root() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "main.yaml",
                "tosca_definitions_version: tosca_2_0\nimports:\n  - url: base.yaml\n    namespace: base\nservice_template:\n  node_templates:\n    s:\n      type: base:Server\n      properties:\n        port: 80\n    h:\n      type: base:Host\n",
            ),
            (
                "base.yaml",
                "tosca_definitions_version: tosca_2_0\nprofile: test.base:1\nimports:\n  - url: core.yaml\nnode_types:\n  Server:\n    properties:\n      port: { type: integer }\n",
            ),
            (
                "core.yaml",
                "tosca_definitions_version: tosca_2_0\nprofile: test.core:1\nnode_types:\n  Server: {}\n  Host: {}\n",
            ),
        ],
    );
    // Strictly, `Server` has two definitions in base.yaml's root namespace (§6.8.4 Namespaces).
    let (code, stderr, _) = ir_with(dir.path(), &[], "main.yaml");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("main.yaml:8:13: error[tosca::ambiguous-name]: node type `base:Server` is ambiguous here: it names `test.base:1:Server` and `test.core:1:Server`")
            && stderr.contains("--quirk oasis-profiles"),
        "{stderr}"
    );
    let (code, stderr, ir) = ir_with(dir.path(), &["--quirk", "oasis-profiles"], "main.yaml");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.lines().filter(|l| l.contains("warning[")).count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("base.yaml:6:3: warning[tosca::duplicate-name]: node type `Server` is defined here as `test.base:1:Server` and imported into the same root namespace as `test.core:1:Server`"),
        "{stderr}"
    );
    assert_eq!(
        ir["nodes"][0]["types"],
        serde_json::json!(["test.base:1:Server"])
    );
    assert_eq!(ir["nodes"][0]["properties"]["port"]["kind"], "integer");
    // What the file does not define itself still comes through its root import.
    assert_eq!(
        ir["nodes"][1]["types"],
        serde_json::json!(["test.core:1:Host"])
    );
}

#[test]
fn under_oasis_profiles_a_property_definition_may_refine_its_data_type() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[(
            "main.yaml",
            "tosca_definitions_version: tosca_2_0\ndata_types:\n  Spec:\n    properties:\n      selector: { type: string }\n      replicas: { type: integer, required: false }\nnode_types:\n  Service:\n    properties:\n      spec:\n        type: Spec\n        properties:\n          selector:\n            default: all\n  Special:\n    derived_from: Service\n    properties:\n      spec:\n        properties:\n          replicas:\n            value: 3\nservice_template:\n  node_templates:\n    svc:\n      type: Service\n      properties:\n        spec: {}\n    special:\n      type: Special\n      properties:\n        spec: { selector: some }\n",
        )],
    );
    // Strictly, `properties` is no keyname of a property definition (§9.4 Property Definition).
    // (`Special`'s block, without `type`, is the short form of a fixed value there.)
    let (code, stderr, _) = ir_with(dir.path(), &[], "main.yaml");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("main.yaml:12:9: error[tosca::unknown-keyname]: unknown keyname `properties` in property definition `spec`")
            && stderr.contains("--quirk oasis-profiles"),
        "{stderr}"
    );
    let (code, stderr, ir) = ir_with(dir.path(), &["--quirk", "oasis-profiles"], "main.yaml");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("main.yaml:12:9: warning[tosca::unknown-keyname]: `properties` in property definition `spec` is not TOSCA 2.0; read as the data type `Spec (in node type Service, property spec)`, derived from `Spec`")
            && stderr.contains("main.yaml:19:9: warning[tosca::unknown-keyname]: `properties` in property definition `spec` is not TOSCA 2.0; read as the data type `Spec (in node type Special, property spec)`, derived from `Spec (in node type Service, property spec)`"),
        "{stderr}"
    );
    let spec = |i: usize| ir["nodes"][i]["properties"]["spec"]["value"].clone();
    // The refinement's default fills the required field; the derived type's fixed value is
    // added to the parent's refinement.
    assert_eq!(spec(0)["selector"]["value"], "all");
    assert_eq!(spec(1)["selector"]["value"], "some");
    assert_eq!(spec(1)["replicas"]["value"], 3);
}

/// §6.8.3 Examples imports the 2.0 simple profile as `org.oasis-open.tosca.simple:2.0`; that
/// name is the embedded profile itself, so importing it under both names defines nothing twice
/// and the types keep the profile's declared name.
#[test]
fn the_specifications_name_of_the_simple_profile_is_the_embedded_profile() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[(
            "main.yaml",
            "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: org.oasis-open.tosca.simple:2.0\n  - profile: org.oasis-open.simple:2.0\nservice_template:\n  node_templates:\n    vm:\n      type: Compute\n      capabilities:\n        host:\n          properties: { num_cpus: 2 }\n",
        )],
    );
    let ir = ir(dir.path(), "main.yaml");
    assert_eq!(
        ir["nodes"][0]["types"][0],
        "org.oasis-open.simple:2.0:Compute"
    );
}

/// A definition copied word for word into a file that also imports the original into its root
/// namespace is one definition, not two (`tosca::duplicate-name` is for two different ones,
/// §6.8.4 Namespaces), however the copy's text ends: here a folded block scalar, followed by
/// another type in one file and by another section in the other, as in the OASIS suite's
/// `s136a.yaml`. A copy that differs in content is still a duplicate.
#[test]
fn a_definition_copied_into_the_importing_file_is_one_definition() {
    let dir = tempfile::tempdir().unwrap();
    let types = "tosca_definitions_version: tosca_2_0\ncapability_types:\n  Host:\n    description: >-\n      Ability to host software.\n  Service:\n    description: Ability to provide a service.\n\nnode_types:\n  Compute:\n    description: A compute node\n    capabilities:\n      host: { type: Host }\n";
    let main = "tosca_definitions_version: tosca_2_0\nimports:\n  - types.yaml\ncapability_types:\n  Host:\n    description: >-\n      Ability to host software.\nnode_types:\n  Compute:\n    description: 'A compute node'\n    capabilities:\n      host: { type: Host }\nservice_template:\n  node_templates:\n    c: { type: Compute }\n";
    write(dir.path(), &[("types.yaml", types), ("main.yaml", main)]);
    let ir = ir(dir.path(), "main.yaml");
    assert_eq!(ir["nodes"][0]["types"], serde_json::json!(["Compute"]));

    let other = main.replace("'A compute node'", "A server");
    write(dir.path(), &[("main.yaml", &other)]);
    let (code, stderr, _) = ir_with(dir.path(), &[], "main.yaml");
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.matches("error[").count(), 1, "{stderr}");
    assert!(
        stderr.contains("types.yaml:10:3: error[tosca::duplicate-name]: node type `Compute` is defined twice, differently"),
        "{stderr}"
    );
}
