//! Swallowing sinks, counted (issue 24: "a fact is reported once, where it is read"). A sink
//! is a `Diagnostics` made in library code and handed to a call only so that what the call
//! reports can be thrown away or peeked at: the call both computes and reports, and another
//! pass reports the same fact. Each sink hides that double reading, and a diagnostic that only
//! the sunk call would have found is lost without a trace. The fix is to split the reading from
//! the reporting (call a function that computes without reporting), or to report there and
//! remove the other report.
//!
//! Counted as a sink ([`sinks_in`]): a `Diagnostics::with_cap(0)` (nothing kept), a
//! `&mut Diagnostics::new()` / `default()` / `with_cap(n)` made in a call's argument list (a
//! temporary nobody can read afterwards), and a `let mut quiet` or `let mut scratch` bound to a
//! new `Diagnostics` (the names this code base gives a buffer it means to drop). A buffer that
//! is read afterwards (replayed, filtered or merged into the caller's, usually named `found`)
//! is not a sink by this count; it is named in docs/architecture.md where it stays.
//!
//! The sinks left in the non-test code of `src/` are listed in [`SINKS`] with their count per
//! file. The list only shrinks: a file with more sinks than listed fails, a file not listed
//! that makes one fails, and a file whose count dropped fails until its entry is lowered (or
//! removed at zero), so progress stays locked in. Test code (`#[cfg(test)]` items and the files
//! they pull in) may make sinks freely: a test collects diagnostics to look at them.

use std::collections::BTreeMap;
use std::path::Path;

use super::rust_text::words;

/// Sinks left per file: (file, how many). Only shrinks.
const SINKS: &[(&str, usize)] = &[
    ("src/back/terraform/kubernetes/mod.rs", 2),
    ("src/cli/mod.rs", 1),
    ("src/front/variability/mod.rs", 1),
    ("src/pipeline.rs", 2),
    ("src/resolve/calls/table.rs", 1),
    ("src/resolve/substitution/mod.rs", 1),
];

/// How many sinks `code` (code only, literals and comments blanked) makes: see the module docs.
pub fn sinks_in(code: &str) -> usize {
    let args_of = |at: usize, word: &str| -> String {
        code[at + word.len()..]
            .chars()
            .take_while(|&c| c != ')')
            .filter(|c| !c.is_whitespace())
            .collect()
    };
    let nothing_kept = words(code, "with_cap")
        .filter(|&at| args_of(at, "with_cap") == "(0")
        .count();
    let squeezed = |text: &str| -> String { text.chars().filter(|c| !c.is_whitespace()).collect() };
    let made_new = |after: &str| {
        let after = squeezed(after);
        [
            "Diagnostics::new()",
            "Diagnostics::default()",
            "Diagnostics::with_cap(",
        ]
        .iter()
        .any(|made| after.starts_with(made))
            && !after.starts_with("Diagnostics::with_cap(0)")
    };
    let temporaries = code
        .match_indices("&mut")
        .filter(|&(at, _)| made_new(line_rest(code, at + "&mut".len())))
        .count();
    let named_to_drop = ["quiet", "scratch"]
        .iter()
        .flat_map(|name| words(code, name))
        .filter(|&at| squeezed(line_before(code, at)).ends_with("letmut"))
        .filter(|&at| {
            let rest = line_rest(code, at);
            rest.trim_start()
                .strip_prefix('=')
                .or_else(|| rest.split_once('=').map(|(_, r)| r))
                .is_some_and(made_new)
        })
        .count();
    nothing_kept + temporaries + named_to_drop
}

/// The text of `code` from `at` to the end of its line.
fn line_rest(code: &str, at: usize) -> &str {
    let rest = &code[at..];
    &rest[..rest.find('\n').unwrap_or(rest.len())]
}

/// The text of `code` from the start of its line to `at`.
fn line_before(code: &str, at: usize) -> &str {
    &code[code[..at].rfind('\n').map_or(0, |n| n + 1)..at]
}

