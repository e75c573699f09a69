//! Whether a CSAR without `TOSCA-Metadata/TOSCA.meta` is allowed for the version of the template
//! it holds. Simple Profile 1.0 requires the metadata directory (§E.1 Overall Structure of a CSAR,
//! SP-CSAR-01); 1.1 allows a CSAR without it when its one root YAML file says in `metadata` which
//! template it is (`template_name`, `template_version`). Real archives leave that out
//! (tosca-parser's corpus has one), and the entry is unambiguous without it, so its absence is a
//! warning. TOSCA 2.0 has its own CSAR rules, checked where the archive is opened.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::Model;

/// The Simple Profile versions whose CSARs must carry TOSCA.meta.
const NEEDS_META: &[&str] = &[
    "tosca_simple_yaml_1_0",
    "tosca_simple_yaml_1_0_0",
    "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0",
    "http://docs.oasis-open.org/tosca/simple/1.0",
    "tosca_simple_profile_for_nfv_1_0_0",
];

/// The metadata keys that name the template of a CSAR without TOSCA.meta.
const NAMING_KEYS: &[&str] = &["template_name", "template_version"];

/// Checks a CSAR entered through its one root YAML file; `entry_name` is the entry as shown.
pub fn check_without_meta(model: &Model, entry_name: &str, diags: &mut Diagnostics) {
    if model.dialect != Dialect::SimpleProfile {
        return;
    }
    if NEEDS_META.contains(&model.version.as_str()) {
        diags.push(
            Diagnostic::error(
                codes::CSAR_META,
                format!(
                    "this CSAR has no TOSCA-Metadata/TOSCA.meta, which `{}` requires",
                    model.version
                ),
            )
            .in_file(entry_name)
            .hint("add TOSCA-Metadata/TOSCA.meta with `Entry-Definitions: <this file>`; a CSAR without it is allowed from tosca_simple_yaml_1_1 on"),
        );
        return;
    }
    let metadata = model.metadata.as_ref().and_then(|m| m.as_map());
    let missing: Vec<&str> = NAMING_KEYS
        .iter()
        .copied()
        .filter(|k| metadata.is_none_or(|m| !m.contains_key(k)))
        .collect();
    if !missing.is_empty() {
        let d = Diagnostic::warning(
            codes::CSAR_META,
            format!(
                "a CSAR without TOSCA-Metadata/TOSCA.meta should name its template in the root file's `metadata`; missing: {}",
                missing.join(", ")
            ),
        )
        .hint("add `metadata: { template_name: ..., template_version: ... }`, or a TOSCA-Metadata/TOSCA.meta");
        diags.push(match &model.metadata {
            Some(m) => d.at(m.span),
            None => d.in_file(entry_name),
        });
    }
}
