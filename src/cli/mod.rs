//! The command line: `toscana` and its three translator aliases.
//!
//! Exit codes: 0 success (warnings allowed, unless `--deny-warnings`), 1 the input is invalid,
//! 2 the command line is wrong, 3 an output could not be written. Diagnostics always go to
//! standard error, so standard output carries only the result.

mod args;
mod completions;
mod convert;
mod explain;
mod report;
pub mod stdio;
mod variability;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser};

pub use args::{
    BackendArgs, Cli, ColorChoice, Command, DotArgs, EntryArgs, ExplainArgs, FormatArg, InputArgs,
    IrCommand, K8sArgs, LenientArgs, LimitArgs, LspArgs, OutputArgs, ReadArgs, ReportArgs, TfArgs,
    TranslateArgs, ValueArgs,
};
pub use report::{Closing, Report};

use crate::back::{self, Destination, OutputFile, Shape};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::pipeline::{self, ReadOptions};
use crate::source::SourceMap;

/// Exit code: the input is invalid.
pub const EXIT_INVALID: u8 = 1;
/// Exit code: the command line is wrong.
pub const EXIT_USAGE: u8 = 2;
/// Exit code: an output could not be written.
pub const EXIT_OUTPUT: u8 = 3;

/// The translators, which the three alias binaries run directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Kubernetes,
    Terraform,
    Graphviz,
}

impl Target {
    /// The binary that runs this target alone.
    pub fn alias(self) -> &'static str {
        match self {
            Target::Kubernetes => "tosca2k8s",
            Target::Terraform => "tosca2tf",
            Target::Graphviz => "tosca2dot",
        }
    }
}

/// A panic is a bug whatever the input: say so plainly, and ask for the input. The message is
/// written without `eprintln!`, which would panic again (and abort) when standard error is
/// closed or full.
fn report_panics_as_bugs() {
    std::panic::set_hook(Box::new(|info| {
        let _ = crate::cli::stdio::to_stderr(&format!(
            "internal error: {info}\n\
             This is a bug in toscana, whatever the input was. Please report it with the input \
             that caused it and the command line you ran (exit code 101).\n"
        ));
    }));
}

/// Runs `toscana` with the process's arguments.
pub fn main() -> ExitCode {
    report_panics_as_bugs();
    match Cli::parse().command {
        Command::Check(read) => run(&read, None, Job::Check),
        Command::Ir(args) => run(
            &args.read,
            args.output.path(),
            Job::Ir {
                expand: args.expand,
            },
        ),
        Command::K8s(args) => translate_with(&args.translate, &args.k8s),
        Command::Tf(args) => translate_with(&args.translate, &args.tf),
        Command::Dot(args) => translate_with(&args.translate, &args.dot),
        Command::Render(args) => run(
            &args.read,
            args.output.path(),
            Job::Translate(Translation {
                backend_dir: Some(&args.backend_dir),
                options: Options::None,
            }),
        ),
        Command::Resolve(args) => variability::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Completions(args) => completions::print(&args),
        Command::Lsp(args) => lsp(&args),
    }
}

/// `toscana lsp`: serves an editor until it shuts the server down (exit 0) or goes away
/// without doing so (exit 1, as the protocol asks).
fn lsp(args: &LspArgs) -> ExitCode {
    let settings = crate::lsp::Settings {
        map_url: args
            .map_url
            .iter()
            .map(|(prefix, dir)| (prefix.clone(), PathBuf::from(dir)))
            .collect(),
        profile_paths: args.profile_path.clone(),
        quirks: args.lenient.quirks(),
        ..Default::default()
    };
    match crate::lsp::serve(settings) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            let _ = stdio::to_stderr(&format!("toscana lsp: {error}\n"));
            ExitCode::FAILURE
        }
    }
}

/// The options of one translator, as its command and its alias binary take them.
trait TargetArgs: Args + FromArgMatches {
    fn options(&self) -> Options<'_>;
}

impl TargetArgs for K8sArgs {
    fn options(&self) -> Options<'_> {
        Options::Kubernetes(self)
    }
}

