//! `toscana resolve`: a variable template in, the variability-resolved TOSCA 1.3 YAML out.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::VariabilityArgs;
use crate::back::OutputFile;
use crate::cli::{EXIT_INVALID, EXIT_OUTPUT, LimitArgs};
use crate::diag::{self, Diagnostic, Diagnostics, MessageFormat, codes};
use crate::pipeline::{self, ReadOptions};
use crate::source::InputArg;

/// The flags of `toscana resolve`.
#[derive(Debug, Args, Clone)]
pub struct ResolveArgs {
    /// The variable template: a YAML file, a directory, a CSAR (.zip/.csar), or `-` for standard input
    pub file: String,
    /// Write the resolved template to FILE (atomically) instead of standard output
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
    /// How to print diagnostics
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// Print only errors
    #[arg(short, long)]
    pub quiet: bool,
    /// Show at most N errors (0: all)
    #[arg(long, value_name = "N", default_value_t = diag::DEFAULT_ERROR_CAP)]
    pub max_errors: usize,
    #[command(flatten)]
    pub variability: VariabilityArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: &ResolveArgs) -> ExitCode {
    let mut diags = Diagnostics::with_cap(args.max_errors);
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
    if args.variability.explain {
        eprint!(
            "{}",
            super::render_explanation(&read.explanation, &read.sources)
        );
    }
    let code = match read.tree {
        Some(_) if diags.has_errors() => EXIT_INVALID,
        None => EXIT_INVALID,
        Some(tree) => match crate::yaml::emit::to_yaml(&tree) {
            Ok(text) => write(args, text, &mut diags),
            Err(e) => {
                diags.push(Diagnostic::error(
                    codes::OUTPUT_WRITE,
                    format!("cannot write the resolved template as YAML: {e}"),
                ));
                EXIT_OUTPUT
            }
        },
    };
    let shown: Vec<Diagnostic> = diags
        .finish()
        .into_iter()
        .filter(|d| !args.quiet || d.is_error())
        .collect();
    let stderr = std::io::stderr();
    let color = args.message_format == MessageFormat::Human
        && stderr.is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut err = stderr.lock();
    let _ = diag::emit(&mut err, &shown, &read.sources, args.message_format, color);
    let _ = err.flush();
    ExitCode::from(code)
}

/// Standard output, or `-o FILE` written to a temporary file and renamed.
fn write(args: &ResolveArgs, text: String, diags: &mut Diagnostics) -> u8 {
    let mut stdout = std::io::stdout().lock();
    let (dir, name) = match &args.output {
        None => (None, "resolved.yaml".to_string()),
        Some(path) => {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let Some(name) = name else {
                diags.push(Diagnostic::error(
                    codes::OUTPUT_WRITE,
                    format!("`{}` is not a file name", path.display()),
                ));
                return EXIT_OUTPUT;
            };
            let dir = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            (Some(dir), name)
        }
    };
    let file = OutputFile {
        path: name,
        contents: text,
    };
    match crate::back::write_outputs(dir.as_deref(), &[file], None, &mut stdout) {
        Ok(_) => 0,
        Err(d) => {
            diags.push(d);
            EXIT_OUTPUT
        }
    }
}
