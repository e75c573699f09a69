//! The command line: `toscana` and its three translator aliases.
//!
//! Exit codes: 0 success (warnings allowed), 1 the input is invalid, 2 the command line is
//! wrong, 3 an output could not be written. Diagnostics always go to standard error, so standard
//! output carries only the result.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::back::{self, Destination, OutputFile, Shape};
use crate::diag::{self, Diagnostic, Diagnostics, MessageFormat, codes};
use crate::limits::Limits;
use crate::pipeline::{self, ReadOptions};
use crate::source::{InputArg, SourceMap};

/// Exit code: the input is invalid.
pub const EXIT_INVALID: u8 = 1;
/// Exit code: the command line is wrong.
pub const EXIT_USAGE: u8 = 2;
/// Exit code: an output could not be written.
pub const EXIT_OUTPUT: u8 = 3;

#[derive(Debug, Parser)]
#[command(
    name = "toscana",
    version,
    about = "Reads TOSCA service templates and translates them into Kubernetes manifests, Terraform HCL and Graphviz diagrams",
    after_help = "Examples:\n  toscana check examples/hello.yaml\n  toscana ir examples/hello.yaml --set db_password=s3cret\n  toscana ir app.csar --set replicas=3 -o out/"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate a template and report every problem found
    #[command(after_help = "Example:\n  toscana check examples/hello.yaml --message-format json")]
    Check(CommonArgs),
    /// Print the resolved topology (the IR every backend reads) as JSON
    #[command(
        after_help = "Example:\n  toscana ir examples/hello.yaml --set cpus=4 --set db_password=s3cret > ir.json\n  toscana ir app.yaml --set sites=3 --expand"
    )]
    Ir(IrCommand),
    /// Translate into Kubernetes manifests (same as `tosca2k8s`)
    #[command(
        after_help = "Example:\n  toscana k8s examples/webapp.yaml --set db_password=s3cret -o manifests/\n  toscana k8s examples/webapp.yaml --set db_password=s3cret --namespace shop --ingress | kubectl apply -f -"
    )]
    K8s(K8sCommand),
    /// Translate into a Terraform configuration (same as `tosca2tf`)
    #[command(
        after_help = "Example:\n  toscana tf examples/webserver-vm.yaml -o terraform/\n  toscana tf examples/webserver-vm.yaml --provider openstack -o terraform/"
    )]
    Tf(TfCommand),
    /// Draw the topology as a Graphviz diagram (same as `tosca2dot`)
    #[command(
        after_help = "Example:\n  toscana dot examples/hello.yaml > hello.dot\n  toscana dot examples/hello.yaml --format svg --legend --io -o docs/"
    )]
    Dot(DotCommand),
    /// Translate with a backend of your own: a folder with mapping.yaml and templates
    #[command(
        after_help = "Example:\n  toscana render --backend-dir my-compose-backend/ examples/hello.yaml -o out/"
    )]
    Render(CommonArgs),
    /// Resolve a variable template (Variability4TOSCA) into plain TOSCA 1.3 YAML
    #[command(
        after_help = "Inputs: `--inputs FILE` and `--set NAME=VALUE` give variability inputs (the names\ndeclared under `variability.inputs`) and topology inputs alike.\n\nExample:\n  toscana resolve examples/variable-shop.yaml --preset dev -o shop-dev.yaml\n  toscana resolve examples/variable-shop.yaml --set mode=prod --explain"
    )]
    Resolve(crate::front::variability::command::ResolveArgs),
    /// Convert TOSCA 1.0 XML (a Definitions file or CSAR) into TOSCA YAML (Simple Profile 1.3 or TOSCA 2.0)
    #[command(
        after_help = "Targets:\n  tosca_simple_yaml_1_3  one Simple Profile 1.3 file; the normative types are implied\n  tosca_2_0              one TOSCA 2.0 file that defines the Simple Profile 1.3 types it uses\n                         (2.0 has no implicit types); XML type names are written with `:` as `%3A`\n\nBoth read back into the IR of the XML (in 2.0 a boundary property mapping becomes an\ninput; README: Converting to TOSCA 2.0). Constructs the target cannot express are\nreported as warnings (xml::no-counterpart) at the XML element they come from.\n\nExample:\n  toscana convert app.csar --to tosca_simple_yaml_1_3 -o app.yaml\n  toscana convert app.csar --to tosca_2_0 -o app-2.0.yaml\n  toscana convert ServiceTemplate.tosca --quirk winery"
    )]
    Convert(crate::front::xml::command::ConvertArgs),
    /// Print a shell completion script
    #[command(after_help = "Example:\n  toscana completions bash > /etc/bash_completion.d/toscana")]
    Completions {
        /// The shell to generate for
        shell: clap_complete::Shell,
    },
}

