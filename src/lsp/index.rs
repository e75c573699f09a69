//! The names of one check and where each is written: every definition (types, node and
//! relationship templates, groups, policies, inputs, outputs) and every place that refers to
//! one (a `type:`, a `derived_from`, a requirement's target, a `get_input`, an import), plus the
//! property, attribute, requirement and capability names assigned in templates, for hover.
//!
//! This is the one module that knows where the language server's knowledge comes from: today
//! the front end's [`Model`] (definitions and templates by name, with spans, for every dialect
//! including TOSCA 1.0 XML), with type names read through the resolver's [`Ancestry`] so a
//! shorthand or a TOSCA 2.0 namespaced name means in the editor what it means to `check`.
//! The features (hover, definition, completion, ...) ask this index and never the model's
//! layout, so the index can move to a richer model without them changing.

use std::collections::HashMap;

use crate::model::definitions::Body;
use crate::model::substitution::{SubstitutionMappings, Target as MappedTarget};
use crate::model::tree::{Pair, Shape as TreeShape, Tree};
use crate::model::value::{Value, ValueMap};
use crate::model::{Dialect, Model, Named, TypeKind, call};
use crate::resolve::Ancestry;
use crate::source::{FileId, Origin, SourceMap, Span};
use crate::yaml::Node;

mod groupings;

/// The sections of a service template whose entries have names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    Input,
    Node,
    Relationship,
    Group,
    Policy,
    Output,
}

impl Section {
    /// The word used in hovers and outlines ("node template").
    pub fn noun(self) -> &'static str {
        match self {
            Section::Input => "input",
            Section::Node => "node template",
            Section::Relationship => "relationship template",
            Section::Group => "group",
            Section::Policy => "policy",
            Section::Output => "output",
        }
    }
}

/// What a name stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A type, by its identity (a key of [`Model::types`]).
    Type(TypeKind, String),
    /// A named entry of the entry file's service template.
    Template(Section, String),
    /// A file an import reads.
    File(FileId),
}

/// One place a name is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The name's text (without quotes).
    pub span: Span,
    pub target: Target,
    /// Whether this is where it is defined.
    pub definition: bool,
}

/// A property, attribute, requirement or capability named in a template or type: what its
/// owner's type says of it is the hover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub span: Span,
    /// The type whose definitions (along its ancestry) declare it.
    pub owner: (TypeKind, String),
    /// `properties`, `attributes`, `requirements` or `capabilities`.
    pub section: &'static str,
    pub name: String,
}

/// A function call written in a file of the check: hover says what it is and what it evaluates
/// to ([`super::evaluate`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    /// The whole call (`{ get_input: port }`).
    pub span: Span,
    /// The function called, with TOSCA 2.0's `$` (`get_input`, `$concat`; `$concat$1` is a call
    /// of `$concat`, §10.1 Function Syntax).
    pub function: String,
    /// The template of the service template the call is written in, if any.
    pub owner: Option<Owner>,
    /// The keys and list positions from the owner's definition to the call, when the call is a
    /// value there, not an argument of another call (`properties`, `port`).
    pub place: Option<Vec<Step>>,
}

/// A template of the service template, as the resolved topology names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    Node(String),
    Relationship(String),
    Group(String),
    Policy(String),
    Output(String),
}

/// One step from a definition down to a value in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Item(usize),
}

/// A [`Step`] that borrows its key from the YAML tree, while the walk looks for calls.
enum Borrowed<'n> {
    Key(&'n str),
    Item(usize),
}

/// The names of one check.
#[derive(Debug, Default)]
pub struct Index {
    /// Sorted by file, then start.
    occurrences: Vec<Occurrence>,
    members: Vec<Member>,
    calls: Vec<CallSite>,
    definitions: HashMap<Target, Span>,
}

/// The TOSCA functions whose first argument names a node or relationship template (1.x, and
/// 2.0 with `$`), unless it is one of [`SELF_WORDS`].
const TEMPLATE_FUNCTIONS: &[&str] = &[
    "get_property",
    "get_attribute",
    "get_artifact",
    "get_operation_output",
    "get_nodes_of_type",
];

/// The first arguments of [`TEMPLATE_FUNCTIONS`] that name the context, not a template.
const SELF_WORDS: &[&str] = &["SELF", "SOURCE", "TARGET", "HOST"];

