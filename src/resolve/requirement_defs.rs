//! TOSCA 2.0 requirement definitions in node types (§8.4 Requirement Definition; checklist
//! T2-REQDEF), judged once the types are known, for every node type read, used or not:
//!
//! - `capability` names a capability type, or, with `node`, a capability of that node type
//!   (a symbolic name, §8.4 Requirement Definition); with `node` and a capability type, the node
//!   type has a capability of that type (§8.4.1 Requirement Refinement);
//! - the relationship type admits what the definition connects: its
//!   `valid_capability_types`, `valid_target_node_types` and `valid_source_node_types`
//!   (the spec's ex-045 is the example of this error);
//! - a definition that refines an inherited one of the same name narrows it (§8.4.1 Requirement
//!   Refinement): the capability type, node type and relationship type derive from the inherited
//!   ones, a symbolic capability stays as it is, and `count_range` lies within the inherited range.

use super::occurrences::{Bounds, bounds};
use super::selection::admits;
use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, TypeNames, type_matches};
use crate::model::{Model, TypeDef, TypeKind};
use crate::source::Span;
use crate::yaml::{Map, Node};

/// One requirement definition as written in one node type.
struct Written<'m> {
    capability: Option<&'m Node>,
    node: Option<&'m Node>,
    relationship: Option<&'m Node>,
    count_range: Option<&'m Node>,
}

impl<'m> Written<'m> {
    fn read(body: &'m Node) -> Self {
        let map = body.as_map();
        Written {
            capability: match body.as_str() {
                Some(_) => Some(body),
                None => map.and_then(|m| m.get("capability")),
            },
            node: map.and_then(|m| m.get("node")),
            relationship: map.and_then(|m| m.get("relationship")).and_then(|r| {
                r.as_str()
                    .map(|_| r)
                    .or_else(|| r.as_map().and_then(|m| m.get("type")))
            }),
            count_range: map.and_then(|m| m.get("count_range")),
        }
    }
}

/// A requirement definition named `name` in one type's own `requirements`.
fn own<'m>(def: &'m TypeDef, name: &str) -> Option<(&'m Node, &'m Node)> {
    def.def
        .as_map()?
        .get("requirements")?
        .as_seq()?
        .iter()
        .filter_map(Node::as_map)
        .find_map(|m| m.entry(name).map(|e| (&e.key, &e.value)))
}

/// Checks that the type lists of 1.x types name types ([`check_simple_type_lists`]), the
/// capability definitions of every node type ([`super::capability_defs`], in every dialect that
/// has them), then the requirement definitions of every TOSCA 2.0 node type, the
/// other half of what a node type declares it connects.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    check_simple_type_lists(model, ancestry, diags);
    super::capability_defs::check(model, ancestry, diags);
    if model.dialect != Dialect::Tosca2 {
        return;
    }
    let mut checker = Checker {
        model,
        ancestry,
        diags,
    };
    for ((kind, name), def) in &model.types {
        if *kind == TypeKind::Node {
            checker.node_type(name, def);
        }
    }
}

struct Checker<'a, 'm> {
    model: &'m Model,
    ancestry: &'a mut Ancestry,
    diags: &'a mut Diagnostics,
}