/// Flags every reading command shares.
#[derive(Debug, Args, Clone)]
pub struct CommonArgs {
    /// The template: a YAML file, a directory, a CSAR (.zip/.csar), or `-` for standard input
    pub file: String,
    /// Write the output to PATH instead of standard output: a folder when it ends in `/` or is
    /// one (made if missing; required for several files), else the one file the command writes;
    /// `-` is standard output
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Read input values from a YAML file of `name: value` pairs (repeatable)
    #[arg(long = "inputs", value_name = "FILE.yaml")]
    pub inputs: Vec<PathBuf>,
    /// Set an input value; VALUE is read as YAML, so `80` is an integer (repeatable)
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_pair)]
    pub set: Vec<(String, String)>,
    /// Read imports under URL PREFIX from local folder DIR instead of the network (repeatable)
    #[arg(long = "map-url", value_name = "PREFIX=DIR", value_parser = parse_pair)]
    pub map_url: Vec<(String, String)>,
    /// Find TOSCA 2.0 profiles imported by name in DIR, laid out by name (repeatable)
    #[arg(long = "profile-path", value_name = "DIR")]
    pub profile_path: Vec<PathBuf>,
    /// The entry file inside a directory or CSAR
    #[arg(long, value_name = "PATH")]
    pub entry: Option<PathBuf>,
    /// A service template with `substitution_mappings` that may substitute node templates of
    /// the template read (repeatable; imported templates with mappings are candidates too)
    #[arg(long = "substitute", value_name = "FILE")]
    pub substitute: Vec<PathBuf>,
    /// How to print diagnostics
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// Print only errors
    #[arg(short, long)]
    pub quiet: bool,
    /// Add or override backend rules and templates from DIR (mapping.yaml plus templates)
    #[arg(long, value_name = "DIR")]
    pub backend_dir: Option<PathBuf>,
    /// Show at most N errors (0: all)
    #[arg(long, value_name = "N", default_value_t = diag::DEFAULT_ERROR_CAP)]
    pub max_errors: usize,
    /// Accept what a tool's real files do that the specification forbids (repeatable)
    #[arg(long, value_enum, value_name = "NAME")]
    pub quirk: Vec<crate::front::quirk::Quirk>,
    #[command(flatten)]
    pub variability: crate::front::variability::VariabilityArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// How diagnostics are shown, for the commands that write one file (`resolve`, `convert`).
#[derive(Debug, Args, Clone)]
pub struct ReportArgs {
    /// How to print diagnostics
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// Print only errors
    #[arg(short, long)]
    pub quiet: bool,
    /// Show at most N errors (0: all)
    #[arg(long, value_name = "N", default_value_t = diag::DEFAULT_ERROR_CAP)]
    pub max_errors: usize,
}

/// `toscana dot`: the common flags and the diagram's own.
#[derive(Debug, Args, Clone)]
pub struct DotCommand {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub dot: DotArgs,
}

