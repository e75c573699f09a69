//! Front ends: the grammar of each dialect, from YAML (or XML) trees to the [`Model`].
//!
//! [`read`] detects the dialect of the entry file from its `tosca_definitions_version`, then
//! walks the import graph depth-first: each file is read once, a file that imports itself
//! through a chain is reported with the whole chain, and the depth is bounded.

mod alias;
pub mod copy;
pub mod csar_entry;
pub mod csar_version;
pub mod data_types;
pub mod definitions;
pub mod grouping;
pub mod nested_refinements;
pub mod simple_grammar;
pub mod substitution;
pub mod tosca2;
pub mod value;
pub mod variability;
pub mod version;
pub mod xml;
pub mod yaml;

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::limits::Limits;
use crate::model::names::{Qualifier, Space};
use crate::model::{Model, shape};
use crate::quirk::Quirk;
use crate::source::{FileId, ImportRef, Loader, ProfileLookup, Span};
use crate::yaml::{Map, Node};

/// Reads the entry file and everything it imports into a [`Model`]. Returns `None` when the
/// entry cannot be read as TOSCA at all; every problem goes into `diags`.
pub fn read(
    loader: &mut Loader,
    entry: FileId,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Option<Model> {
    read_with(loader, entry, limits, &Variability::default(), diags).0
}

/// How a variable template (Variability4TOSCA) is resolved before it is read: the options and
/// the `--inputs`/`--set` values, of which those named in `variability.inputs` are taken.
/// Also carries the quirks in force (`--quirk`), which lenient readers consult.
#[derive(Default)]
pub struct Variability<'a> {
    pub options: variability::Options,
    pub given: variability::Given<'a>,
    pub quirks: crate::quirk::Quirks,
    /// The CSAR's `Entry-Definitions`, when the input is a CSAR (zipped or unpacked): TOSCA
    /// 1.0 XML artifact references are relative to the CSAR root it locates.
    pub csar_entry: Option<String>,
    /// The trees of imported files kept from earlier reads (the language server's re-checks);
    /// [`crate::yaml::TreeCache::none`] loads every file afresh.
    pub trees: crate::yaml::TreeCache,
}

/// What reading an entry gives besides its model.
#[derive(Default)]
pub struct Besides {
    /// The resolution of a variable template (Variability4TOSCA), when the entry was one.
    pub variability: Option<variability::Resolved>,
    /// The Simple Profile 1.3 trees TOSCA 1.0 XML was translated into, when the entry was
    /// XML: what `toscana convert` writes, read once with the model.
    pub xml: Option<xml::Translated>,
}

/// [`read`], resolving a variable template first; also returns the resolution, if there was
/// one, and the translation of an XML entry.
pub fn read_with(
    loader: &mut Loader,
    entry: FileId,
    limits: &Limits,
    variable: &Variability<'_>,
    diags: &mut Diagnostics,
) -> (Option<Model>, Besides) {
    let mut besides = Besides::default();
    let model = read_entry(loader, entry, limits, variable, &mut besides, diags);
    (model, besides)
}

