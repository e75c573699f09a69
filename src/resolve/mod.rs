//! Resolution: from the [`Model`] (names, YAML nodes) to the [`Topology`] (ids, typed values).
//!
//! The order is fixed: inputs first (so `get_input` binds while values are read), then nodes
//! with their types merged in, then relationships from requirements, then groups, policies,
//! workflows, outputs and the substitution boundary. Every problem is collected; resolution
//! goes on past errors so one run reports them all.

mod allocation;
mod artifact_defs;
mod artifact_types;
mod assigned_names;
mod assignments;
mod attribute_mappings;
mod boundary;
mod call_shapes;
pub mod calls;
mod capability_defs;
mod capability_refinement;
mod capability_values;
mod constraints;
mod counts;
mod defaults;
mod deprecated_properties;
mod derived_lists;
mod entry_schema_required;
mod filters;
mod fixed_parameters;
mod fulfil;
mod function_artifacts;
mod function_targets;
mod functions;
mod groups_and_policies;
mod inline_cycles;
mod interface_defs;
mod interface_parameters;
mod interface_types;
mod interfaces;
mod multiplicity;
mod node_filter_shape;
mod nodes;
mod normative_values;
mod occurrences;
mod operation_context;
mod output_values;
mod parameter_defaults;
mod parameter_refinement;
mod params;
mod paths;
pub mod patterns;
mod port_order;
mod port_spec;
mod refinement;
mod repository_credentials;
mod required_keyname;
mod requirement_defs;
mod requirement_interfaces;
mod requirement_mapping;
mod requirements;
mod root_types;
mod scalar_types;
mod select_filter;
mod selection;
mod simple_eval;
mod simple_new_definitions;
mod simple_occurrences;
mod substitution;
mod substitution_filter_paths;
mod substitution_mappings;
mod target_types;
mod template_names;
mod tosca2_types;
mod type_functions;
mod type_parts;
mod types;
mod typing;
mod unset_inputs;
mod validation;
mod validation_clause_types;
mod value_types;
mod values;
mod workflow_calls;
mod workflow_inlines;
mod workflows;
mod written_definitions;

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Location, SourceInfo, Topology, Value};
use crate::limits::Limits;
use crate::model::Model;
use crate::source::{FileId, SourceMap, Span};
use values::{map_values, metadata_values};

/// Whether a node template passes a Simple Profile node filter: what the language server's
/// completion offers a requirement as targets.
pub use filters::admits as node_filter_admits;
pub use params::{Bindings, check_unused_bindings};
pub use paths::topology_root;
pub use substitution::{Candidate, SEPARATOR, settled, substitute};
/// How type names are read (shorthands, namespaces) and their ancestries: what the language
/// server's index reads types through, so an editor resolves a name as a check does.
pub use types::Ancestry;

/// What the resolver needs besides the model.
pub struct Context<'a> {
    pub sources: &'a SourceMap,
    pub limits: &'a Limits,
    /// Input values from the command line.
    pub bindings: &'a Bindings,
    /// The CSAR's `TOSCA.meta` keys, when the input was a CSAR.
    pub csar: Option<IndexMap<String, String>>,
    /// The folder artifact paths are made relative to ([`topology_root`]).
    pub artifact_root: Option<String>,
    /// Whether a required input without a value is an error (the output needs every value) or
    /// a warning (`check`; Terraform, which declares it as a variable).
    pub unbound_inputs_are_errors: bool,
    /// Whether `get_input` stays a call even where the input has a value (see
    /// [`crate::pipeline::ReadOptions::inputs_stay_calls`]).
    pub inputs_stay_calls: bool,
    /// Whether a requirement left for the orchestrator to fulfil is reported (a warning).
    pub report_open_requirements: bool,
    /// Where artifact files are, to report the ones that are missing.
    pub artifact_files: &'a crate::source::ArtifactFiles,
    /// The run's compiled patterns and its budget for what functions compute, shared by every
    /// template the run resolves.
    pub patterns: patterns::Patterns,
}

