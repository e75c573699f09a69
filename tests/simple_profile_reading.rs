//! How the Simple Profile's requirement, interface and artifact grammar is read into the IR,
//! item by item of the checklist (`../shared/checklists/simple-profile.md`): requirement order
//! kept (SP-NT-02), the long form of `relationship` in definitions and assignments with their
//! interfaces (SP-REQD-03, SP-REQA-03, SP-IF-05), interface-level and operation-level inputs
//! each kept where written (SP-IF-03), an operation naming an artifact of its node (SP-OP-04),
//! artifact definitions (SP-ARTD-01), and artifact types whose optional `mime_type` and
//! `file_ext` let a short artifact definition infer its type (SP-ARTT-01, SP-ARTT-02, SP-ARTD-02).
//! Each template reads with no diagnostic at all.

mod common;

use serde_json::Value;

/// The IR of `text`, written beside the (empty) script files it names; panics on any
/// diagnostic.
fn ir(text: &str, scripts: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.yaml"), text).unwrap();
    for script in scripts {
        std::fs::write(dir.path().join(script), "").unwrap();
    }
    let out = common::toscana()
        .arg("ir")
        .arg(dir.path().join("t.yaml"))
        .output()
        .unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn node<'v>(ir: &'v Value, name: &str) -> &'v Value {
    ir["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

const SHOP: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Shop:
    derived_from: tosca.nodes.WebApplication
    artifacts:
      installer:
        type: tosca.artifacts.Implementation.Bash
        file: install.sh
    requirements:
      - database:
          capability: tosca.capabilities.Endpoint.Database
          relationship:
            type: tosca.relationships.ConnectsTo
            interfaces:
              Configure:
                inputs:
                  schema: { type: string, required: false }
      - cache:
          capability: tosca.capabilities.Endpoint
          relationship: tosca.relationships.ConnectsTo
    interfaces:
      Standard:
        inputs:
          level: { type: integer, default: 1 }
          mode: { type: string, default: fast }
        create: installer
        configure:
          implementation: configure.sh
          inputs:
            mode: { type: string, default: slow }
topology_template:
  node_templates:
    shop:
      type: Shop
      requirements:
        - host: web
        - cache: web
        - database:
            node: db
            relationship:
              type: tosca.relationships.ConnectsTo
              properties: { credential: { user: shop, token: secret } }
              interfaces:
                Configure:
                  pre_configure_source:
                    implementation: wire.sh
                    inputs:
                      schema: shop
    web:
      type: tosca.nodes.WebServer
      capabilities:
        data_endpoint:
          properties: { port: 8080 }
      requirements:
        - host: server
    db:
      type: tosca.nodes.Database
      properties: { name: shop }
      requirements:
        - host: dbms
    dbms:
      type: tosca.nodes.DBMS
      requirements:
        - host: server
    server:
      type: tosca.nodes.Compute
";

const SCRIPTS: &[&str] = &["install.sh", "configure.sh", "wire.sh"];

/// "Requirements are intentionally expressed as a sequenced list ... which SHOULD be resolved
/// (processed) in sequence order" (A.6.8.3 Additional Requirements): the IR keeps the order the
/// template writes, inherited `dependency` (never assigned) aside.
#[test]
fn requirement_assignments_keep_their_order() {
    let ir = ir(SHOP, SCRIPTS);
    let names: Vec<&str> = node(&ir, "shop")["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["host", "cache", "database"]);
}

/// The long form of `relationship` (A.6.2 Requirement definition, A.7.2 Requirement
/// assignment): a definition's `{type, interfaces}` declares inputs of the relationship's
/// interface, and an assignment's `{type, properties, interfaces}` gives the relationship its
/// property values and an operation with input values.
#[test]
fn the_long_form_of_relationship_gives_properties_and_interfaces() {
    let ir = ir(SHOP, SCRIPTS);
    let rel = ir["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "shop.database")
        .expect("the database relationship");
    assert_eq!(rel["type"], "tosca.relationships.ConnectsTo");
    assert_eq!(
        rel["properties"]["credential"]["value"]["user"]["value"],
        "shop"
    );
    let operation = &rel["interfaces"]["Configure"]["operations"]["pre_configure_source"];
    assert_eq!(operation["implementation"]["primary"]["file"], "wire.sh");
    assert_eq!(operation["inputs"]["schema"]["value"], "shop");
}

/// Interface-level inputs apply to every operation, operation-level ones to theirs, and the
/// innermost wins (A.5.12 Interface definition, A.5.13 Operation definition): the IR keeps each
/// where it is written, `mode` both on the interface (`fast`) and on `configure` (`slow`), so a
/// reader takes the operation's first.
#[test]
fn interface_inputs_and_operation_inputs_stay_in_their_scopes() {
    let ir = ir(SHOP, SCRIPTS);
    let standard = &node(&ir, "shop")["interfaces"]["Standard"];
    assert_eq!(standard["inputs"]["level"]["value"], 1);
    assert_eq!(standard["inputs"]["mode"]["value"], "fast");
    assert_eq!(
        standard["operations"]["configure"]["inputs"]["mode"]["value"],
        "slow"
    );
    assert!(standard["operations"]["create"]["inputs"]["mode"].is_null());
}

/// An operation's implementation names an artifact of its node first, and a file otherwise
/// (A.5.13 Operation definition; checklist SP-OP-04): `create: installer` is the type's
/// `installer` artifact, a Bash script with its artifact type; `configure.sh` is a file, whose
/// type its extension tells through the normative Bash type's `file_ext: [ sh ]` (A.6.3
/// Artifact Type; SP-ARTT-02), in a node's and a relationship's interface alike. The artifact is
/// an extended definition with `type` and `file` (A.5.5 Artifact definition).
#[test]
fn an_implementation_names_an_artifact_before_a_file() {
    let ir = ir(SHOP, SCRIPTS);
    let operations = &node(&ir, "shop")["interfaces"]["Standard"]["operations"];
    let create = &operations["create"]["implementation"]["primary"];
    assert_eq!(create["name"], "installer");
    assert_eq!(create["type"], "tosca.artifacts.Implementation.Bash");
    assert_eq!(create["file"], "install.sh");
    let configure = &operations["configure"]["implementation"]["primary"];
    assert_eq!(configure["file"], "configure.sh");
    let bash = [
        "tosca.artifacts.Implementation.Bash",
        "tosca.artifacts.Implementation",
        "tosca.artifacts.Root",
    ];
    assert_eq!(configure["type"], bash[0]);
    assert_eq!(configure["types"], serde_json::json!(bash));
    let rel = ir["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "shop.database")
        .expect("the database relationship");
    let wire = &rel["interfaces"]["Configure"]["operations"]["pre_configure_source"]["implementation"]
        ["primary"];
    assert_eq!(wire["file"], "wire.sh");
    assert_eq!(wire["types"], serde_json::json!(bash));
}

/// Artifact types with and without their optional `mime_type` and `file_ext` (A.6.3 Artifact
/// Type): a short artifact definition whose extension one of them lists (`.war`, in any case)
/// reads with no warning and has that type, and so does a `.py` one, which the normative
/// Python type lists (A.5.5.2.1 Short notation; SP-ARTD-02); an extended one names a type
/// without `file_ext` (the valid counterparts of `artifact-1-x-*`).
#[test]
fn artifact_types_list_the_extensions_short_definitions_use() {
    let ir = ir(
        "tosca_definitions_version: tosca_simple_yaml_1_3
artifact_types:
  WebArchive:
    derived_from: tosca.artifacts.Deployment
    mime_type: application/java-archive
    file_ext: [ war ]
  Notes:
    derived_from: tosca.artifacts.File
node_types:
  Shop:
    derived_from: tosca.nodes.WebApplication
    artifacts:
      notes: { type: Notes, file: notes.txt }
topology_template:
  node_templates:
    shop:
      type: Shop
      artifacts:
        archive: shop.WAR
        tool: tool.py
      requirements:
        - host: web
    web:
      type: tosca.nodes.WebServer
      requirements:
        - host: server
    server:
      type: tosca.nodes.Compute
",
        &["notes.txt", "shop.WAR", "tool.py"],
    );
    let artifacts = &node(&ir, "shop")["artifacts"];
    assert_eq!(artifacts["archive"]["file"], "shop.WAR");
    assert_eq!(artifacts["archive"]["type"], "WebArchive");
    assert_eq!(
        artifacts["archive"]["types"],
        serde_json::json!([
            "WebArchive",
            "tosca.artifacts.Deployment",
            "tosca.artifacts.Root"
        ])
    );
    assert_eq!(
        artifacts["tool"]["type"],
        "tosca.artifacts.Implementation.Python"
    );
    assert_eq!(artifacts["notes"]["type"], "Notes");
}
