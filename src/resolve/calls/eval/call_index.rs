//! The written form of every call in the files read, found again by the span its IR call
//! carries.

use std::collections::HashMap;

use crate::model::Model;
use crate::model::tree::{Pair, Tree};
use crate::model::value::Value as Typed;
use crate::resolve::calls::syntax;
use crate::source::Span;
use crate::yaml::Node as Yaml;

/// A call as written: in a definition the model still keeps as YAML, or in a typed entity's
/// [`Typed`] value (a group's or policy's properties).
#[derive(Clone, Copy)]
pub enum CallTree<'m> {
    Yaml(&'m Yaml),
    Typed(&'m Typed),
}

impl<'m> CallTree<'m> {
    /// Where the function's name is written, and where each argument is, when the tree is a
    /// call (it always is: only calls are indexed).
    pub fn site(self) -> Option<(Span, Vec<Span>)> {
        fn of<T: Tree>(node: &T) -> Option<(Span, Vec<Span>)> {
            let written = syntax::call(node)?;
            let args = syntax::arguments(&written)
                .iter()
                .map(|n| n.span())
                .collect();
            Some((written.name_node.span(), args))
        }
        match self {
            CallTree::Yaml(node) => of(node),
            CallTree::Typed(value) => of(value),
        }
    }

    /// Each argument as written.
    pub fn arguments(self) -> Vec<CallTree<'m>> {
        match self {
            CallTree::Yaml(node) => syntax::call(node)
                .map(|w| {
                    syntax::arguments(&w)
                        .into_iter()
                        .map(CallTree::Yaml)
                        .collect()
                })
                .unwrap_or_default(),
            CallTree::Typed(value) => syntax::call(value)
                .map(|w| {
                    syntax::arguments(&w)
                        .into_iter()
                        .map(CallTree::Typed)
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// Whether the tree is a call.
    pub fn is_call(self) -> bool {
        match self {
            CallTree::Yaml(node) => syntax::call(node).is_some(),
            CallTree::Typed(value) => syntax::call(value).is_some(),
        }
    }
}

/// The written form of every call in the files read, by the span the IR call carries.
pub struct CallIndex<'m> {
    by_span: HashMap<Span, CallTree<'m>>,
}

impl<'m> CallIndex<'m> {
    pub fn new(model: &'m Model) -> Self {
        let mut index = CallIndex {
            by_span: HashMap::new(),
        };
        for def in model.types.values() {
            index.add(&def.def, CallTree::Yaml);
        }
        for named in model.functions.values() {
            index.add(&named.def, CallTree::Yaml);
        }
        if let Some(t) = &model.topology {
            let sections = [
                &t.inputs,
                &t.node_templates,
                &t.relationship_templates,
                &t.outputs,
                &t.workflows,
            ];
            for named in sections.into_iter().flatten() {
                index.add(&named.def, CallTree::Yaml);
            }
            for grouping in t.groups.iter().chain(&t.policies) {
                for (_, value) in grouping.values() {
                    index.add(value, CallTree::Typed);
                }
                if let Some(triggers) = &grouping.triggers {
                    index.add(triggers, CallTree::Yaml);
                }
            }
        }
        index
    }

    /// Every call under `node`, keys included.
    fn add<T: Tree>(&mut self, node: &'m T, written: fn(&'m T) -> CallTree<'m>) {
        if syntax::call(node).is_some() {
            self.by_span.insert(node.span(), written(node));
        }
        if let Some(entries) = node.entries() {
            for e in entries {
                self.add(e.key(), written);
                self.add(e.value(), written);
            }
        } else if let Some(items) = node.items() {
            for item in items {
                self.add(item, written);
            }
        }
    }

    pub(super) fn get(&self, span: Span) -> Option<CallTree<'m>> {
        self.by_span.get(&span).copied()
    }
}