/// The rules on what types and templates write, checked before any template is resolved:
/// requirement and capability definitions, what derived types refine, interface definitions and
/// types, template names, and deprecated properties set.
fn check_definitions(
    model: &Model,
    ancestry: &mut types::Ancestry,
    file_types: &artifact_types::FileTypes,
    diags: &mut Diagnostics,
) {
    requirement_defs::check(model, ancestry, diags);
    derived_lists::check(model, ancestry, diags);
    interface_defs::check(model, ancestry, diags);
    capability_refinement::check(model, ancestry, diags);
    interface_types::check(model, diags);
    operation_context::check(model, diags);
    node_filter_shape::check(model, diags);
    template_names::check(model, diags);
    attribute_mappings::check(model, ancestry, diags);
    artifact_defs::check(model, ancestry, file_types, diags);
    root_types::check(model, diags);
    deprecated_properties::check(model, ancestry, diags);
}

/// Resolves a model into the IR. Returns the topology even when errors were found (the caller
/// decides from `diags` whether to use it), so that `check` can report everything.
pub fn resolve(model: &Model, ctx: &Context, diags: &mut Diagnostics) -> Topology {
    let locator = Locator::new(&model.files);
    let mut ancestry = types::Ancestry::new(model);
    // First, before anything walks a chain: a chain walked without reporting is remembered,
    // and `check_all` would then find it known and report nothing (an artifact type of an
    // unknown parent that shares a `file_ext` with another went unreported that way).
    ancestry.check_all(model, diags);
    // Which artifact type each file extension tells: for the artifact definitions' check and
    // for the artifacts the node builder makes, read once.
    let file_types = artifact_types::FileTypes::new(model, &mut ancestry);
    let mut functions = check_types(model, ctx, &mut ancestry, &file_types, diags);
    let plain = unbound_reader(model);
    let mut topology = outline(model, ctx, &locator, &plain, diags);
    let Some(template) = &model.topology else {
        params::check_unused_bindings(ctx.bindings, &[], diags);
        requirement_defs::check_type_references(model, &mut ancestry, diags);
        type_functions::check(model, &mut ancestry, diags);
        // A profile's types are judged before any template uses them: the calls their
        // interfaces write (`calls::type_inputs`, output mappings), with no inputs to read.
        calls::resolve(
            model,
            &mut typing::Typing {
                model,
                reader: &plain,
                ancestry: &mut ancestry,
                patterns: &ctx.patterns,
            },
            &functions,
            &IndexMap::new(),
            &mut topology,
            diags,
        );
        return topology;
    };
    if let Some(d) = &template.description {
        topology.description = Some(d.text.clone());
    }
    if too_many_node_templates(template, ctx.limits, diags) {
        return topology;
    }

    let patterns = ctx.patterns.clone();
    let (inputs, input_values) = params::inputs(
        &mut typing::Typing {
            model,
            reader: &plain,
            ancestry: &mut ancestry,
            patterns: &patterns,
        },
        template,
        ctx.bindings,
        ctx.unbound_inputs_are_errors,
        &locator,
        diags,
    );
    topology.inputs = inputs;
    let as_calls = ctx.inputs_stay_calls.then(|| all_unbound(&input_values));
    let input_values = as_calls.as_ref().unwrap_or(&input_values);
    let reader = values::ValueReader {
        dialect: model.dialect,
        inputs: Some(input_values),
        budget: Some(ctx.patterns.budget()),
    };
    let mut nodes = nodes::NodeBuilder {
        model,
        ctx,
        reader: &reader,
        locator: &locator,
        ancestry: &mut ancestry,
        root: ctx.artifact_root.clone(),
        artifacts: IndexMap::new(),
        missing_files_reported: Default::default(),
        files_named: Default::default(),
        artifact_paths: Default::default(),
        file_types,
        ambiguous_files_reported: Default::default(),
        definitions: Default::default(),
        type_parts: Default::default(),
        requirement_definitions: Default::default(),
        patterns,
    };
    nodes.build(template, &mut topology, diags);
    functions.read_implementations(
        |yaml, notes| nodes.function_implementation(yaml, notes),
        diags,
    );
    let unfulfilled = requirements::connect(&mut nodes, template, &functions, &mut topology, diags);
    groups_and_policies::read(&mut nodes, template, &mut topology, diags);
    // A workflow's get_input names the workflow's own inputs: read without binding.
    workflows::read(&plain, &locator, template, &mut topology, diags);
    after_build(model, nodes.ancestry, template, &topology, diags);
    topology.outputs = params::outputs(&reader, &locator, template, diags);
    output_values::check(&mut nodes.typing(), template, diags);
    workflow_inlines::check(&mut nodes.typing(), template, diags);
    functions::check(model, template, &reader, &mut topology, diags);
    // After the templates read their types' values, so a place is reported once.
    type_functions::check(model, nodes.ancestry, diags);
    // Before the calls: a path that takes `ALL` of a requirement the mappings map is not the
    // list made so far (`calls::path`), and the boundary says which requirements those are.
    topology.substitution = substitution_mappings::read(&mut nodes, template, &topology, diags);
    calls::resolve(
        model,
        &mut nodes.typing(),
        &functions,
        input_values,
        &mut topology,
        diags,
    );
    if model.dialect == crate::ir::Dialect::Tosca2 {
        multiplicity::settle_target_indices(&mut topology);
    } else {
        simple_eval::evaluate(&mut topology, &ctx.patterns, diags);
    }
    requirements::report(unfulfilled, topology.substitution.as_ref(), diags);
    after_calls(model, ctx, template, &topology, diags);
    // Last, so that it adds only the unknown names the templates' types did not show.
    requirement_defs::check_type_references(model, nodes.ancestry, diags);
    topology
}

