//! The OASIS TOSCA 2.0 examples that import community profiles by name resolve into IR when
//! `--profile-path` points at the corpus's profile collection (laid out by profile name).
//! `substitutions` needs `--quirk oasis-profiles` for two defects of the profiles it imports
//! (see `src/quirk.rs`) and `--quirk in-range` for a third (their calls of `$in_range`,
//! which csd07 does not define), and strictly stays an error.
//!
//! Locally a missing `../shared/corpus` skips with a notice; under `CI=true` it is a failure.

mod common;

use common::{corpus_root, toscana};

fn corpus_present() -> bool {
    common::corpus_present("oasis/profiles", "TOSCA 2.0 examples")
}

/// `online_boutique`'s eleven microservices all have the `substitute` directive and nothing
/// else: valid for `check` (an orchestrator may know a substituting template, a warning each),
/// but not instantiable without one (§15.5.1 Mapping Multiple Requirements with the Same Name), so
/// `ir` refuses it.
#[test]
fn online_boutique_needs_a_substituting_template_for_its_output() {
    if !corpus_present() {
        return;
    }
    let examples = corpus_root().join("oasis/examples");
    let run = |command: &str| {
        toscana()
            .args([command, "--max-errors", "0", "--profile-path"])
            .arg(corpus_root().join("oasis/profiles"))
            .arg(examples.join("online_boutique"))
            .output()
            .unwrap()
    };
    let check = run("check");
    let stderr = common::stderr(&check);
    assert!(check.status.success(), "{stderr}");
    assert_eq!(
        stderr.matches("warning[tosca::substitution]").count(),
        11,
        "{stderr}"
    );
    let ir = run("ir");
    let stderr = common::stderr(&ir);
    assert_eq!(ir.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("main.yaml:12:5: error[tosca::substitution]: node template `frontend` is marked for substitution, but no service template substitutes its type `app:MicroService`"),
        "{stderr}"
    );
}

