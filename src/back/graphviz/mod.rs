//! The Graphviz backend's own Rust: the structure of the diagram, which Tera cannot compute well.
//!
//! The rules in `backends/graphviz/mapping.yaml` say how each element looks (shape and colour per
//! type family, edge styles per relationship type); the templates in `templates/graphviz/` write
//! the dot. What needs a walk over the whole graph is built here and given to every template as
//! `graph`, next to the command-line `options`:
//!
//! - the hosting tree (who is drawn inside whose cluster, down the whole `HostedOn` chain), as a
//!   flat list of `layout` events so templates need no recursion;
//! - which groups can be drawn as clusters (members not split across hosts) and which become
//!   notes;
//! - each node's ID, short type, family (from its rule's `bind`), the property rows to show,
//!   its count badge and ports;
//! - each relationship's endpoints and whether hosting already shows it;
//! - the legend (the families that occur, in rule order), the substitution boundary, and the
//!   text of input and output values.
//!
//! Nodes with a `select` directive (or of an abstract normative type with no implementation) and
//! nodes with a `substitute` directive get a pseudo-type at the head of their ancestry for rule
//! matching, `toscana.graphviz.Abstract` and `toscana.graphviz.Substituted`, so the mapping file
//! styles them like any other family.

mod context;
mod entries;
mod layout;

use serde::Serialize;

use crate::diag::Diagnostics;
use crate::ir::{Topology, TypeKind, Valid, Value, canonical};
use crate::source::SourceMap;

use super::{Element, ElementKind, Engine, OutputFile};
use context::context;

/// Pseudo-type of nodes an orchestrator must select (`select` directive, or an abstract
/// normative type with no implementation).
pub const ABSTRACT: &str = "toscana.graphviz.Abstract";
/// Pseudo-type of nodes with a `substitute` directive.
pub const SUBSTITUTED: &str = "toscana.graphviz.Substituted";

/// Longest property value shown, in characters, before it is cut with `…`.
const MAX_VALUE_CHARS: usize = 48;

/// Which properties a node box lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PropertyMode {
    None,
    /// The family's key properties (the rule's `bind.key`) and every property the template sets.
    #[default]
    Key,
    All,
}

/// Graph direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub enum RankDir {
    #[default]
    TB,
    LR,
}

/// The options of `toscana dot`, given to templates as `options`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DotOptions {
    pub properties: PropertyMode,
    pub rankdir: RankDir,
    /// Draw a legend of the type families that occur.
    pub legend: bool,
    /// Draw hosting as containment (`false`: as edges).
    pub nesting: bool,
    /// Show capabilities and requirements as ports.
    pub ports: bool,
    /// Show inputs and outputs in a side panel.
    pub io: bool,
}

impl Default for DotOptions {
    fn default() -> Self {
        DotOptions {
            properties: PropertyMode::Key,
            rankdir: RankDir::TB,
            legend: false,
            nesting: true,
            ports: false,
            io: false,
        }
    }
}

/// Renders `topology` with a loaded Graphviz backend (built-in, or overlaid with
/// `--backend-dir`): the elements with their pseudo-types and indexes, and the `graph` and
/// `options` context.
pub fn render(
    backend: &Engine,
    topology: Valid<'_>,
    sources: &SourceMap,
    options: &DotOptions,
    diags: &mut Diagnostics,
) -> Vec<OutputFile> {
    // Valid: every handle resolves, so what follows indexes the topology unguarded.
    let topology: &Topology = topology.topology();
    let elements = elements(topology, sources);
    let graph = context(backend, topology, &elements, options);
    let extra = vec![
        ("options".to_string(), super::to_tera(options)),
        ("graph".to_string(), graph),
    ];
    backend.render_with(topology, &elements, extra, diags)
}

/// The engine's elements (each knows its `index`, with which templates look themselves up in
/// `graph`), nodes with their pseudo-types.
pub fn elements(topology: &Topology, sources: &SourceMap) -> Vec<Element> {
    let mut elements = super::elements(topology, sources);
    let nodes = elements.iter_mut().filter(|e| e.kind == ElementKind::Node);
    for (element, node) in nodes.zip(&topology.nodes) {
        if node.directives.iter().any(|d| d == "substitute") {
            element.types.insert(0, SUBSTITUTED.to_string());
        } else if node.only_selected() || is_abstract(node) {
            element.types.insert(0, ABSTRACT.to_string());
        }
    }
    elements
}

