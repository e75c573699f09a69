//! The whole read side in one call: input → sources → front end → resolver → IR.

use std::path::PathBuf;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::front::variability::Resolved;
use crate::ir::Topology;
use crate::limits::Limits;
use crate::resolve::{self, Bindings};
use crate::source::{ArtifactFiles, CsarMeta, InputArg, Loader, Origin, SourceMap, SourceOptions};
use crate::yaml::Node;

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
    /// Service templates that may substitute node templates (`--substitute`).
    pub substitutes: Vec<PathBuf>,
    /// YAML files of input values, applied in order.
    pub inputs_files: Vec<PathBuf>,
    /// `NAME=VALUE` pairs, applied after the files; VALUE is read as YAML.
    pub set: Vec<(String, String)>,
    /// `NAME=VALUE` pairs that win over every other binding, each VALUE as it is: not read as
    /// YAML, not checked against the input's type and constraints, and no text of the run. The
    /// markers and moved values `toscana tf --provider kubernetes` traces inputs with
    /// (`crate::back::terraform::kubernetes`).
    pub set_values: Vec<(String, crate::ir::Value)>,
    pub limits: Limits,
    /// A required input left without a value is an error (true) or a warning.
    pub unbound_inputs_are_errors: bool,
    /// Every `get_input` stays a call, bound or not, so the backend refers to the input
    /// (Terraform's `var.<name>`, which `terraform.tfvars` then changes) instead of a copy of
    /// its value. The inputs' values stay in the topology's `inputs`.
    pub inputs_stay_calls: bool,
    /// Warn about requirements a template leaves for the orchestrator to fulfil (`check`):
    /// validation detail, and noise for a backend that is the orchestrator.
    pub report_open_requirements: bool,
    /// How a variable template (Variability4TOSCA) is resolved first.
    pub variability: crate::front::variability::Options,
    /// Lenient modes for real-world files (`--quirk`).
    pub quirks: crate::quirk::Quirks,
    /// Unsaved editor buffers read in place of their files (`toscana lsp`).
    pub overlay: crate::source::Overlay,
    /// The trees of imported files kept between reads (`toscana lsp` re-checks on every edit);
    /// the default keeps none.
    pub trees: crate::yaml::TreeCache,
}

/// The result of reading: the topology when the input could be read at all, every file read
/// (for rendering diagnostics) and every problem found.
pub struct Read {
    pub topology: Option<Topology>,
    pub sources: SourceMap,
    /// The files artifacts name, for backends that ship scripts.
    pub artifacts: ArtifactFiles,
    /// The resolution of a variable template (Variability4TOSCA), when the input was one.
    pub variability: Option<Resolved>,
    /// What the front end read, with spans: the language server's index of names.
    pub model: Option<crate::model::Model>,
    /// The Simple Profile 1.3 trees a TOSCA 1.0 XML input was translated into, and what they
    /// could not hold: what `toscana convert` writes.
    pub xml: Option<crate::front::xml::Translated>,
}

