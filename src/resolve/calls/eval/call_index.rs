//! The YAML of every call in the files read, found again by the span its IR call carries.

use std::collections::HashMap;

use crate::model::Model;
use crate::resolve::calls::syntax;
use crate::source::Span;
use crate::yaml::Node as Yaml;

/// The YAML of every call in the files read, by the span the IR call carries.
pub struct CallIndex<'m> {
    by_span: HashMap<Span, &'m Yaml>,
}

impl<'m> CallIndex<'m> {
    pub fn new(model: &'m Model) -> Self {
        let mut index = CallIndex {
            by_span: HashMap::new(),
        };
        for def in model.types.values() {
            index.add(&def.def);
        }
        for named in model.functions.values() {
            index.add(&named.def);
        }
        if let Some(t) = &model.topology {
            let sections = [
                &t.inputs,
                &t.node_templates,
                &t.relationship_templates,
                &t.groups,
                &t.policies,
                &t.outputs,
                &t.workflows,
            ];
            for named in sections.into_iter().flatten() {
                index.add(&named.def);
            }
        }
        index
    }

    fn add(&mut self, node: &'m Yaml) {
        if syntax::call(node).is_some() {
            self.by_span.insert(node.span, node);
        }
        match &node.kind {
            crate::yaml::Kind::Map(m) => {
                for e in m.entries() {
                    self.add(&e.key);
                    self.add(&e.value);
                }
            }
            crate::yaml::Kind::Seq(items) => {
                for item in items {
                    self.add(item);
                }
            }
            crate::yaml::Kind::Scalar(_) => {}
        }
    }

    pub(super) fn get(&self, span: Span) -> Option<&'m Yaml> {
        self.by_span.get(&span).copied()
    }
}
