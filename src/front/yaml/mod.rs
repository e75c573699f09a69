//! The YAML dialects (Simple Profile 1.x and TOSCA 2.0): one file's definitions into the model.
//!
//! One reader files both dialects' definitions and templates into the model. The keynames it
//! checks as it reads a Simple Profile file are those of the 1.x grammar,
//! [`super::simple_grammar`], which also applies their version rules; a TOSCA 2.0 file is held
//! to its own grammar, [`super::tosca2`], before this reader takes what is usable of it.

use crate::diag::{Diagnostic, Diagnostics, Subject, codes};
use crate::ir::Dialect;
use crate::model::{Model, Named, Repository, TopologyTemplate, TypeDef, TypeKind};
use crate::source::{FileId, SourceMap, Span};
use crate::yaml::{Map, Node};

use super::simple_grammar::{E, keynames};
use crate::model::shape;

/// One import as written: where, and through which repository.
#[derive(Debug, Clone)]
pub struct ImportDecl {
    pub url: String,
    /// A TOSCA 2.0 import by profile name (then `url` is empty).
    pub profile: Option<String>,
    pub repository: Option<String>,
    /// The namespace the import's definitions go into (2.0 `namespace`, 1.x
    /// `namespace_prefix`); `None` for the root namespace.
    pub namespace: Option<String>,
    pub node: Node,
}

/// Reads the definitions of one file (types, repositories) into `model` and returns its imports.
/// The entry file's service template is read by [`read_topology`].
pub fn read_definitions(
    sources: &SourceMap,
    file: FileId,
    root: &Map,
    model: &mut Model,
    quirks: &crate::quirk::Quirks,
    diags: &mut Diagnostics,
) -> Vec<ImportDecl> {
    let dialect = model.dialect;
    // In a TOSCA 2.0 file the 2.0 grammar reports wrong shapes; the readers below only take
    // what is usable, so they report shapes for the Simple Profile only (see [`shapes`]).
    if dialect == Dialect::Tosca2 {
        super::tosca2::check_file(root, file == model.entry, diags);
        super::tosca2::check_dsl_anchors(sources, root, diags);
    } else {
        shape::check_keys(root, keynames(E::File), "a TOSCA file", diags);
        super::simple_grammar::check_file(
            root,
            super::simple_grammar::Lenience {
                newer_keynames: quirks.has(crate::quirk::Quirk::NewerKeynames),
                etsi_nfv: quirks.has(crate::quirk::Quirk::EtsiNfv),
            },
            diags,
        );
    }

    if !matches!(sources.get(file).origin, crate::span::Origin::Builtin(_)) {
        super::data_types::check(root, dialect == Dialect::Tosca2, diags);
    }

    if let Some(repos) = root.get("repositories") {
        for repo in shape::named_to(repos, "`repositories`", shapes(dialect, diags)) {
            if let Some(url) = repository_url(&repo.def, dialect, diags) {
                let id = model.namespaces.id(file, &repo.name);
                model.namespaces.define_repository(file, &repo.name, &id);
                if let Some(earlier) = model.repositories.get(&id)
                    && dialect == Dialect::Tosca2
                {
                    // One definition read through two files is harmless; another one in the
                    // same namespace is a duplicate (§6.8.4 Namespaces, T2-REPO-04).
                    if sources.slice(earlier.definition) != sources.slice(repo.def.span) {
                        diags.push(defined_twice(
                            &format!("repository `{}`", repo.name),
                            repo.span,
                            earlier.span,
                            dialect,
                        ));
                    }
                    continue;
                }
                model.repositories.insert(
                    id,
                    Repository {
                        url,
                        span: repo.span,
                        definition: repo.def.span,
                        credential: repo.def.as_map().and_then(|m| m.get("credential")).cloned(),
                    },
                );
            }
        }
    }

    for kind in TypeKind::ALL {
        let Some(section) = root.get(kind.section()) else {
            continue;
        };
        let sink = shapes(dialect, diags);
        for named in shape::named_to(section, &format!("`{}`", kind.section()), sink) {
            add_type(sources, model, kind, named, diags);
        }
    }

    if dialect == Dialect::Tosca2
        && let Some(functions) = root.get("functions")
    {
        // The 2.0 grammar (front::tosca2) reports a `functions` that is not a map.
        for named in shape::named_to(functions, "`functions`", None) {
            add_function(model, named, diags);
        }
    }

    // An imported file's template is not part of the importing service: imports bring in
    // definitions (A.9.3.6 imports; §6.8.1 Import Definitions, T2-IMPORT-11), so it is neither
    // merged nor checked, and a warning says so. An imported template with
    // `substitution_mappings` is a candidate for substituting a node of the importing one
    // (resolve::substitution), so it is not ignored.
    let substitutes = |t: &Node| {
        t.as_map()
            .is_some_and(|m| m.contains_key("substitution_mappings"))
    };
    if file != model.entry
        && let Some(entry) = root.entry(topology_key(dialect))
        && !substitutes(&entry.value)
    {
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_UNSUPPORTED,
                format!(
                    "the `{}` of an imported file is not part of this service; ignored",
                    entry.key.scalar_text().unwrap_or_default()
                ),
            )
            .at(entry.key.span)
            .hint(if dialect == Dialect::Tosca2 {
                "imports bring in type, repository and function definitions (§6.8.1 Import Definitions), and a parser accepts one TOSCA file plus imported files without a `service_template` (§4.2.1 Parser): pass this file itself to check or translate its template"
            } else {
                "imports bring in TOSCA Definitions documents of reusable type definitions (A.9.3.6 imports): pass this file itself to check or translate its template"
            }),
        );
    }

    match root.get("imports") {
        Some(imports) => read_imports(imports, dialect, model, diags),
        None => Vec::new(),
    }
}

