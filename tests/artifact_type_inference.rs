//! An artifact written as a file alone gets the type its file extension tells, through the
//! artifact types' `file_ext` (Simple Profile A.5.5.2.1 Short notation, A.6.3 Artifact Type;
//! TOSCA 2.0 §12.1 Artifact Type, §11.8 Operation and Notification Implementations; checklist
//! SP-ARTT-02, SP-OP-04, T2-IMPL-03): in the IR the artifact carries that type and its ancestry,
//! in a short artifact definition, an implementation naming a file, `primary` and
//! `dependencies`. Where the extension is claimed by types of one derivation chain the most
//! derived wins; by unrelated types, the artifact stays untyped with a warning at the file
//! (see `src/resolve/artifact_types.rs`).

mod common;

use serde_json::{Value, json};

/// What `toscana ir` prints for `text`, written beside the (empty) files it names: the IR and
/// the diagnostics.
fn run(text: &str, files: &[&str]) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.yaml"), text).unwrap();
    for file in files {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
    }
    let out = common::toscana()
        .arg("ir")
        .arg(dir.path().join("t.yaml"))
        .output()
        .unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

/// The IR of `text`, which must read with no diagnostic.
fn ir(text: &str, files: &[&str]) -> Value {
    let (ir, stderr) = run(text, files);
    assert!(stderr.is_empty(), "{stderr}");
    ir
}

fn node<'v>(ir: &'v Value, name: &str) -> &'v Value {
    ir["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

/// The primary and dependency artifacts of operation `op` of `node`'s `Standard` interface.
fn implementation<'v>(node: &'v Value, op: &str) -> (&'v Value, &'v Value) {
    let im = &node["interfaces"]["Standard"]["operations"][op]["implementation"];
    (&im["primary"], &im["dependencies"])
}

const BASH_2_0: &[&str] = &[
    "org.oasis-open.simple:2.0:Implementation.Bash",
    "org.oasis-open.simple:2.0:Implementation",
    "org.oasis-open.simple:2.0:Root",
];

/// TOSCA 2.0: an implementation string that names no artifact of the node is an implicit
/// artifact (T2-IMPL-03), and so is a `primary` or a `dependencies` entry written as a file;
/// each is typed by the simple profile's `Implementation.Bash` (`file_ext: [ sh ]`) or
/// `Implementation.Python` (`[ py ]`), by identity. An extension no type lists (`.yml`) keeps
/// the artifact untyped, without a warning: an implementation's file is the orchestrator's to
/// run, and an untyped one is what the spec's own examples write.
#[test]
fn tosca_2_0_implicit_artifacts_have_the_type_their_extension_tells() {
    let ir = ir(
        "tosca_definitions_version: tosca_2_0
imports:
  - profile: org.oasis-open.simple:2.0
node_types:
  App:
    derived_from: Root
    interfaces:
      Standard:
        type: Lifecycle.Standard
        operations:
          create: scripts/create.sh
          configure:
            implementation:
              primary: scripts/configure.sh
              dependencies: [ lib/helpers.py, playbook.yml ]
service_template:
  node_templates:
    app:
      type: App
",
        &[
            "scripts/create.sh",
            "scripts/configure.sh",
            "lib/helpers.py",
            "playbook.yml",
        ],
    );
    let app = node(&ir, "app");
    let (create, _) = implementation(app, "create");
    assert_eq!(create["file"], "scripts/create.sh");
    assert_eq!(create["type"], BASH_2_0[0]);
    assert_eq!(create["types"], json!(BASH_2_0));
    let (primary, dependencies) = implementation(app, "configure");
    assert_eq!(primary["types"], json!(BASH_2_0));
    assert_eq!(
        dependencies[0]["type"],
        "org.oasis-open.simple:2.0:Implementation.Python"
    );
    assert_eq!(dependencies[1]["file"], "playbook.yml");
    assert_eq!(dependencies[1]["type"], Value::Null);
    assert_eq!(dependencies[1]["types"], json!([]));
}