/// Reads and resolves the input. Problems go into `diags`; the topology is returned even when
/// some were errors, so callers can decide (`check` reports, translators refuse).
pub fn read(options: &ReadOptions, diags: &mut Diagnostics) -> Read {
    diags.excuse(&options.quirks);
    let mut loader = new_loader(options);
    let input = options.input.clone().unwrap_or(InputArg::Stdin);
    let mut bindings = bindings(&mut loader, options, diags);
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
            variability: None,
            model: None,
            xml: None,
        };
    };
    let variable = crate::front::Variability {
        options: options.variability.clone(),
        given: bindings.iter().collect(),
        quirks: options.quirks.clone(),
        trees: options.trees.clone(),
        csar_entry: opened
            .csar
            .as_ref()
            .and_then(|m| m.entry_definitions.clone())
            .or_else(|| {
                opened
                    .csar
                    .as_ref()
                    .and(options.entry.as_ref())
                    .map(|e| e.to_string_lossy().into_owned())
            }),
    };
    let (model, besides) =
        crate::front::read_with(&mut loader, opened.entry, &options.limits, &variable, diags);
    drop(variable);
    let (variability, xml) = (besides.variability, besides.xml);
    if let Some(resolved) = &variability {
        // A value taken as a variability input is not also a topology input, unless the
        // resolved topology declares an input of that name too.
        let declared = topology_inputs(&resolved.tree);
        for name in &resolved.consumed {
            if !declared.contains(&name.as_str()) {
                bindings.remove(name);
            }
        }
    }
    let Some(model) = model else {
        return Read {
            topology: None,
            sources: loader.into_sources(),
            artifacts: ArtifactFiles::nowhere(),
            variability: None,
            model: None,
            xml,
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
    if let Some(meta) = opened
        .csar
        .as_ref()
        .filter(|_| model.dialect == crate::ir::Dialect::Xml)
    {
        crate::front::xml::check_csar_meta(meta, loader.sources(), &options.quirks, diags);
    }
    if let Some(meta) = opened.csar.as_ref() {
        crate::front::csar_version::check(meta, model.dialect, loader.sources(), diags);
    }
    let csar = opened.csar.map(|meta| meta.to_map());
    let entry_definitions = csar
        .as_ref()
        .and_then(|m| m.get("Entry-Definitions"))
        .map(String::as_str);
    let artifact_root = resolve::topology_root(loader.sources(), model.entry, entry_definitions);
    let candidates = substitution_candidates(&mut loader, &model, options, diags);
    let (sources, artifacts) = loader.into_parts(model.entry, artifact_root.as_deref());
    let ctx = resolve::Context {
        sources: &sources,
        limits: &options.limits,
        bindings: &bindings,
        csar,
        artifact_root,
        unbound_inputs_are_errors: options.unbound_inputs_are_errors,
        inputs_stay_calls: options.inputs_stay_calls,
        report_open_requirements: options.report_open_requirements,
        artifact_files: &artifacts,
        patterns: resolve::patterns::Patterns::new(std::sync::Arc::new(
            crate::limits::Budget::new(&options.limits),
        )),
    };
    // Open requirements of the nodes substitution replaces are no problem (§12 Using node template
    // substitution for model composition): their diagnostics are settled once the expansion is
    // known.
    let mut own = Diagnostics::with_cap(0);
    let topology = resolve::resolve(&model, &ctx, &mut own);
    let topology = resolve::substitute(&model, topology, &candidates, &ctx, &mut own);
    diags.extend(resolve::settled(own.finish(), &topology, &sources));
    Read {
        topology: Some(topology),
        sources,
        artifacts,
        variability,
        model: Some(model),
        xml,
    }
}

/// The result of [`convert_xml`].
pub struct Converted {
    /// The YAML service template, when the input could be read.
    pub tree: Option<Node>,
    pub sources: SourceMap,
}

/// `toscana convert`: reads TOSCA 1.0 XML and gives the Simple Profile 1.3 tree it translates
/// into (or that tree rewritten as TOSCA 2.0), with a warning for each construct the tree cannot
/// hold. The XML is also read and resolved, so what `convert` writes is what `check` would
/// judge.
pub fn convert_xml(
    options: &ReadOptions,
    target: crate::front::xml::ConvertTarget,
    places: &crate::front::xml::rebase::Places<'_>,
    diags: &mut Diagnostics,
) -> Converted {
    use crate::front::xml::ConvertTarget;
    let mut loader = new_loader(options);
    let input = options.input.clone().unwrap_or(InputArg::Stdin);
    let mark = diags.mark();
    let opened = loader.open_input(&input, diags);
    if let InputArg::Path(path) = &input {
        diags.place_unplaced_since(mark, &path.display().to_string());
    }
    let Some(opened) = opened else {
        return Converted {
            tree: None,
            sources: loader.into_sources(),
        };
    };
    if !crate::front::xml::looks_like_xml(&loader.sources().get(opened.entry).text) {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_UNSUPPORTED,
                "`convert` reads TOSCA 1.0 XML; this input is YAML",
            )
            .in_file(loader.sources().get(opened.entry).name.clone())
            .hint("YAML input needs no conversion; `toscana check` reads it as it is"),
        );
        return Converted {
            tree: None,
            sources: loader.into_sources(),
        };
    }
    // The input is read as `check` reads it, reporting, so errors stop the conversion and are
    // shown once; the trees written are the ones that reading translated.
    let read = read(options, diags);
    let Some(t) = read.xml.as_ref() else {
        return Converted {
            tree: None,
            sources: read.sources,
        };
    };
    let mut tree = crate::front::xml::merge(&t.trees)
        .map(|merged| crate::front::xml::rebase::rebase(merged, &read.sources, places, diags));
    let in_2_0 = target == ConvertTarget::tosca_2_0;
    diags.extend(
        t.lost
            .iter()
            .filter(|l| !(in_2_0 && l.tosca2.is_some()))
            .map(|l| l.warning(target.dialect())),
    );
    if in_2_0 && let Some(merged) = &tree {
        let extra: Vec<_> = t.lost.iter().filter_map(|l| l.tosca2.as_ref()).collect();
        let rewritten = crate::front::xml::to_tosca2::rewrite(merged, &extra);
        diags.extend(rewritten.lost);
        tree = Some(rewritten.tree);
    }
    if read.topology.is_none() {
        tree = None;
    }
    Converted {
        tree,
        sources: read.sources,
    }
}

