//! The generic backend engine ([`Engine`]): loads a mapping and its templates, renders a topology.

use std::collections::HashMap;
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use tera::{Context, ErrorKind, Tera};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::canonical;
use crate::limits::Limits;
use crate::source::{FileId, Origin, SourceFile, SourceMap, Span};

use super::binds::BindSchema;
use super::meanings::Meanings;
use super::rules::{self, Action, Document, Located, Mapping, Rule, Target};
use super::shared::{json_to_tera, to_tera};
use super::{BuiltinBackend, Element, ElementContext, OutputFile, filters};

/// The name of the mapping file in a backend folder.
pub const MAPPING_FILE: &str = "mapping.yaml";

/// How deep `--backend-dir` is searched for templates; also stops symlink loops.
const MAX_TEMPLATE_DEPTH: usize = 16;

/// A loaded backend: its rules in match order, its documents and its compiled templates; what
/// every [`super::Backend`] renders with.
///
/// Built by [`Engine::load`], which reports every mistake in the mapping file or the templates;
/// an `Engine` that exists is consistent (every rule names a template that compiled), so
/// [`Engine::render`] only meets errors that depend on the topology.
pub struct Engine {
    name: String,
    description: Option<String>,
    stdout_separator: Option<String>,
    rules: Vec<Rule>,
    /// Each rule's `match.type` names in their canonical form ([`canonical`]), so matching an
    /// element canonicalises its ancestry once rather than once per rule and name.
    patterns: Vec<Vec<String>>,
    documents: Vec<Document>,
    /// Every section a rule names, in first-mention order, so documents can iterate over a
    /// section that received nothing.
    sections: Vec<String>,
    /// The templates, by name.
    tera: Tera,
    /// Where each template came from, for error spans.
    template_files: HashMap<String, (FileId, SourceFile)>,
    /// Output paths that are templates themselves, compiled apart so their names cannot clash
    /// with template files: `rules[i]` / `documents[i]` → the output's span in the mapping.
    paths: Tera,
    path_spans: HashMap<String, Span>,
    /// What each relationship means to the backend's Rust (`relationships:`).
    meanings: Meanings,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("name", &self.name)
            .field("rules", &self.rules.len())
            .field("documents", &self.documents.len())
            .finish()
    }
}

/// Where one output of a render came from, for the duplicate-path error.
struct Origin2 {
    who: String,
    span: Span,
}

