//! What a template reads of the raw IR, worked out from its text when the backend loads, for the
//! not-translated ledger ([`super::Ledger`]).
//!
//! Tera cannot report which keys a render looked up: its values are plain data with no hook on
//! access. Asking each template author to declare what a template reads would drift the first
//! time a template changes. So the engine reads the template itself: every expression inside
//! `{{ }}` and `{% %}` (string literals and comments left out), in the template and in every
//! template it includes, imports or extends. A path `element.properties.NAME` (and the same under
//! `attributes`, `artifacts` and `triggers`) is a read of that one key, and so is
//! `element.capabilities.NAME.properties.KEY` (the capability property `NAME.KEY`); `element.index` and
//! `element.name` read nothing of the element's content, nor do `topology.source` and
//! `topology.inputs`. Any other use of `element` or `topology` (`element.properties` as a whole,
//! `element[...]`, `{% set e = element %}`, `topology.nodes`) could read anything, so the template
//! is taken to translate everything of the elements it renders: the ledger then warns about
//! none of them. That errs towards silence only for a template that really reads its element
//! wholesale, and never warns about a key a template does read.

use std::collections::{BTreeSet, HashMap};

use super::super::ignores::Part;

/// What a rule's template reads of the element it renders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reads {
    /// These keys by name, and nothing else of the element.
    Keys(BTreeSet<(Part, String)>),
    /// Possibly anything: the element's content is taken as translated.
    Everything,
}

/// What the template `name` reads, with the templates it includes; `texts` holds every template
/// of the backend by name.
pub(crate) fn template_reads(name: &str, texts: &HashMap<String, String>) -> Reads {
    let mut keys = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut queue = vec![name.to_string()];
    while let Some(name) = queue.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let Some(text) = texts.get(&name) else {
            continue;
        };
        for tag in tags(text) {
            let (code, strings) = split_strings(tag);
            // A template named in a tag (`include`, `import`, `extends`) is read too.
            queue.extend(strings.into_iter().filter(|s| texts.contains_key(s)));
            if !scan(&code, &mut keys) {
                return Reads::Everything;
            }
        }
    }
    Reads::Keys(keys)
}

/// What a template given as text reads (an output path such as `{{ element.name }}.yaml`),
/// without the templates it could include: a path template includes none.
pub(crate) fn text_reads(text: &str) -> Reads {
    let mut keys = BTreeSet::new();
    for tag in tags(text) {
        if !scan(&split_strings(tag).0, &mut keys) {
            return Reads::Everything;
        }
    }
    Reads::Keys(keys)
}

impl Reads {
    /// What two templates rendered for the same element read together.
    pub(crate) fn and(self, other: Reads) -> Reads {
        match (self, other) {
            (Reads::Keys(mut a), Reads::Keys(b)) => {
                a.extend(b);
                Reads::Keys(a)
            }
            _ => Reads::Everything,
        }
    }

    /// Whether the template reads nothing of an element's content (only `element.index`,
    /// `element.name`, `topology.source` and `topology.inputs`, if anything).
    pub(crate) fn nothing(&self) -> bool {
        matches!(self, Reads::Keys(keys) if keys.is_empty())
    }
}

/// The inside of every `{{ }}` and `{% %}` tag of a template; comments `{# #}` are left out.
fn tags(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let close = match after.chars().next() {
            Some('{') => "}}",
            Some('%') => "%}",
            Some('#') => "#}",
            _ => {
                rest = after;
                continue;
            }
        };
        let body = &after[1..];
        let end = body.find(close).unwrap_or(body.len());
        if close != "#}" {
            out.push(&body[..end]);
        }
        rest = &body[(end + close.len()).min(body.len())..];
    }
    out
}