impl TargetArgs for TfArgs {
    fn options(&self) -> Options<'_> {
        Options::Terraform(self)
    }
}

impl TargetArgs for DotArgs {
    fn options(&self) -> Options<'_> {
        Options::Graphviz(self)
    }
}

fn translate_with<T: TargetArgs>(args: &TranslateArgs, options: &T) -> ExitCode {
    run(
        &args.read,
        args.output.path(),
        Job::Translate(Translation {
            backend_dir: args.backend.backend_dir.as_deref(),
            options: options.options(),
        }),
    )
}

/// Runs one of the alias binaries (`tosca2k8s` is `toscana k8s`).
pub fn alias_main(target: Target) -> ExitCode {
    report_panics_as_bugs();
    match target {
        Target::Kubernetes => alias::<K8sArgs>(target),
        Target::Terraform => alias::<TfArgs>(target),
        Target::Graphviz => alias::<DotArgs>(target),
    }
}

fn alias<T: TargetArgs>(target: Target) -> ExitCode {
    let matches = alias_command(target).get_matches();
    let parsed = TranslateArgs::from_arg_matches(&matches)
        .and_then(|args| T::from_arg_matches(&matches).map(|options| (args, options)));
    match parsed {
        Ok((args, options)) => translate_with(&args, &options),
        Err(e) => e.exit(),
    }
}

/// The command line of an alias binary: `toscana <target>`'s flags under its own name.
pub fn alias_command(target: Target) -> clap::Command {
    let (about, example) = match target {
        Target::Kubernetes => (
            "Translates a TOSCA service template into Kubernetes manifests (the same as `toscana k8s`)",
            args::K8S_EXAMPLE,
        ),
        Target::Terraform => (
            "Translates a TOSCA service template into a Terraform configuration (the same as `toscana tf`)",
            args::TF_EXAMPLE,
        ),
        Target::Graphviz => (
            "Draws a TOSCA service template as a Graphviz diagram (the same as `toscana dot`)",
            args::DOT_EXAMPLE,
        ),
    };
    let name = target.alias();
    let command = TranslateArgs::augment_args(clap::Command::new(name));
    let command = match target {
        Target::Kubernetes => K8sArgs::augment_args(command),
        Target::Terraform => TfArgs::augment_args(command),
        Target::Graphviz => DotArgs::augment_args(command),
    };
    // Set last: the flattened groups must not lend the command their descriptions.
    command
        .version(env!("CARGO_PKG_VERSION"))
        .about(about)
        .long_about(None::<&str>)
        .after_help(
            example
                .replace("toscana k8s", name)
                .replace("toscana tf", name)
                .replace("toscana dot", name),
        )
}

/// The clap definition of `toscana`, for completions and help tests.
pub fn command() -> clap::Command {
    Cli::command()
}

#[derive(Debug, Clone, Copy)]
enum Job<'a> {
    Check,
    /// The IR, of templates or (`expand`) of representations.
    Ir {
        expand: bool,
    },
    Translate(Translation<'a>),
}

/// What a translation needs besides the template: backend additions (`--backend-dir`), and
/// the flags that choose the backend and its options.
#[derive(Debug, Clone, Copy)]
struct Translation<'a> {
    backend_dir: Option<&'a Path>,
    options: Options<'a>,
}