fn read_entry(
    loader: &mut Loader,
    entry: FileId,
    limits: &Limits,
    variable: &Variability<'_>,
    besides: &mut Besides,
    diags: &mut Diagnostics,
) -> Option<Model> {
    if xml::looks_like_xml(&loader.sources().get(entry).text) {
        let translated = xml::read(
            loader,
            entry,
            &variable.quirks,
            variable.csar_entry.as_deref(),
            diags,
        )?;
        let translated = besides.xml.insert(translated);
        return read_xml(loader, entry, limits, variable, translated, diags);
    }
    let mut root = crate::yaml::load(loader.sources(), entry, limits, diags)?;
    if variable.quirks.has(Quirk::ThreePartVersions) {
        version::accept_three_part_spelling(&mut root, diags);
    }
    let Some(root_map) = root.as_map() else {
        diags.push(shape::wrong_shape(
            &root,
            "a TOSCA file",
            "a map of keynames",
        ));
        return None;
    };
    let (dialect, mut version) = detect(root_map, &root, true, diags)?;
    let root = if dialect == Dialect::Variability {
        let r = variability::resolve(&root, &variable.options, &variable.given, limits, diags)?;
        version = variability::transform::RESOLVED_VERSION.to_string();
        let tree = r.tree.clone();
        besides.variability = Some(r);
        tree
    } else {
        if !variable.options.is_default() {
            diags.push(
                Diagnostic::warning(
                    codes::VAR_IGNORED,
                    "variability options (--preset, --prune, --force-prune, --skip-check) are ignored: this is not a variable template",
                )
                .at(root_map
                    .entry("tosca_definitions_version")
                    .map_or(root.span, |e| e.value.span))
                .hint("they apply to templates with `tosca_definitions_version: tosca_variability_1_0`"),
            );
        }
        root
    };
    let root_map = root.as_map()?;
    let mut model = new_model(dialect, version, entry, root_map);
    model.in_range_function = variable.quirks.has(Quirk::InRange);
    model.max_type_depth = limits.max_type_depth;
    if dialect == Dialect::Tosca2 && variable.quirks.has(Quirk::OasisProfiles) {
        model.namespaces.allow_shadowing();
    }
    let version = model.version.clone();
    let mut walk = ImportWalk::with_profile(
        loader,
        limits,
        &variable.quirks,
        &variable.trees,
        diags,
        &mut model,
        &version,
    );
    walk.file(entry, root_map, None, Qualifier::default());
    if dialect == Dialect::Tosca2 {
        report_root_collisions(&model, loader.sources(), diags);
        report_shadowing(&model, diags);
    }
    let mut root = root;
    let template = root
        .as_map_mut()
        .and_then(|m| m.take(yaml::topology_key(dialect)));
    model.topology = read_topology(template, dialect, diags);
    Some(model)
}

/// Two types of one name in the entry's root namespace that are not one definition: the entry's
/// own and one imported without a namespace from a file first reached through a namespace, or
/// from a profile (§6.8.4 Namespaces, T2-NS-04). Definitions of one identity were reported as they
/// were read; these have different identities, so only the namespace shows they collide.
fn report_root_collisions(
    model: &Model,
    sources: &crate::source::SourceMap,
    diags: &mut Diagnostics,
) {
    let root: std::collections::HashSet<FileId> = model
        .namespaces
        .root_namespace(model.entry)
        .into_iter()
        .collect();
    let mut first: std::collections::HashMap<(crate::model::TypeKind, &str), (&str, Span)> =
        std::collections::HashMap::new();
    for ((kind, id), def) in &model.types {
        if !root.contains(&def.span.file) {
            continue;
        }
        match first.entry((*kind, def.name.as_str())) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert((id, def.span));
            }
            std::collections::hash_map::Entry::Occupied(o) => {
                let (earlier_id, earlier) = *o.get();
                let namespaces = &model.namespaces;
                if earlier_id == id
                    || namespaces.shadows(def.span.file, earlier.file)
                    || namespaces.shadows(earlier.file, def.span.file)
                {
                    // One definition, or (under `--quirk oasis-profiles`) one that shadows the
                    // other, which `report_shadowing` warns about.
                    continue;
                }
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_DUPLICATE,
                        format!(
                            "{} `{}` is defined twice in the root namespace of `{}`: as `{earlier_id}` and as `{id}`",
                            kind.noun(),
                            def.name,
                            sources.get(model.entry).name
                        ),
                    )
                    .at_with(def.span, "defined again here")
                    .label(earlier, "first defined here")
                    .hint(if namespaces.would_shadow(def.span.file, earlier.file)
                        || namespaces.would_shadow(earlier.file, def.span.file)
                    {
                        "names are unique in a namespace (§6.8.4 Namespaces): import one of the files with `namespace: N` and name its type `N:Name`, or rename one of them; `--quirk oasis-profiles` reads the definition of the importing file as shadowing the imported one"
                    } else {
                        "names are unique in a namespace (§6.8.4 Namespaces): import one of the files with `namespace: N` and name its type `N:Name`, or rename one of them"
                    }),
                );
            }
        }
    }
}