/// `toscana ir`: the common flags and the IR's own.
#[derive(Debug, Args, Clone)]
pub struct IrCommand {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Print one node per representation (a template with `count: 3` becomes `web[0]`,
    /// `web[1]`, `web[2]`) and one relationship per relationship representation, with
    /// `$node_index` and `$relationship_index` evaluated
    #[arg(long)]
    pub expand: bool,
}

/// `toscana k8s`: the common flags and the manifests' own.
#[derive(Debug, Args, Clone)]
pub struct K8sCommand {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub k8s: K8sArgs,
}

/// Options of the Kubernetes manifests; only `toscana k8s` and `tosca2k8s` take these.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Kubernetes")]
pub struct K8sArgs {
    /// Put every object into namespace NS (and name it in kustomization.yaml)
    #[arg(long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,
    /// Route load balancers through an Ingress instead of Services of type LoadBalancer
    #[arg(long)]
    pub ingress: bool,
    /// Write one multi-document YAML stream (to -o FILE, or FILE/manifests.yaml for a folder)
    /// instead of a file per object and kustomization.yaml; `-o NAME.yaml` implies it
    #[arg(long)]
    pub single_file: bool,
}

fn parse_namespace(s: &str) -> Result<String, String> {
    if !s.is_empty()
        && s.len() <= 63
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
        && !s.ends_with('-')
    {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{s}` is not a namespace name: use at most 63 lowercase letters, digits and `-`, not at either end"
        ))
    }
}

/// `toscana tf`: the common flags and the Terraform backend's own.
#[derive(Debug, Args, Clone)]
pub struct TfCommand {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub tf: TfArgs,
}

/// Which cloud the configuration is for; only `toscana tf` and `tosca2tf` take these.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Terraform")]
pub struct TfArgs {
    /// The provider whose resources the configuration uses (rules in
    /// backends/terraform/<provider>/)
    #[arg(long, value_enum, default_value_t = ProviderArg::Aws)]
    pub provider: ProviderArg,
}

/// `--provider`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ProviderArg {
    #[default]
    Aws,
    Openstack,
    Kubernetes,
}

impl TfArgs {
    /// The provider the Terraform backend renders for.
    pub fn provider(&self) -> back::terraform::Provider {
        use back::terraform::Provider;
        match self.provider {
            ProviderArg::Aws => Provider::Aws,
            ProviderArg::Openstack => Provider::Openstack,
            ProviderArg::Kubernetes => Provider::Kubernetes,
        }
    }
}

/// What the diagram shows and how it is written; only `toscana dot` and `tosca2dot` take these.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Diagram")]
pub struct DotArgs {
    /// Which properties node boxes list: none, key (the family's key properties and every
    /// property the template sets), or all
    #[arg(long, value_enum, default_value_t = PropertiesArg::Key)]
    pub properties: PropertiesArg,
    /// The direction of the graph: TB (top to bottom) or LR (left to right)
    #[arg(long, value_enum, default_value_t = RankdirArg::TB, ignore_case = true)]
    pub rankdir: RankdirArg,
    /// dot (the Graphviz source), or svg / png (drawn by Graphviz's `dot`, which must be
    /// installed); the file is graph.dot, graph.svg or graph.png
    #[arg(long, value_enum, default_value_t = FormatArg::Dot)]
    pub format: FormatArg,
    /// Add a legend of the type families in the diagram
    #[arg(long)]
    pub legend: bool,
    /// Draw hosting as edges instead of boxes inside their hosts
    #[arg(long)]
    pub no_nesting: bool,
    /// Show capabilities and requirements as ports on the node boxes
    #[arg(long)]
    pub ports: bool,
    /// Add a panel with the topology's inputs and outputs
    #[arg(long)]
    pub io: bool,
}

/// `--properties`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PropertiesArg {
    None,
    #[default]
    Key,
    All,
}

/// `--rankdir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
#[allow(clippy::upper_case_acronyms)]
pub enum RankdirArg {
    #[default]
    #[value(name = "TB")]
    TB,
    #[value(name = "LR")]
    LR,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FormatArg {
    #[default]
    Dot,
    Svg,
    Png,
}

impl DotArgs {
    /// The options the Graphviz templates see.
    pub fn options(&self) -> back::graphviz::DotOptions {
        use back::graphviz::{DotOptions, PropertyMode, RankDir};
        DotOptions {
            properties: match self.properties {
                PropertiesArg::None => PropertyMode::None,
                PropertiesArg::Key => PropertyMode::Key,
                PropertiesArg::All => PropertyMode::All,
            },
            rankdir: match self.rankdir {
                RankdirArg::TB => RankDir::TB,
                RankdirArg::LR => RankDir::LR,
            },
            legend: self.legend,
            nesting: !self.no_nesting,
            ports: self.ports,
            io: self.io,
        }
    }
}

/// Resource limits for hostile input; the defaults suit real estates of services.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Largest input file, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_file_bytes)]
    pub max_file_size: u64,
    /// Deepest YAML nesting
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_yaml_depth)]
    pub max_yaml_depth: usize,
    /// Most YAML nodes alias expansion may create
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_alias_expansion)]
    pub max_alias_nodes: usize,
    /// Longest single scalar, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_scalar_bytes)]
    pub max_scalar_size: usize,
    /// Most files read through imports
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_imports)]
    pub max_imports: usize,
    /// Deepest chain of imports
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_import_depth)]
    pub max_import_depth: usize,
    /// Most entries in a CSAR
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_csar_entries)]
    pub max_csar_entries: usize,
    /// Most bytes a CSAR may expand to
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_csar_bytes)]
    pub max_csar_size: u64,
    /// Largest compression ratio of one CSAR entry
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_compression_ratio)]
    pub max_compression_ratio: u64,
    /// Most node templates in one topology
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_node_templates)]
    pub max_node_templates: usize,
    /// Most bytes of scalar text alias expansion may copy into one document
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_alias_bytes)]
    pub max_alias_size: u64,
    /// Most YAML nodes in one file
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_yaml_nodes)]
    pub max_yaml_nodes: usize,
    /// Longest chain of `derived_from` from a type to its root
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_type_depth)]
    pub max_type_depth: usize,
    /// Deepest nesting of substitutions
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_substitution_depth)]
    pub max_substitution_depth: usize,
    /// Most node templates substitution may add to the topology
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_substituted_nodes)]
    pub max_substituted_nodes: usize,
    /// Most node and relationship representations (TOSCA 2.0 `count`) a topology expands to
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_representations)]
    pub max_representations: u64,
    /// Most bytes of values evaluating functions may create
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_computed_bytes)]
    pub max_computed_size: u64,
    /// Most memory compiled `pattern` and `$matches` expressions may take, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_regex_bytes)]
    pub max_regex_size: u64,
    /// Most bytes of diagnostics printed
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_diagnostic_bytes)]
    pub max_diagnostics_size: u64,
}

