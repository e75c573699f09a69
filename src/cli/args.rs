//! The flags of every command, in groups that each command takes as far as it uses them, so no
//! command offers a flag it would ignore (`check` has no `-o`, only the translators take
//! `--backend-dir`). Each group has its heading in `--help`; `-h` shows the flags most runs
//! need and leaves the rest (limits, import mapping, variability tuning) to `--help`.
//!
//! A flag's help is the first paragraph of its doc comment for `-h` and the whole comment for
//! `--help`.

use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::back;
use crate::diag::{self, MessageFormat};
use crate::limits::Limits;
use crate::quirk::{Quirk, Quirks};
use crate::source::InputArg;

/// `toscana`: the commands.
#[derive(Debug, Parser)]
#[command(
    name = "toscana",
    version,
    about = "Reads TOSCA service templates and translates them into Kubernetes manifests, Terraform HCL and Graphviz diagrams",
    after_help = "Examples:\n  toscana check examples/webapp.yaml\n  toscana k8s examples/webapp.yaml --set db_password=s3cret -o manifests/\n  toscana explain tosca::unknown-keyname"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate a template and report every problem found
    #[command(after_help = "Example:\n  toscana check examples/webapp.yaml")]
    Check(ReadArgs),
    /// Print the resolved topology (the IR every backend reads) as JSON
    #[command(
        after_help = "Example:\n  toscana ir examples/hello.yaml --set db_password=s3cret > ir.json"
    )]
    Ir(IrCommand),
    /// Translate into Kubernetes manifests (same as `tosca2k8s`)
    #[command(after_help = K8S_EXAMPLE)]
    K8s(K8sCommand),
    /// Translate into a Terraform configuration (same as `tosca2tf`)
    #[command(after_help = TF_EXAMPLE)]
    Tf(TfCommand),
    /// Draw the topology as a Graphviz diagram (same as `tosca2dot`)
    #[command(after_help = DOT_EXAMPLE)]
    Dot(DotCommand),
    /// Translate with a backend of your own: a folder with mapping.yaml and templates
    #[command(
        after_help = "Example:\n  toscana render --backend-dir my-compose-backend/ examples/hello.yaml -o out/"
    )]
    Render(RenderCommand),
    /// Resolve a variable template (Variability4TOSCA) into plain TOSCA 1.3 YAML
    #[command(
        after_help = "Example:\n  toscana resolve examples/variable-shop.yaml --preset dev -o shop-dev.yaml"
    )]
    Resolve(super::variability::ResolveArgs),
    /// Convert TOSCA 1.0 XML (a Definitions file or CSAR) into TOSCA YAML (Simple Profile 1.3 or TOSCA 2.0)
    #[command(
        after_help = "Constructs the target cannot express are warnings (xml::no-counterpart) at the XML element\nthey come from; see docs/dialects/tosca-xml.md.\n\nExample:\n  toscana convert app.csar --to tosca_2_0 -o app.yaml"
    )]
    Convert(super::convert::ConvertArgs),
    /// Explain a diagnostic code: what it means, an example, and the fix
    #[command(
        after_help = "Example:\n  toscana explain tosca::unknown-keyname\n  toscana explain --list"
    )]
    Explain(ExplainArgs),
    /// Print a shell completion script for toscana and its aliases (tosca2k8s, tosca2tf, tosca2dot)
    #[command(
        after_help = "Example:\n  toscana completions bash > ~/.local/share/bash-completion/completions/toscana\n  toscana completions zsh --name tosca2k8s > ~/.zfunc/_tosca2k8s"
    )]
    Completions(CompletionArgs),
    /// Serve the Language Server Protocol over standard input and output, for editors
    #[command(
        after_help = "Editors start it themselves; docs/lsp.md shows the setup for VS Code, Neovim, Helix and Emacs.\n\nExample:\n  toscana lsp"
    )]
    Lsp(LspArgs),
}

