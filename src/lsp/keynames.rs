//! Hover on a keyname: what it means, in one line, for the file's exact version (Simple
//! Profile 1.0, 1.1, 1.2, 1.3 or TOSCA 2.0; a TOSCA 1.0 XML file has elements, not keynames):
//! whether that version has the keyname where it is written is read from the grammar tables
//! the front end checks files against (`front::simple_grammar`, `front::tosca2`), so the hover
//! and the `tosca::keyname-not-in-version` diagnostic agree.
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
use crate::model::{Model, Revision};
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
    (
        "substitution_filter",
        "conditions on the node a substituting service template may stand in for",
        true,
        false,
    ),
    (
        "primary",
        "the artifact that carries out the operation",
        true,
        true,
    ),
    (
        "dependencies",
        "further artifacts the operation's primary artifact needs",
        true,
        true,
    ),
    (
        "timeout",
        "how long, in seconds, the operation may take",
        true,
        true,
    ),
    (
        "operation_host",
        "the node the operation runs on (`SELF`, `HOST`, `SOURCE`, `TARGET`, `ORCHESTRATOR`)",
        true,
        false,
    ),
    (
        "deploy_path",
        "where the artifact is placed on the node it is deployed to",
        true,
        false,
    ),
    (
        "artifact_version",
        "the version of the artifact's file",
        true,
        true,
    ),
    (
        "checksum",
        "the checksum of the artifact's file",
        true,
        true,
    ),
    (
        "checksum_algorithm",
        "the algorithm of the artifact's checksum",
        true,
        true,
    ),
];

/// Whether a keyname exists where it is written, in the file's exact version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// The version has it there.
    Has,
    /// It came with a later version (named).
    Later(Revision),
    /// No version has it there.
    Not,
}

/// The place of the key written under `path` in a file of `revision` (`Tosca2` for TOSCA
/// 2.0): `None` when the key is a name the author chose, else whether the version has it.
/// What the grammar tables do not describe (inside a free-form value) is judged by
/// [`MEANINGS`]' per-dialect columns.
pub fn presence(revision: Revision, path: &[&str], key: &str) -> Option<Presence> {
    let fallback = || {
        let (_, _, in_1x, in_2) = MEANINGS.iter().find(|(k, ..)| *k == key)?;
        let has = match revision {
            Revision::Tosca2 => *in_2,
            _ => *in_1x,
        };
        Some(if has { Presence::Has } else { Presence::Not })
    };
    if revision == Revision::Tosca2 {
        use crate::front::tosca2::{Place, has_keyname};
        return match crate::front::tosca2::place(path) {
            Place::Name => None,
            Place::Keyname(entity) if has_keyname(entity, key) => Some(Presence::Has),
            Place::Keyname(_) => Some(Presence::Not),
            Place::Unknown => fallback(),
        };
    }
    use crate::front::simple_grammar::{E, Place, place, since};
    let place = match path {
        ["imports", ..] => Place::Keyname(E::Import),
        _ => place(path),
    };
    match place {
        Place::Name => None,
        Place::Keyname(entity) => match since(entity, key) {
            Some(first) if first <= revision => Some(Presence::Has),
            Some(first) => Some(Presence::Later(first)),
            None => fallback(),
        },
        Place::Unknown => fallback(),
    }
}

/// The revision of the model's entry file (`Tosca2` for TOSCA 2.0 and Variability4TOSCA's
/// 2.0 files; the newest Simple Profile for a 1.x dialect that names none).
pub fn revision(model: &Model) -> Revision {
    match model.dialect {
        Dialect::Tosca2 => Revision::Tosca2,
        _ => Revision::of(&model.version).unwrap_or(Revision::V1_3),
    }
}

/// The meaning of the keyname at byte `at` of `file`, with the keyname's span, for the file's
/// exact version: "in Simple Profile 1.1", or that the version lacks it and which one has it.
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
    let path = context::at(text, Position::new(position.line, (start + 1) as u32)).path;
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let revision = revision(model);
    // A name the author chose (a node template called `type`) is no keyname.
    let presence = presence(revision, &path, word)?;
    let &(_, meaning, ..) = MEANINGS.iter().find(|(k, ..)| *k == word)?;
    let title = revision.title();
    let text = match presence {
        Presence::Has => format!("**`{word}`**: {meaning} ({title})"),
        Presence::Later(first) => format!(
            "**`{word}`**: not a keyname here in {title}; {} has it: {meaning}",
            first.title()
        ),
        Presence::Not => {
            format!("**`{word}`**: not a keyname here in {title}; elsewhere: {meaning}")
        }
    };
    let span = checked.sources.get(file).span(
        file,
        (line_start + start) as u32,
        (line_start + end) as u32,
    );
    Some((text, span))
}
