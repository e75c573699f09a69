//! Which functions exist: the built-ins of §10.2 and the custom functions defined under
//! `functions` (§6.6 Function Definitions, §10.4 Function Definitions), with their signatures.
//!
//! Definitions outside the service template are read from every file; one of the same name
//! inside the service template refines it (§10.4 Function Definitions): for a signature already
//! defined only the `implementation` may change (an empty entry keeps it as it is), new signatures
//! follow the refined ones, and `description` and `metadata` are replaced. A custom function named
//! like a built-in is shadowed by the built-in (with a warning), since the built-in's meaning is
//! fixed by the standard (T2-FNDEF-10). Implementations are read as operations' are (§10.4 Function
//! Definitions) and carried by the IR's calls; toscana does not run them.

use std::collections::HashSet;

use indexmap::IndexMap;

use super::builtins::{self, BuiltIn};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, Implementation};
use crate::model::{Model, Named};
use crate::source::FileId;
use crate::source::Span;
use crate::yaml::Node as Yaml;

/// One signature of a custom function (§10.4 Function Definitions).
#[derive(Debug, Clone)]
pub struct Signature<'m> {
    /// Schema definitions: a type name, or a map with `type` (and schemas, validation).
    pub arguments: Vec<&'m Yaml>,
    pub optional: Vec<&'m Yaml>,
    pub variadic: bool,
    pub result: Option<&'m Yaml>,
    /// The `implementation` as written (§10.4 Function Definitions), the service template's
    /// refinement applied.
    pub implementation: Option<&'m Yaml>,
    /// `implementation` read as an operation's is ([`Functions::read_implementations`]):
    /// what the IR's calls of this signature carry.
    pub implemented_by: Option<Implementation>,
    /// What reading `implementation` found (a missing file, say), reported where a call uses
    /// the signature: a profile's functions are a library, most of which a template never
    /// calls, as a type's operations are reported only for the templates that use the type.
    pub implementation_notes: Vec<Diagnostic>,
}

impl<'m> Signature<'m> {
    fn read(node: &'m Yaml) -> Self {
        let map = node.as_map();
        let list = |key: &str| -> Vec<&'m Yaml> {
            map.and_then(|m| m.get(key))
                .and_then(Yaml::as_seq)
                .map(|items| items.iter().collect())
                .unwrap_or_default()
        };
        Signature {
            arguments: list("arguments"),
            optional: list("optional_arguments"),
            variadic: map
                .and_then(|m| m.get("variadic"))
                .and_then(Yaml::as_scalar)
                .is_some_and(|s| s.core == crate::yaml::Core::Bool(true)),
            result: map.and_then(|m| m.get("result")),
            implementation: map.and_then(|m| m.get("implementation")),
            implemented_by: None,
            implementation_notes: Vec::new(),
        }
    }

    /// What a call that fits this signature carries for whoever runs the function.
    pub fn implementation(&self) -> Option<Implementation> {
        self.implemented_by.clone()
    }

    /// Whether the signature takes `n` arguments (§10.4 Function Definitions).
    pub fn takes(&self, n: usize) -> bool {
        let (required, optional) = (self.arguments.len(), self.optional.len());
        match (required + optional, self.variadic) {
            // No arguments declared: none, or anything at all when variadic.
            (0, variadic) => variadic || n == 0,
            (_, true) => n >= required,
            (_, false) => (required..=required + optional).contains(&n),
        }
    }

    /// The schema of argument `i`; `None` where any value goes.
    pub fn schema(&self, i: usize) -> Option<&'m Yaml> {
        let declared = self.arguments.len() + self.optional.len();
        if i < self.arguments.len() {
            Some(self.arguments[i])
        } else if i < declared {
            Some(self.optional[i - self.arguments.len()])
        } else if self.variadic {
            self.optional.last().or(self.arguments.last()).copied()
        } else {
            None
        }
    }

    /// The node that names the result's type, where the signature gives one.
    pub fn result_type(&self) -> Option<&'m Yaml> {
        schema_type(self.result?)
    }

    /// The arguments as written in messages: `(integer, string...)`.
    pub fn shown(&self) -> String {
        let name = |s: &Yaml| {
            s.as_str()
                .or_else(|| s.as_map()?.get("type")?.as_str())
                .unwrap_or("any")
                .to_string()
        };
        let mut parts: Vec<String> = self.arguments.iter().map(|s| name(s)).collect();
        parts.extend(self.optional.iter().map(|s| format!("[{}]", name(s))));
        if self.variadic {
            match parts.last_mut() {
                Some(last) => last.push_str("..."),
                None => parts.push("...".to_string()),
            }
        }
        format!("({})", parts.join(", "))
    }
}