impl LimitArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            max_file_bytes: self.max_file_size,
            max_yaml_depth: self.max_yaml_depth,
            max_alias_expansion: self.max_alias_nodes,
            max_scalar_bytes: self.max_scalar_size,
            max_imports: self.max_imports,
            max_import_depth: self.max_import_depth,
            max_csar_entries: self.max_csar_entries,
            max_csar_bytes: self.max_csar_size,
            max_compression_ratio: self.max_compression_ratio,
            max_node_templates: self.max_node_templates,
            max_alias_bytes: self.max_alias_size,
            max_yaml_nodes: self.max_yaml_nodes,
            max_type_depth: self.max_type_depth,
            max_substitution_depth: self.max_substitution_depth,
            max_substituted_nodes: self.max_substituted_nodes,
            max_representations: self.max_representations,
            max_computed_bytes: self.max_computed_size,
            max_regex_bytes: self.max_regex_size,
            max_diagnostic_bytes: self.max_diagnostics_size,
        }
    }
}

pub(crate) fn parse_pair(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, found `{s}`")),
    }
}

/// The translators, which the three alias binaries run directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Kubernetes,
    Terraform,
    Graphviz,
}

impl Target {
    /// The name of the built-in backend for this target (its folder under `backends/`).
    pub fn backend_name(self) -> &'static str {
        match self {
            Target::Kubernetes => "kubernetes",
            Target::Terraform => "terraform",
            Target::Graphviz => "graphviz",
        }
    }
}

