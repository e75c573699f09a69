//! The [`Backend`] trait, and the registry of every backend the CLI dispatches to.
//!
//! A backend is a mapping file and templates ([`Engine`]) plus, for the built-in targets, Rust
//! that works out what needs the whole graph (Kubernetes workloads, Terraform resources, the
//! Graphviz layout) and hands it to the templates. Every backend answers the same three
//! questions, so the CLI has one path for all of them: which built-in mapping it starts from
//! ([`Backend::builtin`], to which `--backend-dir` adds), whether a missing input value may stay a
//! `get_input` call ([`Backend::keeps_unbound_inputs`]), and how it renders a validated topology
//! ([`Backend::render`]). Its options are typed fields of the backend's value, set by the
//! command that chose it.
//!
//! The registry is the four kinds below: [`Kubernetes`] (`toscana k8s`), [`Terraform`]
//! (`toscana tf`, one built-in mapping per provider), [`Graphviz`] (`toscana dot`) and [`Rules`]
//! (`toscana render --backend-dir DIR`: a mapping file and templates alone, with no Rust of
//! their own). A new backend is a new entry here and a command that chooses it.

use std::path::Path;

use crate::diag::Diagnostics;
use crate::ir::{Artifact, Valid};
use crate::limits::Limits;
use crate::source::{ArtifactFiles, SourceMap};

use super::binds::{self, BindSchema};
use super::graphviz::DotOptions;
use super::kubernetes::K8sOptions;
use super::terraform::Provider;
use super::{BuiltinBackend, Engine, OutputFile, builtin};

/// What a backend reads besides the topology: the texts read so far (templates and mapping
/// files are added to it, so their problems have file:line:col), the artifact files and the
/// limits of the run.
pub struct Inputs<'a> {
    pub sources: &'a mut SourceMap,
    pub artifacts: &'a ArtifactFiles,
    pub limits: &'a Limits,
    /// Reads the input again as `toscana k8s` reads it (every `get_input` evaluated), with
    /// these `NAME=VALUE` pairs set after the command line's; `None` when it does not read
    /// without errors. `toscana tf --provider kubernetes` builds the objects `toscana k8s`
    /// builds from it ([`super::terraform::kubernetes`]). Its diagnostics are dropped: the
    /// first read reported the same ones.
    pub reread: Option<&'a RereadFn<'a>>,
}

/// See [`Inputs::reread`].
pub type RereadFn<'a> = dyn Fn(&[(String, crate::ir::Value)]) -> Option<Reread> + 'a;

/// What [`Inputs::reread`] reads: the topology in translation order, its texts and artifacts.
pub struct Reread {
    pub topology: crate::ir::Topology,
    pub sources: SourceMap,
    pub artifacts: ArtifactFiles,
}

/// One translator from the IR to files.
pub trait Backend {
    /// The name of the registry entry, for messages: `kubernetes`, `terraform`, `graphviz`,
    /// `render`.
    fn name(&self) -> &'static str;

    /// The built-in mapping file and templates the backend renders with, before `--backend-dir`
    /// adds rules and replaces templates; `None` when `--backend-dir` is the whole backend.
    fn builtin(&self) -> Option<&'static BuiltinBackend>;

    /// True when an input with no value may stay a `get_input` call in the topology handed to
    /// [`Backend::render`]: Terraform declares it as a variable, a diagram shows the call.
    /// Otherwise every input needs a value before the backend runs.
    fn keeps_unbound_inputs(&self) -> bool {
        false
    }

    /// True when every `get_input` should reach [`Backend::render`] as a call, bound or not:
    /// Terraform writes it as `var.<name>`, so that `terraform.tfvars` changes what it
    /// configures. The inputs' values stay in the topology's `inputs`.
    fn keeps_input_calls(&self) -> bool {
        false
    }

    /// What the backend's Rust reads from a rule's `bind`, checked when the mapping loads;
    /// `None` when nothing reads `bind` but the templates.
    fn binds(&self) -> Option<&'static BindSchema> {
        None
    }

    /// The backend's engine: its built-in mapping and templates ([`Backend::builtin`]) with
    /// `backend_dir`'s additions, every `bind` checked against [`Backend::binds`]. `None`
    /// when there was an error, each reported at its place.
    fn load(
        &self,
        backend_dir: Option<&Path>,
        sources: &mut SourceMap,
        limits: &Limits,
        diags: &mut Diagnostics,
    ) -> Option<Engine> {
        let engine = Engine::load(self.builtin(), backend_dir, sources, limits, diags)?;
        match self.binds() {
            Some(schema) if !engine.check_binds(schema, diags) => None,
            _ => Some(engine),
        }
    }

    /// The files of `topology`, rendered with `engine` (loaded from [`Backend::builtin`] and
    /// `--backend-dir`). Problems go to `diags`; files are written only when there is none.
    fn render(
        &self,
        engine: &Engine,
        topology: Valid<'_>,
        inputs: &mut Inputs<'_>,
        diags: &mut Diagnostics,
    ) -> Vec<OutputFile>;
}

