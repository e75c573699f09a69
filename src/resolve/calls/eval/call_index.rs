//! Every call as written in the files read (in YAML the model still keeps, or in a typed
//! entity's value: a group's or policy's keynames, an output's definition), found again by the
//! span its IR call carries; and what the evaluator reads of a call so found.

use std::collections::HashMap;

use crate::model::Model;
use crate::model::definitions::{Definition, Schema};
use crate::model::tree::{Pair, Tree};
use crate::resolve::calls::syntax;
use crate::resolve::typing::{Written, on_tree};
use crate::source::Span;

/// What the evaluator reads of a call as written, in either tree. The type is the typed
/// reader's ([`Written`], `resolve::typing`), so a value written in a definition and a call's
/// argument are one thing wherever the resolver hands them on; these are its call helpers.
impl<'m> Written<'m> {
    /// Where the function's name is written, and where each argument is, when the tree is a
    /// call (it always is: only calls are indexed).
    pub fn site(self) -> Option<(Span, Vec<Span>)> {
        on_tree!(self, |node| {
            let written = syntax::call(node)?;
            let args = syntax::arguments(&written)
                .iter()
                .map(|n| n.span())
                .collect();
            Some((written.name_node.span(), args))
        })
    }

    /// Each argument as written, in the tree the call is written in.
    pub fn arguments(self) -> Vec<Written<'m>> {
        fn of<'m, T: Tree>(node: &'m T, wrap: fn(&'m T) -> Written<'m>) -> Vec<Written<'m>> {
            syntax::call(node)
                .map(|w| syntax::arguments(&w).into_iter().map(wrap).collect())
                .unwrap_or_default()
        }
        match self {
            Written::Yaml(node) => of(node, Written::Yaml),
            Written::Typed(value) => of(value, Written::Typed),
        }
    }

    /// Whether the tree is a call.
    pub fn is_call(self) -> bool {
        on_tree!(self, |node| syntax::call(node).is_some())
    }
}

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
            index.add(&def.def, Written::Yaml);
        }
        for named in model.functions.values() {
            index.add(&named.def, Written::Yaml);
        }
        if let Some(t) = &model.topology {
            let sections = [
                &t.inputs,
                &t.node_templates,
                &t.relationship_templates,
                &t.workflows,
            ];
            for named in sections.into_iter().flatten() {
                index.add(&named.def, Written::Yaml);
            }
            for grouping in t.groups.iter().chain(&t.policies) {
                for (_, value) in grouping.values() {
                    index.add(value, Written::Typed);
                }
                if let Some(triggers) = &grouping.triggers {
                    index.add(triggers, Written::Yaml);
                }
            }
            for output in t.outputs.iter().filter_map(|o| o.definition()) {
                index.add_definition(output);
            }
        }
        index
    }

    /// The calls in the values a typed definition writes (a description holds none).
    fn add_definition(&mut self, def: &'m Definition) {
        for (_, value) in def.values() {
            self.add(value, Written::Typed);
        }
        for entry in &def.unknown {
            self.add(&entry.key, Written::Typed);
            self.add(&entry.value, Written::Typed);
        }
        for schema in [&def.entry_schema, &def.key_schema].into_iter().flatten() {
            match &**schema {
                Schema::Type(v) | Schema::Malformed(v) => self.add(v, Written::Typed),
                Schema::Definition(d) => self.add_definition(d),
            }
        }
    }

    /// Every call under `node`, keys included; `written` says which tree it is.
    fn add<T: Tree>(&mut self, node: &'m T, written: fn(&'m T) -> Written<'m>) {
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

    pub(super) fn get(&self, span: Span) -> Option<Written<'m>> {
        self.by_span.get(&span).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::limits::Limits;
    use crate::source::{InputArg, Loader, SourceOptions};

    /// A call in a group's property, in a policy's trigger and in an output's definition (one
    /// nested in another's arguments): each is found, in the tree it is written in.
    const TEMPLATE: &str = r#"tosca_definitions_version: tosca_2_0
group_types:
  G:
    properties:
      p: { type: string }
policy_types:
  P: {}
node_types:
  N: {}
service_template:
  inputs:
    i: { type: string }
  node_templates:
    n: { type: N }
  groups:
    g:
      type: G
      members: [ n ]
      properties:
        p: { $get_input: i }
  policies:
    - pol:
        type: P
        triggers:
          t:
            event: e
            action:
              - set_state: { $concat: [ a, b ] }
  outputs:
    o:
      type: string
      value: { $concat: [ x, { $get_input: i } ] }
"#;

    #[test]
    fn calls_are_found_in_groups_triggers_and_typed_outputs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, TEMPLATE).unwrap();
        let mut diags = Diagnostics::with_cap(0);
        let limits = Limits::default();
        let mut loader = Loader::new(SourceOptions {
            limits: limits.clone(),
            ..SourceOptions::default()
        });
        let input = loader
            .open_input(&InputArg::Path(path), &mut diags)
            .unwrap();
        let model = crate::front::read(&mut loader, input.entry, &limits, &mut diags).unwrap();
        let (sources, _) = loader.into_parts(model.entry, None);
        let index = CallIndex::new(&model);
        let mut found: Vec<(usize, &str, bool, usize)> = index
            .by_span
            .iter()
            .filter_map(|(&span, &written)| {
                let (name, args) = written.site().expect("only calls are indexed");
                // A key `$name` is indexed too (a call without arguments, as in the YAML);
                // only the calls written `{ $name: args }` are asked about here.
                if name == span {
                    return None;
                }
                assert!(written.is_call());
                let arguments = written.arguments();
                assert_eq!(arguments.len(), args.len());
                let typed = matches!(written, Written::Typed(_));
                assert!(
                    arguments
                        .iter()
                        .all(|a| matches!(a, Written::Typed(_)) == typed),
                    "an argument is in its call's tree"
                );
                let text = &sources.get(name.file).text;
                let start = name.start as usize;
                Some((start, &text[start..name.end as usize], typed, args.len()))
            })
            .collect();
        found.sort();
        let shown: Vec<_> = found.iter().map(|&(_, n, t, a)| (n, t, a)).collect();
        assert_eq!(
            shown,
            [
                ("$get_input", true, 1),
                ("$concat", false, 2),
                ("$concat", true, 2),
                ("$get_input", true, 1),
            ]
        );
    }
}