impl Index {
    /// Indexes what `model` holds. Names in embedded profiles are definitions only (their own
    /// references are never edited); the files of the workspace are walked for references.
    pub fn build(model: Option<&Model>, sources: &SourceMap) -> Index {
        let mut index = Index::default();
        let Some(model) = model else {
            return index;
        };
        let mut walk = Walk {
            model,
            sources,
            ancestry: Ancestry::new(model),
            index: &mut index,
            owner: None,
        };
        walk.types();
        walk.topology();
        walk.imports();
        index.occurrences.sort_by(|a, b| {
            (a.span.file, a.span.start, a.span.end, &a.target)
                .cmp(&(b.span.file, b.span.start, b.span.end, &b.target))
                .then(b.definition.cmp(&a.definition))
        });
        // A name both defined and read at one place (an XML template the front end files twice)
        // is one occurrence, its definition.
        index
            .occurrences
            .dedup_by(|later, first| later.span == first.span && later.target == first.target);
        index
    }

    /// The occurrence whose text holds byte `at` of `file` (its end included, where a cursor
    /// after the last character is).
    pub fn occurrence_at(&self, file: FileId, at: u32) -> Option<&Occurrence> {
        let from = self.occurrences.partition_point(|o| o.span.file < file);
        self.occurrences[from..]
            .iter()
            .take_while(|o| o.span.file == file && o.span.start <= at)
            .filter(|o| at <= o.span.end)
            .last()
    }

    /// The member name whose text holds byte `at` of `file`.
    pub fn member_at(&self, file: FileId, at: u32) -> Option<&Member> {
        self.members
            .iter()
            .find(|m| m.span.file == file && m.span.start <= at && at <= m.span.end)
    }

    /// The innermost function call whose text holds byte `at` of `file`.
    pub fn call_at(&self, file: FileId, at: u32) -> Option<&CallSite> {
        self.calls
            .iter()
            .filter(|c| c.span.file == file && c.span.start <= at && at <= c.span.end)
            .min_by_key(|c| c.span.end - c.span.start)
    }

    /// Where `target` is defined.
    pub fn definition(&self, target: &Target) -> Option<Span> {
        self.definitions.get(target).copied()
    }

    /// Every occurrence of `target`, its definition included.
    pub fn occurrences_of<'a>(
        &'a self,
        target: &'a Target,
    ) -> impl Iterator<Item = &'a Occurrence> {
        self.occurrences.iter().filter(move |o| &o.target == target)
    }

    /// Every occurrence, by file and start.
    pub fn occurrences(&self) -> &[Occurrence] {
        &self.occurrences
    }

    /// Every definition, in no particular order.
    pub fn definitions(&self) -> impl Iterator<Item = (&Target, &Span)> {
        self.definitions.iter()
    }
}

/// The walk that fills an index.
struct Walk<'m> {
    model: &'m Model,
    sources: &'m SourceMap,
    ancestry: Ancestry,
    index: &'m mut Index,
    /// The template whose definition is walked, for the calls in it.
    owner: Option<Owner>,
}

mod typed;