/// `what` (`node type `X``) defined at `at` after a different definition at `earlier`, in one
/// namespace (TOSCA 2.0, §6.8.4 Namespaces) or in the one namespace of Simple Profile files.
fn defined_twice(what: &str, at: Span, earlier: Span, dialect: Dialect) -> Diagnostic {
    Diagnostic::error(
        codes::TOSCA_DUPLICATE,
        format!("{what} is defined twice, differently"),
    )
    .at_with(at, "defined again here")
    .label(earlier, "first defined here")
    .hint(if dialect == Dialect::Tosca2 {
        "both are in one namespace (§6.8.4 Namespaces): rename one of them, or import one file with `namespace: N` and name what it defines `N:Name`"
    } else {
        "rename one of them, or import the definition from one place"
    })
}

fn repository_url(def: &Node, dialect: Dialect, diags: &mut Diagnostics) -> Option<String> {
    if let Some(url) = def.as_str() {
        return Some(url.to_string());
    }
    if dialect == Dialect::Tosca2 {
        // The 2.0 grammar (front::tosca2) has reported what is wrong with it.
        return def.as_map()?.get("url")?.as_str().map(str::to_string);
    }
    let map = shape::map(def, "a repository definition", diags)?;
    shape::check_keys(
        map,
        &["description", "url", "credential", "metadata"],
        "a repository definition",
        diags,
    );
    match map.get("url") {
        Some(url) => shape::text(url, "a repository `url`", diags),
        None => {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    "repository definition has no `url`",
                )
                .at(def.span)
                .hint("add `url: <location of the repository>`"),
            );
            None
        }
    }
}

fn add_type(
    sources: &SourceMap,
    model: &mut Model,
    kind: TypeKind,
    named: Named,
    diags: &mut Diagnostics,
) {
    let mut sink = shapes(model.dialect, diags);
    let derived_from = match named.def.as_map() {
        Some(map) => map.get("derived_from").and_then(|d| {
            shape::text_to(d, "`derived_from`", sink.as_deref_mut()).map(|parent| (parent, d.span))
        }),
        None if named.def.is_null() => None,
        None => {
            if let Some(diags) = sink {
                diags.push(shape::wrong_shape(
                    &named.def,
                    format!("the {} `{}`", kind.noun(), named.name),
                    "a map",
                ));
            }
            return;
        }
    };
    let id = model.namespaces.id(named.span.file, &named.name);
    model
        .namespaces
        .define(named.span.file, kind, &named.name, &id);
    let key = (kind, id);
    let builtin =
        model
            .types
            .get(&key)
            .and_then(|earlier| match &sources.get(earlier.span.file).origin {
                crate::source::Origin::Builtin(file) => Some(file.as_str()),
                _ => None,
            });
    if builtin.is_some_and(crate::profiles::is_non_normative) {
        // A file's own definition of a non-normative Simple Profile type (WordPress, MySQL,
        // Docker, ...) is ordinary, not a mistake: it is used without a word.
    } else if builtin.is_some() {
        // Real files sometimes carry their own copy of normative types; theirs is used.
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_DUPLICATE,
                format!(
                    "{} `{}` redefines a normative type; this definition is used",
                    kind.noun(),
                    named.name
                ),
            )
            .at(named.span),
        );
    } else if let Some(earlier) = model.types.get(&key) {
        // The same definition reached through two files is harmless; a different one is not.
        // Compared by content, not source text, so a copy whose text merely ends before another
        // key or at the end of its file is the same definition.
        if !earlier.def.same_content(&named.def) {
            diags.push(defined_twice(
                &format!("{} `{}`", kind.noun(), named.name),
                named.span,
                earlier.span,
                model.dialect,
            ));
        }
        return;
    }
    model.types.insert(
        key,
        TypeDef {
            name: named.name,
            kind,
            derived_from,
            def: named.def,
            span: named.span,
        },
    );
}

