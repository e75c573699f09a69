//! Hosting chains, deployment order and lifecycle steps, on templates read through the pipeline,
//! and the artifact files a backend reads for them.

use super::*;
use crate::diag::Diagnostics;
use crate::ir::Hosting;
use crate::limits::Limits;
use crate::pipeline::{Read, ReadOptions, read};
use crate::source::InputArg;

/// Writes `files` into a temporary folder and reads `files[0]` (or the folder, when `dir`).
fn read_files(files: &[(&str, &str)], dir: bool) -> (tempfile::TempDir, Read) {
    let tmp = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = tmp.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let input = if dir {
        tmp.path().to_path_buf()
    } else {
        tmp.path().join(files[0].0)
    };
    let mut diags = Diagnostics::with_cap(0);
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(input)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    assert!(!diags.has_errors(), "{:?}", diags.finish());
    (tmp, read)
}

fn id(topology: &Topology, name: &str) -> NodeId {
    topology
        .node_ids()
        .find(|&id| topology[id].name == name)
        .unwrap()
}

fn names(topology: &Topology, ids: &[NodeId]) -> Vec<String> {
    ids.iter()
        .map(|i| topology.nodes[i.index()].name.clone())
        .collect()
}

/// A LAMP-like stack written out of order: the app is listed before its host and needs the
/// database, which sits on the same server.
const STACK: &str = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  shop.App:
    derived_from: tosca.nodes.WebApplication
    requirements:
      - database:
          capability: tosca.capabilities.Endpoint.Database
          relationship: tosca.relationships.ConnectsTo
topology_template:
  node_templates:
    app:
      type: shop.App
      requirements:
        - host: web
        - database: { node: db, relationship: tosca.relationships.ConnectsTo }
      interfaces:
        Standard:
          create: scripts/app-install.sh
          configure:
            implementation: scripts/app-configure.sh
            inputs: { db_host: db.local }
    web:
      type: tosca.nodes.WebServer
      requirements:
        - host: server
      interfaces:
        Standard:
          start: scripts/web-start.sh
    db:
      type: tosca.nodes.DBMS
      requirements:
        - host: server
      interfaces:
        Standard:
          create: scripts/db-install.sh
    server:
      type: tosca.nodes.Compute
    lonely:
      type: tosca.nodes.Compute
"#;

#[test]
fn hosting_chains_end_at_their_root() {
    let (_tmp, read) = read_files(&[("t.yaml", STACK)], false);
    let topology = read.topology.unwrap();
    let hosting = Hosting::new(&topology);
    let [app, web, db, server, lonely] =
        ["app", "web", "db", "server", "lonely"].map(|n| id(&topology, n));
    assert_eq!(hosting.host(app), Some(web));
    assert_eq!(hosting.host(web), Some(server));
    assert_eq!(hosting.host(server), None);
    assert_eq!(hosting.root(app), server);
    assert_eq!(hosting.root(lonely), lonely);
    assert_eq!(hosting.hosted(server), &[web, db]);
    assert!(hosting.hosted(app).is_empty());
}

#[test]
fn a_stack_deploys_hosts_and_requirement_targets_first() {
    let (_tmp, read) = read_files(&[("t.yaml", STACK)], false);
    let topology = read.topology.unwrap();
    let hosting = Hosting::new(&topology);
    let order = hosting.stack(&topology, id(&topology, "server"));
    // web and db wait only for the server and keep their source order; app, listed first,
    // waits for its host web and for db, which it requires.
    assert_eq!(names(&topology, &order), ["server", "web", "db", "app"]);
    let alone = hosting.stack(&topology, id(&topology, "lonely"));
    assert_eq!(names(&topology, &alone), ["lonely"]);
}

