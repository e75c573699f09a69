//! The Simple Profile 1.x grammar: which keynames each entity may have in each version of the
//! profile, checked over every 1.x file read.
//!
//! Two rules, both from issue #3 and checklist SP-ERR-31:
//! - A keyname that Simple Profile introduced in a later version than the file declares
//!   (`key_schema` in a `tosca_simple_yaml_1_2` file), or that only TOSCA 2.0 has (`count` on a
//!   node template), is an error: a processor of the file's own version would not read it, so
//!   the file does not mean what its author thinks. `--quirk newer-keynames` makes it a warning
//!   and reads the keyname anyway, for files that mislabel their version; `--quirk etsi-nfv`
//!   does the same only within ETSI NFV SOL001 definitions (see [`is_sol001_name`]).
//! - A keyname that no version has is a warning and is ignored. Templates and the topology
//!   already get that warning from `front::yaml`'s tables; this module adds it for type
//!   definitions and everything nested in them, where a typo (`derived_form`) used to be silent.
//!
//! When each keyname appeared comes from `normative-types.md` §4 (only its confirmed and
//! high-confidence entries): `workflows` in 1.1; artifact `properties` in 1.2; `key_schema`,
//! `operations:`/`notifications:` in interfaces, operation `outputs`, implementation
//! `timeout`/`operation_host`, artifact versions and checksums, and the substitution filter,
//! attributes and interfaces in 1.3. A keyname whose first version is uncertain is accepted in
//! every 1.x version rather than risk rejecting a valid file: `metadata` (on types, templates and
//! property, attribute and parameter definitions), policy `triggers` and substitution
//! `properties` are read in 1.0 files, as OpenStack tosca-parser (the reference processor of
//! 1.0) reads them and its test files use them.

pub(crate) mod rules;
mod shapes;
mod table;

pub(crate) use table::{E, Place, keynames, place, since};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::Revision;
use crate::quirk::Quirk;
use crate::yaml::{Map, Node};
use Revision::Tosca2;
use table::{Others, Sub, TYPE_COMMON, Table};

/// The lenient modes this check honours.
#[derive(Clone, Copy, Default, Debug)]
pub struct Lenience {
    /// `--quirk newer-keynames`: a newer keyname anywhere is a warning.
    pub newer_keynames: bool,
    /// `--quirk etsi-nfv`: a newer keyname within an ETSI NFV SOL001 definition is a warning.
    pub etsi_nfv: bool,
}

/// Whether a type name is one of ETSI NFV SOL001's (`tosca.nodes.nfv.Vdu.Compute`,
/// `tosca.datatypes.nfv.L2AddressData`, `tosca.artifacts.Implementation.nfv.Mistral`).
fn is_sol001_name(name: &str) -> bool {
    name.starts_with("tosca.") && name.contains(".nfv.")
}

/// Checks one Simple Profile file's keynames against the grammar of the version it declares.
/// Files whose version is not a Simple Profile one are left alone.
pub fn check_file(root: &Map, lenience: Lenience, diags: &mut Diagnostics) {
    let Some(revision) = root
        .get("tosca_definitions_version")
        .and_then(Node::as_str)
        .and_then(Revision::of)
    else {
        return;
    };
    // SOL001's own files say who wrote them.
    let etsi_file = root
        .get("metadata")
        .and_then(Node::as_map)
        .and_then(|m| m.get("template_author"))
        .and_then(Node::as_str)
        == Some("ETSI_NFV");
    let mut walker = Walker {
        revision,
        lenience,
        in_sol001: etsi_file,
        diags,
    };
    rules::top_level_metadata(root, walker.diags);
    walker.entity(root, E::File, &What::Text("a TOSCA file"));
}

/// What an entity is, for messages (`` `properties` of node template `db` ``): built as the walk
/// descends and written out only when a message needs it. Formatting it for every entity of
/// every file was 3% of `toscana check` at 1,000 node templates.
#[derive(Clone, Copy)]
enum What<'a> {
    Text(&'static str),
    /// `` `key` of `` the outer entity.
    Key(&'a str, &'a What<'a>),
    /// `` operation `key` of `` the outer entity.
    Operation(&'a str, &'a What<'a>),
    /// The entity's noun and its name.
    Named(E, &'a str),
}

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            What::Text(text) => f.write_str(text),
            What::Key(key, outer) => write!(f, "`{key}` of {outer}"),
            What::Operation(key, outer) => write!(f, "operation `{key}` of {outer}"),
            What::Named(e, name) => write!(f, "{} `{name}`", e.noun()),
        }
    }
}

struct Walker<'d> {
    revision: Revision,
    lenience: Lenience,
    /// Inside an ETSI NFV SOL001 definition (or file), where `--quirk etsi-nfv` applies.
    in_sol001: bool,
    diags: &'d mut Diagnostics,
}

