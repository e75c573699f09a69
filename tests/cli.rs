//! The command line as users meet it: exit codes, diagnostics with file:line:col, JSON
//! diagnostics, refusal of unsafe CSARs, and help texts with examples.

use std::fs;
use std::io::Write;

mod common;

use assert_cmd::Command;

use common::{stderr, toscana};

const DUPLICATE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    web:\n      type: tosca.nodes.Compute\n    web:\n      type: tosca.nodes.Compute\n";

#[test]
fn a_duplicate_key_is_reported_at_both_places_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dup.yaml");
    fs::write(&path, DUPLICATE).unwrap();
    let out = toscana().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    let shown = path.display().to_string();
    assert!(
        text.contains(&format!("{shown}:6:5: error[yaml::duplicate-key]")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{shown}:4:5: first defined here")),
        "{text}"
    );
}

#[test]
fn json_diagnostics_are_one_object_per_line_with_both_locations() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dup.yaml");
    fs::write(&path, DUPLICATE).unwrap();
    let out = toscana()
        .arg("check")
        .arg(&path)
        .args(["--message-format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stderr(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let dup = lines
        .iter()
        .find(|d| d["code"] == "yaml::duplicate-key")
        .expect("a duplicate-key diagnostic");
    assert_eq!(dup["severity"], "error");
    assert_eq!(dup["file"], path.display().to_string());
    assert_eq!(
        (dup["line"].as_u64(), dup["column"].as_u64()),
        (Some(6), Some(5))
    );
    let labels = dup["labels"].as_array().unwrap();
    assert!(
        labels.iter().any(|l| l["line"] == 4 && l["column"] == 5),
        "{dup}"
    );
}

#[test]
fn a_csar_with_a_parent_directory_entry_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let csar = dir.path().join("evil.csar");
    let mut zip = zip::ZipWriter::new(fs::File::create(&csar).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("service.yaml", options).unwrap();
    zip.write_all(b"tosca_definitions_version: tosca_simple_yaml_1_3\n")
        .unwrap();
    zip.start_file("../evil", options).unwrap();
    zip.write_all(b"gotcha").unwrap();
    zip.finish().unwrap();
    let out_dir = dir.path().join("out");
    let out = toscana()
        .arg("ir")
        .arg(&csar)
        .arg("-o")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("../evil"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("csar::unsafe-path"),
        "{}",
        stderr(&out)
    );
    assert!(
        !out_dir.exists(),
        "nothing may be written for a refused CSAR"
    );
    assert!(!dir.path().parent().unwrap().join("evil").exists());
}

#[test]
fn a_missing_file_is_an_input_error() {
    let out = toscana()
        .args(["check", "no/such/file.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("input::not-found"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_wrong_command_line_exits_2() {
    let out = toscana()
        .args(["check", "--no-such-flag", "x.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = toscana()
        .args(["ir", "examples/hello.yaml", "--set", "novalue"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn every_command_has_an_example_in_its_help() {
    for command in [
        "check",
        "ir",
        "k8s",
        "tf",
        "dot",
        "render",
        "resolve",
        "convert",
        "completions",
    ] {
        let out = toscana().args([command, "--help"]).output().unwrap();
        assert!(out.status.success());
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("Example:"),
            "`toscana {command} --help` has no example:\n{help}"
        );
    }
    for alias in ["tosca2k8s", "tosca2tf", "tosca2dot"] {
        let out = Command::cargo_bin(alias)
            .unwrap()
            .arg("--help")
            .output()
            .unwrap();
        assert!(out.status.success());
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("Example:") && help.contains(alias),
            "{alias} --help:\n{help}"
        );
    }
}

#[test]
fn convert_names_its_targets_as_tosca_definitions_versions() {
    let out = toscana().args(["convert", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for target in ["tosca_simple_yaml_1_3", "tosca_2_0"] {
        assert!(help.contains(target), "{help}");
        let out = toscana()
            .args(["convert", "-q", "--to", target, "golden/xml-csar/input"])
            .output()
            .unwrap();
        assert!(out.status.success(), "--to {target}: {}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with(&format!("tosca_definitions_version: {target}\n")),
            "{text}"
        );
    }
    let out = toscana()
        .args(["convert", "--to", "tosca_1_3", "golden/xml-csar/input"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn check_accepts_the_shipped_example() {
    let out = toscana()
        .args(["check", "examples/hello.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("valid"), "{}", stderr(&out));
}

#[test]
fn inputs_from_set_and_files_bind_and_unknown_names_are_errors() {
    let out = toscana()
        .args([
            "ir",
            "examples/hello.yaml",
            "--set",
            "cpus=4",
            "--set",
            "db_password=s3cret",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let server = ir["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "server")
        .unwrap();
    assert_eq!(
        server["capabilities"]["host"]["properties"]["num_cpus"],
        serde_json::json!({"kind": "integer", "value": 4})
    );

    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("inputs.yaml");
    fs::write(&inputs, "cpus: 1\ncpu: 2\n").unwrap();
    let out = toscana()
        .args(["ir", "examples/hello.yaml", "--inputs"])
        .arg(&inputs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert!(
        text.contains(&format!("{}:2:1: error[cli::inputs]", inputs.display())),
        "{text}"
    );
    assert!(text.contains("did you mean `cpus`?"), "{text}");
}

#[test]
fn import_cycles_are_reported_with_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let header = "tosca_definitions_version: tosca_simple_yaml_1_3\n";
    fs::write(
        dir.path().join("main.yaml"),
        format!("{header}imports:\n  - a.yaml\ntopology_template:\n  node_templates: {{}}\n"),
    )
    .unwrap();
    fs::write(
        dir.path().join("a.yaml"),
        format!("{header}imports:\n  - b.yaml\n"),
    )
    .unwrap();
    fs::write(
        dir.path().join("b.yaml"),
        format!("{header}imports:\n  - a.yaml\n"),
    )
    .unwrap();
    let out = toscana()
        .arg("check")
        .arg(dir.path().join("main.yaml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert!(text.contains("import::cycle"), "{text}");
    assert!(
        text.contains("a.yaml → ") && text.contains("b.yaml → "),
        "{text}"
    );
}

#[test]
fn ir_output_to_a_directory_is_written_and_left_alone_when_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let out = toscana()
        .args(["ir", "examples/hello.yaml", "--set", "db_password=x", "-o"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let path = dir.path().join("ir.json");
    let first = fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let out = toscana()
        .args(["ir", "examples/hello.yaml", "--set", "db_password=x", "-o"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        fs::metadata(&path).unwrap().modified().unwrap(),
        first,
        "an unchanged file must not be rewritten"
    );
}

#[test]
fn render_runs_a_backend_from_a_folder_on_the_real_ir() {
    let out = toscana()
        .args([
            "render",
            "golden/custom-types/input.yaml",
            "--backend-dir",
            "tests/data/list-backend",
            "--message-format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        // Nodes by name, as every backend sees them (src/ir/order.rs).
        "nodes:\n- audit (shop.nodes.Service)\n- broker (shop.nodes.Broker)\n- jvm (shop.nodes.Runtime)\n- orders (shop.nodes.OrderService)\nhosting:\n- audit on jvm\n- broker on jvm\n- orders on jvm\n"
    );
    // Relationships other than HostedOn, the group and the policy have no rule: each is a
    // warning at its place in the template.
    let warnings: Vec<serde_json::Value> = stderr(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let skipped: Vec<&serde_json::Value> = warnings
        .iter()
        .filter(|w| w["code"] == "backend::skipped")
        .collect();
    let named: Vec<&str> = skipped
        .iter()
        .map(|w| w["message"].as_str().unwrap().split('`').nth(1).unwrap())
        .collect();
    assert_eq!(
        named,
        [
            "orders.events",
            "audit.events[0]",
            "audit.events[1]",
            "backend",
            "placement"
        ],
        "{warnings:?}"
    );
    assert!(
        skipped
            .iter()
            .all(|w| w["file"] == "golden/custom-types/input.yaml" && w["line"].as_u64().is_some())
    );
}

#[test]
fn every_problem_is_reported_once_and_all_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.yaml");
    fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a:\n      type: Nope\n      requirements:\n        - host: b\n          extra: 1\n  outputs:\n    o: { value: { get_input: nope } }\n",
    )
    .unwrap();
    let out = toscana()
        .arg("check")
        .arg(&path)
        .args(["--message-format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let found: Vec<(String, u64)> = stderr(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("tosca::unknown-type".to_string(), 5),
            ("tosca::wrong-shape".to_string(), 7),
            ("tosca::unknown-name".to_string(), 10)
        ]
    );
}

#[test]
fn dot_draws_the_example_and_tosca2dot_takes_the_same_flags() {
    let out = toscana()
        .args(["dot", "examples/hello.yaml", "--legend", "--io", "--ports"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("// Generated by toscana"), "{text}");
    assert!(text.contains("subgraph \"cluster_h:server\""), "{text}");
    assert!(text.contains("\"cluster_legend\""), "{text}");
    let alias = Command::cargo_bin("tosca2dot")
        .unwrap()
        .args(["examples/hello.yaml", "--legend", "--io", "--ports"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(alias.stdout).unwrap(), text);
    // Diagram flags belong to `dot` alone.
    let wrong = toscana()
        .args(["ir", "examples/hello.yaml", "--legend"])
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
}

#[test]
fn dot_formats_svg_and_png_go_through_graphviz() {
    if !common::tool_present("dot", "svg and png output through Graphviz") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for format in ["svg", "png"] {
        let out = toscana()
            .args(["dot", "examples/hello.yaml", "--format", format, "-o"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let svg = fs::read_to_string(dir.path().join("graph.svg")).unwrap();
    assert!(svg.contains("<svg"), "{svg}");
    let png = fs::read(dir.path().join("graph.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    assert!(!dir.path().join("graph.dot").exists());
}

/// Without Graphviz the svg/png test skips visibly, and under `CI=true` it fails instead.
#[test]
fn the_graphviz_test_fails_in_ci_without_dot() {
    common::assert_rerun_fails(
        "dot_formats_svg_and_png_go_through_graphviz",
        &[("CI", "true".as_ref()), ("PATH", "/nonexistent".as_ref())],
        "under CI=true without dot",
        "`dot` is not installed",
    );
}

#[test]
fn dot_without_graphviz_says_how_to_install_it() {
    let out = toscana()
        .env("PATH", "/nonexistent")
        .args(["dot", "examples/hello.yaml", "--format", "svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("output::graphviz"), "{err}");
    assert!(err.contains("apt-get install graphviz"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_required_input_without_value_is_an_error_for_ir_and_nothing_for_check() {
    let ir = toscana()
        .args(["ir", "examples/hello.yaml"])
        .output()
        .unwrap();
    assert_eq!(ir.status.code(), Some(1), "{}", stderr(&ir));
    assert!(
        stderr(&ir).contains("examples/hello.yaml:35:5: error[tosca::unbound-input]: required input `db_password` has no value"),
        "{}",
        stderr(&ir)
    );
    assert!(ir.stdout.is_empty());
    let check = toscana()
        .args(["check", "examples/hello.yaml"])
        .output()
        .unwrap();
    // `check` judges the template, whose values may come at deployment.
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(
        !stderr(&check).contains("unbound-input"),
        "{}",
        stderr(&check)
    );
}

#[test]
fn a_full_disk_while_writing_leaves_the_old_output_intact() {
    // `ulimit -f` caps the size of files the process may write; with SIGXFSZ ignored, a write
    // past it fails with EFBIG, as a full disk fails with ENOSPC, halfway through the file.
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    fs::create_dir(&out_dir).unwrap();
    fs::write(out_dir.join("ir.json"), "the old output\n").unwrap();
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hello.yaml");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 4 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_toscana"))
        .args(["ir", "--set", "db_password=x", "-o"])
        .arg(&out_dir)
        .arg(&example)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("output::write"), "{}", stderr(&out));
    let left: Vec<String> = fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["ir.json"], "no temporary file is left behind");
    assert_eq!(
        fs::read_to_string(out_dir.join("ir.json")).unwrap(),
        "the old output\n"
    );
}

#[test]
fn thousands_of_output_files_do_not_need_thousands_of_open_files() {
    // Each file is written to a temporary and renamed when all are written; the temporaries
    // must be closed in between, or a process limit of open files stops a large output.
    let dir = tempfile::tempdir().unwrap();
    let mut yaml = String::from(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n",
    );
    for i in 0..200 {
        yaml.push_str(&format!("    n{i}:\n      type: tosca.nodes.Compute\n"));
    }
    fs::write(dir.path().join("many.yaml"), yaml).unwrap();
    let backend = dir.path().join("backend");
    fs::create_dir(&backend).unwrap();
    fs::write(
        backend.join("mapping.yaml"),
        "rules:\n  - match: { kind: node }\n    template: n.tera\n    output: \"{{ element.name }}.txt\"\n",
    )
    .unwrap();
    fs::write(backend.join("n.tera"), "{{ element.name }}\n").unwrap();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_toscana"))
        .args([
            "render",
            "many.yaml",
            "--backend-dir",
            "backend",
            "-o",
            "out",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_dir(dir.path().join("out")).unwrap().count(), 200);
}

/// `--quirk etsi-nfv`: 1.3 grammar in a SOL001-style type of a 1.2 file is read with a warning
/// that names the quirk (the operation it declares is known to templates), while the same
/// keyname in a type that is not SOL001's stays an error. Strictly, both are errors, and the
/// SOL001 one's hint points at the quirk (`tests/bad_input/etsi-nfv-newer-keynames`).
#[test]
fn quirk_etsi_nfv_reads_newer_grammar_in_sol001_types_only() {
    let dir = tempfile::tempdir().unwrap();
    let types = "tosca_definitions_version: tosca_simple_yaml_1_2\ninterface_types:\n  tosca.interfaces.nfv.Lcm:\n    derived_from: tosca.interfaces.Root\n    operations:\n      instantiate: {description: up}\n    notifications:\n      instantiated: {description: is up}\nnode_types:\n  tosca.nodes.nfv.Fn:\n    derived_from: tosca.nodes.Root\n    interfaces:\n      Lcm: {type: tosca.interfaces.nfv.Lcm}\n";
    fs::write(dir.path().join("types.yaml"), types).unwrap();
    let service = "tosca_definitions_version: tosca_simple_yaml_1_2\nimports: [types.yaml]\ntopology_template:\n  node_templates:\n    fn:\n      type: tosca.nodes.nfv.Fn\n      interfaces:\n        Lcm:\n          instantiate:\n            inputs: {level: 1}\n";
    fs::write(dir.path().join("service.yaml"), service).unwrap();
    let mine = "tosca_definitions_version: tosca_simple_yaml_1_2\nnode_types:\n  my.Node:\n    derived_from: tosca.nodes.Root\n    properties:\n      m: {type: map, key_schema: string, entry_schema: string, required: false}\n";
    fs::write(dir.path().join("mine.yaml"), mine).unwrap();
    let check = |file: &str, quirk: bool| {
        let mut cmd = toscana();
        cmd.arg("check").arg(dir.path().join(file));
        if quirk {
            cmd.args(["--quirk", "etsi-nfv"]);
        }
        cmd.output().unwrap()
    };

    let strict = check("service.yaml", false);
    assert_eq!(strict.status.code(), Some(1));
    let text = stderr(&strict);
    assert!(
        text.contains("types.yaml:5:5: error[tosca::keyname-not-in-version]"),
        "{text}"
    );
    assert!(text.contains("--quirk etsi-nfv"), "{text}");

    let lenient = check("service.yaml", true);
    let text = stderr(&lenient);
    assert_eq!(lenient.status.code(), Some(0), "{text}");
    assert!(
        text.contains("types.yaml:5:5: warning[tosca::keyname-not-in-version]"),
        "{text}"
    );
    assert!(
        text.contains("types.yaml:7:5: warning[tosca::keyname-not-in-version]"),
        "{text}"
    );
    assert!(text.contains("(read under `--quirk etsi-nfv`)"), "{text}");

    let other = check("mine.yaml", true);
    let text = stderr(&other);
    assert_eq!(other.status.code(), Some(1), "{text}");
    assert!(
        text.contains("mine.yaml:6:22: error[tosca::keyname-not-in-version]"),
        "{text}"
    );
    assert!(!text.contains("etsi-nfv"), "{text}");
}

/// The Simple Profile lenient modes: each turns one error into a warning, and only that one.
#[test]
fn quirks_read_three_part_versions_and_newer_keynames_with_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_2_0\nnode_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n      m: {type: map, key_schema: string, entry_schema: string, required: false}\ntopology_template:\n  node_templates:\n    n: {type: N}\n",
    )
    .unwrap();
    let check = |quirks: &[&str]| {
        let mut cmd = toscana();
        cmd.arg("check").arg(&path);
        for q in quirks {
            cmd.args(["--quirk", q]);
        }
        cmd.output().unwrap()
    };
    let strict = check(&[]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(stderr(&strict).contains("--quirk three-part-versions"));
    let versions_only = check(&["three-part-versions"]);
    assert_eq!(
        versions_only.status.code(),
        Some(1),
        "{}",
        stderr(&versions_only)
    );
    assert!(
        stderr(&versions_only).contains("error[tosca::keyname-not-in-version]"),
        "{}",
        stderr(&versions_only)
    );
    let both = check(&["three-part-versions", "newer-keynames"]);
    assert_eq!(both.status.code(), Some(0), "{}", stderr(&both));
    let text = stderr(&both);
    assert!(
        text.contains("warning[tosca::definitions-version]"),
        "{text}"
    );
    assert!(
        text.contains("warning[tosca::keyname-not-in-version]"),
        "{text}"
    );
}