/// A custom function definition outside a service template, keyed by its identity like a type
/// (§10.4 Function Definitions). The same definition reached through two files is harmless; two
/// different ones of one name in one namespace are not.
fn add_function(model: &mut Model, named: Named, diags: &mut Diagnostics) {
    let id = model.namespaces.id(named.span.file, &named.name);
    model
        .namespaces
        .define_function(named.span.file, &named.name, &id);
    if let Some(earlier) = model.functions.get(&id) {
        if !earlier.def.same_content(&named.def) {
            diags.push(defined_twice(
                &format!("function `{}`", named.name),
                named.span,
                earlier.span,
                model.dialect,
            ));
        }
        return;
    }
    model.functions.insert(id, named);
}

fn read_imports(
    imports: &Node,
    dialect: Dialect,
    model: &mut Model,
    diags: &mut Diagnostics,
) -> Vec<ImportDecl> {
    let Some(items) = shape::seq_to(imports, "`imports`", shapes(dialect, diags)) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let body = named_import_body(item).unwrap_or(item);
        if let Some(url) = body.as_str() {
            out.push(ImportDecl {
                url: url.to_string(),
                profile: None,
                repository: None,
                namespace: None,
                node: body.clone(),
            });
            continue;
        }
        if !body.is_null() && body.as_map().is_none() {
            if let Some(diags) = shapes(dialect, diags) {
                diags.push(shape::wrong_shape(
                    body,
                    "an import",
                    "a file name or a map of import keynames",
                ));
            }
            continue;
        }
        let Some(map) = shape::map_to(body, "an import", shapes(dialect, diags)) else {
            continue;
        };
        if dialect != Dialect::Tosca2 {
            shape::check_keys(map, keynames(E::Import), "an import", diags);
        }
        let mut namespace = None;
        for key in ["namespace_prefix", "namespace"] {
            if let Some(prefix) = map
                .get(key)
                .and_then(|p| shape::text(p, format!("an import's `{key}`"), diags))
            {
                model.namespace_prefixes.insert(prefix.clone());
                namespace = Some(prefix);
            }
        }
        if let Some(profile) = map.get("profile") {
            if let Some(name) = profile.as_str() {
                out.push(ImportDecl {
                    url: String::new(),
                    profile: Some(name.to_string()),
                    repository: None,
                    namespace,
                    node: profile.clone(),
                });
            }
            continue;
        }
        let url_key = if dialect == Dialect::Tosca2 {
            "url"
        } else {
            "file"
        };
        let Some(url_node) = map.get(url_key) else {
            if dialect == Dialect::Tosca2 {
                // Reported by the 2.0 grammar (neither `url` nor `profile`).
                continue;
            }
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!("import has no `{url_key}`"),
                )
                .at(body.span)
                .hint(format!(
                    "add `{url_key}: <path or URL of the file to import>`"
                )),
            );
            continue;
        };
        let mut sink = shapes(dialect, diags);
        let Some(url) = shape::text_to(
            url_node,
            format!("an import's `{url_key}`"),
            sink.as_deref_mut(),
        ) else {
            continue;
        };
        let repository = map
            .get("repository")
            .and_then(|r| shape::text_to(r, "an import's `repository`", sink));
        out.push(ImportDecl {
            url,
            profile: None,
            repository,
            namespace,
            node: url_node.clone(),
        });
    }
    out
}

/// TOSCA 1.0 drafts wrote imports as `- some_name: file.yaml` or `- some_name: {file: ...}`:
/// the body of such a single-entry map whose key is not an import keyname.
fn named_import_body(item: &Node) -> Option<&Node> {
    let map = item.as_map()?;
    let [entry] = map.entries() else { return None };
    let key = entry.key.scalar_text()?;
    let is_keyname = keynames(E::Import).contains(&key) || super::tosca2::is_import_keyname(key);
    (!is_keyname).then_some(&entry.value)
}

