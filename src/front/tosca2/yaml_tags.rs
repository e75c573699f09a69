//! YAML types a TOSCA 2.0 file may not use. Some YAML implementations read `!!binary` and
//! `!!timestamp`, but "to ensure portability TOSCA implementations *shall not* accept this
//! YAML type" (§9.1.1 Primitive Types, bytes, for `!!binary`, §9.1.2.1 timestamp for `!!timestamp`): a
//! timestamp is written as a string the `timestamp` type reads, and bytes as Base64 text. A
//! value so tagged anywhere in the file is an error where the tag is written.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::{Kind, Map, Node};

/// The refused core tags, the YAML type each names, and what to write instead.
const REFUSED: &[(&str, &str, &str)] = &[
    (
        "tag:yaml.org,2002:binary",
        "!!binary",
        "write the Base64 text as a plain string for a `bytes` value (§9.1.1 Primitive Types, bytes)",
    ),
    (
        "tag:yaml.org,2002:timestamp",
        "!!timestamp",
        "write the timestamp as a string for a `timestamp` value (§9.1.2.1 timestamp)",
    ),
];

/// Reports every node of the file that carries a refused tag, keys included. An explicit stack,
/// so a deep document cannot exhaust the call stack.
pub fn check(root: &Map, diags: &mut Diagnostics) {
    let mut stack: Vec<&Node> = root
        .entries()
        .iter()
        .flat_map(|e| [&e.key, &e.value])
        .collect();
    while let Some(node) = stack.pop() {
        if let Some(tag) = node.tag()
            && let Some((_, written, instead)) = REFUSED.iter().find(|(t, ..)| *t == tag)
        {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("the YAML type `{written}` is not accepted in a TOSCA 2.0 file"),
                )
                .at(node.span)
                .hint(format!(
                    "TOSCA implementations shall not accept this YAML type: {instead}"
                )),
            );
        }
        match &node.kind {
            Kind::Seq(items) => stack.extend(items.iter()),
            Kind::Map(map) => stack.extend(map.entries().iter().flat_map(|e| [&e.key, &e.value])),
            Kind::Scalar(_) => {}
        }
    }
}
