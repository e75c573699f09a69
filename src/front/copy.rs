//! `copy`: a node or relationship template that starts as a copy of another one and states only
//! what differs (Simple Profile §A.7.3 Node Template, §A.7.4 Relationship Template; TOSCA 2.0 §7.2
//! Node Template, §7.4 Relationship Template).
//!
//! The spec says "copy all keynames and values" and, in its own example (Simple Profile §G.1.4.4
//! Notation Style #3: Using the “copy” keyname to define a similar Relationship Template), that the
//! copy then changes "just the value of the location property", so the copy is a deep merge: maps
//! merge key by key, the copying template's value winning, and anything else (a scalar, a list such
//! as `requirements`) is replaced whole. The source must exist and must not use `copy` itself
//! (Simple Profile §A.7.3.3 Additional requirements, TOSCA 2.0 §7.2 Node Template): a chain of
//! copies is an error, not something to follow.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::{Dialect, Named};
use crate::yaml::{Kind, Map, Node, overlay_maps};

/// A kind of template that may use `copy`, and the section of the dialect's spec that says a
/// copy's source must not be a copy itself.
pub struct TemplateKind {
    /// The kind in messages ("node template").
    pub what: &'static str,
    /// The section that states the rule, as cited in hints.
    pub rule: &'static str,
}

/// The node and relationship [`TemplateKind`]s of one dialect.
pub struct Rules {
    pub node: TemplateKind,
    pub relationship: TemplateKind,
}

impl Rules {
    /// The sections of `dialect`'s spec: the Simple Profile states the rule in each template's
    /// "Additional requirements"; TOSCA 2.0 in the definition of the `copy` keyname.
    pub fn of(dialect: Dialect) -> Self {
        let tosca2 = dialect == Dialect::Tosca2;
        Rules {
            node: TemplateKind {
                what: "node template",
                rule: if tosca2 {
                    "§7.2 Node Template"
                } else {
                    "A.7.3.3 Additional requirements of Node Template"
                },
            },
            relationship: TemplateKind {
                what: "relationship template",
                rule: if tosca2 {
                    "§7.4 Relationship Template"
                } else {
                    "A.7.4.2 Additional requirements of Relationship Template"
                },
            },
        }
    }
}

/// Replaces every template of `templates` that has `copy` by the merge of its source and its
/// own keynames. `kind` names the kind in messages and the rule in hints.
///
/// A copy of a copy is reported and still merged down the chain, so the template is read as
/// its author meant and the one mistake is not followed by others (a missing `type`, say).
pub fn expand(templates: &mut [Named], kind: &TemplateKind, diags: &mut Diagnostics) {
    let what = kind.what;
    let by_name: HashMap<&str, usize> = templates
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();
    // The source each copying template names, once checked.
    let mut source_of: Vec<Option<usize>> = vec![None; templates.len()];
    for (i, template) in templates.iter().enumerate() {
        let Some(copy) = template.def.as_map().and_then(|m| m.get("copy")) else {
            continue;
        };
        let Some(source_name) = copy.as_str() else {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "`copy` of {what} `{}` must name another {what}",
                        template.name
                    ),
                )
                .at_with(copy.span, format!("expected the name of a {what}")),
            );
            continue;
        };
        let Some(&source) = by_name.get(source_name) else {
            let names: Vec<&str> = by_name.keys().copied().collect();
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!(
                        "{what} `{}` copies `{source_name}`, but there is no {what} `{source_name}`",
                        template.name
                    ),
                )
                .at_with(copy.span, format!("no {what} of this name"))
                .did_you_mean(source_name, &names, None),
            );
            continue;
        };
        if let Some(chained) = templates[source].def.as_map().and_then(|m| m.get("copy")) {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "{what} `{}` copies `{source_name}`, which is itself a copy",
                        template.name
                    ),
                )
                .at_with(copy.span, "the source of a copy")
                .label(chained.span, "uses `copy` itself")
                .hint(format!(
                    "the source of `copy` must be a complete {what} ({}); copy from the template that `{source_name}` copies, or write `{source_name}` out in full",
                    kind.rule
                )),
            );
        }
        source_of[i] = Some(source);
    }
    // Merge each chain from its far end, remembering results, so every template is merged once
    // however long the chains; a loop of copies stops where it closes.
    let mut done: Vec<Option<Map>> = vec![None; templates.len()];
    for start in 0..templates.len() {
        if source_of[start].is_none() || done[start].is_some() {
            continue;
        }
        let mut chain = vec![start];
        let mut on_chain = std::collections::HashSet::from([start]);
        while let Some(next) = source_of[*chain.last().expect("not empty")] {
            if !on_chain.insert(next) {
                break; // a loop of copies closes here
            }
            chain.push(next);
            if done[next].is_some() || source_of[next].is_none() {
                break;
            }
        }
        // The last element is the base: a complete template, a merged one, or where a loop closed.
        let base = chain.pop().expect("a chain has a base");
        let mut merged = match done[base].take() {
            Some(map) => {
                let copy = map.clone();
                done[base] = Some(map);
                copy
            }
            None => own_keynames(&templates[base].def),
        };
        for &i in chain.iter().rev() {
            merged = overlay_maps(&merged, &own_keynames(&templates[i].def));
            done[i] = Some(merged.clone());
        }
    }
    for (template, map) in templates.iter_mut().zip(done) {
        if let Some(map) = map {
            template.def.kind = Kind::Map(map);
        }
    }
}

