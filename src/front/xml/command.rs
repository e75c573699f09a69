//! `toscana convert`: TOSCA 1.0 XML in, the TOSCA YAML service template that means the same
//! out, with a warning for every construct YAML cannot say.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::cli::{Closing, LimitArgs, Report};
use crate::pipeline::{self, ReadOptions};
use crate::source::InputArg;
use crate::yaml::Node;

/// The YAML dialects `convert` writes, named by their `tosca_definitions_version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[allow(non_camel_case_types)]
pub enum ConvertTarget {
    /// TOSCA Simple Profile in YAML 1.3: the normative types are implied
    #[value(name = "tosca_simple_yaml_1_3")]
    tosca_simple_yaml_1_3,
    /// TOSCA 2.0: the file defines the Simple Profile 1.3 types it uses, under their 1.3 names
    #[value(name = "tosca_2_0")]
    tosca_2_0,
}

impl ConvertTarget {
    /// The dialect, as warnings name it.
    pub fn dialect(self) -> &'static str {
        match self {
            ConvertTarget::tosca_simple_yaml_1_3 => "TOSCA YAML 1.3",
            ConvertTarget::tosca_2_0 => super::to_tosca2::DIALECT,
        }
    }
}

/// The flags of `toscana convert`.
#[derive(Debug, Args, Clone)]
pub struct ConvertArgs {
    /// The TOSCA 1.0 XML input: a Definitions file, a folder or a CSAR
    pub file: String,
    #[command(flatten)]
    pub entry: crate::cli::EntryArgs,
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
    pub lenient: crate::cli::LenientArgs,
    #[command(flatten)]
    pub report: crate::cli::ReportArgs,
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
    let places = super::rebase::Places {
        output_dir: &output_dir,
        input: Path::new(&args.file),
    };
    let converted = pipeline::convert_xml(&options, args.to, &places, &mut diags);
    crate::cli::finish_yaml_output(
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

/// The translated documents as one YAML file: the entry's tree with the type sections of every
/// other document merged in (translated names are unique across documents by construction).
pub fn merge(trees: &[(crate::source::FileId, Node)]) -> Option<Node> {
    let (_, entry) = trees.first()?;
    let mut extra = Vec::new();
    for (_, tree) in &trees[1..] {
        for e in tree
            .as_map()
            .map(crate::yaml::Map::entries)
            .unwrap_or_default()
        {
            let Some(section) = e
                .key
                .scalar_text()
                .and_then(|k| super::TYPE_SECTIONS.iter().copied().find(|s| *s == k))
            else {
                continue;
            };
            for se in e
                .value
                .as_map()
                .map(crate::yaml::Map::entries)
                .unwrap_or_default()
            {
                extra.push((section, se.key.clone(), se.value.clone()));
            }
        }
    }
    Some(super::with_types(entry, extra))
}
