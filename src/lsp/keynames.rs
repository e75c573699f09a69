//! Hover on a keyname: what it means, in one line, in the specification of the file's
//! dialect (Simple Profile 1.x or TOSCA 2.0; a TOSCA 1.0 XML file has elements, not keynames).
//!
//! The lines paraphrase the specifications' keyname tables (Simple Profile 1.3 §3.9 Service
//! Template definition and the entity definitions of §3.6-§3.8; TOSCA 2.0 §6 TOSCA Service
//! Template and §8-§15). A keyname a dialect does not have says so, which is what the
//! `tosca::keyname-not-in-version` diagnostic reports too.

use lsp_types::Position;

use super::check::Checked;
use super::context;
use super::lines::Lines;
use crate::ir::Dialect;
use crate::model::Model;
use crate::source::{FileId, Span};

/// (keyname, meaning, in Simple Profile 1.x, in TOSCA 2.0).
const MEANINGS: &[(&str, &str, bool, bool)] = &[
    (
        "tosca_definitions_version",
        "the version of the TOSCA specification the file is written in",
        true,
        true,
    ),
    (
        "description",
        "a description of the entity, for people",
        true,
        true,
    ),
    (
        "metadata",
        "a map of names to values about the entity, for tools; no meaning to TOSCA",
        true,
        true,
    ),
    (
        "imports",
        "the files (or, in TOSCA 2.0, profiles) whose definitions this file uses",
        true,
        true,
    ),
    (
        "profile",
        "the name of the profile this file's definitions make up, for other files to import",
        false,
        true,
    ),
    (
        "repositories",
        "named places artifacts and imports can be fetched from",
        true,
        true,
    ),
    (
        "dsl_definitions",
        "YAML anchors to reuse in the file; no meaning to TOSCA otherwise",
        true,
        true,
    ),
    (
        "namespace",
        "the namespace URI of the file's definitions",
        true,
        true,
    ),
    (
        "artifact_types",
        "the artifact types this file defines",
        true,
        true,
    ),
    ("data_types", "the data types this file defines", true, true),
    (
        "capability_types",
        "the capability types this file defines",
        true,
        true,
    ),
    (
        "interface_types",
        "the interface types this file defines",
        true,
        true,
    ),
    (
        "relationship_types",
        "the relationship types this file defines",
        true,
        true,
    ),
    ("node_types", "the node types this file defines", true, true),
    (
        "group_types",
        "the group types this file defines",
        true,
        true,
    ),
    (
        "policy_types",
        "the policy types this file defines",
        true,
        true,
    ),
    (
        "functions",
        "custom functions this file defines, called as `$name`",
        false,
        true,
    ),
    (
        "topology_template",
        "the service template: the inputs, node templates and the rest that make up one service",
        true,
        false,
    ),
    (
        "service_template",
        "the service template: the inputs, node templates and the rest that make up one service",
        false,
        true,
    ),
    (
        "inputs",
        "parameters given when the service is deployed, read with `get_input`",
        true,
        true,
    ),
    (
        "outputs",
        "values the service reports once deployed",
        true,
        true,
    ),
    (
        "node_templates",
        "the nodes of the service, each an instance of a node type",
        true,
        true,
    ),
    (
        "relationship_templates",
        "named relationships that requirements can use",
        true,
        true,
    ),
    ("groups", "named sets of node templates", true, true),
    (
        "policies",
        "rules applied to node templates or groups",
        true,
        true,
    ),
    (
        "workflows",
        "imperative workflows that deploy or manage the service",
        true,
        true,
    ),
    (
        "substitution_mappings",
        "how this service template stands in for a node of the given type in another",
        true,
        true,
    ),
    (
        "type",
        "the type of this entity: what it is, and which properties and requirements it has",
        true,
        true,
    ),
    (
        "derived_from",
        "the parent type, whose definitions this type inherits and may refine",
        true,
        true,
    ),
    ("version", "the version of this type", true, true),
    (
        "properties",
        "values that describe the entity, as its type defines them",
        true,
        true,
    ),
    (
        "attributes",
        "values the entity has at run time, as its type defines them",
        true,
        true,
    ),
    (
        "requirements",
        "what the entity needs from other nodes, each fulfilled by a relationship to a capability",
        true,
        true,
    ),
    (
        "capabilities",
        "what the entity offers to the requirements of other nodes",
        true,
        true,
    ),
    (
        "interfaces",
        "the operations (and, in TOSCA 2.0, notifications) that manage the entity",
        true,
        true,
    ),
    (
        "artifacts",
        "files the entity needs: images, scripts, packages",
        true,
        true,
    ),
    (
        "directives",
        "how the orchestrator is to treat the node template (`select`, `substitute`)",
        true,
        true,
    ),
    (
        "node_filter",
        "conditions that a node must meet to be selected or to fulfil a requirement",
        true,
        true,
    ),
    (
        "copy",
        "the name of another template whose definition this one starts from",
        true,
        true,
    ),
    (
        "count",
        "how many nodes this template stands for",
        false,
        true,
    ),
    (
        "node",
        "the node type or node template that fulfils the requirement",
        true,
        true,
    ),
    (
        "capability",
        "the capability type (or name) the requirement is fulfilled by",
        true,
        true,
    ),
    (
        "relationship",
        "the relationship type or template that connects the requirement to its target",
        true,
        true,
    ),
    (
        "occurrences",
        "how many times the requirement (or capability) may be used: [min, max]",
        true,
        true,
    ),
    (
        "count_range",
        "how many times the requirement may be fulfilled: [min, max]",
        false,
        true,
    ),
    (
        "valid_source_types",
        "the node types whose requirements may use this capability",
        true,
        true,
    ),
    (
        "valid_target_types",
        "the capability types this relationship may connect to",
        true,
        true,
    ),
    (
        "members",
        "the node templates (or node types) of the group",
        true,
        true,
    ),
    (
        "targets",
        "the node templates or groups the policy applies to",
        true,
        true,
    ),
    (
        "triggers",
        "events and conditions that make the policy act",
        true,
        true,
    ),
    ("required", "whether a value must be given", true, true),
    ("default", "the value when none is given", true, true),
    ("value", "the value of this parameter", true, true),
    (
        "status",
        "whether the definition is supported, experimental or deprecated",
        true,
        true,
    ),
    ("constraints", "conditions the value must meet", true, false),
    (
        "validation",
        "a condition, a boolean function call, the value must meet",
        false,
        true,
    ),
    (
        "entry_schema",
        "the type (and constraints) of each entry of a list or map",
        true,
        true,
    ),
    (
        "key_schema",
        "the type (and constraints) of each key of a map",
        true,
        true,
    ),
    (
        "file",
        "the file to import, relative to this file",
        true,
        false,
    ),
    (
        "url",
        "the file to import, relative to this file or a repository",
        false,
        true,
    ),
    (
        "repository",
        "the repository the file is fetched from",
        true,
        true,
    ),
    (
        "namespace_prefix",
        "a prefix for the imported file's names",
        true,
        false,
    ),
    (
        "namespace_uri",
        "the namespace of the imported file's names",
        true,
        false,
    ),
    (
        "node_type",
        "the node type this service template substitutes for",
        true,
        true,
    ),
    (
        "implementation",
        "the artifact that carries out the operation",
        true,
        true,
    ),
    ("operations", "the operations of the interface", true, true),
    (
        "notifications",
        "the notifications of the interface",
        true,
        true,
    ),
    (
        "mime_type",
        "the MIME type of the artifact's file",
        true,
        true,
    ),
    (
        "file_ext",
        "the file extensions of the artifact's files",
        true,
        true,
    ),
];

