//! A template reads only inside its root (docs/security.md, "What toscana reads"): the cases a
//! `tests/bad_input/` folder cannot hold, because they need symbolic links (which a repository
//! does not keep) or a file at a known place outside the template. Each plants a secret outside
//! the template and checks that no output and no diagnostic ever carries it.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

mod common;

use common::{stderr, toscana};

/// What the file outside the template holds: it must never show up anywhere.
const SECRET: &str = "SECRET-4711";

/// A web server whose `create` script is `script`, on a machine both backends ship scripts to.
fn stack(script: &str) -> String {
    format!(
        r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web:
      type: tosca.nodes.WebServer
      requirements:
        - host: vm
      interfaces:
        Standard:
          create: {script}
    vm:
      type: tosca.nodes.Compute
      capabilities:
        os:
          properties: {{ type: linux, distribution: ubuntu, version: "24.04" }}
"#
    )
}

fn write(path: &Path, text: &str) -> PathBuf {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    path.to_path_buf()
}

/// A folder with `secret.sh` (and `secret.yaml`, a valid TOSCA file) beside the template's
/// folder `app/`.
fn world() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    write(
        &tmp.path().join("secret.sh"),
        &format!("#!/bin/sh\necho {SECRET}\n"),
    );
    write(
        &tmp.path().join("secret.yaml"),
        &format!(
            "tosca_definitions_version: tosca_simple_yaml_1_3\ndescription: {SECRET}\nnode_types:\n  Secret{SECRET}:\n    derived_from: tosca.nodes.Root\n"
        ),
    );
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    (tmp, app)
}

/// Every file under `dir`, concatenated, for "does the secret appear anywhere".
fn everything_under(dir: &Path) -> String {
    let mut text = String::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                text.push_str(&everything_under(&path));
            } else {
                text.push_str(&String::from_utf8_lossy(
                    &fs::read(&path).unwrap_or_default(),
                ));
            }
        }
    }
    text
}

/// Runs `args` in `dir`; asserts the secret is in neither stream nor in `out/`; returns the
/// exit code and standard error.
fn run_without_leaking(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = toscana()
        .args(args)
        .args(["--message-format", "json"])
        .current_dir(dir)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(!err.contains(SECRET), "{args:?} quotes the secret:\n{err}");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains(SECRET),
        "{args:?} prints the secret"
    );
    assert!(
        !everything_under(&dir.join("out")).contains(SECRET),
        "{args:?} wrote the secret into out/"
    );
    (out.status.code(), err)
}

/// The first diagnostic with `code`, as JSON.
fn diagnostic(err: &str, code: &str) -> serde_json::Value {
    err.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code}:\n{err}"))
}

fn at(d: &serde_json::Value) -> String {
    format!(
        "{}:{}:{}",
        d["file"].as_str().unwrap(),
        d["line"],
        d["column"]
    )
}

