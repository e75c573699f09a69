//! Property, attribute and parameter definitions read into the model's typed
//! [`Definition`]s (see `crate::model::definitions` for what is typed and why).
//!
//! Nothing is reported here: each dialect's grammar (`front::simple_grammar`, `front::tosca2`)
//! has checked the keynames and their shapes before a section is read, and the resolver reports
//! what it finds wrong in a value where it reads it. The YAML is consumed, not kept.

use crate::model::Named;
use crate::model::definitions::{Body, Definition, Entry, Schema};
use crate::model::value::Entry as ValueEntry;
use crate::yaml::{Kind, Node};

use super::value::{into_text, into_value};

/// The entries of a section, each checked by its grammar already, in source order.
pub fn section(entries: Vec<Named>) -> Vec<Entry> {
    entries.into_iter().map(entry).collect()
}

/// One entry: its definition when it writes a map, else its value as written.
pub fn entry(named: Named) -> Entry {
    Entry {
        name: named.name,
        span: named.span,
        body: body(named.def),
    }
}

fn body(node: Node) -> Body {
    if node.as_map().is_some() {
        Body::Definition(Box::new(definition(node)))
    } else {
        Body::OneLine(into_value(node))
    }
}

/// `node`, a map of keynames, as a definition. Of two entries with one key the first counts
/// (the loader reported the second); a key no kind of definition has is kept aside (the
/// grammar reported it).
fn definition(node: Node) -> Definition {
    let mut out = Definition {
        span: node.span,
        ..Definition::default()
    };
    let Kind::Map(map) = node.kind else {
        return out;
    };
    for entry in map.into_entries() {
        let Some(key) = entry.key.scalar_text() else {
            out.unknown.push(ValueEntry {
                key: into_value(entry.key),
                value: into_value(entry.value),
            });
            continue;
        };
        let value = entry.value;
        let slot = match key {
            "type" => &mut out.type_name,
            "description" => {
                if out.description.is_none() {
                    out.description = into_text(value);
                }
                continue;
            }
            "required" => &mut out.required,
            "default" => &mut out.default,
            "value" => &mut out.value,
            "status" => &mut out.status,
            "constraints" => &mut out.constraints,
            "validation" => &mut out.validation,
            "metadata" => &mut out.metadata,
            "external-schema" => &mut out.external_schema,
            "mapping" => &mut out.mapping,
            "entry_schema" | "key_schema" => {
                let schema = if key == "entry_schema" {
                    &mut out.entry_schema
                } else {
                    &mut out.key_schema
                };
                if schema.is_none() {
                    *schema = Some(Box::new(self::schema(value)));
                }
                continue;
            }
            _ => {
                out.unknown.push(ValueEntry {
                    key: into_value(entry.key),
                    value: into_value(value),
                });
                continue;
            }
        };
        if slot.is_none() {
            *slot = Some(into_value(value));
        }
    }
    out
}

/// An `entry_schema` or `key_schema`: a type's name, a schema definition, or what else was
/// written.
fn schema(node: Node) -> Schema {
    match node.kind {
        Kind::Scalar(_) => Schema::Type(into_value(node)),
        Kind::Map(_) => Schema::Definition(Box::new(definition(node))),
        Kind::Seq(_) => Schema::Malformed(into_value(node)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::limits::Limits;
    use crate::model::value::Value;
    use crate::source::{Origin, SourceMap};

    fn read_text(text: &str) -> Vec<Entry> {
        let mut sources = SourceMap::new();
        let file = sources.add("t.yaml", Origin::Stdin, text);
        let mut diags = Diagnostics::new();
        let node =
            crate::yaml::load(&sources, file, &Limits::default(), &mut diags).expect("loads");
        let Kind::Map(map) = node.kind else {
            panic!("a map")
        };
        section(
            map.into_entries()
                .into_iter()
                .map(|e| Named {
                    name: e.key.scalar_text().unwrap_or_default().to_string(),
                    span: e.key.span,
                    def: e.value,
                })
                .collect(),
        )
    }

    #[test]
    fn keynames_become_fields_and_schemas_nest() {
        let entries = read_text(
            "a:\n  type: list\n  description: the list\n  required: no\n  entry_schema:\n    type: map\n    key_schema: string\n    entry_schema: [x]\n  constraints: [ { min_length: 1 } ]\n  other: 1\nb: 5\n",
        );
        assert_eq!(entries.len(), 2);
        let a = entries[0].definition().expect("a map");
        assert_eq!(a.type_name(), Some("list"));
        assert_eq!(
            a.description.as_ref().map(|t| t.text.as_str()),
            Some("the list")
        );
        assert_eq!(a.required.as_ref().and_then(Value::scalar_text), Some("no"));
        assert!(a.constraints.as_ref().and_then(Value::as_list).is_some());
        let Some(Schema::Definition(entry)) = a.entry_schema.as_deref() else {
            panic!("a schema definition")
        };
        assert_eq!(entry.type_name(), Some("map"));
        assert!(
            matches!(entry.key_schema.as_deref(), Some(Schema::Type(t)) if t.as_str() == Some("string"))
        );
        assert!(matches!(
            entry.entry_schema.as_deref(),
            Some(Schema::Malformed(_))
        ));
        assert_eq!(a.unknown.len(), 1);
        assert_eq!(a.unknown[0].key.as_str(), Some("other"));
        assert!(entries[1].definition().is_none());
        assert!(matches!(&entries[1].body, Body::OneLine(v) if v.scalar_text() == Some("5")));
    }

    #[test]
    fn a_type_that_is_no_string_is_kept_as_written() {
        let entries = read_text("a:\n  type: 5\nb:\n  type: null\n");
        let a = entries[0].definition().expect("a map");
        assert_eq!((a.type_text(), a.type_name()), (Some("5"), None));
        let b = entries[1].definition().expect("a map");
        assert_eq!(b.type_name(), None);
    }
}
