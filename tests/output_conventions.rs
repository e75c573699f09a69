//! What `-o` names (docs/security.md, "What toscana writes"): a file when the command writes
//! one file, a folder when it ends in `/` or is one (or when the command writes several), `-`
//! for standard output; an image is not written to a terminal; and nothing is written outside
//! it, through a link planted in it.

use std::fs;
use std::path::Path;

mod common;

use common::{stderr, toscana};

const HELLO: &str = "examples/hello.yaml";
const WEBAPP: &[&str] = &["examples/webapp.yaml", "--set", "db_password=s3cret"];

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn run(args: &[&str], output: &Path) -> std::process::Output {
    let out = toscana().args(args).arg("-o").arg(output).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

/// `p` with a trailing `/`.
fn slash(p: &Path) -> std::path::PathBuf {
    format!("{}/", p.display()).into()
}

#[test]
fn k8s_writes_a_folder_of_objects_or_one_stream_to_a_yaml_file() {
    let tmp = tempfile::tempdir().unwrap();
    let k8s = |extra: &[&str], output: &Path| {
        let mut args = vec!["k8s"];
        args.extend(WEBAPP);
        args.extend(extra);
        run(&args, output)
    };
    // A YAML file name: one multi-document stream, the same as standard output.
    let file = tmp.path().join("out.yaml");
    k8s(&[], &file);
    let stream = fs::read_to_string(&file).unwrap();
    let mut args = vec!["k8s"];
    args.extend(WEBAPP);
    let stdout = toscana().args(&args).output().unwrap().stdout;
    assert_eq!(stream.as_bytes(), stdout.as_slice());
    assert!(stream.contains("\n---\n"), "{stream}");
    // A trailing `/`, an existing folder, or a new name without an extension: a folder of one
    // file per object with a kustomization.
    for dir in [slash(&tmp.path().join("a")), tmp.path().join("b")] {
        k8s(&[], &dir);
        let files = names(&dir);
        assert!(
            files.contains(&"kustomization.yaml".to_string()),
            "{files:?}"
        );
        assert!(files.len() > 2, "{files:?}");
    }
    let existing = tmp.path().join("c.yaml");
    fs::create_dir(&existing).unwrap();
    k8s(&[], &existing);
    assert!(names(&existing).contains(&"kustomization.yaml".to_string()));
    // --single-file: one stream, into the file named or as manifests.yaml in a folder.
    let named = tmp.path().join("all.txt");
    k8s(&["--single-file"], &named);
    assert_eq!(fs::read_to_string(&named).unwrap(), stream);
    let folder = slash(&tmp.path().join("d"));
    k8s(&["--single-file"], &folder);
    assert_eq!(names(&folder), ["manifests.yaml"]);
    // `-` is standard output.
    let mut args = vec!["k8s"];
    args.extend(WEBAPP);
    let out = toscana().args(&args).args(["-o", "-"]).output().unwrap();
    assert_eq!(out.stdout, stdout);
}

#[test]
fn a_diagram_is_the_file_named_or_graph_dot_in_a_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("diagram.dot");
    run(&["dot", HELLO], &file);
    assert!(
        fs::read_to_string(&file)
            .unwrap()
            .contains("\ndigraph \"hello\" {")
    );
    let folder = slash(&tmp.path().join("docs"));
    run(&["dot", HELLO], &folder);
    assert_eq!(names(&folder), ["graph.dot"]);
    if has_dot() {
        let svg = tmp.path().join("diagram.svg");
        run(&["dot", HELLO, "--format", "svg"], &svg);
        assert!(fs::read_to_string(&svg).unwrap().contains("<svg"));
        let png = tmp.path().join("diagram.png");
        run(&["dot", HELLO, "--format", "png"], &png);
        assert!(fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    } else {
        eprintln!("notice: Graphviz `dot` not installed; -o FILE.svg not tested");
    }
}

#[test]
fn the_ir_resolve_and_convert_write_the_file_named_or_their_file_in_a_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let ir = tmp.path().join("topology.json");
    run(&["ir", HELLO, "--set", "db_password=x"], &ir);
    let text = fs::read_to_string(&ir).unwrap();
    assert!(text.starts_with('{'), "{text}");
    let folder = slash(&tmp.path().join("ir"));
    run(&["ir", HELLO, "--set", "db_password=x"], &folder);
    assert_eq!(names(&folder), ["ir.json"]);
    assert_eq!(fs::read_to_string(folder.join("ir.json")).unwrap(), text);

    let resolved = tmp.path().join("shop-dev.yaml");
    let shop = ["resolve", "examples/variable-shop.yaml", "--preset", "dev"];
    run(&shop, &resolved);
    let existing = tmp.path().join("resolved");
    fs::create_dir(&existing).unwrap();
    run(&shop, &existing);
    assert_eq!(names(&existing), ["resolved.yaml"]);
    assert_eq!(
        fs::read(existing.join("resolved.yaml")).unwrap(),
        fs::read(&resolved).unwrap()
    );

    let converted = slash(&tmp.path().join("converted"));
    run(
        &[
            "convert",
            "golden/xml-csar/input",
            "--quirk",
            "winery",
            "-q",
        ],
        &converted,
    );
    assert_eq!(names(&converted), ["converted.yaml"]);
}

