//! How a unit test that cannot run here (a tool missing, privileges it cannot drop) says so:
//! visibly, and never under `CI=true`, where it fails instead (docs/testing.md).

use std::io::Write as _;

/// Skips the rest of a unit test: under `CI=true` a failure, elsewhere a notice naming `what` is
/// skipped and `why`, written to the standard error stream itself, which the test harness does
/// not capture (what `eprintln!` prints from a passing test is never shown).
pub(crate) fn skip(what: &str, why: &str) {
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "{what} cannot run under CI=true: {why}"
    );
    let _ = writeln!(std::io::stderr(), "notice: SKIPPED {what}: {why}");
}
