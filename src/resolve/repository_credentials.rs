//! A Simple Profile repository's `credential` is a value of `tosca.datatypes.Credential`:
//! "credential: no — Credential — The optional Credential used to authorize access to the
//! repository" (A.5.6.1 Keynames, Repository definition), the data type of C.2.1
//! tosca.datatypes.Credential, whose `token` is required and whose `protocol`, `token_type`,
//! `user` (strings) and `keys` (a map of strings) are typed. A credential without its token, or
//! with a field the type does not define, could not authorize anything, and an orchestrator
//! fetching the repository's artifacts would fail only at deployment.
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
            typing.value_of_type(credential, CREDENTIAL, &path, diags);
        }
    }
}
