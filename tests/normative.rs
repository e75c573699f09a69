//! Simple Profile templates get the normative types of their own version implicitly, and may
//! name them by shorthand; the non-normative types of Appendix D (Docker, MySQL, WordPress, ...)
//! come with them, and a file may redefine those without a warning.

mod common;

use common::{stderr, toscana};
use toscana::diag::{Diagnostic, Diagnostics};
use toscana::ir::Topology;
use toscana::pipeline::{ReadOptions, read};
use toscana::source::InputArg;

fn resolve(text: &str) -> (Option<Topology>, Vec<Diagnostic>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, text).unwrap();
    let mut diags = Diagnostics::new();
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    (read.topology, diags.finish())
}

fn template(version: &str, nodes: &str) -> String {
    format!("tosca_definitions_version: {version}\ntopology_template:\n  node_templates:\n{nodes}")
}

#[test]
fn shorthands_name_normative_types_of_every_kind() {
    let (topology, diags) = resolve(&template(
        "tosca_simple_yaml_1_3",
        "    server:\n      type: Compute\n    web:\n      type: tosca:WebServer\n      requirements:\n        - host:\n            node: server\n            relationship: HostedOn\n            capability: Compute\n    disk:\n      type: BlockStorage\n      properties: { name: data }\n",
    ));
    assert!(diags.is_empty(), "{diags:?}");
    let topology = topology.unwrap();
    let types: Vec<&str> = topology.nodes.iter().map(|n| n.types[0].as_str()).collect();
    assert_eq!(
        types,
        [
            "tosca.nodes.Compute",
            "tosca.nodes.WebServer",
            "tosca.nodes.Storage.BlockStorage"
        ]
    );
    let hosting = &topology.relationships[0];
    assert_eq!(
        hosting.types[..],
        ["tosca.relationships.HostedOn", "tosca.relationships.Root"]
    );
    assert_eq!(
        hosting.capability.as_deref(),
        Some("host"),
        "the Compute capability type matches the `host` capability"
    );
}

#[test]
fn requirement_definitions_of_normative_types_give_relationship_and_capability() {
    let (topology, diags) = resolve(&template(
        "tosca_simple_yaml_1_3",
        "    server:\n      type: tosca.nodes.Compute\n    app:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - host: server\n",
    ));
    assert!(diags.is_empty(), "{diags:?}");
    let rel = &topology.unwrap().relationships[0];
    assert_eq!(
        (rel.type_name.as_str(), rel.capability.as_deref()),
        ("tosca.relationships.HostedOn", Some("host"))
    );
}

#[test]
fn each_version_has_exactly_its_own_types() {
    // Storage.BlockStorage is the 1.1+ name; 1.0 calls it tosca.nodes.BlockStorage.
    let (_, diags) = resolve(&template(
        "tosca_simple_yaml_1_0",
        "    disk:\n      type: tosca.nodes.Storage.BlockStorage\n",
    ));
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, "tosca::unknown-type");
    let (topology, diags) = resolve(&template(
        "tosca_simple_yaml_1_0",
        "    disk:\n      type: BlockStorage\n      properties: { size: 1 GB }\n",
    ));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        topology.unwrap().nodes[0].types[0],
        "tosca.nodes.BlockStorage"
    );
}

#[test]
fn an_unknown_normative_looking_name_is_an_error_with_a_suggestion() {
    let (_, diags) = resolve(&template(
        "tosca_simple_yaml_1_3",
        "    s:\n      type: tosca.nodes.Compte\n",
    ));
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, "tosca::unknown-type");
    assert_eq!(
        diags[0].hint.as_deref(),
        Some("did you mean `tosca.nodes.Compute`?")
    );
}

#[test]
fn a_file_that_redefines_a_normative_type_is_warned_and_its_definition_used() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  tosca.nodes.Compute:\n    derived_from: tosca.nodes.Root\n    properties:\n      flavor: { type: string, default: small }\ntopology_template:\n  node_templates:\n    s:\n      type: Compute\n";
    let (topology, diags) = resolve(text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        (diags[0].code, diags[0].span.map(|s| s.line)),
        ("tosca::duplicate-name", Some(3))
    );
    let node = &topology.unwrap().nodes[0];
    assert_eq!(node.types[..], ["tosca.nodes.Compute", "tosca.nodes.Root"]);
    assert!(node.properties.contains_key("flavor"));
}

#[test]
fn data_types_may_derive_from_primitives() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\ndata_types:\n  my.Port:\n    derived_from: integer\n  my.Bad:\n    derived_from: integr\n";
    let (_, diags) = resolve(text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        (diags[0].code, diags[0].span.map(|s| s.line)),
        ("tosca::unknown-type", Some(6))
    );
}

