//! The not-translated ledger over every golden (issue 26, "nothing silently dropped"): each
//! case that translates with `k8s` or `tf` keeps, in `not-translated.<command>`, the
//! `backend::not-translated` warnings that translation gives, one per line as
//! `file:line:column: message`; a case without the file expects none. The file is a claim like
//! any golden: every key it names is one the output really does not carry, and every key the
//! output does not carry (and the mapping does not list under `ignore:` with a reason) is named.

use std::path::Path;

use serde_json::Value;

/// The commands whose backends keep the ledger.
pub const COMMANDS: &[&str] = &["k8s", "tf"];

/// The file of a case that lists what `command` does not translate.
pub fn expected_file(case: &Path, command: &str) -> std::path::PathBuf {
    case.join(format!("not-translated.{command}"))
}

/// The `backend::not-translated` warnings in `--message-format json` output, each as
/// `file:line:column: message`, in the order given.
pub fn warnings(json_lines: &str) -> Vec<String> {
    json_lines
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|d| d["code"] == "backend::not-translated")
        .map(|d| {
            format!(
                "{}:{}:{}: {}",
                d["file"].as_str().unwrap_or("?"),
                d["line"],
                d["column"],
                d["message"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// The expected warnings of a case (none when it has no file).
pub fn expected(case: &Path, command: &str) -> Vec<String> {
    std::fs::read_to_string(expected_file(case, command))
        .map(|t| {
            t.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}
