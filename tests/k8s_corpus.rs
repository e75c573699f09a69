//! Every file of the conformance corpora that toscana accepts translates to Kubernetes manifests
//! that `kubernetes-validate --strict -k 1.33.0` accepts, or says what it skipped.
//!
//! Each YAML file and CSAR under `../shared/corpus/` is read in-process with the library; the ones
//! read with no error go through the built-in Kubernetes backend (as a stream, and with
//! `--ingress` and a namespace, so both load balancer mappings run). Each outcome is counted:
//!
//! - **translated**: objects came out; they are written to a temporary folder (the manifests and
//!   the backend's kustomization of them), validated in batches (one validator process checks
//!   many files; it is slow to start), built with `kubectl kustomize` in batches of folders
//!   (`checkers::kustomize`), and checked for wiring (`checkers::wiring`); checkov's Kubernetes
//!   checks then run once over all of them and every golden's manifests, against the committed
//!   baseline of accepted findings (see [`checkov`]);
//! - **nothing to deploy**: no object came out, and warnings name what was skipped;
//! - **needs inputs**: a required input has no value, and the only errors name those inputs
//!   (`tosca::unbound-input`: Kubernetes manifests need every value at translation time).
//!
//! The test fails on a panic, on any other error (a template the round trip through
//! `k8s-openapi` rejects is one), on output the validator, kustomize or the wiring check
//! rejects, and on a file that produced nothing without saying why. Locally, a missing corpus,
//! validator, `kubectl` or `checkov` skips with a notice; under `CI=true` all are required.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;

// Only the wiring check, kustomize and checkov of the external checkers are used here.
#[allow(dead_code)]
mod checkers;
mod common;

use common::batches::check_in_batches;
use common::{corpus_files, corpus_root};
use toscana::back::{self, Engine, kubernetes};
use toscana::diag::{Diagnostics, codes};
use toscana::limits::Limits;
use toscana::pipeline::{ReadOptions, read};

/// Files per validator run.
const BATCH: usize = 150;
/// Output folders per `kubectl kustomize` run.
const KUSTOMIZE_BATCH: usize = 100;

enum Outcome {
    /// The stream of manifests, and the Services the template says the cluster has (see
    /// [`cluster_services`]).
    Translated(String, Vec<String>),
    Nothing,
    NeedsInputs,
    Failed(String),
}

fn translate(path: &Path, options: &kubernetes::K8sOptions) -> Option<Outcome> {
    let mut diags = Diagnostics::with_cap(0);
    let read = read(
        &ReadOptions {
            // as `toscana k8s` reads: manifests need every input value; inside the file's suite
            unbound_inputs_are_errors: true,
            ..common::options_under(common::corpus_repository(path).as_deref(), path)
        },
        &mut diags,
    );
    let topology = read.topology?;
    if diags.has_errors() {
        // A valid template whose only errors are required inputs without a value.
        let all = diags.finish();
        let errors: Vec<_> = all.iter().filter(|d| d.is_error()).collect();
        if errors.iter().all(|d| d.code == codes::TOSCA_UNBOUND_INPUT) {
            return Some(Outcome::NeedsInputs);
        }
        return None;
    }
    let mut sources = read.sources;
    let mut bdiags = Diagnostics::with_cap(0);
    let backend = Engine::load(
        back::builtin("kubernetes"),
        None,
        &mut sources,
        &Limits::default(),
        &mut bdiags,
    )
    .expect("the built-in kubernetes backend loads");
    let files = kubernetes::render(
        &backend,
        toscana::ir::validate(&topology).expect("a resolved topology is valid"),
        &mut sources,
        &read.artifacts,
        &Limits::default(),
        options,
        &mut bdiags,
    );
    let all = bdiags.finish();
    let errors: Vec<_> = all.iter().filter(|d| d.is_error()).collect();
    // Nothing to deploy is an error that says so (output::nothing-to-write), after the warnings
    // that say why for each node.
    if !errors.is_empty() && errors.iter().all(|d| d.code == codes::OUTPUT_NOTHING) {
        return Some(Outcome::Nothing);
    }
    if !errors.is_empty() {
        let messages: Vec<String> = errors
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        return Some(Outcome::Failed(messages.join("; ")));
    }
    // Nothing to deploy is an outcome only when a warning says what was left out (a node no
    // rule takes, a construct Kubernetes cannot express); any other diagnostic does not explain
    // an empty output.
    let says_what_was_skipped = all
        .iter()
        .any(|d| d.code == codes::BACKEND_SKIPPED || d.code == codes::K8S_UNSUPPORTED);
    match files.as_slice() {
        [] if !says_what_was_skipped => Some(Outcome::Failed(format!(
            "no object came out, and no `{}` or `{}` warning says why",
            codes::BACKEND_SKIPPED,
            codes::K8S_UNSUPPORTED
        ))),
        [] => Some(Outcome::Nothing),
        [one] if one.path == "manifests.yaml" => Some(Outcome::Translated(
            one.contents.clone(),
            cluster_services(&topology, options),
        )),
        other => Some(Outcome::Failed(format!(
            "expected one manifests.yaml, got {:?}",
            other.iter().map(|f| &f.path).collect::<Vec<_>>()
        ))),
    }
}