/// `toscana k8s`: Kubernetes manifests ([`super::kubernetes`]).
#[derive(Debug, Clone, Default)]
pub struct Kubernetes(pub K8sOptions);

impl Backend for Kubernetes {
    fn name(&self) -> &'static str {
        "kubernetes"
    }

    fn builtin(&self) -> Option<&'static BuiltinBackend> {
        builtin("kubernetes")
    }

    fn binds(&self) -> Option<&'static BindSchema> {
        Some(&binds::KUBERNETES)
    }

    fn render(
        &self,
        engine: &Engine,
        topology: Valid<'_>,
        inputs: &mut Inputs<'_>,
        diags: &mut Diagnostics,
    ) -> Vec<OutputFile> {
        super::kubernetes::render(
            engine,
            topology,
            inputs.sources,
            inputs.artifacts,
            inputs.limits,
            &self.0,
            diags,
        )
    }
}

/// `toscana tf --provider P`: a Terraform configuration ([`super::terraform`]) with the rules of
/// the provider's built-in mapping.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terraform(pub Provider);

impl Backend for Terraform {
    fn name(&self) -> &'static str {
        "terraform"
    }

    fn builtin(&self) -> Option<&'static BuiltinBackend> {
        builtin(self.0.backend_name())
    }

    fn binds(&self) -> Option<&'static BindSchema> {
        Some(&binds::TERRAFORM)
    }

    fn keeps_unbound_inputs(&self) -> bool {
        true
    }

    fn keeps_input_calls(&self) -> bool {
        true
    }

    fn render(
        &self,
        engine: &Engine,
        topology: Valid<'_>,
        inputs: &mut Inputs<'_>,
        diags: &mut Diagnostics,
    ) -> Vec<OutputFile> {
        let (artifacts, limits) = (inputs.artifacts, inputs.limits);
        let read_artifact =
            |a: &Artifact| artifacts.read(a.path.as_deref(), a.repository.as_deref(), limits);
        super::terraform::render(
            engine,
            topology,
            inputs.sources,
            self.0,
            &read_artifact,
            inputs.reread,
            limits,
            diags,
        )
    }
}

/// `toscana dot`: a Graphviz diagram ([`super::graphviz`]).
#[derive(Debug, Clone)]
pub struct Graphviz(pub DotOptions);

impl Backend for Graphviz {
    fn name(&self) -> &'static str {
        "graphviz"
    }

    fn builtin(&self) -> Option<&'static BuiltinBackend> {
        builtin("graphviz")
    }

    fn binds(&self) -> Option<&'static BindSchema> {
        Some(&binds::GRAPHVIZ)
    }

    fn keeps_unbound_inputs(&self) -> bool {
        true
    }

    fn render(
        &self,
        engine: &Engine,
        topology: Valid<'_>,
        inputs: &mut Inputs<'_>,
        diags: &mut Diagnostics,
    ) -> Vec<OutputFile> {
        super::graphviz::render(engine, topology, inputs.sources, &self.0, diags)
    }
}

/// `toscana render --backend-dir DIR`: the rules and templates of DIR alone, each element
/// rendered by the first rule that matches it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rules;

impl Backend for Rules {
    fn name(&self) -> &'static str {
        "render"
    }

    fn builtin(&self) -> Option<&'static BuiltinBackend> {
        None
    }

    fn render(
        &self,
        engine: &Engine,
        topology: Valid<'_>,
        inputs: &mut Inputs<'_>,
        diags: &mut Diagnostics,
    ) -> Vec<OutputFile> {
        let elements = super::elements(&topology, inputs.sources);
        engine.render(topology.topology(), &elements, diags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in target has its mapping compiled in: the CLI never meets a registered
    /// backend without one (it used to say "not available yet").
    #[test]
    fn every_built_in_target_has_its_mapping() {
        let targets: Vec<Box<dyn Backend>> = vec![
            Box::new(Graphviz(DotOptions::default())),
            Box::new(Kubernetes::default()),
            Box::new(Terraform(Provider::Aws)),
            Box::new(Terraform(Provider::Openstack)),
            Box::new(Terraform(Provider::Kubernetes)),
        ];
        for backend in targets {
            assert!(backend.builtin().is_some(), "{}", backend.name());
            let mut sources = SourceMap::new();
            let mut diags = Diagnostics::new();
            let engine = backend.load(None, &mut sources, &Limits::default(), &mut diags);
            assert!(engine.is_some(), "{}: {:?}", backend.name(), diags);
        }
        assert!(Rules.builtin().is_none());
    }
}
