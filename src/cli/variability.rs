//! `toscana resolve`: a variable template in, the variability-resolved TOSCA 1.3 YAML out.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::{Closing, EntryArgs, LimitArgs, Report, ReportArgs, ValueArgs};
use crate::front::variability::{VariabilityArgs, render_explanation};
use crate::pipeline::{self, ReadOptions};
use crate::source::InputArg;

/// The flags of `toscana resolve`.
#[derive(Debug, Args, Clone)]
pub struct ResolveArgs {
    /// The variable template: a YAML file, a folder, a CSAR (.csar, .zip, .tar, .tar.gz), or `-`
    /// for standard input
    pub file: String,
    #[command(flatten)]
    pub entry: EntryArgs,
    #[command(flatten)]
    pub values: ValueArgs,
    #[command(flatten)]
    pub variability: VariabilityArgs,
    /// Write the YAML to FILE (replaced in one step) instead of standard output
    ///
    /// A folder (ending in `/`, or one that exists) gets `resolved.yaml`; `-` is standard
    /// output.
    #[arg(short, long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: &ResolveArgs) -> ExitCode {
    let mut diags = args.report.diagnostics();
    let options = ReadOptions {
        input: Some(InputArg::from_arg(args.file.as_ref())),
        entry: args.entry.entry.clone(),
        map_url: Vec::new(),
        inputs_files: args.values.inputs.clone(),
        set: args.values.set.clone(),
        limits: args.limits.limits(),
        unbound_inputs_are_errors: false,
        variability: args.variability.options(),
        ..ReadOptions::default()
    };
    let read = pipeline::resolve_variability(&options, &mut diags);
    let explanation = args
        .variability
        .explain
        .then(|| render_explanation(&read.explanation, &read.sources));
    super::finish_yaml_output(
        read.tree,
        args.output.as_deref(),
        "resolved.yaml",
        &mut diags,
        &Report {
            args: &args.report,
            sources: &read.sources,
            input: &args.file,
            explanation,
            closing: Closing::Run,
            max_bytes: args.limits.max_diagnostics_size,
        },
    )
}
