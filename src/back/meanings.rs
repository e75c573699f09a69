//! What a relationship means to a backend, read from its mapping file (`relationships:`).
//!
//! TOSCA says what a relationship type is (`HostedOn`, `AttachesTo`, `network.BindsTo`, ...);
//! what each one becomes is the backend's choice: a lifted stack, a mounted volume, an
//! environment variable naming a Service, a port on a network. The backends' Rust asks one
//! question per relationship, "does it mean X to me?", and the answer is data, so a
//! `--backend-dir` mapping can change it:
//!
//! ```yaml
//! relationships:
//!   hosting: { types: [tosca.relationships.HostedOn], untyped_requirements: [host] }
//!   binding: { types: [tosca.relationships.network.BindsTo], requirements: [binding] }
//! ```
//!
//! A relationship has a meaning when its type or an ancestor is one of `types` (compared as
//! [`crate::ir::type_matches`] does), when its requirement is named in `requirements`, or when
//! its type is unknown (a profile that was not read) and its requirement is named in
//! `untyped_requirements`. It may have several meanings; each backend reads those it uses
//! (`backends/README.md` lists them). A `--backend-dir` mapping that gives a meaning replaces
//! the built-in entry of that meaning.

use crate::diag::Diagnostics;
use crate::ir::{Relationship, RelationshipId, Topology, type_matches};
use crate::yaml::{Kind, Node};

use super::rules::{check_keys, expect_map, shape};

/// One meaning a relationship can have to a backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// The source runs on the target: they are deployed as one stack.
    Hosting,
    /// The target (storage) is attached to the source (a machine).
    Attachment,
    /// The source talks to the target over the network.
    Connection,
    /// The source (a port) is bound to the target (a machine).
    Binding,
    /// The source (a port) is linked to the target (a network).
    Link,
    /// The source (a load balancer) routes to the target.
    Routing,
}

impl Meaning {
    /// Every meaning, in the order the mapping files list them.
    pub const ALL: [Meaning; 6] = [
        Meaning::Hosting,
        Meaning::Attachment,
        Meaning::Connection,
        Meaning::Binding,
        Meaning::Link,
        Meaning::Routing,
    ];

    /// The key a mapping file names it by.
    pub fn as_str(self) -> &'static str {
        match self {
            Meaning::Hosting => "hosting",
            Meaning::Attachment => "attachment",
            Meaning::Connection => "connection",
            Meaning::Binding => "binding",
            Meaning::Link => "link",
            Meaning::Routing => "routing",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// Which relationships have one meaning.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Matcher {
    types: Vec<String>,
    requirements: Vec<String>,
    untyped_requirements: Vec<String>,
}

impl Matcher {
    fn matches(&self, r: &Relationship) -> bool {
        self.types.iter().any(|t| type_matches(&r.types, t))
            || self.requirements.contains(&r.requirement)
            || (r.types.is_empty() && self.untyped_requirements.contains(&r.requirement))
    }
}

/// The `relationships:` of a mapping file: for each meaning it gives, the relationships that
/// have it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meanings {
    given: Vec<(Meaning, Matcher)>,
}

const MATCHER_KEYS: &[&str] = &["types", "requirements", "untyped_requirements"];

impl Meanings {
    /// Reads `relationships:`; every mistake (an unknown meaning or key, a value that is not a
    /// list of names) is a `backend::rules` error at its place, and `None` is returned.
    pub(super) fn parse(node: &Node, diags: &mut Diagnostics) -> Option<Meanings> {
        let map = expect_map(node, "`relationships`", diags)?;
        let before = diags.error_count();
        let known: Vec<&str> = Meaning::ALL.iter().map(|m| m.as_str()).collect();
        check_keys(map, &known, "`relationships`", diags);
        let mut given = Vec::new();
        for meaning in Meaning::ALL {
            let Some(entry) = map.get(meaning.as_str()) else {
                continue;
            };
            let what = format!("`relationships: {}`", meaning.as_str());
            let Some(fields) = expect_map(entry, &what, diags) else {
                continue;
            };
            check_keys(fields, MATCHER_KEYS, &what, diags);
            let mut list = |key: &str| -> Vec<String> {
                fields
                    .get(key)
                    .map(|n| names(n, key, diags))
                    .unwrap_or_default()
            };
            let matcher = Matcher {
                types: list("types"),
                requirements: list("requirements"),
                untyped_requirements: list("untyped_requirements"),
            };
            given.push((meaning, matcher));
        }
        (diags.error_count() == before).then_some(Meanings { given })
    }

    /// `self` with the meanings `overlay` gives replaced by its entries (a `--backend-dir`
    /// mapping over the built-in one).
    pub(super) fn overlaid(&self, overlay: &Meanings) -> Meanings {
        let mut given = self.given.clone();
        for (meaning, matcher) in &overlay.given {
            match given.iter_mut().find(|(m, _)| m == meaning) {
                Some(slot) => slot.1 = matcher.clone(),
                None => given.push((*meaning, matcher.clone())),
            }
        }
        Meanings { given }
    }

    /// True when `r` has `meaning` by these entries.
    pub fn means(&self, r: &Relationship, meaning: Meaning) -> bool {
        self.given
            .iter()
            .any(|(m, matcher)| *m == meaning && matcher.matches(r))
    }

