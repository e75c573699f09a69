//! The TOSCA 2.0 grammar: which keynames each entity of a TOSCA 2.0 file may have, and the shape
//! of each keyname's value, checked over the YAML tree of every 2.0 file read.
//!
//! TOSCA 2.0 (CSD07) gives every entity a table of recognized keynames. toscana reports a keyname
//! outside its table as an error in a 2.0 file (checklist T2-FILE-06: §18.3 asks a processor to
//! report documents that do not conform), where Simple Profile files only get a warning. The
//! shapes are the tables' "Type" column: a `str` must be a YAML string (a plain `12345` is an
//! integer, not a description), a `map of …` a map, a `seq of …` a list.
//!
//! Definition names (the keys of `node_types`, `functions`, `repositories`, …) must be non-empty
//! strings, and type and function names may not contain `:`, which separates namespace prefixes
//! (T2-NS-08). A section the grammar types as a map or a list may not be left empty at the top
//! level of a file or of a service template: `policy_types:` with nothing under it is neither.
//! Inside definitions an empty `properties:` stays a warning, because the spec's own examples
//! write it that way (T2-FILE-07, T2-GAP-13).
//!
//! What needs types to judge (derivation, refinement, scalar units, unknown type names) is the
//! resolver's; this module answers only "is this what the grammar allows here".

mod pairs;
mod places;
mod table;
mod yaml_tags;

pub(crate) use table::D as Entity;
pub(crate) use table::Flow;

/// The keynames of `entity`, or of the file for `None`: for the language server's completion
/// (src/lsp/completion.rs).
pub(crate) fn keynames(entity: Option<Entity>) -> Vec<&'static str> {
    let keys = match entity {
        Some(entity) => entity.table().0,
        None => table::TOP_LEVEL,
    };
    keys.iter().map(|(name, _)| *name).collect()
}

pub(crate) use places::{Place, has_keyname, place};
pub use table::is_import_keyname;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::call;
use crate::quirk::Quirk;
use crate::source::SourceMap;
use crate::yaml::{Core, Map, Node};
use table::*;

/// Checks one TOSCA 2.0 file against the grammar. `entry` says whether its `service_template`
/// is read (an imported file's is ignored with a warning elsewhere).
pub fn check_file(root: &Map, entry: bool, diags: &mut Diagnostics) {
    yaml_tags::check(root, diags);
    let mut walker = Walker { diags };
    walker.keys(root, TOP_LEVEL, &[], "a TOSCA 2.0 file", Level::Top);
    if let Some(imports) = root.get("imports") {
        walker.imports(imports);
    }
    if let (Some(profile), Some(template)) = (root.entry("profile"), root.entry("service_template"))
    {
        walker.diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                "a TOSCA file with a `profile` cannot have a `service_template`",
            )
            .at_with(template.key.span, "not allowed with `profile`")
            .label(profile.key.span, "this file is a profile")
            .hint("a profile holds only types, repositories and functions (§6.1 Keynames, §6.7.1 Grammar); move the service template into a file that imports the profile"),
        );
    }
    if entry && let Some(template) = root.get("service_template") {
        walker.definition(template, D::ServiceTemplate, "`service_template`");
    }
}

/// Every entry of `dsl_definitions` defines a YAML anchor: the grammar of a DSL definition is
/// `<anchor_block>: &<anchor> <anchor_definitions>` (§6.3 DSL Definitions), and an entry without
/// one can never be used. The tree keeps no anchors, so the text between the entry's key and its
/// value is read for the `&`.
pub fn check_dsl_anchors(sources: &SourceMap, root: &Map, diags: &mut Diagnostics) {
    let Some(entries) = root.get("dsl_definitions").and_then(Node::as_map) else {
        return;
    };
    for entry in entries.entries() {
        let (key, value) = (entry.key.span, entry.value.span);
        let text = &sources.get(key.file).text;
        let between = text
            .get(key.end as usize..value.start as usize)
            .unwrap_or_default();
        let anchored = text
            .get(value.start as usize..)
            .is_some_and(|v| v.starts_with('&'))
            || between.lines().any(|line| {
                let code = line.split(" #").next().unwrap_or_default();
                !code.trim_start().starts_with('#') && code.contains('&')
            });
        if !anchored {
            let name = entry.key.scalar_text().unwrap_or_default();
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("DSL definition `{name}` defines no YAML anchor"),
                )
                .at_with(entry.key.span, "no `&anchor` on its value")
                .hint(format!(
                    "a DSL definition is `<name>: &<anchor> <definitions>` (§6.3 DSL Definitions), e.g. `{name}: &{name}`; aliases (`*{name}`) elsewhere in the file then reuse it"
                )),
            );
        }
    }
}

