//! A property (or parameter) definition seen through the refinements along its type chain, and
//! those definitions remembered per type chain.

use std::rc::Rc;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::hash::FastMap;
use crate::ir::TypeNames;
use crate::model::{Model, TypeDef, TypeKind};
use crate::resolve::type_parts::{ChainSection, SectionRef};
use crate::resolve::types::definitions;
use crate::yaml::{Map, Node as Yaml};

use super::{definitions_of, yaml11_bool};

/// One property (or parameter) definition seen through the refinements along a type chain.
#[derive(Debug, Clone, Default)]
pub struct Definition<'m> {
    /// The definition maps, most specific first.
    pub(in crate::resolve) layers: Vec<&'m Map>,
    /// The value of a one-line refinement `<name>: <value>` more specific than every layer
    /// that gives a `default` or `value` (see [`definitions_of`]).
    pub(in crate::resolve) one_line: Option<&'m Yaml>,
}

impl<'m> Definition<'m> {
    /// A definition written in one place (an input, an entry_schema).
    pub fn single(map: &'m Map) -> Self {
        Definition {
            layers: vec![map],
            one_line: None,
        }
    }

    /// The most specific value of `key`.
    pub fn get(&self, key: &str) -> Option<&'m Yaml> {
        self.layers.iter().find_map(|m| m.get(key))
    }

    pub fn type_name(&self) -> Option<&'m str> {
        self.get("type").and_then(Yaml::scalar_text)
    }

    /// `required` defaults to true (Simple Profile and TOSCA 2.0 alike); a YAML 1.1 `no` is
    /// false, as the Simple Profile's own files mean it (see [`super::required_keyname`]).
    pub fn required(&self) -> bool {
        let required = self.get("required");
        let core = required.and_then(|n| n.as_scalar()).map(|s| s.core);
        !(core == Some(crate::yaml::Core::Bool(false))
            || required.and_then(yaml11_bool).is_some_and(|(_, b)| !b))
    }

    /// The `validation` clause of every layer: a refinement's is ANDed with what it inherits
    /// (§9.4 Property Definition).
    pub(super) fn validations(&self) -> Vec<&'m Yaml> {
        self.layers
            .iter()
            .filter_map(|m| m.get("validation"))
            .collect()
    }

    /// Every constraint clause of every layer: a refinement adds to what it inherits.
    pub(super) fn constraints(&self) -> Vec<&'m Yaml> {
        self.layers
            .iter()
            .filter_map(|m| m.get("constraints"))
            .flat_map(|c| c.as_seq().unwrap_or(std::slice::from_ref(c)))
            .collect()
    }
}

/// [`definitions_of`] remembered per type chain and section: every template of a type reads the
/// same definitions, so they are merged once per type, not once per template.
#[derive(Debug, Default)]
pub struct DefinitionsCache<'m> {
    /// (the chain's types, by address in the model; section) → its definitions.
    merged: DefinitionsBySection<'m>,
    /// A chain's names → its types: see [`DefinitionsCache::chain`].
    chains: FastMap<(TypeKind, *const [String]), ChainDefs<'m>>,
}

/// A chain's types, with the name list they were looked up from, held so that its address,
/// the key, names that list for the whole run.
#[derive(Debug)]
struct ChainDefs<'m> {
    _names: TypeNames,
    defs: Rc<[&'m TypeDef]>,
}

type DefinitionsBySection<'m> =
    IndexMap<ChainSection, Rc<IndexMap<&'m str, Definition<'m>>>, foldhash::fast::RandomState>;

impl<'m> DefinitionsCache<'m> {
    /// The definitions of `section` along `defs`, as [`definitions_of`] gives them. Asked
    /// several times per template: a hit allocates nothing.
    pub fn of(
        &mut self,
        defs: &[&'m TypeDef],
        section: &str,
    ) -> Rc<IndexMap<&'m str, Definition<'m>>> {
        if let Some(known) = self.merged.get(&SectionRef(defs, section)) {
            return Rc::clone(known);
        }
        let made = Rc::new(definitions_of(defs, section));
        self.merged
            .insert(ChainSection::of(defs, section), Rc::clone(&made));
        made
    }

    /// The types of `ancestry` that were read, most specific first, as
    /// [`crate::resolve::types::definitions`] gives them, looked up once per chain. Every
    /// element of a type holds the one name list `Ancestry` made for it ([`TypeNames`] is
    /// shared), so the list's address is the key: a capability of each of 10,000 templates asks
    /// for its chain without hashing a name. The cache holds a clone of the list, so the
    /// address is not reused while the run lasts; two equal lists at two addresses are two
    /// entries with the same types.
    pub fn chain(
        &mut self,
        model: &'m Model,
        kind: TypeKind,
        ancestry: &TypeNames,
    ) -> Rc<[&'m TypeDef]> {
        let key = (kind, Arc::as_ptr(ancestry));
        let known = self.chains.entry(key).or_insert_with(|| ChainDefs {
            _names: Arc::clone(ancestry),
            defs: definitions(model, kind, ancestry).into(),
        });
        Rc::clone(&known.defs)
    }
}