/// A panic is a bug whatever the input: say so plainly, and ask for the input. The message is
/// written without `eprintln!`, which would panic again (and abort) when standard error is
/// closed or full.
fn report_panics_as_bugs() {
    std::panic::set_hook(Box::new(|info| {
        let _ = crate::stdio::to_stderr(&format!(
            "internal error: {info}\n\
             This is a bug in toscana, whatever the input was. Please report it with the input \
             that caused it and the command line you ran (exit code 101).\n"
        ));
    }));
}

/// The exit code of a run that ended with `code`, once its report went to standard error as
/// `stderr` says: a reader that closed the pipe changes nothing; a report that could not be
/// written (a full disk) is exit 3, with a last try at saying so.
fn exit_after(code: u8, stderr: crate::stdio::Outcome) -> ExitCode {
    match stderr {
        crate::stdio::Outcome::Failed(e) => {
            let _ = crate::stdio::to_stderr(&format!(
                "error[output::write]: cannot write diagnostics to standard error: {e}\n"
            ));
            ExitCode::from(EXIT_OUTPUT)
        }
        _ => ExitCode::from(code),
    }
}

/// Runs `toscana` with the process's arguments.
pub fn main() -> ExitCode {
    report_panics_as_bugs();
    let cli = Cli::parse();
    let args = match cli.command {
        Command::Completions { shell } => {
            // clap_complete panics when its writer fails: it writes into memory, and the
            // script goes out through a pipe that a closed reader ends quietly.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "toscana", &mut script);
            let mut out = crate::stdio::Pipe::new(std::io::stdout().lock());
            let _ = out.write_all(&script);
            return match out.finish() {
                crate::stdio::Outcome::Failed(e) => {
                    let _ = crate::stdio::to_stderr(&format!(
                        "error[output::write]: cannot write to standard output: {e}\n"
                    ));
                    ExitCode::from(EXIT_OUTPUT)
                }
                _ => ExitCode::SUCCESS,
            };
        }
        Command::Check(args) => return run(&args, Job::Check, None),
        Command::Resolve(args) => return crate::front::variability::command::run(&args),
        Command::Convert(args) => return crate::front::xml::command::run(&args),
        Command::Ir(args) => {
            return run(
                &args.common,
                Job::Ir {
                    expand: args.expand,
                },
                None,
            );
        }
        Command::K8s(args) => {
            return run_with(
                &args.common,
                Job::Translate(Some(Target::Kubernetes)),
                None,
                Some(&args.k8s),
                None,
            );
        }
        Command::Tf(args) => {
            return run_with(
                &args.common,
                Job::Translate(Some(Target::Terraform)),
                None,
                None,
                Some(&args.tf),
            );
        }
        Command::Dot(args) => {
            return run(
                &args.common,
                Job::Translate(Some(Target::Graphviz)),
                Some(&args.dot),
            );
        }
        Command::Render(args) => (args, Job::Translate(None)),
    };
    run(&args.0, args.1, None)
}

