//! TOSCA.meta of a TOSCA 1.0 XML CSAR (X1-CSAR-05..08): block 0 names the meta version
//! (`TOSCA-Meta-Version` or `TOSCA-Meta-File-Version`), `CSAR-Version` (digit.digit) and
//! `Created-By`; every later block describes one file, `Name` first and `Content-Type`
//! second. The syntax itself is checked where the file is read (`source::meta`).

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::quirk::{Quirk, Quirks};
use crate::source::{CsarMeta, SourceMap};

pub fn check_csar_meta(
    meta: &CsarMeta,
    sources: &SourceMap,
    quirks: &Quirks,
    diags: &mut Diagnostics,
) {
    let Some(id) = meta.meta_file else { return };
    let file = sources.get(id);
    let start = file.span(id, 0, 0);
    let missing = [
        ("TOSCA-Meta-Version", meta.meta_file_version.is_none()),
        ("CSAR-Version", meta.csar_version.is_none()),
        ("Created-By", meta.created_by.is_none()),
    ];
    for (key, absent) in missing {
        if absent {
            diags.push(
                Diagnostic::error(codes::CSAR_META, format!("TOSCA.meta of a TOSCA 1.0 CSAR has no `{key}`"))
                    .at(start)
                    .hint("block 0 holds TOSCA-Meta-Version (or TOSCA-Meta-File-Version), CSAR-Version and Created-By"),
            );
        }
    }
    if let Some(v) = &meta.csar_version {
        let digit_dot_digit =
            matches!(v.as_bytes(), [a, b'.', b] if a.is_ascii_digit() && b.is_ascii_digit());
        if !digit_dot_digit {
            let at = meta
                .spans
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("CSAR-Version"))
                .map_or(start, |(_, s)| *s);
            diags.push(
                Diagnostic::error(
                    codes::CSAR_META,
                    format!("`CSAR-Version: {v}` is not of the form digit.digit"),
                )
                .at(at)
                .hint("TOSCA 1.0 CSARs write `CSAR-Version: 1.0`"),
            );
        }
    }
    let starts = block_starts(&file.text);
    for (i, block) in meta.extra_blocks.iter().enumerate() {
        let keys: Vec<&str> = block.keys().map(String::as_str).collect();
        if keys.first().is_some_and(|k| k.eq_ignore_ascii_case("Name"))
            && keys
                .get(1)
                .is_some_and(|k| k.eq_ignore_ascii_case("Content-Type"))
        {
            continue;
        }
        let at = starts
            .get(i + 1)
            .map_or(start, |&o| file.span(id, o as u32, o as u32));
        let message = format!(
            "block {} of TOSCA.meta starts with {}; a file block starts with `Name` and then `Content-Type`",
            i + 1,
            keys.iter()
                .take(2)
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        diags.push(if quirks.has(Quirk::Winery) {
            Diagnostic::warning(codes::XML_QUIRK, format!("{message} (--quirk winery)")).at(at)
        } else {
            Diagnostic::error(codes::CSAR_META, message)
                .at(at)
                .hint("write `Name: PATH` then `Content-Type: TYPE/SUBTYPE` (Definitions use application/vnd.oasis.tosca.definitions)")
        });
    }
}

/// Byte offsets where the blocks of a meta file start (block 0 at 0).
fn block_starts(text: &str) -> Vec<usize> {
    let mut out = vec![0];
    let mut offset = 0;
    let mut blank = false;
    for line in text.split_inclusive('\n') {
        let empty = line.trim().is_empty();
        if blank && !empty {
            out.push(offset);
        }
        blank = empty;
        offset += line.len();
    }
    out
}
