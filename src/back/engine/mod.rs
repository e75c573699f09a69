//! The generic backend engine ([`Engine`]): loads a mapping and its templates, renders a topology.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use indexmap::IndexMap;
use tera::{Context, Tera};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Topology, canonical};
use crate::source::{FileId, SourceFile, Span};

mod account;
mod errors;
mod ignore_names;
mod ledger;
mod ledger_capability;
mod load;
mod reads;

pub use ledger::{Ledger, Reader};
pub use ledger_capability::CapabilityReader;

use super::binds::BindSchema;
use super::meanings::Meanings;
use super::rules::{Action, Document, Located, Rule, Target};
use super::tera_values::json_to_tera;
use super::{Element, ElementContext, OutputFile};
use errors::{path_error, tera_error};

/// The name of the mapping file in a backend folder.
pub const MAPPING_FILE: &str = "mapping.yaml";

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
    /// Per rule, what its template reads of the element it renders ([`reads`]), for
    /// [`Engine::account`].
    reads: Vec<reads::Reads>,
    /// Whether some template (or output path) may read the topology or an element wholesale
    /// (`topology.nodes`, `element.properties` as a whole, `{% set e = element %}`): a render
    /// then converts the whole IR for its templates. Otherwise they get only what they read by
    /// name ([`RenderInput`]).
    whole_topology: bool,
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

/// What a render gives its templates as `topology`, and each element as `element`.
pub enum RenderInput<'t> {
    /// The IR, converted for templates as far as they read it. When some template may read the
    /// topology or an element wholesale ([`Engine::whole_topology`]), the whole topology is
    /// converted once ([`super::topology_value`]) and each element's context is its part of it.
    /// Otherwise templates read only parts they name, and the IR is most of a backend's
    /// memory and time to convert (a tenth of `tosca2tf`'s instructions at 10,000 nodes): then
    /// `topology` holds only `source` and `inputs`, and an element's context is its own entry,
    /// converted when it is rendered, or only its `name` and `index` when that is all its
    /// template reads. What a template sees of what it reads is the same either way.
    Ir(&'t Topology),
    /// A value made already (elements made by hand, as in tests): `topology` is this value and
    /// an element's [`ElementContext::Part`] its entry.
    Value(tera::Value),
}

impl<'t> From<&'t Topology> for RenderInput<'t> {
    fn from(topology: &'t Topology) -> Self {
        RenderInput::Ir(topology)
    }
}

impl From<tera::Value> for RenderInput<'_> {
    fn from(value: tera::Value) -> Self {
        RenderInput::Value(value)
    }
}

/// Where one output of a render came from, for the duplicate-path error.
struct Origin2 {
    who: String,
    span: Span,
}

impl Engine {
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
    pub(super) fn rule_for(&self, element: &Element) -> Option<(usize, &Rule)> {
        let ancestry: Vec<&str> = match element.kind.type_kind() {
            Some(kind) => element.types.iter().map(|t| canonical(kind, t)).collect(),
            None => element.types.iter().map(String::as_str).collect(),
        };
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
            Action::Skip(_) => None,
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
    pub fn render<'t>(
        &self,
        topology: impl Into<RenderInput<'t>>,
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
    /// Templates see `topology` and each element's context as [`RenderInput`] says. The values
    /// of `extra` are Tera values ([`super::to_tera`] makes them from anything serde
    /// serializes).
    pub fn render_with<'t>(
        &self,
        topology: impl Into<RenderInput<'t>>,
        elements: &[Element],
        extra: Vec<(String, tera::Value)>,
        diags: &mut Diagnostics,
    ) -> Vec<OutputFile> {
        let input = topology.into();
        let topology = match &input {
            RenderInput::Ir(ir) if self.whole_topology => super::topology_value(ir),
            RenderInput::Ir(ir) => super::elements::named_parts_value(ir),
            RenderInput::Value(value) => value.clone(),
        };
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
        // Each section's texts, kept as the Tera strings the documents read: a rendered text's
        // buffer has room to spare (Tera sizes it ahead, twice the text on average), and kept
        // as it came out of the render, then copied for Tera, the texts were the largest thing
        // alive in a render (at 10,000 nodes 33 MB for `tosca2tf`, 50 MB for `tosca2dot`,
        // for 4-6 MB of text). Now each text is copied once, to its exact size, and freed.
        let mut sections: IndexMap<String, Vec<tera::Value>> = self
            .sections
            .iter()
            .map(|s| (s.clone(), Vec::new()))
            .collect();

        for element in elements {
            let who = format!("{} `{}`", element.kind, element.name);
            let Some((i, rule)) = self.rule_for(element) else {
                diags.push(self.skipped(element, &who));
                continue;
            };
            let Action::Render { template, target } = &rule.action else {
                continue;
            };
            let mut ctx = base();
            ctx.insert_value(
                "element",
                self.element_context(&input, &topology, element, i),
            );
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
                        list.push(tera::Value::from(text.as_str()));
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

        let sections = sections_value(sections);
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

    /// The warning that no rule takes `element` (`who`).
    fn skipped(&self, element: &Element, who: &str) -> Diagnostic {
        let of_type = element
            .types
            .first()
            .map(|t| format!(" of type {t}"))
            .unwrap_or_default();
        let d = Diagnostic::warning(
            codes::BACKEND_SKIPPED,
            format!("{who}{of_type} has no {} rule; skipped", self.name),
        )
        .hint(format!(
            "add a rule with `match: {{ kind: {} }}` in a mapping.yaml given with --backend-dir, or `skip: reason` to silence this",
            element.kind
        ));
        match element.span {
            Some(span) => d.at(span),
            None => d,
        }
    }

    /// What rule `rule`'s template sees as `element` (see [`RenderInput`]); `topology` is what
    /// the render gives templates as `topology`.
    fn element_context(
        &self,
        input: &RenderInput<'_>,
        topology: &tera::Value,
        element: &Element,
        rule: usize,
    ) -> tera::Value {
        match &element.context {
            ElementContext::Value(v) => v.clone(),
            ElementContext::Part { list, index } => match input {
                RenderInput::Ir(ir) if !self.whole_topology => {
                    super::elements::own_part(ir, list, *index, !self.reads[rule].nothing())
                }
                _ => super::elements::part(topology, list, *index),
            },
        }
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
        // Tera's buffer has room to spare (about twice the text): the files of a render are
        // held until all are rendered, so each keeps only its text.
        let mut contents = contents;
        contents.shrink_to_fit();
        files.push(OutputFile { path, contents });
    }
}

/// The `sections` a document reads: each section's name with the list of its texts, in the
/// mapping's order, as [`super::to_tera`] would give the map of lists of strings.
fn sections_value(sections: IndexMap<String, Vec<tera::Value>>) -> tera::Value {
    tera::Value::from(sections)
}

#[cfg(test)]
mod ledger_tests;
#[cfg(test)]
mod render_input_tests;
#[cfg(test)]
mod tests;