/// Runs one of the alias binaries (`tosca2k8s` is `toscana k8s`).
pub fn alias_main(target: Target) -> ExitCode {
    report_panics_as_bugs();
    let (name, about) = match target {
        Target::Kubernetes => (
            "tosca2k8s",
            "Translates a TOSCA service template into Kubernetes manifests",
        ),
        Target::Terraform => (
            "tosca2tf",
            "Translates a TOSCA service template into a Terraform configuration",
        ),
        Target::Graphviz => (
            "tosca2dot",
            "Draws a TOSCA service template as a Graphviz diagram",
        ),
    };
    let mut command = CommonArgs::augment_args(
        clap::Command::new(name)
            .version(env!("CARGO_PKG_VERSION"))
            .about(about)
            .after_help(format!(
                "Example:\n  {name} {} -o out/\n\nThe same as `toscana {}`.",
                match target {
                    Target::Kubernetes => "examples/webapp.yaml --set db_password=s3cret",
                    Target::Terraform => "examples/webserver-vm.yaml",
                    Target::Graphviz => "examples/hello.yaml",
                },
                match target {
                    Target::Kubernetes => "k8s",
                    Target::Terraform => "tf",
                    Target::Graphviz => "dot",
                }
            )),
    );
    if target == Target::Graphviz {
        command = DotArgs::augment_args(command);
    }
    if target == Target::Kubernetes {
        command = K8sArgs::augment_args(command);
    }
    if target == Target::Terraform {
        command = TfArgs::augment_args(command);
    }
    let matches = command.get_matches();
    let dot = if target == Target::Graphviz {
        match <DotArgs as clap::FromArgMatches>::from_arg_matches(&matches) {
            Ok(dot) => Some(dot),
            Err(e) => e.exit(),
        }
    } else {
        None
    };
    let k8s = if target == Target::Kubernetes {
        match <K8sArgs as clap::FromArgMatches>::from_arg_matches(&matches) {
            Ok(k8s) => Some(k8s),
            Err(e) => e.exit(),
        }
    } else {
        None
    };
    let tf = if target == Target::Terraform {
        match <TfArgs as clap::FromArgMatches>::from_arg_matches(&matches) {
            Ok(tf) => Some(tf),
            Err(e) => e.exit(),
        }
    } else {
        None
    };
    match <CommonArgs as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(args) => run_with(
            &args,
            Job::Translate(Some(target)),
            dot.as_ref(),
            k8s.as_ref(),
            tf.as_ref(),
        ),
        Err(e) => e.exit(),
    }
}

#[derive(Debug, Clone, Copy)]
enum Job {
    Check,
    /// The IR, of templates or (`expand`) of representations.
    Ir {
        expand: bool,
    },
    /// A built-in target, or `None` for a backend given only by `--backend-dir`.
    Translate(Option<Target>),
}

fn run(args: &CommonArgs, job: Job, dot: Option<&DotArgs>) -> ExitCode {
    run_with(args, job, dot, None, None)
}