/// The Services the cluster has for the wiring check: the nodes selected from outside the
/// topology (TOSCA 2.0 directive `select`), which the backend does not create and reaches "as a
/// Service of its name" (with a warning), named as the output addresses them.
fn cluster_services(
    topology: &toscana::ir::Topology,
    options: &kubernetes::K8sOptions,
) -> Vec<String> {
    topology
        .nodes
        .iter()
        .filter(|n| n.only_selected())
        .map(|n| {
            let name = back::filters::dns_label(&n.name);
            match &options.namespace {
                Some(ns) => format!("{name}.{ns}.svc"),
                None => name,
            }
        })
        .collect()
}

/// checkov's Kubernetes checks (issue 26 scope 8) in one run over `dir`: the output folders of
/// the default option set (the other set turns off, on purpose, the probes, limits, security
/// context and token setting checkov looks for) and every golden's manifests, copied beside them
/// under `golden/`. Every finding must be accepted by a line of
/// `tests/checkers/checkov-kubernetes-baseline.tsv` with its reason, and, since this run sees
/// every output the baseline covers, every line must still accept one. Returns what checkov
/// found, for the summary line.
fn checkov(dir: &Path, written: &[(PathBuf, PathBuf)], failures: &mut Vec<String>) -> String {
    if !common::tool_present(
        "checkov",
        "checkov's Kubernetes checks of the k8s corpus and goldens",
    ) {
        return "not installed".to_string();
    }
    let all = dir.join("checkov");
    let mut sources = Vec::new();
    for (file, source) in written {
        let folder = file.parent().expect("in its folder");
        let name = folder.file_name().expect("a folder name");
        if !name.to_string_lossy().ends_with("-0") {
            continue;
        }
        common::copy_dir(folder, &all.join(name));
        sources.push((all.join(name), source.clone()));
    }
    let mut goldens = 0;
    for case in std::fs::read_dir("golden")
        .expect("golden/ exists")
        .flatten()
    {
        let manifests = case.path().join("expected/k8s");
        if manifests.is_dir() {
            common::copy_dir(&manifests, &all.join("golden").join(case.file_name()));
            goldens += 1;
        }
    }
    match checkers::checkov::findings("kubernetes", &all) {
        Ok(mut findings) => {
            // Name each finding by the corpus file or golden case it comes from.
            for finding in &mut findings {
                let file = Path::new(&finding.file);
                if let Some((_, source)) = sources.iter().find(|(d, _)| file.starts_with(d)) {
                    finding.file = source.display().to_string();
                } else if let Ok(rel) = file.strip_prefix(all.join("golden")) {
                    finding.file = format!("golden/{}", rel.display());
                }
            }
            failures.extend(checkers::checkov::against_baseline(
                &findings,
                &checkers::checkov::KUBERNETES,
            ));
            format!(
                "{} findings in {} corpus outputs and {goldens} goldens",
                findings.len(),
                sources.len()
            )
        }
        Err(e) => {
            failures.push(format!("checkov: {e}"));
            "failed".to_string()
        }
    }
}

