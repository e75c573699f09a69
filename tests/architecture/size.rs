//! Size limits for `src/`: no file over [`MAX_FILE_LINES`] lines and no function over
//! [`MAX_FN_LINES`] (issue 24), so each module answers one question and each function fits on a
//! screen or two. Lines are counted as the file has them, comments and blank lines included;
//! a function from its `fn` line to its closing brace, test functions included.
//!
//! What exceeds them today is listed in [`BIG_FILES`] and [`BIG_FNS`] with its size then: only
//! tables (the `explain` pages, keyname grammars), the exception the issue allows; everything
//! else is within the limits. The lists only shrink: an entry that grows fails, and so does one
//! back within the limit (remove it).

use std::collections::BTreeMap;
use std::path::Path;

use super::rust_text::{code_only, is_ident_byte, line_of, matching_brace, words};

pub const MAX_FILE_LINES: usize = 800;
pub const MAX_FN_LINES: usize = 120;

/// A table: data laid out one entry a line, which splitting would only scatter (a file listed
/// so is within the limit without its table).
const TABLE: &str = "a table";

/// Files over the limit today: (file, its lines then, why).
const BIG_FILES: &[(&str, usize, &str)] = &[];

/// Functions over the limit today: (file, function, its lines then, why).
const BIG_FNS: &[(&str, &str, usize, &str)] = &[
    ("src/front/simple_grammar/table.rs", "table", 326, TABLE),
    ("src/front/tosca2/table.rs", "table", 377, TABLE),
];

/// Every function of `code` with a body: its name and its length in lines.
pub fn functions(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for at in words(code, "fn") {
        let rest = code[at + 2..].trim_start();
        let name_len = rest.bytes().take_while(|&b| is_ident_byte(b)).count();
        if name_len == 0 {
            continue; // a `fn(..)` type
        }
        let name = &rest[..name_len];
        // The body's `{`, or a `;` ending a declaration without one; brackets in the signature
        // (`[u8; 4]`) are skipped.
        let mut depth = 0i32;
        let mut body = None;
        for (i, &b) in bytes.iter().enumerate().skip(at) {
            match b {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'{' if depth == 0 => {
                    body = Some(i);
                    break;
                }
                b';' if depth == 0 => break,
                _ => {}
            }
        }
        if let Some(open) = body {
            let end = matching_brace(code, open);
            let lines = line_of(code, end.saturating_sub(1)) - line_of(code, at) + 1;
            out.push((name.to_string(), lines));
        }
    }
    out
}

/// Checks `found` (name → lines) against the limit and the allow-list `allowed` (name → lines
/// then); returns what is wrong.
fn ratchet(
    what: &str,
    limit: usize,
    found: &BTreeMap<String, usize>,
    allowed: &BTreeMap<String, usize>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (name, &lines) in found {
        match allowed.get(name) {
            None if lines > limit => wrong.push(format!(
                "{name}: {lines} lines, over the limit of {limit} {what}"
            )),
            Some(&then) if lines > then => wrong.push(format!(
                "{name}: {lines} lines, more than the {then} it was allowed: it may only shrink"
            )),
            _ => {}
        }
    }
    for (name, &then) in allowed {
        if found.get(name).is_none_or(|&lines| lines <= limit) {
            wrong.push(format!(
                "{name} (allowed {then} lines) is now within the limit of {limit} {what} or gone: \
                 remove its entry from tests/architecture/size.rs"
            ));
        }
    }
    wrong
}

#[test]
fn files_and_functions_stay_within_the_size_limits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = BTreeMap::new();
    let mut fns = BTreeMap::new();
    for (file, text) in super::sources(root) {
        files.insert(file.clone(), text.lines().count());
        for (name, lines) in functions(&code_only(&text)) {
            let key = format!("{file} fn {name}");
            let longest = fns.entry(key).or_insert(0);
            *longest = lines.max(*longest);
        }
    }
    assert!(fns.len() > 1000, "the functions of src/ were not found");
    let allowed_files = BIG_FILES
        .iter()
        .map(|(f, n, _)| (f.to_string(), *n))
        .collect();
    let allowed_fns = BIG_FNS
        .iter()
        .map(|(f, name, n, _)| (format!("{f} fn {name}"), *n))
        .collect();
    let mut wrong = ratchet("lines a file", MAX_FILE_LINES, &files, &allowed_files);
    wrong.extend(ratchet(
        "lines a function",
        MAX_FN_LINES,
        &fns,
        &allowed_fns,
    ));
    assert!(
        wrong.is_empty(),
        "{} problems:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn functions_are_measured_from_fn_to_their_closing_brace() {
    let code = code_only(
        "fn a(x: [u8; 4]) -> bool {\n    let f: fn(u8) = g;\n    { x }\n}\ntrait T { fn d(&self); }\nfn b() {}\n",
    );
    assert_eq!(
        functions(&code),
        [("a".to_string(), 4), ("b".to_string(), 1)]
    );
}
