//! The declared types of properties and attributes, and whether what a call returns fits the
//! definition it is assigned to.

use std::rc::Rc;

use super::{Declared, Evaluator};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Call, Value};
use crate::model::TypeKind;
use crate::resolve::calls::builtins;
use crate::resolve::calls::table::Function;
use crate::resolve::types::definitions;
use crate::resolve::typing::definitions_of;

impl<'m, 't> Evaluator<'_, '_, 'm, 't> {
    /// The declared type of one property or attribute.
    pub(super) fn expected(
        &mut self,
        kind: TypeKind,
        types: &[String],
        section: &'static str,
        name: &str,
    ) -> Option<String> {
        self.declared(kind, types, section)
            .get(name)
            .cloned()
            .flatten()
    }

    /// The properties or attributes (`section`) a type chain defines, with the identities of
    /// their types.
    pub(super) fn declared(
        &mut self,
        kind: TypeKind,
        types: &[String],
        section: &'static str,
    ) -> Rc<Declared> {
        let key = (kind, types.to_vec(), section);
        if let Some(declared) = self.declared.get(&key) {
            return Rc::clone(declared);
        }
        let defs = definitions(self.model(), kind, types);
        let declared: Declared = definitions_of(&defs, section)
            .into_iter()
            .map(|(name, d)| {
                let type_name = d.get("type").map(|t| self.typing.identity(t));
                (name.to_string(), type_name)
            })
            .collect();
        let declared = Rc::new(declared);
        self.declared.insert(key, Rc::clone(&declared));
        declared
    }

    /// Reports a function whose result cannot be a value of the type it is assigned to.
    pub(super) fn check_result(
        &mut self,
        call: &Call,
        value: &Value,
        expected: &str,
        diags: &mut Diagnostics,
    ) {
        let at = self.site(call).name.or(call.span);
        let problem = match value {
            Value::Call(after) => {
                let Some(result) = self.result_type(after) else {
                    return;
                };
                if self.typing.type_fits(&result, expected) {
                    return;
                }
                format!("`${}` returns a `{result}`", after.function)
            }
            // No value (an unset field an input's type declares): nothing to judge.
            Value::Null => return,
            known => match self.typing.value_fits(known, expected) {
                Ok(()) => return,
                Err(_) => format!(
                    "`${}` gives {} (`{}`)",
                    call.function,
                    builtins::describe(known),
                    crate::ir::value_text(known)
                ),
            },
        };
        let Some(at) = at else { return };
        self.report(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!("{problem}, which is not a value of type `{expected}`"),
            )
            .at(at)
            .hint(format!(
                "assign a function whose result is a `{expected}`, or change the definition's type"
            )),
            diags,
        );
    }

    /// The declared type (its identity) of what a call returns, where the function says.
    pub(super) fn result_type(&mut self, call: &Call) -> Option<String> {
        let node = match self
            .functions
            .lookup(call.function.name(), call.span.map(|s| s.file))?
        {
            Function::BuiltIn(b) => return b.result.map(str::to_string),
            Function::Custom(c) => {
                let n = call.args.len();
                c.signatures.iter().find(|s| s.takes(n))?.result_type()?
            }
        };
        Some(self.typing.identity(node))
    }
}
