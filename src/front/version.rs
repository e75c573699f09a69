//! `tosca_definitions_version`: which dialect and grammar a file is written in.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Dialect;
use crate::yaml::{Kind, Map, Node};

/// The versions toscana knows, as written in files, with their dialect.
pub const KNOWN_VERSIONS: &[(&str, Dialect)] = &[
    ("tosca_simple_yaml_1_0", Dialect::SimpleProfile),
    ("tosca_simple_yaml_1_0_0", Dialect::SimpleProfile),
    (
        "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0",
        Dialect::SimpleProfile,
    ),
    (
        "http://docs.oasis-open.org/tosca/simple/1.0",
        Dialect::SimpleProfile,
    ),
    ("tosca_simple_profile_for_nfv_1_0_0", Dialect::SimpleProfile),
    ("tosca_simple_yaml_1_1", Dialect::SimpleProfile),
    ("tosca_simple_yaml_1_2", Dialect::SimpleProfile),
    ("tosca_simple_yaml_1_3", Dialect::SimpleProfile),
    ("tosca_2_0", Dialect::Tosca2),
    ("tosca_variability_1_0", Dialect::Variability),
    // Variability4TOSCA's later release candidates (§ RC v2, § RC v3 of the current text).
    ("tosca_variability_1_0_rc_1", Dialect::Variability),
    ("tosca_variability_1_0_rc_2", Dialect::Variability),
    ("tosca_variability_1_0_rc_3", Dialect::Variability),
];

/// The dialect a `tosca_definitions_version` value names.
pub fn dialect_of(version: &str) -> Option<Dialect> {
    KNOWN_VERSIONS
        .iter()
        .find(|(v, _)| *v == version)
        .map(|(_, d)| *d)
}

/// The two-part version a three-part spelling means (`tosca_simple_yaml_1_1_0`, as some tools
/// of the 1.1 era write it), which `--quirk three-part-versions` accepts.
pub fn three_part_spelling(version: &str) -> Option<&'static str> {
    match version {
        "tosca_simple_yaml_1_1_0" => Some("tosca_simple_yaml_1_1"),
        "tosca_simple_yaml_1_2_0" => Some("tosca_simple_yaml_1_2"),
        "tosca_simple_yaml_1_3_0" => Some("tosca_simple_yaml_1_3"),
        _ => None,
    }
}

/// Under `--quirk three-part-versions`: rewrites a three-part `tosca_definitions_version` of
/// `root` to the version it means, with a warning, so every later stage reads one spelling.
pub fn accept_three_part_spelling(root: &mut Node, diags: &mut Diagnostics) {
    let Kind::Map(map) = &mut root.kind else {
        return;
    };
    let Some((written, meant, span)) = map.get("tosca_definitions_version").and_then(|v| {
        let written = v.scalar_text()?;
        Some((written.to_string(), three_part_spelling(written)?, v.span))
    }) else {
        return;
    };
    let mut rebuilt = Map::new();
    for entry in std::mem::take(map).into_entries() {
        let value = if entry.key.as_str() == Some("tosca_definitions_version") {
            Node::string(meant, span)
        } else {
            entry.value
        };
        // The keys were unique in the map they come from.
        let _ = rebuilt.insert(entry.key, value);
    }
    *map = rebuilt;
    diags.push(
        Diagnostic::warning(
            codes::TOSCA_VERSION,
            format!("`{written}` is read as `{meant}` (--quirk three-part-versions)"),
        )
        .at(span)
        .hint(format!("the specification spells it `{meant}`")),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::source::{Origin, SourceMap};

    #[test]
    fn a_three_part_spelling_is_rewritten_with_a_warning() {
        let mut sources = SourceMap::default();
        let mut diags = Diagnostics::default();
        let id = sources.add(
            "t.yaml",
            Origin::Stdin,
            "tosca_definitions_version: tosca_simple_yaml_1_1_0\ndescription: d\n",
        );
        let mut root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags).unwrap();
        accept_three_part_spelling(&mut root, &mut diags);
        let map = root.as_map().unwrap();
        assert_eq!(
            map.get("tosca_definitions_version").and_then(Node::as_str),
            Some("tosca_simple_yaml_1_1")
        );
        assert_eq!(map.entries().len(), 2);
        assert_eq!(diags.warning_count(), 1);
        assert_eq!(three_part_spelling("tosca_simple_yaml_1_0"), None);
    }
}
