//! One YAML tree laid over another: how a template's `copy` and a refined artifact definition
//! combine what they inherit with what they state.

use super::{Kind, Map, Node};

/// `over` laid onto `base`: where both are maps they merge key by key, recursively; anywhere
/// else `over` wins whole (a list is replaced, not appended to).
pub fn overlay(base: &Node, over: &Node) -> Node {
    match (base.as_map(), over.as_map()) {
        (Some(b), Some(o)) => Node {
            span: over.span,
            tag: over.tag.clone(),
            style: over.style,
            kind: Kind::Map(overlay_maps(b, o)),
        },
        _ => over.clone(),
    }
}

/// The maps of [`overlay`]: `base`'s keys keep their order (with `over`'s key node where both
/// have the key), keys only `over` has follow.
pub fn overlay_maps(base: &Map, over: &Map) -> Map {
    let mut out = Map::new();
    for entry in base.entries() {
        let theirs = entry.key.as_str().and_then(|k| over.entry(k));
        let (key, value) = match theirs {
            Some(theirs) => (theirs.key.clone(), overlay(&entry.value, &theirs.value)),
            None => (entry.key.clone(), entry.value.clone()),
        };
        // Keys of `base` are unique, so no insert can clash.
        let _ = out.insert(key, value);
    }
    for entry in over.entries() {
        if !entry.key.as_str().is_some_and(|k| base.contains_key(k)) {
            let _ = out.insert(entry.key.clone(), entry.value.clone());
        }
    }
    out
}
