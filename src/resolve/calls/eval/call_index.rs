//! Every call as written in the files read (YAML, or a typed definition's value), found again by
//! the span its IR call carries.

use std::collections::HashMap;

use crate::model::Model;
use crate::model::definitions::{Definition, Schema};
use crate::model::tree::{Pair, Shape, Tree};
use crate::model::value::Value as Data;
use crate::resolve::calls::syntax;
use crate::resolve::typing::Written;
use crate::source::Span;
use crate::yaml::Node as Yaml;

/// Every call as written in the files read, by the span the IR call carries.
pub struct CallIndex<'m> {
    by_span: HashMap<Span, Written<'m>>,
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
                &t.workflows,
            ];
            for named in sections.into_iter().flatten() {
                index.add(&named.def);
            }
            for output in t.outputs.iter().filter_map(|o| o.definition()) {
                index.add_definition(output);
            }
        }
        index
    }

    /// The calls in the values a typed definition writes (a description holds none).
    fn add_definition(&mut self, def: &'m Definition) {
        let values = [
            &def.type_name,
            &def.required,
            &def.default,
            &def.value,
            &def.status,
            &def.constraints,
            &def.validation,
            &def.metadata,
            &def.external_schema,
            &def.mapping,
        ];
        for value in values.into_iter().flatten() {
            self.add_value(value);
        }
        for entry in &def.unknown {
            self.add_value(&entry.key);
            self.add_value(&entry.value);
        }
        for schema in [&def.entry_schema, &def.key_schema].into_iter().flatten() {
            match &**schema {
                Schema::Type(v) | Schema::Malformed(v) => self.add_value(v),
                Schema::Definition(d) => self.add_definition(d),
            }
        }
    }

    fn add_value(&mut self, value: &'m Data) {
        if syntax::call(value).is_some() {
            self.by_span.insert(value.span, Written::Typed(value));
        }
        match value.shape() {
            Shape::Map(entries) => {
                for e in entries {
                    self.add_value(e.key());
                    self.add_value(e.value());
                }
            }
            Shape::List(items) => {
                for item in items {
                    self.add_value(item);
                }
            }
            Shape::Scalar(..) => {}
        }
    }

    fn add(&mut self, node: &'m Yaml) {
        if syntax::call(node).is_some() {
            self.by_span.insert(node.span, Written::Yaml(node));
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

    pub(super) fn get(&self, span: Span) -> Option<Written<'m>> {
        self.by_span.get(&span).copied()
    }
}