/// The service templates that may substitute node templates of `model`: each `--substitute`
/// file (an error if it has no `substitution_mappings`), then each imported file whose
/// template has `substitution_mappings` (TOSCA 2.0 §6.9.9 Substitution Mappings: such a template is
/// a candidate), in import order, each once. What each reading finds is reported once (see
/// [`read_candidate`]).
fn substitution_candidates(
    loader: &mut Loader,
    model: &crate::model::Model,
    options: &ReadOptions,
    diags: &mut Diagnostics,
) -> Vec<resolve::Candidate> {
    let variable = crate::front::Variability {
        quirks: options.quirks.clone(),
        trees: options.trees.clone(),
        ..Default::default()
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for path in &options.substitutes {
        let mark = diags.mark();
        let opened = loader.open_input(&InputArg::Path(path.clone()), diags);
        diags.place_unplaced_since(mark, &path.display().to_string());
        let Some(opened) = opened else { continue };
        if !seen.insert(opened.entry) {
            continue;
        }
        let (read, found) = read_candidate(loader, opened.entry, &options.limits, &variable);
        diags.extend_unseen(found);
        let Some(read) = read else { continue };
        let name = loader.sources().get(read.entry).name.clone();
        if read
            .topology
            .as_ref()
            .and_then(|t| t.substitution_mappings.as_ref())
            .is_none()
        {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SUBSTITUTION,
                    format!("`--substitute {name}`: this service template has no `substitution_mappings`, so it substitutes nothing"),
                )
                .in_file(name)
                .hint("give --substitute a template whose topology declares `substitution_mappings: { node_type: ... }`"),
            );
            continue;
        }
        out.push(resolve::Candidate {
            model: read,
            name,
            given: true,
        });
    }
    for &file in model.files.iter().skip(1) {
        if seen.contains(&file)
            || !loader
                .sources()
                .get(file)
                .text
                .contains("substitution_mappings")
        {
            continue;
        }
        seen.insert(file);
        let (read, found) = read_candidate(loader, file, &options.limits, &variable);
        let Some(read) = read.filter(|m| {
            m.topology
                .as_ref()
                .is_some_and(|t| t.substitution_mappings.is_some())
        }) else {
            continue;
        };
        // A candidate's topology is read here only: importing the file read its types.
        diags.extend_unseen(found);
        out.push(resolve::Candidate {
            name: loader.sources().get(file).name.clone(),
            model: read,
            given: false,
        });
    }
    out
}

/// `file` read on its own, as a substituting template, and what the reading found. It reads
/// again what the template read already (the imports they share, and an imported candidate's
/// types): the caller reports what was not reported (`Diagnostics::extend_unseen`), so each
/// fact once, and what only this reading finds (an imported candidate's topology) too.
fn read_candidate(
    loader: &mut Loader,
    file: crate::source::FileId,
    limits: &crate::limits::Limits,
    variable: &crate::front::Variability<'_>,
) -> (Option<crate::model::Model>, Vec<Diagnostic>) {
    loader.start_over();
    let mut found = Diagnostics::with_cap(0);
    let (read, _) = crate::front::read_with(loader, file, limits, variable, &mut found);
    (read, found.finish())
}

/// A loader set up as the options say.
fn new_loader(options: &ReadOptions) -> Loader {
    Loader::new(SourceOptions {
        entry: options.entry.clone(),
        map_url: options.map_url.clone(),
        profile_paths: options.profile_paths.clone(),
        limits: options.limits.clone(),
        overlay: options.overlay.clone(),
    })
}