/// The rules on types and definitions, checked before any template is resolved (a template
/// is read against them); returns the functions the model defines, which templates call.
fn check_types<'m>(
    model: &'m Model,
    ctx: &Context,
    ancestry: &mut types::Ancestry,
    file_types: &artifact_types::FileTypes,
    diags: &mut Diagnostics,
) -> calls::Functions<'m> {
    if model.dialect != crate::ir::Dialect::Tosca2 {
        filters::check_definitions(model, diags);
    }
    let functions = calls::Functions::new(model, diags);
    tosca2_types::check(model, ancestry, &functions, &ctx.patterns, diags);
    simple_new_definitions::check(model, ancestry, diags);
    simple_occurrences::check(model, diags);
    check_definitions(model, ancestry, file_types, diags);
    value_types::check(model, ancestry, diags);
    let mut types = typing::Typing {
        model,
        reader: &unbound_reader(model),
        ancestry,
        patterns: &ctx.patterns,
    };
    written_definitions::check(&mut types, diags);
    refinement::data_type_schemas(&mut types, diags);
    interface_parameters::check(&mut types, diags);
    repository_credentials::check(&mut types, diags);
    requirement_interfaces::check(&mut types, diags);
    functions
}

/// A reader of values for which no input is bound, where `get_input` stays a call: the
/// definitions' values, metadata, the inputs' own defaults, workflows.
fn unbound_reader(model: &Model) -> values::ValueReader<'static> {
    values::ValueReader {
        dialect: model.dialect,
        inputs: None,
        budget: None,
    }
}

/// The topology before any template is read: where it comes from, and the service
/// template's description and metadata.
fn outline(
    model: &Model,
    ctx: &Context,
    locator: &Locator,
    plain: &values::ValueReader,
    diags: &mut Diagnostics,
) -> Topology {
    let source = SourceInfo {
        dialect: model.dialect,
        version: model.version.clone(),
        entry: ctx.sources.get(model.entry).name.clone(),
        files: model
            .files
            .iter()
            .map(|f| ctx.sources.get(*f).name.clone())
            .collect(),
        csar: ctx.csar.clone(),
    };
    Topology {
        source,
        description: model.description.as_ref().map(|d| d.text.clone()),
        metadata: match &model.metadata {
            Some(metadata) => values::metadata_values(plain, metadata, diags),
            None => IndexMap::new(),
        },
        inputs: Vec::new(),
        nodes: Vec::new(),
        relationships: Vec::new(),
        groups: Vec::new(),
        policies: Vec::new(),
        workflows: Vec::new(),
        outputs: Vec::new(),
        substitution: None,
        substituted: Vec::new(),
        location: model.topology.as_ref().and_then(|t| locator.at(t.span)),
    }
}

