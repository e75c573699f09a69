//! What every template of a type shares, worked out once per type.
//!
//! A node template starts from its type: the capabilities its type chain defines (typed, with
//! their defaults) and the typed defaults of its property and attribute definitions. Those
//! depend on the type alone, so 10,000 templates of one type need them worked out once, then
//! copied. A problem found while working them out is reported again for every template that
//! uses them, exactly as if each had worked them out itself, so caching changes no output.

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{Capability, Interface, Value};
use crate::model::TypeDef;

/// A result with the diagnostics found while making it.
pub struct Replayed<T> {
    pub value: T,
    pub diagnostics: Vec<Diagnostic>,
}

impl<T: Clone> Replayed<T> {
    /// Runs `make` with a sink of its own and keeps what it reported.
    pub fn make(make: impl FnOnce(&mut Diagnostics) -> T) -> Self {
        let mut local = Diagnostics::with_cap(0);
        let value = make(&mut local);
        Replayed {
            value,
            diagnostics: local.iter().cloned().collect(),
        }
    }

    /// The value, with its diagnostics reported into `diags` again.
    pub fn replay(&self, diags: &mut Diagnostics) -> T {
        diags.extend(self.diagnostics.iter().cloned());
        self.value.clone()
    }
}

/// The per-type results of one resolution.
#[derive(Default)]
pub struct TypeParts {
    /// A node type chain (its definitions, by address in the model, most specific first) → the
    /// capabilities it defines, before a template's assignments.
    pub capabilities: HashMap<Vec<*const TypeDef>, Replayed<IndexMap<String, Capability>>>,
    /// Merged definitions (by address in the run's `DefinitionsCache`, which keeps them for the
    /// whole run) → the typed values of their defaults.
    pub defaults: HashMap<usize, IndexMap<String, Value>>,
    /// A relationship type chain (as for `capabilities`) → what every relationship of the type
    /// starts from.
    pub relationships: crate::hash::FastMap<Vec<*const TypeDef>, RelationshipParts>,
}

/// What a relationship type chain gives each of its relationships, worked out once.
pub struct RelationshipParts {
    /// The interfaces the chain defines, before a relationship's assignments. Kept only when
    /// working them out reported nothing: a missing implementation file is reported once per
    /// place, so a replay would report it again where working them out again does not.
    pub interfaces: Option<IndexMap<String, Interface>>,
    /// The capability types the chain admits as targets.
    pub admitted: Vec<String>,
}

/// The key of a type chain in [`TypeParts::capabilities`].
pub fn chain_key(defs: &[&TypeDef]) -> Vec<*const TypeDef> {
    defs.iter().map(|&d| d as *const TypeDef).collect()
}