/// The examples of the translators, shared with their alias binaries.
pub const K8S_EXAMPLE: &str =
    "Example:\n  toscana k8s examples/webapp.yaml --set db_password=s3cret -o manifests/";
pub const TF_EXAMPLE: &str =
    "Example:\n  toscana tf examples/webserver-vm.yaml --provider openstack -o terraform/";
pub const DOT_EXAMPLE: &str =
    "Example:\n  toscana dot examples/webapp.yaml --format svg -o webapp.svg";

/// What every command that reads a template takes: the template, its values, how strictly it
/// is read, how problems are reported, and the limits.
#[derive(Debug, Args, Clone)]
pub struct ReadArgs {
    /// The template: a YAML or XML file, a folder, a CSAR, or `-` for standard input
    ///
    /// YAML in any dialect toscana reads (Simple Profile 1.0-1.3, TOSCA 2.0, Variability4TOSCA)
    /// or TOSCA 1.0 XML; a CSAR as .csar, .zip, .tar or .tar.gz, or unpacked in a folder.
    pub file: String,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub values: ValueArgs,
    #[command(flatten)]
    pub variability: crate::front::variability::VariabilityArgs,
    #[command(flatten)]
    pub lenient: LenientArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Where the files the template names come from.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Input")]
pub struct InputArgs {
    #[command(flatten)]
    pub entry: EntryArgs,
    /// Read imports under URL PREFIX from folder DIR (repeatable)
    ///
    /// toscana never reaches the network: an `http(s)` import without a mapping is an error that
    /// names the flag to add.
    #[arg(long = "map-url", value_name = "PREFIX=DIR", value_parser = parse_pair, hide_short_help = true)]
    pub map_url: Vec<(String, String)>,
    /// Find TOSCA 2.0 profiles imported by name in DIR (repeatable)
    ///
    /// Laid out by name: `io/kubernetes/1.35/` for `io.kubernetes:1.35`. The embedded profiles
    /// (`org.oasis-open.simple:2.0`, `:1.0` to `:1.3`) come first, then the folders in order.
    #[arg(long = "profile-path", value_name = "DIR", hide_short_help = true)]
    pub profile_path: Vec<PathBuf>,
    /// A service template that may substitute node templates of the one read (repeatable)
    ///
    /// It must have `substitution_mappings`; imported templates with mappings are candidates
    /// too. Substituted nodes are expanded, named `<node>.<inner name>`.
    #[arg(long = "substitute", value_name = "FILE", hide_short_help = true)]
    pub substitute: Vec<PathBuf>,
}

/// The entry file of a folder or CSAR, for every command that reads one.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Input")]
pub struct EntryArgs {
    /// The entry file inside a folder or CSAR
    ///
    /// Needed only when the folder or CSAR has no `TOSCA-Metadata/TOSCA.meta` and more than one
    /// service template at its root.
    #[arg(long, value_name = "PATH", hide_short_help = true)]
    pub entry: Option<PathBuf>,
}

impl ReadArgs {
    /// The template as the reader takes it.
    pub fn input(&self) -> InputArg {
        InputArg::from_arg(self.file.as_ref())
    }
}

/// Values for the template's inputs.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Values")]
pub struct ValueArgs {
    /// Input values from a YAML file of `name: value` pairs (repeatable)
    ///
    /// Later files win over earlier ones, and `--set` over all of them.
    #[arg(long = "inputs", value_name = "FILE.yaml")]
    pub inputs: Vec<PathBuf>,
    /// Set an input value, read as YAML (repeatable)
    ///
    /// `--set port=80` is an integer, `--set "name='80'"` a string.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_pair)]
    pub set: Vec<(String, String)>,
}

/// The lenient modes: deviations from the specification that real files make, accepted by name.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Lenient modes")]
pub struct LenientArgs {
    /// Accept a named deviation from the specification, with a warning (repeatable)
    ///
    /// Each quirk names the files that need it; docs/lenient-modes.md says what each accepts
    /// and why.
    #[arg(long, value_enum, value_name = "NAME")]
    pub quirk: Vec<Quirk>,
}

impl LenientArgs {
    pub fn quirks(&self) -> Quirks {
        Quirks::new(&self.quirk)
    }
}

/// How problems are reported, and which fail the run.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Diagnostics")]
pub struct ReportArgs {
    /// human (snippets) or json (one object per line)
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = MessageFormat::Human, hide_possible_values = true)]
    pub message_format: MessageFormat,
    /// Print only errors
    #[arg(short, long)]
    pub quiet: bool,
    /// Fail (exit 1, nothing written) on any warning; also `-D warnings`
    #[arg(long)]
    pub deny_warnings: bool,
    /// `-D warnings`: the same as --deny-warnings
    #[arg(short = 'D', value_enum, value_name = "WHAT", hide = true)]
    pub deny: Vec<Deny>,
    /// Show at most N errors (0: all)
    #[arg(long, value_name = "N", default_value_t = diag::DEFAULT_ERROR_CAP, hide_short_help = true)]
    pub max_errors: usize,
    /// When to colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always, never
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, hide_short_help = true)]
    pub color: ColorChoice,
}

