//! What `toscana convert` makes of TOSCA 1.0 XML: which YAML dialect, and the translated
//! documents merged into one file.

use clap::ValueEnum;

use crate::source::FileId;
use crate::yaml::{Map, Node};

/// The YAML dialects `convert` writes, named by their `tosca_definitions_version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[allow(non_camel_case_types)]
pub enum ConvertTarget {
    /// TOSCA Simple Profile in YAML 1.3: the normative types are implied
    #[value(name = "tosca_simple_yaml_1_3")]
    tosca_simple_yaml_1_3,
    /// TOSCA 2.0: the file defines the Simple Profile 1.3 types it uses, under their 1.3 names
    #[value(name = "tosca_2_0")]
    tosca_2_0,
}

impl ConvertTarget {
    /// The dialect, as warnings name it.
    pub fn dialect(self) -> &'static str {
        match self {
            ConvertTarget::tosca_simple_yaml_1_3 => "TOSCA YAML 1.3",
            ConvertTarget::tosca_2_0 => super::to_tosca2::DIALECT,
        }
    }
}

/// The translated documents as one YAML file: the entry's tree with the type sections of every
/// other document merged in (translated names are unique across documents by construction).
pub fn merge(trees: &[(FileId, Node)]) -> Option<Node> {
    let (_, entry) = trees.first()?;
    let mut extra = Vec::new();
    for (_, tree) in &trees[1..] {
        for e in tree.as_map().map(Map::entries).unwrap_or_default() {
            let Some(section) = e
                .key
                .scalar_text()
                .and_then(|k| super::TYPE_SECTIONS.iter().copied().find(|s| *s == k))
            else {
                continue;
            };
            for se in e.value.as_map().map(Map::entries).unwrap_or_default() {
                extra.push((section, se.key.clone(), se.value.clone()));
            }
        }
    }
    Some(super::with_types(entry, extra))
}
