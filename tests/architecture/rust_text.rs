//! Rust source as the architecture tests read it: code only, with comments and the contents of
//! string and character literals blanked to spaces (newlines kept), so byte offsets and line
//! numbers stay those of the file, a `crate::` in a doc comment or a `{` in a string is not
//! code, and test-only items can be cut out by matching braces.

/// `text` with comments and literal contents replaced by spaces, newlines kept.
pub fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut [u8], from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let after_ident = i > 0 && is_ident_byte(bytes[i - 1]);
        if rest.starts_with(b"//") {
            let end = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let end = block_comment_end(bytes, i);
            blank(&mut out, i, end);
            i = end;
        } else if !after_ident && let Some((open, hashes)) = raw_string_start(rest) {
            let body = i + open;
            let close = format!("\"{}", "#".repeat(hashes));
            let end = text[body..]
                .find(&close)
                .map_or(bytes.len(), |n| body + n + close.len());
            blank(&mut out, body, end.saturating_sub(close.len()).max(body));
            i = end;
        } else if rest[0] == b'"' {
            let end = string_end(bytes, i + 1);
            blank(&mut out, i + 1, end.saturating_sub(1).max(i + 1));
            i = end;
        } else if rest[0] == b'\'' {
            match char_literal_end(text, i) {
                Some(end) => {
                    blank(&mut out, i + 1, end - 1);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were written over whole characters")
}

pub fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The end (exclusive) of the nested block comment starting at `start`.
fn block_comment_end(bytes: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i + 1 < bytes.len() {
        match &bytes[i..i + 2] {
            b"/*" => {
                depth += 1;
                i += 2;
            }
            b"*/" => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    bytes.len()
}

/// `r"`, `r#"`, `br##"`...: the length of the opening and the number of `#`.
fn raw_string_start(rest: &[u8]) -> Option<(usize, usize)> {
    let after_b = if rest.starts_with(b"br") { 2 } else { 1 };
    if !rest.starts_with(b"r") && !rest.starts_with(b"br") {
        return None;
    }
    let hashes = rest[after_b..].iter().take_while(|&&b| b == b'#').count();
    (rest.get(after_b + hashes) == Some(&b'"')).then_some((after_b + hashes + 1, hashes))
}

/// The end (exclusive, past the closing quote) of a string whose body starts at `body`.
fn string_end(bytes: &[u8], body: usize) -> usize {
    let mut i = body;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The end of the character literal at `start` (a `'`), or `None` for a lifetime or label.
fn char_literal_end(text: &str, start: usize) -> Option<usize> {
    let after = &text[start + 1..];
    if let Some(escaped) = after.strip_prefix('\\') {
        return escaped
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == '\'')
            .map(|(n, _)| start + 2 + n + 1);
    }
    let c = after.chars().next()?;
    after[c.len_utf8()..]
        .starts_with('\'')
        .then_some(start + 1 + c.len_utf8() + 1)
}

/// The end (exclusive) of the item starting at `from`: past its `;` or the `}` matching its
/// first `{`, whichever comes first.
pub fn item_end(code: &str, from: usize) -> usize {
    let bytes = code.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b';' => return i + 1,
            b'{' => return matching_brace(code, i),
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The end (exclusive) of the `{ ... }` whose `{` is at `open`.
pub fn matching_brace(code: &str, open: usize) -> usize {
    let mut depth = 0usize;
    for (i, b) in code.bytes().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The line (1-based) of byte `offset`.
pub fn line_of(code: &str, offset: usize) -> usize {
    code[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// Offsets of `word` in `code` as a whole word (not inside a longer identifier).
pub fn words<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    code.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        let before = i.checked_sub(1).map(|b| code.as_bytes()[b]);
        let after = code.as_bytes().get(i + word.len()).copied();
        !before.is_some_and(|b| is_ident_byte(b) || b == b'$') && !after.is_some_and(is_ident_byte)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_literals_are_blanked_in_place() {
        let text = "let a = \"crate::x {\"; // crate::y\n/* crate::z /* nested */ */ let c = '{';\nlet r = r#\"a \" crate::w\"#; 'label: loop {}\nlet l: &'a str = b\"}\";";
        let code = code_only(text);
        assert_eq!(code.len(), text.len());
        assert_eq!(code.lines().count(), text.lines().count());
        assert!(!code.contains("crate::"), "{code}");
        assert_eq!(code.matches('{').count(), 1, "{code}");
        assert_eq!(code.matches('}').count(), 1, "{code}");
        assert!(
            code.contains("'label: loop") && code.contains("&'a str"),
            "{code}"
        );
        assert!(code.contains("let c = ' ';"), "{code}");
    }

    #[test]
    fn items_end_at_their_semicolon_or_closing_brace() {
        let code = "mod tests; fn f() { if x { y } } z";
        assert_eq!(&code[..item_end(code, 0)], "mod tests;");
        assert_eq!(&code[11..item_end(code, 11)], "fn f() { if x { y } }");
    }
}
