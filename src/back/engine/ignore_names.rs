//! Checks, when a backend loads, that the property and attribute names a rule's `ignore:` lists
//! are ones the elements it can take may have: a misspelt name would silence nothing and keep a
//! warning on that the author meant to answer.
//!
//! What a rule can take is known at load only for the normative types (Simple Profile 1.0 to
//! 1.3, whose definitions are embedded): a name is known when a normative type of the rule's
//! kind that the rule matches defines it, or an ancestor or descendant of such a type does (a
//! rule on `tosca.nodes.SoftwareComponent` also takes a `tosca.nodes.DBMS`). A rule that names
//! no normative type (no `type` at all, or only types of its own) takes types that exist only
//! in the templates it will read, so its names cannot be checked here and are not. Artifact, operation and trigger names
//! are the template's own choice in every type, so only properties and attributes are checked.

use std::collections::{HashMap, HashSet};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{TypeKind, canonical};
use crate::limits::Limits;
use crate::source::{Origin, SourceMap};
use crate::yaml::Node;

use super::super::ignores::Part;
use super::super::rules::Rule;

/// One normative type: its parent and the property and attribute names it defines itself.
#[derive(Default)]
struct TypeNames {
    parent: Option<String>,
    properties: HashSet<String>,
    attributes: HashSet<String>,
}

/// The normative types of each kind, by canonical name.
type Library = HashMap<TypeKind, HashMap<String, TypeNames>>;

/// Reports (`backend::rules`) each property or attribute name of a rule's `ignore:` that no
/// element the rule can take has; see the module docs.
pub(super) fn check(rules: &[Rule], diags: &mut Diagnostics) {
    let listed = |r: &&Rule| {
        r.ignore
            .keys
            .keys()
            .any(|(part, _)| matches!(part, Part::Property | Part::Attribute))
    };
    if !rules.iter().any(|r| listed(&r)) {
        return;
    }
    let library = library(diags);
    for rule in rules.iter().filter(listed) {
        let Some(kind) = rule.kind.type_kind() else {
            continue;
        };
        let Some(types) = library.get(&kind) else {
            continue;
        };
        let Some(known) = names_taken(rule, kind, types) else {
            continue;
        };
        for ((part, name), span) in &rule.ignore.spans {
            let set = match part {
                Part::Property => &known.0,
                Part::Attribute => &known.1,
                _ => continue,
            };
            if !set.contains(name) {
                diags.push(
                    Diagnostic::error(
                        codes::BACKEND_RULES,
                        format!(
                            "no {} type this rule takes has a {part} `{name}`, so ignoring it silences nothing",
                            rule.kind
                        ),
                    )
                    .at(*span)
                    .hint(format!(
                        "name a {part} of the normative types the rule matches, spelt as their definitions spell it"
                    )),
                );
            }
        }
    }
}

/// The property and attribute names of the normative types `rule` can take; `None` when it
/// names no normative type (nothing to check against).
fn names_taken(
    rule: &Rule,
    kind: TypeKind,
    types: &HashMap<String, TypeNames>,
) -> Option<(HashSet<String>, HashSet<String>)> {
    let patterns: Vec<&str> = rule.types.iter().map(|t| canonical(kind, t)).collect();
    if !patterns.iter().any(|p| types.contains_key(*p)) {
        return None;
    }
    let ancestry = |name: &str| -> Vec<String> {
        let mut chain = Vec::new();
        let mut at = Some(name.to_string());
        while let Some(t) = at {
            if chain.contains(&t) {
                break;
            }
            at = types.get(&t).and_then(|d| d.parent.clone());
            chain.push(t);
        }
        chain
    };
    let (mut properties, mut attributes) = (HashSet::new(), HashSet::new());
    for name in types.keys() {
        let chain = ancestry(name);
        let taken = chain.iter().any(|t| patterns.contains(&t.as_str()));
        let ancestor_of_taken = patterns
            .iter()
            .any(|p| ancestry(p).iter().any(|t| t == name));
        if !(taken || ancestor_of_taken) {
            continue;
        }
        for t in chain {
            if let Some(d) = types.get(&t) {
                properties.extend(d.properties.iter().cloned());
                attributes.extend(d.attributes.iter().cloned());
            }
        }
    }
    Some((properties, attributes))
}

/// The normative type definitions of the Simple Profile 1.0 to 1.3, read from the embedded
/// profiles. Each reads clean (`profiles::tests` loads every one and asserts no diagnostic);
/// were one not to, what its reading found is reported, placed in the embedded file.
fn library(diags: &mut Diagnostics) -> Library {
    let mut library = Library::new();
    let mut sources = SourceMap::new();
    for version in [
        "tosca_simple_yaml_1_0",
        "tosca_simple_yaml_1_1",
        "tosca_simple_yaml_1_2",
        "tosca_simple_yaml_1_3",
    ] {
        let Some(files) = crate::profiles::simple_profile(version) else {
            continue;
        };
        // The first file of each version holds its normative types.
        let Some(file) = files.first() else {
            continue;
        };
        let id = sources.add(file.name, Origin::Builtin(file.name.to_string()), file.text);
        let root = match crate::yaml::load_own(&sources, id, &Limits::default()) {
            Ok(root) => root,
            Err(found) => {
                diags.extend(crate::yaml::placed_by_name(&sources, found));
                continue;
            }
        };
        for (kind, section) in [
            (TypeKind::Node, "node_types"),
            (TypeKind::Policy, "policy_types"),
            (TypeKind::Group, "group_types"),
            (TypeKind::Relationship, "relationship_types"),
        ] {
            let Some(defs) = root
                .as_map()
                .and_then(|m| m.get(section))
                .and_then(Node::as_map)
            else {
                continue;
            };
            let types = library.entry(kind).or_default();
            for entry in defs.entries() {
                let Some(name) = entry.key.as_str() else {
                    continue;
                };
                let def = types.entry(canonical(kind, name).to_string()).or_default();
                let Some(body) = entry.value.as_map() else {
                    continue;
                };
                if let Some(parent) = body.get("derived_from").and_then(Node::as_str) {
                    def.parent = Some(canonical(kind, parent).to_string());
                }
                for (key, set) in [
                    ("properties", &mut def.properties),
                    ("attributes", &mut def.attributes),
                ] {
                    if let Some(map) = body.get(key).and_then(Node::as_map) {
                        set.extend(
                            map.entries()
                                .iter()
                                .filter_map(|e| e.key.as_str().map(str::to_string)),
                        );
                    }
                }
            }
        }
    }
    library
}