/// The meaning of the keyname at byte `at` of `file`, with the keyname's span.
pub fn hover(checked: &Checked, model: &Model, file: FileId, at: u32) -> Option<(String, Span)> {
    if model.dialect == Dialect::Xml {
        return None;
    }
    let text = &checked.sources.get(file).text;
    let lines = Lines::new(text);
    let position: Position = lines.position(at as usize);
    let line = lines.line(position.line);
    let line_start = lines.line_start(position.line);
    let column = at as usize - line_start;
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let start = line[..column.min(line.len())]
        .rfind(|c: char| !is_name(c))
        .map_or(0, |i| i + 1);
    let end = line[start..]
        .find(|c: char| !is_name(c))
        .map_or(line.len(), |i| start + i);
    let word = &line[start..end];
    if word.is_empty() || !line[end..].starts_with(':') {
        return None;
    }
    // A name the user chose (a node template called `type`) is no keyname.
    let path = context::at(text, Position::new(position.line, (start + 1) as u32)).path;
    let chosen = matches!(
        path.last().map(String::as_str),
        Some(
            "node_templates"
                | "relationship_templates"
                | "inputs"
                | "outputs"
                | "groups"
                | "policies"
                | "properties"
                | "attributes"
                | "capabilities"
                | "interfaces"
                | "artifacts"
                | "node_types"
                | "data_types"
                | "capability_types"
                | "relationship_types"
                | "interface_types"
                | "artifact_types"
                | "group_types"
                | "policy_types"
                | "requirements"
                | "repositories"
        )
    );
    if chosen {
        return None;
    }
    let &(_, meaning, in_1x, in_2) = MEANINGS.iter().find(|(k, ..)| *k == word)?;
    let (title, has) = match model.dialect {
        Dialect::Tosca2 => ("TOSCA 2.0", in_2),
        _ => ("the Simple Profile", in_1x),
    };
    let text = match has {
        true => format!("**`{word}`**: {meaning} ({title})"),
        false => format!("**`{word}`**: not a keyname of {title}; elsewhere: {meaning}"),
    };
    let span = checked.sources.get(file).span(
        file,
        (line_start + start) as u32,
        (line_start + end) as u32,
    );
    Some((text, span))
}