#[test]
fn a_prefixed_name_resolves_through_the_import_that_declared_the_prefix() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("lib.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  Resource:\n    derived_from: tosca.nodes.Root\n",
    )
    .unwrap();
    let main = dir.path().join("main.yaml");
    std::fs::write(
        &main,
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - file: lib.yaml\n    namespace_prefix: lib\nnode_types:\n  my.Service:\n    derived_from: lib:Resource\ntopology_template:\n  node_templates:\n    s:\n      type: my.Service\n    bad:\n      type: other:Resource\n",
    )
    .unwrap();
    let mut diags = Diagnostics::new();
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(main)),
            ..ReadOptions::default()
        },
        &mut diags,
    );
    let diags = diags.finish();
    assert_eq!(
        diags.len(),
        1,
        "only the undeclared prefix is an error: {diags:?}"
    );
    assert_eq!(
        (diags[0].code, diags[0].span.map(|s| s.line)),
        ("tosca::unknown-type", Some(13))
    );
    assert_eq!(
        read.topology.unwrap().nodes[0].types[..],
        ["my.Service", "lib:Resource", "tosca.nodes.Root"]
    );
}

#[test]
fn tosca2_data_types_may_derive_from_scalar() {
    let (_, diags) = resolve(
        "tosca_definitions_version: tosca_2_0\ndata_types:\n  Length:\n    derived_from: scalar\n    units: { m: 1 }\n",
    );
    assert!(diags.is_empty(), "{diags:?}");
}

/// A WordPress site on Apache with its MySQL database, and a MySQL server in a Docker container
/// from a Docker image, using only the non-normative types of Appendix D (and, in 1.3, the
/// Docker runtime of the OASIS 1.3 non-normative library).
fn docker_and_wordpress(version: &str, runtime: &str) -> String {
    format!(
        "tosca_definitions_version: {version}
repositories:
  docker_hub: https://registry.hub.docker.com/
topology_template:
  node_templates:
    mysql_container:
      type: tosca.nodes.Container.Application.Docker
      requirements:
        - host: docker_runtime
      artifacts:
        image:
          file: mysql
          type: tosca.artifacts.Deployment.Image.Container.Docker
          repository: docker_hub
    docker_runtime:
      type: {runtime}
      requirements:
        - host: server
    server:
      type: tosca.nodes.Compute
    wordpress:
      type: tosca.nodes.WebApplication.WordPress
      properties:
        admin_user: admin
        admin_password: secret
        db_host: server
      requirements:
        - host: apache
        - database_endpoint: wordpress_db
    apache:
      type: tosca.nodes.WebServer.Apache
      requirements:
        - host: server
    wordpress_db:
      type: tosca.nodes.Database.MySQL
      properties:
        name: wordpress
        user: wp
        password: wp
        port: 3306
      requirements:
        - host: mysql
    mysql:
      type: tosca.nodes.DBMS.MySQL
      properties:
        root_password: secret
      requirements:
        - host: server
"
    )
}

#[test]
fn check_accepts_docker_and_a_wordpress_mysql_stack_in_1_0_and_1_3() {
    let dir = tempfile::tempdir().unwrap();
    for (version, runtime, warnings) in [
        // 1.0 has no Docker runtime node: the plain runtime's host capability is not a
        // Container.Docker one, which is a warning, not an error.
        (
            "tosca_simple_yaml_1_0",
            "tosca.nodes.Container.Runtime",
            ["tosca::unknown-name"].as_slice(),
        ),
        // From 1.1 on tosca.nodes.Container.Application also needs `storage` and `network`,
        // which this template leaves to the orchestrator: they name a capability only, which
        // the platform provides, so that is no warning.
        (
            "tosca_simple_yaml_1_3",
            "tosca.nodes.Container.Runtime.Docker",
            [].as_slice(),
        ),
    ] {
        let path = dir.path().join(format!("{version}.yaml"));
        std::fs::write(&path, docker_and_wordpress(version, runtime)).unwrap();
        let out = toscana().arg("check").arg(&path).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{version}:\n{err}");
        let found: Vec<&str> = err
            .lines()
            .filter_map(|l| l.split_once(": warning[")?.1.split_once(']'))
            .map(|(code, _)| code)
            .collect();
        assert_eq!(found, warnings, "{version}:\n{err}");
        assert!(!err.contains("error["), "{version}:\n{err}");
    }
}