/// The command that chose the backend, with its flags.
#[derive(Debug, Clone, Copy)]
enum Options<'a> {
    /// `render`: the rules of `--backend-dir` alone.
    None,
    Kubernetes(&'a K8sArgs),
    Terraform(&'a TfArgs),
    Graphviz(&'a DotArgs),
}

impl Options<'_> {
    /// The backend of the registry ([`back::registry`]) these flags choose, with its typed
    /// options; `folder` when the output goes to a folder (`-o DIR`).
    fn backend(&self, folder: bool) -> Box<dyn back::Backend> {
        match *self {
            Options::None => Box::new(back::registry::Rules),
            Options::Kubernetes(k8s) => {
                Box::new(back::registry::Kubernetes(back::kubernetes::K8sOptions {
                    namespace: k8s.namespace.clone(),
                    ingress: k8s.ingress,
                    split: folder && !k8s.single_file,
                    no_limits: k8s.no_limits,
                    no_probes: k8s.no_probes,
                    no_security_context: k8s.no_security_context,
                    service_account_token: k8s.service_account_token,
                    outputs_written: false,
                }))
            }
            Options::Terraform(tf) => Box::new(back::registry::Terraform(tf.provider())),
            Options::Graphviz(dot) => Box::new(back::registry::Graphviz(dot.options())),
        }
    }
}

fn run(args: &ReadArgs, output: Option<&Path>, job: Job<'_>) -> ExitCode {
    let mut diags = args.report.diagnostics();
    let destination = destination(output, &job);
    let backend = match job {
        Job::Translate(t) => Some(t.options.backend(destination.folder().is_some())),
        _ => None,
    };
    let binary = matches!(job, Job::Translate(Translation { options: Options::Graphviz(dot), .. }) if dot.format == FormatArg::Png);
    if let Err(code) = prepare(&destination, binary, &mut diags) {
        return Report {
            args: &args.report,
            sources: &SourceMap::new(),
            input: &args.file,
            explanation: None,
            closing: Closing::Run,
            max_bytes: args.limits.max_diagnostics_size,
        }
        .print(&diags, code);
    }
    let options = read_options(args, &job, backend.as_deref());
    let read = ordered_for(&job, pipeline::read(&options, &mut diags));
    let explanation = read
        .variability
        .as_ref()
        .filter(|_| args.variability.explain)
        .map(|resolved| {
            crate::front::variability::render_explanation(&resolved.explanation, &read.sources)
        });
    let mut sources = read.sources;
    let artifacts = read.artifacts;
    let mut model = read.model;
    let valid = read
        .topology
        .as_ref()
        .filter(|_| !diags.has_errors())
        .and_then(|topology| validated(topology, &mut diags));
    let code = match (job, valid) {
        (_, None) => EXIT_INVALID,
        (Job::Check, Some(_)) => 0,
        (Job::Ir { expand }, Some(topology)) => {
            let expanded;
            let topology = match expand {
                true => {
                    expanded = crate::resolve::expand(
                        &topology,
                        &sources,
                        &args.limits.limits(),
                        &mut diags,
                    );
                    expanded
                        .as_ref()
                        .filter(|_| !diags.has_errors())
                        .and_then(|expanded| validated(expanded, &mut diags))
                }
                false => Some(topology),
            };
            match topology {
                Some(topology) if !diags.has_errors() => {
                    ir_output(&destination, &topology, &mut diags)
                }
                _ => EXIT_INVALID,
            }
        }
        (Job::Translate(translation), Some(topology)) => {
            let run = Run {
                read: args,
                destination: &destination,
                artifacts: &artifacts,
                reread: &|bindings: &[(String, crate::ir::Value)]| reread(&options, &job, bindings),
            };
            let backend = backend.expect("a translation chooses a backend");
            // What the front end read (YAML trees with spans, for the language server's index)
            // serves no backend: freed before the backend builds its own model, so the two are
            // never alive together (the run's peak memory was their sum).
            drop(model.take());
            translate(
                &run,
                &translation,
                &*backend,
                topology,
                &mut sources,
                &mut diags,
            )
        }
    };
    leave_to_the_exit(read.topology);
    leave_to_the_exit(model);
    Report {
        args: &args.report,
        sources: &sources,
        input: &args.file,
        explanation,
        closing: match job {
            Job::Check => Closing::Check,
            _ => Closing::Run,
        },
        max_bytes: args.limits.max_diagnostics_size,
    }
    .print(&diags, code)
}

/// How `job` reads the input: `check` judges the template, a backend says whether it keeps
/// inputs as calls.
fn read_options(
    args: &ReadArgs,
    job: &Job<'_>,
    backend: Option<&dyn back::Backend>,
) -> ReadOptions {
    ReadOptions {
        input: Some(args.input()),
        entry: args.input.entry.entry.clone(),
        map_url: args
            .input
            .map_url
            .iter()
            .map(|(p, d)| (p.clone(), PathBuf::from(d)))
            .collect(),
        profile_paths: args.input.profile_path.clone(),
        substitutes: args.input.substitute.clone(),
        inputs_files: args.values.inputs.clone(),
        set: args.values.set.clone(),
        set_values: Vec::new(),
        limits: args.limits.limits(),
        // `check` judges the template, and some backends keep a missing value as a
        // `get_input` call (Terraform declares it as a variable, a diagram shows it); the IR
        // and the other backends need every value.
        unbound_inputs_are_errors: !matches!(job, Job::Check)
            && !backend.is_some_and(|b| b.keeps_unbound_inputs()),
        inputs_stay_calls: backend.is_some_and(|b| b.keeps_input_calls()),
        report_open_requirements: matches!(job, Job::Check),
        variability: args.variability.options(),
        quirks: args.lenient.quirks(),
        overlay: Default::default(),
        // One read per run: nothing to keep for a next one.
        trees: crate::yaml::TreeCache::none(),
    }
}

/// What was read, with the topology in the order a translation sees it ([`crate::ir::order`]): a
/// translation does not depend on the order the template was written in. The IR (`toscana ir`)
/// keeps the order as written.
fn ordered_for(job: &Job<'_>, mut read: pipeline::Read) -> pipeline::Read {
    if let (Job::Translate(_), Some(topology)) = (job, read.topology.as_mut()) {
        crate::ir::order::canonical(topology);
    }
    read
}

/// The topology the IR's validator found whole ([`crate::ir::validate`]); an internal error
/// naming every broken reference when it is not, which is a bug whatever the input.
fn validated<'t>(
    topology: &'t crate::ir::Topology,
    diags: &mut Diagnostics,
) -> Option<crate::ir::Valid<'t>> {
    match crate::ir::validate(topology) {
        Ok(valid) => Some(valid),
        Err(problems) => {
            diags.push(
                Diagnostic::error(
                    codes::INTERNAL_IR,
                    format!(
                        "internal error: the resolved topology is inconsistent: {}",
                        problems.join("; ")
                    ),
                )
                .hint("this is a bug in toscana, whatever the input; nothing was written. Please report it with the input and the command line"),
            );
            None
        }
    }
}