/// TOSCA 2.0's short artifact form `name: file` (ex-178's `zip: /data/wordpress.zip`, no form of
/// §12.2's grammar; T2-ARTDEF-05's DECIDE) reads as `{ file: <it> }` typed by its extension, in a
/// node type and in a node template alike, and `$get_artifact` reaches it.
#[test]
fn tosca_2_0_short_artifact_definitions_have_the_type_their_extension_tells() {
    let ir = ir(
        "tosca_definitions_version: tosca_2_0
imports:
  - profile: org.oasis-open.simple:2.0
artifact_types:
  Zip:
    derived_from: Root
    file_ext: [ zip ]
node_types:
  WordPress:
    derived_from: Root
    artifacts:
      setup: scripts/setup.sh
    interfaces:
      Standard:
        type: Lifecycle.Standard
        operations:
          create:
            implementation: setup
            inputs:
              wp-zip: { $get_artifact: [ SELF, zip ] }
service_template:
  node_templates:
    wordpress:
      type: WordPress
      artifacts:
        zip: data/wordpress.zip
",
        &["scripts/setup.sh", "data/wordpress.zip"],
    );
    let wordpress = node(&ir, "wordpress");
    let artifacts = &wordpress["artifacts"];
    assert_eq!(artifacts["setup"]["file"], "scripts/setup.sh");
    assert_eq!(artifacts["setup"]["types"], json!(BASH_2_0));
    assert_eq!(artifacts["zip"]["file"], "data/wordpress.zip");
    assert_eq!(artifacts["zip"]["type"], "Zip");
}

/// TOSCA 2.0 with a template's own artifact type derived from the profile's Python type and
/// claiming `py` too: the derived type is the more specific statement, so it wins, and the
/// ancestry still lists the profile's type. A type that only inherits `file_ext` claims nothing.
#[test]
fn tosca_2_0_a_derived_type_that_restates_the_extension_wins() {
    let ir = ir(
        "tosca_definitions_version: tosca_2_0
imports:
  - profile: org.oasis-open.simple:2.0
artifact_types:
  Python3:
    derived_from: Implementation.Python
    file_ext: [ py ]
  Quiet:
    derived_from: Implementation.Bash
node_types:
  App:
    derived_from: Root
    interfaces:
      Standard:
        type: Lifecycle.Standard
        operations:
          create: setup.py
          start: start.sh
service_template:
  node_templates:
    app:
      type: App
",
        &["setup.py", "start.sh"],
    );
    let app = node(&ir, "app");
    let (create, _) = implementation(app, "create");
    assert_eq!(create["type"], "Python3");
    assert_eq!(
        create["types"],
        json!([
            "Python3",
            "org.oasis-open.simple:2.0:Implementation.Python",
            "org.oasis-open.simple:2.0:Implementation",
            "org.oasis-open.simple:2.0:Root"
        ])
    );
    let (start, _) = implementation(app, "start");
    assert_eq!(start["types"], json!(BASH_2_0));
}

const CLAIMS: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
artifact_types:
  Archive:
    derived_from: tosca.artifacts.Deployment
    file_ext: [ gz ]
  TarArchive:
    derived_from: tosca.artifacts.Deployment
    file_ext: [ tar.gz ]
  MyBash:
    derived_from: tosca.artifacts.Implementation.Bash
    file_ext: [ SH ]
  Inherits:
    derived_from: tosca.artifacts.Implementation.Python
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      artifacts:
        backup: backup.tar.gz
        log: log.gz
        install: install.sh
        shout: SHOUT.SH
        remote: https://example.org/get.py?ref=main
      interfaces:
        Standard:
          configure: configure.sh
      requirements:
        - host: server
    server:
      type: tosca.nodes.Compute
";

