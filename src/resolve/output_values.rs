//! The value an output definition writes is a value of the output's type, when the type is one
//! toscana knows: an output is a parameter definition (§6.9.5 Output Parameters), whose `value`
//! is "The type-compatible value to assign to the parameter" (§9.8 Parameter Definition), and a
//! literal that is not of the type is as wrong there as in a property. A function's result is
//! checked as a property's is (a call stays a call until it is evaluated).
//!
//! An output whose `type` names no type is left alone: real suites write placeholder output
//! types that no file defines, and what such a type admits is unknown (the inputs' types are
//! checked by [`super::tosca2_types`]).

use super::typing::{Definition, Typing, is_built_in};
use crate::diag::Diagnostics;
use crate::model::{TopologyTemplate, TypeKind};

/// Checks the value of every output whose type is known, reporting into `diags` what was not
/// reported already (reading the value for the IR reports what is wrong with its calls).
pub fn check<'m>(
    typing: &mut Typing<'_, 'm>,
    template: &'m TopologyTemplate,
    diags: &mut Diagnostics,
) {
    let mut found = Diagnostics::new();
    for named in &template.outputs {
        let Some(def) = named.definition() else {
            continue;
        };
        let (Some(value), Some(type_name)) = (&def.value, def.type_name()) else {
            continue;
        };
        let file = def
            .type_name
            .as_ref()
            .map_or(def.span.file, |t| t.span.file);
        let known = is_built_in(type_name, typing.model.dialect)
            || typing
                .ancestry
                .full_name(typing.model, TypeKind::Data, type_name, file)
                .is_some();
        if known {
            let path = format!("outputs.{}", named.name);
            typing.value(value, &Definition::typed(def), &path, &mut found);
        }
    }
    diags.extend_unseen(found.iter().cloned());
}
