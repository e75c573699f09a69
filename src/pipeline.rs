//! The whole read side in one call: input → sources → front end → resolver → IR.

use std::path::PathBuf;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Topology;
use crate::limits::Limits;
use crate::resolve::{self, Bindings};
use crate::source::{ArtifactFiles, CsarMeta, InputArg, Loader, Origin, SourceMap, SourceOptions};

/// What to read and how.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    pub input: Option<InputArg>,
    /// The entry file inside a directory or CSAR.
    pub entry: Option<PathBuf>,
    /// `(URL prefix, local folder)` pairs for imports given as URLs.
    pub map_url: Vec<(String, PathBuf)>,
    /// Folders where TOSCA 2.0 profiles are found by name (`--profile-path`).
    pub profile_paths: Vec<PathBuf>,
    /// YAML files of input values, applied in order.
    pub inputs_files: Vec<PathBuf>,
    /// `NAME=VALUE` pairs, applied after the files; VALUE is read as YAML.
    pub set: Vec<(String, String)>,
    pub limits: Limits,
    /// A required input left without a value is an error (true) or a warning.
    pub unbound_inputs_are_errors: bool,
    /// Warn about requirements a template leaves for the orchestrator to fulfil (`check`):
    /// validation detail, and noise for a backend that is the orchestrator.
    pub report_open_requirements: bool,
}

/// The result of reading: the topology when the input could be read at all, every file read
/// (for rendering diagnostics) and every problem found.
pub struct Read {
    pub topology: Option<Topology>,
    pub sources: SourceMap,
    /// The files artifacts name, for backends that ship scripts.
    pub artifacts: ArtifactFiles,
}

/// Reads and resolves the input. Problems go into `diags`; the topology is returned even when
/// some were errors, so callers can decide (`check` reports, translators refuse).
pub fn read(options: &ReadOptions, diags: &mut Diagnostics) -> Read {
    let mut loader = Loader::new(SourceOptions {
        entry: options.entry.clone(),
        map_url: options.map_url.clone(),
        profile_paths: options.profile_paths.clone(),
        limits: options.limits.clone(),
    });
    let input = options.input.clone().unwrap_or(InputArg::Stdin);
    let bindings = bindings(&mut loader, options, diags);
    let mark = diags.mark();
    let opened = loader.open_input(&input, diags);
    if let InputArg::Path(path) = &input {
        diags.place_unplaced_since(mark, &path.display().to_string());
    }
    let Some(opened) = opened else {
        return Read {
            topology: None,
            sources: loader.into_sources(),
            artifacts: ArtifactFiles::nowhere(),
        };
    };
    let Some(model) = crate::front::read(&mut loader, opened.entry, &options.limits, diags) else {
        return Read {
            topology: None,
            sources: loader.into_sources(),
            artifacts: ArtifactFiles::nowhere(),
        };
    };
    if opened
        .csar
        .as_ref()
        .is_some_and(|m| *m == CsarMeta::default())
        && options.entry.is_none()
    {
        let shown = &loader.sources().get(model.entry).name;
        crate::front::csar_entry::check_without_meta(&model, shown, diags);
    }
    let csar = opened.csar.map(|meta| meta.to_map());
    let entry_definitions = csar
        .as_ref()
        .and_then(|m| m.get("Entry-Definitions"))
        .map(String::as_str);
    let artifact_root = resolve::topology_root(loader.sources(), model.entry, entry_definitions);
    let (sources, artifacts) = loader.into_parts(model.entry, artifact_root.as_deref());
    let ctx = resolve::Context {
        sources: &sources,
        limits: &options.limits,
        bindings: &bindings,
        csar,
        artifact_root,
        unbound_inputs_are_errors: options.unbound_inputs_are_errors,
        report_open_requirements: options.report_open_requirements,
        artifact_files: &artifacts,
    };
    let topology = resolve::resolve(&model, &ctx, diags);
    Read {
        topology: Some(topology),
        sources,
        artifacts,
    }
}

/// Input values from `--inputs` files and `--set`, read as YAML so `--set port=80` is an integer
/// and `--set name='80'` a string.
fn bindings(loader: &mut Loader, options: &ReadOptions, diags: &mut Diagnostics) -> Bindings {
    let mut bindings = Bindings::new();
    for path in &options.inputs_files {
        let Some(file) = loader.read_file(path, diags) else {
            continue;
        };
        let Some(root) = crate::yaml::load(loader.sources(), file, &options.limits, diags) else {
            continue;
        };
        let Some(map) = root.as_map() else {
            diags.push(crate::front::shape::wrong_shape(
                &root,
                "an inputs file",
                "a map of input names to values",
            ));
            continue;
        };
        for entry in map.entries() {
            match entry.key.scalar_text() {
                Some(name) => {
                    bindings.set(name.to_string(), entry.value.clone(), Some(entry.key.span))
                }
                None => diags.push(crate::front::shape::wrong_shape(
                    &entry.key,
                    "an input name",
                    "a string",
                )),
            }
        }
    }
    for (name, value) in &options.set {
        let text = if value.trim().is_empty() {
            "''".to_string()
        } else {
            value.clone()
        };
        let file = loader.add_text(
            &format!("--set {name}"),
            Origin::Builtin(format!("--set {name}")),
            text,
        );
        match crate::yaml::load(loader.sources(), file, &options.limits, diags) {
            Some(node) => bindings.set(name.clone(), node, None),
            None => diags.push(
                Diagnostic::error(
                    codes::CLI_INPUTS,
                    format!("the value of `--set {name}` is not valid YAML"),
                )
                .hint("quote it for the shell and for YAML: --set 'name=\"a: b\"'"),
            ),
        }
    }
    bindings
}