/// Simple Profile: the longest extension wins (`backup.tar.gz` is a `TarArchive`, `log.gz` an
/// `Archive`); extensions compare without letter case, both in `file_ext` and in the file;
/// `MyBash`, derived from the normative Bash type and restating `sh`, wins over it in short
/// definitions and implementations alike; `Inherits` lists no extension of its own, so `.py`
/// stays the normative Python type's, also behind a URL's query.
#[test]
fn simple_profile_the_longest_extension_and_the_most_derived_claimant_win() {
    let ir = ir(
        CLAIMS,
        &[
            "backup.tar.gz",
            "log.gz",
            "install.sh",
            "SHOUT.SH",
            "configure.sh",
        ],
    );
    let app = node(&ir, "app");
    let artifacts = &app["artifacts"];
    let type_of = |name: &str| artifacts[name]["type"].as_str().unwrap().to_string();
    assert_eq!(type_of("backup"), "TarArchive");
    assert_eq!(type_of("log"), "Archive");
    assert_eq!(type_of("install"), "MyBash");
    assert_eq!(type_of("shout"), "MyBash");
    assert_eq!(type_of("remote"), "tosca.artifacts.Implementation.Python");
    assert_eq!(
        artifacts["install"]["types"],
        json!([
            "MyBash",
            "tosca.artifacts.Implementation.Bash",
            "tosca.artifacts.Implementation",
            "tosca.artifacts.Root"
        ])
    );
    let (configure, _) = implementation(app, "configure");
    assert_eq!(configure["type"], "MyBash");
}

const AMBIGUOUS: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
artifact_types:
  ZipDeployment:
    derived_from: tosca.artifacts.Deployment
    file_ext: [ zip ]
  ZipFile:
    derived_from: tosca.artifacts.File
    file_ext: [ zip ]
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      artifacts:
        bundle: bundle.zip
      interfaces:
        Standard:
          create: other.zip
      requirements:
        - host: server
    server:
      type: tosca.nodes.Compute
";

/// Two unrelated types claiming one extension: the artifact keeps no type (neither is more
/// right) and a warning at the file names both, in a short definition and in an
/// implementation; the types are listed in one order whatever order they are defined in.
#[test]
fn an_extension_unrelated_types_claim_leaves_the_artifact_untyped_with_a_warning() {
    let files = ["bundle.zip", "other.zip"];
    let (ir, stderr) = run(AMBIGUOUS, &files);
    let app = node(&ir, "app");
    assert_eq!(app["artifacts"]["bundle"]["type"], Value::Null);
    assert_eq!(app["artifacts"]["bundle"]["types"], json!([]));
    let (create, _) = implementation(app, "create");
    assert_eq!(create["type"], Value::Null);
    assert!(
        stderr.contains("t.yaml:14:17: warning[tosca::ambiguous-name]: the type of artifact `bundle` (`bundle.zip`) cannot be inferred: artifact types `ZipDeployment`, `ZipFile` all list the extension `zip`, and none derives from another"),
        "{stderr}"
    );
    assert!(
        stderr.contains("t.yaml:17:19: warning[tosca::ambiguous-name]: the type of implementation file `other.zip` cannot be inferred"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning[").count(), 2, "{stderr}");
    let swapped = AMBIGUOUS.replacen(
        "  ZipDeployment:\n    derived_from: tosca.artifacts.Deployment\n    file_ext: [ zip ]\n  ZipFile:\n    derived_from: tosca.artifacts.File\n    file_ext: [ zip ]\n",
        "  ZipFile:\n    derived_from: tosca.artifacts.File\n    file_ext: [ zip ]\n  ZipDeployment:\n    derived_from: tosca.artifacts.Deployment\n    file_ext: [ zip ]\n",
        1,
    );
    assert_ne!(swapped, AMBIGUOUS);
    let (_, swapped_stderr) = run(&swapped, &files);
    assert_eq!(warnings(&swapped_stderr), warnings(&stderr));
}

/// The warning lines of `stderr`, from the file name on (the folder is a fresh one per run).
fn warnings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("warning["))
        .filter_map(|l| l.find("t.yaml:").map(|at| &l[at..]))
        .collect()
}
