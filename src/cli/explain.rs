//! `toscana explain CODE`: prints the page of a diagnostic code ([`crate::explain`]), or the
//! list of them all.

use std::fmt::Write as _;
use std::process::ExitCode;

use super::{EXIT_USAGE, ExplainArgs, stdio};
use crate::diag::closest;
use crate::explain::{PAGES, page, text};

/// Runs `toscana explain`.
pub fn run(args: &ExplainArgs) -> ExitCode {
    if args.list {
        let width = PAGES.iter().map(|p| p.code.len()).max().unwrap_or(0);
        let mut out = String::new();
        for p in PAGES {
            let _ = writeln!(out, "{:width$}  {}", p.code, p.summary);
        }
        return stdio::print(&out, 0);
    }
    let code = args.code.as_deref().unwrap_or_default();
    // `error[tosca::unknown-keyname]` pasted whole works too.
    let code = code
        .trim()
        .trim_start_matches("error")
        .trim_start_matches("warning")
        .trim_matches(|c| c == '[' || c == ']');
    match page(code) {
        Some(p) => stdio::print(&text(p), 0),
        None => {
            let codes: Vec<&str> = PAGES.iter().map(|p| p.code).collect();
            let hint = match closest(code, &codes) {
                Some(near) => format!("did you mean `{near}`?"),
                None => "`toscana explain --list` lists every code".to_string(),
            };
            let _ = stdio::to_stderr(&format!(
                "error: `{code}` is not a diagnostic code of toscana\n  help: {hint}\n"
            ));
            ExitCode::from(EXIT_USAGE)
        }
    }
}