#[test]
fn terraform_always_writes_a_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("main.tf");
    run(&["tf", "examples/webserver-vm.yaml"], &dir);
    assert!(
        names(&dir).contains(&"main.tf".to_string()),
        "{:?}",
        names(&dir)
    );
}

#[test]
fn several_files_into_one_file_is_refused() {
    // A backend of one's own that writes two files, for a command that writes one: `dot`
    // with a graph per node.
    let tmp = tempfile::tempdir().unwrap();
    let backend = tmp.path().join("backend");
    fs::create_dir(&backend).unwrap();
    fs::write(
        backend.join("mapping.yaml"),
        "rules:\n  - match: { kind: node }\n    template: n.tera\n    output: \"{{ element.name }}.dot\"\n",
    )
    .unwrap();
    fs::write(backend.join("n.tera"), "digraph {}\n").unwrap();
    let file = tmp.path().join("one.dot");
    let out = toscana()
        .args(["dot", "golden/dot-families/input.yaml", "--backend-dir"])
        .arg(&backend)
        .arg("-o")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("output::destination"),
        "{}",
        stderr(&out)
    );
    assert!(!file.exists());
}

#[test]
fn an_image_is_not_written_to_a_terminal() {
    if !Path::new("/usr/bin/script").exists() || !has_dot() {
        eprintln!(
            "notice: `script` (util-linux) or Graphviz missing; the terminal check is not tested"
        );
        return;
    }
    // `script` runs the command with a terminal as its standard output.
    let command = format!("{} dot {HELLO} --format png", env!("CARGO_BIN_EXE_toscana"));
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("output::destination") && text.contains("refusing to write a binary image"),
        "{text}"
    );
    assert!(!text.contains("PNG"), "no image bytes on the terminal");
    assert_eq!(out.status.code(), Some(2), "{text}");
}

/// Whether Graphviz's `dot` is installed (it draws SVG and PNG).
fn has_dot() -> bool {
    std::process::Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[cfg(unix)]
#[test]
fn a_link_planted_in_the_output_folder_is_not_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    let out = tmp.path().join("out");
    fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("artifacts")).unwrap();
    let run = toscana()
        .args([
            "tf",
            "examples/webserver-vm.yaml",
            "--message-format",
            "json",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(
        err.contains("output::write") && err.contains("symbolic link"),
        "{err}"
    );
    assert!(
        names(&elsewhere).is_empty(),
        "the scripts went through the link"
    );
    assert_eq!(names(&out), ["artifacts"], "nothing was written");
}
