//! How a run reports: each diagnostic's message said once, every diagnostic in source order
//! (by file, then line and column), a closing line that counts errors and warnings, nothing
//! but JSON lines on standard error with `--message-format json`, `--deny-warnings` failing a
//! run that has warnings, and `--color`.

use std::path::Path;

mod common;

use common::{stderr, toscana};

/// An entry file that imports a types file; problems are found in another order than they
/// stand (the types file's before the entry's, an artifact's before a requirement's).
const ENTRY: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ types.yaml ]
topology_template:
  inputs:
    password:
      type: string
  node_templates:
    app:
      type: shop.App
      properties:
        port: eighty
      interfaces:
        Standard:
          create: scripts/missing.sh
    web:
      type: tosca.nodes.WebServer
      propertes: {}
";

const TYPES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  shop.App:
    derived_from: tosca.nodes.Root
    properties:
      port: { type: integer }
    colour: red
";

fn project(dir: &Path) -> std::path::PathBuf {
    std::fs::write(dir.join("app.yaml"), ENTRY).unwrap();
    std::fs::write(dir.join("types.yaml"), TYPES).unwrap();
    dir.join("app.yaml")
}

/// The diagnostics of `toscana check FILE --message-format json`.
fn json_check(file: &Path) -> Vec<serde_json::Value> {
    let out = toscana()
        .arg("check")
        .arg(file)
        .args(["--message-format", "json"])
        .output()
        .unwrap();
    stderr(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `(file, line, column)` of each diagnostic header of human output.
fn places(text: &str) -> Vec<(String, u32, u32)> {
    text.lines()
        .filter(|l| l.contains(": error[") || l.contains(": warning["))
        .filter_map(|l| {
            let mut parts = l.splitn(4, ':');
            let file = parts.next()?.to_string();
            let line = parts.next()?.parse().ok()?;
            let col = parts.next()?.parse().ok()?;
            Some((file, line, col))
        })
        .collect()
}

#[test]
fn diagnostics_are_sorted_by_file_and_position() {
    let dir = tempfile::tempdir().unwrap();
    let entry = project(dir.path());
    let out = toscana()
        .arg("check")
        .arg(&entry)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = stderr(&out);
    let found = places(&text);
    assert!(found.len() >= 4, "{text}");
    // The entry file is read first, so it comes first; within a file, by line and column.
    let entry_name = entry.display().to_string();
    let rank = |f: &str| usize::from(f != entry_name);
    let mut sorted = found.clone();
    sorted.sort_by_key(|(f, l, c)| (rank(f), *l, *c));
    assert_eq!(found, sorted, "{text}");
    assert!(
        found.iter().any(|(f, _, _)| f.ends_with("types.yaml")),
        "{text}"
    );

    // The JSON stream is in the same order.
    let json: Vec<(String, u32, u32)> = json_check(&entry)
        .into_iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap() as u32,
                d["column"].as_u64().unwrap() as u32,
            )
        })
        .collect();
    assert_eq!(json, found);
}

#[test]
fn each_message_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let entry = project(dir.path());
    let out = toscana().arg("check").arg(&entry).output().unwrap();
    let text = stderr(&out);
    let messages: Vec<String> = json_check(&entry)
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    assert!(!messages.is_empty());
    for message in &messages {
        let said = messages.iter().filter(|m| *m == message).count();
        assert_eq!(
            text.matches(message.as_str()).count(),
            said,
            "`{message}` is not said exactly once per diagnostic:\n{text}"
        );
    }
}

#[test]
fn a_failed_run_ends_with_the_counts() {
    let dir = tempfile::tempdir().unwrap();
    let entry = project(dir.path());
    let severities: Vec<String> = json_check(&entry)
        .iter()
        .map(|d| d["severity"].as_str().unwrap().to_string())
        .collect();
    let errors = severities.iter().filter(|s| *s == "error").count();
    let warnings = severities.len() - errors;
    assert!(errors >= 2 && warnings >= 1, "{severities:?}");
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let counts = format!(
        "{}, {}",
        plural(errors, "error"),
        plural(warnings, "warning")
    );

    let out = toscana().arg("check").arg(&entry).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    let last = text.lines().last().unwrap();
    assert_eq!(last, format!("{}: invalid ({counts})", entry.display()));

    // A translation says nothing was written.
    let out = toscana()
        .args(["k8s"])
        .arg(&entry)
        .arg("-o")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert!(
        text.lines().last().unwrap().ends_with("; nothing written"),
        "{text}"
    );
    assert!(!dir.path().join("out").exists());
}

