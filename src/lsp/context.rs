//! Where the cursor is in a YAML document, read from the text itself, line by line: the keys
//! that lead to it (by indentation), and whether it is where a key or a value is written.
//!
//! Completion is asked for in documents being typed, which are often not valid YAML at that
//! moment (`prop` without its colon yet), so this never parses: it reads indentation, as the
//! person typing does. Flow collections (`{ a: b }`) are read only on the cursor's own line.

use lsp_types::Position;

use super::lines::Lines;

/// The cursor's place in a block-style YAML document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Context {
    /// The keys from the top of the document to the map the cursor's line belongs to
    /// (`["topology_template", "node_templates", "web", "properties"]`).
    pub path: Vec<String>,
    /// When the cursor is after `key:` on its line, that key.
    pub key: Option<String>,
    /// What is typed on the line before the cursor (after the indentation and any `- `).
    pub before: String,
    /// The word being typed (what a completion replaces), possibly empty.
    pub word: String,
    /// Whether the line is a list item (`- ...`).
    pub in_list: bool,
}

/// The column where a line's content starts (after its indentation and any `- `), whether it
/// is a list item, and the content.
fn split(line: &str) -> (usize, bool, &str) {
    let mut rest = line.trim_start_matches(' ');
    let mut column = line.len() - rest.len();
    let mut in_list = false;
    while let Some(after) = rest
        .strip_prefix("- ")
        .or_else(|| (rest == "-").then_some(""))
    {
        let trimmed = after.trim_start_matches(' ');
        column += rest.len() - trimmed.len();
        rest = trimmed;
        in_list = true;
    }
    (column, in_list, rest)
}

/// The key a line starts with (`name:` or `name: value`), if it does.
fn key_of(content: &str) -> Option<&str> {
    let colon = content.find(':')?;
    let after = &content[colon + 1..];
    if !(after.is_empty() || after.starts_with(' ') || after.starts_with('\t')) {
        return None;
    }
    let key = content[..colon].trim().trim_matches(['"', '\'']);
    (!key.is_empty() && !key.starts_with('#') && !key.contains(['{', '[', ','])).then_some(key)
}

/// The context of `position` in `text`.
pub fn at(text: &str, position: Position) -> Context {
    let lines = Lines::new(text);
    let line = lines.line(position.line);
    let cursor = lines.offset(position) - lines.line_start(position.line);
    let before_cursor = &line[..cursor.min(line.len())];
    let (column, in_list, content) = split(before_cursor);
    let word_start = content
        .rfind(|c: char| !(c.is_alphanumeric() || "_-.$:".contains(c)))
        .map_or(0, |i| i + 1);
    let mut word = content[word_start..].to_string();
    let key = key_of(content).map(str::to_string);
    if key.is_some() && word.contains(':') {
        // `type:` with the cursor right after the colon: nothing of the value is typed yet.
        word = word.rsplit(':').next().unwrap_or("").to_string();
    }
    let mut path = Vec::new();
    let mut threshold = column;
    let mut number = position.line;
    while threshold > 0 && number > 0 {
        number -= 1;
        let text = lines.line(number);
        let (col, _, content) = split(text);
        if content.is_empty() || content.starts_with('#') || col >= threshold {
            continue;
        }
        if let Some(key) = key_of(content) {
            path.insert(0, key.to_string());
        }
        threshold = col;
    }
    Context {
        path,
        key,
        before: content.to_string(),
        word,
        in_list,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "topology_template:\n  node_templates:\n    web:\n      type: WebServer\n      requirements:\n        - host: server\n        - db\n      properties:\n        po\n";

    #[test]
    fn keys_lead_to_the_line_by_indentation() {
        let c = at(TEMPLATE, Position::new(8, 10));
        assert_eq!(
            c.path,
            ["topology_template", "node_templates", "web", "properties"]
        );
        assert_eq!((c.key, c.word.as_str()), (None, "po"));
    }

    #[test]
    fn a_value_after_a_key_and_list_items_are_told_apart() {
        let c = at(TEMPLATE, Position::new(3, 16));
        assert_eq!(c.path, ["topology_template", "node_templates", "web"]);
        assert_eq!((c.key.as_deref(), c.word.as_str()), (Some("type"), "WebS"));
        let c = at(TEMPLATE, Position::new(5, 20));
        assert_eq!(
            c.path,
            ["topology_template", "node_templates", "web", "requirements"]
        );
        assert!(c.in_list);
        assert_eq!((c.key.as_deref(), c.word.as_str()), (Some("host"), "serv"));
    }
}