/// Under `--quirk oasis-profiles`: each definition that shadows a same-named one its file's
/// root imports bring in, warned about where it is defined, with the one it shadows.
fn report_shadowing(model: &Model, diags: &mut Diagnostics) {
    for &file in &model.files {
        for shadowing in model.namespaces.shadowed_in(file) {
            let (own, hidden) = (&shadowing.own, &shadowing.hidden);
            let (noun, spans) = match shadowing.space {
                Space::Type(kind) => (
                    kind.noun(),
                    model
                        .types
                        .get(&(kind, own.clone()))
                        .zip(model.types.get(&(kind, hidden.clone())))
                        .map(|(own, hidden)| (own.span, hidden.span)),
                ),
                Space::Repository => (
                    "repository",
                    model
                        .repositories
                        .get(own)
                        .zip(model.repositories.get(hidden))
                        .map(|(own, hidden)| (own.span, hidden.span)),
                ),
                Space::Function => (
                    "function",
                    model
                        .functions
                        .get(own)
                        .zip(model.functions.get(hidden))
                        .map(|(own, hidden)| (own.span, hidden.span)),
                ),
            };
            let Some((own, hidden)) = spans else {
                continue;
            };
            diags.push(
                Diagnostic::warning(
                    codes::TOSCA_DUPLICATE,
                    format!(
                        "{noun} `{}` is defined here as `{}` and imported into the same root namespace as `{}`; this definition shadows the imported one (--quirk oasis-profiles)",
                        shadowing.name, shadowing.own, shadowing.hidden
                    ),
                )
                .at_with(own, format!("`{}` in this file means this definition", shadowing.name))
                .label(hidden, "shadowed: not reachable by this name from this file")
                .hint("names are unique in a namespace (§6.8.4 Namespaces): import the other file with `namespace: N` to name its type `N:Name`, or rename this one"),
            );
        }
    }
}

/// The entry file's service template (the value of its `topology_template` or
/// `service_template`), with `copy` expanded.
fn read_topology(
    template: Option<Node>,
    dialect: Dialect,
    diags: &mut Diagnostics,
) -> Option<crate::model::TopologyTemplate> {
    let mut topology = yaml::read_topology(template?, dialect, diags)?;
    let rules = copy::Rules::of(dialect);
    copy::expand(&mut topology.node_templates, &rules.node, diags);
    if dialect != Dialect::Tosca2 {
        alias::read_as_copy(&mut topology.relationship_templates, diags);
    }
    copy::expand(
        &mut topology.relationship_templates,
        &rules.relationship,
        diags,
    );
    Some(topology)
}

/// The file or URL an import writes: the short form's string, or its `file` (Simple Profile)
/// or `url` (TOSCA 2.0) keyname when that is a string.
fn written_location(import: &Node) -> Option<crate::model::Text> {
    let written = match import.as_map() {
        Some(map) => map.get("file").or_else(|| map.get("url"))?,
        None => import,
    };
    Some(crate::model::Text {
        text: written.as_str()?.to_string(),
        span: written.span,
    })
}

/// A model of the entry file, before its definitions and imports are read.
fn new_model(dialect: Dialect, version: String, entry: FileId, root: &Map) -> Model {
    Model {
        dialect,
        version,
        entry,
        files: vec![entry],
        description: root.get("description").cloned().and_then(value::into_text),
        metadata: match dialect {
            Dialect::Tosca2 => root.get("metadata").cloned(),
            _ => simple_grammar::rules::metadata_with_top_level(root),
        }
        .map(value::into_value),
        types: IndexMap::default(),
        repositories: IndexMap::new(),
        topology: None,
        incomplete_types: false,
        namespace_prefixes: Default::default(),
        namespaces: Default::default(),
        functions: Default::default(),
        in_range_function: false,
        max_type_depth: Limits::default().max_type_depth,
        imports: Vec::new(),
    }
}

/// TOSCA 1.0 XML: the documents translated into Simple Profile 1.3 trees (see [`xml`]) are
/// read like YAML files with the 1.3 normative types.
fn read_xml(
    loader: &mut Loader,
    entry: FileId,
    limits: &Limits,
    variable: &Variability<'_>,
    translated: &xml::Translated,
    diags: &mut Diagnostics,
) -> Option<Model> {
    let (_, entry_tree) = translated.trees.first()?;
    let entry_map = entry_tree.as_map()?;
    let mut model = new_model(Dialect::Xml, xml::TOSCA_NS.to_string(), entry, entry_map);
    model.max_type_depth = limits.max_type_depth;
    model.incomplete_types = translated.incomplete;
    let mut walk = ImportWalk::with_profile(
        loader,
        limits,
        &variable.quirks,
        &variable.trees,
        diags,
        &mut model,
        xml::YAML_VERSION,
    );
    for (id, tree) in &translated.trees {
        if *id != entry {
            walk.model.files.push(*id);
        }
        if let Some(map) = tree.as_map() {
            walk.file(*id, map, None, Qualifier::default());
        }
    }
    let template = entry_map.get(yaml::topology_key(Dialect::Xml)).cloned();
    model.topology = read_topology(template, Dialect::Xml, diags);
    Some(model)
}

