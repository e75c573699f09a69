//! Every file of the conformance corpora that toscana accepts translates, for each of the three
//! providers, into a Terraform configuration that `hcl2tojson` (python-hcl2) and
//! `terraform fmt -check` accept; what the rules cannot express ends as warnings.
//!
//! Each YAML file and CSAR under `../shared/corpus/` is read in-process with the library; the ones
//! read with no error are rendered by the built-in Terraform backend for aws, openstack and
//! kubernetes, and written under one temporary folder, one sub-folder per file and provider. The
//! checkers then run once over the whole folder (`hcl2tojson` over every `.tf` and `.tfvars`,
//! `terraform fmt -check -recursive`); when one fails, the configurations are checked one by one
//! to name the culprits. The provider schema check (`checkers::terraform_schema`: every type,
//! argument, block and referenced attribute exists in the provider versions toscana pins) runs
//! in-process on each configuration, and checkov's Terraform checks run once over every
//! configuration and every golden one, against `tests/checkers/checkov-terraform-baseline.tsv`
//! (each accepted finding with its reason). The test prints how many configurations were clean (nothing left out;
//! advice on the template's own inputs aside) and how many ended with warnings, and fails if any
//! render had an error or any checker rejected a file.
//!
//! Locally, a missing corpus or a missing `hcl2tojson` skips with a visible notice, and
//! `terraform` is used when installed; under `CI=true` the corpus, `hcl2tojson` and `terraform`
//! are all required. A checker that rejects the whole folder while every configuration passes
//! alone fails the test too (see [`check_in_batches`]).

use std::path::{Path, PathBuf};
use std::process::Command;

// Only the provider schema check and checkov of the external checkers are used here.
#[allow(dead_code)]
mod checkers;
mod common;

use common::batches::check_in_batches;
use common::{corpus_files, corpus_root};
use toscana::back::{self, Engine, terraform};
use toscana::diag::{Diagnostics, codes};
use toscana::limits::Limits;

const PROVIDERS: [terraform::Provider; 3] = [
    terraform::Provider::Aws,
    terraform::Provider::Openstack,
    terraform::Provider::Kubernetes,
];

/// A corpus file read as `toscana tf` reads it (inside its suite, see
/// [`common::options_under`]): every `get_input` kept as a call, so that the configuration
/// refers to `var.<name>`, and a required input without a value left to `terraform.tfvars`;
/// `None` when reading it finds an error.
fn read_as_tf(path: &Path) -> Option<toscana::pipeline::Read> {
    let mut diags = Diagnostics::with_cap(1);
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            inputs_stay_calls: true,
            ..common::options_under(common::corpus_repository(path).as_deref(), path)
        },
        &mut diags,
    );
    (read.topology.is_some() && !diags.has_errors()).then_some(read)
}

