//! What every template of a type shares, worked out once per type.
//!
//! A node template starts from its type: the capabilities its type chain defines (typed, with
//! their defaults) and the typed defaults of its property and attribute definitions. Those
//! depend on the type alone, so 10,000 templates of one type need them worked out once, then
//! copied. A problem found while working them out is reported again for every template that
//! uses them, exactly as if each had worked them out itself, so caching changes no output.

use std::hash::{Hash, Hasher};

use indexmap::{Equivalent, IndexMap};

use crate::diag::{Diagnostic, Diagnostics};
use crate::hash::FastMap;
use crate::ir::{Capability, Interfaces, Shared, Value};
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

    /// The value, copied by `copy`, with its diagnostics reported into `diags` again.
    pub fn replay(&self, copy: impl FnOnce(&T) -> T, diags: &mut Diagnostics) -> T {
        diags.extend(self.diagnostics.iter().cloned());
        copy(&self.value)
    }
}

/// The per-type results of one resolution.
#[derive(Default)]
pub struct TypeParts {
    /// A node type chain → the capabilities it defines, before a template's assignments.
    pub capabilities: ChainMap<Replayed<IndexMap<String, Shared<Capability>>>>,
    /// Merged definitions (by address in the run's `DefinitionsCache`, which keeps them for the
    /// whole run) → the typed values of their defaults.
    pub defaults: FastMap<usize, IndexMap<String, Value>>,
    /// A relationship type chain → what every relationship of the type starts from.
    pub relationships: ChainMap<RelationshipParts>,
    /// A type chain → the interfaces it defines, before a template's assignments. Kept only
    /// when working them out reported nothing and named no file: an operation that names one
    /// may mean an artifact of the template being built (`create: installer`), and a missing
    /// file is reported once per place, so neither can be replayed.
    pub interfaces: ChainMap<Interfaces>,
    /// What working out a chain's interfaces reported (code, place, message): a chain that
    /// reported is worked out again for each template of it, and its reports, the same YAML
    /// read the same way, are passed on once.
    pub interface_reports:
        crate::hash::FastSet<(&'static str, Option<crate::source::Span>, String)>,
}

/// What a relationship type chain gives each of its relationships, worked out once.
pub struct RelationshipParts {
    /// The interfaces the chain defines, before a relationship's assignments. Kept only when
    /// working them out reported nothing: a missing implementation file is reported once per
    /// place, so a replay would report it again where working them out again does not.
    pub interfaces: Option<Interfaces>,
    /// The capability types the chain admits as targets.
    pub admitted: Vec<String>,
}

/// A map keyed by type chain, asked with the chain as the caller holds it ([`ChainRef`]), so a
/// lookup (once per template, most of them hits) allocates no key.
pub type ChainMap<V> = IndexMap<Chain, V, foldhash::fast::RandomState>;

/// A type chain as a key: its definitions by address in the model, most specific first. The
/// model outlives every resolution, so an address names one definition for the whole run.
#[derive(Debug, PartialEq, Eq)]
pub struct Chain(Vec<*const TypeDef>);

impl Chain {
    pub fn of(defs: &[&TypeDef]) -> Self {
        Chain(defs.iter().map(|&d| d as *const TypeDef).collect())
    }
}

/// A type chain as the caller holds it, to look a [`Chain`] up with.
pub struct ChainRef<'a, 'm>(pub &'a [&'m TypeDef]);

/// Both forms hash the same: the length, then each address.
impl Hash for Chain {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.len());
        for &d in &self.0 {
            state.write_usize(d as usize);
        }
    }
}

impl Hash for ChainRef<'_, '_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.len());
        for &d in self.0 {
            state.write_usize(d as *const TypeDef as usize);
        }
    }
}

impl Equivalent<Chain> for ChainRef<'_, '_> {
    fn equivalent(&self, key: &Chain) -> bool {
        self.0.len() == key.0.len() && self.0.iter().zip(&key.0).all(|(&d, &k)| std::ptr::eq(d, k))
    }
}

/// A (type chain, section) key, asked as [`SectionRef`].
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ChainSection(Chain, String);

impl ChainSection {
    pub fn of(defs: &[&TypeDef], section: &str) -> Self {
        ChainSection(Chain::of(defs), section.to_string())
    }
}

/// A (type chain, section) as the caller holds it; hashes as [`ChainSection`] does.
pub struct SectionRef<'a, 'm>(pub &'a [&'m TypeDef], pub &'a str);

impl Hash for SectionRef<'_, '_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        ChainRef(self.0).hash(state);
        self.1.hash(state);
    }
}

impl Equivalent<ChainSection> for SectionRef<'_, '_> {
    fn equivalent(&self, key: &ChainSection) -> bool {
        self.1 == key.1 && ChainRef(self.0).equivalent(&key.0)
    }
}
