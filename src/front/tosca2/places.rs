//! Where a key is in a TOSCA 2.0 file, by the grammar tables: for the language server's keyname
//! hover and completion, which know the keys leading to the cursor, not a parsed tree.

use super::Entity;
use super::table::{K, TOP_LEVEL, TYPE_COMMON};

/// What the key at the end of a path of keys (from the top of a 2.0 file) is, by the tables.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Place {
    /// A keyname of this entity (`None`: of the file).
    Keyname(Option<Entity>),
    /// A name the author chose (a node template's, a property's, an operation's).
    Name,
    /// Inside a value the tables do not look into.
    Unknown,
}

/// The place of a key written under `path` (the keys leading to its map), walking the tables
/// from the file down: for the language server's keyname hover and completion. `imports`
/// holds import definitions, `service_template` the service template.
pub(crate) fn place(path: &[&str]) -> Place {
    let (mut at, rest) = match path {
        [] => return Place::Keyname(None),
        ["imports", rest @ ..] => (Some(Entity::Import), rest),
        ["service_template", rest @ ..] => (Some(Entity::ServiceTemplate), rest),
        [first, rest @ ..] => match TOP_LEVEL.iter().find(|(name, _)| name == first) {
            Some((_, K::Defs(next) | K::ListDefs(next))) => {
                let Some((_, rest)) = rest.split_first() else {
                    return Place::Name;
                };
                (Some(*next), rest)
            }
            _ => return Place::Unknown,
        },
    };
    let mut names_of = Entity::Import;
    for key in rest {
        let Some(entity) = at else {
            at = Some(names_of);
            continue;
        };
        let (table, _) = entity.table();
        let common = if entity.is_type() { TYPE_COMMON } else { &[] };
        match table.iter().chain(common).find(|(name, _)| name == key) {
            Some((_, K::Defs(next) | K::ListDefs(next))) => {
                at = None;
                names_of = *next;
            }
            _ => return Place::Unknown,
        }
    }
    match at {
        Some(entity) => Place::Keyname(Some(entity)),
        None => Place::Name,
    }
}

/// Whether `key` is a keyname of `entity` (of the file for `None`) in TOSCA 2.0: its table,
/// the common keynames of types, and `description` and `metadata`, which every 2.0
/// definition has.
pub(crate) fn has_keyname(entity: Option<Entity>, key: &str) -> bool {
    let Some(entity) = entity else {
        return TOP_LEVEL.iter().any(|(name, _)| *name == key);
    };
    let common = if entity.is_type() { TYPE_COMMON } else { &[] };
    matches!(key, "description" | "metadata")
        || entity
            .table()
            .0
            .iter()
            .chain(common)
            .any(|(name, _)| *name == key)
}
