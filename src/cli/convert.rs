//! `toscana convert`: TOSCA 1.0 XML in, the TOSCA YAML service template that means the same
//! out, with a warning for every construct YAML cannot say.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::{Closing, EntryArgs, LenientArgs, LimitArgs, Report, ReportArgs};
use crate::front::xml::ConvertTarget;
use crate::front::xml::rebase::Places;
use crate::pipeline::{self, ReadOptions};
use crate::source::InputArg;

/// The flags of `toscana convert`.
#[derive(Debug, Args, Clone)]
pub struct ConvertArgs {
    /// The TOSCA 1.0 XML input: a Definitions file, a folder or a CSAR
    pub file: String,
    #[command(flatten)]
    pub entry: EntryArgs,
    /// The YAML dialect to write
    #[arg(long, value_enum, value_name = "DIALECT", default_value_t = ConvertTarget::tosca_simple_yaml_1_3, help_heading = "Output")]
    pub to: ConvertTarget,
    /// Write the YAML to FILE (replaced in one step) instead of standard output
    ///
    /// A folder (ending in `/`, or one that exists) gets `converted.yaml`; `-` is standard
    /// output.
    #[arg(short, long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub lenient: LenientArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: &ConvertArgs) -> ExitCode {
    let mut diags = args.report.diagnostics();
    let options = ReadOptions {
        input: Some(InputArg::from_arg(args.file.as_ref())),
        entry: args.entry.entry.clone(),
        limits: args.limits.limits(),
        quirks: args.lenient.quirks(),
        ..ReadOptions::default()
    };
    // Artifact paths are written relative to where the file goes: the folder `-o` names (a
    // trailing `/` or an existing folder), the folder of the file it names, or, for standard
    // output, the current folder.
    let output_dir = match args.output.as_deref() {
        Some(o) if o.is_dir() || o.as_os_str().to_string_lossy().ends_with('/') => o,
        Some(o) => o
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
        None => Path::new("."),
    };
    let output_dir = std::path::absolute(output_dir).unwrap_or_else(|_| output_dir.to_path_buf());
    let places = Places {
        output_dir: &output_dir,
        input: Path::new(&args.file),
    };
    let converted = pipeline::convert_xml(&options, args.to, &places, &mut diags);
    super::finish_yaml_output(
        converted.tree,
        args.output.as_deref(),
        "converted.yaml",
        &mut diags,
        &Report {
            args: &args.report,
            sources: &converted.sources,
            input: &args.file,
            explanation: None,
            closing: Closing::Run,
            max_bytes: args.limits.max_diagnostics_size,
        },
    )
}