#[test]
fn lifecycle_steps_follow_the_stack_and_the_standard_order() {
    let (_tmp, read) = read_files(&[("t.yaml", STACK)], false);
    let topology = read.topology.unwrap();
    let hosting = Hosting::new(&topology);
    let order = hosting.stack(&topology, id(&topology, "server"));
    let steps: Vec<(String, &str, String)> =
        lifecycle_steps(&topology, &order, &crate::back::Ledger::new())
            .iter()
            .map(|s| {
                (
                    topology.nodes[s.node.index()].name.clone(),
                    s.operation,
                    s.implementation.primary.as_ref().unwrap().file.clone(),
                )
            })
            .collect();
    let expected = [
        ("web", "start", "scripts/web-start.sh"),
        ("db", "create", "scripts/db-install.sh"),
        ("app", "create", "scripts/app-install.sh"),
        ("app", "configure", "scripts/app-configure.sh"),
    ];
    assert_eq!(
        steps,
        expected.map(|(n, o, f)| (n.to_string(), o, f.to_string()))
    );
    let configure = lifecycle_steps(&topology, &order, &crate::back::Ledger::new())[3];
    assert!(configure.inputs.contains_key("db_host"));
}

#[test]
fn a_dependency_cycle_inside_a_stack_still_places_every_node() {
    let yaml = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    b:
      type: tosca.nodes.SoftwareComponent
      requirements: [ { host: s }, { dependency: a } ]
    a:
      type: tosca.nodes.SoftwareComponent
      requirements: [ { host: s }, { dependency: b } ]
    s:
      type: tosca.nodes.Compute
"#;
    let (_tmp, read) = read_files(&[("t.yaml", yaml)], false);
    let topology = read.topology.unwrap();
    let hosting = Hosting::new(&topology);
    let order = hosting.stack(&topology, id(&topology, "s"));
    assert_eq!(names(&topology, &order), ["s", "b", "a"]);
}

#[test]
fn scripts_are_read_from_the_template_folder() {
    let (_tmp, read) = read_files(
        &[
            ("t.yaml", STACK),
            ("scripts/web-start.sh", "#!/bin/sh\nexec nginx\n"),
        ],
        false,
    );
    let topology = read.topology.unwrap();
    let web = &topology.nodes[id(&topology, "web").index()];
    let start = web.interfaces["Standard"].operations["start"]
        .implementation
        .as_ref()
        .unwrap()
        .primary
        .as_ref()
        .unwrap();
    let limits = Limits::default();
    assert_eq!(
        read.artifacts
            .read(start.path.as_deref(), None, &limits)
            .unwrap(),
        b"#!/bin/sh\nexec nginx\n"
    );
    let db = &topology.nodes[id(&topology, "db").index()];
    let create = db.interfaces["Standard"].operations["create"]
        .implementation
        .as_ref()
        .unwrap()
        .primary
        .as_ref()
        .unwrap();
    let missing = read
        .artifacts
        .read(create.path.as_deref(), None, &limits)
        .unwrap_err();
    assert!(missing.contains("scripts/db-install.sh") && missing.contains("does not exist"));
}

#[test]
fn an_unpacked_csar_keeps_artifact_reads_inside_it() {
    let yaml = r#"
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    s:
      type: tosca.nodes.Compute
      artifacts:
        inside: { file: ../files/ok.txt, type: tosca.artifacts.File }
        outside: { file: ../../secret.txt, type: tosca.artifacts.File }
"#;
    let meta = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: test\nEntry-Definitions: defs/t.yaml\n";
    let (tmp, read) = read_files(
        &[
            ("csar/defs/t.yaml", yaml),
            ("csar/TOSCA-Metadata/TOSCA.meta", meta),
            ("csar/files/ok.txt", "ok"),
            ("secret.txt", "secret"),
        ],
        false,
    );
    drop(read);
    let mut diags = Diagnostics::with_cap(0);
    let read = crate::pipeline::read(
        &ReadOptions {
            input: Some(InputArg::Path(tmp.path().join("csar"))),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    let topology = read.topology.unwrap();
    let artifacts = &topology.nodes[0].artifacts;
    let limits = Limits::default();
    assert_eq!(
        read.artifacts
            .read(artifacts["inside"].path.as_deref(), None, &limits)
            .unwrap(),
        b"ok"
    );
    let refused = read
        .artifacts
        .read(artifacts["outside"].path.as_deref(), None, &limits)
        .unwrap_err();
    assert!(
        refused.contains("outside the CSAR directory") && !refused.contains("secret\""),
        "{refused}"
    );
}