/// Where a section is: at the top of a file or service template an empty section is an error;
/// deeper, a warning (the spec's examples leave `properties:` empty).
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Top,
    Nested,
}

struct Walker<'d> {
    diags: &'d mut Diagnostics,
}

impl Walker<'_> {
    /// Checks the keynames of `map` against `table` (plus `metadata` and `description`, which
    /// every multi-line entity has, §5.3 Common Keynames) and the mandatory ones.
    fn keys(
        &mut self,
        map: &Map,
        table: &[(&str, K)],
        mandatory: &[&str],
        what: &str,
        level: Level,
    ) {
        for entry in map.entries() {
            let Some(key) = entry.key.as_str() else {
                self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        format!(
                            "a keyname of {what} must be a string, found {}",
                            entry.key.describe()
                        ),
                    )
                    .at(entry.key.span),
                );
                continue;
            };
            let shape = table
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, s)| *s)
                .or(match key {
                    "description" => Some(K::Str),
                    "metadata" => Some(K::Meta),
                    _ => None,
                });
            if shape.is_none()
                && let Some((_, instead)) = LEGACY.iter().find(|(k, _)| *k == key)
            {
                self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_KEY,
                        format!(
                            "`{key}` in {what} is a TOSCA 1.3 keyname; TOSCA 2.0 does not read it"
                        ),
                    )
                    .excused_by(Quirk::UnknownKeynames)
                    .at_with(entry.key.span, "ignored")
                    .hint(format!("in TOSCA 2.0 write {instead}")),
                );
                continue;
            }
            let Some(shape) = shape else {
                let mut known: Vec<&str> = table.iter().map(|(k, _)| *k).collect();
                for common in ["description", "metadata"] {
                    if !known.contains(&common) {
                        known.push(common);
                    }
                }
                let d = Diagnostic::error(
                    codes::TOSCA_UNKNOWN_KEY,
                    format!("unknown keyname `{key}` in {what}"),
                )
                .excused_by(Quirk::UnknownKeynames)
                .at_with(entry.key.span, "not a keyname of TOSCA 2.0 here");
                let renamed = RENAMED_IMPORT_KEYS.iter().find(|(k, _)| *k == key);
                self.diags.push(match renamed {
                    Some((_, instead)) if what == "an import" => d.hint(format!(
                        "`{key}` is the TOSCA 1.3 keyname; in TOSCA 2.0 write {instead}"
                    )),
                    // How the OASIS community profiles refine a property's data type.
                    None if key == "properties" && what.starts_with("property definition") => d
                        .hint(
                            "a property definition cannot refine the properties of its data type (§9.4 Property Definition): define a data type derived from its type that refines them, and name it as the `type`; `--quirk oasis-profiles` reads this block so",
                        ),
                    _ => d.did_you_mean(
                        key,
                        &known,
                        Some(format!("the keynames of {what} are: {}", known.join(", "))),
                    ),
                });
                continue;
            };
            let what = format!("`{key}` of {what}");
            match shape {
                // A schema refining an inherited one may leave out its `type`, as the
                // definition that holds it may (§9.3's refinement rules); see [`Self::schema`].
                K::Schema => self.schema(&entry.value, &what, map.contains_key("type")),
                _ => self.value(&entry.value, shape, &what, level),
            }
        }
        for key in mandatory {
            if !map.contains_key(key) {
                let span = map
                    .entries()
                    .first()
                    .map_or_else(Default::default, |e| e.key.span);
                self.diags.push(
                    Diagnostic::error(
                        codes::TOSCA_MISSING_KEY,
                        format!("{what} has no `{key}`, which TOSCA 2.0 requires"),
                    )
                    .at(span)
                    .hint(format!("add `{key}:`")),
                );
            }
        }
    }

    fn value(&mut self, node: &Node, shape: K, what: &str, level: Level) {
        match shape {
            K::Any => {}
            K::Str => {
                if node.as_str().is_none() {
                    self.wrong(node, what, "a string");
                }
            }
            K::Bool => {
                if !matches!(node.as_scalar().map(|s| s.core), Some(Core::Bool(_))) {
                    self.wrong(node, what, "`true` or `false`");
                }
            }
            K::Meta => {
                if !node.is_null() && node.as_map().is_none() {
                    self.wrong(node, what, "a map of metadata names to values");
                }
            }
            K::Version => self.version(node, what),
            K::Names => match node.as_seq() {
                Some(items) => {
                    for item in items {
                        if item.as_str().is_none() {
                            self.wrong(item, &format!("an entry of {what}"), "a string");
                        }
                    }
                }
                None => self.wrong(node, what, "a list of names"),
            },
            K::Directives(known) => match node.as_seq() {
                Some(items) => {
                    for item in items {
                        match item.as_str() {
                            Some(d) if known.contains(&d) => {}
                            Some(d) => self.diags.push(
                                Diagnostic::error(
                                    codes::TOSCA_SHAPE,
                                    format!("`{d}` in {what} is not a directive"),
                                )
                                .at(item.span)
                                .did_you_mean(
                                    d,
                                    known,
                                    Some(format!(
                                        "the directives are {} (§7.2 Node Template, §8.5.2 Requirement Assignment Grammar)",
                                        known.join(", ")
                                    )),
                                ),
                            ),
                            None => self.wrong(item, &format!("an entry of {what}"), "a string"),
                        }
                    }
                }
                None => self.wrong(node, what, "a list of names"),
            },
            K::Count => {
                let ok = match node.as_scalar().map(|s| s.core) {
                    Some(Core::Int(i)) => i >= 0,
                    // A call, `{ $name: ... }` or `$name` (§10.1 Function Syntax).
                    _ => call::call(node).is_some(),
                };
                if !ok {
                    self.wrong(node, what, "a non-negative integer");
                }
            }
            K::Range => self.range(node, what),
            K::FreeMap => {
                if node.as_map().is_none() {
                    self.wrong(node, what, "a map");
                }
            }
            K::Assignments => {
                if !node.is_null() && node.as_map().is_none() {
                    self.wrong(node, what, "a map");
                }
            }
            K::List => {
                if node.as_seq().is_none() {
                    self.wrong(node, what, "a list");
                }
            }
            K::ListOrMap => {
                if !node.is_null() && node.as_seq().is_none() && node.as_map().is_none() {
                    self.wrong(node, what, "a list of mappings");
                }
            }
            K::Defs(d) => self.defs(node, d, what, level),
            K::ListDefs(d) => self.list_defs(node, d, what, level),
            K::Schema => self.schema(node, what, true),
            K::Schemas => match node.as_seq() {
                Some(items) => {
                    for item in items {
                        self.schema(item, &format!("an entry of {what}"), true);
                    }
                }
                None => self.wrong(node, what, "a list of schema definitions"),
            },
        }
    }

    /// A map of named definitions.
    fn defs(&mut self, node: &Node, d: D, what: &str, level: Level) {
        if d == D::ServiceTemplate || d == D::SubstitutionMappings {
            // Single entities, not maps of names.
            if node.is_null() || node.as_map().is_none() {
                self.wrong(node, what, "a map of keynames");
            } else {
                self.definition(node, d, what);
            }
            return;
        }
        if node.is_null() {
            self.empty(node, what, "a map", level);
            return;
        }
        let Some(map) = node.as_map() else {
            self.wrong(
                node,
                what,
                &format!("a map of {} names to definitions", d.noun()),
            );
            return;
        };
        for entry in map.entries() {
            let Some(name) = self.name(&entry.key, d, what) else {
                continue;
            };
            self.definition(&entry.value, d, &format!("{} `{name}`", d.noun()));
        }
    }

    /// A list of single-entry maps (`requirements`, `policies`).
    fn list_defs(&mut self, node: &Node, d: D, what: &str, level: Level) {
        if node.is_null() {
            self.empty(node, what, "a list", level);
            return;
        }
        let Some(items) = node.as_seq() else {
            self.wrong(
                node,
                what,
                &format!(
                    "a list of single-entry maps `- name: {{...}}` ({}s)",
                    d.noun()
                ),
            );
            return;
        };
        let mut names = Vec::new();
        for item in items {
            let entries = item.as_map().map_or(&[][..], Map::entries);
            let [entry] = entries else {
                self.wrong(
                    item,
                    &format!("an entry of {what}"),
                    "a single-entry map `name: {...}`",
                );
                continue;
            };
            let Some(name) = self.name(&entry.key, d, what) else {
                continue;
            };
            names.push((name, entry.key.span));
            self.definition(&entry.value, d, &format!("{} `{name}`", d.noun()));
        }
        pairs::unique_names(d, &names, what, self.diags);
    }

    /// A definition name: a non-empty string, without `:` for type and function names.
    fn name<'n>(&mut self, key: &'n Node, d: D, what: &str) -> Option<&'n str> {
        let Some(name) = key.as_str() else {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "{} name in {what} must be a string, found `{}` ({})",
                        article(d.noun()),
                        key.scalar_text().unwrap_or_default(),
                        key.describe()
                    ),
                )
                .at_with(key.span, "not a string")
                .hint("quote the name if it is meant to be text"),
            );
            return None;
        };
        if name.trim().is_empty() {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("{} in {what} has an empty name", article(d.noun())),
                )
                .at_with(key.span, "empty name")
                .hint("give it a name"),
            );
            return None;
        }
        if d.names_are_qualifiable() && name.contains(':') {
            self.diags.push(
                Diagnostic::warning(
                    codes::TOSCA_SHAPE,
                    format!(
                        "{} name `{name}` contains `:`, which also separates namespace prefixes",
                        d.noun()
                    ),
                )
                .at(key.span)
                .hint("a reference to it is read as this name first, then as `prefix:name`; define the name without `:` to avoid the ambiguity"),
            );
        }
        Some(name)
    }

    /// One definition of kind `d`.
    fn definition(&mut self, node: &Node, d: D, what: &str) {
        // Short forms the grammar allows.
        let short_ok = match d {
            D::Repository | D::CapabilityDef | D::CapabilityRefinement | D::InterfaceDef => {
                node.as_str().is_some()
            }
            D::PropertyRefinement | D::AttributeRefinement | D::Parameter(_) => {
                !is_definition_map(node)
            }
            D::OperationDef | D::OperationAssignment => node.as_map().is_none() && !node.is_null(),
            // `- host: Compute` names the capability type (definition) or the target node
            // (assignment), which may also be `[template, index]`.
            D::RequirementDef | D::RelationshipDef | D::RelationshipAssignment => {
                node.as_str().is_some()
            }
            D::RequirementAssignment => node.as_str().is_some() || node.as_seq().is_some(),
            D::Implementation => node.as_str().is_some(),
            // `zip: /data/wordpress.zip` (the spec's own example of §10.2.1.4 $get_artifact) is
            // no form of §12.2 Artifact Definition's grammar; read as `{ file: <it> }` with the
            // type its extension tells, warned about when none does (T2-ARTDEF-05's DECIDE,
            // `resolve::artifact_defs`).
            D::ArtifactDef => node.as_str().is_some(),
            _ => false,
        };
        if short_ok {
            return;
        }
        let Some(map) = node.as_map() else {
            if node.is_null()
                && (d.is_type()
                    || matches!(
                        d,
                        D::OperationDef
                            | D::OperationAssignment
                            | D::CapabilityAssignment
                            | D::InterfaceAssignment
                    ))
            {
                return;
            }
            self.wrong(node, what, "a map of keynames");
            return;
        };
        let (table, mandatory) = d.table();
        if d.is_type() {
            let mut all: Vec<(&str, K)> = TYPE_COMMON.to_vec();
            all.extend_from_slice(table);
            // A type without a parent defines its properties: each needs its `type`.
            let all: Vec<(&str, K)> = if map.contains_key("derived_from") {
                all
            } else {
                all.into_iter()
                    .map(|(k, s)| match s {
                        K::Defs(D::PropertyRefinement) => (k, K::Defs(D::Property)),
                        K::Defs(D::AttributeRefinement) => (k, K::Defs(D::Attribute)),
                        K::Defs(D::CapabilityRefinement) => (k, K::Defs(D::CapabilityDef)),
                        other => (k, other),
                    })
                    .collect()
            };
            self.keys(map, &all, mandatory, what, Level::Nested);
        } else {
            let level = if d == D::ServiceTemplate {
                Level::Top
            } else {
                Level::Nested
            };
            self.keys(map, table, mandatory, what, level);
        }
        pairs::check(d, map, what, self.diags);
        match d {
            D::Property | D::PropertyRefinement | D::Parameter(_) => {
                self.required_default(map, what)
            }
            D::Import => self.import_rules(node, map),
            D::Function => {
                if let Some(signatures) = map.get("signatures") {
                    self.signatures(signatures, what);
                }
            }
            // A signature's implementation is an operation's (§10.4 Function Definitions).
            D::OperationDef | D::OperationAssignment | D::Signature => {
                if let Some(implementation) = map.get("implementation") {
                    self.definition(
                        implementation,
                        D::Implementation,
                        &format!("the `implementation` of {what}"),
                    );
                }
            }
            D::RequirementDef => {
                if let Some(rel) = map.get("relationship") {
                    self.definition(
                        rel,
                        D::RelationshipDef,
                        &format!("the `relationship` of {what}"),
                    );
                }
            }
            D::RequirementAssignment => {
                if let Some(rel) = map.get("relationship") {
                    self.definition(
                        rel,
                        D::RelationshipAssignment,
                        &format!("the `relationship` of {what}"),
                    );
                }
            }
            _ => {}
        }
    }

    /// `default` on a property that is not required (§9.4 Property Definition): a non-required
    /// property that is not assigned stays undefined, so its default would never apply.
    fn required_default(&mut self, map: &Map, what: &str) {
        let not_required = map
            .get("required")
            .and_then(Node::as_scalar)
            .is_some_and(|s| s.core == Core::Bool(false));
        if let (true, Some(default)) = (not_required, map.entry("default")) {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("{what} has a `default` but `required: false`"),
                )
                .at_with(default.key.span, "a default is allowed only on a required property")
                .hint("TOSCA 2.0 (§9.4 Property Definition) allows `default` only when `required` is true: remove `default`, or `required: false`"),
            );
        }
    }

    fn signatures(&mut self, node: &Node, what: &str) {
        let items: Vec<&Node> = match (node.as_seq(), node.as_map()) {
            (Some(items), _) => items.iter().collect(),
            (None, Some(map)) => map.entries().iter().map(|e| &e.value).collect(),
            _ => {
                self.wrong(
                    node,
                    &format!("the `signatures` of {what}"),
                    "a list of signature definitions",
                );
                return;
            }
        };
        if items.is_empty() {
            self.wrong(
                node,
                &format!("the `signatures` of {what}"),
                "at least one signature",
            );
        }
        for item in items {
            self.definition(item, D::Signature, &format!("a signature of {what}"));
        }
    }

    /// A schema definition (§9.3 Schema Definition): a type name, or a map with `type`, "The
    /// mandatory data type for the key or entry". `owner_typed` is whether the definition (or
    /// schema) holding it writes its own `type`: one that does not refines an inherited
    /// definition, and its schemas refine the inherited schemas, whose `type` they keep unless
    /// they restate it ("must be derived from (or the same as) the type in the schema
    /// definition in the parent entity type definition", §9.3), as the OASIS suite's
    /// `schema-definition-derived.yaml` writes them.
    fn schema(&mut self, node: &Node, what: &str, owner_typed: bool) {
        if node.as_str().is_some() {
            return;
        }
        let Some(map) = node.as_map() else {
            self.wrong(node, what, "a type name or a schema definition map");
            return;
        };
        self.keys(
            map,
            &[
                ("type", K::Str),
                ("validation", K::Any),
                ("key_schema", K::Schema),
                ("entry_schema", K::Schema),
            ],
            if owner_typed { &["type"] } else { &[] },
            what,
            Level::Nested,
        );
    }

    fn imports(&mut self, node: &Node) {
        if node.is_null() {
            self.empty(node, "`imports`", "a list", Level::Top);
            return;
        }
        let Some(items) = node.as_seq() else {
            self.wrong(node, "`imports`", "a list of import definitions");
            return;
        };
        for item in items {
            if item.as_str().is_some() {
                continue;
            }
            self.definition(item, D::Import, "an import");
        }
    }

    /// An import names exactly one of `url` and `profile`; `repository` goes with `url`
    /// (§6.8.1 Import Definitions).
    fn import_rules(&mut self, node: &Node, map: &Map) {
        let url = map.contains_key("url");
        let profile = map.contains_key("profile");
        let problem = match (url, profile) {
            (true, true) => Some("an import has both `url` and `profile`; it names one of them"),
            (false, false) => Some("an import has neither `url` nor `profile`"),
            _ => None,
        };
        if let Some(problem) = problem {
            self.diags.push(
                Diagnostic::error(codes::TOSCA_MISSING_KEY, problem)
                    .at(node.span)
                    .hint("write `url: <file>` to import a file, or `profile: <name>` to import a profile (§6.8.1 Import Definitions)"),
            );
        }
        if profile && let Some(repo) = map.entry("repository") {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    "an import by `profile` cannot name a `repository`",
                )
                .at(repo.key.span)
                .hint("`repository` locates a `url` (§6.8.1 Import Definitions); remove it or import by `url`"),
            );
        }
    }

    fn version(&mut self, node: &Node, what: &str) {
        let Some(scalar) = node.as_scalar() else {
            self.wrong(node, what, "a version");
            return;
        };
        if scalar.core == Core::Null {
            self.wrong(node, what, "a version");
            return;
        }
        if let Err(why) = crate::model::literals::version(&scalar.text) {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("{what} is not a version: {why}"),
                )
                .at(node.span)
                .hint(
                    "write <major>.<minor>[.<fix>[.<qualifier>[-<build>]]], such as 1.0.2 (§9.1.2.3 version)",
                ),
            );
        }
    }

    /// `count_range` (§8.4 Requirement Definition): two non-negative integers, lower ≤ upper; upper
    /// may be UNBOUNDED.
    fn range(&mut self, node: &Node, what: &str) {
        let ok = match node.as_seq() {
            Some([lower, upper]) => {
                let lower = match lower.as_scalar().map(|s| s.core) {
                    Some(Core::Int(i)) if i >= 0 => Some(i),
                    _ => None,
                };
                let upper_ok = match upper.as_scalar() {
                    Some(s) if &*s.text == "UNBOUNDED" && s.core == Core::Str => true,
                    Some(s) => matches!((s.core, lower), (Core::Int(u), Some(l)) if u >= l),
                    None => false,
                };
                lower.is_some() && upper_ok
            }
            _ => false,
        };
        if !ok {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("{what} must be a range of two integers"),
                )
                .at(node.span)
                .hint("write [lower, upper] with integers 0 ≤ lower ≤ upper, or UNBOUNDED as the upper bound, such as [1, UNBOUNDED]"),
            );
        }
    }

    fn empty(&mut self, node: &Node, what: &str, expected: &str, level: Level) {
        if level == Level::Top {
            self.diags.push(
                Diagnostic::error(codes::TOSCA_SHAPE, format!("{what} is empty"))
                    .at_with(node.span, format!("expected {expected}"))
                    .hint("remove the keyname, or indent its content under it"),
            );
        } else {
            self.diags.push(
                Diagnostic::warning(codes::TOSCA_SHAPE, format!("{what} is empty"))
                    .at_with(
                        node.span,
                        format!("read as an empty {}", expected.trim_start_matches("a ")),
                    )
                    .hint("remove the keyname, or indent its content under it"),
            );
        }
    }

    fn wrong(&mut self, node: &Node, what: &str, expected: &str) {
        let found = match node.as_scalar() {
            Some(s) if s.core != Core::Null => format!("`{}` ({})", s.text, node.describe()),
            _ => node.describe().to_string(),
        };
        self.diags.push(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!("{what} must be {expected}, found {found}"),
            )
            .at_with(node.span, format!("expected {expected}")),
        );
    }
}

/// Whether a map written where a parameter or property definition may also be a value (the
/// short forms of §9.4 Property Definition and §9.8 Parameter Definition) is a definition: it uses
/// definition keynames.
fn is_definition_map(node: &Node) -> bool {
    let Some(map) = node.as_map() else {
        return false;
    };
    call::call(node).is_none()
        && map.entries().iter().any(|e| {
            e.key.as_str().is_some_and(|k| {
                matches!(
                    k,
                    "type"
                        | "description"
                        | "required"
                        | "default"
                        | "value"
                        | "mapping"
                        | "validation"
                        | "key_schema"
                        | "entry_schema"
                        | "status"
                        | "metadata"
                )
            })
        })
}

/// "a node type", "an interface type".
fn article(noun: &str) -> String {
    let an = noun.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {noun}", if an { "an" } else { "a" })
}
