//! `required: no` in a Simple Profile definition: YAML 1.1 (which the Simple Profile's own
//! examples and PyYAML-based processors follow) reads `yes`/`no`/`on`/`off` as booleans, YAML
//! 1.2 as strings. The spec writes `required: no` itself (D.3.5.2 Definition of
//! tosca.nodes.WebServer.Nodejs), so a 1.x file means false by it: toscana reads it so
//! ([`super::typing::Definition::required`]) and warns here, once per definition, that YAML 1.2
//! reads a string (SP-YAML-05: "accept `yes/no/on/off` for boolean-typed keynames with a
//! warning"). TOSCA 2.0 follows YAML 1.2 strictly and its front end refuses the string.

use super::typing::yaml11_bool;
use super::written_definitions::Written;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;

/// Warns about a YAML 1.1 boolean written as the `required` of one definition.
pub fn check(dialect: Dialect, written: &Written, diags: &mut Diagnostics) {
    if dialect == Dialect::Tosca2 {
        return;
    }
    let Some(required) = written.body.get("required") else {
        return;
    };
    if let Some((text, b)) = yaml11_bool(required) {
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_TYPE_MISMATCH,
                format!("`required: {text}` of `{}` is a string in YAML 1.2; read as {b}, as YAML 1.1 would", written.name),
            )
            .at(required.span)
            .hint(format!("write `required: {b}`")),
        );
    }
}
