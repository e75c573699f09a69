//! `toscana resolve`: a variable template in, the variability-resolved TOSCA 1.3 YAML out.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::VariabilityArgs;
use crate::cli::LimitArgs;
use crate::diag::Diagnostics;
use crate::pipeline::{self, ReadOptions};
use crate::source::InputArg;

/// The flags of `toscana resolve`.
#[derive(Debug, Args, Clone)]
pub struct ResolveArgs {
    /// The variable template: a YAML file, a directory, a CSAR (.zip/.csar), or `-` for standard input
    pub file: String,
    /// Write the YAML to FILE (replaced in one step) instead of standard output; a folder
    /// (ending in `/`, or one that exists) gets `resolved.yaml`; `-` is standard output
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Read input values from a YAML file of `name: value` pairs (repeatable)
    #[arg(long = "inputs", value_name = "FILE.yaml")]
    pub inputs: Vec<PathBuf>,
    /// Set an input value; VALUE is read as YAML, so `80` is an integer (repeatable)
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = crate::cli::parse_pair)]
    pub set: Vec<(String, String)>,
    /// The entry file inside a directory or CSAR
    #[arg(long, value_name = "PATH")]
    pub entry: Option<PathBuf>,
    #[command(flatten)]
    pub report: crate::cli::ReportArgs,
    #[command(flatten)]
    pub variability: VariabilityArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: &ResolveArgs) -> ExitCode {
    let mut diags = Diagnostics::with_cap(args.report.max_errors);
    let options = ReadOptions {
        input: Some(if args.file == "-" {
            InputArg::Stdin
        } else {
            InputArg::Path(PathBuf::from(&args.file))
        }),
        entry: args.entry.clone(),
        map_url: Vec::new(),
        inputs_files: args.inputs.clone(),
        set: args.set.clone(),
        limits: args.limits.limits(),
        unbound_inputs_are_errors: false,
        variability: args.variability.options(),
        ..ReadOptions::default()
    };
    let read = pipeline::resolve_variability(&options, &mut diags);
    let stderr = if args.variability.explain {
        crate::stdio::to_stderr(&super::render_explanation(&read.explanation, &read.sources))
    } else {
        crate::stdio::Outcome::Written
    };
    crate::cli::finish_yaml_output(
        read.tree,
        args.output.as_deref(),
        "resolved.yaml",
        &mut diags,
        &read.sources,
        &args.report,
        args.limits.max_diagnostics_size,
        stderr,
    )
}
