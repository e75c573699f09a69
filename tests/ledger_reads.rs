//! The not-translated ledger as the Kubernetes and Terraform backends feed it (issue 26,
//! "nothing silently dropped"): each capability property is accounted for by itself, so one
//! that the translation reads is never warned and one it does not read always is, whether the
//! backend reads it directly (an endpoint's `port`, `scalable.default_instances`), through
//! `get_property` (an output's value), or not at all (`endpoint.secure`).

mod common;

use std::path::Path;

use serde_json::Value;

/// The `backend::not-translated` warnings of `toscana <command> t.yaml` on `tosca`, each as
/// `line:column: message`.
fn not_translated(command: &str, tosca: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.yaml"), tosca).unwrap();
    std::fs::write(dir.path().join("install.sh"), "echo installed\n").unwrap();
    let output = common::toscana()
        .current_dir(dir.path())
        .args([command, "t.yaml", "-o", "out", "--message-format", "json"])
        .output()
        .expect("toscana runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(Path::new(&dir.path().join("out")).is_dir());
    stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|d| d["code"] == "backend::not-translated")
        .map(|d| {
            format!(
                "{}:{}: {}",
                d["line"],
                d["column"],
                d["message"].as_str().unwrap()
            )
        })
        .collect()
}

const K8S: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  example.Service:
    derived_from: tosca.nodes.Container.Application
    capabilities:
      http: { type: tosca.capabilities.Endpoint }
topology_template:
  node_templates:
    vm:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 2, mem_size: 4 GB }
        os:
          properties: { distribution: ubuntu, type: linux, version: 22.04, architecture: x86_64 }
        scalable:
          properties: { default_instances: 3, max_instances: 5 }
    web:
      type: example.Service
      artifacts:
        image: { type: tosca.artifacts.Deployment.Image, file: nginx:1.27 }
      capabilities:
        http:
          properties: { port: 8080, protocol: http, url_path: /health, secure: true }
"#;

#[test]
fn k8s_accounts_for_each_capability_property_it_reads() {
    // Read: the host's sizes (requests), the os's distribution and version (the image, a
    // Linux one as `type` says), `scalable.default_instances` (replicas), the endpoint's port,
    // protocol and path (the Service and the probe). Not read: `os.architecture` and
    // `scalable.max_instances` (no scaling policy, so no autoscaler), `http.secure`.
    assert_eq!(
        not_translated("k8s", K8S),
        [
            "9:5: node `vm`: k8s does not translate capability property `os.architecture`, capability property `scalable.max_instances`",
            "18:5: node `web`: k8s does not translate capability property `http.secure`",
        ]
    );
    // A `type` the distribution's image is not is left out, and said.
    let windows = not_translated("k8s", &K8S.replace("type: linux", "type: windows"));
    assert!(
        windows[0].contains("capability property `os.type`, capability property `os.architecture`"),
        "{windows:?}"
    );
}

const TF: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    vm:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 2, mem_size: 4 GB }
        os:
          properties: { distribution: ubuntu, type: linux, version: 22.04 }
        scalable:
          properties: { min_instances: 1, max_instances: 4, default_instances: 2 }
        endpoint:
          properties: { port: 8080, protocol: tcp, secure: true, port_name: web }
  policies:
    - grow:
        type: tosca.policies.Scaling
        targets: [ vm ]
        properties: { min_instances: 1, max_instances: 3 }
  outputs:
    port_name:
      value: { get_property: [ vm, endpoint, port_name ] }
"#;

#[test]
fn terraform_accounts_for_scalable_get_property_and_each_capability_property() {
    // The policy's bounds win over the capability's, whose `default_instances` is the
    // desired capacity; `endpoint.port_name` reaches the output through `get_property`;
    // `endpoint.secure` reaches nothing.
    assert_eq!(
        not_translated("tf", TF),
        [
            "4:5: node `vm`: terraform-aws does not translate capability property `endpoint.secure`, capability property `scalable.min_instances`, capability property `scalable.max_instances`"
        ]
    );
}

#[test]
fn terraform_records_a_get_property_it_resolves_itself() {
    // A `get_property` whose value depends on an input stays a call in the IR, and the
    // Terraform backend resolves it to the input's variable: the capability property it names
    // is read, so only the unread `secure` is warned.
    let tosca = TF
        .replace(
            "topology_template:\n",
            "topology_template:\n  inputs:\n    name: { type: string, default: web }\n",
        )
        .replace("port_name: web }", "port_name: { get_input: name } }");
    let warned = not_translated("tf", &tosca);
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].contains("`endpoint.secure`"), "{warned:?}");
    assert!(!warned[0].contains("port_name"), "{warned:?}");
}