/// Hands `value` to the end of the process instead of freeing it: the process exits right after
/// the command, which returns its memory at once, while freeing the IR of a large topology
/// allocation by allocation costs 2-4% of the run (a node owns about fifty maps).
fn leave_to_the_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Writes the IR as JSON (`ir.json` in a folder).
fn ir_output(
    destination: &Destination,
    topology: &crate::ir::Topology,
    diags: &mut Diagnostics,
) -> u8 {
    let mut text = serde_json::to_string_pretty(topology).expect("the IR always serialises");
    text.push('\n');
    write(
        destination,
        &[OutputFile {
            path: "ir.json".to_string(),
            contents: text,
        }],
        None,
        diags,
    )
}

/// What a translation reads besides the topology: the flags, where to write, the artifact files.
struct Run<'a> {
    read: &'a ReadArgs,
    destination: &'a Destination,
    artifacts: &'a crate::source::ArtifactFiles,
    /// The input read again ([`back::Inputs::reread`]).
    reread: &'a back::registry::RereadFn<'a>,
}

/// The input read again as `toscana k8s` reads it (every `get_input` evaluated, a missing
/// value no error), with `bindings` set after the command line's; `None` when that read has
/// errors. Its diagnostics are dropped: the first read reported them.
fn reread(
    options: &ReadOptions,
    job: &Job<'_>,
    bindings: &[(String, crate::ir::Value)],
) -> Option<back::registry::Reread> {
    let mut again = options.clone();
    again.inputs_stay_calls = false;
    again.unbound_inputs_are_errors = false;
    again.set_values.extend(bindings.iter().cloned());
    let mut quiet = Diagnostics::new();
    let read = ordered_for(job, pipeline::read(&again, &mut quiet));
    if quiet.has_errors() {
        return None;
    }
    Some(back::registry::Reread {
        topology: read.topology?,
        sources: read.sources,
        artifacts: read.artifacts,
    })
}

