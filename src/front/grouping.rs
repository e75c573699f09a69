//! A group or policy template read into the model's typed [`Grouping`] (see
//! `crate::model::grouping` for what is typed and why).
//!
//! Nothing is reported here: the grammar has checked the keynames (`front::yaml`'s sections),
//! and the resolver reports the shapes of the values where it reads them, so that their
//! diagnostics stay where they have always been.

use crate::model::Named;
use crate::model::grouping::{Grouping, KEYNAMES};
use crate::yaml::Kind;

use super::value::{into_value, keyname};

/// `named`, a group or policy template, typed; its YAML is consumed, not kept.
pub fn read(named: Named) -> Grouping {
    let mut out = Grouping::new(named.name, named.span, named.def.span);
    let Kind::Map(map) = named.def.kind else {
        out.not_a_map = true;
        return out;
    };
    for entry in map.into_entries() {
        // A map's keys are unique (the loader reports a duplicate and keeps the first).
        let Some(key) = keyname(&entry.key, KEYNAMES) else {
            continue;
        };
        if key == "triggers" {
            out.triggers = Some(entry.value);
            continue;
        }
        let value = Some(into_value(entry.value));
        match key {
            "type" => out.type_name = value,
            "description" => out.description = value,
            "metadata" => out.metadata = value,
            "properties" => out.properties = value,
            "attributes" => out.attributes = value,
            "members" => out.members = value,
            "targets" => out.targets = value,
            _ => out.interfaces = value,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::limits::Limits;
    use crate::model::Value;
    use crate::source::{Origin, SourceMap};

    fn read_text(text: &str) -> Grouping {
        let mut sources = SourceMap::new();
        let file = sources.add("t.yaml", Origin::Stdin, text);
        let mut diags = Diagnostics::new();
        let node =
            crate::yaml::load(&sources, file, &Limits::default(), &mut diags).expect("loads");
        let mut named = crate::model::shape::named(&node, "`groups`", &mut diags);
        read(named.remove(0))
    }

    #[test]
    fn each_keyname_is_a_field_and_an_unknown_key_is_dropped() {
        let g = read_text(
            "g:\n  type: T\n  bogus: 1\n  members: [a, b]\n  properties: { p: 1 }\n  triggers: { t: { event: e } }\n",
        );
        assert_eq!(g.name, "g");
        assert_eq!(g.type_name.as_ref().and_then(Value::as_str), Some("T"));
        assert_eq!(
            g.members.as_ref().and_then(Value::as_list).map(<[_]>::len),
            Some(2)
        );
        assert!(g.triggers.as_ref().and_then(|t| t.as_map()).is_some());
        let keys: Vec<&str> = g.values().map(|(k, _)| k).collect();
        assert_eq!(keys, ["type", "properties", "members"]);
        assert!(!g.not_a_map);
    }

    #[test]
    fn a_definition_that_is_no_map_is_kept_whole_and_nothing_else_is_read() {
        let g = read_text("g: [ type, T ]\n");
        assert!(g.not_a_map && g.type_name.is_none());
        assert_eq!(g.values().count(), 0);
    }
}
