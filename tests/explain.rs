//! `toscana explain`: a page for every diagnostic code the program can emit, and none for a
//! code it cannot; `docs/diagnostics.md` is made from the same table and must be up to date
//! (`UPDATE_DOCS=1 cargo test --test explain` rewrites it).

mod common;

use common::toscana;

const DOCS: &str = "docs/diagnostics.md";

/// The codes of `toscana::diag::codes`, in the order they are declared, read from the source:
/// every diagnostic is made with one of these constants (a test below checks no code is
/// written out as a literal).
fn declared_codes() -> Vec<String> {
    let source = std::fs::read_to_string("src/diag.rs").unwrap();
    let module = &source[source.find("pub mod codes {").expect("a codes module")..];
    let module = &module[..module.find("\n}\n").expect("the module ends")];
    module
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .map(|l| {
            let value = l.split('"').nth(1).expect("a string constant");
            value.to_string()
        })
        .collect()
}

#[test]
fn every_code_has_a_page_in_the_order_of_the_codes() {
    let declared = declared_codes();
    assert!(declared.len() > 70, "{declared:?}");
    let pages: Vec<&str> = toscana::explain::PAGES.iter().map(|p| p.code).collect();
    let missing: Vec<&String> = declared
        .iter()
        .filter(|c| !pages.contains(&c.as_str()))
        .collect();
    let stale: Vec<&&str> = pages
        .iter()
        .filter(|p| !declared.iter().any(|c| c == *p))
        .collect();
    assert!(missing.is_empty(), "codes without a page: {missing:?}");
    assert!(
        stale.is_empty(),
        "pages for codes the program has not: {stale:?}"
    );
    assert_eq!(
        pages, declared,
        "the pages are not in the order of the codes"
    );
    for p in toscana::explain::PAGES {
        for (what, text) in [
            ("summary", p.summary),
            ("meaning", p.meaning),
            ("example", p.example),
            ("fix", p.fix),
        ] {
            assert!(!text.trim().is_empty(), "{}: empty {what}", p.code);
            // User-facing text cites no spec line numbers.
            assert!(
                !text
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w.len() > 3
                        && w.starts_with('L')
                        && w[1..].chars().all(|c| c.is_ascii_digit())),
                "{}: a line number in its {what}",
                p.code
            );
        }
    }
}

/// No diagnostic is made with a code written out: every code goes through a constant, so the
/// list above is every code there is.
#[test]
fn no_code_is_written_out_as_a_literal() {
    let mut offenders = Vec::new();
    let mut stack = vec![std::path::PathBuf::from("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if (line.contains("Diagnostic::error(\"")
                        || line.contains("Diagnostic::warning(\""))
                        && !path.ends_with("diag.rs")
                    {
                        offenders.push(format!("{}:{}", path.display(), i + 1));
                    }
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:?}");
}

#[test]
fn docs_diagnostics_is_made_from_the_table() {
    let made = toscana::explain::markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(DOCS, &made).unwrap();
    }
    let written = std::fs::read_to_string(DOCS).unwrap_or_default();
    assert!(
        written == made,
        "{DOCS} is out of date with src/explain/pages.rs: run `UPDATE_DOCS=1 cargo test --test explain`"
    );
}

#[test]
fn explain_prints_the_page_of_a_code() {
    let out = toscana()
        .args(["explain", "tosca::unknown-keyname"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("tosca::unknown-keyname: a keyname that the grammar"),
        "{text}"
    );
    for heading in ["\nWhat it means\n", "\nExample\n", "\nHow to fix it\n"] {
        assert!(text.contains(heading), "{text}");
    }
    // As printed in a diagnostic's header, brackets and all.
    let out = toscana()
        .args(["explain", "warning[tosca::unfulfilled-requirement]"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
}

#[test]
fn an_unknown_code_is_a_usage_error_with_the_nearest_code() {
    let out = toscana()
        .args(["explain", "tosca::unknown-keynames"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = common::stderr(&out);
    assert!(
        err.contains("did you mean `tosca::unknown-keyname`?"),
        "{err}"
    );
}

#[test]
fn explain_list_names_every_code_once() {
    let out = toscana().args(["explain", "--list"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let listed: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(listed, declared_codes());
}
