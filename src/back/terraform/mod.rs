//! The Terraform backend's own Rust (`toscana tf`, `tosca2tf`).
//!
//! The rules of each provider (`backends/terraform/<provider>/mapping.yaml`) say which template
//! writes each node and carry the provider's data in `bind`: the resource type and its
//! attribute table (`get_attribute` → resource attribute), the instance types or flavors, the
//! images per operating system, the load-balancing algorithms. The templates in
//! `templates/terraform/` write the HCL. What needs the whole topology is computed here and given
//! to every template as `tf`:
//!
//! - unique snake_case names for resources, variables and outputs;
//! - every value as an HCL expression ([`expr`]): `get_input` → `var.x`, `get_attribute` through
//!   the attribute tables, `concat` / `join` → string templates;
//! - variables: types, defaults, `sensitive`, constraints as `validation` blocks ([`vars`]);
//! - per node, what its role needs ([`nodes`]): the instance size that fits the host capability,
//!   the image for the `os` capability, the lifecycle scripts of the hosted stack (cloud-init
//!   parts, copied to `artifacts/`), volume attachments, ports, load-balancer targets, container
//!   images, and `depends_on` for relationships whose values do not flow.
//!
//! After rendering, every `.tf` and `.tfvars` file is laid out as `terraform fmt` does
//! ([`fmt`]) and parsed with `hcl-edit`, a piece at a time ([`parse`]); a file that does not
//! parse is an internal error, never written.

pub mod expr;
pub mod fmt;
mod graph;
pub mod kubernetes;
mod nodes;
mod parse;
mod policies;
pub mod references;
mod scripts;
mod secrets;
mod vars;

use std::collections::{BTreeSet, HashMap, HashSet};

use serde_json::Value as Json;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Artifact, Topology, Valid};
use crate::source::{SourceMap, Span};

use super::tera_values::{Builder, Part};
use super::{ElementKind, Engine, OutputFile};

/// The cloud a configuration is for (`--provider`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Provider {
    #[default]
    Aws,
    Openstack,
    Kubernetes,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Aws => "aws",
            Provider::Openstack => "openstack",
            Provider::Kubernetes => "kubernetes",
        }
    }

    /// The name of the built-in backend with this provider's rules.
    pub fn backend_name(self) -> &'static str {
        match self {
            Provider::Aws => "terraform-aws",
            Provider::Openstack => "terraform-openstack",
            Provider::Kubernetes => "terraform-kubernetes",
        }
    }
}

/// Reads an artifact's file (a lifecycle script); `Err` says why it cannot.
pub type ReadArtifact<'a> = &'a dyn Fn(&Artifact) -> Result<Vec<u8>, String>;