#[test]
fn a_plain_template_never_ships_a_script_from_outside_its_folder() {
    let (tmp, app) = world();
    let secret = tmp.path().join("secret.sh").display().to_string();
    fs::create_dir_all(app.join("scripts")).unwrap();
    symlink(tmp.path().join("secret.sh"), app.join("scripts/link.sh")).unwrap();
    symlink(tmp.path(), app.join("up")).unwrap();
    for script in [
        "../secret.sh",
        secret.as_str(),
        "scripts/link.sh",
        "up/secret.sh",
    ] {
        write(&app.join("t.yaml"), &stack(script));
        for backend in ["tf", "k8s"] {
            let _ = fs::remove_dir_all(app.join("out"));
            let (code, err) = run_without_leaking(&app, &[backend, "t.yaml", "-o", "out"]);
            assert_eq!(code, Some(0), "{backend} {script}: {err}");
            let refused = diagnostic(&err, "input::outside-root");
            assert_eq!(at(&refused), "t.yaml:10:19", "{backend} {script}: {err}");
            assert_eq!(refused["severity"], "warning");
        }
        let (code, err) = run_without_leaking(&app, &["check", "t.yaml"]);
        assert_eq!(code, Some(0), "{script}: {err}");
        assert_eq!(at(&diagnostic(&err, "input::outside-root")), "t.yaml:10:19");
    }
    // A link that stays inside is an ordinary file, and is shipped.
    write(&app.join("scripts/real.sh"), "#!/bin/sh\necho inside\n");
    symlink("real.sh", app.join("scripts/inside.sh")).unwrap();
    write(&app.join("t.yaml"), &stack("scripts/inside.sh"));
    let _ = fs::remove_dir_all(app.join("out"));
    let (code, err) = run_without_leaking(&app, &["tf", "t.yaml", "-o", "out"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("input::outside-root"), "{err}");
    assert!(everything_under(&app.join("out")).contains("echo inside"));
}

#[test]
fn an_unpacked_csar_whose_entries_are_links_out_is_refused_at_each() {
    // What `unzip` makes of a zip that toscana itself would refuse for its link entries.
    let (tmp, app) = world();
    let meta = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: x\nEntry-Definitions: Definitions/main.yaml\n";
    write(&app.join("TOSCA-Metadata/TOSCA.meta"), meta);
    fs::create_dir_all(app.join("Scripts")).unwrap();
    symlink(tmp.path().join("secret.sh"), app.join("Scripts/install.sh")).unwrap();
    write(
        &app.join("Definitions/main.yaml"),
        &stack("../Scripts/install.sh"),
    );
    let (code, err) = run_without_leaking(tmp.path(), &["tf", "app", "-o", "out"]);
    assert_eq!(code, Some(1), "in a CSAR it is an error: {err}");
    let refused = diagnostic(&err, "input::outside-root");
    assert_eq!(at(&refused), "app/Definitions/main.yaml:10:19");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("symbolic link"),
        "{refused}"
    );

    // The entry itself a link out.
    fs::remove_file(app.join("Definitions/main.yaml")).unwrap();
    symlink(
        tmp.path().join("secret.yaml"),
        app.join("Definitions/main.yaml"),
    )
    .unwrap();
    let (code, err) = run_without_leaking(tmp.path(), &["check", "app"]);
    assert_eq!(code, Some(1));
    let refused = diagnostic(&err, "input::outside-root");
    assert_eq!(at(&refused), "app/TOSCA-Metadata/TOSCA.meta:4:20");

    // The meta file a link out.
    fs::remove_file(app.join("TOSCA-Metadata/TOSCA.meta")).unwrap();
    let outside_meta = write(&tmp.path().join("TOSCA.meta"), meta);
    symlink(&outside_meta, app.join("TOSCA-Metadata/TOSCA.meta")).unwrap();
    let (code, err) = run_without_leaking(tmp.path(), &["check", "app"]);
    assert_eq!(code, Some(1));
    diagnostic(&err, "input::outside-root");
}