impl ReportArgs {
    /// Whether warnings fail the run.
    pub fn denies_warnings(&self) -> bool {
        self.deny_warnings || !self.deny.is_empty()
    }

    /// The sink a run reports into: capped as asked, warnings denied if asked.
    pub fn diagnostics(&self) -> diag::Diagnostics {
        let mut diags = diag::Diagnostics::with_cap(self.max_errors);
        if self.denies_warnings() {
            diags.deny_warnings();
        }
        diags
    }
}

/// What `-D` denies (as rustc's `-D warnings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// Every warning
    Warnings,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Where the result goes.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Write the output to PATH instead of standard output
    ///
    /// A folder when PATH ends in `/` or is one (made if missing; required for several files),
    /// else the one file the command writes; `-` is standard output.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

/// A backend folder that adds to or overrides the built-in rules and templates.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Output")]
pub struct BackendArgs {
    /// Add or override backend rules and templates from DIR (mapping.yaml plus templates)
    #[arg(long, value_name = "DIR", hide_short_help = true)]
    pub backend_dir: Option<PathBuf>,
}

/// `toscana ir`.
#[derive(Debug, Args, Clone)]
pub struct IrCommand {
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Print one node per representation (`count: 3` gives `web[0]` to `web[2]`)
    ///
    /// And one relationship per relationship representation, with `$node_index` and
    /// `$relationship_index` evaluated.
    #[arg(long, help_heading = "Output")]
    pub expand: bool,
}

/// What every translator takes: the template, where to write, and backend additions.
#[derive(Debug, Args, Clone)]
pub struct TranslateArgs {
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub backend: BackendArgs,
}

/// `toscana k8s` and `tosca2k8s`.
#[derive(Debug, Args, Clone)]
pub struct K8sCommand {
    #[command(flatten)]
    pub translate: TranslateArgs,
    #[command(flatten)]
    pub k8s: K8sArgs,
}

