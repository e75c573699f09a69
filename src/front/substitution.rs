//! A service template's `substitution_mappings` read into the model's typed
//! [`SubstitutionMappings`] (see `crate::model::substitution` for what is typed and why).
//!
//! Nothing is reported here: each dialect's grammar (`front::simple_grammar`, `front::tosca2`)
//! checks the keynames it knows, and the resolver reports the shapes of the mappings where it
//! reads them, so that their diagnostics stay where they have always been (only for the
//! service template being resolved, and not when the mappings name no `node_type`). What a
//! mapping of the wrong shape needs for its report is kept.

use crate::ir::Dialect;
use crate::model::Text;
use crate::model::substitution::{
    BoundaryMapping, BoundaryMappings, KEYNAMES, SubstitutionMappings, Target,
};
use crate::model::value::Value;
use crate::yaml::{Kind, Node};

use super::value::{into_value, keyname};

/// `node`, the value of `substitution_mappings`, typed; the node is consumed, not kept.
pub fn read(node: Node, dialect: Dialect) -> SubstitutionMappings {
    let mut out = SubstitutionMappings {
        span: node.span,
        ..SubstitutionMappings::default()
    };
    let Kind::Map(map) = node.kind else {
        out.not_a_map = Some(into_value(node));
        return out;
    };
    for entry in map.into_entries() {
        let Some(key) = keyname(&entry.key, KEYNAMES) else {
            out.unknown_keys.push(into_value(entry.key));
            continue;
        };
        let value = entry.value;
        match key {
            "node_type" => out.node_type = Some(into_value(value)),
            "substitution_filter" => out.substitution_filter = Some(value),
            "properties" => out.properties = Some(into_value(value)),
            "attributes" => out.attributes = Some(into_value(value)),
            "interfaces" => out.interfaces = Some(into_value(value)),
            "capabilities" => out.capabilities = boundary(value, false, false),
            "requirements" => out.requirements = boundary(value, true, dialect == Dialect::Tosca2),
            // `node`, `description` and `metadata` mean nothing to a reader of the boundary.
            _ => {}
        }
    }
    out
}

/// The mappings of a `capabilities` or `requirements` section: a map of names to targets, or
/// (for `requirements`, TOSCA 2.0's §15.5 Requirement Mapping) a list of single-entry maps.
/// `several` (a TOSCA 2.0 requirement) admits a selectable node template and a list of targets.
fn boundary(section: Node, requirements: bool, several: bool) -> BoundaryMappings {
    let mut entries = Vec::new();
    let mut malformed = Vec::new();
    let mut add = |key: Node, value: Node| {
        let value = into_value(value);
        entries.push(BoundaryMapping {
            key: into_value(key),
            targets: targets(&value, several),
            at: value.span,
        })
    };
    match section.kind {
        Kind::Map(map) => {
            for entry in map.into_entries() {
                add(entry.key, entry.value);
            }
        }
        Kind::Seq(items) if requirements => {
            for item in items {
                if item.as_map().map(|m| m.len()) != Some(1) {
                    malformed.push(into_value(item));
                    continue;
                }
                if let Kind::Map(map) = item.kind
                    && let Some(entry) = map.into_entries().pop()
                {
                    add(entry.key, entry.value);
                }
            }
        }
        _ => {
            return BoundaryMappings {
                not_a_section: Some(into_value(section)),
                ..BoundaryMappings::default()
            };
        }
    }
    BoundaryMappings {
        entries,
        malformed,
        not_a_section: None,
    }
}

/// What one mapping names: `[node, name]`, 1.3's `{ mapping: [node, name] }`, or, when
/// `several`, also a selectable node template's name or a non-empty list of pairs and names.
/// `None` for any other shape.
fn targets(value: &Value, several: bool) -> Option<Vec<Target>> {
    let target = value
        .as_map()
        .and_then(|m| m.get("mapping"))
        .unwrap_or(value);
    if let Some(one) = pair(target) {
        return Some(vec![one]);
    }
    if !several {
        return None;
    }
    match target.as_list() {
        Some(items) if !items.is_empty() => items.iter().map(item).collect(),
        Some(_) => None,
        None => item(target).map(|t| vec![t]),
    }
}

/// `[node template, name]`, both scalars.
fn pair(value: &Value) -> Option<Target> {
    match value.as_list()? {
        [node, name] => Some(Target::Pair(text(node)?, text(name)?)),
        _ => None,
    }
}

