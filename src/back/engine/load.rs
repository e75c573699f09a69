//! Loading a backend: its mapping files (built-in and `--backend-dir`), merged, and its
//! templates compiled, every mistake a diagnostic at its place.

use std::collections::HashMap;
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use tera::{ErrorKind, Tera};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::canonical;
use crate::limits::Limits;
use crate::source::{FileId, Origin, SourceFile, SourceMap, Span};

use super::super::meanings::Meanings;
use super::super::rules::{self, Action, Document, Located, Mapping, Rule, Target};
use super::super::{BuiltinBackend, filters};
use super::errors::{path_error, tera_error};
use super::reads::{Reads, template_reads, text_reads};
use super::{Engine, MAPPING_FILE};

/// How deep `--backend-dir` is searched for templates; also stops symlink loops.
const MAX_TEMPLATE_DEPTH: usize = 16;

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
        let (templates, base, overlay) = read_backend(builtin, backend_dir, sources, limits, diags);
        if diags.error_count() > errors_before {
            return None;
        }
        let Merged {
            name,
            description,
            stdout_separator,
            rules,
            documents,
            meanings,
        } = merge(builtin, backend_dir, base, overlay, diags)?;

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

        check_template_names(&rules, &documents, &templates, diags);
        super::ignore_names::check(&rules, diags);
        let (paths, path_spans) = output_paths(&rules, &documents, diags);

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
            .map(|r| {
                r.types
                    .iter()
                    .map(|t| match r.kind.type_kind() {
                        Some(kind) => canonical(kind, t).to_string(),
                        None => t.clone(),
                    })
                    .collect()
            })
            .collect();
        let (reads, documents_read_everything) = rule_reads(&rules, &documents, &template_files);
        let whole_topology = documents_read_everything || reads.contains(&Reads::Everything);
        Some(Engine {
            reads,
            whole_topology,
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
}

/// What each rule's template and output path read of its element ([`super::reads`]), and
/// whether a document (its template or its output path) reads the topology's elements
/// wholesale; then every rule reads everything.
fn rule_reads(
    rules: &[Rule],
    documents: &[Document],
    template_files: &HashMap<String, (FileId, SourceFile)>,
) -> (Vec<Reads>, bool) {
    let texts: HashMap<String, String> = template_files
        .iter()
        .map(|(name, (_, file))| (name.clone(), file.text.to_string()))
        .collect();
    let documents_read_everything = documents.iter().any(|d| {
        template_reads(&d.template.text, &texts)
            .and(text_reads(&d.output.text))
            .eq(&Reads::Everything)
    });
    let reads = rules
        .iter()
        .map(|rule| match &rule.action {
            _ if documents_read_everything => Reads::Everything,
            Action::Render {
                template,
                target: Target::File(output),
            } => template_reads(&template.text, &texts).and(text_reads(&output.text)),
            Action::Render { template, .. } => template_reads(&template.text, &texts),
            Action::Skip(_) => Reads::Keys(Default::default()),
        })
        .collect();
    (reads, documents_read_everything)
}

/// Reads the built-in backend's mapping and templates and `backend_dir`'s into `sources`:
/// the templates by name (a `backend_dir` one replacing the built-in one of its name), the
/// built-in mapping and the folder's.
fn read_backend(
    builtin: Option<&BuiltinBackend>,
    backend_dir: Option<&Path>,
    sources: &mut SourceMap,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> (IndexMap<String, FileId>, Option<Mapping>, Option<Mapping>) {
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
    (templates, base, overlay)
}

/// A backend's mapping once the built-in one and `--backend-dir`'s are merged.
struct Merged {
    name: String,
    description: Option<String>,
    stdout_separator: Option<String>,
    rules: Vec<Rule>,
    documents: Vec<Document>,
    meanings: Meanings,
}

/// Merges the mappings as [`Engine::load`] says; `None` (reported) when the result has no
/// rules and no documents.
fn merge(
    builtin: Option<&BuiltinBackend>,
    backend_dir: Option<&Path>,
    base: Option<Mapping>,
    overlay: Option<Mapping>,
    diags: &mut Diagnostics,
) -> Option<Merged> {
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
    Some(Merged {
        name,
        description,
        stdout_separator,
        rules,
        documents,
        meanings,
    })
}

/// Reports every template a rule or document names that does not exist.
fn check_template_names(
    rules: &[Rule],
    documents: &[Document],
    templates: &IndexMap<String, FileId>,
    diags: &mut Diagnostics,
) {
    let mut named: Vec<&Located> = Vec::new();
    for rule in rules {
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
}

/// The output paths that contain template syntax, compiled once (`None` when one does not
/// compile), and the span of each in its mapping file.
fn output_paths(
    rules: &[Rule],
    documents: &[Document],
    diags: &mut Diagnostics,
) -> (Option<Tera>, HashMap<String, Span>) {
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
    (paths, path_spans)
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
