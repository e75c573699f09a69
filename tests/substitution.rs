//! Substitution expansion (`src/resolve/substitution/`): which template substitutes which node,
//! how the expansion is named and wired, and the `--substitute` flag on every command that reads
//! a template. Bad inputs (no candidate, several, recursion, unmapped names, unset inputs) are
//! cases of `tests/bad_input/substitution-*`.

mod common;

use common::{corpus_root, toscana};
use serde_json::Value;

const DATA: &str = "tests/data/substitution";

fn ir(args: &[&str]) -> Value {
    let out = toscana().arg("ir").args(args).output().unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    serde_json::from_slice(&out.stdout).expect("the IR is JSON")
}

/// The names of the IR's nodes, in order.
fn node_names(ir: &Value) -> Vec<&str> {
    ir["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect()
}

fn name(ir: &Value, id: &Value) -> String {
    ir["nodes"][id.as_u64().unwrap() as usize]["name"]
        .as_str()
        .unwrap()
        .to_string()
}

/// TOSCA 2.0: each `substitute` node gets the template whose `substitution_filter` holds for
/// it, its property becomes the template's input, and the client's relationship ends at the
/// inner node and capability the capability mapping names.
#[test]
fn tosca2_substitution_filters_choose_the_template_per_node() {
    let ir = ir(&[
        &format!("{DATA}/app.yaml"),
        "--substitute",
        &format!("{DATA}/postgres.yaml"),
        "--substitute",
        &format!("{DATA}/redis.yaml"),
    ]);
    let names = node_names(&ir);
    assert_eq!(names, ["orders.postgres", "sessions.redis", "client"]);
    assert_eq!(ir["nodes"][0]["properties"]["disk"]["value"], 10);
    assert_eq!(ir["nodes"][1]["properties"]["disk"]["value"], 1);
    let rel = &ir["relationships"][0];
    assert_eq!(name(&ir, &rel["source"]), "client");
    assert_eq!(name(&ir, &rel["target"]), "orders.postgres");
    assert_eq!(rel["capability"], "store");
    assert_eq!(ir["substituted"][0]["name"], "orders");
    // The attribute mapping `address: address` gives the output's value, with the inner node
    // renamed; the outer output that read the substituted node's attribute now reads it.
    let expected = serde_json::json!({"function": "get_attribute", "args": [
        {"kind": "string", "value": "orders.postgres"}, {"kind": "string", "value": "ip"}]});
    assert_eq!(
        ir["substituted"][0]["attributes"]["address"]["value"],
        expected
    );
    assert_eq!(ir["outputs"][0]["value"]["value"], expected);
    assert_eq!(
        ir["substituted"][1]["template"],
        format!("{DATA}/redis.yaml")
    );
}

/// A `substitute` node that no candidate fits: `ir` cannot instantiate it (§15.5.1 Mapping Multiple
/// Requirements with the Same Name), `check` warns (an orchestrator may know a template), and the
/// message says why the candidate did not fit.
#[test]
fn a_substitute_node_without_a_fitting_template_is_an_error_for_ir_and_a_warning_for_check() {
    let run = |command: &str| {
        toscana()
            .args([command, &format!("{DATA}/app.yaml"), "--substitute"])
            .arg(format!("{DATA}/postgres.yaml"))
            .output()
            .unwrap()
    };
    let out = run("ir");
    let stderr = common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("app.yaml:14:5: error[tosca::substitution]: node template `sessions` is marked for substitution")
            && stderr.contains("its substitution_filter `equal(get_property(SELF, engine), postgres)` is false for this node"),
        "{stderr}"
    );
    let out = run("check");
    let stderr = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("app.yaml:14:5: warning[tosca::substitution]"),
        "{stderr}"
    );
}

/// Every command that reads a template takes `--substitute`.
#[test]
fn every_reading_command_takes_substitute() {
    let out_dir = tempfile::tempdir().unwrap();
    for command in [
        vec!["check"],
        vec!["ir"],
        vec!["k8s"],
        vec!["tf"],
        vec!["dot"],
        vec!["render", "--backend-dir", "tests/data/list-backend"],
    ] {
        let mut run = toscana();
        run.args(&command)
            .arg("golden/subst-database/input.yaml")
            .args(["--substitute", "golden/subst-database/db-stack.yaml"]);
        // `check` writes nothing, so it takes no `-o`.
        if command[0] != "check" {
            run.arg("-o").arg(out_dir.path().join(command[0]));
        }
        let out = run.output().unwrap();
        let stderr = common::stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{command:?}: {stderr}");
        assert!(
            !stderr.contains("tosca::substitution"),
            "{command:?}: {stderr}"
        );
    }
}

fn corpus_present() -> bool {
    common::corpus_present("tosca-parser", "corpus substitution tests")
}

/// tosca-parser's `system.yaml` imports the subsystem templates of the spec's chapter 13, each
/// with `substitution_mappings`: its abstract subsystem nodes are expanded, nested too
/// (`trans1.db.db_app`), and `queuingsubsystem.yaml`, which substitutes its own type with a node
/// of that type, is reported as a recursion and left alone.
#[test]
fn imported_templates_substitute_abstract_nodes_of_the_spec_chapter_13_system() {
    if !corpus_present() {
        return;
    }
    let dir = corpus_root().join("tosca-parser/topology_template");
    let out = toscana()
        .args(["check", "--max-errors", "0"])
        .arg(dir.join("system.yaml"))
        .output()
        .unwrap();
    let stderr = common::stderr(&out);
    assert!(
        stderr.contains("queuingsubsystem.yaml:39:5: warning[tosca::substitution]: substituting node template `tran_app` would recurse: ")
            && stderr.contains("queuingsubsystem.yaml → ")
            && stderr.contains("system.yaml:44:11: error[tosca::substitution]: requirement `database_endpoint` of substituted node `trans1` is fulfilled here and also inside")
            && !stderr.contains("imported file is not part of this service"),
        "{stderr}"
    );
    let out = toscana()
        .args(["ir", "-q"])
        .arg(dir.join("transactionsubsystem.yaml"))
        .arg("--substitute")
        .arg(dir.join("databasesubsystem.yaml"))
        .output()
        .unwrap();
    // transactionsubsystem.yaml leaves `db` without the `name` its type requires.
    let stderr = common::stderr(&out);
    assert!(
        stderr.contains("transactionsubsystem.yaml:53:5: error[tosca::missing-keyname]"),
        "{stderr}"
    );
}

