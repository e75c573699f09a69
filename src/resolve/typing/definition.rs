//! A property (or parameter) definition seen through the refinements along its type chain, and
//! those definitions remembered per type chain.

use std::rc::Rc;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::hash::FastMap;
use crate::ir::TypeNames;
use crate::model::definitions::{Definition as Typed, Schema};
use crate::model::tree::{Shape, Tree};
use crate::model::value::{Data, Value};
use crate::model::{Model, TypeDef, TypeKind};
use crate::resolve::type_parts::{ChainSection, SectionRef};
use crate::resolve::types::definitions;
use crate::yaml::{Map, Node as Yaml};

use super::{definitions_of, yaml11_bool};

/// One property (or parameter) definition seen through the refinements along a type chain.
///
/// Transitional, while definitions are typed one kind at a time (`docs/architecture.md`, "The
/// typed model"): a definition is either YAML maps along a type chain (`layers`, with
/// `one_line`) or one typed definition written in one place (`typed`: an output). The typed
/// reader asks through the accessors ([`Self::type_written`], [`Self::default_written`],
/// [`Self::value_written`], [`Self::constraints`], [`Self::validations`], [`Self::entry_schema`],
/// [`Self::key_schema`], [`Self::required`]), which answer for either and hand a value out as
/// a [`Written`] of either tree; [`Self::get`] reads the YAML layers only, for the readers not
/// moved yet, which are never given a typed definition.
#[derive(Debug, Clone, Default)]
pub struct Definition<'m> {
    /// The definition maps, most specific first.
    pub(in crate::resolve) layers: Vec<&'m Map>,
    /// The value of a one-line refinement `<name>: <value>` more specific than every layer
    /// that gives a `default` or `value` (see [`definitions_of`]).
    pub(in crate::resolve) one_line: Option<&'m Yaml>,
    /// The typed definition, when the definition is one (then `layers` is empty).
    pub(in crate::resolve) typed: Option<&'m Typed>,
}

/// A value as written, from whichever tree holds it: a definition's value here, and in the
/// call index (`calls/eval/call_index.rs`, which gives it the call helpers `site`, `arguments`
/// and `is_call`) a call and its arguments, in YAML or in a typed entity (a group's or
/// policy's keynames, an output's definition). One type for both, so a call's argument goes
/// to the typed reader as it was found.
#[derive(Debug, Clone, Copy)]
pub enum Written<'m> {
    Yaml(&'m Yaml),
    Typed(&'m Value),
}

/// An `entry_schema` or `key_schema`, from whichever tree holds it.
#[derive(Debug, Clone, Copy)]
pub enum SchemaRef<'m> {
    Yaml(&'m Yaml),
    Typed(&'m Schema),
}

/// `$body` with `$tree` bound to the tree a [`Written`] holds, of either type.
macro_rules! on_tree {
    ($written:expr, |$tree:ident| $body:expr) => {
        match $written {
            $crate::resolve::typing::Written::Yaml($tree) => $body,
            $crate::resolve::typing::Written::Typed($tree) => $body,
        }
    };
}
pub(crate) use on_tree;

impl<'m> Definition<'m> {
    /// A definition written in one place (an input, an entry_schema).
    pub fn single(map: &'m Map) -> Self {
        Definition {
            layers: vec![map],
            ..Definition::default()
        }
    }

    /// A typed definition written in one place (an output).
    pub fn typed(def: &'m Typed) -> Self {
        Definition {
            typed: Some(def),
            ..Definition::default()
        }
    }

    /// The most specific value of `key` among the YAML layers (none for a typed definition).
    pub fn get(&self, key: &str) -> Option<&'m Yaml> {
        self.layers.iter().find_map(|m| m.get(key))
    }

    /// The most specific value of `key`, or the typed definition's `field`.
    fn either(
        &self,
        key: &str,
        field: impl Fn(&'m Typed) -> Option<&'m Value>,
    ) -> Option<Written<'m>> {
        match self.typed {
            Some(typed) => field(typed).map(Written::Typed),
            None => self.get(key).map(Written::Yaml),
        }
    }

    /// `type`, as written.
    pub fn type_written(&self) -> Option<Written<'m>> {
        self.either("type", |d| d.type_name.as_ref())
    }

    pub fn type_name(&self) -> Option<&'m str> {
        match self.type_written()? {
            Written::Yaml(n) => n.scalar_text(),
            Written::Typed(v) => v.scalar_text(),
        }
    }

    /// `default`, as written.
    pub fn default_written(&self) -> Option<Written<'m>> {
        self.either("default", |d| d.default.as_ref())
    }

    /// `value`, as written (not the one-line refinement).
    pub fn value_written(&self) -> Option<Written<'m>> {
        self.either("value", |d| d.value.as_ref())
    }

    /// The one-line refinement's value, as a [`Written`].
    pub fn one_line(&self) -> Option<Written<'m>> {
        self.one_line.map(Written::Yaml)
    }

    /// `required` defaults to true (Simple Profile and TOSCA 2.0 alike); a YAML 1.1 `no` is
    /// false, as the Simple Profile's own files mean it (see [`super::required_keyname`]).
    pub fn required(&self) -> bool {
        match self.either("required", |d| d.required.as_ref()) {
            None => true,
            Some(written) => on_tree!(written, |n| !is_false(n)),
        }
    }

    /// The `validation` clause of every layer: a refinement's is ANDed with what it inherits
    /// (§9.4 Property Definition).
    pub(super) fn validations(&self) -> Vec<Written<'m>> {
        if let Some(typed) = self.typed {
            return typed.validation.iter().map(Written::Typed).collect();
        }
        self.layers
            .iter()
            .filter_map(|m| m.get("validation"))
            .map(Written::Yaml)
            .collect()
    }

    /// Every constraint clause of every layer: a refinement adds to what it inherits.
    pub(super) fn constraints(&self) -> Vec<Written<'m>> {
        if let Some(typed) = self.typed {
            let clauses = typed.constraints.iter();
            return clauses
                .flat_map(|c| c.as_list().unwrap_or(std::slice::from_ref(c)))
                .map(Written::Typed)
                .collect();
        }
        self.layers
            .iter()
            .filter_map(|m| m.get("constraints"))
            .flat_map(|c| c.as_seq().unwrap_or(std::slice::from_ref(c)))
            .map(Written::Yaml)
            .collect()
    }

    /// `entry_schema`, as written.
    pub fn entry_schema(&self) -> Option<SchemaRef<'m>> {
        match self.typed {
            Some(typed) => typed.entry_schema.as_deref().map(SchemaRef::Typed),
            None => self.get("entry_schema").map(SchemaRef::Yaml),
        }
    }

    /// `key_schema`, as written.
    pub fn key_schema(&self) -> Option<SchemaRef<'m>> {
        match self.typed {
            Some(typed) => typed.key_schema.as_deref().map(SchemaRef::Typed),
            None => self.get("key_schema").map(SchemaRef::Yaml),
        }
    }
}

/// Whether a `required` value says false: the boolean, or a plain YAML 1.1 word for it.
fn is_false<N: Tree>(node: &N) -> bool {
    matches!(node.shape(), Shape::Scalar(_, Data::Bool(false)))
        || yaml11_bool(node).is_some_and(|(_, b)| !b)
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