/// The dialect and version a file declares. `entry` says whether a missing or late version is
/// judged by the entry's rules (TOSCA 2.0 wants it as the first keyname).
fn detect(
    root: &Map,
    node: &Node,
    entry: bool,
    diags: &mut Diagnostics,
) -> Option<(Dialect, String)> {
    let Some(version_entry) = root.entry("tosca_definitions_version") else {
        diags.push(
            Diagnostic::error(codes::TOSCA_VERSION, "missing `tosca_definitions_version`")
                .at(Span { end: node.span.start, ..node.span })
                .hint("start the file with `tosca_definitions_version: tosca_simple_yaml_1_3` or `tosca_2_0`"),
        );
        return None;
    };
    let version = version_entry
        .value
        .scalar_text()
        .unwrap_or_default()
        .to_string();
    let Some(dialect) = version::dialect_of(&version) else {
        let known: Vec<&str> = version::KNOWN_VERSIONS.iter().map(|(v, _)| *v).collect();
        let d = Diagnostic::error(
            codes::TOSCA_VERSION,
            format!("unknown tosca_definitions_version `{version}`"),
        )
        .at_with(
            version_entry.value.span,
            "not a TOSCA version toscana knows",
        );
        let d = match version::three_part_spelling(&version) {
            Some(meant) => d.hint(format!(
                "write `{meant}`, the version this spelling means, or pass `--quirk three-part-versions` to read it so"
            )),
            None => d.did_you_mean(
                &version,
                &known,
                Some(format!("known versions: {}", known.join(", "))),
            ),
        };
        diags.push(d);
        return None;
    };
    let first_key = root.entries().first().map(|e| &e.key);
    if entry
        && dialect == Dialect::Tosca2
        && first_key.is_some_and(|k| k.span != version_entry.key.span)
    {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_VERSION,
                "`tosca_definitions_version` must be the first keyname of a TOSCA 2.0 file",
            )
            .at(version_entry.key.span),
        );
    }
    Some((dialect, version))
}

/// Depth-first walk over imports. `stack` holds the files being read, each with the span of
/// the import that led to it, so a cycle can be shown as the chain it is.
struct ImportWalk<'a> {
    loader: &'a mut Loader,
    limits: &'a Limits,
    quirks: &'a crate::quirk::Quirks,
    trees: &'a crate::yaml::TreeCache,
    diags: &'a mut Diagnostics,
    model: &'a mut Model,
    stack: Vec<(FileId, Option<Span>)>,
}

impl<'a> ImportWalk<'a> {
    /// A walk that has read the Simple Profile normative types of `version` (none for 2.0).
    fn with_profile(
        loader: &'a mut Loader,
        limits: &'a Limits,
        quirks: &'a crate::quirk::Quirks,
        trees: &'a crate::yaml::TreeCache,
        diags: &'a mut Diagnostics,
        model: &'a mut Model,
        version: &str,
    ) -> Self {
        let mut walk = ImportWalk {
            loader,
            limits,
            quirks,
            trees,
            diags,
            model,
            stack: Vec::new(),
        };
        for file in crate::profiles::simple_profile(version).unwrap_or_default() {
            walk.profile(file);
        }
        walk
    }

    /// Reads one file's definitions, then its imports. `qualifier` is what the identities of
    /// its TOSCA 2.0 types are qualified by when it declares no profile of its own.
    fn file(&mut self, file: FileId, root: &Map, via: Option<Span>, qualifier: Qualifier) {
        // Simple Profile files get qualifiers too: a file imported with `namespace_prefix: P`
        // defines `P:Name` (see [`crate::model::names`]).
        let qualifier = match root.get("profile").and_then(Node::as_str) {
            Some(profile) if self.model.dialect == Dialect::Tosca2 => Qualifier::profile(profile),
            _ => qualifier,
        };
        self.model.namespaces.enter(file, qualifier);
        self.stack.push((file, via));
        let rewritten = (self.model.dialect == Dialect::Tosca2
            && self.quirks.has(Quirk::OasisProfiles))
        .then(|| nested_refinements::rewrite(root, self.diags))
        .flatten();
        let imports = yaml::read_definitions(
            self.loader.sources(),
            file,
            rewritten.as_ref().unwrap_or(root),
            self.model,
            self.quirks,
            self.diags,
        );
        for import in imports {
            self.import(file, &import);
        }
        self.stack.pop();
    }