impl Walker<'_> {
    fn entity(&mut self, map: &Map, e: E, what: &What<'_>) {
        let (table, others) = e.table();
        let common: Table = if e.is_type() { TYPE_COMMON } else { &[] };
        for entry in map.entries() {
            let Some(key) = entry.key.as_str() else {
                continue;
            };
            let found = table.iter().chain(common).find(|(name, _, _)| *name == key);
            match found {
                Some(&(_, since, sub)) => {
                    if since > self.revision {
                        if e == E::NodeTemplate && key == "count" {
                            self.count_extension(&entry.key, what);
                        } else {
                            self.too_new(&entry.key, key, since, what);
                        }
                    }
                    match key {
                        "status" => rules::status(&entry.value, what, self.diags),
                        "requirements" if e.is_type() => {
                            rules::unique_requirement_names(&entry.value, what, self.diags)
                        }
                        "directives" if e == E::NodeTemplate => {
                            rules::directives(&entry.value, what, self.diags)
                        }

                        _ => {}
                    }
                    shapes::keyname(e, key, &entry.value, what, self.diags);
                    // The readers report the sections of the file and the topology.
                    if !matches!(e, E::File | E::Topology) {
                        shapes::section(sub, &entry.value, &What::Key(key, what), self.diags);
                    }
                    self.sub(&entry.value, sub, &What::Key(key, what));
                }
                None => match others {
                    Others::Reported => {}
                    Others::Operations(op) => {
                        self.one(&entry.value, op, &What::Operation(key, what))
                    }
                    Others::Warn => self.unknown(&entry.key, key, table, common, what),
                },
            }
        }
    }

    fn sub(&mut self, node: &Node, sub: Sub, what: &What<'_>) {
        match sub {
            Sub::Leaf => {}
            Sub::One(e) => self.one(node, e, what),
            Sub::Defs(e) => self.defs(node, e),
            Sub::ListDefs(e) => match node.as_seq() {
                Some(items) => {
                    for item in items {
                        self.defs(item, e);
                    }
                }
                None => self.defs(node, e),
            },
        }
    }

    /// A map of names to entities; other shapes are the readers' to report.
    fn defs(&mut self, node: &Node, e: E) {
        let Some(map) = node.as_map() else { return };
        for entry in map.entries() {
            let name = entry.key.scalar_text().unwrap_or("?");
            let outer = self.in_sol001;
            self.in_sol001 |= is_sol001_name(name);
            shapes::definition(e, &entry.value, &What::Named(e, name), self.diags);
            self.one(&entry.value, e, &What::Named(e, name));
            self.in_sol001 = outer;
        }
    }

    /// One entity; a scalar (the short forms) has no keynames.
    fn one(&mut self, node: &Node, e: E, what: &What<'_>) {
        shapes::short_form_entity(e, node, what, self.diags);
        let Some(map) = node.as_map() else { return };
        // An input of an operation in a type is a definition only when it says its type;
        // otherwise it is a value, perhaps a function call.
        if e == E::Input && !map.contains_key("type") {
            return;
        }
        self.entity(map, e, what);
    }

    fn too_new(&mut self, key_node: &Node, key: &str, since: Revision, what: &What<'_>) {
        let declared = self.revision;
        let etsi_lenient = self.in_sol001 && self.lenience.etsi_nfv && since != Tosca2;
        let mut message = if since == Tosca2 {
            format!(
                "`{key}` in {what} is a TOSCA 2.0 keyname; {} does not have it",
                declared.title()
            )
        } else {
            format!(
                "`{key}` in {what} is a keyname of {} and later; this file declares {}",
                since.title(),
                declared.title()
            )
        };
        if etsi_lenient {
            message.push_str(" (read under `--quirk etsi-nfv`)");
        }
        let hint = if since == Tosca2 {
            "remove it, or write the file in TOSCA 2.0".to_string()
        } else if etsi_lenient {
            "read under `--quirk etsi-nfv`: ETSI NFV SOL001 definitions use later Simple Profile grammar than the version they declare".to_string()
        } else if self.in_sol001 {
            format!(
                "declare `tosca_definitions_version: {}` if the file is written for it, or remove the keyname; this looks like an ETSI NFV SOL001 definition, which `--quirk etsi-nfv` reads with a warning",
                since.spelling()
            )
        } else {
            format!(
                "declare `tosca_definitions_version: {}` if the file is written for it, or remove the keyname; `--quirk newer-keynames` reads it with a warning",
                since.spelling()
            )
        };
        let diagnostic = if self.lenience.newer_keynames || etsi_lenient {
            Diagnostic::warning(codes::TOSCA_KEYNAME_VERSION, message)
        } else {
            Diagnostic::error(codes::TOSCA_KEYNAME_VERSION, message)
        };
        self.diags.push(
            diagnostic
                .at_with(
                    key_node.span,
                    format!("not a keyname of {}", declared.title()),
                )
                .hint(hint),
        );
    }

    /// `count` on a 1.x node template is read, as toscana's one extension of Simple Profile:
    /// the backends turn it into replicas. It stays a warning, since other 1.x processors drop it.
    fn count_extension(&mut self, key_node: &Node, what: &What<'_>) {
        self.diags.push(
            Diagnostic::warning(
                codes::TOSCA_KEYNAME_VERSION,
                format!(
                    "`count` in {what} is a TOSCA 2.0 keyname; toscana reads it in {} too, other processors of that version ignore it",
                    self.revision.title()
                ),
            )
            .at_with(key_node.span, "a toscana extension here")
            .hint("for a template every processor reads the same, give the `scalable` capability a `default_instances` or use a `tosca.policies.Scaling` policy"),
        );
    }

    fn unknown(
        &mut self,
        key_node: &Node,
        key: &str,
        table: Table,
        common: Table,
        what: &What<'_>,
    ) {
        let known: Vec<&str> = table
            .iter()
            .chain(common)
            .filter(|(_, since, _)| *since <= self.revision)
            .map(|(name, _, _)| *name)
            .collect();
        self.diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_KEY,
                format!("unknown keyname `{key}` in {what}"),
            )
            .excused_by(Quirk::UnknownKeynames)
            .at_with(key_node.span, "not a keyname here")
            .did_you_mean(
                key,
                &known,
                Some(format!("known keynames here: {}", known.join(", "))),
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::source::{Origin, SourceMap};

    fn check(text: &str, lenient: bool) -> Vec<(bool, String)> {
        let mut sources = SourceMap::default();
        let mut diags = Diagnostics::default();
        let id = sources.add("t.yaml", Origin::Stdin, text.to_string());
        let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags)
            .expect("test YAML loads");
        check_file(
            root.as_map().expect("a map"),
            Lenience {
                newer_keynames: lenient,
                etsi_nfv: false,
            },
            &mut diags,
        );
        diags
            .iter()
            .map(|d| (d.is_error(), d.message.clone()))
            .collect()
    }

    #[test]
    fn a_1_3_keyname_in_a_1_2_file_is_an_error_that_names_both_versions() {
        let found = check(
            "tosca_definitions_version: tosca_simple_yaml_1_2\nnode_types:\n  N:\n    properties:\n      p:\n        type: map\n        key_schema: string\n",
            false,
        );
        assert_eq!(
            found,
            vec![(
                true,
                "`key_schema` in property definition `p` is a keyname of Simple Profile 1.3 and later; this file declares Simple Profile 1.2".to_string()
            )]
        );
    }

    #[test]
    fn the_lenient_mode_makes_it_a_warning() {
        let found = check(
            "tosca_definitions_version: tosca_simple_yaml_1_0\nnode_types:\n  N:\n    properties:\n      p: {type: map, key_schema: string}\n",
            true,
        );
        assert_eq!(found.len(), 1);
        assert!(!found[0].0, "{found:?}");
    }

    fn check_etsi(text: &str) -> Vec<(bool, String, String)> {
        let mut sources = SourceMap::default();
        let mut diags = Diagnostics::default();
        let id = sources.add("t.yaml", Origin::Stdin, text.to_string());
        let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags)
            .expect("test YAML loads");
        let lenience = Lenience {
            newer_keynames: false,
            etsi_nfv: true,
        };
        check_file(root.as_map().expect("a map"), lenience, &mut diags);
        diags
            .iter()
            .map(|d| {
                let hint = d.hint.clone().unwrap_or_default();
                (d.is_error(), d.message.clone(), hint)
            })
            .collect()
    }

    const SOL001_IN_1_2: &str = "tosca_definitions_version: tosca_simple_yaml_1_2\ninterface_types:\n  tosca.interfaces.nfv.Lcm:\n    derived_from: tosca.interfaces.Root\n    notifications:\n      changed: {description: d}\n";

    #[test]
    fn a_newer_keyname_in_a_sol001_type_points_at_the_etsi_quirk() {
        let found = check(SOL001_IN_1_2, false);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0, "{found:?}");
        let mut sources = SourceMap::default();
        let mut diags = Diagnostics::default();
        let id = sources.add("t.yaml", Origin::Stdin, SOL001_IN_1_2.to_string());
        let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags).unwrap();
        check_file(root.as_map().unwrap(), Lenience::default(), &mut diags);
        let hint = diags
            .iter()
            .next()
            .unwrap()
            .hint
            .clone()
            .unwrap_or_default();
        assert!(hint.contains("--quirk etsi-nfv"), "{hint}");
    }

    #[test]
    fn the_etsi_quirk_reads_a_newer_keyname_in_a_sol001_type_with_a_warning() {
        let found = check_etsi(SOL001_IN_1_2);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(!found[0].0, "{found:?}");
        assert!(found[0].1.contains("--quirk etsi-nfv"), "{found:?}");
    }

    #[test]
    fn the_etsi_quirk_covers_every_entity_of_a_file_etsi_wrote() {
        let found = check_etsi(
            "tosca_definitions_version: tosca_simple_yaml_1_2\nmetadata: {template_author: ETSI_NFV}\nnode_types:\n  N:\n    properties:\n      p: {type: map, key_schema: string}\n",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(!found[0].0, "{found:?}");
    }

    #[test]
    fn the_etsi_quirk_leaves_other_types_strict() {
        let found = check_etsi(
            "tosca_definitions_version: tosca_simple_yaml_1_2\nnode_types:\n  my.Node:\n    properties:\n      p: {type: map, key_schema: string}\n  tosca.nodes.nfv.X:\n    properties:\n      q: {type: map, key_schema: string}\n",
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].0, "{found:?}");
        assert!(!found[0].2.contains("etsi-nfv"), "{found:?}");
        assert!(!found[1].0, "{found:?}");
    }

    #[test]
    fn the_same_keyname_is_fine_in_its_own_version() {
        let found = check(
            "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  N:\n    metadata: {a: b}\n    properties:\n      p: {type: map, key_schema: string, metadata: {x: y}}\n    interfaces:\n      Standard:\n        operations:\n          create:\n            implementation: {primary: a.sh, timeout: 30}\n            outputs: {id: [SELF, id]}\n",
            false,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    const TYPO: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  N:\n    derived_form: tosca.nodes.Root\n";

    #[test]
    fn a_typo_in_a_type_is_an_error_with_the_nearest_keyname() {
        let found = check(TYPO, false);
        assert_eq!(
            found,
            vec![(
                true,
                "unknown keyname `derived_form` in node type `N`".to_string()
            )]
        );
    }

    #[test]
    fn the_unknown_keynames_quirk_keeps_a_typo_a_warning() {
        let mut sources = SourceMap::default();
        let mut diags = Diagnostics::default();
        diags.excuse(&crate::quirk::Quirks::new(&[Quirk::UnknownKeynames]));
        let id = sources.add("t.yaml", Origin::Stdin, TYPO.to_string());
        let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags).unwrap();
        check_file(root.as_map().unwrap(), Lenience::default(), &mut diags);
        let found: Vec<(bool, &str, Option<&str>)> = diags
            .iter()
            .map(|d| (d.is_error(), d.message.as_str(), d.hint.as_deref()))
            .collect();
        assert_eq!(
            found,
            [(
                false,
                "unknown keyname `derived_form` in node type `N`; ignored (--quirk unknown-keynames)",
                Some("did you mean `derived_from`?")
            )]
        );
        assert!(!diags.has_errors());
    }

    #[test]
    fn operations_before_1_3_sit_directly_under_the_interface() {
        let ok = check(
            "tosca_definitions_version: tosca_simple_yaml_1_0\nnode_types:\n  N:\n    interfaces:\n      Standard:\n        create:\n          implementation: a.sh\n          inputs: {x: {get_property: [SELF, p]}}\n",
            false,
        );
        assert!(ok.is_empty(), "{ok:?}");
        let nested = check(
            "tosca_definitions_version: tosca_simple_yaml_1_1\nnode_types:\n  N:\n    interfaces:\n      Standard:\n        operations:\n          create: a.sh\n",
            false,
        );
        assert_eq!(nested.len(), 1, "{nested:?}");
        assert!(nested[0].1.contains("Simple Profile 1.3"), "{nested:?}");
    }

    #[test]
    fn a_tosca_2_keyname_in_a_requirement_is_an_error() {
        let found = check(
            "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    n:\n      type: tosca.nodes.Root\n      requirements:\n        - dependency: {node: m, optional: true}\n",
            false,
        );
        assert_eq!(
            found,
            vec![(
                true,
                "`optional` in requirement assignment `dependency` is a TOSCA 2.0 keyname; Simple Profile 1.3 does not have it".to_string()
            )]
        );
    }

    #[test]
    fn count_on_a_node_template_is_read_with_a_warning() {
        let found = check(
            "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    n:\n      type: tosca.nodes.Root\n      count: 3\n",
            false,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(!found[0].0, "{found:?}");
        assert!(found[0].1.contains("toscana reads it"), "{found:?}");
    }
}
