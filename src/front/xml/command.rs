//! `toscana convert`: TOSCA 1.0 XML in, the TOSCA YAML service template that means the same
//! out, with a warning for every construct YAML cannot say.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::back::OutputFile;
use crate::cli::{EXIT_INVALID, EXIT_OUTPUT, LimitArgs};
use crate::diag::{self, Diagnostic, Diagnostics, MessageFormat, codes};
use crate::front::quirk::{Quirk, Quirks};
use crate::pipeline::{self, ReadOptions};
use crate::source::InputArg;
use crate::yaml::{Kind, Map, Node};

/// The YAML dialects `convert` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[allow(non_camel_case_types)]
pub enum ConvertTarget {
    /// TOSCA Simple Profile in YAML 1.3
    tosca_simple_yaml_1_3,
}

/// The flags of `toscana convert`.
#[derive(Debug, Args, Clone)]
pub struct ConvertArgs {
    /// The TOSCA 1.0 XML input: a Definitions file, a directory or a CSAR
    pub file: String,
    /// The YAML dialect to write
    #[arg(long, value_enum, default_value_t = ConvertTarget::tosca_simple_yaml_1_3)]
    pub to: ConvertTarget,
    /// Write the YAML to FILE (atomically) instead of standard output
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Accept what a tool's real files do that the specification forbids (repeatable)
    #[arg(long, value_enum, value_name = "NAME")]
    pub quirk: Vec<Quirk>,
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
    pub limits: LimitArgs,
}

pub fn run(args: &ConvertArgs) -> ExitCode {
    let mut diags = Diagnostics::with_cap(args.max_errors);
    let options = ReadOptions {
        input: Some(if args.file == "-" {
            InputArg::Stdin
        } else {
            InputArg::Path(PathBuf::from(&args.file))
        }),
        entry: args.entry.clone(),
        limits: args.limits.limits(),
        quirks: Quirks::new(&args.quirk),
        ..ReadOptions::default()
    };
    let converted = pipeline::convert_xml(&options, &mut diags);
    let code = match converted.tree {
        Some(_) if diags.has_errors() => EXIT_INVALID,
        None => EXIT_INVALID,
        Some(tree) => match crate::yaml::emit::to_yaml(&tree) {
            Ok(text) => write(args, text, &mut diags),
            Err(e) => {
                diags.push(Diagnostic::error(
                    codes::OUTPUT_WRITE,
                    format!("cannot write the converted template as YAML: {e}"),
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
    let _ = diag::emit(
        &mut err,
        &shown,
        &converted.sources,
        args.message_format,
        color,
    );
    let _ = err.flush();
    ExitCode::from(code)
}

/// The translated documents as one YAML file: the entry's tree with the type sections of every
/// other document merged in (translated names are unique across documents by construction).
pub fn merge(trees: &[(crate::source::FileId, Node)]) -> Option<Node> {
    let (_, entry) = trees.first()?;
    let Kind::Map(entry_map) = &entry.kind else {
        return None;
    };
    let mut sections: Vec<(Node, Vec<crate::yaml::Entry>)> = Vec::new();
    let mut out = Map::new();
    for e in entry_map.entries() {
        if e.key.scalar_text().is_some_and(|k| k.ends_with("_types")) {
            sections.push((
                e.key.clone(),
                e.value
                    .as_map()
                    .map(|m| m.entries().to_vec())
                    .unwrap_or_default(),
            ));
        }
    }
    for (_, tree) in &trees[1..] {
        let Some(map) = tree.as_map() else { continue };
        for e in map.entries() {
            let Some(key) = e.key.scalar_text().filter(|k| k.ends_with("_types")) else {
                continue;
            };
            let items = e
                .value
                .as_map()
                .map(|m| m.entries().to_vec())
                .unwrap_or_default();
            match sections
                .iter_mut()
                .find(|(k, _)| k.scalar_text() == Some(key))
            {
                Some((_, list)) => list.extend(items),
                None => sections.push((e.key.clone(), items)),
            }
        }
    }
    let order = [
        "artifact_types",
        "capability_types",
        "interface_types",
        "relationship_types",
        "node_types",
        "policy_types",
    ];
    sections.sort_by_key(|(k, _)| {
        order
            .iter()
            .position(|o| Some(*o) == k.scalar_text())
            .unwrap_or(order.len())
    });
    let mut sections = sections.into_iter();
    let mut placed = false;
    for e in entry_map.entries() {
        let key = e.key.scalar_text().unwrap_or_default();
        if key.ends_with("_types") {
            continue;
        }
        if !placed && key == "topology_template" {
            placed = true;
            for (k, items) in sections.by_ref() {
                let _ = out.insert(k, section(items, e.value.span));
            }
        }
        let _ = out.insert(e.key.clone(), e.value.clone());
    }
    for (k, items) in sections {
        let _ = out.insert(k, section(items, entry.span));
    }
    Some(Node {
        span: entry.span,
        tag: None,
        kind: Kind::Map(out),
    })
}

fn section(items: Vec<crate::yaml::Entry>, span: crate::source::Span) -> Node {
    let mut m = Map::new();
    for e in items {
        let _ = m.insert(e.key, e.value);
    }
    Node {
        span,
        tag: None,
        kind: Kind::Map(m),
    }
}

/// Standard output, or `-o FILE` written to a temporary file and renamed.
fn write(args: &ConvertArgs, text: String, diags: &mut Diagnostics) -> u8 {
    let mut stdout = std::io::stdout().lock();
    let (dir, name) = match &args.output {
        None => (None, "converted.yaml".to_string()),
        Some(path) => {
            let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
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