/// A custom function with its signatures, refinements applied.
#[derive(Debug, Clone)]
pub struct Custom<'m> {
    pub name: String,
    pub span: Span,
    pub signatures: Vec<Signature<'m>>,
}

/// What a function name names.
#[derive(Debug, Clone, Copy)]
pub enum Function<'f, 'm> {
    BuiltIn(&'static BuiltIn),
    Custom(&'f Custom<'m>),
}

/// Every function a template may call.
#[derive(Debug, Default)]
pub struct Functions<'m> {
    /// Custom functions by identity (qualified like types, see [`crate::model::names`]).
    custom: IndexMap<String, Custom<'m>>,
    /// The file holding the service template and the identities of the functions its service
    /// template defines that refine none defined outside it (see the module docs).
    template_own: Option<(FileId, HashSet<String>)>,
    model: Option<&'m Model>,
}

impl<'m> Functions<'m> {
    /// The custom functions of `model` with the service template's refinements, reporting what
    /// the refinements may not change and definitions that shadow a built-in.
    pub fn new(model: &'m Model, diags: &mut Diagnostics) -> Self {
        Self::read_to(model, &mut Some(diags))
    }

    /// The same functions as [`Functions::new`], for a second reading of a model whose own
    /// resolution reads them with `new` and reports there (each caller names that place):
    /// nothing is reported here, and no diagnostic is made.
    pub fn reported_elsewhere(model: &'m Model) -> Self {
        Self::read_to(model, &mut None)
    }

    /// The reading behind [`Functions::new`] and [`Functions::reported_elsewhere`]: `diags`
    /// is where problems are reported, or `None` where the model's owner reports them.
    fn read_to(model: &'m Model, diags: &mut Option<&mut Diagnostics>) -> Self {
        let mut custom: IndexMap<String, Custom<'m>> = IndexMap::new();
        for (id, named) in &model.functions {
            custom.insert(id.clone(), read(named));
        }
        let mut template_own: Option<(FileId, HashSet<String>)> = None;
        for named in model.topology.iter().flat_map(|t| &t.functions) {
            // The name means what it means where the service template is written.
            let outer = model
                .namespaces
                .lookup_function(&named.name, named.span.file)
                .into_iter()
                .next()
                .unwrap_or_else(|| named.name.clone());
            match custom.get_mut(&outer) {
                Some(outer) => refine(outer, named, diags.as_deref_mut()),
                None => {
                    template_own
                        .get_or_insert_with(|| (named.span.file, HashSet::new()))
                        .1
                        .insert(outer.clone());
                    custom.insert(outer, read(named));
                }
            }
        }
        for def in custom.values() {
            if let Some(diags) = diags.as_deref_mut()
                && builtins::built_in(&def.name).is_some()
            {
                diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_DUPLICATE,
                        format!("function `{}` has the name of a built-in function, which is used instead", def.name),
                    )
                    .at(def.span)
                    .hint("the built-in functions of §10.2 keep their meaning; give this one another name to call it"),
                );
            }
        }
        Functions {
            custom,
            template_own,
            model: Some(model),
        }
    }

    /// The function a call written in file `from` names: a built-in, or a custom function by
    /// the name it has in that file's namespaces (`$to_string`, `$core:to_string` for one
    /// imported under the namespace `core`). This is the one place that decides it.
    pub fn lookup(&self, name: &str, from: Option<FileId>) -> Option<Function<'_, 'm>> {
        if let Some(b) = builtins::built_in(name) {
            return Some(Function::BuiltIn(b));
        }
        let model = self.model?;
        let id = match (model.dialect, from) {
            (Dialect::Tosca2, Some(file)) => model
                .namespaces
                .lookup_function(name, file)
                .into_iter()
                .next()
                .or_else(|| self.template_own_in(name, file)),
            _ => Some(name.to_string()),
        };
        let custom = id.and_then(|id| self.custom.get(&id));
        match custom {
            Some(custom) => Some(Function::Custom(custom)),
            // The extension, unless the template defines a function of that name itself.
            None if name == builtins::IN_RANGE.name && model.in_range_function => {
                Some(Function::BuiltIn(&builtins::IN_RANGE))
            }
            None => None,
        }
    }

    /// The identity of `name` where it is a function defined only by the service template and
    /// written in the service template's file (see the module docs).
    fn template_own_in(&self, name: &str, file: FileId) -> Option<String> {
        let (template_file, own) = self.template_own.as_ref()?;
        (*template_file == file && own.contains(name)).then(|| name.to_string())
    }

    /// Reads every signature's `implementation` with `read`, which resolves it as an
    /// operation's implementation is resolved (§10.4 Function Definitions: "the same definition"),
    /// its artifact files checked; done once, after the topology's artifacts are known. An
    /// error (an artifact type defined nowhere) is one of the definition, used or not, and goes
    /// to `diags` at once; a warning (a file not there yet) is kept for the calls that use the
    /// signature, whose deployment would need the file.
    pub fn read_implementations(
        &mut self,
        mut read: impl FnMut(&'m Yaml, &mut Diagnostics) -> Implementation,
        diags: &mut Diagnostics,
    ) {
        for custom in self.custom.values_mut() {
            for signature in &mut custom.signatures {
                let Some(written) = signature.implementation else {
                    continue;
                };
                let mut notes = Diagnostics::with_cap(0);
                signature.implemented_by = Some(read(written, &mut notes));
                let (errors, warnings): (Vec<_>, Vec<_>) =
                    notes.finish().into_iter().partition(Diagnostic::is_error);
                diags.extend(errors);
                signature.implementation_notes = warnings;
            }
        }
    }

    /// A custom function defined with the very name `name`, visible from where it is called
    /// or not: the first in definition order.
    pub fn named_anywhere(&self, name: &str) -> Option<&Custom<'m>> {
        self.custom.values().find(|c| c.name == name)
    }

    /// Every name, for suggestions.
    pub fn names(&self) -> Vec<&str> {
        let mut names = builtins::names();
        names.extend(self.custom.values().map(|c| c.name.as_str()));
        names
    }
}