/// A template's keynames without its `copy`.
fn own_keynames(def: &Node) -> Map {
    let mut out = Map::new();
    for entry in def.as_map().into_iter().flat_map(Map::entries) {
        if entry.key.as_str() != Some("copy") {
            // Keys of one map are unique, so inserting them again cannot clash.
            let _ = out.insert(entry.key.clone(), entry.value.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::source::{Origin, SourceMap};

    fn templates(text: &str) -> (Vec<Named>, Diagnostics) {
        let mut sources = SourceMap::default();
        let mut diags = Diagnostics::default();
        let id = sources.add("t.yaml", Origin::Stdin, text.to_string());
        let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags).unwrap();
        let mut named: Vec<Named> = root
            .as_map()
            .unwrap()
            .entries()
            .iter()
            .map(|e| Named {
                name: e.key.as_str().unwrap().to_string(),
                span: e.key.span,
                def: e.value.clone(),
            })
            .collect();
        expand(
            &mut named,
            &Rules::of(Dialect::SimpleProfile).node,
            &mut diags,
        );
        (named, diags)
    }

    fn text_at<'a>(node: &'a Node, path: &[&str]) -> Option<&'a str> {
        let mut node = node;
        for key in path {
            node = node.as_map()?.get(key)?;
        }
        node.scalar_text()
    }

    #[test]
    fn a_copy_merges_maps_deeply_and_replaces_lists() {
        let (t, diags) = templates(
            "a:\n  type: T\n  properties: {cpu: {arch: x86, cores: 4}, name: a}\n  requirements: [{host: h1}]\nb:\n  copy: a\n  properties: {cpu: {cores: 8}}\n  requirements: [{host: h2}]\n",
        );
        assert!(diags.is_empty(), "{:?}", diags.iter().collect::<Vec<_>>());
        let b = &t[1].def;
        assert_eq!(text_at(b, &["type"]), Some("T"));
        assert_eq!(text_at(b, &["properties", "cpu", "arch"]), Some("x86"));
        assert_eq!(text_at(b, &["properties", "cpu", "cores"]), Some("8"));
        assert_eq!(text_at(b, &["properties", "name"]), Some("a"));
        let reqs = b.as_map().unwrap().get("requirements").unwrap();
        assert_eq!(reqs.as_seq().unwrap().len(), 1);
        assert!(b.as_map().unwrap().get("copy").is_none());
    }

    #[test]
    fn a_chain_of_copies_is_reported_and_still_merged() {
        let (t, diags) = templates(
            "a:\n  type: T\n  properties: {x: 1}\nb:\n  copy: a\n  properties: {y: 2}\nc:\n  copy: b\n  properties: {z: 3}\nl1:\n  copy: l2\nl2:\n  copy: l1\n",
        );
        assert_eq!(diags.error_count(), 3, "c, l1 and l2 copy copies");
        let c = &t[2].def;
        assert_eq!(text_at(c, &["type"]), Some("T"));
        assert_eq!(text_at(c, &["properties", "x"]), Some("1"));
        assert_eq!(text_at(c, &["properties", "y"]), Some("2"));
        assert_eq!(text_at(c, &["properties", "z"]), Some("3"));
    }

    #[test]
    fn a_copy_of_a_copy_and_a_copy_of_nothing_are_errors() {
        let (_, diags) =
            templates("a:\n  type: T\nb:\n  copy: a\nc:\n  copy: b\nd:\n  copy: nowhere\n");
        let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "node template `c` copies `b`, which is itself a copy",
                "node template `d` copies `nowhere`, but there is no node template `nowhere`",
            ]
        );
    }
}