#[test]
fn a_valid_check_says_so_with_its_warnings() {
    let out = toscana()
        .args(["check", "examples/hello.yaml", "--set", "db_password=x"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "examples/hello.yaml: valid (0 warnings)\n");
    let quiet = toscana()
        .args([
            "check",
            "-q",
            "examples/hello.yaml",
            "--set",
            "db_password=x",
        ])
        .output()
        .unwrap();
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
}

/// Every command, failing or not, writes only JSON objects to standard error with
/// `--message-format json`: no closing line, no `--explain` account.
#[test]
fn the_json_stream_holds_nothing_but_json() {
    let dir = tempfile::tempdir().unwrap();
    let entry = project(dir.path());
    let out_dir = dir.path().join("out");
    let entry = entry.to_str().unwrap();
    let out_dir = out_dir.to_str().unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec!["check", entry],
        vec!["check", "examples/hello.yaml"],
        vec!["check", "examples/webapp.yaml"],
        vec!["k8s", entry, "-o", out_dir],
        vec!["k8s", "examples/webapp.yaml", "--set", "db_password=x"],
        vec!["ir", "/no/such/file.yaml"],
        vec![
            "resolve",
            "examples/variable-shop.yaml",
            "--preset",
            "dev",
            "--explain",
        ],
        vec!["convert", "golden/xml-csar/input", "--to", "tosca_2_0"],
    ];
    for args in runs {
        let out = toscana()
            .args(&args)
            .args(["--message-format", "json"])
            .output()
            .unwrap();
        for line in stderr(&out).lines() {
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(line);
            assert!(
                parsed.as_ref().is_ok_and(|v| v["code"].is_string()),
                "{args:?}: not a JSON diagnostic: {line}"
            );
        }
    }
}

/// A diagram of two web servers, written with toscana's `count` extension in a Simple Profile
/// file: a warning.
const COUNTED: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web:
      type: tosca.nodes.WebServer
      count: 2
";

#[test]
fn deny_warnings_fails_a_run_with_warnings_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("web.yaml");
    std::fs::write(&template, COUNTED).unwrap();
    let warned = toscana().arg("dot").arg(&template).output().unwrap();
    assert!(warned.status.success(), "{}", stderr(&warned));
    assert!(stderr(&warned).contains("warning[tosca::keyname-not-in-version]"));
    for deny in [["--deny-warnings", ""], ["-D", "warnings"]] {
        let out_dir = dir.path().join(format!("out{}", deny[0]));
        let out = toscana()
            .arg("dot")
            .arg(&template)
            .args(deny.iter().filter(|a| !a.is_empty()))
            .arg("-o")
            .arg(&out_dir)
            .output()
            .unwrap();
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(
            text.contains("error[tosca::keyname-not-in-version]"),
            "{text}"
        );
        assert!(
            text.contains("(warnings denied by --deny-warnings)"),
            "{text}"
        );
        assert!(!out_dir.exists(), "{deny:?} wrote output");
    }
    // Without warnings there is nothing to deny.
    let out = toscana()
        .args(["check", "examples/hello.yaml", "-D", "warnings"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn color_follows_the_flag_and_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("web.yaml");
    std::fs::write(&template, COUNTED).unwrap();
    let run = |color: &str, no_color: bool| {
        let mut cmd = toscana();
        cmd.arg("check").arg(&template).args(["--color", color]);
        if !no_color {
            cmd.env_remove("NO_COLOR");
        }
        stderr(&cmd.output().unwrap())
    };
    let colored = run("always", true);
    assert!(
        colored.contains("\u{1b}[1;33mwarning[tosca::keyname-not-in-version]\u{1b}[0m"),
        "{colored}"
    );
    assert!(!run("never", false).contains("\u{1b}["));
    // auto: standard error is a pipe here, so no colour.
    assert!(!run("auto", false).contains("\u{1b}["));
}

#[test]
fn a_type_under_an_unknown_parent_gets_that_one_error_not_one_per_definition() {
    // The unknown parent is the mistake; what it would define is unknown, so toscana cannot
    // say that a definition of the derived type is new and must name its base (A.5.7.2,
    // A.6.1.1: `resolve::simple_new_definitions`). Under a known parent it does.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.yaml");
    let text = |parent: &str| {
        format!(
            "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Server:
    derived_from: {parent}
    properties:
      port:
        default: 80
    capabilities:
      admin:
        description: the administration endpoint
"
        )
    };
    let codes = |parent: &str| -> Vec<(String, u64)> {
        std::fs::write(&file, text(parent)).unwrap();
        json_check(&file)
            .iter()
            .filter(|d| d["severity"] == "error")
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["line"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        codes("my.Nowhere"),
        [("tosca::unknown-type".to_string(), 4)]
    );
    assert_eq!(
        codes("tosca.nodes.Root"),
        [
            ("tosca::missing-keyname".to_string(), 6),
            ("tosca::missing-keyname".to_string(), 9)
        ]
    );
}