#[test]
fn non_normative_types_resolve_with_their_relationships_in_every_version() {
    for version in [
        "tosca_simple_yaml_1_0",
        "tosca_simple_yaml_1_1",
        "tosca_simple_yaml_1_2",
        "tosca_simple_yaml_1_3",
    ] {
        let (topology, diags) = resolve(&docker_and_wordpress(
            version,
            "tosca.nodes.Container.Runtime",
        ));
        // Only the Docker container draws warnings: on a plain runtime, and (where the version
        // asks for them) for the `storage` and `network` requirements it leaves open.
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes[0], "tosca::unknown-name", "{version}: {diags:?}");
        assert!(
            codes[1..]
                .iter()
                .all(|c| *c == "tosca::unfulfilled-requirement"),
            "{version}: {diags:?}"
        );
        let topology = topology.unwrap();
        let node = |name: &str| topology.nodes.iter().find(|n| n.name == name).unwrap();
        assert_eq!(
            node("mysql").types[..],
            [
                "tosca.nodes.DBMS.MySQL",
                "tosca.nodes.DBMS",
                "tosca.nodes.SoftwareComponent",
                "tosca.nodes.Root"
            ],
            "{version}"
        );
        assert_eq!(
            node("mysql").properties.get("port"),
            Some(&toscana::ir::Value::Integer(3306)),
            "{version}: DBMS.MySQL's port defaults to 3306"
        );
        let rel = |source: &str, requirement: &str| {
            let id = topology
                .nodes
                .iter()
                .position(|n| n.name == source)
                .unwrap();
            topology
                .relationships
                .iter()
                .find(|r| r.source.index() == id && r.requirement == requirement)
                .unwrap()
        };
        let db = rel("wordpress", "database_endpoint");
        assert_eq!(
            (db.type_name.as_str(), db.capability.as_deref()),
            ("tosca.relationships.ConnectsTo", Some("database_endpoint")),
            "{version}"
        );
        let hosted = rel("wordpress_db", "host");
        assert_eq!(
            (hosted.type_name.as_str(), hosted.capability.as_deref()),
            ("tosca.relationships.HostedOn", Some("host")),
            "{version}"
        );
        let docker = rel("mysql_container", "host");
        assert_eq!(
            docker.type_name, "tosca.relationships.HostedOn",
            "{version}"
        );
    }
}

#[test]
fn the_docker_capability_has_its_shorthand() {
    for version in ["tosca_simple_yaml_1_0", "tosca_simple_yaml_1_3"] {
        let text = format!(
            "tosca_definitions_version: {version}
node_types:
  my.DockerHost:
    derived_from: tosca.nodes.Container.Runtime
    capabilities:
      host:
        type: Container.Docker
      docker:
        type: tosca:Container.Docker
topology_template:
  node_templates:
    runtime:
      type: my.DockerHost
      capabilities:
        docker:
          properties:
            publish_all: true
    app:
      type: Container.Application.Docker
      requirements:
        - host: runtime
"
        );
        let (topology, diags) = resolve(&text);
        assert!(diags.is_empty(), "{version}: {diags:?}");
        let topology = topology.unwrap();
        for cap in ["host", "docker"] {
            assert_eq!(
                topology.nodes[0].capabilities[cap].types[0], "tosca.capabilities.Container.Docker",
                "{version} {cap}"
            );
        }
        assert_eq!(
            topology.nodes[1].types[0],
            "tosca.nodes.Container.Application.Docker"
        );
        assert_eq!(
            topology.relationships[0].capability.as_deref(),
            Some("host")
        );
    }
}

#[test]
fn a_file_may_redefine_a_non_normative_type_quietly() {
    // As tosca-parser's custom_types/wordpress.yaml does: its definition replaces the built-in
    // one without a warning (a normative type redefined is warned about, see above).
    let text = "tosca_definitions_version: tosca_simple_yaml_1_0\nnode_types:\n  tosca.nodes.WebApplication.WordPress:\n    derived_from: tosca.nodes.WebApplication\n    properties:\n      admin_user: { type: string, required: false }\n      theme: { type: string, default: twentyfifteen }\ntopology_template:\n  node_templates:\n    wp:\n      type: tosca.nodes.WebApplication.WordPress\n";
    let (topology, diags) = resolve(text);
    assert!(diags.is_empty(), "{diags:?}");
    let node = &topology.unwrap().nodes[0];
    assert!(node.properties.contains_key("theme"));
    // The built-in WordPress requires admin_password and db_host; this one does not.
    assert!(!node.properties.contains_key("db_host"));
}

/// BlockStorage's `size` is needed only when no `volume_id` names an existing volume
/// (C.7.9.1 Properties of tosca.nodes.BlockStorage, checklist SP-NORM-08): from 1.1 on the type
/// gives `size` a default of 1 MB, so a template that names a volume, or gives neither, reads
/// with no error; 1.0, whose table has no default, asks for `size` unless the template gives
/// it, which the 1.0 case does.
#[test]
fn block_storage_reads_with_a_volume_id_and_no_size() {
    let (topology, diags) = resolve(&template(
        "tosca_simple_yaml_1_3",
        "    disk:\n      type: tosca.nodes.Storage.BlockStorage\n      properties: { name: data, volume_id: vol-0a1b }\n",
    ));
    assert!(diags.is_empty(), "{diags:?}");
    let node = &topology.unwrap().nodes[0];
    assert!(node.properties.contains_key("volume_id"), "{node:?}");
    let (_, diags) = resolve(&template(
        "tosca_simple_yaml_1_0",
        "    disk:\n      type: BlockStorage\n      properties: { volume_id: vol-0a1b }\n",
    ));
    assert!(
        diags.len() == 1 && diags[0].message.contains("`size`"),
        "{diags:?}"
    );
}
