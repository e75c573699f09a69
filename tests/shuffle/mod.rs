//! Reorders the maps of a TOSCA service template whose order the specification gives no meaning,
//! for the shuffle test of `golden.rs`: a translation must not depend on the order in which a
//! template declares its nodes (issue 26, scope 2).
//!
//! What is reordered: in `topology_template` (Simple Profile) or `service_template` (TOSCA 2.0),
//! the maps `node_templates`, `relationship_templates`, `inputs`, `outputs`, `groups` and
//! `policies` (the last two only where they are maps: a list keeps its order, since a list's
//! order is meaningful, as are `requirements`, `members` and 2.0's `policies`); and in each node
//! or relationship template its `properties`, `attributes`, `capabilities`, `interfaces` and
//! `artifacts` (Simple Profile 1.0 §A.7.3 Node Template, §A.7.4 Relationship Template; TOSCA
//! 2.0 §7.2 Node Template: all maps keyed by name).
//!
//! The reordering moves whole blocks of lines (an entry with its comments and nested content),
//! so the text stays the template it was and every line keeps its content: [`Shuffled::line_map`]
//! says where each line went, so outputs that cite `file:line` can be compared exactly. Maps
//! written in flow style (`{...}`) are left as they are.

/// A reordered file: its text, and for each line of the original (index `n - 1` for line `n`)
/// its line number in the new text.
pub struct Shuffled {
    pub text: String,
    pub line_map: Vec<usize>,
}

/// How entries of a map are permuted.
#[derive(Clone, Copy, Debug)]
pub enum Order {
    /// Last first.
    Reversed,
    /// The first entry moves to the end.
    Rotated,
}

impl Order {
    fn apply<T>(self, items: &mut [T]) {
        match self {
            Order::Reversed => items.reverse(),
            Order::Rotated if !items.is_empty() => items.rotate_left(1),
            Order::Rotated => {}
        }
    }
}

/// Where in the template a map is, which says whether its entries are permuted and which of
/// their keys hold maps to descend into.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    /// The document's keys: only the topology is descended into.
    Root,
    /// The keys of `topology_template` / `service_template`.
    Topology,
    /// `node_templates` and `relationship_templates`: permuted, each template descended into.
    Templates,
    /// The keys of one template.
    Template,
    /// A map whose order means nothing and whose entries are not descended into.
    Unordered,
}

impl Level {
    fn permuted(self) -> bool {
        matches!(self, Level::Templates | Level::Unordered)
    }

    /// The level of the map under the entry `key` of a map at this level.
    fn below(self, key: &str) -> Option<Level> {
        match (self, key) {
            (Level::Root, "topology_template" | "service_template") => Some(Level::Topology),
            (Level::Topology, "node_templates" | "relationship_templates") => {
                Some(Level::Templates)
            }
            (Level::Topology, "inputs" | "outputs" | "groups" | "policies") => {
                Some(Level::Unordered)
            }
            (Level::Templates, _) => Some(Level::Template),
            (
                Level::Template,
                "properties" | "attributes" | "capabilities" | "interfaces" | "artifacts",
            ) => Some(Level::Unordered),
            _ => None,
        }
    }
}

/// One line of the original file: its number there and its text (with its line break).
#[derive(Clone)]
struct Line {
    number: usize,
    text: String,
}

impl Line {
    /// A line that carries YAML content (not blank, not only a comment).
    fn significant(&self) -> bool {
        let t = self.text.trim_start();
        !t.is_empty() && !t.starts_with('#')
    }

    fn indent(&self) -> usize {
        self.text.len() - self.text.trim_start_matches(' ').len()
    }

    /// The key of a `key:` line that opens a block (nothing but a comment after the colon).
    fn block_key(&self) -> Option<&str> {
        let t = self.text.trim();
        let (key, rest) = if let Some(quoted) = t.strip_prefix('"').or(t.strip_prefix('\'')) {
            let close = quoted.find(['"', '\''])?;
            (&quoted[..close], quoted[close + 1..].strip_prefix(':')?)
        } else {
            let colon = t.find(':')?;
            (&t[..colon], &t[colon + 1..])
        };
        let rest = rest.trim();
        (rest.is_empty() || rest.starts_with('#')).then_some(key.trim())
    }
}