impl Engine {
    /// Builds a backend from an embedded one and/or a user folder (`--backend-dir DIR`).
    ///
    /// `DIR/mapping.yaml` rules come *before* the built-in rules (first match wins), its
    /// documents replace built-in documents with the same `output` and are otherwise added, and
    /// its `backend`, `description` and `stdout_separator` win. Every other file under DIR
    /// (except hidden ones, whose name starts with `.`) is a template named by its `/`-separated
    /// relative path and replaces the built-in template of that name. With no built-in backend,
    /// DIR alone is a whole backend and must have a mapping file.
    ///
    /// Every text read is added to `sources`, so problems are diagnostics with file:line:col.
    /// Returns `None` when any error was found.
    pub fn load(
        builtin: Option<&BuiltinBackend>,
        backend_dir: Option<&Path>,
        sources: &mut SourceMap,
        limits: &Limits,
        diags: &mut Diagnostics,
    ) -> Option<Engine> {
        let errors_before = diags.error_count();
        let mut templates: IndexMap<String, FileId> = IndexMap::new();
        let mut base: Option<Mapping> = None;
        if let Some(b) = builtin {
            let id = sources.add(
                format!("<builtin {}>/{MAPPING_FILE}", b.name),
                Origin::Builtin(format!("{}/{MAPPING_FILE}", b.name)),
                b.mapping,
            );
            base = read_mapping(sources, id, limits, diags);
            for (name, text) in b.templates {
                let id = sources.add(
                    format!("<builtin {}>/{name}", b.name),
                    Origin::Builtin(format!("{}/{name}", b.name)),
                    *text,
                );
                templates.insert((*name).to_string(), id);
            }
        }
        let mut overlay: Option<Mapping> = None;
        if let Some(dir) = backend_dir {
            match fs::metadata(dir) {
                Ok(meta) if meta.is_dir() => {
                    let mapping_path = dir.join(MAPPING_FILE);
                    if mapping_path.is_file() {
                        if let Some(id) = read_text(&mapping_path, sources, limits, diags) {
                            overlay = read_mapping(sources, id, limits, diags);
                        }
                    } else if builtin.is_none() {
                        diags.push(
                            Diagnostic::error(
                                codes::BACKEND_UNKNOWN,
                                format!("`{}` has no {MAPPING_FILE}", dir.display()),
                            )
                            .hint("a backend folder needs a mapping.yaml with its rules; see backends/README.md"),
                        );
                    }
                    let mut found = Vec::new();
                    collect_templates(dir, dir, 0, &mut found, diags);
                    found.sort();
                    for (name, path) in found {
                        if let Some(id) = read_text(&path, sources, limits, diags) {
                            templates.insert(name, id);
                        }
                    }
                }
                Ok(_) => diags.push(Diagnostic::error(
                    codes::BACKEND_UNKNOWN,
                    format!("the backend folder `{}` is not a directory", dir.display()),
                )),
                Err(e) => diags.push(Diagnostic::error(
                    codes::BACKEND_UNKNOWN,
                    format!("cannot read the backend folder `{}`: {e}", dir.display()),
                )),
            }
        }
        if diags.error_count() > errors_before {
            return None;
        }
        let name = overlay
            .as_ref()
            .and_then(|m| m.backend.clone())
            .or_else(|| base.as_ref().and_then(|m| m.backend.clone()))
            .or_else(|| builtin.map(|b| b.name.to_string()))
            .or_else(|| {
                backend_dir
                    .and_then(|d| d.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "custom".to_string());
        let pick = |f: fn(&Mapping) -> Option<String>| {
            overlay
                .as_ref()
                .and_then(f)
                .or_else(|| base.as_ref().and_then(f))
        };
        let description = pick(|m| m.description.clone());
        let base_meanings = base.as_ref().map(|m| m.relationships.clone());
        let meanings = match &overlay {
            Some(o) => base_meanings.unwrap_or_default().overlaid(&o.relationships),
            None => base_meanings.unwrap_or_default(),
        };
        let stdout_separator = pick(|m| m.stdout_separator.clone());
        let mut rules: Vec<Rule> = Vec::new();
        let mut documents: Vec<Document> = Vec::new();
        if let Some(o) = &overlay {
            rules.extend(o.rules.iter().cloned());
        }
        if let Some(b) = &base {
            rules.extend(b.rules.iter().cloned());
            documents.extend(b.documents.iter().cloned());
        }
        if let Some(o) = &overlay {
            for doc in &o.documents {
                match documents
                    .iter_mut()
                    .find(|d| d.output.text == doc.output.text)
                {
                    Some(slot) => *slot = doc.clone(),
                    None => documents.push(doc.clone()),
                }
            }
        }
        if rules.is_empty() && documents.is_empty() {
            diags.push(
                Diagnostic::error(codes::BACKEND_RULES, format!("the {name} backend has no rules and no documents"))
                    .hint("add `rules:` (what each element becomes) or `documents:` (files for the whole topology)"),
            );
            return None;
        }

        let template_files: HashMap<String, (FileId, SourceFile)> = templates
            .iter()
            .map(|(n, &id)| (n.clone(), (id, sources.get(id).clone())))
            .collect();
        let tera = compile(
            templates
                .iter()
                .map(|(n, &id)| (n.as_str(), &*sources.get(id).text)),
            &template_files,
            diags,
        );

        // Every template a rule or document names must exist.
        let mut named: Vec<&Located> = Vec::new();
        for rule in &rules {
            if let Action::Render { template, .. } = &rule.action {
                named.push(template);
            }
        }
        named.extend(documents.iter().map(|d| &d.template));
        for t in named {
            if !templates.contains_key(&t.text) {
                let mut known: Vec<&str> = templates.keys().map(String::as_str).collect();
                known.sort_unstable();
                let hint = if known.is_empty() {
                    "this backend has no templates".to_string()
                } else {
                    format!("known templates: {}", known.join(", "))
                };
                diags.push(
                    Diagnostic::error(
                        codes::BACKEND_RULES,
                        format!("there is no template `{}`", t.text),
                    )
                    .at(t.span)
                    .hint(hint),
                );
            }
        }

        // Output paths that contain template syntax are compiled once.
        let mut path_spans = HashMap::new();
        let mut path_templates: Vec<(String, String)> = Vec::new();
        let outputs = rules
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match &r.action {
                Action::Render {
                    target: Target::File(o),
                    ..
                } => Some((format!("rules[{i}].output"), o)),
                _ => None,
            })
            .chain(
                documents
                    .iter()
                    .enumerate()
                    .map(|(i, d)| (format!("documents[{i}].output"), &d.output)),
            );
        for (key, output) in outputs {
            if is_template(&output.text) {
                path_spans.insert(key.clone(), output.span);
                path_templates.push((key, output.text.clone()));
            }
        }
        let paths = compile_paths(&path_templates, &path_spans, diags);

        let mut sections: Vec<String> = Vec::new();
        for rule in &rules {
            if let Action::Render {
                target: Target::Section(s),
                ..
            } = &rule.action
                && !sections.contains(&s.text)
            {
                sections.push(s.text.clone());
            }
        }

        if diags.error_count() > errors_before {
            return None;
        }
        let patterns = rules
            .iter()
            .map(|r| r.types.iter().map(|t| canonical(t).to_string()).collect())
            .collect();
        Some(Engine {
            name,
            description,
            stdout_separator,
            rules,
            patterns,
            documents,
            sections,
            tera: tera?,
            template_files,
            paths: paths?,
            path_spans,
            meanings,
        })
    }

    /// Checks the `bind` of every rule and document against what the backend's Rust reads
    /// ([`BindSchema`]); false when a key or role is unknown (each reported at its place).
    pub fn check_binds(&self, schema: &BindSchema, diags: &mut Diagnostics) -> bool {
        let rules = self.rules.iter().map(|r| &r.bind_keys);
        let documents = self.documents.iter().map(|d| &d.bind_keys);
        // Every bind is checked, so all unknown keys are reported at once.
        let failed = rules
            .chain(documents)
            .filter(|keys| !schema.check(keys, diags))
            .count();
        failed == 0
    }

    /// What each relationship means to this backend (its mapping's `relationships:`).
    pub fn meanings(&self) -> &Meanings {
        &self.meanings
    }

    /// The first rule that takes `element` (kind, and `type` in its ancestry), with its index.
    /// A type matches as [`crate::ir::type_matches`] says: an ancestry entry with the same
    /// canonical name.
    fn rule_for(&self, element: &Element) -> Option<(usize, &Rule)> {
        let ancestry: Vec<&str> = element.types.iter().map(|t| canonical(t)).collect();
        self.rules
            .iter()
            .zip(&self.patterns)
            .enumerate()
            .find(|(_, (r, patterns))| {
                r.kind == element.kind
                    && (patterns.is_empty()
                        || patterns.iter().any(|p| ancestry.contains(&p.as_str())))
            })
            .map(|(i, (r, _))| (i, r))
    }

    /// The index (in match order) and `bind` map of the rule that takes `element`, or `None`
    /// when no rule does (a `skip` rule counts). Lets a backend's own Rust read data its rules
    /// carry, such as the Graphviz style of a type family, without matching types a second time.
    pub fn bind_for(&self, element: &Element) -> Option<(usize, &serde_json::Value)> {
        self.rule_for(element).map(|(i, r)| (i, &r.bind))
    }

    /// The template of the rule that renders `element`, or `None` when no rule does or the rule
    /// is a `skip`. Lets a backend's own Rust name the template when it checks what came out.
    pub fn template_for(&self, element: &Element) -> Option<&str> {
        match &self.rule_for(element)?.1.action {
            Action::Render { template, .. } => Some(&template.text),
            Action::Skip => None,
        }
    }

    /// The backend's name, as used in messages ("has no k8s rule").
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The mapping file's `description`, for `--help`-style listings.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// How several files are joined on standard output; `None` means `# ==> path <==` headers
    /// (see [`super::write_outputs`]).
    pub fn stdout_separator(&self) -> Option<&str> {
        self.stdout_separator.as_deref()
    }

    /// Renders a topology.
    ///
    /// Each element takes the first rule whose kind matches and whose `type` (if any) is in its
    /// ancestry ([`crate::ir::type_matches`]); an element no rule takes is a `backend::skipped`
    /// warning at its span. Then each document is rendered with every section. Template errors, unsafe or
    /// duplicate output paths are errors in `diags`. Files whose content is only whitespace are
    /// left out (a template declines by rendering nothing). The result is sorted by path and is
    /// byte-for-byte the same for the same input.
    pub fn render(
        &self,
        topology: tera::Value,
        elements: &[Element],
        diags: &mut Diagnostics,
    ) -> Vec<OutputFile> {
        self.render_with(topology, elements, Vec::new(), diags)
    }

    /// [`Engine::render`] with extra values in every template's context (rules, documents and
    /// output paths): each key of `extra` becomes a variable. A built-in backend uses this for
    /// what its own Rust computes from the topology and its command-line options (Graphviz:
    /// `options` and `graph`); `element`, `kind`, `topology`, `bind` and `sections` win over a
    /// key of the same name.
    ///
    /// `topology` is what [`super::topology_value`] made, and what templates see as `topology`;
    /// each element's context shares its parts. The values of `extra` are Tera values
    /// ([`super::to_tera`] makes them from anything serde serializes).
    pub fn render_with(
        &self,
        topology: tera::Value,
        elements: &[Element],
        extra: Vec<(String, tera::Value)>,
        diags: &mut Diagnostics,
    ) -> Vec<OutputFile> {
        let base = || {
            let mut ctx = Context::new();
            for (k, v) in &extra {
                ctx.insert_value(k.clone(), v.clone());
            }
            ctx
        };
        let binds: Vec<tera::Value> = self.rules.iter().map(|r| json_to_tera(&r.bind)).collect();
        let mut files: Vec<OutputFile> = Vec::new();
        let mut origins: HashMap<String, Origin2> = HashMap::new();
        let mut sections: IndexMap<String, Vec<String>> = self
            .sections
            .iter()
            .map(|s| (s.clone(), Vec::new()))
            .collect();

        for element in elements {
            let who = format!("{} `{}`", element.kind, element.name);
            let Some((i, rule)) = self.rule_for(element) else {
                let of_type = element
                    .types
                    .first()
                    .map(|t| format!(" of type {t}"))
                    .unwrap_or_default();
                let mut d = Diagnostic::warning(
                    codes::BACKEND_SKIPPED,
                    format!("{who}{of_type} has no {} rule; skipped", self.name),
                )
                .hint(format!(
                    "add a rule with `match: {{ kind: {} }}` in a mapping.yaml given with --backend-dir, or `skip: reason` to silence this",
                    element.kind
                ));
                if let Some(span) = element.span {
                    d = d.at(span);
                }
                diags.push(d);
                continue;
            };
            let Action::Render { template, target } = &rule.action else {
                continue;
            };
            let mut ctx = base();
            let context = match &element.context {
                ElementContext::Value(v) => v.clone(),
                ElementContext::Part { list, index } => {
                    super::elements::part(&topology, list, *index)
                }
            };
            ctx.insert_value("element", context);
            ctx.insert_value("topology", topology.clone());
            ctx.insert_value("bind", binds[i].clone());
            ctx.insert("kind", element.kind.as_str());
            let Some(text) = self.render_template(&template.text, &ctx, &who, diags) else {
                continue;
            };
            match target {
                Target::Section(section) => {
                    if !text.trim().is_empty()
                        && let Some(list) = sections.get_mut(&section.text)
                    {
                        list.push(text);
                    }
                }
                Target::File(output) => {
                    let key = format!("rules[{i}].output");
                    if let Some(path) = self.output_path(&key, output, &ctx, &who, diags) {
                        self.add_file(
                            path,
                            text,
                            Origin2 {
                                who,
                                span: output.span,
                            },
                            &mut files,
                            &mut origins,
                            diags,
                        );
                    }
                }
            }
        }

        let sections = to_tera(&sections);
        for (i, doc) in self.documents.iter().enumerate() {
            let who = format!("document `{}`", doc.output.text);
            let mut ctx = base();
            ctx.insert_value("topology", topology.clone());
            ctx.insert_value("sections", sections.clone());
            ctx.insert_value("bind", json_to_tera(&doc.bind));
            let Some(text) = self.render_template(&doc.template.text, &ctx, &who, diags) else {
                continue;
            };
            let key = format!("documents[{i}].output");
            if let Some(path) = self.output_path(&key, &doc.output, &ctx, &who, diags) {
                self.add_file(
                    path,
                    text,
                    Origin2 {
                        who,
                        span: doc.output.span,
                    },
                    &mut files,
                    &mut origins,
                    diags,
                );
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }

    fn render_template(
        &self,
        name: &str,
        ctx: &Context,
        who: &str,
        diags: &mut Diagnostics,
    ) -> Option<String> {
        match catch_unwind(AssertUnwindSafe(|| self.tera.render(name, ctx))) {
            Ok(Ok(text)) => Some(text),
            Ok(Err(e)) => {
                diags.push(
                    tera_error(&e, &self.template_files).hint(format!("while rendering {who}")),
                );
                None
            }
            Err(_) => {
                diags.push(Diagnostic::error(
                    codes::BACKEND_TEMPLATE,
                    format!("template `{name}` crashed the template engine while rendering {who}"),
                ));
                None
            }
        }
    }

    /// The output path for one file: the literal text, or the rendered path template, trimmed,
    /// checked to stay inside the output directory.
    fn output_path(
        &self,
        key: &str,
        output: &Located,
        ctx: &Context,
        who: &str,
        diags: &mut Diagnostics,
    ) -> Option<String> {
        let path = if self.path_spans.contains_key(key) {
            match catch_unwind(AssertUnwindSafe(|| self.paths.render(key, ctx))) {
                Ok(Ok(text)) => text.trim().to_string(),
                Ok(Err(e)) => {
                    diags.push(path_error(&e, output.span).hint(format!("while rendering {who}")));
                    return None;
                }
                Err(_) => {
                    diags.push(
                        Diagnostic::error(
                            codes::BACKEND_TEMPLATE,
                            "this output path crashed the template engine",
                        )
                        .at(output.span),
                    );
                    return None;
                }
            }
        } else {
            output.text.trim().to_string()
        };
        match super::output::check_path(&path) {
            Ok(()) => Some(path),
            Err(why) => {
                diags.push(
                    Diagnostic::error(
                        codes::BACKEND_RULES,
                        format!("the output path `{path}` of {who} is unsafe: {why}"),
                    )
                    .at(output.span),
                );
                None
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn add_file(
        &self,
        path: String,
        contents: String,
        origin: Origin2,
        files: &mut Vec<OutputFile>,
        origins: &mut HashMap<String, Origin2>,
        diags: &mut Diagnostics,
    ) {
        if contents.trim().is_empty() {
            return;
        }
        if let Some(first) = origins.get(&path) {
            let mut d = Diagnostic::error(
                codes::BACKEND_RULES,
                format!("{} and {} both render to `{path}`", first.who, origin.who),
            )
            .at(origin.span)
            .hint("make the output path unique, for example with `{{ element.name | dns_label }}` in it");
            if first.span != origin.span {
                d = d.label(first.span, format!("{} was rendered here first", first.who));
            }
            diags.push(d);
            return;
        }
        origins.insert(path.clone(), origin);
        files.push(OutputFile { path, contents });
    }
}

/// True when an output path uses template syntax and must be rendered.
fn is_template(text: &str) -> bool {
    text.contains("{{") || text.contains("{%") || text.contains("{#")
}

fn new_tera() -> Tera {
    let mut tera = Tera::new();
    tera.autoescape_on(Vec::<&str>::new());
    filters::register(&mut tera);
    tera
}

/// Compiles the templates. On failure, each template is compiled alone to report every syntax
/// error at its own place; errors that need all templates (an unknown filter, a missing include)
/// are reported as Tera found them.
fn compile<'a>(
    templates: impl Iterator<Item = (&'a str, &'a str)> + Clone,
    files: &HashMap<String, (FileId, SourceFile)>,
    diags: &mut Diagnostics,
) -> Option<Tera> {
    let mut tera = new_tera();
    let all = templates.clone();
    match catch_unwind(AssertUnwindSafe(|| tera.add_raw_templates(all))) {
        Ok(Ok(())) => Some(tera),
        Ok(Err(e)) => {
            let mut broken = Vec::new();
            for (name, text) in templates.clone() {
                let mut probe = new_tera();
                if let Ok(Err(err)) =
                    catch_unwind(AssertUnwindSafe(|| probe.add_raw_template(name, text)))
                    && matches!(err.kind(), ErrorKind::SyntaxError(_))
                {
                    diags.push(tera_error(&err, files));
                    broken.push(name);
                }
            }
            if broken.is_empty() {
                diags.push(tera_error(&e, files));
            } else {
                // The others may still refer to a filter or template that does not exist.
                let mut rest = new_tera();
                let others = templates.filter(|(name, _)| !broken.contains(name));
                if let Ok(Err(err)) =
                    catch_unwind(AssertUnwindSafe(|| rest.add_raw_templates(others)))
                {
                    diags.push(tera_error(&err, files));
                }
            }
            None
        }
        Err(_) => {
            diags.push(Diagnostic::error(
                codes::BACKEND_TEMPLATE,
                "the templates crashed the template engine while compiling",
            ));
            None
        }
    }
}

fn compile_paths(
    templates: &[(String, String)],
    spans: &HashMap<String, Span>,
    diags: &mut Diagnostics,
) -> Option<Tera> {
    let mut ok = true;
    let mut tera = new_tera();
    for (name, text) in templates {
        match catch_unwind(AssertUnwindSafe(|| tera.add_raw_template(name, text))) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                diags.push(path_error(&e, spans[name]));
                ok = false;
            }
            Err(_) => {
                diags.push(
                    Diagnostic::error(
                        codes::BACKEND_TEMPLATE,
                        "this output path crashed the template engine",
                    )
                    .at(spans[name]),
                );
                ok = false;
            }
        }
    }
    ok.then_some(tera)
}

/// A Tera error in an output path: the message, at the path's span in the mapping file.
fn path_error(e: &tera::Error, span: Span) -> Diagnostic {
    let message = match e.kind() {
        ErrorKind::SyntaxError(r) | ErrorKind::RenderingError(r) => r.message().to_string(),
        _ => first_line(&e.to_string()),
    };
    Diagnostic::error(
        codes::BACKEND_TEMPLATE,
        format!("in this output path: {message}"),
    )
    .at(span)
}

/// A Tera error as a diagnostic that names the template and line, at the template's span when
/// the template is one of ours.
fn tera_error(e: &tera::Error, files: &HashMap<String, (FileId, SourceFile)>) -> Diagnostic {
    let (name, message, location) = match e.kind() {
        ErrorKind::SyntaxError(r) | ErrorKind::RenderingError(r) => {
            let range = r.span().range.clone();
            (
                r.filename().to_string(),
                r.message().to_string(),
                Some(Where::Bytes(range.start, range.end, r.span().start_line)),
            )
        }
        ErrorKind::Msg(text) => match locate(text) {
            Some((name, line, col)) => (name, first_line(text), Some(Where::LineCol(line, col))),
            None => (String::new(), first_line(text), None),
        },
        ErrorKind::TemplateNotFound(name) => (name.clone(), e.to_string(), None),
        _ => (String::new(), e.to_string(), None),
    };
    let mut message = message;
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        message.push_str(&format!(": {c}"));
        cause = c.source();
    }
    let file = files.get(&name);
    let span = file
        .zip(location.as_ref())
        .map(|((id, f), w)| w.span(*id, f));
    let shown = file.map_or(name.as_str(), |(_, f)| f.name.as_str());
    let text = match (span, &location) {
        (Some(s), _) => format!("template `{shown}` line {}: {message}", s.line),
        (None, Some(Where::Bytes(_, _, line)) | Some(Where::LineCol(line, _)))
            if !name.is_empty() =>
        {
            format!("template `{shown}` line {line}: {message}")
        }
        _ if !name.is_empty() => format!("template `{shown}`: {message}"),
        _ => format!("template error: {message}"),
    };
    let mut d = Diagnostic::error(codes::BACKEND_TEMPLATE, text);
    if let Some(span) = span {
        d = d.at(span);
    }
    d
}

/// A place in a template as Tera reports it.
enum Where {
    /// A byte range and its 1-based line.
    Bytes(usize, usize, usize),
    /// 1-based line, 1-based column (characters).
    LineCol(usize, usize),
}

impl Where {
    fn span(&self, id: FileId, file: &SourceFile) -> Span {
        let text = &*file.text;
        let clamp = |mut i: usize| {
            i = i.min(text.len());
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let (start, end) = match *self {
            Where::Bytes(s, e, _) => (clamp(s), clamp(e.max(s))),
            Where::LineCol(line, col) => {
                let line_start = text
                    .split_inclusive('\n')
                    .take(line.saturating_sub(1))
                    .map(str::len)
                    .sum::<usize>();
                let rest = &text[clamp(line_start)..];
                let offset = rest
                    .char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(rest.len(), |(i, _)| i);
                let s = clamp(line_start + offset);
                (s, s)
            }
        };
        file.span(id, start as u32, end.max(start) as u32)
    }
}

/// The first `--> name:line:col` of a Tera report.
fn locate(report: &str) -> Option<(String, usize, usize)> {
    let at = report.find("--> ")?;
    let rest = report[at + 4..].lines().next()?;
    let (head, col) = rest.rsplit_once(':')?;
    let (name, line) = head.rsplit_once(':')?;
    Some((
        name.to_string(),
        line.trim().parse().ok()?,
        col.trim().parse().ok()?,
    ))
}

/// The first line of a Tera report, without its `error: ` prefix.
fn first_line(report: &str) -> String {
    let line = report.lines().next().unwrap_or(report);
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// Reads a mapping file's YAML and its rules.
fn read_mapping(
    sources: &SourceMap,
    id: FileId,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Option<Mapping> {
    let root = crate::yaml::load(sources, id, limits, diags)?;
    rules::parse(&root, diags)
}

/// Reads a user file into `sources`, within the size limit and as UTF-8.
fn read_text(
    path: &Path,
    sources: &mut SourceMap,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Option<FileId> {
    let fail = |what: &str, code| {
        Diagnostic::error(code, format!("cannot read `{}`: {what}", path.display()))
    };
    match fs::metadata(path) {
        Ok(m) if m.len() > limits.max_file_bytes => {
            diags.push(fail(
                &format!("it is larger than {} bytes", limits.max_file_bytes),
                codes::INPUT_TOO_LARGE,
            ));
            return None;
        }
        Ok(_) => {}
        Err(e) => {
            diags.push(fail(&e.to_string(), codes::INPUT_UNREADABLE));
            return None;
        }
    }
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            diags.push(fail(&e.to_string(), codes::INPUT_UNREADABLE));
            return None;
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Some(sources.add(
            path.display().to_string(),
            Origin::Path(path.to_path_buf()),
            text,
        )),
        Err(_) => {
            diags.push(fail("it is not UTF-8 text", codes::INPUT_NOT_UTF8));
            None
        }
    }
}

/// Every template file under `dir`: `(relative /-separated name, path)`, skipping the mapping
/// file at the top and anything hidden (editor swap files, `.git`).
fn collect_templates(
    root: &Path,
    dir: &Path,
    depth: usize,
    out: &mut Vec<(String, PathBuf)>,
    diags: &mut Diagnostics,
) {
    if depth > MAX_TEMPLATE_DEPTH {
        diags.push(Diagnostic::warning(
            codes::BACKEND_RULES,
            format!(
                "`{}` is nested too deeply; templates below it are ignored",
                dir.display()
            ),
        ));
        return;
    }
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            diags.push(Diagnostic::error(
                codes::INPUT_UNREADABLE,
                format!("cannot read `{}`: {e}", dir.display()),
            ));
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            diags.push(Diagnostic::warning(
                codes::BACKEND_RULES,
                format!("`{}` is ignored: its name is not UTF-8", path.display()),
            ));
            continue;
        };
        if file_name.starts_with('.') || (depth == 0 && file_name == MAPPING_FILE) {
            continue;
        }
        // `fs::metadata` follows symlinks; the depth limit stops loops.
        match fs::metadata(&path) {
            Ok(m) if m.is_dir() => collect_templates(root, &path, depth + 1, out, diags),
            Ok(m) if m.is_file() => {
                let rel = path.strip_prefix(root).unwrap_or(&path);
                let name: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push((name.join("/"), path));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