impl Walk<'_> {
    fn in_workspace(&self, file: FileId) -> bool {
        !matches!(self.sources.get(file).origin, Origin::Builtin(_))
    }

    /// The span of a scalar's text, without the quotes of a quoted scalar.
    fn text_span(&self, mut span: Span) -> Span {
        let text = self.sources.get(span.file).text.as_bytes();
        let (start, end) = (span.start as usize, span.end as usize);
        if end > start + 1
            && end <= text.len()
            && matches!(text[start], b'"' | b'\'')
            && text[end - 1] == text[start]
        {
            span.start += 1;
            span.end -= 1;
            span.col += 1;
        }
        span
    }

    fn add<T: Tree>(&mut self, node: &T, target: Target, definition: bool) {
        self.add_at(node.span(), target, definition);
    }

    /// [`Self::add`] for the text at `span` (the model's typed fields keep spans, not nodes).
    fn add_at(&mut self, span: Span, target: Target, definition: bool) {
        let span = self.text_span(span);
        self.index.occurrences.push(Occurrence {
            span,
            target,
            definition,
        });
    }

    fn define(&mut self, span: Span, target: Target) {
        self.index.definitions.insert(target.clone(), span);
        if self.in_workspace(span.file) {
            self.index.occurrences.push(Occurrence {
                span,
                target,
                definition: true,
            });
        }
    }

    /// A name written where a type of `kind` is expected. A name the front end made up rather
    /// than read (TOSCA 1.0 XML's implicit `tosca.nodes.Root` parent, placed at the element)
    /// is no reference: its local name is not in the text its span covers.
    fn type_ref<T: Tree>(&mut self, kind: TypeKind, node: &T) {
        if let Some(name) = node.as_str() {
            self.type_ref_at(kind, name, node.span());
        }
    }

    /// [`Self::type_ref`] for a name and its span (the model's typed fields).
    fn type_ref_at(&mut self, kind: TypeKind, name: &str, span: Span) {
        let local = name.rsplit(['.', ':', '}', '/']).next().unwrap_or(name);
        if !self.sources.slice(span).contains(local) {
            return;
        }
        if let Some(id) = self.ancestry.full_name(self.model, kind, name, span.file) {
            self.add_at(span, Target::Type(kind, id), false);
        }
    }

    /// The template of `section` called `name`, if the service template has one.
    fn template(&self, section: Section, name: &str) -> Option<Target> {
        let target = Target::Template(section, name.to_string());
        self.index
            .definitions
            .contains_key(&target)
            .then_some(target)
    }

    /// A name written where a node template (or else a node type) is expected.
    fn node_ref<T: Tree>(&mut self, node: &T) {
        if let Some(name) = node.as_str() {
            self.node_ref_at(name, node.span());
        }
    }

    /// [`Self::node_ref`] for a name and its span (the model's typed fields).
    fn node_ref_at(&mut self, name: &str, span: Span) {
        match self.template(Section::Node, name) {
            Some(target) => self.add_at(span, target, false),
            None => self.type_ref_at(TypeKind::Node, name, span),
        }
    }

    // ----- types ------------------------------------------------------------------------

    fn types(&mut self) {
        let model = self.model;
        for ((kind, id), def) in &model.types {
            self.define(def.span, Target::Type(*kind, id.clone()));
        }
        for ((kind, id), def) in &model.types {
            if !self.in_workspace(def.span.file) {
                continue;
            }
            if let Some((parent, span)) = &def.derived_from {
                let parent_node = Node::string(parent, *span);
                self.type_ref(*kind, &parent_node);
            }
            self.type_body(*kind, id, &def.def);
        }
    }

    fn type_body(&mut self, kind: TypeKind, id: &str, def: &Node) {
        let Some(map) = def.as_map() else { return };
        let owner = (kind, id.to_string());
        for entry in map.entries() {
            let Some(key) = entry.key.as_str() else {
                continue;
            };
            let value = &entry.value;
            match key {
                "properties" | "attributes" => {
                    let section = match key {
                        "properties" => "properties",
                        _ => "attributes",
                    };
                    self.members_of(&owner, section, value);
                    self.each_value(value, |w, def| w.parameter(def));
                }
                "inputs" => self.each_value(value, |w, def| w.parameter(def)),
                "capabilities" => {
                    self.members_of(&owner, "capabilities", value);
                    self.each_value(value, |w, def| w.capability_def(def));
                }
                "requirements" => {
                    for (name, def) in named_entries(value) {
                        self.member(&owner, "requirements", name);
                        self.requirement_def(def);
                    }
                }
                "interfaces" => self.each_value(value, |w, def| {
                    w.keyed_type(TypeKind::Interface, def);
                }),
                "artifacts" => self.each_value(value, |w, def| {
                    w.keyed_type(TypeKind::Artifact, def);
                }),
                "valid_target_types" => self.each_item(value, TypeKind::Capability),
                "valid_source_types" => self.each_item(value, TypeKind::Node),
                "members" | "targets" => self.each_item(value, TypeKind::Node),
                _ => {}
            }
        }
    }

    /// `type`, `entry_schema` and `key_schema` of a property, attribute or parameter
    /// definition.
    fn parameter(&mut self, def: &Node) {
        let Some(map) = def.as_map() else { return };
        if let Some(t) = map.get("type") {
            self.type_ref(TypeKind::Data, t);
        }
        for schema in ["entry_schema", "key_schema"] {
            match map.get(schema) {
                Some(s) if s.as_str().is_some() => self.type_ref(TypeKind::Data, s),
                Some(s) => self.parameter(s),
                None => {}
            }
        }
        self.calls(def);
    }

    fn capability_def(&mut self, def: &Node) {
        if def.as_str().is_some() {
            return self.type_ref(TypeKind::Capability, def);
        }
        self.keyed_type(TypeKind::Capability, def);
        if let Some(sources) = def.as_map().and_then(|m| m.get("valid_source_types")) {
            self.each_item(sources, TypeKind::Node);
        }
    }

    fn requirement_def(&mut self, def: &Node) {
        if def.as_str().is_some() {
            return self.type_ref(TypeKind::Capability, def);
        }
        let Some(map) = def.as_map() else { return };
        if let Some(c) = map.get("capability") {
            self.type_ref(TypeKind::Capability, c);
        }
        if let Some(n) = map.get("node") {
            self.type_ref(TypeKind::Node, n);
        }
        match map.get("relationship") {
            Some(r) if r.as_str().is_some() => self.type_ref(TypeKind::Relationship, r),
            Some(r) => self.keyed_type(TypeKind::Relationship, r),
            None => {}
        }
    }

    /// The `type:` of a definition written as a map.
    fn keyed_type(&mut self, kind: TypeKind, def: &Node) {
        if let Some(t) = def.as_map().and_then(|m| m.get("type")) {
            self.type_ref(kind, t);
        }
    }

    fn each_value(&mut self, section: &Node, mut f: impl FnMut(&mut Self, &Node)) {
        if let Some(map) = section.as_map() {
            for entry in map.entries() {
                f(self, &entry.value);
            }
        }
    }

    fn each_item(&mut self, list: &Node, kind: TypeKind) {
        for item in list.as_seq().unwrap_or_default() {
            self.type_ref(kind, item);
        }
    }

    fn members_of<T: Tree>(&mut self, owner: &(TypeKind, String), section: &'static str, map: &T) {
        for entry in map.entries().unwrap_or_default() {
            self.member(owner, section, entry.key());
        }
    }

    fn member<T: Tree>(&mut self, owner: &(TypeKind, String), section: &'static str, key: &T) {
        let Some(name) = key.as_str() else { return };
        // Only a name as written: the XML front end files a relationship template's source as
        // a requirement whose name is nowhere in the text.
        if !self.sources.slice(key.span()).contains(name) {
            return;
        }
        let span = self.text_span(key.span());
        self.index.members.push(Member {
            span,
            owner: owner.clone(),
            section,
            name: name.to_string(),
        });
    }

    // ----- the service template ---------------------------------------------------------

    fn topology(&mut self) {
        let Some(topology) = &self.model.topology else {
            return;
        };
        let sections: [(Section, &Vec<Named>); 3] = [
            (Section::Input, &topology.inputs),
            (Section::Node, &topology.node_templates),
            (Section::Relationship, &topology.relationship_templates),
        ];
        for (section, entries) in sections {
            for named in entries {
                self.define(named.span, Target::Template(section, named.name.clone()));
            }
        }
        let typed = [
            (Section::Group, &topology.groups),
            (Section::Policy, &topology.policies),
        ];
        for (section, entries) in typed {
            for grouping in entries {
                let target = Target::Template(section, grouping.name.clone());
                self.define(grouping.span, target);
            }
        }
        for output in &topology.outputs {
            let target = Target::Template(Section::Output, output.name.clone());
            self.define(output.span, target);
        }
        for named in &topology.inputs {
            self.parameter(&named.def);
        }
        for output in &topology.outputs {
            self.owner = Some(Owner::Output(output.name.clone()));
            match &output.body {
                Body::Definition(def) => self.typed_parameter(def),
                Body::OneLine(value) => self.calls(value),
            }
        }
        for named in &topology.node_templates {
            self.owner = Some(Owner::Node(named.name.clone()));
            self.node_template(&named.def);
        }
        for named in &topology.relationship_templates {
            self.owner = Some(Owner::Relationship(named.name.clone()));
            self.template_body(TypeKind::Relationship, &named.def);
        }
        self.groupings(topology);
        self.owner = None;
        for named in &topology.workflows {
            self.calls(&named.def);
        }
        if let Some(mappings) = &topology.substitution_mappings {
            self.substitution_mappings(mappings);
        }
    }

    /// `type:`, property and attribute names, and calls, of any template; the type's identity
    /// when it names one.
    fn template_body(&mut self, kind: TypeKind, def: &Node) -> Option<String> {
        let map = def.as_map()?;
        let sections = [map.get("properties"), map.get("attributes")];
        let owner = self.template_type(kind, map.get("type"), sections);
        self.calls(def);
        owner
    }

    /// A template's `type:` (a reference) and the names of the `properties` and `attributes`
    /// it assigns (members of that type), written as any [`Tree`]; the type's identity when it
    /// names one.
    fn template_type<T: Tree>(
        &mut self,
        kind: TypeKind,
        type_name: Option<&T>,
        sections: [Option<&T>; 2],
    ) -> Option<String> {
        let owner = type_name.and_then(|t| {
            self.type_ref(kind, t);
            let name = t.as_str()?;
            self.ancestry
                .full_name(self.model, kind, name, t.span().file)
        });
        if let Some(owner) = &owner {
            let owner = (kind, owner.clone());
            for (section, values) in ["properties", "attributes"].into_iter().zip(sections) {
                if let Some(values) = values {
                    self.members_of(&owner, section, values);
                }
            }
        }
        owner
    }

    fn node_template(&mut self, def: &Node) {
        let owner = self.template_body(TypeKind::Node, def);
        let Some(map) = def.as_map() else { return };
        let owner = owner.map(|id| (TypeKind::Node, id));
        if let (Some(owner), Some(capabilities)) = (&owner, map.get("capabilities")) {
            self.members_of(owner, "capabilities", capabilities);
        }
        if let Some(requirements) = map.get("requirements") {
            for (name, assignment) in named_entries(requirements) {
                if let Some(owner) = &owner {
                    self.member(owner, "requirements", name);
                }
                self.requirement_assignment(assignment);
            }
        }
        if let Some(artifacts) = map.get("artifacts") {
            self.each_value(artifacts, |w, artifact| {
                w.keyed_type(TypeKind::Artifact, artifact)
            });
        }
    }

    fn requirement_assignment(&mut self, assignment: &Node) {
        if assignment.as_str().is_some() {
            return self.node_ref(assignment);
        }
        let Some(map) = assignment.as_map() else {
            return;
        };
        if let Some(node) = map.get("node") {
            self.node_ref(node);
        }
        if let Some(capability) = map.get("capability") {
            self.type_ref(TypeKind::Capability, capability);
        }
        match map.get("relationship") {
            Some(r) if r.as_str().is_some() => {
                let name = r.as_str().unwrap_or_default();
                match self.template(Section::Relationship, name) {
                    Some(target) => self.add(r, target, false),
                    None => self.type_ref(TypeKind::Relationship, r),
                }
            }
            Some(r) => {
                self.keyed_type(TypeKind::Relationship, r);
            }
            None => {}
        }
    }

    /// The node type, the inner node templates and the inputs the mappings name.
    fn substitution_mappings(&mut self, mappings: &SubstitutionMappings) {
        if let Some(t) = &mappings.node_type
            && let Some(name) = t.as_str()
        {
            self.type_ref_at(TypeKind::Node, name, t.span);
        }
        for section in [&mappings.capabilities, &mappings.requirements] {
            for target in section
                .entries
                .iter()
                .flat_map(|e| e.targets.iter().flatten())
            {
                let (MappedTarget::Pair(node, _) | MappedTarget::Selectable(node)) = target;
                self.node_ref_at(&node.text, node.span);
            }
        }
        for section in [&mappings.properties, &mappings.attributes] {
            let entries = section.as_ref().and_then(Value::as_map);
            for entry in entries.map_or(&[][..], ValueMap::entries) {
                if let Some(first) = entry.value.as_list().and_then(<[Value]>::first)
                    && let Some(input) = first
                        .as_str()
                        .and_then(|n| self.template(Section::Input, n))
                {
                    self.add_at(first.span, input, false);
                }
            }
        }
    }

    /// The function calls anywhere under `value` (a definition of [`Walk::owner`], or a part
    /// of one outside the service template), and the inputs and templates they name.
    fn calls<N: Tree>(&mut self, value: &N) {
        self.calls_under(value, &mut Some(Vec::new()));
    }

    /// [`Walk::calls`], with the steps from the owner's definition to `value` (`None` inside
    /// another call's arguments). The steps borrow the keys; a call's place copies them.
    fn calls_under<'n, N: Tree>(&mut self, value: &'n N, place: &mut Option<Vec<Borrowed<'n>>>) {
        if let Some(call) = self.call(value) {
            self.index.calls.push(CallSite {
                span: value.span(),
                function: call,
                owner: self.owner.clone(),
                place: place.as_ref().map(|steps| {
                    steps
                        .iter()
                        .map(|step| match step {
                            Borrowed::Key(k) => Step::Key(k.to_string()),
                            Borrowed::Item(i) => Step::Item(*i),
                        })
                        .collect()
                }),
            });
            for entry in value.entries().unwrap_or_default() {
                self.calls_under(entry.value(), &mut None);
            }
            return;
        }
        match value.shape() {
            TreeShape::Map(entries) => {
                for entry in entries {
                    if let Some(steps) = place {
                        steps.push(Borrowed::Key(entry.key().as_str().unwrap_or_default()));
                    }
                    self.calls_under(entry.value(), place);
                    if let Some(steps) = place {
                        steps.pop();
                    }
                }
            }
            TreeShape::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    if let Some(steps) = place {
                        steps.push(Borrowed::Item(i));
                    }
                    self.calls_under(item, place);
                    if let Some(steps) = place {
                        steps.pop();
                    }
                }
            }
            TreeShape::Scalar(..) => {}
        }
    }

    /// The function `value` calls, if it is a call of the model's dialect
    /// ([`crate::model::call`]: a one-entry map keyed by a Simple Profile function, or by
    /// `$name` or `$name$suffix` in TOSCA 2.0, or the string `$name`, a call without
    /// arguments, §10.1 Function Syntax), as hover shows it
    /// (`get_input`, `$concat`: the suffix is no part of the name); the inputs and templates
    /// its first argument names are indexed as references.
    fn call<N: Tree>(&mut self, value: &N) -> Option<String> {
        let dialect = self.model.dialect;
        let written = call::call_in(dialect, value).filter(|c| !c.name.is_empty())?;
        let name = written.name;
        if let Some(first) = call::arguments(&written).first().copied()
            && let Some(text) = first.as_str()
        {
            if name == "get_input" {
                if let Some(input) = self.template(Section::Input, text) {
                    self.add_at(first.span(), input, false);
                }
            } else if TEMPLATE_FUNCTIONS.contains(&name) && !SELF_WORDS.contains(&text) {
                let target = self
                    .template(Section::Node, text)
                    .or_else(|| self.template(Section::Relationship, text));
                if let Some(target) = target {
                    self.add_at(first.span(), target, false);
                }
            }
        }
        Some(match dialect {
            Dialect::Tosca2 => format!("${name}"),
            _ => name.to_string(),
        })
    }

    // ----- imports ----------------------------------------------------------------------

    /// Each import of a workspace file, to the file it read, as the front end followed it.
    fn imports(&mut self) {
        let model = self.model;
        for import in &model.imports {
            // The import's file or URL is written in the importing file.
            let Some(written) = &import.written else {
                continue;
            };
            if !self.in_workspace(written.span.file) {
                continue;
            }
            let file = import.file;
            self.index
                .definitions
                .insert(Target::File(file), self.sources.get(file).span(file, 0, 0));
            self.add_at(written.span, Target::File(file), false);
        }
    }
}

/// The entries of a requirements section: a list of one-entry maps (Simple Profile, TOSCA 2.0
/// assignments) or a map (TOSCA 2.0 definitions), as (name, definition) pairs.
fn named_entries(section: &Node) -> Vec<(&Node, &Node)> {
    match (section.as_seq(), section.as_map()) {
        (Some(items), _) => items
            .iter()
            .filter_map(|item| item.as_map()?.entries().first())
            .map(|e| (&e.key, &e.value))
            .collect(),
        (None, Some(map)) => map.entries().iter().map(|e| (&e.key, &e.value)).collect(),
        (None, None) => Vec::new(),
    }
}
