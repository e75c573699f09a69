//! Calls of functions defined under `functions` (§10.4 Function Definitions): the arguments
//! against the signatures, and the note that an implementation is not run here.

use super::{Evaluator, Site};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Call, Value};
use crate::resolve::calls::builtins;
use crate::resolve::calls::table::{Custom, Signature, schema_type};
use crate::resolve::typing::{Written, on_tree};
use crate::yaml::Node as Yaml;

impl<'m, 't> Evaluator<'_, '_, 'm, 't> {
    /// Says, once per signature, that a custom function's `implementation` is not run at
    /// translation time: its calls stay in the IR, carrying it (§10.4 Function Definitions); and
    /// what reading the implementation found, now that a call uses it.
    pub(super) fn not_run(
        &mut self,
        custom: &Custom<'m>,
        signature: usize,
        diags: &mut Diagnostics,
    ) {
        let signature = &custom.signatures[signature];
        let (Some(written), Some(implementation)) =
            (signature.implementation, &signature.implemented_by)
        else {
            return;
        };
        for note in signature.implementation_notes.clone() {
            self.report(note, diags);
        }
        let by = implementation.primary.as_ref().map_or_else(
            || "its implementation".to_string(),
            |a| format!("`{}`", a.file),
        );
        self.report(
            Diagnostic::warning(
                codes::TOSCA_FUNCTION,
                format!(
                    "function `{}{}` is implemented by {by}, which toscana does not run: its calls stay in the IR with the implementation",
                    custom.name,
                    signature.shown()
                ),
            )
            .at(written.span)
            .hint("the orchestrator (or a backend that knows the function) runs it at deployment; a value needed now must not depend on it"),
            diags,
        );
    }

    /// A custom function's arguments against its signatures, the first that fits winning
    /// (§10.4 Function Definitions): its index, and the arguments read as its schemas.
    pub(super) fn custom(
        &mut self,
        custom: &Custom<'m>,
        call: &Call,
        args: &[Value],
        site: &Site,
        diags: &mut Diagnostics,
    ) -> Option<(usize, Vec<Value>)> {
        let nodes = self.argument_nodes(call);
        let mut problems: Vec<(Option<usize>, String)> = Vec::new();
        for (index, signature) in custom.signatures.iter().enumerate() {
            if !signature.takes(args.len()) {
                problems.push((
                    None,
                    format!("{} takes {}", signature.shown(), count_text(signature)),
                ));
                continue;
            }
            let mut typed = Vec::with_capacity(args.len());
            let mut wrong = None;
            for (i, arg) in args.iter().enumerate() {
                let Some(schema) = signature.schema(i) else {
                    typed.push(arg.clone());
                    continue;
                };
                match self.argument(arg, nodes.get(i).copied(), schema, i) {
                    Ok(v) => typed.push(v),
                    Err(message) => {
                        wrong = Some((Some(i), message));
                        break;
                    }
                }
            }
            match wrong {
                None => return Some((index, typed)),
                Some(problem) => problems.push(problem),
            }
        }
        if custom.signatures.is_empty() {
            return None;
        }
        // Signatures that take this many arguments say best what is wrong with them.
        if problems.iter().any(|(arg, _)| arg.is_some()) {
            problems.retain(|(arg, _)| arg.is_some());
        }
        let n = args.len();
        let (at, message) = match &problems[..] {
            [(Some(i), message)] => (site.arg(*i), format!("`${}`: {message}", call.function)),
            _ => (
                site.name,
                format!(
                    "no signature of `${}` takes {n} argument{}: {}",
                    call.function,
                    if n == 1 { "" } else { "s" },
                    problems
                        .iter()
                        .map(|(_, m)| m.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            ),
        };
        let signatures: Vec<String> = custom.signatures.iter().map(|s| s.shown()).collect();
        self.error(
            at,
            message,
            format!(
                "`{}` is defined with the signature(s) {}",
                custom.name,
                signatures.join(", ")
            ),
            diags,
        );
        None
    }

    /// One argument against one schema: a literal read as the schema says, a computed value
    /// by its kind, a call by its declared result.
    pub(super) fn argument(
        &mut self,
        arg: &Value,
        node: Option<Written<'m>>,
        schema: &'m Yaml,
        i: usize,
    ) -> Result<Value, String> {
        let type_name = schema_type(schema).map(|t| self.typing.identity(t));
        let type_name = type_name.as_deref();
        if let Value::Call(inner) = arg {
            return match (self.result_type(inner), type_name) {
                (Some(result), Some(t)) if !self.typing.type_fits(&result, t) => Err(format!(
                    "argument {} is `${}`, which returns a `{result}`, and the signature takes a `{t}`",
                    i + 1,
                    inner.function
                )),
                _ => Ok(arg.clone()),
            };
        }
        if let Some(node) = node.filter(|n| !n.is_call()) {
            // Judged, not reported: the first error is why this signature does not fit, and a
            // fitting argument has nothing to report its owner's reading did not.
            let path = format!("argument {}", i + 1);
            return on_tree!(node, |t| self.typing.schema_fit(t, schema, &path));
        }
        match type_name.map(|t| self.typing.value_fits(arg, t)) {
            Some(Err(expected)) => Err(format!(
                "argument {} is {}, and the signature takes {expected}",
                i + 1,
                builtins::describe(arg)
            )),
            _ => Ok(arg.clone()),
        }
    }
}

/// How many arguments a signature takes, in words.
pub(super) fn count_text(signature: &Signature) -> String {
    let (required, optional) = (signature.arguments.len(), signature.optional.len());
    match (required + optional, signature.variadic) {
        (0, false) => "no arguments".to_string(),
        (0, true) => "any arguments".to_string(),
        (_, true) => format!("{required} or more arguments"),
        (1, false) => "1 argument".to_string(),
        (_, false) if optional == 0 => format!("{required} arguments"),
        _ => format!("{required} to {} arguments", required + optional),
    }
}
