//! `alias`, the Simple Profile 1.0 draft's first name for a relationship template's `copy`: the
//! keyname table of A.7.4.1 Relationship Template Keynames lists both, and the draft's revision
//! history renames `alias` to `copy` (checklist SP-RTPL-01). A 1.x relationship template that
//! writes `alias` is read as if it wrote `copy`, with a warning that names the current keyname;
//! one that writes both keeps `copy` and is told that `alias` is ignored. TOSCA 2.0 has no
//! `alias` (its grammar reports the keyname).

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::Named;
use crate::yaml::{Kind, Node};

/// Renames `alias` to `copy` in every relationship template of `templates` that has it.
pub fn read_as_copy(templates: &mut [Named], diags: &mut Diagnostics) {
    for template in templates {
        let Kind::Map(map) = &mut template.def.kind else {
            continue;
        };
        let Some(key_span) = map.entry("alias").map(|e| e.key.span) else {
            continue;
        };
        if map.contains_key("copy") {
            diags.push(
                Diagnostic::warning(
                    codes::TOSCA_UNKNOWN_KEY,
                    format!(
                        "relationship template `{}` writes both `alias` and `copy`; `alias` is ignored",
                        template.name
                    ),
                )
                .at_with(key_span, "the old name of `copy`")
                .hint("remove `alias` (A.7.4.1 Relationship Template Keynames: `alias` is the 1.0 draft's name of `copy`)"),
            );
            continue;
        }
        diags.push(
            Diagnostic::warning(
                codes::TOSCA_UNKNOWN_KEY,
                format!(
                    "relationship template `{}` writes `alias`, the old name of `copy`; read as `copy`",
                    template.name
                ),
            )
            .at_with(key_span, "the old name of `copy`")
            .hint("write `copy:` (A.7.4.1 Relationship Template Keynames lists `alias`, which the revision history renames `copy`)"),
        );
        if let Some(source) = map.take("alias") {
            // `copy` is not a key of the map (checked above), so the insert cannot clash.
            let _ = map.insert(Node::string("copy", key_span), source);
        }
    }
}