/// A multiplicity value with TOSCA 2.0's function names: `$node_index`,
/// `$remainder($node_index, 2)`; anything else as [`value_text`] shows it.
fn function_text(value: &Value) -> String {
    match value {
        Value::Call(c) if c.args.is_empty() => format!("${}", c.function),
        Value::Call(c) => format!(
            "${}({})",
            c.function,
            c.args
                .iter()
                .map(function_text)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => value_text(other),
    }
}

/// An abstract normative type (`Root`, `Abstract.Compute`, `Abstract.Storage`) with no
/// implementation anywhere: nothing an orchestrator could deploy as it is.
fn is_abstract(node: &crate::ir::Node) -> bool {
    let Some(first) = node.types.first() else {
        return false;
    };
    let abstract_type = matches!(
        canonical(TypeKind::Node, first),
        "tosca.nodes.Root" | "tosca.nodes.Abstract.Compute" | "tosca.nodes.Abstract.Storage"
    );
    let implemented = !node.artifacts.is_empty()
        || node
            .interfaces
            .values()
            .any(|i| i.operations.values().any(|o| o.implementation.is_some()));
    abstract_type && !implemented
}

/// The short form of a type name: `tosca.nodes.WebServer` → `WebServer`,
/// `org.oasis-open.simple:2.0:Compute` → `Compute`, and a TOSCA 1.0 XML name
/// `{namespace}Ubuntu-VM_18.04` → `Ubuntu-VM_18.04` (its local name, dots and all).
pub fn short_type(name: &str) -> &str {
    if let Some((_, local)) = name.strip_prefix('{').and_then(|n| n.rsplit_once('}')) {
        return local;
    }
    let name = name.rsplit_once(':').map_or(name, |(_, n)| n);
    name.rsplit_once('.').map_or(name, |(_, n)| n)
}

/// The relationship type to show on an edge: `None` when it is the one the requirement's
/// definition names, which a reader expects.
fn shown_type(r: &crate::ir::Relationship) -> Option<String> {
    let first = r.types.first()?;
    (!r.default_type).then(|| short_type(first).to_string())
}

/// The text of a value as a diagram shows it ([`crate::ir::value_text`]), cut to
/// [`MAX_VALUE_CHARS`] characters.
pub fn value_text(value: &Value) -> String {
    cut(&crate::ir::value_text(value))
}

/// `text` cut to [`MAX_VALUE_CHARS`] characters, with `…` when cut.
fn cut(text: &str) -> String {
    if text.chars().count() <= MAX_VALUE_CHARS {
        return text.to_string();
    }
    let mut out: String = text.chars().take(MAX_VALUE_CHARS - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests;

/// Draws dot source with Graphviz's `dot` into `format` (`svg`, `png`). A missing `dot` or a
/// failure of it is an `output::graphviz` error that says what to do.
#[allow(clippy::result_large_err)] // one diagnostic, straight to the command line
pub fn draw(dot: &str, format: &str) -> Result<Vec<u8>, crate::diag::Diagnostic> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};

    use crate::diag::{Diagnostic, codes};
    let child = Command::new("dot")
        .arg(format!("-T{format}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Diagnostic::error(
                codes::OUTPUT_GRAPHVIZ,
                format!("--format {format} needs Graphviz's `dot` program, which is not installed"),
            )
            .hint("install Graphviz (`apt-get install graphviz`, `brew install graphviz`, `choco install graphviz`), or use --format dot and draw the file elsewhere"));
        }
        Err(e) => {
            return Err(Diagnostic::error(
                codes::OUTPUT_GRAPHVIZ,
                format!("cannot run Graphviz's `dot`: {e}"),
            ));
        }
    };
    // Write on another thread so a large diagram cannot deadlock on full pipes.
    let input = child.stdin.take().map(|mut stdin| {
        let text = dot.to_string();
        std::thread::spawn(move || stdin.write_all(text.as_bytes()))
    });
    let output = child.wait_with_output();
    let written = input.map(|t| t.join());
    let output = output.map_err(|e| {
        Diagnostic::error(
            codes::OUTPUT_GRAPHVIZ,
            format!("Graphviz's `dot` failed: {e}"),
        )
    })?;
    if !output.status.success() || !matches!(written, Some(Ok(Ok(())))) {
        return Err(Diagnostic::error(
            codes::OUTPUT_GRAPHVIZ,
            format!(
                "Graphviz's `dot -T{format}` failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        )
        .hint("this is a bug in toscana's Graphviz backend if the diagram came from the built-in templates; --format dot writes the source to look at"));
    }
    Ok(output.stdout)
}
