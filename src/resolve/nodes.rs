//! Node templates with their types merged in: properties, attributes, capabilities, interfaces
//! and artifacts.

use std::fmt;

use indexmap::IndexMap;

use super::patterns::Patterns;
use super::type_parts::TypeParts;
use super::types::Ancestry;
use super::typing::{DefinitionsCache, Typing};
use super::values::ValueReader;
use super::{Context, Locator, metadata_values};
use crate::diag::{Diagnostic, Diagnostics, Subject, codes};
use crate::hash::FastMap;
use crate::ir::{
    Artifact, Capability, InstanceBounds, Node, NodeId, NodeSelection, Shared, Topology, TypeNames,
    Value, type_matches,
};
use crate::model::tree::{Pair, Tree};
use crate::model::{Model, Named, TopologyTemplate, TypeDef, TypeKind};
use crate::source::{FileId, Span};
use crate::yaml::{Map, Node as Yaml};

mod artifacts;
mod capabilities;
mod interfaces;

/// Shared state of the node-level passes.
pub struct NodeBuilder<'a> {
    pub model: &'a Model,
    pub ctx: &'a Context<'a>,
    pub reader: &'a ValueReader<'a>,
    pub locator: &'a Locator,
    pub ancestry: &'a mut Ancestry,
    /// The folder artifact paths are relative to (`None` for input read from stdin-less
    /// builtins).
    pub root: Option<String>,
    /// The artifacts of the node being built, so an operation naming one (`create: installer`)
    /// uses it instead of reading the name as a file.
    pub artifacts: IndexMap<String, Artifact>,
    /// `pattern` constraints compiled once for the whole run.
    pub patterns: Patterns,
    /// Each type chain's property and attribute definitions, merged once for all its templates.
    pub definitions: DefinitionsCache<'a>,
    /// Each node type's requirement definitions, merged once for all the relationships of its
    /// templates.
    pub requirement_definitions: super::assignments::DefinitionCache<'a>,
    /// Each type chain's capabilities and each definition set's typed defaults, worked out once
    /// for all its templates.
    pub type_parts: TypeParts,
    /// Where a missing artifact file was reported: a type's artifact is built again for every
    /// template of the type, and reported once.
    pub missing_files_reported: std::cell::RefCell<std::collections::HashSet<Span>>,
    /// How many implementations named a file so far ([`Self::file_artifact`]): interfaces
    /// worked out without one depend on their type chain alone.
    pub files_named: std::cell::Cell<usize>,
    /// Each artifact file's path by the file that names it and the name it is given there
    /// ([`Self::artifact_path`]): every template of a type names its type's scripts again.
    pub artifact_paths: std::cell::RefCell<FastMap<(FileId, String), Option<String>>>,
    /// The artifact type each file extension tells, for an artifact written as a file alone.
    pub file_types: super::artifact_types::FileTypes,
    /// Where a file whose extension several artifact types claim was reported, once per place.
    pub ambiguous_files_reported: std::cell::RefCell<std::collections::HashSet<Span>>,
}

