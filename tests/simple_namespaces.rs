//! Simple Profile `namespace_prefix` imports: definitions imported with a prefix live under
//! that prefix (Simple Profile 1.2/1.3, import definition: the prefix "will be used to
//! indicate the namespace_uri when forming a qualified name (i.e., qname) when referencing type
//! definitions from the imported file"), so two imported files may each define a type of the
//! same name. Each file names its own definitions unqualified; its importer names them
//! `prefix:Name`. The bad-input counterpart is `namespace-1-x-prefixed-name-unqualified`.

mod common;

use std::fs;

use common::{corpus_present, corpus_root, stderr, toscana};

/// Writes `files` into a fresh folder and checks `main.yaml` there.
fn check(files: &[(&str, &str)]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    let out = toscana()
        .current_dir(dir.path())
        .args(["check", "main.yaml"])
        .output()
        .unwrap();
    (out.status.success(), stderr(&out))
}

const NETWORK: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      port: { type: integer }
capability_types:
  Reachable:
    derived_from: tosca.capabilities.Root
    properties:
      endpoint: { type: Endpoint }
";

const STORAGE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      bucket: { type: string }
";

#[test]
fn two_prefixed_imports_may_define_the_same_name() {
    let main = "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - namespace_prefix: net
    file: network.yaml
  - namespace_prefix: store
    file: storage.yaml
node_types:
  Service:
    derived_from: tosca.nodes.Root
    properties:
      public: { type: net:Endpoint }
      data: { type: store:Endpoint }
    capabilities:
      reach: { type: net:Reachable }
topology_template:
  node_templates:
    service:
      type: Service
      properties:
        public: { port: 443 }
        data: { bucket: files }
      capabilities:
        reach:
          properties:
            endpoint: { port: 80 }
";
    let (ok, stderr) = check(&[
        ("main.yaml", main),
        ("network.yaml", NETWORK),
        ("storage.yaml", STORAGE),
    ]);
    assert!(ok && !stderr.contains("error["), "{stderr}");
    assert!(!stderr.contains("defined twice"), "{stderr}");
}

#[test]
fn a_prefixed_definition_is_not_reachable_unqualified() {
    let main = "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - namespace_prefix: store
    file: storage.yaml
node_types:
  Service:
    derived_from: tosca.nodes.Root
    properties:
      data: { type: Endpoint }
";
    let (ok, stderr) = check(&[("main.yaml", main), ("storage.yaml", STORAGE)]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("main.yaml:9:21: error[tosca::unknown-type]"),
        "{stderr}"
    );
}

/// The real Puccini KubeVirt profile imports the Kubernetes profile as `k8s`, and both define
/// `Port`, `ResourceRequirements` and `Volume`: no definition is reported twice (its import of
/// the orchestration profile, which the corpus did not copy, is still not found).
#[test]
fn the_kubevirt_profile_and_the_kubernetes_profile_it_prefixes_do_not_collide() {
    if !corpus_present("oasis/profiles/cloud/puccini", "the Puccini profiles") {
        return;
    }
    let out = toscana()
        .current_dir(corpus_root().join("oasis/profiles/cloud/puccini"))
        .args(["check", ".", "--entry", "kubevirt/1.0/profile.yaml"])
        .output()
        .unwrap();
    let stderr = stderr(&out);
    assert!(!stderr.contains("defined twice"), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error[")).collect();
    assert!(
        errors
            .iter()
            .all(|l| l.contains("o11n") || l.contains("orchestration/1.0")),
        "{stderr}"
    );
}