// The options of the Kubernetes manifests. (A `//` comment: clap would show a doc comment as
// the alias binary's description.)
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Kubernetes")]
pub struct K8sArgs {
    /// Put every object into namespace NS (and name it in kustomization.yaml)
    #[arg(long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,
    /// Route load balancers through an Ingress instead of Services of type LoadBalancer
    #[arg(long)]
    pub ingress: bool,
    /// Write one multi-document YAML stream instead of a file per object
    ///
    /// To -o FILE, or FILE/manifests.yaml for a folder, instead of a file per object and
    /// kustomization.yaml; `-o NAME.yaml` implies it.
    #[arg(long, hide_short_help = true)]
    pub single_file: bool,
    /// Give containers resource requests from the host capability but no limits
    ///
    /// By default a container sized by its host (num_cpus, mem_size, disk_size) gets limits
    /// equal to those requests.
    #[arg(long, hide_short_help = true)]
    pub no_limits: bool,
    /// Write no startup, readiness or liveness probes
    ///
    /// By default a container with a TCP port gets them on that port: an HTTP GET where its
    /// endpoint's protocol is http or https, else a TCP connection.
    #[arg(long, hide_short_help = true)]
    pub no_probes: bool,
    /// Write no securityContext
    ///
    /// By default a pod meets the Pod Security Standards "restricted" profile when its image
    /// runs as a non-root user, else "baseline", and says which in the annotation
    /// toscana.io/pod-security.
    #[arg(long, hide_short_help = true)]
    pub no_security_context: bool,
    /// Mount the service account's API token in every pod
    ///
    /// By default pods say automountServiceAccountToken: false, since nothing a TOSCA template
    /// runs is given a ServiceAccount or RBAC to call the Kubernetes API with; software that
    /// calls it anyway (with the namespace's default account) needs this flag.
    #[arg(long, hide_short_help = true)]
    pub service_account_token: bool,
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

/// `toscana tf` and `tosca2tf`.
#[derive(Debug, Args, Clone)]
pub struct TfCommand {
    #[command(flatten)]
    pub translate: TranslateArgs,
    #[command(flatten)]
    pub tf: TfArgs,
}

// Which cloud the configuration is for.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Terraform")]
pub struct TfArgs {
    /// The provider whose resources the configuration uses
    #[arg(long, value_enum, default_value_t = ProviderArg::Aws)]
    pub provider: ProviderArg,
}

/// `--provider`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
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

/// `toscana dot` and `tosca2dot`.
#[derive(Debug, Args, Clone)]
pub struct DotCommand {
    #[command(flatten)]
    pub translate: TranslateArgs,
    #[command(flatten)]
    pub dot: DotArgs,
}

// What the diagram shows and how it is written.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Diagram")]
pub struct DotArgs {
    /// dot (Graphviz source), or svg / png, drawn by Graphviz's `dot`, which must be installed
    #[arg(long, value_enum, default_value_t = FormatArg::Dot)]
    pub format: FormatArg,
    /// Which properties node boxes list: none, key (the family's key properties and every
    /// property the template sets), or all
    #[arg(long, value_enum, default_value_t = PropertiesArg::Key, hide_short_help = true)]
    pub properties: PropertiesArg,
    /// The direction of the graph: TB (top to bottom) or LR (left to right)
    #[arg(long, value_enum, default_value_t = RankdirArg::TB, ignore_case = true, hide_short_help = true)]
    pub rankdir: RankdirArg,
    /// Add a legend of the type families in the diagram
    #[arg(long)]
    pub legend: bool,
    /// Draw hosting as edges instead of boxes inside their hosts
    #[arg(long, hide_short_help = true)]
    pub no_nesting: bool,
    /// Show capabilities and requirements as ports on the node boxes
    #[arg(long, hide_short_help = true)]
    pub ports: bool,
    /// Add a panel with the topology's inputs and outputs
    #[arg(long, hide_short_help = true)]
    pub io: bool,
}

/// `--properties`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum PropertiesArg {
    None,
    #[default]
    Key,
    All,
}