fn read(named: &Named) -> Custom<'_> {
    let signatures = named.def.as_map().and_then(|m| m.get("signatures"));
    Custom {
        name: named.name.clone(),
        span: named.span,
        signatures: signature_entries(signatures)
            .into_iter()
            .map(Signature::read)
            .collect(),
    }
}

/// The entries of `signatures`: a list (§10.4 Function Definitions), or a map, as the keyname table
/// has it (§10.4 Function Definitions), of signature definitions.
pub fn signature_entries(node: Option<&Yaml>) -> Vec<&Yaml> {
    match node {
        Some(n) => match (n.as_seq(), n.as_map()) {
            (Some(items), _) => items.iter().collect(),
            (_, Some(map)) => map.entries().iter().map(|e| &e.value).collect(),
            _ => Vec::new(),
        },
        None => Vec::new(),
    }
}

/// Applies a service template's refinement of a function (§10.4 Function Definitions).
/// What a refinement may not change is reported to `diags`, if any.
fn refine<'m>(outer: &mut Custom<'m>, named: &'m Named, mut diags: Option<&mut Diagnostics>) {
    let items = signature_entries(named.def.as_map().and_then(|m| m.get("signatures")));
    let before = outer.signatures.len();
    for (i, item) in items.iter().enumerate() {
        if i >= before {
            outer.signatures.push(Signature::read(item));
            continue;
        }
        let Some(map) = item.as_map() else { continue };
        for entry in map.entries() {
            let key = entry.key.scalar_text().unwrap_or_default();
            if key == "implementation" {
                // The one thing a refinement may change (§10.4 Function Definitions).
                outer.signatures[i].implementation = Some(&entry.value);
                continue;
            }
            let Some(diags) = diags.as_deref_mut() else {
                continue;
            };
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_FUNCTION,
                    format!(
                        "the service template's `{}` refines signature {} of the function defined outside it, and may change only its `implementation`",
                        named.name,
                        i + 1
                    ),
                )
                .at_with(entry.key.span, format!("`{key}` cannot be refined"))
                .label(outer.span, "the function is defined here")
                .hint("add a new signature after the refined ones instead, and leave an empty entry (`{}`) for a signature kept as it is (§10.4 Function Definitions)"),
            );
        }
    }
}

/// The node that names a schema definition's type: the definition itself in the short form
/// (`integer`), its `type` otherwise.
pub fn schema_type(schema: &Yaml) -> Option<&Yaml> {
    match schema.as_str() {
        Some(_) => Some(schema),
        None => schema
            .as_map()?
            .get("type")
            .filter(|t| t.as_str().is_some()),
    }
}
