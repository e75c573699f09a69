//! Simple Profile artifact definitions have a type (checklist SP-ERR-25, SP-ARTD-02): the
//! extended notation writes it ("type ... yes ... The required artifact type for the artifact
//! definition", A.5.5.1 Artifact definition Keynames), and the short notation
//! `<artifact_name>: <artifact_file_URI>` "may be used when the artifact's type and mime type
//! can be inferred from the file URI" (A.5.5.2.1 Short notation), through the `file_ext` of the
//! artifact types read (A.6.3 Artifact Type; SP-ARTT-02).
//!
//! Checked on every artifact a node type or node template defines, in `artifacts` written as a
//! map or as the 1.0 drafts' list of one-entry maps. A name its node type chain already defines
//! is a refinement, which keeps the inherited type (`name: file` changes just the file), and is
//! not judged. An extended definition with no `type` is an error, as the keyname table says. A
//! short one whose file extension no artifact type lists is a warning: the checklist leaves the
//! choice to the processor ("report an error or warning"), and the normative types list only
//! `sh`, `py` (and the non-normative `iso`, `qcow2`), so files every other processor reads
//! (`app.war`, `image.img`) would otherwise be refused. Which type such a file gets is the
//! orchestrator's to decide; the IR keeps the artifact without a type. The type an extension
//! does tell is put on the IR artifact when the node is built ([`super::artifact_types`]),
//! which also reports an extension several unrelated types claim.
//!
//! TOSCA 2.0 has no short notation in §12.2 Artifact Definition's grammar, yet the spec's own
//! example of `$get_artifact` writes `zip: /data/wordpress.zip` (§10.2.1.4). toscana reads it as
//! the Simple Profile does, `{ file: <it> }` with the type its extension tells through the
//! `file_ext` of the artifact types read (§12.1 Artifact Type), and warns when none does
//! (T2-ARTDEF-05's DECIDE). The 2.0 grammar makes `type` and `file` of an extended definition
//! mandatory, which the front end reports; only the short notation is judged here for 2.0.

use std::collections::HashSet;

use super::artifact_types::{FileTypes, Inferred};
use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::model::{Model, TypeKind};
use crate::yaml::Node as Yaml;

/// Checks the artifact definitions of every node type and node template read.
pub fn check(
    model: &Model,
    ancestry: &mut Ancestry,
    extensions: &FileTypes,
    diags: &mut Diagnostics,
) {
    if model.dialect == Dialect::Xml || model.incomplete_types {
        return;
    }
    for ((kind, id), def) in &model.types {
        if *kind != TypeKind::Node {
            continue;
        }
        let chain = ancestry.chain(model, TypeKind::Node, id);
        let inherited = inherited(model, chain.get(1..).unwrap_or_default());
        let section = def.def.as_map().and_then(|m| m.get("artifacts"));
        let owner = format!("node type `{}`", def.name);
        check_section(
            section,
            &owner,
            &inherited,
            extensions,
            model.dialect,
            diags,
        );
    }
    let Some(topology) = &model.topology else {
        return;
    };
    for template in &topology.node_templates {
        let Some(map) = template.def.as_map() else {
            continue;
        };
        let type_name = map.get("type").and_then(Yaml::scalar_text);
        let chain = type_name
            .and_then(|t| ancestry.full_name(model, TypeKind::Node, t, template.span.file))
            .map(|full| ancestry.chain(model, TypeKind::Node, &full))
            .unwrap_or_default();
        let inherited = inherited(model, &chain);
        let owner = format!("node template `{}`", template.name);
        check_section(
            map.get("artifacts"),
            &owner,
            &inherited,
            extensions,
            model.dialect,
            diags,
        );
    }
}

/// The artifact names the node types `chain` define.
fn inherited(model: &Model, chain: &[String]) -> HashSet<String> {
    definitions(model, TypeKind::Node, chain)
        .iter()
        .filter_map(|d| d.def.as_map()?.get("artifacts"))
        .flat_map(entries)
        .filter_map(|(key, _)| key.scalar_text().map(str::to_string))
        .collect()
}

/// The (name, definition) entries of an `artifacts` section: a map, or a list of one-entry maps.
fn entries(section: &Yaml) -> Vec<(&Yaml, &Yaml)> {
    let maps: Vec<&crate::yaml::Map> = match (section.as_map(), section.as_seq()) {
        (Some(map), _) => vec![map],
        (None, Some(items)) => items.iter().filter_map(Yaml::as_map).collect(),
        _ => Vec::new(),
    };
    maps.into_iter()
        .flat_map(|m| m.entries())
        .map(|e| (&e.key, &e.value))
        .collect()
}

fn check_section(
    section: Option<&Yaml>,
    owner: &str,
    inherited: &HashSet<String>,
    extensions: &FileTypes,
    dialect: Dialect,
    diags: &mut Diagnostics,
) {
    let short_notation = match dialect {
        Dialect::Tosca2 => {
            "the short form `<name>: <file>` is read as a file whose type its extension tells (T2-ARTDEF-05; `file_ext` of §12.1 Artifact Type; §12.2 Artifact Definition has no short form)"
        }
        _ => {
            "the short notation is for files whose type the extension tells (A.5.5.2.1 Short notation; `file_ext` of A.6.3 Artifact Type)"
        }
    };
    for (key, value) in section.map(entries).unwrap_or_default() {
        let Some(name) = key.scalar_text().filter(|n| !inherited.contains(*n)) else {
            continue;
        };
        if let Some(file) = value.scalar_text() {
            if extensions.infer(file) == Inferred::Unknown {
                diags.push(
                    Diagnostic::warning(
                        codes::TOSCA_MISSING_KEY,
                        format!("artifact `{name}` of {owner} is written as a file alone, but no artifact type lists the extension of `{file}`, so its type cannot be inferred"),
                    )
                    .at(value.span)
                    .hint(format!("{short_notation}: write `{name}: {{ type: <artifact type>, file: {file} }}`")),
                );
            }
        } else if let Some(map) = value.as_map()
            && dialect != Dialect::Tosca2
            && !map.contains_key("type")
        {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!("artifact `{name}` of {owner} has no `type`"),
                )
                .at(key.span)
                .hint("an artifact definition names its type (A.5.5.1 Artifact definition Keynames: `type` is required): add `type: <artifact type>`, such as tosca.artifacts.File or tosca.artifacts.Deployment.Image"),
            );
        }
    }
}