    /// The meanings of every relationship of `topology`, worked out once.
    pub fn of(&self, topology: &Topology) -> RelationshipMeanings {
        let bits = topology
            .relationships
            .iter()
            .map(|r| {
                self.given
                    .iter()
                    .filter(|(_, matcher)| matcher.matches(r))
                    .fold(0, |bits, (m, _)| bits | m.bit())
            })
            .collect();
        RelationshipMeanings { bits }
    }
}

/// The meanings of each relationship of one topology ([`Meanings::of`]).
#[derive(Debug, Clone, Default)]
pub struct RelationshipMeanings {
    bits: Vec<u8>,
}

impl RelationshipMeanings {
    /// True when relationship `id` has `meaning`.
    pub fn means(&self, id: RelationshipId, meaning: Meaning) -> bool {
        self.means_at(id.index(), meaning)
    }

    /// True when the relationship at `index` has at least one meaning to the backend.
    pub fn has_any(&self, index: usize) -> bool {
        self.bits.get(index).is_some_and(|bits| *bits != 0)
    }

    /// True when the relationship at `index` of the topology's arena has `meaning` (for
    /// tables a backend keeps by position).
    pub fn means_at(&self, index: usize, meaning: Meaning) -> bool {
        self.bits
            .get(index)
            .is_some_and(|bits| bits & meaning.bit() != 0)
    }
}

/// A name or a list of names (types or requirement names).
fn names(node: &Node, key: &str, diags: &mut Diagnostics) -> Vec<String> {
    let items: Vec<&Node> = match &node.kind {
        Kind::Seq(items) => items.iter().collect(),
        _ => vec![node],
    };
    let mut out = Vec::new();
    for item in items {
        match item.as_str() {
            Some(name) if !name.trim().is_empty() => out.push(name.to_string()),
            _ => diags.push(shape(
                item,
                &format!("`{key}`"),
                "a name or a list of names",
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::source::{Origin, SourceMap};

    fn parse(text: &str) -> (Option<Meanings>, Vec<String>) {
        let mut sources = SourceMap::new();
        let id = sources.add(
            "m.yaml".to_string(),
            Origin::Builtin("m.yaml".to_string()),
            text,
        );
        let mut diags = Diagnostics::new();
        let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags).unwrap();
        let meanings = Meanings::parse(&root, &mut diags);
        let messages = diags.iter().map(|d| d.message.clone()).collect();
        (meanings, messages)
    }

    fn relationship(types: &[&str], requirement: &str) -> Relationship {
        Relationship {
            name: "r".to_string(),
            source: crate::ir::NodeId::from_index(0),
            target: crate::ir::NodeId::from_index(1),
            requirement: requirement.to_string(),
            capability: None,
            count: crate::ir::Value::Integer(1),
            target_index: None,
            allocation: Default::default(),
            instance: None,
            type_name: types.first().unwrap_or(&"").to_string(),
            types: types.iter().map(|t| t.to_string()).collect(),
            default_type: false,
            properties: Default::default(),
            assigned: Vec::new(),
            attributes: Default::default(),
            interfaces: Default::default(),
            location: None,
            template_location: None,
        }
    }

    #[test]
    fn a_meaning_is_had_by_type_ancestry_requirement_or_untyped_requirement() {
        let (meanings, messages) = parse(
            "hosting: { types: tosca.relationships.HostedOn, untyped_requirements: [host] }\nbinding: { requirements: [binding] }\n",
        );
        assert!(messages.is_empty(), "{messages:?}");
        let meanings = meanings.unwrap();
        let derived = relationship(&["my.On", "tosca.relationships.HostedOn"], "runs_on");
        assert!(meanings.means(&derived, Meaning::Hosting));
        assert!(meanings.means(&relationship(&[], "host"), Meaning::Hosting));
        let typed_host = relationship(&["tosca.relationships.ConnectsTo"], "host");
        assert!(!meanings.means(&typed_host, Meaning::Hosting));
        let bound = relationship(&["tosca.relationships.ConnectsTo"], "binding");
        assert!(meanings.means(&bound, Meaning::Binding));
        assert!(!meanings.means(&bound, Meaning::Link));
    }

    #[test]
    fn an_overlay_replaces_the_meanings_it_gives() {
        let (base, _) = parse(
            "hosting: { types: [tosca.relationships.HostedOn] }\nlink: { requirements: [link] }\n",
        );
        let (overlay, _) = parse("hosting: { types: [] }\n");
        let both = base.unwrap().overlaid(&overlay.unwrap());
        let hosted = relationship(&["tosca.relationships.HostedOn"], "host");
        assert!(!both.means(&hosted, Meaning::Hosting));
        assert!(both.means(&relationship(&[], "link"), Meaning::Link));
    }

    #[test]
    fn unknown_meanings_keys_and_shapes_are_errors() {
        let (meanings, messages) =
            parse("wiring: {}\nhosting: { typs: [x] }\nlink: { types: [{ a: b }] }\n");
        assert!(meanings.is_none());
        assert_eq!(
            messages,
            [
                "unknown key `wiring` in `relationships`",
                "unknown key `typs` in `relationships: hosting`",
                "`types` must be a name or a list of names, not a map",
            ]
        );
    }
}