/// Reads the entry file's service template (the value of `topology_template` or
/// `service_template`, taken out of the tree so its templates move into the model instead of
/// being copied), checking its keynames.
pub fn read_topology(
    mut node: Node,
    dialect: Dialect,
    diags: &mut Diagnostics,
) -> Option<TopologyTemplate> {
    // A TOSCA 2.0 service template's shapes and keynames are checked, as errors, by the 2.0
    // grammar (front::tosca2): this reading reports for the Simple Profile only.
    let mut diags = shapes(dialect, diags);
    let what = format!("`{}`", topology_key(dialect));
    let map = shape::map_to(&node, &what, diags.as_deref_mut())?;
    let warn_keys = diags.is_some();
    if let Some(diags) = diags.as_deref_mut() {
        shape::check_keys(map, keynames(E::Topology), &what, diags);
    }
    let span = node.span;
    let map = node.as_map_mut()?;
    let inputs = section(
        warn_keys,
        map,
        "inputs",
        keynames(E::TopologyParameter),
        "input",
        diags.as_deref_mut(),
    );
    let node_templates = section(
        warn_keys,
        map,
        "node_templates",
        keynames(E::NodeTemplate),
        "node template",
        diags.as_deref_mut(),
    );
    let relationship_templates = section(
        warn_keys,
        map,
        "relationship_templates",
        keynames(E::RelationshipTemplate),
        "relationship template",
        diags.as_deref_mut(),
    );
    let groups = section(
        warn_keys,
        map,
        "groups",
        keynames(E::Group),
        "group",
        diags.as_deref_mut(),
    );
    let policies = policies(warn_keys, map, diags.as_deref_mut());
    let outputs = section(
        warn_keys,
        map,
        "outputs",
        keynames(E::TopologyParameter),
        "output",
        diags.as_deref_mut(),
    );
    let workflows = map
        .take("workflows")
        .map(|w| shape::named_owned_to(w, "`workflows`", diags.as_deref_mut()))
        .unwrap_or_default();
    Some(TopologyTemplate {
        span,
        description: map
            .take("description")
            .and_then(crate::front::value::into_text),
        inputs,
        node_templates,
        relationship_templates,
        groups: groups.into_iter().map(super::grouping::read).collect(),
        policies: policies.into_iter().map(super::grouping::read).collect(),
        outputs: super::definitions::section(outputs),
        workflows,
        substitution_mappings: map
            .take("substitution_mappings")
            .map(|m| Box::new(crate::front::substitution::read(m, dialect))),
        functions: match map.take("functions") {
            Some(f) if dialect == Dialect::Tosca2 => shape::named_owned_to(f, "`functions`", diags),
            _ => Vec::new(),
        },
    })
}

/// The entries of one section, taken out of `map`, each checked against its keynames.
fn section(
    warn_keys: bool,
    map: &mut Map,
    key: &str,
    keys: &[&str],
    what: &'static str,
    mut diags: Option<&mut Diagnostics>,
) -> Vec<Named> {
    let Some(node) = map.take(key) else {
        return Vec::new();
    };
    let entries = shape::named_owned_to(node, Subject::quoted(key), diags.as_deref_mut());
    let Some(diags) = diags else {
        return entries;
    };
    for e in &entries {
        match e.def.as_map() {
            Some(m) if warn_keys => shape::check_keys(m, keys, Subject::new(what, &e.name), diags),
            Some(_) => {}
            // Outputs and inputs may be written in short form in some tools; nulls were reported.
            None if key == "outputs" || key == "inputs" || e.def.is_null() => {}
            None => diags.push(shape::wrong_shape(
                &e.def,
                format!("{what} `{}`", e.name),
                "a map",
            )),
        }
    }
    entries
}

/// Policies are a list of single-entry maps in 1.x and 2.0 (a map is accepted too, as some
/// tools write it).
fn policies(warn_keys: bool, map: &mut Map, mut diags: Option<&mut Diagnostics>) -> Vec<Named> {
    let Some(node) = map.take("policies") else {
        return Vec::new();
    };
    let named: Vec<Named> = match node.kind {
        crate::yaml::Kind::Seq(items) => {
            let mut out = Vec::new();
            for item in items {
                out.extend(shape::named_owned_to(
                    item,
                    "a policy entry",
                    diags.as_deref_mut(),
                ));
            }
            out
        }
        _ => shape::named_owned_to(node, "`policies`", diags.as_deref_mut()),
    };
    let Some(diags) = diags else {
        return named;
    };
    for p in &named {
        if let Some(m) = p.def.as_map().filter(|_| warn_keys) {
            shape::check_keys(
                m,
                keynames(E::Policy),
                &format!("policy `{}`", p.name),
                diags,
            );
        }
    }
    named
}

/// Where the shape messages of the generic readers go: to the user for Simple Profile files,
/// whose shapes this reader is the first to read; nowhere for TOSCA 2.0 files, whose grammar
/// (front::tosca2) has already reported them where it read them.
fn shapes(dialect: Dialect, diags: &mut Diagnostics) -> Option<&mut Diagnostics> {
    (dialect != Dialect::Tosca2).then_some(diags)
}

/// The keyname that holds the service template in this dialect.
pub fn topology_key(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Tosca2 => "service_template",
        _ => "topology_template",
    }
}
