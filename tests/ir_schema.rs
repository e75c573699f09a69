//! The committed JSON Schema of the IR is the one the types generate, and real IR validates
//! against it.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

mod common;

const SCHEMA: &str = "docs/ir.schema.json";

/// `UPDATE_GOLDEN=1` rewrites the committed schema and then fails, like the goldens (see
/// `common::update_policy`): a rewriting run never passes by itself.
#[test]
fn committed_schema_matches_the_ir_types() {
    let generated = toscana::ir::json_schema();
    let committed = fs::read_to_string(SCHEMA).unwrap_or_default();
    if common::update_golden() {
        if committed != generated {
            fs::create_dir_all("docs").unwrap();
            fs::write(SCHEMA, &generated).unwrap();
        }
        panic!(
            "UPDATE_GOLDEN=1 {} {SCHEMA}; a rewriting run never passes: read the diff, then run cargo test without UPDATE_GOLDEN",
            if committed == generated {
                "left unchanged"
            } else {
                "rewrote"
            }
        );
    }
    assert!(
        committed == generated,
        "{SCHEMA} is stale; run UPDATE_GOLDEN=1 cargo test, read the diff and commit it"
    );
}

#[test]
fn update_golden_is_refused_under_ci() {
    common::assert_rerun_fails(
        "committed_schema_matches_the_ir_types",
        &[("CI", "true".as_ref()), ("UPDATE_GOLDEN", "0".as_ref())],
        "with UPDATE_GOLDEN=0 under CI=true",
        "is refused under CI=true",
    );
}

fn validator() -> jsonschema::Validator {
    let schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(SCHEMA).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the committed schema is a valid JSON Schema")
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, ir: &serde_json::Value) {
    let errors: Vec<String> = validator
        .iter_errors(ir)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not validate against {SCHEMA}:\n{}",
        errors.join("\n")
    );
}

#[test]
fn the_ir_of_every_example_validates_against_the_schema() {
    let validator = validator();
    let mut examples: Vec<_> = fs::read_dir("examples")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    examples.sort();
    assert!(!examples.is_empty());
    for example in examples {
        // Values for the example's required inputs live in examples/inputs/<same name>.
        let mut cmd = Command::cargo_bin("toscana").unwrap();
        cmd.arg("ir").arg(&example);
        let inputs = Path::new("examples/inputs").join(example.file_name().unwrap());
        if inputs.is_file() {
            cmd.arg("--inputs").arg(inputs);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "toscana ir {} failed:\n{}",
            example.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let ir: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("toscana ir prints JSON");
        assert_valid(&validator, &example.display().to_string(), &ir);
    }
}

#[test]
fn the_schema_rejects_ir_that_breaks_its_shape() {
    let validator = validator();
    let out = Command::cargo_bin("toscana")
        .unwrap()
        .args(["ir", "examples/hello.yaml", "--set", "db_password=s3cret"])
        .output()
        .unwrap();
    let mut ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    ir["nodes"][0]["count"] = serde_json::json!({"kind": "no_such_kind"});
    assert!(
        !validator.is_valid(&ir),
        "a value with an unknown kind must not validate"
    );
}

#[test]
fn the_golden_irs_and_an_expanded_topology_validate_against_the_schema() {
    let validator = validator();
    // Every committed IR golden: TOSCA 2.0 requirements, counts, selected nodes, expansion.
    let mut goldens: Vec<_> = fs::read_dir("golden")
        .unwrap()
        .map(|e| e.unwrap().path().join("expected/ir/ir.json"))
        .filter(|p| p.is_file())
        .collect();
    goldens.sort();
    assert!(goldens.iter().any(|p| p.starts_with("golden/ir-expand")));
    for golden in goldens {
        let ir: serde_json::Value = serde_json::from_str(&fs::read_to_string(&golden).unwrap())
            .expect("a golden IR is JSON");
        assert_valid(&validator, &golden.display().to_string(), &ir);
    }
    // The expanded topology fills the fields the topology of templates leaves null.
    let out = Command::cargo_bin("toscana")
        .unwrap()
        .args(["ir", "--expand", "golden/ir-expand/input.yaml"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(ir["nodes"][0]["instance"]["template"].is_string());
    assert!(ir["relationships"][0]["instance"]["of"].is_string());
    assert_valid(&validator, "toscana ir --expand", &ir);
}