/// The names under `topology_template.inputs` of a template tree.
fn topology_inputs(root: &Node) -> Vec<&str> {
    root.as_map()
        .and_then(|m| m.get("topology_template"))
        .and_then(Node::as_map)
        .and_then(|m| m.get("inputs"))
        .and_then(Node::as_map)
        .map(|m| m.names().collect())
        .unwrap_or_default()
}

/// The result of [`resolve_variability`].
pub struct ResolvedRead {
    /// The resolved template; a Simple Profile 1.x template comes back as it is.
    pub tree: Option<Node>,
    pub explanation: Vec<crate::front::variability::Explained>,
    pub sources: SourceMap,
}

/// `toscana resolve`: reads the input and resolves its variability, without reading it as TOSCA
/// any further (imports are not followed; types need not be known).
pub fn resolve_variability(options: &ReadOptions, diags: &mut Diagnostics) -> ResolvedRead {
    let mut loader = new_loader(options);
    let input = options.input.clone().unwrap_or(InputArg::Stdin);
    let bindings = bindings(&mut loader, options, diags);
    let mark = diags.mark();
    let opened = loader.open_input(&input, diags);
    if let InputArg::Path(path) = &input {
        diags.place_unplaced_since(mark, &path.display().to_string());
    }
    let mut out = ResolvedRead {
        tree: None,
        explanation: Vec::new(),
        sources: SourceMap::new(),
    };
    if let Some(opened) = opened
        && let Some(root) =
            crate::yaml::load(loader.sources(), opened.entry, &options.limits, diags)
    {
        let version = root
            .as_map()
            .and_then(|m| m.entry("tosca_definitions_version"));
        let dialect = version
            .and_then(|e| e.value.scalar_text())
            .and_then(crate::front::version::dialect_of);
        match (dialect, version) {
            (Some(crate::ir::Dialect::Variability), _)
            | (Some(crate::ir::Dialect::SimpleProfile), _)
                if version.is_some_and(|e| {
                    matches!(
                        e.value.scalar_text(),
                        Some(
                            "tosca_variability_1_0"
                                | "tosca_variability_1_0_rc_1"
                                | "tosca_variability_1_0_rc_2"
                                | "tosca_variability_1_0_rc_3"
                                | "tosca_simple_yaml_1_3"
                        )
                    )
                }) =>
            {
                // As the RC does, a Simple Profile 1.3 template is resolved the same way: it may
                // carry conditions too (the RC's own examples do).
                let given = bindings.iter().collect();
                if let Some(resolved) = crate::front::variability::resolve(
                    &root,
                    &options.variability,
                    &given,
                    &options.limits,
                    diags,
                ) {
                    let mut rest = bindings.clone();
                    for name in &resolved.consumed {
                        rest.remove(name);
                    }
                    crate::resolve::check_unused_bindings(
                        &rest,
                        &topology_inputs(&resolved.tree),
                        diags,
                    );
                    out.tree = Some(resolved.tree);
                    out.explanation = resolved.explanation;
                }
            }
            (_, entry) => {
                let span = entry.map_or(root.span, |e| e.value.span);
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_VERSION,
                        "Unsupported TOSCA definitions version",
                    )
                    .at(span)
                    .hint("`toscana resolve` reads `tosca_definitions_version: tosca_variability_1_0` (or its release candidates `_rc_1`, `_rc_2`, `_rc_3`) or `tosca_simple_yaml_1_3`"),
                );
            }
        }
    }
    out.sources = loader.into_sources();
    out
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
            diags.push(crate::model::shape::wrong_shape(
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
                None => diags.push(crate::model::shape::wrong_shape(
                    &entry.key,
                    "an input name",
                    "a string",
                )),
            }
        }
    }
    for (name, value) in &options.set_values {
        bindings.set_value(name.clone(), value.clone());
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

/// For unit tests: `yaml` written to a file of a temporary folder and read through the whole
/// pipeline, which must find no error; its topology and the sources it was read from.
#[cfg(test)]
pub(crate) fn read_text(yaml: &str) -> (Topology, SourceMap) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, yaml).unwrap();
    let mut diags = Diagnostics::new();
    let read = read(
        &ReadOptions {
            input: Some(InputArg::Path(path)),
            ..Default::default()
        },
        &mut diags,
    );
    assert!(!diags.has_errors(), "{:?}", diags.finish());
    (read.topology.expect("the template reads"), read.sources)
}