fn run_with(
    args: &CommonArgs,
    job: Job,
    dot: Option<&DotArgs>,
    k8s: Option<&K8sArgs>,
    tf: Option<&TfArgs>,
) -> ExitCode {
    let mut diags = Diagnostics::with_cap(args.max_errors);
    let destination = destination(args, job, k8s);
    if let Err(code) = prepare(&destination, binary_format(dot), &mut diags) {
        report(args, &diags, &SourceMap::new());
        return ExitCode::from(code);
    }
    let options = ReadOptions {
        input: Some(if args.file == "-" {
            InputArg::Stdin
        } else {
            InputArg::Path(PathBuf::from(&args.file))
        }),
        entry: args.entry.clone(),
        map_url: args
            .map_url
            .iter()
            .map(|(p, d)| (p.clone(), PathBuf::from(d)))
            .collect(),
        profile_paths: args.profile_path.clone(),
        substitutes: args.substitute.clone(),
        inputs_files: args.inputs.clone(),
        set: args.set.clone(),
        limits: args.limits.limits(),
        // `check` judges the template, Terraform declares unbound inputs as variables, and a
        // diagram shows `get_input(name)` where a value is missing; the IR and manifests need
        // every value.
        unbound_inputs_are_errors: !matches!(
            job,
            Job::Check | Job::Translate(Some(Target::Terraform | Target::Graphviz))
        ),
        report_open_requirements: matches!(job, Job::Check),
        variability: args.variability.options(),
        quirks: crate::front::quirk::Quirks::new(&args.quirk),
    };
    let read = pipeline::read(&options, &mut diags);
    let mut stderr = crate::stdio::Outcome::Written;
    if let Some(resolved) = read
        .variability
        .as_ref()
        .filter(|_| args.variability.explain)
    {
        stderr = crate::stdio::to_stderr(&crate::front::variability::render_explanation(
            &resolved.explanation,
            &read.sources,
        ));
    }
    let mut sources = read.sources;
    let artifacts = read.artifacts;
    let code = match (job, &read.topology) {
        (_, None) => EXIT_INVALID,
        (_, Some(_)) if diags.has_errors() => EXIT_INVALID,
        (Job::Check, Some(_)) => 0,
        (Job::Ir { expand }, Some(topology)) => {
            let expanded;
            let topology = match expand {
                true => {
                    expanded = crate::resolve::expand(
                        topology,
                        &sources,
                        &args.limits.limits(),
                        &mut diags,
                    );
                    expanded.as_ref()
                }
                false => Some(topology),
            };
            match topology {
                Some(topology) if !diags.has_errors() => {
                    ir_output(&destination, topology, &mut diags)
                }
                _ => EXIT_INVALID,
            }
        }
        (Job::Translate(target), Some(topology)) => {
            let extra = Extra {
                dot,
                k8s,
                tf,
                artifacts: &artifacts,
                destination: &destination,
            };
            translate(args, target, &extra, topology, &mut sources, &mut diags)
        }
    };
    leave_to_the_exit(read.topology);
    stderr = crate::stdio::worse(stderr, report(args, &diags, &sources));
    if code == 0 && matches!(job, Job::Check) && !args.quiet {
        let n = diags.warning_count();
        let line = format!(
            "{}: valid ({n} warning{})\n",
            args.file,
            if n == 1 { "" } else { "s" }
        );
        stderr = crate::stdio::worse(stderr, crate::stdio::to_stderr(&line));
    }
    exit_after(code, stderr)
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

/// What a translation needs besides the common flags: the target's own flags and the artifact
/// files.
struct Extra<'a> {
    dot: Option<&'a DotArgs>,
    k8s: Option<&'a K8sArgs>,
    tf: Option<&'a TfArgs>,
    artifacts: &'a crate::source::ArtifactFiles,
    destination: &'a Destination,
}