/// A tag's code with its string literals blanked out, and the literals themselves.
fn split_strings(tag: &str) -> (String, Vec<String>) {
    let mut code = String::with_capacity(tag.len());
    let mut strings = Vec::new();
    let mut chars = tag.chars();
    while let Some(c) = chars.next() {
        if matches!(c, '"' | '\'' | '`') {
            let mut literal = String::new();
            for d in chars.by_ref() {
                if d == c {
                    break;
                }
                literal.push(d);
            }
            strings.push(literal);
            code.push_str("\"\"");
        } else {
            code.push(c);
        }
    }
    (code, strings)
}

/// Adds the keys `code` reads by name to `keys`; false when it uses `element` or `topology` in a
/// way that could read anything.
fn scan(code: &str, keys: &mut BTreeSet<(Part, String)>) -> bool {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if !ident(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && ident(bytes[i]) {
            i += 1;
        }
        // A word after a `.` is a field, not a variable.
        let is_field = code[..start].trim_end().ends_with('.');
        let word = &code[start..i];
        if is_field || !matches!(word, "element" | "topology") {
            continue;
        }
        let path: Vec<&str> = path_after(&code[i..]);
        let fine = match (word, path.as_slice()) {
            ("element", ["index" | "name", ..]) => true,
            ("topology", ["source" | "inputs", ..]) => true,
            ("element", ["capabilities", capability, "properties", key, ..]) => {
                keys.insert((Part::Capability, format!("{capability}.{key}")));
                true
            }
            ("element", [parts, key, ..]) => match part_named(parts) {
                Some(part) => {
                    keys.insert((part, (*key).to_string()));
                    true
                }
                None => false,
            },
            _ => false,
        };
        if !fine {
            return false;
        }
    }
    true
}

/// The `.field` names that follow a variable, up to the first other character.
fn path_after(rest: &str) -> Vec<&str> {
    let mut path = Vec::new();
    let mut rest = rest;
    while let Some(after) = rest.trim_start().strip_prefix('.') {
        let after = after.trim_start();
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if len == 0 {
            break;
        }
        path.push(&after[..len]);
        rest = &after[len..];
    }
    path
}

/// The part an element field lists (`properties` → [`Part::Property`]).
fn part_named(field: &str) -> Option<Part> {
    Part::ALL.into_iter().find(|p| {
        p.plural() == field
            && matches!(
                p,
                Part::Property | Part::Attribute | Part::Artifact | Part::Trigger
            )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(text: &str) -> Reads {
        let texts = HashMap::from([
            ("t".to_string(), text.to_string()),
            (
                "inc".to_string(),
                "{{ element.artifacts.image }}".to_string(),
            ),
        ]);
        template_reads("t", &texts)
    }

    fn keys(list: &[(Part, &str)]) -> Reads {
        Reads::Keys(list.iter().map(|(p, k)| (*p, k.to_string())).collect())
    }

    #[test]
    fn named_keys_are_read_one_by_one() {
        assert_eq!(
            reads("{{ element.index }} {{ element.properties.port | default(value=80) }}"),
            keys(&[(Part::Property, "port")])
        );
        assert_eq!(
            reads("{% if element.triggers.up %}{% include \"inc\" %}{% endif %}"),
            keys(&[(Part::Artifact, "image"), (Part::Trigger, "up")])
        );
        assert_eq!(
            reads("{{ element.capabilities.host.properties.num_cpus }}"),
            keys(&[(Part::Capability, "host.num_cpus")])
        );
    }

    #[test]
    fn text_strings_and_comments_read_nothing() {
        assert_eq!(
            reads("topology.nodes {# {{ element }} #}{{ \"element.x\" }} {{ k8s.element }}"),
            keys(&[])
        );
    }

    #[test]
    fn wholesale_uses_read_everything() {
        for text in [
            "{% for k, v in element.properties %}{% endfor %}",
            "{% set e = element %}",
            "{{ topology.nodes[0].properties.port }}",
            "{{ element['properties'] }}",
            "{{ element.capabilities.host }}",
            "{% for r in element.requirements %}{% endfor %}",
        ] {
            assert_eq!(reads(text), Reads::Everything, "{text}");
        }
    }
}