/// With the `substitutions` example as the substituting template, each microservice becomes a
/// ServiceAccount, a Pod, a Deployment and a Service named `<microservice>.<inner>`; its
/// `endpoint` relationships leave from its Pod (`[endpoint, UNBOUNDED]: [pod, endpoint]`) and
/// end at the peer's Service (`endpoint: [service, endpoint]`), and the capability properties
/// reach the Service through `[CAPABILITY, endpoint, port]: port` mappings.
#[test]
fn online_boutique_expands_with_the_microservice_substitution() {
    if !corpus_present() {
        return;
    }
    let examples = corpus_root().join("oasis/examples");
    let out = toscana()
        .args([
            "ir",
            "-q",
            "--quirk",
            "oasis-profiles",
            "--quirk",
            "in-range",
        ])
        .arg("--profile-path")
        .arg(corpus_root().join("oasis/profiles"))
        .arg("--substitute")
        .arg(examples.join("substitutions/microservice/main.yaml"))
        .arg(examples.join("online_boutique"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = ir["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 44);
    assert_eq!(ir["substituted"].as_array().unwrap().len(), 11);
    let name = |id: &serde_json::Value| nodes[id.as_u64().unwrap() as usize]["name"].clone();
    let rels = ir["relationships"].as_array().unwrap();
    let frontend: Vec<_> = rels
        .iter()
        .filter(|r| r["requirement"] == "endpoint" && name(&r["source"]) == "frontend.pod")
        .map(|r| name(&r["target"]))
        .collect();
    assert_eq!(frontend.len(), 7);
    assert!(frontend.contains(&serde_json::json!("ad.service")));
    let service = nodes
        .iter()
        .find(|n| n["name"] == "frontend.service")
        .unwrap();
    assert_eq!(
        service["capabilities"]["endpoint"]["properties"]["port"]["value"],
        80
    );
    // The record of the substituted node: its type as written, and the nodes that realize it.
    assert_eq!(ir["substituted"][0]["type"], "app:MicroService");
    assert_eq!(
        ir["substituted"][0]["nodes"],
        serde_json::json!([0, 1, 2, 3])
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

/// `toscana ir` of the `substitutions` example with the corpus profiles and `extra` arguments,
/// its inputs set as a substituted node would map them, every error shown.
fn substitutions(extra: &[&str]) -> std::process::Output {
    toscana()
        .args(["ir", "--max-errors", "0", "--profile-path"])
        .arg(corpus_root().join("oasis/profiles"))
        .args([
            "--set",
            "name=cart",
            "--set",
            "port=80",
            "--set",
            "target-port=8080",
        ])
        .args(extra)
        .arg(corpus_root().join("oasis/examples/substitutions/microservice"))
        .output()
        .unwrap()
}

#[test]
fn substitutions_is_refused_strictly_for_the_defects_of_its_profiles() {
    if !corpus_present() {
        return;
    }
    let out = substitutions(&[]);
    let stderr = common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // `community.tosca.technology.base:0.1` defines `Bash` and imports the core profile, which
    // defines it too, into its root namespace (§6.8.4 Namespaces) ...
    assert!(
        stderr.contains("io/kubernetes/1.35/core.yaml:603:23: error[tosca::ambiguous-name]: artifact type `base:Bash` is ambiguous here: it names `community.tosca.technology.base:0.1:Bash` and `community.tosca.core:0.1:Bash`"),
        "{stderr}"
    );
    // ... and `io.kubernetes:1.35` refines data types inside property definitions (§9.4 Property
    // Definition).
    assert!(
        stderr.contains("io/kubernetes/1.35/core.yaml:629:9: error[tosca::unknown-keyname]: unknown keyname `properties` in property definition `spec`"),
        "{stderr}"
    );
}

/// The profiles also call `$in_range`, which csd07 does not define and `oasis-profiles` leaves
/// alone (`--quirk in-range` reads it); every other error of the profiles goes with the quirk.
#[test]
fn under_the_oasis_profiles_quirk_only_in_range_is_left_of_the_substitutions_errors() {
    if !corpus_present() {
        return;
    }
    let out = substitutions(&["--quirk", "oasis-profiles"]);
    let stderr = common::stderr(&out);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains(": error[")).collect();
    assert!(!errors.is_empty(), "{stderr}");
    assert!(
        errors
            .iter()
            .all(|e| e.contains("error[tosca::unknown-name]") && e.contains("`$in_range`")),
        "{errors:#?}"
    );
    assert!(
        stderr.contains("technology/base/profile.yaml:13:3: warning[tosca::duplicate-name]: artifact type `Bash` is defined here as `community.tosca.technology.base:0.1:Bash`")
            && stderr.contains("io/kubernetes/1.35/core.yaml:629:9: warning[tosca::unknown-keyname]")
            && stderr.contains("io/kubernetes/1.35/apps.yaml:97:9: warning[tosca::unknown-keyname]"),
        "{stderr}"
    );
}

#[test]
fn substitutions_resolves_under_the_oasis_profiles_and_in_range_quirks() {
    if !corpus_present() {
        return;
    }
    let out = substitutions(&["--quirk", "oasis-profiles", "--quirk", "in-range"]);
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    // Each deviation is a warning where the profile makes it.
    assert!(
        stderr.contains("technology/base/profile.yaml:13:3: warning[tosca::duplicate-name]: artifact type `Bash` is defined here as `community.tosca.technology.base:0.1:Bash`")
            && stderr.contains("io/kubernetes/1.35/core.yaml:629:9: warning[tosca::unknown-keyname]")
            && stderr.contains("io/kubernetes/1.35/apps.yaml:97:9: warning[tosca::unknown-keyname]"),
        "{stderr}"
    );
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = ir["nodes"].as_array().unwrap();
    let names: Vec<&str> = nodes.iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["service-account", "pod", "deployment", "service"]);
    // The template's own `Pod` refines the Kubernetes profile's.
    assert_eq!(nodes[1]["types"][0], "Pod");
    assert_eq!(nodes[1]["types"][1], "io.kubernetes:1.35:Pod");
    // The operations' artifacts are the base profile's `Bash`, which shadows the core's.
    let create = &nodes[3]["interfaces"]["Standard"]["operations"]["create"];
    assert_eq!(
        create["implementation"]["primary"]["types"][0], "community.tosca.technology.base:0.1:Bash",
        "{create}"
    );
    // The refinements in the profile's property definitions give what the template leaves
    // out: the Service's selector and the Deployment's pod template come from the pod, the
    // path through their `pod` requirement resolved to the template `pod` it names.
    let spec = |i: usize| &nodes[i]["properties"]["spec"]["value"];
    let labels = serde_json::json!(["pod", "metadata", "labels"]);
    let args = |v: &serde_json::Value| {
        v["value"]["args"]
            .as_array()
            .map(|a| a.iter().map(|x| x["value"].clone()).collect::<Vec<_>>())
    };
    assert_eq!(spec(3)["type"]["value"], "ClusterIP");
    assert_eq!(
        args(&spec(3)["selector"]).map(serde_json::Value::from),
        Some(labels.clone())
    );
    assert_eq!(
        args(&spec(2)["selector"]["value"]["matchLabels"]).map(serde_json::Value::from),
        Some(labels)
    );
    assert_eq!(spec(2)["template"]["value"]["spec"]["kind"], "call");
    assert_eq!(
        args(&spec(2)["template"]["value"]["spec"]).map(serde_json::Value::from),
        Some(serde_json::json!(["pod", "spec"]))
    );
    // The substitution boundary: a MicroService whose endpoint is the Service's.
    let substitution = &ir["substitution"];
    assert_eq!(substitution["node_type"], "app:MicroService");
    assert_eq!(substitution["capabilities"][0]["name"], "endpoint");
    assert_eq!(substitution["capabilities"][0]["node"], 3);
}

/// Each test above that reads the corpus fails under `CI=true` when the corpus folder is gone.
#[test]
fn the_corpus_tests_fail_in_ci_without_the_corpus() {
    for test in [
        "online_boutique_needs_a_substituting_template_for_its_output",
        "online_boutique_expands_with_the_microservice_substitution",
        "kubernetes_clusters_resolves_with_its_profiles",
        "a_profile_not_on_the_profile_path_is_reported",
        "substitutions_is_refused_strictly_for_the_defects_of_its_profiles",
        "under_the_oasis_profiles_quirk_only_in_range_is_left_of_the_substitutions_errors",
        "substitutions_resolves_under_the_oasis_profiles_and_in_range_quirks",
    ] {
        common::assert_fails_in_ci_without_the_corpus(test);
    }
}
