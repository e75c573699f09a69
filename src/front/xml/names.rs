//! QNames and the symbol table: which definition a `prefix:local` names, and the YAML type
//! name it becomes.
//!
//! Naming rule: a TOSCA 1.0 XML definition `{namespace}local` is named `{namespace}local` in
//! the translated template (James Clark's notation), so names from different namespaces
//! never collide and every name says where it came from. One exception: a name of the
//! OASIS base types namespace (`…/ToscaBaseTypes`) that no file read defines stands for the
//! Simple Profile's normative type of the same meaning (`HostedOn` → `tosca.relationships.HostedOn`).

use std::collections::HashMap;

use roxmltree::{Node as X, NodeId};

use super::doc::{BASE_TYPES_NS, Doc, attr};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::Span;

/// The kinds of top-level TOSCA 1.0 definitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum XKind {
    NodeType,
    NodeTypeImplementation,
    RelationshipType,
    RelationshipTypeImplementation,
    RequirementType,
    CapabilityType,
    ArtifactType,
    ArtifactTemplate,
    PolicyType,
    PolicyTemplate,
    ServiceTemplate,
}

impl XKind {
    pub fn of(element: &str) -> Option<XKind> {
        Some(match element {
            "NodeType" => XKind::NodeType,
            "NodeTypeImplementation" => XKind::NodeTypeImplementation,
            "RelationshipType" => XKind::RelationshipType,
            "RelationshipTypeImplementation" => XKind::RelationshipTypeImplementation,
            "RequirementType" => XKind::RequirementType,
            "CapabilityType" => XKind::CapabilityType,
            "ArtifactType" => XKind::ArtifactType,
            "ArtifactTemplate" => XKind::ArtifactTemplate,
            "PolicyType" => XKind::PolicyType,
            "PolicyTemplate" => XKind::PolicyTemplate,
            "ServiceTemplate" => XKind::ServiceTemplate,
            _ => return None,
        })
    }

    pub fn element(self) -> &'static str {
        match self {
            XKind::NodeType => "NodeType",
            XKind::NodeTypeImplementation => "NodeTypeImplementation",
            XKind::RelationshipType => "RelationshipType",
            XKind::RelationshipTypeImplementation => "RelationshipTypeImplementation",
            XKind::RequirementType => "RequirementType",
            XKind::CapabilityType => "CapabilityType",
            XKind::ArtifactType => "ArtifactType",
            XKind::ArtifactTemplate => "ArtifactTemplate",
            XKind::PolicyType => "PolicyType",
            XKind::PolicyTemplate => "PolicyTemplate",
            XKind::ServiceTemplate => "ServiceTemplate",
        }
    }

    /// Templates are named by `id`, types and implementations by `name`.
    pub fn name_attr(self) -> &'static str {
        match self {
            XKind::ArtifactTemplate | XKind::PolicyTemplate | XKind::ServiceTemplate => "id",
            _ => "name",
        }
    }

    /// The normative root a translated type of this kind derives from when it names no parent.
    pub fn yaml_root(self) -> Option<&'static str> {
        Some(match self {
            XKind::NodeType => "tosca.nodes.Root",
            XKind::RelationshipType => "tosca.relationships.Root",
            XKind::CapabilityType => "tosca.capabilities.Root",
            XKind::ArtifactType => "tosca.artifacts.Root",
            XKind::PolicyType => "tosca.policies.Root",
            _ => return None,
        })
    }
}

/// A QName as resolved against the in-scope namespace declarations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QName {
    pub ns: String,
    pub local: String,
    /// Whether it was written without a prefix (so X1-NS-05's fallback applies).
    pub unprefixed: bool,
}

impl QName {
    pub fn clark(&self) -> String {
        clark(&self.ns, &self.local)
    }
}

pub fn clark(ns: &str, local: &str) -> String {
    if ns.is_empty() {
        local.to_string()
    } else {
        format!("{{{ns}}}{local}")
    }
}

/// Where a definition is: document index and element.
#[derive(Debug, Clone, Copy)]
pub struct Def {
    pub doc: usize,
    pub node: NodeId,
}

/// Every definition read, by kind and expanded name.
#[derive(Default)]
pub struct Symbols {
    pub defs: HashMap<(XKind, String, String), Def>,
    /// Expanded name → the kinds defined under it, for "names a X, not a Y" messages.
    pub kinds: HashMap<(String, String), Vec<XKind>>,
    /// Global XSD element declarations and complex types: (namespace, name) → where.
    pub xsd_elements: HashMap<(String, String), Def>,
    pub xsd_types: HashMap<(String, String), Def>,
}

/// Reads the QName in attribute `name` of `n`, resolving its prefix with the declarations in
/// scope at `n`. An undeclared prefix is an error.
pub fn qname(d: &Doc, n: X, name: &str, diags: &mut Diagnostics) -> Option<(QName, Span)> {
    let value = attr(n, name)?;
    let span = d.at(n, name);
    read_qname(d, n, value, span, name, diags).map(|q| (q, span))
}