#[test]
fn an_import_through_a_link_out_is_refused_at_the_import() {
    let (tmp, app) = world();
    symlink(tmp.path().join("secret.yaml"), app.join("types.yaml")).unwrap();
    write(
        &app.join("t.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - types.yaml\ntopology_template:\n  node_templates: {}\n",
    );
    for input in [&["check", "t.yaml"][..], &["check", "."][..]] {
        let (code, err) = run_without_leaking(&app, input);
        assert_eq!(code, Some(1), "{input:?}: {err}");
        let refused = diagnostic(&err, "input::outside-root");
        assert_eq!(at(&refused), "t.yaml:3:5", "{input:?}");
    }
    // A directory whose only service template is a link out has none of its own.
    let dir = tmp.path().join("dir");
    fs::create_dir_all(&dir).unwrap();
    write(
        &tmp.path().join("service.yaml"),
        &format!(
            "tosca_definitions_version: tosca_simple_yaml_1_3\ndescription: {SECRET}\ntopology_template:\n  node_templates: {{}}\n"
        ),
    );
    symlink(tmp.path().join("service.yaml"), dir.join("service.yaml")).unwrap();
    let (code, err) = run_without_leaking(tmp.path(), &["check", "dir"]);
    assert_eq!(code, Some(1));
    diagnostic(&err, "input::no-entry");
}

#[test]
fn a_profile_name_never_reads_a_folder_by_absolute_name() {
    let (_tmp, app) = world();
    // A name without dots, which the finder used to take for one folder name: `/…/evil`.
    let outside = tempfile::Builder::new()
        .prefix("confine")
        .tempdir()
        .unwrap();
    let evil = outside.path().join("evil");
    let name = evil.display().to_string();
    write(
        &evil.join("profile.yaml"),
        &format!("tosca_definitions_version: tosca_2_0\nprofile: {name}\ndescription: {SECRET}\n"),
    );
    write(
        &app.join("t.yaml"),
        &format!(
            "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: {name}\nservice_template:\n  node_templates: {{}}\n"
        ),
    );
    fs::create_dir_all(app.join("profiles")).unwrap();
    let (code, err) = run_without_leaking(&app, &["check", "t.yaml", "--profile-path", "profiles"]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        at(&diagnostic(&err, "import::unknown-profile")),
        "t.yaml:3:14"
    );

    // A folder of the catalog that is a link out of it is not searched either.
    write(
        &evil.join("profile.yaml"),
        &format!(
            "tosca_definitions_version: tosca_2_0\nprofile: org.evil\ndescription: {SECRET}\n"
        ),
    );
    fs::create_dir_all(app.join("profiles/org")).unwrap();
    symlink(&evil, app.join("profiles/org/evil")).unwrap();
    write(
        &app.join("t.yaml"),
        "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: org.evil\nservice_template:\n  node_templates: {}\n",
    );
    let (code, err) = run_without_leaking(&app, &["check", "t.yaml", "--profile-path", "profiles"]);
    assert_eq!(code, Some(1), "{err}");
    diagnostic(&err, "import::unknown-profile");
}

#[test]
fn a_map_url_folder_is_a_root_too() {
    let (tmp, app) = world();
    let mirror = app.join("mirror");
    fs::create_dir_all(&mirror).unwrap();
    symlink(tmp.path().join("secret.yaml"), mirror.join("types.yaml")).unwrap();
    write(
        &app.join("t.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - https://example.org/types.yaml\ntopology_template:\n  node_templates: {}\n",
    );
    let (code, err) = run_without_leaking(
        &app,
        &[
            "check",
            "t.yaml",
            "--map-url",
            "https://example.org/=mirror",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(at(&diagnostic(&err, "input::outside-root")), "t.yaml:3:5");

    // A folder the user maps is readable, `file:` URLs included: that is the user's choice.
    write(
        &app.join("t.yaml"),
        &format!(
            "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - file://{}/shared/types.yaml\ntopology_template:\n  node_templates: {{}}\n",
            tmp.path().display()
        ),
    );
    write(
        &tmp.path().join("shared/types.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\n",
    );
    let (code, err) = run_without_leaking(&app, &["check", "t.yaml"]);
    assert_eq!(code, Some(1), "unmapped: {err}");
    diagnostic(&err, "input::outside-root");
    let map = format!(
        "file://{}/shared/={}/shared",
        tmp.path().display(),
        tmp.path().display()
    );
    let (code, err) = run_without_leaking(&app, &["check", "t.yaml", "--map-url", &map]);
    assert_eq!(code, Some(0), "mapped: {err}");
}

#[test]
fn a_directory_given_is_the_root_of_its_entry() {
    // tosca-parser's layout: tests in folders importing `../custom_types/`.
    let tmp = tempfile::tempdir().unwrap();
    write(
        &tmp.path().join("data/custom_types/types.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.Node:\n    derived_from: tosca.nodes.Root\n",
    );
    write(
        &tmp.path().join("data/tests/t.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - ../custom_types/types.yaml\ntopology_template:\n  node_templates:\n    n:\n      type: my.Node\n",
    );
    let out = toscana()
        .args(["check", "data/tests/t.yaml", "--message-format", "json"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let refused = diagnostic(&err, "input::outside-root");
    assert!(
        refused["hint"].as_str().unwrap().contains("--entry"),
        "{refused}"
    );
    let out = toscana()
        .args(["check", "data", "--entry", "tests/t.yaml"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // --entry itself stays inside the directory.
    let out = toscana()
        .args([
            "check",
            "data/tests",
            "--entry",
            "../custom_types/types.yaml",
            "--message-format",
            "json",
        ])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    diagnostic(&stderr(&out), "input::not-found");
}