/// A selectable node template's name, or a pair.
fn item(value: &Value) -> Option<Target> {
    match text(value) {
        Some(name) => Some(Target::Selectable(name)),
        None => pair(value),
    }
}

/// A scalar's text with its span.
fn text(value: &Value) -> Option<Text> {
    Some(Text {
        text: value.scalar_text()?.to_string(),
        span: value.span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::limits::Limits;
    use crate::source::{Origin, SourceMap};

    fn read_text(text: &str, dialect: Dialect) -> SubstitutionMappings {
        let mut sources = SourceMap::new();
        let file = sources.add("t.yaml", Origin::Stdin, text);
        let mut diags = Diagnostics::new();
        let node =
            crate::yaml::load(&sources, file, &Limits::default(), &mut diags).expect("loads");
        read(node, dialect)
    }

    /// Each mapping as `name -> node.inner | node` pairs, `!` for a value of no allowed form.
    fn shown(mappings: &BoundaryMappings) -> Vec<String> {
        mappings
            .entries
            .iter()
            .map(|e| {
                let targets = match &e.targets {
                    None => "!".to_string(),
                    Some(targets) => targets
                        .iter()
                        .map(|t| match t {
                            Target::Pair(node, inner) => format!("{}.{}", node.text, inner.text),
                            Target::Selectable(node) => node.text.clone(),
                        })
                        .collect::<Vec<_>>()
                        .join(" "),
                };
                format!("{} -> {targets}", e.name().unwrap_or("?"))
            })
            .collect()
    }

    #[test]
    fn the_map_and_list_forms_of_a_requirement_mapping_read_alike() {
        let text = "node_type: App\nrequirements:\n  - db: [ app, db ]\n  - [ peer, 2 ]: [ app, peer ]\n  - db: { mapping: [ other, db ] }\n  - 7\n  - { a: [x, y], b: [x, y] }\n";
        let list = read_text(text, Dialect::Tosca2);
        assert_eq!(
            shown(&list.requirements),
            ["db -> app.db", "peer -> app.peer", "db -> other.db"]
        );
        assert_eq!(list.requirements.malformed.len(), 2);
        assert_eq!(
            list.requirements.entries[1]
                .count()
                .and_then(Value::scalar_text),
            Some("2")
        );
        let map = read_text(
            "node_type: App\nrequirements:\n  db: [ app, db ]\n  peer: { mapping: [ app, peer ] }\n",
            Dialect::SimpleProfile,
        );
        assert_eq!(
            shown(&map.requirements),
            ["db -> app.db", "peer -> app.peer"]
        );
        assert_eq!(map.node_type.as_ref().and_then(Value::as_str), Some("App"));
    }

    #[test]
    fn only_a_tosca2_requirement_maps_onto_selectable_nodes_and_lists_of_targets() {
        let text = "requirements:\n  a: sel\n  b: [ [ x, r ], sel, [ y, r ] ]\n  c: []\ncapabilities:\n  d: sel\n  e: [ x, c ]\n";
        let tosca2 = read_text(text, Dialect::Tosca2);
        assert_eq!(
            shown(&tosca2.requirements),
            ["a -> sel", "b -> x.r sel y.r", "c -> !"]
        );
        assert_eq!(shown(&tosca2.capabilities), ["d -> !", "e -> x.c"]);
        let simple = read_text(text, Dialect::SimpleProfile);
        assert_eq!(shown(&simple.requirements), ["a -> !", "b -> !", "c -> !"]);
    }

    #[test]
    fn unknown_keys_are_kept_in_order_and_a_value_that_is_no_map_is_kept_whole() {
        let read = read_text(
            "bogus: 1\nnode_type: A\n? [ k ]\n: 2\ndescription: d\nproperties: { p: i }\nsubstitution_filter: { properties: [] }\n",
            Dialect::SimpleProfile,
        );
        let unknown: Vec<_> = read.unknown_keys.iter().map(Value::describe).collect();
        assert_eq!(unknown, ["a string", "a list"]);
        assert!(
            read.properties
                .as_ref()
                .and_then(Value::as_map)
                .is_some_and(|m| m.contains_key("p"))
        );
        assert!(read.substitution_filter.is_some() && read.not_a_map.is_none());
        let list = read_text("[ 1 ]\n", Dialect::SimpleProfile);
        assert_eq!(list.not_a_map.as_ref().map(Value::describe), Some("a list"));
        assert!(list.node_type.is_none() && list.unknown_keys.is_empty());
    }
}
