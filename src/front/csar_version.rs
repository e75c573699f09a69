//! The `CSAR-Version` of a TOSCA 2.0 CSAR: "CSAR-Version: This is the version number of the
//! CSAR specification. It defines the structure of the CSAR and the format of the TOSCA.meta
//! file. The value MUST be "2.0" for this version of the CSAR specification" (§16.2.1.1
//! TOSCA.meta File; T2-CSAR-04, T2-ERR-37). A 2.0 service template in an archive that says it
//! is a 1.1 CSAR is in the wrong container: the two versions name the entry and the other
//! definitions differently. A meta without the key is left to the rules on its shape.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::{CsarMeta, SourceMap};

/// Reports a `CSAR-Version` other than `2.0` in the `TOSCA.meta` of a TOSCA 2.0 CSAR.
pub fn check(meta: &CsarMeta, sources: &SourceMap, diags: &mut Diagnostics) {
    let (Some(id), Some(version)) = (meta.meta_file, &meta.csar_version) else {
        return;
    };
    if version == "2.0" {
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
            format!("`CSAR-Version: {version}` in the TOSCA.meta of a TOSCA 2.0 CSAR"),
        )
        .at_with(at, "must be 2.0")
        .hint("a CSAR whose entry is a tosca_2_0 file writes `CSAR-Version: 2.0` (§17.2.1 Block 0 Keynames in the TOSCA.meta File)"),
    );
}