/// ETSI NFV deployment flavours: each flavour's template maps `flavour_id` onto a constant, so
/// the node's `flavour_id` chooses; while it is an input without a value, the choice is the
/// orchestrator's.
#[test]
fn a_constant_property_mapping_chooses_the_deployment_flavour() {
    if !corpus_present() {
        return;
    }
    let csar = corpus_root().join("tosca-parser/CSAR/csar_multiple_deployment_flavour.zip");
    let out = toscana().arg("check").arg(&csar).output().unwrap();
    let stderr = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr
            .contains("substitutes node template `VNF` depends on values known only at deployment"),
        "{stderr}"
    );
    let out = toscana()
        .args(["ir", "-q", "--set", "selected_flavour=simple"])
        .arg(&csar)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let ir: Value = serde_json::from_slice(&out.stdout).unwrap();
    let substituted = ir["substituted"].as_array().unwrap();
    assert!(
        substituted[0]["template"]
            .as_str()
            .unwrap()
            .ends_with("Definitions/helloworld3_df_simple.yaml"),
        "{substituted:?}"
    );
    assert!(
        ir["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == "VNF.VDU1")
    );
}

/// TOSCA 2.0 `[requirement, count]` mappings (§15.5): the first two assignments of `backend`
/// go to the primary balancer, the rest (`UNBOUNDED`) to the spare one.
#[test]
fn counted_requirement_mappings_take_assignments_in_order() {
    let ir = ir(&[
        &format!("{DATA}/pool.yaml"),
        "--substitute",
        &format!("{DATA}/balancers.yaml"),
    ]);
    let wired: Vec<(String, String)> = ir["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (name(&ir, &r["source"]), name(&ir, &r["target"])))
        .collect();
    let pair = |s: &str, t: &str| (s.to_string(), t.to_string());
    assert_eq!(
        wired,
        [
            pair("front.primary", "b1"),
            pair("front.primary", "b2"),
            pair("front.spare", "b3")
        ]
    );
    assert_eq!(ir["nodes"][0]["requirements"].as_array().unwrap().len(), 2);
}

/// Directives are tried in order (§7.2.1 Node Template Directives): with `create` after
/// `substitute`, a node no template substitutes is created, without a diagnostic.
#[test]
fn create_after_substitute_creates_the_node_when_no_template_fits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_2_0\nimports:\n  - types.yaml\nservice_template:\n  node_templates:\n    orders:\n      type: Store\n      directives: [ substitute, create ]\n      properties:\n        engine: oracle\n        size: 3\n",
    )
    .unwrap();
    std::fs::copy(format!("{DATA}/types.yaml"), dir.path().join("types.yaml")).unwrap();
    let out = toscana()
        .arg("ir")
        .arg(&path)
        .args(["--substitute", &format!("{DATA}/postgres.yaml")])
        .output()
        .unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("tosca::substitution"), "{stderr}");
    let ir: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ir["nodes"][0]["name"], "orders");
    assert!(ir.get("substituted").is_none());
}

/// A substituting template's own abstract node is substituted in turn (`tier.db.database`),
/// and a relationship to the outer node follows both capability mappings: `sql` of the tier
/// is `database_endpoint` of its `db`, which is `database_endpoint` of the stack's `database`.
#[test]
fn nested_substitution_follows_the_boundaries_through() {
    let ir = ir(&[
        &format!("{DATA}/tier-app.yaml"),
        "--substitute",
        &format!("{DATA}/tier.yaml"),
        "--substitute",
        "golden/subst-database/db-stack.yaml",
    ]);
    let names = node_names(&ir);
    assert_eq!(
        names,
        [
            "client",
            "tier.db.database",
            "tier.db.dbms",
            "tier.db.db_server"
        ]
    );
    let rel = &ir["relationships"][0];
    assert_eq!(name(&ir, &rel["target"]), "tier.db.database");
    assert_eq!(rel["capability"], "database_endpoint");
    let records: Vec<&str> = ir["substituted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(records, ["tier", "tier.db"]);
}

/// A substituting template that imports the same file as the template it substitutes into
/// reads it again; what that finds is reported once.
#[test]
fn problems_of_a_shared_import_are_reported_once() {
    let out = toscana()
        .arg("check")
        .arg(format!("{DATA}/tier-app.yaml"))
        .args(["--substitute", &format!("{DATA}/tier.yaml")])
        .args(["--substitute", "golden/subst-database/db-stack.yaml"])
        .output()
        .unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr
            .matches("warning[tosca::unsupported]: the `topology_template` of an imported file")
            .count(),
        1,
        "{stderr}"
    );
}

/// Each test above that reads the corpus fails under `CI=true` when the corpus folder is gone.
#[test]
fn the_corpus_tests_fail_in_ci_without_the_corpus() {
    for test in [
        "imported_templates_substitute_abstract_nodes_of_the_spec_chapter_13_system",
        "a_constant_property_mapping_chooses_the_deployment_flavour",
    ] {
        common::assert_fails_in_ci_without_the_corpus(test);
    }
}