pub fn read_qname(
    _d: &Doc,
    n: X,
    value: &str,
    span: Span,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<QName> {
    match parse_qname(n, value) {
        Ok(q) => Some(q),
        Err(problem) => {
            diags.push(problem.diagnostic(value, span, what));
            None
        }
    }
}

/// Why a QName does not read.
pub enum QNameProblem<'v> {
    /// Not `prefix:Name` or `Name` with both parts NCNames.
    Malformed,
    /// The prefix is declared on neither the element nor an ancestor.
    Undeclared(&'v str),
}

impl QNameProblem<'_> {
    /// The error, for the QName `value` in attribute `what`, written at `span`.
    fn diagnostic(&self, value: &str, span: Span, what: &str) -> Diagnostic {
        match self {
            QNameProblem::Malformed => Diagnostic::error(
                codes::XML_SCHEMA,
                format!("`{what}=\"{value}\"` is not a QName"),
            )
            .at(span)
            .hint("write `prefix:Name` with a prefix declared by `xmlns:prefix=\"namespace\"`"),
            QNameProblem::Undeclared(p) => Diagnostic::error(
                codes::XML_QNAME,
                format!("the prefix `{p}` of `{value}` is not declared"),
            )
            .at(span)
            .hint(format!(
                "declare it on this element or an ancestor: xmlns:{p}=\"NAMESPACE-URI\""
            )),
        }
    }
}

/// The QName `value`, its prefix resolved with the declarations in scope at `n`, without
/// reporting: [`read_qname`] is the reading that reports.
pub fn parse_qname<'v>(n: X, value: &'v str) -> Result<QName, QNameProblem<'v>> {
    let (prefix, local) = match value.split_once(':') {
        Some((p, l)) => (Some(p), l),
        None => (None, value),
    };
    if local.is_empty()
        || value.contains(char::is_whitespace)
        || prefix.is_some_and(|p| !super::doc::is_ncname(p))
        || !super::doc::is_ncname(local)
    {
        return Err(QNameProblem::Malformed);
    }
    let ns = match prefix {
        Some(p) => match n.lookup_namespace_uri(Some(p)) {
            Some(ns) => ns.to_string(),
            None => return Err(QNameProblem::Undeclared(p)),
        },
        None => n.lookup_namespace_uri(None).unwrap_or("").to_string(),
    };
    Ok(QName {
        ns,
        local: local.to_string(),
        unprefixed: prefix.is_none(),
    })
}

/// Where Winery writes the Simple Profile's normative types as XML (`…/nodetypes`,
/// `…/capabilitytypes`, …; REAL:r015): `{…/nodetypes}Compute` is `tosca.nodes.Compute`.
pub const SIMPLE_PROFILE_NS: &str = "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0/";

/// The normative Simple Profile type a name stands for, when no file defines it: a name of the
/// OASIS base types namespace with a normative counterpart, or a name in the Simple Profile
/// namespaces.
pub fn base_type(kind: XKind, q: &QName) -> Option<String> {
    if let Some(rest) = q.ns.strip_prefix(SIMPLE_PROFILE_NS) {
        let prefix = match (kind, rest) {
            (XKind::NodeType, "nodetypes") => "tosca.nodes.",
            (XKind::CapabilityType, "capabilitytypes") => "tosca.capabilities.",
            (XKind::RelationshipType, "relationshiptypes") => "tosca.relationships.",
            (XKind::ArtifactType, "artifacttypes") => "tosca.artifacts.",
            (XKind::PolicyType, "policytypes") => "tosca.policies.",
            _ => return None,
        };
        return Some(format!("{prefix}{}", q.local));
    }
    if q.ns != BASE_TYPES_NS {
        return None;
    }
    let normative = match (kind, q.local.as_str()) {
        (XKind::RelationshipType, "HostedOn") => "tosca.relationships.HostedOn",
        (XKind::RelationshipType, "DependsOn") => "tosca.relationships.DependsOn",
        (XKind::RelationshipType, "ConnectsTo") => "tosca.relationships.ConnectsTo",
        (XKind::NodeType, "Root") => "tosca.nodes.Root",
        (XKind::ArtifactType, "ScriptArtifact") => "tosca.artifacts.Implementation",
        (XKind::ArtifactType, "ArchiveArtifact") => "tosca.artifacts.Deployment",
        (XKind::ArtifactType, "WAR") => "tosca.artifacts.Deployment",
        (XKind::CapabilityType, "Root") => "tosca.capabilities.Root",
        _ => return None,
    };
    Some(normative.to_string())
}

/// The normative parent a defined ToscaBaseTypes type is given when it names none.
pub fn base_parent(kind: XKind, ns: &str, local: &str) -> Option<String> {
    base_type(
        kind,
        &QName {
            ns: ns.to_string(),
            local: local.to_string(),
            unprefixed: false,
        },
    )
}