/// Runs the validator over `paths`; the `ERROR` lines it prints.
fn validate(paths: &[PathBuf]) -> Result<Vec<String>, String> {
    let out = Command::new("kubernetes-validate")
        .args(["--strict", "--quiet", "-k", "1.33.0"])
        .args(paths)
        .output()
        .map_err(|e| format!("cannot run kubernetes-validate: {e}"))?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let errors: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("ERROR") || l.contains("Traceback"))
        .map(str::to_string)
        .collect();
    if !out.status.success() && errors.is_empty() {
        return Err(format!(
            "kubernetes-validate failed ({}): {text}",
            out.status
        ));
    }
    Ok(errors)
}

#[test]
fn every_accepted_corpus_file_translates_to_valid_manifests_or_says_what_it_skipped() {
    if !common::corpus_present("", "the k8s corpus test")
        || !common::tool_present("kubernetes-validate", "the k8s corpus test")
    {
        return;
    }
    let root = corpus_root();
    // Not a hidden folder (tempdir's `.tmpXXXX`): checkov's Kubernetes runner skips those.
    let dir = tempfile::Builder::new()
        .prefix("k8s-corpus-")
        .tempdir()
        .expect("a temporary folder");
    let variants = [
        kubernetes::K8sOptions::default(),
        kubernetes::K8sOptions {
            namespace: Some("corpus".to_string()),
            ingress: true,
            split: false,
            no_limits: true,
            no_probes: true,
            no_security_context: true,
            service_account_token: true,
            outputs_written: false,
        },
    ];
    let (mut seen, mut accepted, mut translated, mut nothing, mut needs_inputs) = (0, 0, 0, 0, 0);
    let mut failures: Vec<String> = Vec::new();
    let mut written: Vec<(PathBuf, PathBuf)> = Vec::new();
    for path in corpus_files(&root) {
        seen += 1;
        for (v, options) in variants.iter().enumerate() {
            let outcome = match catch_unwind(AssertUnwindSafe(|| translate(&path, options))) {
                Ok(Some(o)) => o,
                Ok(None) => break,
                Err(_) => Outcome::Failed("panicked".to_string()),
            };
            if v == 0 {
                accepted += 1;
            }
            match outcome {
                Outcome::Translated(text, cluster) => {
                    if v == 0 {
                        translated += 1;
                    }
                    if let Err(e) =
                        checkers::wiring::check_stream("manifests.yaml", &text, &cluster)
                    {
                        failures.push(format!("{} (option set {v}): {e}", path.display()));
                    }
                    // The folder `toscana k8s -o` writes, as one stream: the manifests and
                    // the backend's own kustomization of them.
                    let folder = dir.path().join(format!("{}-{v}", written.len()));
                    let file = folder.join("manifests.yaml");
                    let kustomization = kubernetes::objects::kustomization(
                        &["manifests.yaml".to_string()],
                        options.namespace.as_deref(),
                    );
                    std::fs::create_dir_all(&folder)
                        .and_then(|()| std::fs::write(&file, text))
                        .and_then(|()| {
                            std::fs::write(folder.join("kustomization.yaml"), kustomization)
                        })
                        .expect("writable temporary folder");
                    written.push((file, path.clone()));
                }
                Outcome::Nothing => nothing += usize::from(v == 0),
                Outcome::NeedsInputs => needs_inputs += usize::from(v == 0),
                Outcome::Failed(why) => failures.push(format!("{}: {why}", path.display())),
            }
        }
    }
    let mut validated = 0;
    for batch in written.chunks(BATCH) {
        let paths: Vec<PathBuf> = batch.iter().map(|(f, _)| f.clone()).collect();
        validated += paths.len();
        match validate(&paths) {
            Ok(errors) => {
                for line in errors {
                    // Name the corpus file behind the temporary one.
                    let source = batch
                        .iter()
                        .find(|(f, _)| line.contains(&*f.to_string_lossy()))
                        .map_or_else(String::new, |(_, p)| p.display().to_string());
                    failures.push(format!("{source}: {line}"));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    // `kubectl kustomize` on every output folder, a batch of folders per run.
    let mut built = 0;
    if common::tool_present("kubectl", "`kubectl kustomize` of the k8s corpus outputs") {
        built = written.len();
        let scratch = tempfile::tempdir().expect("a temporary folder");
        let folders: Vec<(PathBuf, PathBuf)> = written
            .iter()
            .map(|(file, source)| {
                (
                    file.parent().expect("in its folder").to_path_buf(),
                    source.clone(),
                )
            })
            .collect();
        failures.extend(check_in_batches(
            &folders,
            KUSTOMIZE_BATCH,
            |batch| {
                let dirs: Vec<PathBuf> = batch.iter().map(|(d, _)| d.clone()).collect();
                let root = checkers::kustomize::batch_of(scratch.path(), &dirs)
                    .map_err(|e| format!("cannot write the batch's kustomization: {e}"))?;
                checkers::kustomize::build(&root)
            },
            |(dir, source)| {
                checkers::kustomize::build(dir).map_err(|e| format!("{}: {e}", source.display()))
            },
        ));
    }
    let checkov_findings = checkov(dir.path(), &written, &mut failures);
    eprintln!(
        "k8s corpus: {seen} files, {accepted} accepted: {translated} translated ({validated} manifests validated with both option sets), {built} output folders built with kubectl kustomize, {nothing} with nothing to deploy (warnings say why), {needs_inputs} need input values; checkov: {checkov_findings}; {} failures",
        failures.len()
    );
    common::assert_output_floors("k8s_corpus", &[("translated", translated)]);
    assert!(
        failures.is_empty(),
        "{} problems in the k8s corpus run:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_k8s_corpus_test_fails_in_ci_without_the_corpus() {
    common::assert_fails_in_ci_without_the_corpus(
        "every_accepted_corpus_file_translates_to_valid_manifests_or_says_what_it_skipped",
    );
}

/// The batches of `kubectl kustomize`: two folders that both write a Service `web` build
/// together (each folder's objects get a prefix of their own), and a folder that writes one
/// object twice fails its batch and is named alone.
#[test]
fn a_kustomize_batch_builds_each_folder_and_names_the_one_that_fails() {
    if !common::tool_present("kubectl", "the kustomize batch test") {
        return;
    }
    let web =
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n";
    let dir = tempfile::tempdir().unwrap();
    let folder = |name: &str, manifests: &str| {
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("manifests.yaml"), manifests).unwrap();
        let kustomization =
            kubernetes::objects::kustomization(&["manifests.yaml".to_string()], None);
        std::fs::write(folder.join("kustomization.yaml"), kustomization).unwrap();
        folder
    };
    let good = vec![folder("a", web), folder("b", web)];
    let scratch = tempfile::tempdir().unwrap();
    let batch = |folders: &[PathBuf]| {
        let root = checkers::kustomize::batch_of(scratch.path(), folders).unwrap();
        checkers::kustomize::build(&root)
    };
    batch(&good).unwrap();
    let mut all = good.clone();
    all.push(folder("twice", &format!("{web}---\n{web}")));
    let failures = check_in_batches(&all, all.len(), batch, |f| checkers::kustomize::build(f));
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("twice"), "{failures:?}");
}