/// The keys a template writes in one of its sections (`properties`, `attributes`), in the order
/// written: what the not-translated ledger tells from the type's defaults.
pub fn written_keys(section: Option<&Yaml>) -> Vec<String> {
    section
        .and_then(Yaml::as_map)
        .map(|m| {
            m.entries()
                .iter()
                .filter_map(|e| e.key.scalar_text().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether directives make the resolver select the node rather than create it: `select`
/// (the Simple Profile 1.0 drafts' `selectable`) tried before `create`, since directives are
/// tried in order and `create` always succeeds (§7.2.1 Node Template Directives). Returns the
/// directives tried when selection finds nothing.
pub fn selection(directives: &[String]) -> Option<Vec<String>> {
    let at = directives
        .iter()
        .take_while(|d| *d != "create")
        .position(|d| d == "select" || d == "selectable")?;
    Some(directives[at + 1..].to_vec())
}

/// Node template name → id, built once.
pub fn index(topology: &Topology) -> FastMap<&str, NodeId> {
    topology
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), NodeId::from_index(i)))
        .collect()
}

/// [`index`] with names of its own, for a pass that changes the topology while it looks names up.
pub fn owned_index(topology: &Topology) -> FastMap<String, NodeId> {
    index(topology)
        .into_iter()
        .map(|(name, id)| (name.to_string(), id))
        .collect()
}

impl<'a> NodeBuilder<'a> {
    pub fn build(
        &mut self,
        template: &TopologyTemplate,
        topology: &mut Topology,
        diags: &mut Diagnostics,
    ) {
        topology.nodes.reserve(template.node_templates.len());
        for named in &template.node_templates {
            let node = self.node(named, diags);
            topology.nodes.push(node);
        }
    }

    /// The type name of a template (`type:`), reported when missing.
    pub fn type_of(
        &self,
        named: &Named,
        what: &str,
        diags: &mut Diagnostics,
    ) -> Option<(String, Span)> {
        let def = named.def.as_map()?;
        type_written(def.get("type"), what, &named.name, named.span, diags)
    }

    fn node(&mut self, named: &Named, diags: &mut Diagnostics) -> Node {
        let empty = Map::new();
        let def = named.def.as_map().unwrap_or(&empty);
        let (type_name, type_span) = self
            .type_of(named, "node template", diags)
            .unwrap_or_else(|| (String::new(), named.span));
        let (types, defs) = if type_name.is_empty() {
            (TypeNames::default(), std::rc::Rc::from([]))
        } else {
            let types = self
                .ancestry
                .of(self.model, TypeKind::Node, &type_name, type_span, diags);
            let defs = self.definitions.chain(self.model, TypeKind::Node, &types);
            (types, defs)
        };
        let text = |key: &str| {
            def.get(key)
                .and_then(|n| n.scalar_text())
                .map(str::to_string)
        };
        let owner = Subject::new("node template", &named.name);
        let capabilities = self.capabilities(&defs, def.get("capabilities"), &named.name, diags);
        let instances =
            instance_bounds(&capabilities).or_else(|| xml_instance_bounds(def.get("metadata")));
        self.artifacts = self.artifacts(&defs, def.get("artifacts"), diags);
        let interfaces = self.interfaces(&defs, def.get("interfaces"), diags);
        let directives = def
            .get("directives")
            .map(|d| self.strings(d, "`directives`", diags))
            .unwrap_or_default();
        // A TOSCA 2.0 node that can only be selected is not created: the resolver reads only its
        // `node_filter` (§7.2.1 Node Template Directives); a required property unset is no error.
        let only_selected = self.model.dialect == crate::ir::Dialect::Tosca2
            && selection(&directives).is_some_and(|otherwise| otherwise.is_empty());
        if !only_selected {
            let assigned = def.get("capabilities");
            self.check_capabilities(&named.name, &capabilities, assigned, named.span, diags);
        }
        let selection = selection(&directives).map(|otherwise| NodeSelection {
            node_filter: def.get("node_filter").map(|f| self.reader.value(f, diags)),
            otherwise,
        });
        Node {
            name: named.name.clone(),
            type_name,
            types,
            description: text("description"),
            metadata: def
                .get("metadata")
                .map(|m| metadata_values(self.reader, m, diags))
                .unwrap_or_default(),
            directives,
            selection,
            count: def
                .get("count")
                .map_or(Value::Integer(1), |c| self.reader.value(c, diags)),
            instance: None,
            instances,
            properties: self.merged_checked(
                &owner,
                &defs,
                "properties",
                def.get("properties"),
                named.span,
                !only_selected,
                diags,
            ),
            assigned: written_keys(def.get("properties")),
            assigned_attributes: written_keys(def.get("attributes")),
            attributes: self.merged(
                &owner,
                &defs,
                "attributes",
                def.get("attributes"),
                named.span,
                diags,
            ),
            capabilities,
            requirements: Vec::new(),
            interfaces,
            artifacts: std::mem::take(&mut self.artifacts),
            location: self.locator.at(named.span),
        }
    }

    /// A list of names (`members`, `targets`): each a string, reported where it is not.
    pub fn strings<T: Tree>(&self, node: &T, what: &str, diags: &mut Diagnostics) -> Vec<String> {
        let Some(items) = crate::model::shape::seq(node, what, diags) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|i| crate::model::shape::text(i, what, diags))
            .collect()
    }

    /// The values of `section` (`properties`, `attributes`) for `owner` (`node template `x``):
    /// typed defaults from the type chain, then the template's own typed assignments. Property
    /// names are checked when the whole chain is known, and so are required properties.
    pub fn merged(
        &mut self,
        owner: &dyn fmt::Display,
        defs: &[&'a TypeDef],
        section: &str,
        assigned: Option<&Yaml>,
        at: Span,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        self.merged_checked(owner, defs, section, assigned, at, true, diags)
    }

    /// [`Self::merged`], where `required` says whether a required property left unset is an
    /// error: not for a node that is only selected, whose property assignments the resolver
    /// ignores (§7.2.1 Node Template Directives).
    #[allow(clippy::too_many_arguments)]
    fn merged_checked(
        &mut self,
        owner: &dyn fmt::Display,
        defs: &[&'a TypeDef],
        section: &str,
        assigned: Option<&Yaml>,
        at: Span,
        required: bool,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Value> {
        if let Some(assigned) = assigned {
            // Only the shape is reported here; the entries are read below.
            crate::model::shape::map(assigned, Subject::quoted(section), diags);
        }
        let check_names = section == "properties" && defs_complete(self.model, defs);
        let definitions = self.definitions.of(defs, section);
        if section == "attributes" && defs_complete(self.model, defs) {
            let properties = self.definitions.of(defs, "properties");
            super::assigned_names::check(
                owner,
                section,
                names(assigned),
                &definitions,
                &properties,
                diags,
            );
        }
        let mut values = self.defaults(&definitions, section);
        let mut typing = self.typing();
        values.extend(typing.assigned(owner, &definitions, section, assigned, check_names, diags));
        if check_names && required {
            // `section` is `properties` here, whose definitions the required ones are among.
            typing.check_required(owner, &definitions, &values, at, diags);
        }
        values
    }

    /// The values [`Self::merged`] gives (the defaults of `section` in `defs`, then the
    /// typed assignments in `assigned`), reporting nothing: for a second reading of
    /// assignments whose owner reports them where it reads them (each caller names it).
    pub fn merged_values(
        &mut self,
        defs: &[&'a TypeDef],
        section: &str,
        assigned: Option<&Yaml>,
    ) -> IndexMap<String, Value> {
        let definitions = self.definitions.of(defs, section);
        let mut values = self.defaults(&definitions, section);
        let mut typing = self.typing();
        values.extend(typing.assigned_to("", &definitions, section, assigned, false, &mut None));
        values
    }

    /// The typed defaults of `section`'s merged definitions from [`DefinitionsCache::of`],
    /// worked out once per definition set (what [`Typing::defaults`] gives). The cache's key is
    /// the set's address, which is one (type chain, section) for as long as the builder lives.
    fn defaults(
        &mut self,
        definitions: &std::rc::Rc<IndexMap<&'a str, super::typing::Definition<'a>>>,
        section: &str,
    ) -> IndexMap<String, Value> {
        let key = std::rc::Rc::as_ptr(definitions) as usize;
        if let Some(known) = self.type_parts.defaults.get(&key) {
            return crate::ir::clone_exact(known);
        }
        let values = self.typing().defaults(definitions, section);
        self.type_parts.defaults.insert(key, values.clone());
        values
    }

    /// A value reader that knows the types, for this builder's model.
    pub fn typing(&mut self) -> Typing<'_, 'a> {
        Typing {
            model: self.model,
            reader: self.reader,
            ancestry: self.ancestry,
            patterns: &self.patterns,
        }
    }
}

/// The names a section (`properties`, `attributes`) assigns, with where each is written.
pub(super) fn names<T: Tree>(assigned: Option<&T>) -> impl Iterator<Item = (&str, Span)> {
    let entries = assigned.and_then(T::entries).unwrap_or_default();
    entries
        .iter()
        .filter_map(|e| Some((e.key().scalar_text()?, e.key().span())))
}

/// The type name written as `type:` of the template `name` (a `what`, written at `at`),
/// reported when missing or not a string: [`NodeBuilder::type_of`] for any [`Tree`], a YAML
/// definition's or a typed entity's.
pub fn type_written<T: Tree>(
    written: Option<&T>,
    what: &str,
    name: &str,
    at: Span,
    diags: &mut Diagnostics,
) -> Option<(String, Span)> {
    match written {
        Some(t) => match t.scalar_text() {
            Some(s) => Some((s.to_string(), t.span())),
            None => {
                diags.push(crate::model::shape::wrong_shape(
                    t,
                    format!("`type` of {what} `{name}`"),
                    "a string",
                ));
                None
            }
        },
        None => {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!("{what} `{name}` has no `type`"),
                )
                .at(at)
                .hint("add `type: <the name of its type>`"),
            );
            None
        }
    }
}

/// Whether every type on a chain was read, so a missing name is really missing. A type that
/// TOSCA 1.0 XML's `--quirk winery` took on trust was not.
pub fn defs_complete(model: &Model, defs: &[&TypeDef]) -> bool {
    let taken_on_trust = |d: &&TypeDef| {
        d.def
            .as_map()
            .and_then(|m| m.get("metadata"))
            .and_then(Yaml::as_map)
            .is_some_and(|m| m.contains_key(crate::model::TAKEN_ON_TRUST))
    };
    !model.incomplete_types
        && !defs.iter().any(taken_on_trust)
        && defs.last().is_some_and(|root| {
            root.derived_from.as_ref().is_none_or(|(p, _)| {
                model
                    .types
                    .contains_key(&super::types::TypeRef(root.kind, p))
            })
        })
}

/// Instance bounds of a TOSCA 1.0 XML node template: its `minInstances`/`maxInstances`, which
/// the XML front end writes as the metadata `xml_min_instances` and `xml_max_instances`
/// (`unbounded` for no upper bound), because Simple Profile 1.3 has no keyname for them.
fn xml_instance_bounds(metadata: Option<&crate::yaml::Node>) -> Option<InstanceBounds> {
    let m = metadata?.as_map()?;
    let min = m.get("xml_min_instances")?.scalar_text()?.parse().ok()?;
    let max = match m.get("xml_max_instances")?.scalar_text()? {
        "unbounded" => None,
        n => Some(n.parse().ok()?),
    };
    Some(InstanceBounds { min, max })
}

/// Instance bounds from a Scalable capability's `min_instances`/`max_instances`.
fn instance_bounds(capabilities: &IndexMap<String, Shared<Capability>>) -> Option<InstanceBounds> {
    let scalable = capabilities
        .iter()
        .find(|(name, c)| {
            type_matches(&c.types, "tosca.capabilities.Scalable")
                || (c.types.is_empty() && *name == "scalable")
        })?
        .1;
    let int = |key: &str| match scalable.properties.get(key) {
        Some(Value::Integer(i)) => u64::try_from(*i).ok(),
        _ => None,
    };
    let min = int("min_instances")?;
    Some(InstanceBounds {
        min,
        max: int("max_instances"),
    })
}
