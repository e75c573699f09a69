//! What the index finds in the model's typed definitions (outputs, so far): the types they
//! name and their calls, each keyname a step of a call's place as a YAML map's key is.

use super::{Borrowed, Walk};
use crate::model::TypeKind;
use crate::model::definitions::{Definition, Schema};

impl Walk<'_> {
    /// [`Self::parameter`] for a typed definition: the types it names and its calls, each
    /// keyname a step of the calls' places as the map's keys were.
    pub(super) fn typed_parameter(&mut self, def: &Definition) {
        if let Some(t) = &def.type_name
            && let Some(name) = t.as_str()
        {
            self.type_ref_at(TypeKind::Data, name, t.span);
        }
        for schema in [&def.entry_schema, &def.key_schema].into_iter().flatten() {
            match &**schema {
                Schema::Type(t) => {
                    if let Some(name) = t.as_str() {
                        self.type_ref_at(TypeKind::Data, name, t.span);
                    }
                }
                Schema::Definition(d) => self.typed_parameter(d),
                Schema::Malformed(_) => {}
            }
        }
        self.definition_calls(def, &mut Some(Vec::new()));
    }

    /// The calls under each value `def` writes, as [`Self::calls_under`] finds them.
    fn definition_calls<'n>(&mut self, def: &'n Definition, place: &mut Option<Vec<Borrowed<'n>>>) {
        for (key, value) in def.values() {
            if let Some(steps) = place {
                steps.push(Borrowed::Key(key));
            }
            self.calls_under(value, place);
            if let Some(steps) = place {
                steps.pop();
            }
        }
        for entry in &def.unknown {
            if let Some(steps) = place {
                steps.push(Borrowed::Key(entry.key.as_str().unwrap_or_default()));
            }
            self.calls_under(&entry.value, place);
            if let Some(steps) = place {
                steps.pop();
            }
        }
        for (key, schema) in [
            ("entry_schema", &def.entry_schema),
            ("key_schema", &def.key_schema),
        ] {
            let Some(schema) = schema else { continue };
            if let Some(steps) = place {
                steps.push(Borrowed::Key(key));
            }
            match &**schema {
                Schema::Type(v) | Schema::Malformed(v) => self.calls_under(v, place),
                Schema::Definition(d) => self.definition_calls(d, place),
            }
            if let Some(steps) = place {
                steps.pop();
            }
        }
    }
}