/// `--rankdir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
#[allow(clippy::upper_case_acronyms)]
pub enum RankdirArg {
    #[default]
    #[value(name = "TB")]
    TB,
    #[value(name = "LR")]
    LR,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
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

/// `toscana render`: a backend of one's own, so its folder is required.
#[derive(Debug, Args, Clone)]
pub struct RenderCommand {
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// The backend: a folder with mapping.yaml and templates (see backends/README.md)
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub backend_dir: PathBuf,
}

/// `toscana explain`.
#[derive(Debug, Args, Clone)]
pub struct ExplainArgs {
    /// The diagnostic code, as printed in brackets: `tosca::unknown-keyname`
    #[arg(required_unless_present = "list")]
    pub code: Option<String>,
    /// List every code with its one-line summary
    #[arg(long)]
    pub list: bool,
}

/// `toscana lsp`: what every check the server runs takes besides the file.
#[derive(Debug, Args, Clone)]
pub struct LspArgs {
    /// Speak over standard input and output (the only transport; editors' clients pass it)
    #[arg(long)]
    pub stdio: bool,
    /// Read imports under URL PREFIX from folder DIR (repeatable), as `check --map-url` does
    #[arg(long = "map-url", value_name = "PREFIX=DIR", value_parser = parse_pair)]
    pub map_url: Vec<(String, String)>,
    /// Find TOSCA 2.0 profiles imported by name in DIR (repeatable), as `check --profile-path`
    #[arg(long = "profile-path", value_name = "DIR")]
    pub profile_path: Vec<PathBuf>,
    #[command(flatten)]
    pub lenient: LenientArgs,
}

/// `toscana completions`.
#[derive(Debug, Args, Clone)]
pub struct CompletionArgs {
    /// The shell to generate for
    pub shell: clap_complete::Shell,
    /// Only the completions of this command (for shells that want one file per command, as
    /// zsh's fpath does); all four by default
    #[arg(long, value_enum)]
    pub name: Option<Installed>,
}

/// The names `cargo install` installs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Installed {
    Toscana,
    Tosca2k8s,
    Tosca2tf,
    Tosca2dot,
}

/// Resource limits for hostile input; the defaults suit real estates of services.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Largest input file, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_file_bytes, hide_short_help = true)]
    pub max_file_size: u64,
    /// Deepest YAML nesting
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_yaml_depth, hide_short_help = true)]
    pub max_yaml_depth: usize,
    /// Most YAML nodes alias expansion may create
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_alias_expansion, hide_short_help = true)]
    pub max_alias_nodes: usize,
    /// Longest single scalar, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_scalar_bytes, hide_short_help = true)]
    pub max_scalar_size: usize,
    /// Most files read through imports
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_imports, hide_short_help = true)]
    pub max_imports: usize,
    /// Deepest chain of imports
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_import_depth, hide_short_help = true)]
    pub max_import_depth: usize,
    /// Most entries in a CSAR
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_csar_entries, hide_short_help = true)]
    pub max_csar_entries: usize,
    /// Most bytes a CSAR may expand to
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_csar_bytes, hide_short_help = true)]
    pub max_csar_size: u64,
    /// Largest compression ratio of one CSAR entry
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_compression_ratio, hide_short_help = true)]
    pub max_compression_ratio: u64,
    /// Most node templates in one topology
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_node_templates, hide_short_help = true)]
    pub max_node_templates: usize,
    /// Most bytes of scalar text alias expansion may copy into one document
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_alias_bytes, hide_short_help = true)]
    pub max_alias_size: u64,
    /// Most YAML nodes in one file
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_yaml_nodes, hide_short_help = true)]
    pub max_yaml_nodes: usize,
    /// Longest chain of `derived_from` from a type to its root
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_type_depth, hide_short_help = true)]
    pub max_type_depth: usize,
    /// Deepest nesting of substitutions
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_substitution_depth, hide_short_help = true)]
    pub max_substitution_depth: usize,
    /// Most node templates substitution may add to the topology
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_substituted_nodes, hide_short_help = true)]
    pub max_substituted_nodes: usize,
    /// Most node and relationship representations (TOSCA 2.0 `count`) a topology expands to
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_representations, hide_short_help = true)]
    pub max_representations: u64,
    /// Most bytes of values evaluating functions may create
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_computed_bytes, hide_short_help = true)]
    pub max_computed_size: u64,
    /// Most memory compiled `pattern` and `$matches` expressions may take, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_regex_bytes, hide_short_help = true)]
    pub max_regex_size: u64,
    /// Most bytes of diagnostics printed
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_diagnostic_bytes, hide_short_help = true)]
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

impl OutputArgs {
    pub fn path(&self) -> Option<&Path> {
        self.output.as_deref()
    }
}