impl<'m> Checker<'_, 'm> {
    /// The ancestry of the type `name` written at `at` (read in that file's namespaces);
    /// empty when it names no type (reported where types are read).
    fn types(&mut self, kind: TypeKind, name: &str, at: Span) -> TypeNames {
        let Some(id) = self.ancestry.full_name(self.model, kind, name, at.file) else {
            return TypeNames::default();
        };
        self.ancestry.chain(self.model, kind, &id)
    }

    /// The requirement definitions of the node type whose identity is `name`.
    fn node_type(&mut self, name: &str, def: &'m TypeDef) {
        let chain = self.ancestry.chain(self.model, TypeKind::Node, name);
        let defs = definitions(self.model, TypeKind::Node, &chain);
        if !super::nodes::defs_complete(self.model, &defs) {
            return;
        }
        let Some(list) = def
            .def
            .as_map()
            .and_then(|m| m.get("requirements"))
            .and_then(Node::as_seq)
        else {
            return;
        };
        for item in list {
            let Some([entry]) = item.as_map().map(Map::entries) else {
                continue;
            };
            let Some(requirement) = entry.key.scalar_text() else {
                continue;
            };
            let written = Written::read(&entry.value);
            let capability = self.capability(&written, requirement);
            self.relationship_admits(name, &chain, &written, capability.as_ref(), requirement);
            let parent = defs
                .iter()
                .skip(1)
                .find_map(|d| own(d, requirement).map(|(_, body)| body));
            if let Some(parent) = parent {
                self.refines(
                    &written,
                    &Written::read(parent),
                    requirement,
                    entry.key.span,
                );
            }
        }
    }

    /// The ancestry of the capability type `capability` asks for: the type it names, or (with
    /// `node`) the type of the capability of that node type it names. Reports a name that is
    /// neither, and a node type without a capability of the named type.
    fn capability(&mut self, w: &Written, requirement: &str) -> Option<TypeNames> {
        let cap = w.capability?;
        let cap_name = cap.as_str()?;
        let node = w.node.and_then(|n| n.as_str().map(|s| (s, n.span)));
        let node_caps = match node {
            Some((n, at)) => {
                let types = self.types(TypeKind::Node, n, at);
                let defs = definitions(self.model, TypeKind::Node, &types);
                if !super::nodes::defs_complete(self.model, &defs) {
                    return None;
                }
                Some(self.capabilities_of(&defs))
            }
            None => None,
        };
        if let Some((_, types)) = node_caps
            .as_ref()
            .and_then(|caps| caps.iter().find(|(c, _)| c == cap_name))
        {
            return Some(types.clone());
        }
        let cap_types = self.types(TypeKind::Capability, cap_name, cap.span);
        if cap_types.is_empty() {
            if self.model.incomplete_types {
                return None;
            }
            let (message, hint) = match node {
                Some((n, _)) => (
                    format!(
                        "requirement `{requirement}` names capability `{cap_name}`, which is neither a capability type nor a capability of node type `{n}`"
                    ),
                    "name a capability type, or a capability the `node` type defines (§8.4 Requirement Definition)".to_string(),
                ),
                None => (
                    format!(
                        "requirement `{requirement}` names capability `{cap_name}`, which is not a capability type"
                    ),
                    "name a capability type; a capability's symbolic name needs `node`, the node type that defines it (§8.4 Requirement Definition)".to_string(),
                ),
            };
            self.diags.push(
                Diagnostic::error(codes::TOSCA_UNKNOWN_TYPE, message)
                    .at(cap.span)
                    .hint(hint),
            );
            return None;
        }
        if let (Some((n, at)), Some(caps)) = (node, &node_caps) {
            let full = cap_types[0].clone();
            if !caps.iter().any(|(_, types)| type_matches(types, &full)) {
                self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{requirement}` asks for a `{n}` with a capability of type `{cap_name}`, and `{n}` has none"
                        ),
                    )
                    .at(at)
                    .hint("name a node type that has a capability of that type, or a capability it has (§8.4.1 Requirement Refinement)"),
                );
            }
        }
        Some(cap_types)
    }

    /// Every capability of a node type chain with its type's ancestry.
    fn capabilities_of(&mut self, defs: &[&'m TypeDef]) -> Vec<(String, TypeNames)> {
        let mut out: Vec<(String, TypeNames)> = Vec::new();
        for def in defs {
            let Some(caps) = def
                .def
                .as_map()
                .and_then(|m| m.get("capabilities"))
                .and_then(Node::as_map)
            else {
                continue;
            };
            for entry in caps.entries() {
                let Some(name) = entry.key.scalar_text() else {
                    continue;
                };
                if out.iter().any(|(n, _)| n == name) {
                    continue;
                }
                let type_node = match entry.value.as_str() {
                    Some(_) => Some(&entry.value),
                    None => entry.value.as_map().and_then(|m| m.get("type")),
                };
                let Some(t) = type_node else { continue };
                let types =
                    self.types(TypeKind::Capability, t.as_str().unwrap_or_default(), t.span);
                out.push((name.to_string(), types));
            }
        }
        out
    }

    /// The relationship type's `valid_*` lists against what the definition connects (T2-REQDEF-08).
    fn relationship_admits(
        &mut self,
        declaring: &str,
        declaring_types: &[String],
        w: &Written,
        capability: Option<&TypeNames>,
        requirement: &str,
    ) {
        let Some(rel) = w.relationship.and_then(|r| r.as_str().map(|s| (s, r.span))) else {
            return;
        };
        let rel_types = self.types(TypeKind::Relationship, rel.0, rel.1);
        let defs = definitions(self.model, TypeKind::Relationship, &rel_types);
        let mut list = |key: &str, kind: TypeKind| {
            super::selection::listed_types(self.ancestry, self.model, &defs, key, kind)
        };
        let valid_caps = list("valid_capability_types", TypeKind::Capability);
        let valid_targets = list("valid_target_node_types", TypeKind::Node);
        let valid_sources = list("valid_source_node_types", TypeKind::Node);
        let cap_types = capability.cloned().unwrap_or_default();
        let node = w.node.and_then(|n| n.as_str().map(|s| (s, n.span)));
        let node_types = match node {
            Some((n, at)) => self.types(TypeKind::Node, n, at),
            None => TypeNames::default(),
        };
        let mut problem = |what: &str, have: &str, valid: &[String], at: Span| {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!(
                        "requirement `{requirement}` of `{declaring}` uses relationship type `{}`, whose {what} are {}, not `{have}`",
                        rel.0,
                        valid.join(", ")
                    ),
                )
                .at(at)
                .hint("use a relationship type that admits it, or change what the requirement connects (§7.3 Relationship Type)"),
            );
        };
        if !cap_types.is_empty()
            && !admits(&valid_caps, &cap_types)
            && let Some(cap) = w.capability
        {
            problem(
                "valid capability types",
                &cap_types[0],
                &valid_caps,
                cap.span,
            );
        }
        if let Some(node) = node
            && !node_types.is_empty()
            && !admits(&valid_targets, &node_types)
        {
            problem("valid target node types", node.0, &valid_targets, node.1);
        }
        if !declaring_types.is_empty() && !admits(&valid_sources, declaring_types) {
            problem("valid source node types", declaring, &valid_sources, rel.1);
        }
    }

    /// A refinement against the inherited definition (T2-REQDEF-07).
    fn refines(&mut self, w: &Written, parent: &Written, requirement: &str, at: Span) {
        let narrower = |me: &mut Self,
                        kind: TypeKind,
                        what: &str,
                        mine: Option<&Node>,
                        theirs: Option<&Node>| {
            let (Some(mine), Some(theirs)) = (mine, theirs) else {
                return;
            };
            let (Some(m), Some(t)) = (mine.as_str(), theirs.as_str()) else {
                return;
            };
            let my_types = me.types(kind, m, mine.span);
            let Some(their_full) = me.ancestry.full_name(me.model, kind, t, theirs.span.file)
            else {
                return;
            };
            if !my_types.is_empty() && !type_matches(&my_types, &their_full) {
                me.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{requirement}` refines the inherited definition with {what} `{m}`, which does not derive from `{t}`"
                        ),
                    )
                    .at(mine.span)
                    .hint(format!("a refinement may only narrow: name `{t}` or a type derived from it (§8.4.1 Requirement Refinement)")),
                );
            }
        };
        narrower(self, TypeKind::Node, "node type", w.node, parent.node);
        narrower(
            self,
            TypeKind::Relationship,
            "relationship type",
            w.relationship,
            parent.relationship,
        );
        // A symbolic capability stays as it is; a capability type narrows.
        if let (Some(mine), Some(theirs)) = (w.capability, parent.capability) {
            let symbolic = |me: &mut Self, c: &Node| {
                c.as_str().is_some_and(|s| {
                    me.ancestry
                        .full_name(me.model, TypeKind::Capability, s, c.span.file)
                        .is_none()
                })
            };
            if symbolic(self, theirs) {
                if mine.as_str() != theirs.as_str() {
                    self.diags.push(
                        Diagnostic::error(
                            codes::TOSCA_TYPE_MISMATCH,
                            format!(
                                "requirement `{requirement}` changes the inherited capability `{}` to `{}`",
                                theirs.as_str().unwrap_or_default(),
                                mine.as_str().unwrap_or_default()
                            ),
                        )
                        .at(mine.span)
                        .hint("a capability named symbolically stays unchanged in every refinement (§8.4.1 Requirement Refinement)"),
                    );
                }
            } else {
                narrower(
                    self,
                    TypeKind::Capability,
                    "capability type",
                    Some(mine),
                    Some(theirs),
                );
            }
        }
        if let (Some(mine), Some(theirs)) = (
            w.count_range.and_then(bounds),
            parent
                .count_range
                .and_then(bounds)
                .or(Some(Bounds { min: 0, max: None })),
        ) {
            let within = mine.min >= theirs.min
                && match (mine.max, theirs.max) {
                    (_, None) => true,
                    (Some(m), Some(t)) => m <= t,
                    (None, Some(_)) => false,
                };
            if !within {
                self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_TYPE_MISMATCH,
                        format!(
                            "requirement `{requirement}` refines the inherited `count_range` {} with {}, which is not within it",
                            theirs.show(),
                            mine.show()
                        ),
                    )
                    .at(w.count_range.map_or(at, |c| c.span))
                    .hint("a refined count_range must lie within the inherited one (§8.4.1 Requirement Refinement)"),
                );
            }
        }
    }
}

