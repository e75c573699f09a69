//! The `hcl-edit` parse every generated HCL file passes before it is written, made a piece of
//! the file at a time.
//!
//! `hcl-edit` keeps every token of what it parses, with its whitespace and span: the tree of a
//! file is about twenty times the size of its text, and the tree of `main.tf` at 10,000 node
//! templates (3.5 MB) was the largest thing alive in a `tosca2tf` run, 61 MB at its peak. The
//! file is therefore cut into pieces of [`PIECE`] bytes or more, each ending where a top-level
//! structure ends, and each piece is parsed and dropped before the next.
//!
//! The verdict is the whole file's: an HCL body is a sequence of structures, each ending with a
//! line break, so pieces that each parse as a body and are cut at line starts join into a body
//! that parses, except for an attribute defined twice at the top level (which `hcl-edit`
//! refuses): their keys are compared across pieces. When a piece does not parse (a cut that was
//! no structure's end, as inside a heredoc, or an error), or a top-level key repeats, the whole
//! file is parsed again, and its error, with the file's line and column, is the one reported.

use std::collections::{BTreeSet, HashSet};

use hcl_edit::structure::Body;

use super::fmt::parse_check;
use super::references::variables_in;

/// Pieces are at least this long (but end at a structure's end): large enough that starting a
/// parse costs nothing beside it, small enough that its tree is a megabyte or two.
const PIECE: usize = 64 * 1024;

/// Parses `text` as an HCL body, a piece at a time; `Ok` with the variables the body refers to
/// outside `variable` blocks ([`variables_in`]), or the parse error of the whole text.
pub fn check(text: &str) -> Result<BTreeSet<String>, String> {
    let mut used = BTreeSet::new();
    let mut top_level_keys: HashSet<String> = HashSet::new();
    for piece in pieces(text, PIECE) {
        let Ok(body) = piece.parse::<Body>() else {
            return whole(text);
        };
        for attribute in body.attributes() {
            if !top_level_keys.insert(attribute.key.as_str().to_string()) {
                return whole(text);
            }
        }
        used.extend(variables_in(&body));
    }
    Ok(used)
}

/// [`check`] on the whole text at once: the verdict, and the error as `hcl-edit` words it.
fn whole(text: &str) -> Result<BTreeSet<String>, String> {
    parse_check(text).map(|body| variables_in(&body))
}

/// `text` cut into pieces of at least `size` bytes, each cut at the start of a line that starts
/// with a letter, as a top-level block or attribute does in a formatted file (whose nested
/// lines are indented). The pieces join into `text`.
fn pieces(text: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = next_cut(rest, size).unwrap_or(rest.len());
        let (piece, after) = rest.split_at(cut);
        rest = after;
        Some(piece)
    })
}

/// The first offset at or past `size` in `text` where a line starts with an ASCII letter.
fn next_cut(text: &str, size: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = size.min(bytes.len());
    loop {
        let newline = at + memchr::memchr(b'\n', bytes.get(at..)?)?;
        let start = newline + 1;
        if bytes.get(start).is_some_and(u8::is_ascii_alphabetic) {
            return Some(start);
        }
        at = start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_end_where_top_level_structures_end_and_join_into_the_text() {
        let text = "a = 1\nblock {\n  x = 1\n}\nb = 2\n";
        let pieces: Vec<&str> = pieces(text, 1).collect();
        assert_eq!(pieces, ["a = 1\n", "block {\n  x = 1\n}\n", "b = 2\n"]);
        assert_eq!(super::pieces(text, 1000).collect::<Vec<_>>(), [text]);
    }

    #[test]
    fn the_verdict_and_the_variables_are_the_whole_files() {
        let text = "resource \"x\" \"y\" {\n  a = var.one\n}\nvariable \"one\" {\n  validation {\n    condition = var.one > 0\n  }\n}\noutput \"o\" {\n  value = var.two\n}\n";
        let piecewise = check(text).unwrap();
        assert_eq!(piecewise, whole(text).unwrap());
        assert_eq!(piecewise.into_iter().collect::<Vec<_>>(), ["one", "two"]);
    }

    #[test]
    fn an_error_is_the_whole_files_with_its_line() {
        let filler: String = (0..PIECE / 8).map(|i| format!("k{i} = 1\n")).collect();
        let text = format!("{filler}broken = \n");
        assert!(pieces(&text, PIECE).count() > 1);
        let e = check(&text).unwrap_err();
        assert_eq!(e, parse_check(&text).unwrap_err());
        assert!(e.contains(&format!("line {}", PIECE / 8 + 1)), "{e}");
    }

    #[test]
    fn a_top_level_attribute_defined_in_two_pieces_is_refused() {
        let filler: String = (0..PIECE / 8).map(|i| format!("k{i} = 1\n")).collect();
        let spread = format!("a = 1\n{filler}a = 2\n");
        assert!(pieces(&spread, PIECE).count() > 1);
        assert_eq!(
            check(&spread).unwrap_err(),
            parse_check(&spread).unwrap_err()
        );
    }

    #[test]
    fn a_heredoc_cut_in_the_middle_is_parsed_whole() {
        let body: String = (0..PIECE / 8).map(|i| format!("line{i}\n")).collect();
        let text = format!("a = <<EOT\n{body}EOT\nb = 1\n");
        assert!(check(&text).is_ok());
    }
}
