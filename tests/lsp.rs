//! `toscana lsp` end to end, with two real clients of the real binary over stdio:
//!
//! - pytest-lsp (tests/lsp/test_server.py): every feature on a Simple Profile 1.3 template and
//!   its type file, a TOSCA 2.0 service, a TOSCA 1.0 XML file, and documents broken mid-edit;
//! - Neovim headless (tests/lsp/nvim.lua): a diagnostic at the right line and column, and a
//!   definition.
//!
//! Each starts one server for all its assertions. `.ci/run` installs both (pytest-lsp into the
//! checkers venv, pinned; Neovim from Debian); elsewhere a missing client skips its test with
//! a notice, and under CI=true it fails.

mod common;

use std::path::Path;
use std::process::Command;

/// The Python that has pytest-lsp: the first `python3` on PATH (`.ci/run` puts the checkers
/// venv first).
fn python_with_pytest_lsp() -> Option<&'static str> {
    let ok = Command::new("python3")
        .args(["-c", "import pytest_lsp"])
        .output()
        .is_ok_and(|out| out.status.success());
    ok.then_some("python3")
}

#[test]
fn pytest_lsp_drives_every_feature() {
    let python = python_with_pytest_lsp();
    if python.is_none() {
        common::skip(
            "the language server's pytest-lsp tests",
            "pytest-lsp is not installed (.ci/run installs it in the checkers venv)",
        );
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp");
    let out = Command::new(python.unwrap())
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "test_server.py",
        ])
        .current_dir(&dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("TOSCANA_BIN", env!("CARGO_BIN_EXE_toscana"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "pytest-lsp failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("passed") && !stdout.contains("skipped"),
        "{stdout}"
    );
}

#[test]
fn neovim_shows_the_diagnostic_and_resolves_a_definition() {
    if !common::tool_present("nvim", "the language server's Neovim test") {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp");
    let workspace = tempfile::tempdir().unwrap();
    common::copy_dir(&dir.join("workspace"), workspace.path());
    let template = workspace.path().join("simple/app.yaml");
    let out = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", dir.join("nvim.lua").display()))
        .env("TOSCANA_BIN", env!("CARGO_BIN_EXE_toscana"))
        .env("TOSCANA_TEMPLATE", &template)
        .env("XDG_CACHE_HOME", workspace.path().join("cache"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("ok"),
        "Neovim: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