    /// Reads an embedded profile file (once): the Simple Profile's normative types, which every
    /// 1.x file gets implicitly, or a TOSCA 2.0 profile a file imports by name. Returns its id.
    fn profile(&mut self, file: &crate::profiles::ProfileFile) -> FileId {
        let id = self.loader.add_builtin(file.name, file.text);
        if !self.loader.take_builtin(id) {
            return id;
        }
        self.model.files.push(id);
        let sources = self.loader.sources();
        let Some(root) = self.trees.tree(sources, id, self.limits, self.diags, || {
            crate::yaml::load_recorded_apart(sources, id, file.events, self.limits)
        }) else {
            return id;
        };
        if let Some(map) = root.as_map() {
            self.file(id, map, None, Qualifier::default());
        }
        id
    }

    fn import(&mut self, importer: FileId, import: &yaml::ImportDecl) {
        if !self.follow(importer, import) {
            self.model
                .namespaces
                .failed(importer, import.namespace.as_deref());
        }
    }

    /// The file an import names by `url` (in its repository, when it names one), read through
    /// the loader; `None` when it cannot be read (reported).
    fn import_by_url(
        &mut self,
        importer: FileId,
        import: &yaml::ImportDecl,
    ) -> Option<(FileId, bool)> {
        let repository_url = match &import.repository {
            Some(name) => match self.model.repository(name, importer) {
                Some(repo) => Some(repo.url.clone()),
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            codes::TOSCA_UNKNOWN_NAME,
                            format!("unknown repository `{name}`"),
                        )
                        .at(import.node.span)
                        .hint("define it under `repositories`"),
                    );
                    return None;
                }
            },
            None => None,
        };
        let reference = ImportRef {
            url: &import.url,
            repository_url: repository_url.as_deref(),
        };
        self.loader
            .resolve_import(importer, &reference, import.node.span, self.diags)
    }

    /// Follows one import; false when what it names could not be read (reported), so names
    /// that may be defined there are not reported as unknown as well.
    fn follow(&mut self, importer: FileId, import: &yaml::ImportDecl) -> bool {
        let namespace = import.namespace.as_deref();
        if let Some(files) = import
            .profile
            .as_deref()
            .and_then(crate::profiles::tosca2_profile)
        {
            for file in files {
                let id = self.profile(file);
                self.model.namespaces.import(importer, id, namespace);
            }
            return true;
        }
        let (file, first_time) = match &import.profile {
            Some(name) => match self
                .loader
                .resolve_profile(name, import.node.span, self.diags)
            {
                ProfileLookup::Found(file, first_time) => (file, first_time),
                ProfileLookup::Unreadable => return false,
                ProfileLookup::Unknown => {
                    self.diags.push(unknown_profile(name, import.node.span));
                    return false;
                }
            },
            None => {
                let errors = self.diags.error_count();
                match self.import_by_url(importer, import) {
                    Some(found) => found,
                    // Skipped with a warning (a URL toscana does not fetch): not a failed
                    // import, so the names it would define are reported where they are used.
                    None => return self.diags.error_count() == errors,
                }
            }
        };
        self.model.imports.push(crate::model::Import {
            written: written_location(&import.node),
            file,
        });
        if let Some(pos) = self.stack.iter().position(|(f, _)| *f == file) {
            self.report_cycle(pos, import.node.span);
            return true;
        }
        self.model.namespaces.import(importer, file, namespace);
        if !first_time {
            return true;
        }
        if self.stack.len() >= self.limits.max_import_depth {
            self.diags.push(
                Diagnostic::error(
                    codes::IMPORT_LIMIT,
                    format!(
                        "imports nest deeper than the limit of {} levels",
                        self.limits.max_import_depth
                    ),
                )
                .at(import.node.span)
                .hint("raise the limit with --max-import-depth N if this is intended"),
            );
            return false;
        }
        self.model.files.push(file);
        let sources = self.loader.sources();
        let Some(loaded) = self.trees.tree(sources, file, self.limits, self.diags, || {
            crate::yaml::load_apart(sources, file, self.limits)
        }) else {
            return false;
        };
        // A kept tree is shared with later checks: the quirk's rewrite goes into a copy.
        let root = match self.quirks.has(Quirk::ThreePartVersions) {
            true => {
                let mut root = Node::clone(&loaded);
                version::accept_three_part_spelling(&mut root, self.diags);
                std::borrow::Cow::Owned(root)
            }
            false => std::borrow::Cow::Borrowed(&*loaded),
        };
        let Some(map) = root.as_map() else {
            self.diags.push(shape::wrong_shape(
                &*root,
                "an imported TOSCA file",
                "a map of keynames",
            ));
            return false;
        };
        let Some((dialect, _)) = detect(map, &root, false, self.diags) else {
            return false;
        };
        if (dialect == Dialect::Tosca2) != (self.model.dialect == Dialect::Tosca2) {
            self.diags.push(
                Diagnostic::error(
                    codes::TOSCA_VERSION,
                    "a TOSCA 2.0 file and a Simple Profile 1.x file cannot import each other",
                )
                .at(map
                    .entry("tosca_definitions_version")
                    .map_or(root.span, |e| e.value.span))
                .label(import.node.span, "imported here"),
            );
            return false;
        }
        let qualifier = self
            .model
            .namespaces
            .qualifier(importer)
            .imported(namespace);
        self.file(file, map, Some(import.node.span), qualifier);
        true
    }

    fn report_cycle(&mut self, from: usize, closing: Span) {
        let sources = self.loader.sources();
        let mut chain: Vec<&str> = self.stack[from..]
            .iter()
            .map(|(f, _)| sources.get(*f).name.as_str())
            .collect();
        chain.push(&sources.get(self.stack[from].0).name);
        let mut d = Diagnostic::error(
            codes::IMPORT_CYCLE,
            format!("import cycle: {}", chain.join(" → ")),
        )
        .at_with(closing, "this import closes the cycle");
        for (_, via) in &self.stack[from + 1..] {
            if let Some(span) = via {
                d = d.label(*span, "imported here");
            }
        }
        self.diags
            .push(d.hint("remove one of the imports in the chain"));
    }
}

