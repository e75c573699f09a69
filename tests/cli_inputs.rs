//! The kinds of input the command line takes: standard input, directories, BOM and CRLF text,
//! and the completion scripts.

use std::fs;

use assert_cmd::Command;

fn toscana() -> Command {
    let mut cmd = Command::cargo_bin("toscana").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

const DUP: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a:\n      type: Compute\n    a:\n      type: Compute\n";

#[test]
fn standard_input_is_read_and_named_in_diagnostics() {
    let out = toscana()
        .args(["check", "-"])
        .write_stdin(DUP)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("<stdin>:6:5: error[yaml::duplicate-key]"),
        "{err}"
    );
}

#[test]
fn a_bom_and_crlf_line_ends_are_accepted_with_columns_still_right() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crlf.yaml");
    let text = format!("\u{feff}{}", DUP.replace('\n', "\r\n"));
    fs::write(&path, text).unwrap();
    let out = toscana().arg("check").arg(&path).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{}:6:5: error[yaml::duplicate-key]",
            path.display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}:4:5: first defined here", path.display())),
        "{err}"
    );
}

#[test]
fn a_directory_asks_for_entry_when_ambiguous_and_follows_it() {
    let dir = tempfile::tempdir().unwrap();
    let body = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates: {}\n";
    fs::write(dir.path().join("a.yaml"), body).unwrap();
    fs::write(dir.path().join("b.yaml"), body).unwrap();
    let out = toscana().arg("check").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("input::ambiguous-entry") && err.contains("--entry"),
        "{err}"
    );
    let out = toscana()
        .arg("check")
        .arg(dir.path())
        .args(["--entry", "b.yaml"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn completion_scripts_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish"] {
        let out = toscana().args(["completions", shell]).output().unwrap();
        assert!(out.status.success());
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(
            script.contains("toscana") && script.contains("check") && script.contains("map-url"),
            "{shell}"
        );
    }
}