/// Runs a checker; `Ok` when it exits with success.
fn run(tool: &str, args: &[&str], dir: &Path) -> Result<(), String> {
    let out = Command::new(tool)
        .args(args)
        .arg(dir)
        .output()
        .map_err(|e| format!("cannot run {tool}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{tool} ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout).trim(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// `hcl2tojson` over every `.tf` and `.tfvars` file under `dir`, in one process.
fn hcl2tojson(dir: &Path, scratch: &Path) -> Result<(), String> {
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "tf" || e == "tfvars") {
                paths.push(p);
            }
        }
    }
    if paths.is_empty() {
        return Ok(());
    }
    let out = Command::new("hcl2tojson")
        .arg("-q")
        .arg("-o")
        .arg(scratch)
        .args(&paths)
        .output()
        .map_err(|e| format!("cannot run hcl2tojson: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "hcl2tojson ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// A checker over one folder of configurations.
type Check<'a> = Box<dyn Fn(&Path) -> Result<(), String> + 'a>;

/// Warnings about the template's inputs rather than about what the translation left out.
const ADVICE_ON_INPUTS: &[&str] = &[codes::TF_UNUSED_VARIABLE, codes::TF_UNMARKED_SECRET];

/// The `.tf` files of every golden Terraform configuration (`golden/<case>/expected/tf/`), into
/// `into/<case>/`.
fn copy_golden_configurations(into: &Path) {
    for case in std::fs::read_dir("golden")
        .expect("golden/ exists")
        .flatten()
    {
        let tf = case.path().join("expected/tf");
        let Ok(files) = std::fs::read_dir(&tf) else {
            continue;
        };
        let target = into.join(case.file_name());
        std::fs::create_dir_all(&target).expect("writable");
        for file in files.flatten() {
            if file.path().extension().is_some_and(|e| e == "tf") {
                std::fs::copy(file.path(), target.join(file.file_name())).expect("readable golden");
            }
        }
    }
}

#[test]
fn every_accepted_corpus_file_translates_to_hcl_the_checkers_accept() {
    if !common::corpus_present("", "the tf corpus test")
        || !common::tool_present("hcl2tojson", "the tf corpus test")
    {
        return;
    }
    // Wherever terraform is installed its formatter checks every configuration; under CI it is
    // required (the CI machine image carries it; see docs/testing.md).
    let terraform_installed =
        common::tool_present("terraform", "`terraform fmt -check` of the tf corpus");
    let root = corpus_root();
    let out = tempfile::tempdir().expect("a temporary folder");
    let mut failures: Vec<String> = Vec::new();
    let mut configs: Vec<(String, PathBuf)> = Vec::new();
    let (mut files_seen, mut accepted, mut clean, mut warned) = (0, 0, 0, 0);
    for (n, path) in corpus_files(&root).into_iter().enumerate() {
        files_seen += 1;
        let Some(mut read) = read_as_tf(&path) else {
            continue;
        };
        let topology = read
            .topology
            .take()
            .expect("an accepted file has a topology");
        accepted += 1;
        let mut sources = read.sources;
        let limits = Limits::default();
        let read_artifact = |a: &toscana::ir::Artifact| {
            read.artifacts
                .read(a.path.as_deref(), a.repository.as_deref(), &limits)
        };
        // `--provider kubernetes` builds the objects `toscana k8s` builds, from the file read
        // again with the inputs' values (as the command line does).
        let reread = |bindings: &[(String, toscana::ir::Value)]| {
            let mut quiet = Diagnostics::new();
            let options = toscana::pipeline::ReadOptions {
                set_values: bindings.to_vec(),
                ..common::options_under(common::corpus_repository(&path).as_deref(), &path)
            };
            let read = toscana::pipeline::read(&options, &mut quiet);
            if quiet.has_errors() {
                return None;
            }
            Some(toscana::back::registry::Reread {
                topology: read.topology?,
                sources: read.sources,
                artifacts: read.artifacts,
            })
        };
        for provider in PROVIDERS {
            let mut bdiags = Diagnostics::with_cap(0);
            let Some(backend) = Engine::load(
                back::builtin(provider.backend_name()),
                None,
                &mut sources,
                &limits,
                &mut bdiags,
            ) else {
                panic!("the built-in {} backend does not load", provider.as_str());
            };
            let files = terraform::render(
                &backend,
                toscana::ir::validate(&topology).expect("a resolved topology is valid"),
                &mut sources,
                provider,
                &read_artifact,
                Some(&reread),
                &limits,
                &mut bdiags,
            );
            let name = format!("{} --provider {}", path.display(), provider.as_str());
            // A topology of which no node becomes a resource of this provider ends with
            // output::nothing-to-write, after the warnings that name what was skipped: no
            // configuration, and nothing wrong with the rendering.
            let errors: Vec<_> = bdiags.iter().filter(|d| d.is_error()).collect();
            if !errors.is_empty() && errors.iter().all(|d| d.code == codes::OUTPUT_NOTHING) {
                warned += 1;
                continue;
            }
            if bdiags.has_errors() {
                let messages: Vec<String> = bdiags
                    .finish()
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .collect();
                failures.push(format!("{name}: rendering failed: {}", messages.join("; ")));
                continue;
            }
            // Clean means nothing of the template was left out. The advice about the template's
            // own inputs (a variable nothing uses, a secret not marked sensitive) says nothing
            // about what the translation dropped, so it does not make a configuration unclean.
            let drops = bdiags
                .iter()
                .filter(|d| !d.is_error() && !ADVICE_ON_INPUTS.contains(&d.code))
                .count();
            if drops > 0 {
                warned += 1;
            } else {
                clean += 1;
            }
            let dir = out.path().join(format!("{n:04}-{}", provider.as_str()));
            for file in &files {
                let target = dir.join(&file.path);
                std::fs::create_dir_all(target.parent().expect("a parent")).expect("writable");
                std::fs::write(&target, &file.contents).expect("writable");
            }
            configs.push((name, dir));
        }
    }
    let scratch = tempfile::tempdir().expect("a temporary folder");
    let mut checks: Vec<(&str, Check)> = vec![(
        "hcl2tojson",
        Box::new(|d: &Path| hcl2tojson(d, scratch.path())),
    )];
    if terraform_installed {
        checks.push((
            "terraform fmt",
            Box::new(|d: &Path| run("terraform", &["fmt", "-check", "-recursive"], d)),
        ));
    }
    // One batch: every configuration lies under `out`, so the checker runs once over the folder;
    // when it fails, each configuration is checked alone to name the culprits.
    for (tool, check) in &checks {
        failures.extend(check_in_batches(
            &configs,
            configs.len(),
            |_| check(out.path()),
            |(name, dir)| check(dir).map_err(|e| format!("{name}: {tool}: {e}")),
        ));
    }
    // The provider schema check runs in this process, one configuration at a time.
    failures.extend(configs.iter().filter_map(|(name, dir)| {
        checkers::terraform_schema::check_dir(dir)
            .err()
            .map(|e| format!("{name}: provider schema: {e}"))
    }));
    // checkov's Terraform checks, in one run over every corpus configuration and every golden
    // one (copied beside them), against the committed baseline of accepted findings.
    if common::tool_present(
        "checkov",
        "checkov's Terraform checks of the tf corpus and goldens",
    ) {
        copy_golden_configurations(&out.path().join("golden"));
        match checkers::checkov::findings("terraform", out.path()) {
            Ok(findings) => failures.extend(checkers::checkov::against_baseline(
                &findings,
                &checkers::checkov::TERRAFORM,
            )),
            Err(e) => failures.push(format!("checkov: {e}")),
        }
    }
    eprintln!(
        "tf corpus: {files_seen} files, {accepted} accepted, {} configurations ({} providers): {clean} clean, {warned} with warnings naming what was skipped, {} failed",
        configs.len(),
        PROVIDERS.len(),
        failures.len()
    );
    common::assert_output_floors(
        "tf_corpus",
        &[("configurations", configs.len()), ("clean", clean)],
    );
    assert!(
        failures.is_empty(),
        "{} corpus translations failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_tf_corpus_test_fails_in_ci_without_the_corpus() {
    common::assert_fails_in_ci_without_the_corpus(
        "every_accepted_corpus_file_translates_to_hcl_the_checkers_accept",
    );
}

/// Under `CI=true`, `terraform` is required as much as `hcl2tojson`: run with a `PATH` that has
/// `hcl2tojson` and no `terraform`, the test fails.
#[cfg(unix)]
#[test]
fn the_tf_corpus_test_fails_in_ci_without_terraform() {
    let Some(hcl2tojson) = common::find_on_path("hcl2tojson") else {
        common::skip(
            "the test that terraform is required in CI",
            "`hcl2tojson` is not installed",
        );
        return;
    };
    let bin = tempfile::tempdir().expect("a temporary folder");
    std::os::unix::fs::symlink(&hcl2tojson, bin.path().join("hcl2tojson")).expect("a symlink");
    common::assert_rerun_fails(
        "every_accepted_corpus_file_translates_to_hcl_the_checkers_accept",
        &[("CI", "true".as_ref()), ("PATH", bin.path().as_os_str())],
        "under CI=true without terraform",
        "`terraform` is not installed",
    );
}