/// A TOSCA 2.0 profile import of a name toscana neither embeds nor finds on `--profile-path`:
/// an import failure (§6.8.2.1 Importing Profiles, T2-IMPORT-10).
fn unknown_profile(name: &str, at: Span) -> Diagnostic {
    let embedded = crate::profiles::TOSCA2_PROFILE_NAMES
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    Diagnostic::error(
        codes::IMPORT_UNKNOWN_PROFILE,
        format!("unknown profile `{name}`: it is not embedded in toscana and no --profile-path folder holds it"),
    )
    .at_with(at, "no profile of this name")
    .hint(format!(
        "toscana embeds {embedded}; for another profile, pass --profile-path DIR where DIR lays profiles out by name (io/kubernetes/1.35/profile.yaml declares `profile: io.kubernetes:1.35`)"
    ))
}

#[cfg(test)]
mod tests {
    use super::written_location;
    use crate::diag::Diagnostics;
    use crate::limits::Limits;
    use crate::source::{Origin, SourceMap};

    /// The `imports` of `text`, each as the language server links it: the file or URL written.
    fn written(text: &str) -> Vec<Option<(String, u32, u32)>> {
        let mut sources = SourceMap::new();
        let file = sources.add("t.yaml", Origin::Stdin, text);
        let mut diags = Diagnostics::new();
        let root = crate::yaml::load(&sources, file, &Limits::default(), &mut diags).unwrap();
        let imports = root.as_map().and_then(|m| m.get("imports")).unwrap();
        let imports = imports.as_seq().unwrap();
        imports
            .iter()
            .map(|i| written_location(i).map(|t| (t.text, t.span.line, t.span.col)))
            .collect()
    }

    #[test]
    fn an_import_is_linked_by_the_file_or_url_it_writes_in_any_form() {
        let found = written(
            "imports:\n  - types.yaml\n  - file: more.yaml\n  - url: 'other.yaml'\n  - profile: org.oasis-open.simple:2.0\n  - file: [not, text]\n",
        );
        assert_eq!(
            found,
            [
                Some(("types.yaml".to_string(), 2, 5)),
                Some(("more.yaml".to_string(), 3, 11)),
                Some(("other.yaml".to_string(), 4, 10)),
                None,
                None,
            ]
        );
    }
}
