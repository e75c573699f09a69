//! Handles into the topology's arenas: which node, relationship or group an element refers to.
//!
//! A handle is an index into one arena of a [`Topology`], but not one anybody can write: its
//! field is private, so a handle comes only from the topology itself ([`Topology::node_ids`] and
//! its siblings, or a field of an element such as [`super::Relationship::source`]) or from the
//! resolver, which builds the arenas ([`NodeId::from_index`], crate-visible for it alone). The
//! validator ([`super::validate`]) checks once, after resolution, that every handle the
//! topology holds resolves, so a backend reads `topology[id]` without guarding each look-up.

use std::ops::Index;

use schemars::JsonSchema;
use serde::Serialize;

use super::{Group, Node, Relationship, Topology};

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $arena:ident, $element:ty, $ids:ident, $at:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
        #[serde(transparent)]
        pub struct $name(usize);

        impl $name {
            /// The handle of entry `index` of its arena. Only for the resolver, which builds the
            /// arenas (and shifts handles when it splices one topology into another); a
            /// backend gets its handles from the topology.
            pub(crate) const fn from_index(index: usize) -> Self {
                $name(index)
            }

            /// The position of the element in its arena: for tables a backend keeps beside the
            /// topology, one entry per element.
            pub const fn index(self) -> usize {
                self.0
            }
        }

        impl Index<$name> for Topology {
            type Output = $element;
            fn index(&self, id: $name) -> &$element {
                &self.$arena[id.0]
            }
        }

        impl Topology {
            /// The handle of every element of the arena, in source order.
            pub fn $ids(&self) -> impl ExactSizeIterator<Item = $name> + use<> {
                (0..self.$arena.len()).map($name)
            }

            /// The handle of entry `index` of the arena, if it has one: for a backend that
            /// keeps its own tables by position and needs the element back.
            pub fn $at(&self, index: usize) -> Option<$name> {
                (index < self.$arena.len()).then_some($name(index))
            }
        }
    };
}

handle!(
    /// Index of a [`Node`] in [`Topology::nodes`].
    NodeId,
    nodes,
    Node,
    node_ids,
    node_at
);
handle!(
    /// Index of a [`Relationship`] in [`Topology::relationships`].
    RelationshipId,
    relationships,
    Relationship,
    relationship_ids,
    relationship_at
);
handle!(
    /// Index of a [`Group`] in [`Topology::groups`].
    GroupId,
    groups,
    Group,
    group_ids,
    group_at
);

#[cfg(test)]
mod tests {
    /// Backends read handles; only the resolver makes them. A backend that needed to make one
    /// would be guarding against a topology the validator already checked. (Their unit tests,
    /// after `#[cfg(test)]`, may build topologies by hand.)
    #[test]
    fn backends_never_make_handles() {
        let mut stack = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/back"
        ))];
        let mut makers = Vec::new();
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if std::fs::read_to_string(&path)
                    .unwrap_or_default()
                    .split("#[cfg(test)]")
                    .next()
                    .is_some_and(|code| code.contains("::from_index("))
                {
                    makers.push(path.display().to_string());
                }
            }
        }
        assert!(makers.is_empty(), "backends making handles: {makers:?}");
    }
}
