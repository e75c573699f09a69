//! Every file of the conformance corpora that toscana accepts renders to dot that Graphviz
//! accepts without a warning.
//!
//! Each YAML file and CSAR under `../shared/corpus/` is read in-process with the library; the ones
//! read with no error are rendered by the built-in Graphviz backend (with every diagram option on,
//! so ports, groups, the inputs panel and the legend are all exercised), and the dot texts are
//! piped to `dot -Tsvg` in batches (one `dot` run checks many graphs; a batch that fails is
//! re-run file by file to name the culprit; see [`check_in_batches`]). The test prints how many files it rendered and fails
//! if any did not pass.
//!
//! Locally, a missing corpus or a missing `dot` skips with a visible notice; under `CI=true` both
//! are required, and a batch that `dot` rejects when no file of it fails alone is a failure too.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

mod common;

use common::batches::check_in_batches;
use common::{corpus_files, corpus_root, read_accepted_corpus_file};
use toscana::back::{self, Backend, graphviz};
use toscana::diag::Diagnostics;
use toscana::limits::Limits;

/// Graphs per `dot` run.
const BATCH: usize = 100;

/// `dot -Tsvg` over `text` (one or more graphs): `Ok` when it succeeds with nothing on stderr.
fn dot_accepts(text: &str) -> Result<(), String> {
    let mut child = Command::new("dot")
        .args(["-Tsvg", "-o", "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run dot: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let text = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("dot failed: {e}"))?;
    let _ = writer.join();
    if out.status.success() && out.stderr.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

#[test]
fn every_accepted_corpus_file_renders_to_dot_that_graphviz_accepts() {
    if !common::corpus_present("", "the dot corpus test")
        || !common::tool_present("dot", "the dot corpus test")
    {
        return;
    }
    let root = corpus_root();
    let options = graphviz::DotOptions {
        legend: true,
        ports: true,
        io: true,
        properties: graphviz::PropertyMode::All,
        ..graphviz::DotOptions::default()
    };
    let mut rendered: Vec<(PathBuf, String)> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let (mut files_seen, mut accepted) = (0, 0);
    for path in corpus_files(&root) {
        files_seen += 1;
        let Some(mut read) = read_accepted_corpus_file(&path) else {
            continue;
        };
        let topology = read
            .topology
            .take()
            .expect("an accepted file has a topology");
        accepted += 1;
        let mut sources = read.sources;
        let mut bdiags = Diagnostics::with_cap(0);
        let Some(backend) = Backend::load(
            back::builtin("graphviz"),
            None,
            &mut sources,
            &Limits::default(),
            &mut bdiags,
        ) else {
            panic!("the built-in graphviz backend does not load");
        };
        let files = graphviz::render(&backend, &topology, &sources, &options, &mut bdiags);
        if bdiags.has_errors() {
            let messages: Vec<String> = bdiags
                .finish()
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.message.clone())
                .collect();
            failures.push(format!(
                "{}: rendering failed: {}",
                path.display(),
                messages.join("; ")
            ));
            continue;
        }
        match files.as_slice() {
            [one] if one.path == "graph.dot" => rendered.push((path, one.contents.clone())),
            other => failures.push(format!(
                "{}: expected one graph.dot, got {:?}",
                path.display(),
                other.iter().map(|f| &f.path).collect::<Vec<_>>()
            )),
        }
    }
    let checked = rendered.len();
    failures.extend(check_in_batches(
        &rendered,
        BATCH,
        |batch| {
            dot_accepts(
                &batch
                    .iter()
                    .map(|(_, text)| text.as_str())
                    .collect::<String>(),
            )
        },
        |(path, text)| dot_accepts(text).map_err(|e| format!("{}: dot -Tsvg: {e}", path.display())),
    ));
    eprintln!(
        "dot corpus: {files_seen} files, {accepted} accepted, {checked} rendered and checked by dot, {} failed",
        failures.len()
    );
    common::assert_output_floors("dot_corpus", &[("rendered", checked)]);
    assert!(
        failures.is_empty(),
        "{} of {accepted} accepted corpus files did not render to valid dot:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_dot_corpus_test_fails_in_ci_without_the_corpus() {
    common::assert_fails_in_ci_without_the_corpus(
        "every_accepted_corpus_file_renders_to_dot_that_graphviz_accepts",
    );
}