/// `text` with its unordered maps permuted by `order`.
pub fn shuffle(text: &str, order: Order) -> Shuffled {
    let lines: Vec<Line> = text
        .split_inclusive('\n')
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: if t.ends_with('\n') {
                t.to_string()
            } else {
                format!("{t}\n")
            },
        })
        .collect();
    let count = lines.len();
    let lines = map_body(lines, Level::Root, order);
    let mut line_map = vec![0; count];
    for (new, line) in lines.iter().enumerate() {
        line_map[line.number - 1] = new + 1;
    }
    Shuffled {
        text: lines.into_iter().map(|l| l.text).collect(),
        line_map,
    }
}

/// The body of a block map at `level` (the lines under its key, or the whole document), with
/// its entries permuted if the level says so and the maps below them treated likewise.
fn map_body(body: Vec<Line>, level: Level, order: Order) -> Vec<Line> {
    let Some(first) = body.iter().find(|l| l.significant()) else {
        return body;
    };
    let indent = first.indent();
    let t = first.text.trim_start();
    if t.starts_with("- ") || t == "-\n" || t.starts_with('{') || t.starts_with('[') {
        return body; // a list, or a flow collection: kept as written
    }
    // Lines before the first entry stay in front; each entry runs to the next one.
    let mut prefix = Vec::new();
    let mut entries: Vec<Vec<Line>> = Vec::new();
    for line in body {
        if line.significant() && line.indent() == indent {
            entries.push(vec![line]);
        } else if let Some(entry) = entries.last_mut() {
            entry.push(line);
        } else {
            prefix.push(line);
        }
    }
    let mut entries: Vec<Vec<Line>> = entries
        .into_iter()
        .map(|entry| descend(entry, level, order))
        .collect();
    if level.permuted() {
        order.apply(&mut entries);
    }
    prefix
        .into_iter()
        .chain(entries.into_iter().flatten())
        .collect()
}

/// An entry (its key line and what follows), with the map under its key treated at the level
/// below, when there is one.
fn descend(mut entry: Vec<Line>, level: Level, order: Order) -> Vec<Line> {
    let below = entry[0].block_key().and_then(|key| level.below(key));
    match below {
        Some(below) => {
            let body = entry.split_off(1);
            entry.extend(map_body(body, below, order));
            entry
        }
        None => entry,
    }
}

/// `text` with every `file:line` citing a reordered file pointed at the line's new place.
pub fn cite_moved_lines(text: &str, moved: &[(String, Vec<usize>)]) -> String {
    let mut text = text.to_string();
    for (file, line_map) in moved {
        let cited =
            regex::Regex::new(&format!(r"{}:(\d+)", regex::escape(file))).expect("a valid pattern");
        text = cited
            .replace_all(&text, |c: &regex::Captures| {
                let line: usize = c[1].parse().expect("digits");
                let new = line_map.get(line - 1).copied().unwrap_or(line);
                format!("{file}:{new}")
            })
            .into_owned();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    a: {type: string}
    b:
      type: integer
  node_templates:
    # the first
    web:
      type: WebServer
      properties:
        port: 80
        name: web
      requirements:
        - host: vm
        - link: db
    vm:
      type: Compute
  policies:
    - p1: {type: Scaling}
    - p2: {type: Placement}
";

    #[test]
    fn node_templates_inputs_and_properties_are_reversed_and_lists_kept() {
        let s = shuffle(TEMPLATE, Order::Reversed);
        let expected = "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    b:
      type: integer
    a: {type: string}
  node_templates:
    # the first
    vm:
      type: Compute
    web:
      type: WebServer
      properties:
        name: web
        port: 80
      requirements:
        - host: vm
        - link: db
  policies:
    - p1: {type: Scaling}
    - p2: {type: Placement}
";
        assert_eq!(s.text, expected);
        let old: Vec<&str> = TEMPLATE.lines().collect();
        let new: Vec<&str> = s.text.lines().collect();
        for (i, n) in s.line_map.iter().enumerate() {
            assert_eq!(old[i], new[n - 1], "line {}", i + 1);
        }
    }

    #[test]
    fn rotation_moves_the_first_entry_last() {
        let s = shuffle(TEMPLATE, Order::Rotated);
        let web = s.text.find("    web:").unwrap();
        let vm = s.text.find("    vm:").unwrap();
        assert!(vm < web, "{}", s.text);
    }
}
