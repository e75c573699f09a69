//! `toscana explain CODE`: a page for each diagnostic code, saying what it means, showing an
//! example that gets it, and what fixes it.
//!
//! The pages are one table ([`PAGES`]); `docs/diagnostics.md` is made from it
//! ([`markdown`]), and a test keeps both in step with the codes the program emits
//! ([`crate::diag::codes`]).

mod pages;

use std::fmt::Write as _;

pub use pages::PAGES;

/// One diagnostic code, explained.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    pub code: &'static str,
    /// What the code reports, in one line.
    pub summary: &'static str,
    /// What it means, and why toscana reports it (and as what: error, warning, or either).
    pub meaning: &'static str,
    /// An input, or a command line, that gets it.
    pub example: &'static str,
    /// What to do about it.
    pub fix: &'static str,
}

/// The page of `code`.
pub fn page(code: &str) -> Option<&'static Page> {
    PAGES.iter().find(|p| p.code == code)
}

/// A page as `toscana explain` prints it.
pub fn text(p: &Page) -> String {
    let mut out = format!("{}: {}\n", p.code, p.summary);
    for (heading, body, wrap) in [
        ("What it means", p.meaning, true),
        ("Example", p.example, false),
        ("How to fix it", p.fix, true),
    ] {
        let _ = write!(out, "\n{heading}\n");
        for line in body.lines() {
            match wrap {
                true => wrapped(&mut out, line),
                false => {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
    }
    out
}

/// Prose of a page as terminal lines: indented by four, broken between words before column 96.
fn wrapped(out: &mut String, text: &str) {
    const WIDTH: usize = 92;
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > WIDTH {
            let _ = writeln!(out, "    {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    let _ = writeln!(out, "    {line}");
}

/// `docs/diagnostics.md`: every page, in the order of the codes.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Diagnostics\n\n\
         <!-- Generated from src/explain/pages.rs by `UPDATE_DOCS=1 cargo test --test explain`; \
         edit the table, not this file. -->\n\n\
         Every problem toscana reports has a stable code, printed in brackets \
         (`error[tosca::unknown-keyname]`) and in the `code` field of `--message-format json`. \
         A code never changes meaning, so tools may match on it. `toscana explain CODE` prints \
         the page below for one code; `toscana explain --list` lists them all.\n\n\
         Errors make the run fail (exit 1) and nothing is written; warnings do not, unless \
         `--deny-warnings` (`-D warnings`) is given. The prefix names the stage that found the \
         problem: `input`, `csar`, `import`, `yaml`, `tosca`, `variability`, `xml`, `backend`, \
         `k8s`, `terraform`, `output`, `cli`.\n\n",
    );
    for p in PAGES {
        let _ = writeln!(out, "- [`{}`](#{}): {}", p.code, anchor(p.code), p.summary);
    }
    for p in PAGES {
        let _ = write!(
            out,
            "\n## `{}`\n\n{}.\n\n{}\n\n**Example**\n\n```text\n{}\n```\n\n**How to fix it:** {}\n",
            p.code,
            capitalized(p.summary),
            p.meaning,
            p.example,
            p.fix
        );
    }
    out
}

/// The anchor GitHub gives the heading of `code`: `tosca::unknown-keyname` is
/// `toscaunknown-keyname`.
fn anchor(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some('`') => text.to_string(),
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