fn translate(
    run: &Run<'_>,
    translation: &Translation<'_>,
    backend: &dyn back::Backend,
    topology: crate::ir::Valid<'_>,
    sources: &mut SourceMap,
    diags: &mut Diagnostics,
) -> u8 {
    // Where the service template starts: the place of an error about the topology as a whole.
    let whole_topology = crate::ir::spans::topology_span(topology.topology(), sources);
    if topology.nodes.is_empty() {
        let diagnostic = Diagnostic::error(
            codes::OUTPUT_NOTHING,
            "the topology has no node templates, so there is nothing to translate",
        );
        diags.push(
            match whole_topology {
                Some(span) => diagnostic.at(span),
                None => diagnostic.in_file(run.read.file.clone()),
            }
            .hint("node templates go under `topology_template: node_templates:` (`service_template:` in TOSCA 2.0); `toscana check` reads a file of types alone"),
        );
        return EXIT_INVALID;
    }
    let limits = run.read.limits.limits();
    if backend.builtin().is_none() && translation.backend_dir.is_none() {
        let message = format!(
            "`{}` needs a backend: give its folder with --backend-dir DIR",
            backend.name()
        );
        diags.push(Diagnostic::error(codes::BACKEND_UNKNOWN, message).hint("a folder with mapping.yaml and templates works with --backend-dir DIR; see backends/README.md"));
        return EXIT_USAGE;
    }
    let Some(engine) = backend.load(translation.backend_dir, sources, &limits, diags) else {
        return EXIT_USAGE;
    };
    let mut inputs = back::Inputs {
        sources,
        artifacts: run.artifacts,
        limits: &limits,
        reread: Some(run.reread),
    };
    let files = backend.render(&engine, topology, &mut inputs, diags);
    if files.is_empty() && !diags.has_errors() {
        let mut error = Diagnostic::error(
            codes::OUTPUT_NOTHING,
            "the backend wrote no file for this topology",
        )
        .hint("its rules match none of the topology's nodes and its documents rendered empty; the warning on each node says why");
        error.span = whole_topology;
        diags.push(error);
    }
    if diags.has_errors() {
        return EXIT_INVALID;
    }
    match translation.options {
        Options::Graphviz(dot) if dot.format != FormatArg::Dot => {
            draw(run.destination, &files, dot.format, diags)
        }
        _ => write(run.destination, &files, engine.stdout_separator(), diags),
    }
}

/// `--format svg|png`: each `.dot` file drawn by Graphviz's `dot` into a file of the same name
/// with the new extension.
fn draw(
    destination: &Destination,
    files: &[OutputFile],
    format: FormatArg,
    diags: &mut Diagnostics,
) -> u8 {
    let ext = if format == FormatArg::Png {
        "png"
    } else {
        "svg"
    };
    let mut drawn: Vec<(String, Vec<u8>)> = Vec::new();
    for file in files {
        let path = match file.path.strip_suffix(".dot") {
            Some(stem) => format!("{stem}.{ext}"),
            None => file.path.clone(),
        };
        if !file.path.ends_with(".dot") {
            drawn.push((path, file.contents.clone().into_bytes()));
            continue;
        }
        match back::graphviz::draw(&file.contents, ext) {
            Ok(bytes) => drawn.push((path, bytes)),
            Err(d) => {
                diags.push(d);
                return EXIT_OUTPUT;
            }
        }
    }
    if format == FormatArg::Svg {
        let text: Vec<OutputFile> = drawn
            .into_iter()
            .map(|(path, bytes)| OutputFile {
                path,
                contents: String::from_utf8_lossy(&bytes).into_owned(),
            })
            .collect();
        return write(destination, &text, None, diags);
    }
    let mut stdout = crate::cli::stdio::Pipe::new(std::io::stdout().lock());
    match back::write_binary(destination, &drawn, &mut stdout) {
        Ok(()) => 0,
        Err(d) => {
            diags.push(d);
            EXIT_OUTPUT
        }
    }
}

