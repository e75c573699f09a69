//! The `CSAR-Version` a CSAR's `TOSCA.meta` must write for the dialect of the template it holds.
//!
//! - Simple Profile 1.x: "Due to the simplified structure of the CSAR file and TOSCA.meta file
//!   compared to TOSCA 1.0, the CSAR-Version keyword listed in block_0 of the meta-file is
//!   required to denote version 1.1" (1.0 §E.2 TOSCA Meta File; SP-ERR-27). Every Simple Profile
//!   CSAR of the corpora (tosca-parser's, the OASIS 1.3 examples) writes `1.1`.
//! - TOSCA 2.0: "CSAR-Version: This is the version number of the CSAR specification. It defines
//!   the structure of the CSAR and the format of the TOSCA.meta file. The value MUST be "2.0"
//!   for this version of the CSAR specification" (§17.2.1 Block 0 Keynames in the TOSCA.meta
//!   File; T2-CSAR-04, T2-ERR-37).
//!
//! A template in an archive that claims another CSAR version is in the wrong container: the
//! versions name the entry and the other definitions differently. TOSCA 1.0 XML (whose CSARs
//! are `1.0`) has its own meta rules (`front::xml::check_csar_meta`), and a Variability4TOSCA
//! template is resolved before it is read, so neither is judged here. A meta without the key is
//! left to the rules on its shape.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::source::{CsarMeta, SourceMap};

/// The version a CSAR holding a `dialect` template must write, with the dialect's name and the
/// section that says so; `None` for a dialect judged elsewhere.
fn required(dialect: Dialect) -> Option<(&'static str, &'static str, &'static str)> {
    match dialect {
        Dialect::SimpleProfile => Some((
            "1.1",
            "Simple Profile",
            "1.0 §E.2 TOSCA Meta File: \"the CSAR-Version keyword listed in block_0 of the meta-file is required to denote version 1.1\"",
        )),
        Dialect::Tosca2 => Some((
            "2.0",
            "TOSCA 2.0",
            "§17.2.1 Block 0 Keynames in the TOSCA.meta File",
        )),
        Dialect::Xml | Dialect::Variability => None,
    }
}

/// Reports a `CSAR-Version` other than the one the entry's `dialect` requires.
pub fn check(meta: &CsarMeta, dialect: Dialect, sources: &SourceMap, diags: &mut Diagnostics) {
    let Some((wanted, dialect_name, rule)) = required(dialect) else {
        return;
    };
    let (Some(id), Some(version)) = (meta.meta_file, &meta.csar_version) else {
        return;
    };
    if version == wanted {
        return;
    }
    let at = meta
        .spans
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("CSAR-Version"))
        .map_or_else(|| sources.get(id).span(id, 0, 0), |(_, s)| *s);
    diags.push(
        Diagnostic::error(
            codes::CSAR_META,
            format!("`CSAR-Version: {version}` in the TOSCA.meta of a {dialect_name} CSAR"),
        )
        .at_with(at, format!("must be {wanted}"))
        .hint(format!(
            "a CSAR whose entry is a {dialect_name} file writes `CSAR-Version: {wanted}` ({rule})"
        )),
    );
}