/// Whether the template has more node templates than the limit allows, reported at the first
/// one over it: nothing of it is resolved then.
fn too_many_node_templates(
    template: &crate::model::TopologyTemplate,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> bool {
    let Some(over) = template.node_templates.get(limits.max_node_templates) else {
        return false;
    };
    diags.push(
        Diagnostic::error(
            codes::TOSCA_LIMIT,
            format!("more than {} node templates", limits.max_node_templates),
        )
        .at(over.span)
        .hint("raise the limit with --max-node-templates N if this is intended"),
    );
    true
}

/// The checks that need the calls evaluated: how TOSCA 2.0 representations pair up (only on
/// a topology without errors, whose counts mean what they say), and the Simple Profile's
/// requirement occurrences.
fn after_calls(
    model: &Model,
    ctx: &Context,
    template: &crate::model::TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) {
    if model.dialect == crate::ir::Dialect::Tosca2 {
        if !diags.has_errors() {
            let problems = multiplicity::check(topology, ctx.limits.max_representations);
            report_problems(problems, topology, ctx.sources, diags);
        }
    } else {
        occurrences::check(
            model,
            template,
            topology,
            ctx.report_open_requirements,
            diags,
        );
    }
}

/// Every input as unbound, for a backend that declares inputs as variables
/// ([`Context::inputs_stay_calls`]): the reader and the call evaluator then keep every
/// `get_input` as a call (still checking that the input is declared); counts and the backend's
/// own choices read the values from the topology's `inputs`.
fn all_unbound(values: &IndexMap<String, Option<Value>>) -> IndexMap<String, Option<Value>> {
    values.keys().map(|k| (k.clone(), None)).collect()
}

/// The topology expanded into one node per representation and one relationship per
/// relationship representation (`toscana ir --expand`; see [`multiplicity`] for the naming),
/// or `None` when it cannot be (a count not known, too many representations), reported.
pub fn expand(
    topology: &Topology,
    sources: &SourceMap,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Option<Topology> {
    match multiplicity::expand(topology, limits.max_representations) {
        Ok((expanded, problems)) => {
            report_problems(problems, topology, sources, diags);
            Some(expanded)
        }
        Err(problem) => {
            report_problems(vec![problem], topology, sources, diags);
            None
        }
    }
}

/// Problems of pairing representations as diagnostics at the elements they are about.
fn report_problems(
    problems: Vec<multiplicity::PairingProblem>,
    topology: &Topology,
    sources: &SourceMap,
    diags: &mut Diagnostics,
) {
    if problems.is_empty() {
        return;
    }
    let spans = crate::ir::spans::SpanFinder::new(&topology.source.files, sources);
    for p in problems {
        let d = if p.limit {
            let severity = if p.optional {
                Diagnostic::warning
            } else {
                Diagnostic::error
            };
            severity(codes::TOSCA_LIMIT, p.message)
        } else if p.optional {
            Diagnostic::warning(
                codes::TOSCA_UNFULFILLED,
                format!(
                    "{}; the requirement is optional, so it stays short",
                    p.message
                ),
            )
        } else {
            Diagnostic::error(codes::TOSCA_UNFULFILLED, p.message)
        };
        let d = match p.at.and_then(|l| spans.span(l)) {
            Some(span) => d.at(span),
            None => d,
        };
        diags.push(d.hint(p.hint));
    }
}

/// Turns spans into IR locations: the file's index in the topology's file list.
pub struct Locator {
    index: HashMap<FileId, usize>,
}

impl Locator {
    fn new(files: &[FileId]) -> Self {
        Locator {
            index: files.iter().enumerate().map(|(i, f)| (*f, i)).collect(),
        }
    }

    pub fn at(&self, span: Span) -> Option<Location> {
        self.index.get(&span.file).map(|&file| Location {
            file,
            line: span.line,
            column: span.col,
        })
    }
}

/// The checks that read the built topology without changing it: the inputs operations are
/// given, the names workflow steps use, and the types of group members and policy targets.
fn after_build(
    model: &Model,
    ancestry: &mut types::Ancestry,
    template: &crate::model::TopologyTemplate,
    topology: &Topology,
    diags: &mut Diagnostics,
) {
    unset_inputs::check(model, ancestry, template, topology, diags);
    workflow_calls::steps::check(model, template, topology, diags);
    inline_cycles::check(template, diags);
    groups_and_policies::membership::check(model, ancestry, template, topology, diags);
    port_order::check(template, topology, diags);
}