/// What is wrong with `found` (file → sinks) against `allowed` (file → sinks listed).
fn ratchet(found: &BTreeMap<String, usize>, allowed: &BTreeMap<String, usize>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (file, &count) in found {
        match allowed.get(file) {
            None => wrong.push(format!(
                "{file}: {count} new sink(s): report each fact once, where it is \
                 read, instead of sinking a second report"
            )),
            Some(&then) if count > then => wrong.push(format!(
                "{file}: {count} sinks, more than the {then} listed: the list may \
                 only shrink"
            )),
            _ => {}
        }
    }
    for (file, &then) in allowed {
        let now = found.get(file).copied().unwrap_or(0);
        if now < then {
            wrong.push(format!(
                "{file}: {now} sinks, fewer than the {then} listed: lower its \
                 entry in tests/architecture/sinks.rs (remove it at 0)"
            ));
        }
    }
    wrong
}

#[test]
fn swallowing_sinks_only_go_away() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found: BTreeMap<String, usize> = super::non_test_code(root)
        .into_iter()
        .map(|(file, code)| (file, sinks_in(&code)))
        .filter(|&(_, n)| n > 0)
        .collect();
    let allowed: BTreeMap<String, usize> = SINKS.iter().map(|&(f, n)| (f.to_string(), n)).collect();
    let wrong = ratchet(&found, &allowed);
    assert!(
        wrong.is_empty(),
        "{} problems:\n{}\n\nfound now:\n{}",
        wrong.len(),
        wrong.join("\n"),
        found
            .iter()
            .map(|(f, n)| format!("    (\"{f}\", {n}),"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn sinks_are_counted_in_code_only_and_by_their_argument() {
    let code = super::rust_text::code_only(
        "let a = Diagnostics::with_cap(0);\nlet b = Diagnostics::with_cap( 0 );\n\
         let c = Diagnostics::with_cap(10);\n// Diagnostics::with_cap(0)\n\
         let d = \"with_cap(0)\";\nlet e = my_with_cap(0);\n",
    );
    assert_eq!(sinks_in(&code), 2);
}

#[test]
fn temporaries_and_buffers_named_to_be_dropped_are_sinks_too() {
    let code = super::rust_text::code_only(
        "read(x, &mut Diagnostics::new());\nread(x, &mut Diagnostics::default());\n\
         read(x, &mut Diagnostics::with_cap(1));\nread(x, &mut Diagnostics::with_cap(0));\n\
         let mut quiet = Diagnostics::new();\nlet mut scratch: Diagnostics = Diagnostics::with_cap(1);\n\
         let mut found = Diagnostics::new();\nlet mut quiet = other();\nread(x, &mut diags);\n",
    );
    // Three temporaries, one `with_cap(0)` (counted once), `quiet` and `scratch`; not `found`
    // (a buffer read afterwards), not a `quiet` that is no new `Diagnostics`.
    assert_eq!(sinks_in(&code), 6);
}

#[test]
fn the_ratchet_fails_on_growth_on_new_files_and_on_stale_entries() {
    let map = |pairs: &[(&str, usize)]| -> BTreeMap<String, usize> {
        pairs.iter().map(|&(f, n)| (f.to_string(), n)).collect()
    };
    let allowed = map(&[("src/a.rs", 2), ("src/b.rs", 1)]);
    assert!(ratchet(&map(&[("src/a.rs", 2), ("src/b.rs", 1)]), &allowed).is_empty());
    let grown = ratchet(&map(&[("src/a.rs", 3), ("src/b.rs", 1)]), &allowed);
    assert!(grown[0].contains("more than the 2 listed"), "{grown:?}");
    let new = ratchet(
        &map(&[("src/a.rs", 2), ("src/b.rs", 1), ("src/c.rs", 1)]),
        &allowed,
    );
    assert!(new[0].contains("src/c.rs: 1 new"), "{new:?}");
    let dropped = ratchet(&map(&[("src/a.rs", 1)]), &allowed);
    assert_eq!(dropped.len(), 2, "{dropped:?}");
    assert!(
        dropped.iter().all(|w| w.contains("lower its entry")),
        "{dropped:?}"
    );
}