fn translate(
    args: &CommonArgs,
    target: Option<Target>,
    extra: &Extra<'_>,
    topology: &crate::ir::Topology,
    sources: &mut SourceMap,
    diags: &mut Diagnostics,
) -> u8 {
    let provider = extra.tf.map(TfArgs::provider).unwrap_or_default();
    let builtin = target.and_then(|t| match t {
        Target::Terraform => back::builtin(provider.backend_name()),
        _ => back::builtin(t.backend_name()),
    });
    if builtin.is_none() && args.backend_dir.is_none() {
        let message = match target {
            Some(t) => format!(
                "the built-in {} backend is not available yet",
                t.backend_name()
            ),
            None => "`render` needs a backend: give its folder with --backend-dir DIR".to_string(),
        };
        diags.push(Diagnostic::error(codes::BACKEND_UNKNOWN, message).hint("a folder with mapping.yaml and templates works with --backend-dir DIR; see backends/README.md"));
        return EXIT_USAGE;
    }
    let Some(backend) = back::Backend::load(
        builtin,
        args.backend_dir.as_deref(),
        sources,
        &args.limits.limits(),
        diags,
    ) else {
        return EXIT_USAGE;
    };
    let dot = extra.dot;
    let files = if target == Some(Target::Graphviz) {
        let options = dot.map(DotArgs::options).unwrap_or_default();
        back::graphviz::render(&backend, topology, sources, &options, diags)
    } else if target == Some(Target::Kubernetes) {
        let k8s = extra.k8s.cloned().unwrap_or_default();
        let options = back::kubernetes::K8sOptions {
            namespace: k8s.namespace,
            ingress: k8s.ingress,
            split: extra.destination.folder().is_some() && !k8s.single_file,
        };
        back::kubernetes::render(
            &backend,
            topology,
            sources,
            extra.artifacts,
            &args.limits.limits(),
            &options,
            diags,
        )
    } else if target == Some(Target::Terraform) {
        let limits = args.limits.limits();
        let read_artifact = |a: &crate::ir::Artifact| extra.artifacts.read(a, &limits);
        back::terraform::render(&backend, topology, sources, provider, &read_artifact, diags)
    } else {
        let value = back::topology_value(topology);
        let elements = back::elements(topology, sources);
        backend.render(value, &elements, diags)
    };
    if diags.has_errors() {
        return EXIT_INVALID;
    }
    match dot.map(|d| d.format) {
        Some(format @ (FormatArg::Svg | FormatArg::Png)) => {
            draw(extra.destination, &files, format, diags)
        }
        _ => write(extra.destination, &files, backend.stdout_separator(), diags),
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
    let mut stdout = crate::stdio::Pipe::new(std::io::stdout().lock());
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
fn destination(args: &CommonArgs, job: Job, k8s: Option<&K8sArgs>) -> Destination {
    let output = args.output.as_deref();
    let shape = match job {
        Job::Check => return Destination::Stdout,
        Job::Ir { .. } | Job::Translate(Some(Target::Graphviz)) => Shape::One,
        Job::Translate(Some(Target::Kubernetes)) => {
            let yaml_name = output.is_some_and(|p| {
                !back::names_folder(p)
                    && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
            });
            match k8s.is_some_and(|k| k.single_file) || yaml_name {
                true => Shape::One,
                false => Shape::Several,
            }
        }
        Job::Translate(_) => Shape::Several,
    };
    Destination::from_arg(output, shape)
}

/// `--format png`: output that is not text.
fn binary_format(dot: Option<&DotArgs>) -> bool {
    dot.is_some_and(|d| d.format == FormatArg::Png)
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
    let mut stdout = crate::stdio::Pipe::new(std::io::stdout().lock());
    match back::write_outputs(destination, files, separator, &mut stdout) {
        Ok(_) => 0,
        Err(d) => {
            diags.push(d);
            EXIT_OUTPUT
        }
    }
}

fn report(args: &CommonArgs, diags: &Diagnostics, sources: &SourceMap) -> crate::stdio::Outcome {
    report_diagnostics(
        diags,
        sources,
        args.message_format,
        args.quiet,
        args.limits.max_diagnostics_size,
    )
}

/// Prints the diagnostics to standard error (errors only when `quiet`), in colour only on a
/// terminal without `NO_COLOR`, at most `max_bytes` of them (`--max-diagnostics-size`).
pub fn report_diagnostics(
    diags: &Diagnostics,
    sources: &SourceMap,
    format: MessageFormat,
    quiet: bool,
    max_bytes: u64,
) -> crate::stdio::Outcome {
    let shown: Vec<Diagnostic> = diags
        .finish()
        .into_iter()
        .filter(|d| !quiet || d.is_error())
        .collect();
    let stderr = std::io::stderr();
    let color = format == MessageFormat::Human
        && stderr.is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut err = crate::stdio::Pipe::new(stderr.lock());
    let _ = diag::emit(&mut err, &shown, sources, format, color, max_bytes);
    err.finish()
}

/// The end of a command that writes one YAML tree (`resolve`, `convert`): the tree written
/// unless there were errors, every diagnostic reported (at most `max_report_bytes` of them),
/// the exit code returned. `output` is the command's `-o` (a file, a folder to hold
/// `default_name`, or `-`); `stderr` is what became of what the command wrote there before.
#[allow(clippy::too_many_arguments)]
pub fn finish_yaml_output(
    tree: Option<crate::yaml::Node>,
    output: Option<&std::path::Path>,
    default_name: &str,
    diags: &mut Diagnostics,
    sources: &SourceMap,
    report: &ReportArgs,
    max_report_bytes: u64,
    stderr: crate::stdio::Outcome,
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
    let reported = report_diagnostics(
        diags,
        sources,
        report.message_format,
        report.quiet,
        max_report_bytes,
    );
    exit_after(code, crate::stdio::worse(stderr, reported))
}