/// The type lists of Simple Profile 1.x types name types of the kind they list, defined or
/// normative: a capability type's `valid_source_types` (and a node type's capability
/// definition's) name node types ("an optional list of one or more valid names of Node Types",
/// A.6.6.1 Capability Type keynames, A.6.1.1 Capability definition keynames), and a
/// relationship type's `valid_target_types` name capability types ("a list of one or more names
/// of Capability Types that are valid targets", A.6.9.1 Relationship Type keynames). A name that
/// resolves to nothing is reported where it is written, as an unknown `derived_from` is, rather
/// than read as a list that no template can ever meet (SP-ERR-33).
///
/// TOSCA 2.0's lists are checked by [`super::tosca2_types`]; a model whose types were taken on
/// trust ([`crate::model::Model::incomplete_types`]) is not judged.
///
/// Checks the type lists of every type the model read.
fn check_simple_type_lists(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    if !matches!(model.dialect, Dialect::SimpleProfile | Dialect::Variability)
        || model.incomplete_types
    {
        return;
    }
    for ((kind, _), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        match kind {
            TypeKind::Capability => type_list(
                model,
                ancestry,
                map,
                "valid_source_types",
                TypeKind::Node,
                diags,
            ),
            TypeKind::Relationship => type_list(
                model,
                ancestry,
                map,
                "valid_target_types",
                TypeKind::Capability,
                diags,
            ),
            TypeKind::Node => {
                let capabilities = map.get("capabilities").and_then(Node::as_map);
                for entry in capabilities.map_or(&[][..], Map::entries) {
                    if let Some(capability) = entry.value.as_map() {
                        type_list(
                            model,
                            ancestry,
                            capability,
                            "valid_source_types",
                            TypeKind::Node,
                            diags,
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

/// Resolves each name of `map`'s list `key` as a type of kind `of`, reporting those that are
/// none.
fn type_list(
    model: &Model,
    ancestry: &mut Ancestry,
    map: &Map,
    key: &str,
    of: TypeKind,
    diags: &mut Diagnostics,
) {
    let Some(items) = map.get(key).and_then(Node::as_seq) else {
        return;
    };
    for item in items {
        if let Some(name) = item.as_str() {
            ancestry.of(model, of, name, item.span, diags);
        }
    }
}

/// The type names a type writes inside its own definitions, checked for every type read, used
/// or not: a capability definition's `type` and type lists, a requirement definition's `node`,
/// `relationship` (and, in the Simple Profile, `capability`), an interface definition's `type`
/// and an artifact definition's `type`; in the Simple Profile also a group type's `members` and
/// a policy type's `targets`.
///
/// Each of these keynames names a type of one kind: "The mandatory name of the capability type
/// on which this capability definition is based" (§8.2 Capability Definition), "The optional
/// keyname used to provide the name of a valid node type that contains the capability definition
/// that can be used to fulfill the requirement" and the relationship's "name of the relationship
/// type used for the relationship" (§8.4 Requirement Definition), "The mandatory name of the
/// interface type on which this interface definition is based" (§11.2 Interface Definition),
/// "The mandatory artifact type for the artifact definition" (§12.2 Artifact Definition); the
/// Simple Profile's tables say the same (A.6.1 Capability definition, A.6.2 Requirement
/// definition, A.5.12 Interface definition, A.5.5 Artifact definition). A type no template uses
/// is a type all the same (a profile is mostly such types), so a name that is no type is an
/// error where it is written, not only once a template happens to use the type that writes it.
/// A file of types that names types only its siblings define (and does not import) is
/// incomplete when read alone.
///
/// The template builder reads the same names for the types templates use, and reports an unknown
/// one there; this check runs after it and adds only what was not reported already, so each
/// fact is reported once. A capability name in a TOSCA 2.0 requirement definition may be a
/// capability's symbolic name, and is judged by [`check`].
///
/// Reports into `diags` what it does not already hold.
pub fn check_type_references(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    let mut found = Diagnostics::new();
    let mut checker = Names {
        model,
        ancestry,
        found: &mut found,
    };
    for ((kind, _), def) in &model.types {
        let Some(map) = def.def.as_map() else {
            continue;
        };
        if *kind == TypeKind::Node {
            checker.capabilities(map);
            checker.requirements(map);
            checker.artifacts(map);
        }
        if matches!(
            kind,
            TypeKind::Node | TypeKind::Relationship | TypeKind::Group
        ) {
            checker.interfaces(map);
        }
        if model.dialect != Dialect::Tosca2 {
            match kind {
                TypeKind::Group => checker.listed(TypeKind::Node, map.get("members")),
                TypeKind::Policy => checker.policy_targets(map.get("targets")),
                _ => {}
            }
        }
    }
    // Before this check these names went unread; the OASIS community profiles rely on that
    // (see `Quirk::OasisProfiles`).
    let excused = found
        .iter()
        .map(|d| d.clone().excused_by(crate::quirk::Quirk::OasisProfiles));
    diags.extend_unseen(excused);
}

struct Names<'a, 'm> {
    model: &'m Model,
    ancestry: &'a mut Ancestry,
    found: &'a mut Diagnostics,
}

impl Names<'_, '_> {
    /// `node`, where it is a string, names a type of `kind`.
    fn named(&mut self, kind: TypeKind, node: &Node) {
        if let Some(name) = node.as_str() {
            self.ancestry
                .of(self.model, kind, name, node.span, self.found);
        }
    }

    /// Each string of the list `node` names a type of `kind`.
    fn listed(&mut self, kind: TypeKind, node: Option<&Node>) {
        for item in node.and_then(Node::as_seq).unwrap_or_default() {
            self.named(kind, item);
        }
    }

    /// Capability definitions: the short form is the type's name (§8.2 Capability Definition).
    fn capabilities(&mut self, map: &Map) {
        let Some(defs) = map.get("capabilities").and_then(Node::as_map) else {
            return;
        };
        for entry in defs.entries() {
            let body = &entry.value;
            if body.as_str().is_some() {
                self.named(TypeKind::Capability, body);
                continue;
            }
            let Some(body) = body.as_map() else { continue };
            if let Some(t) = body.get("type") {
                self.named(TypeKind::Capability, t);
            }
            let sources = match self.model.dialect {
                Dialect::Tosca2 => "valid_source_node_types",
                _ => "valid_source_types",
            };
            self.listed(TypeKind::Node, body.get(sources));
            if self.model.dialect == Dialect::Tosca2 {
                self.listed(TypeKind::Relationship, body.get("valid_relationship_types"));
            }
        }
    }

    /// Requirement definitions: a list of one-entry maps (§8.4 Requirement Definition).
    fn requirements(&mut self, map: &Map) {
        let items = map.get("requirements").and_then(Node::as_seq);
        for item in items.unwrap_or_default() {
            for entry in item.as_map().map_or(&[][..], Map::entries) {
                let Some(body) = entry.value.as_map() else {
                    // The short form names a capability; a TOSCA 2.0 one may be symbolic.
                    if self.model.dialect != Dialect::Tosca2 {
                        self.named(TypeKind::Capability, &entry.value);
                    }
                    continue;
                };
                if self.model.dialect != Dialect::Tosca2
                    && let Some(capability) = body.get("capability")
                {
                    self.named(TypeKind::Capability, capability);
                }
                if let Some(node) = body.get("node") {
                    self.named(TypeKind::Node, node);
                }
                match body.get("relationship") {
                    Some(r) if r.as_str().is_some() => self.named(TypeKind::Relationship, r),
                    Some(r) => {
                        if let Some(t) = r.as_map().and_then(|m| m.get("type")) {
                            self.named(TypeKind::Relationship, t);
                        }
                    }
                    None => {}
                }
            }
        }
    }

    /// Interface definitions; one without `type` refines an inherited one (§11.2 Interface
    /// Definition), whose type is already named.
    fn interfaces(&mut self, map: &Map) {
        let Some(defs) = map.get("interfaces").and_then(Node::as_map) else {
            return;
        };
        for entry in defs.entries() {
            if let Some(t) = entry.value.as_map().and_then(|m| m.get("type")) {
                self.named(TypeKind::Interface, t);
            }
        }
    }

    /// A 1.x policy type's `targets`, "an optional list of valid Node Types or Group Types the
    /// Policy Type can be applied to" (Simple Profile 1.3, 3.7.12 Policy Type): each names a
    /// node type or a group type. A 1.x group type's `members` name node types (3.7.11 Group
    /// Type), read by [`Self::listed`].
    fn policy_targets(&mut self, node: Option<&Node>) {
        for item in node.and_then(Node::as_seq).unwrap_or_default() {
            let Some(name) = item.as_str() else {
                continue;
            };
            let group = self
                .ancestry
                .full_name(self.model, TypeKind::Group, name, item.span.file);
            if group.is_none() {
                self.named(TypeKind::Node, item);
            }
        }
    }

    /// Artifact definitions; the short form names only a file, whose type its extension tells.
    fn artifacts(&mut self, map: &Map) {
        let Some(defs) = map.get("artifacts").and_then(Node::as_map) else {
            return;
        };
        for entry in defs.entries() {
            if let Some(t) = entry.value.as_map().and_then(|m| m.get("type")) {
                self.named(TypeKind::Artifact, t);
            }
        }
    }
}
