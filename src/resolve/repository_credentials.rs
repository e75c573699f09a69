//! A Simple Profile repository's `credential` is a value of `tosca.datatypes.Credential`:
//! "credential: no — Credential — The optional Credential used to authorize access to the
//! repository" (A.5.6.1 Keynames, Repository definition), the data type of C.2.1
//! tosca.datatypes.Credential, whose `token` is required and whose `protocol`, `token_type`,
//! `user` (strings) and `keys` (a map of strings) are typed. A credential without its token, or
//! with a field the type does not define, could not authorize anything, and an orchestrator
//! fetching the repository's artifacts would fail only at deployment.
//!
//! A credential is data, not a place for functions: the Simple Profile evaluates its intrinsic
//! functions in property, attribute and parameter values of a topology (A.9 / 4.x Intrinsic
//! functions), and a repository is read before any topology exists. So `credential:
//! { token: s3cr3t }`, the shortest credential there is (the required `token` alone), is the
//! field `token`, not a call of the `token` function with one argument.
//!
//! TOSCA 2.0 repository definitions have no `credential` (§6.5 Repository Definitions:
//! description, metadata, url); its grammar reports the keyname there.

use super::typing::Typing;
use crate::diag::Diagnostics;
use crate::ir::Dialect;

/// The normative data type a credential is a value of (C.2.1 tosca.datatypes.Credential).
const CREDENTIAL: &str = "tosca.datatypes.Credential";

/// Reads every 1.x repository's `credential` as a Credential value, reporting what does not fit.
pub fn check(typing: &mut Typing<'_, '_>, diags: &mut Diagnostics) {
    let model = typing.model;
    if matches!(model.dialect, Dialect::Tosca2 | Dialect::Xml) || model.incomplete_types {
        return;
    }
    for (name, repository) in &model.repositories {
        if let Some(credential) = &repository.credential {
            let path = format!("repositories.{name}.credential");
            // A credential naming its `token` and nothing else is a single-entry map the value
            // reader would take for a call of the `token` function, whose name the field
            // shares. `token` is the only required field, so such a credential is whole when
            // the token is a string (C.2.1 tosca.datatypes.Credential: `token`, string,
            // required).
            match credential.as_map().map(|m| m.entries()) {
                Some([entry]) if entry.key.as_str() == Some("token") => {
                    typing.value_of_type(&entry.value, "string", &format!("{path}.token"), diags);
                }
                _ => {
                    typing.value_of_type(credential, CREDENTIAL, &path, diags);
                }
            }
        }
    }
}
