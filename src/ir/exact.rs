//! Copies of the IR's maps at their size.
//!
//! Every node and relationship starts from maps its type defines (the defaults of its
//! properties and attributes, its capabilities and interfaces), copied once per element. An
//! `IndexMap`'s `clone` gives the copy as much room as the original's hash table has, which is
//! up to twice its entries and, for the one-entry maps most types give (`state: initial`),
//! three entries: at 100,000 node templates that room was about 60 MB of `check`'s peak
//! (docs/performance.md, "Where the rest goes"). [`clone_exact`] gives it room for its entries.

use std::hash::{BuildHasher, Hash};

use indexmap::IndexMap;

/// A copy of `map` with room for its entries and no more; equal to `map.clone()`.
pub fn clone_exact<K, V, S>(map: &IndexMap<K, V, S>) -> IndexMap<K, V, S>
where
    K: Clone + Hash + Eq,
    V: Clone,
    S: BuildHasher + Clone,
{
    let mut out = IndexMap::with_capacity_and_hasher(map.len(), map.hasher().clone());
    out.extend(map.iter().map(|(k, v)| (k.clone(), v.clone())));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_is_equal_and_holds_no_more_room_than_its_entries() {
        let mut map: IndexMap<String, u32> = IndexMap::new();
        map.insert("state".to_string(), 1);
        let copy = clone_exact(&map);
        assert_eq!(copy, map);
        assert_eq!(copy.capacity(), 1);
        let many: IndexMap<String, u32> = (0..9).map(|i| (format!("k{i}"), i)).collect();
        let copy = clone_exact(&many);
        assert_eq!(copy, many);
        assert_eq!(
            copy.keys().collect::<Vec<_>>(),
            many.keys().collect::<Vec<_>>()
        );
        assert_eq!(copy.capacity(), 9);
    }
}
