//! How the model reads a node's content: through the not-translated ledger
//! ([`crate::back::Ledger`]), so that what it uses is recorded and the rest is reported.

use super::*;
use crate::back::ignores::Part;

impl<'a> Ctx<'a> {
    /// Property `name` of node `i`, recorded in the ledger as translated.
    pub(super) fn property(&self, i: usize, name: &str) -> Option<&'a Value> {
        self.ledger.property(self.topology, i, name)
    }

    /// Records that the translation used `key` of `part` of node `i`.
    pub(super) fn used(&self, i: usize, part: Part, key: &str) {
        self.ledger.used(ElementKind::Node, i, part, key);
    }
}
