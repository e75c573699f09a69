//! A property (or parameter) definition seen through the refinements along its type chain, and
//! those definitions remembered per type chain.

use std::rc::Rc;

use indexmap::IndexMap;

use crate::model::TypeDef;
use crate::resolve::type_parts::{ChainSection, SectionRef};
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
}