/// Where the output of `job` goes (see [`Destination::from_arg`]): a diagram and the IR are
/// one file; Kubernetes manifests one file with `--single-file` or `-o NAME.yaml`, else a
/// folder; a Terraform configuration and a backend of one's own a folder. `check` writes
/// nothing.
fn destination(output: Option<&Path>, job: &Job<'_>) -> Destination {
    let shape = match job {
        Job::Check => return Destination::Stdout,
        Job::Ir { .. } => Shape::One,
        Job::Translate(t) => match t.options {
            Options::Graphviz(_) => Shape::One,
            Options::Kubernetes(k8s) => {
                let yaml_name = output.is_some_and(|p| {
                    !back::names_folder(p)
                        && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
                });
                match k8s.single_file || yaml_name {
                    true => Shape::One,
                    false => Shape::Several,
                }
            }
            Options::Terraform(_) | Options::None => Shape::Several,
        },
    };
    Destination::from_arg(output, shape)
}

/// Checks `destination` before any work: binary output is not sent to a terminal (exit 2), and
/// an output folder that a killed run left half-written is finished first (exit 3 if it cannot
/// be), so that even a run that fails later leaves the folder whole.
pub(crate) fn prepare(
    destination: &Destination,
    binary: bool,
    diags: &mut Diagnostics,
) -> Result<(), u8> {
    if binary && *destination == Destination::Stdout && std::io::stdout().is_terminal() {
        diags.push(
            Diagnostic::error(
                codes::OUTPUT_DESTINATION,
                "refusing to write a binary image to the terminal",
            )
            .hint(
                "write it to a file with -o FILE.png, or redirect standard output (`> FILE.png`)",
            ),
        );
        return Err(EXIT_USAGE);
    }
    if let Some(dir) = destination.folder().filter(|d| d.is_dir())
        && let Err(d) = back::recover(dir)
    {
        diags.push(d);
        return Err(EXIT_OUTPUT);
    }
    Ok(())
}

fn write(
    destination: &Destination,
    files: &[OutputFile],
    separator: Option<&str>,
    diags: &mut Diagnostics,
) -> u8 {
    let mut stdout = crate::cli::stdio::Pipe::new(std::io::stdout().lock());
    match back::write_outputs(destination, files, separator, &mut stdout) {
        Ok(_) => 0,
        Err(d) => {
            diags.push(d);
            EXIT_OUTPUT
        }
    }
}

/// The end of a command that writes one YAML tree (`resolve`, `convert`): the tree written
/// unless there were errors, every diagnostic reported, the exit code returned. `output` is the
/// command's `-o` (a file, a folder to hold `default_name`, or `-`).
pub fn finish_yaml_output(
    tree: Option<crate::yaml::Node>,
    output: Option<&Path>,
    default_name: &str,
    diags: &mut Diagnostics,
    report: &Report<'_>,
) -> ExitCode {
    let destination = Destination::from_arg(output, Shape::One);
    let code = match tree {
        _ if prepare(&destination, false, diags).is_err() => EXIT_OUTPUT,
        Some(_) if diags.has_errors() => EXIT_INVALID,
        None => EXIT_INVALID,
        Some(tree) => match crate::yaml::emit::to_yaml(&tree) {
            Ok(text) => {
                let file = OutputFile {
                    path: default_name.to_string(),
                    contents: text,
                };
                write(&destination, &[file], None, diags)
            }
            Err(e) => {
                diags.push(Diagnostic::error(
                    codes::OUTPUT_WRITE,
                    format!("cannot write `{default_name}` as YAML: {e}"),
                ));
                EXIT_OUTPUT
            }
        },
    };
    report.print(diags, code)
}