/// Renders `topology` with a loaded Terraform backend (built-in for `provider`, or overlaid
/// with `--backend-dir`), then formats and parses every HCL file and adds the artifacts.
#[allow(clippy::too_many_arguments)]
pub fn render(
    backend: &Engine,
    topology: Valid<'_>,
    sources: &mut SourceMap,
    provider: Provider,
    read_artifact: ReadArtifact,
    reread: Option<&crate::back::registry::RereadFn<'_>>,
    limits: &crate::limits::Limits,
    diags: &mut Diagnostics,
) -> Vec<OutputFile> {
    // Valid: every handle resolves, so what follows indexes the topology unguarded.
    let topology: &Topology = topology.topology();
    let elements = super::elements(topology, sources);
    // Nodes of a Kubernetes profile are their objects, among those of `kubernetes`, which the
    // rules skip.
    let elements = profile_objects(topology, elements, provider);
    let mut spans = Spans::default();
    for e in &elements {
        spans.by_kind.entry(e.kind).or_default().push(e.span);
    }
    let mut vars = vars::inputs(topology, &spans, diags);
    let ledger = super::Ledger::new();
    // With `--provider kubernetes` the resources are the objects `toscana k8s` builds
    // ([`kubernetes`]), which reports on each node; the rules give the nodes their roles and
    // attribute tables, for outputs, and report nothing of resources that are not written.
    let node_diags = match provider {
        Provider::Kubernetes => None,
        _ => Some(&mut *diags),
    };
    let mut built = nodes::build(
        backend,
        topology,
        &elements,
        &spans,
        &vars.names,
        provider,
        read_artifact,
        &ledger,
        node_diags,
    );
    let objects = match provider {
        Provider::Kubernetes => {
            let Some(written) =
                kubernetes::write(topology, &vars.names, sources, reread, limits, diags)
            else {
                return Vec::new();
            };
            kubernetes::use_objects(&mut built, topology, &written.by_node);
            Some(OutputFile {
                path: "main.tf".to_string(),
                contents: written.main,
            })
        }
        _ => None,
    };
    let outputs = vars::outputs(topology, &spans, &vars, &built, &ledger, diags);
    // Each output is written (or left out with a warning of its own): the properties its value
    // carries are translated.
    ledger.values_used(topology, topology.outputs.iter().map(|o| &o.value));
    for index in 0..topology.outputs.len() {
        ledger.output(index);
    }
    // Every relationship is translated: what it means to the backend becomes a reference (an
    // attachment, a port, a load-balancer target), and the rest orders its two ends, by a
    // `depends_on`, a value that already flows between them, or the order of one machine's
    // scripts ([`nodes`]).
    for index in 0..topology.relationships.len() {
        ledger.relationship(index);
    }
    let extra = vec![(
        "tf".to_string(),
        tf_value(provider, &mut vars, &mut built, outputs),
    )];
    let mut files = backend.render_with(topology, &elements, extra, diags);
    // With `--provider kubernetes` the Kubernetes backend's own ledger accounts for the nodes.
    if provider != Provider::Kubernetes {
        backend.account(&ledger, topology, &elements, diags);
    }
    files.extend(objects);
    let used = format_and_check(&mut files, diags);
    report_unused_variables(topology, &spans, &vars.names, &used, diags);
    // `main.tf` holds the resources and is left out when it would be empty: the rest
    // (providers, versions) is no configuration of the topology.
    if !topology.nodes.is_empty()
        && !files
            .iter()
            .any(|f| f.path == "main.tf" && !f.contents.trim().is_empty())
    {
        diags.push(
            super::nothing_to_write(
                topology,
                sources,
                format!(
                    "no node of the topology became a Terraform resource (provider `{}`); the warning on each node says why",
                    provider.as_str()
                ),
            )
            .hint("Terraform resources come from Compute nodes and the software hosted on them, storage, networks, load balancers and (with --provider kubernetes) container applications"),
        );
        return Vec::new();
    }
    let mut seen: HashSet<String> = files.iter().map(|f| f.path.clone()).collect();
    for (path, contents) in built.artifacts {
        if seen.insert(path.clone()) {
            files.push(OutputFile { path, contents });
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// The `tf` every template reads: the provider, and the contexts of the inputs, nodes,
/// policies, size variables and outputs, and the configuration's needs, as Tera values.
///
/// The contexts are moved out of `vars` and `built` and converted one entry at a time, each
/// freed once converted: the JSON contexts (24 MB at 10,000 nodes) were cloned into one JSON
/// document (by `json!`, which serializes what it is given by reference), converted from it,
/// and the originals kept to the end of the render, so three copies were alive at once.
fn tf_value(
    provider: Provider,
    vars: &mut vars::Vars,
    built: &mut nodes::Built<'_>,
    outputs: Vec<Json>,
) -> tera::Value {
    fn list(b: &mut Builder, items: Vec<Json>) -> Part {
        let parts: Vec<Part> = items.into_iter().map(|item| b.json(&item)).collect();
        b.list(parts)
    }
    let mut b = Builder::default();
    let inputs = list(&mut b, std::mem::take(&mut vars.inputs));
    let nodes = list(&mut b, std::mem::take(&mut built.nodes));
    let policies = list(&mut b, std::mem::take(&mut built.policies));
    let size_variables = list(&mut b, std::mem::take(&mut built.size_variables));
    let outputs = list(&mut b, outputs);
    let needs = b.json(&built.needs);
    let provider = b.str(provider.as_str());
    let tf = [
        ("provider", provider),
        ("inputs", inputs),
        ("nodes", nodes),
        ("policies", policies),
        ("size_variables", size_variables),
        ("outputs", outputs),
        ("needs", needs),
    ];
    b.map(tf).into_value()
}

/// Formats every HCL file (`.tf`, `.tfvars`, `.tfvars.example`) as `terraform fmt` would, and
/// reports one that does not parse: a bug in toscana or in a `--backend-dir` template. Returns
/// the variables the `.tf` files refer to, read from the same parse (parsing is most of the
/// cost of both, a tenth of a render at 10,000 nodes).
fn format_and_check(files: &mut [OutputFile], diags: &mut Diagnostics) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for file in files {
        if !(file.path.ends_with(".tf")
            || file.path.ends_with(".tfvars")
            || file.path.ends_with(".tfvars.example"))
        {
            continue;
        }
        file.contents = fmt::format(&file.contents);
        match parse::check(&file.contents) {
            Ok(variables) if file.path.ends_with(".tf") => used.extend(variables),
            Ok(_) => {}
            Err(e) => diags.push(
                Diagnostic::error(
                    codes::TF_INTERNAL,
                    format!("internal error: the generated {} is not valid HCL: {e}", file.path),
                )
                .hint("this is a bug in toscana or in a --backend-dir template; nothing was written. Please report it with the input"),
            ),
        }
    }
    used
}

/// A warning for each input whose variable no resource, output or provider refers to (`used`,
/// from [`format_and_check`]): its value in `terraform.tfvars` changes nothing. Either the
/// template does not use the input, or uses it only where toscana chooses at translation (an
/// instance size from a rule's table, an image for an `os`, a port), from the value it had
/// then.
fn report_unused_variables(
    topology: &Topology,
    spans: &Spans,
    names: &HashMap<String, String>,
    used: &BTreeSet<String>,
    diags: &mut Diagnostics,
) {
    for (index, input) in topology.inputs.iter().enumerate() {
        let Some(var) = names.get(&input.name) else {
            continue;
        };
        if used.contains(var) {
            continue;
        }
        let mut d = Diagnostic::warning(
            codes::TF_UNUSED_VARIABLE,
            format!(
                "variable `{var}` (input `{}`) is declared but nothing in the configuration refers to it, so changing it in terraform.tfvars changes nothing",
                input.name
            ),
        )
        .hint("the template does not use the input, or uses it only where toscana chooses at translation (an instance size, an image, a port): translate again with --set to change those");
        if let Some(span) = spans.of(ElementKind::Input, index) {
            d = d.at(span);
        }
        diags.push(d);
    }
}

/// With `--provider kubernetes`, the elements of the nodes of a Kubernetes profile get the
/// pseudo-type [`super::kubernetes::profile::OBJECT`] at the head of their ancestry, which the
/// provider's rules skip: [`kubernetes`] writes their objects with the others.
fn profile_objects(
    topology: &Topology,
    mut elements: Vec<super::Element>,
    provider: Provider,
) -> Vec<super::Element> {
    if provider != Provider::Kubernetes {
        return elements;
    }
    // Which nodes are the profile's is a decision on their types; their objects, and what is
    // wrong with them, are `kubernetes::write`'s build (as `toscana k8s` builds them).
    let taken = super::kubernetes::profile::taken(topology);
    for e in &mut elements {
        if super::kubernetes::profile::is_taken(&taken, e) {
            e.types
                .insert(0, super::kubernetes::profile::OBJECT.to_string());
        }
    }
    elements
}

/// The span of each element, by kind and index, for warnings.
#[derive(Default)]
pub struct Spans {
    by_kind: HashMap<ElementKind, Vec<Option<Span>>>,
}

impl Spans {
    pub fn of(&self, kind: ElementKind, index: usize) -> Option<Span> {
        self.by_kind
            .get(&kind)
            .and_then(|v| v.get(index).copied().flatten())
    }
}

/// A warning that a value or element cannot be expressed, at `span`.
pub fn unexpressed(span: Option<Span>, message: String, hint: &str) -> Diagnostic {
    let mut d = Diagnostic::warning(codes::TF_UNEXPRESSED, message).hint(hint.to_string());
    if let Some(span) = span {
        d = d.at(span);
    }
    d
}

/// Unique identifiers from names: snake_case, starting with a letter or `_`, never one of
/// `reserved`, and `_2`, `_3`... on clashes.
pub fn unique_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
    reserved: &[&str],
) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for name in names {
        let mut base = heck::ToSnakeCase::to_snake_case(name);
        base.retain(|c| c.is_ascii_alphanumeric() || c == '_');
        if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            base = format!("n_{base}");
        }
        if reserved.contains(&base.as_str()) {
            base.push_str("_value");
        }
        let mut candidate = base.clone();
        let mut n = 2;
        while !taken.insert(candidate.clone()) {
            candidate = format!("{base}_{n}");
            n += 1;
        }
        out.push(candidate);
    }
    out
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
